//! The commands that print and end: `analyze`, `review`, `explain`, `engine`, `paths` and
//! `man`.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::CommandFactory;
use clap::error::ErrorKind;

use super::{kept_game, variant};
use crate::cli::{
    self, AnalyzeArgs, Cli, EngineArgs, ExplainArgs, Protocol, PuzzlesArgs, ReviewArgs,
};
use crate::explain::Limits;
use crate::report::{analyze, explain, puzzles, review};
use crate::rules::catalogue::Asked;
use crate::rules::position::{Move, Position};
use crate::store::puzzles as store_puzzles;
use crate::store::{history, settings};
use crate::text::line;
use crate::ui::engine::{EngineError, codingame, gomocup};
use crate::ui::tui;

/// `tictactoe paths`: where the profile's files are, and which of them exist.
pub(super) fn paths(out: &mut dyn Write) -> io::Result<()> {
    let Some(dir) = history::profile_dir() else {
        return writeln!(
            out,
            "No data directory here: set {} to keep games.",
            history::HOME_VAR
        );
    };
    let from = if std::env::var_os(history::HOME_VAR).is_some_and(|v| !v.is_empty()) {
        format!(" (from {})", history::HOME_VAR)
    } else {
        String::new()
    };
    writeln!(out, "Profile directory{from}: {}", dir.display())?;
    for (what, file) in [
        ("History", history::FILE),
        ("Start screen choices", "menu.json"),
        ("Game to continue", history::CURRENT),
        ("Puzzles", store_puzzles::FILE),
    ] {
        let path = dir.join(file);
        let state = if path.exists() {
            ""
        } else {
            " (not there yet)"
        };
        writeln!(out, "{what}: {}{state}", path.display())?;
    }
    if let Some(path) = settings::path() {
        let state = if path.exists() {
            ""
        } else {
            " (not there yet)"
        };
        writeln!(out, "Settings: {}{state}", path.display())?;
    }
    Ok(())
}

/// `tictactoe man`: one page on standard output, or every page into a directory.
pub(super) fn man(args: &cli::ManArgs) -> anyhow::Result<ExitCode> {
    let keys = cli::keys_section(&tui::view::manual_keys());
    if let Some(dir) = &args.dir {
        let names = cli::write_man_pages(dir, &keys)
            .with_context(|| format!("writing the manual pages into {}", dir.display()))?;
        println!("Wrote {} pages into {}.", names.len(), dir.display());
        return Ok(ExitCode::SUCCESS);
    }
    cli::write_man(args.page.as_deref(), &keys, &mut io::stdout().lock())?;
    Ok(ExitCode::SUCCESS)
}

/// The rule flags with the game's name resolved; a flag that is no rule of the game named
/// is a usage error.
fn asked(cli: &Cli) -> Asked {
    match cli.asked().resolved() {
        Ok(asked) => asked,
        Err(e) => Cli::command().error(ErrorKind::ValueValidation, e).exit(),
    }
}

pub(super) fn analyze(cli: &Cli, args: &AnalyzeArgs) -> anyhow::Result<ExitCode> {
    if args.boards.is_empty() {
        return super::boards::analysis_board(cli, args.open.as_deref());
    }
    let options = analyze::Options {
        asked: asked(cli),
        budget: cli.think_budget(),
        json: args.json,
        best_only: args.best,
        lines: args.lines.map_or(0, usize::from),
        table_mb: usize::from(cli.table_mb),
        threads: usize::from(cli.threads),
    };
    let status = analyze::run(
        &args.boards,
        options,
        &mut io::stdin().lock(),
        &mut io::stdout().lock(),
        &mut io::stderr(),
    )
    .context("writing the analysis")?;
    Ok(ExitCode::from(status))
}

pub(super) fn review_game(cli: &Cli, args: &ReviewArgs) -> anyhow::Result<ExitCode> {
    // The flags are checked even where the history's game brings its own rules.
    asked(cli);
    let chosen = match history::chosen(args.last, args.game) {
        Ok(chosen) => chosen,
        // A game the history does not hold is a usage error, as a bad argument is.
        Err(e) => {
            eprintln!("tictactoe: {e:#}");
            return Ok(ExitCode::from(2));
        }
    };
    let (variant, moves) = match chosen {
        Some(record) => (
            record.variant(),
            record.moves().iter().map(ToString::to_string).collect(),
        ),
        None => match kept_game(&args.moves, variant(cli)) {
            Ok(Some(record)) => (
                record.variant(),
                record.moves().iter().map(ToString::to_string).collect(),
            ),
            Ok(None) => (variant(cli), args.moves.clone()),
            Err(e) => {
                eprintln!("tictactoe: {e:#}");
                return Ok(ExitCode::from(2));
            }
        },
    };
    let options = review::Options {
        variant,
        budget: cli.think_budget(),
        json: args.json,
        table_mb: usize::from(cli.table_mb),
        threads: usize::from(cli.threads),
        progress_after: io::stderr()
            .is_terminal()
            .then_some(Duration::from_millis(500)),
    };
    let status = review::run(&moves, options, &mut io::stdout().lock(), &mut io::stderr())
        .context("writing the review")?;
    Ok(ExitCode::from(status))
}

