//! Parameter mechanics shared by every game: TOML files, `key=value` overrides and the list of
//! known keys, for any serde parameter struct that denies unknown fields. A game's `Params`
//! implements [`ParamFile`] and gets them all.

use crate::error::EngineError;
use serde::{de::DeserializeOwned, Serialize};
use std::path::Path;

/// A game's parameters: a serde struct with `deny_unknown_fields` and `default`.
pub trait ParamFile: Serialize + DeserializeOwned + Default {
    /// Keys whose default is `None` (absent when serialised), so that they are still known.
    const OPTIONAL_KEYS: &'static [&'static str] = &[];

    /// Parses TOML text; unknown keys and bad values are errors naming the key.
    fn from_toml_str(text: &str) -> Result<Self, EngineError> {
        from_toml_str(text)
    }

    /// Reads a TOML parameter file.
    fn from_toml_file(path: &Path) -> Result<Self, EngineError> {
        from_toml_file(path)
    }

    /// The names of every key, sorted, for help texts and error messages.
    fn keys() -> Vec<String> {
        known_keys(&Self::default(), Self::OPTIONAL_KEYS)
    }

    /// Applies one `key=value` override. Values are TOML (`true`, `1.5`, `"slot"`), a bare
    /// word (`one-total`), or a comma list (`1,2,2,3`).
    fn set(&mut self, key: &str, value: &str) -> Result<(), EngineError> {
        set_key(self, key, value, &Self::keys())
    }

    /// Applies `key=value` strings in order.
    fn set_all<'a>(&mut self, pairs: impl IntoIterator<Item = &'a str>) -> Result<(), EngineError> {
        for kv in pairs {
            let (k, v) = split_pair(kv)?;
            self.set(k, v)?;
        }
        Ok(())
    }
}

/// Parses TOML text; unknown keys and bad values are errors naming the key.
pub fn from_toml_str<P: DeserializeOwned>(text: &str) -> Result<P, EngineError> {
    toml::from_str(text).map_err(|e| {
        EngineError::param(
            e.span()
                .map(|s| text[s].trim().to_string())
                .unwrap_or_default(),
            e.message().to_string(),
        )
    })
}

/// Reads a TOML parameter file.
pub fn from_toml_file<P: DeserializeOwned>(path: &Path) -> Result<P, EngineError> {
    let text = crate::files::read_text(path).map_err(|e| EngineError::ParamFile {
        file: e.file,
        message: e.error.to_string(),
    })?;
    toml::from_str(&text).map_err(|e| EngineError::ParamFile {
        file: path.to_path_buf(),
        message: e.to_string(),
    })
}

/// The keys `params` serialises (fields left `None` are missing; pass them as `extra`), sorted.
pub fn known_keys<P: Serialize>(params: &P, extra: &[&str]) -> Vec<String> {
    let mut k: Vec<String> = match toml::Value::try_from(params) {
        Ok(toml::Value::Table(t)) => t.keys().cloned().collect(),
        _ => Vec::new(),
    };
    for opt in extra {
        if !k.iter().any(|x| x == opt) {
            k.push(opt.to_string());
        }
    }
    k.sort();
    k
}

/// Applies one `key=value` override to `params`. Values are TOML (`true`, `1.5`, `"slot"`), a
/// bare word (`one-total`), or a comma list (`1,2,2,3`). `known` lists the accepted keys.
pub fn set_key<P: Serialize + DeserializeOwned>(
    params: &mut P,
    key: &str,
    value: &str,
    known: &[String],
) -> Result<(), EngineError> {
    let key = key.trim();
    if !known.iter().any(|k| k == key) {
        return Err(EngineError::param(
            key,
            format!("unknown parameter; known: {}", known.join(", ")),
        ));
    }
    let mut table = match toml::Value::try_from(&*params) {
        Ok(toml::Value::Table(t)) => t,
        _ => {
            return Err(EngineError::param(
                key,
                "internal: parameters do not serialise",
            ))
        }
    };
    table.insert(key.to_string(), parse_value(value.trim()));
    *params = toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| {
            EngineError::param(key, format!("bad value `{value}`: {}", e.message()))
        })?;
    Ok(())
}

/// Splits `key=value`.
pub fn split_pair(kv: &str) -> Result<(&str, &str), EngineError> {
    kv.split_once('=')
        .ok_or_else(|| EngineError::param(kv, "expected key=value, for example players=3"))
}

/// A command-line value as TOML: itself when it parses, else a comma list or a bare word.
pub fn parse_value(v: &str) -> toml::Value {
    if let Ok(t) = format!("v = {v}").parse::<toml::Table>() {
        if let Some(x) = t.get("v") {
            return x.clone();
        }
    }
    if v.contains(',') {
        return toml::Value::Array(v.split(',').map(|p| parse_value(p.trim())).collect());
    }
    toml::Value::String(v.to_string())
}
