//! What every game's card data shares: the built-in data sets, `--data builtin:NAME` or a path,
//! reading a user's file, the text a `shifu data` copy writes, and the label and hash a run's
//! manifest records. A game's data type implements [`DataFile::parse`] and three accessors; the
//! rest are defaults.

use crate::error::EngineError;
use serde::Serialize;
use std::borrow::Cow;
use std::path::Path;

/// The prefix that names a built-in data set where a path is expected.
pub const BUILTIN_PREFIX: &str = "builtin:";

/// A game's card data: parsed and validated from a data file's text.
pub trait DataFile: Serialize + Sized {
    /// The game's name in messages, for example `Wok Star`.
    const GAME: &'static str;
    /// The data sets built into the binary as (name, text); the first is the default.
    const BUILTIN: &'static [(&'static str, &'static str)];
    /// The name the default data goes by in messages and as its [`DataFile::source`].
    const EMBEDDED_NAME: &'static str;

    /// Parses and validates a data file's text; `file` names it in errors.
    fn parse(text: &str, file: &str) -> Result<Self, EngineError>;

    /// Where the data came from: a path, `builtin:NAME` or the embedded name.
    fn source(&self) -> &str;

    /// Provenance, from the file's status field.
    fn status(&self) -> &str;

    /// The data as a data file the game loads (for Tofu Shifu, after any reconstruction knobs).
    fn text(&self) -> Cow<'_, str>;

    /// The default data's text, for users who want a copy to edit.
    fn embedded_text() -> &'static str {
        Self::BUILTIN[0].1
    }

    /// The default (embedded) data.
    fn embedded() -> Self {
        Self::parse(Self::embedded_text(), Self::EMBEDDED_NAME).expect("the embedded data is valid")
    }

    /// A built-in data set by name (see [`DataFile::BUILTIN`]); the first is the default.
    fn builtin(name: &str) -> Result<Self, EngineError> {
        let file = format!("{BUILTIN_PREFIX}{name}");
        match Self::BUILTIN.iter().position(|(n, _)| *n == name) {
            Some(0) => Ok(Self::embedded()),
            Some(i) => Self::parse(Self::BUILTIN[i].1, &file),
            None => {
                let names: Vec<&str> = Self::BUILTIN.iter().map(|(n, _)| *n).collect();
                Err(EngineError::field(
                    &file,
                    "name",
                    format!(
                        "no built-in {} data of this name; built in: {}",
                        Self::GAME,
                        names.join(", ")
                    ),
                ))
            }
        }
    }

    /// A `--data` argument: `builtin:NAME` or a file path.
    fn from_arg(path: &Path) -> Result<Self, EngineError> {
        match path.to_str().and_then(|p| p.strip_prefix(BUILTIN_PREFIX)) {
            Some(name) => Self::builtin(name),
            None => Self::from_path(path),
        }
    }

    /// Loads a user's data file (same schema as the embedded one).
    fn from_path(path: &Path) -> Result<Self, EngineError> {
        let text = crate::error::read_data_file(path)?;
        Self::parse(&text, &path.display().to_string())
    }

    /// The source and provenance, for run manifests and summaries: `SOURCE (STATUS)`.
    fn label(&self) -> String {
        format!("{} ({})", self.source(), self.status())
    }
}

/// A bad value at a field of a data file, before the file (and line) it sits in is attached.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BadField {
    /// The field's path, for example `setup.hand_size`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl BadField {
    /// The error at this field of `file` (line unknown).
    pub fn in_file(self, file: &str) -> EngineError {
        EngineError::field(file, self.field, self.message)
    }
}

/// A data file's numeric bound, one line per field in every game's compiler: `Ok` when `value`
/// lies in `lo..=hi`, else the [`BadField`] at `field` saying `must be from LO to HI, got
/// VALUE`.
pub fn range(field: impl Into<String>, value: u64, lo: u64, hi: u64) -> Result<(), BadField> {
    if (lo..=hi).contains(&value) {
        Ok(())
    } else {
        Err(BadField {
            field: field.into(),
            message: format!("must be from {lo} to {hi}, got {value}"),
        })
    }
}

