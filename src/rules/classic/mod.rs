//! The rules only: marks, cells, lines, whose turn it is, the outcome and the text notation.
//!
//! Cells on the classic board are named by the numeric keypad, exactly as it looks:
//!
//! ```text
//!  7 | 8 | 9        a3 | b3 | c3
//! ---+---+---      ----+----+----
//!  4 | 5 | 6        a2 | b2 | c2
//! ---+---+---      ----+----+----
//!  1 | 2 | 3        a1 | b1 | c1
//! ```
//!
//! Every board, whatever its size, also names cells by coordinates: a column letter and a row
//! number counted from the bottom, like a chessboard (right-hand drawing above).
//!
//! A board is two bitboards in `u64`s, bit `row * size + col` with row 0 at the bottom, so on
//! 3×3 numpad digit `d` is bit `d - 1`. Whose turn it is follows from the counts of marks: X
//! moves first. Boards from 3×3 to 7×7 with `k` in a row (3 ≤ k ≤ size) share one code path;
//! the winning lines of each shape are a table of bit masks built once.

use std::fmt;
use std::str::FromStr;

use crate::text::quoted;

pub(crate) use crate::rules::classic::geometry::{Geometry, bit_indices};
pub(crate) mod geometry;
mod rule_set;

pub use geometry::{MAX_SIZE, MIN_SIZE};

/// A player's mark. X always moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Mark {
    X,
    O,
}

impl Mark {
    /// The opponent's mark.
    pub const fn other(self) -> Mark {
        match self {
            Mark::X => Mark::O,
            Mark::O => Mark::X,
        }
    }

    /// The character used in the notation and on screen.
    pub const fn symbol(self) -> char {
        match self {
            Mark::X => 'X',
            Mark::O => 'O',
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.symbol())
    }
}

impl TryFrom<char> for Mark {
    type Error = char;

    /// `X` or `O`, either case; anything else is returned as the error.
    fn try_from(c: char) -> Result<Self, Self::Error> {
        match c {
            'X' | 'x' => Ok(Mark::X),
            'O' | 'o' => Ok(Mark::O),
            other => Err(other),
        }
    }
}

/// The shape of the game: board side, marks in a row needed, and whether completing a line
/// wins (normal) or loses (misère).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    size: u8,
    k: u8,
    misere: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules::CLASSIC
    }
}

impl Rules {
    /// 3 × 3, three in a row wins.
    pub const CLASSIC: Rules = Rules {
        size: 3,
        k: 3,
        misere: false,
    };

    /// Rules for a `size` × `size` board where `k` in a row completes a line.
    pub fn new(size: u8, k: u8, misere: bool) -> Result<Rules, RulesError> {
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(RulesError::Size(size));
        }
        if !(3..=size).contains(&k) {
            return Err(RulesError::K { k, size });
        }
        Ok(Rules { size, k, misere })
    }

    /// Rules the proof search takes but the classic game does not offer: 8×8 with five or
    /// more in a row, whose positions are played with Gomoku's rules ([`crate::rules::gomoku`]) and
    /// proven on a classic board. `None` for any other.
    pub fn for_proof(size: u8, k: u8) -> Option<Rules> {
        (size == crate::rules::classic::geometry::PROOF_SIZE
            && crate::rules::classic::geometry::takes(size, k))
        .then_some(Rules {
            size,
            k,
            misere: false,
        })
    }

    /// The default line length for a board side: the shortest line that still gives a fair
    /// (drawn) game with perfect play. 3×3 k=3, 4×4 k=4, 5×5 k=4, 6×6 and 7×7 k=5.
    pub const fn default_k(size: u8) -> u8 {
        match size {
            0..=3 => 3,
            4 | 5 => 4,
            _ => 5,
        }
    }

    pub const fn size(self) -> u8 {
        self.size
    }

    pub const fn k(self) -> u8 {
        self.k
    }

    pub const fn misere(self) -> bool {
        self.misere
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}×{0}, {1} in a row", self.size, self.k)?;
        if self.misere {
            write!(f, ", misère")?;
        }
        Ok(())
    }
}

