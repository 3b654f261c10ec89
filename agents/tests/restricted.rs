//! Restricted play (`forbid=` in agent specs): each game's classifier agrees with its action
//! names and reads nothing hidden, a forbidden mechanic is never played unless every legal
//! action is of it, and a restricted agent never dead-ends a game.

use shifu_agents::{build_agent, Agent, Decision, Evaluate};
use shifu_engine::ginza_retro_cafe::GinzaRetroCafe;
use shifu_engine::tofu_kingdom::TofuKingdom;
use shifu_engine::tofu_shifu::TofuShifu;
use shifu_engine::wok_star::WokStar;
use shifu_engine::{rng_from_seed, BuildOptions, Mechanics, Present};

fn game<G: Present>(players: u8) -> G {
    G::build(&BuildOptions {
        players: Some(players),
        ..Default::default()
    })
    .unwrap()
}

/// Plays `games` games with `spec` in the seats of `restricted` (a bit per seat) and `greedy`
/// elsewhere... calling `check(state, seat, legal, action)` at every decision; returns each
/// mechanic's count of actions played.
fn play<G: Evaluate + Mechanics + 'static>(
    g: &G,
    games: u64,
    spec: &str,
    other: &str,
    restricted: u32,
    mut check: impl FnMut(&G::State, usize, &[G::Action], G::Action),
) -> Vec<u64> {
    let mut counts = vec![0; G::MECHANICS.len()];
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut agents: Vec<Box<dyn Agent<G>>> = (0..g.num_seats())
            .map(|s| {
                let sp = if restricted >> s & 1 == 1 {
                    spec
                } else {
                    other
                };
                build_agent(sp, seed, s as u8).unwrap()
            })
            .collect();
        let mut rng = rng_from_seed(seed);
        let mut s = g.new_state(&mut rng);
        let mut steps = 0;
        while let Some(seat) = g.to_move(&s) {
            g.legal_actions(&s, &mut legal);
            let a = agents[seat as usize].choose(&Decision::new(g, &s, seat, &legal));
            assert!(legal.contains(&a), "{spec}: an illegal action");
            check(&s, seat as usize, &legal, a);
            if let Some(m) = g.mechanic(&s, a) {
                counts[m] += 1;
            }
            g.apply(&mut s, a, &mut rng);
            steps += 1;
            assert!(steps < 100_000, "{spec}: the game does not end");
        }
        assert!(g.outcome(&s).is_some());
    }
    counts
}

/// Every action the games of `agent` meet is classified as its name says, and the classifier gives
/// the same answer on the seat's determinized copies as on the true state.
fn classifier_agrees<G: Evaluate + Mechanics + Present + 'static>(
    players: u8,
    agent: &str,
    expect: impl Fn(&str) -> Option<&'static str>,
) {
    let g: G = game(players);
    let mut seen = vec![0u64; G::MECHANICS.len()];
    let mut det = rng_from_seed(99);
    play(&g, 6, agent, agent, 0, |s, seat, legal, _| {
        let copy = g.determinize(s, seat as u8, &mut det);
        for &a in legal {
            let name = g.action_name(s, a);
            let m = g.mechanic(s, a).map(|i| G::MECHANICS[i]);
            assert_eq!(m, expect(&name), "{}: `{name}`", G::INFO.name);
            assert_eq!(g.mechanic(&copy, a), g.mechanic(s, a), "hidden information");
            if let Some(i) = g.mechanic(s, a) {
                seen[i] += 1;
            }
        }
    });
    for (i, &k) in seen.iter().enumerate() {
        assert!(k > 0, "{}: {} never legal", G::INFO.name, G::MECHANICS[i]);
    }
}

