//! The `tictactoe` binary: parse the command line, pick a front end, run it, report one error.

use std::io::{self, IsTerminal, Write};
use std::process::ExitCode;
use std::sync::mpsc;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use anyhow::{Context, anyhow};
use clap::error::ErrorKind;
use clap::parser::ValueSource;
use clap::{ArgMatches, CommandFactory, FromArgMatches};
use tictactoe::board::Mark;
use tictactoe::cli::{AnalyzeArgs, Cli, Command, HostArgs, JoinArgs, ReviewArgs};
use tictactoe::game::{Session, Side};
use tictactoe::net::peer::{Host, Joiner, NetEvent, Welcome};
use tictactoe::plain::{self, Ending, Input, Remote};
use tictactoe::player::{Brain, Player};
use tictactoe::position::Variant;
use tictactoe::report::analyze;
use tictactoe::report::review;
use tictactoe::tui;

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    match try_main(&cli, &matches) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("tictactoe: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn try_main(cli: &Cli, matches: &ArgMatches) -> anyhow::Result<ExitCode> {
    match &cli.command {
        Some(Command::Analyze(args)) => analyze(cli, args),
        Some(Command::Review(args)) => review(cli, args),
        Some(Command::Host(args)) => {
            refuse_players(matches, "host");
            host(cli, args)
        }
        Some(Command::Join(args)) => {
            refuse_players(matches, "join");
            if cli.size.is_some() || cli.k.is_some() || cli.misere || cli.ultimate {
                usage_error(
                    "the host's rules apply: --size, --k, --misere and --ultimate go with `host`",
                );
            }
            join(cli, args)
        }
        None => play(cli),
    }
}

