//! Gomoku: five in a row wins, on the standard 15×15 board or any from 8×8 to 20×20, and the same
//! game with another line, k in a row for k from 3 to the board's side; freestyle (k or more)
//! by default, or *exactly k*, where a longer line (an overline) wins nothing. The rules only:
//! stones, whose turn it is, the outcome and the text notation.
//!
//! Cells are named as on the classic boards larger than 3×3 ([`crate::rules::classic::Cell`]): a column
//! letter (`a`–`o` on 15×15, `a`–`t` on 20×20) and a row number counted from the bottom, so
//! `h8` is the centre of 15×15. A position is two bitboards of up to 400 bits, seven `u64`s
//! each, bit
//! `row * side + col`; whose turn it is follows from the counts of stones, X (black) first. A game ends the moment a
//! move makes a winning line, so the winner is found from the last move alone and
//! kept, not searched for.

pub mod opening;
pub mod renju;
mod rule_set;
mod text;

use std::fmt;
use std::str::FromStr;

use crate::rules::classic::{self, Board, Cell, CellError, Mark, MoveError, Rules, Squares};
use crate::rules::gomoku::opening::{Choice, ChoiceError, Opening, Seat, Stage, Swap};

/// The standard board's side.
pub const SIZE: u8 = 15;
/// The largest board, the Gomocup's freestyle 20×20.
pub const MAX_SIZE: u8 = 20;
/// The words of a side's bitboard: 64 points each, enough for 20×20.
pub(crate) const WORDS: usize = (MAX_SIZE as usize * MAX_SIZE as usize).div_ceil(64);
/// The smallest board played with Gomoku's rules (smaller ones are the classic boards').
pub const MIN_SIZE: u8 = 8;
/// Stones in a row that win (or more), unless the game says another number.
pub const FIVE: u8 = 5;
/// The four directions of a line, as (column, row) steps; each is also walked backwards.
const DIRECTIONS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A position of Gomoku.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Gomoku {
    /// The board's side, 8 to 20.
    size: u8,
    /// The stones of X and of O, bit `index % 64` of word `index / 64`.
    stones: [[u64; WORDS]; 2],
    /// Stones on the board.
    placed: u16,
    /// Who made a winning line, which ended the game.
    winner: Option<Mark>,
    /// Stones in a row that win: five, or 3 to the side.
    k: u8,
    /// Which lines win.
    rule: Rule,
    /// How the game opens, and the choices made in its opening ([`opening`]).
    swap: Swap,
}

/// Which of a side's lines win, and which points it may play.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rule {
    /// Freestyle: `k` or more in a row.
    #[default]
    Freestyle,
    /// Only exactly `k` in a row: more (an overline) wins nothing.
    Exact,
    /// Renju: five for both, black (X) must make exactly five and may not play a forbidden
    /// point ([`renju`]); white wins with five or more.
    Renju,
    /// Caro: `k` or more in a row, but not exactly `k` blocked at both ends, that is with the
    /// other side's stones on the points just beyond both of its ends (a board's edge blocks
    /// nothing; an overline wins however it is blocked).
    Caro,
}

impl Default for Gomoku {
    fn default() -> Self {
        Gomoku::new()
    }
}

/// The side index of a mark: 0 for X, 1 for O.
fn side(mark: Mark) -> usize {
    usize::from(mark == Mark::O)
}

/// A run of one side's stones in a line: its first cell, the index step to the next, and
/// how many.
#[derive(Clone, Copy)]
struct Run {
    first: usize,
    step: isize,
    /// The direction from the first cell, (column, row).
    dir: (i8, i8),
    len: usize,
}

impl Run {
    fn len(&self) -> usize {
        self.len
    }
}

impl Gomoku {
    /// The empty standard board, 15×15, X to move.
    pub const fn new() -> Gomoku {
        Gomoku {
            size: SIZE,
            stones: [[0; WORDS]; 2],
            placed: 0,
            winner: None,
            k: FIVE,
            rule: Rule::Freestyle,
            swap: Swap::new(Opening::Free),
        }
    }

