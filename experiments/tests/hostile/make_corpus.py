#!/usr/bin/env python3
"""Regenerates the hostile-input corpus that experiments/tests/hostile.rs runs in CI:
mutated card data files (data/), mutated saved states (states/) and bad command lines (cli.txt).

    cargo build --release && python3 experiments/tests/hostile/make_corpus.py

Deterministic (fixed seed). Every mutation is named in the file name, so a failure says what
kind of input broke the tool.
"""
import json
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "../../.."))
SHIFU = os.environ.get("SHIFU", os.path.join(ROOT, "target/release/shifu"))
rng = random.Random(2026)

BAD_NUMBERS = [-1, -1000000, 256, 65536, 4294967296, 18446744073709551616, 1e308, 0.5, "7", None, True, [], {}]


def leaves(v, path=()):
    """Every (path, value) of a JSON value's scalars and containers."""
    yield path, v
    if isinstance(v, dict):
        for k, x in v.items():
            yield from leaves(x, path + (k,))
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from leaves(x, path + (i,))


def set_at(v, path, value):
    for k in path[:-1]:
        v = v[k]
    v[path[-1]] = value


def delete_at(v, path):
    for k in path[:-1]:
        v = v[k]
    if isinstance(v, dict):
        del v[path[-1]]
    else:
        v.pop(path[-1])


def json_mutations(doc, count, prefix):
    """`count` mutated copies of a JSON document: (name, text)."""
    paths = [p for p, _ in leaves(doc) if p]
    out = []
    kinds = ["number", "delete", "unknown_key", "type", "truncate", "flip", "empty_list", "grow_list"]
    for i in range(count):
        kind = kinds[i % len(kinds)]
        d = json.loads(json.dumps(doc))
        p = rng.choice(paths)
        text = None
        if kind == "number":
            set_at(d, p, rng.choice(BAD_NUMBERS))
        elif kind == "delete":
            delete_at(d, p)
        elif kind == "unknown_key":
            containers = [q for q, x in leaves(d) if isinstance(x, dict)]
            q = rng.choice(containers)
            target = d
            for k in q:
                target = target[k]
            target["surprise"] = 1
        elif kind == "type":
            set_at(d, p, rng.choice(["text", [1, 2], {"a": 1}, None, 3.25]))
        elif kind == "truncate":
            full = json.dumps(doc, separators=(",", ":"))
            text = full[: rng.randrange(1, len(full))]
        elif kind == "flip":
            b = bytearray(json.dumps(doc, separators=(",", ":")).encode())
            for _ in range(rng.randrange(1, 6)):
                b[rng.randrange(len(b))] = rng.randrange(256)
            text = b.decode("latin-1")
        elif kind == "empty_list":
            lists = [q for q, x in leaves(d) if isinstance(x, list) and q]
            set_at(d, rng.choice(lists), [])
        else:  # grow_list: repeat a list's last item many times
            lists = [q for q, x in leaves(d) if isinstance(x, list) and x and q]
            q = rng.choice(lists)
            target = d
            for k in q:
                target = target[k]
            target.extend([target[-1]] * rng.choice([1, 50, 200]))
        if text is None:
            text = json.dumps(d, separators=(",", ":"))
        out.append((f"{prefix}_{i:03d}_{kind}", text))
    return out


COMMON_KINDS = ("value", "drop_line", "indent", "truncate")


def common_yaml_mutation(ls, kind, j):
    """The mutations every YAML data file gets: a bad value on line j, line j dropped or
    re-indented, or the file cut short."""
    if kind == "value":
        ls[j] = ls[j].replace(": ", ": " + rng.choice(["-1", "99999", "x", "[]", "{}", "~", "1e400"]) + " #", 1)
    elif kind == "drop_line":
        ls.pop(j)
    elif kind == "indent":
        ls[j] = "   " + ls[j]
    else:
        t = "\n".join(ls)
        ls = t[: rng.randrange(1, len(t))].splitlines()
    return ls


def yaml_mutations(text, count, prefix):
    lines = text.splitlines()
    out = []
    for i in range(count):
        ls = list(lines)
        kind = ["value", "drop_line", "indent", "truncate", "dup_card", "bad_list"][i % 6]
        j = rng.randrange(len(ls))
        if kind in COMMON_KINDS:
            ls = common_yaml_mutation(ls, kind, j)
        elif kind == "dup_card":
            cards = [k for k, l in enumerate(ls) if l.strip().startswith("- {id:")]
            k = rng.choice(cards)
            ls.insert(k, ls[k])
        else:
            ls = [l.replace("all_7", rng.choice(["all_99", "all_0", "[]", "[princess_tofu, princess_tofu]"])) for l in ls]
        out.append((f"{prefix}_{i:03d}_{kind}", "\n".join(ls) + "\n"))
    return out


