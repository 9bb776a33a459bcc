//! Monte Carlo tree search with a solver, for any rule set it can play ([`SearchGame`]), with
//! what it has not searched valued by an [`Evaluator`]: Ultimate tic-tac-toe's AI with its
//! learned evaluation ([`UltimateEval`], the default), or textbook random games for any rule
//! set ([`RandomGames`]). What follows describes Ultimate's search; the tree, the solver,
//! reuse and budgets are the same for every rule set.
//!
//! # How it searches
//!
//! Each iteration walks down the tree by UCB1, expands a leaf the second time it is reached
//! (all its children at once, in random order), plays a random game from there and backs the
//! result up. Random games are not uniform (see [`Playouts`]): a player who can win a small board
//! takes it, and one who can win the game does. [`Playouts::Safe`], where a player also avoids
//! sending the opponent where it can win a board at once, is there to be measured: it costs a
//! quarter of the iterations and did not make `hard` stronger in the match that measured it.
//!
//! A new node does not start empty: it starts with [`PRIOR_VISITS`] imaginary visits at a rate
//! `prior()` guesses from the move alone (winning or blocking a small board is good; sending the
//! opponent to a board it wins at once, or letting it play anywhere, is bad). UCB1 then tries
//! likely moves first instead of every one of up to 81 moves once, and the guess fades as real
//! games accumulate. `docs/ai.md` gives the measured strength of the choices `hard` makes.
//!
//! The learned evaluation ([`value`], a small network trained from the engine's own games) can
//! take the place of both guesses ([`Settings::leaf`], [`Settings::prior`]): a leaf is then
//! worth the network's value of its position (or the mean of that and a random game), and a
//! new node's imaginary visits are at the rate the network gives the position after its move.
//! A leaf valued by the network is scored in fractions of a game (see `HALF`). In `hard` the
//! embedded network's policy also steers the choice of children ([`Settings::policy`]), and
//! so do minimax estimates backed up from the network's values beside the win rates
//! ([`Settings::minimax`]); docs/ai.md has the matches that chose both.
//!
//! The search is also a solver. A move that ends the game is known the moment its parent is
//! expanded; a position with a winning move is lost for the player who moved into it, one whose
//! moves are all proven is worth the best of them, and these proofs are backed up the tree. A
//! proven move is never searched again, so endgames are played perfectly and reported as proven
//! (as [`Value::Win`], [`Value::Loss`] or [`Value::Draw`], counted in plies as the classic search
//! counts them).
//!
//! A search stops once the root is proven, but the first win it proves need not be the
//! quickest: with [`Settings::quicker_win`] (`hard`) it then searches the unproven moves a
//! little longer, within its budget, for a quicker one (see [`QUICKER_WIN_ITERATIONS`]). The
//! move played is the quickest proven win, or when every move loses, the slowest loss.
//!
//! # Values
//!
//! Unproven values are [`Value::WinRate`]s: the share of the simulated games the side to move
//! wins (a draw counts as half; the prior's imaginary games count too, which matters only for a
//! move searched a few times).
//!
//! # Memory and reuse
//!
//! Nodes live in one arena of at most [`DEFAULT_NODE_CAP`] nodes of 16 bytes (64 MiB; see
//! [`Mcts::with_node_cap`]), with 4 bytes more a node beside them when the search weighs a
//! policy and 4 more when it weighs minimax estimates (96 MiB in all for `hard`). Once it is
//! full the tree stops growing and iterations only add random games below the existing leaves.
//! Between moves the tree is kept: when the next search starts from the position after one or
//! two moves of the last root (the engine's move and the opponent's reply), that subtree is
//! copied to a fresh arena and the rest dropped.

// Visit counts become f32 for UCB1; far below 2^24 per search, exact enough beyond.
#![allow(clippy::cast_precision_loss)]

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use crate::ai::search::{Meter, Value};
use crate::rules::ultimate::{Move, UltimateBoard};

mod evaluate;
mod game;
mod playouts;
pub mod value;

pub use evaluate::{Evaluator, RandomGames};
pub use game::{Ended, MAX_MOVES, SearchGame};
use playouts::DRAW;
pub use playouts::{Playouts, playout, playout_with, uniform_playout};

