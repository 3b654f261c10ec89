//! The parameter space `shifu balance` searches: axes from `--search`, a fixed total from
//! `--sum`, every setting listed, and each setting's distance from the rulebook's.
//!
//! An axis is one of:
//! - `key=LO..HI`: integers; a per-seat vector when the game takes one value per seat for `key`
//!   (`start_coins=0..3` at 4 players is 4⁴ = 256 vectors), else one integer;
//! - `key=LO..HI:STEP`: reals from LO to HI in steps of STEP (`cost_scale=0.5..1.5:0.25`);
//! - `key=a/b/c` or `key=a,b,c`: a list of values, as `sweep --vary` takes them.

use anyhow::{bail, Context, Result};

/// The most settings a race lists.
pub const MAX_SETTINGS: usize = 20_000;

/// One searched parameter and the values it takes, each as the `--set` value text.
#[derive(Debug, Clone, PartialEq)]
pub struct Axis {
    /// The parameter.
    pub key: String,
    /// Its values in order; for a per-seat axis, every vector.
    pub values: Vec<Value>,
    /// Per-seat integer vectors.
    pub per_seat: bool,
}

/// One value of an axis: its `--set` text and its coordinates (for the distance).
#[derive(Debug, Clone, PartialEq)]
pub struct Value {
    /// The text after `key=`.
    pub text: String,
    /// Its numbers: one, or one per seat; none for a word.
    pub coords: Vec<f64>,
}

/// How an axis was written, before the game says whether the key is per seat.
#[derive(Debug, Clone, PartialEq)]
pub enum AxisSpec {
    /// `LO..HI`: integers.
    Ints(i64, i64),
    /// `LO..HI:STEP`: reals.
    Reals(f64, f64, f64),
    /// A list of values.
    List(Vec<String>),
}

/// Parses one `--search key=...` option.
pub fn parse_axis(s: &str) -> Result<(String, AxisSpec)> {
    let (key, spec) = s.split_once('=').with_context(|| {
        format!("--search `{s}`: expected key=LO..HI, key=LO..HI:STEP or key=a/b/c")
    })?;
    let key = key.trim().to_string();
    let spec = spec.trim();
    if key.is_empty() || spec.is_empty() {
        bail!("--search `{s}`: an empty key or value");
    }
    if let Some((lo, rest)) = spec.split_once("..") {
        let (hi, step) = match rest.split_once(':') {
            Some((hi, step)) => (hi, Some(step)),
            None => (rest, None),
        };
        let num = |x: &str, what: &str| -> Result<f64> {
            let v: f64 = x
                .trim()
                .parse()
                .with_context(|| format!("--search `{s}`: {what} `{x}` is not a number"))?;
            if !v.is_finite() {
                bail!("--search `{s}`: {what} must be finite");
            }
            Ok(v)
        };
        let (lo_v, hi_v) = (num(lo, "LO")?, num(hi, "HI")?);
        if lo_v > hi_v {
            bail!("--search `{s}`: LO is above HI");
        }
        return match step {
            None => {
                if lo_v.fract() != 0.0 || hi_v.fract() != 0.0 {
                    bail!("--search `{s}`: LO..HI without a step takes integers; give a step for reals (LO..HI:STEP)");
                }
                if hi_v - lo_v > 10_000.0 {
                    bail!("--search `{s}`: more than 10,000 values");
                }
                Ok((key, AxisSpec::Ints(lo_v as i64, hi_v as i64)))
            }
            Some(step) => {
                let st = num(step, "STEP")?;
                if st <= 0.0 {
                    bail!("--search `{s}`: STEP must be above 0");
                }
                if (hi_v - lo_v) / st > 10_000.0 {
                    bail!("--search `{s}`: more than 10,000 values");
                }
                Ok((key, AxisSpec::Reals(lo_v, hi_v, st)))
            }
        };
    }
    let sep = if spec.contains('/') { '/' } else { ',' };
    let values: Vec<String> = spec.split(sep).map(|x| x.trim().to_string()).collect();
    if values.iter().any(|x| x.is_empty()) {
        bail!("--search `{s}`: an empty value");
    }
    Ok((key, AxisSpec::List(values)))
}

/// A real number as `--set` text: the shortest that reads back the same.
fn real_text(x: f64) -> String {
    let t = format!("{x}");
    if t.contains('.') || t.contains('e') {
        t
    } else {
        format!("{t}.0")
    }
}

