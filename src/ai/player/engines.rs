//! One engine per rule set behind one interface generic over the rule set, [`Engine`]: what
//! the session asks of the AI (a move, the search's choice and value, a move's value, every
//! move's value) answered by the negamax search and the ladder's levels on classic boards
//! ([`Classic`]), by the Monte Carlo tree search in Ultimate ([`MonteCarlo`]), and by the
//! threats and the alpha-beta search in Gomoku ([`super::threat`]). The verdict on a move
//! played is written once over it, [`judge`]. [`super::Brain`] holds one engine of each rule
//! set, found by the rule set's type ([`super::Played`]).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::{Assessment, ULTIMATE_THINK};
use crate::ai::connect_four::Four;
use crate::ai::levels::{self, Level};
use crate::ai::mcts::{self, Evaluator, Mcts, Parallel, SearchGame, UltimateEval};
use crate::ai::search::{Meter, POSITION_WORK, Searcher, Value};
use crate::rules::classic::{Board, Cell};
use crate::rules::connect_four::{Column, ConnectFour};
use crate::rules::position::Move;
use crate::rules::ultimate::UltimateBoard;
use crate::rules::{Outcome, RuleSet};

/// The AI of one rule set `R`, asked of `R`'s own positions and moves only: each engine is a
/// type of its rule set's, so none has to find its positions among every rule set's.
pub(super) trait Engine<R: RuleSet> {
    /// The move `level` makes in `position` with `think` for `hard`, or `None` once the game
    /// is over or when cancelled.
    fn choose(&mut self, level: Level, position: &R, think: Option<Duration>) -> Option<R::Move>;
    /// The search's choice in `position` and its value, within `think`: `hard`'s reading of
    /// the position, or `None` once the game is over or when cancelled.
    fn best(&mut self, position: &R, think: Option<Duration>) -> Option<(R::Move, Value)>;
    /// The value of the legal move `mv` for its mover, asked right after [`Engine::best`] of
    /// the same position (so what that search found may be used), or `None` when cancelled.
    fn value_of(&mut self, position: &R, mv: R::Move, think: Option<Duration>) -> Option<Value>;
    /// Every legal move's value.
    fn hint(&mut self, position: &R, think: Option<Duration>) -> Vec<(R::Move, Value)>;
    /// Forgets what was kept from other positions, before an analysis of one on its own.
    fn fresh(&mut self) {}
    /// Stops every search at once when `flag` is raised.
    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>);
    /// What its searches did since [`Engine::fresh`], for people watching it think.
    fn work(&self) -> Work;
}

/// What an engine's searches did, for people watching it think.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Positions searched (in a Monte Carlo tree search: its iterations).
    pub nodes: u64,
    /// The deepest search completed, in plies, where the engine searches depth by depth.
    pub depth: Option<u32>,
}

impl Work {
    /// Both works, as one: their nodes added, the deeper depth.
    pub fn add(&mut self, other: Work) {
        self.nodes += other.nodes;
        self.depth = self.depth.max(other.depth);
    }
}

/// The verdict on the legal move `mv` in `position` (see [`super::Brain::judge`]), searched
/// afresh, the same for every engine: the position's best value is at least what the move achieved, since the
/// move was on offer.
pub(super) fn judge<R: RuleSet<Move: Into<Move>>, E: Engine<R>>(
    engine: &mut E,
    position: &R,
    mv: R::Move,
    think: Option<Duration>,
) -> Option<Assessment> {
    // Judged afresh: a verdict is the same whatever was judged before it.
    engine.fresh();
    let (best, value) = engine.best(position, think)?;
    let after = if best == mv {
        value
    } else {
        engine.value_of(position, mv, think)?
    };
    Some(Assessment {
        before: value.max(after),
        after,
        best: best.into(),
    })
}

/// Classic boards: the proof search for `hard`, the ladder's styles below it, one random
/// source for both.
pub(super) struct Classic {
    rng: fastrand::Rng,
    pub(super) searcher: Searcher,
    cancel: Option<Arc<AtomicBool>>,
    /// The searcher's work when [`Engine::fresh`] was last called.
    fresh_at: u64,
}

impl Classic {
    pub(super) fn new(seed: Option<u64>, mut searcher: Searcher, meter: Meter) -> Classic {
        searcher.set_meter(meter);
        Classic {
            rng: seed.map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed),
            searcher,
            cancel: None,
            fresh_at: 0,
        }
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

impl Engine<Board> for Classic {
    fn choose(&mut self, level: Level, board: &Board, think: Option<Duration>) -> Option<Cell> {
        self.choose_cell(level, board, think)
    }

