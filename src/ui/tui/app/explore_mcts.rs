//! The explorer's Monte Carlo tree, on any rule set: the tree after a search of a chosen number
//! of iterations ([`crate::explain::explain_mcts_fitting`]), the node being looked at, and, on
//! Ultimate, step mode, which replays the search's first iterations one at a time (its walk
//! down the tree, the node it expanded, its random game and its backup). The searches run on
//! the worker; the recorded tree is bounded ([`crate::ui::tui::worker::EXPLORER_NODES`]).

use crate::ai::mcts::Iteration;
use crate::explain::{ExplainError, MctsExplanation, MctsNode};
use crate::rules::position::{Move, Position};
use crate::text::grouped;
use crate::ui::keypad::Digit;
use crate::ui::tui::input::Action;
use crate::ui::tui::worker::Job;

use super::browse::{self, Browser, Nested, Outcome, Replay, STEP_KEYS};

/// The iterations a search may be given, `+` and `-` moving between them.
pub const COUNTS: [u64; 4] = [100, 1_000, 10_000, 100_000];

/// The index in [`COUNTS`] the explorer opens with.
const FIRST_COUNT: usize = 1;

/// The most iterations step mode replays: the search's first ones.
pub const STEP_LIMIT: u64 = 1_000;

/// The keys of the explorer, for the message line, where moves take two digits (Ultimate).
const KEYS: &str = "Two digits (board, cell) or Enter go into a move, Backspace back up";

/// The keys where a move is one digit (3×3).
const DIGIT_KEYS: &str =
    "A digit or Enter goes into a move, Backspace backs up, a switches the search";

/// The keys where moves have no digits (classic boards larger than 3×3).
const ARROW_KEYS: &str = "↑ ↓ and Enter go into a move, Backspace backs up, a switches the search";

/// The iterations step mode replays, or why there are none.
type Watched = Result<Vec<Iteration<Move>>, ExplainError>;

/// The explorer's state on the Monte Carlo tree of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsExplore {
    /// The position the search starts from.
    root: Position,
    /// An index into [`COUNTS`]: the search on screen.
    count: usize,
    /// Each count's search, once it has arrived.
    results: Vec<Option<Result<MctsExplanation, ExplainError>>>,
    /// The node looked at: the children taken from the root.
    path: Vec<usize>,
    /// The child highlighted in the list.
    selected: usize,
    /// The moves to the node looked at, kept while the search on screen is worked out.
    waiting_at: Vec<String>,
    /// The board typed as the first of a move's two digits.
    board_digit: Option<u8>,
    /// The iterations step mode replays, with how many were asked for.
    watched: Option<(u64, Watched)>,
    /// Step mode: where the replay of the search's first iterations stands.
    stepping: Option<Replay>,
    /// The explorations this one was opened from, by searching again below a recorded tree.
    earlier: Vec<MctsExplore>,
}

impl Nested for MctsExplore {
    fn earlier(&mut self) -> &mut Vec<MctsExplore> {
        &mut self.earlier
    }
}

impl MctsExplore {
    pub(super) fn new(root: Position) -> MctsExplore {
        MctsExplore {
            root,
            count: FIRST_COUNT,
            results: vec![None; COUNTS.len()],
            path: Vec::new(),
            selected: 0,
            waiting_at: Vec::new(),
            board_digit: None,
            watched: None,
            stepping: None,
            earlier: Vec::new(),
        }
    }

    pub fn root(&self) -> &Position {
        &self.root
    }

    /// Whether the moves of this rule set are typed as a board and a cell (Ultimate), so that
    /// step mode can replay its random games.
    pub fn ultimate(&self) -> bool {
        self.root.ultimate().is_some()
    }

