//! One scenario test per Tofu Shifu rule, named after the rule. Rulebook citations are from
//! ../shared/rules/tofu_shifu.en.txt (en) and tofu_shifu.ja.txt (ja).
#![allow(clippy::needless_range_loop, clippy::manual_memcpy)]

mod helpers;

mod actions;
mod bonuses;
mod game_end;
mod hat_payment;
mod objectives;
mod options;
mod setup;
mod shifu_action;
