//! The terminal game's state: the session, the mode, the cursor and the message line.
//!
//! [`App::update`] applies one of the player's [`Action`]s and [`App::handle`] one event of
//! the loop (a resize, the worker's answer); neither does input, output or search. What the
//! AI worker should be busy with follows from the state alone: [`App::job`].

use crate::ai::player::{self, Player};
use crate::ai::search::Value;
use crate::game::file::GameFile;
use crate::game::record::Record;
use crate::game::{Game, Session, Side};
use crate::net::link::LinkEvent;
use crate::report::review::Judgement;
use crate::rules::catalogue::Shape;
use crate::rules::classic::Mark;
use crate::rules::gomoku::opening::Stage;
use crate::rules::position::Move;
use crate::text::sentence;
use crate::ui::driver::{Driver, NoUndo};
use crate::ui::keypad::names_column;
use crate::ui::tui::input::Action;
use crate::ui::tui::keymap;
use crate::ui::tui::layout;
use crate::ui::tui::worker::{Job, Reply};
use keys::Command;

mod analysis;
mod choosing;
mod conceding;
mod confirm;
mod entry;
mod explore;
pub mod keys;
mod level;
mod looking;
mod net;
mod reviewing;

pub use analysis::{Analysis, Hand, Posed};
pub use confirm::Leave;
pub use explore::{
    COUNTS, Explore, Explorer, Kind, MonteCarlo, Replay, SPEEDS, STEP_LIMIT, Stepping, Textbook,
    TreeNode, step_words,
};
#[cfg(test)]
pub(crate) use explore::{answer_mcts, answer_searches};
pub use reviewing::{Numbers, review_keys};

/// The message line of a game between two AIs that is paused.
const PAUSED: &str = "Paused: Space resumes";

/// What the screen is doing; each mode decides what keys mean.
#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// A game in progress or just finished.
    Playing,
    /// A game between two AIs, stopped until Space.
    Paused,
    /// The keys overlay, over the mode it returns to.
    Help(Box<Mode>),
    /// The worker is working out a hint; then back to the mode inside (playing or paused).
    HintWaiting(Box<Mode>),
    /// Every legal move's value, shown until the next key; then back to the mode inside.
    Hint(Vec<(Move, Value)>, Box<Mode>),
    /// The worker is judging the finished game's first move, of `total`.
    ReviewWaiting { done: usize, total: usize },
    /// The game's moves judged so far, of `total` (the worker judges the rest meanwhile),
    /// with the one at index `at` on screen.
    Review {
        moves: Vec<Judgement>,
        at: usize,
        total: usize,
    },
    /// `Leave this game? y/n`, over the mode it returns to if the answer is no. The AI does
    /// not think meanwhile.
    Confirm(Leave, Box<Mode>),
    /// The explorer of the AI's search tree, over the mode it returns to. The AI does not
    /// think meanwhile: the worker runs the explorer's searches.
    Explore(Box<Explorer>, Box<Mode>),
    /// The analysis board, over the mode it returns to. The AI does not think meanwhile: the
    /// worker thinks on the board's position.
    Analyse(Box<Analysis>, Box<Mode>),
}

impl Mode {
    fn is_explorer(&self) -> bool {
        matches!(self, Mode::Explore(..))
    }
}

/// Something the loop, not the player, tells the app.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The terminal now has this many columns and rows.
    Resize { columns: u16, rows: u16 },
    /// The worker's answer (or, for a review, its progress) on the app's current [`Job`].
    Answer(Reply),
    /// News from the connection of a network game.
    Net(LinkEvent),
    /// The loop's clock, while [`App::ticking`].
    Tick,
    /// A look at the game's clock, while it runs ([`App::clock_runs`]).
    Clock,
}

// The bools are independent switches (the rules' page, a game of the history, hints off,
// quitting), not a hidden state machine: the mode is `mode`.
#[allow(clippy::struct_excessive_bools)]
pub struct App {
    driver: Driver,
    mode: Mode,
    cursor: Move,
    /// Board rows scrolled out of sight above a tall board's window, where the screen is
    /// too short for all of them ([`layout::GridLayout`]).
    scroll: u16,
    /// Looking back through the game: the moves of the position on screen (`[` and `]`).
    looking: Option<usize>,
    /// In Ultimate, the board chosen by a first digit, waiting for the cell's.
    selected: Option<u8>,
    /// A column letter typed, waiting for its row: the first half of `c3`.
    column: Option<char>,
    /// After the column, a `1` that may begin a row from 10 up, on boards that have one.
    first_digit: Option<u8>,
    /// The AI's level chosen for the next round, with the side it plays.
    next_level: Option<(Side, Player)>,
    message: String,
    /// The record of the last game that was left unfinished or finished for a new round.
    previous: Option<Record>,
    /// The last review worked out, for the game it judged: opening it again is instant.
    reviewed: Option<(Record, Vec<Judgement>)>,
    size: (u16, u16),
    /// The help shows the rules of the game instead of the keys (`?` twice).
    rules_page: bool,
    /// The game is one of the history, opened to be reviewed (and played on from).
    archived: bool,
    /// The settings turned hints off.
    no_hints: bool,
    /// The page of the first Ultimate game's lesson on screen, if it is.
    lesson: Option<usize>,
    quit: bool,
    /// A game the player asked to save (`w`), for the loop to write.
    export: Option<GameFile>,
    /// The analysis board's tree as a game file, to be saved likewise.
    export_text: Option<String>,
    /// Which stones show their move's number (`v`).
    numbers: Numbers,
    /// A puzzle answered on the analysis board, for the loop to keep: its number, the
    /// verdict.
    puzzle_verdict: Option<(usize, crate::report::puzzles::Verdict)>,
    /// Set in a network game.
    net: Option<net::Net>,
}

impl App {
    /// The terminal game of `session`, on a screen of `size` (columns, rows).
    pub fn new(session: Session, size: (u16, u16)) -> App {
        let cursor = session.game().position().centre();
        let mut app = App {
            driver: Driver::new(session),
            mode: Mode::Playing,
            cursor,
            scroll: 0,
            looking: None,
            selected: None,
            column: None,
            first_digit: None,
            next_level: None,
            message: String::new(),
            previous: None,
            reviewed: None,
            size,
            rules_page: false,
            archived: false,
            no_hints: false,
            lesson: None,
            quit: false,
            export: None,
            export_text: None,
            puzzle_verdict: None,
            numbers: Numbers::Off,
            net: None,
        };
        app.message = app.turn_message();
        app
    }

    pub fn session(&self) -> &Session {
        self.driver.session()
    }

    /// The player is done with this screen: a game left unfinished is entered as abandoned
    /// (see [`Session::leave`]).
    pub fn close(&mut self) {
        self.driver.leave();
    }

    pub fn game(&self) -> &Game {
        self.driver.game()
    }

    pub fn mode(&self) -> &Mode {
        &self.mode
    }

    /// The mode under the help overlay, if it is open.
    fn base_mode(&self) -> &Mode {
        let mut mode = &self.mode;
        while let Mode::Help(under) = mode {
            mode = under;
        }
        mode
    }

    fn base_mode_mut(&mut self) -> &mut Mode {
        let mut mode = &mut self.mode;
        while let Mode::Help(under) = mode {
            mode = under;
        }
        mode
    }

    pub fn cursor(&self) -> Move {
        self.cursor
    }

    /// Board rows scrolled out of sight above a tall board's window.
    pub fn scroll(&self) -> u16 {
        self.scroll
    }

    /// The part of the screen the board and its lines are laid out on: the whole screen, or
    /// all but the move list where it is shown beside them ([`layout::board_area`]).
    pub fn board_area(&self) -> (u16, u16) {
        let (width, height) = layout::board_area(self.size, self.review().is_none());
        (width, height.saturating_sub(self.lines_below()))
    }

