//! `tictactoe analyze`: the value of every legal move of boards given in notation, as text or
//! JSON lines. The text report also serves the plain front end's hint.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::time::Duration;

use serde::Serialize;

use crate::board::{Board, Cell, Mark, Outcome};
use crate::line;
use crate::mcts::{self, Mcts};
use crate::position;
use crate::search::{Searcher, Value, best_of};
use crate::ultimate::{self, UltimateBoard};

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

/// The line of `analyze --ultimate --json` for a position that could not be read: named as
/// its good lines name theirs.
#[derive(Serialize)]
struct JsonBadPosition<'a> {
    position: &'a str,
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

/// What is known of one Ultimate position: its value and a best move (if the game goes on),
/// and the value of each legal move that was analysed. Values are proven results or, from the
/// Monte Carlo search, estimates of the win rate.
#[derive(Clone, Debug)]
pub struct UltimateReport {
    pub board: UltimateBoard,
    pub head: Option<(Value, ultimate::Move)>,
    pub moves: Vec<(ultimate::Move, Value)>,
}

impl UltimateReport {
    /// A report made of a full analysis (Ultimate moves only are taken from `moves`).
    pub fn from_moves(board: &UltimateBoard, moves: &[(position::Move, Value)]) -> UltimateReport {
        let moves: Vec<(ultimate::Move, Value)> = moves
            .iter()
            .filter_map(|&(mv, v)| match mv {
                position::Move::Ultimate(m) => Some((m, v)),
                position::Move::Classic(_) => None,
            })
            .collect();
        let head = moves
            .iter()
            .max_by_key(|&&(m, v)| (v, std::cmp::Reverse(m)))
            .map(|&(m, v)| (v, m));
        UltimateReport {
            board: *board,
            head,
            moves,
        }
    }

    /// Searches `board` within `budget`: every move, or with `best_only` just the position.
    pub fn search(
        mcts: &mut Mcts,
        board: &UltimateBoard,
        budget: Duration,
        best_only: bool,
    ) -> UltimateReport {
        if best_only {
            let head = mcts.think(board, budget).map(|c| (c.value, c.mv));
            return UltimateReport {
                board: *board,
                head,
                moves: Vec::new(),
            };
        }
        let moves: Vec<(position::Move, Value)> = mcts
            .analyze(board, budget)
            .into_iter()
            .map(|(m, v)| (position::Move::Ultimate(m), v))
            .collect();
        UltimateReport::from_moves(board, &moves)
    }

    /// The moves as good as the best, in move order.
    fn best(&self) -> Vec<ultimate::Move> {
        let Some((value, mv)) = self.head else {
            return Vec::new();
        };
        if self.moves.is_empty() {
            return vec![mv];
        }
        self.moves
            .iter()
            .filter(|&&(_, v)| v == value)
            .map(|&(m, _)| m)
            .collect()
    }
}

/// An Ultimate value in words: `win in 5`, `draw`, `loss in 3`, or an estimate as the win
/// rate of the side to move (a draw counts half), `62%`.
pub fn ultimate_words(value: Value) -> String {
    match value {
        Value::Estimate(_) => format!("{:.0}%", mcts::win_rate(value) * 100.0),
        proven => proven.to_string(),
    }
}

/// Where the side to move may play: `on board 3` or `anywhere`.
fn where_to(board: &UltimateBoard) -> String {
    board
        .forced_board()
        .map_or_else(|| "anywhere".to_string(), |b| format!("on board {b}"))
}