    /// Whose turn it is (once the game is over: who would move next).
    pub fn to_move(&self) -> Mark {
        if self.placed.is_multiple_of(2) {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// The empty board of side `size` (8 to 20), X to move.
    pub const fn with_size(size: u8) -> Option<Gomoku> {
        if size < MIN_SIZE || size > MAX_SIZE {
            return None;
        }
        Some(Gomoku {
            size,
            ..Gomoku::new()
        })
    }

    /// The empty board of side `size` (8 to 20) played with `k` in a row (3 to `size`),
    /// exactly `k` (`exact`) or `k` or more.
    pub const fn with_rules(size: u8, k: u8, exact: bool) -> Option<Gomoku> {
        match Gomoku::with_size(size) {
            Some(board) if k >= 3 && k <= size => Some(Gomoku {
                k,
                rule: if exact { Rule::Exact } else { Rule::Freestyle },
                ..board
            }),
            _ => None,
        }
    }

    /// The empty board of side `size` (8 to 20) played by renju's rules ([`renju`]).
    pub const fn renju(size: u8) -> Option<Gomoku> {
        Gomoku::with_rule(size, FIVE, Rule::Renju)
    }

    /// The empty board of side `size` (8 to 20) played by caro's rule: five or more in a row,
    /// but not exactly five blocked at both ends ([`Rule::Caro`]).
    pub const fn caro(size: u8) -> Option<Gomoku> {
        Gomoku::with_rule(size, FIVE, Rule::Caro)
    }

    /// The empty board of side `size` (8 to 20) with `k` in a row decided by `rule` (renju
    /// and caro play five).
    pub const fn with_rule(size: u8, k: u8, rule: Rule) -> Option<Gomoku> {
        match (rule, Gomoku::with_rules(size, k, false)) {
            (Rule::Renju | Rule::Caro, _) if k != FIVE => None,
            (_, Some(board)) => Some(Gomoku { rule, ..board }),
            (_, None) => None,
        }
    }

    /// This empty board opened by `opening`: a swap rule needs five in a row (`None` with
    /// another line, or once stones are placed).
    pub const fn with_opening(self, opening: Opening) -> Option<Gomoku> {
        match opening {
            Opening::Free => {}
            _ if self.k != FIVE || self.placed != 0 => return None,
            _ => {}
        }
        Some(Gomoku {
            swap: Swap::new(opening),
            ..self
        })
    }

    /// How the game opens.
    pub const fn opening(&self) -> Opening {
        self.swap.opening()
    }

    /// Where the opening stands: stones to place, a colour to choose, or play.
    pub fn stage(&self) -> Stage {
        if self.is_over() {
            return Stage::Play;
        }
        self.swap.stage(self.placed)
    }

    /// The seat that acts now (see [`opening`]): in play, the one playing the side to move.
    pub fn seat(&self) -> Seat {
        self.swap.seat(self.placed, self.to_move())
    }

    /// The seat playing `mark`, after the opening's choices so far.
    pub fn seat_of(&self, mark: Mark) -> Seat {
        self.swap.seat_of(mark)
    }

    /// Makes the opening's choice for the seat that is to choose; on error nothing changes.
    pub fn choose(&mut self, choice: Choice) -> Result<(), ChoiceError> {
        if self.is_over() {
            return Err(ChoiceError::NotNow);
        }
        self.swap.choose(self.placed, choice)
    }

    /// What the opening asks now, for people: `place stone 2 of 3 (O, white)`, `place two
    /// more: stone 1 of 2 (O, white)`, `choose black (X), white (O) or two (place two more)`;
    /// `None` in play.
    pub fn stage_words(&self) -> Option<String> {
        let stone = match self.to_move() {
            Mark::X => "X, black",
            Mark::O => "O, white",
        };
        match (self.stage(), self.placing()) {
            (Stage::Play, _) | (Stage::Place, None) => None,
            (Stage::Place, Some((n, 3))) => Some(format!("place stone {n} of 3 ({stone})")),
            (Stage::Place, Some((n, _))) => {
                Some(format!("place two more: stone {n} of 2 ({stone})"))
            }
            (Stage::Choose(offered), _) => Some(match offered {
                [_, _] => "choose black (X) or white (O)".to_string(),
                _ => "choose black (X), white (O) or two (place two more)".to_string(),
            }),
        }
    }

    /// While the opening's stones are placed: the stone next placed, counted from 1, and of
    /// how many (the first three, or under swap2 the two more); `None` at any other time.
    pub fn placing(&self) -> Option<(u16, u16)> {
        match (self.stage(), self.placed) {
            (Stage::Place, n @ 0..3) => Some((n + 1, 3)),
            (Stage::Place, n) => Some((n - 2, 2)),
            _ => None,
        }
    }

    /// The same stones with no opening rule: the position as play goes on from it, for a
    /// search that weighs a choice.
    pub fn opened(self) -> Gomoku {
        Gomoku {
            swap: Swap::new(Opening::Free),
            ..self
        }
    }

    /// The rule that decides which lines win.
    pub const fn rule(&self) -> Rule {
        self.rule
    }

    /// Whether the game is played by renju's rules.
    pub const fn is_renju(&self) -> bool {
        matches!(self.rule, Rule::Renju)
    }

    /// Whether the game is played by caro's rule.
    pub const fn is_caro(&self) -> bool {
        matches!(self.rule, Rule::Caro)
    }

    /// Why the side to move may not play the empty `cell`, if it may not: under renju, black's
    /// overlines, double fours and double threes.
    pub fn foul(&self, cell: Cell) -> Option<renju::Foul> {
        if !self.is_renju() || self.to_move() != Mark::X || self.mark_at(cell).is_some() {
            return None;
        }
        self.renju_stones().foul(cell.index())
    }

    /// The empty points the side to move may not play: under renju on black's turn, its
    /// forbidden points, the board read once for all of them; else none.
    pub fn forbidden(&self) -> Vec<Cell> {
        if !self.is_renju() || self.to_move() != Mark::X || self.is_over() {
            return Vec::new();
        }
        let stones = self.renju_stones();
        self.empty_indices()
            .filter(|&i| stones.foul(i).is_some())
            .filter_map(|i| Cell::of(self.size, i))
            .collect()
    }

    /// The stones as renju's rule reads them.
    fn renju_stones(&self) -> renju::Stones {
        renju::Stones::new(self.size, |i| self.stone(i))
    }

    /// The board's side.
    pub const fn size(&self) -> u8 {
        self.size
    }

    /// Stones in a row that win.
    pub const fn k(&self) -> u8 {
        self.k
    }

    /// Whether only exactly `k` in a row wins.
    pub const fn is_exact(&self) -> bool {
        matches!(self.rule, Rule::Exact)
    }

    /// This position played with `k` in a row, exactly (`exact`) or `k` or more: the winner
    /// found again, and refused if `k` does not fit the board or no game by those rules
    /// reaches it.
    pub fn played_with(self, k: u8, exact: bool) -> Result<Gomoku, ParseGomokuError> {
        if !(3..=self.size).contains(&k) {
            return Err(ParseGomokuError::Line { k, size: self.size });
        }
        validated(Gomoku {
            k,
            rule: if exact { Rule::Exact } else { Rule::Freestyle },
            ..self
        })
    }

    /// This position played by renju's rules ([`renju`]): the winner found again, and refused
    /// if no game by those rules reaches it.
    pub fn played_by_renju(self) -> Result<Gomoku, ParseGomokuError> {
        self.played_by(Rule::Renju)
    }

    /// This position played with five in a row decided by `rule` (renju's or caro's, say):
    /// the winner found again, and refused if no game by that rule reaches it.
    pub fn played_by(self, rule: Rule) -> Result<Gomoku, ParseGomokuError> {
        validated(Gomoku {
            k: FIVE,
            rule,
            ..self
        })
    }

    /// Whether `run`, of `mark`'s stones, wins: under renju black needs exactly five, and
    /// under caro exactly `k` must not be blocked at both ends.
    fn wins(&self, run: &Run, mark: Mark) -> bool {
        let k = self.k as usize;
        match self.rule {
            Rule::Exact => run.len == k,
            Rule::Renju if mark == Mark::X => run.len == k,
            Rule::Caro if run.len == k => !self.blocked(run, mark),
            _ => run.len >= k,
        }
    }

    /// Whether the other side's stones lie just beyond both ends of `run`, of `mark`'s.
    fn blocked(&self, run: &Run, mark: Mark) -> bool {
        let n = i16::from(self.size);
        let (dc, dr) = (i16::from(run.dir.0), i16::from(run.dir.1));
        let (col, row) = (
            (run.first % n as usize) as i16,
            (run.first / n as usize) as i16,
        );
        let last = run.len as i16 - 1;
        let other = |c: i16, r: i16| {
            (0..n).contains(&c)
                && (0..n).contains(&r)
                && self.stone((r * n + c) as usize) == Some(mark.other())
        };
        other(col - dc, row - dr) && other(col + (last + 1) * dc, row + (last + 1) * dr)
    }

    /// The points of the board.
    fn points(&self) -> usize {
        usize::from(self.size) * usize::from(self.size)
    }

    /// The cell at `row` (from the bottom) and `col` (from the left), if on the board.
    pub fn cell_at(&self, row: u8, col: u8) -> Option<Cell> {
        let n = self.size;
        let index = usize::from(row) * usize::from(n) + usize::from(col);
        (row < n && col < n).then(|| Cell::of(n, index)).flatten()
    }

    /// The cell with index `index`, if it is on the board.
    pub fn cell(&self, index: usize) -> Option<Cell> {
        Cell::of(self.size, index)
    }

    /// Every cell, in index order.
    pub fn cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let n = self.size;
        (0..self.points()).filter_map(move |i| Cell::of(n, i))
    }

    /// The stone on `cell`, if any.
    pub fn mark_at(&self, cell: Cell) -> Option<Mark> {
        self.stone(cell.index())
    }

    fn stone(&self, index: usize) -> Option<Mark> {
        let has = |s: usize| self.stones[s][index / 64] >> (index % 64) & 1 == 1;
        if has(0) {
            Some(Mark::X)
        } else if has(1) {
            Some(Mark::O)
        } else {
            None
        }
    }

    /// The stones placed so far.
    pub fn stones(&self) -> u16 {
        self.placed
    }

    /// The same stones on a classic board, where the classic proof search takes this board
    /// ([`Rules::for_proof`]: 8×8 with five to seven in a row), and not with the exact rule
    /// or renju's, which the classic boards do not play.
    pub fn as_classic(&self) -> Option<Board> {
        if self.rule != Rule::Freestyle {
            return None;
        }
        let rules = Rules::for_proof(self.size, self.k)?;
        let [x, o] = self.stones.map(|words| words[0]);
        Board::from_bits(rules, x, o).ok()
    }

    /// Whether every point holds a stone.
    pub fn is_full(&self) -> bool {
        usize::from(self.placed) == self.points()
    }

    /// Who won, if the game is won.
    pub fn winner(&self) -> Option<Mark> {
        self.winner
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.winner.is_some() || self.is_full()
    }

    /// The empty cells, or none once the game is over; under renju, none black may not play.
    pub fn legal_moves(&self) -> Vec<Cell> {
        if self.is_over() {
            return Vec::new();
        }
        let cells = self.empty_indices().filter_map(|i| Cell::of(self.size, i));
        if self.is_renju() && self.to_move() == Mark::X {
            let stones = self.renju_stones();
            return cells.filter(|c| stones.foul(c.index()).is_none()).collect();
        }
        cells.collect()
    }

    /// The empty cells' indices, whatever the outcome.
    fn empty_indices(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.points()).filter(|&i| self.stone(i).is_none())
    }