    /// The rows kept under the board for the analysis board's lines, where they are not
    /// beside it: one a line (one for the value alone).
    pub fn lines_below(&self) -> u16 {
        let beside = layout::board_area(self.size, true).0 < self.size.0;
        match self.analysis() {
            Some(analysis) if !beside => analysis.count().max(1) as u16,
            _ => 0,
        }
    }

    /// The screen column the board's area starts at ([`layout::board_left`]).
    pub fn board_left(&self) -> u16 {
        layout::board_left(self.size, self.review().is_none())
    }

    /// In Ultimate, the board the player chose with a first digit, if any.
    pub fn selected(&self) -> Option<u8> {
        self.selected
    }

    /// The message line: a question being asked, or else the last word on the game.
    pub fn message(&self) -> &str {
        self.question().unwrap_or(&self.message)
    }

    /// The record of the last game with a move in it: the current one, or else the one
    /// before it.
    pub fn last_record(&self) -> Option<Record> {
        let current = self.game().record();
        if current.is_empty() {
            self.previous.clone()
        } else {
            Some(current)
        }
    }

    /// Whether the game shown is one of the history, opened from *Your games*.
    pub fn archived(&self) -> bool {
        self.archived
    }

    /// Every legal move's value while a hint is shown.
    pub fn hint(&self) -> Option<&[(Move, Value)]> {
        match self.base_mode() {
            Mode::Hint(values, _) => Some(values),
            _ => None,
        }
    }

    pub fn help_open(&self) -> bool {
        matches!(self.mode, Mode::Help(_))
    }

    /// Whether the help shows the rules of the game (a second `?`) rather than the keys.
    pub fn rules_open(&self) -> bool {
        self.help_open() && self.rules_page
    }

    /// Whether a game between two AIs is paused (under any hint, help or explorer shown over
    /// it).
    pub fn paused(&self) -> bool {
        let mut mode = &self.mode;
        loop {
            match mode {
                Mode::Help(under)
                | Mode::HintWaiting(under)
                | Mode::Hint(_, under)
                | Mode::Explore(_, under)
                | Mode::Analyse(_, under) => mode = under,
                Mode::Paused => return true,
                _ => return false,
            }
        }
    }

    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// `w`: the game on screen, to be saved to a file by the loop.
    fn save(&mut self) {
        let now = crate::store::history::now();
        self.export = Some(GameFile::of(self.driver.session(), now));
        self.message = "Saving the game…".into();
    }

    /// The game the player asked to save, once: the loop writes it and says where
    /// ([`App::saved`]).
    pub fn take_export(&mut self) -> Option<GameFile> {
        self.export.take()
    }

    /// The analysis the player asked to save, once, as a game file's text.
    pub fn take_export_text(&mut self) -> Option<String> {
        self.export_text.take()
    }

    /// What became of the game saved: the file it went to, or why it did not.
    pub fn saved(&mut self, said: String) {
        self.message = said;
    }

    /// What the AI worker should be doing now: a move on the AI's turn, a hint that was asked
    /// for, or nothing. When this changes, the loop cancels the old job and starts the new.
    pub fn job(&self) -> Option<Job> {
        let position = *self.game().position();
        match self.base_mode() {
            Mode::HintWaiting(_) => Some(Job::Hint { position }),
            Mode::Explore(explore, _) => explore.job(),
            Mode::Analyse(analysis, _) => analysis.job(),
            Mode::ReviewWaiting { .. } => Some(Job::Review {
                record: self.game().record(),
            }),
            Mode::Review { moves, total, .. } if moves.len() < *total => Some(Job::Review {
                record: self.game().record(),
            }),
            // The base mode is never Help.
            Mode::Paused
            | Mode::Hint(..)
            | Mode::Review { .. }
            | Mode::Help(_)
            | Mode::Confirm(..) => None,
            Mode::Playing if self.driver.draw_offered_to_ai() => Some(Job::Draw {
                position: *self.game().position(),
            }),
            Mode::Playing => self
                .driver
                .ai_to_move()
                .map(|(position, player)| Job::Move {
                    position,
                    player,
                    budget: self.driver.ai_budget(),
                }),
        }
    }

    /// Applies an event of the loop.
    pub fn handle(&mut self, event: Event) {
        match event {
            Event::Resize { columns, rows } => self.size = (columns, rows),
            Event::Answer(reply) => self.done(reply),
            Event::Net(event) => self.link_event(event),
            Event::Tick => self.tick(),
            Event::Clock => self.look_at_clock(),
        }
    }

    /// Whether the game's clock runs: the loop looks at it often, and draws it.
    pub fn clock_runs(&self) -> bool {
        self.driver.clock_runs()
    }

    /// The clock looked at now: a flag that fell ends the game, and the message says so.
    fn look_at_clock(&mut self) {
        if self.driver.tick(std::time::Instant::now()).is_some() {
            self.message = self.turn_message();
        }
    }

    /// Takes the worker's answer to the current job; an answer to anything else is ignored.
    fn done(&mut self, reply: Reply) {
        match (self.job(), reply) {
            (Some(Job::Move { .. }), Reply::Move(mv)) => self.ai_move(mv),
            (Some(Job::Draw { .. }), Reply::Draw(accepts)) => self.ai_answers_draw(accepts),
            (Some(Job::Explain { .. }), reply @ Reply::Explained { .. })
            | (Some(Job::ExplainMcts { .. }), reply @ Reply::ExplainedMcts(_))
            | (Some(Job::WatchMcts { .. }), reply @ Reply::Watched(_)) => {
                self.explained(reply);
            }
            (Some(Job::Review { .. }), Reply::Progress { judged, total }) => {
                self.judged(judged, total);
            }
            (Some(Job::Review { record }), Reply::Review(moves)) if !moves.is_empty() => {
                self.reviewed = Some((record, moves.clone()));
                let total = moves.len();
                match self.base_mode_mut() {
                    Mode::Review { moves: shown, .. } => *shown = moves,
                    mode => {
                        *mode = Mode::Review {
                            moves,
                            at: 0,
                            total,
                        };
                        self.show_review_move();
                    }
                }
            }
            (Some(Job::Lines { .. }), Reply::Lines(thought)) => self.analysis_answer(*thought),
            (Some(Job::Judge { .. }), Reply::Judged(verdict)) => self.puzzle_judged(verdict),
            (Some(Job::Hint { .. }), Reply::Hint(values)) => {
                self.message = self.hint_message(&values);
                let mode = self.base_mode_mut();
                if let Mode::HintWaiting(under) = std::mem::replace(mode, Mode::Playing) {
                    *mode = Mode::Hint(values, under);
                }
            }
            _ => {}
        }
    }

    /// Applies one action of the player.
    ///
    /// # Panics
    /// On [`Action::Panic`], which only a test build of the key map produces.
    pub fn update(&mut self, action: Action) {
        // The lesson's pages go by with any key; Esc skips the rest, Ctrl-C still quits.
        if let Some(page) = self.lesson {
            self.lesson = match action {
                Action::Escape => None,
                Action::Interrupt => {
                    self.quit = true;
                    None
                }
                _ => Some(page + 1).filter(|&p| p < crate::report::rules::ULTIMATE_LESSON.len()),
            };
            return;
        }
        // The help opens over whatever is on screen, and what was going on goes on under it.
        if action == Action::Help && !self.help_open() {
            let under = std::mem::replace(&mut self.mode, Mode::Playing);
            self.mode = Mode::Help(Box::new(under));
            self.rules_page = false;
            return;
        }
        match std::mem::replace(&mut self.mode, Mode::Playing) {
            // `?` again turns the keys' page to the rules' (outside the explorer).
            Mode::Help(under)
                if action == Action::Help && !self.rules_page && !under.is_explorer() =>
            {
                self.mode = Mode::Help(under);
                self.rules_page = true;
                return;
            }
            // Any key closes the help without acting; q and Ctrl-C still act as they would
            // under it (q asks first in the middle of a game).
            Mode::Help(under) => {
                self.mode = *under;
                self.rules_page = false;
                if matches!(action, Action::Quit | Action::Interrupt) {
                    self.update(action);
                }
                return;
            }
            Mode::Confirm(leave, under) => {
                self.mode = *under;
                self.confirm_key(leave, &action);
                return;
            }
            // A hint lasts until the next key; Esc only closes it.
            Mode::Hint(_, under) | Mode::HintWaiting(under) => {
                self.mode = *under;
                if action == Action::Escape {
                    self.message = self.turn_message();
                    return;
                }
            }
            Mode::ReviewWaiting { done, total } => {
                self.mode = Mode::ReviewWaiting { done, total };
                self.review_waiting_key(action);
                return;
            }
            Mode::Review { moves, at, total } => {
                self.mode = Mode::Review { moves, at, total };
                self.review_key(action);
                return;
            }
            Mode::Explore(explore, under) => {
                self.mode = Mode::Explore(explore, under);
                self.explore_key(&action);
                return;
            }
            Mode::Analyse(analysis, under) => {
                self.mode = Mode::Analyse(analysis, under);
                return self.analysis_key(action);
            }
            other => self.mode = other,
        }
        self.play_key(action);
    }

