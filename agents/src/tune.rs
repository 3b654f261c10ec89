//! Weights as a vector, for tuning: the floating-point fields of a weights value, by name.
//!
//! Every game's weights are a flat serde struct, so the tunable values are its top-level `f64`
//! fields (integers, switches and named choices stay as they are). A tuner reads them with
//! [`float_fields`], proposes new values, and builds weights with [`with_values`].

use serde::{de::DeserializeOwned, Serialize};

/// The top-level floating-point fields of `w`, in name order.
pub fn float_fields<W: Serialize>(w: &W) -> Vec<(String, f64)> {
    match toml::Value::try_from(w) {
        Ok(toml::Value::Table(t)) => t
            .into_iter()
            .filter_map(|(k, v)| v.as_float().map(|x| (k, x)))
            .collect(),
        _ => Vec::new(),
    }
}

/// `base` with the named fields set to the given values; an error names a field that is not a
/// floating-point field of `base`, or a value that is not finite.
pub fn with_values<W: Serialize + DeserializeOwned>(
    base: &W,
    values: &[(String, f64)],
) -> Result<W, String> {
    let Ok(toml::Value::Table(mut t)) = toml::Value::try_from(base) else {
        return Err("these weights are not a table of named values".into());
    };
    for (k, x) in values {
        match t.get_mut(k) {
            Some(v @ toml::Value::Float(_)) => {
                if !x.is_finite() {
                    return Err(format!("field `{k}`: {x} is not a finite number"));
                }
                *v = toml::Value::Float(*x);
            }
            Some(_) => {
                return Err(format!(
                    "field `{k}` is not a number with a fractional part"
                ))
            }
            None => return Err(format!("no field `{k}`")),
        }
    }
    toml::Value::Table(t)
        .try_into()
        .map_err(|e: toml::de::Error| e.message().to_string())
}

/// `w` as a TOML document that `weights=FILE` reads back.
pub fn to_toml<W: Serialize>(w: &W) -> Result<String, String> {
    toml::to_string(w).map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::{TofuKingdomWeights, TofuShifuWeights};

    #[test]
    fn weights_round_trip_through_their_float_fields() {
        let w = TofuShifuWeights::default();
        let mut f = float_fields(&w);
        assert!(f.len() >= 10, "{f:?}");
        for (i, x) in f.iter_mut().enumerate() {
            x.1 += 0.25 * i as f64;
        }
        let v: TofuShifuWeights = with_values(&w, &f).unwrap();
        assert_eq!(float_fields(&v), f);
        let back: TofuShifuWeights = toml::from_str(&to_toml(&v).unwrap()).unwrap();
        assert_eq!(float_fields(&back), f);
    }

    #[test]
    fn only_float_fields_are_tunable_and_bad_names_are_refused() {
        let w = TofuKingdomWeights::default();
        let names: Vec<String> = float_fields(&w).into_iter().map(|x| x.0).collect();
        assert!(names.contains(&"find_bonus".to_string()));
        assert!(
            !names.contains(&"question_worlds".to_string()),
            "an integer"
        );
        assert!(!names.contains(&"answer_style".to_string()), "a choice");
        let bad = with_values(&w, &[("question_worlds".into(), 3.0)]);
        assert!(bad.unwrap_err().contains("question_worlds"));
        let nan = with_values(&w, &[("points".into(), f64::NAN)]);
        assert!(nan.unwrap_err().contains("finite"));
        assert!(with_values(&w, &[("nope".into(), 1.0)]).is_err());
    }

    /// Every game's weights: a weight with a declared domain loads at its ends and is refused
    /// just outside; one without loads at any magnitude (so no undeclared domain can stop a
    /// tuner, as "-0.00085 is not a probability" stopped `shifu train`).
    fn domains_are_declared<G: crate::eval::Evaluate>() {
        let base = G::Weights::default();
        for (name, _) in float_fields(&base) {
            let loads = |x: f64| with_values(&base, &[(name.clone(), x)]).is_ok();
            match G::weight_domain(&name) {
                Some((lo, hi)) => {
                    assert!(loads(lo) && loads(hi), "{name}: its domain's ends load");
                    assert!(
                        !loads(lo - 1e-3) && !loads(hi + 1e-3),
                        "{name}: outside refused"
                    );
                }
                None => {
                    for x in [-1e6, -1.0, 0.0, 1e6] {
                        assert!(
                            loads(x),
                            "{name} = {x} is refused: declare its weight_domain"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_weight_domain_is_declared_and_its_ends_load() {
        use shifu_engine::{ginza_retro_cafe, tofu_kingdom, tofu_shifu, wok_star};
        domains_are_declared::<tofu_kingdom::TofuKingdom>();
        domains_are_declared::<tofu_shifu::TofuShifu>();
        domains_are_declared::<wok_star::WokStar>();
        domains_are_declared::<ginza_retro_cafe::GinzaRetroCafe>();
        assert_eq!(
            <tofu_kingdom::TofuKingdom as crate::eval::Evaluate>::weight_domain("steer"),
            Some((0.0, 1.0))
        );
    }
}
