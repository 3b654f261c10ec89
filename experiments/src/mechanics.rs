//! `shifu mechanics`: what each of a game's named mechanics is worth, by restricted play (Jaffe
//! et al., AIIDE 2012). The agent with one mechanic forbidden (`forbid=NAME`) plays one seat
//! against unrestricted copies of itself, rotated through every seat on shared seeds; each seed
//! is also played with no seat restricted, so that the restricted seat's win share is compared
//! with the unrestricted agent's in the same seat on the same seed (common random numbers). In a
//! cooperative game (Wok Star) every seat is restricted, and the team's win rate is compared.

use crate::games::Playable;
use crate::runner::progress_bar;
use crate::setup::GameArgs;
use crate::stats::capped_share;
use anyhow::{bail, Result};
use clap::Args;
use rayon::prelude::*;
use serde::Serialize;
use shifu_agents::{build_agent, check_agent, game_rng, game_seed, parse_spec, Agent, Decision};
use shifu_engine::{Mechanics, MAX_SEATS};

/// Options of `shifu mechanics`.
#[derive(Args, Debug)]
pub struct MechanicsArgs {
    #[command(flatten)]
    game: GameArgs,
    /// The agent spec every seat plays; the measured seat adds `forbid=NAME` to it.
    #[arg(long, default_value = "greedy")]
    agent: String,
    /// The mechanics to measure, comma-separated (default: all the game's).
    #[arg(long, value_delimiter = ',')]
    mechanics: Vec<String>,
    /// Seeds; each is played once unrestricted and once per mechanic and restricted seat.
    #[arg(long, default_value_t = 200)]
    seeds: u64,
    /// Master seed; seed i is splitmix64(seed ^ splitmix64(i)).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: all cores).
    #[arg(long, value_parser = crate::setup::parse_threads)]
    threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    quiet: bool,
    /// Print the result as JSON instead of text.
    #[arg(long)]
    json: bool,
}

/// One mechanic's worth.
#[derive(Debug, Clone, Serialize)]
pub struct MechanicWorth {
    /// The mechanic's name.
    pub mechanic: String,
    /// Times it is used per unrestricted game, all seats together.
    pub uses_per_game: f64,
    /// Times the restricted seat (every seat, cooperative) still used it per restricted game,
    /// because every legal action was of it.
    pub forced_per_game: f64,
    /// The restricted seat's win share (cooperative: the team's win rate with every seat
    /// restricted).
    pub restricted: f64,
    /// The unrestricted agent's win share in the same seats on the same seeds (cooperative:
    /// the team's win rate).
    pub unrestricted: f64,
    /// `restricted - unrestricted`, the mean over seeds of the paired difference.
    pub difference: f64,
    /// Its 95% interval (normal approximation over seeds): low end.
    pub ci_low: f64,
    /// High end.
    pub ci_high: f64,
}

/// What `shifu mechanics` finds.
#[derive(Debug, Clone, Serialize)]
pub struct MechanicsResult {
    /// The game.
    pub game: String,
    /// Seats at the table.
    pub players: usize,
    /// The agent spec.
    pub agent: String,
    /// Whether the game is cooperative (every seat restricted, the team's win rate compared).
    pub cooperative: bool,
    /// Seeds played.
    pub seeds: u64,
    /// Games played in all.
    pub games: u64,
    /// The master seed.
    pub master_seed: u64,
    /// Games the round cap stopped.
    pub capped: u64,
    /// The round cap.
    pub max_rounds: u32,
    /// One row per mechanic, in the game's order.
    pub mechanics: Vec<MechanicWorth>,
}

/// One game of the design: unrestricted (`mechanic` none) or with `mechanic` forbidden to
/// `seat` (to every seat in a cooperative game).
#[derive(Debug, Clone, Copy)]
struct Job {
    index: u64,
    mechanic: Option<usize>,
    seat: usize,
}

/// What one game gives: each seat's win share, how often each seat used each mechanic, and
/// whether the cap stopped it.
struct Played {
    shares: [f64; MAX_SEATS],
    team_won: bool,
    uses: [[u32; 64]; MAX_SEATS],
    capped: bool,
}

pub fn run(args: MechanicsArgs) -> Result<()> {
    let result = crate::with_game!(args.game.game.as_str(), G => run_game::<G>(&args))?;
    crate::render::emit(&result, args.json)
}

