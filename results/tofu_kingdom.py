#!/usr/bin/env python3
"""Tofu Kingdom findings: runs the shifu binary and writes one section of results/tofu_kingdom.md
per finding, then assembles the file.

    bash results/tofu_kingdom.sh SECTION...     (SECTION: prince answerers deal rules rewards
                                                 questions roles steals length, or all)

Each section is one command. Runs are cached in results/tofu_kingdom/runs/ under a name made from
their command line (a run is a pure function of it), so sections sharing a run (roles, steals and
length read the default all-greedy runs) do not repeat it; `--fresh` reruns. Standard library
only; master seed 2026; intervals are Wilson 95% (rounds within a game are not independent, so
the intervals on per-round rates are a little narrow).
"""
import csv
import hashlib
import math
import os
import re
import statistics
import subprocess
import sys
import time

from ginza_retro_cafe import ci  # the shared Wilson interval of the results scripts

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "tofu_kingdom")
RUNS = os.path.join(OUT, "runs")
SEED = 2026
COUNTS = [3, 4, 5, 6, 7, 8]
KEY = [4, 6, 8]
GAMES = 1000
FINDER = "results/tofu_kingdom_finder.toml"
MCTS_MODEL = ("mcts:iters=500,rollout=greedy,root=paired,belief=model,horizon=round,depth=0,"
              f"confirm=true,z=2.5,top=4,weights={FINDER}")
MCTS_UNIFORM = "mcts:iters=500"


def fitted(players):
    """The weights whose answer model is fitted to the steering answerers at `players`."""
    return f"results/tofu_kingdom_fitted_{players}.toml"


def mcts_fitted(players):
    return MCTS_MODEL.replace(f"weights={FINDER}", f"weights={fitted(players)}")


STEERERS = "results/tofu_kingdom_steerers.toml"
MCTS_STEERERS = MCTS_MODEL.replace(f"weights={FINDER}", f"weights={STEERERS}")


def toml_values(path):
    """The `key = number` lines of a weights file."""
    return {k: float(v) for k, v in re.findall(r"^(\w+) = ([0-9.]+)$", open(path).read(), re.M)}
STYLE = {s: f"greedy:weights=results/tofu_kingdom_answers_{s}.toml" for s in ["model", "uniform"]}
STYLE["steer"] = "greedy"
MCTS_ANSWERER = "mcts:iters=200,rollout=greedy,root=paired,belief=model,horizon=round,depth=0"
FLAT = "results/tofu_kingdom_variants/flat_rewards.yaml"


def diff_ci(k1, n1, k2, n2):
    """Difference of two proportions with a 95% normal interval."""
    p1, p2 = k1 / max(n1, 1), k2 / max(n2, 1)
    se = math.sqrt(p1 * (1 - p1) / max(n1, 1) + p2 * (1 - p2) / max(n2, 1))
    d = p1 - p2
    return f"{d:+.3f} [{d - 1.96 * se:+.3f}, {d + 1.96 * se:+.3f}]"


def differs(k1, n1, k2, n2):
    """Whether two proportions differ beyond a 95% normal interval on their difference."""
    p1, p2 = k1 / max(n1, 1), k2 / max(n2, 1)
    se = math.sqrt(p1 * (1 - p1) / max(n1, 1) + p2 * (1 - p2) / max(n2, 1))
    return abs(p1 - p2) > 1.96 * se


def where(groups):
    """`groups` (label -> player counts) as "above at 4 players, level at 6 and 8", empty
    groups left out."""
    parts = [f"{label} at {listing(ps)}" for label, ps in groups.items() if ps]
    return listing(parts) + " players" if parts else "at no count"


def listing(xs):
    xs = [str(x) for x in xs]
    if not xs:
        return "none"
    return xs[0] if len(xs) == 1 else ", ".join(xs[:-1]) + " and " + xs[-1]


def run(players, agents, games=GAMES, sets=(), data=None, fresh=False):
    """Plays (or reads the cached run of) one configuration; returns the parsed summary."""
    if isinstance(agents, str):
        agents = [agents] * players
    cmd = [SHIFU, "play", "--game", "tofu-kingdom", "--players", str(players),
           "--agents", ",".join(agents), "--games", str(games), "--seed", str(SEED), "--quiet"]
    for s in sets:
        cmd += ["--set", s]
    if data:
        cmd += ["--data", data]
    shown = " ".join(["shifu"] + cmd[1:])
    key = hashlib.sha1(shown.encode()).hexdigest()[:12]
    txt = os.path.join(RUNS, key + ".txt")
    csv_path = os.path.join(RUNS, key + ".csv")
    if fresh or not os.path.exists(txt):
        for p in (csv_path, csv_path + ".manifest.json"):
            if os.path.exists(p):
                os.remove(p)
        t0 = time.time()
        out = subprocess.run(cmd + ["--out", csv_path], check=True, capture_output=True,
                             text=True).stdout
        with open(txt, "w") as f:
            f.write(f"# {shown}\n# {time.time() - t0:.0f} s wall clock\n{out}")
        print(f"  {time.time() - t0:6.0f} s  {shown}", file=sys.stderr)
    text = open(txt).read()
    r = {"cmd": shown, "players": players, "csv": csv_path}
    r["tally"] = {k: float(v) for k, v in re.findall(r"(\w+)=([0-9.e+-]+)",
                                                     re.search(r"^tallies: (.*)$", text, re.M)[1])}
    r["games"] = int(re.search(r"players, (\d+) games", text)[1])
    m = re.search(r"capped ([0-9.]+)%", text)
    r["capped"] = float(m[1]) / 100 if m else 0.0
    r["p"] = re.search(r"p = ([^;]+);", text)[1]
    r["seats"] = [float(x) for x in re.findall(r"^\s+\d+\s+\S+\s+([0-9.]+)\s+\[", text, re.M)]
    r["mean_rounds"] = float(re.search(r"mean rounds ([0-9.]+)", text)[1])
    r["cards"] = re.search(r"by card \(steals included\): (.*)$", text, re.M)[1]
    return r


