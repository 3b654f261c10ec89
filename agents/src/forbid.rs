//! Restricted play (`forbid=NAME` in any agent spec): an agent that never uses the named
//! mechanics ([`shifu_engine::Mechanics`]), unless every legal action uses one of them, when it
//! still moves, choosing among them as it would unrestricted: a restriction never dead-ends a
//! game.

use crate::{Agent, AgentError, Decision};
use shifu_engine::Mechanics;

/// A set of a game's mechanics an agent may not use: bit `i` forbids mechanic `i`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Forbid(u64);

impl Forbid {
    /// Nothing forbidden.
    pub const NONE: Forbid = Forbid(0);

    /// The mechanics named in `value` (`copy`, or several joined by `+`), added to these; an
    /// unknown name is an error listing the game's mechanics.
    pub fn add<G: Mechanics>(self, spec: &str, value: &str) -> Result<Forbid, AgentError> {
        let mut bits = self.0;
        for name in value.split('+').map(str::trim) {
            match G::mechanic_index(name) {
                Some(i) if i < 64 => bits |= 1 << i,
                _ => {
                    let known = if G::MECHANICS.is_empty() {
                        "none".to_string()
                    } else {
                        G::MECHANICS.join(", ")
                    };
                    return Err(AgentError::Malformed {
                        spec: spec.into(),
                        message: format!(
                            "forbid: unknown mechanic `{name}`; {}'s mechanics: {known}",
                            G::INFO.name
                        ),
                    });
                }
            }
        }
        Ok(Forbid(bits))
    }

    /// Whether nothing is forbidden.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether `action` in `state` uses a forbidden mechanic.
    #[inline]
    pub fn forbids<G: Mechanics>(self, game: &G, state: &G::State, action: G::Action) -> bool {
        self.0 != 0
            && game
                .mechanic(state, action)
                .is_some_and(|m| m < 64 && self.0 >> m & 1 == 1)
    }

    /// Removes the forbidden actions from `legal`, unless all of them are forbidden (then the
    /// list stays as it is, so the agent still moves).
    #[inline]
    pub fn filter<G: Mechanics>(self, game: &G, state: &G::State, legal: &mut Vec<G::Action>) {
        if self.0 == 0 || legal.iter().all(|&a| self.forbids(game, state, a)) {
            return;
        }
        legal.retain(|&a| !self.forbids(game, state, a));
    }
}

/// An agent whose decisions are restricted: it hands its inner agent a [`Decision`] whose legal
/// actions leave out the forbidden ones (all of them where every one is forbidden).
pub struct Restricted<G: Mechanics> {
    inner: Box<dyn Agent<G>>,
    forbid: Forbid,
    spec: String,
    allowed: Vec<G::Action>,
}

impl<G: Mechanics> Restricted<G> {
    /// `inner`, restricted by `forbid`; `spec` is its name in logs.
    pub fn new(inner: Box<dyn Agent<G>>, forbid: Forbid, spec: String) -> Self {
        Restricted {
            inner,
            forbid,
            spec,
            allowed: Vec::new(),
        }
    }
}

impl<G: Mechanics> Agent<G> for Restricted<G> {
    fn name(&self) -> String {
        self.spec.clone()
    }

    fn choose(&mut self, d: &Decision<'_, G>) -> G::Action {
        let legal = d.legal();
        self.allowed.clear();
        self.allowed.extend(
            legal
                .iter()
                .copied()
                .filter(|&a| !d.forbids(self.forbid, a)),
        );
        if self.allowed.is_empty() || self.allowed.len() == legal.len() {
            return self.inner.choose(d);
        }
        let allowed = std::mem::take(&mut self.allowed);
        let a = self.inner.choose(&d.with_legal(&allowed));
        self.allowed = allowed;
        a
    }

    fn set_stop(&mut self, stop: crate::StopCheck) {
        self.inner.set_stop(stop);
    }

    fn set_explain(&mut self, on: bool) {
        self.inner.set_explain(on);
    }

    fn explain(&self) -> crate::Explanation<G::Action> {
        self.inner.explain()
    }
}
