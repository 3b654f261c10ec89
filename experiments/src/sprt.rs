//! Wald's sequential probability ratio test on a player's score, for gating a candidate network
//! against the incumbent (`shifu train --method expert-iteration`).
//!
//! Each game gives the candidate a score in 0..=1 (its win share: 1 for a win, 1/k for a k-way
//! tie, 0 for a loss). Under an Elo difference `e` against n - 1 equal opponents its expected
//! score is `g / (g + n - 1)` with `g = 10^(e/400)` (Plackett-Luce on the winner; at 2 players
//! the usual logistic Elo). The test weighs H0: `elo0` against H1: `elo1` with the log-likelihood
//! ratio of a Bernoulli score (a fractional score counts fractionally, the usual treatment of
//! draws): `LLR = S ln(p1/p0) + (N - S) ln((1-p1)/(1-p0))` after N games of total score S. It
//! accepts H1 once `LLR >= ln((1-beta)/alpha)` and H0 once `LLR <= ln(beta/(1-alpha))`; at the
//! game cap with neither, it has decided nothing, and the gate keeps the incumbent.

/// The test's settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sprt {
    /// Elo difference under H0.
    pub elo0: f64,
    /// Elo difference under H1 (above `elo0`).
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// Players per game (the candidate against `players - 1` opponents).
    pub players: usize,
}

/// What the test concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// H1: the candidate is stronger by at least `elo1`.
    H1,
    /// H0: the candidate is not stronger than `elo0`.
    H0,
}

/// The expected score (win share) of a player `elo` stronger than each of `players - 1` equal
/// opponents.
pub fn expected_score(elo: f64, players: usize) -> f64 {
    let g = 10f64.powf(elo / 400.0);
    g / (g + players.max(2) as f64 - 1.0)
}

/// The Elo difference whose expected score is `score` (the inverse of [`expected_score`]),
/// with the score clamped away from 0 and 1.
pub fn elo_of_score(score: f64, players: usize) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    400.0 * (s * (players.max(2) as f64 - 1.0) / (1.0 - s)).log10()
}

