//! Tofu Kingdom rule tests, one per rule, named after it. Positions are dealt by hand.

use shifu_engine::tofu_kingdom::{
    Action, Answer, CardData, CentreAnswer, Deal, EndCheck, Params, Phase, PrinceReward, Question,
    State, TofuKingdom, NO_CARD,
};
use shifu_engine::DataFile;
use shifu_engine::{rng_from_seed, Game, GameRng};

fn game(players: u8) -> TofuKingdom {
    TofuKingdom::with_params(Params::with_players(players)).unwrap()
}

fn game_with(params: Params) -> TofuKingdom {
    TofuKingdom::with_params(params).unwrap()
}

/// A new game whose current deal is replaced: `by_seat[i]` is seat i's card id (the Prince's
/// entry is ignored); the deck's other cards go to the centre.
fn dealt(g: &TofuKingdom, by_seat: &[&str]) -> (State, GameRng) {
    let mut rng = rng_from_seed(1);
    let mut s = g.new_state(&mut rng);
    let prince = s.table.prince as usize;
    for (i, id) in by_seat.iter().enumerate() {
        if i != prince {
            s.cards[i] = g.data.index_of(id).unwrap();
        }
    }
    let mut k = 0;
    s.centre = [NO_CARD; 8];
    for &c in g.deck() {
        if !s.cards.contains(&c) {
            s.centre[k] = c;
            k += 1;
        }
    }
    s.centre_len = k as u8;
    g.check_invariants(&s).unwrap();
    (s, rng)
}

fn legal(g: &TofuKingdom, s: &State) -> Vec<Action> {
    let mut v = Vec::new();
    g.legal_actions(s, &mut v);
    v
}

fn card(g: &TofuKingdom, id: &str) -> u8 {
    g.data.index_of(id).unwrap()
}

/// Asks `to` the question and returns the legal answers.
fn answers(g: &TofuKingdom, s: &State, to: u8, question: Question) -> Vec<Answer> {
    let mut t = *s;
    let mut rng = rng_from_seed(0);
    g.apply_checked(&mut t, Action::Ask { to, question }, &mut rng)
        .unwrap();
    legal(g, &t)
        .into_iter()
        .map(|a| match a {
            Action::Answer(x) => x,
            other => panic!("{other:?}"),
        })
        .collect()
}

/// Plays the question phase: each other player is asked where the Princess is and gives their
/// first legal answer; then the extra question goes to seat `extra_to`.
fn ask_all(g: &TofuKingdom, s: &mut State, rng: &mut GameRng) {
    while s.table.phase == Phase::Ask {
        let ask = legal(g, s)[0];
        g.apply_checked(s, ask, rng).unwrap();
        let answer = legal(g, s)[0];
        g.apply_checked(s, answer, rng).unwrap();
    }
    assert_eq!(s.table.phase, Phase::Guess);
}

#[test]
fn setup_deals_one_character_card_to_each_player_but_the_prince_rest_face_down_in_centre() {
    for (players, centre) in [(3, 5), (5, 3), (8, 0)] {
        let g = game(players);
        let s = g.new_state(&mut rng_from_seed(players as u64));
        assert_eq!(s.centre_len, centre, "{players} players");
        assert_eq!(s.cards[0], g.data.prince, "seat 0 starts as Prince Mochi");
        g.check_invariants(&s).unwrap();
    }
}

#[test]
fn deal_blue_orange_lists_changes_only_the_cards_dealt_to_the_per_player_count_lists() {
    let g = game_with(Params {
        players: 3,
        deal: Deal::BlueOrangeLists,
        ..Params::default()
    });
    assert_eq!(g.deck().len(), 3);
    let ids: Vec<&str> = g
        .deck()
        .iter()
        .map(|&c| g.data.card(c).id.as_str())
        .collect();
    assert_eq!(ids, ["princess_tofu", "queen_tofu", "tofu_maid"]);
    let s = g.new_state(&mut rng_from_seed(3));
    assert_eq!(s.centre_len, 1);
    g.check_invariants(&s).unwrap();
}