impl AxisSpec {
    /// The axis's values: per-seat vectors of `seats` entries when `per_seat`.
    pub fn values(&self, per_seat: Option<usize>) -> Result<Vec<Value>> {
        Ok(match (self, per_seat) {
            (AxisSpec::Ints(lo, hi), None) => (*lo..=*hi)
                .map(|v| Value {
                    text: v.to_string(),
                    coords: vec![v as f64],
                })
                .collect(),
            (AxisSpec::Ints(lo, hi), Some(seats)) => {
                let width = (hi - lo + 1) as usize;
                let count = width
                    .checked_pow(seats as u32)
                    .filter(|&c| c <= MAX_SETTINGS * 16)
                    .with_context(|| {
                        format!("{width}^{seats} per-seat vectors is too many for a race to list; search the space with --method ntbea")
                    })?;
                (0..count)
                    .map(|mut i| {
                        let mut v = vec![0i64; seats];
                        for s in (0..seats).rev() {
                            v[s] = lo + (i % width) as i64;
                            i /= width;
                        }
                        Value {
                            text: v
                                .iter()
                                .map(|x| x.to_string())
                                .collect::<Vec<_>>()
                                .join(","),
                            coords: v.iter().map(|&x| x as f64).collect(),
                        }
                    })
                    .collect()
            }
            (AxisSpec::Reals(lo, hi, step), _) => {
                let n = ((hi - lo) / step + 1e-9).floor() as usize;
                (0..=n)
                    .map(|i| {
                        // Rounded to 1e-9 so that 0.1 steps print as 0.3, not 0.30000000000000004.
                        let x = ((lo + step * i as f64) * 1e9).round() / 1e9;
                        Value {
                            text: real_text(x),
                            coords: vec![x],
                        }
                    })
                    .collect()
            }
            (AxisSpec::List(v), _) => v
                .iter()
                .map(|t| Value {
                    text: t.clone(),
                    coords: t
                        .split(',')
                        .map(|x| x.trim().parse::<f64>())
                        .collect::<Result<Vec<_>, _>>()
                        .unwrap_or_default(),
                })
                .collect(),
        })
    }
}

/// One setting: a value per axis, as `--set key=value` strings.
#[derive(Debug, Clone, PartialEq)]
pub struct Setting {
    /// `key=value`, one per axis.
    pub set: Vec<String>,
    /// The index of each axis's value.
    pub index: Vec<usize>,
}

impl Setting {
    /// The setting as words: `start_coins=1,2,2,3 cost_scale=1.0`.
    pub fn name(&self) -> String {
        self.set.join(" ")
    }
}

/// A fixed total over a per-seat axis: `--sum key=N`.
#[derive(Debug, Clone, PartialEq)]
pub struct Sum {
    /// The axis.
    pub key: String,
    /// The total.
    pub total: f64,
}

/// Parses `--sum key=N`.
pub fn parse_sum(s: &str) -> Result<Sum> {
    let (k, v) = s
        .split_once('=')
        .with_context(|| format!("--sum `{s}`: expected key=N, for example start_coins=8"))?;
    let total: f64 = v
        .trim()
        .parse()
        .with_context(|| format!("--sum `{s}`: `{v}` is not a number"))?;
    Ok(Sum {
        key: k.trim().to_string(),
        total,
    })
}

/// Every setting of the axes that meets the sums, in axis order (the last axis fastest).
pub fn settings(axes: &[Axis], sums: &[Sum]) -> Result<Vec<Setting>> {
    for s in sums {
        match axes.iter().find(|a| a.key == s.key) {
            None => bail!("--sum {}: no --search axis has that key", s.key),
            Some(a) if !a.per_seat => bail!(
                "--sum {}: a total fixes a per-seat vector (key=LO..HI of a per-seat parameter); this axis is not one",
                s.key
            ),
            Some(_) => {}
        }
    }
    let total: usize = axes.iter().try_fold(1usize, |acc, a| {
        acc.checked_mul(a.values.len())
            .filter(|&n| n <= MAX_SETTINGS * 16)
            .context("the space is too large for a race to list; search it with --method ntbea")
    })?;
    let mut out = Vec::new();
    for mut i in 0..total {
        let mut index = vec![0; axes.len()];
        for (a, axis) in axes.iter().enumerate().rev() {
            index[a] = i % axis.values.len();
            i /= axis.values.len();
        }
        let meets = sums.iter().all(|s| {
            let a = axes.iter().position(|a| a.key == s.key).unwrap_or(0);
            let v = &axes[a].values[index[a]];
            (v.coords.iter().sum::<f64>() - s.total).abs() < 1e-9
        });
        if meets {
            out.push(Setting {
                set: axes
                    .iter()
                    .zip(&index)
                    .map(|(a, &i)| format!("{}={}", a.key, a.values[i].text))
                    .collect(),
                index,
            });
        }
    }
    if out.is_empty() {
        bail!("no setting of the --search axes meets the --sum constraints");
    }
    if out.len() > MAX_SETTINGS {
        bail!(
            "the space has {} settings; a race lists at most {MAX_SETTINGS}: narrow the axes, fix a total with --sum, or search it with --method ntbea",
            out.len()
        );
    }
    Ok(out)
}