/// Rules outside what the board supports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    Size(u8),
    K {
        k: u8,
        size: u8,
    },
    /// Misère on a board from 8×8 up: those boards are played with Gomoku's rules.
    Misere(u8),
    /// `--exact` for a game not played with Gomoku's rules.
    ExactFive,
    /// `--renju` for a game other than Gomoku's five in a row.
    Renju,
    /// `--caro` for a game other than Gomoku's five in a row.
    Caro,
    /// Gomoku on a board smaller than its smallest, 8×8.
    GomokuSize(u8),
    /// A swap opening for a game other than Gomoku's five in a row.
    Opening,
    /// A board of side `n` from 8×8 up for classic play, which those boards are not.
    NotClassic(u8),
    /// `--columns` or `--rows` for a game whose board is not columns.
    Columns(&'static str),
    /// A flag given with a game it is no rule of (`--size` with `--rules ultimate`).
    Apart {
        flag: &'static str,
        game: &'static str,
    },
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Size(n) => {
                write!(
                    f,
                    "board size {n} is not supported: use {MIN_SIZE} to 20 (from 8×8 up with Gomoku's rules)"
                )
            }
            RulesError::NotClassic(n) => write!(
                f,
                "classic boards are {MIN_SIZE}×{MIN_SIZE} to {MAX_SIZE}×{MAX_SIZE}: {n}×{n} is played with Gomoku's rules (--rules gomoku)"
            ),
            RulesError::Columns(flag) => write!(
                f,
                "{flag} sizes Connect Four's board: give --connect-four too, or drop {flag}"
            ),
            RulesError::Apart { flag, game } => {
                write!(
                    f,
                    "{flag} is not a rule of {game}: drop {flag}, or choose another game"
                )
            }
            RulesError::GomokuSize(n) => write!(
                f,
                "Gomoku is played on 8×8 to 20×20, not on {n}×{n}: give --size 8 to 20, or drop --gomoku"
            ),
            RulesError::ExactFive => write!(
                f,
                "--exact is a rule of Gomoku's boards: give --gomoku or a board from 8×8 up"
            ),
            RulesError::Opening => write!(
                f,
                "--opening swap1 and swap2 open five in a row on Gomoku's boards (8×8 to 20×20): give --gomoku or a board from 8×8 up, and drop --k"
            ),
            RulesError::Caro => write!(
                f,
                "--caro plays five in a row on Gomoku's boards (8×8 to 20×20): drop --k, --exact, --renju, --misere and --ultimate"
            ),
            RulesError::Renju => write!(
                f,
                "--renju plays five in a row on Gomoku's boards (8×8 to 20×20): drop --k, --exact, --misere and --ultimate"
            ),
            RulesError::Misere(n) => write!(
                f,
                "misère is played on boards up to {MAX_SIZE}×{MAX_SIZE}, not on {n}×{n}: drop --misere"
            ),
            RulesError::K { k, size } => {
                write!(
                    f,
                    "{k} in a row does not fit a {size}×{size} board: use 3 to {size}"
                )
            }
        }
    }
}

impl std::error::Error for RulesError {}

/// A cell of a board of a given size. It can only be built in range, through [`Board`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    size: u8,
    index: u16,
}

/// What a place on a board of `size`×`size` is called: a `cell` of the classic boards, or a
/// `point` of the larger boards only Gomoku's rule sets play on (the two share this type,
/// and their sizes do not meet: the classic boards end at [`MAX_SIZE`]).
pub fn noun_of(size: u8) -> &'static str {
    if size > MAX_SIZE { "point" } else { "cell" }
}

