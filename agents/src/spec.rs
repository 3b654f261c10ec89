//! Agent spec strings: `name` or `name:key=value,key=value`, shared by the CLI and config files.

use crate::az::{shared_net, AzAgent, AzConfig};
use crate::eval::{load_weights, Evaluate};
use crate::greedy::GreedyAgent;
use crate::learned::shared_model;
use crate::mcts::{Belief, Cut, MctsAgent, MctsConfig, Reward, Rollout, Root};
use crate::{agent_rng, Agent, Forbid, RandomAgent, Restricted};

/// A bad agent spec.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AgentError {
    /// The agent's name is not known.
    #[error("unknown agent `{0}`; known agents: random, greedy, mcts, az")]
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

/// The value named `v` among `options` for key `key`, or an error listing them.
fn choice<T: Copy>(spec: &str, key: &str, v: &str, options: &[(&str, T)]) -> Result<T, AgentError> {
    options
        .iter()
        .find(|(name, _)| *name == v)
        .map(|&(_, x)| x)
        .ok_or_else(|| AgentError::Malformed {
            spec: spec.into(),
            message: format!(
                "{key} must be {}, got `{v}`",
                options.iter().map(|o| o.0).collect::<Vec<_>>().join(" or ")
            ),
        })
}

fn parse<T: std::str::FromStr>(spec: &str, key: &str, v: &str) -> Result<T, AgentError> {
    v.parse().map_err(|_| AgentError::Malformed {
        spec: spec.into(),
        message: format!("bad value `{v}` for `{key}`"),
    })
}

fn weights<G: Evaluate>(spec: &str, path: Option<&str>) -> Result<G::Weights, AgentError> {
    match path {
        None => Ok(G::Weights::default()),
        Some(p) => load_weights(std::path::Path::new(p)).map_err(|message| AgentError::Malformed {
            spec: spec.into(),
            message,
        }),
    }
}

/// Builds the agent for `seat` of a game with seed `seed` from its spec:
/// - `random`;
/// - `greedy` or `greedy:weights=path.toml`;
/// - `mcts:iters=1000,calls=0,time_ms=0,c=0.7,rollout=random|greedy,depth=60,reward=rank|win,root=tree|paired,belief=uniform|model,horizon=game|round,z=1,confirm=false,top=0,weights=path.toml`
///   (every key optional; defaults as in [`MctsConfig`]);
/// - `az:model=FILE,iters=200,time_ms=0,c_puct=1.5,rollout=0,depth=0,eval=0,scale=3,weights=path.toml`: a policy-value network (a safetensors file
///   from `shifu net init` or training) guiding a PUCT search; `iters=0` plays its policy alone
///   (see [`crate::az`]).
///
/// Every agent also takes `forbid=NAME` (repeatable, or `forbid=a+b`): it never uses the game's
/// mechanics so named ([`shifu_engine::Mechanics`]), unless every legal action uses one, when
/// it still moves (see [`Restricted`]). An unknown name is an error listing the game's.
///
/// Each agent draws from [`agent_rng`]`(seed, seat)`.
pub fn build_agent<G: Evaluate + 'static>(
    spec: &str,
    seed: u64,
    seat: u8,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    build_agent_with(spec, seed, seat, None)
}

/// Checks `spec` against `game` before a run: the agent builds, a learned evaluation it names
/// (`leaf=FILE`) was fitted on this game's encoding (same game, same observation length), and
/// a network it names (`az:model=FILE`) was made for this game, player count and encoding.
pub fn check_agent<G: Evaluate + 'static>(game: &G, spec: &str) -> Result<(), AgentError> {
    build_agent::<G>(spec, 0, 0)?;
    let (name, opts) = parse_spec(spec)?;
    if name == "az" {
        if let Some((_, p)) = opts.iter().find(|(k, _)| k == "model") {
            let net = shared_net(std::path::Path::new(p)).map_err(|e| AgentError::Malformed {
                spec: spec.into(),
                message: e.to_string(),
            })?;
            if let Some(why) = net.config().mismatch(game) {
                return Err(AgentError::Malformed {
                    spec: spec.into(),
                    message: format!("{p}: {why}"),
                });
            }
        }
    }
    if let Some((_, p)) = opts.iter().find(|(k, _)| k == "leaf") {
        let m = shared_model(std::path::Path::new(p)).map_err(|message| AgentError::Malformed {
            spec: spec.into(),
            message,
        })?;
        let len = game.observation_len();
        if m.game != game.name() || m.inputs != len {
            return Err(AgentError::Malformed {
                spec: spec.into(),
                message: format!(
                    "{p}: a model of {} observations of {} values; this game ({}) encodes {len}",
                    m.game,
                    m.inputs,
                    game.name()
                ),
            });
        }
    }
    Ok(())
}

