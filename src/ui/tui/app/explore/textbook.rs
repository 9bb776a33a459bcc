//! The textbook searches as the explorer shows them ([`crate::explain`]): one tree per
//! algorithm of one position, `a` going from one to the next at the same node, and step
//! mode, which replays the recorded search below the node looked at step by step.

use crate::explain::{self, Algorithm, ExplainError, Explanation, Node, Step, StepKind};
use crate::ui::tui::keymap::Binding;
use crate::ui::tui::worker::Job;

use super::browse::{Outcome, Replay, STEP_KEYS, TreeNode};
use super::keys::{self, Command};
use super::{Explore, Kind};

type Keys = Binding<Command>;

/// The keys of the explorer, for the message line.
const KEYS: &str = "Enter or a digit goes into a move, Backspace back up";

/// The textbook searches, one per algorithm of [`Algorithm::ALL`].
#[derive(Clone, Debug, PartialEq)]
pub struct Textbook;

/// What step mode replays: the search below one node, step by step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stepping {
    /// The node the replay starts from, as a path from the explorer's root.
    pub from: Vec<usize>,
    pub steps: Vec<Step>,
}

impl TreeNode for Node {
    fn children(&self) -> &[Node] {
        &self.children
    }

    fn mv(&self) -> Option<&str> {
        self.mv.as_deref()
    }

    /// A pruned node was never searched: it is not followed.
    fn closed(&self) -> Option<String> {
        self.pruned.then(|| {
            let mv = self.mv.clone().unwrap_or_default();
            format!("{mv} was pruned: the search never looked at it (a cut-off above it)")
        })
    }

    /// The first child on the best line (its value is the node's), or the first.
    fn best_child(&self) -> usize {
        self.children
            .iter()
            .position(|c| !c.pruned && c.value.is_some() && c.value == self.value)
            .unwrap_or(0)
    }
}

fn slot(algorithm: Algorithm) -> usize {
    Algorithm::ALL
        .iter()
        .position(|&a| a == algorithm)
        .expect("every algorithm is listed")
}

impl Kind for Textbook {
    type Explanation = Explanation;
    type Node = Node;
    type Steps = Option<Stepping>;
    const SLOTS: usize = Algorithm::ALL.len();
    const FIRST: usize = 0;

    fn tree(explanation: &Explanation) -> &Node {
        &explanation.tree
    }

    fn keys(_: &Explore<Textbook>) -> &'static str {
        KEYS
    }

    fn no_tree(explore: &Explore<Textbook>) -> String {
        let algorithm = explore.algorithm();
        match explore.result() {
            None => format!("Still searching with {}…", algorithm.title()),
            Some(Err(e)) => format!("{}: {e}", algorithm.name()),
            Some(Ok(_)) => KEYS.into(),
        }
    }

    /// Every search at once, while one is missing.
    fn job(explore: &Explore<Textbook>) -> Option<Job> {
        explore
            .results
            .iter()
            .any(Option::is_none)
            .then_some(Job::Explain {
                position: explore.root,
            })
    }

    fn key_maps(_: &Explore<Textbook>) -> (&'static [Keys], &'static [Keys]) {
        (&keys::TEXTBOOK, &keys::TEXTBOOK_STEPS)
    }

    /// `a`: the next algorithm.
    fn own_key(explore: &mut Explore<Textbook>, _: Command) -> Outcome {
        explore.cycle()
    }

    /// `a` in step mode replays the next algorithm's search from the same node.
    fn own_step_key(explore: &mut Explore<Textbook>, command: Command) -> Option<Outcome> {
        if command != Command::Switch {
            return None;
        }
        explore.stepping = None;
        explore.cycle();
        Kind::start_stepping(explore);
        Some(Outcome::Say(format!(
            "Algorithm: {}",
            explore.algorithm().title()
        )))
    }

    fn start_stepping(explore: &mut Explore<Textbook>) -> Outcome {
        let Some(node) = explore.node() else {
            return Outcome::Say(Textbook::no_tree(explore));
        };
        explore.steps = Some(Stepping {
            from: explore.path.clone(),
            steps: explain::steps(node),
        });
        explore.stepping = Some(Replay::default());
        Outcome::Say(STEP_KEYS.into())
    }

    fn last_step(explore: &Explore<Textbook>) -> Option<usize> {
        explore.steps.as_ref()?.steps.len().checked_sub(1)
    }

    fn searching_again(moves: &[String]) -> String {
        format!(
            "Searching again from {} (not recorded below it): Backspace returns",
            moves.join(" ")
        )
    }
}

impl Explore<Textbook> {
    pub fn algorithm(&self) -> Algorithm {
        Algorithm::ALL[self.slot]
    }

    /// `algorithm`'s search, once it has arrived.
    pub fn result_of(&self, algorithm: Algorithm) -> Option<&Result<Explanation, ExplainError>> {
        self.results[slot(algorithm)].as_ref()
    }

    /// What step mode replays, while it is on.
    pub fn steps(&self) -> Option<&Stepping> {
        self.stepping.and(self.steps.as_ref())
    }

    /// The step on screen in step mode, with the node it is at.
    pub fn step(&self) -> Option<(&Step, &Node)> {
        let stepping = self.steps()?;
        let step = stepping.steps.get(self.stepping?.at)?;
        let from = explain::node_at(&self.explanation()?.tree, &stepping.from)?;
        Some((step, explain::node_at(from, &step.path)?))
    }

    /// `a`: the next algorithm's search, at the node the same moves lead to.
    pub(super) fn cycle(&mut self) -> Outcome {
        self.show((self.slot + 1) % Textbook::SLOTS);
        Outcome::Say(format!("Algorithm: {}", self.algorithm().title()))
    }

    /// Takes one algorithm's search from the worker.
    pub(super) fn explained(
        &mut self,
        algorithm: Algorithm,
        result: Result<Explanation, ExplainError>,
    ) -> Option<String> {
        self.arrived(slot(algorithm), result);
        Textbook::job(self)
            .is_none()
            .then(|| "Every search done: a changes the algorithm, s replays it".into())
    }
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

/// Does what the worker would for the explorer's job: every search, answered in order.
#[cfg(test)]
pub(crate) fn answer_searches(app: &mut crate::ui::tui::app::App) {
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
    use crate::ui::tui::app::{App, Mode};
    use crate::ui::tui::input::Action;
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

    fn explore(app: &App) -> &Explore<Textbook> {
        app.explorer().expect("the explorer is open")
    }

    #[test]
    fn the_explorer_descends_by_digit_and_returns_with_backspace() {
        let mut app = exploring(&[5, 1]);
        assert_eq!(app.job(), None, "every search answered");
        let root = explore(&app).node().unwrap();
        assert_eq!(root.children.len(), 7);
        app.update(Action::Digit(9));
        assert_eq!(explore(&app).moves(), ["9"]);
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
        app.update(Action::Analyse);
        assert_eq!(explore(&app).algorithm(), Algorithm::AlphaBeta);
        assert_eq!(explore(&app).moves(), ["9"]);
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
        assert_eq!(explore(&app).moves(), ["5", "1", "9", "3"]);
    }

    #[test]
    fn step_mode_replays_the_search_and_runs_to_the_end() {
        let mut app = exploring(&[5, 1, 9]);
        app.update(Action::Analyse);
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
