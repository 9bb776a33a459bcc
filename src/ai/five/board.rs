//! What the five-in-a-row search asks of a position ([`super::patterns::Patterns`] keeps
//! one), and what a move is worth for ordering.

use super::points::Bits;
use crate::rules::gomoku::Gomoku;
use crate::rules::gomoku::renju::Stones;

/// What a move is worth for ordering, by what it makes in its best directions.
pub mod worth {
    /// Five: the game.
    pub const FIVE: i32 = 1 << 20;
    /// An open four, two fours, or a four and an open three: a win unless answered by fours.
    pub const WINNING: i32 = 1 << 16;
    /// Two open threes.
    pub const DOUBLE_THREE: i32 = 1 << 13;
}

/// A position of five in a row kept up to date as stones come and go.
pub trait Board: Clone + Send + 'static {
    /// The position of a Gomoku board.
    fn of(board: &Gomoku) -> Self;
    fn side(&self) -> usize;
    /// Whose turn it is: 0 (black, X) or 1.
    fn to_move(&self) -> usize;
    /// The position's key: its stones and whose turn it is.
    fn hash(&self) -> u64;
    fn is_empty(&self, p: usize) -> bool;
    fn is_full(&self) -> bool;
    /// The empty points within two of a stone.
    fn candidates(&self) -> Bits;
    /// The empty points where `side` makes a winning line.
    fn fives(&self, side: usize) -> Bits;
    /// The empty points where `side` makes a four (a line one stone short of five).
    fn fours(&self, side: usize) -> Bits;
    /// The side to move puts a stone on the empty point `p`.
    fn play(&mut self, p: usize);
    /// Takes back the last move played.
    fn undo(&mut self);
    /// Under renju on black's turn, the stones as the rule reads them, to ask of the points
    /// black may not play; `None` where every point may be played.
    fn fouls(&self) -> Option<Stones>;
    /// Whether the side to move may not play the empty `p` ([`Board::fouls`]).
    fn forbidden(&self, p: usize) -> bool {
        self.is_empty(p) && self.fouls().is_some_and(|s| s.foul(p).is_some())
    }
    /// Whether the patterns say the side to move may not play `p` (renju's black, where a
    /// table reads its lines; the search skips such points, the root asks [`Board::fouls`]).
    fn looks_forbidden(&self, _p: usize) -> bool {
        false
    }
    /// What a stone of `side` on the empty `p` makes, as points for ordering moves
    /// ([`worth`]).
    fn worth(&self, p: usize, side: usize) -> i32;
    /// How good `p` looks for `side` before any search, as moves are first ordered: what a
    /// stone there makes for `side`, and three quarters of what it stops of the other's.
    fn promise(&self, p: usize, side: usize) -> i64 {
        i64::from(self.worth(p, side)) + i64::from(self.worth(p, 1 - side)) * 3 / 4
    }
    /// The estimate of the position for the side to move.
    fn estimate(&self) -> i32;
    /// The empty points where a stone of the other side breaks what `side` builds on `p`.
    fn threat_points(&self, p: usize, side: usize) -> Bits;
    /// Whether `side` has a point that makes an open four or two fours.
    fn flex_four(&self, side: usize) -> bool {
        self.fours(side)
            .iter()
            .any(|q| self.worth(q, side) >= worth::WINNING)
    }
    /// The empty points where `side` threatens to win: an open four, two fours, or a four and
    /// an open three.
    fn winning(&self, side: usize) -> Bits {
        let mut points = Bits::default();
        for q in self.fours(side).iter() {
            if self.worth(q, side) >= worth::WINNING / 2 {
                points.set(q);
            }
        }
        points
    }
}
