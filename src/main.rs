//! The `tictactoe` binary: parse the command line, pick a front end, run it, report one error.

use std::io::{self, IsTerminal, Write};
use std::net::IpAddr;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches};
use tictactoe::ai::levels::Adaptive;
use tictactoe::ai::player::{Brain, Player};
use tictactoe::cli::{
    self, AnalyzeArgs, Cli, Command, EngineArgs, ExplainArgs, HostArgs, JoinArgs, Protocol,
    ReviewArgs,
};
use tictactoe::explain::Limits;
use tictactoe::game::formats;
use tictactoe::game::record::Record;
use tictactoe::game::{Journal, Session};
use tictactoe::net::join::DEFAULT_PORT;
use tictactoe::net::setup::{Listen, Target};
use tictactoe::report::{analyze, explain, review, stats};
use tictactoe::rules::position::Variant;
use tictactoe::store::history;
use tictactoe::store::settings;
use tictactoe::ui::driver::Driver;
use tictactoe::ui::engine::{EngineError, codingame, gomocup};
use tictactoe::ui::plain::{self, Ending};
use tictactoe::ui::tui::{self, menu::Start};

fn main() -> ExitCode {
    let matches = cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    tictactoe::store::files::limits_as_errors();
    // The full-screen game owns the terminal: warnings about the profile wait for its end
    // (the start screen shows them too). Held from the first, as deciding reads the settings.
    history::hold_warnings();
    if !full_screen(&cli) {
        history::release_warnings();
    }
    let result = try_main(&cli, &matches);
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

fn try_main(cli: &Cli, matches: &ArgMatches) -> anyhow::Result<ExitCode> {
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
        Some(Command::Analyze(args)) => analyze(cli, args),
        Some(Command::Review(args)) => review(cli, args),
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
fn usage_error(message: &str) -> ! {
    Cli::command()
        .error(ErrorKind::ArgumentConflict, message)
        .exit()
}

/// Options given to a subcommand that does not take them, and options that contradict each
/// other, are usage errors. The network's own messages say why the players and the rules
/// are not chosen there.
fn refuse_misplaced(cli: &Cli, matches: &ArgMatches) {
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
            {
                usage_error(
                    "the host's rules apply: --size, --k, --misere, --ultimate, --gomoku and --exact go with `host`",
                );
            }
        }
        _ => {}
    }
    if let Some(message) = cli::misplaced(matches).or_else(|| cli::contradiction(matches, cli)) {
        usage_error(&message);
    }
}

