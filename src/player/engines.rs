//! One engine per rule set behind one interface, [`Engine`]: what the session asks of the AI
//! (a move, a verdict on a move played, an analysis, a hint) answered by the negamax search
//! and the ladder's levels on classic boards ([`Classic`]), by the Monte Carlo tree search in
//! Ultimate ([`MonteCarlo`]), and by the threats in Gomoku ([`super::threat`]).
//! [`super::Brain`] holds one of each and picks by the position.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{Analysis, ULTIMATE_THINK, Verdict};
use crate::board::{Board, Cell};
use crate::levels::{self, Level};
use crate::mcts::{self, Evaluator, Mcts, Parallel, SearchGame, UltimateEval};
use crate::position::{Move, Position};
use crate::search::{Meter, Searcher, Value};
use crate::ultimate::{self, UltimateBoard};

/// The AI of one rule set. Each method is given positions of its own rule set only.
pub(super) trait Engine {
    /// The move `level` makes in `position` with `think` for `hard`, or `None` once the game
    /// is over or when cancelled.
    fn choose(
        &mut self,
        level: Level,
        position: &Position,
        think: Option<Duration>,
    ) -> Option<Move>;
    /// The verdict on the legal move `mv` (see [`super::Brain::judge`]).
    fn judge(&mut self, position: &Position, mv: Move, think: Option<Duration>) -> Option<Verdict>;
    /// What is known of `position` (see [`super::Brain::analyze`]).
    fn analyze(
        &mut self,
        position: &Position,
        best_only: bool,
        think: Option<Duration>,
    ) -> Analysis;
    /// Every legal move's value (see [`super::Brain::hint`]).
    fn hint(&mut self, position: &Position, think: Option<Duration>) -> Vec<(Move, Value)>;
    /// Stops every search at once when `flag` is raised.
    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>);
}

/// Classic boards: the proof search for `hard`, the ladder's styles below it, one random
/// source for both.
pub(super) struct Classic {
    rng: fastrand::Rng,
    pub(super) searcher: Searcher,
    cancel: Option<Arc<AtomicBool>>,
}

impl Classic {
    pub(super) fn new(seed: Option<u64>, mut searcher: Searcher, meter: Meter) -> Classic {
        searcher.set_meter(meter);
        Classic {
            rng: seed.map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed),
            searcher,
            cancel: None,
        }
    }

    /// The board of a classic position.
    fn board(position: &Position) -> &Board {
        position
            .classic()
            .expect("the classic engine is given classic positions")
    }

    /// The cell `level` marks on `board`.
    pub(super) fn choose_cell(
        &mut self,
        level: Level,
        board: &Board,
        think: Option<Duration>,
    ) -> Option<Cell> {
        if let Some(style) = level.style() {
            return levels::choose_cell(board, style, &mut self.rng, self.cancel.as_deref());
        }
        let candidates = self.searcher.best_moves(board, think);
        if self.searcher.cancelled() {
            return None;
        }
        (!candidates.is_empty()).then(|| candidates[self.rng.usize(..candidates.len())])
    }
}

impl Engine for Classic {
    fn choose(
        &mut self,
        level: Level,
        position: &Position,
        think: Option<Duration>,
    ) -> Option<Move> {
        self.choose_cell(level, Classic::board(position), think)
            .map(Move::Cell)
    }

    fn judge(&mut self, position: &Position, mv: Move, think: Option<Duration>) -> Option<Verdict> {
        let (board, Move::Cell(cell)) = (Classic::board(position), mv) else {
            unreachable!("a legal move is of the position's rule set")
        };
        // A board with a legal move is not finished: no thought means a cancelled search.
        let thought = self.searcher.think(board, think)?;
        let after = if thought.cell == cell {
            thought.value
        } else {
            self.searcher.move_value(board, cell, think)
        };
        if self.searcher.cancelled() {
            return None;
        }
        Some(Verdict {
            before: thought.value,
            after,
            best: thought.cell.into(),
        })
    }

    fn analyze(
        &mut self,
        position: &Position,
        best_only: bool,
        think: Option<Duration>,
    ) -> Analysis {
        if !best_only {
            // One search, one answer: the position's value and best move are its best
            // listed move's, never those of another search cut short elsewhere.
            return Analysis::of_moves(position, self.hint(position, think));
        }
        let head = self
            .searcher
            .think(Classic::board(position), think)
            .map(|t| (t.value, Move::from(t.cell)));
        Analysis {
            head,
            moves: Vec::new(),
        }
    }

    fn hint(&mut self, position: &Position, think: Option<Duration>) -> Vec<(Move, Value)> {
        let board = Classic::board(position);
        let moves = match think {
            Some(budget) => self.searcher.analyze_within(board, budget),
            None => self.searcher.analyze(board),
        };
        moves.into_iter().map(|(c, v)| (Move::Cell(c), v)).collect()
    }

    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.searcher.set_cancel(flag.clone());
        self.cancel = flag;
    }
}