    fn play_key(&mut self, action: Action) {
        let analysing = self.analysis().is_some();
        if !analysing && (self.looking_key(&action) || self.choice_key(&action)) {
            return;
        }
        // A board chosen in Ultimate waits for its cell; most other keys put it down.
        let selected = self.selected.take();
        let mut column = self.column.take();
        let mut first = self.first_digit.take();
        let side = self.input_position().grid_side();
        let letter = match action {
            Action::Letter(c) => Some(c),
            _ => action.letter(),
        };
        // A whole coordinate that waited for a second digit (`a1` where rows run past 9) is
        // played by the letter after it, which then begins the next.
        if let (Some(_), Some(row), Some(_)) = (column, first, letter) {
            self.coordinate(column, row);
            (column, first) = (None, None);
        }
        // On a board with a column h (Ultimate's nine, Gomoku's fifteen), `h` is that column
        // first, and `h` again asks for the hint; every key that is a letter alike (`q` twice
        // quits on 20×20). Once the game is over no coordinate is typed: `n` is a new round.
        let over = !analysing && self.game().is_over();
        if let Some(c) = action.letter()
            && names_column(side, c)
            && column != Some(c)
            && !over
        {
            self.letter(c);
            return;
        }
        match action {
            Action::Letter(_) if over => {
                self.message = "The game is over: n, Enter or Space starts a new round".into();
            }
            Action::Digit(d) if column.is_some() => self.row_digit(column, first, d),
            Action::Zero if column.is_some() => self.row_digit(column, first, 0),
            Action::Letter(c) => self.letter(c),
            Action::Escape | Action::Back if column.is_some() => {
                self.message = format!("Coordinate cancelled. {}", self.turn_message());
            }
            Action::Activate if column.is_some() => {
                if let Some(row) = first {
                    self.coordinate(column, row);
                } else {
                    self.column = column;
                    self.message = self.column_message();
                }
            }
            Action::Zero => {
                self.message =
                    "0 names no row or column: type a column letter, then its row".into();
            }
            Action::Digit(d) => self.digit(selected, d),
            Action::Escape | Action::Back if selected.is_some() => {
                self.message = format!("Board choice cancelled. {}", self.turn_message());
            }
            Action::Back => {
                self.message = "Backspace cancels a board chosen with a first digit".into();
            }
            Action::Move(direction) => {
                self.move_cursor(direction);
                if selected.is_some() {
                    self.message = format!("Board choice cancelled. {}", self.turn_message());
                }
            }
            Action::Activate => self.activate(),
            Action::Click { column, row } => self.click(column, row),
            other if analysing => self.analysis_command(&other),
            other => self.command(&other),
        }
    }

    /// A click at the screen cell (`column`, `row`): the move there, if any, played.
    fn click(&mut self, column: u16, row: u16) {
        let (area, scroll) = (self.board_area(), self.scroll);
        let at = column.checked_sub(self.board_left()).map(|x| (x, row));
        let position = self.input_position();
        let on = |at| layout::move_at(&position, area, scroll, at);
        if let Some(mv) = at.and_then(on) {
            self.cursor = mv;
            self.human_move(mv);
        }
    }

    /// The position moves are typed on: the analysis board's where it is open, else the
    /// game's.
    fn input_position(&self) -> crate::rules::position::Position {
        match self.analysis() {
            Some(analysis) => *analysis.position(),
            None => *self.game().position(),
        }
    }

    /// Whether the cursor is shown: while moves may be typed on the board on screen.
    pub fn cursor_on(&self) -> bool {
        !self.input_position().is_over() || self.analysis().is_some()
    }

    /// A key of the game screen's own ([`keys`]), or a word on where it does something.
    fn command(&mut self, action: &Action) {
        let position = *self.game().position();
        match keymap::command(keys::game_keys(&position, true), action) {
            Some(Command::Undo) => self.undo(),
            Some(Command::Hint) => self.ask_hint(),
            Some(Command::NewRound) => self.leave(Leave::NewRound),
            Some(Command::Level) => self.change_level(*action == Action::Level),
            Some(Command::Review) => self.ask_review(),
            Some(Command::Explore) => self.open_explorer(),
            Some(Command::Analyse) => self.analyse_here(),
            Some(Command::Numbers) => self.next_numbers(),
            Some(Command::Save) if self.game().is_over() => self.save(),
            Some(Command::Look) => self.look(action),
            Some(Command::Draw) => self.offer_draw(),
            Some(Command::Resign) => self.ask_resign(),
            Some(Command::Save) => {
                self.message = "w saves a finished game to a file; this one goes on".into();
            }
            // Opened in `update`, over any mode.
            Some(Command::Help) => {}
            Some(Command::Quit) if *action == Action::Interrupt => self.quit = true,
            Some(Command::Quit) => self.leave(Leave::Quit),
            None => self.message = elsewhere(action),
        }
    }

    fn turn_message(&self) -> String {
        let (session, position) = (self.driver.session(), self.game().position());
        // Whoever acts: in a swap opening not always the player of the mark to move.
        let name = session.name(session.side_in(position.seat()));
        match self.game().turn() {
            Some((_, player)) if player.is_human() && position.stage() != Stage::Play => {
                let side = session.side_in(position.seat());
                if session.is_you(side) {
                    format!("You {}", choosing::asked(position, true))
                } else {
                    format!("{name} {}", choosing::asked(position, false))
                }
            }
            Some((mark, player)) if player.is_human() => {
                let place = position.whereabouts();
                let place = place.map(|w| format!(" {w}")).unwrap_or_default();
                format!("{mark} to move{place} ({name})")
            }
            Some((mark, Player::Remote)) => format!("Waiting for {mark} ({name})…"),
            Some((mark, _)) => format!("{mark} ({name}) is thinking…"),
            None => format!(
                "{} {}",
                self.driver.session().result().unwrap_or_default(),
                self.after_game()
            ),
        }
    }

