//! Agent spec strings: `name` or `name:key=value,key=value`, shared by the CLI and config files.

use crate::{agent_rng, Agent, RandomAgent};
use shifu_engine::Game;

/// A bad agent spec.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AgentError {
    /// The agent's name is not known.
    #[error("unknown agent `{0}`; known agents: random")]
    UnknownAgent(String),
    /// A key is not known for this agent.
    #[error("agent `{agent}`: unknown option `{key}`")]
    UnknownKey {
        /// The agent.
        agent: String,
        /// The key.
        key: String,
    },
    /// An option is malformed.
    #[error("agent spec `{spec}`: {message}")]
    Malformed {
        /// The spec.
        spec: String,
        /// What is wrong.
        message: String,
    },
}

/// Splits a spec into its name and `key=value` options.
pub fn parse_spec(spec: &str) -> Result<(String, Vec<(String, String)>), AgentError> {
    let (name, rest) = spec.split_once(':').unwrap_or((spec, ""));
    let name = name.trim().to_string();
    if name.is_empty() {
        return Err(AgentError::Malformed {
            spec: spec.into(),
            message: "empty agent name".into(),
        });
    }
    let mut opts = Vec::new();
    for kv in rest.split(',').filter(|s| !s.trim().is_empty()) {
        let (k, v) = kv.split_once('=').ok_or_else(|| AgentError::Malformed {
            spec: spec.into(),
            message: format!("`{kv}` is not key=value"),
        })?;
        opts.push((k.trim().to_string(), v.trim().to_string()));
    }
    Ok((name, opts))
}

/// Builds the agent for `seat` of a game with seed `seed` from its spec.
pub fn build_agent<G: Game>(
    spec: &str,
    seed: u64,
    seat: u8,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    let (name, opts) = parse_spec(spec)?;
    match name.as_str() {
        "random" => {
            if let Some((k, _)) = opts.first() {
                return Err(AgentError::UnknownKey {
                    agent: name,
                    key: k.clone(),
                });
            }
            Ok(Box::new(RandomAgent::new(agent_rng(seed, seat))))
        }
        _ => Err(AgentError::UnknownAgent(name)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_parsing() {
        assert_eq!(
            parse_spec("mcts:iters=100,c=0.7").unwrap(),
            (
                "mcts".into(),
                vec![("iters".into(), "100".into()), ("c".into(), "0.7".into())]
            )
        );
        assert!(parse_spec("mcts:iters").is_err());
        assert!(parse_spec("").is_err());
    }
}