/// The default cap on the tree: 4 Mi nodes, 64 MiB (96 MiB with `hard`'s policy shares and
/// minimax estimates beside them).
pub const DEFAULT_NODE_CAP: usize = 1 << 22;
/// Iterations of a `medium` move.
pub const MEDIUM_ITERATIONS: u64 = 250;
/// The default UCB1 exploration constant, for results in 0..=1. In matches against the
/// textbook baseline at 50 ms a move, 0.4, 0.8 and 1.2 scored within noise of each other.
pub const EXPLORATION: f32 = 0.8;
/// Imaginary visits a new node starts with, scored at the rate `prior()` guesses.
pub const PRIOR_VISITS: u32 = 10;
/// `hard`'s exploration constant. Guided by the network its values are steadier than random
/// games, so it explores less: at 20 ms a move against [`Settings::FROZEN`], 0.3 to 0.6 scored
/// alike, 0.8 and 1.1 lower (`docs/ai.md`, the learned evaluation, has the screens).
pub const NETWORK_EXPLORATION: f32 = 0.45;
/// `hard`'s imaginary visits of a new node, at the rate the network gives the position after
/// its move: the network's guess is worth more than the hand-made one (at 20 ms a move 15 and 25
/// scored alike; 10, with c = 0.8, and 40, with c = 0.6, lower than 25 with the same c).
pub const NETWORK_PRIOR_VISITS: u32 = 25;
/// The most imaginary visits [`Mcts::with_prior`] takes: far more would drown real games and,
/// near 2^31, overflow the counts.
pub const MAX_PRIOR_VISITS: u32 = 1000;
/// The visits from which a node's children are given the policy's shares, when the search
/// weighs a policy (see [`Mcts::with_policy`]).
pub const POLICY_VISITS: u32 = 100;
/// The weight of the embedded network's policy in `hard`'s choice of children (see
/// [`Mcts::with_policy`]; docs/ai.md has the matches that chose it).
pub const NETWORK_POLICY: f32 = 2.0;
/// The weight of the minimax estimates in `hard`'s choice of children (see
/// [`Mcts::with_minimax`]; docs/ai.md has the screens that chose it).
pub const NETWORK_MINIMAX: f32 = 0.2;
/// A child's policy share before its parent has asked the policy.
const NOT_YET: f32 = -1.0;
/// The knobs of a search. [`Mcts::new`] starts with [`Settings::HARD`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// How the random games choose their moves.
    pub playouts: Playouts,
    /// UCB1's exploration constant (see [`Mcts::with_exploration`]).
    pub exploration: f32,
    /// Imaginary visits of a new node at the rate its prior guesses (see [`Mcts::with_prior`]).
    pub prior_visits: u32,
    /// What a leaf reached for the first time is worth.
    pub leaf: Leaf,
    /// Where a new node's prior comes from.
    pub prior: Prior,
    /// Whether a search that has proven a win goes on a little to look for a quicker one (see
    /// [`QUICKER_WIN_ITERATIONS`]); without it the search stops as soon as the root is proven.
    pub quicker_win: bool,
    /// Whether the learned evaluation is spared repeated work: a new node's children are valued
    /// from their parent's first-layer sums ([`value::AfterMoves`]) and a leaf reached for the
    /// first time is worth the rate its prior already holds. Without it (the search as it was,
    /// kept to measure the difference) each position is evaluated in full, a leaf twice.
    pub incremental: bool,
    /// The weight of the network's policy in choosing children (see [`Mcts::with_policy`]); 0
    /// leaves it out, and the network need not have a policy.
    pub policy: f32,
    /// The visits from which a node's children are given the policy's shares.
    pub policy_visits: u32,
    /// The weight of each child's minimax estimate beside its win rate in choosing children
    /// (see [`Mcts::with_minimax`]); 0 leaves it out.
    pub minimax: f32,
}

impl Settings {
    /// The evaluation these settings name, on the embedded network (the network is not a
    /// setting: see [`Mcts::with_network`]).
    pub fn evaluation(self) -> UltimateEval {
        UltimateEval {
            playouts: self.playouts,
            leaf: self.leaf,
            prior: self.prior,
            incremental: self.incremental,
            network: value::embedded(),
        }
    }

    /// `hard`'s search, also the analysis's, the hints' and the review's: guided by the
    /// learned evaluation at its leaves and in its priors, which made it stronger than
    /// [`Settings::FROZEN`] at equal time (`docs/ai.md` has the match).
    pub const HARD: Settings = Settings {
        playouts: Playouts::Greedy,
        exploration: NETWORK_EXPLORATION,
        prior_visits: NETWORK_PRIOR_VISITS,
        leaf: Leaf::Network,
        prior: Prior::Network,
        quicker_win: true,
        incremental: true,
        policy: NETWORK_POLICY,
        policy_visits: POLICY_VISITS,
        minimax: NETWORK_MINIMAX,
    };
    /// The search as it was when the match tool's `frozen` player was made, kept unchanged
    /// while [`Settings::HARD`] may move on: the ladder's levels below the top use it (their
    /// measured strength depends on it), and with a time budget and the tree kept between
    /// moves it is `hard` as it was then, the player to measure a new `hard` against.
    pub const FROZEN: Settings = Settings {
        playouts: Playouts::Greedy,
        exploration: 0.8,
        prior_visits: 10,
        leaf: Leaf::Playout,
        prior: Prior::Hand,
        quicker_win: false,
        incremental: false,
        policy: 0.0,
        policy_visits: POLICY_VISITS,
        minimax: 0.0,
    };
}

/// Iterations between looks at the cancel flag; the clock is read every fourth look.
const CHECK_EVERY: u64 = 16;
/// Iterations per millisecond of budget when budgets are metered by work ([`Meter::Work`]):
/// a little more than `hard` runs by the clock in the opening and middle game in a release
/// build on one core of a shared 2020s server (628 to 731, idle or beside another job: `cargo
/// run --release --example seed_rate`), so a seeded search runs no fewer iterations in those
/// positions than one by the clock (a seeded second takes 1.14 to 1.5 s), and about as many
/// just after a first move in the centre board, where the answer has nine cells
/// (docs/benchmarks.md).
/// Later positions run more a
/// millisecond (their games are shorter and more of the tree is proven), so there a seeded
/// second takes less than a second.
pub const ITERATIONS_PER_MS: u64 = 850;