    /// What the message line offers once a game is over.
    fn after_game(&self) -> &'static str {
        match self.watching() {
            // A watcher asks for nothing: the players decide on a rematch.
            (_, true) => "q quits",
            _ if self.net.is_some() => "n: ask for a rematch",
            _ => AFTER_GAME,
        }
    }

    fn undo(&mut self) {
        match self.driver.undo() {
            Err(NoUndo::Over) => self.message = FINAL.into(),
            Err(why) => self.message = sentence(&why.to_string()),
            Ok(0) => self.message = "Nothing to undo".into(),
            Ok(n) => {
                let s = if n == 1 { "" } else { "s" };
                self.message = format!("Took back {n} move{s}. {}", self.turn_message());
            }
        }
    }

    /// Opens the lesson of a first Ultimate game: beside the board, or over it where the
    /// screen is too narrow for both.
    pub fn start_lesson(&mut self) {
        self.lesson = Some(0);
    }

    /// The lesson's page on screen, if any.
    pub fn lesson(&self) -> Option<usize> {
        self.lesson
    }

    /// The message over a hint: how to read its values, and on Gomoku's points, which hold
    /// one character each, the best move's value in words.
    fn hint_message(&self, values: &[(Move, Value)]) -> String {
        let mark = self.game().position().to_move();
        let variant = self.game().variant();
        let best = crate::ai::search::best_of(values).first().copied();
        let points = variant.shape() == Shape::Points;
        if let Some((mv, value)) = best.filter(|_| points) {
            format!(
                "Hint for {mark}: best {mv} ({value}); digits are tens of % to win, W win, L loss"
            )
        } else if player::rates(variant) {
            format!(
                "Hint for {mark}: win rates in %, or W win, D draw, L loss when proven; best in bold"
            )
        } else if values.iter().any(|(_, v)| v.is_bound()) {
            format!(
                "Hint for {mark}: W win, D draw, L loss; D+ at least, D- at most a draw; best in bold"
            )
        } else {
            format!("Hint for {mark}: W win, D draw, L loss, in plies from now; best in bold")
        }
    }

    /// Turns hints on or off, as the settings say.
    pub fn set_hints(&mut self, on: bool) {
        self.no_hints = !on;
    }

    /// Why hints (`h`) and the explorer during a game (`t`) are off, or `None` when they
    /// are on: in a network game unless both players asked for them, otherwise as the
    /// settings say.
    pub fn hints_off(&self) -> Option<String> {
        match self.driver.net() {
            Some(net) => net.hints_off().map(|why| why.to_string()),
            None => self
                .no_hints
                .then(|| "Hints are off in your settings (s on the start screen)".to_string()),
        }
    }

    /// Whether the engine may be asked about the game whatever the hints: once it is over,
    /// or when it is one of the history.
    fn allows_looking_on(&self) -> bool {
        self.game().is_over() || self.archived
    }

    /// Whether the explorer (`t`) may open now: with hints on, or once the game is over or
    /// when it is one of the history; and on a board it can show (not above 16×16).
    pub fn explorer_allowed(&self) -> bool {
        let allowed = self.game().is_over() || self.archived || self.hints_off().is_none();
        allowed && crate::explain::explorable(self.game().position()).is_ok()
    }

    fn ask_hint(&mut self) {
        match self.game().turn() {
            _ if let Some(why) = self.hints_off() => self.message = why,
            None => self.message = "The game is over: no hint".into(),
            Some((_, player)) if !player.is_human() && !self.paused() => {
                self.message = "Hints are for your turn".into();
            }
            Some((mark, _)) => {
                let under = std::mem::replace(&mut self.mode, Mode::Playing);
                self.mode = Mode::HintWaiting(Box::new(under));
                self.message = format!("Working out a hint for {mark}…");
            }
        }
    }

    /// `n`: a new round now, or in a network game a rematch asked for.
    fn start_new_round(&mut self) {
        if self.net.is_some() {
            self.ask_rematch();
        } else {
            self.new_round();
        }
    }

    fn new_round(&mut self) {
        let record = self.game().record();
        if !record.is_empty() {
            self.previous = Some(record);
        }
        let level = self.next_level.take();
        self.driver.new_round(level);
        self.mode = Mode::Playing;
        self.cursor = self.game().position().centre();
        self.selected = None;
        self.looking = None;
        self.scroll = 0;
        let game = self.game();
        let first = if game.player(Mark::X).is_human() && !game.player(Mark::O).is_human() {
            "you move first".to_string()
        } else {
            format!("{} moves first", self.driver.session().name_of(Mark::X))
        };
        self.message = format!(
            "Round {}: {first}. {}",
            self.driver.session().round(),
            self.turn_message()
        );
    }
}

/// Why `u` does nothing after a game: its result is in the score for good.
const FINAL: &str = "The game is over and its result counts: no undo (n starts a new round)";

/// What the message line offers once a game is over.
const AFTER_GAME: &str = "n, Enter or Space: new round";