impl Cell {
    /// What this place is called: `cell`, or `point` on Gomoku's boards ([`noun_of`]).
    pub fn noun(self) -> &'static str {
        noun_of(self.size)
    }

    /// Cell `index` (`row * size + col`) of a `size`×`size` board, if it is on it: for rule
    /// sets on larger boards than the bitboards hold, which share the cells' names.
    pub fn of(size: u8, index: usize) -> Option<Cell> {
        (index < usize::from(size) * usize::from(size)).then_some(Cell {
            size,
            index: index as u16,
        })
    }

    /// The bit index, `row * size + col`, row 0 at the bottom.
    pub const fn index(self) -> usize {
        self.index as usize
    }

    /// Row counted from the bottom, from 0.
    pub const fn row(self) -> u8 {
        (self.index / self.size as u16) as u8
    }

    /// Column counted from the left, from 0.
    pub const fn col(self) -> u8 {
        (self.index % self.size as u16) as u8
    }

    /// The order cells are listed in for people: top row first, left to right, as the board
    /// looks.
    pub const fn reading_key(self) -> (u8, u8) {
        (u8::MAX - self.row(), self.col())
    }

    /// The numpad digit of the cell on a 3×3 board.
    pub const fn numpad(self) -> Option<u8> {
        if self.size == 3 {
            Some(self.index as u8 + 1)
        } else {
            None
        }
    }

    /// The chess-like coordinate, `a1` at the bottom left.
    pub fn coordinate(self) -> String {
        format!("{}{}", char::from(b'a' + self.col()), self.row() + 1)
    }

    pub(crate) const fn bit(self) -> u64 {
        1 << self.index
    }
}

impl fmt::Display for Cell {
    /// The numpad digit on 3×3, the coordinate on larger boards.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.numpad() {
            Some(d) => write!(f, "{d}"),
            None => write!(f, "{}", self.coordinate()),
        }
    }
}

/// Parses the name of a cell of a `size`×`size` board (sides up to 20): a numpad digit on
/// 3×3, or a coordinate (`b2`, `B2`, `o15`) on any size. Surrounding whitespace is ignored;
/// within the name nothing else is accepted: no sign, no leading zero, nothing after the row
/// number (`+5`, `05`, `5x`, `b+2`, `b02` are not cells).
pub fn parse_cell(size: u8, input: &str) -> Result<Cell, CellError> {
    let s = input.trim();
    let unknown = || CellError::Unknown {
        input: s.to_string(),
        size,
    };
    let off = || CellError::OffBoard {
        input: s.to_string(),
        size,
    };
    // A number as people write it: digits, no sign, no leading zero.
    let number = |t: &str| {
        let plain = !t.is_empty()
            && t.bytes().all(|b| b.is_ascii_digit())
            && (t == "0" || !t.starts_with('0'));
        plain.then(|| t.parse::<u32>().ok()).flatten()
    };
    if s.is_empty() {
        return Err(CellError::Empty);
    }
    if s.starts_with(|c: char| c.is_ascii_digit()) || s.starts_with('-') {
        if size != 3 {
            return Err(unknown());
        }
        return match (s.strip_prefix('-'), number(s)) {
            (None, Some(d @ 1..=9)) => Ok(Cell {
                size,
                index: d as u16 - 1,
            }),
            (None, Some(_)) => Err(off()),
            // A negative number is well formed, just not on the board.
            (Some(rest), _) if number(rest).is_some() => Err(off()),
            _ => Err(unknown()),
        };
    }
    let mut chars = s.chars();
    let letter = chars.next().map(|c| c.to_ascii_lowercase());
    match (letter, number(chars.as_str())) {
        (Some(l @ 'a'..='z'), Some(row)) => {
            let col = u32::from(l) - u32::from('a');
            if col < u32::from(size) && (1..=u32::from(size)).contains(&row) {
                Ok(Cell {
                    size,
                    index: ((row - 1) * u32::from(size) + col) as u16,
                })
            } else {
                Err(off())
            }
        }
        _ => Err(unknown()),
    }
}

/// A square board whose cells are named alike, classic or Gomoku's 15×15: what is written
/// once for both, from the keypad and the screen's grid to the tree search's move indices and
/// the compact drawings.
pub trait Squares {
    /// The board's side.
    fn side(&self) -> u8;
    /// The mark on `cell`, if any.
    fn mark_on(&self, cell: Cell) -> Option<Mark>;

    /// The cell at `row` (from the bottom) and `col` (from the left), if on the board.
    fn square(&self, row: u8, col: u8) -> Option<Cell> {
        let n = self.side();
        let index = usize::from(row) * usize::from(n) + usize::from(col);
        (row < n && col < n).then(|| Cell::of(n, index)).flatten()
    }