    /// Places a stone on `cell` for the side to move; on error nothing changes.
    pub fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        if self.is_over() {
            return Err(MoveError::GameOver);
        }
        if self.mark_at(cell).is_some() {
            return Err(MoveError::Occupied(cell));
        }
        if let Some(foul) = self.foul(cell) {
            return Err(MoveError::Forbidden(cell, foul));
        }
        self.place(cell.index());
        Ok(())
    }

    /// Places a stone for the side to move on the empty cell `index` of a game in progress,
    /// and ends the game if it makes a winning line.
    fn place(&mut self, index: usize) {
        let mover = self.to_move();
        self.stones[side(mover)][index / 64] |= 1 << (index % 64);
        self.placed += 1;
        if DIRECTIONS
            .iter()
            .any(|&d| self.wins(&self.run(index, mover, d), mover))
        {
            self.winner = Some(mover);
        }
    }

    /// The run of `mark`'s stones through `index` in direction `(dc, dr)` and back: its
    /// first cell, and how many; counted, not collected, so a move is checked without
    /// allocating.
    fn run(&self, index: usize, mark: Mark, (dc, dr): (i8, i8)) -> Run {
        let n = self.size as i8;
        let (col, row) = ((index % n as usize) as i8, (index / n as usize) as i8);
        let on = |c: i8, r: i8| {
            (0..n).contains(&c)
                && (0..n).contains(&r)
                && self.stone(r as usize * n as usize + c as usize) == Some(mark)
        };
        let mut back = 0;
        while on(col - (back + 1) * dc, row - (back + 1) * dr) {
            back += 1;
        }
        let mut ahead = 0;
        while on(col + (ahead + 1) * dc, row + (ahead + 1) * dr) {
            ahead += 1;
        }
        let (c, r) = (col - back * dc, row - back * dr);
        Run {
            first: r as usize * n as usize + c as usize,
            step: dr as isize * n as isize + dc as isize,
            dir: (dc, dr),
            len: 1 + back as usize + ahead as usize,
        }
    }

    /// The longest line of `mark`'s stones through `index` that wins (`k` or more, or
    /// exactly `k`): its cells in index order.
    fn line_through(&self, index: usize, mark: Mark) -> Option<Vec<usize>> {
        let run = DIRECTIONS
            .iter()
            .map(|&d| self.run(index, mark, d))
            .filter(|run| self.wins(run, mark))
            .max_by_key(Run::len)?;
        let mut cells: Vec<usize> = (0..run.len)
            .map(|i| (run.first as isize + i as isize * run.step) as usize)
            .collect();
        cells.sort_unstable();
        Some(cells)
    }

    /// Why the stone on `cell` made a line of `k` or more that wins nothing, if it made one
    /// (with exactly five, a longer line; under caro, five blocked at both ends): a player
    /// who makes one is told, not left to wonder why the game goes on.
    pub fn wins_nothing(&self, cell: Cell) -> Option<&'static str> {
        let mark = self.mark_at(cell)?;
        let k = self.k as usize;
        DIRECTIONS.iter().find_map(|&d| {
            let run = self.run(cell.index(), mark, d);
            if run.len < k || self.wins(&run, mark) {
                return None;
            }
            match self.rule {
                Rule::Exact => Some("a line longer than five wins nothing here"),
                Rule::Caro => Some("five blocked at both ends wins nothing in caro"),
                Rule::Renju => Some("a line longer than five wins nothing for black in renju"),
                Rule::Freestyle => None,
            }
        })
    }

    /// The line that won the game, in index order, if it is won.
    /// Whether `mark` has an empty point where its stone would complete a winning line: a
    /// four, in Gomoku's words (or a five to block, for the other side).
    pub fn threatens(&self, mark: Mark) -> bool {
        (0..self.points()).any(|i| {
            let mut with = *self;
            with.stones[side(mark)][i / 64] |= 1 << (i % 64);
            self.stone(i).is_none() && with.line_through(i, mark).is_some()
        })
    }

    pub fn won_line(&self) -> Option<Vec<Cell>> {
        let winner = self.winner?;
        (0..self.points())
            .filter(|&i| self.stone(i) == Some(winner))
            .find_map(|i| self.line_through(i, winner))
            .map(|cells| cells.into_iter().filter_map(|i| self.cell(i)).collect())
    }

    /// Whether `cell` is one of the points the board marks to find one's way by: on 15×15 the
    /// centre `h8` and `d4`, `l4`, `d12`, `l12`; on another odd side its centre.
    pub fn is_star(&self, cell: Cell) -> bool {
        let (row, col, n) = (cell.row(), cell.col(), self.size);
        let centre = n % 2 == 1 && row == n / 2 && col == n / 2;
        centre || (n == SIZE && [3, 11].contains(&row) && [3, 11].contains(&col))
    }

    /// Names a cell as a player types it: `h8`, `o15` (see [`classic::parse_cell`]).
    pub fn parse_cell(&self, text: &str) -> Result<Cell, CellError> {
        classic::parse_cell(self.size, text)
    }
}

