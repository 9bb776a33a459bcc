//! The AI's search: negamax with alpha-beta, a transposition table keyed by the position's
//! canonical symmetric image, move ordering, threat detection, and iterative deepening under a
//! time budget with a heuristic evaluation at the horizon.
//!
//! # Scores
//! Inside the search a score is from the side to move's point of view and *absolute in
//! time*: a game that the side to move wins when the board holds `m` marks scores
//! `WIN - m`, a game it loses scores `-(WIN - m)`, a draw `0`. Because the number of marks
//! on a board is fixed by the position, the same position always has the same score whatever
//! path reached it, so the transposition table needs no adjustment, and plain negation moves
//! a score between the two sides. The bounds `±INF` are mirrored, so negating never
//! overflows. A quicker win scores higher than a slower one and a slower loss higher than a
//! quicker one. Heuristic estimates stay strictly within `±EST_MAX`, far from any decided
//! score, so a decided score is always a proof. At the API a score becomes a [`Value`]
//! counted in plies from the position.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering as AtomicOrdering};
use std::time::{Duration, Instant};

use crate::board::{Board, Cell, Geometry, Outcome, bit_indices};
use crate::geometry::{MAX_CELLS, MAX_LINES, Symmetry};

/// The score of winning on an empty board; every decided game scores within 64 of ±`WIN`.
const WIN: i32 = 1000;
/// Above any score; `-INF` is below any.
const INF: i32 = WIN + 1;
/// Scores beyond ±`DECIDED` are wins and losses.
const DECIDED: i32 = WIN - 64;
/// Heuristic estimates lie strictly within ±`EST_MAX`.
const EST_MAX: i32 = 500;
/// Remaining depth that reaches every end of the game: no horizon.
const FULL: u32 = 64;
/// Nodes with at most this many empty cells are searched without the table or move ordering.
const LEAN_EMPTIES: i32 = 4;
/// With at most this many empty cells, a timed search first tries to reach every end.
const FULL_ATTEMPT_EMPTIES: u32 = 25;
/// Stored depth of an entry whose score is proven, not estimated.
const PROVEN: u32 = 255;

/// The value of a position or a move for the side that is to play it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Wins; the game ends that many plies from now (a move that completes a line: `Win(1)`).
    Win(u32),
    Draw,
    /// Loses; the game ends that many plies from now.
    Loss(u32),
    /// Not proven: a heuristic estimate from a search cut off by its time budget. Positive
    /// favours the side to move; always below any win and above any loss.
    Estimate(i32),
}

impl Value {
    /// A score relative to now: higher is better for the side to move.
    fn relative(self) -> i32 {
        match self {
            Value::Win(n) => WIN - n as i32,
            Value::Draw => 0,
            Value::Loss(n) => -(WIN - n as i32),
            Value::Estimate(e) => e,
        }
    }

    /// The value of an absolute score at a position holding `marks` marks.
    fn from_score(score: i32, marks: u32, proven: bool) -> Value {
        let m = marks as i32;
        if score > DECIDED {
            Value::Win((WIN - score - m) as u32)
        } else if score < -DECIDED {
            Value::Loss((WIN + score - m) as u32)
        } else if proven && score == 0 {
            Value::Draw
        } else {
            Value::Estimate(score)
        }
    }

    /// The absolute score of this value at a position holding `marks` marks: the inverse of
    /// [`Value::from_score`] (an estimate is its own score).
    fn score(self, marks: u32) -> i32 {
        let m = marks as i32;
        match self {
            Value::Win(n) => WIN - (m + n as i32),
            Value::Loss(n) => -(WIN - (m + n as i32)),
            Value::Draw => 0,
            Value::Estimate(e) => e,
        }
    }

    /// Whether the value is proven by search to the end of the game.
    pub fn is_proven(self) -> bool {
        !matches!(self, Value::Estimate(_))
    }
}

impl Ord for Value {
    /// Better for the side to move is greater: quick wins, then slow wins, draws, slow losses,
    /// quick losses.
    fn cmp(&self, other: &Self) -> Ordering {
        self.relative().cmp(&other.relative())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Draw => write!(f, "draw"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Estimate(e) => write!(f, "estimate {e:+}"),
        }
    }
}

