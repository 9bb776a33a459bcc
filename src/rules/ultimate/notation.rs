//! The notation of Ultimate positions (see the parent module's docs): writing a position,
//! reading one, and the checks that refuse positions no legal game reaches.

use std::fmt;
use std::str::FromStr;

use super::{ANYWHERE, FULL, Move, Outcome, UltimateBoard, bits, has_line, mark_of, side_of};
use crate::rules::classic::Mark;

impl UltimateBoard {
    /// Checks a parsed position against the rules (see the module docs); fills in the derived
    /// masks first.
    fn validate(&mut self) -> Result<(), ParseUltimateError> {
        self.plies = 0;
        self.won = [0; 2];
        self.closed = 0;
        for b in 0..9 {
            let (x, o) = (self.cells[0][b], self.cells[1][b]);
            self.plies += (x.count_ones() + o.count_ones()) as u8;
            let digit = b as u8 + 1;
            match (has_line(x), has_line(o)) {
                (true, true) => return Err(ParseUltimateError::SmallBothWon(digit)),
                (false, false) => {}
                (x_won, _) => {
                    let side = usize::from(!x_won);
                    let mine = self.cells[side][b];
                    // The winning move made every line the winner has there.
                    if !bits(mine).any(|c| !has_line(mine & !(1 << c))) {
                        return Err(ParseUltimateError::SmallPlayedOn {
                            board: digit,
                            winner: mark_of(side),
                        });
                    }
                    self.won[side] |= 1 << b;
                    self.closed |= 1 << b;
                }
            }
            if x | o == FULL {
                self.closed |= 1 << b;
            }
        }
        let xs: u32 = self.cells[0].iter().map(|m| m.count_ones()).sum();
        let os = u32::from(self.plies) - xs;
        if xs != os && xs != os + 1 {
            return Err(ParseUltimateError::MarkCounts { x: xs, o: os });
        }
        let last = self.side() ^ 1;
        match (has_line(self.won[0]), has_line(self.won[1])) {
            (true, true) => return Err(ParseUltimateError::BothWon),
            (false, false) => {}
            (x_won, _) => {
                let side = usize::from(!x_won);
                let won = self.won[side];
                if side != last || !bits(won).any(|b| !has_line(won & !(1 << b))) {
                    return Err(ParseUltimateError::PlayedAfterEnd(mark_of(side)));
                }
            }
        }
        let over = self.outcome() != Outcome::InProgress;
        if self.forced != ANYWHERE {
            if over {
                return Err(ParseUltimateError::ForcedAfterEnd(self.forced + 1));
            }
            if self.closed & (1 << self.forced) != 0 {
                return Err(ParseUltimateError::ForcedClosed(self.forced + 1));
            }
        }
        if self.plies > 0 && !self.some_last_move(last, over) {
            return Err(ParseUltimateError::ForcedUnreachable {
                forced: (self.forced != ANYWHERE).then_some(self.forced + 1),
                last: mark_of(last),
            });
        }
        if self.plies == 0 && self.forced != ANYWHERE {
            return Err(ParseUltimateError::ForcedUnreachable {
                forced: Some(self.forced + 1),
                last: Mark::O,
            });
        }
        Ok(())
    }

    /// Whether some mark of `last` could have been the last move: before it, its board was
    /// open and the game in progress, and it sends the side to move where the notation says.
    fn some_last_move(&self, last: usize, over: bool) -> bool {
        (0..9).any(|b| {
            bits(self.cells[last][b]).any(|c| {
                let sends = if self.forced == ANYWHERE {
                    over || self.closed & (1 << c) != 0
                } else {
                    c == usize::from(self.forced)
                };
                if !sends || self.won[last ^ 1] & (1 << b) != 0 {
                    return false;
                }
                // Before the move, board b had no line and the game no winner.
                let before = self.cells[last][b] & !(1 << c);
                let won_before = if has_line(self.cells[last][b]) {
                    self.won[last] & !(1 << b)
                } else {
                    self.won[last]
                };
                !has_line(before) && !has_line(won_before)
            })
        })
    }
}

impl fmt::Display for UltimateBoard {
    /// The notation: see the module docs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in (0..9).rev() {
            for col in 0..9 {
                let mv = Move::at(col, row).expect("on the grid");
                write!(f, "{}", self.mark(mv).map_or('.', Mark::symbol))?;
            }
            if row > 0 {
                write!(f, "/")?;
            }
        }
        match self.forced_board() {
            Some(b) => write!(f, " {b}"),
            None => write!(f, " *"),
        }
    }
}

impl FromStr for UltimateBoard {
    type Err = ParseUltimateError;

