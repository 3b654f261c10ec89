//! `perft` pins move generation: the number of action sequences of each length from the start
//! position of a fixed seed. A change in any rule's legal moves changes these counts.

use shifu_engine::perft::perft;
use shifu_engine::tofu_shifu::{CardData, Params, TofuShifu};
use shifu_engine::DataFile;
use shifu_engine::{rng_from_seed, Game};

fn counts(data: &str, players: u8, seed: u64, depth: u32) -> Vec<u64> {
    let data = CardData::builtin(data).unwrap();
    let g = TofuShifu::new(data, Params::with_players(players)).unwrap();
    let mut rng = rng_from_seed(seed);
    let s = g.new_state(&mut rng);
    (1..=depth).map(|d| perft(&g, &s, &rng, d)).collect()
}

#[test]
fn perft_two_players_seed_1() {
    assert_eq!(counts("reconstructed", 2, 1, 16), PERFT_2P);
}

#[test]
fn perft_four_players_seed_1() {
    assert_eq!(counts("reconstructed", 4, 1, 16), PERFT_4P);
}

/// Depths 1 to 16, two players, seed 1, the first reconstruction and default parameters.
const PERFT_2P: [u64; 16] = [
    4, 14, 40, 63, 232, 546, 1318, 2809, 7019, 14411, 33994, 72803, 148642, 309758, 635175, 1331815,
];
/// Depths 1 to 16, four players, seed 1, the first reconstruction and default parameters.
const PERFT_4P: [u64; 16] = [
    5, 16, 48, 75, 249, 635, 1548, 3488, 8446, 18898, 52320, 135853, 317392, 820627, 1906073,
    5229436,
];

#[test]
fn perft_two_players_seed_1_default_data() {
    assert_eq!(counts("calibrated", 2, 1, 16), PERFT_2P_CALIBRATED);
}

#[test]
fn perft_four_players_seed_1_default_data() {
    assert_eq!(counts("calibrated", 4, 1, 16), PERFT_4P_CALIBRATED);
}

/// Depths 1 to 16, two players, seed 1, the calibrated (default) data and default parameters.
const PERFT_2P_CALIBRATED: [u64; 16] = [
    4, 14, 40, 63, 232, 588, 1389, 3008, 7464, 15473, 37062, 80538, 165797, 347281, 715161, 1500586,
];
/// Depths 1 to 16, four players, seed 1, the calibrated (default) data and default parameters.
const PERFT_4P_CALIBRATED: [u64; 16] = [
    5, 17, 50, 77, 276, 732, 1826, 3977, 9250, 21617, 60528, 159945, 379240, 979607, 2318069,
    6417631,
];
