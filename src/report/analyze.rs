//! `tictactoe analyze`: the value of every legal move of positions given in notation, as text
//! or JSON lines, for every rule set. The text report also serves the plain front end's hint.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};
use std::time::Duration;

use serde::{Serialize, Serializer, ser::SerializeMap};

use crate::ai::player::{self, Analysis, Brain, Line};
use crate::ai::search::Value;
use crate::report::board;
use crate::report::json::JsonValue;
use crate::rules::catalogue::{Asked, Shape};
use crate::rules::classic::Mark;
use crate::rules::gomoku::Rule;
use crate::rules::position::{Move, Outcome, Position, Variant, WonLine};
use crate::text::line;

/// What is known of one position: what the AI found, for the position it was found in.
#[derive(Clone, Debug)]
pub struct Report {
    pub position: Position,
    pub analysis: Analysis,
    /// The best lines, where they were asked for (`--lines`).
    pub lines: Vec<Line>,
}

impl Report {
    /// A report made of every move's value (a hint): the position is worth its best move's.
    pub fn from_moves(position: &Position, moves: Vec<(Move, Value)>) -> Report {
        Report {
            position: *position,
            analysis: Analysis::of_moves(moves),
            lines: Vec::new(),
        }
    }

    /// The moves analysed, in the order people read them (see [`Move::reading_key`]).
    fn moves(&self) -> Vec<(Move, Value)> {
        let mut moves = self.analysis.moves.clone();
        moves.sort_by_key(|&(m, _)| m.reading_key());
        moves
    }
}

fn names(moves: &[Move]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// A value in words, with ` to win (estimated)` after a win rate.
pub fn words(value: Value) -> String {
    match value {
        Value::WinRate(_) => format!("{value} to win (estimated)"),
        _ => value.to_string(),
    }
}

/// The human-readable report: the position's status and value with a best move (and in
/// Ultimate where the side to move may play), then every move's value and the best moves.
/// Proven values read `win in 7`, `draw`, `loss in 4`; estimates `estimate +12` or a win rate,
/// `62%`.
pub fn text(report: &Report) -> String {
    let mut s = String::new();
    let position = &report.position;
    match position.outcome() {
        Outcome::Won(winner) => {
            let line = position
                .won_line()
                .map(|l| l.to_string())
                .unwrap_or_default();
            let _ = writeln!(s, "  game over: {winner} won ({line})");
        }
        Outcome::Draw => s.push_str("  game over: draw\n"),
        Outcome::InProgress => {
            let mover = position.to_move();
            let place = position
                .whereabouts()
                .map(|w| format!(" {w}"))
                .unwrap_or_default();
            let _ = write!(s, "  {mover} to move{place}");
            if let Some((value, mv)) = report.analysis.head {
                let _ = write!(s, ": {}, best move {mv}", words(value));
            }
            s.push('\n');
            let listed = report.moves();
            for (mv, value) in &listed {
                let _ = writeln!(s, "  {mv}: {value}");
            }
            if !listed.is_empty() {
                let best = names(&report.analysis.best());
                let _ = writeln!(s, "  best: {}", best.join(" "));
            }
            for (i, line) in report.lines.iter().enumerate() {
                let _ = writeln!(s, "  {}", line_words(i + 1, line));
            }
        }
    }
    s
}

/// Line `number` in words: `line 1: win in 5: 4 6 1 7 3`.
pub fn line_words(number: usize, line: &Line) -> String {
    let moves = names(&line.moves).join(" ");
    format!("line {number}: {}: {moves}", words(line.value))
}

/// The notation of a position under the key its rule set names it by (`board` or
/// `position`), or a move under `cell` or `move`; flattened into a JSON object.
struct Named<'a>(&'static str, &'a str);

impl Serialize for Named<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry(self.0, self.1)?;
        map.end()
    }
}

/// One line of `analyze --json`; the fields in the order they are written.
#[derive(Serialize)]
struct JsonReport<'a> {
    #[serde(flatten)]
    position: Named<'a>,
    to_move: String,
    /// Written for rule sets with boards to be sent to (Ultimate), null for anywhere.
    #[serde(skip_serializing_if = "Forced::absent")]
    forced_board: Forced,
    outcome: &'static str,
    line: Option<WonLine>,
    value: Option<JsonValue>,
    best_move: Option<String>,
    moves: Vec<JsonMove<'a>>,
    best: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    lines: Vec<JsonLine>,
}