    /// The keys, for the message line.
    /// How to go into a move, once a search has arrived.
    fn way_in(&self) -> &'static str {
        match self.keys() {
            KEYS => "two digits or Enter go into a move",
            DIGIT_KEYS => "a digit or Enter goes into a move",
            _ => "↑ ↓ and Enter go into a move",
        }
    }

    fn keys(&self) -> &'static str {
        if self.ultimate() {
            KEYS
        } else if matches!(self.root.digit(None, 5), Digit::NoDigits) {
            ARROW_KEYS
        } else {
            DIGIT_KEYS
        }
    }

    /// The iterations the search on screen is given.
    pub fn iterations(&self) -> u64 {
        COUNTS[self.count]
    }

    /// The search on screen, once it has arrived.
    pub fn result(&self) -> Option<&Result<MctsExplanation, ExplainError>> {
        self.results[self.count].as_ref()
    }

    pub fn explanation(&self) -> Option<&MctsExplanation> {
        self.result().and_then(|r| r.as_ref().ok())
    }

    /// The node looked at.
    pub fn node(&self) -> Option<&MctsNode> {
        browse::node_at(&self.explanation()?.tree, &self.path)
    }

    pub fn selected(&self) -> usize {
        self.selected
    }

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

    /// The moves from the root to the node looked at.
    pub fn moves(&self) -> Vec<String> {
        self.explanation()
            .map_or_else(Vec::new, |x| browse::moves_along(&x.tree, &self.path))
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

    /// Step mode's state, while it is on.
    pub fn stepping(&self) -> Option<&Replay> {
        self.stepping.as_ref()
    }

    /// The iterations step mode replays: the search's first, up to [`STEP_LIMIT`].
    pub fn steps_asked(&self) -> u64 {
        self.iterations().min(STEP_LIMIT)
    }

    /// The replayed iterations, once they have arrived.
    pub fn watched(&self) -> Option<&Result<Vec<Iteration<Move>>, ExplainError>> {
        match &self.watched {
            Some((n, result)) if *n == self.steps_asked() => Some(result),
            _ => None,
        }
    }

    /// The iteration on screen in step mode.
    pub fn iteration(&self) -> Option<&Iteration<Move>> {
        let at = self.stepping?.at;
        self.watched()?.as_ref().ok()?.get(at)
    }

    /// What the worker should work out: step mode's iterations, or the search on screen.
    pub(super) fn job(&self) -> Option<Job> {
        if self.stepping.is_some() && self.watched().is_none() {
            return Some(Job::WatchMcts {
                position: self.root,
                steps: self.steps_asked(),
            });
        }
        self.result().is_none().then_some(Job::ExplainMcts {
            position: self.root,
            iterations: self.iterations(),
        })
    }

    /// Takes the search on screen from the worker.
    pub(super) fn explained(&mut self, result: Result<MctsExplanation, ExplainError>) -> String {
        let message = match &result {
            Ok(x) => format!(
                "Searched {} iterations: {}",
                grouped(x.iterations),
                self.way_in()
            ),
            Err(e) => format!("No tree: {e}"),
        };
        let moves = std::mem::take(&mut self.waiting_at);
        self.results[self.count] = Some(result);
        self.follow(&moves);
        message
    }

    /// Takes step mode's iterations from the worker.
    pub(super) fn watched_arrived(
        &mut self,
        result: Result<Vec<Iteration<Move>>, ExplainError>,
    ) -> String {
        let message = match &result {
            Ok(steps) if steps.is_empty() => "The search has nothing to do here".to_string(),
            Ok(_) => STEP_KEYS.to_string(),
            Err(e) => format!("No iterations: {e}"),
        };
        self.watched = Some((self.steps_asked(), result));
        message
    }

    pub(super) fn key(&mut self, action: &Action) -> Outcome {
        if let Some(outcome) = browse::leaving(action) {
            return outcome;
        }
        if self.stepping.is_some() {
            return self.step_key(action);
        }
        match action {
            Action::Escape | Action::Back if self.board_digit.take().is_some() => {
                Outcome::Say("Board choice cancelled".into())
            }
            Action::Faster => self.change_count(true),
            Action::Slower => self.change_count(false),
            Action::Letter('a') => Outcome::Say(
                "Ultimate is explored by its Monte Carlo tree alone: the textbook searches \
                 cannot reach its ends"
                    .into(),
            ),
            _ => {
                browse::browse_key(self, action).unwrap_or_else(|| Outcome::Say(self.keys().into()))
            }
        }
    }

    /// Why there is no tree to move in: still searching, or the search failed.
    fn no_tree(&self) -> String {
        match self.result() {
            None => format!(
                "Still searching: {} iterations…",
                grouped(self.iterations())
            ),
            Some(Err(e)) => format!("No tree: {e}"),
            Some(Ok(_)) => self.keys().into(),
        }
    }

    /// Looks at the node `moves` lead to in the tree on screen, or as far along them as it
    /// holds.
    fn follow(&mut self, moves: &[String]) {
        self.path = self
            .explanation()
            .map_or_else(Vec::new, |x| browse::path_along(&x.tree, moves));
        self.selected = self.node().map_or(0, best_child);
    }

    fn change_count(&mut self, more: bool) -> Outcome {
        let count = if more {
            (self.count + 1).min(COUNTS.len() - 1)
        } else {
            self.count.saturating_sub(1)
        };
        if count == self.count {
            let end = if more { "most" } else { "fewest" };
            return Outcome::Say(format!(
                "{} iterations is the {end} the explorer searches",
                grouped(self.iterations())
            ));
        }
        let moves = if self.result().is_some() {
            self.moves()
        } else {
            std::mem::take(&mut self.waiting_at)
        };
        self.count = count;
        self.follow(&moves);
        if self.result().is_none() {
            self.waiting_at = moves;
        }
        Outcome::Say(match self.result() {
            None => format!("Searching: {} iterations…", grouped(self.iterations())),
            Some(_) => format!("{} iterations", grouped(self.iterations())),
        })
    }

    /// Starts a new exploration at the node looked at, whose tree is not recorded below it (or
    /// not grown yet): a search from there, Backspace returning here.
    fn search_from_here(&mut self) -> Outcome {
        let moves = self.moves();
        let mut fresh = MctsExplore::new(self.position_after(&moves));
        fresh.count = self.count;
        self.nest(fresh);
        Outcome::Say(format!(
            "Searching again from {}: Backspace returns",
            moves.join(" ")
        ))
    }

    fn step_key(&mut self, action: &Action) -> Outcome {
        if matches!(action, Action::Step | Action::Escape | Action::Back) {
            self.stepping = None;
            return Outcome::Say("Step mode left".into());
        }
        let Some(last) = self
            .watched()
            .and_then(|w| w.as_ref().ok())
            .and_then(|w| w.len().checked_sub(1))
        else {
            return Outcome::Say(match self.watched() {
                None => "Still working out the iterations… (Esc leaves)".into(),
                Some(_) => "No iterations to replay here (Esc leaves)".into(),
            });
        };
        let replay = self.stepping.as_mut().expect("in step mode");
        replay.key(action, last);
        Outcome::Say(STEP_KEYS.into())
    }

    /// One tick of a running replay.
    pub(super) fn tick(&mut self) {
        let Some(last) = self
            .watched()
            .and_then(|w| w.as_ref().ok())
            .map(|w| w.len().saturating_sub(1))
        else {
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

impl Browser for MctsExplore {
    fn selected(&self) -> usize {
        self.selected
    }

    fn select(&mut self, down: bool) -> Outcome {
        let Some(count) = self.node().map(|n| n.children.len()) else {
            return Outcome::Say(self.no_tree());
        };
        self.selected = browse::moved(self.selected, count, down);
        Outcome::Say(self.keys().into())
    }

    /// A digit: a move as the keypad names it in the position looked at: a cell, or on
    /// Ultimate the board of a move and then its cell (one digit when sent to a board).
    fn digit(&mut self, d: u8) -> Outcome {
        let Some(empty) = self.node().map(|n| n.children.is_empty()) else {
            return Outcome::Say(self.no_tree());
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
            return Outcome::Say(self.no_tree());
        };
        if node.children.get(i).is_none() {
            let moves = self.moves();
            if self.position_after(&moves).is_over() {
                return Outcome::Say("The game is over here: there is nothing below".into());
            }
            return self.search_from_here();
        }
        self.path.push(i);
        self.selected = self.node().map_or(0, best_child);
        Outcome::Say(format!("At {}", self.moves().join(" ")))
    }

    fn up(&mut self) -> Outcome {
        if let Some(i) = self.path.pop() {
            self.selected = i;
            return browse::back_at(&self.moves());
        }
        if !self.unnest() {
            return Outcome::Close;
        }
        Outcome::Say("Back to the search it was opened from".into())
    }

    fn start_stepping(&mut self) -> Outcome {
        self.board_digit = None;
        self.stepping = Some(Replay::default());
        match self.watched() {
            None => Outcome::Say(format!(
                "Working out the search's first {} iterations…",
                grouped(self.steps_asked())
            )),
            Some(_) => Outcome::Say(STEP_KEYS.into()),
        }
    }
}

/// The child a reader most likely wants: the next move of the principal variation, or the
/// first (the most visited).
fn best_child(node: &MctsNode) -> usize {
    node.children.iter().position(|c| c.pv).unwrap_or(0)
}

/// Does what the worker would for the Monte Carlo explorer's job.
#[cfg(test)]
pub(crate) fn answer_mcts(app: &mut super::App) {
    use crate::explain;
    use crate::ui::tui::app::Event;
    use crate::ui::tui::worker::{EXPLORER_NODES, EXPLORER_SEED, Reply};
    let cancel = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let reply = match app.job() {
        Some(Job::ExplainMcts {
            position,
            iterations,
        }) => Reply::ExplainedMcts(Box::new(explain::explain_mcts_fitting(
            &position,
            iterations,
            EXPLORER_SEED,
            EXPLORER_NODES,
            &cancel,
        ))),
        Some(Job::WatchMcts { position, steps }) => Reply::Watched(Box::new(
            explain::watch_mcts_until(&position, 0, EXPLORER_SEED, steps, &cancel),
        )),
        other => panic!("no Ultimate search asked for: {other:?}"),
    };
    app.handle(Event::Answer(reply));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::position::Variant;
    use crate::rules::ultimate::{Outcome as GameOutcome, UltimateBoard};
    use crate::ui::tui::app::{App, Event, Mode};
    use crate::ui::tui::input::Direction;

    /// Two humans at Ultimate after `moves`, with the explorer open and its search answered.
    fn exploring(moves: &[&str]) -> App {
        let mut session = Session::new(Variant::Ultimate, Player::Human, Player::Human);
        for m in moves {
            session
                .play(m.parse::<crate::rules::ultimate::Move>().unwrap())
                .unwrap();
        }
        let mut app = App::new(session, (80, 24));
        app.update(Action::Explore);
        answer_mcts(&mut app);
        app
    }

    fn explore(app: &App) -> &MctsExplore {
        app.mcts_explorer().expect("the Ultimate explorer is open")
    }

    #[test]
    fn t_opens_the_monte_carlo_tree_of_the_position_and_two_digits_go_into_a_move() {
        let mut app = exploring(&["55"]);
        assert_eq!(app.job(), None, "the search answered");
        let x = explore(&app).explanation().unwrap();
        assert_eq!(x.iterations, 1_000);
        let root = explore(&app).node().unwrap();
        assert_eq!(root.children.len(), 8, "sent to board 5, its centre taken");
        assert_eq!(explore(&app).selected(), best_child(root));
        // Sent to board 5, then to board 1: one digit names the cell.
        app.update(Action::Digit(1));
        assert_eq!(app.message(), "At 51");
        app.update(Action::Digit(1));
        assert_eq!(app.message(), "At 51 11");
        app.update(Action::Back);
        app.update(Action::Back);
        assert_eq!(app.message(), "Back at the root");
        app.update(Action::Escape);
        assert!(app.mcts_explorer().is_none());
        assert_eq!(app.mode(), &Mode::Playing);
        assert_eq!(app.game().history().len(), 1, "nothing played");
    }

    #[test]
    fn arrows_and_enter_descend_and_a_board_and_cell_name_a_move_anywhere() {
        let mut app = exploring(&[]);
        assert_eq!(explore(&app).node().unwrap().children.len(), 81);
        app.update(Action::Move(Direction::Down));
        let second = explore(&app).node().unwrap().children[1]
            .mv
            .clone()
            .unwrap();
        app.update(Action::Activate);
        assert_eq!(explore(&app).moves(), std::slice::from_ref(&second));
        app.update(Action::Back);
        assert_eq!(explore(&app).selected(), 1, "back on the move it came from");
        app.update(Action::Digit(7));
        assert_eq!(app.message(), "Board 7: now the cell (Esc cancels)");
        app.update(Action::Escape);
        assert_eq!(app.message(), "Board choice cancelled");
        assert!(explore(&app).path().is_empty(), "still at the root");
        app.update(Action::Digit(7));
        app.update(Action::Digit(3));
        assert_eq!(app.message(), "At 73");
        let node = explore(&app).node().unwrap();
        assert_eq!(node.mv.as_deref(), Some("73"));
        assert_eq!(node.by, Some('X'));
    }

    #[test]
    fn plus_and_minus_change_the_iterations_and_keep_the_node_looked_at() {
        let mut app = exploring(&["55"]);
        app.update(Action::Digit(1));
        app.update(Action::Faster);
        assert_eq!(app.message(), "Searching: 10,000 iterations…");
        assert_eq!(
            app.job(),
            Some(Job::ExplainMcts {
                position: *explore(&app).root(),
                iterations: 10_000
            })
        );
        answer_mcts(&mut app);
        assert_eq!(explore(&app).moves(), ["51"]);
        app.update(Action::Slower);
        assert_eq!(app.message(), "1,000 iterations");
        assert_eq!(app.job(), None, "kept from before");
        app.update(Action::Slower);
        app.update(Action::Slower);
        assert_eq!(
            app.message(),
            "100 iterations is the fewest the explorer searches"
        );
    }

    #[test]
    fn a_node_not_grown_below_is_searched_again_from_there() {
        let mut app = exploring(&["55"]);
        app.update(Action::Slower);
        answer_mcts(&mut app);
        // Follow the least visited moves (↑ from the first wraps to the last) down to a node
        // with nothing below.
        while !explore(&app).node().unwrap().children.is_empty() {
            app.update(Action::Move(Direction::Up));
            app.update(Action::Activate);
        }
        let moves = explore(&app).moves();
        app.update(Action::Activate);
        assert!(
            app.message().starts_with("Searching again from"),
            "{}",
            app.message()
        );
        answer_mcts(&mut app);
        assert_eq!(explore(&app).nested(), 1);
        assert_eq!(
            *explore(&app).root(),
            explore(&app).position_after::<&str>(&[])
        );
        app.update(Action::Back);
        assert_eq!(explore(&app).nested(), 0);
        assert_eq!(explore(&app).moves(), moves);
    }

    #[test]
    fn step_mode_replays_the_first_iterations_and_runs_to_the_end() {
        let mut app = exploring(&["55"]);
        app.update(Action::Slower);
        answer_mcts(&mut app);
        app.update(Action::Step);
        assert!(matches!(app.job(), Some(Job::WatchMcts { steps: 100, .. })));
        app.update(Action::Move(Direction::Right));
        assert!(app.message().starts_with("Still working out"));
        answer_mcts(&mut app);
        assert_eq!(explore(&app).iteration().unwrap().number, 1);
        app.update(Action::Move(Direction::Right));
        assert_eq!(explore(&app).iteration().unwrap().number, 2);
        app.update(Action::Activate);
        assert!(app.ticking());
        for _ in 0..1_000 {
            app.handle(Event::Tick);
        }
        assert!(!app.ticking(), "stops at the end");
        let last = explore(&app).iteration().unwrap();
        assert_eq!(last.number, 100);
        let root = explore(&app).node().unwrap();
        assert_eq!(last.walk[0].after.0, root.visits, "the tree on screen");
        app.update(Action::Escape);
        assert!(explore(&app).stepping().is_none());
        app.update(Action::Step);
        assert_eq!(app.job(), None, "the iterations are kept");
    }

    #[test]
    fn escape_while_searching_closes_the_explorer_and_the_search_is_dropped() {
        let session = Session::new(Variant::Ultimate, Player::Human, Player::HARD);
        let mut app = App::new(session, (80, 24));
        app.update(Action::Digit(5));
        app.update(Action::Digit(5));
        app.update(Action::Explore);
        assert!(matches!(app.job(), Some(Job::ExplainMcts { .. })));
        app.update(Action::Move(Direction::Down));
        assert_eq!(app.message(), "Still searching: 1,000 iterations…");
        app.update(Action::Escape);
        assert!(app.mcts_explorer().is_none());
        assert!(
            matches!(app.job(), Some(Job::Move { .. })),
            "the AI thinks again"
        );
    }

    #[test]
    fn the_explorer_opens_on_the_position_the_review_shows_and_returns_to_it() {
        // A random game played to its end.
        let mut rng = fastrand::Rng::with_seed(5);
        let mut session = Session::new(Variant::Ultimate, Player::Human, Player::Human);
        let mut board = UltimateBoard::new();
        while board.outcome() == GameOutcome::InProgress {
            let legal: Vec<_> = board.legal_moves().into_iter().collect();
            let mv = legal[rng.usize(..legal.len())];
            board.play(mv).unwrap();
            session.play(mv).unwrap();
        }
        let mut app = App::new(session, (80, 24));
        app.update(Action::Review);
        let mut brain =
            crate::ai::player::Brain::new(Some(1)).with_think(std::time::Duration::from_millis(1));
        let record = app.game().record();
        let moves = crate::report::review::review(&record, &mut brain, &mut |_, _| {});
        app.handle(Event::Answer(crate::ui::tui::worker::Reply::Review(
            moves.unwrap(),
        )));
        for _ in 0..2 {
            app.update(Action::Move(Direction::Right));
        }
        assert!(app.message().starts_with("Move 3 of"), "{}", app.message());
        app.update(Action::Explore);
        answer_mcts(&mut app);
        let mut before = UltimateBoard::new();
        for &mv in &app.game().history()[..2] {
            let crate::rules::position::Move::Ultimate(mv) = mv else {
                panic!("an Ultimate move")
            };
            before.play(mv).unwrap();
        }
        assert_eq!(*explore(&app).root(), Position::Ultimate(before));
        assert!(explore(&app).explanation().is_some());
        app.update(Action::Explore);
        assert!(app.message().starts_with("Move 3 of"), "{}", app.message());
    }

    #[test]
    fn on_a_classic_board_a_goes_from_the_textbook_searches_to_the_monte_carlo_tree_and_back() {
        let session = Session::new(Variant::default(), Player::Human, Player::Human);
        let mut app = App::new(session, (80, 24));
        app.update(Action::Digit(5));
        app.update(Action::Explore);
        crate::ui::tui::app::answer_searches(&mut app);
        assert!(app.explorer().is_some(), "the textbook searches first");
        for _ in 0..4 {
            app.update(Action::Letter('a'));
        }
        assert!(
            app.message().ends_with("symmetric table"),
            "{}",
            app.message()
        );
        app.update(Action::Letter('a'));
        assert_eq!(
            app.message(),
            "Algorithm: Monte Carlo tree search (1,000 iterations)"
        );
        assert!(matches!(app.job(), Some(Job::ExplainMcts { .. })));
        answer_mcts(&mut app);
        let x = explore(&app);
        assert_eq!(
            x.node().unwrap().children.len(),
            8,
            "every move but the centre"
        );
        assert_eq!(x.explanation().unwrap().prior_visits, 0);
        // One digit names a cell.
        app.update(Action::Digit(1));
        assert_eq!(app.message(), "At 1");
        assert_eq!(explore(&app).node().unwrap().by, Some('O'));
        // Step mode replays the search's first iterations, random games and all.
        app.update(Action::Step);
        assert!(matches!(
            app.job(),
            Some(Job::WatchMcts { steps: 1_000, .. })
        ));
        answer_mcts(&mut app);
        let first = explore(&app).iteration().unwrap();
        assert_eq!(first.number, 1);
        assert!(matches!(
            first.ending,
            crate::ai::mcts::Ending::Playout(Some(_))
        ));
        app.update(Action::Escape);
        assert!(explore(&app).stepping().is_none());
        // Back to the textbook searches, kept from before: nothing to search again.
        app.update(Action::Letter('a'));
        assert_eq!(app.message(), "Algorithm: minimax");
        let textbook = app.explorer().expect("the textbook searches again");
        assert_eq!(textbook.algorithm(), crate::explain::Algorithm::Minimax);
        assert_eq!(app.job(), None);
    }

    #[test]
    fn on_a_board_without_digits_the_keys_say_arrows_and_enter() {
        let rules = crate::rules::classic::Rules::new(5, 4, false).unwrap();
        let session = Session::new(Variant::Classic(rules), Player::Human, Player::Human);
        let mut app = App::new(session, (80, 24));
        app.update(Action::Explore);
        // Past the textbook searches before they arrive: they are not needed here.
        for _ in 0..5 {
            app.update(Action::Letter('a'));
        }
        answer_mcts(&mut app);
        assert_eq!(
            app.message(),
            "Searched 1,000 iterations: ↑ ↓ and Enter go into a move"
        );
        app.update(Action::Digit(5));
        assert_eq!(
            app.message(),
            "On this board: ↑ ↓ choose a move, Enter goes into it"
        );
        app.update(Action::Activate);
        assert!(app.message().starts_with("At "), "{}", app.message());
    }

    #[test]
    fn on_ultimate_a_says_the_monte_carlo_tree_is_all_there_is() {
        let mut app = exploring(&["55"]);
        app.update(Action::Letter('a'));
        assert!(
            app.message()
                .starts_with("Ultimate is explored by its Monte Carlo tree")
        );
        assert!(app.mcts_explorer().is_some());
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(grouped(100), "100");
        assert_eq!(grouped(1_000), "1,000");
        assert_eq!(grouped(100_000), "100,000");
        assert_eq!(grouped(1_234_567), "1,234,567");
    }
}