#[test]
fn prince_asks_each_other_player_one_question_then_one_extra_to_anyone() {
    let g = game(4);
    let (mut s, mut rng) = dealt(&g, &["", "princess_tofu", "queen_tofu", "tofu_maid"]);
    // Three players, each: where, own card, and the card of each of the 2 others.
    assert_eq!(legal(&g, &s).len(), 3 * 4);
    for round in 0..3 {
        let asks = legal(&g, &s);
        assert_eq!(asks.len(), (3 - round) * 4, "question {round}");
        let Action::Ask { to, .. } = asks[0] else {
            panic!()
        };
        g.apply_checked(&mut s, asks[0], &mut rng).unwrap();
        let a = legal(&g, &s)[0];
        g.apply_checked(&mut s, a, &mut rng).unwrap();
        if round < 2 {
            // Until everyone has had a question, an asked player cannot be asked again.
            let again = legal(&g, &s)
                .into_iter()
                .any(|x| matches!(x, Action::Ask { to: t, .. } if t == to));
            assert!(
                !again,
                "player {} asked twice before the extra question",
                to + 1
            );
        }
    }
    // The extra question: any of the three again.
    assert_eq!(legal(&g, &s).len(), 12);
    let extra = legal(&g, &s)[5];
    g.apply_checked(&mut s, extra, &mut rng).unwrap();
    let a = legal(&g, &s)[0];
    g.apply_checked(&mut s, a, &mut rng).unwrap();
    assert_eq!(s.table.phase, Phase::Guess);
    assert_eq!(s.table.log_len, 4);
    // The Prince cannot ask himself or ask about his own card.
    let (s2, _) = dealt(&g, &["", "princess_tofu", "queen_tofu", "tofu_maid"]);
    assert!(legal(&g, &s2).iter().all(|a| !matches!(
        a,
        Action::Ask { to: 0, .. }
            | Action::Ask {
                question: Question::CardOf(0),
                ..
            }
    )));
}

#[test]
fn eye_t_must_tell_the_truth() {
    let g = game(4);
    let (s, _) = dealt(&g, &["", "princess_tofu", "queen_tofu", "tofu_chef"]);
    assert_eq!(
        answers(&g, &s, 1, Question::WherePrincess),
        [Answer::Seat(1)]
    );
    assert_eq!(
        answers(&g, &s, 3, Question::OwnCard),
        [Answer::Card(card(&g, "tofu_chef"))]
    );
    assert_eq!(
        answers(&g, &s, 3, Question::CardOf(2)),
        [Answer::Card(card(&g, "queen_tofu"))]
    );
}

#[test]
fn eye_f_must_lie_with_any_false_answer() {
    let g = game(4);
    let (s, _) = dealt(&g, &["", "princess_tofu", "queen_tofu", "tofu_chef"]);
    let where_ = answers(&g, &s, 2, Question::WherePrincess);
    // Seats 2 and 3, and "in the centre" (3 cards lie there): everything but the truth.
    assert_eq!(where_, [Answer::Seat(2), Answer::Seat(3), Answer::Centre]);
    let own = answers(&g, &s, 2, Question::OwnCard);
    assert_eq!(own.len(), 6);
    assert!(!own.contains(&Answer::Card(card(&g, "queen_tofu"))));
}

#[test]
fn eye_question_mark_may_answer_either_way() {
    let g = game(4);
    let (s, _) = dealt(&g, &["", "princess_tofu", "pudding_spy", "tofu_chef"]);
    assert_eq!(answers(&g, &s, 2, Question::WherePrincess).len(), 4);
    assert_eq!(answers(&g, &s, 2, Question::CardOf(1)).len(), 7);
}

#[test]
fn princess_in_centre_default_the_truth_is_in_the_centre_and_any_player_is_a_lie() {
    let g = game(4);
    let (s, _) = dealt(&g, &["", "queen_tofu", "tofu_chef", "tofu_maid"]);
    assert_eq!(
        answers(&g, &s, 2, Question::WherePrincess),
        [Answer::Centre]
    );
    assert_eq!(
        answers(&g, &s, 1, Question::WherePrincess),
        [Answer::Seat(1), Answer::Seat(2), Answer::Seat(3)]
    );
}

