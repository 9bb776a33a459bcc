//! Connect Four: columns that fill from the bottom, four in a row wins. Seven columns of six
//! rows by default, 4 to 9 of each by choice. A move is a column ([`Column`], typed `1` to
//! `9` from the left); its disc falls to the lowest empty row.
//!
//! The board is two bitboards in one `u128`, a column of `rows + 1` bits each from the bottom
//! (the spare bit on top keeps lines from running from one column into the next), as the
//! published Connect Four solvers lay it out: a column's next free row is found by adding its
//! bottom bit to the column's stones, and four in a row in any direction is three shifts.

mod rule_set;

use std::fmt;
use std::str::FromStr;

use crate::rules::MoveError as RuleError;
use crate::rules::classic::Mark;

/// The standard board: 7 columns of 6 rows.
pub const COLUMNS: u8 = 7;
pub const ROWS: u8 = 6;
/// The fewest and the most columns (and rows) a board may have.
pub const MIN_SIDE: u8 = 4;
pub const MAX_SIDE: u8 = 9;
/// Discs in a row that win.
pub const FOUR: u8 = 4;

/// A column, 0 on the left; written and typed from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Column(pub u8);

impl fmt::Display for Column {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0 + 1)
    }
}

impl crate::rules::Located for Column {
    fn cell_words(&self) -> String {
        format!("column {self}")
    }
}

/// Why a move was refused: the game is over, the column is full (`Occupied`), or it is off
/// the board (`OtherBoard`).
pub type MoveError = RuleError<Column>;

/// Text that names no column of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseColumnError {
    pub columns: u8,
}

impl fmt::Display for ParseColumnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "expected a column from 1 to {}", self.columns)
    }
}

impl std::error::Error for ParseColumnError {}

/// A Connect Four position: whose turn follows from the number of discs (X drops first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ConnectFour {
    columns: u8,
    rows: u8,
    /// X's discs and all discs, one bit a cell as the module's documentation lays them out.
    x: u128,
    mask: u128,
    moves: u8,
    winner: Option<Mark>,
}

impl Default for ConnectFour {
    fn default() -> Self {
        ConnectFour::new(COLUMNS, ROWS).expect("the standard board")
    }
}

impl ConnectFour {
    /// The empty board of `columns` by `rows`, each 4 to 9.
    pub fn new(columns: u8, rows: u8) -> Option<ConnectFour> {
        let side = MIN_SIDE..=MAX_SIDE;
        (side.contains(&columns) && side.contains(&rows)).then_some(ConnectFour {
            columns,
            rows,
            x: 0,
            mask: 0,
            moves: 0,
            winner: None,
        })
    }

    pub const fn columns(&self) -> u8 {
        self.columns
    }

    pub const fn rows(&self) -> u8 {
        self.rows
    }

    /// The discs dropped so far.
    pub const fn moves(&self) -> u8 {
        self.moves
    }

    /// The bits of one column: `rows + 1`.
    pub const fn height_bits(&self) -> u32 {
        self.rows as u32 + 1
    }

    /// The board's cells: `columns × rows`.
    pub const fn cells(&self) -> u8 {
        self.columns * self.rows
    }

