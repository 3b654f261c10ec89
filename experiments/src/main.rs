//! `shifu`: play, benchmark and inspect shifu games.
//!
//! A thin binary over the engine and agents crates. Every subcommand names a game, a player
//! count, parameters (`--set key=value`, `--config file.toml`), and a master seed.

use clap::{CommandFactory, Parser, Subcommand};
use shifu::{
    balance, bench, calibrate, completions, data, dose, duel, encoding, export, fit, mechanics,
    net, play, replay, report, runfile, serve, show, sweep, tournament, train,
};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "shifu",
    version,
    about = "Self-play, benchmarks and analysis for four restaurant board games",
    long_about = "Self-play, benchmarks and analysis for four restaurant board games.\n\n\
        Example: shifu play --players 4 --games 100000 --seed 1"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play many games in parallel and print win rates by seat.
    #[command(
        after_help = "Example:\n  shifu play --players 4 --agents random --games 100000 --seed 1\n  \
        shifu play --players 3 --set start_coins=2,2,2 --set objective_limit=one-total\n  \
        shifu play --games 1000000 --out games.csv --shard 0/4   (after a kill: the same with --resume)"
    )]
    Play(play::PlayArgs),
    /// Seat (first-player) analysis: play, then win rate by seat with Wilson intervals, a
    /// chi-square test against equal chances, balance and mean rank. Same options as `play`.
    #[command(
        after_help = "Example:\n  shifu seats --players 4 --agents greedy,random,random,random --games 100000 --rotate --out seats.csv"
    )]
    Seats(play::PlayArgs),
    /// A grid over parameters with the same seeds in every cell, a seat analysis per cell.
    #[command(
        after_help = "Example:\n  shifu sweep --players 4 --games 20000 --vary start_coins=1,2,2,3/2,2,2,2/0,1,2,3 \\\n      --vary town_objective_cost_scale=0.5,1,1.5"
    )]
    Sweep(sweep::SweepArgs),
    /// Search a parameter space for the fairest settings (or those nearest a target): a race on
    /// common seeds with paired tests at a stated error rate, then the survivors re-tested on
    /// fresh seeds with an equivalence verdict at --margin.
    #[command(
        after_help = "Example:\n  shifu balance --game tofu-shifu --players 4 --agents greedy --search start_coins=0..3\n  \
        shifu balance --players 3 --search start_coins=0..3 --sum start_coins=6 --objective fair --objective distance\n  \
        shifu balance --game wok-star --players 4 --search difficulty=1..4 --objective target:win=0.5"
    )]
    Balance(Box<balance::BalanceArgs>),
    /// Designer analyses on common seeds, each a fitted slope with a 95% interval: a
    /// dose-response curve over one parameter (--vary), or the win share one more unit of a
    /// per-seat parameter buys (--per-seat start_coins=0..3).
    #[command(
        after_help = "Example:\n  shifu dose --players 4 --agents greedy --vary town_objective_cost_scale=0.5..1.5:0.25 --games 2000\n  \
        shifu dose --players 4 --agents greedy --per-seat start_coins=0..3 --vectors 32 --games 500"
    )]
    Dose(dose::DoseArgs),
    /// Calibrate parameters or data against game-length and supply targets: a grid on the same
    /// seeds, per cell the mean rounds, the capped share and how often each supply runs out.
    /// Knobs varied here stack on the card data's own: `builtin:calibrated` (the default) has
    /// its knobs applied already; `--data builtin:reconstructed` varies them from the
    /// reconstruction.
    #[command(
        after_help = "Example:\n  shifu calibrate --players 4 --agents mcts:iters=200 --games 50 \\\n      --vary upgrade_coin_scale=0.5,1 --vary restaurant_objective_dishes=as-data,distinct\n  \
        shifu calibrate --players 4 --agents mcts:iters=1000 --games 100   (the default data against the targets)"
    )]
    Calibrate(calibrate::CalibrateArgs),
    /// The card data a game plays with, after the parameters' reconstruction knobs, as a data
    /// file (JSON for Tofu Shifu) that `--data` accepts.
    #[command(
        after_help = "Example:\n  shifu data --set upgrade_coin_scale=0.5 --set restaurant_objective_dishes=distinct --out cheaper.json\n  \
        shifu play --data cheaper.json --players 4 --agents greedy --games 1000"
    )]
    Data(data::DataArgs),
    /// Every line-up of the agents in every seat order on the same seeds; ratings on the Elo
    /// scale with bootstrap intervals (Bradley-Terry for 2 players, Plackett-Luce for 3-4);
    /// or an SPRT of "A is stronger than B".
    #[command(
        after_help = "Example:\n  shifu tournament --players 2 --agents random,greedy,mcts:iters=50 --seeds 50\n  \
        shifu tournament --players 4 --agents random,greedy,mcts:iters=50 --seeds 20\n  \
        shifu tournament --players 2 --agents mcts:iters=200,greedy --sprt --elo1 100 --seeds 500"
    )]
    Tournament(tournament::TournamentArgs),
    /// Agent A against agent B, A rotated through every seat on the same seeds.
    #[command(
        after_help = "Example:\n  shifu duel --players 2 --agents mcts:iters=100,greedy --seeds 100 --seed 1\n  \
        shifu duel --players 4 --agents greedy,random --seeds 250"
    )]
    Duel(duel::DuelArgs),
    /// What each of a game's named mechanics is worth (restricted play): the agent with one
    /// mechanic forbidden in one seat, rotated through every seat, against unrestricted copies,
    /// paired on seeds with the unrestricted agent in the same seat (cooperative games: every
    /// seat restricted, the team's win rate).
    #[command(
        after_help = "Example:\n  shifu mechanics --game tofu-shifu --players 4 --agent greedy --seeds 200\n  \
        shifu mechanics --game wok-star --players 3 --mechanics hustle,dishwasher --seeds 500"
    )]
    Mechanics(mechanics::MechanicsArgs),
    /// A game's fixed encoding for learners: the observation vector's layout, field by field,
    /// and the number of action indices.
    #[command(
        after_help = "Example:\n  shifu encoding --game tofu-kingdom --players 6\n  \
        shifu encoding --game tofu-shifu --json"
    )]
    Encoding(encoding::EncodingArgs),
    /// Self-play as training data: one row per decision (seat, encoded observation, legal
    /// mask, action taken, final reward per seat) in an .npz archive for numpy, pandas, polars.
    #[command(
        after_help = "Example:\n  shifu export --game tofu-kingdom --players 5 --agents greedy --games 1000 --out tk.npz\n  \
        python3 -c \"import numpy as np; d = np.load('tk.npz'); print(d['observation'].shape)\""
    )]
    Export(export::ExportArgs),
    /// Policy-value networks for the `az:` agent: `init` writes an untrained network for a
    /// game (safetensors), `sample` a fixed batch of its inputs and outputs as JSON.
    #[command(
        after_help = "Example:\n  shifu net init --game tofu-shifu --players 2 --out ts2.safetensors\n  \
        shifu duel --players 2 --agents az:model=ts2.safetensors,iters=0,random --seeds 50\n  \
        shifu net sample --players 2 --model ts2.safetensors --positions 8 --out batch.json"
    )]
    Net(net::NetArgs),
    /// Tune an agent's evaluation weights by self-play with CMA-ES; a challenger replaces the
    /// incumbent only when a duel says so at the stated significance. With `--method
    /// expert-iteration`, train a policy-value network for `az:` by search self-play instead.
    #[command(
        after_help = "Example:\n  shifu train --players 2 --agent greedy --generations 20 --games 64 --out tuned\n  \
        shifu duel --players 2 --agents greedy:weights=tuned/champion.toml,greedy --seeds 500\n  \
        shifu train --method expert-iteration --players 2 --generations 20 --games 32 --out ts2-net\n  \
        shifu duel --players 2 --agents az:model=ts2-net/incumbent.safetensors,iters=0,greedy --seeds 400"
    )]
    Train(train::TrainArgs),
    /// Fit a learned evaluation (a value model of the encoded observation) to an export, on
    /// final outcomes or TD(lambda) returns, for MCTS's depth cut (`leaf=model.json`).
    #[command(
        after_help = "Example:\n  shifu export --game tofu-kingdom --players 5 --agents greedy --games 2000 --out tk.npz\n  \
        shifu fit --game tofu-kingdom --players 5 --input tk.npz --out tk-value.json --target td\n  \
        shifu duel --game tofu-kingdom --players 5 --agents mcts:iters=200,leaf=tk-value.json,mcts:iters=200 --seeds 100"
    )]
    Fit(fit::FitArgs),
    /// Measure playout speed with random agents; prints JSON.
    #[command(after_help = "Example:\n  shifu bench --players 4 --seconds 5")]
    Bench(bench::BenchArgs),
    /// A result file as a markdown summary with an SVG chart, or as an interactive HTML page.
    #[command(
        after_help = "Example:\n  shifu seats --players 4 --games 100000 --out seats.csv && shifu report seats.csv --out seats.md\n  \
        shifu sweep --players 2 --vary start_coins=1,2/2,2 --games 2000 --out sweep.csv && shifu report sweep.csv --html sweep.html\n  \
        shifu balance --players 2 --search start_coins=0..2 --out balance.json && shifu report balance.json --html balance.html"
    )]
    Report(report::ReportArgs),
    /// Merge shard CSV files into the single-run file.
    #[command(after_help = "Example:\n  shifu merge --out all.csv part0.csv part1.csv part2.csv")]
    Merge(MergeArgs),
    /// Show a position and its legal actions: from a seed and actions taken, or a saved state.
    #[command(after_help = "Example:\n  shifu show --seed 7 --take 0,3,1\n  \
        shifu show --seed 7 --take 0 --save-state pos.json\n  shifu show --state pos.json --json")]
    Show(show::ShowArgs),
    /// One game as a self-contained HTML page: the board at every step in SVG, the actions by
    /// name and the agents' scored candidates; from a seed, a play CSV row or a game log.
    #[command(
        after_help = "Example:\n  shifu replay --game wok-star --players 3 --seed 7 --agents greedy --out game.html\n  \
        shifu play --games 100 --log games.jsonl && shifu replay --log games.jsonl --row 42 --seat 2 --out p2.html"
    )]
    Replay(replay::ReplayArgs),
    /// A local web server for playing seats against the bots in a browser: a lobby, tables
    /// with each seat's hidden information kept, every game saved as a game log.
    #[command(
        after_help = "Example:\n  shifu serve                      # then open http://127.0.0.1:8080/\n  \
        shifu serve --bind 127.0.0.1:0 --logs games/ --max-tables 16"
    )]
    Serve(serve::ServeArgs),
    /// Shell completions (bash, zsh, fish, elvish, powershell), on standard output.
    #[command(
        after_help = "Example:\n  shifu completions bash > ~/.local/share/bash-completion/completions/shifu\n  \
        shifu completions zsh > ~/.zfunc/_shifu"
    )]
    Completions(completions::CompletionsArgs),
    /// The manual page (roff, every subcommand's options), on standard output.
    #[command(after_help = "Example:\n  shifu man > shifu.1 && man ./shifu.1")]
    Man,
}

