//! The search explorer: the recorded trees of one position's searches, the node being looked
//! at, and step mode, which replays a search. It is written once, as [`Explore`], over the
//! [`Kind`] of search it shows: the textbook searches ([`Textbook`], on the boards small
//! enough for them) or the Monte Carlo tree ([`MonteCarlo`], on every rule set). `t` opens it
//! on the game's position or on the position the review shows; the searches run on the
//! worker, and the recorded trees are bounded ([`crate::ui::tui::worker::EXPLORER_NODES`]),
//! so nothing here is slow.

mod browse;
pub mod keys;
mod mcts;
mod textbook;

use std::fmt;

use crate::explain::ExplainError;
use crate::rules::position::Position;
use crate::ui::keypad::Digit;
use crate::ui::tui::input::Action;
use crate::ui::tui::keymap::{self, Binding};
use crate::ui::tui::worker::{Job, Reply};

use super::{App, Mode};
use browse::{Nested, Outcome, STEP_KEYS};
use keys::Command;

#[cfg(test)]
pub(crate) use mcts::answer_mcts;
pub use mcts::{COUNTS, MonteCarlo, STEP_LIMIT};
#[cfg(test)]
pub(crate) use textbook::answer_searches;
pub use textbook::{Stepping, Textbook, step_words};

pub use browse::{Replay, SPEEDS, TreeNode};

/// A kind of search the explorer shows: what its searches are, how its keys and messages go,
/// and what step mode replays. Everything else (moving in the tree, searching again below
/// it, backing up, the replay's keys) is [`Explore`]'s, the same for every kind.
pub trait Kind: Sized {
    /// One search of the position, as the worker sends it.
    type Explanation: Clone + fmt::Debug + PartialEq;
    /// A node of its recorded tree.
    type Node: TreeNode;
    /// What step mode replays, once worked out.
    type Steps: Clone + fmt::Debug + PartialEq + Default;
    /// How many searches of one position there are to choose from (one per algorithm, or
    /// one per number of iterations), and the one the explorer opens on.
    const SLOTS: usize;
    const FIRST: usize;

    /// The root of a search's recorded tree.
    fn tree(explanation: &Self::Explanation) -> &Self::Node;
    /// The keys, for the message line.
    fn keys(explore: &Explore<Self>) -> &'static str;
    /// Why there is no tree to move in: still searching, or the search failed.
    fn no_tree(explore: &Explore<Self>) -> String;
    /// What the worker should work out, if anything.
    fn job(explore: &Explore<Self>) -> Option<Job>;
    /// The keys ([`keys`]) while walking the tree, and in step mode; [`keys::ALWAYS`] go
    /// with both.
    fn key_maps(
        explore: &Explore<Self>,
    ) -> (&'static [Binding<Command>], &'static [Binding<Command>]);
    /// A command of this kind's own (the algorithm, the iterations) while walking the tree.
    fn own_key(explore: &mut Explore<Self>, command: Command) -> Outcome;
    /// A command in step mode, before the replay's: `None` leaves it to the replay.
    fn own_step_key(explore: &mut Explore<Self>, command: Command) -> Option<Outcome>;
    /// `s`: step mode, from the node looked at.
    fn start_stepping(explore: &mut Explore<Self>) -> Outcome;
    /// The last step of the replay, once its steps have been worked out.
    fn last_step(explore: &Explore<Self>) -> Option<usize>;
    /// What searching again from `moves` says.
    fn searching_again(moves: &[String]) -> String;
}

/// The explorer's state on one kind of search of one position, and where the reader is.
#[derive(Clone, Debug, PartialEq)]
pub struct Explore<K: Kind> {
    /// The position every tree starts from.
    root: Position,
    /// Each slot's search, once it has arrived.
    results: Vec<Option<Result<K::Explanation, ExplainError>>>,
    /// The search on screen.
    slot: usize,
    /// The node looked at: the children taken from the root.
    path: Vec<usize>,
    /// The child highlighted in the list.
    selected: usize,
    /// The moves to the node looked at, kept while the search on screen is worked out.
    waiting_at: Vec<String>,
    /// The board typed as the first of a move's two digits (Ultimate).
    board_digit: Option<u8>,
    /// Step mode: where the replay stands.
    stepping: Option<Replay>,
    /// What step mode replays.
    steps: K::Steps,
    /// The explorations this one was opened from, by searching again below a recorded tree.
    earlier: Vec<Explore<K>>,
}

