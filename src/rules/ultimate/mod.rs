//! Ultimate tic-tac-toe, rules only: nine small boards in a 3×3, each move sends the opponent to
//! a board; three won small boards in a row win.
//!
//! # Numbering
//!
//! Small boards and the cells of each small board are both numbered as the numeric keypad:
//!
//! ```text
//!  7 | 8 | 9
//! ---+---+---
//!  4 | 5 | 6
//! ---+---+---
//!  1 | 2 | 3
//! ```
//!
//! A [`Move`] is written as two digits, board then cell: `53` is cell 3 (bottom right) of board 5
//! (the centre). The whole 9×9 grid also has coordinates, a column letter `a`-`i` from the left
//! and a row number `1`-`9` from the bottom, like a chessboard: `a1` is cell 1 of board 1, `e5`
//! cell 5 of board 5, `i9` cell 9 of board 9.
//!
//! # The rules
//!
//! X moves first, anywhere. Playing cell C of any board sends the opponent to board C. A small
//! board is closed once someone has three in a row in it (won by them) or it is full (won by
//! nobody). A player sent to a closed board may play in any open board. Three won small boards in
//! a row win the game; when every small board is closed and nobody has three in a row, the game
//! is drawn (won boards are not counted).
//!
//! # Notation
//!
//! A position is written as the 81 cells of the grid, nine rows of nine from the top row
//! (`a9`-`i9`) down to the bottom row (`a1`-`i1`), rows separated by `/`, each cell `X`, `O` or
//! `.`; then one space and the board the side to move is sent to: a digit `1`-`9`, or `*` when it
//! may play in any open board. The start position is
//!
//! ```text
//! ........./........./........./........./........./........./........./........./......... *
//! ```
//!
//! and after X plays `53` (the cell `f4`) it is
//!
//! ```text
//! ........./........./........./........./........./.....X.../........./........./......... 3
//! ```
//!
//! The forced board cannot always be read from the marks, so the notation carries it. Parsing
//! accepts either case for marks and rejects positions that no legal game reaches, naming the
//! fault: X and O counts that do not differ by zero or one in X's favour, a small board where both
//! have a line or where play went on after it was won, both sides with three boards in a row, play
//! after the game ended, a forced board that is closed, given once the game is over (it must be
//! `*`) or that no last move could have sent the player to. These checks are necessary, not
//! sufficient: a position that passes them may still be unreachable in subtler ways.
//!
//! # Representation
//!
//! Each side has a 9-bit mask per small board (bit `cell - 1`), and a 9-bit mask of the small
//! boards it won (bit `board - 1`); a third mask holds the closed boards. Whether a 9-bit mask
//! holds a line is one lookup in a 512-entry table built at compile time from the eight lines.

use std::fmt;
use std::str::FromStr;

use crate::rules::classic::Mark;
use crate::text::quoted;

mod notation;
mod rule_set;

pub use notation::ParseUltimateError;

/// All nine cells (or boards) of a 3×3.
const FULL: u16 = 0x1FF;
/// The forced-board value meaning "any open board".
const ANYWHERE: u8 = 9;

/// The eight lines of a 3×3 as masks, bit `digit - 1`: rows, columns, diagonals.
const LINES: [u16; 8] = [
    0b000_000_111,
    0b000_111_000,
    0b111_000_000,
    0b001_001_001,
    0b010_010_010,
    0b100_100_100,
    0b100_010_001,
    0b001_010_100,
];