/// What a timed search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thought {
    pub cell: Cell,
    /// Proven, or an estimate from the deepest completed depth.
    pub value: Value,
}

// A table entry is three words: the two keys and the packed rest, so a fresh table is all
// zeros (the allocator hands those out lazily, and bound 0 means empty).
const BOUND_EXACT: u64 = 1;
const BOUND_LOWER: u64 = 2;
const BOUND_UPPER: u64 = 3;

fn pack(score: i32, bound: u64, depth: u32, best: usize) -> u64 {
    u64::from(score as i16 as u16)
        | (bound << 16)
        | (u64::from(depth.min(PROVEN)) << 24)
        | ((best as u64) << 32)
}

struct Entry {
    score: i32,
    bound: u64,
    depth: u32,
    best: usize,
}

fn unpack(word: u64) -> Entry {
    Entry {
        score: i32::from(word as u16 as i16),
        bound: (word >> 16) & 3,
        depth: ((word >> 24) & 0xFF) as u32,
        best: ((word >> 32) & 0xFF) as usize,
    }
}

/// The default size of the transposition table.
pub const DEFAULT_TABLE_MB: u16 = 64;

/// A reusable searcher. It keeps its transposition table between calls on boards of the same
/// rules, so an AI that moves several times in one game reuses earlier work.
pub struct Searcher {
    table: Vec<[u64; 3]>,
    mask: usize,
    max_bytes: usize,
    geom: Option<&'static Geometry>,
    misere: bool,
    /// Positions visited, counted to look at the clock and the cancel flag now and then.
    nodes: u64,
    deadline: Option<Instant>,
    /// Raised by another thread to stop the search at once.
    cancel: Option<Arc<AtomicBool>>,
    aborted: bool,
    /// Set when a heuristic leaf (or an entry resting on one) was used: the score is not
    /// proven.
    horizon: bool,
    history: [u32; 64],
    /// Scratch space, one per number of marks on the board.
    scratch: Vec<Ply>,
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
            table: Vec::new(),
            mask: 0,
            max_bytes: mb.saturating_mul(1 << 20),
            geom: None,
            misere: false,
            nodes: 0,
            deadline: None,
            cancel: None,
            aborted: false,
            horizon: false,
            history: [0; 64],
            scratch: Vec::new(),
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
            let fit = (self.max_bytes / size_of::<[u64; 3]>()).max(2);
            let entries = cap.min(1 << fit.ilog2());
            self.table = vec![[0; 3]; entries];
            self.mask = entries - 1;
            self.geom = Some(geom);
            self.misere = board.rules().misere();
            self.history = [0; 64];
            self.scratch = vec![EMPTY_PLY; usize::from(geom.cells) + 1];
        }
        geom
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
        let start = Instant::now();
        let mut out = Vec::with_capacity(moves.len());
        for (i, &cell) in moves.iter().enumerate() {
            let left = budget.saturating_sub(start.elapsed());
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
                match t.value {
                    Value::Win(n) => Value::Loss(n + 1),
                    Value::Loss(n) => Value::Win(n + 1),
                    Value::Draw => Value::Draw,
                    Value::Estimate(e) => Value::Estimate(-e),
                }
            }
        }
    }

    /// Searches for the best move within `budget` (to the end of the game with `None`). The
    /// first ply is always searched in full, so an immediate win or a forced block is never
    /// missed; then a search to the end of the game gets three quarters of the budget; if it
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
        let start = Instant::now();
        self.aborted = false;
        self.deadline = None;
        if budget.is_none() {
            return self.iteration(board, FULL);
        }
        // No deadline yet: only a cancel stops the first ply.
        let mut found = self.iteration(board, 1)?;
        if !found.value.is_proven() {
            // Past about 25 empty cells a search to the end cannot finish at interactive
            // speed: deepen step by step from the start.
            self.deadline = budget.map(|b| start + b * 3 / 4);
            if let Some(t) = (empties <= FULL_ATTEMPT_EMPTIES)
                .then(|| self.iteration(board, FULL))
                .flatten()
            {
                found = t;
            } else {
                self.deadline = budget.map(|b| start + b);
                for depth in 2..empties {
                    let Some(t) = self.iteration(board, depth) else {
                        break;
                    };
                    found = t;
                    if found.value.is_proven() {
                        break;
                    }
                }
            }
        }
        self.deadline = None;
        self.aborted = false;
        Some(found)
    }

    /// One root search to `depth`; `None` if the deadline or a cancel cut it short.
    fn iteration(&mut self, board: &Board, depth: u32) -> Option<Thought> {
        let (me, opp) = sides(board);
        self.aborted = false;
        self.horizon = false;
        let (score, best) = self.root(me, opp, depth);
        if self.aborted {
            return None;
        }
        let proven = !self.horizon || score.abs() > DECIDED;
        let cell = board.cell(best).expect("search moves are on the board");
        let value = Value::from_score(score, board.marks(), proven);
        Some(Thought { cell, value })
    }

    /// The moves that share the position's best value, as far as `budget` allows to prove
    /// it: all of them when the value is proven in time, else the one best move found.
    pub fn best_moves(&mut self, board: &Board, budget: Option<Duration>) -> Vec<Cell> {
        let start = Instant::now();
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
            let left = budget.map(|b| b.saturating_sub(start.elapsed()));
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
        self.deadline = budget.map(|b| Instant::now() + b);
        self.aborted = false;
        self.horizon = false;
        let score = -self.negamax(me, opp, FULL, -goal, -goal + 1);
        self.deadline = None;
        (!self.aborted).then_some(score >= goal)
    }

    /// Searches every root move to `depth`; returns the best score and cell index.
    ///
    /// It first asks only whether the position is won, drawn or lost (a window around a
    /// draw), which is far cheaper than exact distances when the answer is a draw, and then
    /// narrows a win or a loss to its exact distance.
    fn root(&mut self, me: u64, opp: u64, depth: u32) -> (i32, usize) {
        let (score, cell) = self.root_window(me, opp, depth, -1, 1);
        if self.aborted || score == 0 {
            return (score, cell);
        }
        if score >= 1 {
            self.root_window(me, opp, depth, 0, INF)
        } else {
            self.root_window(me, opp, depth, -INF, 0)
        }
    }

    /// [`Searcher::root`] within the window (`alpha`, `beta`): fail-soft, so a score at or
    /// beyond a bound is a bound.
    fn root_window(
        &mut self,
        me: u64,
        opp: u64,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> (i32, usize) {
        let geom = self.geom.expect("prepare() runs before the search");
        let empty = geom.full & !(me | opp);
        // The table's best move from an earlier depth goes first.
        let (key_me, key_opp, sym) = Self::canonical(geom, me, opp, true);
        let word = self.table[self.probe(key_me, key_opp)];
        let first = (word[2] != 0 && word[0] == key_me && word[1] == key_opp)
            .then(|| usize::from(geom.symmetries[sym].inverse[unpack(word[2]).best]));
        let ply = (me | opp).count_ones() as usize;
        let completing = scan(geom, me, opp, &mut self.scratch[ply].weight).my_threats;
        let mut moves = self.order(geom, ply, empty, first);
        let mut best = (-INF, usize::MAX);
        // Moves that a symmetry of the position maps onto each other have one value.
        let stabiliser: Vec<&Symmetry> = geom
            .symmetries
            .iter()
            .skip(1)
            .filter(|s| s.apply(me) == me && s.apply(opp) == opp)
            .collect();
        let mut seen = 0u64;
        while let Some(c) = self.next_move(ply, &mut moves) {
            if seen & (1 << c) != 0 {
                continue;
            }
            for s in &stabiliser {
                seen |= 1 << s.map[c];
            }
            let score = self.child_score(geom, me, opp, completing, c, depth, alpha, beta);
            if self.aborted {
                break;
            }
            if score > best.0 {
                best = (score, c);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The score, for the side to move at (`me`, `opp`), of marking cell `c`; `completing`
    /// holds the cells that complete one of `me`'s lines (from [`scan`]).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_score(
        &mut self,
        geom: &Geometry,
        me: u64,
        opp: u64,
        completing: u64,
        c: usize,
        depth: u32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mine = me | (1 << c);
        let marks = (mine | opp).count_ones() as i32;
        if completing & (1 << c) != 0 {
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
            -self.negamax(opp, mine, depth - 1, -beta, -alpha)
        }
    }

    /// The absolute score of an unfinished position for the side to move (`me`), searched
    /// `depth` plies deep: exact when it lies strictly between `alpha` and `beta`, otherwise a
    /// bound on the same side.
    fn negamax(&mut self, me: u64, opp: u64, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.trailing_zeros() >= 10
            && (self.deadline.is_some_and(|d| Instant::now() >= d) || self.cancelled())
        {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        let geom = self.geom.expect("prepare() runs before the search");
        let m = (me | opp).count_ones() as i32;
        let empty = geom.full & !(me | opp);
        let ply = m as usize;
        let scan = scan(geom, me, opp, &mut self.scratch[ply].weight);
        let mut candidates = empty;
        if let Some(settled) = self.settle(&scan, m, &mut alpha, &mut beta, &mut candidates) {
            return settled;
        }
        if depth == 0 {
            self.horizon = true;
            return self.evaluate(geom, me, opp);
        }

        // Near the end the table and the ordering cost more than searching the few moves left.
        if i32::from(geom.cells) - m <= LEAN_EMPTIES {
            let mut best = -INF;
            for c in bit_indices(candidates) {
                let score = self.child_score(geom, me, opp, scan.my_threats, c, depth, alpha, beta);
                best = best.max(score);
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
            return best;
        }

        let (key_me, key_opp, sym) = Self::canonical(geom, me, opp, m <= geom.canon_marks);
        let slot = self.probe(key_me, key_opp);
        let stored = self.table[slot];
        let mut first = None;
        if stored[2] != 0 && stored[0] == key_me && stored[1] == key_opp {
            let e = unpack(stored[2]);
            first = Some(usize::from(geom.symmetries[sym].inverse[e.best]));
            if e.depth >= depth.min(PROVEN) {
                if e.depth != PROVEN {
                    self.horizon = true;
                }
                match e.bound {
                    BOUND_EXACT => return e.score,
                    BOUND_LOWER => alpha = alpha.max(e.score),
                    _ => beta = beta.min(e.score),
                }
                if alpha >= beta {
                    return e.score;
                }
            }
        }

        let outer_horizon = std::mem::replace(&mut self.horizon, false);
        let alpha_in = alpha;
        let mut best_score = -INF;
        let mut best_cell = 0usize;
        let mut moves = self.order(geom, ply, candidates, first);
        while let Some(c) = self.next_move(ply, &mut moves) {
            let score = self.child_score(geom, me, opp, scan.my_threats, c, depth, alpha, beta);
            if self.aborted {
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_cell = c;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        self.history[c] += depth * depth;
                        break;
                    }
                }
            }
        }
        let proven = !self.horizon;
        self.horizon |= outer_horizon;

        let bound = if best_score <= alpha_in {
            BOUND_UPPER
        } else if best_score >= beta {
            BOUND_LOWER
        } else {
            BOUND_EXACT
        };
        let depth = if proven { PROVEN } else { depth };
        let best = usize::from(geom.symmetries[sym].map[best_cell]);
        self.store(slot, key_me, key_opp, pack(best_score, bound, depth, best));
        best_score
    }

    /// What the lines alone say about a node: a score that settles it, or a narrower window
    /// and, when the opponent threatens to complete a line, the one move that blocks it.
    fn settle(
        &self,
        scan: &Scan,
        m: i32,
        alpha: &mut i32,
        beta: &mut i32,
        candidates: &mut u64,
    ) -> Option<i32> {
        let geom = self.geom.expect("prepare() runs before the search");
        let (k, empties) = (i32::from(geom.k), i32::from(geom.cells) - m);
        let (mine_open, theirs_open) = (scan.mine_open(k, empties), scan.theirs_open(k, empties));
        if self.misere {
            // Best left: the opponent is forced to complete a line on its move.
            *beta = (*beta).min(WIN - (m + 2));
            if !mine_open {
                *alpha = (*alpha).max(0); // no line of ours can ever be completed
            }
            if !theirs_open {
                *beta = (*beta).min(0); // the opponent can never be made to complete one
            }
        } else {
            // A line to complete now is the best there is.
            if scan.my_threats != 0 {
                return Some(WIN - (m + 1));
            }
            // The opponent's immediate wins must be blocked; two cannot be.
            match scan.their_threats.count_ones() {
                0 => {}
                1 => *candidates = scan.their_threats,
                _ => return Some(-(WIN - (m + 2))),
            }
            // No win in one for us: the best left is a win on our next move.
            *beta = (*beta).min(WIN - (m + 3));
            if !mine_open {
                *beta = (*beta).min(0); // no line of ours can be finished: a draw at best
            }
            if !theirs_open {
                *alpha = (*alpha).max(0); // no line of theirs can be: a draw at worst
            }
        }
        // The worst: the opponent completes a line (or, misère, we must) next ply or this one.
        *alpha = (*alpha).max(-(WIN - (m + 1)));
        (*alpha >= *beta).then_some(*alpha)
    }

    /// Fills ply `ply`'s move list with the candidates and their ordering scores: `first`
    /// (the table's move) highest, then by how many open lines each builds or blocks, weighted
    /// by how far along they are (the weights [`scan`] left in the ply), then by history.
    /// Returns how many; take them best first with [`Searcher::next_move`].
    fn order(
        &mut self,
        geom: &Geometry,
        ply: usize,
        candidates: u64,
        first: Option<usize>,
    ) -> usize {
        let mut len = 0;
        for c in bit_indices(candidates) {
            let slot = &mut self.scratch[ply];
            let lines: u32 = geom.through_index[c]
                .iter()
                .map(|&l| u32::from(slot.weight[usize::from(l)]))
                .sum();
            let mut score = lines * 1024 + self.history[c].min(1023);
            if self.misere {
                score = u32::MAX / 2 - score;
            }
            if Some(c) == first {
                score = u32::MAX;
            }
            slot.cells[len] = c as u8;
            slot.scores[len] = score;
            len += 1;
        }
        len
    }

    /// The best-scored move left in ply `ply`'s list of `len` (a selection sort that stops at
    /// a cut-off).
    fn next_move(&mut self, ply: usize, len: &mut usize) -> Option<usize> {
        if *len == 0 {
            return None;
        }
        let slot = &mut self.scratch[ply];
        let mut best = 0;
        for i in 1..*len {
            if slot.scores[i] > slot.scores[best] {
                best = i;
            }
        }
        let cell = slot.cells[best];
        *len -= 1;
        slot.cells[best] = slot.cells[*len];
        slot.scores[best] = slot.scores[*len];
        Some(usize::from(cell))
    }

    /// A heuristic score for the side to move: lines still open to it count for it, lines
    /// open to the opponent against it, each more the fuller it is. Strictly within
    /// ±`EST_MAX`.
    fn evaluate(&self, geom: &Geometry, me: u64, opp: u64) -> i32 {
        let mut e: i32 = 0;
        for &l in &geom.lines {
            let (mine, theirs) = ((l & me).count_ones(), (l & opp).count_ones());
            if theirs == 0 && mine > 0 {
                e += 1 << (2 * (mine - 1));
            } else if mine == 0 && theirs > 0 {
                e -= 1 << (2 * (theirs - 1));
            }
        }
        if self.misere {
            e = -e;
        }
        e.clamp(-(EST_MAX - 1), EST_MAX - 1)
    }

    /// The position's canonical image under the board's symmetries: the keys to store it
    /// under, and which symmetry maps the position onto them.
    /// Deep in the tree (`full` false) the position is its own key: symmetric twins are rare
    /// there and not worth the transforms.
    #[inline]
    fn canonical(geom: &Geometry, me: u64, opp: u64, full: bool) -> (u64, u64, usize) {
        let mut best = (me, opp, 0);
        if !full {
            return best;
        }
        for (i, s) in geom.symmetries.iter().enumerate().skip(1) {
            // Compare the first key before transforming the second.
            let a = s.apply(me);
            if a > best.0 {
                continue;
            }
            let b = s.apply(opp);
            if (a, b) < (best.0, best.1) {
                best = (a, b, i);
            }
        }
        best
    }

    /// The slot holding `(me, opp)` in its two-entry bucket, or the one to replace.
    #[inline]
    fn probe(&self, me: u64, opp: u64) -> usize {
        let h = me.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ opp.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        let bucket = ((h.rotate_left(29).wrapping_mul(0x1656_67B1_9E37_79F9) >> 11) as usize)
            & self.mask
            & !1;
        let other = bucket | (self.mask & 1);
        let hit = |i: usize| {
            let e = &self.table[i];
            e[2] != 0 && e[0] == me && e[1] == opp
        };
        if hit(bucket) || other == bucket {
            return bucket;
        }
        if hit(other) {
            return other;
        }
        // Replace the shallower of the two.
        let depth = |i: usize| unpack(self.table[i][2]).depth;
        if depth(bucket) <= depth(other) {
            bucket
        } else {
            other
        }
    }

    #[inline]
    fn store(&mut self, slot: usize, me: u64, opp: u64, word: u64) {
        self.table[slot] = [me, opp, word];
    }
}

/// Per-ply scratch space, so a node fills arrays instead of building them: line weights,
/// then candidate moves with their ordering scores.
#[derive(Clone)]
struct Ply {
    /// Per line: how much playing on it builds an open line of ours or blocks one of theirs.
    weight: [u16; MAX_LINES],
    cells: [u8; MAX_CELLS],
    scores: [u32; MAX_CELLS],
}

const EMPTY_PLY: Ply = Ply {
    weight: [0; MAX_LINES],
    cells: [0; MAX_CELLS],
    scores: [0; MAX_CELLS],
};

/// One pass over the lines.
struct Scan {
    /// Empty cells that complete a line of the side to move.
    my_threats: u64,
    /// Empty cells that complete a line of the opponent.
    their_threats: u64,
    /// The most marks of the side to move on a line with no opponent mark (-1: no such line).
    my_best: i32,
    /// The most opponent marks on a line with no mark of the side to move (-1: none).
    their_best: i32,
}

impl Scan {
    /// Whether the side to move can still complete a line: some line free of the opponent
    /// needs no more marks than it has moves left (`empties` cells, and it moves first).
    fn mine_open(&self, k: i32, empties: i32) -> bool {
        self.my_best >= 0 && k - self.my_best <= (empties + 1) / 2
    }

    /// Whether the opponent can still complete a line.
    fn theirs_open(&self, k: i32, empties: i32) -> bool {
        self.their_best >= 0 && k - self.their_best <= empties / 2
    }
}

#[inline]
fn scan(geom: &Geometry, me: u64, opp: u64, weights: &mut [u16; MAX_LINES]) -> Scan {
    let need = u32::from(geom.k) - 1;
    let mut s = Scan {
        my_threats: 0,
        their_threats: 0,
        my_best: -1,
        their_best: -1,
    };
    for (i, &l) in geom.lines.iter().enumerate() {
        let (mine, theirs) = ((l & me).count_ones(), (l & opp).count_ones());
        let mut weight = 0;
        if theirs == 0 {
            s.my_best = s.my_best.max(mine as i32);
            weight += 1 << (2 * mine);
            if mine == need {
                s.my_threats |= l & !me;
            }
        }
        if mine == 0 {
            s.their_best = s.their_best.max(theirs as i32);
            weight += 1 << (2 * theirs);
            if theirs == need {
                s.their_threats |= l & !opp;
            }
        }
        weights[i] = weight;
    }
    s
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
pub fn best_of(analysis: &[(Cell, Value)]) -> Vec<(Cell, Value)> {
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
    use crate::board::Rules;

    fn board(s: &str) -> Board {
        s.parse().unwrap()
    }

    #[test]
    fn values_order_from_quick_win_to_quick_loss() {
        let order = [
            Value::Win(1),
            Value::Win(3),
            Value::Estimate(7),
            Value::Draw,
            Value::Estimate(-7),
            Value::Loss(4),
            Value::Loss(2),
        ];
        for pair in order.windows(2) {
            assert!(pair[0] > pair[1], "{} > {}", pair[0], pair[1]);
        }
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
        let mirrored = Board::parse_with("...X/.O../..../....", Some(3), false).unwrap();
        assert_eq!(Searcher::new().value(&mirrored), v);
    }
}
