//! Did you mean: a misspelled parameter (`--set start_coin=...`) or agent option
//! (`mcts:iter=10`) gets the nearest known name and the list of them; a `--vary` list value
//! split on commas gets the `/` that separates list values. (Subcommands and flags: clap.)

use shifu_agents::AgentError;

/// Each agent's options, as `shifu_agents::build_agent` accepts them.
pub const AGENT_OPTIONS: &[(&str, &[&str])] = &[
    ("random", &[]),
    ("greedy", &["weights"]),
    (
        "mcts",
        &[
            "iters", "calls", "time_ms", "c", "z", "confirm", "top", "depth", "rollout", "root",
            "horizon", "belief", "reward", "cut", "scale", "weights", "leaf",
        ],
    ),
    (
        "az",
        &[
            "model",
            "iters",
            "time_ms",
            "c_puct",
            "rollout",
            "rollout_by",
            "eval",
            "scale",
            "depth",
            "weights",
        ],
    ),
];

/// The known name nearest to `word`, when one is near enough to be a likely misspelling.
pub fn nearest<'a>(word: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    known
        .into_iter()
        .map(|k| (strsim::jaro_winkler(word, k), k))
        .filter(|(score, _)| *score > 0.8)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, k)| k)
}

/// The error with a "did you mean" added where one applies; otherwise the error as it was.
pub fn with_suggestion(e: anyhow::Error) -> anyhow::Error {
    if let Some(AgentError::UnknownKey { agent, key }) =
        e.chain().find_map(|c| c.downcast_ref::<AgentError>())
    {
        let options = AGENT_OPTIONS
            .iter()
            .find(|(a, _)| a == agent)
            .map(|(_, o)| *o)
            .unwrap_or(&[]);
        let hint = match (nearest(key, options.iter().copied()), options.is_empty()) {
            (_, true) => format!("`{agent}` takes no options"),
            (Some(k), false) => {
                format!(
                    "did you mean `{k}`? {agent}'s options: {}",
                    options.join(", ")
                )
            }
            (None, false) => format!("{agent}'s options: {}", options.join(", ")),
        };
        return anyhow::anyhow!("{e:#}; {hint}");
    }
    let text = format!("{e:#}");
    if let Some((head, known)) = text.split_once("unknown parameter; known: ") {
        let key = head
            .rsplit("parameter `")
            .next()
            .and_then(|k| k.split('`').next());
        if let Some(k) = key.and_then(|key| nearest(key, known.split(", ").map(str::trim))) {
            return anyhow::anyhow!("{text}; did you mean `{k}`?");
        }
    }
    e
}

/// The hint for a `--vary` whose values were split on commas but one of them is refused as
/// not a list: list values are separated by `/`.
pub fn vary_hint(vary: &[String], err: &str) -> Option<String> {
    if !err.contains("expected a sequence") {
        return None;
    }
    let v = vary.iter().find(|v| !v.contains('/') && v.contains(','))?;
    let (key, values) = v.split_once('=')?;
    let singles = values.split(',').collect::<Vec<_>>().join(", ");
    Some(format!(
        "in --vary, list values are separated by `/` (`{v}` was read as the single values {singles}): for one list use --set {key}={values}; for several, --vary {key}={values}/..."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn did_you_mean_a_misspelled_parameter() {
        let e = anyhow::anyhow!(
            "parameter `start_coin`: unknown parameter; known: hand_size, start_coins, players"
        );
        let text = format!("{:#}", with_suggestion(e));
        assert!(text.ends_with("did you mean `start_coins`?"), "{text}");
        let e = anyhow::anyhow!("parameter `zzz`: unknown parameter; known: hand_size, players");
        assert!(!format!("{:#}", with_suggestion(e)).contains("did you mean"));
    }

    #[test]
    fn did_you_mean_a_misspelled_agent_option_lists_the_options() {
        let e: anyhow::Error = AgentError::UnknownKey {
            agent: "mcts".into(),
            key: "iter".into(),
        }
        .into();
        let text = format!("{:#}", with_suggestion(e));
        assert!(text.contains("did you mean `iters`?"), "{text}");
        assert!(text.contains("mcts's options: iters, calls"), "{text}");
    }

    /// The list above is the agents crate's: each option is known to it (a bad value is refused
    /// as a value, not as an unknown option), and a made-up one is not.
    #[test]
    fn agent_options_match_the_agents_crate() {
        use shifu_engine::wok_star::{Params, WokStar};
        let g = WokStar::with_params(Params::with_players(2)).unwrap();
        for (agent, options) in AGENT_OPTIONS {
            for o in *options {
                let err = shifu_agents::check_agent(&g, &format!("{agent}:{o}=@")).unwrap_err();
                assert!(
                    !matches!(err, AgentError::UnknownKey { .. }),
                    "{agent}:{o}: {err}"
                );
            }
            let err = shifu_agents::check_agent(&g, &format!("{agent}:nonsense=1")).unwrap_err();
            assert!(matches!(err, AgentError::UnknownKey { .. }), "{agent}");
        }
    }

    #[test]
    fn vary_with_commas_for_a_list_suggests_slashes() {
        let hint = vary_hint(
            &["start_coins=2,2,2,2".into()],
            "cell start_coins=2: parameter `start_coins`: bad value `2`: invalid type: integer `2`, expected a sequence",
        )
        .unwrap();
        assert!(hint.contains("separated by `/`"), "{hint}");
        assert!(vary_hint(&["start_coins=2,2/1,1".into()], "expected a sequence").is_none());
    }
}