/// The game, the mechanics measured (indices) and the restricted spec of each.
fn prepare<G: Playable>(args: &MechanicsArgs) -> Result<(G, Vec<usize>, Vec<String>)> {
    let game: G = args.game.build()?;
    let known = G::MECHANICS;
    if known.is_empty() {
        bail!("{} declares no mechanics to forbid", G::INFO.name);
    }
    if args.seeds == 0 {
        bail!("--seeds must be at least 1");
    }
    let (_, opts) = parse_spec(&args.agent)?;
    if opts.iter().any(|(k, _)| k == "forbid") {
        bail!(
            "--agent `{}`: leave forbid= out; `shifu mechanics` adds it",
            args.agent
        );
    }
    check_agent(&game, &args.agent)?;
    let mut chosen = Vec::new();
    for name in &args.mechanics {
        match G::mechanic_index(name.trim()) {
            Some(i) if !chosen.contains(&i) => chosen.push(i),
            Some(_) => bail!("--mechanics names `{name}` twice"),
            None => bail!(
                "--mechanics: unknown mechanic `{name}`; {}'s mechanics: {}",
                G::INFO.name,
                known.join(", ")
            ),
        }
    }
    if chosen.is_empty() {
        chosen = (0..known.len()).collect();
    }
    let sep = if args.agent.contains(':') { ',' } else { ':' };
    let specs = chosen
        .iter()
        .map(|&m| format!("{}{sep}forbid={}", args.agent, known[m]))
        .collect();
    Ok((game, chosen, specs))
}

/// Plays one game of the design, counting each seat's uses of each mechanic (classified on the
/// state the action is taken in); the same game as `play_game` with these agents.
fn play_one<G: Playable>(
    game: &G,
    agents: &mut [Box<dyn Agent<G>>],
    seed: u64,
    legal: &mut Vec<G::Action>,
) -> Played {
    let mut rng = game_rng(seed);
    let mut state = game.new_state(&mut rng);
    let mut uses = [[0u32; 64]; MAX_SEATS];
    while let Some(seat) = game.to_move(&state) {
        game.legal_actions(&state, legal);
        let a = agents[seat as usize].choose(&Decision::new(game, &state, seat, legal));
        if let Some(m) = game.mechanic(&state, a) {
            uses[seat as usize][m.min(63)] += 1;
        }
        game.apply(&mut state, a, &mut rng);
    }
    let o = game.outcome(&state).expect("finished");
    let mut shares = [0.0; MAX_SEATS];
    for (s, x) in shares.iter_mut().enumerate().take(game.num_seats()) {
        *x = o.win_share(s as u8);
    }
    Played {
        shares,
        team_won: o.winners != 0,
        uses,
        capped: o.capped,
    }
}

fn run_game<G: Playable>(args: &MechanicsArgs) -> Result<MechanicsResult> {
    let (game, chosen, specs) = prepare::<G>(args)?;
    let n = game.num_seats();
    let cooperative = G::INFO.cooperative;
    let restricted_seats = if cooperative { 1 } else { n };
    let mut jobs = Vec::new();
    for index in 0..args.seeds {
        jobs.push(Job {
            index,
            mechanic: None,
            seat: 0,
        });
        for k in 0..chosen.len() {
            for seat in 0..restricted_seats {
                jobs.push(Job {
                    index,
                    mechanic: Some(k),
                    seat,
                });
            }
        }
    }
    let bar = progress_bar(jobs.len() as u64, args.quiet);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.unwrap_or(0))
        .build()?;
    let played: Vec<Played> = pool.install(|| {
        jobs.par_iter()
            .map_init(Vec::new, |buf, job| {
                let seed = game_seed(args.seed, job.index);
                let mut agents: Vec<Box<dyn Agent<G>>> = (0..n)
                    .map(|s| {
                        let spec = match job.mechanic {
                            Some(k) if cooperative || s == job.seat => &specs[k],
                            _ => &args.agent,
                        };
                        build_agent(spec, seed, s as u8).expect("checked")
                    })
                    .collect();
                let p = play_one(&game, &mut agents, seed, buf);
                bar.inc(1);
                p
            })
            .collect()
    });
    bar.finish_and_clear();
    let per_seed = 1 + chosen.len() * restricted_seats;
    let rows = chosen
        .iter()
        .enumerate()
        .map(|(k, &m)| worth::<G>(&played, per_seed, k, m, n, cooperative))
        .collect();
    Ok(MechanicsResult {
        game: G::INFO.name.to_string(),
        players: n,
        agent: args.agent.clone(),
        cooperative,
        seeds: args.seeds,
        games: played.len() as u64,
        master_seed: args.seed,
        capped: played.iter().filter(|p| p.capped).count() as u64,
        max_rounds: game.max_rounds(),
        mechanics: rows,
    })
}

