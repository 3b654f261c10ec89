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


def finalists_table(r, label, words=None):
    """The validated finalists of one run: their metrics, objectives and verdicts."""
    out = [
        f"| {label} | validation figures (95% CI) | objectives (bootstrap 95%) | probability best | verdict |",
        "| --- | --- | --- | --- | --- |",
    ]
    for x in r["recommended"]:
        v = x["validation"]
        metrics = "; ".join(
            f"{m['name']} {m['value']:.3f} [{m['ci_low']:.3f}, {m['ci_high']:.3f}]" for m in v["metrics"]
        )
        objs = "; ".join(f"{o['name']} {fig(o)}" for o in v["objectives"])
        out.append(
            f"| {' '.join(x['set'])} | {metrics} | {objs} | {v['probability_best']:.2f} | {(words or verdict)(x)} |"
        )
    return out


def run_line(r, command):
    agents = " | ".join(sorted(set(r["agents"])))
    vagents = " | ".join(sorted(set(r["validate_agents"])))
    capped = sum(x["validation"]["capped"] for x in r["recommended"])
    vgames = sum(x["validation"]["games"] for x in r["recommended"])
    return (
        f"`{command}`: {r['settings']} settings, race {r['race_games']:,} games under {agents} "
        f"(stopped: {r['race']['stop']}); validation {r['validation_games']:,} fresh games per "
        f"finalist under {vagents} (master seed {r['validation_seed']}); capped {capped} of "
        f"{vgames:,} validation games."
    )


def target_verdict(r):
    """A target's verdict in a target's words: within the margin, differs, or undetermined."""
    v = verdict(r)
    if v.startswith("unfair"):
        return "differs from the target"
    if v.startswith("fair"):
        return "within the margin"
    return v


def wok_goals():
    """The embedded data's income goals, {difficulty: {players: [goals]}}."""
    import re

    goals = {}
    with open("../engine/data/wok_star.reconstructed.yaml", encoding="utf-8") as f:
        for line in f:
            m = re.match(r"\s+(mild|medium|extra_spicy):\s+\{(.*)\}", line)
            if m:
                goals[m.group(1)] = {
                    int(k): [int(x) for x in v.split(",")]
                    for k, v in re.findall(r"(\d): \[([\d, ]+)\]", m.group(2))
                }
    return goals


def scaled(goals, scale):
    """The engine's rounding: half away from zero."""
    import math

    return [int(math.floor(g * scale + 0.5)) for g in goals]