/// The distance of a setting from the reference (the rulebook's) values: the sum over axes of
/// the coordinates' absolute differences, each axis scaled by its range (a word that differs
/// counts 1). `reference[a]` is the reference's coordinates on axis a, or its text for a word.
pub fn distance(axes: &[Axis], s: &Setting, reference: &[Option<Value>]) -> f64 {
    axes.iter()
        .zip(&s.index)
        .zip(reference)
        .map(|((axis, &i), r)| {
            let v = &axis.values[i];
            let Some(r) = r else { return 0.0 };
            if v.coords.is_empty() || v.coords.len() != r.coords.len() {
                return f64::from(u8::from(v.text != r.text));
            }
            scaled_distance(
                axis.values.iter().flat_map(|x| x.coords.iter().copied()),
                &v.coords,
                &r.coords,
            )
        })
        .sum()
}

/// The absolute differences of `coords` from `reference`, scaled by the range of `all` (the
/// axis's values; a range of 0 counts as 1). Shared by the listed race and NTBEA's dimensions.
pub fn scaled_distance(all: impl Iterator<Item = f64>, coords: &[f64], reference: &[f64]) -> f64 {
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| {
        (a.min(x), b.max(x))
    });
    let width = if hi > lo { hi - lo } else { 1.0 };
    coords
        .iter()
        .zip(reference)
        .map(|(a, b)| (a - b).abs() / width)
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_space_lists_per_seat_vectors_under_a_sum() {
        let (k, spec) = parse_axis("start_coins=0..3").unwrap();
        assert_eq!((k.as_str(), &spec), ("start_coins", &AxisSpec::Ints(0, 3)));
        let values = spec.values(Some(4)).unwrap();
        assert_eq!(values.len(), 256);
        assert_eq!(values[1].text, "0,0,0,1");
        let axis = Axis {
            key: k,
            values,
            per_seat: true,
        };
        let all = settings(std::slice::from_ref(&axis), &[]).unwrap();
        assert_eq!(all.len(), 256);
        let eight = settings(
            std::slice::from_ref(&axis),
            &[parse_sum("start_coins=8").unwrap()],
        )
        .unwrap();
        // Vectors of four values 0..3 summing to 8: as many as summing to 4 (3 − x), C(7,3) − 4 = 31.
        assert_eq!(eight.len(), 31);
        assert!(eight.iter().any(|s| s.name() == "start_coins=2,2,2,2"));
        let reference = [Some(Value {
            text: "1,2,2,3".into(),
            coords: vec![1.0, 2.0, 2.0, 3.0],
        })];
        let s = all
            .iter()
            .find(|s| s.name() == "start_coins=2,2,2,2")
            .unwrap();
        assert!((distance(&[axis], s, &reference) - 2.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn balance_space_reals_and_lists() {
        let (_, spec) = parse_axis("scale=0.5..1.5:0.25").unwrap();
        let texts: Vec<String> = spec
            .values(None)
            .unwrap()
            .into_iter()
            .map(|v| v.text)
            .collect();
        assert_eq!(texts, ["0.5", "0.75", "1.0", "1.25", "1.5"]);
        let (_, spec) = parse_axis("limit=one-total/one-each").unwrap();
        assert_eq!(spec.values(None).unwrap().len(), 2);
        for bad in [
            "x", "x=", "x=3..1", "x=0.5..2", "x=0..1:0", "x=a//b", "x=0..1e9",
        ] {
            assert!(parse_axis(bad).is_err(), "{bad}");
        }
    }
}