/// Options of `shifu merge`.
#[derive(clap::Args)]
struct MergeArgs {
    /// The merged file.
    #[arg(long)]
    out: std::path::PathBuf,
    /// The shard files, in any order.
    inputs: Vec<std::path::PathBuf>,
    /// Merge even when the shards' manifests show games missing (or are absent).
    #[arg(long)]
    allow_partial: bool,
}

/// Parses the command line. A negative number is taken as an option's value, so `--games -1`
/// is refused naming `--games` rather than as an unknown argument `-1`.
fn parse_cli(args: Vec<std::ffi::OsString>) -> Cli {
    use clap::{CommandFactory, FromArgMatches};
    let cmd = Cli::command().mut_subcommands(|s| {
        s.mut_args(|a| {
            let takes = a.get_action().takes_values();
            a.allow_negative_numbers(takes)
        })
    });
    Cli::from_arg_matches(&cmd.get_matches_from(args)).unwrap_or_else(|e| e.exit())
}

fn main() -> ExitCode {
    // Output piped into `head` and the like ends quietly when the reader stops, as other Unix
    // tools do, instead of panicking on the first print to a closed pipe.
    #[cfg(unix)]
    // SAFETY: restoring the default action of SIGPIPE before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // SHIFU_MAX_GAMES cuts every count of the run (see `limits`), with a note saying so.
    let args = match shifu::limits::cap_args(std::env::args_os().collect()) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let cli = parse_cli(args);
    let result = match cli.command {
        Command::Play(a) => play::run(a),
        Command::Seats(a) => play::run_seats(a),
        Command::Bench(a) => bench::run(a),
        Command::Balance(a) => balance::run(*a),
        Command::Calibrate(a) => calibrate::run(a),
        Command::Data(a) => data::run(a),
        Command::Dose(a) => dose::run(a),
        Command::Duel(a) => duel::run(a),
        Command::Mechanics(a) => mechanics::run(a),
        Command::Encoding(a) => encoding::run(a),
        Command::Export(a) => export::run(a),
        Command::Net(a) => net::run(a),
        Command::Fit(a) => fit::run(a),
        Command::Train(a) => train::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Report(a) => report::run(a),
        Command::Tournament(a) => tournament::run(a),
        Command::Show(a) => show::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Serve(a) => serve::run(a),
        Command::Merge(a) => runfile::merge(&a.out, &a.inputs, a.allow_partial)
            .map(|n| println!("{n} games in {}", a.out.display())),
        Command::Completions(a) => completions::completions(&a, Cli::command()),
        Command::Man => completions::man(Cli::command()),
    };
    if std::env::var_os("SHIFU_PEAK_MEMORY").is_some() {
        // For the tests: the process's peak resident memory (Linux), on stderr.
        if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
            if let Some(line) = status.lines().find(|l| l.starts_with("VmHWM:")) {
                eprintln!("peak memory: {}", line.trim_start_matches("VmHWM:").trim());
            }
        }
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let e = shifu::suggest::with_suggestion(e);
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}
