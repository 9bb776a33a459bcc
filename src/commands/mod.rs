//! What each command line runs: [`run`] picks the subcommand's module (the game here and
//! the start screen in [`local`], the network game in [`network`], the reports in
//! [`reports`]) and the helpers every one of them shares: the players' brain, the front end's
//! options, the first game's position, how an ending becomes an exit status.

mod boards;
mod local;
mod network;
mod reports;

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory};

use crate::ai::player::Brain;
use crate::cli::{self, Cli, Command};
use crate::game::Journal;
use crate::game::formats;
use crate::game::record::Record;
use crate::report::{review, stats};
use crate::rules::position::Variant;
use crate::store::{history, settings};
use crate::ui::plain::{self, Ending};
use crate::ui::tui;

use local::{local, menu, wants_menu};
use network::{host, join};
use reports::{analyze, engine, explain, man, paths, puzzles, review_game};

pub fn run(cli: &Cli, matches: &ArgMatches) -> anyhow::Result<ExitCode> {
    refuse_misplaced(cli, matches);
    match &cli.command {
        Some(Command::Completions(args)) => {
            cli::write_completions(args.shell, &mut io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Man(args)) => man(args),
        Some(Command::Stats(args)) => {
            stats::run(
                args.json,
                cli.ascii(),
                &history::games(),
                &mut io::stdout().lock(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Paths) => {
            paths(&mut io::stdout().lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::History) => {
            stats::write_list(&mut io::stdout().lock(), &history::games())?;
            Ok(ExitCode::SUCCESS)
        }
        Some(Command::Puzzles(args)) => puzzles(cli, args),
        Some(Command::Analyze(args)) => analyze(cli, args),
        Some(Command::Review(args)) => review_game(cli, args),
        Some(Command::Host(args)) => host(cli, args),
        Some(Command::Join(args)) => join(cli, args, false),
        Some(Command::Watch(args)) if args.hints => {
            usage_error("a watcher sees no hints: --hints goes with `join`")
        }
        Some(Command::Watch(args)) => join(cli, args, true),
        Some(Command::Explain(args)) => explain(cli, args),
        Some(Command::Engine(args)) => engine(cli, args),
        None if wants_menu(cli, matches) => menu(cli),
        None => local(cli, matches),
    }
}

/// Exits with a usage error, as clap does.
pub(crate) fn usage_error(message: &str) -> ! {
    Cli::command()
        .error(ErrorKind::ArgumentConflict, message)
        .exit()
}

/// Options given to a subcommand that does not take them, and options that contradict each
/// other, are usage errors. The network's own messages say why the players and the rules
/// are not chosen there.
pub(crate) fn refuse_misplaced(cli: &Cli, matches: &ArgMatches) {
    match &cli.command {
        Some(Command::Host(_)) => refuse_players(matches, "host"),
        Some(Command::Join(_) | Command::Watch(_)) => {
            refuse_players(matches, "join");
            if cli.size.is_some()
                || cli.k.is_some()
                || cli.misere
                || cli.ultimate
                || cli.gomoku
                || cli.exact
                || cli.connect_four
                || cli.rules.is_some()
            {
                usage_error(
                    "the host's rules apply: --rules, --size, --k, --misere, --ultimate, --gomoku, --exact and --connect-four go with `host`",
                );
            }
        }
        _ => {}
    }
    if let Some(message) = cli::misplaced(matches).or_else(|| cli::contradiction(matches, cli)) {
        usage_error(&message);
    }
}

/// `-x` and `-o` choose players for local games only.
pub(crate) fn refuse_players(matches: &ArgMatches, command: &str) {
    let given = |id| matches.value_source(id) == Some(ValueSource::CommandLine);
    if given("x") || given("o") {
        usage_error(&format!(
            "-x and -o do not apply to `{command}`: in a network game each side is played by the person at it"
        ));
    }
}

/// The game `words` give as one word: a file (a `.psq`, a move string, or a record the game
/// printed) or a move string (`h8h9i8`, or one-digit moves run together: `4453`), played by
/// `rules` where it does not say; `None` for moves given one by one.
pub(crate) fn kept_game(words: &[String], rules: Variant) -> anyhow::Result<Option<Record>> {
    let [word] = words else {
        return Ok(None);
    };
    let path = std::path::Path::new(word);
    // A move string has neither, so a word with either names a file, there or not.
    if word.contains(['.', '/']) {
        let text = crate::store::games::read(path).with_context(|| word.clone())?;
        let record = formats::read_game(&text, rules).with_context(|| word.clone())?;
        return Ok(Some(record));
    }
    // One-digit moves run together, `4453`: Connect Four's columns as its solvers write them
    // (or 3×3's cells), where the word is no move of its own and each digit names one.
    let start = rules.start();
    let digits = word.len() > 1
        && word
            .chars()
            .all(|c| c.is_ascii_digit() && start.parse_move(&c.to_string()).is_ok());
    if digits && start.parse_move(word).is_err() {
        let moves: Vec<String> = word.chars().map(String::from).collect();
        return Ok(Some(Record::parse(rules, &moves)?));
    }
    if formats::is_move_string(word) {
        return Ok(Some(formats::read_move_string(word, rules)?));
    }
    Ok(None)
}

pub(crate) fn variant(cli: &Cli) -> Variant {
    match cli.variant() {
        Ok(variant) => variant,
        Err(e) => Cli::command().error(ErrorKind::ValueValidation, e).exit(),
    }
}

/// The position the first game starts at: the `--from` moves replayed with the rules the
/// flags ask for. A move that does not replay, or a finished game, is a usage error.
pub(crate) fn opening(cli: &Cli) -> Record {
    let refuse = |message: String| -> ! {
        Cli::command()
            .error(ErrorKind::ValueValidation, format!("--from: {message}"))
            .exit()
    };
    let record = match kept_game(&cli.from, variant(cli)) {
        Ok(Some(record)) => record,
        Ok(None) => {
            Record::parse(variant(cli), &cli.from).unwrap_or_else(|e| refuse(e.to_string()))
        }
        Err(e) => refuse(format!("{e:#}")),
    };
    if record.end().is_over() {
        refuse(format!(
            "the game is over after move {}: give the moves of a game still in progress",
            record.len()
        ));
    }
    record
}

pub(crate) fn brain(cli: &Cli) -> Brain {
    Brain::new(cli.seed)
        .with_table_mb(usize::from(cli.table_mb))
        .with_think(cli.think_budget())
        .with_threads(usize::from(cli.threads))
}

/// Whether the full-screen game can run: both ends are a terminal that can draw (`TERM` is
/// not `dumb`) and `--plain` is off.
pub fn full_screen(cli: &Cli) -> bool {
    !cli.plain
        && !screen_reader(cli)
        && io::stdin().is_terminal()
        && io::stdout().is_terminal()
        && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

/// Standard output, and with it standard error where a person types at a terminal but
/// standard output goes elsewhere (`tictactoe > game.txt`): the game is kept in the file and
/// still seen.
pub(crate) struct Tee<'a> {
    out: io::StdoutLock<'a>,
    echo: Option<io::Stderr>,
}

impl Tee<'_> {
    pub(crate) fn new() -> Tee<'static> {
        let echo =
            io::stdin().is_terminal() && !io::stdout().is_terminal() && io::stderr().is_terminal();
        Tee {
            out: io::stdout().lock(),
            echo: echo.then(io::stderr),
        }
    }
}

impl Write for Tee<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.out.write(buf)?;
        if let Some(echo) = &mut self.echo {
            // What the terminal cannot show costs the file nothing.
            let _ = echo.write_all(&buf[..n]);
        }
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        if let Some(echo) = &mut self.echo {
            let _ = echo.flush();
        }
        self.out.flush()
    }
}