    /// Whether `cell` is one of this board's, not of a board of another size.
    fn holds(&self, cell: Cell) -> bool {
        cell.size == self.side()
    }

    /// The cell of numpad digit `d` (1-9), on a 3×3 board only.
    fn numpad_cell(&self, d: u8) -> Option<Cell> {
        let i = d.checked_sub(1)?;
        (self.side() == 3 && i < 9)
            .then(|| self.square(i / 3, i % 3))
            .flatten()
    }
}

impl Squares for Board {
    fn side(&self) -> u8 {
        self.size()
    }

    fn mark_on(&self, cell: Cell) -> Option<Mark> {
        self.mark_at(cell)
    }
}

/// A set of cells forming the completed line(s) at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    size: u8,
    mask: u64,
}

impl Line {
    pub const fn contains(self, cell: Cell) -> bool {
        self.mask & cell.bit() != 0
    }

    /// The cells in ascending index order.
    pub fn cells(self) -> impl Iterator<Item = Cell> {
        let size = self.size;
        bit_indices(self.mask).map(move |i| Cell {
            size,
            index: i as u16,
        })
    }
}

/// How a game stands: `line` of a game won holds every line the last move completed. Under
/// misère rules the player who completed it is the loser, so `winner` is the other mark.
pub type Outcome = crate::rules::GameOutcome<Line>;

/// Why a move was refused. The board is unchanged.
pub type MoveError = crate::rules::MoveError<Cell>;

impl crate::rules::Located for Cell {
    fn cell_words(&self) -> String {
        format!("{} {self}", self.noun())
    }
}

/// Input that names no cell of the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CellError {
    Empty,
    OffBoard { input: String, size: u8 },
    Unknown { input: String, size: u8 },
}

impl fmt::Display for CellError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last = |size: u8| format!("{}{}", char::from(b'a' + size - 1), size);
        match self {
            CellError::Empty => write!(f, "no cell given"),
            CellError::OffBoard { input, size: 3 } => {
                write!(
                    f,
                    "{} is not on the board: cells are 1-9 or a1-c3",
                    quoted(input)
                )
            }
            CellError::OffBoard { input, size } => {
                write!(
                    f,
                    "{} is not on the board: {}s are a1-{}",
                    quoted(input),
                    noun_of(*size),
                    last(*size)
                )
            }
            CellError::Unknown { input, size: 3 } => write!(
                f,
                "'{}' is not a cell: type a digit 1-9 (7 8 9 is the top row) or a coordinate like b2",
                quoted(input)
            ),
            CellError::Unknown { input, size } => write!(
                f,
                "'{}' is not a {}: type a coordinate from a1 to {}",
                quoted(input),
                noun_of(*size),
                last(*size)
            ),
        }
    }
}

impl std::error::Error for CellError {}

/// A position: the marks on the board under some rules.
///
/// Invariant: the position is reachable in a legal game (the counts of marks differ by at most
/// one in X's favour, and at most the last move completed a line). Every constructor keeps it.
#[derive(Clone, Copy)]
pub struct Board {
    x: u64,
    o: u64,
    geom: &'static Geometry,
    misere: bool,
}

impl Default for Board {
    fn default() -> Self {
        Board::new(Rules::CLASSIC)
    }
}

impl PartialEq for Board {
    fn eq(&self, other: &Self) -> bool {
        self.x == other.x && self.o == other.o && self.rules() == other.rules()
    }
}

impl Eq for Board {}

impl std::hash::Hash for Board {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.x, self.o, self.rules()).hash(state);
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({self})")
    }
}

impl Board {
    /// The empty board.
    pub fn new(rules: Rules) -> Board {
        Board {
            x: 0,
            o: 0,
            geom: Geometry::of(rules.size, rules.k),
            misere: rules.misere,
        }
    }

    pub fn rules(&self) -> Rules {
        Rules {
            size: self.geom.size,
            k: self.geom.k,
            misere: self.misere,
        }
    }

    pub fn size(&self) -> u8 {
        self.geom.size
    }