#[test]
fn princess_in_centre_free_option_answers_name_players_and_nobody_is_bound() {
    let g = game_with(Params {
        players: 4,
        centre_answer: CentreAnswer::Free,
        ..Params::default()
    });
    let (s, _) = dealt(&g, &["", "queen_tofu", "tofu_chef", "tofu_maid"]);
    let all = [Answer::Seat(1), Answer::Seat(2), Answer::Seat(3)];
    assert_eq!(answers(&g, &s, 2, Question::WherePrincess), all);
    assert_eq!(answers(&g, &s, 1, Question::WherePrincess), all);
    // With her dealt, the marks bind again and "the centre" is no answer.
    let (s, _) = dealt(&g, &["", "princess_tofu", "tofu_chef", "tofu_maid"]);
    assert_eq!(
        answers(&g, &s, 2, Question::WherePrincess),
        [Answer::Seat(1)]
    );
}

#[test]
fn centre_is_a_lie_option_off_liars_must_name_a_wrong_player() {
    let g = game_with(Params {
        players: 4,
        centre_is_a_lie: false,
        ..Params::default()
    });
    let (s, _) = dealt(&g, &["", "princess_tofu", "queen_tofu", "tofu_chef"]);
    assert_eq!(
        answers(&g, &s, 2, Question::WherePrincess),
        [Answer::Seat(2), Answer::Seat(3)]
    );
}

#[test]
fn no_centre_answer_when_every_card_is_dealt() {
    let g = game(8);
    let ids = [
        "",
        "princess_tofu",
        "tofu_chef",
        "queen_tofu",
        "tofu_minister",
        "tofu_guard",
        "pudding_spy",
        "tofu_maid",
    ];
    let (s, _) = dealt(&g, &ids);
    assert_eq!(s.centre_len, 0);
    assert_eq!(answers(&g, &s, 3, Question::WherePrincess).len(), 6);
    assert!(!answers(&g, &s, 6, Question::WherePrincess).contains(&Answer::Centre));
}

#[test]
fn naming_princess_tofu_makes_heart_the_winning_symbol_and_every_heart_card_scores() {
    let g = game(5);
    let (mut s, mut rng) = dealt(
        &g,
        &["", "princess_tofu", "tofu_chef", "queen_tofu", "tofu_maid"],
    );
    ask_all(&g, &mut s, &mut rng);
    g.apply_checked(&mut s, Action::Guess(1), &mut rng).unwrap();
    // Prince Mochi 1 (data PROPOSAL), Princess 2, Chef 1; crown and mask cards nothing.
    assert_eq!(&s.table.points[..5], &[1, 2, 1, 0, 0]);
    assert_eq!(s.table.finds[0], 1);
    assert_eq!(s.table.symbol_rounds, [1, 0, 0]);
}

#[test]
fn naming_another_card_uses_its_upper_left_symbol() {
    // Tofu Chef's upper-left symbol is the mask: naming the Chef makes the mask cards score.
    let g = game(5);
    let (mut s, mut rng) = dealt(
        &g,
        &["", "princess_tofu", "tofu_chef", "queen_tofu", "tofu_maid"],
    );
    ask_all(&g, &mut s, &mut rng);
    g.apply_checked(&mut s, Action::Guess(2), &mut rng).unwrap();
    assert_eq!(&s.table.points[..5], &[0, 0, 0, 0, 1]);
    assert_eq!(s.table.symbol_rounds, [0, 0, 1]);
    assert_eq!(s.table.prince, 1, "the Prince Mochi card passed clockwise");
    assert_eq!(s.table.round, 2);
}

#[test]
fn naming_queen_tofu_makes_crown_win() {
    let g = game(5);
    let (mut s, mut rng) = dealt(
        &g,
        &["", "princess_tofu", "tofu_guard", "queen_tofu", "tofu_maid"],
    );
    ask_all(&g, &mut s, &mut rng);
    g.apply_checked(&mut s, Action::Guess(3), &mut rng).unwrap();
    assert_eq!(&s.table.points[..5], &[0, 0, 1, 2, 0]);
}

/// A position where seat 3 holds the Minister, seats 1 and 2 have points from earlier rounds,
/// and the Queen is named: the Minister's steal has two possible victims.
fn steal_position(g: &TofuKingdom) -> (State, GameRng) {
    let (mut s, mut rng) = dealt(
        g,
        &[
            "",
            "princess_tofu",
            "tofu_chef",
            "tofu_minister",
            "queen_tofu",
        ],
    );
    s.table.points[1] = 2;
    s.table.points[2] = 1;
    s.table.gains = 3;
    ask_all(g, &mut s, &mut rng);
    (s, rng)
}

