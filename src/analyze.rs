//! `tictactoe analyze`: the value of every legal move of boards given in notation, as text or
//! JSON lines. The text report also serves the plain front end's hint.

use std::fmt::Write as _;
use std::io::{self, BufRead, Write};

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

/// The human-readable report: the position's status, every move's value, the best moves.
pub fn text(board: &Board, analysis: &[(Cell, Value)]) -> String {
    let mut s = String::new();
    match board.outcome() {
        Outcome::Won { winner, line } => {
            let _ = writeln!(s, "  game over: {winner} won ({})", cell_list(line.cells()));
        }
        Outcome::Draw => s.push_str("  game over: draw\n"),
        Outcome::InProgress => {
            let best = reading_order(&best_of(analysis));
            let mover = board.to_move();
            if let Some(&(_, value)) = best.first() {
                let _ = writeln!(s, "  {mover} to move: {value} with best play");
            }
            for (cell, value) in reading_order(analysis) {
                let _ = writeln!(s, "  {cell}: {value}");
            }
            let _ = writeln!(s, "  best: {}", cell_list(best.iter().map(|&(c, _)| c)));
        }
    }
    s
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn json_value(value: Value) -> String {
    let (result, plies) = match value {
        Value::Win(n) => ("win", Some(n)),
        Value::Draw => ("draw", None),
        Value::Loss(n) => ("loss", Some(n)),
        Value::Estimate(_) => ("estimate", None),
    };
    let plies = plies.map_or_else(|| "null".to_string(), |n| n.to_string());
    let estimate = match value {
        Value::Estimate(e) => format!(",\"estimate\":{e}"),
        _ => String::new(),
    };
    format!(
        "{{\"value\":{},\"result\":\"{result}\",\"plies\":{plies},\"proven\":{}{estimate}}}",
        json_string(&value.to_string()),
        value.is_proven()
    )
}

fn json_cells(cells: impl Iterator<Item = Cell>) -> String {
    let items: Vec<String> = cells.map(|c| json_string(&c.to_string())).collect();
    format!("[{}]", items.join(","))
}

/// One JSON object on one line. Fields: `board`, `to_move`, `outcome` (`in_progress`, `draw`,
/// `x_won`, `o_won`), `line` (cells of the completed line, or null), `value` (the position's
/// value for the side to move, or null), `moves` (cell, value, result, plies) and `best`.
pub fn json(board: &Board, analysis: &[(Cell, Value)]) -> String {
    let outcome = match board.outcome() {
        Outcome::InProgress => "in_progress",
        Outcome::Draw => "draw",
        Outcome::Won {
            winner: Mark::X, ..
        } => "x_won",
        Outcome::Won {
            winner: Mark::O, ..
        } => "o_won",
    };
    let line = match board.outcome() {
        Outcome::Won { line, .. } => json_cells(line.cells()),
        _ => "null".to_string(),
    };
    let best = reading_order(&best_of(analysis));
    let value = best
        .first()
        .map_or_else(|| "null".to_string(), |&(_, v)| json_value(v));
    let moves: Vec<String> = reading_order(analysis)
        .into_iter()
        .map(|(c, v)| {
            let v = json_value(v);
            format!("{{\"cell\":{},{}", json_string(&c.to_string()), &v[1..])
        })
        .collect();
    format!(
        "{{\"board\":{},\"to_move\":\"{}\",\"outcome\":\"{outcome}\",\"line\":{line},\"value\":{value},\"moves\":[{}],\"best\":{}}}",
        json_string(&board.to_string()),
        board.to_move(),
        moves.join(","),
        json_cells(best.iter().map(|&(c, _)| c)),
    )
}

/// Analyzes each board (`-` reads more, one per line, from `input`) and writes the reports to
/// `out`. A bad board's message goes to `err` (and, with `json`, an error object to `out`);
/// the rest are still analyzed. Returns the exit status: 0, or 2 if any board was bad.
pub fn run(
    boards: &[String],
    json_out: bool,
    input: &mut dyn BufRead,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let mut reporter = Reporter {
        searcher: Searcher::new(),
        json: json_out,
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
    json: bool,
    status: u8,
    out: &'a mut dyn Write,
    err: &'a mut dyn Write,
}

impl Reporter<'_> {
    fn board(&mut self, notation: &str) -> io::Result<()> {
        match notation.parse::<Board>() {
            Ok(board) => {
                let analysis = self.searcher.analyze(&board);
                if self.json {
                    writeln!(self.out, "{}", json(&board, &analysis))
                } else {
                    write!(self.out, "{board}\n{}", text(&board, &analysis))
                }
            }
            Err(e) => self.bad(&format!("{notation:?}"), notation, &e.to_string()),
        }
    }

    /// Reports a bad board: `label` names it for people, `raw` is the text as given.
    fn bad(&mut self, label: &str, raw: &str, why: &str) -> io::Result<()> {
        self.status = 2;
        writeln!(self.err, "tictactoe: bad board {label}: {why}")?;
        if self.json {
            let (what, why) = (json_string(raw), json_string(why));
            writeln!(self.out, "{{\"board\":{what},\"error\":{why}}}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_escape_what_they_must() {
        assert_eq!(json_string("a\"b\\c\n\u{1}"), "\"a\\\"b\\\\c\\n\\u0001\"");
    }

    #[test]
    fn text_lists_moves_top_row_first() {
        let board: Board = "X.O/.X./..O".parse().unwrap();
        let analysis = Searcher::new().analyze(&board);
        let report = text(&board, &analysis);
        let cells: Vec<&str> = report
            .lines()
            .filter_map(|l| l.trim().split_once(": ").map(|(c, _)| c))
            .filter(|c| c.len() == 1)
            .collect();
        assert_eq!(cells, ["8", "4", "6", "1", "2"]);
    }
}
