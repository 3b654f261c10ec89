//! Errors the engine reports for bad input: data files and parameters.

use std::path::PathBuf;

/// An error building a game from its data file and parameters. Every variant names where the
/// problem is (file, line, field or parameter key) and, where it can, what would fix it.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// A data file could not be read.
    #[error("cannot read data file {file}")]
    Io {
        /// The file.
        file: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A data file is not well formed or has a bad value.
    #[error("{file}:{line}:{column}: field `{field}`: {message}")]
    Data {
        /// The file (or `<embedded ...>` for the default data).
        file: String,
        /// 1-based line, 0 when unknown.
        line: usize,
        /// 1-based column, 0 when unknown.
        column: usize,
        /// The field's path, for example `production_cards[3].upgrade_cost.coins`.
        field: String,
        /// What is wrong.
        message: String,
    },
    /// A parameter is unknown or has a bad value.
    #[error("parameter `{key}`: {message}")]
    Param {
        /// The parameter key, for example `start_coins`.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// A parameter file could not be read or parsed.
    #[error("parameter file {file}: {message}")]
    ParamFile {
        /// The file.
        file: PathBuf,
        /// What is wrong.
        message: String,
    },
}

/// Reads a data file's text (a regular file within [`crate::files::MAX_INPUT_BYTES`]); a
/// failure names the file.
pub fn read_data_file(path: &std::path::Path) -> Result<String, EngineError> {
    crate::files::read_text(path).map_err(|e| EngineError::Io {
        file: e.file,
        source: e.error,
    })
}

/// The deepest nesting a YAML file may have (flow brackets, block indentation levels and
/// sequence dashes together). shifu's data files nest about 5 deep; the parser takes minutes on
/// 100 000 levels, so a deeper file is refused before parsing.
pub const MAX_YAML_DEPTH: usize = 64;

/// A cheap upper estimate of a YAML text's nesting depth and the 1-based line where it first
/// passes [`MAX_YAML_DEPTH`]: flow brackets outside quoted scalars and comments, plus the block
/// indentation levels and leading `- ` dashes of the line.
fn yaml_too_deep(text: &str) -> Option<usize> {
    let (mut flow, mut quote) = (0usize, None::<char>);
    let mut indents: Vec<usize> = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let body = line.trim_start_matches(' ');
        let indent = line.len() - body.len();
        let mut depth = 0;
        if flow == 0 && quote.is_none() && !body.is_empty() && !body.starts_with('#') {
            while indents.last().is_some_and(|&i| i > indent) {
                indents.pop();
            }
            if indents.last().is_none_or(|&i| i < indent) {
                indents.push(indent);
            }
            let mut rest = body;
            while let Some(r) = rest
                .strip_prefix('-')
                .filter(|r| r.is_empty() || r.starts_with(' '))
            {
                depth += 1;
                rest = r.trim_start_matches(' ');
            }
            depth += indents.len();
        }
        let mut prev = ' ';
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match quote {
                Some('\'') if c == '\'' => {
                    if chars.peek() == Some(&'\'') {
                        chars.next();
                    } else {
                        quote = None;
                    }
                }
                Some('"') if c == '\\' => {
                    chars.next();
                }
                Some('"') if c == '"' => quote = None,
                Some(_) => {}
                None => match c {
                    '#' if prev == ' ' || prev == '\t' => break,
                    '\'' | '"' if " \t:,[{-?".contains(prev) => quote = Some(c),
                    '[' | '{' => flow += 1,
                    ']' | '}' => flow = flow.saturating_sub(1),
                    _ => {}
                },
            }
            prev = c;
            if depth + flow > MAX_YAML_DEPTH {
                return Some(n + 1);
            }
        }
        if depth + flow > MAX_YAML_DEPTH {
            return Some(n + 1);
        }
    }
    None
}

/// Parses YAML text into `T`; an error names the file, line, column and field path. Text nested
/// deeper than [`MAX_YAML_DEPTH`] is refused before parsing.
pub fn from_yaml<T: serde::de::DeserializeOwned>(text: &str, file: &str) -> Result<T, EngineError> {
    if let Some(line) = yaml_too_deep(text) {
        return Err(EngineError::Data {
            file: file.to_string(),
            line,
            column: 0,
            field: String::new(),
            message: format!(
                "nested deeper than {MAX_YAML_DEPTH} levels (the limit on YAML nesting)"
            ),
        });
    }
    let de = serde_norway::Deserializer::from_str(text);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        let (line, column) = inner
            .location()
            .map(|l| (l.line(), l.column()))
            .unwrap_or((0, 0));
        EngineError::Data {
            file: file.to_string(),
            line,
            column,
            field,
            message: inner.to_string(),
        }
    })
}

/// Parses a state (JSON) into `T`; an error names the field by its path (`places[1].orders[2]:
/// invalid value ...`), so a value out of a field's type range is reported like any other
/// refused field.
pub fn state_from_json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let t: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let field = e.path().to_string();
        let inner = e.into_inner();
        // A number the parser cannot read (a float for a 128-bit integer) leaves the path
        // unknown: the key just before the error names it.
        let field = match field.as_str() {
            "?" => key_before(text, inner.line(), inner.column()).unwrap_or(field),
            _ => field,
        };
        format!("{field}: {inner}")
    })?;
    de.end().map_err(|e| format!("(after the state): {e}"))?;
    Ok(t)
}

/// The last object key before 1-based `line` and `column` of a JSON text.
fn key_before(text: &str, line: usize, column: usize) -> Option<String> {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let end = (start + column).min(text.len());
    let before = text.get(..end)?;
    let colon = before.rfind("\":")?;
    let open = before[..colon].rfind('"')?;
    Some(before[open + 1..colon].to_string())
}

/// The 1-based line of the first occurrence of `needle` at or after the line that starts the
/// top-level `section:` of a YAML text; 0 when not found. Locates errors found after parsing.
pub fn locate(text: &str, section: &str, needle: &str) -> usize {
    let head = format!("{section}:");
    let mut in_section = false;
    for (i, line) in text.lines().enumerate() {
        if line.starts_with(&head) {
            in_section = true;
        }
        if in_section && line.contains(needle) {
            return i + 1;
        }
    }
    0
}

impl EngineError {
    /// A data error at a field with no position.
    pub fn field(file: &str, field: impl Into<String>, message: impl Into<String>) -> Self {
        EngineError::Data {
            file: file.to_string(),
            line: 0,
            column: 0,
            field: field.into(),
            message: message.into(),
        }
    }

    /// A parameter error.
    pub fn param(key: impl Into<String>, message: impl Into<String>) -> Self {
        EngineError::Param {
            key: key.into(),
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 46 §2 item 4: 100 000 nested levels took the YAML parser 44–63 s.
    #[test]
    fn yaml_nesting_depth_limited() {
        let n = 100_000;
        let flow = format!("a: {}{}", "[".repeat(n), "]".repeat(n));
        let dashes = format!("{}x", "- ".repeat(n));
        let block: String = (0..200)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        // No clock in the test (these machines are shared): the "64 levels" message can only
        // come from the pre-scan, which refuses before the parser sees the text.
        for text in [flow, dashes, block] {
            let e = from_yaml::<serde_norway::Value>(&text, "deep.yaml").unwrap_err();
            let msg = e.to_string();
            assert!(
                msg.contains("deep.yaml") && msg.contains("64 levels"),
                "{msg}"
            );
        }
        let ok = "a:\n  - [1, {b: '[[[[', c: \"{{{{\"}]\n  - - x\n# [[[[[[[[\n";
        from_yaml::<serde_norway::Value>(ok, "ok.yaml").unwrap();
    }
}