/// One of the best lines: its first move's value and its moves.
#[derive(Serialize)]
struct JsonLine {
    value: JsonValue,
    moves: Vec<String>,
}

/// The board the side to move is sent to (null: anywhere), for rule sets that have one.
#[derive(Serialize)]
#[serde(untagged)]
enum Forced {
    Absent,
    Board(Option<u8>),
}

impl Forced {
    fn absent(&self) -> bool {
        matches!(self, Forced::Absent)
    }
}

#[derive(Serialize)]
struct JsonMove<'a> {
    #[serde(flatten)]
    mv: Named<'a>,
    #[serde(flatten)]
    value: JsonValue,
}

/// The line of `analyze --json` for a position that could not be read: named as its rule
/// set's good lines name theirs.
#[derive(Serialize)]
struct JsonBad<'a> {
    #[serde(flatten)]
    position: Named<'a>,
    error: &'a str,
}

/// One JSON object on one line. Fields: `board` (`position` in Ultimate: the notation),
/// `to_move`, in Ultimate `forced_board` (a digit, or null for anywhere), `outcome`
/// (`in_progress`, `draw`, `x_won`, `o_won`), `line` (the cells, or Ultimate's boards, of the
/// winning line, or null), `value` (the position's value for the side to move, or null),
/// `best_move`, `moves` (`cell` or `move`, value, result, plies, proven, `estimate` for
/// heuristic estimates, `win_rate` where the AI reads values as rates) and `best`.
pub fn json(report: &Report) -> String {
    let position = &report.position;
    let variant = position.variant();
    let rates = player::rates(variant);
    let outcome = match position.outcome() {
        Outcome::InProgress => "in_progress",
        Outcome::Draw => "draw",
        Outcome::Won(Mark::X) => "x_won",
        Outcome::Won(Mark::O) => "o_won",
    };
    let notation = position.to_string();
    let moves = report.moves();
    let move_names = names(&moves.iter().map(|&(m, _)| m).collect::<Vec<_>>());
    let json = JsonReport {
        position: Named(variant.noun(), &notation),
        to_move: position.to_move().to_string(),
        forced_board: if variant.has_boards() {
            Forced::Board(position.forced_board())
        } else {
            Forced::Absent
        },
        outcome,
        line: position.won_line(),
        value: report.analysis.head.map(|(v, _)| JsonValue::new(v, rates)),
        best_move: report.analysis.head.map(|(_, m)| m.to_string()),
        moves: moves
            .iter()
            .zip(&move_names)
            .map(|(&(_, v), name)| JsonMove {
                mv: Named(json_move_key(variant), name),
                value: JsonValue::new(v, rates),
            })
            .collect(),
        best: names(&report.analysis.best()),
        lines: report
            .lines
            .iter()
            .map(|line| JsonLine {
                value: JsonValue::new(line.value, rates),
                moves: names(&line.moves),
            })
            .collect(),
    };
    serde_json::to_string(&json).expect("a report serializes")
}

/// The key of a move in `--json`: `move` where a move is a board and a cell (Ultimate),
/// else `cell`, on Gomoku's boards as on the classic ones (the word a player reads there is
/// `point`; the key stays what programs reading it were given).
fn json_move_key(variant: Variant) -> &'static str {
    match variant.move_noun() {
        _ if variant.has_boards() => "move",
        "column" => "column",
        _ => "cell",
    }
}

/// How `analyze` reads and searches its boards.
// Each bool is an independent flag of the command line, not a hidden state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The game the flags ask for, its name resolved ([`Asked::resolved`]): the size every
    /// board must have, if given; marks in a row (the board size's default if not given) and
    /// misère; the rule of Gomoku's boards (exactly five, renju's or caro's); nine boards, in
    /// Ultimate's notation; or a board that tells nothing of its game (Connect Four's rows,
    /// or the columns played, `4453`).
    pub asked: Asked,
    /// Search time for the position's moves (with `best_only`, for its value).
    pub budget: Duration,
    pub json: bool,
    /// Only the position's value and one best move.
    pub best_only: bool,
    /// The best lines to follow (`--lines`), none if 0.
    pub lines: usize,
    pub table_mb: usize,
    /// Threads for each search (see [`Brain::with_threads`]).
    pub threads: usize,
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
    let brain = Brain::new(None)
        .with_table_mb(options.table_mb)
        .with_think(options.budget)
        .with_threads(options.threads);
    let mut reporter = Reporter {
        brain,
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
    brain: Brain,
    options: Options,
    status: u8,
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
}