/// What a node is proven to be worth for the player who moved into it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    Unknown,
    Win,
    Loss,
    Draw,
}

/// Score units of a half-point (a draw): a leaf's value may be a fraction of a game. Powers of
/// two scale a random game's result without changing any win rate computed from it. A node's
/// score saturates after 2^27 visits (minutes of one search on one core).
const HALF: u32 = 16;

/// A node of the tree: the position after its move.
#[derive(Clone, Copy, Debug)]
struct Node {
    visits: u32,
    /// Points won by the player who moved into the node, [`HALF`] units to a half-point: `2 *
    /// HALF` for a win, `HALF` for a draw.
    score: u32,
    /// The first child's index; children are contiguous. 0: not expanded (0 is the root).
    first: u32,
    count: u8,
    /// [`Move::index`] of the move into the node.
    mv: u8,
    proof: Proof,
    /// When proven, the game ends this many plies after the parent's position.
    plies: u8,
}

const ROOT: Node = Node {
    visits: 0,
    score: 0,
    first: 0,
    count: 0,
    mv: 0,
    proof: Proof::Unknown,
    plies: 0,
};

/// The AI's choice and what it is worth to the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice<M = Move> {
    pub mv: M,
    /// Proven, or a win-rate estimate (see the module docs).
    pub value: Value,
}

/// How hard the tree search tries when asked for a move directly ([`Mcts::choose`]): the
/// baselines of the match tools. The game's levels are [`crate::ai::levels::Level`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effort {
    /// A random legal move.
    Easy,
    /// A short search of [`MEDIUM_ITERATIONS`] iterations on a fresh tree, without the move
    /// prior and with [`Settings::FROZEN`]'s playouts: it takes what it sees, but a decent
    /// player can beat it. (With the prior, 250 iterations scored 80.5% against the textbook
    /// baseline at 1,000; without, 56.5%.)
    Medium,
    /// A search of this many iterations on a fresh tree with [`Settings::FROZEN`]: the ladder's
    /// levels below the top (see [`crate::ai::levels`]).
    Playouts(u64),
    /// The full thinking budget, reusing the tree, with this search's settings
    /// ([`Settings::HARD`] unless [`Mcts::with_settings`] chose others).
    Hard,
}

/// When a search stops, besides a cancel.
#[derive(Clone, Copy)]
struct Limit {
    deadline: Option<Instant>,
    iterations: Option<u64>,
    /// Go on until every root move is proven (analysis), not just the root.
    every_move: bool,
}

/// The Monte Carlo tree search of any rule set `G` the search can play, valuing what it has
/// not searched by `E`, with its tree kept between moves. Without parameters: Ultimate with
/// its learned evaluation.
pub struct Mcts<G: SearchGame = UltimateBoard, E: Evaluator<G> = UltimateEval> {
    nodes: Vec<Node>,
    cap: usize,
    /// The position at node 0, once a search ran.
    root: Option<G>,
    rng: fastrand::Rng,
    cancel: Option<Arc<AtomicBool>>,
    /// Scratch: the nodes of the current iteration's walk.
    path: Vec<u32>,
    iterations: u64,
    exploration: f32,
    /// Imaginary visits each new node starts with, at the rate the evaluation guesses.
    prior: u32,
    eval: E,
    quicker_win: bool,
    /// How a budget is spent: by the clock, or as [`ITERATIONS_PER_MS`] iterations a
    /// millisecond.
    meter: Meter,
    /// The weight of the policy in choosing children (see [`Mcts::with_policy`]).
    policy_weight: f32,
    /// The visits from which a node's children are given the policy's shares.
    policy_visits: u32,
    /// The policy's share of each node's move, beside `nodes` (or [`NOT_YET`]); empty without
    /// a policy.
    shares: Vec<f32>,
    /// The weight of the minimax estimates in choosing children (see [`Mcts::with_minimax`]).
    minimax: f32,
    /// Each node's minimax estimate beside `nodes`, for the player who moved into it (see
    /// [`Mcts::with_minimax`]); empty without one.
    estimates: Vec<f32>,
    /// The most a root child's worth is moved by [`Mcts::set_root_noise`] (0: never).
    root_noise: f32,
    /// Each root child's offset for the current search, drawn from `rng` when it starts;
    /// empty without noise.
    root_bias: Vec<f32>,
}

impl Mcts {
    /// Ultimate's search with [`Settings::HARD`], whose random choices follow from `seed`, or
    /// from entropy with `None`.
    pub fn new(seed: Option<u64>) -> Mcts {
        Mcts::with_evaluator(seed, Settings::HARD.evaluation()).with_settings(Settings::HARD)
    }

    /// A search with `settings` instead of [`Settings::HARD`], on the same network. The tree
    /// is cleared.
    pub fn with_settings(mut self, settings: Settings) -> Mcts {
        self.eval = UltimateEval {
            network: self.eval.network,
            ..settings.evaluation()
        };
        self.with_exploration(settings.exploration)
            .with_prior(settings.prior_visits)
            .with_quicker_win(settings.quicker_win)
            .with_policy(settings.policy, settings.policy_visits)
            .with_minimax(settings.minimax)
    }

    /// The search valuing positions by `network` instead of the embedded one (to measure a
    /// network before it is embedded). The tree is cleared.
    pub fn with_network(mut self, network: &'static value::Network) -> Mcts {
        self.eval.network = network;
        self.clear();
        self
    }