    pub(crate) fn geometry(&self) -> &'static Geometry {
        self.geom
    }

    /// The cells of `mark` as a bit mask, bit [`Cell::index`].
    pub const fn bits(&self, mark: Mark) -> u64 {
        match mark {
            Mark::X => self.x,
            Mark::O => self.o,
        }
    }

    /// How many marks are on the board.
    pub const fn marks(&self) -> u32 {
        self.x.count_ones() + self.o.count_ones()
    }

    /// Whose turn it is (also defined when the game is over: who would move next).
    pub const fn to_move(&self) -> Mark {
        if self.x.count_ones() == self.o.count_ones() {
            Mark::X
        } else {
            Mark::O
        }
    }

    pub fn mark_at(&self, cell: Cell) -> Option<Mark> {
        if self.x & cell.bit() != 0 {
            Some(Mark::X)
        } else if self.o & cell.bit() != 0 {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// The cell with bit index `index`, if it is on the board.
    pub fn cell(&self, index: usize) -> Option<Cell> {
        let size = self.geom.size;
        (index < usize::from(self.geom.cells)).then_some(Cell {
            size,
            index: index as u16,
        })
    }

    /// The cell at `row` (from the bottom) and `col` (from the left), if on the board.
    pub fn cell_at(&self, row: u8, col: u8) -> Option<Cell> {
        let n = self.geom.size;
        (row < n && col < n).then(|| Cell {
            size: n,
            index: u16::from(row * n + col),
        })
    }

    /// The cell for a numpad digit 1-9 on a 3×3 board.
    pub fn numpad(&self, digit: u8) -> Option<Cell> {
        (self.geom.size == 3 && (1..=9).contains(&digit)).then(|| Cell {
            size: 3,
            index: u16::from(digit - 1),
        })
    }

    /// Every cell, in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let size = self.geom.size;
        (0..self.geom.cells).map(move |index| Cell {
            size,
            index: u16::from(index),
        })
    }

    /// The empty cells in index order, whatever the outcome (see [`Board::legal_moves`]).
    pub fn empty_cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let size = self.geom.size;
        bit_indices(self.geom.full & !(self.x | self.o)).map(move |i| Cell {
            size,
            index: i as u16,
        })
    }

    /// The moves the side to move may make: the empty cells, or none once the game is over.
    pub fn legal_moves(&self) -> Vec<Cell> {
        if self.outcome() == Outcome::InProgress {
            self.empty_cells().collect()
        } else {
            Vec::new()
        }
    }

    /// Parses a cell name: a numpad digit on 3×3, or a coordinate (`b2`, `B2`) on any size
    /// (see [`parse_cell`]).
    pub fn parse_cell(&self, input: &str) -> Result<Cell, CellError> {
        parse_cell(self.geom.size, input)
    }

    /// How the game stands.
    pub fn outcome(&self) -> Outcome {
        for mark in [Mark::X, Mark::O] {
            let line = self.geom.completed(self.bits(mark));
            if line != 0 {
                let winner = if self.misere { mark.other() } else { mark };
                return Outcome::Won {
                    winner,
                    line: Line {
                        size: self.geom.size,
                        mask: line,
                    },
                };
            }
        }
        if (self.x | self.o) == self.geom.full {
            Outcome::Draw
        } else {
            Outcome::InProgress
        }
    }

    /// The board after the side to move marks `cell`.
    pub fn with_move(&self, cell: Cell) -> Result<Board, MoveError> {
        debug_assert_eq!(
            cell.size, self.geom.size,
            "cell from a board of another size"
        );
        if self.outcome() != Outcome::InProgress {
            return Err(MoveError::GameOver);
        }
        if (self.x | self.o) & cell.bit() != 0 {
            return Err(MoveError::Occupied(cell));
        }
        let mut next = *self;
        match self.to_move() {
            Mark::X => next.x |= cell.bit(),
            Mark::O => next.o |= cell.bit(),
        }
        Ok(next)
    }

    /// Marks `cell` for the side to move; on error the board is unchanged.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        *self = self.with_move(cell)?;
        Ok(())
    }

    /// Parses the notation with explicit rules: the size comes from the notation; `k` is
    /// checked against it.
    pub fn parse_with(s: &str, k: Option<u8>, misere: bool) -> Result<Board, ParseBoardError> {
        let s = s.trim();
        let rows: Vec<&str> = s.split('/').collect();
        let n = rows.len();
        if !(usize::from(MIN_SIZE)..=usize::from(MAX_SIZE)).contains(&n) {
            return Err(ParseBoardError::RowCount(n));
        }
        let size = n as u8;
        let rules = Rules::new(size, k.unwrap_or(Rules::default_k(size)), misere)
            .map_err(ParseBoardError::Rules)?;
        let mut board = Board::new(rules);
        // Rows are written top first; row 0 of the bitboard is the bottom.
        for (written, row_text) in rows.iter().enumerate() {
            let row = size - 1 - written as u8;
            let cells: Vec<char> = row_text.chars().collect();
            if cells.len() != n {
                return Err(ParseBoardError::RowLength {
                    row: written + 1,
                    found: cells.len(),
                    size,
                });
            }
            for (col, &c) in cells.iter().enumerate() {
                let bit = 1u64 << (usize::from(row) * n + col);
                match (c, Mark::try_from(c)) {
                    (_, Ok(Mark::X)) => board.x |= bit,
                    (_, Ok(Mark::O)) => board.o |= bit,
                    ('.', _) => {}
                    (ch, Err(_)) => {
                        return Err(ParseBoardError::BadChar {
                            ch,
                            row: written + 1,
                            col: col + 1,
                        });
                    }
                }
            }
        }
        board.validate()?;
        Ok(board)
    }

    /// The board of `rules` holding the cells of `x` and of `o` (bit [`Cell::index`]),
    /// checked as a parsed board is: the counts, and lines a game could end with.
    pub fn from_bits(rules: Rules, x: u64, o: u64) -> Result<Board, ParseBoardError> {
        let board = Board {
            x,
            o,
            ..Board::new(rules)
        };
        board.validate()?;
        Ok(board)
    }

    /// Checks that the marks could arise in a legal game.
    fn validate(&self) -> Result<(), ParseBoardError> {
        let (xs, os) = (self.x.count_ones(), self.o.count_ones());
        if xs != os && xs != os + 1 {
            return Err(ParseBoardError::MarkCounts { x: xs, o: os });
        }
        let x_line = self.geom.completed(self.x) != 0;
        let o_line = self.geom.completed(self.o) != 0;
        let completer = match (x_line, o_line) {
            (true, true) => return Err(ParseBoardError::BothCompleted),
            (true, false) => Mark::X,
            (false, true) => Mark::O,
            (false, false) => return Ok(()),
        };
        // The completer made the last move, and that one move made every line it has.
        let last_mover = self.to_move().other();
        let bits = self.bits(completer);
        let one_move = bit_indices(bits).any(|c| self.geom.completed(bits & !(1 << c)) == 0);
        if completer != last_mover || !one_move {
            return Err(ParseBoardError::PlayedAfterEnd(completer));
        }
        Ok(())
    }
}