/// [`build_agent`], with `weights` (when given) in place of the spec's `weights=` file or the
/// defaults: how a tuner plays candidate weights it holds in memory.
pub fn build_agent_with<G: Evaluate + 'static>(
    spec: &str,
    seed: u64,
    seat: u8,
    weights: Option<&G::Weights>,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    let (name, mut opts) = parse_spec(spec)?;
    let mut forbid = Forbid::NONE;
    for (_, v) in opts.iter().filter(|(k, _)| k == "forbid") {
        forbid = forbid.add::<G>(spec, v)?;
    }
    opts.retain(|(k, _)| k != "forbid");
    let agent = build_unrestricted(spec, &name, &opts, seed, seat, weights, forbid)?;
    Ok(if forbid.is_empty() {
        agent
    } else {
        Box::new(Restricted::new(agent, forbid, spec.to_string()))
    })
}

/// [`build_agent_with`] for the options other than `forbid=`, which greedy and MCTS also apply
/// inside their look-ahead.
fn build_unrestricted<G: Evaluate + 'static>(
    spec: &str,
    name: &str,
    opts: &[(String, String)],
    seed: u64,
    seat: u8,
    weights: Option<&G::Weights>,
    forbid: Forbid,
) -> Result<Box<dyn Agent<G>>, AgentError> {
    let chosen = |path: Option<&str>| match weights {
        Some(w) => Ok(w.clone()),
        None => self::weights::<G>(spec, path),
    };
    let rng = agent_rng(seed, seat);
    let unknown = |key: &str| AgentError::UnknownKey {
        agent: name.to_string(),
        key: key.to_string(),
    };
    match name {
        "random" => {
            if let Some((k, _)) = opts.first() {
                return Err(unknown(k));
            }
            Ok(Box::new(RandomAgent::new(rng)))
        }
        "greedy" => {
            let mut path = None;
            for (k, v) in opts {
                match k.as_str() {
                    "weights" => path = Some(v.as_str()),
                    _ => return Err(unknown(k)),
                }
            }
            let w = chosen(path)?;
            Ok(Box::new(
                GreedyAgent::<G>::new(w, rng, spec.to_string()).with_forbid(forbid),
            ))
        }
        "mcts" => {
            let (c, path) = mcts_config(spec, opts)?;
            let w = chosen(path)?;
            Ok(Box::new(
                MctsAgent::<G>::new(c, w, rng, spec.to_string()).with_forbid(forbid),
            ))
        }
        "az" => {
            let (c, path, weights_path) = az_config(spec, opts)?;
            let w = chosen(weights_path)?;
            let net =
                shared_net(std::path::Path::new(path)).map_err(|e| AgentError::Malformed {
                    spec: spec.into(),
                    message: e.to_string(),
                })?;
            Ok(Box::new(
                AzAgent::<G>::new(c, net, rng, spec.to_string()).with_weights(w),
            ))
        }
        _ => Err(AgentError::UnknownAgent(name.to_string())),
    }
}

/// The `az:` agent's options, checked, its model file, and the evaluation's weights file
/// (`weights=`), if any.
type AzOptions<'a> = (AzConfig, &'a str, Option<&'a str>);