#[test]
fn classifiers_agree_with_action_names() {
    classifier_agrees::<TofuShifu>(3, "random", |n| {
        if n == "move to Copy (Leaf Fan)" {
            Some("copy")
        } else if n.starts_with("complete Town objective") {
            Some("town-objective")
        } else if n.starts_with("complete Player objective") {
            Some("player-objective")
        } else {
            None
        }
    });
    classifier_agrees::<WokStar>(3, "greedy", |n| {
        if n.contains("Hustle") {
            Some("hustle")
        } else if n == "run the Dishwasher" {
            Some("dishwasher")
        } else if n.starts_with("upgrade ") {
            Some("upgrade")
        } else {
            None
        }
    });
    classifier_agrees::<TofuKingdom>(4, "random", |n| {
        if n.ends_with("where is Princess Tofu?") {
            Some("ask-where")
        } else if n.ends_with("which card do you hold?") {
            Some("ask-own-card")
        } else if n.contains(": which card does player") {
            Some("ask-other-card")
        } else {
            None
        }
    });
    classifier_agrees::<GinzaRetroCafe>(3, "random", |n| {
        if n.starts_with("change a ") {
            Some("change")
        } else if n.starts_with("reroll ") {
            Some("reroll")
        } else if n.starts_with("add ") {
            Some("add")
        } else if n.starts_with("wash dishes") {
            Some("wash")
        } else {
            None
        }
    });
}

/// For each mechanic and agent: in one seat, and in every seat, the restricted agent plays the
/// mechanic only where every legal action is of it; the unrestricted games do play it.
fn never_played<G: Evaluate + Mechanics + Present + 'static>(players: u8, agents: &[(&str, u64)]) {
    let g: G = game(players);
    let all = (1u32 << g.num_seats()) - 1;
    for &(agent, games) in agents {
        let sep = if agent.contains(':') { ',' } else { ':' };
        for (m, name) in G::MECHANICS.iter().enumerate() {
            let spec = format!("{agent}{sep}forbid={name}");
            for restricted in [1u32, all] {
                let counts = play(&g, games, &spec, agent, restricted, |s, seat, legal, a| {
                    if restricted >> seat & 1 == 1 && g.mechanic(s, a) == Some(m) {
                        assert!(
                            legal.iter().all(|&b| g.mechanic(s, b) == Some(m)),
                            "{spec}: played {name} with another choice"
                        );
                    }
                });
                if restricted == all && games >= 4 {
                    // Forced uses only: far fewer than unrestricted play makes.
                    let free = play(&g, games, agent, agent, 0, |_, _, _, _| {});
                    assert!(
                        counts[m] < free[m] || free[m] == 0,
                        "{spec}: {} uses restricted, {} unrestricted",
                        counts[m],
                        free[m]
                    );
                }
            }
        }
    }
}

#[test]
fn forbidden_mechanics_are_never_played_by_choice() {
    never_played::<TofuShifu>(3, &[("random", 8), ("greedy", 2), ("mcts:iters=8", 1)]);
    never_played::<WokStar>(3, &[("random", 8), ("greedy", 2), ("mcts:iters=8", 1)]);
    never_played::<TofuKingdom>(4, &[("random", 8), ("greedy", 4), ("mcts:iters=8", 1)]);
    never_played::<GinzaRetroCafe>(3, &[("random", 8), ("greedy", 2), ("mcts:iters=8", 1)]);
}

/// With every question forbidden, the Prince must still ask: the game goes on, and every
/// question asked was forced.
#[test]
fn a_restriction_never_dead_ends() {
    let g: TofuKingdom = game(4);
    for agent in ["random", "greedy", "mcts:iters=8"] {
        let spec = format!(
            "{agent}{}forbid=ask-where+ask-own-card,forbid=ask-other-card",
            if agent.contains(':') { ',' } else { ':' }
        );
        let counts = play(&g, 2, &spec, agent, 0b1111, |s, _, legal, a| {
            if g.mechanic(s, a).is_some() {
                assert!(legal.iter().all(|&b| g.mechanic(s, b).is_some()));
            }
        });
        assert!(counts.iter().sum::<u64>() > 0, "{spec}: no forced question");
    }
}

#[test]
fn unknown_mechanics_are_refused_naming_the_known_ones() {
    for spec in [
        "random:forbid=steal",
        "greedy:forbid=copy+nope",
        "mcts:iters=5,forbid=",
    ] {
        let e = build_agent::<TofuShifu>(spec, 1, 0)
            .err()
            .unwrap()
            .to_string();
        assert!(
            e.contains("copy, town-objective, player-objective"),
            "{spec}: {e}"
        );
    }
    assert!(build_agent::<TofuShifu>("random:forbid=copy+town-objective", 1, 0).is_ok());
}
