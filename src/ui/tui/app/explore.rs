//! The search explorer: the textbook searches of one position ([`crate::explain`]), the node
//! being looked at, and step mode, which replays the recorded search node by node. `t` opens
//! it on the game's position or on the position the review shows; the searches run on the
//! worker, and the recorded trees are bounded ([`crate::ui::tui::worker::EXPLORER_NODES`]), so nothing here is slow.

use crate::explain::{self, Algorithm, ExplainError, Explanation, Node, Step, StepKind};
use crate::rules::position::Position;
use crate::ui::tui::input::Action;
use crate::ui::tui::worker::{Job, Reply};

use super::browse::{self, Browser, Nested, Outcome, Replay, STEP_KEYS};
use super::explore_mcts::MctsExplore;
use super::{App, Mode};

/// The keys of the explorer, for the message line.
const KEYS: &str = "Enter or a digit goes into a move, Backspace back up";

/// The explorer's state: every algorithm's search of one position and where the reader is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explore {
    /// The position every tree starts from.
    root: Position,
    /// Each algorithm's search, in the order of [`Algorithm::ALL`]; `None` until it arrives.
    results: Vec<Option<Result<Explanation, ExplainError>>>,
    algorithm: Algorithm,
    /// The node looked at: the children taken from the root.
    path: Vec<usize>,
    /// The child highlighted in the list.
    selected: usize,
    stepping: Option<Stepping>,
    /// The explorations this one was opened from, by searching again below a recorded tree.
    earlier: Vec<Explore>,
}

/// Step mode: the search below one node replayed step by step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stepping {
    /// The node the replay starts from, as a path from the explorer's root.
    pub from: Vec<usize>,
    pub steps: Vec<Step>,
    pub replay: Replay,
}

/// The explorer open on a position, by the kind of search on screen: the textbook searches
/// (on the boards small enough for them), or the Monte Carlo tree (on every rule set). On a
/// classic board `a` goes from the last textbook search to the Monte Carlo tree and on to the
/// first again; the textbook searches wait beside the tree meanwhile.
#[derive(Clone, Debug, PartialEq)]
pub enum Explorer {
    Textbook(Explore),
    Mcts(MctsExplore, Option<Box<Explore>>),
}