#[test]
fn steal_reward_is_a_choice_of_the_scoring_player() {
    let g = game(5);
    let (mut s, mut rng) = steal_position(&g);
    g.apply_checked(&mut s, Action::Guess(4), &mut rng).unwrap();
    assert_eq!(s.table.phase, Phase::Steal { seat: 3 });
    assert_eq!(g.to_move(&s), Some(3));
    // The Queen's 2 points were gained this round: she cannot be robbed.
    assert_eq!(legal(&g, &s), [Action::Steal(1), Action::Steal(2)]);
    g.apply_checked(&mut s, Action::Steal(2), &mut rng).unwrap();
    assert_eq!(&s.table.points[..5], &[0, 2, 0, 1, 2]);
    g.check_invariants(&s).unwrap();
}

#[test]
fn points_gained_this_round_cannot_be_stolen() {
    let g = game(5);
    let (mut s, mut rng) = steal_position(&g);
    s.table.points[2] = 0;
    s.table.points[1] = 0;
    s.table.gains = 0;
    g.apply_checked(&mut s, Action::Guess(4), &mut rng).unwrap();
    // Only the Queen has points, all gained this round: the steal takes nothing.
    assert_eq!(&s.table.points[..5], &[0, 0, 0, 0, 2]);
    assert_eq!(s.table.round, 2);
}

#[test]
fn steal_rule_from_the_data_file_can_allow_taking_this_rounds_points() {
    let text = CardData::embedded_text().replace(
        "\"cannot steal points gained this round\"",
        "\"may steal any points\"",
    );
    let data = CardData::parse(&text, "x.yaml").unwrap();
    let g = TofuKingdom::new(data, Params::with_players(5)).unwrap();
    let (mut s, mut rng) = steal_position(&g);
    g.apply_checked(&mut s, Action::Guess(4), &mut rng).unwrap();
    assert_eq!(
        legal(&g, &s),
        [Action::Steal(1), Action::Steal(2), Action::Steal(4)]
    );
}

#[test]
fn game_ends_after_the_round_in_which_a_player_reaches_the_target_highest_score_wins() {
    let g = game(5);
    let (mut s, mut rng) = dealt(
        &g,
        &["", "princess_tofu", "tofu_chef", "queen_tofu", "tofu_maid"],
    );
    s.table.points[1] = 5;
    s.table.gains = 5;
    ask_all(&g, &mut s, &mut rng);
    g.apply_checked(&mut s, Action::Guess(1), &mut rng).unwrap();
    assert_eq!(g.to_move(&s), None);
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.winners, 0b10);
    assert_eq!(o.score[1], 7.0);
    assert!(!o.capped);
}

#[test]
fn equal_highest_scores_share_the_win() {
    let g = game(5);
    let (mut s, mut rng) = dealt(
        &g,
        &["", "princess_tofu", "tofu_chef", "queen_tofu", "tofu_maid"],
    );
    s.table.points[1] = 5;
    s.table.points[3] = 7;
    s.table.gains = 12;
    ask_all(&g, &mut s, &mut rng);
    g.apply_checked(&mut s, Action::Guess(1), &mut rng).unwrap();
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.winners, 0b1010);
    assert_eq!(o.win_share(1), 0.5);
}

#[test]
fn rewards_symbols_and_target_come_from_the_data_file() {
    let text = CardData::embedded_text()
        .replace("winning_score: 7", "winning_score: 3")
        .replace(
            "reward: {beans: 1}}  # reward PROPOSAL",
            "reward: {beans: 3}}  # reward PROPOSAL",
        );
    let data = CardData::parse(&text, "x.yaml").unwrap();
    let g = TofuKingdom::new(data, Params::with_players(5)).unwrap();
    assert_eq!(g.target(), 3);
    let (mut s, mut rng) = dealt(
        &g,
        &["", "princess_tofu", "tofu_chef", "queen_tofu", "tofu_maid"],
    );
    ask_all(&g, &mut s, &mut rng);
    g.apply_checked(&mut s, Action::Guess(1), &mut rng).unwrap();
    // Prince Mochi now earns 3 and ends the game.
    assert_eq!(s.table.points[0], 3);
    assert_eq!(g.to_move(&s), None);
}

