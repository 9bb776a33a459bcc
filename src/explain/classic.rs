//! The textbook searches on classic N×N boards, recording the tree they visit.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use super::{
    Algorithm, Bound, ExplainError, Explanation, Hit, Limits, Node, TABLE_LIMIT, Totals,
    VISIT_LIMIT, Window,
};
use crate::rules::classic::{Board, Cell, Mark, Outcome};

/// Beyond any value (values are -1, 0 and +1): the unbounded ends of a window.
const INF: i32 = 2;

/// A table entry: a value, what it bounds, and the position it was found for (to tell a hit
/// on the same position from one on a symmetric image).
struct Stored {
    value: i32,
    bound: Bound,
    position: (u64, u64),
}

/// How many visits pass between two looks at the cancel flag.
const CANCEL_EVERY: u64 = 4096;

/// One search in progress: its counts, its table and the tree it records.
struct Explorer<'a> {
    algorithm: Algorithm,
    limits: Limits,
    totals: Totals,
    table: HashMap<(u64, u64), Stored>,
    /// Nodes of the tree to the depth asked for, recorded or not.
    wanted: u64,
    /// `pv[ply]`: the best line found from the node being searched at `ply`.
    pv: Vec<Vec<Cell>>,
    /// Raised to call the search off.
    cancel: &'a AtomicBool,
}

/// Runs `algorithm` on `board` (see [`super::explain`]).
pub(super) fn explain(
    board: &Board,
    algorithm: Algorithm,
    limits: Limits,
    cancel: &AtomicBool,
) -> Result<Explanation, ExplainError> {
    let mut explorer = Explorer {
        cancel,
        algorithm,
        limits,
        totals: Totals::default(),
        table: HashMap::new(),
        wanted: 0,
        pv: Vec::new(),
    };
    let (value, tree) = if algorithm.prunes() {
        explorer.alphabeta(board, 0, None, -INF, INF)?
    } else {
        explorer.minimax(board, 0, None)?
    };
    if explorer.wanted > limits.max_nodes as u64 {
        return Err(ExplainError::TooBig {
            nodes: explorer.wanted,
            limit: limits.max_nodes,
            depth: limits.depth,
        });
    }
    let mut totals = explorer.totals;
    totals.table_entries = explorer.table.len() as u64;
    Ok(Explanation {
        algorithm,
        value,
        pv: explorer.pv[0].iter().map(ToString::to_string).collect(),
        totals,
        depth: limits.depth,
        tree: tree.expect("the root is always recorded"),
    })
}

/// The value of a finished game from X's point of view, `None` while it goes on.
fn end_value(board: &Board) -> Option<i32> {
    match board.outcome() {
        Outcome::Won {
            winner: Mark::X, ..
        } => Some(1),
        Outcome::Won { .. } => Some(-1),
        Outcome::Draw => Some(0),
        Outcome::InProgress => None,
    }
}

/// Whether `value` is better than `best` for the side that maximises (X) or minimises (O).
fn improves(maximising: bool, value: i32, best: i32) -> bool {
    if maximising {
        value > best
    } else {
        value < best
    }
}

/// A window as shown: ±[`INF`] becomes unbounded.
fn window(alpha: i32, beta: i32) -> Window {
    Window {
        alpha: (alpha > -INF).then_some(alpha),
        beta: (beta < INF).then_some(beta),
    }
}

/// The recorded node of the position `board`, reached by `mv`.
fn node(board: &Board, mv: Option<Cell>, window: Option<Window>) -> Node {
    Node {
        mv: mv.map(|c| c.to_string()),
        by: mv.map(|_| board.to_move().other().symbol()),
        to_move: board.to_move().symbol(),
        value: None,
        bound: None,
        window,
        pruned: false,
        table_hit: None,
        cutoff: false,
        pruned_moves: 0,
        leaf: false,
        hidden: 0,
        children: Vec::new(),
    }
}