/// The `az:` agent's options, checked ([`AzOptions`]).
fn az_config<'a>(spec: &str, opts: &'a [(String, String)]) -> Result<AzOptions<'a>, AgentError> {
    let mut c = AzConfig::default();
    let mut path = None;
    let mut weights = None;
    let mut iters = None;
    for (k, v) in opts {
        match k.as_str() {
            "model" => path = Some(v.as_str()),
            "iters" => iters = Some(parse(spec, k, v)?),
            "time_ms" => {
                let t: u64 = parse(spec, k, v)?;
                c.time_ms = (t > 0).then_some(t);
            }
            "c_puct" => c.c_puct = parse(spec, k, v)?,
            "rollout" => c.rollout = parse(spec, k, v)?,
            "eval" => c.eval = parse(spec, k, v)?,
            "scale" => c.scale = parse(spec, k, v)?,
            "depth" => c.depth = parse(spec, k, v)?,
            "rollout_by" => {
                c.greedy_rollout = match v.as_str() {
                    "greedy" => true,
                    "random" => false,
                    _ => {
                        return Err(AgentError::Malformed {
                            spec: spec.into(),
                            message: format!("rollout_by={v}: give greedy or random"),
                        })
                    }
                }
            }
            "weights" => weights = Some(v.as_str()),
            _ => {
                return Err(AgentError::UnknownKey {
                    agent: "az".to_string(),
                    key: k.to_string(),
                })
            }
        }
    }
    let malformed = |message: &str| AgentError::Malformed {
        spec: spec.into(),
        message: message.into(),
    };
    // With only a time limit, the search runs until the time is up.
    c.iters = match (iters, c.time_ms) {
        (Some(0), Some(_)) => {
            return Err(malformed(
                "iters=0 plays the network's policy alone: leave time_ms out",
            ))
        }
        (Some(n), _) => n,
        (None, Some(_)) => 0,
        (None, None) => AzConfig::default().iters,
    };
    if !(c.c_puct.is_finite() && c.c_puct >= 0.0) {
        return Err(malformed("c_puct must be a number >= 0"));
    }
    if !(0.0..=1.0).contains(&c.rollout) {
        return Err(malformed("rollout must be a weight from 0 to 1"));
    }
    if !(0.0..=1.0).contains(&c.eval) || c.eval + c.rollout > 1.0 {
        return Err(malformed(
            "eval must be a weight from 0 to 1, and rollout + eval at most 1",
        ));
    }
    if !(c.scale.is_finite() && c.scale > 0.0) {
        return Err(malformed("scale must be a number > 0"));
    }
    // Options that would change nothing are refused rather than silently ignored.
    if c.depth > 0 && c.rollout == 0.0 {
        return Err(malformed(
            "depth cuts rollouts: give rollout=W above 0 with it",
        ));
    }
    if c.greedy_rollout && c.rollout == 0.0 {
        return Err(malformed(
            "rollout_by=greedy chooses the rollouts' moves: give rollout=W above 0 with it",
        ));
    }
    let evaluates = c.eval > 0.0 || (c.rollout > 0.0 && c.depth > 0);
    let scaled = opts.iter().any(|(k, _)| k == "scale");
    if (!evaluates && scaled) || (!evaluates && !c.greedy_rollout && weights.is_some()) {
        return Err(malformed(
            "weights and scale shape the hand-written evaluation: give eval=W above 0, or rollout=W with depth=D",
        ));
    }
    let path = path.ok_or_else(|| malformed("az needs model=FILE (a .safetensors network)"))?;
    Ok((c, path, weights))
}

/// The leaf-evaluation options of `az:` (`rollout`, `rollout_by`, `depth`, `eval`, `scale`), for
/// a search whose network, budget and exploration constant are set elsewhere (expert
/// iteration's `--search-options`): the same keys, values and checks as in an `az:` spec, so an
/// expert searches exactly as the agent with those options does. `model`, `iters`, `time_ms`,
/// `c_puct` and `weights` are refused (the hand-written evaluation keeps its default weights).
pub fn az_search_options(options: &str) -> Result<AzConfig, AgentError> {
    let spec = format!("az:{options}");
    let (_, mut opts) = parse_spec(&spec)?;
    if let Some((k, _)) = opts.iter().find(|(k, _)| {
        matches!(
            k.as_str(),
            "model" | "iters" | "time_ms" | "c_puct" | "weights"
        )
    }) {
        return Err(AgentError::Malformed {
            spec: options.into(),
            message: format!(
                "`{k}` is not a search option here (give rollout, rollout_by, depth, eval or scale)"
            ),
        });
    }
    opts.push(("model".into(), "-".into()));
    az_config(&spec, &opts).map(|(c, _, _)| c)
}

/// MCTS's options (`iters=200,c=1.4,...`) as a configuration, checked, and the weights file named
/// by `weights=`, if any.
fn mcts_config<'a>(
    spec: &str,
    opts: &'a [(String, String)],
) -> Result<(MctsConfig, Option<&'a str>), AgentError> {
    let mut c = MctsConfig::default();
    let mut path = None;
    let mut margin_scale: Option<f64> = None;
    for (k, v) in opts {
        match k.as_str() {
            "iters" => c.iters = parse(spec, k, v)?,
            "calls" => c.calls = parse(spec, k, v)?,
            "time_ms" => {
                let t: u64 = parse(spec, k, v)?;
                c.time_ms = (t > 0).then_some(t);
            }
            "c" => c.c = parse(spec, k, v)?,
            "z" => c.z = parse(spec, k, v)?,
            "confirm" => c.confirm = parse(spec, k, v)?,
            "top" => c.top = parse(spec, k, v)?,
            "depth" => c.depth = parse(spec, k, v)?,
            "rollout" => {
                c.rollout = choice(
                    spec,
                    k,
                    v,
                    &[("random", Rollout::Random), ("greedy", Rollout::Greedy)],
                )?
            }
            "root" => {
                c.root = choice(
                    spec,
                    k,
                    v,
                    &[("tree", Root::Tree), ("paired", Root::Paired)],
                )?
            }
            "horizon" => c.round_horizon = choice(spec, k, v, &[("game", false), ("round", true)])?,
            "belief" => {
                c.belief = choice(
                    spec,
                    k,
                    v,
                    &[("uniform", Belief::Uniform), ("model", Belief::Model)],
                )?
            }
            "reward" => {
                c.reward = choice(spec, k, v, &[("win", Reward::Win), ("rank", Reward::Rank)])?
            }
            "cut" => {
                let margin = Cut::Margin(margin_scale.unwrap_or(3.0));
                c.cut = choice(spec, k, v, &[("rank", Cut::Rank), ("margin", margin)])?
            }
            "scale" => {
                let x: f64 = parse(spec, k, v)?;
                if !(x.is_finite() && x > 0.0) {
                    return Err(AgentError::Malformed {
                        spec: spec.into(),
                        message: "scale must be a number > 0".into(),
                    });
                }
                margin_scale = Some(x);
                if let Cut::Margin(_) = c.cut {
                    c.cut = Cut::Margin(x);
                }
            }
            "weights" => path = Some(v.as_str()),
            "leaf" => {
                c.leaf = Some(shared_model(std::path::Path::new(v)).map_err(|message| {
                    AgentError::Malformed {
                        spec: spec.into(),
                        message,
                    }
                })?)
            }
            _ => {
                return Err(AgentError::UnknownKey {
                    agent: "mcts".to_string(),
                    key: k.to_string(),
                })
            }
        }
    }
    check_mcts(spec, &c)?;
    Ok((c, path))
}

