//! What `shifu dose` plays: the values of `--vary` and the per-seat vectors of `--per-seat`.

use anyhow::{bail, Context, Result};
use rand::SeedableRng;

/// The most values `--vary` may list.
pub const MAX_VALUES: usize = 1_000;

/// A real number as `--set` text: the shortest that reads back the same, with a point.
fn real_text(x: f64) -> String {
    let t = format!("{x}");
    if t.contains('.') || t.contains('e') {
        t
    } else {
        format!("{t}.0")
    }
}

/// A finite number from `x`, or an error naming the option and the part.
fn number(opt: &str, x: &str, what: &str) -> Result<f64> {
    let v: f64 = x
        .trim()
        .parse()
        .with_context(|| format!("{opt}: {what} `{}` is not a number", x.trim()))?;
    if !v.is_finite() {
        bail!("{opt}: {what} must be finite");
    }
    Ok(v)
}

/// Parses `--vary key=LO..HI:STEP`, `key=LO..HI` (integers) or `key=a/b/c` (numbers): the key
/// and each value as (number, `--set` text).
pub fn parse_vary(s: &str) -> Result<(String, Vec<(f64, String)>)> {
    let opt = format!("--vary `{s}`");
    let (key, spec) = s
        .split_once('=')
        .with_context(|| format!("{opt}: expected key=LO..HI:STEP, key=LO..HI or key=a/b/c"))?;
    let (key, spec) = (key.trim().to_string(), spec.trim());
    if key.is_empty() || spec.is_empty() {
        bail!("{opt}: an empty key or value");
    }
    if key == "players" {
        bail!("{opt}: a dose curve compares seats at one player count; run one per count with --players");
    }
    let values: Vec<(f64, String)> = if let Some((lo, rest)) = spec.split_once("..") {
        let (hi, step) = match rest.split_once(':') {
            Some((hi, step)) => (hi, Some(step)),
            None => (rest, None),
        };
        let (lo, hi) = (number(&opt, lo, "LO")?, number(&opt, hi, "HI")?);
        if lo >= hi {
            bail!("{opt}: LO must be below HI");
        }
        match step {
            None => {
                if lo.fract() != 0.0 || hi.fract() != 0.0 {
                    bail!("{opt}: LO..HI without a step takes integers; give a step for reals (LO..HI:STEP)");
                }
                if hi - lo >= MAX_VALUES as f64 {
                    bail!("{opt}: more than {MAX_VALUES} values");
                }
                (lo as i64..=hi as i64)
                    .map(|v| (v as f64, v.to_string()))
                    .collect()
            }
            Some(step) => {
                let st = number(&opt, step, "STEP")?;
                if st <= 0.0 {
                    bail!("{opt}: STEP must be above 0");
                }
                if (hi - lo) / st >= MAX_VALUES as f64 {
                    bail!("{opt}: more than {MAX_VALUES} values");
                }
                let n = ((hi - lo) / st + 1e-9).floor() as usize;
                (0..=n)
                    .map(|i| {
                        // Rounded to 1e-9 so that 0.1 steps print as 0.3, not 0.30000000000000004.
                        let x = ((lo + st * i as f64) * 1e9).round() / 1e9;
                        (x, real_text(x))
                    })
                    .collect()
            }
        }
    } else {
        let sep = if spec.contains('/') { '/' } else { ',' };
        spec.split(sep)
            .map(|x| Ok((number(&opt, x, "value")?, x.trim().to_string())))
            .collect::<Result<_>>()?
    };
    if values.len() < 2 {
        bail!("{opt}: a slope needs at least two values");
    }
    for (i, (v, _)) in values.iter().enumerate() {
        if values[..i].iter().any(|(w, _)| w == v) {
            bail!("{opt}: the value {v} is given twice");
        }
    }
    Ok((key, values))
}

/// Parses `--per-seat key=LO..HI` (whole numbers, LO below HI).
pub fn parse_per_seat(s: &str) -> Result<(String, i64, i64)> {
    let opt = format!("--per-seat `{s}`");
    let (key, spec) = s
        .split_once('=')
        .with_context(|| format!("{opt}: expected key=LO..HI, for example start_coins=0..3"))?;
    let (lo, hi) = spec
        .split_once("..")
        .with_context(|| format!("{opt}: expected key=LO..HI, for example start_coins=0..3"))?;
    let key = key.trim().to_string();
    if key.is_empty() {
        bail!("{opt}: an empty key");
    }
    let int = |x: &str, what: &str| -> Result<i64> {
        x.trim()
            .parse()
            .with_context(|| format!("{opt}: {what} `{}` is not a whole number", x.trim()))
    };
    let (lo, hi) = (int(lo, "LO")?, int(hi, "HI")?);
    if lo >= hi {
        bail!("{opt}: LO must be below HI");
    }
    if hi - lo > 100 {
        bail!("{opt}: at most 101 values per seat");
    }
    Ok((key, lo, hi))
}

