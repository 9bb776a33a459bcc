//! `tictactoe analyze`: the value of every legal move of boards given in notation, as text or
//! JSON lines. The text report also serves the plain front end's hint.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::time::Duration;

use serde::Serialize;

use crate::board::{Board, Cell, Mark, Outcome};
use crate::search::{Searcher, Value, best_of};

/// Moves listed in reading order: top row first, left to right, as the board looks.
fn reading_order(analysis: &[(Cell, Value)]) -> Vec<(Cell, Value)> {
    let mut moves = analysis.to_vec();
    moves.sort_by_key(|(c, _)| (std::cmp::Reverse(c.row()), c.col()));
    moves
}

fn cell_list(cells: impl Iterator<Item = Cell>) -> String {
    cells.map(|c| c.to_string()).collect::<Vec<_>>().join(" ")
}

/// What is known of one position: its value and a best move (if the game goes on), and the
/// value of each legal move that was analysed.
#[derive(Clone, Debug)]
pub struct Report {
    pub board: Board,
    /// The position's value for the side to move, with a best move.
    pub head: Option<(Value, Cell)>,
    /// Every legal move's value (empty with `--best`).
    pub moves: Vec<(Cell, Value)>,
}

impl Report {
    /// A report made of a full analysis: the position's value is its best move's.
    pub fn from_moves(board: &Board, moves: Vec<(Cell, Value)>) -> Report {
        let head = reading_order(&best_of(&moves))
            .first()
            .map(|&(c, v)| (v, c));
        Report {
            board: *board,
            head,
            moves,
        }
    }

    /// Searches `board`: the position within `budget`, then, unless `best_only`, each move
    /// within its share of another `budget`.
    pub fn search(
        searcher: &mut Searcher,
        board: &Board,
        budget: Duration,
        best_only: bool,
    ) -> Report {
        let head = searcher
            .think(board, Some(budget))
            .map(|t| (t.value, t.cell));
        let moves = if best_only {
            Vec::new()
        } else {
            searcher.analyze_within(board, budget)
        };
        Report {
            board: *board,
            head,
            moves,
        }
    }

    fn best(&self) -> Vec<Cell> {
        if self.moves.is_empty() {
            self.head.map(|(_, c)| c).into_iter().collect()
        } else {
            reading_order(&best_of(&self.moves))
                .into_iter()
                .map(|(c, _)| c)
                .collect()
        }
    }
}

/// The human-readable report: the position's status and value with a best move, then every
/// move's value and the best moves. Proven values read `win in 7`, `draw`, `loss in 4`;
/// estimates read `estimate +12`.
pub fn text(report: &Report) -> String {
    let mut s = String::new();
    let board = &report.board;
    match board.outcome() {
        Outcome::Won { winner, line } => {
            let _ = writeln!(s, "  game over: {winner} won ({})", cell_list(line.cells()));
        }
        Outcome::Draw => s.push_str("  game over: draw\n"),
        Outcome::InProgress => {
            let mover = board.to_move();
            if let Some((value, cell)) = report.head {
                let _ = writeln!(s, "  {mover} to move: {value}, best move {cell}");
            }
            for &(cell, value) in &reading_order(&report.moves) {
                let _ = writeln!(s, "  {cell}: {value}");
            }
            if !report.moves.is_empty() {
                let _ = writeln!(s, "  best: {}", cell_list(report.best().into_iter()));
            }
        }
    }
    s
}

/// A value in JSON: its words, its result, the plies to the end when decided, whether it is
/// proven, and the score of an estimate. Shared with the review's JSON.
#[derive(Clone, Debug, Serialize)]
pub(crate) struct JsonValue {
    value: String,
    result: &'static str,
    plies: Option<u32>,
    proven: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    estimate: Option<i32>,
}

impl From<Value> for JsonValue {
    fn from(value: Value) -> Self {
        let (result, plies, estimate) = match value {
            Value::Win(n) => ("win", Some(n), None),
            Value::Draw => ("draw", None, None),
            Value::Loss(n) => ("loss", Some(n), None),
            Value::Estimate(e) => ("estimate", None, Some(e)),
        };
        JsonValue {
            value: value.to_string(),
            result,
            plies,
            proven: value.is_proven(),
            estimate,
        }
    }
}

/// One line of `analyze --json`; the fields in the order they are written.
#[derive(Serialize)]
struct JsonReport {
    board: String,
    to_move: String,
    outcome: &'static str,
    line: Option<Vec<String>>,
    value: Option<JsonValue>,
    best_move: Option<String>,
    moves: Vec<JsonMove>,
    best: Vec<String>,
}

#[derive(Serialize)]
struct JsonMove {
    cell: String,
    #[serde(flatten)]
    value: JsonValue,
}

/// The line of `analyze --json` for a board that could not be read.
#[derive(Serialize)]
struct JsonBadBoard<'a> {
    board: &'a str,
    error: &'a str,
}

fn cell_names(cells: impl Iterator<Item = Cell>) -> Vec<String> {
    cells.map(|c| c.to_string()).collect()
}