impl Explorer {
    /// The explorer of `position`: its textbook searches where it has them, else its Monte
    /// Carlo tree.
    fn new(position: Position) -> Explorer {
        if position.classic().is_some() {
            Explorer::Textbook(Explore::new(position, Algorithm::Minimax))
        } else {
            Explorer::Mcts(MctsExplore::new(position), None)
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
        if matches!(action, Action::Letter('a'))
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
            Explorer::Textbook(x)
                if x.stepping.is_none() && slot(x.algorithm) + 1 == Algorithm::ALL.len() =>
            {
                let tree = MctsExplore::new(x.root);
                let message = format!(
                    "Algorithm: {} ({} iterations)",
                    Algorithm::Mcts.title(),
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
            Explorer::Mcts(x, back) if x.stepping().is_none() && back.is_some() => {
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

fn slot(algorithm: Algorithm) -> usize {
    Algorithm::ALL
        .iter()
        .position(|&a| a == algorithm)
        .expect("every algorithm is listed")
}

impl Nested for Explore {
    fn earlier(&mut self) -> &mut Vec<Explore> {
        &mut self.earlier
    }
}

impl Explore {
    fn new(root: Position, algorithm: Algorithm) -> Explore {
        Explore {
            root,
            results: vec![None; Algorithm::ALL.len()],
            algorithm,
            path: Vec::new(),
            selected: 0,
            stepping: None,
            earlier: Vec::new(),
        }
    }

    pub fn root(&self) -> &Position {
        &self.root
    }

    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// `algorithm`'s search, once it has arrived.
    pub fn result(&self, algorithm: Algorithm) -> Option<&Result<Explanation, ExplainError>> {
        self.results[slot(algorithm)].as_ref()
    }

    /// The chosen algorithm's search, if it arrived and succeeded.
    pub fn explanation(&self) -> Option<&Explanation> {
        self.result(self.algorithm).and_then(|r| r.as_ref().ok())
    }

    /// The node looked at.
    pub fn node(&self) -> Option<&Node> {
        explain::node_at(&self.explanation()?.tree, &self.path)
    }

    pub fn selected(&self) -> usize {
        self.selected
    }

    pub fn stepping(&self) -> Option<&Stepping> {
        self.stepping.as_ref()
    }

    /// How many explorations this one was opened from.
    pub fn nested(&self) -> usize {
        self.earlier.len()
    }

    /// The moves from the root to the node at `path`.
    pub fn moves(&self, path: &[usize]) -> Vec<String> {
        self.explanation()
            .map_or_else(Vec::new, |e| browse::moves_along(&e.tree, path))
    }

    /// The path to the node looked at.
    pub fn path(&self) -> &[usize] {
        &self.path
    }

    /// The position after `moves` from the root.
    pub fn position_after(&self, moves: &[String]) -> Position {
        let mut position = self.root;
        for name in moves {
            let mv = position
                .parse_move(name)
                .expect("a recorded move names a move");
            position.play(mv).expect("a recorded move is legal");
        }
        position
    }

    /// The step on screen in step mode, with the node it is at.
    pub fn step(&self) -> Option<(&Step, &Node)> {
        let stepping = self.stepping.as_ref()?;
        let step = stepping.steps.get(stepping.replay.at)?;
        let from = explain::node_at(&self.explanation()?.tree, &stepping.from)?;
        Some((step, explain::node_at(from, &step.path)?))
    }

    /// The searches still to be worked out, as the worker's job.
    pub(super) fn job(&self) -> Option<Job> {
        self.results
            .iter()
            .any(Option::is_none)
            .then_some(Job::Explain {
                position: self.root,
            })
    }

    pub(super) fn key(&mut self, action: &Action) -> Outcome {
        if let Some(outcome) = browse::leaving(action) {
            return outcome;
        }
        if self.stepping.is_some() {
            return self.step_key(action);
        }
        match action {
            Action::Letter('a') => self.cycle(),
            _ => browse::browse_key(self, action).unwrap_or_else(|| Outcome::Say(KEYS.into())),
        }
    }

    /// Why there is no tree to move in: still searching, or the search failed.
    fn no_tree(&self) -> String {
        match self.result(self.algorithm) {
            None => format!("Still searching with {}…", self.algorithm.title()),
            Some(Err(e)) => format!("{}: {e}", self.algorithm.name()),
            Some(Ok(_)) => KEYS.into(),
        }
    }

    fn cycle(&mut self) -> Outcome {
        let moves = self.moves(&self.path);
        let next = (slot(self.algorithm) + 1) % Algorithm::ALL.len();
        self.algorithm = Algorithm::ALL[next];
        self.follow(&moves);
        Outcome::Say(format!("Algorithm: {}", self.algorithm.title()))
    }

    /// Looks at the node `moves` lead to in the chosen algorithm's tree, or as far along them
    /// as it recorded (a pruned node is not followed).
    fn follow(&mut self, moves: &[String]) {
        self.path = self
            .explanation()
            .map_or_else(Vec::new, |e| browse::path_along(&e.tree, moves));
        self.selected = self.node().map_or(0, best_child);
    }

    /// Starts a new exploration at the node looked at, whose tree was not recorded below it:
    /// a search from there (with its own full window), Backspace returning here.
    fn search_from_here(&mut self) -> Outcome {
        let moves = self.moves(&self.path);
        let position = self.position_after(&moves);
        self.nest(Explore::new(position, self.algorithm));
        Outcome::Say(format!(
            "Searching again from {} (not recorded below it): Backspace returns",
            moves.join(" ")
        ))
    }

    fn step_key(&mut self, action: &Action) -> Outcome {
        let stepping = self.stepping.as_mut().expect("in step mode");
        let last = stepping.steps.len() - 1;
        if stepping.replay.key(action, last) {
            return Outcome::Say(STEP_KEYS.into());
        }
        match action {
            Action::Step | Action::Escape | Action::Back => {
                self.stepping = None;
                Outcome::Say("Step mode left".into())
            }
            Action::Letter('a') => {
                self.stepping = None;
                self.cycle();
                self.start_stepping();
                Outcome::Say(format!("Algorithm: {}", self.algorithm.title()))
            }
            _ => Outcome::Say(STEP_KEYS.into()),
        }
    }

    /// One tick of a running replay.
    pub(super) fn tick(&mut self) {
        if let Some(s) = self.stepping.as_mut() {
            s.replay.tick(s.steps.len() - 1);
        }
    }

    pub(super) fn running(&self) -> bool {
        self.stepping.as_ref().is_some_and(|s| s.replay.running)
    }
}

impl Browser for Explore {
    fn selected(&self) -> usize {
        self.selected
    }

    fn select(&mut self, down: bool) -> Outcome {
        let Some(count) = self.node().map(|n| n.children.len()) else {
            return Outcome::Say(self.no_tree());
        };
        self.selected = browse::moved(self.selected, count, down);
        Outcome::Say(KEYS.into())
    }

    fn digit(&mut self, d: u8) -> Outcome {
        let Some(node) = self.node() else {
            return Outcome::Say(self.no_tree());
        };
        if self.root.classic().is_none_or(|b| b.size() != 3) {
            return Outcome::Say(browse::NO_DIGITS.into());
        }
        match browse::child_named(node, &d.to_string()) {
            Some(i) => {
                self.selected = i;
                self.descend(i)
            }
            None => Outcome::Say(format!("{d} is not a move here")),
        }
    }

    fn descend(&mut self, i: usize) -> Outcome {
        let Some(node) = self.node() else {
            return Outcome::Say(self.no_tree());
        };
        let Some(child) = node.children.get(i) else {
            if node.leaf {
                return Outcome::Say("The game is over here: there is nothing below".into());
            }
            return self.search_from_here();
        };
        if child.pruned {
            let mv = child.mv.clone().unwrap_or_default();
            return Outcome::Say(format!(
                "{mv} was pruned: the search never looked at it (a cut-off above it)"
            ));
        }
        self.path.push(i);
        self.selected = self.node().map_or(0, best_child);
        Outcome::Say(format!("At {}", self.moves(&self.path).join(" ")))
    }

    fn up(&mut self) -> Outcome {
        if let Some(i) = self.path.pop() {
            self.selected = i;
            return browse::back_at(&self.moves(&self.path));
        }
        let algorithm = self.algorithm;
        if !self.unnest() {
            return Outcome::Close;
        }
        if self.algorithm != algorithm {
            let moves = self.moves(&self.path);
            self.algorithm = algorithm;
            self.follow(&moves);
        }
        Outcome::Say("Back to the search it was opened from".into())
    }

    fn start_stepping(&mut self) -> Outcome {
        let Some(node) = self.node() else {
            return Outcome::Say(self.no_tree());
        };
        self.stepping = Some(Stepping {
            from: self.path.clone(),
            steps: explain::steps(node),
            replay: Replay::default(),
        });
        Outcome::Say(STEP_KEYS.into())
    }
}

/// The child a reader most likely wants: the first on the best line (its value is the
/// node's), or the first.
fn best_child(node: &Node) -> usize {
    node.children
        .iter()
        .position(|c| !c.pruned && c.value.is_some() && c.value == node.value)
        .unwrap_or(0)
}

/// What a step does, in words: `enter 5 1 with the window (0, +∞)`.
pub fn step_words(step: &Step, node: &Node, moves: &[String]) -> String {
    let at = if moves.is_empty() {
        "the start".to_string()
    } else {
        moves.join(" ")
    };
    let value = node
        .value
        .map_or_else(|| "?".to_string(), |v| v.to_string());
    match step.kind {
        StepKind::Enter => match node.window {
            Some(w) => format!("enter {at} with the window {w}"),
            None => format!("enter {at}"),
        },
        StepKind::Cut => format!(
            "cut-off at {at}: α ≥ β, {} move{} pruned",
            node.pruned_moves,
            if node.pruned_moves == 1 { "" } else { "s" }
        ),
        StepKind::Leave if node.leaf => format!("{at}: the game is over, value {value}"),
        StepKind::Leave if node.table_hit.is_some() => {
            format!("{at}: value {value} from the table")
        }
        StepKind::Leave if node.hidden > 0 && node.children.is_empty() => format!(
            "leave {at}: value {value} ({} nodes below, not recorded)",
            node.hidden
        ),
        StepKind::Leave => format!("leave {at}: value {value} backed up"),
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
    pub fn explorer(&self) -> Option<&Explore> {
        match self.open_explorer_state()? {
            Explorer::Textbook(x) => Some(x),
            Explorer::Mcts(..) => None,
        }
    }

    /// The explorer, while it is open on the Monte Carlo tree.
    pub fn mcts_explorer(&self) -> Option<&MctsExplore> {
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

    /// Takes one algorithm's search from the worker.
    pub(super) fn explained(
        &mut self,
        algorithm: Algorithm,
        result: Result<Explanation, ExplainError>,
    ) {
        let Mode::Explore(explorer, _) = self.base_mode_mut() else {
            return;
        };
        let Explorer::Textbook(explore) = explorer.as_mut() else {
            return;
        };
        explore.results[slot(algorithm)] = Some(result);
        if algorithm == explore.algorithm {
            explore.selected = explore.node().map_or(0, best_child);
        }
        if explore.job().is_none() {
            self.message = "Every search done: a changes the algorithm, s replays it".into();
        }
    }

    /// Takes the Monte Carlo tree, or step mode's iterations, from the worker.
    pub(super) fn explained_mcts(&mut self, reply: Reply) {
        let Mode::Explore(explorer, _) = self.base_mode_mut() else {
            return;
        };
        let Explorer::Mcts(explore, _) = explorer.as_mut() else {
            return;
        };
        let message = match reply {
            Reply::ExplainedMcts(result) => explore.explained(*result),
            Reply::Watched(result) => explore.watched_arrived(*result),
            _ => return,
        };
        self.message = message;
    }

    /// One tick of the loop's clock, while [`App::ticking`].
    pub(super) fn tick(&mut self) {
        if let Mode::Explore(explorer, _) = self.base_mode_mut() {
            explorer.tick();
        }
    }
}

/// Does what the worker would for the explorer's job: every search, answered in order.
#[cfg(test)]
pub(crate) fn answer_searches(app: &mut App) {
    use crate::ui::tui::app::Event;
    use crate::ui::tui::worker::{EXPLORER_NODES, Reply};
    let Some(Job::Explain { position }) = app.job() else {
        panic!("no search asked for: {:?}", app.job());
    };
    for algorithm in Algorithm::ALL {
        let cancel = std::sync::atomic::AtomicBool::new(false);
        let result = explain::explain_fitting(&position, algorithm, EXPLORER_NODES, &cancel);
        app.handle(Event::Answer(Reply::Explained {
            algorithm,
            result: Box::new(result),
            last: algorithm == Algorithm::Symmetry,
        }));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::Board;
    use crate::ui::tui::app::Event;
    use crate::ui::tui::input::Direction;
    use crate::ui::tui::worker::Reply;

    /// Two humans after `digits`, with the explorer open and every search answered.
    fn exploring(digits: &[u8]) -> App {
        let session = Session::new(Board::default().rules(), Player::Human, Player::Human);
        let mut app = App::new(session, (80, 24));
        for &d in digits {
            app.update(Action::Digit(d));
        }
        app.update(Action::Explore);
        answer_searches(&mut app);
        app
    }

    fn explore(app: &App) -> &Explore {
        app.explorer().expect("the explorer is open")
    }

    #[test]
    fn the_explorer_descends_by_digit_and_returns_with_backspace() {
        let mut app = exploring(&[5, 1]);
        assert_eq!(app.job(), None, "every search answered");
        let root = explore(&app).node().unwrap();
        assert_eq!(root.children.len(), 7);
        app.update(Action::Digit(9));
        assert_eq!(explore(&app).moves(explore(&app).path()), ["9"]);
        assert_eq!(app.message(), "At 9");
        app.update(Action::Digit(9));
        assert_eq!(app.message(), "9 is not a move here");
        app.update(Action::Back);
        assert_eq!(app.message(), "Back at the root");
        app.update(Action::Escape);
        assert!(app.explorer().is_none());
        assert_eq!(app.mode(), &Mode::Playing);
        assert_eq!(app.game().history().len(), 2, "nothing played");
    }

    #[test]
    fn cycling_the_algorithm_keeps_the_node_looked_at() {
        let mut app = exploring(&[5, 1]);
        app.update(Action::Digit(9));
        app.update(Action::Letter('a'));
        assert_eq!(explore(&app).algorithm(), Algorithm::AlphaBeta);
        assert_eq!(explore(&app).moves(explore(&app).path()), ["9"]);
        assert_eq!(app.message(), "Algorithm: alpha-beta");
    }

    #[test]
    fn a_node_below_the_recorded_depth_is_searched_again_from_there() {
        // From the empty board minimax's whole tree is too big: it is recorded to depth 4.
        let mut app = exploring(&[]);
        let depth = explore(&app).explanation().unwrap().depth;
        assert_eq!(depth, Some(4));
        for d in [5, 1, 9, 3] {
            app.update(Action::Digit(d));
        }
        app.update(Action::Activate);
        assert!(app.message().starts_with("Searching again from 5 1 9 3"));
        assert!(matches!(app.job(), Some(Job::Explain { .. })));
        answer_searches(&mut app);
        assert_eq!(explore(&app).nested(), 1);
        assert_eq!(explore(&app).root().to_string(), "..X/.X./O.O");
        app.update(Action::Back);
        assert_eq!(explore(&app).nested(), 0);
        assert_eq!(
            explore(&app).moves(explore(&app).path()),
            ["5", "1", "9", "3"]
        );
    }

    #[test]
    fn step_mode_replays_the_search_and_runs_to_the_end() {
        let mut app = exploring(&[5, 1, 9]);
        app.update(Action::Letter('a'));
        app.update(Action::Step);
        let (step, _) = explore(&app).step().unwrap();
        assert_eq!((step.kind, step.path.len()), (StepKind::Enter, 0));
        app.update(Action::Move(Direction::Right));
        let (step, _) = explore(&app).step().unwrap();
        assert_eq!((step.kind, step.path.len()), (StepKind::Enter, 1));
        app.update(Action::Activate);
        assert!(app.ticking());
        for _ in 0..10_000 {
            app.handle(Event::Tick);
        }
        assert!(!app.ticking(), "stops at the end");
        let (step, node) = explore(&app).step().unwrap();
        assert_eq!((step.kind, step.path.len()), (StepKind::Leave, 0));
        assert_eq!(node.value, explore(&app).node().unwrap().value);
        app.update(Action::Escape);
        assert!(explore(&app).stepping().is_none());
    }

    #[test]
    fn the_explorer_opens_on_the_position_the_review_shows_and_returns_to_it() {
        let session = Session::new(Board::default().rules(), Player::Human, Player::Human);
        let mut app = App::new(session, (80, 24));
        for d in [5, 9, 4, 6, 1, 3] {
            app.update(Action::Digit(d));
        }
        app.update(Action::Review);
        let mut brain = crate::ai::player::Brain::new(None);
        let record = app.game().record();
        let moves = crate::report::review::review(&record, &mut brain, &mut |_, _| {});
        app.handle(Event::Answer(Reply::Review(moves.unwrap())));
        for _ in 0..4 {
            app.update(Action::Move(Direction::Right));
        }
        app.update(Action::Explore);
        answer_searches(&mut app);
        assert_eq!(explore(&app).root().to_string(), "..O/XXO/...");
        app.update(Action::Explore);
        assert_eq!(app.review().map(|(_, at, _)| at), Some(4));
        assert!(
            app.message().starts_with("Move 5 of 6"),
            "{}",
            app.message()
        );
    }

    #[test]
    fn the_ai_waits_while_the_explorer_is_open_and_thinks_again_after() {
        let session = Session::new(Board::default().rules(), Player::Human, Player::HARD);
        let mut app = App::new(session, (80, 24));
        app.update(Action::Digit(5));
        assert!(matches!(app.job(), Some(Job::Move { .. })));
        app.update(Action::Explore);
        assert!(matches!(app.job(), Some(Job::Explain { .. })));
        answer_searches(&mut app);
        assert_eq!(app.job(), None, "the AI does not think meanwhile");
        app.update(Action::Explore);
        assert!(matches!(app.job(), Some(Job::Move { .. })));
        assert_eq!(app.message(), "O (level 7 AI) is thinking…");
    }
}
