//! Conservation and consistency checks, used by the tests after every action.

use super::state::{Phase, Question, State, NO_CARD};
use super::TofuKingdom;

impl TofuKingdom {
    /// Checks that `s` is a sound position: the Prince holds the Prince Mochi card; the seats'
    /// and centre's cards are exactly this game's Character cards; points are never negative and
    /// add up to the points gained less the points stolen; the log holds one question per other
    /// player at most plus the extra one (when asked), of the question types allowed, and every
    /// answer given respects its answerer's eye mark. Returns a description of the first problem.
    pub fn check_invariants(&self, s: &State) -> Result<(), String> {
        let t = &s.table;
        let n = self.players as usize;
        if s.cards[t.prince as usize] != self.data.prince {
            return Err(format!(
                "the Prince (seat {}) does not hold his card",
                t.prince
            ));
        }
        let mut seen: Vec<u8> = (0..n)
            .filter(|&x| x != t.prince as usize)
            .map(|x| s.cards[x])
            .chain(s.centre().iter().copied())
            .collect();
        seen.sort_unstable();
        let mut deck = self.deck().to_vec();
        deck.sort_unstable();
        if seen != deck {
            return Err(format!(
                "dealt and centre cards {seen:?} are not the deck {deck:?}"
            ));
        }
        if s.centre[s.centre_len as usize..]
            .iter()
            .any(|&c| c != NO_CARD)
        {
            return Err("cards past the centre's length".into());
        }
        if t.points[..n].iter().any(|&p| p < 0) {
            return Err(format!("negative points {:?}", &t.points[..n]));
        }
        let total: i64 = t.points[..n].iter().map(|&p| i64::from(p)).sum();
        if total != i64::from(t.gains) - i64::from(t.stolen) {
            return Err(format!(
                "points {total} != gains {} - stolen {}",
                t.gains, t.stolen
            ));
        }
        if t.log_len > self.questions_per_round() {
            return Err(format!("{} questions with {n} players", t.log_len));
        }
        if t.asked & (1 << t.prince) != 0 {
            return Err("the Prince asked himself".into());
        }
        for e in t.log() {
            let allowed = match e.question {
                Question::WherePrincess => self.params.ask_where,
                Question::OwnCard => self.params.ask_own_card,
                Question::CardOf(_) => self.params.ask_other_card,
            };
            if !allowed {
                return Err(format!("question {e:?} of a type switched off"));
            }
            if e.to == t.prince || !self.answer_allowed(&s.cards, e.to, e.question, e.answer) {
                return Err(format!("answer {e:?} breaks its eye mark"));
            }
        }
        if t.is_over() != matches!(t.phase, Phase::Over) {
            return Err("phase".into());
        }
        Ok(())
    }
}