/// A data file's bound on a list's length: like [`range`], with the message `N entries; from LO
/// to HI are allowed`.
pub fn entries(field: impl Into<String>, n: usize, lo: usize, hi: usize) -> Result<(), BadField> {
    if (lo..=hi).contains(&n) {
        Ok(())
    } else {
        Err(BadField {
            field: field.into(),
            message: format!("{n} entries; from {lo} to {hi} are allowed"),
        })
    }
}

/// The data of a game whose rules hold everything: no data file. The only built-in set is
/// empty, and a `--data` file is refused unless it is empty too.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct NoData;

impl DataFile for NoData {
    const GAME: &'static str = "this game";
    const BUILTIN: &'static [(&'static str, &'static str)] = &[("none", "")];
    const EMBEDDED_NAME: &'static str = "built into the rules";

    fn parse(text: &str, file: &str) -> Result<Self, EngineError> {
        if text.trim().is_empty() {
            Ok(NoData)
        } else {
            Err(EngineError::field(
                file,
                "data",
                "this game has no data file",
            ))
        }
    }

    fn source(&self) -> &str {
        Self::EMBEDDED_NAME
    }

    fn status(&self) -> &str {
        "no data file"
    }

    fn text(&self) -> Cow<'_, str> {
        Cow::Borrowed("")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ginza_retro_cafe as gz, tofu_kingdom as tk, tofu_shifu as ts, wok_star as ws};

    /// `builtin:NAME` picks a data set or names the ones built in; the default's text parses back
    /// to the same data; the label and hash follow the data.
    fn shared_parts<D: DataFile + PartialEqJson>(names: &str) {
        let e = D::from_arg(Path::new("builtin:nope"))
            .err()
            .unwrap()
            .to_string();
        assert_eq!(
            e,
            format!(
                "builtin:nope:0:0: field `name`: no built-in {} data of this name; built in: {names}",
                D::GAME
            )
        );
        let first = D::BUILTIN[0].0;
        let d = D::from_arg(Path::new(&format!("builtin:{first}"))).unwrap();
        assert_eq!(d.source(), D::EMBEDDED_NAME);
        assert_eq!(d.label(), format!("{} ({})", D::EMBEDDED_NAME, d.status()));
        let again = D::parse(&d.text(), "copy").unwrap();
        assert_eq!(again.source(), "copy");
        assert_eq!(again.json_without_source(), d.json_without_source());
        let json = |d: &D| serde_json::to_string(d).unwrap();
        assert_ne!(
            json(&again),
            json(&d),
            "the source is part of the hashed data"
        );
        for (name, _) in &D::BUILTIN[1..] {
            let other = D::builtin(name).unwrap();
            assert_eq!(other.source(), format!("builtin:{name}"));
        }
    }

    /// The compiled data as JSON with the source left out, to compare two loads of one text.
    trait PartialEqJson: Serialize {
        fn json_without_source(&self) -> serde_json::Value {
            let mut v = serde_json::to_value(self).unwrap();
            v.as_object_mut().unwrap().remove("source");
            v
        }
    }
    impl PartialEqJson for ts::CardData {}
    impl PartialEqJson for tk::CardData {}
    impl PartialEqJson for ws::WokData {}
    impl PartialEqJson for gz::GinzaData {}

    #[test]
    fn range_takes_both_bounds_and_names_the_field() {
        assert_eq!(range("a.b", 3, 3, 5), Ok(()));
        assert_eq!(range("a.b", 5, 3, 5), Ok(()));
        let e = range("a.b", 6, 3, 5).unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.message.as_str()),
            ("a.b", "must be from 3 to 5, got 6")
        );
        let e = range(String::from("c"), 2, 3, 5)
            .unwrap_err()
            .in_file("f.yaml");
        assert_eq!(
            e.to_string(),
            "f.yaml:0:0: field `c`: must be from 3 to 5, got 2"
        );
        assert_eq!(entries("l", 1, 1, 8), Ok(()));
        let e = entries("l", 9, 1, 8).unwrap_err();
        assert_eq!(e.message, "9 entries; from 1 to 8 are allowed");
        assert!(entries("l", 0, 1, 8).is_err());
    }

    #[test]
    fn every_game_shares_the_loaders() {
        shared_parts::<ts::CardData>("calibrated, reconstructed, alternative");
        shared_parts::<tk::CardData>("reconstructed");
        shared_parts::<ws::WokData>("reconstructed");
        shared_parts::<gz::GinzaData>("reconstructed");
    }
}
