//! The line-based front end, for pipes, scripts and terminals that want no full screen.
//!
//! It prints the board after every move, prompts a human for a line, and announces AI moves.
//! A bad line gets one line naming the problem and the same prompt again; the board is
//! untouched.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};

use crate::analyze;
use crate::board::{Board, Cell, Mark, MoveError, Outcome};
use crate::game::{Game, Session};
use crate::player::Brain;
use crate::review;

/// How a plain session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    /// The game reached a result.
    Finished,
    /// The player typed `q`.
    Quit,
    /// Input ended before the game did.
    InputEnded,
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

/// The one-line result of a finished game.
pub fn result_line(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Won {
            winner: Mark::X, ..
        } => "X wins.",
        Outcome::Won {
            winner: Mark::O, ..
        } => "O wins.",
        Outcome::Draw | Outcome::InProgress => "Draw.",
    }
}

fn cell_range(board: &Board) -> String {
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
/// result line and the game's `Record:` line (and, with `options.review`, its review).
pub fn run(
    session: &mut Session,
    brain: &mut Brain,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    options: Options,
) -> io::Result<Ending> {
    let game = session.game_mut();
    write!(out, "{}", grid(game.board()))?;
    let mut buf = Vec::new();
    loop {
        let Some((mark, player)) = game.turn() else {
            finish(game, brain, out, options)?;
            return Ok(Ending::Finished);
        };
        if let Some(cell) = brain.choose(player, game.board()) {
            game.play(cell).expect("the AI plays legal moves");
            writeln!(out, "{mark} ({player}) plays {cell}")?;
            write!(out, "{}", grid(game.board()))?;
            continue;
        }
        prompt(game, out)?;
        buf.clear();
        if input.read_until(b'\n', &mut buf)? == 0 {
            writeln!(out)?;
            return Ok(Ending::InputEnded);
        }
        match typed(game, &buf, out, options.echo)? {
            Typed::Cell(cell) => play(game, cell, out)?,
            Typed::Quit => {
                writeln!(out, "Quit.")?;
                return Ok(Ending::Quit);
            }
            Typed::Undo => match game.undo() {
                0 => writeln!(out, "Nothing to undo.")?,
                n => {
                    let s = if n == 1 { "" } else { "s" };
                    writeln!(out, "Took back {n} move{s}.")?;
                    write!(out, "{}", grid(game.board()))?;
                }
            },
            Typed::Hint => hint(game, brain, out)?,
            Typed::Handled => {}
        }
    }
}

/// What a line typed at the prompt asks for, once the lines that only need an answer have
/// had it.
enum Typed {
    Cell(Cell),
    Quit,
    Undo,
    Hint,
    /// Answered already (help, a blank line, a line that names no cell).
    Handled,
}

/// The prompt for the side to move.
fn prompt(game: &Game, out: &mut dyn Write) -> io::Result<()> {
    let mark = game.board().to_move();
    let range = cell_range(game.board());
    write!(out, "{mark} to move ({range}, u undo, h hint, q quit): ")?;
    out.flush()
}

/// Reads one typed line (echoed back with `echo`); a line that asks for nothing the game must
/// do is answered here.
fn typed(game: &Game, buf: &[u8], out: &mut dyn Write, echo: bool) -> io::Result<Typed> {
    let range = cell_range(game.board());
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
            writeln!(
                out,
                "Type a cell ({range}; on 3×3 the numpad layout, 7 8 9 is the top row, or a coordinate like b2), u to undo your last move, h for the value of every move, q to quit."
            )?;
            Typed::Handled
        }
        _ => match game.board().parse_cell(line) {
            Err(e) => {
                writeln!(out, "{e}.")?;
                Typed::Handled
            }
            Ok(cell) => Typed::Cell(cell),
        },
    })
}

/// Plays a typed cell for the side to move and shows the board, or says why not.
fn play(game: &mut Game, cell: Cell, out: &mut dyn Write) -> io::Result<()> {
    match game.play(cell) {
        Ok(()) => write!(out, "{}", grid(game.board())),
        Err(MoveError::Occupied(c)) => writeln!(out, "Cell {c} is taken: pick an empty cell."),
        Err(e @ MoveError::GameOver) => writeln!(out, "{e}."),
    }
}

fn hint(game: &Game, brain: &mut Brain, out: &mut dyn Write) -> io::Result<()> {
    let report = analyze::Report::from_moves(game.board(), brain.hint(game.board()));
    write!(out, "Hint:\n{}", analyze::text(&report))
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
