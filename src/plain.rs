//! The line-based front end, for pipes, scripts and terminals that want no full screen.
//!
//! It prints the board after every move, prompts a human for a line, and announces AI moves.
//! A bad line gets one line naming the problem and the same prompt again; the board is
//! untouched.

use std::collections::VecDeque;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{Receiver, Sender};
use std::thread;

use crate::analyze;
use crate::board::{self, Board, Mark};
use crate::game::{Game, Session};
use crate::line;
use crate::net::peer::{Link, NetEvent};
use crate::net::protocol::Message;
use crate::player::Brain;
use crate::position::{Move, MoveError, Outcome, Position};
use crate::review;
use crate::ultimate::{SmallStatus, UltimateBoard};

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
}

/// The board in the classic layout, top row first. On 3×3 empty cells show their numpad
/// digit; larger boards show `.` and coordinate labels along the edges.
pub fn grid(board: &Board) -> String {
    let n = board.size();
    let mut s = String::new();
    let labels = n > 3;
    let indent = if labels { "  " } else { "" };
    let rule = format!("{indent}{}\n", vec!["---"; usize::from(n)].join("+"));
    for row in (0..n).rev() {
        if labels {
            let _ = write!(s, "{} ", row + 1);
        }
        let cells: Vec<String> = (0..n)
            .map(|col| {
                let cell = board.cell_at(row, col).expect("row and col are in range");
                let c = match (board.mark_at(cell), cell.numpad()) {
                    (Some(m), _) => m.symbol(),
                    (None, Some(d)) => char::from(b'0' + d),
                    (None, None) => '.',
                };
                format!(" {c} ")
            })
            .collect();
        s.push_str(cells.join("|").trim_end());
        s.push('\n');
        if row > 0 {
            s.push_str(&rule);
        }
    }
    if labels {
        let letters: Vec<String> = (0..n)
            .map(|col| format!(" {} ", char::from(b'a' + col)))
            .collect();
        let _ = writeln!(s, "{indent}{}", letters.join(" ").trim_end());
    }
    s
}

/// The 9×9 grid of Ultimate tic-tac-toe under a header of the closed boards, top row first,
/// with coordinates along the edges and lines between the small boards. Empty cells show `.`,
/// except in the board the side to move is sent to, where they show their numpad digit (the
/// one key that plays there).
pub fn ultimate_grid(board: &UltimateBoard) -> String {
    let mut s = String::new();
    let closed = |status: SmallStatus| -> Vec<String> {
        (1..=9)
            .filter(|&b| board.small_board_status(b) == status)
            .map(|b| b.to_string())
            .collect()
    };
    let mut parts = Vec::new();
    for (status, name) in [
        (SmallStatus::Won(Mark::X), "X won"),
        (SmallStatus::Won(Mark::O), "O won"),
        (SmallStatus::Full, "full"),
    ] {
        let boards = closed(status);
        if !boards.is_empty() {
            parts.push(format!("{name} {}", boards.join(" ")));
        }
    }
    if parts.is_empty() {
        s.push_str("Boards: none closed yet\n");
    } else {
        let _ = writeln!(s, "Boards: {}", parts.join(" · "));
    }
    let forced = board.forced_board();
    for row in (0..9u8).rev() {
        let _ = write!(s, "{} ", row + 1);
        for col in 0..9u8 {
            let mv = crate::ultimate::Move::at(col, row).expect("row and col are in range");
            let c = match board.mark(mv) {
                Some(m) => m.symbol(),
                None if forced == Some(mv.board()) => char::from(b'0' + mv.cell()),
                None => '.',
            };
            let gap = if col == 3 || col == 6 { " | " } else { " " };
            let _ = write!(s, "{gap}{c}");
        }
        s.push('\n');
        if row == 6 || row == 3 {
            s.push_str("  -------+-------+-------\n");
        }
    }
    s.push_str("   a b c   d e f   g h i\n");
    s
}

/// The position as the plain front end prints it.
pub fn show(position: &Position) -> String {
    match position {
        Position::Classic(board) => grid(board),
        Position::Ultimate(board) => ultimate_grid(board),
    }
}