def t(r, k):
    return r["tally"].get(k, 0.0)


def find(r, seat=None):
    if seat is None:
        return t(r, "finds"), t(r, "princess_dealt")
    return t(r, f"finds_{seat}"), t(r, f"dealt_{seat}")


def capped(r):
    c = r["capped"]
    return f"{100 * c:.1f}%" + (" (WARNING: above 5%)" if c > 0.05 else "")


def symbols(r):
    n = t(r, "rounds")
    return " / ".join(f"{t(r, s + '_rounds') / n:.3f}" for s in ["heart", "crown", "mask"])


def factions(r):
    pts = sum(t(r, s + "_points") for s in ["heart", "crown", "mask"])
    return " / ".join(f"{t(r, s + '_points') / max(pts, 1):.3f}" for s in ["heart", "crown", "mask"])


def with_seat1(first, rest, players):
    return [first] + [rest] * (players - 1)


def table(header, rows):
    out = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    out += ["| " + " | ".join(str(x) for x in row) + " |" for row in rows]
    return "\n".join(out)


def commands(runs):
    return "Runs (each `shifu play ... --out FILE`):\n\n" + "\n".join(
        f"    {r['cmd']}" for r in runs)


def greedy_default(players, fresh=False):
    return run(players, "greedy", fresh=fresh)


# --- sections ---------------------------------------------------------------------------------

