use crate::helpers::*;
use shifu_engine::tofu_shifu::*;
use shifu_engine::GameRng;

/// Seat 0 with one token of each kind and a card of each hat type:
/// P01 Chef, P02 Cashier, P03 Apprentice, P04 Waiter, P07 Master, P10 Chef.
fn position() -> (TofuShifu, State, GameRng) {
    let g = game(2);
    let (mut s, rng) = start(&g, 9);
    set_hats(&mut s, 0, [1, 1, 1, 1]);
    set_hat_flags(&mut s, 0, [1, 1, 1, 1]);
    set_coins(&mut s, 0, 5);
    set_dishes(&mut s, 0, [0, 0, 0, 0]);
    set_hand(&g, &mut s, 0, &["P01", "P02", "P03", "P04", "P07", "P10"]);
    (g, s, rng)
}

fn payers(g: &TofuShifu, s: &State) -> (Vec<Hat>, Vec<String>) {
    let mut tokens = Vec::new();
    let mut cards = Vec::new();
    for a in legal(g, s) {
        match a {
            Action::PayToken(h) => tokens.push(h),
            Action::PayCard(c) => cards.push(g.data.cards[c as usize].id.clone()),
            other => panic!("not a payment: {other:?}"),
        }
    }
    (tokens, cards)
}

#[test]
fn hat_payment_token_goes_back_to_the_reserve() {
    let (g, mut s, mut rng) = position();
    let reserve = s.reserve_hats[0];
    play(&g, &mut s, &mut rng, Action::Move(Space::Produce));
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Chef));
    assert_eq!(s.players[0].hats[0], 0);
    assert_eq!(s.reserve_hats[0], reserve + 1);
}

#[test]
fn hat_payment_card_is_discarded_to_the_rest_zone() {
    let (g, mut s, mut rng) = position();
    let p03 = card(&g, "P03");
    play(&g, &mut s, &mut rng, Action::Move(Space::Produce));
    play(&g, &mut s, &mut rng, Action::PayCard(p03));
    assert_eq!(s.players[0].hand & (1 << p03), 0);
    assert_ne!(s.players[0].rest & (1 << p03), 0);
}

#[test]
fn apprentice_cost_is_paid_by_any_hat() {
    let (g, mut s, mut rng) = position();
    play(&g, &mut s, &mut rng, Action::Move(Space::Produce));
    let (tokens, cards) = payers(&g, &s);
    assert_eq!(
        tokens,
        vec![Hat::Chef, Hat::Waiter, Hat::Cashier, Hat::Master]
    );
    assert_eq!(cards.len(), 6);
}

#[test]
fn chef_cost_is_paid_by_chef_or_master_only() {
    // "A token or card of the Chef/Waiter/Cashier types can be used for either their own types
    // of hat cost, or for the Apprentice hat cost." Master "can be used for any type".
    let (g, mut s, mut rng) = position();
    play(&g, &mut s, &mut rng, Action::Move(Space::Upgrade));
    play(&g, &mut s, &mut rng, Action::ChooseCard(card(&g, "P01")));
    assert_eq!(
        s.turn.pending,
        [2, 0, 0, 0, 0],
        "signpost Chef + the card's Chef"
    );
    let (tokens, cards) = payers(&g, &s);
    assert_eq!(tokens, vec![Hat::Chef, Hat::Master]);
    assert_eq!(cards, vec!["P07", "P10"]); // P01 itself is being played
}

#[test]
fn master_cost_is_paid_only_by_master() {
    let (g, mut s, mut rng) = position();
    play(&g, &mut s, &mut rng, Action::Move(Space::SetObjective));
    play(&g, &mut s, &mut rng, Action::ChooseCard(card(&g, "P02")));
    assert_eq!(s.turn.pending, [0, 0, 0, 1, 0]);
    let (tokens, cards) = payers(&g, &s);
    assert_eq!(tokens, vec![Hat::Master]);
    assert_eq!(cards, vec!["P07"]);
}

#[test]
fn apprentice_hat_pays_only_apprentice_costs() {
    let (g, mut s, mut rng) = position();
    play(&g, &mut s, &mut rng, Action::Move(Space::Upgrade));
    play(&g, &mut s, &mut rng, Action::ChooseCard(card(&g, "P01")));
    let (_, cards) = payers(&g, &s);
    assert!(
        !cards.contains(&"P03".to_string()),
        "Apprentice card cannot pay a Chef cost"
    );
}

#[test]
fn payment_keeps_the_rest_of_the_cost_payable() {
    // Upgrade with P01 costs Chef + Chef. With only one Chef-capable payer left after the first
    // payment, a choice that would strand the second symbol is not offered.
    let (g, mut s, mut rng) = position();
    set_hats(&mut s, 0, [1, 0, 0, 0]);
    set_hand(&g, &mut s, 0, &["P01", "P10", "P03"]);
    play(&g, &mut s, &mut rng, Action::Move(Space::Upgrade));
    play(&g, &mut s, &mut rng, Action::ChooseCard(card(&g, "P01")));
    let (tokens, cards) = payers(&g, &s);
    assert_eq!(tokens, vec![Hat::Chef]);
    assert_eq!(cards, vec!["P10"]);
    play(&g, &mut s, &mut rng, Action::PayToken(Hat::Chef));
    play(&g, &mut s, &mut rng, Action::PayCard(card(&g, "P10")));
    assert_eq!(s.turn.phase, Phase::TurnEnd);
}
