//! `shifu serve`: a local web server for playing seats against the bots in a browser. A lobby
//! page creates a table (the game, the players, which seats are people's, each bot's agent
//! spec, the seed); each human seat gets a secret token, and the table page shows that seat's
//! board (drawn by the replay page's board code), its legal actions as buttons and the result.
//!
//! Built on axum over tokio ([`api`]); a table ([`table`]) runs its bots off the async
//! executor, each move cut at `--move-ms`. Each finished game is written as a game log
//! (`DIR/<table>.jsonl`, one line) that `shifu replay --log FILE --row 0` opens; a game left
//! unfinished (idle past `--idle-minutes`, or open when the server stops) is written as
//! `DIR/<table>.abandoned.jsonl`, its result empty.

pub mod api;
pub mod pages;
pub mod table;

use anyhow::{bail, Context, Result};
use clap::Args;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Options of `shifu serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The address and port to listen on (port 0: any free port; the bound address is printed
    /// on standard output). Another address than a loopback one prints a warning.
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "ADDR:PORT")]
    pub bind: String,
    /// The folder for the game logs (created when missing).
    #[arg(long, default_value = "shifu-games", value_name = "DIR")]
    pub logs: PathBuf,
    /// Most tables held at once, finished ones included (the oldest finished table makes room
    /// for a new one; when none is finished a new table is refused).
    #[arg(long, default_value_t = 64, value_name = "N")]
    pub max_tables: usize,
    /// Longest time one bot move may take, in milliseconds (a search stops there).
    #[arg(long, default_value_t = 5000, value_name = "MS")]
    pub move_ms: u64,
    /// A table nobody has touched for this many minutes is abandoned (and logged as such) when
    /// room is needed.
    #[arg(long, default_value_t = 60, value_name = "MINUTES")]
    pub idle_minutes: u64,
}

/// The server's settings.
#[derive(Debug, Clone)]
pub struct Config {
    /// The folder for the game logs.
    pub logs: PathBuf,
    /// Most tables held at once.
    pub max_tables: usize,
    /// Longest time of one bot move.
    pub per_move: Duration,
    /// Idle time after which a table may be abandoned.
    pub idle: Duration,
}

/// `shifu serve`: listens until stopped (Ctrl-C or SIGTERM), then logs the unfinished games.
pub fn run(args: ServeArgs) -> Result<()> {
    let addr: SocketAddr = args.bind.parse().with_context(|| {
        format!(
            "--bind `{}`: give an IP address and port, for example 127.0.0.1:8080",
            args.bind
        )
    })?;
    if args.max_tables == 0 {
        bail!("--max-tables must be at least 1");
    }
    if args.move_ms == 0 {
        bail!("--move-ms must be at least 1");
    }
    if !addr.ip().is_loopback() {
        eprintln!(
            "warning: --bind {addr} is not a loopback address: anyone who can reach it can create tables and use this machine's CPU; shifu serve has no accounts or TLS"
        );
    }
    std::fs::create_dir_all(&args.logs)
        .with_context(|| format!("--logs {}: cannot create the folder", args.logs.display()))?;
    let config = Config {
        logs: args.logs.clone(),
        max_tables: args.max_tables,
        per_move: Duration::from_millis(args.move_ms),
        idle: Duration::from_secs(args.idle_minutes.saturating_mul(60)),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the server's runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .with_context(|| format!("--bind {addr}: cannot listen there"))?;
        let local = listener.local_addr()?;
        let server = Arc::new(api::Server::new(config));
        println!(
            "shifu serve: listening on http://{local}/ (game logs in {})",
            args.logs.display()
        );
        std::io::stdout().flush()?;
        axum::serve(listener, api::router(server.clone()))
            .with_graceful_shutdown(stopped())
            .await
            .context("serving")?;
        let n = server.abandon_all().await;
        eprintln!("shifu serve: stopped; {n} unfinished games logged as abandoned");
        Ok(())
    })
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM.
async fn stopped() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
