//! Invariants every reachable position satisfies: cards, dish tokens, hat tokens and coins are
//! conserved between players, reserve, market, deck and bag; nothing is negative; capacities
//! hold. The randomized tests check them after every action.

use super::*;

impl TofuShifu {
    /// Checks every invariant; the error says which one failed.
    pub fn check_invariants(&self, s: &State) -> Result<(), String> {
        self.check_cards(s)?;
        self.check_tiles(s)?;
        self.check_tokens(s)?;
        self.check_coins(s)?;
        self.check_places(s)
    }

    /// Cards: each card is in exactly one place.
    fn check_cards(&self, s: &State) -> Result<(), String> {
        let n = s.num_players as usize;
        let mut seen: CardSet = 0;
        let mut place = |set: CardSet, what: &str| -> Result<(), String> {
            if seen & set != 0 {
                return Err(format!(
                    "{what}: card(s) {:?} also in another place (deck, market, a player's hand, \
                     rest, upgrades, objective_zone or restaurant_done)",
                    cards(seen & set).collect::<Vec<_>>()
                ));
            }
            seen |= set;
            Ok(())
        };
        place(s.deck, "deck")?;
        for slot in 0..MAX_MARKET {
            if let Some(c) = s.market[slot].get() {
                if slot >= self.market_slots {
                    return Err(format!("market[{slot}]: a card past the market"));
                }
                place(1u128 << c, "market")?;
            }
        }
        for (i, p) in s.players[..n].iter().enumerate() {
            place(p.hand, &format!("players[{i}].hand"))?;
            place(p.rest, &format!("players[{i}].rest"))?;
            place(p.upgrades, &format!("players[{i}].upgrades"))?;
            place(p.objective_zone, &format!("players[{i}].objective_zone"))?;
            place(p.restaurant_done, &format!("players[{i}].restaurant_done"))?;
            if p.hand_known & !p.hand != 0 {
                return Err(format!(
                    "players[{i}].hand_known: player {i} knows cards not in hand"
                ));
            }
        }
        if seen != self.all_cards {
            return Err(format!(
                "deck, market, hand, rest, upgrades, objective_zone, restaurant_done: cards \
                 lost: {:?}",
                cards(self.all_cards & !seen).collect::<Vec<_>>()
            ));
        }
        Ok(())
    }

    /// Customer tiles: bag + drawn + tables = all, disjoint.
    fn check_tiles(&self, s: &State) -> Result<(), String> {
        let n = s.num_players as usize;
        let mut tiles_seen: TileSet = s.bag;
        if s.bag & s.drawn != 0 {
            return Err("bag, drawn: a tile both in the bag and drawn".into());
        }
        tiles_seen |= s.drawn;
        let per = self.data.customers_per_table as usize;
        for (i, p) in s.players[..n].iter().enumerate() {
            let open = self.tables_open(p);
            for t in 0..MAX_TABLES {
                for k in 0..SEATS_PER_TABLE {
                    let Some(tile) = p.tables[t][k].get() else {
                        if p.served[t][k] != 0 {
                            return Err(format!(
                                "players[{i}].served[{t}][{k}]: dishes on an empty seat"
                            ));
                        }
                        continue;
                    };
                    if t >= open || k >= per {
                        return Err(format!(
                            "players[{i}].tables[{t}][{k}]: a customer at a locked table or seat"
                        ));
                    }
                    if tiles_seen & (1u64 << tile) != 0 {
                        return Err(format!(
                            "players[{i}].tables[{t}][{k}], bag, drawn: tile {tile} in two places"
                        ));
                    }
                    tiles_seen |= 1u64 << tile;
                    if p.served[t][k] & !self.data.customers[tile as usize].orders != 0 {
                        return Err(format!(
                            "players[{i}].served[{t}][{k}]: a dish served that was not ordered"
                        ));
                    }
                }
            }
        }
        if tiles_seen != self.all_tiles {
            return Err("bag, drawn, tables: customer tiles lost".into());
        }
        Ok(())
    }