/// `WINS[m]`: every line wholly inside the 9-bit mask `m` (zero if none).
static WINS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 8 {
            if m as u16 & LINES[i] == LINES[i] {
                t[m] |= LINES[i];
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// `THREATS[m]`: the cells outside `m` that would complete a line with two cells of `m`. The
/// caller masks out cells that are taken.
static THREATS: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 8 {
            let have = m as u16 & LINES[i];
            if have.count_ones() == 2 {
                t[m] |= LINES[i] & !have;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// `SELECT[m][n]`: the index of the `n`th set bit of the 9-bit mask `m`, and in `[m][9]` the
/// number of set bits. A table, because the portable build has no popcount instruction.
static SELECT: [[u8; 10]; 512] = {
    let mut t = [[0u8; 10]; 512];
    let mut m = 0;
    while m < 512 {
        let mut n = 0;
        let mut bit = 0;
        while bit < 9 {
            if m & (1 << bit) != 0 {
                t[m][n] = bit as u8;
                n += 1;
            }
            bit += 1;
        }
        t[m][9] = n as u8;
        m += 1;
    }
    t
};

/// The number of set bits of a 9-bit mask.
#[inline]
pub(crate) fn count(mask: u16) -> u32 {
    u32::from(SELECT[usize::from(mask)][9])
}

/// The index of the `n`th set bit of the 9-bit `mask`, which has more than `n`.
#[inline]
pub(crate) fn nth_bit(mask: u16, n: u32) -> usize {
    usize::from(SELECT[usize::from(mask)][n as usize])
}

/// Whether the 9-bit mask holds a line.
#[inline]
pub(crate) fn has_line(mask: u16) -> bool {
    WINS[usize::from(mask)] != 0
}

/// The cells not in `mask` that would complete a line of `mask`.
#[inline]
pub(crate) fn threats(mask: u16) -> u16 {
    THREATS[usize::from(mask)]
}

/// A move: a small board and a cell in it. It can only be built valid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Move {
    /// `(board - 1) * 9 + (cell - 1)`.
    index: u8,
}

impl Move {
    /// The move on `cell` of `board`, both numpad digits 1-9.
    pub const fn new(board: u8, cell: u8) -> Option<Move> {
        if board >= 1 && board <= 9 && cell >= 1 && cell <= 9 {
            Some(Move {
                index: (board - 1) * 9 + (cell - 1),
            })
        } else {
            None
        }
    }

    /// The move at column `col` (from the left) and `row` (from the bottom) of the 9×9 grid,
    /// both 0-8.
    pub const fn at(col: u8, row: u8) -> Option<Move> {
        if col < 9 && row < 9 {
            let board = (row / 3) * 3 + col / 3;
            let cell = (row % 3) * 3 + col % 3;
            Some(Move {
                index: board * 9 + cell,
            })
        } else {
            None
        }
    }

    /// The move with index `index` (see [`Move::index`]).
    pub const fn from_index(index: usize) -> Option<Move> {
        if index < 81 {
            Some(Move { index: index as u8 })
        } else {
            None
        }
    }

    /// `(board - 1) * 9 + (cell - 1)`, in 0..81: moves in board order, then cell order.
    pub const fn index(self) -> usize {
        self.index as usize
    }

    /// The small board, a numpad digit 1-9.
    pub const fn board(self) -> u8 {
        self.index / 9 + 1
    }

    /// The cell within the small board, a numpad digit 1-9; also the board it sends to.
    pub const fn cell(self) -> u8 {
        self.index % 9 + 1
    }

    /// Column of the 9×9 grid counted from the left, from 0.
    pub const fn col(self) -> u8 {
        let (b, c) = (self.index / 9, self.index % 9);
        (b % 3) * 3 + c % 3
    }

    /// Row of the 9×9 grid counted from the bottom, from 0.
    pub const fn row(self) -> u8 {
        let (b, c) = (self.index / 9, self.index % 9);
        (b / 3) * 3 + c / 3
    }

    /// The grid coordinate, `a1` at the bottom left to `i9` at the top right.
    pub fn coordinate(self) -> String {
        format!("{}{}", char::from(b'a' + self.col()), self.row() + 1)
    }

    /// Parses a move with an optional forced board: two digits, a coordinate, or (only when
    /// `forced` names a board) a single cell digit.
    fn parse(input: &str, forced: Option<u8>) -> Result<Move, ParseMoveError> {
        let s = input.trim();
        let unknown = || ParseMoveError::Unknown(s.to_string());
        let off = || ParseMoveError::OffBoard(s.to_string());
        if s.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let first = s.as_bytes()[0];
        if first.is_ascii_digit() || first == b'-' {
            let body = s.strip_prefix('-').unwrap_or(s);
            // Numbers as people write them: no sign, no leading zero.
            if !digits(body) || (body.len() > 1 && body.starts_with('0')) {
                return Err(unknown());
            }
            if first == b'-' {
                return Err(off());
            }
            let d: Vec<u8> = body.bytes().map(|b| b - b'0').collect();
            return match d[..] {
                [cell] => match forced {
                    _ if cell == 0 => Err(off()),
                    Some(board) => Move::new(board, cell).ok_or_else(off),
                    None => Err(ParseMoveError::BoardNeeded(s.to_string())),
                },
                [board, cell] => Move::new(board, cell).ok_or_else(off),
                _ => Err(off()),
            };
        }
        let mut chars = s.chars();
        let letter = chars.next().map(|c| c.to_ascii_lowercase());
        let rest = chars.as_str();
        if !digits(rest) || rest.starts_with('0') && rest.len() > 1 {
            return Err(unknown());
        }
        match (letter, rest.parse::<u32>()) {
            (Some(l @ 'a'..='z'), Ok(row)) => {
                let col = u32::from(l) - u32::from('a');
                if col < 9 && (1..=9).contains(&row) {
                    Ok(Move::at(col as u8, row as u8 - 1).expect("in range"))
                } else {
                    Err(off())
                }
            }
            (Some('a'..='z'), Err(_)) => Err(off()), // a row number too long to parse
            _ => Err(unknown()),
        }
    }
}

impl fmt::Display for Move {
    /// Board then cell, two digits: `53`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.board(), self.cell())
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    /// Two digits (`53`) or a grid coordinate (`f4`, `F4`); surrounding whitespace is ignored,
    /// nothing else is accepted (no sign, no leading zero). A single cell digit needs a board:
    /// see [`UltimateBoard::parse_move`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Move::parse(s, None)
    }
}

/// Input that names no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    Empty,
    /// Well formed, but off the grid: `50`, `123`, `j1`, `a10`, `-5`.
    OffBoard(String),
    /// Not a move at all.
    Unknown(String),
    /// A single cell digit when the player may choose the board.
    BoardNeeded(String),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Empty => write!(f, "no move given"),
            ParseMoveError::OffBoard(s) => write!(
                f,
                "{} is not on the board: moves are a board and a cell 1-9 (like 53) or a1-i9",
                quoted(s)
            ),
            ParseMoveError::Unknown(s) => write!(
                f,
                "'{}' is not a move: type the board and the cell as two digits (53: board 5, cell 3; 7 8 9 is the top row) or a coordinate like e5",
                quoted(s)
            ),
            ParseMoveError::BoardNeeded(s) => write!(
                f,
                "'{}' names a cell but no board: you may play in any open board, so type two digits like 53",
                quoted(s)
            ),
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// A set of numpad positions: the boards of a winning line on the big board, or the cells of a
/// line on a small board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    mask: u16,
}

impl Line {
    /// Whether the numpad digit `digit` is part of the line(s).
    pub const fn contains(self, digit: u8) -> bool {
        digit >= 1 && digit <= 9 && self.mask & (1 << (digit - 1)) != 0
    }

    /// The numpad digits, ascending.
    pub fn digits(self) -> impl Iterator<Item = u8> {
        let mask = self.mask;
        (1..=9).filter(move |d| mask & (1 << (d - 1)) != 0)
    }
}

/// How a game stands: a draw once every small board is closed and nobody has three in a row;
/// `line` of a game won holds the small boards of every line of won boards the winner
/// completed.
pub type Outcome = crate::rules::GameOutcome<Line>;

/// How a small board stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SmallStatus {
    Open,
    Won(Mark),
    /// Full with no line: closed, won by nobody.
    Full,
}

