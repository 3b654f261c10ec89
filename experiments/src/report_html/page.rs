//! The report page: headings, paragraphs, tables and charts, written into one HTML file with its
//! style and script inline. Every text is escaped here; the charts come from [`super::svg`],
//! which escapes its own.
//!
//! Stable hooks for a browser test: `section.report[data-kind]`, `figure.chart[data-name]`
//! holding one `<svg>` and a `button.export`, and the charts' own classes and data attributes.

use crate::replay::page::html_text;
use std::fmt::Write as _;

const STYLE: &str = include_str!("page.css");
const SCRIPT: &str = include_str!("page.js");

/// One block of a report, in page order.
pub enum Block {
    /// A section heading.
    Heading(String),
    /// A paragraph.
    Para(String),
    /// A paragraph in bold (a verdict, a warning).
    Strong(String),
    /// A chart with its caption.
    Chart(Chart),
    /// A table: its head and rows.
    Table(Vec<String>, Vec<Vec<String>>),
}

/// A chart: its file name for export, its caption and its SVG (already escaped).
pub struct Chart {
    /// The name an exported file takes (`NAME.svg`), letters, digits and `-` only.
    pub name: String,
    /// What the chart shows.
    pub caption: String,
    /// The `<svg>` element.
    pub svg: String,
}

/// A report page.
pub struct Page {
    /// The page's title.
    pub title: String,
    /// A line under it (the input file).
    pub subtitle: String,
    /// What was reported: `run`, `sweep`, `balance`, `tournament` or `dose`.
    pub kind: &'static str,
    /// The blocks.
    pub blocks: Vec<Block>,
}

impl Page {
    /// An empty page.
    pub fn new(kind: &'static str, title: String, subtitle: String) -> Page {
        Page {
            title,
            subtitle,
            kind,
            blocks: Vec::new(),
        }
    }

    /// Adds a block.
    pub fn push(&mut self, b: Block) {
        self.blocks.push(b);
    }

    /// The page as one HTML document.
    pub fn html(&self) -> String {
        let mut body = String::new();
        for b in &self.blocks {
            block_html(&mut body, b);
        }
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
             <title>shifu report: {title}</title>\n<style>\n{STYLE}</style>\n</head>\n<body>\n\
             <header><h1>{title}</h1><p>{sub}</p></header>\n\
             <main><section class=\"report\" data-kind=\"{kind}\">\n{body}</section></main>\n\
             <div id=\"tooltip\" hidden></div>\n<script>\n{SCRIPT}</script>\n</body>\n</html>\n",
            title = html_text(&self.title),
            sub = html_text(&self.subtitle),
            kind = self.kind,
        )
    }
}

fn block_html(out: &mut String, b: &Block) {
    let _ = match b {
        Block::Heading(t) => writeln!(out, "<h2>{}</h2>", html_text(t)),
        Block::Para(t) => writeln!(out, "<p>{}</p>", html_text(t)),
        Block::Strong(t) => writeln!(out, "<p class=\"strong\">{}</p>", html_text(t)),
        Block::Chart(c) => writeln!(
            out,
            "<figure class=\"chart\" data-name=\"{name}\">{svg}<figcaption>{cap}</figcaption>\
             <button class=\"export\" type=\"button\">export SVG</button></figure>",
            name = file_name(&c.name),
            svg = c.svg,
            cap = html_text(&c.caption)
        ),
        Block::Table(head, rows) => {
            out.push_str("<table class=\"data\"><thead><tr>");
            for h in head {
                let _ = write!(out, "<th>{}</th>", html_text(h));
            }
            out.push_str("</tr></thead><tbody>");
            for r in rows {
                out.push_str("<tr>");
                for c in r {
                    let _ = write!(out, "<td>{}</td>", html_text(c));
                }
                out.push_str("</tr>");
            }
            writeln!(out, "</tbody></table>")
        }
    };
}

/// `name` with every character but ASCII letters, digits and `-` made `-`.
fn file_name(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts_are_escaped_and_names_cleaned() {
        let mut p = Page::new("run", "<script>x</script>".into(), "a&b".into());
        p.push(Block::Para("<img src=x onerror=alert(1)>".into()));
        p.push(Block::Table(
            vec!["<th>".into()],
            vec![vec!["</td><script>".into()]],
        ));
        p.push(Block::Chart(Chart {
            name: "seats\"><script>".into(),
            caption: "<b>".into(),
            svg: "<svg></svg>".into(),
        }));
        let html = p.html();
        assert_eq!(html.matches("<script").count(), 1, "{html}");
        assert!(!html.contains("<img"));
        assert!(html.contains("data-name=\"seats---script-\""));
    }
}
