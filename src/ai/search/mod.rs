//! The AI's search: negamax with alpha-beta, a transposition table keyed by the position's
//! canonical symmetric image, move ordering, threat detection, pairing strategies as proofs,
//! and iterative deepening under a time budget with a heuristic evaluation at the horizon.
//!
//! `value.rs` defines scores and [`Value`]s (the invariant every score keeps is documented
//! there), `table.rs` the transposition table, `order.rs` the move ordering, `eval.rs` what
//! the lines say about a position and `pairing.rs` pairing strategies. This file is the
//! [`Searcher`]: time control and the recursive search.
//!
//! # Proofs
//! A search to the end with a window around zero is a depth-first AND/OR proof: it asks
//! whether the side to move wins, and whether it loses, and its memory is the table alone.
//! Pairings cut it three ways (`pairing_bound`, `pairing_move` and `restriction` below): a
//! side holding one cannot lose; when a draw is enough, a move that gives the side to move
//! one settles the node; when only a win counts, a move that lets the opponent take one with
//! its reply cannot win and is not searched. Forced replies come from `eval.rs`: a line one
//! move from done must be blocked, two cannot be.

mod budget;
mod eval;
mod mirror;
mod order;
mod pairing;
mod shared;
mod strategies;
mod table;
mod threads;
mod value;

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::Duration;

use crate::rules::classic::geometry::Symmetry;
use crate::rules::classic::{Board, Cell, Geometry, Outcome, bit_indices};
pub use budget::{Meter, WORK_PER_MS};
use budget::{Start, Stop};
use eval::{evaluate, scan};
use mirror::Mirror;
use order::MoveOrder;
pub use pairing::Pairing;
use shared::Store;
use strategies::Yield;
pub use strategies::{mirror, pairing};
use table::{Bound, Entry, Key, PROVEN, Probe};
pub use value::Value;
use value::{DECIDED, INF, WIN};

/// Remaining depth that reaches every end of the game: no horizon.
const FULL: u32 = 64;
/// Nodes with at most this many empty cells are searched without the table or move ordering.
const LEAN_EMPTIES: i32 = 4;
/// Nodes with at least this many empty cells look for pairing strategies; below, searching
/// the few moves left is cheaper.
const PAIRING_EMPTIES: i32 = 10;
/// Work between two looks at the clock and the cancel flag (well under a millisecond).
const CLOCK_INTERVAL: u64 = 2048;
/// Work of one position visited by the search: it costs about five nodes of a pairing search.
pub const POSITION_WORK: u64 = 5;
/// Work of one node of a pairing search (a search's setup counts as several).
const PAIRING_NODE_WORK: u64 = 1;
/// How many of its moves [`Searcher::pairing_move`] tries.
const PAIRING_MOVE_TRIES: usize = 12;
/// Once the pairing searches of [`Searcher::pairing_bound`] almost never succeed, only one
/// node in this many makes them (the others keep counting, so the rate stays current).
const BOUND_SAMPLE: u32 = 64;
/// How many opponent replies [`Searcher::restriction`] tries.
const RESTRICT_TRIES: usize = 8;

/// What a timed search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thought {
    pub cell: Cell,
    /// Proven, or an estimate from the deepest completed depth.
    pub value: Value,
}

/// The default size of the transposition table.
pub const DEFAULT_TABLE_MB: u16 = 64;

/// A node of the recursive search: the side to move's cells and the other side's, how deep
/// to search below it, and the cells that would complete a line of the side to move.
#[derive(Clone, Copy)]
struct Node {
    me: u64,
    opp: u64,
    depth: u32,
    completing: u64,
}

/// Where a node lives in the table: its key, its slot, and the move the table suggests (in
/// the node's own orientation).
struct Stored {
    key: Key,
    slot: Probe,
    first: Option<usize>,
}

