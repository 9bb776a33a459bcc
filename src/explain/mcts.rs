//! Monte Carlo tree search explained, on any rule set it plays: the tree after a search of a
//! chosen number of iterations, read through [`crate::ai::mcts::TreeView`]. Every child shows its
//! visits, its win rate, and the UCB1 score the search last compared it by, split into the win
//! rate and the exploration term; proven nodes are marked, and the principal variation is the
//! line the search would follow. The search shown is the textbook one of each rule set
//! ([`Explained::textbook`]).

// Visit counts become f32 for UCB1, as in the search itself: exact far beyond any tree shown.
#![allow(clippy::cast_precision_loss)]

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use super::{ExplainError, Limits};
use crate::ai::mcts::{
    Evaluator, Iteration, MAX_MOVES, Mcts, NodeView, Proven, RandomGames, SearchGame, Settings,
    TreeView, UltimateEval,
};
use crate::rules::classic::Board;
use crate::rules::gomoku::Gomoku;
use crate::rules::ultimate::UltimateBoard;

/// A rule set whose Monte Carlo tree can be explained, with the search that shows it.
pub trait Explained: SearchGame {
    /// How that search values leaves and new nodes.
    type Eval: Evaluator<Self>;

    /// The search shown, seeded with `seed`.
    fn textbook(seed: u64) -> Mcts<Self, Self::Eval>;
}

/// Ultimate's search with random games at its leaves and the hand-made prior
/// ([`Settings::FROZEN`]), the one textbooks teach.
impl Explained for UltimateBoard {
    type Eval = UltimateEval;

    fn textbook(seed: u64) -> Mcts {
        Mcts::new(Some(seed)).with_settings(Settings::FROZEN)
    }
}

/// Uniformly random games to the end at the leaves, no prior: the search as first published.
impl Explained for Board {
    type Eval = RandomGames;

    fn textbook(seed: u64) -> Mcts<Board, RandomGames> {
        Mcts::with_evaluator(Some(seed), RandomGames)
    }
}

/// Gomoku as classic boards: uniformly random games, no prior.
impl Explained for Gomoku {
    type Eval = RandomGames;

    fn textbook(seed: u64) -> Mcts<Gomoku, RandomGames> {
        Mcts::with_evaluator(Some(seed), RandomGames)
    }
}

/// Connect Four by its columns: uniformly random games, no prior.
impl Explained for crate::rules::connect_four::ConnectFour {
    type Eval = RandomGames;

    fn textbook(seed: u64) -> Mcts<Self, RandomGames> {
        Mcts::with_evaluator(Some(seed), RandomGames)
    }
}

/// One node of the recorded Monte Carlo tree: the position after `mv`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MctsNode {
    /// The move into the node, board then cell (`None` at the root).
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// Who played it (`None` at the root); the win rate and proof are this player's.
    pub by: Option<char>,
    /// Visits, the prior's imaginary ones included.
    pub visits: u32,
    /// Games won by `by` out of the visits, a draw counting half.
    pub wins: f32,
    /// `wins / visits`; `None` before any visit.
    pub win_rate: Option<f32>,
    /// UCB1's exploration term: `c * sqrt(ln(parent's visits) / visits)`.
    pub exploration: Option<f32>,
    /// The UCB1 score the parent chooses by: win rate plus exploration. `None` at the root
    /// and for proven nodes, which the search no longer scores this way.
    pub ucb: Option<f32>,
    /// Proven: `win`, `loss` or `draw` for `by`.
    pub proven: Option<&'static str>,
    /// For a proven win or loss, the plies from the parent's position to the end.
    pub plies: Option<u8>,
    /// On the principal variation.
    pub pv: bool,
    /// Nodes of the tree below this one that are not recorded (beyond the depth shown).
    pub hidden: u64,
    pub children: Vec<MctsNode>,
}

impl MctsNode {
    /// Nodes in this subtree, this one included.
    pub fn count(&self) -> usize {
        1 + self.children.iter().map(MctsNode::count).sum::<usize>()
    }
}

/// The search explained.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MctsExplanation {
    pub iterations: u64,
    pub seed: u64,
    /// UCB1's exploration constant `c`.
    pub exploration_constant: f32,
    /// Imaginary visits each node starts with, at the rate the move prior guesses.
    pub prior_visits: u32,
    /// Nodes in the whole tree.
    pub nodes: usize,
    /// The principal variation: from the root, the move the search would choose at each
    /// node (a proven win, else the most visited move not proven lost), while the tree goes.
    pub pv: Vec<String>,
    /// The depth recorded (`None`: the whole tree).
    pub depth: Option<u32>,
    pub tree: MctsNode,
}