/// The human-readable Ultimate report: the side to move and where it may play, the value
/// with a best move, then every move's value (proven, or an estimated win rate) and the best
/// moves.
pub fn ultimate_text(report: &UltimateReport) -> String {
    let mut s = String::new();
    let board = &report.board;
    let boards = |line: ultimate::Line| {
        line.digits()
            .map(|d| d.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    };
    match board.outcome() {
        ultimate::Outcome::Won { winner, line } => {
            let _ = writeln!(s, "  game over: {winner} won (boards {})", boards(line));
        }
        ultimate::Outcome::Draw => s.push_str("  game over: draw\n"),
        ultimate::Outcome::InProgress => {
            let mover = board.to_move();
            let _ = write!(s, "  {mover} to move {}", where_to(board));
            if let Some((value, mv)) = report.head {
                let estimated = if value.is_proven() {
                    ""
                } else {
                    " to win (estimated)"
                };
                let _ = write!(s, ": {}{estimated}, best move {mv}", ultimate_words(value));
            }
            s.push('\n');
            for &(mv, value) in &report.moves {
                let _ = writeln!(s, "  {mv}: {}", ultimate_words(value));
            }
            if !report.moves.is_empty() {
                let best: Vec<String> = report.best().iter().map(ToString::to_string).collect();
                let _ = writeln!(s, "  best: {}", best.join(" "));
            }
        }
    }
    s
}

/// An Ultimate value in JSON: as [`JsonValue`], plus the win rate (1 for a proven win, ½ for
/// a draw, 0 for a loss).
#[derive(Clone, Debug, Serialize)]
pub(crate) struct JsonUltimateValue {
    value: String,
    result: &'static str,
    plies: Option<u32>,
    proven: bool,
    win_rate: f32,
}

impl From<Value> for JsonUltimateValue {
    fn from(value: Value) -> Self {
        let (result, plies) = match value {
            Value::Win(n) => ("win", Some(n)),
            Value::Draw => ("draw", None),
            Value::Loss(n) => ("loss", Some(n)),
            Value::Estimate(_) => ("estimate", None),
        };
        JsonUltimateValue {
            value: ultimate_words(value),
            result,
            plies,
            proven: value.is_proven(),
            win_rate: (mcts::win_rate(value) * 1000.0).round() / 1000.0,
        }
    }
}

/// One JSON object on one line for an Ultimate position. Fields: `position` (the notation),
/// `to_move`, `forced_board` (a digit, or null for anywhere), `outcome`, `line` (the boards
/// of the winning line, or null), `value`, `best_move`, `moves` (move, value, result, plies,
/// proven, `win_rate`) and `best`.
pub fn ultimate_json(report: &UltimateReport) -> String {
    #[derive(Serialize)]
    struct Report {
        position: String,
        to_move: String,
        forced_board: Option<u8>,
        outcome: &'static str,
        line: Option<Vec<u8>>,
        value: Option<JsonUltimateValue>,
        best_move: Option<String>,
        moves: Vec<Entry>,
        best: Vec<String>,
    }
    #[derive(Serialize)]
    struct Entry {
        #[serde(rename = "move")]
        mv: String,
        #[serde(flatten)]
        value: JsonUltimateValue,
    }
    let board = &report.board;
    let (outcome, line) = match board.outcome() {
        ultimate::Outcome::InProgress => ("in_progress", None),
        ultimate::Outcome::Draw => ("draw", None),
        ultimate::Outcome::Won { winner, line } => (
            match winner {
                Mark::X => "x_won",
                Mark::O => "o_won",
            },
            Some(line.digits().collect()),
        ),
    };
    let json = Report {
        position: board.to_string(),
        to_move: board.to_move().to_string(),
        forced_board: board.forced_board(),
        outcome,
        line,
        value: report.head.map(|(v, _)| v.into()),
        best_move: report.head.map(|(_, m)| m.to_string()),
        moves: report
            .moves
            .iter()
            .map(|&(m, v)| Entry {
                mv: m.to_string(),
                value: v.into(),
            })
            .collect(),
        best: report.best().iter().map(ToString::to_string).collect(),
    };
    serde_json::to_string(&json).expect("a report serializes")
}

/// How `analyze` reads and searches its boards.
// Each bool is an independent flag of the command line, not a hidden state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The size every board must have, if given.
    pub size: Option<u8>,
    /// Marks in a row; the board size's default if not given.
    pub k: Option<u8>,
    pub misere: bool,
    /// Positions are Ultimate tic-tac-toe positions in their notation.
    pub ultimate: bool,
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
        mcts: None,
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
            if line::read_line(input, &mut buf)? == 0 {
                break;
            }
            if line::too_long(&buf) {
                let label = format!("line {line_no} of standard input");
                let why = format!("the line is {}", line::why_too_long(&buf));
                reporter.bad(&label, &line::start(&buf), &why)?;
                continue;
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
    /// The Ultimate search, made on the first Ultimate position.
    mcts: Option<Mcts>,
    options: Options,
    status: u8,
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
}

impl Reporter<'_> {
    fn board(&mut self, notation: &str) -> io::Result<()> {
        let label = format!("{notation:?}");
        let o = self.options;
        if o.ultimate {
            let board = match notation.parse::<UltimateBoard>() {
                Ok(board) => board,
                Err(e) => return self.bad(&label, notation, &e.to_string()),
            };
            let mcts = self.mcts.get_or_insert_with(|| Mcts::new(None));
            // Each position on its own: a tree kept from another position would only mislead.
            mcts.clear();
            let report = UltimateReport::search(mcts, &board, o.budget, o.best_only);
            return if o.json {
                writeln!(self.out, "{}", ultimate_json(&report))
            } else {
                write!(
                    self.out,
                    "{}\n{}",
                    crate::plain::ultimate_grid(&board),
                    ultimate_text(&report)
                )
            };
        }
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

    /// Reports a bad board (an Ultimate position): `label` names it for people, `raw` is the
    /// text as given.
    fn bad(&mut self, label: &str, raw: &str, why: &str) -> io::Result<()> {
        self.status = 2;
        let ultimate = self.options.ultimate;
        let noun = if ultimate { "position" } else { "board" };
        writeln!(self.err, "tictactoe: bad {noun} {label}: {why}")?;
        if self.options.json {
            let line = if ultimate {
                serde_json::to_string(&JsonBadPosition {
                    position: raw,
                    error: why,
                })
            } else {
                serde_json::to_string(&JsonBadBoard {
                    board: raw,
                    error: why,
                })
            };
            writeln!(self.out, "{}", line.expect("an error serializes"))?;
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
