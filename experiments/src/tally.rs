//! Totals over a run's games, by seat: what every summary is computed from.

use crate::games::MAX_EVENTS;
use crate::runner::GameRow;
use shifu_engine::present::Stats;
use shifu_engine::MAX_SEATS;

/// Totals over games, by seat, and the game's own statistics `S` (`()` where a run is read back
/// from its file).
#[derive(Clone)]
pub struct Tally<S = ()> {
    pub games: u64,
    pub win: [f64; MAX_SEATS],
    pub rank: [f64; MAX_SEATS],
    pub score: [f64; MAX_SEATS],
    pub capped: u64,
    pub rounds: u64,
    pub steps: u64,
    pub shared: u64,
    /// The game's own statistics ([`shifu_engine::Present::Stats`]) over the games played in
    /// this process.
    pub extra: S,
    /// Games behind `extra`.
    pub extra_games: u64,
    /// Games in which each of the game's events ([`shifu_engine::Present::EVENTS`]) happened.
    pub events: [u64; MAX_EVENTS],
    /// Sum of the squared round counts (for the spread of game length).
    pub rounds_sq: f64,
}

impl<S: Default> Default for Tally<S> {
    fn default() -> Self {
        Tally {
            games: 0,
            win: [0.0; MAX_SEATS],
            rank: [0.0; MAX_SEATS],
            score: [0.0; MAX_SEATS],
            capped: 0,
            rounds: 0,
            steps: 0,
            shared: 0,
            extra: S::default(),
            extra_games: 0,
            events: [0; MAX_EVENTS],
            rounds_sq: 0.0,
        }
    }
}

impl<S> Tally<S> {
    /// Mean rounds per game and the half-width of its 95% interval (normal approximation).
    pub fn mean_rounds(&self) -> (f64, f64) {
        let n = self.games.max(1) as f64;
        let mean = self.rounds as f64 / n;
        let var = (self.rounds_sq / n - mean * mean).max(0.0) * n / (n - 1.0).max(1.0);
        (mean, 1.959_964 * (var / n).sqrt())
    }

    /// Adds one game.
    pub fn add(&mut self, r: &GameRow<S>, seats: usize)
    where
        S: Stats,
    {
        let o = &r.outcome;
        self.games += 1;
        for s in 0..seats {
            self.win[s] += o.win_share(s as u8);
            self.rank[s] += o.rank[s] as f64;
            self.score[s] += o.score[s];
        }
        self.capped += o.capped as u64;
        self.shared += (o.winner_count() > 1) as u64;
        self.rounds += r.rounds as u64;
        self.rounds_sq += (r.rounds as f64).powi(2);
        self.steps += r.steps;
        for (n, e) in self.events.iter_mut().zip(&r.events) {
            *n += e.is_some() as u64;
        }
        self.extra.merge(&r.extra);
        self.extra_games += 1;
    }
}