    /// The search's settings (which do not name its network).
    pub fn settings(&self) -> Settings {
        Settings {
            playouts: self.eval.playouts,
            exploration: self.exploration,
            prior_visits: self.prior,
            leaf: self.eval.leaf,
            prior: self.eval.prior,
            quicker_win: self.quicker_win,
            incremental: self.eval.incremental,
            policy: self.policy_weight,
            policy_visits: self.policy_visits,
            minimax: self.minimax,
        }
    }
}

impl<G: SearchGame, E: Evaluator<G>> Mcts<G, E> {
    /// A search valuing leaves and new nodes by `eval`, with [`EXPLORATION`], no imaginary
    /// visits and no look for quicker wins; its random choices follow from `seed`, or from
    /// entropy with `None`.
    pub fn with_evaluator(seed: Option<u64>, eval: E) -> Mcts<G, E> {
        Mcts {
            nodes: Vec::new(),
            cap: DEFAULT_NODE_CAP,
            root: None,
            rng: seed.map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed),
            cancel: None,
            path: Vec::with_capacity(96),
            iterations: 0,
            exploration: EXPLORATION,
            prior: 0,
            eval,
            quicker_win: false,
            meter: Meter::Clock,
            policy_weight: 0.0,
            policy_visits: POLICY_VISITS,
            shares: Vec::new(),
            minimax: 0.0,
            root_noise: 0.0,
            root_bias: Vec::new(),
            estimates: Vec::new(),
        }
    }

    /// Adds `weight * share * sqrt(parent's visits) / (1 + visits)` to each child's UCB1 score,
    /// where `share` is the part of the search the evaluator's policy gives its move (none
    /// without one): the search tries first, and longer, what the policy favours. A node asks
    /// the policy once it has `visits` visits, so that the policy is worked out only where the
    /// search spends many iterations (most nodes never reach a hundred). A weight of 0 (the
    /// default of [`Mcts::with_evaluator`]; `hard` weighs [`NETWORK_POLICY`]) leaves the policy
    /// out. The tree is cleared.
    pub fn with_policy(mut self, weight: f32, visits: u32) -> Mcts<G, E> {
        self.policy_weight = weight.max(0.0);
        self.policy_visits = visits;
        self.clear();
        self
    }

    /// Chooses children by `(1 - weight) * win rate + weight * estimate` (plus UCB1's
    /// exploration), where a child's estimate is the evaluator's guess at its position backed
    /// up by minimax through the part of the tree below it: its prior's rate while it has no
    /// children, then the best of its children's for the side to move there (proven values
    /// where proven). Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant, 2014):
    /// the win rate averages, the estimate follows the best line the evaluator sees. A weight
    /// of 0 (the default of [`Mcts::with_evaluator`]; `hard` weighs [`NETWORK_MINIMAX`]) leaves
    /// it out. The tree is cleared.
    pub fn with_minimax(mut self, weight: f32) -> Mcts<G, E> {
        self.minimax = weight.clamp(0.0, 1.0);
        self.clear();
        self
    }

    /// Whether a search that has proven a win goes on a little to look for a quicker one (see
    /// [`QUICKER_WIN_ITERATIONS`]).
    pub fn with_quicker_win(mut self, on: bool) -> Mcts<G, E> {
        self.quicker_win = on;
        self
    }

    /// Spends every budget given from now on by `meter`: with [`Meter::Work`] a budget is
    /// [`ITERATIONS_PER_MS`] iterations a millisecond, so a seeded search's result depends only
    /// on the position, the seed and the searches before it, never on the clock.
    pub fn set_meter(&mut self, meter: Meter) {
        self.meter = meter;
    }

    /// The limit of a search with `budget`.
    fn limit(&self, budget: Duration, every_move: bool) -> Limit {
        let (deadline, iterations) = match self.meter {
            Meter::Clock => (Instant::now().checked_add(budget), None),
            Meter::Work => {
                let ms = u64::try_from(budget.as_millis()).unwrap_or(u64::MAX);
                (None, Some(ms.saturating_mul(ITERATIONS_PER_MS)))
            }
        };
        Limit {
            deadline,
            iterations,
            every_move,
        }
    }

    /// UCB1's exploration constant `c` (default [`NETWORK_EXPLORATION`], `hard`'s; the
    /// random-game search of [`Settings::FROZEN`] uses [`EXPLORATION`]): a move's score is its win
    /// rate plus `c * sqrt(ln(parent visits) / visits)`.
    pub fn with_exploration(mut self, c: f32) -> Mcts<G, E> {
        self.exploration = c;
        self
    }

    /// New nodes start with `visits` imaginary visits (at most [`MAX_PRIOR_VISITS`]) at the
    /// rate the search's prior guesses, counted in half-points like real games (default
    /// [`NETWORK_PRIOR_VISITS`], `hard`'s; [`Settings::FROZEN`] uses [`PRIOR_VISITS`]); 0 starts
    /// them empty, every move alike. The tree is cleared.
    pub fn with_prior(mut self, visits: u32) -> Mcts<G, E> {
        self.prior = visits.min(MAX_PRIOR_VISITS);
        self.clear();
        self
    }

    /// A tree of at most `cap` nodes (16 bytes each, 4 more with a policy and 4 more with
    /// minimax estimates; at least 82, enough for the root and its moves). The tree is cleared.
    pub fn with_node_cap(mut self, cap: usize) -> Mcts<G, E> {
        self.cap = cap.max(82);
        self.clear();
        self
    }

    /// Forgets the tree.
    pub fn clear(&mut self) {
        self.nodes = Vec::new();
        self.shares = Vec::new();
        self.estimates = Vec::new();
        self.root = None;
    }

    /// From now on every search stops within a few iterations once `flag` is raised, and
    /// returns `None`. `None` removes the flag.
    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// The imaginary visits each new node starts with, at the rate the prior guessed (0: no
    /// prior).
    pub fn prior_visits(&self) -> u32 {
        self.prior
    }

    /// The cancel flag, to hand to a search of one's own (a level's quick one).
    pub fn cancel_flag(&self) -> Option<Arc<AtomicBool>> {
        self.cancel.clone()
    }

    /// A seed drawn from this search's random numbers, for a search of one's own: the same
    /// draw [`Mcts::choose`] makes for its levels.
    pub fn draw_seed(&mut self) -> u64 {
        self.rng.u64(..)
    }

    /// Whether the cancel flag is raised.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Iterations run by the last search.
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Nodes in the tree.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// From the next search on, each root child's worth in choosing which to search is moved
    /// by a random amount up to `noise` either way (a win rate, 0 to 1), drawn from this
    /// search's random numbers when the search starts. A tree beside others
    /// ([`Parallel`]) searches other moves than they do, as its seed decides; the
    /// moves' values and the choice at the end read no noise.
    pub fn set_root_noise(&mut self, noise: f32) {
        self.root_noise = noise;
    }

    /// Searches `board` for `budget` (less if the position is proven sooner) and returns the
    /// best move with its value; `None` once the game is over or when cancelled. Even with a
    /// zero budget the root's moves are generated, so a move that wins at once is found.
    pub fn think(&mut self, board: &G, budget: Duration) -> Option<Choice<G::Move>> {
        let limit = self.limit(budget, false);
        self.search(board, limit)?;
        Some(self.best())
    }

    /// [`Mcts::think`] for a number of iterations instead of a time.
    pub fn think_iterations(&mut self, board: &G, iterations: u64) -> Option<Choice<G::Move>> {
        let limit = Limit {
            deadline: None,
            iterations: Some(iterations),
            every_move: false,
        };
        self.search(board, limit)?;
        Some(self.best())
    }

    /// Every legal move with its value after searching `board` for `budget` (less once every
    /// move is proven), in move order; empty once the game is over or when cancelled.
    pub fn analyze(&mut self, board: &G, budget: Duration) -> Vec<(G::Move, Value)> {
        let limit = self.limit(budget, true);
        if self.search(board, limit).is_none() {
            return Vec::new();
        }
        let mut all: Vec<(G::Move, Value)> = self.children(0).map(|i| self.entry(i)).collect();
        all.sort_by_key(|&(mv, _)| G::index_of(mv));
        all
    }

    /// Runs the search; `None` if the game is over or the search was cancelled.
    fn search(&mut self, board: &G, limit: Limit) -> Option<()> {
        self.iterations = 0;
        if board.is_over() {
            return None;
        }
        self.reroot(board);
        if self.nodes[0].first == 0 {
            let root = *board;
            assert!(self.expand(0, &root), "the root always fits");
            self.update_proof(0);
        }
        self.draw_root_bias();
        let mut done = 0u64;
        // Where the look for a quicker win than the one proven ends, once it started.
        let mut quicker_until = None;
        loop {
            if done.is_multiple_of(CHECK_EVERY) {
                if self.cancelled() {
                    return None;
                }
                if done.is_multiple_of(4 * CHECK_EVERY)
                    && limit.deadline.is_some_and(|d| Instant::now() >= d)
                {
                    break;
                }
            }
            if limit.iterations.is_some_and(|n| done >= n)
                || (self.finished(limit.every_move)
                    && !self.looking_for_quicker_win(done, &mut quicker_until))
            {
                break;
            }
            self.iterate();
            done += 1;
        }
        self.iterations = done;
        Some(())
    }

    /// Draws each root child's offset for this search (see [`Mcts::set_root_noise`]).
    fn draw_root_bias(&mut self) {
        self.root_bias.clear();
        if self.root_noise > 0.0 {
            for _ in self.children(0) {
                let offset = self.root_noise * (2.0 * self.rng.f32() - 1.0);
                self.root_bias.push(offset);
            }
        }
    }

    /// Whether searching on is pointless: the root is proven (or, for an analysis, every root
    /// move is).
    fn finished(&self, every_move: bool) -> bool {
        if every_move {
            self.children(0)
                .all(|i| self.nodes[i].proof != Proof::Unknown)
        } else {
            self.nodes[0].proof != Proof::Unknown
        }
    }

    /// Makes node 0 the position `board`, keeping the subtree of the last search if `board`
    /// follows its root by at most two moves.
    fn reroot(&mut self, board: &G) {
        if let Some(root) = self.root {
            if root == *board {
                return;
            }
            let mut keep = None;
            'find: for child in self.children(0) {
                let after = played(&root, self.nodes[child].mv);
                if after == *board {
                    keep = Some(child);
                    break;
                }
                for grandchild in self.children(child) {
                    if played(&after, self.nodes[grandchild].mv) == *board {
                        keep = Some(grandchild);
                        break 'find;
                    }
                }
            }
            if let Some(keep) = keep {
                self.compact(keep);
                self.root = Some(*board);
                return;
            }
        }
        if self.nodes.capacity() == 0 {
            self.nodes = Vec::with_capacity(self.cap);
        }
        self.nodes.clear();
        self.nodes.push(ROOT);
        self.shares.clear();
        if self.policy_weight > 0.0 {
            self.shares.push(NOT_YET);
        }
        self.estimates.clear();
        if self.minimax > 0.0 {
            self.estimates.push(0.5);
        }
        self.root = Some(*board);
    }

    /// Copies the subtree under `keep` into a fresh arena, `keep` becoming node 0.
    fn compact(&mut self, keep: usize) {
        let mut fresh = Vec::with_capacity(self.cap);
        let mut from: Vec<u32> = vec![keep as u32];
        fresh.push(Node {
            first: 0,
            ..self.nodes[keep]
        });
        let mut i = 0;
        while i < fresh.len() {
            let old = self.nodes[from[i] as usize];
            if old.first != 0 {
                fresh[i].first = fresh.len() as u32;
                for c in old.first..old.first + u32::from(old.count) {
                    fresh.push(Node {
                        first: 0,
                        ..self.nodes[c as usize]
                    });
                    from.push(c);
                }
            }
            i += 1;
        }
        self.nodes = fresh;
        for beside in [&mut self.shares, &mut self.estimates] {
            if !beside.is_empty() {
                *beside = from.iter().map(|&i| beside[i as usize]).collect();
            }
        }
    }

    fn children(&self, node: usize) -> std::ops::Range<usize> {
        let n = self.nodes[node];
        let first = n.first as usize;
        let count = if n.first == 0 {
            0
        } else {
            usize::from(n.count)
        };
        first..first + count
    }

    /// One iteration: walk down, expand, play a random game, back up.
    fn iterate(&mut self) {
        let mut board = self.root.expect("search() sets the root");
        let root_side = board.side();
        let mut node = 0usize;
        let mut newly_proven = None;
        let mut expanded = false;
        self.path.clear();
        self.path.push(0);
        // Units of score X earns.
        let x_units = loop {
            let n = self.nodes[node];
            // The root may be proven while an analysis goes on proving its other moves.
            if n.proof != Proof::Unknown && node != 0 {
                let mover = (root_side ^ self.path.len()) as u8 & 1;
                break x_units(match n.proof {
                    Proof::Win => mover,
                    Proof::Loss => mover ^ 1,
                    _ => DRAW,
                });
            }
            if n.first == 0 {
                if (n.visits > self.prior || node == 0) && self.expand(node, &board) {
                    expanded = true;
                    if self.update_proof(node) {
                        newly_proven = Some(self.path.len() - 1);
                    }
                    continue;
                }
                break self
                    .eval
                    .leaf(&mut board, n.visits, n.score, self.prior, &mut self.rng);
            }
            node = self.select(node, &board);
            board.apply_index(self.nodes[node].mv);
            self.path.push(node as u32);
        };
        for (depth, &i) in self.path.iter().enumerate() {
            // The root was moved into by the side not to move there.
            let mover = (root_side ^ 1 ^ (depth & 1)) as u8;
            let n = &mut self.nodes[i as usize];
            n.visits += 1;
            n.score = n.score.saturating_add(if mover == 0 {
                x_units
            } else {
                2 * HALF - x_units
            });
        }
        if let Some(mut k) = newly_proven {
            while k > 0 {
                k -= 1;
                if !self.update_proof(self.path[k] as usize) {
                    break;
                }
            }
        }
        if expanded && self.minimax > 0.0 {
            self.back_up_estimates(newly_proven.is_some());
        }
    }

    /// The child to walk into by UCB1, skipping children proven lost for the chooser (and at
    /// the root, every proven child: their value is known).
    fn select(&mut self, node: usize, board: &G) -> usize {
        let parent = self.nodes[node];
        // Below `policy_visits` the children have no shares yet (visits only grow), so their
        // shares are not read: deep in the tree that spares one load from memory per child.
        let asked = self.policy_weight > 0.0 && parent.visits >= self.policy_visits;
        if asked && self.shares[parent.first as usize] < 0.0 {
            self.ask_policy(node, board);
        }
        let terms = self.bonus_terms(parent.visits);
        let mut best = (f32::NEG_INFINITY, parent.first as usize);
        for i in self.children(node) {
            let c = self.nodes[i];
            let q = match c.proof {
                Proof::Unknown if c.visits == 0 => return i,
                Proof::Unknown => c.score as f32 / (2 * HALF * c.visits) as f32,
                _ if node == 0 => continue,
                Proof::Draw => 0.5,
                Proof::Win => return i,
                Proof::Loss => continue,
            };
            let share = if asked { self.shares[i] } else { 0.0 };
            let mut u = self.weighed(q, i) + terms.bonus(c.visits, share);
            if node == 0 && !self.root_bias.is_empty() {
                u += self.root_bias[i - parent.first as usize];
            }
            if u > best.0 {
                best = (u, i);
            }
        }
        best.1
    }

    /// Adds every move of `board` (node `node`'s position) as children, in random order;
    /// moves that end the game are proven at once. `false` if the arena is full.
    fn expand(&mut self, node: usize, board: &G) -> bool {
        let first = self.nodes.len();
        let expansion = self.eval.expansion(board, self.prior);
        for index in board.legal_indices() {
            if self.nodes.len() == self.cap {
                self.nodes.truncate(first);
                return false;
            }
            let mut after = *board;
            let ended = after.apply_index(index);
            let proof = match ended {
                None => Proof::Unknown,
                Some(Ended::Won) => Proof::Win,
                Some(Ended::Lost) => Proof::Loss,
                Some(Ended::Drawn) => Proof::Draw,
            };
            let (visits, score) = self.eval.prior(
                board,
                &after,
                index,
                ended.is_some(),
                self.prior,
                &expansion,
            );
            self.nodes.push(Node {
                mv: index,
                proof,
                plies: 1,
                visits,
                score,
                ..ROOT
            });
        }
        self.rng.shuffle(&mut self.nodes[first..]);
        if self.policy_weight > 0.0 {
            self.shares.resize(self.nodes.len(), NOT_YET);
        }
        if self.minimax > 0.0 {
            self.estimate_new(first);
        }
        self.nodes[node].first = first as u32;
        self.nodes[node].count =
            u8::try_from(self.nodes.len() - first).expect("at most 255 moves a position");
        true
    }

    /// Gives the children of `node`, whose position is `board`, the shares the policy gives
    /// their moves (0 each without a policy).
    fn ask_policy(&mut self, node: usize, board: &G) {
        let mut shares = [0.0; 256];
        self.eval.policy(board, &mut shares);
        for i in self.children(node) {
            self.shares[i] = shares[usize::from(self.nodes[i].mv)];
        }
    }

    /// Proves `node` from its children if it can; `true` if it was unproven and now is.
    fn update_proof(&mut self, node: usize) -> bool {
        if self.nodes[node].proof != Proof::Unknown {
            return false;
        }
        let mut quickest_win: Option<u8> = None;
        let mut slowest_loss = 0u8;
        let mut draw = false;
        let mut all = true;
        for i in self.children(node) {
            let c = self.nodes[i];
            match c.proof {
                Proof::Win => quickest_win = Some(quickest_win.map_or(c.plies, |q| q.min(c.plies))),
                Proof::Loss => slowest_loss = slowest_loss.max(c.plies),
                Proof::Draw => draw = true,
                Proof::Unknown => all = false,
            }
        }
        let n = &mut self.nodes[node];
        // The children's results are the chooser's; the node's are its mover's, one ply more.
        if let Some(q) = quickest_win {
            (n.proof, n.plies) = (Proof::Loss, q + 1);
        } else if !all {
            return false;
        } else if draw {
            (n.proof, n.plies) = (Proof::Draw, 1);
        } else {
            (n.proof, n.plies) = (Proof::Win, slowest_loss + 1);
        }
        true
    }

    /// The value the last search proved for the root's move `mv` (for the side to move at
    /// the root), if it proved one.
    pub fn proven_move(&self, mv: G::Move) -> Option<Value> {
        self.root?;
        self.children(0)
            .map(|i| self.entry(i))
            .find(|&(m, v)| m == mv && v.is_proven())
            .map(|(_, v)| v)
    }

    /// A root move and its value, for the side to move at the root.
    fn entry(&self, i: usize) -> (G::Move, Value) {
        let c = self.nodes[i];
        (self.root.expect("a search ran").move_at(c.mv), value_of(c))
    }

    /// The move to play (see [`choose_among`]).
    fn best(&self) -> Choice<G::Move> {
        choose_among(&self.root_children())
    }

    /// The root's children: each move with its node.
    fn root_children(&self) -> Vec<(G::Move, Node)> {
        let root = self.root.expect("a search ran");
        self.children(0)
            .map(|i| (root.move_at(self.nodes[i].mv), self.nodes[i]))
            .collect()
    }
}

