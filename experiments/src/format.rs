//! How numbers reach the user: p-values a reader can take in at a glance (`p = 0.73`,
//! `p = 4.5e-260`, `p < 1e-300`), and the rate of a progress bar (`126 games/s`).

/// A p-value without its `p`: two significant digits down to 0.001 (`0.73`, `0.045`), then
/// scientific notation with two (`4.5e-260`), and `< 1e-300` when it underflowed to zero (the
/// chi-square tail of a million-game study can be below the smallest double).
pub fn p_number(p: f64) -> String {
    if p.is_nan() {
        "n/a".to_string()
    } else if p < 1e-300 {
        "< 1e-300".to_string()
    } else if p >= 0.001 {
        let digits = (1 - p.log10().floor() as i32).max(1) as usize;
        format!("{p:.digits$}")
    } else {
        format!("{p:.1e}")
    }
}

/// A p-value as a phrase: `p = 0.73`, `p = 4.5e-260`, `p < 1e-300`.
pub fn p_value(p: f64) -> String {
    let n = p_number(p);
    match n.strip_prefix("< ") {
        Some(bound) => format!("p < {bound}"),
        None => format!("p = {n}"),
    }
}

/// A progress bar's style: the bar, games done of all, `126 games/s`, the time left.
pub fn progress_style() -> indicatif::ProgressStyle {
    indicatif::ProgressStyle::with_template("{bar:40} {pos}/{len} games  {rate}  ETA {eta}")
        .expect("a valid template")
        .with_key(
            "rate",
            |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{:.0} games/s", s.per_sec());
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_values_read_as_numbers_a_reader_knows() {
        assert_eq!(p_value(0.7312), "p = 0.73");
        assert_eq!(p_value(0.0462), "p = 0.046");
        assert_eq!(p_value(1.0), "p = 1.0");
        assert_eq!(p_value(4.5e-260), "p = 4.5e-260");
        assert_eq!(p_value(0.0), "p < 1e-300");
        assert_eq!(p_number(0.0), "< 1e-300");
    }
}
