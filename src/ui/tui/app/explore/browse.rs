//! The explorer's tree walking: a recorded tree walked by paths of child indices, the
//! selection among a node's children, the replay of step mode, and the messages of backing up.

use super::keys::Command;
use crate::ui::tui::input::Action;

/// Steps replayed per tick at each speed of step mode, slowest first.
pub const SPEEDS: [usize; 6] = [1, 3, 10, 30, 100, 1000];

/// What a key did in the explorer.
pub enum Outcome {
    Say(String),
    Close,
    /// Close the explorer, then act on the key as the screen under it would.
    CloseAnd(Action),
}

/// Where a replay (of a search's steps, or of its iterations) stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Replay {
    /// The step on screen, from 0.
    pub at: usize,
    pub running: bool,
    /// An index into [`SPEEDS`].
    pub speed: usize,
}

impl Replay {
    /// Applies a command of step mode to a replay whose last step is `last`: Space runs or
    /// pauses (at the end, runs again from the start), one step on or back, the end or the
    /// start, the speed. Returns whether it was one of these.
    pub(super) fn apply(&mut self, command: Command, last: usize) -> bool {
        match command {
            Command::RunPause if self.at == last => (self.at, self.running) = (0, true),
            Command::RunPause => self.running = !self.running,
            Command::Forward => (self.at, self.running) = ((self.at + 1).min(last), false),
            Command::Backward => (self.at, self.running) = (self.at.saturating_sub(1), false),
            Command::ToEnd => (self.at, self.running) = (last, false),
            Command::ToStart => (self.at, self.running) = (0, false),
            Command::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Command::Slower => self.speed = self.speed.saturating_sub(1),
            _ => return false,
        }
        true
    }

    /// One tick of the loop's clock: a running replay takes its next steps, and stops at
    /// `last`.
    pub(super) fn tick(&mut self, last: usize) {
        if self.running {
            self.at = (self.at + SPEEDS[self.speed]).min(last);
            self.running = self.at < last;
        }
    }
}

/// The keys of step mode, for the message line.
/// What a digit says on a board whose cells have none (larger than 3×3).
pub(super) const NO_DIGITS: &str = "On this board: ↑ ↓ choose a move, Enter goes into it";

pub(super) const STEP_KEYS: &str = "Step mode: Space runs or pauses, → steps, 1 goes to the end";

/// A node of a recorded tree, as the explorer walks it.
pub trait TreeNode: Sized {
    fn children(&self) -> &[Self];
    /// The move that leads here from the parent; `None` at the root.
    fn mv(&self) -> Option<&str>;
    /// Why following moves may not go into this node, if they may not.
    fn closed(&self) -> Option<String> {
        None
    }
    /// The child a reader most likely wants to go into.
    fn best_child(&self) -> usize;
}

/// The node at `path` below `tree`, if the path stays in it.
pub(super) fn node_at<'a, N: TreeNode>(tree: &'a N, path: &[usize]) -> Option<&'a N> {
    path.iter()
        .try_fold(tree, |node, &i| node.children().get(i))
}

/// The moves from `tree` to the node at `path`.
///
/// # Panics
/// If `path` leaves the tree.
pub(super) fn moves_along<N: TreeNode>(tree: &N, path: &[usize]) -> Vec<String> {
    let mut node = tree;
    let mut moves = Vec::new();
    for &i in path {
        node = &node.children()[i];
        moves.extend(node.mv().map(str::to_string));
    }
    moves
}

/// The path to the node `moves` lead to from `tree`, or as far along them as the tree holds
/// followable nodes.
pub(super) fn path_along<N: TreeNode>(tree: &N, moves: &[String]) -> Vec<usize> {
    let mut path = Vec::new();
    let mut node = tree;
    for name in moves {
        let found = node
            .children()
            .iter()
            .position(|c| c.closed().is_none() && c.mv() == Some(name.as_str()));
        let Some(i) = found else { break };
        path.push(i);
        node = &node.children()[i];
    }
    path
}

/// The index of `node`'s child reached by the move `name`.
pub(super) fn child_named<N: TreeNode>(node: &N, name: &str) -> Option<usize> {
    node.children().iter().position(|c| c.mv() == Some(name))
}

/// The selection among `count` children after one step down or up, wrapping round; with no
/// children it stays.
pub(super) fn moved(selected: usize, count: usize, down: bool) -> usize {
    match count {
        0 => selected,
        _ if down => (selected + 1) % count,
        _ => (selected + count - 1) % count,
    }
}

/// `Back at 5 1`, or `Back at the root`, once a node is left for its parent at `moves`.
pub(super) fn back_at(moves: &[String]) -> Outcome {
    let at = if moves.is_empty() {
        "the root".to_string()
    } else {
        moves.join(" ")
    };
    Outcome::Say(format!("Back at {at}"))
}

/// An exploration that keeps the explorations it was opened from, by searching again below a
/// recorded tree, to return to them.
pub(super) trait Nested: Sized {
    /// The explorations this one was opened from, the latest last.
    fn earlier(&mut self) -> &mut Vec<Self>;

    /// Puts `fresh` in this one's place, keeping this one (and those it was opened from) to
    /// return to.
    fn nest(&mut self, fresh: Self) {
        let mut old = std::mem::replace(self, fresh);
        *self.earlier() = std::mem::take(old.earlier());
        self.earlier().push(old);
    }

    /// Returns to the exploration this one was opened from; `false` if there is none.
    fn unnest(&mut self) -> bool {
        let Some(mut earlier) = self.earlier().pop() else {
            return false;
        };
        *earlier.earlier() = std::mem::take(self.earlier());
        *self = earlier;
        true
    }
}
