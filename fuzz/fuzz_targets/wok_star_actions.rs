#![no_main]
//! Fuzz target: `shifu_engine::hostile::wok_star_actions` on libFuzzer's bytes.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| shifu_engine::hostile::wok_star_actions(data));
