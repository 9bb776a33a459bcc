//! The textbook game searches, instrumented for people learning them: plain minimax,
//! alpha-beta, alpha-beta with move ordering, with a transposition table, and with symmetry.
//! Each records the tree it visits (every node's move, value, the (α, β) window on entry,
//! cut-offs, pruned branches and table hits) and its totals. They are kept apart from the
//! production solver ([`crate::ai::search`]), which they are checked against, and they are
//! written to be read, not to be fast.
//!
//! # Values
//! A value is from X's point of view, as textbooks draw the tree: `+1` X wins, `0` a draw,
//! `-1` O wins. X maximises, O minimises; a node's value is the maximum (X to move) or the
//! minimum (O to move) of its children's. Alpha-beta here is *fail-soft*: a node cut off
//! still returns the best value it saw, which is then only a bound on its true value
//! ([`Bound`]), so every node's value is still the max or min of the children it visited.
//!
//! The Monte Carlo tree search ([`Algorithm::Mcts`], Ultimate's AI) is shown otherwise:
//! [`explain_mcts`] gives its tree after a chosen number of iterations on any rule set, read
//! through [`crate::ai::mcts::Mcts::tree`].

mod classic;
mod mcts;
mod steps;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde::Serialize;

use crate::ai::mcts::{Iteration, MAX_MOVES};
use crate::rules::position::{Move, Position, each};

pub use mcts::{Explained, MctsExplanation, MctsNode};
pub use steps::{Step, StepKind, done_children, node_at, progress, steps};

/// Which textbook search to run. Each adds one idea to the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// Plain minimax: every move of every line of play, to the end of every game.
    Minimax,
    /// Alpha-beta: minimax that stops looking at a node's moves once the node cannot matter.
    #[value(name = "alphabeta")]
    AlphaBeta,
    /// Alpha-beta that tries likely moves first (wins, blocks, cells on many open lines).
    Ordered,
    /// Ordered alpha-beta with a transposition table: a position reached again by another
    /// order of moves is looked up, not searched again.
    Table,
    /// The table keyed by the position's symmetric images: a rotated or mirrored position
    /// is the same entry.
    Symmetry,
    /// Monte Carlo tree search: random games from the leaves of a tree that grows toward the
    /// moves that won them. Not one of the textbook searches above: its tree is shown with
    /// the visits, win rates and UCB scores of its nodes
    // Its doc is the `--help` text of the value: no rustdoc links. It is not in
    // `Algorithm::ALL`; `explain_mcts` explains its tree.
    Mcts,
}

impl Algorithm {
    /// Every algorithm, simplest first.
    pub const ALL: [Algorithm; 5] = [
        Algorithm::Minimax,
        Algorithm::AlphaBeta,
        Algorithm::Ordered,
        Algorithm::Table,
        Algorithm::Symmetry,
    ];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Ordered => "ordered",
            Algorithm::Table => "table",
            Algorithm::Symmetry => "symmetry",
            Algorithm::Mcts => "mcts",
        }
    }

    /// What it is, in words.
    pub fn title(self) -> &'static str {
        match self {
            Algorithm::Minimax => "minimax",
            Algorithm::AlphaBeta => "alpha-beta",
            Algorithm::Ordered => "alpha-beta with move ordering",
            Algorithm::Table => "alpha-beta with move ordering and a transposition table",
            Algorithm::Symmetry => "alpha-beta with move ordering and a symmetric table",
            Algorithm::Mcts => "Monte Carlo tree search",
        }
    }

    fn prunes(self) -> bool {
        !matches!(self, Algorithm::Minimax | Algorithm::Mcts)
    }

    fn orders(self) -> bool {
        matches!(
            self,
            Algorithm::Ordered | Algorithm::Table | Algorithm::Symmetry
        )
    }

    fn tables(self) -> bool {
        matches!(self, Algorithm::Table | Algorithm::Symmetry)
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How much of the tree to keep. The search always runs to the end of every game; these
/// limit only the tree it records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Record nodes down to this many plies below the root (`None`: all of them).
    pub depth: Option<u32>,
    /// Refuse a recorded tree of more nodes than this (pruned branches count).
    pub max_nodes: usize,
}