def section_prince(fresh):
    rows, runs, above_u, below_g, level_g, above_g, lower, gaps = [], [], [], [], [], [], [], []
    fit_rows, fit_lower = [], []
    fit_cmp = {"above": [], "level": [], "below": []}
    fit_own = {"above": [], "level": [], "below": []}
    fit_model = {"helps": [], "level": [], "hurts": []}
    for p in KEY:
        g = run(p, with_seat1("greedy", "greedy", p), fresh=fresh)
        u = run(p, with_seat1(MCTS_UNIFORM, "greedy", p), games=300, fresh=fresh)
        m = run(p, with_seat1(MCTS_MODEL, "greedy", p), games=600, fresh=fresh)
        runs += [g, u, m]
        if differs(*find(m, 1), *find(u, 1)) and find(m, 1)[0] / find(m, 1)[1] > find(u, 1)[0] / find(u, 1)[1]:
            above_u.append(p)
        dm, dg = find(m, 1)[0] / find(m, 1)[1], find(g, 1)[0] / find(g, 1)[1]
        (level_g if not differs(*find(m, 1), *find(g, 1)) else above_g if dm > dg else below_g).append(p)
        if dm < dg:
            lower.append(p)
            gaps.append(dg - dm)
        rows.append([p, f"{ci(*find(g, 1))} ({g['games']})", f"{ci(*find(u, 1))} ({u['games']})",
                     f"{ci(*find(m, 1))} ({m['games']})", diff_ci(*find(m, 1), *find(g, 1)),
                     f"{1 / (p - 1):.3f}", f"{capped(g)} / {capped(u)} / {capped(m)}"])
        gf = run(p, with_seat1(f"greedy:weights={fitted(p)}", "greedy", p), fresh=fresh)
        mf = run(p, with_seat1(mcts_fitted(p), "greedy", p), games=600, fresh=fresh)
        runs += [gf, mf]
        w = toml_values(os.path.join(HERE, "..", fitted(p)))
        rate = {k: find(r, 1)[0] / find(r, 1)[1] for k, r in [("g", g), ("gf", gf), ("mf", mf)]}
        fit_cmp["above" if differs(*find(mf, 1), *find(g, 1)) and rate["mf"] > rate["g"]
                else "level" if not differs(*find(mf, 1), *find(g, 1)) else "below"].append(p)
        fit_own["above" if differs(*find(mf, 1), *find(gf, 1)) and rate["mf"] > rate["gf"]
                else "level" if not differs(*find(mf, 1), *find(gf, 1)) else "below"].append(p)
        if rate["mf"] < rate["g"]:
            fit_lower.append(p)
        fit_model["helps" if differs(*find(gf, 1), *find(g, 1)) and rate["gf"] > rate["g"]
                  else "level" if not differs(*find(gf, 1), *find(g, 1)) else "hurts"].append(p)
        fit_rows.append([p, f"{w['steer']:.2f} / {w['maybe_truth']:.2f}",
                         f"{ci(*find(g, 1))} ({g['games']})", f"{ci(*find(gf, 1))} ({gf['games']})",
                         f"{ci(*find(mf, 1))} ({mf['games']})", diff_ci(*find(mf, 1), *find(g, 1)),
                         diff_ci(*find(mf, 1), *find(gf, 1)), f"{capped(gf)} / {capped(mf)}"])
    steer_text, steer_runs = steerers_subsection(fresh)
    runs += steer_runs
    return f"""## The MCTS Prince: belief-weighted determinization

Seat 1 plays the named Prince, every other seat greedy (steering answerers). The rate is over the
rounds in which seat 1 was Prince and Princess Tofu was dealt to a player; games in brackets.
- *MCTS, uniform*: `{MCTS_UNIFORM}`: determinizations uniform over the deals consistent with the
  answers, random rollouts (the agent of the first findings).
- *MCTS, model*: `{MCTS_MODEL}`: each determinization drawn from the Prince's exact posterior
  under the greedy Prince's answer model (`belief=model`; a test compares the draws with the
  enumerated posterior), rollouts in which answerers answer by that model and the rollout Prince
  names the seat his posterior favours, cut at the end of the round (`horizon=round`). The root
  compares the greedy Prince's four best-ranked questions and his own choice in the same worlds
  (`root=paired`, `top=4`) and keeps his choice unless another beats it by 2.5 standard errors
  on fresh worlds (`confirm=true`, `z=2.5`). `{FINDER}` sets `find_bonus = 5`: this Prince plays to find her, as the
  greedy one does. Without it he plays for his own points, and at 4 players names a seat his own
  posterior gives 0.29 on average where the greedy Prince's pick has 0.54 (a diagnostic over the
  630 guesses of 60 greedy games, not a run listed here): finding her gives Princess Tofu and the
  Chef 3 points to his 1.

{table(["players", "greedy Prince", "MCTS, uniform (500 iterations)", "MCTS, model (500 iterations)", "model minus greedy", "chance", "capped (greedy / uniform / model)"], rows)}

What it means: weighting the worlds by how likely the answers are makes the search Prince find
her significantly more often than the uniform search at {listing(above_u)} players. Against these
steering answerers he is level with the greedy Prince (the difference inside its interval) at
{listing(level_g)} players, above at {listing(above_g)} and below at {listing(below_g)}.
{("Level is not better: his point estimates are below the greedy Prince's at " + listing(lower) + " players (by " + ", ".join(f"{x:.3f}" for x in gaps) + ").") if not below_g and lower else "" if not below_g else "The belief-weighted search does not yet reach the greedy Prince at every count."}
Why the search does not beat him: each determinization is exact, but a question's value comes
from rollouts in which the rest of the round is played by a simpler Prince (random questions,
guesses from 256 re-weighted deals), and whether he finds her is a yes-or-no outcome, so 500
rollouts cannot tell apart questions whose find chances differ by a few points. The rollouts'
random questions alone are not the cause: in a diagnostic at 8 players (not a run listed here,
not an option of the agent), rollout Princes who ask "where is she?" of a random player, the
greedy Prince's usual question, found her in 0.475 [0.445, 0.504] of rounds (600 games), no
better. Comparing only the greedy Prince's best-ranked questions (`top=4`) and demanding a large
lead (`z=2.5`) appears to be what keeps the search from the deviations that cost finds: the
previous version of this section (every question compared, a lead of one standard error, `z=1`)
had him below the greedy Prince at 6 and 8 players.

### A self-consistent answer model: fitted to the answerers at the table

The greedy Prince's model (`steer = 0.5`, `maybe_truth = 0.5`) is a stated prior, not how the
greedy answerers answer. Fitted to them by maximum likelihood (every answer of 100 to 300
all-greedy games with the deal it was given in, a grid of 0.05 over both values;
`cargo run --release -p shifu-agents --example tk_answer_fit -- PLAYERS GAMES 2026`), the
answerers who may lie steer more often than the prior says, and a "?" card that does not steer
almost never tells the truth. The fitted values are in `results/tofu_kingdom_fitted_PLAYERS.toml`
(with `find_bonus = 5`). *MCTS, fitted model*: the same search as *MCTS, model* with those
weights (`{mcts_fitted(4)}` at 4 players): his determinizations, the answerers of his rollouts,
the questions he compares and his default choice all follow the fitted model. *greedy, fitted
model*: the greedy Prince with the same weights. Every other seat is the default greedy agent.

{table(["players", "fitted steer / maybe_truth", "greedy Prince", "greedy, fitted model", "MCTS, fitted model (500 iterations)", "MCTS fitted minus greedy", "MCTS fitted minus greedy fitted", "capped (greedy fitted / MCTS fitted)"], fit_rows)}

What it means: against the greedy Prince (the prior model), the search Prince with the fitted
model is {where({"above (the difference outside its interval)": fit_cmp["above"], "level": fit_cmp["level"], "below": fit_cmp["below"]})}{"; his point estimate is below at " + listing(fit_lower) + " players" if fit_lower else ""}.
What moves the find rate is the model, not the search: the fitted model against the prior, both
greedy, finds her {where({"more often": fit_model["helps"], "as often": fit_model["level"], "less often": fit_model["hurts"]})}, and against the greedy Prince with the
same fitted model the search Prince is {where({"above": fit_own["above"], "level": fit_own["level"], "below": fit_own["below"]})}.
A better fit to the answers is not always a better Prince: where the fitted model costs finds it
describes the answerers better on average yet misleads him on the answers that decide where she
is, and there the prior is the better model for a Prince at that table. At 8 players the greedy
Prince's find rate is sharp in `steer`: 0.18, 0.43 and 0.50 at `steer` 0.3, 0.4 and 0.5 (a
diagnostic of 1,000 games each, seed 7, not a run listed here) and 0.35 to 0.40 at 0.7, 0.9
and 1.0 (2,000 games each, seed 2026, with `maybe_truth` 0.5), so
no single model of this family serves him better than the prior there. The fit is to these answerers: against answerers who answer otherwise (*Answerer styles*) the fitted model is the
wrong one, so this is what a Prince gains by knowing his table, not a property of the game.

{steer_text}

Card data: greedy find rates do not move with the reconstructed rewards (*Rewards*); the MCTS
Prince's search scores points, so his may. The eye marks the fit rests on are found data.

{commands(runs)}
"""