/// Why a move was refused. The board is unchanged.
pub type MoveError = crate::rules::MoveError<Move>;

impl crate::rules::Located for Move {
    fn cell_words(&self) -> String {
        format!("cell {} of board {}", self.cell(), self.board())
    }

    fn small_board(&self) -> Option<u8> {
        Some(self.board())
    }
}

/// The legal moves of a position: a set over the 81 moves, with no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Moves {
    /// Bit [`Move::index`].
    bits: u128,
}

impl Moves {
    pub const fn len(self) -> usize {
        self.bits.count_ones() as usize
    }

    pub const fn is_empty(self) -> bool {
        self.bits == 0
    }

    pub const fn contains(self, mv: Move) -> bool {
        self.bits & (1 << mv.index) != 0
    }

    /// The `n`th move in index order, if there are more than `n`.
    pub fn nth(self, n: usize) -> Option<Move> {
        // Board by board: nine table lookups at most.
        let mut n = u32::try_from(n).ok()?;
        for b in 0..9 {
            let moves = ((self.bits >> (9 * b)) & u128::from(FULL)) as u16;
            let here = count(moves);
            if n < here {
                return Some(Move {
                    index: 9 * b + nth_bit(moves, n) as u8,
                });
            }
            n -= here;
        }
        None
    }
}