/// Visit counts below this have their logarithm, and the reciprocal and reciprocal square root
/// the walk down needs, in tables ([`VisitTables`]).
const LOGGED: usize = 1024;

/// For each visit count `v` below [`LOGGED`]: `ln(max(v, 1))`, `1 / max(v, 1)` and
/// `1 / √max(v, 1)`, worked out on every walk down for each node walked through or each of
/// its children. Most of them have few visits, and a table gives the same numbers as working
/// them out does, bit for bit, without its cost.
#[derive(Debug)]
struct VisitTables {
    ln: [f32; LOGGED],
    reciprocal: [f32; LOGGED],
    root_reciprocal: [f32; LOGGED],
}

static VISIT_TABLES: LazyLock<VisitTables> = LazyLock::new(|| {
    let of = |f: fn(f32) -> f32| std::array::from_fn(|v| f(v.max(1) as f32));
    VisitTables {
        ln: of(f32::ln),
        reciprocal: of(|v| 1.0 / v),
        root_reciprocal: of(|v| 1.0 / v.sqrt()),
    }
});

/// `ln(max(visits, 1))`, the logarithm in UCB1's exploration term.
fn ln_visits(visits: u32) -> f32 {
    match VISIT_TABLES.ln.get(visits as usize) {
        Some(&log) => log,
        None => (visits as f32).ln(),
    }
}

