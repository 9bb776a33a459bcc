//! The line-based front end, for pipes, scripts and terminals that want no full screen.
//!
//! It prints the board after every move, prompts a human for a line, and announces AI moves.
//! A bad line gets one line naming the problem and the same prompt again; the board is
//! untouched.

pub mod find;
mod net;
pub mod speech;
mod turns;

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

use crate::ai::player::{self, Brain, MOST_LINES};
use crate::game::clock::{self, TimeControl};
use crate::game::ending;
use crate::game::{Game, Journal, Session};
use crate::report::board::{result_line, result_sentence, show};
use crate::report::{analyze, review};
use crate::rules::gomoku::opening::{Opening, Stage};
use crate::rules::position::Move;
use crate::text::line;
use crate::ui::driver::Driver;

/// How a plain session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game reached a result.
    Finished,
    /// The player typed `q`.
    Quit,
    /// Input ended before the game did.
    InputEnded,
    /// The other player of a network game left.
    Left,
    /// The connection of a network game was lost for good.
    Disconnected,
    /// The wait before a network game (for a relay, for the host) was cancelled with a key.
    Cancelled,
    /// This stop signal ended the game (a network game after saying goodbye, a local one
    /// after `Quit.` and the record).
    Stopped(i32),
}

pub use net::{host, join, watch};

use turns::{Turns, on_stop_signal, read_lines};

/// How the plain front end talks.
// Independent switches, each set by its own flag or setting.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Write each line read back after the prompt, so a transcript of piped input reads like
    /// a terminal session.
    pub echo: bool,
    /// Judge every move once the game is over and print the review.
    pub review: bool,
    /// The settings turned hints off: `h` says so.
    pub no_hints: bool,
    /// Words for a screen reader (`--screen-reader`, [`speech`]): no grids, each move said
    /// as a sentence, prompts without symbols.
    pub speech: bool,
    /// Where the games of a network game go (the session made on connecting enters them
    /// there); a game on this machine comes with its session's own.
    pub journal: Option<Arc<dyn Journal>>,
    /// The clock a hosted game is played on; a game on this machine comes with its
    /// session's own.
    pub clock: Option<TimeControl>,
    /// How many may watch a hosted game at once.
    pub watchers: usize,
}

/// Plays the driver's game to the end through lines of text read from `input` (on a thread
/// of their own, beside the stop signals). A finished game ends with the result line and the
/// game's `Record:` line (and, with `options.review`, its review); a game left with `q`, or
/// stopped by a signal, ends with `Quit.` and its record so far.
pub fn run(
    driver: &mut Driver,
    brain: &mut Brain,
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
    options: Options,
) -> anyhow::Result<Ending> {
    let (tx, rx) = mpsc::channel();
    let cancel = Arc::new(AtomicBool::new(false));
    on_stop_signal(tx.clone(), Some(Arc::clone(&cancel)))?;
    read_lines(input, tx)?;
    let turns = Turns::new(driver, brain, &rx, out, options).cancelled_by(cancel);
    Ok(turns.play()?)
}

/// What `q` prints: `Quit.` and the record so far, if a move was played.
fn quit(game: &Game, out: &mut dyn Write, speech: bool) -> io::Result<()> {
    writeln!(out, "Quit.")?;
    if !game.history().is_empty() {
        record(game, out, speech)?;
    }
    Ok(())
}

/// The game's moves at its end: the `Record:` line, or in words for a screen reader the
/// moves as it said them (`Moves: b2, a1.`).
fn record(game: &Game, out: &mut dyn Write, speech: bool) -> io::Result<()> {
    let record = game.record();
    if speech {
        let pairs = record.positions().zip(record.moves());
        let said: Vec<String> = pairs
            .map(|(before, &mv)| speech::said(&before, mv))
            .collect();
        writeln!(out, "Moves: {}.", said.join(", "))
    } else {
        writeln!(out, "Record: {record}")
    }
}

/// Whether a typed line is `q` (or `quit`): it is answered at once, even on the other
/// player's turn.
fn quits(buf: &[u8]) -> bool {
    std::str::from_utf8(buf).is_ok_and(|line| {
        let line = line.trim();
        line.eq_ignore_ascii_case("q") || line.eq_ignore_ascii_case("quit")
    })
}