/// The most nodes a search may visit before it is given up: nearly twice the whole 3×3
/// minimax tree (549,946 nodes), reached only on bigger boards with many empty cells, and
/// refused within about a second rather than after a minute.
pub const VISIT_LIMIT: u64 = 1_000_000;

/// The most positions the transposition table keeps: past it, a search goes on without
/// storing new ones (it only finds fewer), so memory stays bounded whatever the board.
pub const TABLE_LIMIT: usize = 1 << 20;

/// What a search did, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Totals {
    /// Positions the search looked at, the root included (a table hit counts: it was looked
    /// at, then looked up).
    pub visited: u64,
    /// Visited positions where the game was over.
    pub leaves: u64,
    /// Nodes whose remaining moves were skipped because the window closed (α ≥ β).
    pub cutoffs: u64,
    /// Moves skipped by those cut-offs (each a whole subtree not searched).
    pub pruned: u64,
    /// Positions whose value came from the transposition table instead of a search.
    pub table_hits: u64,
    /// Positions stored in the table when the search ended.
    pub table_entries: u64,
}

/// The (α, β) window a node was entered with, from X's point of view: X already has a line
/// worth α elsewhere, O one worth β. `None` is unbounded (−∞ for α, +∞ for β).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Window {
    pub alpha: Option<i32>,
    pub beta: Option<i32>,
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let end = |bound: Option<i32>, infinite: &str| {
            bound.map_or_else(|| infinite.to_string(), |v| v.to_string())
        };
        write!(f, "({}, {})", end(self.alpha, "-∞"), end(self.beta, "+∞"))
    }
}

/// How much a value says. In plain minimax every value is exact; alpha-beta's can be bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Bound {
    /// The node's true value.
    Exact,
    /// The true value is at least this (the node failed high: β cut it off).
    Lower,
    /// The true value is at most this (the node failed low: nothing reached α).
    Upper,
}

/// Where a table hit came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Hit {
    /// The same position, reached before by another order of moves.
    Same,
    /// A rotated or mirrored image of a position searched before.
    Symmetric,
}

/// One node of the recorded tree: the position after `mv`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Node {
    /// The move into the node, named as players type it (`None` at the root).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Who played it (`None` at the root).
    pub by: Option<char>,
    /// Who moves at this node: X maximises, O minimises.
    pub to_move: char,
    /// The value found (`None` when pruned: never searched).
    pub value: Option<i32>,
    pub bound: Option<Bound>,
    /// The window on entry (`None` for plain minimax, which has none, and when pruned).
    pub window: Option<Window>,
    /// Skipped by a cut-off at the parent.
    pub pruned: bool,
    /// The value came from the table.
    pub table_hit: Option<Hit>,
    /// The window closed here, so the moves after the last child searched were pruned.
    pub cutoff: bool,
    /// How many moves that cut-off skipped (listed among the children, marked pruned, when
    /// they are within the depth shown).
    pub pruned_moves: u32,
    /// The game is over at this node.
    pub leaf: bool,
    /// Nodes visited below this one that are not recorded (beyond the depth shown).
    pub hidden: u64,
    pub children: Vec<Node>,
}

impl Node {
    /// Nodes in this subtree, this one included.
    pub fn count(&self) -> usize {
        1 + self.children.iter().map(Node::count).sum::<usize>()
    }
}

/// The result of explaining one position.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Explanation {
    pub algorithm: Algorithm,
    /// The root's value from X's point of view.
    pub value: i32,
    /// The principal variation: best play from the root, as far as the search followed it (a
    /// line ends where a value came from the table).
    pub pv: Vec<String>,
    pub totals: Totals,
    /// The depth recorded (`None`: every node).
    pub depth: Option<u32>,
    pub tree: Node,
}

impl Explanation {
    /// The value in words.
    pub fn verdict(&self) -> &'static str {
        match self.value {
            1 => "X wins",
            -1 => "O wins",
            _ => "draw",
        }
    }
}