impl Explorer<'_> {
    /// Plain minimax: every move, to the end of every game.
    fn minimax(
        &mut self,
        board: &Board,
        ply: usize,
        mv: Option<Cell>,
    ) -> Result<(i32, Option<Node>), ExplainError> {
        let mut node = self.enter(board, ply, mv, None)?;
        let entered = self.totals.visited;
        if let Some(value) = end_value(board) {
            return Ok(self.leaf(node, value));
        }
        let maximising = board.to_move() == Mark::X;
        let mut best = if maximising { -INF } else { INF };
        for cell in board.empty_cells() {
            let child = board
                .with_move(cell)
                .expect("an empty cell of a game going on");
            let (value, recorded) = self.minimax(&child, ply + 1, Some(cell))?;
            adopt(&mut node, recorded);
            if improves(maximising, value, best) {
                best = value;
                self.extend_pv(ply, cell);
            }
        }
        Ok(self.leave(node, best, Bound::Exact, entered))
    }

    /// Fail-soft alpha-beta within the window (`alpha`, `beta`), with the algorithm's move
    /// ordering and table.
    fn alphabeta(
        &mut self,
        board: &Board,
        ply: usize,
        mv: Option<Cell>,
        alpha: i32,
        beta: i32,
    ) -> Result<(i32, Option<Node>), ExplainError> {
        let mut node = self.enter(board, ply, mv, Some(window(alpha, beta)))?;
        let entered = self.totals.visited;
        if let Some(value) = end_value(board) {
            return Ok(self.leaf(node, value));
        }
        if let Some((value, bound, hit)) = self.probe(board, alpha, beta) {
            self.totals.table_hits += 1;
            if let Some(node) = &mut node {
                node.table_hit = Some(hit);
            }
            return Ok(self.leave(node, value, bound, entered));
        }
        let maximising = board.to_move() == Mark::X;
        let (mut a, mut b) = (alpha, beta);
        let mut best = if maximising { -INF } else { INF };
        let moves = self.moves(board);
        for (i, &cell) in moves.iter().enumerate() {
            let child = board
                .with_move(cell)
                .expect("an empty cell of a game going on");
            let (value, recorded) = self.alphabeta(&child, ply + 1, Some(cell), a, b)?;
            adopt(&mut node, recorded);
            if improves(maximising, value, best) {
                best = value;
                self.extend_pv(ply, cell);
            }
            if maximising {
                a = a.max(value);
            } else {
                b = b.min(value);
            }
            if a >= b {
                self.cut(&mut node, board, ply, &moves[i + 1..]);
                break;
            }
        }
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.store(board, best, bound);
        Ok(self.leave(node, best, bound, entered))
    }

    /// Counts a visit and opens the node's record if it is within the limits.
    fn enter(
        &mut self,
        board: &Board,
        ply: usize,
        mv: Option<Cell>,
        window: Option<Window>,
    ) -> Result<Option<Node>, ExplainError> {
        self.totals.visited += 1;
        if self.totals.visited > VISIT_LIMIT {
            return Err(ExplainError::TooLong);
        }
        if self.totals.visited.is_multiple_of(CANCEL_EVERY) && self.cancel.load(Ordering::Relaxed) {
            return Err(ExplainError::Cancelled);
        }
        if self.pv.len() <= ply + 1 {
            self.pv.resize(ply + 2, Vec::new());
        }
        self.pv[ply].clear();
        Ok(self.records(ply).then(|| node(board, mv, window)))
    }

    /// Whether a node at `ply` is recorded; counts it towards the tree's size if it is
    /// within the depth asked for.
    fn records(&mut self, ply: usize) -> bool {
        if self.limits.depth.is_some_and(|d| ply > d as usize) {
            return false;
        }
        self.wanted += 1;
        self.wanted <= self.limits.max_nodes as u64
    }

    /// Closes a node where the game is over.
    fn leaf(&mut self, mut node: Option<Node>, value: i32) -> (i32, Option<Node>) {
        self.totals.leaves += 1;
        if let Some(node) = &mut node {
            node.leaf = true;
        }
        (value, node.map(|n| close(n, value, Bound::Exact, 0)))
    }

    /// Closes a node with its value; `entered` is the visit count just after entering it, so
    /// the nodes visited below an unrecorded subtree can be told.
    fn leave(
        &self,
        node: Option<Node>,
        value: i32,
        bound: Bound,
        entered: u64,
    ) -> (i32, Option<Node>) {
        let below = self.totals.visited - entered;
        (value, node.map(|n| close(n, value, bound, below)))
    }

    /// The best line from `ply` is `cell` and then the best line found after it.
    fn extend_pv(&mut self, ply: usize, cell: Cell) {
        let mut line = vec![cell];
        line.extend_from_slice(&self.pv[ply + 1]);
        self.pv[ply] = line;
    }

    /// Records a cut-off: the moves in `rest` are never searched.
    fn cut(&mut self, node: &mut Option<Node>, board: &Board, ply: usize, rest: &[Cell]) {
        if rest.is_empty() {
            return;
        }
        self.totals.cutoffs += 1;
        self.totals.pruned += rest.len() as u64;
        let Some(node) = node else { return };
        node.cutoff = true;
        node.pruned_moves = rest.len() as u32;
        for &cell in rest {
            if self.records(ply + 1) {
                let child = board
                    .with_move(cell)
                    .expect("an empty cell of a game going on");
                let mut pruned = self::node(&child, Some(cell), None);
                pruned.pruned = true;
                node.children.push(pruned);
            }
        }
    }

    /// The moves in the order the algorithm tries them: cell order, or with ordering the
    /// moves that win first, then those that block a win, then cells on more open lines.
    fn moves(&self, board: &Board) -> Vec<Cell> {
        let mut moves: Vec<Cell> = board.empty_cells().collect();
        if self.algorithm.orders() {
            let geom = board.geometry();
            let me = board.bits(board.to_move());
            let them = board.bits(board.to_move().other());
            let misere = board.rules().misere();
            let priority = |cell: &Cell| {
                let i = cell.index();
                let wins = !misere && geom.completes(me | cell.bit(), i);
                let blocks = !misere && geom.completes(them | cell.bit(), i);
                let open = geom.through[i]
                    .iter()
                    .map(|&l| usize::from(l & them == 0) + usize::from(l & me == 0))
                    .sum::<usize>();
                (wins, blocks, open)
            };
            moves.sort_by_key(|c| std::cmp::Reverse(priority(c)));
        }
        moves
    }

    /// The table's key for `board`: the position itself, or with symmetry the least of its
    /// symmetric images, so that every image shares one entry.
    fn key(&self, board: &Board) -> (u64, u64) {
        let (x, o) = (board.bits(Mark::X), board.bits(Mark::O));
        if self.algorithm != Algorithm::Symmetry {
            return (x, o);
        }
        board
            .geometry()
            .symmetries
            .iter()
            .map(|s| (s.apply(x), s.apply(o)))
            .min()
            .expect("the identity is a symmetry")
    }

    /// A value from the table that settles the node within (`alpha`, `beta`): an exact value,
    /// or a bound that already falls outside the window.
    fn probe(&self, board: &Board, alpha: i32, beta: i32) -> Option<(i32, Bound, Hit)> {
        if !self.algorithm.tables() {
            return None;
        }
        let stored = self.table.get(&self.key(board))?;
        let settles = match stored.bound {
            Bound::Exact => true,
            Bound::Lower => stored.value >= beta,
            Bound::Upper => stored.value <= alpha,
        };
        let same = stored.position == (board.bits(Mark::X), board.bits(Mark::O));
        let hit = if same { Hit::Same } else { Hit::Symmetric };
        settles.then_some((stored.value, stored.bound, hit))
    }

    fn store(&mut self, board: &Board, value: i32, bound: Bound) {
        if self.algorithm.tables() {
            let position = (board.bits(Mark::X), board.bits(Mark::O));
            let entry = Stored {
                value,
                bound,
                position,
            };
            let key = self.key(board);
            if self.table.len() < TABLE_LIMIT || self.table.contains_key(&key) {
                self.table.insert(key, entry);
            }
        }
    }
}

/// Adds a child's record to its parent's, when both are recorded.
fn adopt(node: &mut Option<Node>, child: Option<Node>) {
    if let (Some(node), Some(child)) = (node, child) {
        node.children.push(child);
    }
}

/// A node with its value; `below` nodes were visited under it, told as hidden when none of
/// its children is recorded.
fn close(mut node: Node, value: i32, bound: Bound, below: u64) -> Node {
    node.value = Some(value);
    node.bound = Some(bound);
    if node.children.is_empty() {
        node.hidden = below;
    }
    node
}