/// Whether `buf` resigns or offers (or accepts) a draw, which a player may do on either side's
/// turn.
fn concedes(buf: &[u8]) -> bool {
    std::str::from_utf8(buf).is_ok_and(|line| {
        let line = line.trim();
        line.eq_ignore_ascii_case("resign") || line.eq_ignore_ascii_case("draw")
    })
}

/// What a line typed at the prompt asks for, once the lines that only need an answer have
/// had it.
enum Typed {
    Cell(Move),
    Quit,
    Undo,
    Hint,
    /// `lines` (3), `lines N`: the N best lines; `line N`: the Nth of them only.
    Lines {
        count: usize,
        only: Option<usize>,
    },
    Resign,
    Draw,
    /// `save FILE` or `w FILE`: the game into FILE (with no FILE, a new `tictactoe-N` here).
    Save(Option<String>),
    /// A question about the game, answered in words ([`speech`]).
    Read(Reading),
    /// Answered already (help, a blank line, a line that names no cell).
    Handled,
}

/// A question a player asks about the game: the board, the stones, the last move, the legal
/// moves, the threats against them, the clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reading {
    Board,
    Stones,
    Last,
    Moves,
    Threats,
    Clock,
}

impl Reading {
    /// The question a line asks, if it is one.
    fn of(command: &str) -> Option<Reading> {
        Some(match command {
            "board" => Reading::Board,
            "stones" => Reading::Stones,
            "last" => Reading::Last,
            "moves" => Reading::Moves,
            "threats" => Reading::Threats,
            "clock" => Reading::Clock,
            _ => return None,
        })
    }

    /// The answer, a line each.
    fn answer(self, session: &Session) -> Vec<String> {
        let game = session.game();
        match self {
            Reading::Board => speech::board(game),
            Reading::Stones => vec![speech::stones_line(game)],
            Reading::Last => vec![speech::last(game)],
            Reading::Moves => vec![speech::moves(game)],
            Reading::Threats => vec![speech::threats(game)],
            Reading::Clock => vec![speech::clock(session)],
        }
    }
}

/// The prompt for the side to move: `X to move (1-9, u undo, h hint, q quit): `, and in
/// Ultimate `X to move on board 3 (1-9, …): ` or, where a move takes the long form, `X to
/// move anywhere (board then cell, e.g. 53): `. `undo` says whether `u` is offered (not in a
/// network game), `hints` whether `h` is (not when hints are off).
fn prompt(session: &Session, out: &mut dyn Write, (undo, hints): (bool, bool)) -> io::Result<()> {
    let position = session.game().position();
    let mark = position.to_move();
    let place = position
        .whereabouts()
        .map(|w| format!(" {w}"))
        .unwrap_or_default();
    let forms = position.move_forms();
    let keys = if forms.contains(' ') {
        String::new()
    } else {
        let offered = [(undo, ", u undo"), (hints, ", h hint"), (true, ", q quit")];
        offered
            .iter()
            .filter(|(on, _)| *on)
            .map(|(_, key)| *key)
            .collect()
    };
    let who = session.name(session.side_in(position.seat()));
    let place = match speech::time_left(session) {
        Some(left) => format!("{place}, {} left", clock::shown(left)),
        None => place,
    };
    match position.stage_words() {
        Some(asked) if matches!(position.stage(), Stage::Choose(_)) => {
            let keys = keys.trim_start_matches(", ");
            write!(out, "Opening, {who}: {asked} ({keys}): ")?;
        }
        Some(asked) => write!(out, "Opening, {who}: {asked} ({forms}{keys}): ")?,
        None if position.variant().opening() != Opening::Free => {
            write!(out, "{mark} ({who}) to move ({forms}{keys}): ")?;
        }
        None => write!(out, "{mark} to move{place} ({forms}{keys}): ")?,
    }
    out.flush()
}

