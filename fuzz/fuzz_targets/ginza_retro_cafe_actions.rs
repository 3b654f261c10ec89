#![no_main]
//! Fuzz target: `shifu_engine::hostile::ginza_actions` on libFuzzer's bytes.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| shifu_engine::hostile::ginza_actions(data));
