//! The contract battery ([`shifu::contract`]) for every registered game at every player count,
//! one test a game, from the engine's list.

shifu_engine::game_list!(shifu::contract_tests!());