/// What a key that is none of the game screen's says: where it does something, if anywhere.
///
/// # Panics
/// On [`Action::Panic`], which only a test build of the key map produces.
fn elsewhere(action: &Action) -> String {
    match action {
        Action::PlayOn => "p plays on from a game of your history, in its review".into(),
        Action::Step | Action::Faster | Action::Slower => {
            "s, + and - step through a search in the explorer (t)".into()
        }
        Action::Yes => "y answers a question; there is none".into(),
        Action::Panic => panic!("deliberate panic (test key)"),
        Action::Unknown(key) => format!("{key} does nothing here: press ? for the keys"),
        Action::Stones => "'z' does nothing here: press ? for the keys".into(),
        Action::Colour => "Tab does nothing here: press ? for the keys".into(),
        Action::OtherLine(-1) => "'{' does nothing here: press ? for the keys".into(),
        Action::OtherLine(_) => "'}' does nothing here: press ? for the keys".into(),
        Action::Paste(_) => "A paste sets up the analysis board (a a opens it)".into(),
        other => format!("{other:?} does nothing here: press ? for the keys"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::search::Searcher;
    use crate::game::Score;
    use crate::rules::classic::{Board, Rules};
    use crate::rules::position::Position;
    use crate::rules::position::Variant;
    use crate::rules::ultimate;
    use crate::ui::tui::input::Direction;

    fn app(a: Player, b: Player) -> App {
        App::new(Session::new(Rules::CLASSIC, a, b), (80, 24))
    }

    fn board(app: &App) -> String {
        app.game().position().to_string()
    }

    fn cell(_app: &App, digit: u8) -> Move {
        Move::Cell(Board::default().numpad(digit).unwrap())
    }

    fn digit(mv: Move) -> Option<u8> {
        match mv {
            Move::Cell(c) => c.numpad(),
            _ => None,
        }
    }

    /// Does what the worker would: answers the current job with a full search.
    fn work(app: &mut App) {
        let classic = |p: Position| *p.classic().expect("a classic game");
        let reply = match app.job().expect("a job") {
            Job::Move { position, .. } => {
                let best = Searcher::new().best_move(&classic(position)).unwrap().0;
                Reply::Move(Move::Cell(best))
            }
            Job::Draw { position } => {
                let value = Searcher::new().best_move(&classic(position)).unwrap().1;
                Reply::Draw(value.at_most_even())
            }
            Job::Hint { position } => Reply::Hint(
                Searcher::new()
                    .analyze(&classic(position))
                    .into_iter()
                    .map(|(c, v)| (Move::Cell(c), v))
                    .collect(),
            ),
            Job::Explain { .. } | Job::ExplainMcts { .. } | Job::WatchMcts { .. } => {
                panic!("the explorer's tests answer its searches")
            }
            Job::Judge { position, mv } => {
                let mut brain = crate::ai::player::Brain::new(Some(1));
                Reply::Judged(crate::report::puzzles::judge(&mut brain, &position, mv))
            }
            Job::Lines { position, count } => {
                let mut brain = crate::ai::player::Brain::new(Some(1));
                let lines = brain.lines(&position, count.max(1));
                Reply::Lines(Box::new(crate::ui::tui::worker::Thought {
                    lines,
                    work: crate::ai::player::Work::default(),
                    time: std::time::Duration::ZERO,
                    done: true,
                }))
            }
            Job::Review { record } => {
                let mut brain = crate::ai::player::Brain::new(None)
                    .with_think(std::time::Duration::from_secs(5));
                let moves = crate::report::review::review(&record, &mut brain, &mut |_, _| {});
                Reply::Review(moves.unwrap())
            }
        };
        app.handle(Event::Answer(reply));
    }

    #[test]
    fn a_digit_plays_and_the_ai_is_asked_to_answer() {
        let mut app = app(Player::Human, Player::HARD);
        assert_eq!(app.job(), None);
        app.update(Action::Digit(5));
        assert_eq!(board(&app), ".../.X./...");
        let board_now = *app.game().position();
        assert_eq!(
            app.job(),
            Some(Job::Move {
                position: board_now,
                player: Player::HARD,
                budget: None,
            })
        );
        assert!(app.message().ends_with("O (level 7 AI) is thinking…"));
        app.handle(Event::Answer(Reply::Move(cell(&app, 1))));
        assert_eq!(board(&app), ".../.X./O..");
        assert_eq!(app.job(), None);
    }

    #[test]
    fn an_answer_to_an_old_job_is_ignored() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Digit(5));
        app.update(Action::Undo);
        app.handle(Event::Answer(Reply::Move(cell(&app, 1))));
        assert_eq!(board(&app), ".../.../...");
        app.handle(Event::Answer(Reply::Hint(Vec::new())));
        assert_eq!(app.hint(), None);
    }

    #[test]
    fn a_taken_cell_changes_only_the_message() {
        let mut app = app(Player::Human, Player::Human);
        app.update(Action::Digit(5));
        let before = board(&app);
        app.update(Action::Digit(5));
        assert_eq!(board(&app), before);
        assert_eq!(app.message(), "Cell 5 is taken");
    }

    #[test]
    fn cursor_starts_in_the_centre_and_stays_on_the_board() {
        let mut app = app(Player::Human, Player::Human);
        assert_eq!(digit(app.cursor()), Some(5));
        for _ in 0..5 {
            app.update(Action::Move(Direction::Up));
        }
        app.update(Action::Move(Direction::Left));
        assert_eq!(digit(app.cursor()), Some(7));
        app.update(Action::Activate);
        assert_eq!(board(&app), "X../.../...");
    }

    #[test]
    fn moves_typed_during_the_ai_turn_wait_for_the_human() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Digit(7));
        app.update(Action::Digit(3));
        assert_eq!(board(&app), "X../.../...", "not played for O");
        assert_eq!(app.message(), "Wait for the AI: 3 will be played next");
        app.handle(Event::Answer(Reply::Move(cell(&app, 5))));
        assert_eq!(board(&app), "X../.O./..X");
    }

    /// Answers the AI's job in Ultimate with the move `digits` (board then cell).
    fn ultimate_answer(app: &mut App, digits: &str) {
        let mv: ultimate::Move = digits.parse().unwrap();
        app.handle(Event::Answer(Reply::Move(Move::Ultimate(mv))));
    }

    #[test]
    fn whole_ultimate_moves_typed_during_the_ai_turn_wait_for_the_human() {
        let mut app = ultimate_app();
        for d in [5, 5, 1] {
            app.update(Action::Digit(d));
        }
        assert_eq!(app.game().history().len(), 1, "not played for O");
        assert_eq!(app.selected(), Some(1));
        assert!(
            app.message()
                .starts_with("Board 1: now the cell, played after O's move")
        );
        app.update(Action::Digit(5));
        assert_eq!(app.message(), "Wait for the AI: 15 will be played next");
        app.update(Action::Digit(5));
        app.update(Action::Digit(9));
        assert_eq!(
            app.message(),
            "Wait for the AI: 15, 59 will be played in turn"
        );
        // O sends X to board 1: the first queued move is played, the second waits.
        ultimate_answer(&mut app, "51");
        let names: Vec<String> = app
            .game()
            .history()
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(names, ["55", "51", "15"]);
        // O sends X to board 3: 59 is on the wrong board, so it is refused, not played.
        ultimate_answer(&mut app, "53");
        assert_eq!(app.game().history().len(), 4);
        assert_eq!(app.message(), "You were sent to board 3, not board 5");
    }

    fn ultimate_app() -> App {
        App::new(
            Session::new(Variant::Ultimate, Player::Human, Player::HARD),
            (80, 24),
        )
    }

    #[test]
    fn every_ultimate_column_can_be_typed_and_h_twice_asks_for_a_hint() {
        for (keys, played) in [
            (vec![Action::Hint, Action::Digit(5)], "h5"),
            (vec![Action::Letter('i'), Action::Digit(1)], "i1"),
        ] {
            let mut app = ultimate_app();
            for key in keys {
                app.update(key);
            }
            let expected =
                Record::parse(crate::rules::position::Variant::Ultimate, &[played]).unwrap();
            assert_eq!(app.game().record(), expected, "{played}");
        }
        let mut app = ultimate_app();
        app.update(Action::Hint);
        assert!(
            app.message().contains("h again: a hint"),
            "{}",
            app.message()
        );
        app.update(Action::Hint);
        assert!(
            matches!(app.mode(), Mode::HintWaiting(_)),
            "{:?}",
            app.mode()
        );
    }

    #[test]
    fn a_letter_after_a_whole_coordinate_waiting_for_a_second_digit_plays_it_first() {
        use crate::rules::position::Variant;
        let session = Session::new(Variant::GOMOKU, Player::Human, Player::Human);
        let mut app = App::new(session, (80, 24));
        for key in [
            Action::Analyse,
            Action::Digit(1),
            Action::Letter('b'),
            Action::Digit(2),
        ] {
            app.update(key);
        }
        let expected = Record::parse(Variant::GOMOKU, &["a1", "b2"]).unwrap();
        assert_eq!(app.game().record(), expected, "{}", app.message());
        app.update(Action::Letter('c'));
        app.update(Action::Digit(1));
        app.update(Action::NewRound);
        assert_eq!(
            app.game().history().len(),
            3,
            "n after c1 plays c1: {}",
            app.message()
        );
    }

    #[test]
    fn on_twenty_by_twenty_a_row_digit_of_two_says_zero_makes_row_twenty() {
        use crate::rules::position::Variant;
        let twenty = Variant::named_on("gomoku", 20, 5).unwrap();
        let session = Session::new(twenty, Player::Human, Player::Human);
        let mut app = App::new(session, (100, 40));
        app.update(Action::Letter('c'));
        app.update(Action::Digit(2));
        assert_eq!(
            app.message(),
            "Typed c2… Enter plays c2, 0 for c20 (Esc cancels)"
        );
        app.update(Action::Letter('c'));
        app.update(Action::Digit(1));
        assert_eq!(
            app.message(),
            "Typed c1… Enter plays c1, a second digit c10-c19 (Esc cancels)"
        );
    }

    #[test]
    fn once_a_gomoku_game_is_over_n_starts_a_new_round_at_once() {
        use crate::rules::position::Variant;
        let session = Session::new(Variant::GOMOKU, Player::Human, Player::Human);
        let mut app = App::new(session, (80, 24));
        app.update(Action::Letter('h'));
        app.update(Action::Digit(8));
        app.update(Action::Resign);
        app.update(Action::Yes);
        assert!(app.game().is_over());
        app.update(Action::NewRound);
        assert_eq!(app.session().round(), 2, "{}", app.message());
        assert!(app.game().history().is_empty());
    }

    #[test]
    fn every_gomoku_point_can_be_typed_with_rows_from_ten_and_columns_l_and_n() {
        use crate::rules::position::Variant;
        let gomoku = || {
            let session = Session::new(Variant::GOMOKU, Player::Human, Player::Human);
            App::new(session, (80, 24))
        };
        let (l, n, d) = (Action::Level, Action::NewRound, Action::Digit);
        for (keys, played) in [
            (vec![Action::Letter('o'), d(1), d(5)], "o15"),
            (vec![Action::Hint, d(1), Action::Activate], "h1"),
            (vec![l, d(1), Action::Zero], "l10"),
            (vec![n, d(9)], "n9"),
            (vec![Action::Analyse, Action::Zero, d(2)], "a2"),
        ] {
            let mut app = gomoku();
            for key in keys {
                app.update(key);
            }
            let expected = Record::parse(Variant::GOMOKU, &[played]).unwrap();
            assert_eq!(app.game().record(), expected, "{played}: {}", app.message());
        }
        let mut app = gomoku();
        app.update(Action::Letter('k'));
        app.update(Action::Digit(1));
        assert!(
            app.message().contains("Enter plays k1"),
            "{}",
            app.message()
        );
        app.update(Action::Digit(7));
        assert!(app.game().history().is_empty(), "k17 is off the board");
        assert!(
            app.message().contains("17 is not on the board"),
            "{}",
            app.message()
        );
        app.update(Action::NewRound);
        assert!(
            app.message().contains("n again: a new round"),
            "{}",
            app.message()
        );
        app.update(Action::Escape);
        app.update(Action::Zero);
        assert!(
            app.message().starts_with("0 names no row or column"),
            "{}",
            app.message()
        );
    }

    #[test]
    fn a_board_chosen_ahead_stays_chosen_only_where_it_may_be_played() {
        let mut app = ultimate_app();
        for d in [5, 5, 9] {
            app.update(Action::Digit(d));
        }
        // O sends X to board 9: one more digit plays there, as it would anyway.
        ultimate_answer(&mut app, "59");
        assert_eq!(
            app.message(),
            "O (level 7 AI) played 59. X to move on board 9 (you)"
        );
        app.update(Action::Digit(1));
        assert_eq!(app.game().history().len(), 3);
        assert_eq!(
            app.game().last_move(),
            Some(Move::Ultimate("91".parse().unwrap()))
        );

        let mut app = ultimate_app();
        for d in [5, 5, 9] {
            app.update(Action::Digit(d));
        }
        // O sends X to board 1: the choice is dropped, and the message says so.
        ultimate_answer(&mut app, "51");
        assert_eq!(app.selected(), None);
        assert_eq!(
            app.message(),
            "O (level 7 AI) played 51. X to move on board 1 (you); board 9 dropped"
        );
        // Sent anywhere, an open board chosen ahead stays chosen: X wins board 1 with 7 8 9,
        // then O's 91 sends X there, to a closed board.
        let moves = ["17", "71", "18", "81", "19"].map(|mv| {
            let mv: ultimate::Move = mv.parse().unwrap();
            Move::Ultimate(mv)
        });
        let opening = Record::new(Variant::Ultimate, moves.to_vec()).unwrap();
        let session = Session::starting_at(&opening, Player::Human, Player::HARD);
        let mut app = App::new(session, (80, 24));
        app.update(Action::Digit(9));
        ultimate_answer(&mut app, "91");
        assert_eq!(app.selected(), Some(9));
        assert!(
            app.message()
                .ends_with("X to move anywhere (you); board 9 chosen"),
            "{}",
            app.message()
        );
    }

    #[test]
    fn sent_to_board_three_typing_three_then_nine_plays_board_three_cell_nine() {
        let mut app = ultimate_app();
        app.update(Action::Digit(5));
        app.update(Action::Digit(5));
        ultimate_answer(&mut app, "53");
        assert_eq!(app.game().position().forced_board(), Some(3));
        app.update(Action::Digit(3));
        assert_eq!(app.game().history().len(), 2, "3 alone waits for its cell");
        assert!(
            app.message().starts_with("Board 3: now the cell"),
            "{}",
            app.message()
        );
        app.update(Action::Digit(9));
        assert_eq!(
            app.game().last_move(),
            Some(Move::Ultimate("39".parse().unwrap()))
        );
    }

    #[test]
    fn sent_to_board_three_typing_three_then_enter_plays_cell_three() {
        let mut app = ultimate_app();
        app.update(Action::Digit(5));
        app.update(Action::Digit(5));
        ultimate_answer(&mut app, "53");
        app.update(Action::Digit(3));
        app.update(Action::Activate);
        assert_eq!(
            app.game().last_move(),
            Some(Move::Ultimate("33".parse().unwrap()))
        );
    }

    #[test]
    fn sent_to_board_three_another_digit_plays_its_cell_at_once() {
        let mut app = ultimate_app();
        app.update(Action::Digit(5));
        app.update(Action::Digit(5));
        ultimate_answer(&mut app, "53");
        app.update(Action::Digit(7));
        assert_eq!(
            app.game().last_move(),
            Some(Move::Ultimate("37".parse().unwrap()))
        );
    }

    #[test]
    fn a_refused_queued_move_drops_the_ones_typed_after_it() {
        let mut app = ultimate_app();
        for d in [5, 5, 1, 5, 5, 9] {
            app.update(Action::Digit(d));
        }
        assert_eq!(
            app.message(),
            "Wait for the AI: 15, 59 will be played in turn"
        );
        ultimate_answer(&mut app, "53");
        assert_eq!(
            app.game().history().len(),
            2,
            "neither queued move is played"
        );
        assert_eq!(
            app.message(),
            "You were sent to board 3, not board 1 (later moves dropped)"
        );
        app.update(Action::Digit(2));
        assert_eq!(
            app.game().last_move(),
            Some(Move::Ultimate("32".parse().unwrap()))
        );
    }

    #[test]
    fn a_queued_move_the_ai_took_is_refused() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Digit(7));
        app.update(Action::Digit(5));
        app.handle(Event::Answer(Reply::Move(cell(&app, 5))));
        assert_eq!(board(&app), "X../.O./...");
        assert_eq!(app.message(), "Cell 5 is taken");
    }

    #[test]
    fn undo_during_the_ai_turn_cancels_its_job() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Digit(5));
        assert!(matches!(app.job(), Some(Job::Move { .. })));
        app.update(Action::Undo);
        assert_eq!(board(&app), ".../.../...");
        assert_eq!(app.job(), None);
        assert!(app.message().starts_with("Took back 1 move"));
    }

    #[test]
    fn undo_against_the_ai_returns_to_the_human_turn() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Digit(5));
        work(&mut app);
        app.update(Action::Undo);
        assert_eq!(board(&app), ".../.../...");
        assert!(app.message().starts_with("Took back 2 moves"));
    }

    #[test]
    fn a_hint_is_worked_out_and_lasts_until_the_next_key() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Hint);
        assert!(matches!(app.mode(), Mode::HintWaiting(_)));
        assert!(matches!(app.job(), Some(Job::Hint { .. })));
        work(&mut app);
        assert_eq!(app.hint().map(<[_]>::len), Some(9));
        app.update(Action::Move(Direction::Up));
        assert!(app.hint().is_none());
        assert_eq!(digit(app.cursor()), Some(8), "the key still acts");
    }

    #[test]
    fn escape_closes_a_hint_without_quitting() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Hint);
        app.update(Action::Escape);
        assert_eq!((app.mode(), app.job()), (&Mode::Playing, None));
        assert!(!app.should_quit());
    }

    #[test]
    fn no_hint_on_the_ai_turn() {
        let mut app = app(Player::HARD, Player::Human);
        app.update(Action::Hint);
        assert_eq!(app.mode(), &Mode::Playing);
        assert_eq!(app.message(), "Hints are for your turn");
    }

    #[test]
    fn rounds_alternate_the_first_player_and_keep_the_score() {
        let mut app = app(Player::Human, Player::Human);
        for d in [7, 1, 8, 2, 9] {
            app.update(Action::Digit(d));
        }
        assert!(app.message().starts_with("X (Player 1) wins."));
        app.update(Action::Activate);
        assert_eq!(app.session().round(), 2);
        assert_eq!(app.session().name_of(Mark::X), "Player 2");
        assert_eq!(
            app.session().score(),
            Score {
                a: 1,
                b: 0,
                draws: 0
            }
        );
    }

    #[test]
    fn undo_after_a_win_is_refused_and_the_point_stays() {
        let mut app = app(Player::Human, Player::Human);
        for d in [7, 1, 8, 2, 9] {
            app.update(Action::Digit(d));
        }
        app.update(Action::Undo);
        assert_eq!(app.message(), FINAL);
        assert_eq!(app.game().history().len(), 5, "no move taken back");
        assert_eq!(app.session().score().a, 1);
    }

    #[test]
    fn space_pauses_a_game_between_two_ais() {
        let mut app = app(Player::HARD, Player::EASY);
        assert!(matches!(app.job(), Some(Job::Move { .. })));
        app.update(Action::Activate);
        assert!(app.paused() && app.job().is_none());
        app.handle(Event::Answer(Reply::Move(cell(&app, 5))));
        assert!(app.game().history().is_empty());
        app.update(Action::Activate);
        assert!(matches!(app.job(), Some(Job::Move { .. })));
    }

    #[test]
    fn a_paused_game_stays_paused_under_the_explorer_and_after_it_closes() {
        let mut app = app(Player::HARD, Player::EASY);
        app.update(Action::Activate);
        assert!(app.paused());
        app.update(Action::Explore);
        assert!(app.explorer().is_some());
        assert!(app.paused(), "the explorer is over a paused game");
        assert!(matches!(app.job(), Some(Job::Explain { .. })));
        app.update(Action::Help);
        assert!(app.paused(), "and the help over the explorer");
        app.update(Action::Help);
        app.update(Action::Explore);
        assert!(app.explorer().is_none());
        assert!(
            app.paused() && app.job().is_none(),
            "no AI move after closing"
        );
        assert_eq!(app.message(), PAUSED);
        app.update(Action::Activate);
        assert!(!app.paused());
        assert!(matches!(app.job(), Some(Job::Move { .. })));
    }

    #[test]
    fn a_running_game_under_the_explorer_is_not_paused_and_resumes_after() {
        let mut app = app(Player::HARD, Player::EASY);
        app.update(Action::Explore);
        assert!(!app.paused());
        assert!(matches!(app.job(), Some(Job::Explain { .. })));
        app.update(Action::Explore);
        assert!(!app.paused());
        assert!(matches!(app.job(), Some(Job::Move { .. })));
    }

    #[test]
    fn help_closes_on_any_key_without_acting() {
        let mut app = app(Player::Human, Player::Human);
        app.update(Action::Help);
        assert!(app.help_open());
        app.update(Action::Digit(5));
        assert!(!app.help_open());
        assert_eq!(board(&app), ".../.../...");
        app.update(Action::Escape);
        assert!(app.should_quit());
    }

    #[test]
    fn the_ai_moves_while_the_help_is_open() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Digit(5));
        app.update(Action::Help);
        assert!(matches!(app.job(), Some(Job::Move { .. })));
        app.handle(Event::Answer(Reply::Move(cell(&app, 1))));
        assert_eq!(board(&app), ".../.X./O..");
        assert!(app.help_open());
    }

    #[test]
    fn unknown_keys_only_change_the_message() {
        let mut app = app(Player::Human, Player::Human);
        app.update(Action::Unknown("'z'".into()));
        assert_eq!(app.message(), "'z' does nothing here: press ? for the keys");
        assert_eq!(board(&app), ".../.../...");
    }

    /// Two humans play 5 9 4 6 1 3: X's 1 throws the draw away (3 was needed), and O wins.
    fn finished_with_a_blunder() -> App {
        let mut app = app(Player::Human, Player::Human);
        for d in [5, 9, 4, 6, 1, 3] {
            app.update(Action::Digit(d));
        }
        app
    }

    /// The judgements of `app`'s game, as the worker would send them.
    fn judgements(app: &App) -> Vec<crate::report::review::Judgement> {
        let mut brain =
            crate::ai::player::Brain::new(None).with_think(std::time::Duration::from_secs(5));
        crate::report::review::review(&app.game().record(), &mut brain, &mut |_, _| {}).unwrap()
    }

    #[test]
    fn w_in_a_finished_game_hands_it_to_be_saved_once_and_says_where_it_went() {
        let mut playing = app(Player::Human, Player::Human);
        playing.update(Action::Digit(5));
        playing.update(Action::Export);
        assert_eq!(
            playing.take_export(),
            None,
            "a game in progress is not saved"
        );
        let mut app = finished_with_a_blunder();
        assert!(app.game().is_over());
        app.update(Action::Export);
        let saved = app.take_export().expect("the game to save");
        assert_eq!(saved.record, app.game().record());
        assert_eq!(
            (saved.x.as_str(), saved.o.as_str()),
            ("Player 1", "Player 2")
        );
        assert_eq!(Some(saved.result), app.driver.session().result());
        assert_eq!(app.take_export(), None, "once");
    }

    #[test]
    fn the_help_in_the_review_lists_the_reviews_own_keys_and_they_do_what_it_says() {
        let mut app = finished_with_a_blunder();
        let all = judgements(&app);
        app.update(Action::Review);
        app.handle(Event::Answer(Reply::Review(all)));
        app.update(Action::Help);
        let text = crate::ui::tui::view::render(&app, None, false).to_text();
        assert!(
            text.contains("← →          the move before, the move after"),
            "{text}"
        );
        assert!(
            text.contains("7 1          the first move, the last"),
            "{text}"
        );
        assert!(text.contains("r Esc        back to the game"), "{text}");
        assert!(!text.contains("play that cell"), "{text}");
        app.update(Action::Escape);
        assert!(app.review().is_some(), "any key closes the help only");
        app.update(Action::Digit(1));
        assert!(
            app.message().starts_with("Move 6 of 6"),
            "{}",
            app.message()
        );
        app.update(Action::Digit(7));
        assert!(
            app.message().starts_with("Move 1 of 6"),
            "{}",
            app.message()
        );
        app.update(Action::Escape);
        assert_eq!(app.review(), None);
    }

    #[test]
    fn a_in_the_review_opens_the_analysis_board_after_the_move_shown() {
        for (key, moves) in [(7, 1), (1, 6)] {
            let mut app = finished_with_a_blunder();
            let all = judgements(&app);
            app.update(Action::Review);
            app.handle(Event::Answer(Reply::Review(all)));
            app.update(Action::Digit(key));
            app.update(Action::Analyse);
            let analysis = app.analysis().expect("the board open");
            let played = analysis.tree().moves_to(analysis.at());
            assert_eq!(played, app.game().history()[..moves], "{}", app.message());
        }
    }

    #[test]
    fn the_review_opens_on_the_first_judged_move_and_steps_as_the_others_arrive() {
        let mut app = finished_with_a_blunder();
        let all = judgements(&app);
        app.update(Action::Review);
        let total = all.len();
        app.handle(Event::Answer(Reply::Progress {
            judged: all[0],
            total,
        }));
        assert_eq!(app.message(), "Move 1 of 6: 1. X 5 best draw → draw");
        assert!(
            matches!(app.job(), Some(Job::Review { .. })),
            "the rest still judged"
        );
        app.update(Action::Move(Direction::Right));
        assert_eq!(app.message(), "Move 2 of 6 is being judged…");
        app.handle(Event::Answer(Reply::Progress {
            judged: all[1],
            total,
        }));
        app.update(Action::Move(Direction::Right));
        assert!(
            app.message().starts_with("Move 2 of 6: 2. O 9"),
            "{}",
            app.message()
        );
        app.update(Action::Move(Direction::Left));
        assert!(
            app.message().starts_with("Move 1 of 6"),
            "{}",
            app.message()
        );
        app.handle(Event::Answer(Reply::Review(all)));
        assert_eq!(app.job(), None);
        assert_eq!(
            app.review().map(|(_, at, _)| at),
            Some(0),
            "still on the move shown"
        );
    }

    #[test]
    fn escape_in_the_review_of_a_game_of_the_history_goes_back_to_the_list() {
        let mut app = finished_with_a_blunder();
        app.open_archived();
        app.update(Action::Escape);
        assert!(app.should_quit(), "while it is judged");
        let mut app = finished_with_a_blunder();
        app.open_archived();
        work(&mut app);
        app.update(Action::Escape);
        assert!(app.should_quit(), "once judged");
    }

    #[test]
    fn the_review_opens_after_the_game_and_steps_through_it() {
        let mut app = app(Player::Human, Player::Human);
        app.update(Action::Review);
        assert_eq!(app.message(), "The review opens once the game is over");
        let mut app = finished_with_a_blunder();
        assert!(app.game().is_over());
        app.update(Action::Review);
        assert_eq!(app.mode(), &Mode::ReviewWaiting { done: 0, total: 6 });
        assert!(matches!(app.job(), Some(Job::Review { .. })));
        work(&mut app);
        assert_eq!(app.job(), None);
        assert_eq!(app.message(), "Move 1 of 6: 1. X 5 best draw → draw");
        assert_eq!(app.shown_position().to_string(), ".../.../...");
        for _ in 0..4 {
            app.update(Action::Move(Direction::Right));
        }
        assert_eq!(
            app.message(),
            "Move 5 of 6: 5. X 1 blunder draw → loss in 2; best 3"
        );
        assert_eq!(app.shown_position().to_string(), "..O/XXO/...");
        app.update(Action::Digit(1));
        assert_eq!(app.review().map(|(_, at, _)| at), Some(5));
        app.update(Action::Digit(6));
        assert_eq!(
            app.review().map(|(_, at, _)| at),
            Some(5),
            "stays on the last"
        );
        app.update(Action::Escape);
        assert_eq!(app.mode(), &Mode::Playing);
        assert!(!app.should_quit());
        assert_eq!(app.shown_position(), *app.game().position());
    }

    #[test]
    fn a_review_in_progress_can_be_cancelled() {
        let mut app = finished_with_a_blunder();
        app.update(Action::Review);
        app.update(Action::Digit(5));
        assert_eq!(app.message(), "Reviewing the game: Esc cancels");
        app.update(Action::Escape);
        assert_eq!((app.mode(), app.job()), (&Mode::Playing, None));
    }

    #[test]
    fn the_last_record_survives_a_new_round() {
        let mut app = finished_with_a_blunder();
        let record = app.last_record().unwrap();
        assert_eq!(record.to_string(), "5 9 4 6 1 3");
        app.update(Action::NewRound);
        assert_eq!(app.last_record(), Some(record));
        app.update(Action::Digit(5));
        assert_eq!(app.last_record().unwrap().to_string(), "5");
    }

    #[test]
    fn a_hint_in_a_paused_game_keeps_it_paused() {
        let mut app = app(Player::HARD, Player::HARD);
        app.update(Action::Activate);
        assert!(app.paused());
        app.update(Action::Hint);
        assert!(app.paused() && matches!(app.job(), Some(Job::Hint { .. })));
        work(&mut app);
        assert!(app.paused() && app.hint().is_some());
        app.update(Action::Escape);
        assert!(
            app.paused() && app.job().is_none(),
            "still paused after the hint"
        );
        app.update(Action::Undo);
        assert!(app.paused(), "nothing to undo keeps the pause");
        app.update(Action::Activate);
        assert!(!app.paused());
    }

    #[test]
    fn the_help_opens_over_a_hint_or_a_review_being_worked_out() {
        let mut app = app(Player::Human, Player::Human);
        app.update(Action::Hint);
        app.update(Action::Help);
        assert!(app.help_open());
        assert!(
            matches!(app.job(), Some(Job::Hint { .. })),
            "the hint goes on"
        );
        work(&mut app);
        app.update(Action::Activate);
        assert!(
            !app.help_open() && app.hint().is_some(),
            "the hint is still shown"
        );
        let mut app = finished_with_a_blunder();
        app.update(Action::Review);
        app.update(Action::Help);
        assert!(
            matches!(app.job(), Some(Job::Review { .. })),
            "the review goes on"
        );
    }

    #[test]
    fn a_review_opens_again_without_judging_again() {
        let mut app = finished_with_a_blunder();
        app.update(Action::Review);
        work(&mut app);
        app.update(Action::Review);
        assert_eq!(app.mode(), &Mode::Playing);
        app.update(Action::Review);
        assert!(app.review().is_some());
        assert_eq!(app.job(), None, "nothing to work out");
    }

    #[test]
    fn keys_that_play_say_so_when_no_one_plays_from_the_keyboard() {
        let mut app = app(Player::HARD, Player::EASY);
        app.update(Action::Digit(5));
        assert!(app.game().history().is_empty());
        assert!(app.message().starts_with("The AIs play each other"));
    }

    #[test]
    fn queued_moves_are_listed_and_limited() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Digit(7));
        app.update(Action::Digit(3));
        app.update(Action::Digit(9));
        assert_eq!(
            app.message(),
            "Wait for the AI: 3, 9 will be played in turn"
        );
        for d in [1, 2, 4, 6, 8, 1, 2] {
            app.update(Action::Digit(d));
        }
        assert_eq!(
            app.message(),
            "Wait for the AI: no more moves can be queued"
        );
    }

    #[test]
    fn x_asks_before_resigning_and_the_resignation_ends_the_game_as_a_loss() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Digit(5));
        work(&mut app);
        app.update(Action::Resign);
        assert_eq!(app.question(), Some("Resign? It counts as a loss. y/n"));
        app.update(Action::Digit(1));
        assert!(!app.game().is_over(), "any other key keeps playing");
        app.update(Action::Resign);
        app.update(Action::Yes);
        assert_eq!(app.game().outcome(), crate::rules::Outcome::Won(Mark::O));
        assert!(
            app.message()
                .starts_with("X (you) resigned. O (level 7 AI) wins."),
            "{}",
            app.message()
        );
        app.update(Action::Resign);
        assert_eq!(
            app.message(),
            "The game is over: there is nothing to resign"
        );
    }

    #[test]
    fn a_review_of_a_game_that_ended_before_its_first_move_says_there_is_nothing_to_review() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Resign);
        app.update(Action::Yes);
        assert!(app.game().is_over());
        app.update(Action::Review);
        assert_eq!(
            app.message(),
            "The game ended before its first move: there is nothing to review"
        );
        assert_eq!(app.mode(), &Mode::Playing, "no review waits for a judge");
        assert_eq!(app.job(), None);
    }

    #[test]
    fn resigning_before_the_first_move_against_the_ai_says_it_counts_as_a_loss() {
        let mut against = app(Player::Human, Player::HARD);
        against.update(Action::Resign);
        assert_eq!(against.question(), Some("Resign? It counts as a loss. y/n"));
        let mut two = app(Player::Human, Player::Human);
        two.update(Action::Resign);
        assert_eq!(two.question(), Some("Resign this game? y/n"));
    }

    #[test]
    fn a_draw_offered_to_the_ai_is_answered_before_its_move() {
        let mut app = app(Player::Human, Player::HARD);
        app.update(Action::Draw);
        assert_eq!(
            app.message(),
            "Draw offered: make your move, and the AI answers it"
        );
        app.update(Action::Digit(5));
        assert!(matches!(app.job(), Some(Job::Draw { .. })));
        work(&mut app);
        // 3×3 is a draw from every first move: the AI takes it.
        assert!(
            app.message()
                .starts_with("level 7 AI accepts the draw. Draw agreed."),
            "{}",
            app.message()
        );
        assert_eq!(app.game().outcome(), crate::rules::Outcome::Draw);
        assert_eq!(app.job(), None);
    }

    #[test]
    fn two_people_at_one_keyboard_agree_a_draw_in_turn_and_a_move_declines_it() {
        let mut app = app(Player::Human, Player::Human);
        app.update(Action::Draw);
        assert!(
            app.message()
                .contains("accepts with =, or declines with a move")
        );
        app.update(Action::Digit(5));
        app.update(Action::Digit(1));
        app.update(Action::Draw);
        assert!(
            !app.game().is_over(),
            "O moved and X's offer lapsed: X offers again"
        );
        app.update(Action::Draw);
        assert_eq!(
            app.message(),
            "Your offer stands: it lapses when the other side moves"
        );
        app.update(Action::Digit(9));
        app.update(Action::Draw);
        assert_eq!(app.game().outcome(), crate::rules::Outcome::Draw);
        assert!(
            app.message().starts_with("Draw agreed."),
            "{}",
            app.message()
        );
    }
}
