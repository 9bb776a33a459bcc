//! Connect Four's AI: the perfect solver for the top level ([`solver`]), and for the levels
//! below a depth-limited alpha-beta that counts threats, its horizon growing with the level.
//! Values are the proof search's: a win or a loss in so many plies, or a draw, where the
//! solver finished within the budget; a heuristic estimate where it did not.

pub mod solver;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::ai::levels::Style;
use crate::ai::search::{Meter, Value};
use crate::rules::connect_four::{Column, ConnectFour};
use crate::rules::{Outcome, RuleSet};
use solver::{Solver, plies};

/// The solver's table when none is asked for, in MiB.
pub const TABLE_MB: usize = 64;

/// An estimate's scale: one threat, a cell where four would be made.
const THREAT: i32 = 12;

/// The AI of Connect Four: a solver kept from move to move, and the levels' random source.
pub struct Four {
    solver: Solver,
    rng: fastrand::Rng,
    meter: Meter,
    cancel: Option<Arc<AtomicBool>>,
    /// The solver's nodes when the table was last cleared.
    cleared_at: u64,
}

impl Four {
    pub fn new(seed: Option<u64>, meter: Meter, table_mb: usize) -> Four {
        Four {
            solver: Solver::new(table_mb),
            rng: seed.map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed),
            meter,
            cancel: None,
            cleared_at: 0,
        }
    }

    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_deref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    /// Forgets the positions solved before.
    pub fn clear(&mut self) {
        self.solver.clear();
        self.cleared_at = self.solver.nodes();
    }

    /// The positions solved since the table was last cleared.
    pub fn nodes_since_clear(&self) -> u64 {
        self.solver.nodes() - self.cleared_at
    }

    /// The value of `board` for the side to move, proven within `budget` or estimated.
    pub fn value(&mut self, board: &ConnectFour, budget: Option<Duration>) -> Value {
        match board.outcome() {
            // The side to move has lost: the last disc made four.
            Outcome::Won(_) => return Value::Loss(0),
            Outcome::Draw => return Value::Draw,
            Outcome::InProgress => {}
        }
        match self.solver.solve(board, budget, self.meter) {
            Some(score) => proven(score, board),
            None => Value::Estimate(estimate(board, 6)),
        }
    }

    /// The value of each legal column for the side to move, within `budget` in all.
    pub fn values(
        &mut self,
        board: &ConnectFour,
        budget: Option<Duration>,
    ) -> Vec<(Column, Value)> {
        let moves = board.legal_moves();
        let share = budget.map(|b| b / moves.len().max(1) as u32);
        let mut out = Vec::with_capacity(moves.len());
        for column in moves {
            if self.cancelled() {
                break;
            }
            let after = board.after(column).expect("a legal column");
            out.push((column, self.value(&after, share).before()));
        }
        out
    }

    /// The top level's move and its value: the position is solved with the whole budget, and
    /// then its columns, which the table left by that proof makes quick; the best of them,
    /// ties broken at random. Where the proof does not finish, the columns are estimated.
    pub fn best(
        &mut self,
        board: &ConnectFour,
        budget: Option<Duration>,
    ) -> Option<(Column, Value)> {
        let started = std::time::Instant::now();
        let proven = self.solver.solve(board, budget, self.meter).is_some();
        let rest = budget.map(|b| b.saturating_sub(started.elapsed()));
        let values = if proven {
            // Within what is left, and at least a quarter of the budget again: the columns'
            // proofs read the root's from the table.
            self.values(board, rest.zip(budget).map(|(r, b)| r.max(b / 4)))
        } else {
            // As far ahead as the strongest level below it looks, so that it never plays worse.
            let deepest = scored(board, TOP_PLIES);
            let estimate = |(c, s): (Column, i32)| (c, Value::Estimate(s.clamp(-499, 499)));
            deepest.into_iter().map(estimate).collect()
        };
        if values.is_empty() || self.cancelled() {
            return None;
        }
        let best = values.iter().map(|&(_, v)| v).max()?;
        let ties: Vec<Column> = values
            .iter()
            .filter(|&&(_, v)| v == best)
            .map(|&(c, _)| c)
            .collect();
        Some((ties[self.rng.usize(..ties.len())], best))
    }

    /// The move of a level below the top: alpha-beta `2 × depth - 1` plies deep, and a
    /// random pick among the close columns, the closer the likelier.
    pub fn level_move(&mut self, board: &ConnectFour, style: Style) -> Option<Column> {
        let moves = board.legal_moves();
        if moves.is_empty() || self.cancelled() {
            return None;
        }
        let scored = scored(board, u32::from(style.depth) * 2 - 1);
        let best = scored.iter().map(|&(_, s)| s).max()?;
        let margin = i32::try_from(style.temperature * 3).unwrap_or(i32::MAX);
        let close: Vec<(Column, i32)> = scored
            .into_iter()
            .filter(|&(_, s)| s >= best - margin)
            .collect();
        let weight = |s: i32| (f64::from(s - best) / f64::from(style.temperature.max(1))).exp();
        let total: f64 = close.iter().map(|&(_, s)| weight(s)).sum();
        let mut at = self.rng.f64() * total;
        for &(c, s) in &close {
            at -= weight(s);
            if at <= 0.0 {
                return Some(c);
            }
        }
        close.last().map(|&(c, _)| c)
    }
}