    pub const fn to_move(&self) -> Mark {
        if self.moves.is_multiple_of(2) {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// The discs of the side to move and every disc: what a solver searches.
    pub const fn bits(&self) -> (u128, u128) {
        let own = match self.to_move() {
            Mark::X => self.x,
            Mark::O => self.x ^ self.mask,
        };
        (own, self.mask)
    }

    /// The bottom cell of `col`.
    pub const fn bottom(&self, col: u8) -> u128 {
        1 << (col as u32 * self.height_bits())
    }

    /// The top cell of `col`.
    pub const fn top(&self, col: u8) -> u128 {
        1 << (self.rows as u32 - 1 + col as u32 * self.height_bits())
    }

    /// The cells of `col`.
    pub const fn column_cells(&self, col: u8) -> u128 {
        ((1 << self.rows) - 1) << (col as u32 * self.height_bits())
    }

    /// How many discs `col` holds.
    pub fn height(&self, col: u8) -> u8 {
        (self.mask & self.column_cells(col)).count_ones() as u8
    }

    /// Whether `col` is on the board, not full, and the game goes on.
    pub fn can_play(&self, col: u8) -> bool {
        col < self.columns && self.winner.is_none() && self.mask & self.top(col) == 0
    }

    /// The disc on column `col`, row `row` (from the bottom), if any.
    pub fn mark_at(&self, col: u8, row: u8) -> Option<Mark> {
        if col >= self.columns || row >= self.rows {
            return None;
        }
        let bit = 1u128 << (u32::from(col) * self.height_bits() + u32::from(row));
        match (self.mask & bit != 0, self.x & bit != 0) {
            (false, _) => None,
            (true, true) => Some(Mark::X),
            (true, false) => Some(Mark::O),
        }
    }

    /// The columns that may be played, from the left; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Column> {
        (0..self.columns)
            .filter(|&c| self.can_play(c))
            .map(Column)
            .collect()
    }

    /// Drops the side to move's disc into `col`; on error nothing changes.
    pub fn play(&mut self, col: Column) -> Result<(), MoveError> {
        if self.winner.is_some() || self.moves == self.cells() {
            return Err(RuleError::GameOver);
        }
        if col.0 >= self.columns {
            return Err(RuleError::OtherBoard);
        }
        if !self.can_play(col.0) {
            return Err(RuleError::Occupied(col));
        }
        let mover = self.to_move();
        let new_mask = self.mask | (self.mask + self.bottom(col.0));
        let dropped = new_mask ^ self.mask;
        self.mask = new_mask;
        if mover == Mark::X {
            self.x |= dropped;
        }
        self.moves += 1;
        let own = if mover == Mark::X {
            self.x
        } else {
            self.x ^ self.mask
        };
        if !lines(own, self.height_bits()).is_empty() {
            self.winner = Some(mover);
        }
        Ok(())
    }

    /// How the game stands.
    pub fn outcome(&self) -> crate::rules::Outcome {
        use crate::rules::Outcome;
        match self.winner {
            Some(mark) => Outcome::Won(mark),
            None if self.moves == self.cells() => Outcome::Draw,
            None => Outcome::InProgress,
        }
    }

    /// The cells of every four in a row of the winner, as (column, row) from the bottom left.
    pub fn won_cells(&self) -> Vec<(u8, u8)> {
        let Some(winner) = self.winner else {
            return Vec::new();
        };
        let own = match winner {
            Mark::X => self.x,
            Mark::O => self.x ^ self.mask,
        };
        let cells = lines(own, self.height_bits());
        let mut out = Vec::new();
        for col in 0..self.columns {
            for row in 0..self.rows {
                let bit = 1u128 << (u32::from(col) * self.height_bits() + u32::from(row));
                if cells.contains(bit) {
                    out.push((col, row));
                }
            }
        }
        out
    }

    /// The position after the columns `moves` (`4453`: columns 4, 4, 5, 3), as Connect Four
    /// solvers write positions; `None` where a move is refused.
    pub fn after_columns(mut self, moves: &str) -> Option<ConnectFour> {
        for c in moves.trim().chars() {
            let d = c.to_digit(10)?;
            let col = u8::try_from(d).ok()?.checked_sub(1)?;
            self.play(Column(col)).ok()?;
        }
        Some(self)
    }

    /// Reads `text` as a board of `columns` columns with its rows from the top, `/` between
    /// them (`X` and `O` for discs, `.` for none; as [`fmt::Display`] writes it), or as the
    /// columns played from the empty board of `columns` by `rows` (`4453`).
    pub fn parse_with(text: &str, columns: u8, rows: u8) -> Result<ConnectFour, ParseBoardError> {
        let empty = ConnectFour::new(columns, rows).ok_or(ParseBoardError::Size)?;
        let text = text.trim();
        if text.chars().all(|c| c.is_ascii_digit()) {
            return empty
                .after_columns(text)
                .ok_or(ParseBoardError::Moves(text.chars().take(40).collect()));
        }
        let grid: Vec<&str> = text.split('/').collect();
        let rows = u8::try_from(grid.len()).map_err(|_| ParseBoardError::Size)?;
        let columns = u8::try_from(grid[0].chars().count()).map_err(|_| ParseBoardError::Size)?;
        let empty = ConnectFour::new(columns, rows).ok_or(ParseBoardError::Size)?;
        from_grid(empty, &grid)
    }
}

/// The cells of every four in a row of `own`'s discs, on a board of columns `h` bits high.
fn lines(own: u128, h: u32) -> Cells {
    let mut cells = 0;
    for shift in [1, h, h + 1, h - 1] {
        let pairs = own & (own >> shift);
        let fours = pairs & (pairs >> (2 * shift));
        if fours != 0 {
            // Each bit of `fours` starts a line of four going up the shift.
            let mut line = fours;
            for step in 1..4 {
                line |= fours << (step * shift);
            }
            cells |= line;
        }
    }
    Cells(cells)
}

/// A set of cells, one bit each.
struct Cells(u128);

impl Cells {
    fn is_empty(&self) -> bool {
        self.0 == 0
    }