/// Exits with a usage error, as clap does.
fn usage_error(message: &str) -> ! {
    Cli::command()
        .error(ErrorKind::ArgumentConflict, message)
        .exit()
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

fn variant(cli: &Cli) -> Variant {
    match cli.variant() {
        Ok(variant) => variant,
        Err(e) => Cli::command().error(ErrorKind::ValueValidation, e).exit(),
    }
}

fn brain(cli: &Cli) -> Brain {
    Brain::new(cli.seed)
        .with_table_mb(usize::from(cli.table_mb))
        .with_think(cli.think_budget())
}

/// Whether the full-screen game can run: both ends are a terminal and `--plain` is off.
fn full_screen(cli: &Cli) -> bool {
    !cli.plain && io::stdin().is_terminal() && io::stdout().is_terminal()
}

fn analyze(cli: &Cli, args: &AnalyzeArgs) -> anyhow::Result<ExitCode> {
    let options = analyze::Options {
        size: cli.size,
        k: cli.k,
        misere: cli.misere,
        ultimate: cli.ultimate,
        budget: cli.think_budget(),
        json: args.json,
        best_only: args.best,
        table_mb: usize::from(cli.table_mb),
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
    let options = review::Options {
        variant: variant(cli),
        budget: cli.think_budget(),
        json: args.json,
        table_mb: usize::from(cli.table_mb),
        progress_after: io::stderr()
            .is_terminal()
            .then_some(Duration::from_millis(500)),
    };
    let status = review::run(
        &args.moves,
        options,
        &mut io::stdout().lock(),
        &mut io::stderr(),
    )
    .context("writing the review")?;
    Ok(ExitCode::from(status))
}

/// A game on this machine: the terminal game, or the plain one.
fn play(cli: &Cli) -> anyhow::Result<ExitCode> {
    let session = Session::new(variant(cli), cli.x, cli.o);
    if full_screen(cli) {
        let summary = tui::run(session, brain(cli), screen_options(cli))?;
        return after_screen(cli, &summary);
    }
    let mut session = session;
    let options = plain::Options {
        echo: !io::stdin().is_terminal(),
        review: cli.review,
    };
    let ending = plain::run(
        &mut session,
        &mut brain(cli),
        &mut io::stdin().lock(),
        &mut io::stdout().lock(),
        options,
    )
    .context("playing in plain mode")?;
    Ok(exit_code(ending))
}

fn screen_options(cli: &Cli) -> tui::Options {
    tui::Options {
        color: cli.color(),
        delay: Duration::from_millis(cli.delay),
        test_panic: std::env::var_os("TICTACTOE_TEST_PANIC").is_some(),
    }
}

/// What the terminal game leaves on the terminal: the score, the last record and, with
/// `--review`, its review; a stop signal gives the conventional status.
fn after_screen(cli: &Cli, summary: &tui::Summary) -> anyhow::Result<ExitCode> {
    let mut out = io::stdout().lock();
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
    }
}

/// `tictactoe host`: listen, say how to join, wait for a player, play.
fn host(cli: &Cli, args: &HostArgs) -> anyhow::Result<ExitCode> {
    let rules = variant(cli);
    let host = Host::bind(args.bind, args.port, rules)
        .with_context(|| format!("listening on {}:{}", args.bind, args.port))?;
    let addr = host
        .join_address()
        .context("reading the listening address")?;
    let join_line = format!("Join with: tictactoe join {addr} --code {}", host.code());
    let mut out = io::stdout().lock();
    writeln!(out, "{join_line}")?;
    out.flush()?;
    let session = Session::new(rules, Player::Human, Player::Remote);
    let state = Arc::new(Mutex::new(session.state()));
    if full_screen(cli) {
        drop(out);
        let channel = tui::channel();
        let link = host
            .start(Arc::clone(&state), channel.0.clone(), tui::Message::Net)
            .context("starting to listen")?;
        let net = tui::Network {
            link,
            host: true,
            waiting: Some(join_line),
            state: Some(state),
            joiner: None,
        };
        return network_screen(cli, session, channel, &net);
    }
    let mut session = session;
    let (tx, rx) = mpsc::channel();
    let link = host
        .start(Arc::clone(&state), tx.clone(), Input::Net)
        .context("starting to listen")?;
    writeln!(out, "Waiting for a player ({rules}; Ctrl-C cancels)…")?;
    let peer = loop {
        match rx.recv() {
            Ok(Input::Net(NetEvent::Joined(peer))) => break peer,
            Ok(Input::Net(NetEvent::Notice(text))) => writeln!(out, "{text}")?,
            Ok(_) => {}
            Err(_) => return Err(anyhow!("the listener stopped")),
        }
    };
    session.rename(Side::B, peer.ip().to_string());
    writeln!(out, "{peer} joined. You play X.")?;
    plain::read_lines(io::BufReader::new(io::stdin()), tx).context("reading input")?;
    let publish = |s: &Session| *state.lock().unwrap_or_else(PoisonError::into_inner) = s.state();
    let remote = Remote {
        link,
        events: &rx,
        on_lost: &|| {},
        publish: &publish,
        host: true,
    };
    network_game(cli, &mut session, &remote, &mut out)
}

/// `tictactoe join`: connect with the code, take the host's rules and game, play.
fn join(cli: &Cli, args: &JoinArgs) -> anyhow::Result<ExitCode> {
    if full_screen(cli) {
        let channel = tui::channel();
        let (joiner, welcome) =
            Joiner::join(&args.target, &args.code, &channel.0, tui::Message::Net)
                .map_err(|e| anyhow!(e))?;
        let session = joined_session(&joiner, &welcome)?;
        let net = tui::Network {
            link: joiner.link().clone(),
            host: false,
            waiting: None,
            state: None,
            joiner: Some(joiner),
        };
        return network_screen(cli, session, channel, &net);
    }
    let (tx, rx) = mpsc::channel();
    let (joiner, welcome) =
        Joiner::join(&args.target, &args.code, &tx, Input::Net).map_err(|e| anyhow!(e))?;
    let mut session = joined_session(&joiner, &welcome)?;
    let mut out = io::stdout().lock();
    let mark = if session.side_of(Mark::X) == Side::B {
        Mark::X
    } else {
        Mark::O
    };
    writeln!(
        out,
        "Joined {} ({}). You play {mark}.",
        joiner.addr(),
        welcome.rules
    )?;
    plain::read_lines(io::BufReader::new(io::stdin()), tx.clone()).context("reading input")?;
    let rejoin = || joiner.rejoin(&tx, Input::Net);
    let remote = Remote {
        link: joiner.link().clone(),
        events: &rx,
        on_lost: &rejoin,
        publish: &|_| {},
        host: false,
    };
    network_game(cli, &mut session, &remote, &mut out)
}

/// The joiner's session: the host is side A, the person here side B, as the host said.
fn joined_session(joiner: &Joiner, welcome: &Welcome) -> anyhow::Result<Session> {
    let mut session =
        Session::restore(welcome.rules, Player::Remote, Player::Human, &welcome.state)
            .map_err(|e| anyhow!("the host's game does not replay here: {e}"))?;
    session.rename(Side::A, joiner.addr().ip().to_string());
    Ok(session)
}

/// A network game in the terminal game.
fn network_screen(
    cli: &Cli,
    session: Session,
    channel: (mpsc::Sender<tui::Message>, mpsc::Receiver<tui::Message>),
    net: &tui::Network,
) -> anyhow::Result<ExitCode> {
    let summary = tui::run_with(session, brain(cli), screen_options(cli), channel, Some(net))?;
    after_screen(cli, &summary)
}

/// A network game in the plain front end.
fn network_game(
    cli: &Cli,
    session: &mut Session,
    remote: &Remote<'_>,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let options = plain::Options {
        echo: !io::stdin().is_terminal(),
        review: cli.review,
    };
    let ending = plain::run_network(session, &mut brain(cli), remote, out, options)
        .context("playing over the network")?;
    Ok(exit_code(ending))
}
