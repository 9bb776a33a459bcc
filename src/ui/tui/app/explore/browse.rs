//! The explorer's tree walking: a recorded tree walked by paths of child indices, the
//! selection among a node's children, the replay of step mode, and the messages of backing up.

use crate::ui::tui::input::{Action, Direction};

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
    /// Applies a key of step mode to a replay whose last step is `last`: Space runs or pauses
    /// (at the end, runs again from the start), → ← (or 6 4) one step, 1 7 the end and the
    /// start, + - the speed. Returns whether the key was one of these.
    pub(super) fn key(&mut self, action: &Action, last: usize) -> bool {
        match action {
            Action::Activate if self.at == last => (self.at, self.running) = (0, true),
            Action::Activate => self.running = !self.running,
            Action::Move(Direction::Right) | Action::Digit(6) => {
                (self.at, self.running) = ((self.at + 1).min(last), false);
            }
            Action::Move(Direction::Left) | Action::Digit(4) => {
                (self.at, self.running) = (self.at.saturating_sub(1), false);
            }
            Action::Digit(1) => (self.at, self.running) = (last, false),
            Action::Digit(7) => (self.at, self.running) = (0, false),
            Action::Faster => self.speed = (self.speed + 1).min(SPEEDS.len() - 1),
            Action::Slower => self.speed = self.speed.saturating_sub(1),
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

/// What the explorer does with a key that leaves it, in every one of its modes: `t` closes it;
/// quitting, a new round and the panic key close it and go on to the screen under it.
pub(super) fn leaving(action: &Action) -> Option<Outcome> {
    match action {
        Action::Explore => Some(Outcome::Close),
        Action::Quit | Action::Interrupt | Action::NewRound | Action::Panic => {
            Some(Outcome::CloseAnd(action.clone()))
        }
        _ => None,
    }
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

/// The moves in a tree that both explorers make, each answering with what the explorer says.
pub(super) trait Browser {
    /// The child highlighted in the list.
    fn selected(&self) -> usize;
    /// ↑ ↓: the selection one child up or down.
    fn select(&mut self, down: bool) -> Outcome;
    /// A digit: goes into the move it names, or takes it as part of one.
    fn digit(&mut self, d: u8) -> Outcome;
    /// Goes into child `i`, or searches again where the recorded tree ends.
    fn descend(&mut self, i: usize) -> Outcome;
    /// Backs up to the parent, or to the exploration this one was opened from.
    fn up(&mut self) -> Outcome;
    /// `s`: step mode.
    fn start_stepping(&mut self) -> Outcome;
}

/// A key that moves in the tree, the same in both explorers; `None` for any other.
pub(super) fn browse_key<B: Browser>(browser: &mut B, action: &Action) -> Option<Outcome> {
    Some(match action {
        Action::Move(Direction::Up) => browser.select(false),
        Action::Move(Direction::Down) => browser.select(true),
        Action::Move(Direction::Right) | Action::Activate => browser.descend(browser.selected()),
        Action::Digit(d) => browser.digit(*d),
        Action::Move(Direction::Left) | Action::Back | Action::Escape => browser.up(),
        Action::Step => browser.start_stepping(),
        _ => return None,
    })
}