/// Mechanic `m` (the `k`th measured) from the games, `per_seed` to a seed: the unrestricted
/// game first, then `restricted_seats` games per measured mechanic.
fn worth<G: Mechanics>(
    played: &[Played],
    per_seed: usize,
    k: usize,
    m: usize,
    n: usize,
    cooperative: bool,
) -> MechanicWorth {
    let seats = if cooperative { 1 } else { n };
    let mut diffs = Vec::new();
    let (mut restricted, mut unrestricted, mut uses, mut forced) = (0.0, 0.0, 0.0, 0.0);
    for seed in played.chunks(per_seed) {
        let base = &seed[0];
        uses += (0..n).map(|s| f64::from(base.uses[s][m])).sum::<f64>();
        let mut d = 0.0;
        for seat in 0..seats {
            let g = &seed[1 + k * seats + seat];
            let (r, u) = if cooperative {
                forced += (0..n).map(|s| f64::from(g.uses[s][m])).sum::<f64>();
                (
                    f64::from(u8::from(g.team_won)),
                    f64::from(u8::from(base.team_won)),
                )
            } else {
                forced += f64::from(g.uses[seat][m]);
                (g.shares[seat], base.shares[seat])
            };
            restricted += r;
            unrestricted += u;
            d += r - u;
        }
        diffs.push(d / seats as f64);
    }
    let seeds = diffs.len() as f64;
    let (mean, ci_low, ci_high) = crate::stats::mean_interval(&diffs);
    MechanicWorth {
        mechanic: G::MECHANICS[m].to_string(),
        uses_per_game: uses / seeds,
        forced_per_game: forced / (seeds * seats as f64),
        restricted: restricted / (seeds * seats as f64),
        unrestricted: unrestricted / (seeds * seats as f64),
        difference: mean,
        ci_low,
        ci_high,
    }
}

impl std::fmt::Display for MechanicsResult {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.players;
        writeln!(
            f,
            "What each mechanic is worth: {}, {n} players, agent {}; {} seeds, {} games (master seed {})",
            self.game, self.agent, self.seeds, self.games, self.master_seed
        )?;
        if self.cooperative {
            writeln!(
                f,
                "Every seat restricted: the team's win rate against the unrestricted team's on the same seeds."
            )?;
        } else {
            writeln!(
                f,
                "One seat restricted (rotated through all {n}) against unrestricted copies: its win share \
                 against the unrestricted agent's in the same seat on the same seeds."
            )?;
        }
        let what = if self.cooperative {
            "team win"
        } else {
            "win share"
        };
        writeln!(
            f,
            "{:<18} {:>9} {:>11} {:>11} {:>13} {:>10}  95% CI",
            "mechanic", "uses/game", "forced/game", what, "unrestricted", "difference"
        )?;
        for r in &self.mechanics {
            writeln!(
                f,
                "{:<18} {:>9.2} {:>11.2} {:>11.4} {:>13.4} {:>+10.4}  [{:+.4}, {:+.4}]",
                r.mechanic,
                r.uses_per_game,
                r.forced_per_game,
                r.restricted,
                r.unrestricted,
                r.difference,
                r.ci_low,
                r.ci_high
            )?;
        }
        // A mechanic the unrestricted agent never used: forbidding it removes only moves it never
        // chose, yet the legal lists, and so the agent's tie-breaks, change; the difference then
        // measures that perturbation, not the mechanic.
        let unused: Vec<&str> = self
            .mechanics
            .iter()
            .filter(|r| r.uses_per_game == 0.0)
            .map(|r| r.mechanic.as_str())
            .collect();
        if !unused.is_empty() {
            writeln!(
                f,
                "never used unrestricted: {}; their rows measure how forbidding unchosen moves perturbs the agent's play, not the mechanics' worth",
                unused.join(", ")
            )?;
        }
        writeln!(
            f,
            "{}",
            capped_share(self.capped, self.games, self.max_rounds)
        )
    }
}
