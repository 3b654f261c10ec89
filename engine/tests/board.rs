//! The seat view of `shifu replay` reveals nothing the seat cannot see: each game's board for
//! a seat ([`Present::board`]) is the same for the true position and for any re-deal of what
//! the seat cannot see ([`Game::determinize`]), at every step of whole games; and the re-deals
//! do change the full board, so the check has something to catch.

use rand::Rng;
use shifu_engine::{rng_from_seed, Present};

/// Plays `games` random games of `game`; at every step checks every seat's board against
/// three re-deals. Returns how many re-deals changed the full board.
fn seat_boards_ignore_hidden_information<G: Present>(game: &G, games: u64) -> usize {
    let seats = game.num_seats();
    let mut changed = 0;
    let mut legal = Vec::new();
    for seed in 0..games {
        let mut rng = rng_from_seed(seed);
        let mut redeal = rng_from_seed(seed ^ 0xdead_beef);
        let mut s = game.new_state(&mut rng);
        let mut step = 0;
        while game.to_move(&s).is_some() {
            for k in 0..seats as u8 {
                let seen = game.board(&s, Some(k));
                for _ in 0..3 {
                    let d = game.determinize(&s, k, &mut redeal);
                    assert_eq!(
                        seen,
                        game.board(&d, Some(k)),
                        "{}: seed {seed}, step {step}, seat {k}: the seat's board shows hidden information",
                        game.name()
                    );
                    changed += usize::from(game.board(&d, None) != game.board(&s, None));
                }
            }
            game.legal_actions(&s, &mut legal);
            let a = legal[rng.gen_range(0..legal.len())];
            game.apply(&mut s, a, &mut rng);
            step += 1;
        }
    }
    changed
}

#[test]
fn tofu_shifu_seat_boards_hide_what_the_seat_cannot_see() {
    use shifu_engine::tofu_shifu::{Params, TofuShifu};
    let g = TofuShifu::with_params(Params::with_players(3)).unwrap();
    assert!(seat_boards_ignore_hidden_information(&g, 2) > 0);
}

#[test]
fn ginza_retro_cafe_seat_boards_hide_what_the_seat_cannot_see() {
    use shifu_engine::ginza_retro_cafe::{GinzaRetroCafe, Params};
    let g = GinzaRetroCafe::with_params(Params::with_players(3)).unwrap();
    assert!(seat_boards_ignore_hidden_information(&g, 3) > 0);
}

#[test]
fn wok_star_seat_boards_hide_what_the_seat_cannot_see() {
    use shifu_engine::wok_star::{Params, WokStar};
    let g = WokStar::with_params(Params::with_players(3)).unwrap();
    seat_boards_ignore_hidden_information(&g, 3);
}

#[test]
fn tofu_kingdom_seat_boards_hide_what_the_seat_cannot_see() {
    use shifu_engine::tofu_kingdom::{Params, TofuKingdom};
    let g = TofuKingdom::with_params(Params::with_players(4)).unwrap();
    assert!(seat_boards_ignore_hidden_information(&g, 3) > 0);
}
