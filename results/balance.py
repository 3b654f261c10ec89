"""Writes results/balance.md from the JSON results of results/balance.sh (results/balance/)."""

import json
import os
import sys


def load(name):
    path = f"balance/{name}.json"
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def fig(f):
    return f"{f['value']:.4f} [{f['ci_low']:.4f}, {f['ci_high']:.4f}]"


def seats(r):
    return " / ".join(
        f"{m['value']:.3f} [{m['ci_low']:.3f}, {m['ci_high']:.3f}]"
        for m in r["validation"]["metrics"]
        if m["name"].startswith("seat")
    )


def verdict(r):
    e = r["validation"]["equivalence"]
    v = e["verdict"]
    if v == "undetermined" and e.get("games_needed"):
        v += f" ({e['games_needed']:,} games would settle it)"
    return v


def four_players():
    r = load("tofu_shifu_4p_greedy")
    if r is None:
        return ["## 1. Tofu Shifu, 4 players: not run yet (`STAGES=4p sh results/balance.sh`)", ""]
    out = [
        "## 1. Tofu Shifu, 4 players, greedy: the fairest start coins",
        "",
        f"`shifu balance --game tofu-shifu --players 4 --agents greedy --search start_coins=0..3` "
        f"(seed {r['seed']}, defaults). Race: {r['settings']} vectors, {r['race_games']:,} games "
        f"(stopped: {r['race']['stop']}; {len(r['race']['survivors'])} vectors left, critical z "
        f"{r['race']['critical_z']:.2f}); validation: {r['validation_games']:,} fresh games per "
        f"finalist on master seed {r['validation_seed']}, which the race never used. Margin "
        f"±{r['margin']}. Capped: "
        + ", ".join(f"{x['validation']['capped']} of {x['validation']['games']:,}" for x in r["recommended"])
        + " validation games.",
        "",
        "| start coins | seats 1 / 2 / 3 / 4 (validation, 95% CI) | largest gap (bootstrap 95%) | probability best | verdict |",
        "| --- | --- | --- | --- | --- |",
    ]
    for x in r["recommended"]:
        out.append(
            f"| {x['name'].split('=')[1]} | {seats(x)} | {fig(x['validation']['objectives'][0])} | "
            f"{x['validation']['probability_best']:.2f} | {verdict(x)} |"
        )
    out += [
        "",
        f"**{r['answer']}** Re-test on the same fresh seeds: `{r['validate_command']}`.",
        "",
    ]
    return out


def efficiency(p):
    race, grid = load(f"efficiency_{p}p_race"), load(f"efficiency_{p}p_grid")
    if race is None or grid is None:
        return [f"### {p} players: not run yet (`STAGES=eff{p} sh results/balance.sh`)", ""], None
    margin = race["margin"]
    est = {e["name"]: e["estimate"][0] for e in grid["race_entries"]}
    best = min(est, key=est.get)
    pick = race["recommended"][0]["name"]
    gap = est[pick] - est[best]
    share = race["race_games"] / grid["race_games"]
    ok = gap <= margin and share <= 0.10
    out = [
        f"### {p} players ({race['settings']} vectors)",
        "",
        "| | race | full grid |",
        "| --- | --- | --- |",
        f"| games | {race['race_games']:,} | {grid['race_games']:,} |",
        f"| first recommendation | {pick} | {grid['recommended'][0]['name']} |",
        f"| its largest gap on {race['validation_games']:,} fresh games | "
        f"{fig(race['recommended'][0]['validation']['objectives'][0])} | "
        f"{fig(grid['recommended'][0]['validation']['objectives'][0])} |",
        f"| its verdict at ±{margin} | {verdict(race['recommended'][0])} | {verdict(grid['recommended'][0])} |",
        "",
        f"The full grid's best vector by its 12,800-game estimates is {best} (largest gap "
        f"{est[best]:.4f}); the race's pick {pick} has {est[pick]:.4f} there, {gap:.4f} from the "
        f"best ({'within' if gap <= margin else 'outside'} ±{margin}), for {100 * share:.1f}% of the "
        f"grid's games ({'within' if share <= 0.10 else 'above'} the 10% target). The rulebook's "
        f"coins, {','.join(['1', '2', '2', '3'][:p])}: {est.get('start_coins=' + ','.join(['1', '2', '2', '3'][:p]), float('nan')):.4f} "
        f"in the grid.",
        "",
    ]
    return out, ok


def main():
    lines = [
        "# `shifu balance`: findings",
        "",
        "Regenerate: `sh results/balance.sh` (`SHIFU=path/to/shifu` to pick a build). Card data: the",
        "embedded calibrated reconstruction (`builtin:calibrated`): the coin values found depend on",
        "reconstructed objective costs and are not yet rerun on the other two reconstructions.",
        "Agents: greedy in every seat, not the strongest available (MCTS-1000); these are findings",
        "about greedy play until `--validate-agents mcts:iters=1000` confirms them.",
        "",
    ]
    lines += four_players()
    lines += [
        "## 2. The race against the full grid (Tofu Shifu start coins 0..3 per seat)",
        "",
        "Target (issue 48): the race's recommendation equals the full grid's best within the margin,",
        "using at most 10% of the full grid's games. The grid (`--full-grid`) plays every vector",
        "12,800 games on the race's seeds and validates its best three on the same fresh seeds.",
        "",
    ]
    oks = []
    for p in (2, 3):
        sec, ok = efficiency(p)
        lines += sec
        oks.append(ok)
    done = [ok for ok in oks if ok is not None]
    lines.append(
        f"Target met: {sum(done)} of {len(done)} player counts run"
        + ("" if len(done) == 2 else " (the other is not run yet)")
        + "."
    )
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