impl Squares for Gomoku {
    fn side(&self) -> u8 {
        self.size
    }

    fn mark_on(&self, cell: Cell) -> Option<Mark> {
        self.mark_at(cell)
    }
}

impl fmt::Display for Gomoku {
    /// The notation: rows top to bottom separated by `/`, cells `X`, `O` or `.`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = usize::from(self.size);
        for row in (0..n).rev() {
            for col in 0..n {
                let c = self.stone(row * n + col).map_or('.', Mark::symbol);
                write!(f, "{c}")?;
            }
            if row > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

/// Why a Gomoku position's notation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseGomokuError {
    RowCount(usize),
    RowLength {
        row: usize,
        found: usize,
        size: u8,
    },
    BadChar {
        ch: char,
        row: usize,
        col: usize,
    },
    StoneCounts {
        x: u32,
        o: u32,
    },
    /// Both sides have a winning line, or the side with one moved again after it.
    PlayedAfterEnd,
    /// A line that does not fit the board: `k` outside 3 to `size`.
    Line {
        k: u8,
        size: u8,
    },
}

impl fmt::Display for ParseGomokuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseGomokuError::RowCount(n) => write!(
                f,
                "expected {MIN_SIZE} to {MAX_SIZE} rows separated by '/', found {n} (each row one cell a column, X, O or '.')"
            ),
            ParseGomokuError::RowLength { row, found, size } => write!(
                f,
                "row {row} has {found} cells, expected {size} (one per column)"
            ),
            ParseGomokuError::BadChar { ch, row, col } => write!(
                f,
                "unexpected {ch:?} at row {row}, column {col}: cells are X, O or '.'"
            ),
            ParseGomokuError::StoneCounts { x, o } => write!(
                f,
                "X has {x} stones and O {o}: X moves first, so X has as many as O or one more"
            ),
            ParseGomokuError::PlayedAfterEnd => write!(
                f,
                "the game ended with a winning line, but stones were played after it"
            ),
            ParseGomokuError::Line { k, size } => {
                write!(
                    f,
                    "{}",
                    crate::rules::classic::RulesError::K { k: *k, size: *size }
                )
            }
        }
    }
}