impl<K: Kind> Nested for Explore<K> {
    fn earlier(&mut self) -> &mut Vec<Explore<K>> {
        &mut self.earlier
    }
}

impl<K: Kind> Explore<K> {
    fn new(root: Position, slot: usize) -> Explore<K> {
        Explore {
            root,
            results: vec![None; K::SLOTS],
            slot,
            path: Vec::new(),
            selected: 0,
            waiting_at: Vec::new(),
            board_digit: None,
            stepping: None,
            steps: K::Steps::default(),
            earlier: Vec::new(),
        }
    }

    pub fn root(&self) -> &Position {
        &self.root
    }

    /// The search on screen, once it has arrived.
    pub fn result(&self) -> Option<&Result<K::Explanation, ExplainError>> {
        self.results[self.slot].as_ref()
    }

    /// The search on screen, if it arrived and succeeded.
    pub fn explanation(&self) -> Option<&K::Explanation> {
        self.result().and_then(|r| r.as_ref().ok())
    }

    /// The node looked at.
    pub fn node(&self) -> Option<&K::Node> {
        browse::node_at(K::tree(self.explanation()?), &self.path)
    }

    pub fn selected(&self) -> usize {
        self.selected
    }

    /// The path to the node looked at.
    pub fn path(&self) -> &[usize] {
        &self.path
    }

    /// The board typed as the first digit of a move, waiting for its cell.
    pub fn board_digit(&self) -> Option<u8> {
        self.board_digit
    }

    /// How many explorations this one was opened from.
    pub fn nested(&self) -> usize {
        self.earlier.len()
    }

    /// Step mode's replay, while it is on.
    pub fn stepping(&self) -> Option<&Replay> {
        self.stepping.as_ref()
    }

    /// The moves from the root to the node looked at.
    pub fn moves(&self) -> Vec<String> {
        self.moves_to(&self.path)
    }

    /// The moves from the root to the node at `path`.
    pub fn moves_to(&self, path: &[usize]) -> Vec<String> {
        self.explanation()
            .map_or_else(Vec::new, |x| browse::moves_along(K::tree(x), path))
    }

    /// The position after `moves` (as the tree names them) from the root.
    ///
    /// # Panics
    /// If a move is not legal there: the tree holds only legal moves.
    pub fn position_after<S: AsRef<str>>(&self, moves: &[S]) -> Position {
        let mut position = self.root;
        for name in moves {
            let mv = position
                .parse_move(name.as_ref())
                .expect("the tree names its moves");
            position.play(mv).expect("the tree holds legal moves");
        }
        position
    }

    pub(super) fn job(&self) -> Option<Job> {
        K::job(self)
    }

    /// Takes slot `slot`'s search from the worker, and looks where the reader was waiting.
    fn arrived(&mut self, slot: usize, result: Result<K::Explanation, ExplainError>) {
        self.results[slot] = Some(result);
        if slot == self.slot {
            let moves = std::mem::take(&mut self.waiting_at);
            self.follow(&moves);
        }
    }

    /// Shows slot `slot`'s search, at the node the same moves lead to (or as far along them as
    /// it holds; once it arrives, if it has not yet).
    fn show(&mut self, slot: usize) {
        let moves = if self.result().is_some() {
            self.moves()
        } else {
            std::mem::take(&mut self.waiting_at)
        };
        self.slot = slot;
        self.follow(&moves);
        if self.result().is_none() {
            self.waiting_at = moves;
        }
    }

    /// Looks at the node `moves` lead to in the search on screen, or as far along them as it
    /// recorded (a pruned node is not followed).
    fn follow(&mut self, moves: &[String]) {
        self.path = self
            .explanation()
            .map_or_else(Vec::new, |x| browse::path_along(K::tree(x), moves));
        self.selected = self.node().map_or(0, TreeNode::best_child);
    }

