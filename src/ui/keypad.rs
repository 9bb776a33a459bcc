//! How moves are typed on the numeric keypad and where they lie on the screen's grid: what
//! the front ends need of a rule set beyond its rules. The keypad as the cells are numbered
//! (on 3×3, and for Ultimate's boards and their cells alike):
//!
//! ```text
//!  7 | 8 | 9
//! ---+---+---
//!  4 | 5 | 6
//! ---+---+---
//!  1 | 2 | 3
//! ```

use crate::rules::RuleSet;
use crate::rules::classic::{Cell, Mark, Squares};
use crate::rules::connect_four::{Column, ConnectFour};
use crate::rules::position::{Move, Position, each};
use crate::rules::ultimate::{self, SmallStatus, UltimateBoard};

/// Whether a board drawn `grid_side` cells wide has a column named `letter` (`a` is the
/// first): where it does, that letter names the column before it is a key of the game.
pub fn names_column(grid_side: u8, letter: char) -> bool {
    letter.is_ascii_lowercase() && (letter as u8 - b'a') < grid_side
}

/// What a digit typed on the keypad means in a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Digit<M = Move> {
    /// A whole move.
    Move(M),
    /// The first half of a move: the board (of Ultimate) whose cell comes next.
    Board(u8),
    /// A board that is closed, so it cannot be chosen.
    ClosedBoard(u8),
    /// This board's cells are not named by digits (boards larger than 3×3).
    NoDigits,
}

impl<M> Digit<M> {
    fn map<N>(self, f: impl FnOnce(M) -> N) -> Digit<N> {
        match self {
            Digit::Move(m) => Digit::Move(f(m)),
            Digit::Board(b) => Digit::Board(b),
            Digit::ClosedBoard(b) => Digit::ClosedBoard(b),
            Digit::NoDigits => Digit::NoDigits,
        }
    }
}

/// A rule set's moves on the keypad and on a square grid of points, (column, row) from the
/// bottom left.
pub trait Keypad: RuleSet {
    /// What digit `d` (1-9) means, with the board `chosen` by an earlier digit if any.
    fn digit(&self, chosen: Option<u8>, d: u8) -> Digit<Self::Move>;
    /// What digit `d` means when typed before the opponent's move is known, to be played
    /// after it.
    fn digit_ahead(&self, chosen: Option<u8>, d: u8) -> Digit<Self::Move> {
        self.digit(chosen, d)
    }
    /// The number of columns (and rows) of the grid the moves lie on.
    fn grid_side(&self) -> u8;
    /// The rows of the grid that hold cells: all of them, but on a board of columns
    /// (Connect Four's) its rows.
    fn grid_rows(&self) -> u8 {
        self.grid_side()
    }
    /// The mark on the point at (column, row) of the grid, if any.
    fn point_mark(&self, col: u8, row: u8) -> Option<Mark>;
    /// Where `mv` lies on the grid; `None` for a move of another board.
    fn grid_point(&self, mv: Self::Move) -> Option<(u8, u8)>;
    /// The move at (column, row) of the grid, if there is one.
    fn at_grid_point(&self, col: u8, row: u8) -> Option<Self::Move>;
    /// Where a cursor starts: the centre of the grid.
    fn centre(&self) -> Self::Move {
        let mid = self.grid_side() / 2;
        self.at_grid_point(mid, mid)
            .expect("the centre is on the grid")
    }
}

/// Every square board, classic or Gomoku: cells of 3×3 by the keypad, of larger boards by
/// coordinates only.
impl<S: Squares + RuleSet<Move = Cell>> Keypad for S {
    fn digit(&self, _: Option<u8>, d: u8) -> Digit<Cell> {
        self.numpad_cell(d).map_or(Digit::NoDigits, Digit::Move)
    }

    fn grid_side(&self) -> u8 {
        self.side()
    }

    fn grid_point(&self, cell: Cell) -> Option<(u8, u8)> {
        self.holds(cell).then(|| (cell.col(), cell.row()))
    }

    fn at_grid_point(&self, col: u8, row: u8) -> Option<Cell> {
        self.square(row, col)
    }

    fn point_mark(&self, col: u8, row: u8) -> Option<Mark> {
        self.square(row, col).and_then(|cell| self.mark_on(cell))
    }
}

impl Keypad for UltimateBoard {
    /// The cell of the board chosen or sent to, or else the board.
    fn digit(&self, chosen: Option<u8>, d: u8) -> Digit<ultimate::Move> {
        match chosen.or(self.forced_board()) {
            Some(b) => ultimate::Move::new(b, d).map_or(Digit::NoDigits, Digit::Move),
            None if self.small_board_status(d) != SmallStatus::Open => Digit::ClosedBoard(d),
            None => Digit::Board(d),
        }
    }

    /// The board one will be sent to is not known yet, so without a board `chosen` the
    /// digit chooses one.
    fn digit_ahead(&self, chosen: Option<u8>, d: u8) -> Digit<ultimate::Move> {
        match (chosen, self.small_board_status(d)) {
            (Some(_), _) => self.digit(chosen, d),
            (None, SmallStatus::Open) => Digit::Board(d),
            (None, _) => Digit::ClosedBoard(d),
        }
    }