/// Checks an MCTS configuration: a budget, `root=paired` budgeted by iterations or time, `c`
/// and `z` finite and not negative.
fn check_mcts(spec: &str, c: &MctsConfig) -> Result<(), AgentError> {
    if c.root == Root::Paired
        && ((c.iters == 0 && c.time_ms.is_none())
            || c.iters as usize > crate::mcts::MAX_PAIRED_ROLLOUTS
            || c.calls > 0)
    {
        return Err(AgentError::Malformed {
            spec: spec.into(),
            message: "root=paired is budgeted by iters (rollouts per decision) or time_ms: \
                      set iters from 1 to 1000000 (0 with time_ms: the time alone) and leave \
                      calls out"
                .into(),
        });
    }
    if c.iters == 0 && c.calls == 0 && c.time_ms.is_none() {
        return Err(AgentError::Malformed {
            spec: spec.into(),
            message: "set a budget: iters, calls or time_ms".into(),
        });
    }
    if !(c.c.is_finite() && c.c >= 0.0) {
        return Err(AgentError::Malformed {
            spec: spec.into(),
            message: "c must be a number >= 0".into(),
        });
    }
    if !(c.z.is_finite() && c.z >= 0.0) {
        return Err(AgentError::Malformed {
            spec: spec.into(),
            message: "z must be a number >= 0".into(),
        });
    }
    Ok(())
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

    #[test]
    fn search_options_are_parsed_and_bad_values_named() {
        use shifu_engine::tofu_kingdom::TofuKingdom;
        let ok =
            "mcts:iters=50,rollout=greedy,root=paired,belief=model,horizon=round,z=2,confirm=true";
        assert!(build_agent::<TofuKingdom>(ok, 1, 0).is_ok());
        for (bad, names) in [
            ("mcts:iters=50,belief=exact", "belief"),
            ("mcts:iters=50,horizon=turn", "horizon"),
            ("mcts:iters=50,z=-1", "z"),
            ("mcts:iters=50,z=NaN", "z"),
            ("mcts:iters=50,confirm=yes", "confirm"),
        ] {
            let e = build_agent::<TofuKingdom>(bad, 1, 0)
                .err()
                .unwrap()
                .to_string();
            assert!(e.contains(names), "{bad}: {e}");
        }
    }

    /// Expert iteration's `--search-options`: the `az:` agent's leaf options with its checks,
    /// and nothing that training sets itself.
    #[test]
    fn az_search_options_are_the_agents_leaf_options() {
        let c = az_search_options("rollout=1,rollout_by=greedy,depth=8").unwrap();
        assert_eq!((c.rollout, c.greedy_rollout, c.depth), (1.0, true, 8));
        assert_eq!(az_search_options("").unwrap(), AzConfig::default());
        for (bad, names) in [
            ("iters=5", "iters"),
            ("model=x.safetensors", "model"),
            ("c_puct=2", "c_puct"),
            ("rollout=2", "rollout"),
            ("rollout_by=greedy", "rollout"),
            ("depth=3", "depth"),
            ("rolout=1", "rolout"),
            ("rollout", "key=value"),
        ] {
            let e = az_search_options(bad).unwrap_err().to_string();
            assert!(e.contains(names), "{bad}: {e}");
        }
    }
}