/// The one-line result of a finished game.
pub fn result_line(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Won(Mark::X) => "X wins.",
        Outcome::Won(Mark::O) => "O wins.",
        Outcome::Draw | Outcome::InProgress => "Draw.",
    }
}

/// What a move looks like, for messages: `1-9`, `a1-e5`, or the Ultimate forms.
fn cell_range(position: &Position) -> String {
    let board = match position {
        Position::Classic(board) => board,
        Position::Ultimate(board) if board.forced_board().is_some() => {
            return "1-9".to_string();
        }
        Position::Ultimate(_) => return "board then cell, e.g. 53".to_string(),
    };
    let n = board.size();
    let last = format!("{}{}", char::from(b'a' + n - 1), n);
    if n == 3 {
        "1-9".to_string()
    } else {
        format!("a1-{last}")
    }
}

/// How the plain front end talks.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Write each line read back after the prompt, so a transcript of piped input reads like
    /// a terminal session.
    pub echo: bool,
    /// Judge every move once the game is over and print the review.
    pub review: bool,
}

/// Plays the session's game to the end through lines of text. A finished game ends with the
/// result line and the game's `Record:` line (and, with `options.review`, its review); a game
/// left with `q` ends with `Quit.` and its record so far.
pub fn run(
    session: &mut Session,
    brain: &mut Brain,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    options: Options,
) -> io::Result<Ending> {
    let game = session.game_mut();
    write!(out, "{}", show(game.position()))?;
    let mut buf = Vec::new();
    loop {
        let Some((mark, player)) = game.turn() else {
            finish(game, brain, out, options)?;
            return Ok(Ending::Finished);
        };
        if let Some(cell) = brain.choose(player, game.position()) {
            game.play(cell).expect("the AI plays legal moves");
            writeln!(out, "{mark} ({player}) plays {cell}")?;
            write!(out, "{}", show(game.position()))?;
            continue;
        }
        prompt(game, out)?;
        buf.clear();
        if line::read_line(input, &mut buf)? == 0 {
            writeln!(out)?;
            return Ok(Ending::InputEnded);
        }
        match typed(game, &buf, out, options.echo)? {
            Typed::Cell(cell) => {
                play(game, cell, out)?;
            }
            Typed::Quit => {
                writeln!(out, "Quit.")?;
                if !game.history().is_empty() {
                    writeln!(out, "Record: {}", game.record())?;
                }
                return Ok(Ending::Quit);
            }
            Typed::Undo => match game.undo() {
                0 => writeln!(out, "Nothing to undo.")?,
                n => {
                    let s = if n == 1 { "" } else { "s" };
                    writeln!(out, "Took back {n} move{s}.")?;
                    write!(out, "{}", show(game.position()))?;
                }
            },
            Typed::Hint => hint(game, brain, out)?,
            Typed::Handled => {}
        }
    }
}

/// What the plain network game waits for.
#[derive(Debug)]
pub enum Input {
    /// A line typed (or piped) by the local player.
    Line(Vec<u8>),
    /// The local input ended.
    Ended,
    Net(NetEvent),
}

/// Reads `input`'s lines on a thread of their own and sends them, then [`Input::Ended`].
pub fn read_lines(mut input: impl BufRead + Send + 'static, tx: Sender<Input>) -> io::Result<()> {
    thread::Builder::new().name("input".into()).spawn(move || {
        loop {
            let mut buf = Vec::new();
            let message = match line::read_line(&mut input, &mut buf) {
                Ok(0) | Err(_) => Input::Ended,
                Ok(_) => Input::Line(buf),
            };
            let ended = matches!(message, Input::Ended);
            if tx.send(message).is_err() || ended {
                break;
            }
        }
    })?;
    Ok(())
}

/// The network side of a plain game.
pub struct Remote<'a> {
    pub link: Link,
    /// Typed lines and the network's events, in the order they happened.
    pub events: &'a Receiver<Input>,
    /// Called when the connection is lost: a joiner starts trying to get back in.
    pub on_lost: &'a dyn Fn(),
    /// Called whenever the session changes: a host keeps what a rejoining player gets.
    pub publish: &'a dyn Fn(&Session),
    /// Whether this side hosts (its record is the truth after a rejoin).
    pub host: bool,
}

