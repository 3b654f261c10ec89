#![no_main]
//! Fuzz target: the data driver of the game the first byte picks
//! (`shifu_engine::hostile::by_game`), for every registered game.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| shifu_engine::hostile::by_game("data", data));