def ws_yaml_mutations(text, count, prefix):
    """Wok Star data: bad values, dropped or re-indented lines, cuts, unknown dice conditions,
    ingredients and effects, missing goals."""
    lines = text.splitlines()
    out = []
    kinds = ["value", "drop_line", "indent", "truncate", "condition", "ingredient", "effect", "goals"]
    for i in range(count):
        ls = list(lines)
        kind = kinds[i % len(kinds)]
        j = rng.randrange(len(ls))
        if kind in COMMON_KINDS:
            ls = common_yaml_mutation(ls, kind, j)
        elif kind == "condition":
            ls = [l.replace("diff_eq_2", rng.choice(["diff_eq_9", "triple", "sum_eq_", "pair 2"])) for l in ls]
        elif kind == "ingredient":
            ls = [l.replace("[rice, egg]", rng.choice(["[rice, eggs]", "[]", "[rice, rice]", "[a, b, c, d, e]"])) for l in ls]
        elif kind == "effect":
            ls = [l.replace("do: income -2", rng.choice(["do: income", "do: income 500", "do: explode 1", "do: dirty_die 1"])) for l in ls]
        else:
            ls = [l.replace(", 4: [15, 26, 40, 56]", rng.choice(["", ", 4: [15, 26]", ", 9: [1, 2, 3, 4]"])) for l in ls]
        out.append((f"{prefix}_{i:03d}_{kind}", "\n".join(ls) + "\n"))
    return out


def saved_states(game, players, seeds):
    """States saved by `shifu show` after a few actions, as JSON documents."""
    out = []
    for seed, take in seeds:
        path = os.path.join("/tmp", f"shifu-corpus-{game}-{seed}.json")
        args = [SHIFU, "show", "--game", game, "--players", str(players), "--seed", str(seed), "--save-state", path]
        if take:
            args += ["--take", take]
        subprocess.run(args, check=True, capture_output=True)
        with open(path) as f:
            out.append(json.load(f))
        os.remove(path)
    return out