/// Why a position could not be explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExplainError {
    /// The recorded tree would hold more nodes than allowed.
    TooBig {
        /// Nodes in the tree to the depth asked for.
        nodes: u64,
        limit: usize,
        depth: Option<u32>,
    },
    /// The search visited [`VISIT_LIMIT`] nodes without finishing.
    TooLong,
    /// No textbook search is written for this rule set yet.
    Unsupported,
    /// The search was called off before it finished.
    Cancelled,
    /// The game is over: there is nothing to search.
    GameOver,
    /// The board has more points than the Monte Carlo tree holds moves of.
    TooManyMoves(usize),
}

impl fmt::Display for ExplainError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ExplainError::TooBig {
                nodes,
                limit,
                depth,
            } => {
                let reach = depth.map_or_else(
                    || "to the end of every game".to_string(),
                    |d| format!("to depth {d}"),
                );
                write!(
                    f,
                    "the tree {reach} has {nodes} nodes, more than --max-nodes {limit} allows: \
                     show fewer levels with --depth, or allow more with --max-nodes"
                )
            }
            ExplainError::TooLong => write!(
                f,
                "the search visited {VISIT_LIMIT} nodes without finishing: try a position with \
                 fewer empty cells, or an algorithm that prunes more (--algorithm symmetry)"
            ),
            ExplainError::Unsupported => write!(
                f,
                "the textbook searches are written for the classic boards; the other games' \
                 trees are shown from their Monte Carlo tree search"
            ),
            ExplainError::Cancelled => write!(f, "the search was called off"),
            ExplainError::GameOver => write!(f, "the game is over: there is nothing to search"),
            ExplainError::TooManyMoves(points) => write!(
                f,
                "the Monte Carlo tree is shown for boards of up to {MAX_MOVES} points (16×16); \
                 this one has {points}"
            ),
        }
    }
}

impl std::error::Error for ExplainError {}

/// Runs `algorithm` on `position` and records its tree within `limits`: the one place that
/// picks the search for a rule set.
pub fn explain(
    position: &Position,
    algorithm: Algorithm,
    limits: Limits,
) -> Result<Explanation, ExplainError> {
    explain_until(position, algorithm, limits, &AtomicBool::new(false))
}

/// The Monte Carlo tree after `iterations` iterations of a search of `position` seeded with
/// `seed`, recorded within `limits`: visits, win rates and UCB1 scores, proven nodes and the
/// principal variation. The search is each rule set's textbook one ([`Explained`]).
pub fn explain_mcts(
    position: &Position,
    iterations: u64,
    seed: u64,
    limits: Limits,
) -> Result<MctsExplanation, ExplainError> {
    each!(position, board => mcts::explain(board, iterations, seed, limits))
}

/// Whether the explorer can show a search of `position`: not on a board with more points
/// than the Monte Carlo tree holds moves of (Gomoku above 16×16), whose textbook searches are
/// not written either.
pub fn explorable(position: &Position) -> Result<(), ExplainError> {
    fn of<G: mcts::Explained>(board: &G) -> Result<(), ExplainError> {
        match board.move_count() {
            n if n > MAX_MOVES => Err(ExplainError::TooManyMoves(n)),
            _ => Ok(()),
        }
    }
    each!(position, board => of(board))
}

/// The imaginary visits each new node of [`explain_mcts`]'s search of `position` starts with
/// (0 where the search has no prior).
pub fn mcts_prior_visits(position: &Position) -> u32 {
    fn of<G: mcts::Explained>(_: &G) -> u32 {
        G::textbook(0).prior_visits()
    }
    each!(position, board => of(board))
}

/// The Monte Carlo tree search of [`explain_mcts`] after `iterations` iterations seeded with
/// `seed`, watched for `steps` more, one at a time: each one's walk down the tree with its
/// UCB1 scores, its expansion, its random game and its backup.
pub fn watch_mcts(
    position: &Position,
    iterations: u64,
    seed: u64,
    steps: u64,
) -> Result<Vec<Iteration<Move>>, ExplainError> {
    watch_mcts_until(
        position,
        iterations,
        seed,
        steps,
        &Arc::new(AtomicBool::new(false)),
    )
}

