//! Boards as text, the same in every report and the line front end: a classic board in its
//! numpad layout (coordinates along the edges above 3×3), Ultimate's 9×9 grid under a line
//! of the closed boards, Gomoku's 15×15 board, and the one-line result of a game.

use std::fmt::Write as _;

use crate::rules::catalogue::Shaped;
use crate::rules::classic::{Board, Mark};
use crate::rules::connect_four::ConnectFour;
use crate::rules::gomoku::Gomoku;
use crate::rules::position::{Outcome, Position};
use crate::rules::ultimate::{self, SmallStatus, UltimateBoard};

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
            let mv = ultimate::Move::at(col, row).expect("row and col are in range");
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

/// Gomoku's 15×15 board, top row first: a stone or `.` a cell, one space apart, row numbers
/// on the left and column letters below; the five points players find their way by
/// ([`Gomoku::is_star`]) show `+` while empty; under renju, on black's turn, the points black may
/// not play show `×`.
pub fn gomoku_grid(board: &Gomoku) -> String {
    let n = board.size();
    let forbidden = board.forbidden();
    let mut s = String::new();
    for row in (0..n).rev() {
        let _ = write!(s, "{:>2}", row + 1);
        for col in 0..n {
            let cell = board.cell_at(row, col).expect("row and col are in range");
            let c = match board.mark_at(cell) {
                Some(m) => m.symbol(),
                None if forbidden.contains(&cell) => '×',
                None if board.is_star(cell) => '+',
                None => '.',
            };
            let _ = write!(s, " {c}");
        }
        s.push('\n');
    }
    let letters: Vec<String> = (0..n)
        .map(|col| char::from(b'a' + col).to_string())
        .collect();
    let _ = writeln!(s, "   {}", letters.join(" "));
    s
}

/// Connect Four's board, top row first, between its sides: a disc or `.` a cell, the
/// columns' digits below (the keys that drop a disc there).
pub fn connect_four_grid(board: &ConnectFour) -> String {
    let mut s = String::new();
    for row in (0..board.rows()).rev() {
        s.push('|');
        for col in 0..board.columns() {
            let c = board.mark_at(col, row).map_or('.', Mark::symbol);
            let _ = write!(s, " {c}");
        }
        s.push_str(" |\n");
    }
    let _ = writeln!(s, "+{}+", "-".repeat(usize::from(board.columns()) * 2 + 1));
    let digits: Vec<String> = (1..=board.columns()).map(|c| c.to_string()).collect();
    let _ = writeln!(s, "  {}", digits.join(" "));
    s
}

/// The position as the plain front end prints it.
pub fn show(position: &Position) -> String {
    match position.shaped() {
        Shaped::Cells(board) => grid(board),
        Shaped::Boards(board) => ultimate_grid(board),
        Shaped::Points(board) => gomoku_grid(board),
        Shaped::Columns(board) => connect_four_grid(board),
    }
}

/// What `analyze` writes above a position's report: a classic board's notation (its board is
/// short enough to read), else the board as [`show`] draws it.
pub fn heading(position: &Position) -> String {
    match position.shaped() {
        Shaped::Cells(board) => board.to_string(),
        _ => show(position),
    }
}

/// The one-line result of a finished game, saying why under misère rules: `X completed a
/// line: O wins.`
pub fn result_sentence(position: &Position) -> String {
    let result = result_line(position.outcome());
    match position.line_completed_by_loser() {
        Some(loser) => format!("{loser} completed a line: {result}"),
        None => result.to_string(),
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
    fn connect_fours_board_stands_on_its_columns_digits() {
        let board = ConnectFour::new(4, 4).unwrap().after_columns("223").unwrap();
        assert_eq!(connect_four_grid(&board), concat!(
            "| . . . . |\n",
            "| . . . . |\n",
            "| . O . . |\n",
            "| . X X . |\n",
            "+---------+\n",
            "  1 2 3 4\n",
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