    fn contains(&self, bit: u128) -> bool {
        self.0 & bit != 0
    }
}

/// A board read from rows: each column's discs must sit on the bottom with no gap, X must
/// have dropped as many as O or one more, and the discs must be reachable by play (it is
/// replayed column by column: a board that no game reaches is refused).
fn from_grid(empty: ConnectFour, grid: &[&str]) -> Result<ConnectFour, ParseBoardError> {
    let columns = empty.columns;
    let mut stacks: Vec<Vec<Mark>> = vec![Vec::new(); usize::from(columns)];
    // From the bottom row up, so each column's discs come in the order they stack.
    for (row, line) in grid.iter().rev().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        if chars.len() != usize::from(columns) {
            return Err(ParseBoardError::Size);
        }
        for (col, &c) in chars.iter().enumerate() {
            let mark = match c {
                '.' | '-' | '_' => continue,
                c => Mark::try_from(c).map_err(|_| ParseBoardError::Char(c))?,
            };
            let stack = &mut stacks[col];
            if stack.len() != row {
                return Err(ParseBoardError::Floating(col as u8 + 1));
            }
            stack.push(mark);
        }
    }
    for stack in &mut stacks {
        stack.reverse();
    }
    let mut board = empty;
    replay(&mut board, &mut stacks).ok_or(ParseBoardError::Unreachable)?;
    Ok(board)
}

/// Plays the discs of `stacks` (each column's, the bottom last) in some order a game could
/// have dropped them; `None` if no order does.
fn replay(board: &mut ConnectFour, stacks: &mut [Vec<Mark>]) -> Option<()> {
    if stacks.iter().all(Vec::is_empty) {
        return Some(());
    }
    let side = board.to_move();
    for col in 0..stacks.len() {
        if stacks[col].last() != Some(&side) {
            continue;
        }
        let before = *board;
        if board.play(Column(col as u8)).is_ok() {
            stacks[col].pop();
            // The game ends with its last disc: a win with discs left to drop is no game.
            let done = stacks.iter().all(Vec::is_empty);
            if (board.winner.is_none() || done) && replay(board, stacks).is_some() {
                return Some(());
            }
            stacks[col].push(side);
        }
        *board = before;
    }
    None
}

impl fmt::Display for ConnectFour {
    /// Rows from the top, `/` between them: `......./......./......./......./......./...X...`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..self.rows).rev() {
            for col in 0..self.columns {
                let c = self.mark_at(col, row).map_or('.', Mark::symbol);
                write!(f, "{c}")?;
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

impl FromStr for ConnectFour {
    type Err = ParseBoardError;

    fn from_str(s: &str) -> Result<ConnectFour, ParseBoardError> {
        ConnectFour::parse_with(s, COLUMNS, ROWS)
    }
}

/// Text that is no Connect Four position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    /// Not 4 to 9 columns of 4 to 9 rows, all rows as wide.
    Size,
    /// A character that is no disc.
    Char(char),
    /// A disc with an empty cell under it, in this column (from 1).
    Floating(u8),
    /// Discs no game reaches: too many of one side, or a game won before its last disc.
    Unreachable,
    /// Columns played that are refused (a full column, one off the board, a finished game).
    Moves(String),
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseBoardError::Size => write!(
                f,
                "a Connect Four board is {MIN_SIDE} to {MAX_SIDE} rows of {MIN_SIDE} to {MAX_SIDE} cells, top row first, '/' between rows"
            ),
            ParseBoardError::Char(c) => {
                write!(f, "{:?} is not a disc: use X, O and '.'", crate::text::printable(&c.to_string()))
            }
            ParseBoardError::Floating(col) => {
                write!(f, "column {col} has a disc above an empty cell: discs fall to the bottom")
            }
            ParseBoardError::Unreachable => f.write_str(
                "no game reaches this board: X drops first, the sides take turns, and a game ends at four in a row",
            ),
            ParseBoardError::Moves(moves) => write!(
                f,
                "the columns {:?} do not replay: each is 1 to the number of columns, not full, in a game not yet over",
                crate::text::printable(moves)
            ),
        }
    }
}