/// Searches `board` for `iterations` iterations seeded with `seed`, and records its tree
/// within `limits`. The search is the rule set's [`Explained::textbook`] one.
pub fn explain<G: Explained>(
    board: &G,
    iterations: u64,
    seed: u64,
    limits: Limits,
) -> Result<MctsExplanation, ExplainError> {
    let mcts = searched(board, iterations, seed, None)?;
    let view = mcts.tree().expect("a search ran");
    let size = recorded(view.root(), limits.depth, 0);
    if size > limits.max_nodes as u64 {
        return Err(ExplainError::TooBig {
            nodes: size,
            limit: limits.max_nodes,
            depth: limits.depth,
        });
    }
    Ok(explained(&view, seed, limits.depth))
}

/// [`explain`] with the tree recorded as deep as `max_nodes` allows (the whole tree if it
/// fits), for the explorer; given up with [`ExplainError::Cancelled`] soon after `cancel` is
/// raised.
pub fn explain_fitting<G: Explained>(
    board: &G,
    iterations: u64,
    seed: u64,
    max_nodes: usize,
    cancel: &Arc<AtomicBool>,
) -> Result<MctsExplanation, ExplainError> {
    let mcts = searched(board, iterations, seed, Some(cancel))?;
    let view = mcts.tree().expect("a search ran");
    let mut depth = None;
    if recorded(view.root(), None, 0) > max_nodes as u64 {
        // The deepest level that fits; the root and its moves always do.
        let mut d = 1;
        while recorded(view.root(), Some(d + 1), 0) <= max_nodes as u64 {
            d += 1;
        }
        depth = Some(d);
    }
    Ok(explained(&view, seed, depth))
}

/// A search of `board` for `iterations` iterations seeded with `seed`.
fn searched<G: Explained>(
    board: &G,
    iterations: u64,
    seed: u64,
    cancel: Option<&Arc<AtomicBool>>,
) -> Result<Mcts<G, G::Eval>, ExplainError> {
    if board.move_count() > MAX_MOVES {
        return Err(ExplainError::TooManyMoves(board.move_count()));
    }
    let mut mcts = G::textbook(seed);
    mcts.set_cancel(cancel.cloned());
    match mcts.think_iterations(board, iterations) {
        Some(_) => Ok(mcts),
        None if mcts.cancelled() => Err(ExplainError::Cancelled),
        None => Err(ExplainError::GameOver),
    }
}

/// The tree of the search `view`, recorded to `depth`.
fn explained<G: SearchGame, E: Evaluator<G>>(
    view: &TreeView<'_, G, E>,
    seed: u64,
    depth: Option<u32>,
) -> MctsExplanation {
    let pv = principal(view.root());
    let mut tree = record(view, view.root(), None, *view.position(), 0, depth);
    mark_pv(&mut tree, &pv);
    MctsExplanation {
        iterations: view.iterations(),
        seed,
        exploration_constant: view.exploration(),
        prior_visits: view.prior_visits(),
        nodes: view.nodes(),
        pv: pv.iter().map(ToString::to_string).collect(),
        depth,
        tree,
    }
}

/// Searches `board` for `iterations` iterations seeded with `seed`, then runs `steps` more one
/// at a time and reports what each did (fewer once the root is proven: the search stops there),
/// given up with [`ExplainError::Cancelled`] soon after `cancel` is raised. The same seed gives
/// the same iterations; the tree after them is the tree of a search of `iterations + steps`
/// iterations; with no iterations before the steps, they are the search's first. The search
/// is [`explain`]'s.
pub fn watch_until<G: Explained>(
    board: &G,
    iterations: u64,
    seed: u64,
    steps: u64,
    cancel: &Arc<AtomicBool>,
) -> Result<Vec<Iteration<G::Move>>, ExplainError> {
    let mut mcts = searched(board, iterations, seed, Some(cancel))?;
    let mut watched = Vec::new();
    for _ in 0..steps {
        if cancel.load(Ordering::Relaxed) {
            return Err(ExplainError::Cancelled);
        }
        let Some(iteration) = mcts.step() else { break };
        watched.push(iteration);
    }
    Ok(watched)
}