impl Sprt {
    /// The test, or what is wrong with its settings (naming the flag).
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        players: usize,
    ) -> Result<Self, String> {
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!(
                "--elo0 {elo0} --elo1 {elo1}: give finite Elo differences with elo0 < elo1"
            ));
        }
        if !(alpha > 0.0 && alpha < 0.5) {
            return Err(format!(
                "--alpha {alpha}: give an error rate between 0 and 0.5"
            ));
        }
        if !(beta > 0.0 && beta < 0.5) {
            return Err(format!(
                "--beta {beta}: give an error rate between 0 and 0.5"
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
            players: players.max(2),
        })
    }

    /// The log-likelihood ratio of H1 against H0 after `games` games of total score `score`.
    pub fn llr(&self, score: f64, games: u64) -> f64 {
        let p0 = expected_score(self.elo0, self.players);
        let p1 = expected_score(self.elo1, self.players);
        score * (p1 / p0).ln() + (games as f64 - score) * ((1.0 - p1) / (1.0 - p0)).ln()
    }

    /// The bounds (lower: accept H0, upper: accept H1).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict at log-likelihood ratio `llr`, if any.
    pub fn verdict(&self, llr: f64) -> Option<Verdict> {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Some(Verdict::H1)
        } else if llr <= lo {
            Some(Verdict::H0)
        } else {
            None
        }
    }

    /// Runs the test over `scores` in order, stopping at the first verdict or after `cap`
    /// games: the games used, their total score, the final LLR and the verdict (None at the cap).
    pub fn run(&self, scores: &[f64], cap: u64) -> (u64, f64, f64, Option<Verdict>) {
        self.walk(scores, cap, false)
    }

    /// [`Sprt::run`] for a paired comparison of two teams on shared seeds, each seed scoring 1
    /// (only the first team won), 0 (only the second) or 1/2 (both or neither). A tied seed
    /// says nothing about which team is stronger, so the LLR counts only the seeds that differ
    /// (a sequential sign test: under H0 the first team wins a differing seed with the expected
    /// score of `elo0` between two players, under H1 with that of `elo1`), while every seed
    /// counts toward the cap and the total.
    pub fn run_paired(&self, scores: &[f64], cap: u64) -> (u64, f64, f64, Option<Verdict>) {
        self.walk(scores, cap, true)
    }

    /// Both runs: with `skip_ties`, a score of 1/2 counts toward the games and the total but
    /// not toward the LLR.
    fn walk(&self, scores: &[f64], cap: u64, skip_ties: bool) -> (u64, f64, f64, Option<Verdict>) {
        let (mut games, mut total, mut llr) = (0u64, 0.0, 0.0);
        let (mut weighed, mut won) = (0u64, 0.0);
        for &s in scores.iter().take(cap as usize) {
            games += 1;
            total += s;
            if skip_ties && s == 0.5 {
                continue;
            }
            weighed += 1;
            won += s;
            llr = self.llr(won, weighed);
            if let Some(v) = self.verdict(llr) {
                return (games, total, llr, Some(v));
            }
        }
        (games, total, llr, None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt() -> Sprt {
        Sprt::new(0.0, 50.0, 0.05, 0.05, 2).unwrap()
    }

    #[test]
    fn expected_scores_and_their_inverse() {
        for n in 2..=6 {
            assert!((expected_score(0.0, n) - 1.0 / n as f64).abs() < 1e-12);
            assert!(expected_score(100.0, n) > 1.0 / n as f64);
            for e in [-200.0, -20.0, 0.0, 35.0, 300.0] {
                assert!((elo_of_score(expected_score(e, n), n) - e).abs() < 1e-6);
            }
        }
        assert!((expected_score(400.0, 2) - 10.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn bounds_are_walds() {
        let (lo, hi) = sprt().bounds();
        assert!((lo - (0.05f64 / 0.95).ln()).abs() < 1e-12);
        assert!((hi - (0.95f64 / 0.05).ln()).abs() < 1e-12);
    }

    #[test]
    fn the_llr_starts_at_zero_and_follows_the_score() {
        let t = sprt();
        assert_eq!(t.llr(0.0, 0), 0.0);
        assert!(t.llr(1.0, 1) > 0.0, "a win is evidence for H1");
        assert!(t.llr(0.0, 1) < 0.0, "a loss is evidence for H0");
        // At the midpoint score between p0 and p1 the evidence is nearly balanced.
        let p0 = expected_score(0.0, 2);
        let p1 = expected_score(50.0, 2);
        assert!(t.llr((p0 + p1) / 2.0 * 1000.0, 1000).abs() < 0.1);
    }

    #[test]
    fn wins_accept_h1_losses_accept_h0_and_the_cap_decides_nothing() {
        let t = sprt();
        let (games, _, llr, v) = t.run(&[1.0; 200], 200);
        assert_eq!(v, Some(Verdict::H1));
        assert!(llr >= t.bounds().1 && games < 200);
        let (_, _, _, v) = t.run(&[0.0; 200], 200);
        assert_eq!(v, Some(Verdict::H0));
        // Alternating wins and losses at a cap of 10: no verdict.
        let mixed: Vec<f64> = (0..200).map(|i| (i % 2) as f64).collect();
        let (games, total, _, v) = t.run(&mixed, 10);
        assert_eq!((games, total, v), (10, 5.0, None));
    }

    #[test]
    fn a_paired_run_weighs_only_the_seeds_that_differ() {
        let t = sprt();
        // 200 seeds: 170 ties, then 27 won by the first team only against 3 by the second.
        let mut s = vec![0.5; 170];
        s.extend((0..30).map(|i| if i % 10 == 9 { 0.0 } else { 1.0 }));
        let (games, total, llr, v) = t.run_paired(&s, 200);
        assert_eq!(v, Some(Verdict::H1), "llr {llr}");
        assert!(games > 170 && games <= 200);
        assert!((total - s[..games as usize].iter().sum::<f64>()).abs() < 1e-9);
        // The unpaired run counts a tie as half a win and half a loss: no verdict here.
        assert_eq!(t.run(&s, 200).3, None);
        // Ties alone decide nothing, and leave the LLR at 0.
        assert_eq!(t.run_paired(&[0.5; 300], 300), (300, 150.0, 0.0, None));
        // Losses among ties still accept H0.
        let mut s = vec![0.5; 50];
        s.extend([0.0; 20]);
        assert_eq!(t.run_paired(&s, 200).3, Some(Verdict::H0));
    }

    #[test]
    fn more_players_lower_the_fair_score() {
        let t = Sprt::new(0.0, 50.0, 0.05, 0.05, 4).unwrap();
        // Winning a third of 4-player games is well above the fair quarter.
        let s: Vec<f64> = (0..600).map(|i| f64::from(i % 3 == 0)).collect();
        assert_eq!(t.run(&s, 600).3, Some(Verdict::H1));
    }

    #[test]
    fn bad_settings_name_the_flag() {
        assert!(Sprt::new(10.0, 5.0, 0.05, 0.05, 2)
            .unwrap_err()
            .contains("--elo0"));
        assert!(Sprt::new(0.0, 5.0, 0.0, 0.05, 2)
            .unwrap_err()
            .contains("--alpha"));
        assert!(Sprt::new(0.0, 5.0, 0.05, 0.7, 2)
            .unwrap_err()
            .contains("--beta"));
        assert!(Sprt::new(f64::NAN, 5.0, 0.05, 0.05, 2).is_err());
    }
}