impl FromStr for Board {
    type Err = ParseBoardError;

    /// Parses the notation: rows top to bottom separated by `/`, cells `X`, `O` or `.`, for
    /// example `X.O/.X./..O`. The size is the number of rows; `k` is the size's default.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Board::parse_with(s, None, false)
    }
}

impl fmt::Display for Board {
    /// The notation: rows top to bottom separated by `/`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.geom.size;
        for row in (0..n).rev() {
            for col in 0..n {
                let cell = Cell {
                    size: n,
                    index: u16::from(row * n + col),
                };
                let c = self.mark_at(cell).map_or('.', Mark::symbol);
                write!(f, "{c}")?;
            }
            if row > 0 {
                write!(f, "/")?;
            }
        }
        Ok(())
    }
}

/// Why a board's notation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    RowCount(usize),
    RowLength { row: usize, found: usize, size: u8 },
    BadChar { ch: char, row: usize, col: usize },
    Rules(RulesError),
    MarkCounts { x: u32, o: u32 },
    BothCompleted,
    PlayedAfterEnd(Mark),
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseBoardError::RowCount(n) => write!(
                f,
                "expected {MIN_SIZE} to {MAX_SIZE} rows separated by '/', found {n} (a 3×3 board looks like X.O/.X./..O)"
            ),
            ParseBoardError::RowLength { row, found, size } => {
                write!(
                    f,
                    "row {row} has {found} cells, expected {size} (one per column)"
                )
            }
            ParseBoardError::BadChar { ch, row, col } => write!(
                f,
                "unexpected {ch:?} at row {row}, column {col}: cells are X, O or '.'"
            ),
            ParseBoardError::Rules(e) => write!(f, "{e}"),
            ParseBoardError::MarkCounts { x, o } => write!(
                f,
                "impossible mark counts, {x} X and {o} O: X moves first, so X has as many marks as O or one more"
            ),
            ParseBoardError::BothCompleted => {
                write!(
                    f,
                    "both X and O have a line: a game stops at the first line"
                )
            }
            ParseBoardError::PlayedAfterEnd(m) => write!(
                f,
                "{m} completed a line but play went on: a game stops at the first line"
            ),
        }
    }
}