#[test]
fn round_cap_stops_the_game_and_marks_it() {
    let g = game_with(Params {
        players: 3,
        max_rounds: 1,
        ..Params::default()
    });
    let (mut s, mut rng) = dealt(&g, &["", "tofu_guard", "tofu_maid"]);
    ask_all(&g, &mut s, &mut rng);
    g.apply_checked(&mut s, Action::Guess(1), &mut rng).unwrap();
    assert!(g.outcome(&s).unwrap().capped);
}

#[test]
fn illegal_actions_are_refused_and_leave_the_state_untouched() {
    let g = game(4);
    let (mut s, mut rng) = dealt(&g, &["", "princess_tofu", "queen_tofu", "tofu_chef"]);
    let before = s;
    let e = g
        .apply_checked(&mut s, Action::Guess(1), &mut rng)
        .unwrap_err();
    assert!(e.to_string().contains("name player 2"), "{e}");
    assert_eq!(s, before);
    let bad = Params {
        players: 9,
        ..Params::default()
    };
    let e = TofuKingdom::with_params(bad).unwrap_err().to_string();
    assert!(
        e.contains("players") && e.contains(&shifu_engine::tofu_kingdom::INFO.players_text()),
        "{e}"
    );
}

#[test]
fn a_data_file_whose_centre_would_overflow_is_refused_not_a_panic() {
    // 11 Character cards at 3 players leave 9 face down in the centre; the table holds 8.
    let mut extra = String::new();
    for i in 0..4 {
        extra.push_str(&format!(
            "  - {{id: extra_{i}, faction: mask, eye: \"?\", upper_left: mask, lower_right: mask, reward: {{beans: 1}}}}\n"
        ));
    }
    let text = CardData::embedded_text().replacen("deal_modes:", &format!("{extra}deal_modes:"), 1);
    let text = text.replace("all_7", "all_11");
    let data = CardData::parse(&text, "big.yaml").unwrap();
    let e = TofuKingdom::new(data, Params::with_players(3))
        .unwrap_err()
        .to_string();
    assert!(e.contains("big.yaml") && e.contains("centre"), "{e}");
}

/// Seat 1 (Tofu Maid) holds 6 points from earlier rounds; naming the Chef (upper-left mask) makes
/// mask win: the Maid reaches 7, then the Pudding Spy's steal takes 1 back from her, the only
/// seat with points to take.
fn reach_then_robbed(end_check: EndCheck) -> (TofuKingdom, State) {
    let g = game_with(Params {
        players: 5,
        end_check,
        ..Params::default()
    });
    let (mut s, mut rng) = dealt(
        &g,
        &["", "tofu_maid", "pudding_spy", "princess_tofu", "tofu_chef"],
    );
    s.table.points[1] = 6;
    s.table.gains = 6;
    ask_all(&g, &mut s, &mut rng);
    g.apply_checked(&mut s, Action::Guess(4), &mut rng).unwrap();
    assert_eq!(s.table.points[1], 6, "robbed back below 7");
    assert_eq!(s.table.points[2], 1);
    (g, s)
}

#[test]
fn end_check_reached_ends_the_game_after_a_round_in_which_anyone_reached_the_target() {
    // "The game ends when any player reaches a score of 7 points or more."
    let (g, s) = reach_then_robbed(EndCheck::Reached);
    assert_eq!(g.to_move(&s), None);
    let o = g.outcome(&s).unwrap();
    assert_eq!(o.winners, 0b10, "the Maid still has the most points");
    assert_eq!(s.stats.robbed_below, 1);
    assert!(
        !s.stats.steal_decided,
        "without the steal the Maid wins too"
    );
    assert_eq!(Params::default().end_check, EndCheck::Reached);
}

#[test]
fn end_check_after_steals_plays_on_when_a_steal_takes_the_score_back_below() {
    let (g, s) = reach_then_robbed(EndCheck::AfterSteals);
    assert!(g.to_move(&s).is_some());
    assert_eq!(s.table.round, 2);
    assert!(!s.table.reached, "a new round starts afresh");
}

