//! Names in a data file's lists are keys (cards are picked out by name in `show`, the summaries
//! and the tests), so a name given twice is refused, naming both entries and both lines.

use std::collections::HashMap;

use crate::error::EngineError;

/// Refuses a name given to two entries of a top-level list of a YAML data file (Ginza's
/// `orders`, `players`, `bonus`; Wok Star's `recipes`, `events`, `characters`), naming both
/// entries and, where found, both lines. One pass with a map, so a hostile list of many entries
/// costs linear time.
pub(crate) fn unique_names(
    section: &str,
    names: &[&str],
    file: &str,
    text: &str,
) -> Result<(), EngineError> {
    let mut first: HashMap<&str, usize> = HashMap::with_capacity(names.len());
    for (j, name) in names.iter().enumerate() {
        let Some(&i) = first.get(name.trim()) else {
            first.insert(name.trim(), j);
            continue;
        };
        let lines = name_lines(text, section, name.trim());
        let line = |k: usize| match lines.get(k) {
            Some(l) => format!(" (line {l})"),
            None => String::new(),
        };
        return Err(EngineError::Data {
            file: file.to_string(),
            line: lines.get(1).copied().unwrap_or(0),
            column: 0,
            field: format!("{section}[{j}].name"),
            message: format!(
                "`{name}` names both {section}[{i}]{} and {section}[{j}]{}; each name may be \
                 used once",
                line(0),
                line(1)
            ),
        });
    }
    Ok(())
}

/// The 1-based lines of the top-level `section:` of a YAML text whose `name:` is `name`
/// (plain or quoted).
fn name_lines(text: &str, section: &str, name: &str) -> Vec<usize> {
    let head = format!("{section}:");
    let mut in_section = false;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let top = !line.is_empty() && !line.starts_with([' ', '-', '#', '\t']);
        if top {
            in_section = line.starts_with(&head);
        }
        if !in_section {
            continue;
        }
        let mut rest = line;
        while let Some(k) = rest.find("name:") {
            rest = rest[k + 5..].trim_start();
            let bare = rest.trim_start_matches(['"', '\'']);
            if let Some(after) = bare.strip_prefix(name) {
                if after.is_empty() || after.starts_with([',', '}', '"', '\'', ' ', '#']) {
                    out.push(i + 1);
                    break;
                }
            }
        }
    }
    out
}