    /// Dish and hat tokens: conserved, no reserve negative, no more tokens than flags.
    fn check_tokens(&self, s: &State) -> Result<(), String> {
        let n = s.num_players as usize;
        let finite = self.params.finite_reserve;
        for d in 0..4 {
            let mut total = s.reserve_dishes[d] as i64;
            for p in &s.players[..n] {
                total += p.dishes[d] as i64;
                for t in 0..MAX_TABLES {
                    total += p.table_served(t)[d] as i64;
                }
            }
            if total != self.data.supply_dishes[d] as i64 {
                return Err(format!(
                    "reserve_dishes[{d}], dishes, served: dish {d}: {total} tokens, supply {}",
                    self.data.supply_dishes[d]
                ));
            }
            if finite && s.reserve_dishes[d] < 0 {
                return Err(format!("reserve_dishes[{d}]: negative reserve"));
            }
        }
        // Hat tokens.
        for h in 0..4 {
            let total = s.reserve_hats[h] as i64
                + s.players[..n].iter().map(|p| p.hats[h] as i64).sum::<i64>();
            if total != self.data.supply_hats[h] as i64 {
                return Err(format!(
                    "reserve_hats[{h}], hats: hat {h}: {total} tokens, supply {}",
                    self.data.supply_hats[h]
                ));
            }
            if finite && s.reserve_hats[h] < 0 {
                return Err(format!("reserve_hats[{h}]: negative reserve"));
            }
        }
        for (i, p) in s.players[..n].iter().enumerate() {
            if p.loose_master > p.hats[3] {
                return Err(format!(
                    "players[{i}].loose_master: more loose Master tokens than Master tokens (hats)"
                ));
            }
            for d in 0..4 {
                if p.dishes[d] > p.dish_flags[d] {
                    return Err(format!(
                        "players[{i}].dishes[{d}], dish_flags: more tokens than flags"
                    ));
                }
            }
            for h in 0..4 {
                let loose = if h == 3 { p.loose_master } else { 0 };
                if p.hats[h] - loose > p.hat_flags[h] {
                    return Err(format!(
                        "players[{i}].hats[{h}], hat_flags: more tokens than flags"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Coins: conserved, the reserve not negative.
    fn check_coins(&self, s: &State) -> Result<(), String> {
        let n = s.num_players as usize;
        let finite = self.params.finite_reserve;
        let coins =
            s.reserve_coins as i64 + s.players[..n].iter().map(|p| p.coins as i64).sum::<i64>();
        if coins != self.data.supply_coins as i64 {
            return Err(format!(
                "reserve_coins, coins: {coins} coins, supply {}",
                self.data.supply_coins
            ));
        }
        if finite && s.reserve_coins < 0 {
            return Err("reserve_coins: negative coin reserve".into());
        }
        Ok(())
    }

    /// Markers within capacity, hands within the limit after Rest, each Town objective in one place.
    fn check_places(&self, s: &State) -> Result<(), String> {
        let n = s.num_players as usize;
        for space in Space::ALL {
            if space == Space::Rest {
                continue;
            }
            let k = s.players[..n]
                .iter()
                .filter(|p| p.marker == space as u8)
                .count();
            if k > self.data.spaces[space as usize].capacity as usize {
                return Err(format!("marker: {k} markers on {space}"));
            }
        }
        // Hand limit after Rest.
        if matches!(
            s.turn.phase,
            Phase::TurnEnd | Phase::TurnStart | Phase::GameOver
        ) {
            for (i, p) in s.players[..n].iter().enumerate() {
                if p.hand.count_ones() > self.hand_limit(p).max(self.hand_size) as u32 {
                    return Err(format!(
                        "players[{i}].hand: {} cards in hand",
                        p.hand.count_ones()
                    ));
                }
            }
        }
        // Objectives: each Town objective completed at most once.
        let mut town: u16 = s.town_display;
        for p in &s.players[..n] {
            if town & p.town_done != 0 {
                return Err("town_display, town_done: a Town objective in two places".into());
            }
            town |= p.town_done;
        }
        Ok(())
    }
}
