//! Agents' thinking time as the results report it: `shifu duel` and `shifu tournament` give each
//! agent's mean wall-clock time per move ([`shifu_agents::timed`]), so that a strength is read
//! beside its cost. Times depend on the machine and its load; the games do not.

use serde::{Deserialize, Serialize};
use shifu_agents::Thinking;

/// One agent's moves and the time it spent choosing them.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
pub struct ThinkingTime {
    /// Moves it chose.
    pub moves: u64,
    /// Seconds it spent choosing them, summed over games (and threads).
    pub seconds: f64,
    /// Mean milliseconds per move.
    pub ms_per_move: f64,
}

impl From<Thinking> for ThinkingTime {
    fn from(t: Thinking) -> Self {
        ThinkingTime {
            moves: t.moves,
            seconds: t.nanos as f64 / 1e9,
            ms_per_move: t.ms_per_move(),
        }
    }
}

impl std::fmt::Display for ThinkingTime {
    /// `0.042 ms per move (1,234 moves)`, with more digits for fast agents.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = self.ms_per_move;
        let digits = if ms >= 10.0 {
            1
        } else if ms >= 0.1 {
            2
        } else {
            4
        };
        write!(f, "{ms:.digits$} ms per move ({} moves)", self.moves)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinking_time_is_shown_with_digits_for_its_size() {
        let t = |moves, nanos| ThinkingTime::from(Thinking { moves, nanos });
        assert_eq!(t(4, 2_000_000).to_string(), "0.50 ms per move (4 moves)");
        assert_eq!(
            t(1000, 12_340_000).to_string(),
            "0.0123 ms per move (1000 moves)"
        );
        assert_eq!(
            t(10, 250_000_000).to_string(),
            "25.0 ms per move (10 moves)"
        );
        assert_eq!(t(0, 0).ms_per_move, 0.0);
        assert_eq!(t(2, 3_000_000_000).seconds, 3.0);
    }
}