/// A search window: scores at or below `alpha` or at or above `beta` are only bounds.
#[derive(Clone, Copy)]
struct Window {
    alpha: i32,
    beta: i32,
}

impl Window {
    /// The same window seen from the other side.
    fn flip(self) -> Window {
        Window {
            alpha: -self.beta,
            beta: -self.alpha,
        }
    }
}

/// A reusable searcher. It keeps its transposition table between calls on boards of the same
/// rules, so an AI that moves several times in one game reuses earlier work.
pub struct Searcher {
    table: Store,
    /// Threads a search runs on: this one and `threads - 1` helpers sharing its table.
    threads: usize,
    max_bytes: usize,
    geom: Option<&'static Geometry>,
    misere: bool,
    /// Work done: [`POSITION_WORK`] per position visited, [`PAIRING_NODE_WORK`] per node of a
    /// pairing search.
    nodes: u64,
    /// The clock and the cancel flag are looked at once `nodes` reaches this.
    next_check: u64,
    /// When the search in progress stops.
    stop: Stop,
    /// How budgets are spent: by the clock or by work.
    meter: Meter,
    /// Raised by another thread to stop the search at once.
    cancel: Option<Arc<AtomicBool>>,
    /// Set when a heuristic leaf (or an entry resting on one) was used: the score is not
    /// proven.
    horizon: bool,
    order: MoveOrder,
    /// The last pairing found for the side to move at a root, kept while it holds: the AI
    /// answers from it at once.
    pairing: Option<Pairing>,
    /// The board's mirror strategies, under misère rules (see `mirror.rs`).
    mirrors: Vec<Mirror>,
    /// A root move proven to score at least a draw by the search to the end in progress, kept
    /// even if that search is cut off.
    safe: Option<usize>,
    /// How often looking for a move that takes a pairing succeeds.
    move_yield: Yield,
    /// How often the pairing searches of [`Searcher::pairing_bound`] succeed, and how many
    /// nodes passed them by since they became rare.
    bound_yield: Yield,
    bound_passed: u32,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher::with_table_mb(usize::from(DEFAULT_TABLE_MB))
    }

    /// A searcher whose table takes at most `mb` MiB (at least one bucket).
    pub fn with_table_mb(mb: usize) -> Searcher {
        Searcher {
            table: Store::Own(table::Table::unallocated()),
            threads: 1,
            max_bytes: mb.saturating_mul(1 << 20),
            geom: None,
            misere: false,
            nodes: 0,
            next_check: 0,
            stop: Stop::Never,
            meter: Meter::Clock,
            cancel: None,
            horizon: false,
            order: MoveOrder::new(0),
            pairing: None,
            mirrors: Vec::new(),
            safe: None,
            move_yield: Yield::default(),
            bound_yield: Yield::default(),
            bound_passed: 0,
        }
    }

    /// From now on, every search stops within a fraction of a millisecond once `flag` is
    /// raised; a cancelled search returns `None` (see [`Searcher::think`]) or a meaningless
    /// value, and the caller is expected to throw it away. `None` removes the flag.
    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.cancel = flag;
    }

    /// Whether the cancel flag is raised.
    pub fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(AtomicOrdering::Relaxed))
    }

    /// Spends every budget given from now on by `meter`: with [`Meter::Work`] a search's
    /// result depends only on the position and on the searches before it, never on the
    /// clock, so a game replays exactly.
    pub fn set_meter(&mut self, meter: Meter) {
        self.meter = meter;
    }

    /// Work done so far by this searcher: five per position visited, one per node of a pairing
    /// search and eight per pairing search begun (what [`Meter::Work`] counts).
    pub fn work(&self) -> u64 {
        self.nodes
    }

    /// Makes the table fit the board's rules, clearing it if the rules changed.
    fn prepare(&mut self, board: &Board) -> &'static Geometry {
        let geom = board.geometry();
        let same = self.geom.is_some_and(|g| std::ptr::eq(g, geom));
        if !same || self.misere != board.rules().misere() {
            // Small boards need few entries, and a small table is quick to allocate.
            let cap: usize = match geom.cells {
                0..=9 => 1 << 8,
                10..=16 => 1 << 18,
                _ => usize::MAX,
            };
            self.table = self.new_table(cap);
            self.geom = Some(geom);
            self.misere = board.rules().misere();
            self.order = MoveOrder::new(usize::from(geom.cells));
            self.pairing = None;
            self.move_yield = Yield::default();
            self.bound_yield = Yield::default();
            self.bound_passed = 0;
            self.mirrors = if self.misere {
                mirror::mirrors(geom)
            } else {
                Vec::new()
            };
        }
        geom
    }

    /// Whether the budget is spent or the cancel flag is up.
    fn out_of_time(&self) -> bool {
        self.stop.reached(self.nodes) || self.cancelled()
    }

    /// The proven value of the position for the side to move, or `None` if the game is over.
    /// Searches to the end of the game, however long that takes.
    pub fn value(&mut self, board: &Board) -> Option<Value> {
        self.think(board, None).map(|t| t.value)
    }

    /// One best move and its proven value (`None` once the game is over). Searches to the
    /// end of the game, however long that takes.
    pub fn best_move(&mut self, board: &Board) -> Option<(Cell, Value)> {
        self.think(board, None).map(|t| (t.cell, t.value))
    }

    /// Every legal move with its proven value, in cell order; empty once the game is over.
    /// Searches to the end of the game, however long that takes.
    pub fn analyze(&mut self, board: &Board) -> Vec<(Cell, Value)> {
        board
            .legal_moves()
            .into_iter()
            .map(|c| (c, self.move_value(board, c, None)))
            .collect()
    }

    /// Every legal move's value, each searched for an equal share of `budget`: proven where
    /// the search reached every end of the game in time, an estimate where it did not.
    pub fn analyze_within(&mut self, board: &Board, budget: Duration) -> Vec<(Cell, Value)> {
        let moves = board.legal_moves();
        let start = Start::now(self.nodes);
        let mut out = Vec::with_capacity(moves.len());
        for (i, &cell) in moves.iter().enumerate() {
            let left = self.meter.left(start, self.nodes, budget);
            let share = left / (moves.len() - i) as u32;
            out.push((cell, self.move_value(board, cell, Some(share))));
        }
        out
    }

    /// The value of playing `cell` for the side to move, searched within `budget` (or to the
    /// end of the game with `None`). A cancelled search gives a meaningless estimate.
    ///
    /// # Panics
    /// If the move is illegal.
    pub fn move_value(&mut self, board: &Board, cell: Cell, budget: Option<Duration>) -> Value {
        let child = board
            .with_move(cell)
            .expect("move_value takes a legal move");
        let mover = board.to_move();
        match child.outcome() {
            Outcome::Won { winner, .. } if winner == mover => Value::Win(1),
            Outcome::Won { .. } => Value::Loss(1),
            Outcome::Draw => Value::Draw,
            Outcome::InProgress => {
                let Some(t) = self.think(&child, budget) else {
                    return Value::Estimate(0); // cancelled: the caller discards it
                };
                t.value.before()
            }
        }
    }

    /// Searches for the best move within `budget` (to the end of the game with `None`). When
    /// both sides hold pairings the position is a draw, and the move that keeps ours is the
    /// answer at once. Otherwise the first ply is always searched in full, so an immediate win
    /// or a forced block is never missed; then a search to the end of the game gets three
    /// quarters of the budget; if it
    /// does not finish, iterative deepening uses the rest, and the deepest completed depth
    /// gives the move and an estimate. Returns `None` once the game is over, and when the
    /// search was cancelled (see [`Searcher::set_cancel`]).
    pub fn think(&mut self, board: &Board, budget: Option<Duration>) -> Option<Thought> {
        if board.outcome() != Outcome::InProgress {
            return None;
        }
        let geom = self.prepare(board);
        let (me, opp) = sides(board);
        let empties = (geom.full & !(me | opp)).count_ones();
        let start = Start::now(self.nodes);
        self.stop = Stop::Never;
        self.safe = None;
        if let Some(cell) = self.drawn_by_pairings(geom, me, opp) {
            let cell = board.cell(cell).expect("pairing cells are on the board");
            return Some(Thought {
                cell,
                value: Value::Draw,
            });
        }
        let found = self.with_helpers(board, |s| match budget {
            None => s.iteration(board, FULL),
            Some(budget) => s.timed(board, empties, start, budget),
        });
        self.stop = Stop::Never;
        found.map(|t| self.proven_bounds(geom, board, t))
    }

    /// [`Searcher::think`] with a budget: the first ply, then a proof to the end of the game
    /// with up to three quarters of the budget, then iterative deepening with the rest.
    fn timed(
        &mut self,
        board: &Board,
        empties: u32,
        start: Start,
        budget: Duration,
    ) -> Option<Thought> {
        // No deadline yet: only a cancel stops the first ply.
        let mut found = self.iteration(board, 1)?;
        if found.value.is_proven() {
            return Some(found);
        }
        self.stop = self.meter.stop(start, budget * 3 / 4);
        if let Some(t) = self.iteration(board, FULL) {
            return Some(t);
        }
        self.stop = self.meter.stop(start, budget);
        for depth in 2..empties {
            let Some(t) = self.iteration(board, depth) else {
                break;
            };
            found = t;
            if found.value.is_proven() {
                break;
            }
        }
        Some(found)
    }

    /// One root search to `depth`; `None` if the deadline or a cancel cut it short.
    fn iteration(&mut self, board: &Board, depth: u32) -> Option<Thought> {
        let (me, opp) = sides(board);
        self.horizon = false;
        let (score, best) = self.root(me, opp, depth)?;
        let proven = !self.horizon || score.abs() > DECIDED;
        let cell = board.cell(best).expect("search moves are on the board");
        let value = Value::from_score(score, board.marks(), proven);
        Some(Thought { cell, value })
    }

    /// The moves that share the position's best value, as far as `budget` allows to prove
    /// it: all of them when the value is proven in time, else the one best move found.
    pub fn best_moves(&mut self, board: &Board, budget: Option<Duration>) -> Vec<Cell> {
        let start = Start::now(self.nodes);
        let Some(thought) = self.think(board, budget) else {
            return Vec::new();
        };
        if !thought.value.is_proven() {
            return vec![thought.cell];
        }
        let mut best = vec![thought.cell];
        let target = thought.value;
        for cell in board.legal_moves() {
            if cell == thought.cell {
                continue;
            }
            let left = budget.map(|b| self.meter.left(start, self.nodes, b));
            if left.is_some_and(|l| l.is_zero()) {
                break;
            }
            if self.reaches(board, cell, target, left) == Some(true) {
                best.push(cell);
            }
        }
        best
    }

    /// Whether playing `cell` is worth at least `target` (a proven value), or `None` if the
    /// budget ran out first.
    fn reaches(
        &mut self,
        board: &Board,
        cell: Cell,
        target: Value,
        budget: Option<Duration>,
    ) -> Option<bool> {
        let child = board.with_move(cell).expect("a legal move");
        let mover = board.to_move();
        match child.outcome() {
            Outcome::Won { winner, .. } if winner == mover => return Some(target <= Value::Win(1)),
            Outcome::Won { .. } => return Some(target <= Value::Loss(1)),
            Outcome::Draw => return Some(target <= Value::Draw),
            Outcome::InProgress => {}
        }
        // The move's score is at least the target's iff the child's score (negated) is.
        let goal = target.score(board.marks());
        self.prepare(&child);
        let (me, opp) = sides(&child);
        self.stop = budget.map_or(Stop::Never, |b| self.meter.stop(Start::now(self.nodes), b));
        self.horizon = false;
        let window = Window {
            alpha: -goal,
            beta: -goal + 1,
        };
        let score = self.negamax(me, opp, FULL, window).map(|s| -s);
        self.stop = Stop::Never;
        score.map(|s| s >= goal)
    }

    /// Searches every root move to `depth`; returns the best score and cell index, or `None`
    /// if time ran out.
    ///
    /// It first asks only whether the position is won, drawn or lost (a window around a
    /// draw), which is far cheaper than exact distances when the answer is a draw, and then
    /// narrows a win or a loss to its exact distance.
    fn root(&mut self, me: u64, opp: u64, depth: u32) -> Option<(i32, usize)> {
        let (score, cell) = self.root_window(me, opp, depth, Window { alpha: -1, beta: 1 })?;
        if score == 0 {
            return Some((score, cell));
        }
        let window = if score >= 1 {
            Window {
                alpha: 0,
                beta: INF,
            }
        } else {
            Window {
                alpha: -INF,
                beta: 0,
            }
        };
        self.root_window(me, opp, depth, window)
    }

    /// [`Searcher::root`] within `window`: fail-soft, so a score at or beyond a bound is a
    /// bound.
    fn root_window(
        &mut self,
        me: u64,
        opp: u64,
        depth: u32,
        mut window: Window,
    ) -> Option<(i32, usize)> {
        let geom = self.geom.expect("prepare() runs before the search");
        let empty = geom.full & !(me | opp);
        // The table's best move from an earlier depth goes first.
        let key = Key::of(geom, me, opp, true);
        let first = self
            .table
            .probe(key)
            .entry
            .map(|e| usize::from(geom.symmetries[key.sym].inverse[e.best]));
        let ply = (me | opp).count_ones() as usize;
        let completing = scan(geom, me, opp, self.order.weights(ply)).my_threats;
        let mut moves = self.order.order(geom, ply, empty, first, self.misere);
        let mut best = (-INF, usize::MAX);
        // Moves that a symmetry of the position maps onto each other have one value.
        let stabiliser: Vec<&Symmetry> = geom
            .symmetries
            .iter()
            .skip(1)
            .filter(|s| s.apply(me) == me && s.apply(opp) == opp)
            .collect();
        let node = Node {
            me,
            opp,
            depth,
            completing,
        };
        let mut seen = 0u64;
        while let Some(c) = self.order.next(ply, &mut moves) {
            if seen & (1 << c) != 0 {
                continue;
            }
            for s in &stabiliser {
                seen |= 1 << s.map[c];
            }
            let score = self.child_score(geom, &node, c, window)?;
            if depth == FULL && score >= 0 && score > window.alpha && self.safe.is_none() {
                // Above alpha a fail-soft score is exact or a lower bound, and a search to
                // the end proves it.
                self.safe = Some(c);
            }
            if score > best.0 {
                best = (score, c);
                window.alpha = window.alpha.max(score);
                if window.alpha >= window.beta {
                    break;
                }
            }
        }
        Some(best)
    }

    /// The score, for the side to move at `node`, of marking cell `c`; `None` if time ran out.
    #[inline]
    fn child_score(
        &mut self,
        geom: &Geometry,
        node: &Node,
        c: usize,
        window: Window,
    ) -> Option<i32> {
        let (mine, opp) = (node.me | (1 << c), node.opp);
        let marks = (mine | opp).count_ones() as i32;
        let score = if node.completing & (1 << c) != 0 {
            if self.misere {
                -(WIN - marks)
            } else {
                WIN - marks
            }
        } else if mine | opp == geom.full {
            0
        } else if (mine | opp).count_ones() + 1 == u32::from(geom.cells) {
            // One cell left: the opponent must take it, and that either completes its line
            // or draws.
            let last = (geom.full & !(mine | opp)).trailing_zeros() as usize;
            if !geom.completes(opp | (1 << last), last) {
                0
            } else if self.misere {
                WIN - (marks + 1)
            } else {
                -(WIN - (marks + 1))
            }
        } else {
            -self.negamax(opp, mine, node.depth - 1, window.flip())?
        };
        Some(score)
    }

    /// The search of a node near the end: its `candidates` in cell order, no table.
    #[inline]
    fn lean(
        &mut self,
        geom: &Geometry,
        node: &Node,
        candidates: u64,
        mut window: Window,
    ) -> Option<i32> {
        let mut best = -INF;
        for c in bit_indices(candidates) {
            let score = self.child_score(geom, node, c, window)?;
            best = best.max(score);
            window.alpha = window.alpha.max(score);
            if window.alpha >= window.beta {
                break;
            }
        }
        Some(best)
    }

    /// The absolute score of an unfinished position for the side to move (`me`), searched
    /// `depth` plies deep: exact when it lies strictly inside `window`, otherwise a bound on
    /// the same side; `None` if time ran out.
    fn negamax(&mut self, me: u64, opp: u64, depth: u32, window: Window) -> Option<i32> {
        self.nodes += POSITION_WORK;
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CLOCK_INTERVAL;
            self.table.refresh();
            if self.out_of_time() {
                return None;
            }
        }
        let Window {
            mut alpha,
            mut beta,
        } = window;
        let geom = self.geom.expect("prepare() runs before the search");
        let m = (me | opp).count_ones() as i32;
        let empty = geom.full & !(me | opp);
        let ply = m as usize;
        let scan = scan(geom, me, opp, self.order.weights(ply));
        let mut candidates = empty;
        if let Some(settled) =
            scan.settle(geom, self.misere, m, &mut alpha, &mut beta, &mut candidates)
        {
            return Some(settled);
        }
        if let Some(settled) = self.mirror_bound(geom, me, opp, &mut alpha, &mut beta) {
            return Some(settled);
        }
        if depth == 0 {
            self.horizon = true;
            return Some(evaluate(geom, me, opp, self.misere));
        }
        let node = Node {
            me,
            opp,
            depth,
            completing: scan.my_threats,
        };

        // Near the end the table and the ordering cost more than searching the few moves left.
        if i32::from(geom.cells) - m <= LEAN_EMPTIES {
            return self.lean(geom, &node, candidates, Window { alpha, beta });
        }

        let key = Key::of(geom, me, opp, m <= geom.canon_marks);
        let probe = self.table.probe(key);
        let mut first = None;
        if let Some(e) = probe.entry {
            first = Some(usize::from(geom.symmetries[key.sym].inverse[e.best]));
            if e.serves(depth) {
                if !e.is_proven() {
                    self.horizon = true;
                }
                if let Some(score) = e.cutoff(&mut alpha, &mut beta) {
                    return Some(score);
                }
            }
        }

        let at = Stored {
            key,
            slot: probe,
            first,
        };
        if let Some(bound) = self.pairing_bound(geom, me, opp, &mut alpha, &mut beta) {
            let best = first.unwrap_or(empty.trailing_zeros() as usize);
            self.record(geom, &at, 0, bound, PROVEN, best);
            return Some(0);
        }
        let busy = self.table.enter(me, opp, empty);
        let score = self.expand(geom, &node, &at, candidates, Window { alpha, beta });
        if busy {
            self.table.leave(me, opp);
        }
        score
    }

    /// The best score among a node's `moves` (ordered by [`MoveOrder::order`]) and its cell,
    /// and whether moves were skipped, each worth a draw at most; `None` if time ran out. On
    /// several threads a move whose position another thread is searching waits until the
    /// others are done: by then that thread's result is often in the table.
    #[inline]
    fn moves(
        &mut self,
        geom: &Geometry,
        node: &Node,
        mut moves: usize,
        restrictable: bool,
        Window { mut alpha, beta }: Window,
    ) -> Option<(i32, usize, bool)> {
        let (me, opp) = (node.me, node.opp);
        let ply = (me | opp).count_ones() as usize;
        let (mut best_score, mut best_cell) = (-INF, 0usize);
        let mut allowed = None;
        let mut skipped = false;
        let mut deferred = 0u64;
        loop {
            let c = match self.order.next(ply, &mut moves) {
                Some(c) => c,
                None if deferred != 0 => {
                    let c = deferred.trailing_zeros() as usize;
                    deferred &= deferred - 1;
                    c
                }
                None => break,
            };
            if restrictable && alpha >= 0 {
                let allowed =
                    *allowed.get_or_insert_with(|| self.restriction(geom, me, opp, ply, moves + 1));
                if allowed & (1 << c) == 0 {
                    if best_score == -INF {
                        best_cell = c;
                    }
                    skipped = true;
                    continue;
                }
            }
            if moves > 0 && best_score > -INF && self.table.busy(opp, me | (1 << c)) {
                deferred |= 1 << c;
                continue;
            }
            let score = self.child_score(geom, node, c, Window { alpha, beta })?;
            if score > best_score {
                best_score = score;
                best_cell = c;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.order.reward(c, node.depth);
                        break;
                    }
                }
            }
        }
        Some((best_score, best_cell, skipped))
    }

    /// Stores a node's result in the table: `best` is a cell of the node's own orientation.
    #[inline]
    fn record(
        &mut self,
        geom: &Geometry,
        at: &Stored,
        score: i32,
        bound: Bound,
        depth: u32,
        best: usize,
    ) {
        let entry = Entry {
            score,
            bound,
            depth,
            best: usize::from(geom.symmetries[at.key.sym].map[best]),
        };
        self.table.store(at.slot, at.key, entry);
    }

    /// The moves of a node the table did not settle: its `candidates`, best first, within
    /// `window`; the result goes to the table.
    #[inline]
    fn expand(
        &mut self,
        geom: &Geometry,
        node: &Node,
        at: &Stored,
        candidates: u64,
        window: Window,
    ) -> Option<i32> {
        let Window { alpha, beta } = window;
        let (me, opp, depth) = (node.me, node.opp, node.depth);
        let empty = geom.full & !(me | opp);
        let ply = (me | opp).count_ones() as usize;
        // Pairings are looked for only while many cells are empty.
        let pairings = empty.count_ones() >= PAIRING_EMPTIES as u32;
        let outer_horizon = std::mem::replace(&mut self.horizon, false);
        let moves = self
            .order
            .order(geom, ply, candidates, at.first, self.misere);
        if beta <= 0 && pairings {
            // A draw is enough: a move after which we hold a pairing settles the node.
            if let Some(c) = self.pairing_move(geom, me, opp, ply, moves) {
                self.record(geom, at, 0, Bound::Lower, PROVEN, c);
                self.horizon = outer_horizon;
                return Some(0);
            }
        }
        let alpha_in = alpha;
        // Once only a win counts, moves the opponent's pairings make harmless are skipped.
        let restrictable = pairings && !self.misere && candidates == empty;
        let (mut best_score, best_cell, skipped) =
            self.moves(geom, node, moves, restrictable, Window { alpha, beta })?;
        if skipped {
            // Each skipped move is worth a draw at most.
            best_score = best_score.max(0);
        }
        let proven = !self.horizon;
        self.horizon |= outer_horizon;
        let bound = if best_score <= alpha_in {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let depth = if proven { PROVEN } else { depth };
        self.record(geom, at, best_score, bound, depth, best_cell);
        Some(best_score)
    }
}