/// The Monte Carlo tree of [`explain_mcts`] for the explorer: recorded as deep as `max_nodes`
/// allows, given up with [`ExplainError::Cancelled`] soon after `cancel` is raised.
pub fn explain_mcts_fitting(
    position: &Position,
    iterations: u64,
    seed: u64,
    max_nodes: usize,
    cancel: &Arc<AtomicBool>,
) -> Result<MctsExplanation, ExplainError> {
    each!(position, board => mcts::explain_fitting(board, iterations, seed, max_nodes, cancel))
}

/// [`watch_mcts`], given up soon after `cancel` is raised; with no iterations before the
/// steps, they are the search's first (the explorer's step mode).
pub fn watch_mcts_until(
    position: &Position,
    iterations: u64,
    seed: u64,
    steps: u64,
    cancel: &Arc<AtomicBool>,
) -> Result<Vec<Iteration<Move>>, ExplainError> {
    each!(position, board => {
        let watched = mcts::watch_until(board, iterations, seed, steps, cancel)?;
        Ok(watched.into_iter().map(|i| i.map(Move::from)).collect())
    })
}

/// [`explain`], given up with [`ExplainError::Cancelled`] soon after `cancel` is raised.
/// [`Algorithm::Mcts`] is not a textbook search: [`explain_mcts`] shows its tree.
pub fn explain_until(
    position: &Position,
    algorithm: Algorithm,
    limits: Limits,
    cancel: &AtomicBool,
) -> Result<Explanation, ExplainError> {
    let board = position.classic().ok_or(ExplainError::Unsupported)?;
    if algorithm == Algorithm::Mcts {
        return Err(ExplainError::Unsupported);
    }
    classic::explain(board, algorithm, limits, cancel)
}

/// The depths tried, deepest first, by [`explain_fitting`].
const FITTING_DEPTHS: [Option<u32>; 6] = [None, Some(6), Some(4), Some(3), Some(2), Some(1)];