#[test]
fn a_steal_that_changes_the_winner_is_recorded_and_a_losing_stealer_is_a_kingmaker() {
    // Seats 1 (Maid) and 3 both hold 6: the Maid reaches 7, the Spy robs... seat 3 has nothing
    // gained this round, so the Spy (seat 2) chooses between the Maid and seat 3.
    let g = game(5);
    let (mut s, mut rng) = dealt(
        &g,
        &["", "tofu_maid", "pudding_spy", "princess_tofu", "tofu_chef"],
    );
    s.table.points[1] = 6;
    s.table.points[3] = 7;
    s.table.gains = 13;
    ask_all(&g, &mut s, &mut rng);
    g.apply_checked(&mut s, Action::Guess(4), &mut rng).unwrap();
    assert_eq!(s.table.phase, Phase::Steal { seat: 2 });
    // Robbing seat 3 leaves the Maid alone on top: without the steal the two would share.
    g.apply_checked(&mut s, Action::Steal(3), &mut rng).unwrap();
    assert_eq!(g.to_move(&s), None);
    assert_eq!(g.outcome(&s).unwrap().winners, 0b10);
    assert!(s.stats.steal_decided && s.stats.kingmade);
}

#[test]
fn prince_reward_none_gives_prince_mochi_nothing_when_the_princess_is_found() {
    for (reward, points) in [(PrinceReward::Data, 1), (PrinceReward::None, 0)] {
        let g = game_with(Params {
            players: 5,
            prince_reward: reward,
            ..Params::default()
        });
        let (mut s, mut rng) = dealt(
            &g,
            &["", "princess_tofu", "tofu_chef", "queen_tofu", "tofu_maid"],
        );
        ask_all(&g, &mut s, &mut rng);
        g.apply_checked(&mut s, Action::Guess(1), &mut rng).unwrap();
        assert_eq!(&s.table.points[..5], &[points, 2, 1, 0, 0], "{reward:?}");
        g.check_invariants(&s).unwrap();
    }
}

#[test]
fn without_the_extra_question_the_prince_names_a_seat_after_one_question_to_each_player() {
    let g = game_with(Params {
        players: 4,
        extra_question: false,
        ..Params::default()
    });
    let (mut s, mut rng) = dealt(&g, &["", "princess_tofu", "queen_tofu", "tofu_maid"]);
    for _ in 0..3 {
        assert_eq!(s.table.phase, Phase::Ask);
        let ask = legal(&g, &s)[0];
        g.apply_checked(&mut s, ask, &mut rng).unwrap();
        let answer = legal(&g, &s)[0];
        g.apply_checked(&mut s, answer, &mut rng).unwrap();
    }
    assert_eq!(s.table.phase, Phase::Guess);
    assert_eq!(g.questions_per_round(), 3);
}

#[test]
fn question_types_switched_off_are_never_legal_and_all_off_is_refused() {
    let g = game_with(Params {
        players: 5,
        ask_where: false,
        ask_other_card: false,
        ..Params::default()
    });
    let s = g.new_state(&mut rng_from_seed(2));
    let l = legal(&g, &s);
    assert_eq!(l.len(), 4, "one own-card question to each of the 4 others");
    assert!(l.iter().all(|a| matches!(
        a,
        Action::Ask {
            question: Question::OwnCard,
            ..
        }
    )));
    let e = TofuKingdom::with_params(Params {
        ask_own_card: false,
        ask_where: false,
        ask_other_card: false,
        ..Params::default()
    })
    .unwrap_err()
    .to_string();
    assert!(e.contains("ask_where"), "{e}");
}

#[test]
fn the_referee_statistics_are_in_no_observation_and_no_determinized_copy() {
    let g = game(6);
    let mut rng = rng_from_seed(2);
    let s = g.new_state(&mut rng);
    assert!(
        s.stats.card_rounds.iter().sum::<u16>() == 6,
        "a card per seat"
    );
    let json = serde_json::to_string(&g.observation(&s, 0)).unwrap();
    assert!(
        !json.contains("princess_dealt") && !json.contains("stats"),
        "{json}"
    );
    for seat in 0..6 {
        let d = g.determinize(&s, seat, &mut rng);
        assert_eq!(d.stats, Default::default());
    }
}

#[test]
fn a_loaded_state_whose_points_could_overflow_is_refused_naming_the_field() {
    let g = game(4);
    let mut s = g.new_state(&mut rng_from_seed(1));
    s.table.points[1] = 32_700;
    s.table.gains = 32_700;
    let e = g.check_state(&s).unwrap_err();
    assert!(e.contains("table.gains"), "{e}");
    s.table.points[1] = 5;
    s.table.gains = 5;
    g.check_state(&s).unwrap();
}