    fn best(&mut self, board: &Board, think: Option<Duration>) -> Option<(Cell, Value)> {
        // A board with a legal move is not finished: no thought means a cancelled search, and
        // so does a thought cut short by the cancel flag.
        let thought = self.searcher.think(board, think)?;
        (!self.searcher.cancelled()).then_some((thought.cell, thought.value))
    }

    fn value_of(&mut self, board: &Board, cell: Cell, think: Option<Duration>) -> Option<Value> {
        let value = self.searcher.move_value(board, cell, think);
        (!self.searcher.cancelled()).then_some(value)
    }

    fn hint(&mut self, board: &Board, think: Option<Duration>) -> Vec<(Cell, Value)> {
        match think {
            Some(budget) => self.searcher.analyze_within(board, budget),
            None => self.searcher.analyze(board),
        }
    }

    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.searcher.set_cancel(flag.clone());
        self.cancel = flag;
    }

    fn fresh(&mut self) {
        self.fresh_at = self.searcher.work();
    }

    fn work(&self) -> Work {
        Work {
            nodes: self.searcher.work().saturating_sub(self.fresh_at) / POSITION_WORK,
            depth: None,
        }
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
    /// The search `hard` keeps from move to move, its random numbers from `stream`.
    fn tree(stream: Option<u64>) -> Mcts<Self, Self::Eval>;
    /// A small fresh search for a level below `hard` (see [`crate::ai::levels::Style::playouts`]).
    fn quick(seed: u64) -> Mcts<Self, Self::Eval>;
}

impl MonteCarloGame for UltimateBoard {
    type Eval = UltimateEval;

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
    G::Move: Send,
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

impl<G: MonteCarloGame> Engine<G> for MonteCarlo<G>
where
    G::Move: Send,
{
    fn choose(&mut self, level: Level, board: &G, think: Option<Duration>) -> Option<G::Move> {
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
    }

    fn best(&mut self, board: &G, think: Option<Duration>) -> Option<(G::Move, Value)> {
        let budget = think.unwrap_or(ULTIMATE_THINK);
        let choice = self.mcts().think(board, budget)?;
        Some((choice.mv, choice.value))
    }

    /// The move's value proven in the tree [`Engine::best`] left, else the end it makes, else
    /// a search of the position after it, read from the mover's side.
    fn value_of(&mut self, board: &G, mv: G::Move, think: Option<Duration>) -> Option<Value> {
        let budget = think.unwrap_or(ULTIMATE_THINK);
        let mcts = self.mcts();
        if let Some(value) = mcts.proven_move(mv) {
            return Some(value);
        }
        let after = board.after(mv).expect("a legal move is played");
        match after.outcome() {
            Outcome::Won(_) => Some(Value::Win(1)),
            Outcome::Draw => Some(Value::Draw),
            Outcome::InProgress => Some(mcts.think(&after, budget)?.value.before()),
        }
    }

    fn hint(&mut self, board: &G, think: Option<Duration>) -> Vec<(G::Move, Value)> {
        let budget = think.unwrap_or(ULTIMATE_THINK);
        self.mcts().analyze(board, budget)
    }

    /// A tree kept from another position would only mislead.
    fn fresh(&mut self) {
        self.mcts().clear();
    }

    /// The iterations of the last search: an analysis after [`Engine::fresh`] is one search.
    fn work(&self) -> Work {
        Work {
            nodes: self.search.iterations(),
            depth: None,
        }
    }

    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        for tree in self.search.trees() {
            tree.set_cancel(flag.clone());
        }
    }
}

/// Connect Four: the solver for `hard`, which proves every position it finishes within the
/// budget (without one, every position), and the levels' alpha-beta below it.
impl Engine<ConnectFour> for Four {
    fn choose(
        &mut self,
        level: Level,
        board: &ConnectFour,
        think: Option<Duration>,
    ) -> Option<Column> {
        match level.style() {
            Some(style) => self.level_move(board, style),
            None => self.best(board, think).map(|(column, _)| column),
        }
    }

    fn best(&mut self, board: &ConnectFour, think: Option<Duration>) -> Option<(Column, Value)> {
        Four::best(self, board, think)
    }

    fn value_of(
        &mut self,
        board: &ConnectFour,
        column: Column,
        think: Option<Duration>,
    ) -> Option<Value> {
        let after = board.after(column).expect("a legal column");
        Some(self.value(&after, think).before())
    }

    fn hint(&mut self, board: &ConnectFour, think: Option<Duration>) -> Vec<(Column, Value)> {
        self.values(board, think)
    }

    fn fresh(&mut self) {
        self.clear();
    }

    fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        Four::set_cancel(self, flag);
    }

    fn work(&self) -> Work {
        Work {
            nodes: self.nodes_since_clear(),
            depth: None,
        }
    }
}
