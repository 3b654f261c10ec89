//! `shifu completions SHELL` and `shifu man`: shell completions and the manual page, generated
//! by clap from the command's own definition (so they list every subcommand and option).

use anyhow::{Context, Result};
use clap::Args;
use clap_complete::Shell;
use std::io::Write;

/// Options of `shifu completions`.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, elvish or powershell.
    shell: Shell,
}

/// Writes the completion script for `args.shell` of the command `cmd` to standard output.
pub fn completions(args: &CompletionsArgs, mut cmd: clap::Command) -> Result<()> {
    let name = cmd.get_name().to_string();
    let mut out = std::io::stdout().lock();
    clap_complete::generate(args.shell, &mut cmd, name, &mut out);
    out.flush()
        .context("cannot write the completions to standard output")
}

/// Writes the manual page (roff) of the command `cmd`, with a section for each subcommand, to
/// standard output.
pub fn man(mut cmd: clap::Command) -> Result<()> {
    // Built, so each subcommand knows its full name ("shifu fit") for its synopsis.
    cmd.build();
    let mut page = Vec::new();
    let man = clap_mangen::Man::new(cmd.clone());
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    man.render_subcommands_section(&mut page)?;
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("{} {}", cmd.get_name(), sub.get_name());
        writeln!(page, ".SH \"{}\"", name.to_uppercase())?;
        let sub_man = clap_mangen::Man::new(sub.clone());
        sub_man.render_synopsis_section(&mut page)?;
        sub_man.render_description_section(&mut page)?;
        sub_man.render_options_section(&mut page)?;
    }
    man.render_version_section(&mut page)?;
    let mut out = std::io::stdout().lock();
    out.write_all(&page)
        .and_then(|()| out.flush())
        .context("cannot write the manual page to standard output")
}
