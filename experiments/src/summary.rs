//! What `shifu play` and `shifu seats` print after the games: the capped share, the win share
//! by seat (or, for a cooperative game, the team's result), the test of equal chances, and for
//! `seats` the pairwise contrasts and a verdict. No finding is printed from games that the
//! round cap decided ([`CAPPED_WARN`]).

use crate::format::p_value;
use crate::games::Playable;
use crate::play::Finished;
use crate::seats::Contrasts;
use crate::stats::{balance, capped_share, capped_warning, chi_square_equal, wilson, CAPPED_WARN};

/// Whether more of the run's games than [`CAPPED_WARN`] were stopped by the round cap.
fn decided_by_cap(capped: u64, games: u64) -> bool {
    capped as f64 / games.max(1) as f64 > CAPPED_WARN
}

/// The line printed instead of a verdict when the round cap decided the games.
pub fn cap_decides(capped: u64, games: u64, max_rounds: u32) -> String {
    format!(
        "no verdict: {:.1}% of the games were stopped by the {max_rounds}-round cap (more than {:.0}%), so the cap decides this result, not the rules; play stronger agents (--agents greedy) or raise max_rounds",
        100.0 * capped as f64 / games.max(1) as f64,
        100.0 * CAPPED_WARN
    )
}

/// The summary of `play` (and the first part of `seats`).
pub fn print<G: Playable>(r: &Finished<G>) {
    let (game, t) = (r.game, r.tally);
    let seats = game.num_seats();
    let n = t.games as f64;
    println!(
        "{} with {seats} players, {} games, master seed {}, agents {}{}",
        game.name(),
        t.games,
        r.seed,
        r.specs.join(" | "),
        r.shard
    );
    println!("card data: {}", game.data_label());
    if G::INFO.cooperative {
        print_team(r);
        return;
    }
    println!("{}", capped_share(t.capped, t.games, game.max_rounds()));
    if let Some(w) = capped_warning(t.capped, t.games, game.max_rounds()) {
        println!("{w}");
    }
    println!();
    println!("seat  agent            win share   95% CI             mean rank  mean score");
    for (s, spec) in r.specs.iter().enumerate() {
        let (lo, hi) = wilson(t.win[s], n);
        println!(
            "{:>4}  {:<16} {:>9.4}   [{:.4}, {:.4}]   {:>9.3}  {:>10.3}",
            s + 1,
            if r.rotate { "(rotated)" } else { spec.as_str() },
            t.win[s] / n,
            lo,
            hi,
            t.rank[s] / n,
            t.score[s] / n
        );
    }
    println!();
    if decided_by_cap(t.capped, t.games) {
        println!("{}", cap_decides(t.capped, t.games, game.max_rounds()));
    } else {
        let rates: Vec<f64> = (0..seats).map(|s| t.win[s] / n).collect();
        let (chi, df, p) = chi_square_equal(&t.win[..seats]);
        println!(
            "equal chances by seat: chi-square {chi:.2} on {df} df, {}; balance (1 - largest gap) {:.4}{}",
            p_value(p),
            balance(&rates),
            if r.rotate { "; agents rotated through the seats on each seed" } else { "" }
        );
    }
    println!(
        "shared wins {:.2}%, mean rounds {:.1}, mean steps {:.1}",
        100.0 * t.shared as f64 / n,
        t.rounds as f64 / n,
        t.steps as f64 / n
    );
    print_game_lines(r);
}

/// A cooperative game's result: the team's, not a share per seat; no round cap line (the game
/// ends by its own days).
fn print_team<G: Playable>(r: &Finished<G>) {
    let t = r.tally;
    let n = t.games as f64;
    let seats = r.game.num_seats();
    println!(
        "a cooperative game: the {seats} seats win or lose together, so the result is the team's"
    );
    println!();
    if t.extra_games == 0 {
        // Every game came from a resumed file: the team's wins from the win shares.
        let won: f64 = t.win[..seats].iter().sum();
        let (lo, hi) = wilson(won, n);
        println!(
            "team wins {:.3} [{lo:.3}, {hi:.3}] of {} games",
            won / n,
            t.games
        );
    }
    print_game_lines(r);
    println!(
        "mean days played {:.2}, mean steps {:.1}",
        t.rounds as f64 / n,
        t.steps as f64 / n
    );
}

/// The game's own summary lines ([`shifu_engine::Present::summarize`]).
fn print_game_lines<G: Playable>(r: &Finished<G>) {
    let t = r.tally;
    if !G::TALLIES.is_empty() && t.extra_games > 0 {
        if t.extra_games < t.games {
            println!(
                "(the lines below cover the {} games played since the resume)",
                t.extra_games
            );
        }
        for line in r
            .game
            .summarize(&t.extra[..G::TALLIES.len()], t.extra_games, &wilson)
        {
            println!("{line}");
        }
    }
}

/// The part `seats` adds: the pairwise contrasts and the verdict, or why there is none.
pub fn print_seat_analysis<G: Playable>(r: &Finished<G>, c: &mut Contrasts) {
    let t = r.tally;
    println!();
    if G::INFO.cooperative {
        println!("seat analysis: none; in a cooperative game every seat shares the team's result");
        return;
    }
    if decided_by_cap(t.capped, t.games) {
        println!(
            "seat analysis: {}",
            cap_decides(t.capped, t.games, r.game.max_rounds())
        );
        return;
    }
    let played = c.units();
    for line in crate::seats::print(c, t.games) {
        println!("{line}");
    }
    if played == 0 {
        println!("(no games were played in this process: the contrasts need the games themselves; rerun without --resume)");
    } else if c.units() * if r.rotate { r.specs.len() as u64 } else { 1 } < t.games {
        println!("(the contrasts cover the games played since the resume)");
    }
}
