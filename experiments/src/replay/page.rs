//! The replay page: one HTML file with its style, script and data inline. The data is the
//! [`ReplayDoc`] as JSON in a `<script type="application/json">` element, with `<`, `>` and `&`
//! written as JSON escapes, so no text in it (a card name holding `</script>`) can end the
//! element; the script reads it with `JSON.parse` and writes every text with `textContent`.
//!
//! Stable hooks for a browser test: `#step-slider`, `#step-label`, `#result` (a row per seat,
//! `tr[data-seat][data-score][data-rank]`, filled at the last step) and `#action-list`.

use super::record::ReplayDoc;
use anyhow::Result;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// `json` made safe inside a `<script>` element: `<`, `>` and `&` as JSON's `\u` escapes
/// (they occur only inside strings in JSON, where the escapes read back the same).
pub fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// `text` escaped for HTML text and attribute values.
pub fn html_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The page of a replay.
pub fn html(doc: &ReplayDoc) -> Result<String> {
    let title = match doc.seat {
        Some(s) => format!("{} seed {}, as player {s} sees it", doc.game, doc.seed),
        None => format!("{} seed {}", doc.game, doc.seed),
    };
    let data = script_json(&serde_json::to_string(doc)?);
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>shifu replay: {title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
         <header><h1>{title}</h1><p id=\"origin\"></p></header>\n\
         <nav id=\"controls\">\
         <button id=\"first\" title=\"first step (Home)\">|◀</button>\
         <button id=\"prev\" title=\"previous step (←)\">◀</button>\
         <button id=\"play\" title=\"autoplay (space)\">▶ play</button>\
         <button id=\"next\" title=\"next step (→)\">▶</button>\
         <button id=\"last\" title=\"last step (End)\">▶|</button>\
         <input id=\"step-slider\" type=\"range\" min=\"0\" value=\"0\" aria-label=\"step\">\
         <span id=\"step-label\"></span></nav>\n\
         <main><section id=\"board-area\"><p id=\"status\"></p><svg id=\"board\" \
         xmlns=\"http://www.w3.org/2000/svg\" width=\"1000\" height=\"200\"></svg></section>\n\
         <aside><h2>This step</h2><div id=\"why\"></div>\
         <h2>Result</h2><table id=\"result\"></table>\
         <h2>Actions</h2><ol id=\"action-list\" start=\"1\"></ol></aside></main>\n\
         <script id=\"replay-data\" type=\"application/json\">{data}</script>\n\
         <script>\n{SCRIPT}</script>\n</body>\n</html>\n",
        title = html_text(&title),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn script_json_cannot_end_the_script_element() {
        let json = serde_json::to_string("</script><b>&").unwrap();
        let safe = script_json(&json);
        assert!(!safe.contains('<') && !safe.contains('>') && !safe.contains('&'));
        let back: String = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, "</script><b>&");
    }

    /// A name holding `</script>` (from a data file, say) stays inside the data element.
    #[test]
    fn a_hostile_name_cannot_break_out_of_the_page_data() {
        use crate::replay::record::{Final, ReplayDoc};
        let evil = "</script><script>alert(1)</script>";
        let doc = ReplayDoc {
            game: "wok-star".into(),
            players: 1,
            seed: 1,
            agents: vec![evil.into()],
            seat: None,
            origin: evil.into(),
            frames: vec![shifu_engine::board::Board::new(evil)],
            steps: Vec::new(),
            outcome: Final {
                score: vec![1.0],
                rank: vec![1],
                winners: vec![1],
                capped: false,
            },
        };
        let page = html(&doc).unwrap();
        assert_eq!(page.matches("</script>").count(), 2, "{page}");
        assert!(!page.contains("alert(1)</"));
    }

    #[test]
    fn html_text_escapes_markup() {
        assert_eq!(html_text("a<b>&\"c'"), "a&lt;b&gt;&amp;&quot;c&#39;");
    }
}