def steerers_subsection(fresh):
    """The Prince who knows his answerers steer (`answerers = "steer"`): greedy and MCTS against
    the steering table, and the greedy one against answerers who do not steer."""
    rows, other_rows, runs = [], [], []
    cmp = {"above": [], "level": [], "below": []}
    own = {"above": [], "level": [], "below": []}
    rates, costs, lowest = {}, [], 1.0
    for p in KEY:
        g = run(p, with_seat1("greedy", "greedy", p), fresh=fresh)
        gs = run(p, with_seat1(f"greedy:weights={STEERERS}", "greedy", p), fresh=fresh)
        ms = run(p, with_seat1(MCTS_STEERERS, "greedy", p), games=300 if p == 8 else 600,
                 fresh=fresh)
        runs += [gs, ms]
        rate = {k: find(r, 1)[0] / find(r, 1)[1] for k, r in [("g", g), ("gs", gs), ("ms", ms)]}
        rates[p] = rate
        cmp["above" if differs(*find(ms, 1), *find(g, 1)) and rate["ms"] > rate["g"]
            else "level" if not differs(*find(ms, 1), *find(g, 1)) else "below"].append(p)
        own["above" if differs(*find(ms, 1), *find(gs, 1)) and rate["ms"] > rate["gs"]
            else "level" if not differs(*find(ms, 1), *find(gs, 1)) else "below"].append(p)
        rows.append([p, f"{ci(*find(g, 1))} ({g['games']})", f"{ci(*find(gs, 1))} ({gs['games']})",
                     f"{ci(*find(ms, 1))} ({ms['games']})", diff_ci(*find(ms, 1), *find(g, 1)),
                     diff_ci(*find(ms, 1), *find(gs, 1)), f"{capped(gs)} / {capped(ms)}"])
        cells, caps = [p], []
        for style in ["model", "uniform"]:
            base = run(p, with_seat1("greedy", STYLE[style], p), fresh=fresh)
            knows = run(p, with_seat1(f"greedy:weights={STEERERS}", STYLE[style], p), fresh=fresh)
            runs += [base, knows]
            kb, kk = find(base, 1), find(knows, 1)
            costs.append(differs(*kk, *kb) and kk[0] / kk[1] < kb[0] / kb[1])
            lowest = min(lowest, kk[0] / kk[1])
            cells += [f"{ci(*find(base, 1))} ({base['games']})",
                      f"{ci(*find(knows, 1))} ({knows['games']})",
                      diff_ci(*find(knows, 1), *find(base, 1))]
            caps.append(f"{capped(base)} / {capped(knows)}")
        other_rows.append(cells + [" ; ".join(caps)])
    text = f"""### A Prince who knows his answerers steer

The greedy answerers are deterministic: each gives the allowed answer that leans the Prince's
belief (under the stated model) most toward seats whose card makes its own symbol win, so the
answer is a function of the deal and the questions so far. A Prince who knows this rule
(`answerers = "steer"` in `{STEERERS}`) gives, in each deal, the answer such an answerer would
give `1 - slack` of its probability (0.95) and the stated model the rest, and weighs deals,
scores questions and plays his rollouts' answerers by it. His posterior is still exact: each
answer's steering reading is rebuilt from the stated model's posterior at the moment it was
asked (a test checks that this model gives every answer of all-greedy games a positive
probability in the true deal with `slack = 0`, and that the search's draws follow the enumerated
posterior). *greedy, knows steering*: the greedy Prince with these weights. *MCTS, knows
steering*: `{MCTS_STEERERS}` (600 games, 300 at 8 players, where a search takes longest; its
rollouts use 64 particles for the rollout Prince and for the answerers' reading of his belief).
Every other seat is the default greedy agent.

{table(["players", "greedy Prince", "greedy, knows steering", "MCTS, knows steering (500 iterations)", "MCTS knows steering minus greedy", "MCTS minus greedy, both knowing", "capped (greedy knows / MCTS knows)"], rows)}

What it means: against the greedy Prince, the search Prince who knows the answerers steer is
{where({"above (the difference outside its interval)": cmp["above"], "level": cmp["level"], "below": cmp["below"]})}; against the greedy Prince with the same model he is
{where({"above": own["above"], "level": own["level"], "below": own["below"]})}. The gain is the model's: the steering answerers give away the deal to
a Prince who knows their rule ({", ".join(f"{rates[p]['gs']:.2f}" for p in KEY)} found by the greedy Prince who knows it at
{listing(KEY)} players). Where the search falls below the greedy Prince with the same model, a
diagnostic at 8 players (80 games each, seed 7, not runs listed here) points at its questions,
not its guesses: with the root held to the greedy Prince's own question (`top=1`) the search
Prince found her in 142 of 144 rounds, as the greedy one with the model did (145 of 147), against
139 of 143 with `top=4`; with `find_bonus = 50` instead of 5 he found her in 140 of 145, so he
does not trade finds for points. For a designer this says the greedy answerers are not a table to
measure the Prince's job against: a real table's answers are not a known function of the deal.

The same Prince against answerers who do not steer (greedy Prince with the stated model, and
with `answerers = "steer"`, 1,000 games each; answer styles as in *Answerer styles*):

{table(["players", "model answerers: greedy Prince", "model: knows steering", "difference", "uniform answerers: greedy Prince", "uniform: knows steering", "difference", "capped (model: greedy / knows; uniform: greedy / knows)"], other_rows)}

{"Against answerers who do not steer, the same model costs finds at every count and both styles (the difference outside its interval; down to " + f"{lowest:.2f}" + ")" if all(costs) else "Against answerers who do not steer the model does not always cost finds (see the differences)"}: the `slack`
share keeps his posterior defined, not accurate, when the table does not follow the rule he
assumes. This Prince measures how exploitable the greedy answerers are, not how well a Prince
can do at a table of people."""
    return text, runs


