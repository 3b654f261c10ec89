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

/// Reads a data file's text; a failure names the file.
pub fn read_data_file(path: &std::path::Path) -> Result<String, EngineError> {
    std::fs::read_to_string(path).map_err(|source| EngineError::Io {
        file: path.to_path_buf(),
        source,
    })
}

/// Parses YAML text into `T`; an error names the file, line, column and field path.
pub fn from_yaml<T: serde::de::DeserializeOwned>(text: &str, file: &str) -> Result<T, EngineError> {
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
        format!("{field}: {}", e.into_inner())
    })?;
    de.end().map_err(|e| format!("(after the state): {e}"))?;
    Ok(t)
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