    /// The explorer's keys now, in the help's order: walking the tree or in step mode, then
    /// those of any time.
    pub fn key_map(&self) -> impl Iterator<Item = &'static Binding<Command>> {
        let (browse, step) = K::key_maps(self);
        let now = if self.stepping.is_some() {
            step
        } else {
            browse
        };
        now.iter().chain(&keys::ALWAYS)
    }

    /// Every key of the explorer on this search, for the help.
    pub fn help_map(&self) -> impl Iterator<Item = &'static Binding<Command>> {
        let (browse, step) = K::key_maps(self);
        browse.iter().chain(step).chain(&keys::ALWAYS)
    }

    pub(super) fn key(&mut self, action: &Action) -> Outcome {
        let Some(command) = keymap::command(self.key_map(), action) else {
            let keys = if self.stepping.is_some() {
                STEP_KEYS
            } else {
                K::keys(self)
            };
            return Outcome::Say(keys.into());
        };
        match command {
            Command::Close => Outcome::Close,
            Command::Leave => Outcome::CloseAnd(action.clone()),
            _ if self.stepping.is_some() => self.step_key(command),
            Command::Back if self.board_digit.take().is_some() => {
                Outcome::Say("Board choice cancelled".into())
            }
            Command::Previous => self.select(false),
            Command::Next => self.select(true),
            Command::Into => self.descend(self.selected),
            Command::Digit => match action {
                Action::Digit(d) => self.digit(*d),
                _ => Outcome::Say(K::keys(self).into()),
            },
            Command::Back => self.up(),
            Command::Step => self.start_stepping(),
            _ => K::own_key(self, command),
        }
    }

    fn step_key(&mut self, command: Command) -> Outcome {
        if command == Command::LeaveStep {
            self.stepping = None;
            return Outcome::Say("Step mode left".into());
        }
        if let Some(outcome) = K::own_step_key(self, command) {
            return outcome;
        }
        let Some(last) = K::last_step(self) else {
            return Outcome::Say("Still working out the steps… (Esc leaves)".into());
        };
        if let Some(replay) = self.stepping.as_mut() {
            replay.apply(command, last);
        }
        Outcome::Say(STEP_KEYS.into())
    }

    /// Starts a new exploration at the node looked at, whose tree was not recorded below it
    /// (or not grown yet): a search from there, Backspace returning here.
    fn search_from_here(&mut self) -> Outcome {
        let moves = self.moves();
        let fresh = Explore::new(self.position_after(&moves), self.slot);
        self.nest(fresh);
        Outcome::Say(K::searching_again(&moves))
    }

    /// One tick of a running replay.
    pub(super) fn tick(&mut self) {
        let Some(last) = K::last_step(self) else {
            return;
        };
        if let Some(replay) = self.stepping.as_mut() {
            replay.tick(last);
        }
    }

    pub(super) fn running(&self) -> bool {
        self.stepping.is_some_and(|s| s.running)
    }
}

/// The moves in the tree, each answering with what the explorer says.
impl<K: Kind> Explore<K> {
    /// ↑ ↓: the selection one child up or down.
    fn select(&mut self, down: bool) -> Outcome {
        let Some(count) = self.node().map(|n| n.children().len()) else {
            return Outcome::Say(K::no_tree(self));
        };
        self.selected = browse::moved(self.selected, count, down);
        Outcome::Say(K::keys(self).into())
    }

    /// A digit: a move as the keypad names it in the position looked at: a cell, or on
    /// Ultimate the board of a move and then its cell (one digit when sent to a board).
    fn digit(&mut self, d: u8) -> Outcome {
        let Some(empty) = self.node().map(|n| n.children().is_empty()) else {
            return Outcome::Say(K::no_tree(self));
        };
        if empty {
            return self.descend(0);
        }
        let position = self.position_after(&self.moves());
        let mv = match position.digit(self.board_digit.take(), d) {
            Digit::Move(mv) => mv,
            Digit::Board(b) => {
                self.board_digit = Some(b);
                return Outcome::Say(format!("Board {b}: now the cell (Esc cancels)"));
            }
            Digit::ClosedBoard(b) => return Outcome::Say(format!("Board {b} is closed")),
            Digit::NoDigits => return Outcome::Say(browse::NO_DIGITS.into()),
        };
        let name = mv.to_string();
        let found = self.node().and_then(|n| browse::child_named(n, &name));
        match found {
            Some(i) => {
                self.selected = i;
                self.descend(i)
            }
            None => Outcome::Say(format!("{name} is not a move here")),
        }
    }