/// A rule set the Monte Carlo engine plays: how to find its positions and moves among every
/// rule set's, and the trees it searches.
pub(super) trait MonteCarloGame: SearchGame + Send + Sync
where
    Self::Move: Send,
{
    /// How the search values leaves and new nodes.
    type Eval: Evaluator<Self> + Send;
    /// The position of this rule set in `position`.
    fn of(position: &Position) -> &Self;
    /// `mv` as a move of this rule set.
    fn own(mv: Move) -> Self::Move;
    /// The search `hard` keeps from move to move, its random numbers from `stream`.
    fn tree(stream: Option<u64>) -> Mcts<Self, Self::Eval>;
    /// A small fresh search for a level below `hard` (see [`crate::levels::Style::playouts`]).
    fn quick(seed: u64) -> Mcts<Self, Self::Eval>;
}

impl MonteCarloGame for UltimateBoard {
    type Eval = UltimateEval;

    fn of(position: &Position) -> &UltimateBoard {
        position
            .ultimate()
            .expect("the Ultimate engine is given Ultimate positions")
    }

    fn own(mv: Move) -> ultimate::Move {
        let Move::Ultimate(mv) = mv else {
            unreachable!("a legal move is of the position's rule set")
        };
        mv
    }

    fn tree(stream: Option<u64>) -> Mcts {
        Mcts::new(stream)
    }

    fn quick(seed: u64) -> Mcts {
        Mcts::new(Some(seed))
            .with_node_cap(1 << 16)
            .with_settings(mcts::Settings::FROZEN)
    }
}

/// The Monte Carlo tree search of any rule set, its trees kept from move to move: one, or one
/// a thread for `hard`'s moves (root parallelism, [`Parallel`]); hints, analyses and verdicts
/// search the first. Ultimate's, with its learned evaluation.
pub(super) struct MonteCarlo<G: MonteCarloGame>
where
    G::Move: Send,
{
    search: Parallel<G, G::Eval>,
}

impl<G: MonteCarloGame> MonteCarlo<G>
where
    G::Move: Send + Into<Move>,
{
    /// The search on `threads` trees (at least one).
    pub(super) fn new(seed: Option<u64>, meter: Meter, threads: usize) -> MonteCarlo<G> {
        let trees = (0..threads.max(1) as u64)
            .map(|i| {
                // Its own stream, so classic games with a seed play as they always did; the
                // first tree's is the one a single tree always had.
                let stream = seed.map(|s| s ^ 0x9e37_79b9_7f4a_7c15 ^ i.wrapping_mul(0x2545_f491));
                let mut mcts = G::tree(stream);
                mcts.set_meter(meter);
                mcts
            })
            .collect();
        MonteCarlo {
            search: Parallel::new(trees),
        }
    }

    /// The first tree: the one that hints, analyses and verdicts search, and the levels below
    /// `hard` draw their random numbers from.
    fn mcts(&mut self) -> &mut Mcts<G, G::Eval> {
        &mut self.search.trees()[0]
    }
}

impl<G: MonteCarloGame> Engine for MonteCarlo<G>
where
    G::Move: Send + Into<Move>,
{
    fn choose(
        &mut self,
        level: Level,
        position: &Position,
        think: Option<Duration>,
    ) -> Option<Move> {
        let board = G::of(position);
        match level.style() {
            None => {
                let budget = think.unwrap_or(ULTIMATE_THINK);
                self.search.think_varied(board, budget).map(|c| c.mv)
            }
            Some(style) => {
                let mut quick = G::quick(self.mcts().draw_seed());
                quick.set_cancel(self.mcts().cancel_flag());
                quick
                    .think_iterations(board, style.playouts.max(1))
                    .map(|c| c.mv)
            }
        }
        .map(Into::into)
    }

    fn judge(&mut self, position: &Position, mv: Move, think: Option<Duration>) -> Option<Verdict> {
        let budget = think.unwrap_or(ULTIMATE_THINK);
        let verdict = mcts::judge(self.mcts(), G::of(position), G::own(mv), budget)?;
        Some(Verdict {
            before: verdict.before,
            after: verdict.after,
            best: verdict.best.into(),
        })
    }

    fn analyze(
        &mut self,
        position: &Position,
        best_only: bool,
        think: Option<Duration>,
    ) -> Analysis {
        // A tree kept from another position would only mislead.
        self.mcts().clear();
        if best_only {
            let budget = think.unwrap_or(ULTIMATE_THINK);
            let head = self
                .mcts()
                .think(G::of(position), budget)
                .map(|c| (c.value, c.mv.into()));
            return Analysis {
                head,
                moves: Vec::new(),
            };
        }
        Analysis::of_moves(position, self.hint(position, think))
    }

    fn hint(&mut self, position: &Position, think: Option<Duration>) -> Vec<(Move, Value)> {
        let budget = think.unwrap_or(ULTIMATE_THINK);
        self.mcts()
            .analyze(G::of(position), budget)
            .into_iter()
            .map(|(m, v)| (m.into(), v))
            .collect()
    }

    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        for tree in self.search.trees() {
            tree.set_cancel(flag.clone());
        }
    }
}