impl std::error::Error for ParseBoardError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Outcome;

    #[test]
    fn a_disc_falls_to_the_lowest_empty_row_of_its_column() {
        let board = ConnectFour::default().after_columns("4454").unwrap();
        assert_eq!(board.mark_at(3, 0), Some(Mark::X));
        assert_eq!(board.mark_at(3, 1), Some(Mark::O));
        assert_eq!(board.mark_at(4, 0), Some(Mark::X));
        assert_eq!(board.mark_at(3, 2), Some(Mark::O));
        assert_eq!(board.height(3), 3);
        assert_eq!(board.to_move(), Mark::X);
    }

    #[test]
    fn four_in_a_row_wins_in_every_direction_and_three_does_not() {
        for (moves, winner) in [
            ("1212121", Mark::X),     // up a column
            ("1122334", Mark::X),     // along the bottom
            ("12233434474", Mark::X), // a rising diagonal
            ("76655454414", Mark::X), // a falling diagonal
            ("71212121", Mark::O),
        ] {
            let board = ConnectFour::default().after_columns(moves).unwrap();
            assert_eq!(board.outcome(), Outcome::Won(winner), "{moves}");
            assert_eq!(board.won_cells().len(), 4, "{moves}");
        }
        let three = ConnectFour::default().after_columns("112233").unwrap();
        assert_eq!(three.outcome(), Outcome::InProgress);
    }

    #[test]
    fn lines_do_not_run_from_the_top_of_one_column_to_the_bottom_of_the_next() {
        // Rows 3, 4 and 5 of the first column and row 0 of the second: four bits in a row if
        // the spare bit on top of each column were not there.
        let h = u32::from(ROWS) + 1;
        let own = (0b111 << 3) | (1 << h);
        assert!(lines(own, h).is_empty());
        assert!(!lines(0b1111, h).is_empty(), "four up a column");
    }

    #[test]
    fn a_full_column_is_refused_and_the_board_is_unchanged() {
        let full = ConnectFour::default().after_columns("111111").unwrap();
        let mut board = full;
        assert_eq!(board.play(Column(0)), Err(RuleError::Occupied(Column(0))));
        assert_eq!(board.play(Column(7)), Err(RuleError::OtherBoard));
        assert_eq!(board, full);
        assert_eq!(board.legal_moves().len(), 6);
    }

    #[test]
    fn a_full_board_without_four_is_a_draw() {
        // Columns of two and two, the lower halves X X / O O, the upper the other way.
        let mut board = ConnectFour::new(4, 4).unwrap();
        for col in [0, 1, 0, 1, 2, 3, 2, 3, 1, 0, 1, 0, 3, 2, 3, 2] {
            board.play(Column(col)).unwrap();
        }
        assert_eq!(board.outcome(), Outcome::Draw);
        assert!(board.legal_moves().is_empty());
    }

    #[test]
    fn boards_read_back_as_written_and_bad_ones_are_refused() {
        let board = ConnectFour::default().after_columns("4453").unwrap();
        assert_eq!(board.to_string().parse::<ConnectFour>(), Ok(board));
        assert_eq!("4453".parse::<ConnectFour>(), Ok(board));
        for bad in [
            "X....../......./......./......./......./.......",
            "......./......./......./......./......./XX.....",
            "......./......./......./......./......./..Z....",
            ".../.../.../...",
            "4444444",
            "0",
        ] {
            assert!(bad.parse::<ConnectFour>().is_err(), "{bad}");
        }
    }
}