impl std::error::Error for ParseBoardError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(s: &str) -> Board {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn numpad_digits_follow_the_keypad_layout() {
        let b = Board::default();
        let top: Vec<u8> = (7..=9).map(|d| b.numpad(d).unwrap().row()).collect();
        assert_eq!(top, [2, 2, 2]);
        assert_eq!(b.numpad(1).unwrap().row(), 0);
        assert_eq!(b.numpad(7).unwrap().col(), 0);
        assert_eq!(b.numpad(5).unwrap().coordinate(), "b2");
        assert_eq!(b.numpad(3).unwrap().coordinate(), "c1");
        assert_eq!(b.numpad(0), None);
        assert_eq!(b.numpad(10), None);
        // "X.." as the top row puts X on 7.
        assert_eq!(
            board("X../.../...").mark_at(b.numpad(7).unwrap()),
            Some(Mark::X)
        );
    }

    #[test]
    fn mark_round_trips_through_char() {
        for m in [Mark::X, Mark::O] {
            assert_eq!(Mark::try_from(m.symbol()), Ok(m));
            assert_eq!(m.other().other(), m);
        }
        assert_eq!(Mark::try_from('.'), Err('.'));
    }

    #[test]
    fn notation_round_trips() {
        for s in [
            "...../...../...../...../.....",
            "X.O/.X./..O",
            "XOX/XOO/OXX",
            "X.../.O../..../....",
        ] {
            assert_eq!(board(s).to_string(), s);
        }
        assert_eq!(board(" x.o/.x./..o ").to_string(), "X.O/.X./..O");
    }

    #[test]
    fn turn_follows_from_counts() {
        assert_eq!(board(".../.../...").to_move(), Mark::X);
        assert_eq!(board(".../.X./...").to_move(), Mark::O);
        assert_eq!(board("O../.X./...").to_move(), Mark::X);
    }

    #[test]
    fn outcome_reports_winner_and_line() {
        let b = board("XXX/OO./...");
        let Outcome::Won { winner, line } = b.outcome() else {
            panic!("{:?}", b.outcome())
        };
        assert_eq!(winner, Mark::X);
        let cells: Vec<String> = line.cells().map(|c| c.to_string()).collect();
        assert_eq!(cells, ["7", "8", "9"]);
        assert_eq!(board("XOX/XOO/OXX").outcome(), Outcome::Draw);
        assert_eq!(board("X.O/.X./..O").outcome(), Outcome::InProgress);
    }

    #[test]
    fn a_double_line_from_one_move_is_legal() {
        let b = board("XOX/OXO/XOX");
        assert!(matches!(
            b.outcome(),
            Outcome::Won {
                winner: Mark::X,
                ..
            }
        ));
    }

    #[test]
    fn misere_completer_loses() {
        let b = Board::parse_with("XXX/OO./...", None, true).unwrap();
        assert!(matches!(
            b.outcome(),
            Outcome::Won {
                winner: Mark::O,
                ..
            }
        ));
    }