/// How the per-seat vectors were chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Design {
    /// Every vector of the range (when there are at most `--vectors`).
    FullFactorial,
    /// `--vectors` distinct vectors drawn uniformly with the master seed (ChaCha8).
    RandomSample,
}

/// The per-seat vectors: every one of `[lo, hi]^seats` when there are at most `max`, else `max`
/// distinct ones drawn with `seed`, in the order of their index.
pub fn vectors(lo: i64, hi: i64, seats: usize, max: usize, seed: u64) -> (Design, Vec<Vec<i64>>) {
    let width = (hi - lo + 1) as usize;
    let total = width.checked_pow(seats as u32);
    let vector = |mut i: usize| {
        let mut v = vec![0i64; seats];
        for s in (0..seats).rev() {
            v[s] = lo + (i % width) as i64;
            i /= width;
        }
        v
    };
    match total {
        Some(t) if t <= max => (Design::FullFactorial, (0..t).map(vector).collect()),
        _ => {
            // A product over usize's range is drawn digit by digit instead (never repeats
            // within the range of a realistic --vectors).
            let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed ^ 0x646f_7365);
            let mut out: Vec<Vec<i64>> = Vec::with_capacity(max);
            match total {
                Some(t) => {
                    let mut idx = rand::seq::index::sample(&mut rng, t, max).into_vec();
                    idx.sort_unstable();
                    out.extend(idx.into_iter().map(vector));
                }
                None => {
                    use rand::Rng;
                    while out.len() < max {
                        let v: Vec<i64> = (0..seats).map(|_| rng.gen_range(lo..=hi)).collect();
                        if !out.contains(&v) {
                            out.push(v);
                        }
                    }
                }
            }
            (Design::RandomSample, out)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dose_vary_ranges_steps_and_lists() {
        let (k, v) = parse_vary("town_objective_cost_scale=0.5..1.5:0.25").unwrap();
        assert_eq!(k, "town_objective_cost_scale");
        let texts: Vec<&str> = v.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(texts, ["0.5", "0.75", "1.0", "1.25", "1.5"]);
        let (_, v) = parse_vary("objective_cost.T01=2..4").unwrap();
        assert_eq!(v, [(2.0, "2".into()), (3.0, "3".into()), (4.0, "4".into())]);
        let (_, v) = parse_vary("x=0.5/1/2").unwrap();
        assert_eq!(v[2], (2.0, "2".into()));
        for bad in [
            "x",
            "x=",
            "=1..2",
            "x=3..1",
            "x=1..1",
            "x=0.5..2",
            "x=0..1:0",
            "x=0..1:-1",
            "x=a/b",
            "x=1/1",
            "x=1",
            "x=1//2",
            "x=0..1e9",
            "x=nan..1:0.1",
            "players=2..4",
        ] {
            assert!(parse_vary(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn dose_per_seat_designs() {
        assert_eq!(
            parse_per_seat("start_coins=0..3").unwrap(),
            ("start_coins".into(), 0, 3)
        );
        for bad in [
            "start_coins",
            "start_coins=3..0",
            "s=1..1",
            "s=a..2",
            "s=0.5..2",
            "=0..1",
        ] {
            assert!(parse_per_seat(bad).is_err(), "{bad}");
        }
        let (d, all) = vectors(0, 3, 2, 64, 1);
        assert_eq!((d, all.len()), (Design::FullFactorial, 16));
        assert_eq!(all[1], [0, 1]);
        let (d, some) = vectors(0, 3, 4, 32, 1);
        assert_eq!((d, some.len()), (Design::RandomSample, 32));
        let mut dedup = some.clone();
        dedup.dedup();
        assert_eq!(dedup.len(), 32);
        assert_eq!(vectors(0, 3, 4, 32, 1).1, some);
        assert_ne!(vectors(0, 3, 4, 32, 2).1, some);
    }
}
