//! Fits the Tofu Kingdom answer model (`steer`, `maybe_truth`) to the answers of a table of
//! greedy answerers by maximum likelihood: plays games with every seat `greedy` (answerers
//! with the answer style of `ANSWERERS.toml`, default steering), keeps every answer with the
//! deal it was given in, and prints the log-likelihood of all of them under each `steer` and
//! `maybe_truth` of a grid, best first.
//!
//! ```text
//! cargo run --release -p shifu-agents --example tk_answer_fit -- PLAYERS GAMES SEED [ANSWERERS.toml]
//! ```
use shifu_agents::eval::answer_probability;
use shifu_agents::{build_agent, game_rng, game_seed, Agent, Decision, TofuKingdomWeights};
use shifu_engine::tofu_kingdom::{
    Action, Params, Phase, Question, Table, TofuKingdom, MAX_PLAYERS,
};
use shifu_engine::Game;

/// One answer heard: the round's record before it, the deal, who answered what to what.
type Heard = (Table, [u8; MAX_PLAYERS], u8, Question, Action);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let num = |i: usize| -> u64 {
        args.get(i).and_then(|x| x.parse().ok()).unwrap_or_else(|| {
            eprintln!("usage: tk_answer_fit PLAYERS GAMES SEED [ANSWERERS.toml]");
            std::process::exit(2)
        })
    };
    let (players, games, seed) = (num(1), num(2), num(3));
    let spec = match args.get(4) {
        Some(p) => format!("greedy:weights={p}"),
        None => "greedy".to_string(),
    };
    let g = u8::try_from(players)
        .ok()
        .and_then(|p| TofuKingdom::with_params(Params::with_players(p)).ok())
        .unwrap_or_else(|| {
            eprintln!(
                "tk_answer_fit: Tofu Kingdom takes {} players, got {players}",
                shifu_engine::tofu_kingdom::INFO.players_text()
            );
            std::process::exit(2)
        });
    let heard = play(&g, &spec, games, seed);
    if heard.is_empty() {
        eprintln!("tk_answer_fit: no answers to fit ({games} games)");
        std::process::exit(2)
    }
    let mut rows = Vec::new();
    for s in 0..=20 {
        for m in 0..=20 {
            let w = TofuKingdomWeights {
                steer: f64::from(s) / 20.0,
                maybe_truth: f64::from(m) / 20.0,
                ..TofuKingdomWeights::default()
            };
            let ll: f64 = heard
                .iter()
                .map(|(t, cards, to, q, a)| {
                    let Action::Answer(a) = *a else { return 0.0 };
                    answer_probability(&g, t, cards, *to, *q, a, &w).ln()
                })
                .sum();
            rows.push((ll, w.steer, w.maybe_truth));
        }
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!(
        "{players} players, {games} games (seed {seed}), answerers {spec}: {} answers",
        heard.len()
    );
    println!("steer  maybe_truth  log-likelihood  per answer");
    for (ll, s, m) in rows.iter().take(12) {
        println!(
            "{s:5.2}  {m:11.2}  {ll:14.1}  {:10.4}",
            ll / heard.len() as f64
        );
    }
    let default = TofuKingdomWeights::default();
    if let Some((ll, ..)) = rows
        .iter()
        .find(|r| r.1 == default.steer && r.2 == default.maybe_truth)
    {
        println!(
            "default (steer {}, maybe_truth {}): {ll:.1}",
            default.steer, default.maybe_truth
        );
    }
}

/// Plays `games` games, every seat `spec`, and returns every answer given.
fn play(g: &TofuKingdom, spec: &str, games: u64, seed: u64) -> Vec<Heard> {
    let mut heard = Vec::new();
    let mut legal = Vec::new();
    for i in 0..games {
        let gs = game_seed(seed, i);
        let mut agents: Vec<Box<dyn Agent<TofuKingdom>>> = (0..g.num_seats() as u8)
            .map(|seat| {
                build_agent(spec, gs, seat).unwrap_or_else(|e| {
                    eprintln!("tk_answer_fit: {e}");
                    std::process::exit(2)
                })
            })
            .collect();
        let mut rng = game_rng(gs);
        let mut s = g.new_state(&mut rng);
        while let Some(seat) = g.to_move(&s) {
            g.legal_actions(&s, &mut legal);
            let a = agents[seat as usize].choose(&Decision::new(g, &s, seat, &legal));
            if let Phase::Answer { to, question } = s.table.phase {
                heard.push((s.table, s.cards, to, question, a));
            }
            g.apply(&mut s, a, &mut rng);
        }
    }
    heard
}
