//! The small Tofu Kingdom race that tests/balance.rs and tests/balance_shard.rs share,
//! included by `#[path]` (a file under tests/common/ is not a test target of its own).

/// A small race over Tofu Kingdom's question options, aiming the Prince's find rate at one
/// half (random agents: fast, and games end by the rules).
pub const KINGDOM: &[&str] = &[
    "balance",
    "--game",
    "tofu-kingdom",
    "--players",
    "4",
    "--agents",
    "random",
    "--search",
    "extra_question=true/false",
    "--search",
    "ask_where=true/false",
    "--objective",
    "target:stats.finds/stats.princess_dealt=0.5",
    "--first-look",
    "40",
    "--max-games",
    "160",
    "--budget",
    "400",
    "--finalists",
    "2",
    "--validation-games",
    "150",
    "--quiet",
];