BASES = {
    "play": "play --players 2 --games 3 --quiet",
    "seats": "seats --players 2 --games 3 --quiet",
    "sweep": "sweep --players 2 --games 2 --quiet --vary start_coins=1,2/2,2",
    "calibrate": "calibrate --players 2 --agents greedy --games 2 --quiet",
    "tournament": "tournament --players 2 --agents random,greedy --seeds 1",
    "duel": "duel --players 2 --agents greedy,random --seeds 1",
    "bench": "bench --players 2 --games 2 --threads 1",
    "show": "show --players 2 --seed 3",
    "data": "data",
}
BAD_OPTIONS = {
    "--games": ["-1", "abc", "1e3", "99999999999999999999999", "0"],
    "--seed": ["-1", "x", "18446744073709551616"],
    "--players": ["0", "1", "9", "255", "-3", "x"],
    "--threads": ["-1", "x", "99999999999999999999", "5000"],
    "--game": ["chess", "TOFU-SHIFU", "wok-star"],
    "--data": ["/nonexistent/cards.json", "/", "builtin:nope", "builtin:", "/dev/zero"],
    "--config": ["/nonexistent/p.toml", "/", "/dev/zero"],
}
BAD_SETS = [
    "bogus=1", "players=lots", "start_coins=a,b", "start_coins=1", "max_rounds=0",
    "max_rounds=70000", "upgrade_coin_scale=nan", "upgrade_coin_scale=-2",
    "upgrade_coin_scale=inf", "objective_cost.T99=3", "objective_cost.T01=-1",
    "objective_cost.T01=99999999", "end_objectives=0", "hand_limit=0", "market_size=9",
    "market_prices=1,2", "restaurant_objective_max_dishes=0", "end_rule=sometimes",
    "objective_limit=many", "=", "novalue", "town_objective_cost_scale=1e400",
    "player_objective_upgrade_delta=300", "finite_reserve=maybe", "hand_size=200",
    "start_coins=65535,65535,65535,65535", "market_prices=70000,1,1,1,1",
]
BAD_AGENTS = [
    "wizard", "mcts:iters=0", "mcts:iters=-1", "mcts:c=nan", "mcts:c=-1", "mcts:rollout=smart",
    "mcts:reward=money", "mcts:cut=none", "mcts:cut=margin,scale=0", "mcts:scale=inf",
    "greedy:weights=/nonexistent.toml", "greedy:weights=/", "random:x=1", ",",
    "random,random,random,random,random", "mcts:time_ms=abc", "mcts:depth=-1", "greedy:weights",
    "greedy:weights=/dev/urandom", "greedy:weights=/dev/zero", "mcts:iters=2,leaf=/dev/zero",
]
SPECIFIC = [
    "report /nonexistent/run.csv --out /tmp/shifu-hostile-x.md",
    "report / --out /tmp/shifu-hostile-x.md",
    "merge --out /tmp/shifu-hostile-m.csv /nonexistent/a.csv",
    "merge --out /tmp/shifu-hostile-m.csv",
    "merge --out / /nonexistent/a.csv",
    "play --players 2 --games 3 --quiet --out /",
    "play --players 2 --games 3 --quiet --resume",
    "play --players 2 --games 8 --quiet --shard 4/4",
    "play --players 2 --games 8 --quiet --shard 1/0",
    "play --players 2 --games 8 --quiet --shard a/b",
    "play --players 2 --games 8 --quiet --shard 1",
    "play --players 2 --games 8 --quiet --shard -1/4",
    "play --players 2 --games 8 --quiet --shard 0/4 --shard-count 4",
    "play --players 2 --games 8 --quiet --shard-count 0",
    "play --players 2 --games 5 --quiet --shard 0/100",
    "play --players 2 --games 3 --quiet --rotate",
    "seats --players 2 --games 3 --quiet --agents greedy,greedy --rotate",
    "sweep --players 2 --games 2 --quiet",
    "sweep --players 2 --games 2 --quiet --vary nokey",
    "sweep --players 2 --games 2 --quiet --vary k=",
    "sweep --players 2 --games 2 --quiet --vary players=2,3",
    "sweep --players 2 --games 2 --quiet --vary start_coins=1,2/",
    "sweep --players 2 --games 2 --quiet --vary bogus=1,2",
    "calibrate --players 2 --agents greedy --games 2 --quiet --target-rounds 40-20",
    "calibrate --players 2 --agents greedy --games 2 --quiet --target-rounds x",
    "calibrate --players 2 --agents greedy --games 2 --quiet --max-capped 2",
    "calibrate --players 2 --agents greedy --games 2 --quiet --max-run-out -1",
    "calibrate --players 2 --agents greedy --games 0 --quiet",
    "tournament --players 2 --agents random --seeds 1",
    "tournament --players 4 --agents random,greedy --seeds 1 --sprt",
    "tournament --players 2 --agents random,greedy --seeds 1 --sprt --elo1 nan",
    "tournament --players 2 --agents random,greedy --seeds 1 --sprt --alpha 0",
    "tournament --players 2 --agents random,greedy --seeds 1 --sprt --beta 1",
    "tournament --players 2 --agents random,greedy --seeds 1 --sprt --elo0 50 --elo1 10",
    "tournament --players 2 --agents random,greedy --seeds 0",
    "duel --players 2 --agents random --seeds 1",
    "duel --players 2 --agents a,b,c --seeds 1",
    "duel --players 2 --agents greedy,random --seeds 0",
    "show --players 2 --seed 3 --take 999",
    "show --players 2 --seed 3 --take -1",
    "show --players 2 --seed 3 --take x",
    "show --players 2 --seed 3 --observe 0",
    "show --players 2 --seed 3 --observe 9",
    "show --players 2 --seed 3 --determinize 9",
    "show --players 2 --seed 3 --turns -1 --agents random",
    "show --players 2 --seed 3 --agents wizard",
    "show --players 2 --state /nonexistent/s.json",
    "show --players 2 --state /",
    "show --players 2 --seed 3 --save-state /",
    "bench --players 2 --seconds inf",
    "bench --players 2 --seconds nan",
    "bench --players 2 --seconds -1",
    "bench --players 2 --games 0",
    "play --game tofu-kingdom --players 2 --games 2 --quiet",
    "play --game tofu-kingdom --players 9 --games 2 --quiet",
    "play --game tofu-kingdom --players 4 --games 2 --quiet --set deal=purple",
    "play --game tofu-kingdom --players 4 --games 2 --quiet --set winning_score=0",
    "play --game tofu-kingdom --players 4 --games 2 --quiet --data /nonexistent.yaml",
    "data --game tofu-kingdom",
    "data --game wok-star",
    "play --game wok-star --players 1 --games 2 --quiet",
    "play --game wok-star --players 5 --games 2 --quiet",
    "play --game wok-star --players 2 --games 2 --quiet --set difficulty=hot",
    "play --game wok-star --players 2 --games 2 --quiet --set difficulty=",
    "play --game wok-star --players 2 --games 2 --quiet --set speed=0",
    "play --game wok-star --players 2 --games 2 --quiet --set speed=nan",
    "play --game wok-star --players 2 --games 2 --quiet --set speed=1e300",
    "play --game wok-star --players 2 --games 2 --quiet --set goal_scale=-1",
    "play --game wok-star --players 2 --games 2 --quiet --set goal_scale=inf",
    "play --game wok-star --players 2 --games 2 --quiet --set max_day_seconds=-5",
    "play --game wok-star --players 2 --games 2 --quiet --set prepare_seconds=1e9",
    "play --game wok-star --players 2 --games 2 --quiet --set timer_flip=upside-down",
    "play --game wok-star --players 2 --games 2 --quiet --set events=maybe",
    "play --game wok-star --players 2 --games 2 --quiet --set powers=2",
    "play --game wok-star --players 2 --games 2 --quiet --set undrawn_events=keep",
    "play --game wok-star --players 2 --games 2 --quiet --data /nonexistent.yaml",
    "play --game wok-star --players 2 --games 2 --quiet --data builtin:calibrated",
    "show --game wok-star --players 2 --seed 1 --take 9999",
    "show --game wok-star --players 2 --seed 1 --observe 3",
    "data --out /",
    "data --out /dev/null",
    "show --players 2 --state /dev/zero",
    "show --players 2 --save-state /dev/null",
    "report /dev/zero --out /tmp/shifu-hostile-x.md",
    "sweep --players 2 --games 2 --quiet --vary start_coins=1,2/2,2 --out /dev/null",
    "merge --out /tmp/shifu-hostile-m.csv /tmp/shifu-hostile-m.csv",
    "frobnicate",
    "play --frobnicate",
    "",
]


