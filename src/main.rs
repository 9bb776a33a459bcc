//! The `tictactoe` binary: parse the command line, pick a front end, run it, report one error.

use std::io;
use std::process::ExitCode;

use clap::FromArgMatches;
use tictactoe::cli::{self, Cli};
use tictactoe::commands;
use tictactoe::store::history;

fn main() -> ExitCode {
    let matches = cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    tictactoe::store::files::limits_as_errors();
    // The full-screen game owns the terminal: warnings about the profile wait for its end
    // (the start screen shows them too). Held from the first, as deciding reads the settings.
    history::hold_warnings();
    if !commands::full_screen(&cli) {
        history::release_warnings();
    }
    let result = commands::run(&cli, &matches);
    history::release_warnings();
    match result {
        Ok(code) => code,
        // Standard output was closed (`tictactoe review … | head -1`): nothing more is wanted,
        // so end quietly, as other Unix tools do.
        Err(e) if closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tictactoe: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// Whether `e` came from writing to a closed pipe.
fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