def section_answerers(fresh):
    rows, runs, res = [], [], {}
    for p in KEY:
        for prince_name, prince in [("greedy", "greedy"), ("MCTS, model", MCTS_MODEL)]:
            cells = []
            for style in ["steer", "model", "uniform"]:
                games = GAMES if prince == "greedy" else (600 if style == "steer" else 300)
                r = run(p, with_seat1(prince, STYLE[style], p), games=games, fresh=fresh)
                runs.append(r)
                res[(p, prince_name, style)] = find(r, 1)
                cells.append(f"{ci(*find(r, 1))} ({r['games']})")
            if prince == "greedy":
                r = run(p, with_seat1(prince, MCTS_ANSWERER, p), games=150, fresh=fresh)
                runs.append(r)
                cells.append(f"{ci(*find(r, 1))} ({r['games']})")
            else:
                cells.append("not run")
            rows.append([p, prince_name] + cells)

    def rate(k):
        return res[k][0] / max(res[k][1], 1)

    m_level = [p for p in KEY if not differs(*res[(p, 'MCTS, model', 'model')], *res[(p, 'greedy', 'model')])]
    m_below = [p for p in KEY if p not in m_level and rate((p, 'MCTS, model', 'model')) < rate((p, 'greedy', 'model'))]
    return f"""## Answerer styles: how much the find rate depends on matched models

Seat 1 is the Prince named; every other seat answers in one style (and otherwise plays greedy):
*steer* the greedy answerer (the allowed answer that steers the Prince's posterior most toward a
round it scores), *model* an answer drawn from the greedy Prince's answer model
(`answer_style = "model"`), *uniform* uniform among the answers the eye mark allows
(`answer_style = "uniform"`), *MCTS* `{MCTS_ANSWERER}` in every other seat (150 games; run
for the greedy Prince only). Find rates of
seat 1 as Prince over the rounds Princess Tofu was dealt; games in brackets. Games stopped by
the round cap: at most {capped(max(runs, key=lambda r: r["capped"]))} in any run of this table.

{table(["players", "Prince", "steer", "model", "uniform", "MCTS"], rows)}

What it means: the find rate is a property of the answerers as much as of the Prince. The greedy
Prince finds her {", ".join(f"{res[(p, 'greedy', 'steer')][0] / res[(p, 'greedy', 'steer')][1]:.2f}" for p in KEY)}
of the time against steering answerers at {listing(KEY)} players, and
{", ".join(f"{res[(p, 'greedy', 'model')][0] / res[(p, 'greedy', 'model')][1]:.2f}" for p in KEY)}
against answerers who follow his model. With matched models (model answerers) the search Prince
is level with the greedy one at {listing(m_level)} players{(" and below him (the difference outside its interval) at " + listing(m_below) + ": even where his rollouts' model is the answerers' own, the search does not yet reach the greedy Prince") if m_below else ""}.
A designer reading a find rate should ask how the table answers: the more deliberately players
steer, the harder the Prince's job.

Card data: the eye marks are found data; greedy find rates do not move with the reconstructed
rewards (*Rewards*), while the MCTS players, whose searches score points, may depend on them.

{commands(runs)}
"""


