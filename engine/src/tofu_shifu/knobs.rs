//! Reconstruction knobs: parameters that rewrite the card data before the game is built.
//!
//! Most Tofu Shifu cards are printed only in pictures, so the default data is a reconstruction.
//! Its unknown values are exposed here as knobs, so that every experiment can be rerun with the
//! unknowns moved (does a finding still hold?), and so that the calibration of the default data
//! is a documented, re-runnable procedure (`results/calibrate.sh`). Each knob's default leaves
//! the data as it is. Values the rulebook prints are never changed: a card lists them in its
//! `rulebook` field.
//!
//! The knobs, applied in this order:
//! - `upgrade_coin_scale`: every upgrade coin cost times the scale, rounded to the nearest coin
//!   (halves round up);
//! - `restaurant_objective_dishes = distinct`: a restaurant objective asks for each of its dishes
//!   once (Dried Tofu, Dried Tofu, Soymilk becomes Dried Tofu, Soymilk);
//! - `restaurant_objective_max_dishes = N`: a restaurant objective keeps its first N dishes;
//! - `player_objective_upgrade_delta = d`: every upgrade count a Player objective asks for
//!   changes by d, never below 1;
//! - `town_bonus_powers = false`: Town objectives give no bonus power;
//! - `town_objective_cost_scale`, `player_objective_cost_scale`: every coin cost of a Town or
//!   Player objective times the scale, rounded;
//! - `objective_cost.<ID> = n`: one objective's coin cost.

use super::data::{compile_raw, RawData, RulebookField};
use super::params::{Params, RestaurantDishes};
use super::CardData;
use crate::error::EngineError;

/// Rounds a scaled count to the nearest whole number (halves up), as an error-free `u16`.
fn scaled(n: u16, scale: f64) -> u16 {
    (n as f64 * scale).round().clamp(0.0, u16::MAX as f64) as u16
}

/// Whether every knob is at its identity value.
fn identity(p: &Params) -> bool {
    p.upgrade_coin_scale == 1.0
        && p.restaurant_objective_dishes == RestaurantDishes::AsData
        && p.restaurant_objective_max_dishes.is_none()
        && p.player_objective_upgrade_delta == 0
        && p.town_bonus_powers
        && p.town_objective_cost_scale == 1.0
        && p.player_objective_cost_scale == 1.0
        && p.objective_cost.is_empty()
}

/// Checks the knobs' values (before any data is touched).
pub(super) fn check(p: &Params) -> Result<(), EngineError> {
    for (key, scale) in [
        ("upgrade_coin_scale", p.upgrade_coin_scale),
        ("town_objective_cost_scale", p.town_objective_cost_scale),
        ("player_objective_cost_scale", p.player_objective_cost_scale),
    ] {
        if !(scale.is_finite() && (0.0..=100.0).contains(&scale)) {
            return Err(EngineError::param(
                key,
                format!("must be a number from 0 to 100, got {scale}"),
            ));
        }
    }
    if p.restaurant_objective_max_dishes == Some(0) {
        return Err(EngineError::param(
            "restaurant_objective_max_dishes",
            "must be at least 1 (a restaurant objective asks for at least one dish)",
        ));
    }
    Ok(())
}

/// The card data with the knobs applied (the data itself when every knob is at identity).
pub(super) fn apply(data: CardData, p: &Params) -> Result<CardData, EngineError> {
    check(p)?;
    if identity(p) {
        return Ok(data);
    }
    let mut raw = data.raw.clone();
    rewrite(&mut raw, p)?;
    raw.status = format!("{} [reconstruction knobs: {}]", raw.status, describe(p));
    compile_raw(raw, &data.source)
}

/// The non-identity knobs as `key=value` words.
fn describe(p: &Params) -> String {
    let mut v = Vec::new();
    if p.upgrade_coin_scale != 1.0 {
        v.push(format!("upgrade_coin_scale={}", p.upgrade_coin_scale));
    }
    if p.restaurant_objective_dishes != RestaurantDishes::AsData {
        v.push("restaurant_objective_dishes=distinct".to_string());
    }
    if let Some(n) = p.restaurant_objective_max_dishes {
        v.push(format!("restaurant_objective_max_dishes={n}"));
    }
    if p.player_objective_upgrade_delta != 0 {
        v.push(format!(
            "player_objective_upgrade_delta={}",
            p.player_objective_upgrade_delta
        ));
    }
    if !p.town_bonus_powers {
        v.push("town_bonus_powers=false".to_string());
    }
    if p.town_objective_cost_scale != 1.0 {
        v.push(format!(
            "town_objective_cost_scale={}",
            p.town_objective_cost_scale
        ));
    }
    if p.player_objective_cost_scale != 1.0 {
        v.push(format!(
            "player_objective_cost_scale={}",
            p.player_objective_cost_scale
        ));
    }
    for (id, c) in &p.objective_cost {
        v.push(format!("objective_cost.{id}={c}"));
    }
    v.join(" ")
}

/// Rewrites the raw data by the knobs.
fn rewrite(raw: &mut RawData, p: &Params) -> Result<(), EngineError> {
    for card in &mut raw.production_cards {
        if !card.rulebook.contains(&RulebookField::UpgradeCost) {
            card.upgrade_cost.coins = scaled(card.upgrade_cost.coins, p.upgrade_coin_scale);
        }
        if card.rulebook.contains(&RulebookField::ObjectiveRequirement) {
            continue;
        }
        let dishes = &mut card.objective_requirement;
        if p.restaurant_objective_dishes == RestaurantDishes::Distinct {
            let mut seen = Vec::new();
            dishes.retain(|d| {
                let first = !seen.contains(d);
                seen.push(*d);
                first
            });
        }
        if let Some(n) = p.restaurant_objective_max_dishes {
            dishes.truncate(n as usize);
        }
    }
    for o in &mut raw.player_objectives {
        for (key, n) in o.requirement.iter_mut() {
            if key != "coins" && *n > 0 {
                *n = (*n as i32 + p.player_objective_upgrade_delta as i32).max(1) as u16;
            }
        }
        if let Some(c) = o.requirement.get_mut("coins") {
            *c = scaled(*c, p.player_objective_cost_scale);
        }
    }
    for o in &mut raw.town_objectives {
        if !p.town_bonus_powers {
            o.bonus = None;
        }
        if let Some(c) = o.requirement.get_mut("coins") {
            *c = scaled(*c, p.town_objective_cost_scale);
        }
    }
    for (id, &c) in &p.objective_cost {
        let req = raw
            .town_objectives
            .iter_mut()
            .find(|o| &o.id == id)
            .map(|o| &mut o.requirement)
            .or_else(|| {
                raw.player_objectives
                    .iter_mut()
                    .find(|o| &o.id == id)
                    .map(|o| &mut o.requirement)
            })
            .ok_or_else(|| {
                EngineError::param(
                    format!("objective_cost.{id}"),
                    "no Town or Player objective has this id",
                )
            })?;
        if c == 0 {
            req.remove("coins");
        } else {
            req.insert("coins".to_string(), c);
        }
    }
    Ok(())
}
