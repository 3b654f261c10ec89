//! The Tofu Shifu evaluation: one test per thing it is meant to value, and greedy self-play that
//! ends by the rules.

use shifu_agents::{build_agent, game_seed, play_game, Agent, Evaluate, TofuShifuWeights};
use shifu_engine::tofu_shifu::{CardData, CardId, Params, State, TileId, TofuShifu};
use shifu_engine::DataFile;
use shifu_engine::{rng_from_seed, Game};

/// The first reconstruction (the card ids below name its cards), two players.
fn game() -> TofuShifu {
    TofuShifu::new(
        CardData::builtin("reconstructed").unwrap(),
        Params::with_players(2),
    )
    .unwrap()
}

fn card(g: &TofuShifu, id: &str) -> u8 {
    g.data.cards.iter().position(|c| c.id == id).unwrap() as u8
}

/// Moves a card out of the deck (or the market) into a zone chosen by `put`.
fn take(g: &TofuShifu, s: &mut State, id: &str, put: impl FnOnce(&mut State, u128)) {
    let c = card(g, id);
    let bit = 1u128 << c;
    s.deck &= !bit;
    for slot in s.market.iter_mut() {
        if *slot == CardId::new(c) {
            *slot = CardId::NONE;
        }
    }
    for p in s.players.iter_mut() {
        p.hand &= !bit;
        p.hand_known &= !bit;
        p.rest &= !bit;
    }
    put(s, bit);
}

fn upgrade(g: &TofuShifu, s: &mut State, seat: usize, id: &str) {
    let flag = g.data.cards[card(g, id) as usize].flag;
    take(g, s, id, |s, bit| {
        let p = &mut s.players[seat];
        p.upgrades |= bit;
        match flag {
            shifu_engine::tofu_shifu::Flag::Dish(d) => p.dish_flags[d as usize] += 1,
            shifu_engine::tofu_shifu::Flag::Hat(h) => p.hat_flags[h as usize] += 1,
            shifu_engine::tofu_shifu::Flag::Lantern => p.lanterns += 1,
        }
    });
}

/// A start position with no Town objective open (display empty, coin stack taken) and empty
/// hands, so that a test sees only the features it sets up.
fn bare(g: &TofuShifu) -> State {
    let mut s = g.new_state(&mut rng_from_seed(3));
    s.town_display = 0;
    s.coin_stack_taken = 4;
    for p in s.players.iter_mut() {
        s.deck |= p.hand;
        p.hand = 0;
        p.hand_known = 0;
    }
    s
}

fn alone() -> TofuShifuWeights {
    TofuShifuWeights {
        opponent_share: 0.0,
        ..TofuShifuWeights::default()
    }
}

#[test]
fn a_card_is_valued_for_what_it_can_become() {
    // Seat 0 has one Lantern and both hat upgrades (PO3 done). A second Lantern card completes
    // PO1; a third hat card (same 3-coin cost) advances no objective. As an upgrade (its
    // restaurant-objective use weighed out here) the Lantern card is worth more in hand.
    let g = game();
    let w = TofuShifuWeights {
        card_objective: 0.0,
        ..alone()
    };
    let mut s = bare(&g);
    upgrade(&g, &mut s, 0, "P65");
    upgrade(&g, &mut s, 0, "P41");
    upgrade(&g, &mut s, 0, "P48");
    s.players[0].player_done |= 1 << 2;
    let mut lantern = s.clone();
    take(&g, &mut lantern, "P66", |s, b| s.players[0].hand |= b);
    let mut hat = s.clone();
    take(&g, &mut hat, "P55", |s, b| s.players[0].hand |= b);
    let (vl, vh) = (g.evaluate(&lantern, 0, &w), g.evaluate(&hat, 0, &w));
    assert!(vl > vh + 0.05, "lantern card {vl} vs hat card {vh}");
    // Either card is worth at least a hat payment.
    assert!(vh - g.evaluate(&s, 0, &w) >= w.card_hat - 1e-12);
    // As a restaurant objective: P55 asks Tofu, Tofu, Silken Tofu, which two customers can be
    // served, but seat 0 has no Tofu flag yet (half value); with one, full value.
    let w = TofuShifuWeights {
        card_upgrade: 0.0,
        card_hat: 0.0,
        ..alone()
    };
    let before = g.evaluate(&hat, 0, &w) - g.evaluate(&s, 0, &w);
    assert!((before - 0.5 * w.card_objective).abs() < 1e-9, "{before}");
    let mut tofu = hat.clone();
    tofu.players[0].dish_flags[2] = 1;
    let mut tofu_bare = s.clone();
    tofu_bare.players[0].dish_flags[2] = 1;
    let after = g.evaluate(&tofu, 0, &w) - g.evaluate(&tofu_bare, 0, &w);
    assert!((after - w.card_objective).abs() < 1e-9, "{after}");
}

