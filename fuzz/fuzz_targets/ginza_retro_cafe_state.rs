#![no_main]
//! Fuzz target: `shifu_engine::hostile::ginza_state` on libFuzzer's bytes.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| shifu_engine::hostile::ginza_state(data));