/// How far level 6, the strongest below the solver, looks ahead: the solver's fallback.
const TOP_PLIES: u32 = 11;

/// Each legal column's score by alpha-beta `plies` deep, this move the first of them.
fn scored(board: &ConnectFour, plies: u32) -> Vec<(Column, i32)> {
    let score = |c: Column| {
        let after = board.after(c).expect("a legal column");
        (c, -search(&after, plies - 1, -WIN, WIN))
    };
    board.legal_moves().into_iter().map(score).collect()
}

/// A solved score as a value for the side to move.
fn proven(score: i32, board: &ConnectFour) -> Value {
    let (moves, cells) = (u32::from(board.moves()), u32::from(board.cells()));
    match score {
        0 => Value::Draw,
        s if s > 0 => Value::Win(plies(s, moves, cells)),
        s => Value::Loss(plies(s, moves, cells)),
    }
}

/// A score beyond every estimate: four made.
const WIN: i32 = 100_000;

/// The score of the side to move in `board` by alpha-beta `depth` plies deep over the
/// bitboards, estimating at the horizon ([`solver::Bits::estimate`]); a win or a loss on the
/// way scores beyond every estimate, the sooner the larger.
fn search(board: &ConnectFour, depth: u32, alpha: i32, beta: i32) -> i32 {
    match board.outcome() {
        Outcome::Won(_) => -WIN - i32::from(board.cells() - board.moves()),
        Outcome::Draw => 0,
        Outcome::InProgress => solver::Bits::of(board).search(depth, alpha, beta, THREAT, WIN),
    }
}

/// The threats of the side to move less the opponent's, and its discs near the centre, from
/// a search of `depth` plies, within ±499.
fn estimate(board: &ConnectFour, depth: u32) -> i32 {
    search(board, depth, -WIN, WIN).clamp(-499, 499)
}

/// The tree search plays Connect Four by column: a move's index is its column.
impl crate::ai::mcts::SearchGame for ConnectFour {
    fn index_of(column: Column) -> u8 {
        column.0
    }

    fn move_at(&self, index: u8) -> Column {
        Column(index)
    }

    fn legal_indices(&self) -> impl Iterator<Item = u8> {
        self.legal_moves().into_iter().map(|c| c.0)
    }

    fn apply_index(&mut self, index: u8) -> Option<crate::ai::mcts::Ended> {
        use crate::ai::mcts::Ended;
        let mover = self.to_move();
        self.play(Column(index))
            .expect("the search plays legal moves");
        match self.outcome() {
            Outcome::InProgress => None,
            Outcome::Draw => Some(Ended::Drawn),
            Outcome::Won(winner) if winner == mover => Some(Ended::Won),
            Outcome::Won(_) => Some(Ended::Lost),
        }
    }

    fn move_count(&self) -> usize {
        usize::from(self.columns())
    }
}