    fn descend(&mut self, i: usize) -> Outcome {
        let Some(node) = self.node() else {
            return Outcome::Say(K::no_tree(self));
        };
        let Some(child) = node.children().get(i) else {
            if self.position_after(&self.moves()).is_over() {
                return Outcome::Say("The game is over here: there is nothing below".into());
            }
            return self.search_from_here();
        };
        if let Some(why) = child.closed() {
            return Outcome::Say(why);
        }
        self.path.push(i);
        self.selected = self.node().map_or(0, TreeNode::best_child);
        Outcome::Say(format!("At {}", self.moves().join(" ")))
    }

    fn up(&mut self) -> Outcome {
        if let Some(i) = self.path.pop() {
            self.selected = i;
            return browse::back_at(&self.moves());
        }
        let slot = self.slot;
        if !self.unnest() {
            return Outcome::Close;
        }
        if self.slot != slot {
            self.show(slot);
        }
        Outcome::Say("Back to the search it was opened from".into())
    }

    fn start_stepping(&mut self) -> Outcome {
        if self.node().is_none() {
            return Outcome::Say(K::no_tree(self));
        }
        self.board_digit = None;
        K::start_stepping(self)
    }
}

/// The explorer open on a position, by the kind of search on screen. On a classic board `a`
/// goes from the last textbook search to the Monte Carlo tree and on to the first again; the
/// textbook searches wait beside the tree meanwhile.
#[derive(Clone, Debug, PartialEq)]
pub enum Explorer {
    Textbook(Explore<Textbook>),
    Mcts(Explore<MonteCarlo>, Option<Box<Explore<Textbook>>>),
}

impl Explorer {
    /// The explorer of `position`: its textbook searches where it has them, else its Monte
    /// Carlo tree.
    fn new(position: Position) -> Explorer {
        if position.classic().is_some() {
            Explorer::Textbook(Explore::new(position, Textbook::FIRST))
        } else {
            Explorer::Mcts(Explore::new(position, MonteCarlo::FIRST), None)
        }
    }

    /// What the explorer says as it opens.
    fn opening(&self) -> String {
        match self {
            Explorer::Textbook(_) => "Searching: every algorithm from this position…".into(),
            Explorer::Mcts(x, _) => format!(
                "Searching: {} iterations of Monte Carlo tree search…",
                crate::text::grouped(x.iterations())
            ),
        }
    }

    pub(super) fn job(&self) -> Option<Job> {
        match self {
            Explorer::Textbook(x) => x.job(),
            Explorer::Mcts(x, _) => x.job(),
        }
    }

    fn key(&mut self, action: &Action) -> Outcome {
        if matches!(action, Action::Analyse)
            && let Some(outcome) = self.switch()
        {
            return outcome;
        }
        match self {
            Explorer::Textbook(x) => x.key(action),
            Explorer::Mcts(x, _) => x.key(action),
        }
    }

    /// `a` past the last textbook search: to the Monte Carlo tree of the same position, or
    /// from it back to the first textbook search; `None` where `a` means something else.
    fn switch(&mut self) -> Option<Outcome> {
        match self {
            Explorer::Textbook(x) if x.stepping.is_none() && x.slot + 1 == Textbook::SLOTS => {
                let tree = Explore::<MonteCarlo>::new(x.root, MonteCarlo::FIRST);
                let message = format!(
                    "Algorithm: {} ({} iterations)",
                    crate::explain::Algorithm::Mcts.title(),
                    crate::text::grouped(tree.iterations())
                );
                let Explorer::Textbook(textbook) =
                    std::mem::replace(self, Explorer::Mcts(tree, None))
                else {
                    unreachable!("matched above")
                };
                if let Explorer::Mcts(_, back) = self {
                    *back = Some(Box::new(textbook));
                }
                Some(Outcome::Say(message))
            }
            Explorer::Mcts(x, back) if x.stepping.is_none() && back.is_some() => {
                let mut textbook = back.take().expect("matched above");
                let outcome = textbook.cycle();
                *self = Explorer::Textbook(*textbook);
                Some(outcome)
            }
            _ => None,
        }
    }