/// Nodes of the tree under `node` down to `depth` levels below the root (`level` is the
/// node's).
fn recorded<G: SearchGame, E: Evaluator<G>>(
    node: NodeView<'_, G, E>,
    depth: Option<u32>,
    level: u32,
) -> u64 {
    if depth.is_some_and(|d| level > d) {
        return 0;
    }
    1 + node
        .children()
        .map(|c| recorded(c, depth, level + 1))
        .sum::<u64>()
}

/// The line the search would follow: at each node the proven win, else the most visited
/// child not proven lost.
fn principal<G: SearchGame, E: Evaluator<G>>(root: NodeView<'_, G, E>) -> Vec<G::Move> {
    let mut line = Vec::new();
    let mut node = root;
    loop {
        let children: Vec<NodeView<'_, G, E>> = node.children().collect();
        let win = children
            .iter()
            .filter_map(|c| match c.proven() {
                Some(Proven::Win(plies)) => Some((plies, *c)),
                _ => None,
            })
            .min_by_key(|&(plies, _)| plies)
            .map(|(_, c)| c);
        let next = win.or_else(|| {
            children
                .iter()
                .filter(|c| !matches!(c.proven(), Some(Proven::Loss(_))))
                .max_by_key(|c| c.visits())
                .copied()
        });
        let Some(next) = next else { return line };
        line.extend(next.mv());
        node = next;
    }
}

/// The recorded node for `node`, the position `board` after its move; `parent_visits` is its
/// parent's (for UCB1).
fn record<G: SearchGame, E: Evaluator<G>>(
    view: &TreeView<'_, G, E>,
    node: NodeView<'_, G, E>,
    parent_visits: Option<u32>,
    board: G,
    level: u32,
    depth: Option<u32>,
) -> MctsNode {
    let visits = node.visits();
    let wins = node.score() as f32 / 2.0;
    // The root's player is not anyone's choice: its rate means nothing here.
    let win_rate = (visits > 0 && node.mv().is_some()).then(|| wins / visits as f32);
    let exploration = parent_visits.filter(|_| visits > 0).map(|n| {
        let log = (n.max(1) as f32).ln();
        view.exploration() * (log / visits as f32).sqrt()
    });
    let proven = node.proven();
    let ucb = match (proven, win_rate, exploration) {
        (None, Some(q), Some(e)) => Some(q + e),
        _ => None,
    };
    let shown = depth.is_none_or(|d| level < d);
    let children = if shown {
        let mut children: Vec<MctsNode> = node
            .children()
            .map(|c| {
                let mv = c.mv().expect("a child has a move");
                let after = board.after(mv).expect("the tree holds legal moves");
                record(view, c, Some(visits), after, level + 1, depth)
            })
            .collect();
        // Most visited first; ties keep the search's order.
        children.sort_by_key(|c| std::cmp::Reverse(c.visits));
        children
    } else {
        Vec::new()
    };
    let hidden = if shown {
        0
    } else {
        recorded(node, None, 0) - 1
    };
    MctsNode {
        mv: node.mv().map(|m| m.to_string()),
        by: node.mv().map(|_| board.to_move().other().symbol()),
        visits,
        wins,
        win_rate,
        exploration,
        ucb,
        proven: proven.map(|p| match p {
            Proven::Win(_) => "win",
            Proven::Loss(_) => "loss",
            Proven::Draw => "draw",
        }),
        plies: match proven {
            Some(Proven::Win(p) | Proven::Loss(p)) => Some(p),
            _ => None,
        },
        pv: false,
        hidden,
        children,
    }
}