/// Typed lines kept while it is the other player's turn, at most this many.
const TYPED_AHEAD: usize = 32;

/// Plays one game against the player at the other end of `remote.link`: local moves are sent,
/// the other side's moves are checked with the rules before they are played, and a lost
/// connection waits for a rejoin. Ends like [`run`], or with [`Ending::Left`] and
/// [`Ending::Disconnected`].
pub fn run_network(
    session: &mut Session,
    brain: &mut Brain,
    remote: &Remote<'_>,
    out: &mut dyn Write,
    options: Options,
) -> io::Result<Ending> {
    write!(out, "{}", show(session.game().position()))?;
    let mut typed_ahead: VecDeque<Vec<u8>> = VecDeque::new();
    let mut input_ended = false;
    let mut flow = Flow {
        connected: true,
        announced: false,
    };
    loop {
        (remote.publish)(session);
        let game = session.game_mut();
        let Some((mark, player)) = game.turn() else {
            finish(game, brain, out, options)?;
            remote.link.leave();
            return Ok(Ending::Finished);
        };
        if player.is_human() && !flow.announced {
            prompt(game, out)?;
        } else if !flow.announced {
            writeln!(out, "Waiting for {mark} (remote)…")?;
        }
        flow.announced = true;
        let event = match typed_ahead.pop_front() {
            Some(line) if player.is_human() => Input::Line(line),
            Some(line) => {
                typed_ahead.push_front(line);
                remote.events.recv().unwrap_or(Input::Ended)
            }
            None if input_ended && player.is_human() => {
                writeln!(out)?;
                remote.link.leave();
                return Ok(Ending::InputEnded);
            }
            None => remote.events.recv().unwrap_or(Input::Ended),
        };
        match event {
            Input::Line(line) if !player.is_human() => {
                if typed_ahead.len() < TYPED_AHEAD {
                    typed_ahead.push_back(line);
                }
            }
            Input::Line(line) => {
                flow.announced = false;
                match typed(game, &line, out, options.echo)? {
                    // The joiner waits to be back in; the host plays on, and a player who
                    // rejoins gets its moves.
                    Typed::Cell(_) if !flow.connected && !remote.host => {
                        let them = mark.other();
                        writeln!(out, "Not connected: wait for {them} to come back.")?;
                    }
                    Typed::Cell(cell) => {
                        if play(game, cell, out)? {
                            let seq = game.history().len() as u32;
                            let message = Message::Move {
                                seq,
                                cell: cell.to_string(),
                            };
                            // The session first: a player joining meanwhile gets the move
                            // in its hello or after it.
                            (remote.publish)(session);
                            remote.link.send(&message);
                        }
                    }
                    Typed::Quit => {
                        remote.link.leave();
                        writeln!(out, "Quit.")?;
                        if !game.history().is_empty() {
                            writeln!(out, "Record: {}", game.record())?;
                        }
                        return Ok(Ending::Quit);
                    }
                    Typed::Undo => writeln!(out, "Undo is not available in network games.")?,
                    Typed::Hint => hint(game, brain, out)?,
                    Typed::Handled => {}
                }
            }
            Input::Ended => input_ended = true,
            Input::Net(event) => {
                if let Some(ending) = on_net(session, remote, event, &mut flow, out)? {
                    return Ok(ending);
                }
            }
        }
    }
}

/// Where a plain network game stands besides the session.
struct Flow {
    connected: bool,
    /// Whether this turn's prompt (or waiting line) has been printed.
    announced: bool,
}