impl std::error::Error for ParseGomokuError {}

impl FromStr for Gomoku {
    type Err = ParseGomokuError;

    /// Parses the notation ([`Gomoku`]'s `Display`) as five in a row (see
    /// [`Gomoku::parse_with`] for other rules).
    fn from_str(s: &str) -> Result<Gomoku, ParseGomokuError> {
        Gomoku::parse_with(s, FIVE, false)
    }
}

impl Gomoku {
    /// Parses the notation ([`Gomoku`]'s `Display`) played with `k` in a row, exactly
    /// (`exact`) or `k` or more, checking that the stones could arise in a game by those
    /// rules: the counts, and at most one move's worth of winning lines, made by the last
    /// mover.
    pub fn parse_with(s: &str, k: u8, exact: bool) -> Result<Gomoku, ParseGomokuError> {
        let rows: Vec<&str> = s.trim().split('/').collect();
        let n = rows.len();
        let Some(empty) = u8::try_from(n).ok().and_then(Gomoku::with_size) else {
            return Err(ParseGomokuError::RowCount(n));
        };
        let mut stones = [[0u64; WORDS]; 2];
        for (written, text) in rows.iter().enumerate() {
            let row = n - 1 - written;
            let cells: Vec<char> = text.chars().collect();
            if cells.len() != n {
                return Err(ParseGomokuError::RowLength {
                    row: written + 1,
                    found: cells.len(),
                    size: empty.size,
                });
            }
            for (col, &ch) in cells.iter().enumerate() {
                let index = row * n + col;
                match (ch, Mark::try_from(ch)) {
                    (_, Ok(mark)) => stones[side(mark)][index / 64] |= 1 << (index % 64),
                    ('.', _) => {}
                    (ch, Err(_)) => {
                        let (row, col) = (written + 1, col + 1);
                        return Err(ParseGomokuError::BadChar { ch, row, col });
                    }
                }
            }
        }
        if !(3..=empty.size).contains(&k) {
            return Err(ParseGomokuError::Line {
                k,
                size: empty.size,
            });
        }
        validated(Gomoku {
            stones,
            k,
            rule: if exact { Rule::Exact } else { Rule::Freestyle },
            ..empty
        })
    }
}