/// The prompt in words, for a screen reader: `X to move, you. Your move, or help:`; in a
/// swap opening what it asks of whom, `Opening, Player 1: place stone 2 of 3, O, white.`
fn spoken_prompt(session: &Session, out: &mut dyn Write) -> io::Result<()> {
    let position = session.game().position();
    let who = session.name(session.side_in(position.seat()));
    let plainly = |text: String| text.replace(" (", ", ").replace(')', "");
    if let Some(asked) = position.stage_words() {
        write!(out, "Opening, {who}: {}. ", plainly(asked))?;
    } else {
        let place = position.whereabouts().map(|w| format!(" {w}"));
        let mark = position.to_move();
        write!(out, "{mark} to move{}, {who}. ", place.unwrap_or_default())?;
    }
    if let Some(left) = speech::time_left(session) {
        write!(out, "{} left. ", clock::said(left))?;
    }
    write!(out, "Your move, or help: ")?;
    out.flush()
}

/// Reads one typed line (echoed back with `echo`); a line that asks for nothing the game must
/// do is answered here. `undo` says whether `u` is offered.
fn typed(
    game: &Game,
    buf: &[u8],
    out: &mut dyn Write,
    (echo, undo, speech): (bool, bool, bool),
) -> io::Result<Typed> {
    let range = game.position().move_forms();
    let noun = game.position().variant().move_noun();
    let keys = if undo { "u, h or q" } else { "h or q" };
    if line::too_long(buf) {
        if echo {
            writeln!(out, "{}", line::quote(buf))?;
        }
        let why = line::why_too_long(buf);
        writeln!(out, "That line is {why}: type a {noun} ({range}), {keys}.")?;
        return Ok(Typed::Handled);
    }
    let Ok(line) = std::str::from_utf8(buf) else {
        if echo {
            writeln!(out, "{}", String::from_utf8_lossy(buf).trim_end())?;
        }
        writeln!(
            out,
            "That line is not valid text (UTF-8): type a {noun} ({range}), {keys}."
        )?;
        return Ok(Typed::Handled);
    };
    if echo {
        writeln!(out, "{}", line.trim_end())?;
    }
    let command = line.trim().to_ascii_lowercase();
    Ok(match command.as_str() {
        "" => {
            let undo = if undo { ", u to undo" } else { "" };
            writeln!(
                out,
                "Type a {noun} ({range}){undo}, h for a hint or q to quit."
            )?;
            Typed::Handled
        }
        "q" | "quit" => Typed::Quit,
        "u" | "undo" => Typed::Undo,
        "h" | "hint" => Typed::Hint,
        "lines" => Typed::Lines {
            count: 3,
            only: None,
        },
        other if let Some(typed) = lines_command(other) => typed,
        other if other.starts_with("line") => {
            writeln!(
                out,
                "Type lines for the three best lines, lines N for the N best or line N for the Nth, N from 1 to {MOST_LINES}."
            )?;
            Typed::Handled
        }
        "resign" => Typed::Resign,
        "draw" => Typed::Draw,
        other if let Some(reading) = Reading::of(other) => Typed::Read(reading),
        _ if let Some(save) = save_command(line.trim()) => save,
        "?" | "help" => {
            help(game, &range, (undo, speech), out)?;
            Typed::Handled
        }
        _ => match game.position().parse_move(line) {
            Err(e) => {
                writeln!(out, "{e}.")?;
                Typed::Handled
            }
            Ok(mv) => Typed::Cell(mv),
        },
    })
}

/// What `?` prints: the rules of the game (one sentence a line for a screen reader), how to
/// type a move, and the commands.
fn help(
    game: &Game,
    range: &str,
    (undo, speech): (bool, bool),
    out: &mut dyn Write,
) -> io::Result<()> {
    let typing = game.variant().typing_help(range);
    let hint = if player::rates(game.variant()) {
        "every move's win rate"
    } else {
        "the value of every move"
    };
    let undo = if undo {
        "u to undo your last move, "
    } else {
        ""
    };
    let rules = crate::report::rules::rules(game.variant());
    // Read aloud, a line is a sentence, never half of one.
    let rules = if speech {
        speech::sentences(&rules)
    } else {
        rules
    };
    for line in rules {
        writeln!(out, "{line}")?;
    }
    writeln!(out)?;
    writeln!(out, "{typing}; {undo}h for {hint}, q to quit.")?;
    writeln!(out, "Also: {}", speech::commands(game.variant()))?;
    Ok(())
}