def cli_lines():
    lines = []
    for sub, base in BASES.items():
        for flag, values in BAD_OPTIONS.items():
            if sub == "data" and flag in ("--games", "--seed", "--threads"):
                continue
            for v in values:
                lines.append(f"{base} {flag} {v}")
    for s in BAD_SETS:
        lines.append(f"{BASES['play']} --set {s}")
        lines.append(f"{BASES['data']} --set {s}")
    for a in BAD_AGENTS:
        lines.append(f"{BASES['play']} --agents {a}")
    return lines + SPECIFIC


def main():
    data_dir = os.path.join(HERE, "data")
    state_dir = os.path.join(HERE, "states")
    for d in (data_dir, state_dir):
        os.makedirs(d, exist_ok=True)
        for f in os.listdir(d):
            os.remove(os.path.join(d, f))
    with open(os.path.join(ROOT, "engine/data/tofu_shifu.calibrated.json")) as f:
        ts_data = json.load(f)
    with open(os.path.join(ROOT, "engine/data/tofu_kingdom_cards.reconstructed.yaml")) as f:
        tk_data = f.read()
    files = json_mutations(ts_data, 160, "ts") + yaml_mutations(tk_data, 60, "tk")
    for name, text in files:
        ext = ".json" if name.startswith("ts") else ".yaml"
        with open(os.path.join(data_dir, name + ext), "w", encoding="latin-1", errors="replace") as f:
            f.write(text)
    takes = [(s, ",".join(["0"] * (s % 5))) for s in range(1, 9)]
    ts_states = saved_states("tofu-shifu", 3, takes)
    tk_states = saved_states("tofu-kingdom", 5, takes)
    n = 0
    for base_i, base in enumerate(ts_states):
        for name, text in json_mutations(base, 18, f"ts{base_i}"):
            with open(os.path.join(state_dir, name + ".json"), "w", encoding="latin-1", errors="replace") as f:
                f.write(text)
            n += 1
    for base_i, base in enumerate(tk_states):
        for name, text in json_mutations(base, 10, f"tk{base_i}"):
            with open(os.path.join(state_dir, name + ".json"), "w", encoding="latin-1", errors="replace") as f:
                f.write(text)
            n += 1
    # Wok Star (added after the others, so that their files stay as they were).
    with open(os.path.join(ROOT, "engine/data/wok_star.reconstructed.yaml")) as f:
        ws_data = f.read()
    ws_files = ws_yaml_mutations(ws_data, 60, "ws")
    for name, text in ws_files:
        with open(os.path.join(data_dir, name + ".yaml"), "w", encoding="latin-1", errors="replace") as f:
            f.write(text)
    files += ws_files
    ws_takes = [(s, ",".join(["0"] * (4 + s % 7))) for s in range(1, 7)]
    for base_i, base in enumerate(saved_states("wok-star", 4, ws_takes)):
        for name, text in json_mutations(base, 10, f"ws{base_i}"):
            with open(os.path.join(state_dir, name + ".json"), "w", encoding="latin-1", errors="replace") as f:
                f.write(text)
            n += 1
    lines = cli_lines()
    with open(os.path.join(HERE, "cli.txt"), "w") as f:
        f.write("# Bad command lines, one per line (split on spaces): each must exit 0 or 2.\n")
        f.write("# Regenerate with make_corpus.py.\n")
        f.write("\n".join(lines) + "\n")
    print(f"{len(files)} data files, {n} states, {len(lines)} command lines")


if __name__ == "__main__":
    sys.exit(main())