/// Acts on one network event; `Some` ends the game.
fn on_net(
    session: &mut Session,
    remote: &Remote<'_>,
    event: NetEvent,
    flow: &mut Flow,
    out: &mut dyn Write,
) -> io::Result<Option<Ending>> {
    let them = session.remote_mark().unwrap_or(Mark::O);
    match event {
        NetEvent::Received(Message::Move { seq, cell }) => match session.remote_move(seq, &cell) {
            Ok(None) => {}
            Ok(Some(c)) => {
                writeln!(out, "{them} (remote) plays {c}")?;
                write!(out, "{}", show(session.game().position()))?;
                flow.announced = false;
            }
            Err(why) => {
                writeln!(out, "Refused a move from {them}: {why}.")?;
                remote.link.refuse(&why);
            }
        },
        NetEvent::Received(Message::Bye) => {
            writeln!(out, "{them} left the game.")?;
            remote.link.leave();
            return Ok(Some(Ending::Left));
        }
        NetEvent::Received(Message::Error { message }) => {
            writeln!(out, "{them}'s side reports: {message:.200}")?;
        }
        // This front end plays one game, and it is not over: no rematch yet.
        NetEvent::Received(Message::Rematch) => {
            let why = "a rematch can only be asked for after a game";
            writeln!(out, "Refused a message from {them}: {why}.")?;
            remote.link.refuse(why);
        }
        NetEvent::Received(_) => {}
        NetEvent::Lost(why) => {
            flow.connected = false;
            if remote.host {
                writeln!(
                    out,
                    "{them}'s connection was lost ({why}); waiting for them to rejoin."
                )?;
            } else {
                writeln!(
                    out,
                    "The connection to {them} was lost ({why}); trying to get back in…"
                )?;
            }
            (remote.on_lost)();
        }
        NetEvent::Joined(addr) => {
            flow.connected = true;
            flow.announced = false;
            writeln!(out, "{them} is back ({addr}).")?;
        }
        NetEvent::Rejoined(state) => match session.restored(&state) {
            Ok(back) => {
                *session = back;
                flow.connected = true;
                flow.announced = false;
                writeln!(out, "Back in.")?;
                write!(out, "{}", show(session.game().position()))?;
            }
            Err(why) => {
                writeln!(out, "The host's game does not replay here: {why}.")?;
                remote.link.leave();
                return Ok(Some(Ending::Disconnected));
            }
        },
        NetEvent::Refused(why) => {
            writeln!(out, "Could not get back in: {why}.")?;
            return Ok(Some(Ending::Disconnected));
        }
        NetEvent::Notice(text) => writeln!(out, "{text}")?,
    }
    Ok(None)
}

/// What a line typed at the prompt asks for, once the lines that only need an answer have
/// had it.
enum Typed {
    Cell(Move),
    Quit,
    Undo,
    Hint,
    /// Answered already (help, a blank line, a line that names no cell).
    Handled,
}

/// The prompt for the side to move: `X to move (1-9, u undo, h hint, q quit): `, and in
/// Ultimate `X to move on board 3 (1-9, …): ` or `X to move anywhere (board then cell, e.g.
/// 53): `.
fn prompt(game: &Game, out: &mut dyn Write) -> io::Result<()> {
    let position = game.position();
    let mark = position.to_move();
    let range = cell_range(position);
    match position {
        Position::Ultimate(board) => match board.forced_board() {
            Some(b) => write!(
                out,
                "{mark} to move on board {b} ({range}, u undo, h hint, q quit): "
            )?,
            None => write!(out, "{mark} to move anywhere ({range}): ")?,
        },
        Position::Classic(_) => write!(out, "{mark} to move ({range}, u undo, h hint, q quit): ")?,
    }
    out.flush()
}