impl IntoIterator for Moves {
    type Item = Move;
    type IntoIter = MoveIter;

    fn into_iter(self) -> MoveIter {
        MoveIter { bits: self.bits }
    }
}

/// The moves of a [`Moves`] in index order.
#[derive(Clone, Debug)]
pub struct MoveIter {
    bits: u128,
}

impl Iterator for MoveIter {
    type Item = Move;

    fn next(&mut self) -> Option<Move> {
        if self.bits == 0 {
            return None;
        }
        let index = self.bits.trailing_zeros() as u8;
        self.bits &= self.bits - 1;
        Some(Move { index })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.bits.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveIter {}

/// A position of Ultimate tic-tac-toe.
///
/// Invariant: the won and closed masks, the count of marks and the forced board always agree with
/// the cells and the history; the forced board, when there is one, is open. Only [`UltimateBoard::play`]
/// (through `apply`) and the parser build positions, and both keep it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct UltimateBoard {
    /// `cells[side][board]`: the 9-bit mask of that side's cells in a small board; side 0 is X.
    cells: [[u16; 9]; 2],
    /// The small boards each side won.
    won: [u16; 2],
    /// The small boards won or full.
    closed: u16,
    /// The board index the side to move is sent to, or `ANYWHERE`.
    forced: u8,
    /// Marks on the grid: whose turn it is follows from it (X when even).
    plies: u8,
}

impl Default for UltimateBoard {
    fn default() -> Self {
        UltimateBoard::new()
    }
}

impl fmt::Debug for UltimateBoard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UltimateBoard({self})")
    }
}

const fn side_of(mark: Mark) -> usize {
    match mark {
        Mark::X => 0,
        Mark::O => 1,
    }
}

const fn mark_of(side: usize) -> Mark {
    if side == 0 { Mark::X } else { Mark::O }
}

/// The board index (0-8) of a numpad digit.
///
/// # Panics
/// If `digit` is not 1-9.
fn index_of(digit: u8) -> usize {
    assert!((1..=9).contains(&digit), "boards and cells are 1-9");
    usize::from(digit - 1)
}

impl UltimateBoard {
    /// The empty grid, X to move anywhere.
    pub const fn new() -> UltimateBoard {
        UltimateBoard {
            cells: [[0; 9]; 2],
            won: [0; 2],
            closed: 0,
            forced: ANYWHERE,
            plies: 0,
        }
    }

    /// Whose turn it is (also defined once the game is over: who would move next).
    pub const fn to_move(&self) -> Mark {
        mark_of(self.side())
    }

    /// How many marks are on the grid.
    pub const fn marks(&self) -> u32 {
        self.plies as u32
    }

    /// The board the side to move must play in, or `None` when it may play in any open board
    /// (and once the game is over).
    pub fn forced_board(&self) -> Option<u8> {
        (self.forced != ANYWHERE && self.outcome() == Outcome::InProgress)
            .then_some(self.forced + 1)
    }

    /// What is on `cell` of `board` (numpad digits).
    ///
    /// # Panics
    /// If either is not 1-9.
    pub fn mark_at(&self, board: u8, cell: u8) -> Option<Mark> {
        let (b, c) = (index_of(board), index_of(cell));
        [Mark::X, Mark::O]
            .into_iter()
            .find(|&m| self.cells[side_of(m)][b] & (1 << c) != 0)
    }

    /// What is on the cell of a move.
    pub fn mark(&self, mv: Move) -> Option<Mark> {
        self.mark_at(mv.board(), mv.cell())
    }

    /// How small board `board` (numpad digit) stands.
    ///
    /// # Panics
    /// If `board` is not 1-9.
    pub fn small_board_status(&self, board: u8) -> SmallStatus {
        let bit = 1 << index_of(board);
        if self.won[0] & bit != 0 {
            SmallStatus::Won(Mark::X)
        } else if self.won[1] & bit != 0 {
            SmallStatus::Won(Mark::O)
        } else if self.closed & bit != 0 {
            SmallStatus::Full
        } else {
            SmallStatus::Open
        }
    }

    /// How the game stands.
    pub fn outcome(&self) -> Outcome {
        for side in 0..2 {
            let line = WINS[usize::from(self.won[side])];
            if line != 0 {
                return Outcome::Won {
                    winner: mark_of(side),
                    line: Line { mask: line },
                };
            }
        }
        if self.closed == FULL {
            Outcome::Draw
        } else {
            Outcome::InProgress
        }
    }