/// `tictactoe paths`: where the profile's files are, and which of them exist.
fn paths(out: &mut dyn Write) -> io::Result<()> {
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
fn man(args: &cli::ManArgs) -> anyhow::Result<ExitCode> {
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

/// `-x` and `-o` choose players for local games only.
fn refuse_players(matches: &ArgMatches, command: &str) {
    let given = |id| matches.value_source(id) == Some(ValueSource::CommandLine);
    if given("x") || given("o") {
        usage_error(&format!(
            "-x and -o do not apply to `{command}`: in a network game each side is played by the person at it"
        ));
    }
}

/// The game `words` give as one word: a file (a `.psq`, a move string, or a record the game
/// printed) or a move string (`h8h9i8`), played by `rules` where it does not say; `None`
/// for moves given one by one.
fn kept_game(words: &[String], rules: Variant) -> anyhow::Result<Option<Record>> {
    let [word] = words else {
        return Ok(None);
    };
    let path = std::path::Path::new(word);
    // A move string has neither, so a word with either names a file, there or not.
    if word.contains(['.', '/']) {
        let text = tictactoe::store::games::read(path).with_context(|| word.clone())?;
        let record = formats::read_game(&text, rules).with_context(|| word.clone())?;
        return Ok(Some(record));
    }
    if formats::is_move_string(word) {
        return Ok(Some(formats::read_move_string(word, rules)?));
    }
    Ok(None)
}

fn variant(cli: &Cli) -> Variant {
    match cli.variant() {
        Ok(variant) => variant,
        Err(e) => Cli::command().error(ErrorKind::ValueValidation, e).exit(),
    }
}

/// The position the first game starts at: the `--from` moves replayed with the rules the
/// flags ask for. A move that does not replay, or a finished game, is a usage error.
fn opening(cli: &Cli) -> Record {
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

fn brain(cli: &Cli) -> Brain {
    Brain::new(cli.seed)
        .with_table_mb(usize::from(cli.table_mb))
        .with_think(cli.think_budget())
        .with_threads(usize::from(cli.threads))
}

/// Whether the full-screen game can run: both ends are a terminal that can draw (`TERM` is
/// not `dumb`) and `--plain` is off.
fn full_screen(cli: &Cli) -> bool {
    !cli.plain
        && !screen_reader(cli)
        && io::stdin().is_terminal()
        && io::stdout().is_terminal()
        && std::env::var_os("TERM").is_none_or(|t| t != "dumb")
}

/// Standard output, and with it standard error where a person types at a terminal but
/// standard output goes elsewhere (`tictactoe > game.txt`): the game is kept in the file and
/// still seen.
struct Tee<'a> {
    out: io::StdoutLock<'a>,
    echo: Option<io::Stderr>,
}

impl Tee<'_> {
    fn new() -> Tee<'static> {
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

fn analyze(cli: &Cli, args: &AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let options = analyze::Options {
        size: cli.size,
        k: cli.k,
        misere: cli.misere,
        exact: cli.exact,
        own_rule: cli.own_rule(),
        ultimate: cli.ultimate,
        budget: cli.think_budget(),
        json: args.json,
        best_only: args.best,
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

fn review(cli: &Cli, args: &ReviewArgs) -> anyhow::Result<ExitCode> {
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
fn engine(cli: &Cli, args: &EngineArgs) -> anyhow::Result<ExitCode> {
    let options = tictactoe::ui::engine::Options {
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

fn explain(cli: &Cli, args: &ExplainArgs) -> anyhow::Result<ExitCode> {
    let format = match (args.json, args.dot) {
        (true, _) => explain::Format::Json,
        (_, true) => explain::Format::Dot,
        _ => explain::Format::Plain,
    };
    let options = explain::Options {
        variant: cli.variant(),
        size: cli.size,
        k: cli.k,
        misere: cli.misere,
        exact: cli.exact,
        ultimate: cli.ultimate,
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

/// Whether `tictactoe` opens the start screen: on a terminal, with nothing on the command
/// line. Any flag skips it, so every flag works as it always has.
fn wants_menu(cli: &Cli, matches: &ArgMatches) -> bool {
    full_screen(cli)
        && matches
            .ids()
            .all(|id| matches.value_source(id.as_str()) != Some(ValueSource::CommandLine))
}

/// The start screen is home: what is chosen there is played, and leaving it comes back to
/// the start screen, until Quit. What the last game leaves on the terminal (the score, the
/// record) is printed once, at the end.
fn menu(cli: &Cli) -> anyhow::Result<ExitCode> {
    let mut last: Option<tui::Summary> = None;
    let mut news = None;
    loop {
        let settings = settings::load();
        let start = tui::home::run(color(cli, &settings), ascii(cli, &settings), news.take())?;
        let summary = match start {
            Start::Quit => break,
            Start::Stopped(signal) => return Ok(ExitCode::from(128 + signal as u8)),
            start => from_menu(cli, start),
        };
        match summary {
            Ok(summary) if summary.signal.is_some() => return after_screen(cli, &summary),
            Ok(summary) if summary.cancelled => {}
            Ok(summary) => last = Some(summary),
            // A network game that could not start (a busy port, a wrong code): said on the
            // start screen, which the player can try again from.
            Err(e) => news = Some(format!("{e:#}")),
        }
    }
    match last {
        Some(summary) => after_screen(cli, &summary),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// Options for a game started from the start screen: a first Ultimate game (none in the
/// history) opens with its lesson.
fn first_game_options(cli: &Cli, variant: Variant) -> tui::Options {
    let first = variant == Variant::Ultimate
        && !history::games()
            .iter()
            .any(|entry| entry.game.variant() == Variant::Ultimate);
    tui::Options {
        lesson: first,
        ..screen_options(cli)
    }
}

/// Options for a network game started from the start screen: it asks for no hints (only
/// `host --hints` and `join --hints` do).
fn network_options(cli: &Cli) -> tui::Options {
    tui::Options {
        hints: false,
        ..screen_options(cli)
    }
}

/// A player of a game played on here: a network game's other player becomes a person at this
/// screen (its game is looked at, continued and played on from here).
fn here(player: Player) -> Player {
    if player == Player::Remote {
        Player::Human
    } else {
        player
    }
}

/// Where this run's games go: the profile, unless `--no-history`.
fn journal(cli: &Cli) -> Option<Arc<dyn Journal>> {
    history::journal(cli.no_history)
}

/// Plays what the start screen chose, full-screen, and says how it ended.
fn from_menu(cli: &Cli, start: Start) -> anyhow::Result<tui::Summary> {
    match start {
        Start::Play(variant, x, o, clock) => tui::run(
            Session::new(variant, x, o)
                .with_clock(clock)
                .kept_in(journal(cli)),
            brain(cli),
            first_game_options(cli, variant),
        ),
        Start::PlayAuto(variant, clock) => {
            let mut session = Session::new(variant, Player::Human, Player::Ai(Adaptive::MIDDLE))
                .with_clock(clock)
                .kept_in(journal(cli));
            session.adapt_level();
            tui::run(session, brain(cli), first_game_options(cli, variant))
        }
        Start::Host {
            variant,
            online,
            clock,
        } => {
            let opening = Record::new(variant, Vec::new())?;
            let options = tui::Options {
                clock,
                ..network_options(cli)
            };
            tui::host((menu_listen(online), opening), brain(cli), options)
        }
        Start::Join {
            address,
            code,
            watch,
        } => {
            let target = Target::Address {
                target: address,
                code,
            };
            if watch {
                return tui::watch(target, brain(cli), network_options(cli));
            }
            tui::join(target, brain(cli), network_options(cli))
        }
        Start::Open(record, x, o, names) => {
            let options = tui::Options {
                open_review: true,
                ..screen_options(cli)
            };
            let mut session = Session::starting_at(&record, here(x), here(o)).kept_in(journal(cli));
            if let Some([x, o]) = names {
                session.rename(tictactoe::game::Side::A, x);
                session.rename(tictactoe::game::Side::B, o);
            }
            tui::run(session, brain(cli), options)
        }
        Start::Resume(record, setup, x, o) => {
            // Held until the game ends: no other program takes the same game up meanwhile.
            let (_claim, kept) = history::claim_unfinished()?;
            let same =
                kept.game.history().starts_with(record.moves()) && kept.game.setup() == setup;
            let kept = kept.game.record();
            let game = same
                .then(|| tictactoe::game::Game::resume(&kept, setup, here(x), here(o)))
                .flatten();
            let Some(game) = game else {
                anyhow::bail!(
                    "the last game changed since the start screen showed it: open it again to continue"
                );
            };
            let session = Session::resuming(game).kept_in(journal(cli));
            tui::run(session, brain(cli), screen_options(cli))
        }
        Start::Quit | Start::Stopped(_) => Ok(tui::Summary::cancelled()),
    }
}

/// A game here as the command line sets it up: `-x`, `-o` and `--level` choose the players,
/// `--from` the position of the first game.
fn local(cli: &Cli, matches: &ArgMatches) -> anyhow::Result<ExitCode> {
    let given = |id| matches.value_source(id) == Some(ValueSource::CommandLine);
    let players = if given("x") || given("o") || given("level") {
        cli.players()
    } else {
        // No player named: the opponent of the settings.
        Some(match settings::load().opponent() {
            settings::Opponent::Fixed(ai) => (Player::Human, ai, false),
            settings::Opponent::Auto => (Player::Human, Player::Ai(Adaptive::MIDDLE), true),
        })
    };
    let Some((x, o, adapts)) = players else {
        anyhow::bail!(
            "--level sets the level of an AI that plays a person: one of -x and -o must be human, the other an AI"
        );
    };
    let mut session = Session::starting_at(&opening(cli), x, o)
        .with_clock(cli.clock)
        .kept_in(journal(cli));
    if adapts {
        session.adapt_level();
    }
    play(cli, session)
}

/// A game on this machine: the terminal game, or the plain one.
fn play(cli: &Cli, session: Session) -> anyhow::Result<ExitCode> {
    if full_screen(cli) {
        let summary = tui::run(session, brain(cli), screen_options(cli))?;
        return after_screen(cli, &summary);
    }
    let ending = plain::run(
        &mut Driver::new(session),
        &mut brain(cli),
        io::BufReader::new(io::stdin()),
        &mut Tee::new(),
        plain_options(cli),
    )
    .context("playing in plain mode")?;
    Ok(exit_code(ending))
}

/// The terminal game's options: the flags, and where they say nothing, the settings.
fn screen_options(cli: &Cli) -> tui::Options {
    let settings = settings::load();
    tui::Options {
        color: color(cli, &settings),
        ascii: ascii(cli, &settings),
        delay: Duration::from_millis(cli.delay.unwrap_or(settings.delay)),
        test_panic: std::env::var_os("TICTACTOE_TEST_PANIC").is_some(),
        open_review: false,
        hints: settings.hints,
        lesson: false,
        journal: journal(cli),
        clock: cli.clock,
        watchers: tictactoe::net::watchers::DEFAULT_LIMIT,
    }
}

/// Whether to draw in colour: the flags and `NO_COLOR` allow it, and so do the settings.
fn color(cli: &Cli, settings: &settings::Settings) -> bool {
    cli.color() && settings.color
}

/// Whether to draw with ASCII only: `--ascii`, the locale, or the settings.
fn ascii(cli: &Cli, settings: &settings::Settings) -> bool {
    cli.ascii() || settings.ascii
}

/// What the terminal game leaves on the terminal: the score, the last record and, with
/// `--review`, its review; a stop signal gives the conventional status.
fn after_screen(cli: &Cli, summary: &tui::Summary) -> anyhow::Result<ExitCode> {
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

fn exit_code(ending: Ending) -> ExitCode {
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

/// Where a game hosted from the start screen listens: online, or every interface on the
/// default port.
fn menu_listen(online: bool) -> Listen {
    #[cfg(feature = "online")]
    if online {
        return Listen::Online { relay: None };
    }
    let _ = online;
    Listen::Tcp {
        bind: IpAddr::from([0, 0, 0, 0]),
        port: DEFAULT_PORT,
    }
}

/// `tictactoe host`: the chosen front end listens, says how to join, and plays.
fn host(cli: &Cli, args: &HostArgs) -> anyhow::Result<ExitCode> {
    #[cfg(feature = "online")]
    if args.online {
        let listen = Listen::Online {
            relay: args.relay.clone(),
        };
        return host_at(cli, (listen, opening(cli)), args);
    }
    if args.relay.is_some() {
        usage_error("--relay goes with --online");
    }
    let listen = Listen::Tcp {
        bind: args.bind,
        port: args.port,
    };
    host_at(cli, (listen, opening(cli)), args)
}

/// Hosts, as `Listen` says, a game that starts at the end of a record, asking for hints and
/// taking watchers as `args` say.
fn host_at(cli: &Cli, setup: (Listen, Record), args: &HostArgs) -> anyhow::Result<ExitCode> {
    let setup_again = setup.clone();
    let watchers = usize::from(args.watchers);
    network(
        (cli, args.hints),
        |brain, options| {
            let options = tui::Options {
                watchers,
                ..options
            };
            tui::host(setup, brain, options)
        },
        |brain, input, out, options| {
            let options = plain::Options {
                watchers,
                ..options
            };
            plain::host(setup_again, brain, input, out, options)
        },
    )
}

/// `tictactoe join`: the chosen front end connects with the code and plays the host's game.
fn join(cli: &Cli, args: &JoinArgs, watch: bool) -> anyhow::Result<ExitCode> {
    // A ticket holds its own code: the environment's is for an address or a search.
    let ticket = args
        .target
        .as_ref()
        .is_some_and(|t| !t.contains(['.', ':']));
    let mut args = JoinArgs {
        code: args
            .code
            .clone()
            .or_else(|| code_from_environment().filter(|_| !ticket)),
        ..args.clone()
    };
    let Some(address) = args.target.clone() else {
        return join_found(cli, &args, watch);
    };
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    if args.code.is_none() && address.contains(['.', ':']) && terminal {
        let Some(code) = plain::find::ask_code(&mut io::stdin().lock(), &mut io::stdout().lock())?
        else {
            println!("Cancelled.");
            return Ok(ExitCode::FAILURE);
        };
        args.code = Some(code);
    }
    let args = &args;
    let target = match &args.code {
        Some(code) if args.relay.is_none() => Target::Address {
            target: address.clone(),
            code: code.clone(),
        },
        Some(_) => usage_error("--relay goes with a ticket, not with an address and --code"),
        None => online_target(&address, args),
    };
    join_at(cli, target, (args.hints, watch))
}

/// The join code in [`CODE_VAR`], where it is set and not empty: a code given there is not
/// in the command line, which any user of the machine can read while the game runs.
fn code_from_environment() -> Option<String> {
    std::env::var(CODE_VAR)
        .ok()
        .filter(|code| !code.trim().is_empty())
}

/// The environment variable `join` takes its code from when `--code` is not given.
const CODE_VAR: &str = "TICTACTOE_CODE";

/// `tictactoe join` with no address: joins a host found on this network.
fn join_found(cli: &Cli, args: &JoinArgs, watch: bool) -> anyhow::Result<ExitCode> {
    let terminal = io::stdin().is_terminal() && io::stdout().is_terminal();
    let found = plain::find::target(
        args.code.as_deref(),
        args.relay.as_deref(),
        terminal,
        &mut io::stdin().lock(),
        &mut io::stdout().lock(),
    )?;
    match found {
        plain::find::Outcome::Join(target) => join_at(cli, target, (args.hints, watch)),
        plain::find::Outcome::Failed(why) => {
            eprintln!("tictactoe: {why}");
            Ok(ExitCode::from(2))
        }
        plain::find::Outcome::Cancelled => {
            println!("Cancelled.");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// `join <ticket>`: the ticket read, or a usage error that says what is wrong with it.
#[cfg(feature = "online")]
fn online_target(address: &str, args: &JoinArgs) -> Target {
    if address.contains(['.', ':']) {
        usage_error(
            "joining HOST[:PORT] needs --code CODE, the code the host printed (or it in TICTACTOE_CODE)",
        );
    }
    match address.parse() {
        Ok(ticket) => Target::Ticket {
            ticket,
            relay: args.relay.clone(),
        },
        Err(e) => usage_error(&format!(
            "not a ticket: {e} (joining an address needs --code)"
        )),
    }
}

#[cfg(not(feature = "online"))]
fn online_target(_: &str, _: &JoinArgs) -> Target {
    usage_error("joining needs --code (this build has no online play: tickets are not read)")
}

/// Joins the game at `target`, asking for hints if `hints`, or watches it.
fn join_at(cli: &Cli, target: Target, (hints, watch): (bool, bool)) -> anyhow::Result<ExitCode> {
    let target_again = target.clone();
    if watch {
        return network(
            (cli, false),
            |brain, options| tui::watch(target, brain, options),
            |brain, input, out, options| plain::watch(target_again, brain, input, out, options),
        );
    }
    network(
        (cli, hints),
        |brain, options| tui::join(target, brain, options),
        |brain, input, out, options| plain::join(target_again, brain, input, out, options),
    )
}

/// A network game in the chosen front end: `screen` plays it full-screen, `lines` in lines.
/// `hints`: this side asks for hints (`--hints`; the settings' `hints` does not apply).
fn network(
    (cli, hints): (&Cli, bool),
    screen: impl FnOnce(Brain, tui::Options) -> anyhow::Result<tui::Summary>,
    lines: impl FnOnce(
        &mut Brain,
        io::BufReader<io::Stdin>,
        &mut dyn Write,
        plain::Options,
    ) -> anyhow::Result<Ending>,
) -> anyhow::Result<ExitCode> {
    if full_screen(cli) {
        let options = tui::Options {
            hints,
            ..screen_options(cli)
        };
        let summary = screen(brain(cli), options)?;
        return after_screen(cli, &summary);
    }
    let options = plain::Options {
        no_hints: !hints,
        ..plain_options(cli)
    };
    let ending = lines(
        &mut brain(cli),
        io::BufReader::new(io::stdin()),
        &mut Tee::new(),
        options,
    )?;
    Ok(exit_code(ending))
}

fn plain_options(cli: &Cli) -> plain::Options {
    plain::Options {
        no_hints: !settings::load().hints,
        echo: !io::stdin().is_terminal(),
        review: cli.review,
        speech: screen_reader(cli),
        journal: journal(cli),
        clock: cli.clock,
        watchers: tictactoe::net::watchers::DEFAULT_LIMIT,
    }
}

/// Whether the game speaks in words for a screen reader: `--screen-reader`, or the setting.
fn screen_reader(cli: &Cli) -> bool {
    cli.screen_reader || settings::load().screen_reader
}
