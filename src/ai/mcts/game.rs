//! What the tree search needs of a rule set beyond [`RuleSet`]: moves as small indices (a
//! node of the tree holds one byte) and a quick way to play a legal one and learn whether it
//! ended the game. Every rule set that implements it gets the search, its solver and its
//! tree reuse; how leaves and new nodes are valued is an [`super::Evaluator`].

use crate::rules::classic::{Cell, Mark, Squares};
use crate::rules::ultimate::{Move, UltimateBoard, has_line};
use crate::rules::{Outcome, RuleSet};

/// How a move ended the game, for the player who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    Won,
    Lost,
    Drawn,
}

impl Ended {
    /// How `outcome`, just reached, ended the game for `mover`; `None` while it goes on.
    pub fn of(outcome: Outcome, mover: Mark) -> Option<Ended> {
        match outcome {
            Outcome::InProgress => None,
            Outcome::Draw => Some(Ended::Drawn),
            Outcome::Won(winner) if winner == mover => Some(Ended::Won),
            Outcome::Won(_) => Some(Ended::Lost),
        }
    }
}

/// A rule set the tree search can play.
pub trait SearchGame: RuleSet {
    /// The index of a move, below 256.
    fn index_of(mv: Self::Move) -> u8;
    /// The move of index `index` in this position's rule set.
    ///
    /// # Panics
    /// If no move has that index (the tree holds only indices it took from moves).
    fn move_at(&self, index: u8) -> Self::Move;
    /// The legal moves' indices, in the rule set's order.
    fn legal_indices(&self) -> impl Iterator<Item = u8>;
    /// Plays the legal move of index `index` for the side to move: whether it ended the game,
    /// and how for its player.
    fn apply_index(&mut self, index: u8) -> Option<Ended>;
    /// 0 when X is to move, 1 when O is.
    fn side(&self) -> usize {
        usize::from(self.to_move() == Mark::O)
    }
    /// The moves this position's board has: the tree holds a move's index in a byte, so it
    /// searches boards of at most 256.
    fn move_count(&self) -> usize;
}

/// The most moves a board the tree search plays may have: an index is a byte.
pub const MAX_MOVES: usize = 256;

impl SearchGame for UltimateBoard {
    fn index_of(mv: Move) -> u8 {
        mv.index() as u8
    }

    fn move_at(&self, index: u8) -> Move {
        Move::from_index(usize::from(index)).expect("an index taken from a move")
    }

    fn legal_indices(&self) -> impl Iterator<Item = u8> {
        self.legal_moves().into_iter().map(|mv| mv.index() as u8)
    }

    fn apply_index(&mut self, index: u8) -> Option<Ended> {
        let side = UltimateBoard::side(self);
        let index = usize::from(index);
        if !self.apply(index / 9, index % 9) {
            None
        } else if has_line(self.won_by(side)) {
            Some(Ended::Won)
        } else {
            Some(Ended::Drawn)
        }
    }

    fn side(&self) -> usize {
        UltimateBoard::side(self)
    }

    fn move_count(&self) -> usize {
        81
    }
}

/// Every square board, classic or Gomoku: a move's index is its cell's.
impl<S: Squares + RuleSet<Move = Cell>> SearchGame for S {
    fn index_of(cell: Cell) -> u8 {
        cell.index() as u8
    }

    fn move_at(&self, index: u8) -> Cell {
        self.square(index / self.side(), index % self.side())
            .expect("an index taken from a cell")
    }

    fn legal_indices(&self) -> impl Iterator<Item = u8> {
        self.legal_moves()
            .into_iter()
            .map(|cell| cell.index() as u8)
    }

    fn apply_index(&mut self, index: u8) -> Option<Ended> {
        let mover = self.to_move();
        let cell = self.move_at(index);
        self.play(cell).expect("the search plays legal moves");
        Ended::of(self.outcome(), mover)
    }

    fn move_count(&self) -> usize {
        usize::from(self.side()) * usize::from(self.side())
    }
}