#[test]
fn restaurant_progress_counts_each_table_once() {
    // One open table, served Soymilk and Silken Tofu. Two objectives asking exactly that can
    // only be completed at two tables: the second adds its base value, not the table's progress
    // again.
    let g = game();
    let w = alone();
    let mut s = bare(&g);
    let c1 = g.data.customers.iter().position(|c| c.id == "C01").unwrap() as u8;
    s.bag &= !(1u64 << c1);
    s.players[0].tables[0][0] = TileId::new(c1);
    s.players[0].served[0][0] = 0b11;
    take(&g, &mut s, "P14", |s, b| s.players[0].objective_zone |= b);
    let one = g.evaluate(&s, 0, &w);
    let mut two = s.clone();
    take(&g, &mut two, "P21", |s, b| s.players[0].objective_zone |= b);
    let diff = g.evaluate(&two, 0, &w) - one;
    assert!(
        (diff - w.restaurant_set).abs() < 1e-9,
        "the second objective added {diff}, expected {}",
        w.restaurant_set
    );
}

#[test]
fn no_credit_for_an_objective_that_can_no_longer_be_completed() {
    // Seat 0 has one Lantern; PO1 asks two. While a Lantern card is left anywhere, PO1 earns
    // half its progress weight; once every other Lantern card is played by seat 1, none.
    let g = game();
    let w = alone();
    let mut s = bare(&g);
    upgrade(&g, &mut s, 0, "P65");
    let open = g.evaluate(&s, 0, &w);
    for i in 66..=80 {
        upgrade(&g, &mut s, 1, &format!("P{i}"));
    }
    let closed = g.evaluate(&s, 0, &w);
    let lost = open - closed;
    assert!(
        (lost - 0.5 * w.objective_progress).abs() < 1e-9,
        "lost {lost}, expected {}",
        0.5 * w.objective_progress
    );
}

#[test]
fn coins_beyond_the_next_purchases_are_worth_less() {
    let g = game();
    let w = alone();
    // Nothing to buy: no card in hand, no Town objective open, every Player objective done.
    let mut s = bare(&g);
    s.players[0].player_done = 0b1111;
    let coin = |s: &State, n: u16| {
        let mut t = s.clone();
        t.players[0].coins = n;
        g.evaluate(&t, 0, &w)
    };
    let idle = coin(&s, 6) - coin(&s, 5);
    // A 3-coin upgrade in hand: the first coins are wanted.
    take(&g, &mut s, "P41", |s, b| s.players[0].hand |= b);
    let wanted = coin(&s, 2) - coin(&s, 1);
    assert!((idle - w.coins_excess).abs() < 1e-9, "{idle}");
    assert!((wanted - w.coins).abs() < 1e-9, "{wanted}");
    assert!(wanted > idle);
}

#[test]
fn evaluate_all_agrees_with_evaluate() {
    let g = TofuShifu::with_params(Params::with_players(4)).unwrap();
    let w = TofuShifuWeights::default();
    let mut rng = rng_from_seed(5);
    let mut s = g.new_state(&mut rng);
    let mut buf = Vec::new();
    for step in 0..300 {
        if g.to_move(&s).is_none() {
            break;
        }
        if step % 37 == 0 {
            let mut all = [0.0; 4];
            g.evaluate_all(&s, &w, &mut all);
            for seat in 0..4u8 {
                assert!((all[seat as usize] - g.evaluate(&s, seat, &w)).abs() < 1e-9);
            }
        }
        g.legal_actions(&s, &mut buf);
        let a = buf[step % buf.len()];
        g.apply(&mut s, a, &mut rng);
    }
}

#[test]
fn greedy_self_play_ends_by_the_objective_rule_on_the_default_data() {
    // Ten games at each player count, none stopped by the round cap.
    for players in shifu_engine::tofu_shifu::INFO.players() {
        let g = TofuShifu::with_params(Params::with_players(players)).unwrap();
        let mut buf = Vec::new();
        for i in 0..10 {
            let seed = game_seed(11, i);
            let mut agents: Vec<Box<dyn Agent<TofuShifu>>> = (0..players)
                .map(|s| build_agent::<TofuShifu>("greedy", seed, s).unwrap())
                .collect();
            let r = play_game(&g, &mut agents, seed, &mut buf);
            assert!(
                !r.outcome.capped,
                "{players} players, game {i}: capped at round {}",
                r.rounds
            );
            let best = (0..players as usize)
                .map(|q| r.state.players[q].objectives())
                .max()
                .unwrap();
            assert!(best >= u32::from(g.end_objectives()));
        }
    }
}
