//! Judging a move for the review: the search's value of the position against the value of the
//! move played.

use std::time::Duration;

use super::{Evaluator, Mcts, SearchGame};
use crate::rules::Outcome;
use crate::search::Value;
use crate::ultimate::Move;

/// A move judged for review, from its mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict<M = Move> {
    /// The best value the position offered.
    pub before: Value,
    /// The value of the move played.
    pub after: Value,
    /// The search's choice.
    pub best: M,
}

impl<M> Verdict<M> {
    /// How much the move lowered the mover's expected score (see [`Value::rate`]), from 0 (as good
    /// as the best move) to 1 (a won game thrown into a loss). An estimate unless both values
    /// are proven.
    pub fn cost(&self) -> f32 {
        (rate(self.before) - rate(self.after)).max(0.0)
    }

    /// Whether both values are proven, so [`Verdict::cost`] is exact.
    pub fn is_proven(&self) -> bool {
        self.before.is_proven() && self.after.is_proven()
    }
}

/// A value's rate; the search's values always have one.
fn rate(value: Value) -> f32 {
    value.rate().unwrap_or(0.5)
}

/// Judges `mv` played on `board`: the position is searched for `budget`, then, unless `mv` is
/// the search's choice or already proven there, the position after it for another `budget`.
/// `None` if the search was cancelled.
///
/// # Panics
/// If `mv` is not legal on `board`.
pub fn judge<G: SearchGame, E: Evaluator<G>>(
    mcts: &mut Mcts<G, E>,
    board: &G,
    mv: G::Move,
    budget: Duration,
) -> Option<Verdict<G::Move>> {
    let after_board = board.after(mv).expect("judge takes a legal move");
    let choice = mcts.think(board, budget)?;
    let known = mcts
        .children(0)
        .map(|i| mcts.entry(i))
        .find(|&(m, v)| m == mv && v.is_proven());
    let after = if choice.mv == mv {
        choice.value
    } else if let Some((_, v)) = known {
        v
    } else {
        match after_board.outcome() {
            Outcome::Won(_) => Value::Win(1),
            Outcome::Draw => Value::Draw,
            Outcome::InProgress => mcts.think(&after_board, budget)?.value.before(),
        }
    };
    // What the move achieved was on offer: the best is at least as good.
    let before = choice.value.max(after);
    Some(Verdict {
        before,
        after,
        best: choice.mv,
    })
}
