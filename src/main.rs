//! The `tictactoe` binary: parse the command line, pick a front end, run it, report one error.

use std::io::{self, IsTerminal};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::error::ErrorKind;
use clap::{CommandFactory, Parser};
use tictactoe::analyze;
use tictactoe::cli::{Cli, Command};
use tictactoe::game::Session;
use tictactoe::plain::{self, Ending};
use tictactoe::player::Brain;
use tictactoe::review;
use tictactoe::tui;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match try_main(&cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tictactoe: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn try_main(cli: &Cli) -> anyhow::Result<ExitCode> {
    let stdin = io::stdin();
    let stdout = io::stdout();
    if let Some(Command::Analyze(args)) = &cli.command {
        let options = analyze::Options {
            size: cli.size,
            k: cli.k,
            misere: cli.misere,
            budget: cli.think_budget(),
            json: args.json,
            best_only: args.best,
            table_mb: usize::from(cli.table_mb),
        };
        let status = analyze::run(
            &args.boards,
            options,
            &mut stdin.lock(),
            &mut stdout.lock(),
            &mut io::stderr(),
        )
        .context("writing the analysis")?;
        return Ok(ExitCode::from(status));
    }
    if let Some(Command::Review(args)) = &cli.command {
        let options = review::Options {
            size: cli.size,
            k: cli.k,
            misere: cli.misere,
            budget: cli.think_budget(),
            json: args.json,
            table_mb: usize::from(cli.table_mb),
            progress_after: io::stderr()
                .is_terminal()
                .then_some(Duration::from_millis(500)),
        };
        let status = review::run(&args.moves, options, &mut stdout.lock(), &mut io::stderr())
            .context("writing the review")?;
        return Ok(ExitCode::from(status));
    }
    let rules = match cli.rules() {
        Ok(rules) => rules,
        Err(e) => Cli::command().error(ErrorKind::ValueValidation, e).exit(),
    };
    let brain = Brain::new(cli.seed)
        .with_table_mb(usize::from(cli.table_mb))
        .with_think(cli.think_budget());
    let session = Session::new(rules, cli.x, cli.o);
    if !cli.plain && stdin.is_terminal() && stdout.is_terminal() {
        let options = tui::Options {
            color: cli.color(),
            delay: Duration::from_millis(cli.delay),
            test_panic: std::env::var_os("TICTACTOE_TEST_PANIC").is_some(),
        };
        let summary = tui::run(session, brain, options)?;
        println!("{}", summary.score);
        if let Some(record) = summary.record {
            println!("Record: {record}");
        }
        return Ok(ExitCode::SUCCESS);
    }
    let mut session = session;
    let mut brain = brain;
    let options = plain::Options {
        echo: !stdin.is_terminal(),
        review: cli.review,
    };
    let ending = plain::run(
        &mut session,
        &mut brain,
        &mut stdin.lock(),
        &mut stdout.lock(),
        options,
    )
    .context("playing in plain mode")?;
    if ending == Ending::InputEnded {
        eprintln!("tictactoe: input ended before the game was over");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