/// What the walk down adds to a child's win rate at a node: UCB1's exploration and the
/// policy's bonus (see [`Mcts::with_policy`]), the parts of them that the node's children
/// share worked out once.
#[derive(Clone, Copy, Debug)]
struct BonusTerms {
    /// `c × √ln(N)`, of the parent's visits `N`.
    exploration: f32,
    /// `w × √N`, 0 without a policy.
    policy: f32,
    /// Looked up once a node rather than once a child.
    tables: &'static VisitTables,
}

impl BonusTerms {
    /// The bonus of a child of `visits` visits whose move has the policy's share `share` (at
    /// most 0, no policy's bonus, before its parent asked): `c × √(ln N / n) + w × share ×
    /// √N / (1 + n)`.
    #[inline]
    fn bonus(self, visits: u32, share: f32) -> f32 {
        let n = visits.max(1);
        let root = self
            .tables
            .root_reciprocal
            .get(n as usize)
            .copied()
            .unwrap_or_else(|| 1.0 / (n as f32).sqrt());
        let mut bonus = self.exploration * root;
        if share > 0.0 {
            let next = u64::from(visits) + 1;
            let reciprocal = usize::try_from(next)
                .ok()
                .and_then(|i| self.tables.reciprocal.get(i))
                .copied()
                .unwrap_or_else(|| 1.0 / next as f32);
            bonus += self.policy * share * reciprocal;
        }
        bonus
    }
}