def section_deal(fresh):
    rows, runs, diff = [], [], []
    for p in COUNTS:
        pair = []
        for deal in ["all-characters", "blue-orange-lists"]:
            r = run(p, "greedy", sets=() if deal == "all-characters" else (f"deal={deal}",),
                    fresh=fresh)
            runs.append(r)
            pair.append(r)
            rows.append([p, deal, r["games"], ci(*find(r)), symbols(r), factions(r),
                         f"{r['mean_rounds']:.1f}", capped(r)])
        if differs(*find(pair[0]), *find(pair[1])):
            diff.append(p)
    return f"""## Deal: the rulebook's deal against the Blue Orange lists

Every seat greedy, {GAMES} games per cell. `deal = all-characters` (the rulebook: all seven
Character cards, the rest face down in the centre) against `deal = blue-orange-lists` (only the
cards change: the Blue Orange edition's list for the player count, from the data file; every other
rule stays the rulebook's). Winning symbol and points by faction are shares of rounds and of
points (heart / crown / mask); the find rate is over rounds Princess Tofu was dealt.

{table(["players", "deal", "games", "find rate", "winning symbol h / c / m", "points by faction h / c / m", "mean rounds", "capped"], rows)}

What it means: at 7 and 8 players the Blue Orange list is all seven cards, so the two deals are
the same game (identical rows, same seeds). At 3 to 6 players the lists are shorter and always
hold Princess Tofu and Queen Tofu, so the centre is smaller and the mask cards rarer: the find
rate differs between the deals at {listing(diff)} players, mask rounds and mask points nearly
vanish at 5 and 6 players, and games are shorter. Findings made under one deal do not carry over
to the other below 7 players.

Card data: the Blue Orange lists are found; points by faction depend on the reconstructed
rewards, the find rates and winning symbols do not (*Rewards*).

{commands(runs)}
"""


def section_rules(fresh):
    variants = [("default (say-centre, centre is a lie, reached, data)", ()),
                ("centre_answer = free", ("centre_answer=free",)),
                ("centre_is_a_lie = false", ("centre_is_a_lie=false",)),
                ("end_check = after-steals", ("end_check=after-steals",)),
                ("prince_reward = none", ("prince_reward=none",))]
    rows, runs, moved = [], [], {}
    for p in KEY:
        base = None
        for name, sets in variants:
            if p == 8 and "centre" in name and "default" not in name:
                rows.append([p, name, "—", "no card lies in the centre at 8 players", "", "", "", ""])
                continue
            r = run(p, "greedy", sets=sets, fresh=fresh)
            runs.append(r)
            base = base or r
            if r is not base and differs(*find(r), *find(base)):
                moved.setdefault(sets[0].split("=")[0], []).append(p)
            rows.append([p, name, r["games"], ci(*find(r)), symbols(r), factions(r),
                         f"{r['mean_rounds']:.1f}", capped(r)])
    moved_text = "; ".join(f"`{k}` at {listing(v)} players" for k, v in moved.items()) or "none"
    return f"""## Open rules: the centre answer, the end check and Prince Mochi's reward

Every seat greedy, {GAMES} games per cell, one option changed from the default at a time (README
table). Columns as in *Deal*.

{table(["players", "rules", "games", "find rate", "winning symbol h / c / m", "points by faction h / c / m", "mean rounds", "capped"], rows)}

What it means: the find rate moves beyond its interval under: {moved_text}; elsewhere it does
not depend on the reading. The centre options change what an answer can say when Princess Tofu is
not dealt; the end check changes only games in which a steal takes a winning score back below 7
(see *Steals*); Prince Mochi's reward moves points to the heart faction.

Card data: points by faction and length depend on the reconstructed rewards, the find rates
and winning symbols do not (*Rewards*).

{commands(runs)}
"""


def section_rewards(fresh):
    rows, runs, moved = [], [], []
    for p in KEY:
        pair = []
        for name, data in [("reconstructed", None), ("flat: 1 bean per card", FLAT)]:
            r = run(p, "greedy", data=data, fresh=fresh)
            runs.append(r)
            pair.append(r)
            rows.append([p, name, r["games"], ci(*find(r)), symbols(r), factions(r),
                         r["p"], f"{r['mean_rounds']:.1f}", capped(r)])
        if differs(*find(pair[0]), *find(pair[1])):
            moved.append(p)
    find_text = (f"the find rate changes with the rewards at {listing(moved)} players (greedy "
                 "answerers steer toward the rounds they score, so what a round pays changes how "
                 "they answer)." if moved else
                 "the find rate and the winning-symbol shares do not change with the rewards at "
                 "any count. They hold whatever the unknown rewards are for these agents, whose "
                 "questions and answers do not weigh the rewards (players who did might steer "
                 "differently).")
    unequal = [r["players"] for r in runs if float(r["p"]) < 0.01]
    unequal_names = sorted({"flat" if "--data" in r["cmd"] else "reconstructed" for r in runs
                            if float(r["p"]) < 0.01})
    return f"""## Rewards: the reconstructed rewards against a flat 1 bean per card

Which card gives 1 bean, 2 beans or a steal is reconstructed (../shared/data/README.md). Here the
same games with every card (Prince Mochi's included) worth 1 bean and no steals (`{FLAT}`).
Every seat greedy, {GAMES} games per cell; chi-square p tests equal win shares by seat.

{table(["players", "rewards", "games", "find rate", "winning symbol h / c / m", "points by faction h / c / m", "seat chi-square p", "mean rounds", "capped"], rows)}

What it means: {find_text} The points by faction and the game length move with the rewards, and
so does the seat balance: the chi-square test of equal seat win shares is below 0.01 at
{listing(unequal)} players with {listing(unequal_names)} rewards. Every role finding (*Roles*,
*Steals*) depends on the reconstruction; a finding that holds in both rows holds whatever the
unknown rewards are.

{commands(runs)}
"""


