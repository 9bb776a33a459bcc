//! The recorded search replayed node by node, for step mode: every node entered, every
//! cut-off and every node left, in the order the search did them, and what is known at each
//! step (the best value so far and the window as it narrows).

use super::{Node, Window};

/// What happens at one step of the replay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// The search enters the node, with the window it was given.
    Enter,
    /// The window closed (α ≥ β): the node's remaining moves are pruned.
    Cut,
    /// The node's value is settled: the game is over there, the table knew it, or every move
    /// searched has been backed up.
    Leave,
}

/// One step: a node of the replayed tree and what happens to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The node, as the indices of the children taken from the replay's root.
    pub path: Vec<usize>,
    pub kind: StepKind,
}

/// Every step of the search recorded under `root`, in the order the search took them: a node
/// is entered, its children searched in turn, then it is cut off (if it was) and left. Pruned
/// children are never entered.
pub fn steps(root: &Node) -> Vec<Step> {
    let mut out = Vec::new();
    let mut path = Vec::new();
    walk(root, &mut path, &mut out);
    out
}

fn walk(node: &Node, path: &mut Vec<usize>, out: &mut Vec<Step>) {
    let step = |kind, path: &[usize]| Step {
        path: path.to_vec(),
        kind,
    };
    out.push(step(StepKind::Enter, path));
    for (i, child) in node.children.iter().enumerate() {
        if !child.pruned {
            path.push(i);
            walk(child, path, out);
            path.pop();
        }
    }
    if node.cutoff {
        out.push(step(StepKind::Cut, path));
    }
    out.push(step(StepKind::Leave, path));
}

/// How many of `node`'s children are searched and backed up by `step`, where `node` is the
/// node at `depth` on the step's path (0: the replay's root).
pub fn done_children(node: &Node, step: &Step, depth: usize) -> usize {
    match step.path.get(depth) {
        Some(&i) => i,
        None if step.kind == StepKind::Enter => 0,
        None => node.children.iter().filter(|c| !c.pruned).count(),
    }
}

/// The best value among `node`'s first `done` children, and its window narrowed by them: X
/// raises α, O lowers β. The window is `None` where the search has none (plain minimax).
pub fn progress(node: &Node, done: usize) -> (Option<i32>, Option<Window>) {
    let maximising = node.to_move == 'X';
    let values = node.children[..done.min(node.children.len())]
        .iter()
        .filter_map(|c| c.value);
    let best = if maximising {
        values.max()
    } else {
        values.min()
    };
    let window = node.window.map(|w| match best {
        Some(b) if maximising => Window {
            alpha: Some(w.alpha.map_or(b, |a| a.max(b))),
            ..w
        },
        Some(b) => Window {
            beta: Some(w.beta.map_or(b, |a| a.min(b))),
            ..w
        },
        None => w,
    });
    (best, window)
}

/// The node at `path` below `root`, if the tree holds it.
pub fn node_at<'a>(root: &'a Node, path: &[usize]) -> Option<&'a Node> {
    path.iter().try_fold(root, |node, &i| node.children.get(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::explain::{Algorithm, Limits, explain};
    use crate::rules::classic::Board;
    use crate::rules::position::Position;

    fn tree(board: &str, algorithm: Algorithm) -> Node {
        let position = Position::Classic(board.parse::<Board>().unwrap());
        let limits = Limits {
            depth: None,
            max_nodes: 100_000,
        };
        explain(&position, algorithm, limits).unwrap().tree
    }

    #[test]
    fn every_searched_node_is_entered_and_left_once_and_every_cut_off_told() {
        let root = tree("X.O/.X./..O", Algorithm::AlphaBeta);
        let steps = steps(&root);
        let count = |kind| steps.iter().filter(|s| s.kind == kind).count();
        let searched = root.count() - pruned(&root);
        assert_eq!(count(StepKind::Enter), searched);
        assert_eq!(count(StepKind::Leave), searched);
        assert!(count(StepKind::Cut) > 0);
        assert_eq!(steps.first().unwrap().path, Vec::<usize>::new());
        assert_eq!(steps.last().unwrap().kind, StepKind::Leave);
        assert!(
            steps
                .iter()
                .all(|s| node_at(&root, &s.path).is_some_and(|n| !n.pruned))
        );
    }

    fn pruned(node: &Node) -> usize {
        usize::from(node.pruned) + node.children.iter().map(pruned).sum::<usize>()
    }

    #[test]
    fn the_window_narrows_with_each_child_backed_up() {
        let root = tree("X.O/.X./..O", Algorithm::AlphaBeta);
        // At the root's last step its best is its value, and the mover's end of the window
        // (α for X, β for O) has moved to it.
        let end = steps(&root).pop().unwrap();
        let done = done_children(&root, &end, 0);
        let (best, window) = progress(&root, done);
        assert_eq!(best, root.value);
        let window = window.unwrap();
        let moved = if root.to_move == 'X' {
            window.alpha
        } else {
            window.beta
        };
        assert_eq!(moved, root.value);
        assert_eq!(progress(&root, 0), (None, root.window));
    }
}
