//! The space of `--method ntbea` as dimensions, never listed: a per-seat axis is one dimension
//! per seat (its integers), any other axis one dimension (its values), and a setting is
//! computed from a point (one value index per dimension) when it is needed.

use super::space::{AxisSpec, Setting, Value};
use anyhow::Result;

/// One `--search` axis as the game takes it.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The parameter.
    pub key: String,
    /// Its values as written.
    pub spec: AxisSpec,
    /// The seats, when the game takes one value per seat.
    pub per_seat: Option<usize>,
}

/// One dimension: an axis (or one seat of a per-seat axis) and its values.
#[derive(Debug, Clone)]
pub struct Dim {
    /// The axis it belongs to.
    pub axis: usize,
    /// Its values.
    pub values: Vec<Value>,
}

/// The space as dimensions.
#[derive(Debug, Clone)]
pub struct Space {
    probes: Vec<Probe>,
    /// The dimensions, axis by axis (a per-seat axis's seats in order).
    pub dims: Vec<Dim>,
    reference: Vec<Option<Value>>,
}

impl Space {
    /// The dimensions of the axes; `reference` is each axis's rulebook value, for the distance.
    pub fn new(probes: &[Probe], reference: Vec<Option<Value>>) -> Result<Space> {
        let mut dims = Vec::new();
        for (a, p) in probes.iter().enumerate() {
            let values = p.spec.values(None)?;
            for _ in 0..p.per_seat.unwrap_or(1) {
                dims.push(Dim {
                    axis: a,
                    values: values.clone(),
                });
            }
        }
        Ok(Space {
            probes: probes.to_vec(),
            dims,
            reference,
        })
    }

    /// Values per dimension.
    pub fn sizes(&self) -> Vec<usize> {
        self.dims.iter().map(|d| d.values.len()).collect()
    }

    /// Settings in the space (saturating at `u64::MAX`).
    pub fn size(&self) -> u64 {
        self.dims
            .iter()
            .try_fold(1u64, |acc, d| acc.checked_mul(d.values.len() as u64))
            .unwrap_or(u64::MAX)
    }

    /// The values of axis `a` at point `p`.
    fn axis_values<'a>(&'a self, a: usize, p: &'a [u32]) -> impl Iterator<Item = &'a Value> {
        self.dims
            .iter()
            .zip(p)
            .filter(move |(d, _)| d.axis == a)
            .map(|(d, &i)| &d.values[i as usize])
    }

    /// The setting at point `p` (its `index` is the point).
    pub fn setting(&self, p: &[u32]) -> Setting {
        let set = self
            .probes
            .iter()
            .enumerate()
            .map(|(a, probe)| {
                let texts: Vec<&str> = self.axis_values(a, p).map(|v| v.text.as_str()).collect();
                format!("{}={}", probe.key, texts.join(","))
            })
            .collect();
        Setting {
            set,
            index: p.iter().map(|&i| i as usize).collect(),
        }
    }

    /// The distance of point `p` from the reference, as [`super::space::distance`] measures
    /// it: per axis, the coordinates' absolute differences scaled by the axis's range (a word
    /// that differs counts 1).
    pub fn distance(&self, p: &[u32]) -> f64 {
        (0..self.probes.len())
            .map(|a| {
                let Some(r) = &self.reference[a] else {
                    return 0.0;
                };
                let vals: Vec<&Value> = self.axis_values(a, p).collect();
                let coords: Vec<f64> = vals.iter().flat_map(|v| v.coords.clone()).collect();
                let text: Vec<&str> = vals.iter().map(|v| v.text.as_str()).collect();
                if coords.len() != vals.len() || coords.len() != r.coords.len() {
                    return f64::from(u8::from(text.join(",") != r.text));
                }
                let dim = self.dims.iter().find(|d| d.axis == a);
                super::space::scaled_distance(
                    dim.into_iter()
                        .flat_map(|d| d.values.iter().flat_map(|v| v.coords.iter().copied())),
                    &coords,
                    &r.coords,
                )
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_dims_compute_settings_without_listing() {
        let probes = [
            Probe {
                key: "start_coins".into(),
                spec: AxisSpec::Ints(0, 15),
                per_seat: Some(5),
            },
            Probe {
                key: "scale".into(),
                spec: AxisSpec::Reals(0.5, 1.5, 0.5),
                per_seat: None,
            },
        ];
        let reference = vec![
            Some(Value {
                text: "1,2,2,3,3".into(),
                coords: vec![1.0, 2.0, 2.0, 3.0, 3.0],
            }),
            None,
        ];
        let s = Space::new(&probes, reference).unwrap();
        assert_eq!(s.sizes(), [16, 16, 16, 16, 16, 3]);
        assert_eq!(s.size(), 16u64.pow(5) * 3);
        let p = [1, 2, 2, 3, 15, 2];
        assert_eq!(s.setting(&p).set, ["start_coins=1,2,2,3,15", "scale=1.5"]);
        assert!((s.distance(&p) - 12.0 / 15.0).abs() < 1e-12);
    }
}