    /// Parses the notation (see the module docs); surrounding whitespace is ignored.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let s = s.trim();
        if s.len() > 200 {
            return Err(ParseUltimateError::TooLong(s.len()));
        }
        let (grid, forced) = s.split_once(' ').ok_or(ParseUltimateError::Forced(None))?;
        let mut board = UltimateBoard::new();
        board.forced = match forced.trim() {
            "*" => ANYWHERE,
            t if t.len() == 1 && (b'1'..=b'9').contains(&t.as_bytes()[0]) => t.as_bytes()[0] - b'1',
            t => return Err(ParseUltimateError::Forced(Some(t.to_string()))),
        };
        let rows: Vec<&str> = grid.split('/').collect();
        if rows.len() != 9 {
            return Err(ParseUltimateError::RowCount(rows.len()));
        }
        for (written, text) in rows.iter().enumerate() {
            let row = 8 - written as u8;
            let found = text.chars().count();
            if found != 9 {
                return Err(ParseUltimateError::RowLength {
                    row: written + 1,
                    found,
                });
            }
            for (col, ch) in text.chars().enumerate() {
                let mv = Move::at(col as u8, row).expect("on the grid");
                let (b, c) = (mv.index() / 9, mv.index() % 9);
                match (ch, Mark::try_from(ch)) {
                    (_, Ok(m)) => board.cells[side_of(m)][b] |= 1 << c,
                    ('.', _) => {}
                    (ch, Err(_)) => {
                        return Err(ParseUltimateError::BadChar {
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
}

/// Why a position's notation was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseUltimateError {
    TooLong(usize),
    /// The forced board is missing (`None`) or not a digit 1-9 or `*`.
    Forced(Option<String>),
    RowCount(usize),
    RowLength {
        row: usize,
        found: usize,
    },
    BadChar {
        ch: char,
        row: usize,
        col: usize,
    },
    MarkCounts {
        x: u32,
        o: u32,
    },
    /// Both sides have a line on this small board.
    SmallBothWon(u8),
    /// The winner of this small board has lines no single last move made.
    SmallPlayedOn {
        board: u8,
        winner: Mark,
    },
    /// Both sides have three won boards in a row.
    BothWon,
    /// This side has three boards in a row, but play went on.
    PlayedAfterEnd(Mark),
    /// The forced board is closed.
    ForcedClosed(u8),
    /// The game is over, yet a board is forced.
    ForcedAfterEnd(u8),
    /// No last move of `last` sends the side to move to `forced` (`None`: to a closed board).
    ForcedUnreachable {
        forced: Option<u8>,
        last: Mark,
    },
}

impl fmt::Display for ParseUltimateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParseUltimateError as E;
        match self {
            E::TooLong(n) => write!(f, "{n} characters is too long for a position"),
            E::Forced(None) => write!(
                f,
                "the position must end with a space and the forced board: a digit 1-9, or * for any board"
            ),
            E::Forced(Some(t)) => write!(
                f,
                "'{}' is not a forced board: use a digit 1-9, or * for any board",
                crate::text::quoted(t)
            ),
            E::RowCount(n) => write!(
                f,
                "expected 9 rows of 9 cells separated by '/', found {n} rows"
            ),
            E::RowLength { row, found } => {
                write!(f, "row {row} has {found} cells, expected 9")
            }
            E::BadChar { ch, row, col } => write!(
                f,
                "unexpected {ch:?} at row {row}, column {col}: cells are X, O or '.'"
            ),
            E::MarkCounts { x, o } => write!(
                f,
                "impossible mark counts, {x} X and {o} O: X moves first, so X has as many marks as O or one more"
            ),
            E::SmallBothWon(b) => write!(
                f,
                "both X and O have a line on board {b}: a board closes at its first line"
            ),
            E::SmallPlayedOn { board, winner } => write!(
                f,
                "{winner} won board {board} but play went on there: a board closes at its first line"
            ),
            E::BothWon => write!(
                f,
                "both X and O have three boards in a row: the game stops at the first"
            ),
            E::PlayedAfterEnd(m) => write!(
                f,
                "{m} has three boards in a row but play went on: the game stops at the first"
            ),
            E::ForcedClosed(b) => write!(
                f,
                "board {b} is closed, so nobody can be sent there: use * for any board"
            ),
            E::ForcedAfterEnd(b) => {
                write!(
                    f,
                    "the game is over, so no board is forced: use * instead of {b}"
                )
            }
            E::ForcedUnreachable {
                forced: Some(b),
                last,
            } => write!(
                f,
                "no last move of {last} sends {} to board {b}: it must have played cell {b} of some board",
                last.other()
            ),
            E::ForcedUnreachable { forced: None, last } => write!(
                f,
                "no last move of {last} lets {} play anywhere: it must have played a cell whose board is closed",
                last.other()
            ),
        }
    }
}

impl std::error::Error for ParseUltimateError {}