    /// The moves the side to move may make; none once the game is over.
    pub fn legal_moves(&self) -> Moves {
        if self.outcome() != Outcome::InProgress {
            return Moves::default();
        }
        if self.forced != ANYWHERE {
            let b = usize::from(self.forced);
            return Moves {
                bits: u128::from(self.empty(b)) << (9 * b),
            };
        }
        let mut bits = 0u128;
        for b in 0..9 {
            if self.closed & (1 << b) == 0 {
                bits |= u128::from(self.empty(b)) << (9 * b);
            }
        }
        Moves { bits }
    }

    /// Whether `mv` is legal.
    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    fn check(&self, mv: Move) -> Result<(), MoveError> {
        if self.outcome() != Outcome::InProgress {
            return Err(MoveError::GameOver);
        }
        let (b, c) = (usize::from(mv.index / 9), mv.index % 9);
        if self.forced != ANYWHERE && usize::from(self.forced) != b {
            return Err(MoveError::WrongBoard {
                forced: self.forced + 1,
                played: mv,
            });
        }
        if self.closed & (1 << b) != 0 {
            return Err(MoveError::ClosedBoard(mv));
        }
        if self.empty(b) & (1 << c) == 0 {
            return Err(MoveError::Occupied(mv));
        }
        Ok(())
    }

    /// The position after the side to move plays `mv`.
    pub fn with_move(&self, mv: Move) -> Result<UltimateBoard, MoveError> {
        self.check(mv)?;
        let mut next = *self;
        next.apply(usize::from(mv.index / 9), usize::from(mv.index % 9));
        Ok(next)
    }

    /// Plays `mv` for the side to move; on error the board is unchanged.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        *self = self.with_move(mv)?;
        Ok(())
    }

    /// Parses a move as a player types it: two digits (`53`), a grid coordinate (`f4`), or a
    /// single cell digit (`3`) when the side to move is sent to a board. The move is named, not
    /// checked: [`UltimateBoard::play`] says whether it is legal.
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        Move::parse(text, self.forced_board())
    }

    // The fast interface for the AI: indices 0-8, sides 0 (X) and 1 (O), no checks.

    /// 0 when X is to move, 1 for O.
    #[inline]
    pub(crate) const fn side(&self) -> usize {
        (self.plies & 1) as usize
    }

    /// The forced board index, or 9 for any open board. Meaningless once the game is over.
    #[inline]
    pub(crate) const fn forced_index(&self) -> usize {
        self.forced as usize
    }

    /// The cells of `side` on board index `b`.
    #[inline]
    pub(crate) const fn cells_of(&self, side: usize, b: usize) -> u16 {
        self.cells[side][b]
    }

    /// The empty cells of board index `b` (closed or not).
    #[inline]
    pub(crate) const fn empty(&self, b: usize) -> u16 {
        !(self.cells[0][b] | self.cells[1][b]) & FULL
    }

    /// The boards `side` won.
    #[inline]
    pub(crate) const fn won_by(&self, side: usize) -> u16 {
        self.won[side]
    }

    /// The open small boards.
    #[inline]
    pub(crate) const fn open(&self) -> u16 {
        !self.closed & FULL
    }

    /// Plays cell index `c` of board index `b` for the side to move, which must be legal, and
    /// returns whether the game ended (then no board is forced, so equal positions compare
    /// equal however they were reached).
    #[inline]
    pub(crate) fn apply(&mut self, b: usize, c: usize) -> bool {
        let side = self.side();
        let mine = self.cells[side][b] | (1 << c);
        self.cells[side][b] = mine;
        self.plies += 1;
        let mut over = false;
        if has_line(mine) {
            self.won[side] |= 1 << b;
            self.closed |= 1 << b;
            over = has_line(self.won[side]);
        } else if mine | self.cells[side ^ 1][b] == FULL {
            self.closed |= 1 << b;
        }
        over |= self.closed == FULL;
        self.forced = if over || self.closed & (1 << c) != 0 {
            ANYWHERE
        } else {
            c as u8
        };
        over
    }
}

/// The set bits of a 9-bit mask, as indices.
fn bits(mask: u16) -> impl Iterator<Item = usize> {
    (0..9).filter(move |i| mask & (1 << i) != 0)
}