/// The side to move's cells and the other side's.
fn sides(board: &Board) -> (u64, u64) {
    let mover = board.to_move();
    (board.bits(mover), board.bits(mover.other()))
}

/// Every legal move's proven value with a fresh searcher; see [`Searcher::analyze`].
pub fn analyze(board: &Board) -> Vec<(Cell, Value)> {
    Searcher::new().analyze(board)
}

/// One best move with a fresh searcher; see [`Searcher::best_move`].
pub fn best_move(board: &Board) -> Option<(Cell, Value)> {
    Searcher::new().best_move(board)
}

/// The moves of an analysis that share its best value.
pub fn best_of<M: Copy>(analysis: &[(M, Value)]) -> Vec<(M, Value)> {
    let Some(top) = analysis.iter().map(|&(_, v)| v).max() else {
        return Vec::new();
    };
    analysis
        .iter()
        .copied()
        .filter(|&(_, v)| v == top)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::Rules;

    fn board(s: &str) -> Board {
        s.parse().unwrap()
    }

    #[test]
    fn empty_board_is_a_draw() {
        assert_eq!(Searcher::new().value(&Board::default()), Some(Value::Draw));
    }

    #[test]
    fn finished_games_have_no_moves() {
        assert_eq!(Searcher::new().value(&board("XXX/OO./...")), None);
        assert!(analyze(&board("XOX/XOO/OXX")).is_empty());
        assert_eq!(best_move(&board("XXX/OO./...")), None);
    }

    #[test]
    fn best_move_value_matches_analysis() {
        for s in ["X../.../...", ".../.X./...", "X.O/.X./..O", "XO./.../..."] {
            let b = board(s);
            let (cell, v) = best_move(&b).unwrap();
            let all = analyze(&b);
            let top = best_of(&all);
            assert!(
                top.iter().any(|&(c, tv)| c == cell && tv == v),
                "{s}: {cell} {v} vs {top:?}"
            );
            let mut moves = Searcher::new().best_moves(&b, None);
            moves.sort();
            let mut expected: Vec<Cell> = top.iter().map(|&(c, _)| c).collect();
            expected.sort();
            assert_eq!(moves, expected, "{s}");
        }
    }

    #[test]
    fn misere_centre_opening_does_not_lose() {
        // In misère 3×3 the first player draws by taking the centre and mirroring.
        let b = Board::parse_with(".../.../...", None, true).unwrap();
        let all = Searcher::new().analyze(&b);
        let centre = all.iter().find(|(c, _)| c.numpad() == Some(5)).unwrap().1;
        assert_eq!(centre, Value::Draw);
        assert_eq!(Searcher::new().value(&b), Some(Value::Draw));
    }

    #[test]
    fn a_tiny_budget_still_takes_a_win_and_blocks() {
        let rules = Rules::new(7, 5, false).unwrap();
        // X has four in a row on the bottom row with both ends open: X to move wins at once.
        let win = Board::parse_with(
            "......./......./......./......./OOO..../O....../.XXXX..",
            Some(5),
            false,
        )
        .unwrap();
        assert_eq!(win.rules(), rules);
        let t = Searcher::new().think(&win, Some(Duration::ZERO)).unwrap();
        assert_eq!(t.value, Value::Win(1));
        // O to move must block X's four.
        let block = Board::parse_with(
            "......./......./......./......./OOO..../......./XXXX...",
            Some(5),
            false,
        )
        .unwrap();
        let t = Searcher::new().think(&block, Some(Duration::ZERO)).unwrap();
        assert_eq!(t.cell.coordinate(), "e1", "{t:?}");
    }

    #[test]
    fn symmetric_positions_share_a_value() {
        let b = Board::parse_with("X.../..O./..../....", Some(3), false).unwrap();
        let v = Searcher::new().value(&b);
        assert_eq!(v, Some(Value::Win(5)));
        let mirrored = Board::parse_with("...X/.O../..../....", Some(3), false).unwrap();
        assert_eq!(Searcher::new().value(&mirrored), v);
    }
}