impl Reporter<'_> {
    fn board(&mut self, notation: &str) -> io::Result<()> {
        let label = format!("{notation:?}");
        let o = self.options;
        let a = o.asked;
        let exact = a.rule == Some(Rule::Exact);
        let own_rule = a.rule.filter(|&rule| rule != Rule::Exact);
        let game = a.board_game();
        let parsed = match game {
            Some(game) => Position::parse_of(notation, game, (a.k, a.misere, exact)),
            None => Position::parse(notation, self.nine_boards(), a.k, a.misere, exact),
        };
        let position = match (parsed, own_rule) {
            (Ok(position), Some(rule)) => match position.played_by(rule) {
                Some(Ok(position)) => position,
                Some(Err(e)) => return self.bad(&label, notation, &e.to_string()),
                None => {
                    let why =
                        "renju's and caro's rules are played on Gomoku's boards, 8 to 20 rows";
                    return self.bad(&label, notation, why);
                }
            },
            (Ok(position), None) => position,
            (Err(e), _) => return self.bad(&label, notation, &e.to_string()),
        };
        if let Some(entry) = a.named.filter(|e| e.shape() != position.shape()) {
            let (name, shape) = (entry.name(), entry.shape().words());
            let why = format!("--rules {name} plays on {shape}, not on this board");
            return self.bad(&label, notation, &why);
        }
        if let Some(size) = a
            .size
            .filter(|&n| n != position.grid_side() && game.is_none())
        {
            let n = position.grid_side();
            let why = format!("the board is {n}×{n} but --size is {size}");
            return self.bad(&label, notation, &why);
        }
        let analysis = self.brain.analyze(&position, o.best_only);
        let lines = match o.lines {
            0 => Vec::new(),
            n => self.brain.lines_of(&position, analysis.moves.clone(), n),
        };
        let report = Report {
            position,
            analysis,
            lines,
        };
        if o.json {
            writeln!(self.out, "{}", json(&report))
        } else {
            write!(self.out, "{}\n{}", board::heading(&position), text(&report))
        }
    }

    /// Whether positions are nine boards, in Ultimate's notation.
    fn nine_boards(&self) -> bool {
        self.options.asked.game == Some(Shape::Boards)
    }

    /// Reports a bad position: `label` names it for people, `raw` is the text as given.
    fn bad(&mut self, label: &str, raw: &str, why: &str) -> io::Result<()> {
        self.status = 2;
        let noun = if self.nine_boards() {
            "position"
        } else {
            "board"
        };
        writeln!(self.err, "tictactoe: bad {noun} {label}: {why}")?;
        if self.options.json {
            let line = JsonBad {
                position: Named(noun, raw),
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
        let line = JsonBad {
            position: Named("board", "a\"b\\c\n\u{1}é"),
            error: "",
        };
        assert_eq!(
            serde_json::to_string(&line).unwrap(),
            r#"{"board":"a\"b\\c\n\u0001é","error":""}"#
        );
    }

    #[test]
    fn text_lists_moves_top_row_first() {
        let board: crate::rules::classic::Board = "X.O/.X./..O".parse().unwrap();
        let analysis = crate::ai::search::Searcher::new().analyze(&board);
        let moves = analysis.into_iter().map(|(c, v)| (c.into(), v)).collect();
        let report = text(&Report::from_moves(&Position::Classic(board), moves));
        let cells: Vec<&str> = report
            .lines()
            .filter_map(|l| l.trim().split_once(": ").map(|(c, _)| c))
            .filter(|c| c.len() == 1)
            .collect();
        assert_eq!(cells, ["8", "4", "6", "1", "2"]);
    }
}