    fn tick(&mut self) {
        match self {
            Explorer::Textbook(x) => x.tick(),
            Explorer::Mcts(x, _) => x.tick(),
        }
    }

    fn running(&self) -> bool {
        match self {
            Explorer::Textbook(x) => x.running(),
            Explorer::Mcts(x, _) => x.running(),
        }
    }
}

impl App {
    /// The explorer, while it is open.
    fn open_explorer_state(&self) -> Option<&Explorer> {
        match self.base_mode() {
            Mode::Explore(explorer, _) => Some(explorer),
            _ => None,
        }
    }

    /// The explorer, while it is open on the textbook searches.
    pub fn explorer(&self) -> Option<&Explore<Textbook>> {
        match self.open_explorer_state()? {
            Explorer::Textbook(x) => Some(x),
            Explorer::Mcts(..) => None,
        }
    }

    /// The explorer, while it is open on the Monte Carlo tree.
    pub fn mcts_explorer(&self) -> Option<&Explore<MonteCarlo>> {
        match self.open_explorer_state()? {
            Explorer::Mcts(x, _) => Some(x),
            Explorer::Textbook(_) => None,
        }
    }

    /// Whether the screen changes by itself: step mode is running.
    pub fn ticking(&self) -> bool {
        self.open_explorer_state().is_some_and(Explorer::running)
    }

    /// `t`: opens the explorer on the position on screen.
    pub(super) fn open_explorer(&mut self) {
        if crate::explain::explorable(&self.shown_position()).is_err() {
            self.message = "No explorer on a board this large: it shows boards up to 16×16".into();
            return;
        }
        if !self.explorer_allowed() {
            self.message = self.hints_off().unwrap_or_default();
            return;
        }
        let explorer = Explorer::new(self.shown_position());
        let message = explorer.opening();
        let under = std::mem::replace(&mut self.mode, Mode::Playing);
        self.mode = Mode::Explore(Box::new(explorer), Box::new(under));
        self.message = message;
    }

    pub(super) fn explore_key(&mut self, action: &Action) {
        let Mode::Explore(explorer, _) = &mut self.mode else {
            return;
        };
        match explorer.key(action) {
            Outcome::Say(message) => self.message = message,
            Outcome::Close => self.close_explorer(),
            Outcome::CloseAnd(action) => {
                self.close_explorer();
                self.update(action);
            }
        }
    }

    fn close_explorer(&mut self) {
        if let Mode::Explore(_, under) = std::mem::replace(&mut self.mode, Mode::Playing) {
            self.mode = *under;
        }
        if self.review().is_some() {
            self.show_review_move();
        } else if self.paused() {
            self.message = super::PAUSED.into();
        } else {
            self.message = self.turn_message();
        }
    }

    /// Takes a search, or step mode's iterations, from the worker.
    pub(super) fn explained(&mut self, reply: Reply) {
        let Mode::Explore(explorer, _) = self.base_mode_mut() else {
            return;
        };
        let message = match (explorer.as_mut(), reply) {
            (
                Explorer::Textbook(x),
                Reply::Explained {
                    algorithm, result, ..
                },
            ) => x.explained(algorithm, *result),
            (Explorer::Mcts(x, _), Reply::ExplainedMcts(result)) => Some(x.explained(*result)),
            (Explorer::Mcts(x, _), Reply::Watched(result)) => Some(x.watched_arrived(*result)),
            _ => return,
        };
        if let Some(message) = message {
            self.message = message;
        }
    }

    /// One tick of the loop's clock, while [`App::ticking`].
    pub(super) fn tick(&mut self) {
        if let Mode::Explore(explorer, _) = self.base_mode_mut() {
            explorer.tick();
        }
    }
}