/// An engine protocol on standard input and output; a line the protocol does not allow ends
/// it with a message and status 2.
pub(super) fn engine(cli: &Cli, args: &EngineArgs) -> anyhow::Result<ExitCode> {
    let options = crate::ui::engine::Options {
        think: cli.think_budget(),
        table_mb: usize::from(cli.table_mb),
        threads: usize::from(cli.threads),
        seed: cli.seed,
    };
    let output = &mut io::stdout().lock();
    let outcome = match args.protocol {
        Protocol::Gomocup => {
            let lines = gomocup::Lines {
                k: cli.k,
                misere: cli.misere,
            };
            // Read on a thread of its own, so that END is seen while a move is searched.
            let input = Box::new(io::BufReader::new(io::stdin()));
            gomocup::run(&options, lines, input, output)
        }
        Protocol::Codingame => codingame::run(&options, &mut io::stdin().lock(), output),
    };
    match outcome {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(EngineError::Protocol { line, why }) => {
            eprintln!("tictactoe: {line}: {why}");
            Ok(ExitCode::from(2))
        }
        Err(EngineError::Io(e)) => Err(e).context("speaking the engine protocol"),
    }
}

pub(super) fn explain(cli: &Cli, args: &ExplainArgs) -> anyhow::Result<ExitCode> {
    let asked = asked(cli);
    if let Some(entry) = asked.named.filter(|e| e.rule.is_some()) {
        let name = entry.name();
        super::usage_error(&format!(
            "--rules {name} does not apply to `explain`: the searches it shows play no rule of their own (see `tictactoe explain --help`)"
        ));
    }
    let format = match (args.json, args.dot) {
        (true, _) => explain::Format::Json,
        (_, true) => explain::Format::Dot,
        _ => explain::Format::Plain,
    };
    let options = explain::Options {
        variant: cli.variant(),
        asked,
        algorithm: args.algorithm,
        format,
        limits: Limits {
            depth: args.depth,
            max_nodes: usize::try_from(args.max_nodes).unwrap_or(usize::MAX),
        },
        iterations: args.iterations,
        seed: args.seed,
        steps: args.steps,
    };
    let status = explain::run(
        &args.position,
        &options,
        &mut io::stdout().lock(),
        &mut io::stderr(),
    )
    .context("writing the explanation")?;
    Ok(ExitCode::from(status))
}

/// `tictactoe puzzles [N]`: the games not searched yet searched for missed wins (each
/// position for a tenth of `--think`), then the list; or puzzle N of the list posed, and the
/// answer read from standard input and judged (for `--think`).
pub(super) fn puzzles(cli: &Cli, args: &PuzzlesArgs) -> anyhow::Result<ExitCode> {
    let mut kept = store_puzzles::load().context("reading the puzzles")?;
    let mut brain = super::brain(cli);
    let out = &mut io::stdout().lock();
    // Only the list searches new games: a number names a puzzle of the list as shown.
    let Some(number) = args.number else {
        brain.set_think(cli.think_budget() / 10);
        let games = history::games();
        if puzzles::search(&games, &mut kept, &mut brain) > 0 {
            store_puzzles::save(&kept).context("keeping the puzzles")?;
        }
        let left = puzzles::unsearched(&games, &kept);
        write!(out, "{}", puzzles::list(&kept, left))?;
        return Ok(ExitCode::SUCCESS);
    };
    let n = kept.puzzles.len();
    let Some(puzzle) = number.checked_sub(1).and_then(|i| kept.puzzles.get_mut(i)) else {
        eprintln!(
            "tictactoe: there is no puzzle {number}: there are {n} (see `tictactoe puzzles`)"
        );
        return Ok(ExitCode::from(2));
    };
    let position = match puzzles::position(puzzle) {
        Ok(position) => position,
        Err(why) => {
            eprintln!("tictactoe: puzzle {number} cannot be set up again: {why}");
            return Ok(ExitCode::from(2));
        }
    };
    write!(out, "{}", puzzles::posed(puzzle, &position))?;
    let Some(mv) = answer(&position, out)? else {
        eprintln!("tictactoe: input ended before a move was given");
        return Ok(ExitCode::from(1));
    };
    let verdict = puzzles::judge(&mut brain, &position, mv).context("judging the answer")?;
    writeln!(out, "{}", puzzles::said(verdict, mv, &position))?;
    match verdict {
        puzzles::Verdict::Right { .. } => puzzle.solved = true,
        puzzles::Verdict::Wrong { .. } => puzzle.tries += 1,
        puzzles::Verdict::Unknown { .. } => {}
    }
    store_puzzles::save(&kept).context("keeping the puzzles")?;
    let (all, solved) = kept.counts();
    writeln!(out, "{solved} of {all} solved.")?;
    Ok(ExitCode::SUCCESS)
}

/// A legal move read from standard input, a line at a time, each line that names none told
/// why; `None` when input ends first.
fn answer(position: &Position, out: &mut dyn Write) -> io::Result<Option<Move>> {
    let mut input = io::stdin().lock();
    loop {
        write!(out, "Your move ({}): ", position.move_forms())?;
        out.flush()?;
        let mut buf = Vec::new();
        if line::read_line(&mut input, &mut buf)? == 0 {
            return Ok(None);
        }
        if line::too_long(&buf) {
            writeln!(out, "That line is {}.", line::why_too_long(&buf))?;
            continue;
        }
        let Ok(text) = std::str::from_utf8(&buf) else {
            writeln!(out, "That line is not valid text (UTF-8).")?;
            continue;
        };
        match position.parse_move(text.trim()) {
            Ok(mv) if position.legal_moves().contains(&mv) => return Ok(Some(mv)),
            Ok(mv) => writeln!(out, "{mv} cannot be played here: it is taken or closed.")?,
            Err(e) => writeln!(out, "{e}.")?,
        }
    }
}