impl<G: SearchGame, E: Evaluator<G>> Mcts<G, E> {
    /// The bonus terms of a node of `visits` visits.
    fn bonus_terms(&self, visits: u32) -> BonusTerms {
        BonusTerms {
            exploration: self.exploration * ln_visits(visits).sqrt(),
            policy: self.policy_weight * (visits as f32).sqrt(),
            tables: &VISIT_TABLES,
        }
    }
}

/// What a root child is worth to the side to move at the root.
fn value_of(c: Node) -> Value {
    match c.proof {
        Proof::Win => Value::Win(u32::from(c.plies)),
        Proof::Loss => Value::Loss(u32::from(c.plies)),
        Proof::Draw => Value::Draw,
        Proof::Unknown if c.visits == 0 => Value::WinRate(500),
        Proof::Unknown => Value::win_rate(c.score as f32 / (2 * HALF * c.visits) as f32),
    }
}

/// The move to play among the root's `children`: the most visited unproven move, unless the
/// best proven move is worth more than its win rate (a proven win always is; a proven draw is
/// when the rate is below ½); the slowest loss when all moves lose.
fn choose_among<M: Copy>(children: &[(M, Node)]) -> Choice<M> {
    let unproven = children
        .iter()
        .filter(|(_, n)| n.proof == Proof::Unknown)
        .max_by_key(|(_, n)| n.visits);
    let proven = children
        .iter()
        .filter(|(_, n)| n.proof != Proof::Unknown)
        .max_by_key(|(_, n)| value_of(*n));
    let &(mv, node) = match (unproven, proven) {
        (Some(u), Some(p)) if value_of(p.1) > value_of(u.1) => p,
        (Some(u), _) => u,
        (None, Some(p)) => p,
        (None, None) => unreachable!("the root of a game in progress has moves"),
    };
    Choice {
        mv,
        value: value_of(node),
    }
}