/// One JSON object on one line. Fields: `board`, `to_move`, `outcome` (`in_progress`, `draw`,
/// `x_won`, `o_won`), `line` (cells of the completed line, or null), `value` (the position's
/// value for the side to move, or null), `best_move`, `moves` (cell, value, result, plies,
/// proven, and `estimate` for estimates) and `best`.
pub fn json(report: &Report) -> String {
    let board = &report.board;
    let (outcome, line) = match board.outcome() {
        Outcome::InProgress => ("in_progress", None),
        Outcome::Draw => ("draw", None),
        Outcome::Won { winner, line } => {
            let name = match winner {
                Mark::X => "x_won",
                Mark::O => "o_won",
            };
            (name, Some(cell_names(line.cells())))
        }
    };
    let json = JsonReport {
        board: board.to_string(),
        to_move: board.to_move().to_string(),
        outcome,
        line,
        value: report.head.map(|(v, _)| v.into()),
        best_move: report.head.map(|(_, c)| c.to_string()),
        moves: reading_order(&report.moves)
            .into_iter()
            .map(|(c, v)| JsonMove {
                cell: c.to_string(),
                value: v.into(),
            })
            .collect(),
        best: cell_names(report.best().into_iter()),
    };
    serde_json::to_string(&json).expect("a report serializes")
}

/// How `analyze` reads and searches its boards.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The size every board must have, if given.
    pub size: Option<u8>,
    /// Marks in a row; the board size's default if not given.
    pub k: Option<u8>,
    pub misere: bool,
    /// Search time for the position, and again for its moves.
    pub budget: Duration,
    pub json: bool,
    /// Only the position's value and one best move.
    pub best_only: bool,
    pub table_mb: usize,
}

/// Analyzes each board (`-` reads more, one per line, from `input`) and writes the reports to
/// `out`. A bad board's message goes to `err` (and, with `json`, an error object to `out`);
/// the rest are still analyzed. Returns the exit status: 0, or 2 if any board was bad.
pub fn run(
    boards: &[String],
    options: Options,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let searcher = Searcher::with_table_mb(options.table_mb);
    let mut reporter = Reporter {
        searcher,
        options,
        status: 0,
        out,
        err,
    };
    for arg in boards {
        if arg != "-" {
            reporter.board(arg)?;
            continue;
        }
        let mut buf = Vec::new();
        for line_no in 1.. {
            buf.clear();
            if input.read_until(b'\n', &mut buf)? == 0 {
                break;
            }
            match std::str::from_utf8(&buf) {
                Ok(line) if line.trim().is_empty() => {}
                Ok(line) => reporter.board(line.trim())?,
                Err(_) => {
                    let label = format!("line {line_no} of standard input");
                    reporter.bad(&label, &label, "not valid UTF-8")?;
                }
            }
        }
    }
    Ok(reporter.status)
}

struct Reporter<'a> {
    searcher: Searcher,
    options: Options,
    status: u8,
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
}

impl Reporter<'_> {
    fn board(&mut self, notation: &str) -> io::Result<()> {
        let label = format!("{notation:?}");
        let o = self.options;
        let board = match Board::parse_with(notation, o.k, o.misere) {
            Ok(board) => board,
            Err(e) => return self.bad(&label, notation, &e.to_string()),
        };
        if let Some(size) = o.size.filter(|&n| n != board.size()) {
            let n = board.size();
            let why = format!("the board is {n}×{n} but --size is {size}");
            return self.bad(&label, notation, &why);
        }
        let report = Report::search(&mut self.searcher, &board, o.budget, o.best_only);
        if o.json {
            writeln!(self.out, "{}", json(&report))
        } else {
            write!(self.out, "{board}\n{}", text(&report))
        }
    }

    /// Reports a bad board: `label` names it for people, `raw` is the text as given.
    fn bad(&mut self, label: &str, raw: &str, why: &str) -> io::Result<()> {
        self.status = 2;
        writeln!(self.err, "tictactoe: bad board {label}: {why}")?;
        if self.options.json {
            let line = JsonBadBoard {
                board: raw,
                error: why,
            };
            let line = serde_json::to_string(&line).expect("an error serializes");
            writeln!(self.out, "{line}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_what_it_must() {
        let line = JsonBadBoard {
            board: "a\"b\\c\n\u{1}é",
            error: "",
        };
        assert_eq!(
            serde_json::to_string(&line).unwrap(),
            r#"{"board":"a\"b\\c\n\u0001é","error":""}"#
        );
    }

    #[test]
    fn text_lists_moves_top_row_first() {
        let board: Board = "X.O/.X./..O".parse().unwrap();
        let analysis = Searcher::new().analyze(&board);
        let report = text(&Report::from_moves(&board, analysis));
        let cells: Vec<&str> = report
            .lines()
            .filter_map(|l| l.trim().split_once(": ").map(|(c, _)| c))
            .filter(|c| c.len() == 1)
            .collect();
        assert_eq!(cells, ["8", "4", "6", "1", "2"]);
    }
}