/// `position` with its count of stones and its winner, if a game could reach it.
fn validated(position: Gomoku) -> Result<Gomoku, ParseGomokuError> {
    let stones = position.stones;
    let count = |s: usize| stones[s].iter().map(|w| w.count_ones()).sum::<u32>();
    let (x, o) = (count(0), count(1));
    if x != o && x != o + 1 {
        return Err(ParseGomokuError::StoneCounts { x, o });
    }
    let mut position = Gomoku {
        placed: (x + o) as u16,
        winner: None,
        ..position
    };
    let points = position.points();
    let has_line = |p: &Gomoku, mark: Mark| {
        (0..points).any(|i| p.stone(i) == Some(mark) && p.line_through(i, mark).is_some())
    };
    let last = position.to_move().other();
    if has_line(&position, last.other()) {
        return Err(ParseGomokuError::PlayedAfterEnd);
    }
    if has_line(&position, last) {
        // One stone of the last mover must have made every winning line: without it, none
        // is left.
        let ended_by_one = (0..points)
            .filter(|&i| position.stone(i) == Some(last))
            .any(|i| {
                let mut before = position;
                before.stones[side(last)][i / 64] &= !(1 << (i % 64));
                !has_line(&before, last)
            });
        if !ended_by_one {
            return Err(ParseGomokuError::PlayedAfterEnd);
        }
        position.winner = Some(last);
    }
    Ok(position)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &[&str]) -> Gomoku {
        let mut position = Gomoku::new();
        for text in moves {
            let cell = position.parse_cell(text).unwrap();
            position.play(cell).unwrap();
        }
        position
    }

    #[test]
    fn five_in_a_row_in_each_direction_wins_and_four_does_not() {
        let lines: [[&str; 5]; 4] = [
            ["a1", "b1", "c1", "d1", "e1"],
            ["o11", "o12", "o13", "o14", "o15"],
            ["k5", "l6", "m7", "n8", "o9"],
            ["a15", "b14", "c13", "d12", "e11"],
        ];
        let elsewhere = ["h3", "h5", "h7", "h9", "h11"];
        for line in lines {
            let mut moves = Vec::new();
            for (x, o) in line.iter().zip(elsewhere) {
                moves.extend([*x, o]);
            }
            moves.pop();
            let four = play(&moves[..moves.len() - 1]);
            assert_eq!(four.winner(), None, "{line:?}");
            let five = play(&moves);
            assert_eq!(five.winner(), Some(Mark::X), "{line:?}");
            let won: Vec<String> = five
                .won_line()
                .unwrap()
                .iter()
                .map(Cell::to_string)
                .collect();
            let mut expected: Vec<String> = line.iter().map(ToString::to_string).collect();
            expected.sort_by_key(|c| classic::parse_cell(SIZE, c).unwrap().index());
            assert_eq!(won, expected);
            assert!(five.legal_moves().is_empty());
            assert_eq!(
                crate::rules::RuleSet::outcome(&five),
                crate::rules::Outcome::Won(Mark::X)
            );
        }
    }

    #[test]
    fn six_in_a_row_wins_and_the_line_holds_all_six() {
        // X fills a1-c1 and e1-f1, then d1 joins them into six.
        let position = play(&[
            "a1", "a5", "b1", "b5", "c1", "c7", "e1", "e5", "f1", "f7", "d1",
        ]);
        assert_eq!(position.winner(), Some(Mark::X));
        assert_eq!(position.won_line().unwrap().len(), 6);
    }

    /// The caro board after `moves`, X first.
    fn caro(moves: &[&str]) -> Gomoku {
        let mut board = Gomoku::caro(SIZE).unwrap();
        for name in moves {
            board.play(board.parse_cell(name).unwrap()).unwrap();
        }
        board
    }

    #[test]
    fn under_caro_five_blocked_at_both_ends_wins_nothing_and_any_other_five_or_six_wins() {
        // d8..h8 with O on c8 and i8: blocked at both ends, the game goes on.
        let blocked = caro(&["d8", "c8", "e8", "i8", "f8", "a1", "g8", "a2", "h8"]);
        assert_eq!(blocked.winner(), None, "\n{blocked}");
        // O on c8 only: it wins.
        let open = caro(&["d8", "c8", "e8", "a3", "f8", "a1", "g8", "a2", "h8"]);
        assert_eq!(open.winner(), Some(Mark::X));
        // a8..e8 with O on f8: the board's edge blocks nothing.
        let edge = caro(&["a8", "f8", "b8", "a1", "c8", "a2", "d8", "a3", "e8"]);
        assert_eq!(edge.winner(), Some(Mark::X));
        // c8..h8, six, with O on b8 and i8: an overline wins however it is blocked.
        let six = caro(&[
            "c8", "b8", "d8", "i8", "e8", "a1", "f8", "a2", "h8", "a3", "g8",
        ]);
        assert_eq!(six.winner(), Some(Mark::X));
        // A diagonal, blocked at both ends, does not win either.
        let diagonal = caro(&["d4", "c3", "e5", "i9", "f6", "a1", "g7", "a2", "h8"]);
        assert_eq!(diagonal.winner(), None, "\n{diagonal}");
        // The player is told why the five won nothing; the other stones made no line.
        let h8 = blocked.parse_cell("h8").unwrap();
        assert_eq!(
            blocked.wins_nothing(h8),
            Some("five blocked at both ends wins nothing in caro")
        );
        assert_eq!(
            blocked.wins_nothing(blocked.parse_cell("a1").unwrap()),
            None
        );
        assert_eq!(open.wins_nothing(h8), None, "it won");
    }

    #[test]
    fn with_exactly_five_six_in_a_row_wins_nothing_and_five_still_wins() {
        let exact = |moves: &[&str]| {
            let mut position = Gomoku::with_rules(SIZE, FIVE, true).unwrap();
            for text in moves {
                position.play(position.parse_cell(text).unwrap()).unwrap();
            }
            position
        };
        let six = [
            "a1", "a5", "b1", "b5", "c1", "c7", "e1", "e5", "f1", "f7", "d1",
        ];
        let overline = exact(&six);
        assert_eq!(overline.winner(), None, "six in a row");
        assert_eq!(
            overline.wins_nothing(overline.parse_cell("d1").unwrap()),
            Some("a line longer than five wins nothing here")
        );
        assert!(!overline.is_over());
        assert_eq!(
            play(&six).played_with(FIVE, true),
            Ok(overline),
            "the same stones read by the exact rule: no winner"
        );
        let five = exact(&["a1", "a5", "b1", "b5", "c1", "c7", "d1", "e5", "e1"]);
        assert_eq!(five.winner(), Some(Mark::X));
        assert_eq!(five.won_line().unwrap().len(), 5);
        assert_eq!(
            five.to_string(),
            play(&["a1", "a5", "b1", "b5", "c1", "c7", "d1", "e5", "e1"]).to_string()
        );
    }

    #[test]
    fn with_four_in_a_row_four_wins_and_three_does_not_exactly_or_not() {
        for exact in [false, true] {
            let mut position = Gomoku::with_rules(9, 4, exact).unwrap();
            for (i, text) in ["c3", "a9", "d4", "b9", "e5"].iter().enumerate() {
                position.play(position.parse_cell(text).unwrap()).unwrap();
                assert_eq!(position.winner(), None, "after {} moves", i + 1);
            }
            position.play(position.parse_cell("d9").unwrap()).unwrap();
            position.play(position.parse_cell("f6").unwrap()).unwrap();
            assert_eq!(position.winner(), Some(Mark::X));
            assert_eq!(position.won_line().unwrap().len(), 4);
        }
        // Five in a row with exactly four: no winner; four or more: X.
        let five = play(&["a1", "a9", "b1", "b9", "c1", "c9", "e1", "e9", "d1"]);
        let read = |exact| five.played_with(4, exact).map(|p| p.winner());
        assert_eq!(read(true), Ok(None));
        assert_eq!(read(false), Ok(Some(Mark::X)));
    }

    #[test]
    fn a_position_is_read_by_the_rules_given_not_by_five_in_a_row_first() {
        // Five of each side, on rows 1 and 3: no game of five in a row reaches it; with six
        // in a row it is a game in progress.
        let both = play(&["a1", "a3", "b1", "b3", "c1", "c3", "d1", "d3"]);
        let mut text = both.to_string();
        text.replace_range(text.len() - 15..text.len() - 10, "XXXXX");
        text.replace_range(text.len() - 47..text.len() - 42, "OOOOO");
        assert_eq!(
            Gomoku::parse_with(&text, FIVE, false),
            Err(ParseGomokuError::PlayedAfterEnd)
        );
        let six = Gomoku::parse_with(&text, 6, false).unwrap();
        assert_eq!((six.winner(), six.stones(), six.k()), (None, 10, 6));
    }

    #[test]
    fn a_line_that_does_not_fit_the_board_is_refused() {
        assert_eq!(Gomoku::with_rules(9, 10, false), None);
        assert_eq!(Gomoku::with_rules(9, 2, false), None);
        assert!(Gomoku::with_rules(9, 9, true).is_some());
        assert_eq!(
            Gomoku::with_size(8).unwrap().played_with(9, false),
            Err(ParseGomokuError::Line { k: 9, size: 8 })
        );
    }

    #[test]
    fn a_line_does_not_wrap_from_one_row_to_the_next() {
        // l1-o1 and a2: consecutive indices, not a line.
        let position = play(&["l1", "a9", "m1", "b9", "n1", "c9", "o1", "d11", "a2"]);
        assert_eq!(position.winner(), None);
    }

    #[test]
    fn taken_cells_and_moves_after_the_end_are_refused_and_change_nothing() {
        let mut position = play(&["h8"]);
        let before = position;
        let h8 = position.parse_cell("h8").unwrap();
        assert_eq!(position.play(h8), Err(MoveError::Occupied(h8)));
        assert_eq!(position, before);
        let mut won = play(&["a1", "a5", "b1", "b5", "c1", "c5", "d1", "d5", "e1"]);
        let after = won;
        assert_eq!(won.play(h8), Err(MoveError::GameOver));
        assert_eq!(won, after);
    }

    #[test]
    fn the_notation_reads_back_the_same_position() {
        let position = play(&["h8", "i9", "o15", "a1", "g7"]);
        let text = position.to_string();
        assert_eq!(text.split('/').count(), 15);
        assert_eq!(text.parse::<Gomoku>(), Ok(position));
        let won = play(&["a1", "a5", "b1", "b5", "c1", "c5", "d1", "d5", "e1"]);
        assert_eq!(won.to_string().parse::<Gomoku>(), Ok(won));
    }

    #[test]
    fn notation_no_game_could_reach_is_refused_with_a_reason() {
        let empty = Gomoku::new().to_string();
        let rows: Vec<&str> = empty.split('/').collect();
        let with_rows = |changes: &[(usize, &'static str)]| {
            let mut rows = rows.clone();
            for &(i, row) in changes {
                rows[i] = row;
            }
            rows.join("/")
        };
        let cases = [
            (rows[..7].join("/"), ParseGomokuError::RowCount(7)),
            (
                rows[..14].join("/"),
                ParseGomokuError::RowLength {
                    row: 1,
                    found: 15,
                    size: 14,
                },
            ),
            (
                with_rows(&[(0, ".....")]),
                ParseGomokuError::RowLength {
                    row: 1,
                    found: 5,
                    size: 15,
                },
            ),
            (
                with_rows(&[(2, "..Z............")]),
                ParseGomokuError::BadChar {
                    ch: 'Z',
                    row: 3,
                    col: 3,
                },
            ),
            (
                with_rows(&[(14, "OO.............")]),
                ParseGomokuError::StoneCounts { x: 0, o: 2 },
            ),
            // X made five, yet O has as many stones: O moved after the end.
            (
                with_rows(&[(14, "XXXXX.OO.OO.O..")]),
                ParseGomokuError::PlayedAfterEnd,
            ),
            // Two separate fives of X cannot come from one move.
            (
                with_rows(&[(14, "XXXXX.OO.OO.OO."), (12, "XXXXX.OO.O.....")]),
                ParseGomokuError::PlayedAfterEnd,
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(text.parse::<Gomoku>(), Err(expected.clone()), "{text}");
            assert!(!expected.to_string().is_empty());
        }
    }
}
