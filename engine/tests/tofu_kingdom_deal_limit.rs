//! Issue 46, hostile input 6: a data file with 12 Character cards at 8 players made 3,991,680
//! possible deals, and the Prince's exact belief enumerated them every decision (171 s a greedy
//! game). Such a combination is refused with the reason; smaller ones still play.

use shifu_engine::tofu_kingdom::{CardData, Deal, Params, TofuKingdom, MAX_DEALS};
use shifu_engine::DataFile;

/// The embedded data with five more Character cards (12 in all), every list `all_12`.
fn twelve_characters() -> CardData {
    let mut extra = String::new();
    for card in [
        "extra_a, faction: crown, eye: F, upper_left: mask, lower_right: crown, reward: {beans: 1}",
        "extra_b, faction: mask, eye: \"?\", upper_left: mask, lower_right: mask, reward: {beans: 1}",
        "extra_c, faction: heart, eye: T, upper_left: mask, lower_right: heart, reward: {beans: 1}",
        "extra_d, faction: crown, eye: F, upper_left: mask, lower_right: crown, reward: {beans: 1}",
        "extra_e, faction: mask, eye: \"?\", upper_left: mask, lower_right: mask, reward: {steal: 1}",
    ] {
        extra.push_str(&format!("  - {{id: {card}}}\n"));
    }
    extra.push_str("deal_modes:");
    let text = CardData::embedded_text()
        .replacen("deal_modes:", &extra, 1)
        .replace("all_7", "all_12");
    let d = CardData::parse(&text, "tk12.yaml").expect("valid data");
    assert_eq!(d.characters.len(), 12);
    d
}

#[test]
fn twelve_characters_at_8_players_is_refused_for_its_deal_count() {
    for deal in [Deal::AllCharacters, Deal::BlueOrangeLists] {
        let params = Params {
            players: 8,
            deal,
            ..Params::default()
        };
        let e = TofuKingdom::new(twelve_characters(), params)
            .expect_err("3,991,680 deals are refused")
            .to_string();
        assert!(
            e.contains("deal") && e.contains("3991680") && e.contains(&MAX_DEALS.to_string()),
            "{e}"
        );
    }
}

#[test]
fn twelve_characters_at_6_players_and_the_default_at_8_still_play() {
    let params = |players| Params {
        players,
        deal: Deal::BlueOrangeLists,
        ..Params::default()
    };
    assert!(TofuKingdom::new(twelve_characters(), params(6)).is_ok());
    assert!(TofuKingdom::new(CardData::embedded(), params(8)).is_ok());
    assert_eq!(shifu_engine::tofu_kingdom::deal_count(7, 7), 5040);
    assert_eq!(shifu_engine::tofu_kingdom::deal_count(12, 7), 3_991_680);
}
