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
use crate::rules::classic::Mark;
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
}

impl Four {
    pub fn new(seed: Option<u64>, meter: Meter, table_mb: usize) -> Four {
        Four {
            solver: Solver::new(table_mb),
            rng: seed.map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed),
            meter,
            cancel: None,
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
            // Within what is left, and at least half the budget again: the columns' proofs
            // read the root's from the table.
            self.values(board, rest.zip(budget).map(|(r, b)| r.max(b / 2)))
        } else {
            let estimate = |c: Column| {
                let after = board.after(c).expect("a legal column");
                (c, Value::Estimate(-estimate(&after, 5)))
            };
            board.legal_moves().into_iter().map(estimate).collect()
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
        let plies = u32::from(style.depth) * 2 - 1;
        let scored: Vec<(Column, i32)> = moves
            .iter()
            .map(|&c| {
                (
                    c,
                    -search(&board.after(c).expect("legal"), plies - 1, -WIN, WIN),
                )
            })
            .collect();
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

/// Negamax with alpha-beta to `depth` plies, estimating at the horizon.
fn search(board: &ConnectFour, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    match board.outcome() {
        Outcome::Won(_) => return -WIN - i32::from(board.cells() - board.moves()),
        Outcome::Draw => return 0,
        Outcome::InProgress => {}
    }
    if depth == 0 {
        return estimate(board, 0);
    }
    let mut best = -WIN * 2;
    for column in order(board) {
        let after = board.after(column).expect("legal");
        let score = -search(&after, depth - 1, -beta, -alpha);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The legal columns, centre first.
fn order(board: &ConnectFour) -> Vec<Column> {
    let mid = i32::from(board.columns()) / 2;
    let mut moves = board.legal_moves();
    moves.sort_by_key(|c| (i32::from(c.0) - mid).abs());
    moves
}

/// The side to move's threats (empty cells where four would be made) less the opponent's,
/// and discs near the centre, from the side to move's view, within ±499; a search of
/// `depth` plies where one is asked, its wins and losses at the ends of that range.
fn estimate(board: &ConnectFour, depth: u32) -> i32 {
    if depth > 0 {
        return search(board, depth, -WIN, WIN).clamp(-499, 499);
    }
    let side = board.to_move();
    let mid = i32::from(board.columns()) / 2;
    let mut score = 0;
    for col in 0..board.columns() {
        let near = 3 - (i32::from(col) - mid).abs().min(3);
        for row in 0..board.rows() {
            score += match board.mark_at(col, row) {
                Some(mark) if mark == side => near,
                Some(_) => -near,
                None => {
                    let (x, o) = threats_at(board, col, row);
                    let (own, theirs) = if side == Mark::X { (x, o) } else { (o, x) };
                    THREAT * (i32::from(own) - i32::from(theirs))
                }
            };
        }
    }
    score.clamp(-499, 499)
}

/// Whether X and O would make four with a disc on the empty cell (`col`, `row`).
fn threats_at(board: &ConnectFour, col: u8, row: u8) -> (bool, bool) {
    let four = |mark| {
        [(1i8, 0i8), (0, 1), (1, 1), (1, -1)]
            .iter()
            .any(|&(dc, dr)| {
                let run = |sign: i8| {
                    (1..4)
                        .take_while(|&i| {
                            let c = col as i8 + sign * dc * i;
                            let r = row as i8 + sign * dr * i;
                            c >= 0 && r >= 0 && board.mark_at(c as u8, r as u8) == Some(mark)
                        })
                        .count()
                };
                run(1) + run(-1) >= 3
            })
    };
    (four(Mark::X), four(Mark::O))
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