def section_questions(fresh):
    variants = [("all questions (the rule)", ()),
                ("no \"where is Princess Tofu?\"", ("ask_where=false",)),
                ("no \"which card do you hold?\"", ("ask_own_card=false",)),
                ("no \"which card does player X hold?\"", ("ask_other_card=false",)),
                ("no extra question", ("extra_question=false",))]
    rows, runs, worst = [], [], []
    for p in KEY:
        base = None
        for name, sets in variants:
            r = run(p, "greedy", sets=sets, fresh=fresh)
            runs.append(r)
            base = base or r
            asked = t(r, "questions_where") + t(r, "questions_own_card") + t(r, "questions_other_card")
            mix = " / ".join(f"{t(r, k) / max(asked, 1):.2f}" for k in
                             ["questions_where", "questions_own_card", "questions_other_card"])
            rows.append([p, name, r["games"], ci(*find(r)),
                         "" if r is base else diff_ci(*find(r), *find(base)), mix, capped(r)])
            if r is not base:
                worst.append((find(r)[0] / find(r)[1] - find(base)[0] / find(base)[1], name, p,
                              differs(*find(r), *find(base))))
    return f"""## Questions: the value of each question type and of the extra question

Every seat greedy (the greedy Prince asks the question expected to leave the least uncertainty
about where she is), {GAMES} games per cell. Each row takes one question type away
(`ask_where`, `ask_own_card`, `ask_other_card`) or the extra question (`extra_question`); these
are variants for analysis, not rule readings. The mix is the share of questions asked by type
(where / own card / another's card).

{table(["players", "questions", "games", "find rate", "change", "mix w / o / a", "capped"], rows)}

What it means: a question type is worth the find rate lost without it. Significant losses (the
interval below zero): {listing(f"{n} at {p} players ({d:+.3f})" for d, n, p, sig in sorted(worst) if sig and d < 0)}.
Significant gains: {listing(f"{n} at {p} players ({d:+.3f})" for d, n, p, sig in sorted(worst, reverse=True) if sig and d > 0)}.
A gain means the greedy Prince's own choice hurts him: he asks "where is Princess Tofu?" most
(his answer model expects it to tell him most), yet below 8 players he does better when made to
ask about cards: steering answerers appear to mislead him most easily with it.
The extra question is worth most where the table is largest.

Card data: find rates do not move with the reconstructed rewards for these agents (*Rewards*).

{commands(runs)}
"""


def card_rates(r):
    return dict((m[0], (float(m[1]), float(m[2]))) for m in
                re.findall(r"(\w+) ([0-9.]+) \((\d+) rounds\)", r["cards"]))


def section_roles(fresh):
    runs = [greedy_default(p, fresh) for p in COUNTS]
    ids = list(card_rates(runs[0]).keys())
    rows, handicap, strongest = [], [], []
    for r in runs:
        c = card_rates(r)
        chars = [v for k, v in c.items() if k != "prince_mochi"]
        mean_char = sum(a * n for a, n in chars) / sum(n for _, n in chars)
        ratio = c["prince_mochi"][0] / mean_char
        if ratio < 1:
            handicap.append(r["players"])
        top = max((k for k in c if k != "prince_mochi"), key=lambda k: c[k][0])
        strongest.append(f"{top} at {r['players']}")
        rows.append([r["players"]] + [f"{c[i][0]:.2f}" if i in c else "—" for i in ids]
                    + [f"{mean_char:.2f}", f"{ratio:.2f}", capped(r)])
    others = [r["players"] for r in runs if r["players"] not in handicap]
    not_handicap = (f"at {listing(others)} players a round as Prince earns more (there he finds "
                    "her often and her holder's neighbours score little)." if others else
                    "it is one at every count.")
    by_card = {}
    for item in strongest:
        card, count = item.split(" at ")
        by_card.setdefault(card, []).append(count)
    strongest_text = "; ".join(f"{card} at {listing(v)}" for card, v in by_card.items())
    return f"""## Roles: expected points per card and for the Prince

Every seat greedy, {GAMES} games per player count. Points gained per round by the seat holding
each card (beans and steals; points stolen from a seat are not charged to its card), and for
Prince Mochi per round as Prince (his own reward, `prince_reward = data`). The last columns: the
mean over the Character cards held, and the Prince's points per round as a share of it.

{table(["players"] + ids + ["mean Character card", "Prince / mean", "capped"], rows)}

What it means: a round as Prince earns less than a round holding a Character card at
{listing(handicap)} players, so there the Prince role is a handicap and a seat's chances depend
on how many rounds it spends as Prince; {not_handicap} The strongest card per round, by player
count: {strongest_text}. These per-card values depend on the reconstructed rewards (*Rewards*).

{commands(runs)}
"""