/// `lines N` (the N best lines) or `line N` (the Nth only), N from 1 to [`MOST_LINES`].
fn lines_command(command: &str) -> Option<Typed> {
    let (word, n) = command.split_once(' ')?;
    let n = n
        .trim()
        .parse()
        .ok()
        .filter(|n| (1..=MOST_LINES).contains(n))?;
    match word {
        "lines" => Some(Typed::Lines {
            count: n,
            only: None,
        }),
        "line" => Some(Typed::Lines {
            count: n,
            only: Some(n),
        }),
        _ => None,
    }
}

/// What `lines` prints: the best lines (or line `only` of them), or why hints are off.
fn lines(
    game: &Game,
    brain: &mut Brain,
    out: &mut dyn Write,
    off: Option<String>,
    (count, only): (usize, Option<usize>),
) -> io::Result<()> {
    if let Some(why) = off {
        return writeln!(out, "{why}.");
    }
    let found = brain.lines(game.position(), count);
    if found.is_empty() {
        return writeln!(out, "The game is over: no lines.");
    }
    for (i, line) in found.iter().enumerate() {
        if only.is_none_or(|n| n == i + 1) {
            writeln!(out, "{}", analyze::line_words(i + 1, line))?;
        }
    }
    if only.is_some_and(|n| n > found.len()) {
        writeln!(out, "There are only {} moves.", found.len())?;
    }
    Ok(())
}

/// A `save` line, with the file it names if it names one; `None` for a line that is no `save`.
fn save_command(line: &str) -> Option<Typed> {
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let save = word.eq_ignore_ascii_case("save") || word.eq_ignore_ascii_case("w");
    save.then(|| Typed::Save(Some(rest.trim().to_string()).filter(|file| !file.is_empty())))
}

/// What `h` prints: the hint, or `off`, why hints are off.
fn hint(
    game: &Game,
    brain: &mut Brain,
    out: &mut dyn Write,
    off: Option<String>,
) -> io::Result<()> {
    if let Some(why) = off {
        return writeln!(out, "{why}.");
    }
    let position = game.position();
    let mut moves = brain.hint(position);
    // On a big board the best few points, not the whole board (printed in board order).
    let left_out = moves.len().saturating_sub(HINT_MOVES);
    if left_out > 0 {
        moves.sort_by_key(|&(mv, value)| (std::cmp::Reverse(value), mv.reading_key()));
        moves.truncate(HINT_MOVES);
    }
    let report = analyze::Report::from_moves(position, moves);
    write!(out, "Hint:\n{}", analyze::text(&report))?;
    if left_out > 0 {
        let noun = position.variant().move_noun();
        writeln!(out, "  ({left_out} more {noun}s, none better)")?;
    }
    Ok(())
}

/// The most moves a hint lists, the best: every move of 3×3, the best few of a bigger board.
const HINT_MOVES: usize = 12;

/// The end of a game: the result line, the record and, if asked for, the review.
fn finish(
    game: &Game,
    brain: &mut Brain,
    out: &mut dyn Write,
    options: &Options,
) -> io::Result<()> {
    let result = match game.ending() {
        Some(ending::Ending::Resigned(loser)) => {
            format!("{loser} resigned: {}", result_line(game.outcome()))
        }
        Some(ending::Ending::Agreed) => "Draw agreed.".to_string(),
        Some(ending::Ending::Time(loser)) => {
            format!("{loser} ran out of time: {}", result_line(game.outcome()))
        }
        None if options.speech => speech::result(game.position()),
        None => result_sentence(game.position()),
    };
    writeln!(out, "{result}")?;
    record(game, out, options.speech)?;
    let record = game.record();
    if options.review {
        let judgements = review::review(&record, brain, &mut |_, _| {})
            .expect("nothing cancels the plain front end's searches");
        writeln!(out, "Review:")?;
        review::write_text(out, &judgements)?;
    }
    Ok(())
}