/// Reads one typed line (echoed back with `echo`); a line that asks for nothing the game must
/// do is answered here.
fn typed(game: &Game, buf: &[u8], out: &mut dyn Write, echo: bool) -> io::Result<Typed> {
    let range = cell_range(game.position());
    if line::too_long(buf) {
        if echo {
            writeln!(out, "{}", line::quote(buf))?;
        }
        let why = line::why_too_long(buf);
        writeln!(out, "That line is {why}: type a cell ({range}), u, h or q.")?;
        return Ok(Typed::Handled);
    }
    let Ok(line) = std::str::from_utf8(buf) else {
        if echo {
            writeln!(out, "{}", String::from_utf8_lossy(buf).trim_end())?;
        }
        writeln!(
            out,
            "That line is not valid text (UTF-8): type a cell ({range}), u, h or q."
        )?;
        return Ok(Typed::Handled);
    };
    if echo {
        writeln!(out, "{}", line.trim_end())?;
    }
    let command = line.trim().to_ascii_lowercase();
    Ok(match command.as_str() {
        "" => {
            writeln!(
                out,
                "Type a cell ({range}), u to undo, h for a hint or q to quit."
            )?;
            Typed::Handled
        }
        "q" | "quit" => Typed::Quit,
        "u" | "undo" => Typed::Undo,
        "h" | "hint" => Typed::Hint,
        "?" | "help" => {
            if game.variant().rules().is_some() {
                writeln!(
                    out,
                    "Type a cell ({range}; on 3×3 the numpad layout, 7 8 9 is the top row, or a coordinate like b2), u to undo your last move, h for the value of every move, q to quit."
                )?;
            } else {
                writeln!(
                    out,
                    "Type a board and a cell as two digits, both laid out as the numpad (53: board 5, cell 3; 7 8 9 is the top row), or one digit when you are sent to a board, or a coordinate a1-i9; u to undo your last move, h for every move's win rate, q to quit."
                )?;
            }
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

/// `text` with its first letter in upper case, to start a sentence.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Plays a typed move for the side to move and shows the board, or says why not. Returns
/// whether it was played.
fn play(game: &mut Game, mv: Move, out: &mut dyn Write) -> io::Result<bool> {
    match game.play(mv) {
        Ok(()) => write!(out, "{}", show(game.position())).map(|()| true),
        Err(MoveError::Classic(board::MoveError::Occupied(c))) => {
            writeln!(out, "Cell {c} is taken: pick an empty cell.").map(|()| false)
        }
        Err(e @ MoveError::Ultimate(_)) => {
            writeln!(out, "{}.", sentence(&e.to_string())).map(|()| false)
        }
        Err(e) => writeln!(out, "{e}.").map(|()| false),
    }
}

fn hint(game: &Game, brain: &mut Brain, out: &mut dyn Write) -> io::Result<()> {
    let moves = brain.hint(game.position());
    let text = match game.position() {
        Position::Classic(board) => {
            let cells = moves
                .into_iter()
                .filter_map(|(mv, v)| match mv {
                    Move::Classic(c) => Some((c, v)),
                    Move::Ultimate(_) => None,
                })
                .collect();
            analyze::text(&analyze::Report::from_moves(board, cells))
        }
        Position::Ultimate(board) => {
            analyze::ultimate_text(&analyze::UltimateReport::from_moves(board, &moves))
        }
    };
    write!(out, "Hint:\n{text}")
}

/// The end of a game: the result line, the record and, if asked for, the review.
fn finish(game: &Game, brain: &mut Brain, out: &mut dyn Write, options: Options) -> io::Result<()> {
    writeln!(out, "{}", result_line(game.outcome()))?;
    let record = game.record();
    writeln!(out, "Record: {record}")?;
    if options.review {
        let judgements = brain
            .review(&record, &mut |_, _| {})
            .expect("nothing cancels the plain front end's searches");
        writeln!(out, "Review:")?;
        review::write_text(out, &judgements)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[rustfmt::skip]
    fn grid_shows_digits_in_empty_cells() {
        let board: Board = "XO./.X./..O".parse().unwrap();
        assert_eq!(grid(&board), concat!(
            " X | O | 9\n",
            "---+---+---\n",
            " 4 | X | 6\n",
            "---+---+---\n",
            " 1 | 2 | O\n",
        ));
    }

    #[test]
    #[rustfmt::skip]
    fn larger_grids_have_coordinates() {
        let board: Board = "X.../..../..../...O".parse().unwrap();
        assert_eq!(grid(&board), concat!(
            "4  X | . | . | .\n",
            "  ---+---+---+---\n",
            "3  . | . | . | .\n",
            "  ---+---+---+---\n",
            "2  . | . | . | .\n",
            "  ---+---+---+---\n",
            "1  . | . | . | O\n",
            "   a   b   c   d\n",
        ));
    }
}
