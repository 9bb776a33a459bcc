//! The Monte Carlo tree as the explorer shows it, on any rule set: the tree after a search of
//! a chosen number of iterations ([`crate::explain::explain_mcts_fitting`]), `+` and `-`
//! moving between them, and, on Ultimate, step mode, which replays the search's first
//! iterations one at a time (its walk down the tree, the node it expanded, its random game
//! and its backup).

use crate::ai::mcts::Iteration;
use crate::explain::{ExplainError, MctsExplanation, MctsNode};
use crate::rules::position::Move;
use crate::text::grouped;
use crate::ui::keypad::Digit;
use crate::ui::tui::keymap::Binding;
use crate::ui::tui::worker::Job;

use super::browse::{Outcome, Replay, STEP_KEYS, TreeNode};
use super::keys::{self, Command};
use super::{Explore, Kind};

type Keys = Binding<Command>;

/// The iterations a search may be given, `+` and `-` moving between them.
pub const COUNTS: [u64; 4] = [100, 1_000, 10_000, 100_000];

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

/// The Monte Carlo tree, one search per number of iterations of [`COUNTS`].
#[derive(Clone, Debug, PartialEq)]
pub struct MonteCarlo;

impl TreeNode for MctsNode {
    fn children(&self) -> &[MctsNode] {
        &self.children
    }

    fn mv(&self) -> Option<&str> {
        self.mv.as_deref()
    }

    /// The next move of the principal variation, or the first (the most visited).
    fn best_child(&self) -> usize {
        self.children.iter().position(|c| c.pv).unwrap_or(0)
    }
}

impl Kind for MonteCarlo {
    type Explanation = MctsExplanation;
    type Node = MctsNode;
    /// The iterations step mode replays, with how many were asked for.
    type Steps = Option<(u64, Watched)>;
    const SLOTS: usize = COUNTS.len();
    const FIRST: usize = 1;

    fn tree(explanation: &MctsExplanation) -> &MctsNode {
        &explanation.tree
    }

    fn keys(explore: &Explore<MonteCarlo>) -> &'static str {
        if explore.ultimate() {
            KEYS
        } else if matches!(explore.root.digit(None, 5), Digit::NoDigits) {
            ARROW_KEYS
        } else {
            DIGIT_KEYS
        }
    }

    fn no_tree(explore: &Explore<MonteCarlo>) -> String {
        match explore.result() {
            None => format!(
                "Still searching: {} iterations…",
                grouped(explore.iterations())
            ),
            Some(Err(e)) => format!("No tree: {e}"),
            Some(Ok(_)) => MonteCarlo::keys(explore).into(),
        }
    }

    /// Step mode's iterations, or the search on screen.
    fn job(explore: &Explore<MonteCarlo>) -> Option<Job> {
        if explore.stepping.is_some() && explore.watched().is_none() {
            return Some(Job::WatchMcts {
                position: explore.root,
                steps: explore.steps_asked(),
            });
        }
        explore.result().is_none().then_some(Job::ExplainMcts {
            position: explore.root,
            iterations: explore.iterations(),
        })
    }

    fn key_maps(explore: &Explore<MonteCarlo>) -> (&'static [Keys], &'static [Keys]) {
        if explore.ultimate() {
            (&keys::ULTIMATE, &keys::MCTS_STEPS)
        } else {
            (&keys::CLASSIC_MCTS, &keys::MCTS_STEPS)
        }
    }

    /// `+` and `-`: the iterations; `a` on Ultimate, where there is no other search.
    fn own_key(explore: &mut Explore<MonteCarlo>, command: Command) -> Outcome {
        match command {
            Command::More => explore.change_count(true),
            Command::Fewer => explore.change_count(false),
            _ => Outcome::Say(
                "Ultimate is explored by its Monte Carlo tree alone: the textbook searches \
                 cannot reach its ends"
                    .into(),
            ),
        }
    }

    /// While the iterations are worked out, or where there are none, step mode says so.
    fn own_step_key(explore: &mut Explore<MonteCarlo>, _: Command) -> Option<Outcome> {
        match explore.watched() {
            None => Some(Outcome::Say(
                "Still working out the iterations… (Esc leaves)".into(),
            )),
            Some(_) if MonteCarlo::last_step(explore).is_none() => Some(Outcome::Say(
                "No iterations to replay here (Esc leaves)".into(),
            )),
            Some(_) => None,
        }
    }

    fn start_stepping(explore: &mut Explore<MonteCarlo>) -> Outcome {
        explore.stepping = Some(Replay::default());
        match explore.watched() {
            None => Outcome::Say(format!(
                "Working out the search's first {} iterations…",
                grouped(explore.steps_asked())
            )),
            Some(_) => Outcome::Say(STEP_KEYS.into()),
        }
    }

    fn last_step(explore: &Explore<MonteCarlo>) -> Option<usize> {
        explore.watched()?.as_ref().ok()?.len().checked_sub(1)
    }

    fn searching_again(moves: &[String]) -> String {
        format!(
            "Searching again from {}: Backspace returns",
            moves.join(" ")
        )
    }
}