/// Where this run's games go: the profile, unless `--no-history`.
pub(crate) fn journal(cli: &Cli) -> Option<Arc<dyn Journal>> {
    history::journal(cli.no_history)
}

/// The terminal game's options: the flags, and where they say nothing, the settings.
pub(crate) fn screen_options(cli: &Cli) -> tui::Options {
    let settings = settings::load();
    tui::Options {
        color: color(cli, &settings),
        ascii: ascii(cli, &settings),
        delay: Duration::from_millis(cli.delay.unwrap_or(settings.delay)),
        test_panic: std::env::var_os("TICTACTOE_TEST_PANIC").is_some(),
        open_review: false,
        analysis: None,
        hints: settings.hints,
        lesson: false,
        journal: journal(cli),
        clock: cli.clock,
        watchers: crate::net::watchers::DEFAULT_LIMIT,
    }
}

/// Whether to draw in colour: the flags and `NO_COLOR` allow it, and so do the settings.
pub(crate) fn color(cli: &Cli, settings: &settings::Settings) -> bool {
    cli.color() && settings.color
}

/// Whether to draw with ASCII only: `--ascii`, the locale, or the settings.
pub(crate) fn ascii(cli: &Cli, settings: &settings::Settings) -> bool {
    cli.ascii() || settings.ascii
}

/// What the terminal game leaves on the terminal: the score, the last record and, with
/// `--review`, its review; a stop signal gives the conventional status.
pub(crate) fn after_screen(cli: &Cli, summary: &tui::Summary) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
    if summary.cancelled {
        writeln!(out, "Cancelled.")?;
        return Ok(ExitCode::FAILURE);
    }
    writeln!(out, "{}", summary.score)?;
    if let Some(record) = &summary.record {
        writeln!(out, "Record: {record}")?;
        if cli.review {
            let judgements = review::review(record, &mut brain(cli), &mut |_, _| {})
                .expect("nothing cancels this review");
            writeln!(out, "Review:")?;
            review::write_text(&mut out, &judgements)?;
        }
    }
    Ok(summary
        .signal
        .map_or(ExitCode::SUCCESS, |s| ExitCode::from(128 + s as u8)))
}

pub(crate) fn exit_code(ending: Ending) -> ExitCode {
    match ending {
        Ending::Finished | Ending::Quit | Ending::Left => ExitCode::SUCCESS,
        Ending::InputEnded => {
            eprintln!("tictactoe: input ended before the game was over");
            ExitCode::FAILURE
        }
        Ending::Disconnected => ExitCode::FAILURE,
        Ending::Cancelled => {
            println!("Cancelled.");
            ExitCode::FAILURE
        }
        Ending::Stopped(signal) => ExitCode::from(128 + signal as u8),
    }
}

pub(crate) fn plain_options(cli: &Cli) -> plain::Options {
    plain::Options {
        no_hints: !settings::load().hints,
        echo: !io::stdin().is_terminal(),
        review: cli.review,
        speech: screen_reader(cli),
        journal: journal(cli),
        clock: cli.clock,
        watchers: crate::net::watchers::DEFAULT_LIMIT,
    }
}

/// Whether the game speaks in words for a screen reader: `--screen-reader`, or the setting.
pub(crate) fn screen_reader(cli: &Cli) -> bool {
    cli.screen_reader || settings::load().screen_reader
}