/// Marks the nodes along `pv` from the root.
fn mark_pv<M: std::fmt::Display>(tree: &mut MctsNode, pv: &[M]) {
    tree.pv = true;
    let mut node = tree;
    for mv in pv {
        let name = mv.to_string();
        let Some(next) = node
            .children
            .iter_mut()
            .find(|c| c.mv.as_deref() == Some(name.as_str()))
        else {
            return;
        };
        next.pv = true;
        node = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(depth: Option<u32>) -> Limits {
        Limits {
            depth,
            max_nodes: 100_000,
        }
    }

    #[test]
    fn the_same_seed_gives_the_same_tree() {
        let board = UltimateBoard::new();
        let a = explain(&board, 300, 7, limits(Some(2))).unwrap();
        let b = explain(&board, 300, 7, limits(Some(2))).unwrap();
        assert_eq!(a, b);
        assert_eq!(a.iterations, 300);
        assert_eq!(a.tree.children.len(), 81);
    }

    #[test]
    fn visits_add_up_and_ucb_is_the_win_rate_plus_the_exploration_term() {
        let board = UltimateBoard::new();
        let x = explain(&board, 500, 1, limits(Some(1))).unwrap();
        let root = &x.tree;
        let prior = x.prior_visits;
        // Every iteration visits the root and one of its moves (the first expands the root
        // and goes on into a move); each move also has its prior's imaginary visits.
        let children: u32 = root.children.iter().map(|c| c.visits - prior).sum();
        assert_eq!(u64::from(root.visits), x.iterations);
        assert_eq!(u64::from(children), x.iterations);
        for c in &root.children {
            let (q, e, u) = (c.win_rate.unwrap(), c.exploration.unwrap(), c.ucb.unwrap());
            assert!((q + e - u).abs() < 1e-6);
            let expected =
                x.exploration_constant * ((root.visits as f32).ln() / c.visits as f32).sqrt();
            assert!((e - expected).abs() < 1e-6);
        }
        let first = &x.pv[0];
        let most = root.children.iter().max_by_key(|c| c.visits).unwrap();
        assert_eq!(most.mv.as_ref(), Some(first));
        assert!(root.children.iter().filter(|c| c.pv).count() == 1);
    }

    /// A position of a random game where the side to move wins at once.
    fn a_win_in_one() -> UltimateBoard {
        let mut rng = fastrand::Rng::with_seed(3);
        loop {
            let mut board = UltimateBoard::new();
            while board.outcome() == crate::rules::ultimate::Outcome::InProgress {
                let moves: Vec<_> = board.legal_moves().into_iter().collect();
                let wins = moves.iter().any(|&m| {
                    let after = board.with_move(m).unwrap();
                    matches!(after.outcome(), crate::rules::ultimate::Outcome::Won { .. })
                });
                if wins {
                    return board;
                }
                board.play(moves[rng.usize(..moves.len())]).unwrap();
            }
        }
    }

    #[test]
    fn a_win_in_one_is_marked_proven_and_leads_the_principal_variation() {
        let board = a_win_in_one();
        let x = explain(&board, 50, 1, limits(Some(1))).unwrap();
        let won: Vec<&MctsNode> = x
            .tree
            .children
            .iter()
            .filter(|c| c.proven == Some("win"))
            .collect();
        assert!(!won.is_empty(), "{board}");
        assert!(won.iter().all(|c| c.plies == Some(1) && c.ucb.is_none()));
        assert!(won.iter().any(|c| c.mv.as_ref() == Some(&x.pv[0])));
        assert_eq!(x.pv.len(), 1, "the game ends there");
    }

    #[test]
    fn a_tree_too_big_is_refused_with_its_size() {
        let board = UltimateBoard::new();
        let small = Limits {
            depth: None,
            max_nodes: 100,
        };
        let err = explain(&board, 300, 1, small).unwrap_err();
        assert!(matches!(err, ExplainError::TooBig { nodes, .. } if nodes > 100));
    }

    #[test]
    fn the_explorers_tree_is_whole_when_it_fits_and_cut_to_a_depth_when_not() {
        let board = UltimateBoard::new();
        let cancel = Arc::new(AtomicBool::new(false));
        let whole = explain_fitting(&board, 300, 1, 100_000, &cancel).unwrap();
        assert_eq!(whole.depth, None);
        assert_eq!(whole.tree.count(), whole.nodes);
        assert_eq!(whole, explain(&board, 300, 1, limits(None)).unwrap());
        let cut = explain_fitting(&board, 300, 1, 500, &cancel).unwrap();
        let depth = cut.depth.expect("cut to a depth");
        assert!(cut.tree.count() <= 500);
        let deeper = explain(&board, 300, 1, limits(Some(depth + 1))).unwrap();
        assert!(deeper.tree.count() > 500, "the deepest that fits");
        cancel.store(true, Ordering::Relaxed);
        let called_off = explain_fitting(&board, 300, 1, 500, &cancel);
        assert_eq!(called_off, Err(ExplainError::Cancelled));
    }

    #[test]
    fn watching_from_the_start_replays_the_search_that_the_tree_shows() {
        let board = UltimateBoard::new();
        let cancel = Arc::new(AtomicBool::new(false));
        let watched = watch_until(&board, 0, 1, 200, &cancel).unwrap();
        assert_eq!(watched.len(), 200);
        assert_eq!(watched[0].number, 1);
        let tree = explain(&board, 200, 1, limits(Some(1))).unwrap().tree;
        let last = &watched[199].walk[0];
        assert_eq!(
            last.after.0, tree.visits,
            "the last backup leaves the root as shown"
        );
    }
}