/// `board` after the move with index `mv`, which must be legal.
fn played<G: SearchGame>(board: &G, mv: u8) -> G {
    let mut after = *board;
    after.apply_index(mv);
    after
}

impl Mcts {
    /// The move made with `effort` on `board` within `budget` (used by `Hard` only), or `None`
    /// once the game is over or when cancelled.
    pub fn choose(
        &mut self,
        effort: Effort,
        board: &UltimateBoard,
        budget: Duration,
    ) -> Option<Move> {
        match effort {
            Effort::Easy => {
                let moves = board.legal_moves();
                if moves.is_empty() {
                    None
                } else {
                    moves.nth(self.rng.usize(..moves.len()))
                }
            }
            Effort::Medium => {
                let mut quick = Mcts::new(Some(self.rng.u64(..)))
                    .with_node_cap(1 << 16)
                    .with_settings(Settings {
                        prior_visits: 0,
                        ..Settings::FROZEN
                    });
                quick.set_cancel(self.cancel.clone());
                quick
                    .think_iterations(board, MEDIUM_ITERATIONS)
                    .map(|c| c.mv)
            }
            Effort::Playouts(n) => {
                let mut quick = Mcts::new(Some(self.rng.u64(..)))
                    .with_node_cap(1 << 16)
                    .with_settings(Settings::FROZEN);
                quick.set_cancel(self.cancel.clone());
                quick.think_iterations(board, n.max(1)).map(|c| c.mv)
            }
            Effort::Hard => self.think(board, budget).map(|c| c.mv),
        }
    }
}

mod leaf;
use leaf::x_units;
pub use leaf::{Leaf, Prior, UltimateEval};
mod parallel;
pub use parallel::Parallel;
mod minimax;
mod quicker;
pub use quicker::QUICKER_WIN_ITERATIONS;
mod tree;
pub use tree::{NodeView, Proven, TreeView};
mod step;
pub use step::{Candidate, Ending, Iteration, Score, Walked};
