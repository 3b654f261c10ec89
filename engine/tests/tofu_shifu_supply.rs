//! Issue 46, hostile input 12: start coins beyond the coin supply played silently as what the
//! supply held (`start_coins=1000,1000,1000,1000` dealt 80, 0, 0, 0 and seat 1 won 200 of 200);
//! data with no Town objectives or a 0-coin supply loaded. Each is refused, naming the field.

use serde_json::Value;
use shifu_engine::tofu_shifu::{CardData, Params, TofuShifu};
use shifu_engine::DataFile;
use shifu_engine::ParamFile;

const DATA: &str = include_str!("../data/tofu_shifu.reconstructed.json");

#[test]
fn start_coins_beyond_the_supply_are_refused_naming_it() {
    let mut p = Params {
        players: 4,
        ..Params::default()
    };
    p.set("start_coins", "1000,1000,1000,1000").unwrap();
    let e = TofuShifu::new(CardData::embedded(), p.clone())
        .expect_err("4000 coins do not fit in a supply of 80")
        .to_string();
    assert!(
        e.contains("start_coins") && e.contains("4000") && e.contains("supply.coins"),
        "{e}"
    );
    assert!(e.contains("80"), "{e}");
    // The whole supply may be handed out; an infinite reserve takes any start.
    p.set("start_coins", "20,20,20,20").unwrap();
    assert!(TofuShifu::new(CardData::embedded(), p.clone()).is_ok());
    p.set("start_coins", "1000,1000,1000,1000").unwrap();
    p.set("finite_reserve", "false").unwrap();
    assert!(TofuShifu::new(CardData::embedded(), p).is_ok());
}

fn refused_field(edit: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(DATA).unwrap();
    edit(&mut v);
    CardData::parse(&v.to_string(), "ts.json")
        .expect_err("refused")
        .to_string()
}

#[test]
fn data_with_no_town_objectives_or_no_coins_is_refused() {
    let e = refused_field(|v| v["supply"]["coins"] = 0.into());
    assert!(e.contains("ts.json") && e.contains("supply.coins"), "{e}");
    let e = refused_field(|v| {
        v["town_objectives"] = Value::Array(Vec::new());
        v["supply"]["town_objectives"] = 0.into();
    });
    assert!(
        e.contains("ts.json") && e.contains("town_objectives") && !e.contains("supply."),
        "{e}"
    );
}