/// [`explain_until`] with the deepest recorded tree of at most `max_nodes` nodes: the whole
/// tree if it fits, else the tree to depth 6, 4, 3, 2 or 1 (each try searches again).
pub fn explain_fitting(
    position: &Position,
    algorithm: Algorithm,
    max_nodes: usize,
    cancel: &AtomicBool,
) -> Result<Explanation, ExplainError> {
    let mut last = ExplainError::Unsupported;
    for depth in FITTING_DEPTHS {
        let limits = Limits { depth, max_nodes };
        match explain_until(position, algorithm, limits, cancel) {
            Err(e @ ExplainError::TooBig { .. }) => last = e,
            other => return other,
        }
    }
    Err(last)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::Board;
    use clap::ValueEnum;

    fn explained(board: &str, algorithm: Algorithm, depth: Option<u32>) -> Explanation {
        let position = Position::Classic(board.parse::<Board>().unwrap());
        let limits = Limits {
            depth,
            max_nodes: 1_000_000,
        };
        explain(&position, algorithm, limits).unwrap()
    }

    /// Every node of a tree, depth first.
    fn all(node: &Node) -> Vec<&Node> {
        let mut out = vec![node];
        for child in &node.children {
            out.extend(all(child));
        }
        out
    }

    #[test]
    fn window_shows_unbounded_ends_as_infinity() {
        let open = Window {
            alpha: None,
            beta: None,
        };
        assert_eq!(open.to_string(), "(-∞, +∞)");
        let half = Window {
            alpha: Some(-1),
            beta: None,
        };
        assert_eq!(half.to_string(), "(-1, +∞)");
    }

    #[test]
    fn algorithm_names_are_their_command_line_names() {
        for algorithm in Algorithm::ALL {
            assert_eq!(Algorithm::from_str(algorithm.name(), false), Ok(algorithm));
        }
    }

    #[test]
    fn a_cut_off_lists_its_pruned_moves_without_values() {
        let tree = explained("X.O/.X./..O", Algorithm::AlphaBeta, None).tree;
        let cut: Vec<&Node> = all(&tree).into_iter().filter(|n| n.cutoff).collect();
        assert!(!cut.is_empty());
        for node in cut {
            let pruned: Vec<&Node> = node.children.iter().filter(|c| c.pruned).collect();
            assert_eq!(pruned.len(), node.pruned_moves as usize);
            assert!(
                pruned
                    .iter()
                    .all(|p| p.value.is_none() && p.children.is_empty())
            );
            assert!(
                node.children.last().is_some_and(|c| c.pruned),
                "pruned come last"
            );
        }
    }

    #[test]
    fn minimax_prunes_nothing_and_every_value_is_exact() {
        let x = explained("X.O/.X./..O", Algorithm::Minimax, None);
        assert_eq!((x.totals.cutoffs, x.totals.pruned), (0, 0));
        assert!(
            all(&x.tree)
                .iter()
                .all(|n| n.bound == Some(Bound::Exact) && n.window.is_none())
        );
    }

    #[test]
    fn shown_nodes_and_the_counts_below_them_add_up_to_the_visits() {
        for algorithm in Algorithm::ALL {
            let x = explained("X../.../...", algorithm, Some(2));
            let nodes = all(&x.tree);
            let shown = nodes.iter().filter(|n| !n.pruned).count() as u64;
            let below: u64 = nodes.iter().map(|n| n.hidden).sum();
            assert_eq!(shown + below, x.totals.visited, "{algorithm}");
            assert!(nodes.iter().all(|n| n.mv.is_none() || n.by.is_some()));
        }
    }

    #[test]
    fn only_the_table_algorithms_hit_the_table_and_only_symmetry_across_images() {
        for algorithm in Algorithm::ALL {
            let x = explained(".../.X./...", algorithm, None);
            let hits: Vec<Hit> = all(&x.tree).iter().filter_map(|n| n.table_hit).collect();
            assert_eq!(hits.len() as u64, x.totals.table_hits);
            assert_eq!(algorithm.tables(), !hits.is_empty(), "{algorithm}");
            let symmetric = hits.contains(&Hit::Symmetric);
            assert_eq!(symmetric, algorithm == Algorithm::Symmetry, "{algorithm}");
        }
    }

    #[test]
    fn the_best_line_leads_to_the_root_value() {
        let x = explained("X../.../...", Algorithm::Minimax, None);
        let mut board: Board = "X../.../...".parse().unwrap();
        for name in &x.pv {
            board.play(board.parse_cell(name).unwrap()).unwrap();
        }
        assert_eq!(board.outcome(), crate::rules::classic::Outcome::Draw);
        assert_eq!(x.value, 0);
    }

    #[test]
    fn a_tree_too_big_is_recorded_to_the_deepest_depth_that_fits() {
        let position = Position::Classic(Board::default());
        let cancel = AtomicBool::new(false);
        let x = explain_fitting(&position, Algorithm::Minimax, 5_000, &cancel).unwrap();
        // 1 + 9 + 72 + 504 + 3024 nodes to depth 4; depth 6 holds far more than 5,000.
        assert_eq!((x.depth, x.tree.count()), (Some(4), 3610));
        let x = explain_fitting(&position, Algorithm::Symmetry, 5_000, &cancel).unwrap();
        assert_eq!(x.depth, None, "the whole tree fits");
        let raised = AtomicBool::new(true);
        assert_eq!(
            explain_fitting(&position, Algorithm::Minimax, 5_000, &raised).unwrap_err(),
            ExplainError::Cancelled
        );
    }

    #[test]
    fn the_textbook_searches_refuse_ultimate() {
        let position = crate::rules::position::Variant::Ultimate.start();
        let limits = Limits {
            depth: Some(0),
            max_nodes: 1,
        };
        assert_eq!(
            explain(&position, Algorithm::Minimax, limits).unwrap_err(),
            ExplainError::Unsupported
        );
    }
}
