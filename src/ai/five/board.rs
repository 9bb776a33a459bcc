//! What the five-in-a-row search asks of a position, whichever way it is kept: the line
//! patterns read from tables ([`super::patterns::Patterns`], lines up to six) or the counts
//! of windows ([`super::field::Field`], any line length).

use super::field::Bits;
use crate::rules::gomoku::Gomoku;
use crate::rules::gomoku::renju::Stones;

/// A position of five in a row kept up to date as stones come and go.
pub trait Board: Clone + Send + 'static {
    /// The estimate's units for one of the search's margins (what a threat costs at a leaf,
    /// the futility margin, the root's window): 1 for the window counts; 2 for the line
    /// patterns, whose estimate is fitted to read as a chance of winning
    /// `1 / (1 + e^(−estimate / 600))`, twice as fine.
    const UNIT: i32 = 1;
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
    /// ([`super::field::worth`]).
    fn worth(&self, p: usize, side: usize) -> i32;
    /// The estimate of the position for the side to move.
    fn estimate(&self) -> i32;
    /// The empty points where a stone of the other side breaks what `side` builds on `p`.
    fn threat_points(&self, p: usize, side: usize) -> Bits;
    /// Whether `side` has a point that makes an open four or two fours.
    fn flex_four(&self, side: usize) -> bool {
        self.fours(side)
            .iter()
            .any(|q| self.worth(q, side) >= super::field::worth::WINNING)
    }
    /// The empty points where `side` threatens to win: an open four, two fours, or a four and
    /// an open three.
    fn winning(&self, side: usize) -> Bits {
        let mut points = Bits::default();
        for q in self.fours(side).iter() {
            if self.worth(q, side) >= super::field::worth::WINNING / 2 {
                points.set(q);
            }
        }
        points
    }
}
