//! Ratings from finishing orders: the Plackett-Luce model fitted by Hunter's MM algorithm, on the
//! Elo scale. For two players Plackett-Luce is Bradley-Terry.
//!
//! A game's finishing order is read as a sequence of choices: the first place is chosen from all
//! seats with probability proportional to the agents' strengths, the second from the rest, and so
//! on. Tied seats (a shared rank) are handled by Breslow's approximation: each tied seat counts as
//! chosen from the whole set that remained before the tie. The same agent may sit in several seats
//! of one game; the remaining set is then a multiset. A choice among copies of one agent only
//! carries no information and is skipped.

use std::collections::BTreeMap;

/// Sufficient statistics of a set of games for the Plackett-Luce fit.
#[derive(Clone, Debug)]
pub struct PlStats {
    /// Choice stages by remaining multiset (count of each agent) -> number of stages.
    sets: BTreeMap<Vec<u16>, f64>,
    /// Times each agent was chosen.
    wins: Vec<f64>,
}

impl PlStats {
    /// Empty statistics over `agents` agents.
    pub fn new(agents: usize) -> Self {
        PlStats {
            sets: BTreeMap::new(),
            wins: vec![0.0; agents],
        }
    }

    /// Adds one game: `agent[s]` sat in seat `s` and finished with `rank[s]` (1 best; tied seats
    /// share a rank).
    pub fn add_game(&mut self, agent: &[usize], rank: &[u8]) {
        let k = self.wins.len();
        let mut remaining = vec![0u16; k];
        for &a in agent {
            remaining[a] += 1;
        }
        let mut ranks: Vec<u8> = rank.to_vec();
        ranks.sort_unstable();
        ranks.dedup();
        for r in ranks {
            let informative = remaining.iter().filter(|&&c| c > 0).count() >= 2;
            let tied: Vec<usize> = (0..agent.len()).filter(|&s| rank[s] == r).collect();
            if informative {
                for &s in &tied {
                    self.wins[agent[s]] += 1.0;
                    *self.sets.entry(remaining.clone()).or_insert(0.0) += 1.0;
                }
            }
            for &s in &tied {
                remaining[agent[s]] -= 1;
            }
        }
    }

    /// Adds another set of statistics (same agents).
    pub fn merge(&mut self, other: &PlStats) {
        for (set, m) in &other.sets {
            *self.sets.entry(set.clone()).or_insert(0.0) += m;
        }
        for (w, o) in self.wins.iter_mut().zip(&other.wins) {
            *w += o;
        }
    }
}

/// Plackett-Luce strengths by the MM algorithm (Hunter 2004), on the Elo scale with mean 0:
/// `400 log10(gamma)`, so a 100-point gap means the stronger agent finishes ahead of the weaker
/// in 64% of their head-to-head comparisons. A small prior (half a win and half a loss against a
/// unit-strength opponent) keeps an unbeaten or winless agent finite.
pub fn plackett_luce(stats: &PlStats) -> Vec<f64> {
    let k = stats.wins.len();
    let mut g = vec![1.0f64; k];
    for _ in 0..5000 {
        let mut denom: Vec<f64> = g.iter().map(|x| 1.0 / (x + 1.0)).collect();
        for (set, m) in &stats.sets {
            let total: f64 = set.iter().zip(&g).map(|(&c, x)| f64::from(c) * x).sum();
            for (a, &c) in set.iter().enumerate() {
                if c > 0 {
                    denom[a] += m * f64::from(c) / total;
                }
            }
        }
        let mut next: Vec<f64> = (0..k).map(|a| (stats.wins[a] + 0.5) / denom[a]).collect();
        let mean_log = next.iter().map(|x| x.ln()).sum::<f64>() / k as f64;
        for x in next.iter_mut() {
            *x /= mean_log.exp();
        }
        let change = next
            .iter()
            .zip(&g)
            .map(|(a, b)| (a / b).ln().abs())
            .fold(0.0, f64::max);
        g = next;
        if change < 1e-10 {
            break;
        }
    }
    g.iter().map(|x| 400.0 * x.log10()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn two_players_is_bradley_terry() {
        // A beats B 75 times in 100: about 191 Elo apart (400 log10 3), shrunk a little by the prior.
        let mut s = PlStats::new(2);
        for i in 0..100 {
            let a_first = i < 75;
            s.add_game(&[0, 1], if a_first { &[1, 2] } else { &[2, 1] });
        }
        let e = plackett_luce(&s);
        let gap = e[0] - e[1];
        assert!(gap > 170.0 && gap < 192.0, "{gap}");
        assert!((e[0] + e[1]).abs() < 1e-6);
    }

    #[test]
    fn recovers_known_strengths_from_four_player_orders() {
        // Strengths 1, 2, 4, 8 (Elo gaps 120.4 each); orders drawn from the model itself.
        let gamma = [1.0, 2.0, 4.0, 8.0];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut s = PlStats::new(4);
        for _ in 0..4000 {
            let mut left: Vec<usize> = vec![0, 1, 2, 3];
            let mut rank = [0u8; 4];
            let mut place = 1;
            while !left.is_empty() {
                let total: f64 = left.iter().map(|&a| gamma[a]).sum();
                let mut x = rng.gen::<f64>() * total;
                let mut pick = left.len() - 1;
                for (i, &a) in left.iter().enumerate() {
                    if x < gamma[a] {
                        pick = i;
                        break;
                    }
                    x -= gamma[a];
                }
                rank[left.remove(pick)] = place;
                place += 1;
            }
            s.add_game(&[0, 1, 2, 3], &rank);
        }
        let e = plackett_luce(&s);
        for a in 0..3 {
            let gap = e[a + 1] - e[a];
            assert!((gap - 120.4).abs() < 20.0, "gap {a}: {gap} ({e:?})");
        }
    }

    #[test]
    fn ties_and_repeated_agents() {
        // Agent 0 in two seats, agent 1 in two: a game where both copies of 0 tie for first is
        // two choices of 0 from {0,0,1,1}; then only copies of 1 remain, which says nothing.
        let mut s = PlStats::new(2);
        s.add_game(&[0, 1, 0, 1], &[1, 3, 1, 4]);
        assert_eq!(s.wins, vec![2.0, 0.0]);
        assert_eq!(s.sets.get(&vec![2, 2]), Some(&2.0));
        assert_eq!(s.sets.len(), 1);
        let e = plackett_luce(&s);
        assert!(e[0] > e[1]);
    }
}