    #[test]
    fn bad_notation_names_the_fault() {
        let err = |s: &str| s.parse::<Board>().unwrap_err().to_string();
        assert!(err("X.O/.X.").contains("found 2"));
        assert!(err("X.O/.X/...").contains("row 2 has 2 cells"));
        assert!(err("X.O/.Z./...").contains("'Z' at row 2, column 2"));
        assert!(err("XX./.../...").contains("2 X and 0 O"));
        assert!(err("XXX/OOO/X..").contains("both X and O"));
        assert!(err("XXX/OO./..O").contains("X completed a line but play went on"));
        assert!(err("XXX/XOO/OO.").contains("X completed a line"));
        assert!(err("").contains("found 1"));
    }

    #[test]
    fn moves_are_checked() {
        let mut b = Board::default();
        let five = b.numpad(5).unwrap();
        b.play(five).unwrap();
        assert_eq!(b.play(five), Err(MoveError::Occupied(five)));
        assert_eq!(b.to_string(), ".../.X./...");
        let mut won = board("XXX/OO./...");
        assert_eq!(won.play(won.numpad(1).unwrap()), Err(MoveError::GameOver));
        assert!(won.legal_moves().is_empty());
    }

    #[test]
    fn cells_parse_from_digits_and_coordinates() {
        let b = Board::default();
        assert_eq!(b.parse_cell(" 7 ").unwrap(), b.numpad(7).unwrap());
        assert_eq!(b.parse_cell("A3").unwrap(), b.numpad(7).unwrap());
        assert_eq!(b.parse_cell("c1").unwrap(), b.numpad(3).unwrap());
        for bad in ["0", "10", "-1", "d1", "a4", "a0"] {
            assert!(
                matches!(b.parse_cell(bad), Err(CellError::OffBoard { .. })),
                "{bad}"
            );
        }
        for bad in ["x", "5a", "a", "a+1", "99999999999999999999", "é"] {
            assert!(
                matches!(b.parse_cell(bad), Err(CellError::Unknown { .. })),
                "{bad}"
            );
        }
        assert_eq!(b.parse_cell("  "), Err(CellError::Empty));
        let big = Board::new(Rules::new(5, 4, false).unwrap());
        assert_eq!(big.parse_cell("e5").unwrap().index(), 24);
        assert!(matches!(
            big.parse_cell("5"),
            Err(CellError::Unknown { .. })
        ));
    }

    #[test]
    fn cells_are_parsed_strictly() {
        let b = Board::default();
        for bad in [
            "+5", "05", "5x", "b+2", "b02", "b2x", "b-2", "-05", "b 2", "+b2",
        ] {
            assert!(
                matches!(b.parse_cell(bad), Err(CellError::Unknown { .. })),
                "{bad}: {:?}",
                b.parse_cell(bad)
            );
        }
        let err = |b: &Board, s: &str| b.parse_cell(s).unwrap_err().to_string();
        assert_eq!(
            err(&b, "+5"),
            "'+5' is not a cell: type a digit 1-9 (7 8 9 is the top row) or a coordinate like b2"
        );
        assert_eq!(
            err(&b, "b02"),
            "'b02' is not a cell: type a digit 1-9 (7 8 9 is the top row) or a coordinate like b2"
        );
        assert_eq!(
            err(&b, "-1"),
            "-1 is not on the board: cells are 1-9 or a1-c3"
        );
        assert_eq!(
            err(&b, "0"),
            "0 is not on the board: cells are 1-9 or a1-c3"
        );
        let big = Board::new(Rules::new(5, 4, false).unwrap());
        assert_eq!(
            err(&big, "c03"),
            "'c03' is not a cell: type a coordinate from a1 to e5"
        );
        assert_eq!(
            err(&big, "+5"),
            "'+5' is not a cell: type a coordinate from a1 to e5"
        );
        assert_eq!(err(&big, "c6"), "c6 is not on the board: cells are a1-e5");
        // Whitespace around the name is the caller's line, not the name.
        assert_eq!(big.parse_cell(" C3\t").unwrap().to_string(), "c3");
    }
}
