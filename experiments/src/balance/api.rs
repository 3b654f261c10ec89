//! `shifu balance` as a library call, for the Python module's `shifu.balance`: the options as the
//! command line spells them, parsed by the command's own parser (so the defaults and the
//! messages are the command's), and the result as the JSON `shifu balance --json` prints.

use super::BalanceArgs;
use anyhow::Result;
use clap::Parser;

/// The command line of `shifu balance`, after the word `balance`.
#[derive(Parser, Debug)]
#[command(name = "shifu balance", no_binary_name = true)]
struct Line {
    #[command(flatten)]
    args: BalanceArgs,
}

/// Parses `balance`'s options (`argv` without the program and command names), with the command's
/// defaults and its messages.
pub fn parse(argv: &[String]) -> Result<BalanceArgs> {
    Line::try_parse_from(argv)
        .map(|l| l.args)
        .map_err(|e| anyhow::anyhow!("{}", e.render().to_string().trim_end()))
}

/// Runs the balance `args` describe without printing or writing files (the progress file aside,
/// with `--out`), and returns the document `shifu balance --json` prints, as compact JSON. An
/// error carries the command's message.
pub fn run_json(args: &BalanceArgs) -> Result<String> {
    let run = crate::with_game!(args.game.game.as_str(), G => super::run_game::<G>(args));
    let (result, _) = run.map_err(crate::suggest::with_suggestion)?;
    Ok(serde_json::to_string(&result)?)
}