impl Explore<MonteCarlo> {
    /// Whether the moves of this rule set are typed as a board and a cell (Ultimate), so that
    /// step mode can replay its random games.
    pub fn ultimate(&self) -> bool {
        self.root.ultimate().is_some()
    }

    /// How to go into a move, once a search has arrived.
    fn way_in(&self) -> &'static str {
        match MonteCarlo::keys(self) {
            KEYS => "two digits or Enter go into a move",
            DIGIT_KEYS => "a digit or Enter goes into a move",
            _ => "↑ ↓ and Enter go into a move",
        }
    }

    /// The iterations the search on screen is given.
    pub fn iterations(&self) -> u64 {
        COUNTS[self.slot]
    }

    /// The iterations step mode replays: the search's first, up to [`STEP_LIMIT`].
    pub fn steps_asked(&self) -> u64 {
        self.iterations().min(STEP_LIMIT)
    }

    /// The replayed iterations, once they have arrived.
    pub fn watched(&self) -> Option<&Watched> {
        match &self.steps {
            Some((n, result)) if *n == self.steps_asked() => Some(result),
            _ => None,
        }
    }

    /// The iteration on screen in step mode.
    pub fn iteration(&self) -> Option<&Iteration<Move>> {
        let at = self.stepping?.at;
        self.watched()?.as_ref().ok()?.get(at)
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
        self.arrived(self.slot, result);
        message
    }

    /// Takes step mode's iterations from the worker.
    pub(super) fn watched_arrived(&mut self, result: Watched) -> String {
        let message = match &result {
            Ok(steps) if steps.is_empty() => "The search has nothing to do here".to_string(),
            Ok(_) => STEP_KEYS.to_string(),
            Err(e) => format!("No iterations: {e}"),
        };
        self.steps = Some((self.steps_asked(), result));
        message
    }

    /// `+` and `-`: the search of more or fewer iterations, at the node the same moves lead
    /// to.
    fn change_count(&mut self, more: bool) -> Outcome {
        let count = if more {
            (self.slot + 1).min(COUNTS.len() - 1)
        } else {
            self.slot.saturating_sub(1)
        };
        if count == self.slot {
            let end = if more { "most" } else { "fewest" };
            return Outcome::Say(format!(
                "{} iterations is the {end} the explorer searches",
                grouped(self.iterations())
            ));
        }
        self.show(count);
        Outcome::Say(match self.result() {
            None => format!("Searching: {} iterations…", grouped(self.iterations())),
            Some(_) => format!("{} iterations", grouped(self.iterations())),
        })
    }
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
    use crate::ui::tui::input::Action;
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

    fn explore(app: &App) -> &Explore<MonteCarlo> {
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
        assert_eq!(explore(&app).selected(), root.best_child());
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
        assert_eq!(
            *explore(&app).root(),
            crate::rules::position::Position::Ultimate(before)
        );
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
            app.update(Action::Analyse);
        }
        assert!(
            app.message().ends_with("symmetric table"),
            "{}",
            app.message()
        );
        app.update(Action::Analyse);
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
        app.update(Action::Analyse);
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
            app.update(Action::Analyse);
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
        app.update(Action::Analyse);
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