def section_steals(fresh):
    rows, runs, dec, king = [], [], [], []
    for p in COUNTS:
        r = greedy_default(p, fresh)
        runs.append(r)
        n = t(r, "finished_games")
        dec.append(t(r, "steal_decided") / n)
        king.append(t(r, "kingmade") / n)
        rows.append([p, int(n), ci(t(r, "steal_decided"), n), ci(t(r, "kingmade"), n),
                     f"{t(r, 'robbed_below') / r['games']:.3f}", capped(r)])
    return f"""## Steals: how often a steal decides the winner

Every seat greedy, {GAMES} games per player count (games ended by the rules). *Decides*: undoing
the last round's steals would change who wins. *Kingmaking*: it decides and a stealer of that
round is not among the winners (it chose who wins). *Robbed below*: rounds per game in which a
seat reached 7 and a steal took it back below (the game still ends under `end_check =
reached`).

{table(["players", "games", "last round's steals decide the winner", "kingmaking", "robbed below 7 per game", "capped"], rows)}

What it means: the steal rewards (Tofu Minister, Pudding Spy; reconstructed) settle the game in
its last round in {min(dec):.0%} (at {COUNTS[dec.index(min(dec))]} players) to {max(dec):.0%} (at {COUNTS[dec.index(max(dec))]}) of games, and
kingmaking (a player who does not win picks who does) happens in up to {max(king):.1%} of games.
Both depend on the reconstructed rewards: with a flat 1 bean per card there are no steals.

{commands(runs)}
"""


def section_length(fresh):
    rows, runs, fits, long = [], [], [], []
    for p in COUNTS:
        r = greedy_default(p, fresh)
        runs.append(r)
        with open(r["csv"]) as f:
            rounds = sorted(int(row["rounds"]) for row in csv.DictReader(f)
                            if row["capped"] == "false")
        q = statistics.quantiles(rounds, n=10)
        per_round = (p * 20 + 30) / 60
        minutes = [x * per_round for x in rounds]
        inside = sum(10 <= m <= 30 for m in minutes) / len(minutes)
        (fits if inside >= 0.9 else long if inside < 0.5 else []).append(p)
        rows.append([p, len(rounds), f"{statistics.mean(rounds):.1f}", f"{statistics.median(rounds):.0f}",
                     f"{q[0]:.0f}–{q[-1]:.0f}", f"{per_round:.1f}",
                     f"{statistics.median(minutes):.0f}", f"{q[0] * per_round:.0f}–{q[-1] * per_round:.0f}",
                     f"{inside:.2f}", capped(r)])
    return f"""## Length: rounds per game against the box's 10–30 minutes

Every seat greedy, {GAMES} games per player count (games ended by the rules; per-game rounds from
the CSV). Assumed time per round: 20 seconds per question and answer (one per player, the extra
one included) and 30 seconds to name a seat, score and pass the card: (20 × players + 30) s. The
assumption is ours, not the box's.

{table(["players", "games", "mean rounds", "median", "10th–90th percentile", "minutes per round", "median minutes", "10th–90th percentile minutes", "share within 10–30 min", "capped"], rows)}

What it means: at that pace at least 90% of games fit the box's 10–30 minutes at {listing(fits)}
players; at {listing(long)} players most run past 30 minutes, because rounds hold more questions
and the rounds per game do not fall. A designer who wants the box's length at large counts needs
a lower target than 7 points or fewer questions per round. Card data: the length depends on the
reconstructed rewards (flat rewards lengthen games, *Rewards*).

{commands(runs)}
"""


SECTIONS = {"prince": section_prince, "answerers": section_answerers, "deal": section_deal,
            "rules": section_rules, "rewards": section_rewards, "questions": section_questions,
            "roles": section_roles, "steals": section_steals, "length": section_length}

HEADER = """# Tofu Kingdom findings

Each section below is regenerated by its own command, `bash results/tofu_kingdom.sh SECTION`
(or `all`), and lists the `shifu play` runs it read. Master seed 2026; default rules (README
table) unless a row says otherwise; the card data is the reconstruction in
engine/data/tofu_kingdom_cards.reconstructed.yaml, whose eyes, factions and symbols are found and
whose rewards are a PROPOSAL (*Rewards* shows which findings depend on them). Intervals are
Wilson 95%; rounds within a game are not independent, so the intervals on per-round rates are a
little narrow. Every game ended by the rules unless a *capped* column says otherwise.
"""


def assemble():
    parts = [HEADER]
    for name in SECTIONS:
        path = os.path.join(OUT, name + ".md")
        if os.path.exists(path):
            parts.append(open(path).read())
    with open(os.path.join(HERE, "tofu_kingdom.md"), "w") as f:
        f.write("\n".join(parts))


def main():
    global SHIFU
    args = sys.argv[1:]
    SHIFU = args.pop(0)
    fresh = "--fresh" in args
    names = [a for a in args if a != "--fresh"] or ["all"]
    if names == ["all"]:
        names = list(SECTIONS)
    unknown = [n for n in names if n not in SECTIONS]
    if unknown:
        sys.exit(f"unknown section {unknown}; sections: {' '.join(SECTIONS)} or all")
    os.makedirs(RUNS, exist_ok=True)
    for name in names:
        print(f"section {name}", file=sys.stderr)
        text = SECTIONS[name](fresh)
        with open(os.path.join(OUT, name + ".md"), "w") as f:
            f.write(text)
    assemble()


if __name__ == "__main__":
    main()