    fn grid_side(&self) -> u8 {
        9
    }

    fn grid_point(&self, mv: ultimate::Move) -> Option<(u8, u8)> {
        Some((mv.col(), mv.row()))
    }

    fn at_grid_point(&self, col: u8, row: u8) -> Option<ultimate::Move> {
        ultimate::Move::at(col, row)
    }

    fn point_mark(&self, col: u8, row: u8) -> Option<Mark> {
        ultimate::Move::at(col, row).and_then(|mv| self.mark(mv))
    }

    /// The centre of the board the side to move is sent to (the centre board when free).
    fn centre(&self) -> ultimate::Move {
        let board = self.forced_board().unwrap_or(5);
        ultimate::Move::new(board, 5).expect("digits are 1-9")
    }
}

/// Connect Four's columns: digit `d` is column `d` from the left, and a column is every
/// point of it on the grid, drawn where its disc would fall.
impl Keypad for ConnectFour {
    fn digit(&self, _: Option<u8>, d: u8) -> Digit<Column> {
        match d.checked_sub(1) {
            Some(col) if col < self.columns() => Digit::Move(Column(col)),
            _ => Digit::NoDigits,
        }
    }

    fn grid_side(&self) -> u8 {
        self.columns().max(self.rows())
    }

    fn grid_point(&self, column: Column) -> Option<(u8, u8)> {
        (column.0 < self.columns()).then(|| (column.0, self.height(column.0).min(self.rows() - 1)))
    }

    fn at_grid_point(&self, col: u8, row: u8) -> Option<Column> {
        (col < self.columns() && row < self.rows()).then_some(Column(col))
    }

    fn grid_rows(&self) -> u8 {
        self.rows()
    }

    fn point_mark(&self, col: u8, row: u8) -> Option<Mark> {
        self.mark_at(col, row)
    }

    fn centre(&self) -> Column {
        Column(self.columns() / 2)
    }
}

/// The keypad and grid of whichever rule set a position is of.
impl Position {
    /// What digit `d` (1-9) typed on the keypad means, with the board `chosen` by an earlier
    /// digit if any: a cell of 3×3; in Ultimate the cell of the board chosen or sent to, or
    /// else the board.
    pub fn digit(&self, chosen: Option<u8>, d: u8) -> Digit {
        each!(self, p => p.digit(chosen, d).map(Move::from))
    }

    /// What digit `d` means when typed before the opponent's move is known, to be played
    /// after it: as [`Position::digit`], except that in Ultimate the board one will be sent to
    /// is not known yet, so without a board `chosen` the digit chooses one.
    pub fn digit_ahead(&self, chosen: Option<u8>, d: u8) -> Digit {
        each!(self, p => p.digit_ahead(chosen, d).map(Move::from))
    }

    /// Cell `d` of board `b` (1-9 each) of Ultimate, whether or not it is legal now: a move
    /// typed ahead, before the board one is sent to is known.
    pub fn board_cell(&self, b: u8, d: u8) -> Option<Move> {
        self.ultimate()
            .and_then(|_| ultimate::Move::new(b, d))
            .map(Move::Ultimate)
    }

    /// Whether `board` (of Ultimate) is open to play in; a classic board has none.
    pub fn board_open(&self, board: u8) -> bool {
        self.ultimate()
            .is_some_and(|u| u.small_board_status(board) == SmallStatus::Open)
    }

    /// The board (of Ultimate) that `mv` is played in.
    pub fn board_of(mv: Move) -> Option<u8> {
        match mv {
            Move::Ultimate(m) => Some(m.board()),
            _ => None,
        }
    }

    /// The number of columns (and rows) of the grid the moves lie on: the board's size, or 9.
    pub fn grid_side(&self) -> u8 {
        each!(self, p => p.grid_side())
    }

    /// Where `mv` lies on the grid: (column, row), from the bottom left; `None` for a move of
    /// another rule set or board.
    pub fn grid_point(&self, mv: Move) -> Option<(u8, u8)> {
        each!(self, p => mv.try_into().ok().and_then(|m| p.grid_point(m)))
    }

    /// The rows of the grid that hold cells ([`Keypad::grid_rows`]).
    pub fn grid_rows(&self) -> u8 {
        each!(self, p => p.grid_rows())
    }

    /// The mark on the point at (column, row) of the grid, if any.
    pub fn point_mark(&self, col: u8, row: u8) -> Option<Mark> {
        each!(self, p => p.point_mark(col, row))
    }

    /// The move at (column, row) of the grid, if there is one.
    pub fn at_grid_point(&self, col: u8, row: u8) -> Option<Move> {
        each!(self, p => p.at_grid_point(col, row).map(Move::from))
    }

    /// Where a cursor starts: the centre of the board, or in Ultimate the centre of the board
    /// the side to move is sent to (the centre board when free to choose).
    pub fn centre(&self) -> Move {
        each!(self, p => Move::from(p.centre()))
    }
}