def designer_questions():
    out = [
        "## 3. Every game's designer question, under greedy",
        "",
        "Races under greedy in every seat (the agent that plays thousands of games a second), finalists",
        "re-tested on fresh seeds. Each game's card data is its embedded reconstruction: these are",
        "findings about the reconstruction and greedy play. `STAGES=\"ginza tk wok wokmcts\" sh",
        "results/balance.sh` reruns them.",
        "",
        "### Ginza Retro Café: start yen by turn position",
        "",
        "`start_yen_by_position` (a variant, not the rulebook's) gives the k-th player in turn order",
        "from the first start player extra yen; `fair` measures each turn position's win share.",
        "Metric `seatK` here is turn position K.",
        "",
    ]
    for p, space in ((3, "0..3"), (4, "0..2")):
        r = load(f"ginza_{p}p_greedy")
        if r is None:
            out += [f"{p} players: not run yet.", ""]
            continue
        cmd = f"shifu balance --game ginza-retro-cafe --players {p} --agents greedy --search start_yen_by_position={space}"
        out += [f"**{p} players.** " + run_line(r, cmd), ""]
        out += finalists_table(r, "start yen by position") + ["", f"{r['answer']}", ""]
    out += [
        "### Tofu Kingdom: settings for a find rate of one half",
        "",
        "The Prince and the answerers are greedy (the answerers steer him: the answerer model is",
        "greedy's). Searched: the deal, the two centre-answer readings and the extra question;",
        "objectives: the find rate (finds per round Princess Tofu is dealt) at 0.5 and the distance",
        "from the rulebook's setting (a Pareto set).",
        "",
    ]
    for p in (4, 6, 8):
        r = load(f"tofu_kingdom_{p}p_greedy")
        if r is None:
            out += [f"{p} players: not run yet.", ""]
            continue
        cmd = f"shifu balance --game tofu-kingdom --players {p} ... (see balance.sh)"
        out += [f"**{p} players.** " + run_line(r, cmd), ""]
        out += finalists_table(r, "setting", target_verdict) + ["", f"{r['answer']}", ""]
    out += [
        "### Wok Star: the goal scale for a team win rate of one half",
        "",
        "`goal_scale` multiplies every income goal of the difficulty (rounded half up); greedy team.",
        "A difficulty is only its goals, so scales that round to the same goals play the same games.",
        "",
        "| players | difficulty | goal scale | income goals (rulebook's → scaled) | team win rate (validation, 95% CI) | verdict at ±0.02 of 0.5 |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    goals = wok_goals()
    for p in (2, 3, 4):
        for d in ("mild", "medium", "extra_spicy"):
            r = load(f"wok_star_{p}p_{d}_greedy")
            if r is None:
                out.append(f"| {p} | {d} | not run yet | | | |")
                continue
            x = r["recommended"][0]
            m = x["validation"]["metrics"][0]
            scale = float(x["name"].split("=")[1])
            g = goals[d][p]
            out.append(
                f"| {p} | {d} | {scale:g} | {', '.join(map(str, g))} → {', '.join(map(str, scaled(g, scale)))} "
                f"| {m['value']:.3f} [{m['ci_low']:.3f}, "
                f"{m['ci_high']:.3f}] ({x['validation']['games']:,} games) | {target_verdict(x)} |"
            )
    r = load("wok_star_2p_medium_mcts")
    out.append("")
    if r is not None:
        x = r["recommended"][0]
        m = x["validation"]["metrics"][0]
        out += [
            f"**The same question under MCTS** (2 players, Medium): the race under greedy picks "
            f"{x['name']}; re-tested under `{r['validate_agents'][0]}` on "
            f"{x['validation']['games']:,} fresh games the team wins {m['value']:.3f} "
            f"[{m['ci_low']:.3f}, {m['ci_high']:.3f}]: {verdict(x)}. "
            "Greedy's setting is not a strong team's.",
            "",
        ]
    return out


def robustness():
    out = [
        "## 4. Do the recommended coins hold on the other card-data reconstructions?",
        "",
        "Each race's first recommendation, found on the calibrated data, re-tested with `shifu seats`",
        "on the two other reconstructions (`--data builtin:reconstructed`, `builtin:alternative`),",
        "10,000 greedy games each on the race's validation seeds. Margin ±0.02.",
        "",
        "| players | coins | data | seats (95% CI) | capped | verdict |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, p in (("tofu_shifu_4p_greedy", 4), ("efficiency_3p_race", 3), ("efficiency_2p_race", 2)):
        race = load(name)
        for d in ("reconstructed", "alternative"):
            r = load(f"robust_{p}p_{d}")
            if race is None or r is None:
                out.append(f"| {p} | | {d} | not run yet (`STAGES=data sh results/balance.sh`) | | |")
                continue
            st = r["stats"]
            shares = " / ".join(
                f"{x['win_share']:.3f} [{x['ci_low']:.3f}, {x['ci_high']:.3f}]" for x in st["seats"]
            )
            e = st["equivalence"]
            v = e["verdict"]
            if v == "undetermined" and e.get("games_needed"):
                v += f" ({e['games_needed']:,} games would settle it)"
            out.append(
                f"| {p} | {race['recommended'][0]['set'][0].split('=')[1]} | {d} | {shares} | "
                f"{st['capped']['games']} of {st['games']:,} | {v} (p = {e['p_equivalence'] if e['verdict'] != 'unfair' else e['p_difference']:.2g}) |"
            )
    return out + [""]


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
    lines += [""] + designer_questions() + robustness()
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
