//! The game on this machine: the start screen, which is home, and a game as the command line
//! sets it up, full-screen or in lines.

use std::io;
use std::process::ExitCode;

use anyhow::Context;

use clap::ArgMatches;
use clap::parser::ValueSource;

use super::network::menu_listen;
use super::{
    Tee, after_screen, ascii, brain, color, exit_code, full_screen, journal, opening,
    plain_options, screen_options,
};
use crate::ai::levels::Adaptive;
use crate::ai::player::Player;
use crate::cli::Cli;
use crate::game::Session;
use crate::game::record::Record;
use crate::net::setup::Target;
use crate::rules::catalogue::Shape;
use crate::rules::position::Variant;
use crate::store::{history, settings};
use crate::ui::driver::Driver;
use crate::ui::plain;
use crate::ui::tui::{self, menu::Start};

/// Whether `tictactoe` opens the start screen: on a terminal, with nothing on the command
/// line. Any flag skips it, so every flag works as it always has.
pub(super) fn wants_menu(cli: &Cli, matches: &ArgMatches) -> bool {
    full_screen(cli)
        && matches
            .ids()
            .all(|id| matches.value_source(id.as_str()) != Some(ValueSource::CommandLine))
}

/// The start screen is home: what is chosen there is played, and leaving it comes back to
/// the start screen, until Quit. What the last game leaves on the terminal (the score, the
/// record) is printed once, at the end.
pub(super) fn menu(cli: &Cli) -> anyhow::Result<ExitCode> {
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

/// Options for a game started from the start screen: a first game of nine boards (none in the
/// history) opens with its lesson.
fn first_game_options(cli: &Cli, variant: Variant) -> tui::Options {
    let boards = |v: Variant| v.shape() == Shape::Boards;
    let first = boards(variant)
        && !history::games()
            .iter()
            .any(|entry| boards(entry.game.variant()));
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
                session.rename(crate::game::Side::A, x);
                session.rename(crate::game::Side::B, o);
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
                .then(|| crate::game::Game::resume(&kept, setup, here(x), here(o)))
                .flatten();
            let Some(game) = game else {
                anyhow::bail!(
                    "the last game changed since the start screen showed it: open it again to continue"
                );
            };
            let session = Session::resuming(game).kept_in(journal(cli));
            tui::run(session, brain(cli), screen_options(cli))
        }
        Start::Analyse(variant) => {
            super::boards::analysis_screen(cli, crate::game::tree::Tree::new(variant), None)
        }
        Start::Puzzles => super::boards::puzzle_screen(cli),
        Start::Quit | Start::Stopped(_) => Ok(tui::Summary::cancelled()),
    }
}

/// A game here as the command line sets it up: `-x`, `-o` and `--level` choose the players,
/// `--from` the position of the first game.
pub(super) fn local(cli: &Cli, matches: &ArgMatches) -> anyhow::Result<ExitCode> {
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
