//! The terminal game's state: the session, the mode, the cursor and the message line.
//!
//! [`App::update`] applies one of the player's [`Action`]s and [`App::handle`] one event of
//! the loop (a resize, the worker's answer); neither does input, output or search. What the
//! AI worker should be busy with follows from the state alone: [`App::job`].

use std::collections::VecDeque;

use crate::board::Mark;
use crate::game::{Game, Session};
use crate::net::link::LinkEvent;
use crate::player::{self, Player};
use crate::position::{Digit, Move, Position};
use crate::record::Record;
use crate::report::review::{self, Judgement};
use crate::search::Value;
use crate::tui::input::{Action, Direction};
use crate::tui::layout;
use crate::tui::worker::{Job, Reply};

mod net;

/// Human moves typed while the AI is to move wait here, at most this many.
const QUEUE_LIMIT: usize = crate::game::TYPE_AHEAD;

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
    /// The worker is judging the finished game's moves: `done` of `total` so far.
    ReviewWaiting { done: usize, total: usize },
    /// The finished game's moves, judged, with the one at index `at` on screen.
    Review { moves: Vec<Judgement>, at: usize },
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
}

pub struct App {
    session: Session,
    mode: Mode,
    cursor: Move,
    /// In Ultimate, the board chosen by a first digit, waiting for the cell's.
    selected: Option<u8>,
    message: String,
    queued: VecDeque<Move>,
    /// The record of the last game that was left unfinished or finished for a new round.
    previous: Option<Record>,
    /// The last review worked out, for the game it judged: opening it again is instant.
    reviewed: Option<(Record, Vec<Judgement>)>,
    size: (u16, u16),
    quit: bool,
    /// Set in a network game.
    net: Option<net::Net>,
}

impl App {
    /// The terminal game of `session`, on a screen of `size` (columns, rows).
    pub fn new(session: Session, size: (u16, u16)) -> App {
        let cursor = session.game().position().centre();
        let mut app = App {
            session,
            mode: Mode::Playing,
            cursor,
            selected: None,
            message: String::new(),
            queued: VecDeque::new(),
            previous: None,
            reviewed: None,
            size,
            quit: false,
            net: None,
        };
        app.message = app.turn_message();
        app
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn game(&self) -> &Game {
        self.session.game()
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

    /// In Ultimate, the board the player chose with a first digit, if any.
    pub fn selected(&self) -> Option<u8> {
        self.selected
    }

    pub fn message(&self) -> &str {
        &self.message
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

    /// The position on screen: the game's, or in the review the position before the move
    /// shown.
    pub fn shown_position(&self) -> Position {
        match self.review() {
            Some((j, _, _)) => {
                let mut position = self.game().variant().start();
                for &mv in &self.game().history()[..j.number - 1] {
                    position.play(mv).expect("the history replays");
                }
                position
            }
            None => *self.game().position(),
        }
    }

    /// In the review: the move on screen, its index and the number of moves.
    pub fn review(&self) -> Option<(&Judgement, usize, usize)> {
        match self.base_mode() {
            Mode::Review { moves, at } => Some((&moves[*at], *at, moves.len())),
            _ => None,
        }
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

    /// Whether a game between two AIs is paused (under any hint or help shown over it).
    pub fn paused(&self) -> bool {
        let mut mode = &self.mode;
        loop {
            match mode {
                Mode::Help(under) | Mode::HintWaiting(under) | Mode::Hint(_, under) => mode = under,
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

    /// What the AI worker should be doing now: a move on the AI's turn, a hint that was asked
    /// for, or nothing. When this changes, the loop cancels the old job and starts the new.
    pub fn job(&self) -> Option<Job> {
        let position = *self.game().position();
        match self.base_mode() {
            Mode::HintWaiting(_) => Some(Job::Hint { position }),
            Mode::ReviewWaiting { .. } => Some(Job::Review {
                record: self.game().record(),
            }),
            // The base mode is never Help.
            Mode::Paused | Mode::Hint(..) | Mode::Review { .. } | Mode::Help(_) => None,
            Mode::Playing => match self.game().turn() {
                Some((_, player)) if player.is_ai() => Some(Job::Move { position, player }),
                _ => None,
            },
        }
    }

    /// Applies an event of the loop.
    pub fn handle(&mut self, event: Event) {
        match event {
            Event::Resize { columns, rows } => self.size = (columns, rows),
            Event::Answer(reply) => self.done(reply),
            Event::Net(event) => self.link_event(event),
        }
    }

    /// Takes the worker's answer to the current job; an answer to anything else is ignored.
    fn done(&mut self, reply: Reply) {
        match (self.job(), reply) {
            (Some(Job::Move { .. }), Reply::Move(mv)) => self.ai_move(mv),
            (Some(Job::Review { .. }), Reply::Progress { done, total }) => {
                *self.base_mode_mut() = Mode::ReviewWaiting { done, total };
                self.message = format!("Reviewing the game: move {done} of {total} judged…");
            }
            (Some(Job::Review { record }), Reply::Review(moves)) if !moves.is_empty() => {
                self.reviewed = Some((record, moves.clone()));
                *self.base_mode_mut() = Mode::Review { moves, at: 0 };
                self.show_review_move();
            }
            (Some(Job::Hint { .. }), Reply::Hint(values)) => {
                let mark = self.game().position().to_move();
                let mode = self.base_mode_mut();
                if let Mode::HintWaiting(under) = std::mem::replace(mode, Mode::Playing) {
                    *mode = Mode::Hint(values, under);
                }
                self.message = if player::rates(self.game().variant()) {
                    format!(
                        "Hint for {mark}: win rates in %, or W win, D draw, L loss when proven; best in bold"
                    )
                } else {
                    format!(
                        "Hint for {mark}: W win, D draw, L loss, in moves from now; best in bold"
                    )
                };
            }
            _ => {}
        }
    }

    /// Applies one action of the player.
    ///
    /// # Panics
    /// On [`Action::Panic`], which only a test build of the key map produces.
    pub fn update(&mut self, action: Action) {
        // The help opens over whatever is on screen, and what was going on goes on under it.
        if action == Action::Help && !self.help_open() {
            let under = std::mem::replace(&mut self.mode, Mode::Playing);
            self.mode = Mode::Help(Box::new(under));
            return;
        }
        match std::mem::replace(&mut self.mode, Mode::Playing) {
            // Any key closes the help without acting; q still quits.
            Mode::Help(under) => {
                self.mode = *under;
                self.quit = action == Action::Quit;
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
            Mode::Review { moves, at } => {
                self.mode = Mode::Review { moves, at };
                self.review_key(action);
                return;
            }
            other => self.mode = other,
        }
        self.play_key(action);
    }

    /// Keys while the review is worked out: it can be left, nothing else happens.
    fn review_waiting_key(&mut self, action: Action) {
        match action {
            Action::Escape | Action::Review => {
                self.mode = Mode::Playing;
                self.message = format!("Review cancelled. {}", self.turn_message());
            }
            Action::Quit | Action::NewRound | Action::Panic => {
                self.mode = Mode::Playing;
                self.play_key(action);
            }
            _ => self.message = "Reviewing the game: Esc cancels".into(),
        }
    }

    /// Keys in the review: step through the moves, or leave.
    fn review_key(&mut self, action: Action) {
        let Mode::Review { moves, at } = &mut self.mode else {
            return;
        };
        let last = moves.len() - 1;
        let step = match action {
            Action::Move(Direction::Left) | Action::Digit(4) => Some(at.saturating_sub(1)),
            Action::Move(Direction::Right) | Action::Digit(6) | Action::Activate => {
                Some((*at + 1).min(last))
            }
            Action::Digit(7) => Some(0),
            Action::Digit(1) => Some(last),
            _ => None,
        };
        if let Some(to) = step {
            *at = to;
            self.show_review_move();
            return;
        }
        match action {
            Action::Escape | Action::Review => {
                self.mode = Mode::Playing;
                self.message = self.turn_message();
            }
            Action::Quit | Action::NewRound | Action::Panic => {
                self.mode = Mode::Playing;
                self.play_key(action);
            }
            _ => {
                self.message = "In the review: ← → step through the moves, r or Esc leaves".into();
            }
        }
    }

    /// The message line for the move the review shows.
    fn show_review_move(&mut self) {
        if let Some((judgement, at, total)) = self.review() {
            let line = review::text_line(judgement);
            let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
            self.message = format!("Move {} of {total}: {line}", at + 1);
        }
    }

    fn ask_review(&mut self) {
        if !self.game().is_over() {
            self.message = "The review opens once the game is over".into();
            return;
        }
        let record = self.game().record();
        if let Some((_, moves)) = self.reviewed.as_ref().filter(|(r, _)| *r == record) {
            self.mode = Mode::Review {
                moves: moves.clone(),
                at: 0,
            };
            self.show_review_move();
            return;
        }
        let total = record.len();
        self.mode = Mode::ReviewWaiting { done: 0, total };
        self.message = format!("Reviewing the game: move 0 of {total} judged…");
    }

    fn play_key(&mut self, action: Action) {
        // A board chosen in Ultimate waits for its cell; most other keys put it down.
        let selected = self.selected.take();
        match action {
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
            Action::Click { column, row } => {
                if let Some(mv) = layout::move_at(self.game().position(), self.size, column, row) {
                    self.cursor = mv;
                    self.human_move(mv);
                }
            }
            Action::Undo => self.undo(),
            Action::Hint => self.ask_hint(),
            Action::Review => self.ask_review(),
            Action::NewRound => self.start_new_round(),
            // Opened in `update`, over any mode.
            Action::Help => {}
            Action::Escape | Action::Quit => self.quit = true,
            Action::Unknown(key) => {
                self.message = format!("{key} does nothing here: press ? for the keys");
            }
            Action::Panic => panic!("deliberate panic (test key)"),
        }
    }

    /// A digit: a cell of 3×3; in Ultimate the cell when a board is chosen or sent to,
    /// otherwise the board. While the AI or the other player moves, only whole moves are
    /// queued, board then cell: the board the player will be sent to is not known yet.
    fn digit(&mut self, selected: Option<u8>, d: u8) {
        let position = *self.game().position();
        let mover = self.game().turn().map(|(_, p)| p);
        let mover_is_human = mover.is_some_and(Player::is_human);
        let ai_moves = mover.is_some_and(Player::is_ai) && self.session.has_human();
        let meaning = if mover.is_some() && !mover_is_human {
            position.digit_ahead(selected, d)
        } else {
            position.digit(selected, d)
        };
        match meaning {
            Digit::NoDigits => {
                self.message = "Digits name cells on 3×3 only: use the arrows".into();
            }
            Digit::Move(mv) => {
                self.cursor = mv;
                self.human_move(mv);
            }
            // Whose turn it is, or that the game is over, is for `human_move` to say.
            Digit::Board(_) | Digit::ClosedBoard(_) if !mover_is_human && !ai_moves => {
                if mover.is_some() && self.session.has_human() {
                    let mark = position.to_move();
                    self.message =
                        format!("Wait for {mark}'s move: it decides the board you are sent to");
                } else {
                    self.human_move(self.cursor);
                }
            }
            Digit::ClosedBoard(d) => {
                self.message = format!("Board {d} is closed: choose an open board");
            }
            Digit::Board(d) => {
                self.selected = Some(d);
                self.cursor = position.board_cell(d, 5).unwrap_or(self.cursor);
                self.message = if ai_moves {
                    let mark = position.to_move();
                    format!(
                        "Board {d}: now the cell, played after {mark}'s move (Esc chooses again)"
                    )
                } else {
                    format!("Board {d}: now the cell, 1-9 (Esc or Backspace chooses again)")
                };
            }
        }
    }

    fn move_cursor(&mut self, direction: Direction) {
        let position = *self.game().position();
        let n = position.grid_side();
        let step = |at: u8| match direction {
            Direction::Up | Direction::Right => at.saturating_add(1).min(n - 1),
            Direction::Down | Direction::Left => at.saturating_sub(1),
        };
        self.cursor = match position.grid_point(self.cursor) {
            Some((col, row)) => match direction {
                Direction::Up | Direction::Down => position.at_grid_point(col, step(row)),
                Direction::Left | Direction::Right => position.at_grid_point(step(col), row),
            }
            .expect("clamped to the grid"),
            None => position.centre(),
        };
    }

    fn activate(&mut self) {
        if self.game().is_over() {
            self.start_new_round();
        } else if !self.session.has_human() {
            self.mode = if self.mode == Mode::Paused {
                Mode::Playing
            } else {
                Mode::Paused
            };
            self.message = if self.paused() {
                "Paused: Space resumes".into()
            } else {
                self.turn_message()
            };
        } else {
            self.human_move(self.cursor);
        }
    }

    /// A human asks to play `cell`: now if it is a human's turn, after the AI's move if not.
    fn human_move(&mut self, cell: Move) {
        match self.game().turn() {
            None => self.message = "The game is over: n, Enter or Space starts a new round".into(),
            Some(_) if !self.session.has_human() => {
                self.message = "The AIs play each other: Space pauses, n starts a new round".into();
            }
            Some((mark, Player::Remote)) => {
                self.message = format!("It is {mark}'s turn: wait for their move");
            }
            Some(_) if self.waiting_for_player() => {
                let line = self.net.as_ref().and_then(|n| n.join_line.as_deref());
                self.message = format!("No one has joined yet. {}", line.unwrap_or_default());
            }
            Some(_) if self.move_blocked().is_some() => {
                self.message = self.move_blocked().unwrap_or_default();
            }
            Some((_, player)) if !player.is_human() => {
                self.message = if self.queued.len() >= QUEUE_LIMIT {
                    "Wait for the AI: no more moves can be queued".into()
                } else if self.queued.is_empty() {
                    self.queued.push_back(cell);
                    format!("Wait for the AI: {cell} will be played next")
                } else {
                    self.queued.push_back(cell);
                    let cells: Vec<String> = self.queued.iter().map(ToString::to_string).collect();
                    format!(
                        "Wait for the AI: {} will be played in turn",
                        cells.join(", ")
                    )
                };
            }
            Some((mark, _)) => match self.session.game_mut().play(cell) {
                Ok(()) => {
                    if let Some(net) = self.net.as_mut() {
                        net.game.played(&self.session);
                    }
                    self.after_move(mark, cell);
                }
                Err(e) => self.message = sentence(&e.to_string()),
            },
        }
    }

    /// Plays the AI's `cell`, then the moves typed meanwhile, in order.
    fn ai_move(&mut self, cell: Move) {
        let Some((mark, _)) = self.game().turn() else {
            return;
        };
        if self.session.game_mut().play(cell).is_err() {
            return;
        }
        self.after_move(mark, cell);
        let humans_turn = matches!(self.game().turn(), Some((_, p)) if p.is_human());
        if let Some(b) = self.selected.take() {
            // A board chosen ahead in Ultimate: where the player is sent to it, one digit plays
            // there anyway; sent anywhere, it stays chosen if open; otherwise it is dropped.
            let position = self.game().position();
            let (forced, open) = (position.forced_board(), position.board_open(b));
            if humans_turn && forced.is_none() && open {
                self.selected = Some(b);
                self.message = format!("{}; board {b} chosen", self.message);
            } else if humans_turn && forced != Some(b) {
                self.message = format!("{}; board {b} dropped", self.message);
            }
        }
        let Some(next) = self.queued.pop_front() else {
            return;
        };
        if !humans_turn {
            self.queued.clear();
            return;
        }
        self.human_move(next);
        // A refused move drops the ones typed after it: they were meant for later turns.
        if self.game().last_move() != Some(next) && !self.queued.is_empty() {
            self.queued.clear();
            self.message.push_str(" (later moves dropped)");
        }
    }

    fn after_move(&mut self, mark: Mark, cell: Move) {
        // In Ultimate the cursor follows the player to the board they are sent to.
        if let Some(forced) = self.game().position().forced_board()
            && Position::board_of(self.cursor) != Some(forced)
        {
            self.cursor = self.game().position().centre();
        }
        self.message = match self.session.result() {
            None => {
                let who = self.session.name_of(mark);
                format!("{mark} ({who}) played {cell}. {}", self.turn_message())
            }
            Some(result) => format!("{result} {}", self.after_game()),
        };
    }

    fn turn_message(&self) -> String {
        match self.game().turn() {
            Some((mark, player)) if player.is_human() => {
                let name = self.session.name_of(mark);
                let place = self.game().position().whereabouts();
                let place = place.map(|w| format!(" {w}")).unwrap_or_default();
                format!("{mark} to move{place} ({name})")
            }
            Some((mark, Player::Remote)) => {
                format!("Waiting for {mark} ({})…", self.session.name_of(mark))
            }
            Some((mark, _)) => format!("{mark} ({}) is thinking…", self.session.name_of(mark)),
            None => format!(
                "{} {}",
                self.session.result().unwrap_or_default(),
                self.after_game()
            ),
        }
    }

    /// What the message line offers once a game is over.
    fn after_game(&self) -> &'static str {
        if self.net.is_some() {
            "n: ask for a rematch"
        } else {
            AFTER_GAME
        }
    }

    fn undo(&mut self) {
        if self.net.is_some() {
            self.message = crate::net::session::NO_UNDO.into();
            return;
        }
        self.queued.clear();
        match self.session.game_mut().undo() {
            0 => self.message = "Nothing to undo".into(),
            n => {
                let s = if n == 1 { "" } else { "s" };
                self.message = format!("Took back {n} move{s}. {}", self.turn_message());
            }
        }
    }

    fn ask_hint(&mut self) {
        match self.game().turn() {
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
        self.session.new_round();
        self.queued.clear();
        self.mode = Mode::Playing;
        self.cursor = self.game().position().centre();
        self.selected = None;
        let game = self.game();
        let first = if game.player(Mark::X).is_human() && !game.player(Mark::O).is_human() {
            "you move first".to_string()
        } else {
            format!("{} moves first", self.session.name_of(Mark::X))
        };
        self.message = format!(
            "Round {}: {first}. {}",
            self.session.round(),
            self.turn_message()
        );
    }
}

/// What the message line offers once a game is over.
const AFTER_GAME: &str = "n, Enter or Space: new round";

/// `text` with its first letter in upper case, to start a sentence.
fn sentence(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Rules};
    use crate::game::Score;
    use crate::position::Variant;
    use crate::search::Searcher;
    use crate::ultimate;

    fn app(a: Player, b: Player) -> App {
        App::new(Session::new(Rules::CLASSIC, a, b), (80, 24))
    }

    fn board(app: &App) -> String {
        app.game().position().to_string()
    }

    fn cell(_app: &App, digit: u8) -> Move {
        Move::Classic(Board::default().numpad(digit).unwrap())
    }

    fn digit(mv: Move) -> Option<u8> {
        match mv {
            Move::Classic(c) => c.numpad(),
            Move::Ultimate(_) => None,
        }
    }

    /// Does what the worker would: answers the current job with a full search.
    fn work(app: &mut App) {
        let classic = |p: Position| *p.classic().expect("a classic game");
        let reply = match app.job().expect("a job") {
            Job::Move { position, .. } => {
                let best = Searcher::new().best_move(&classic(position)).unwrap().0;
                Reply::Move(Move::Classic(best))
            }
            Job::Hint { position } => Reply::Hint(
                Searcher::new()
                    .analyze(&classic(position))
                    .into_iter()
                    .map(|(c, v)| (Move::Classic(c), v))
                    .collect(),
            ),
            Job::Review { record } => {
                let mut brain =
                    crate::player::Brain::new(None).with_think(std::time::Duration::from_secs(5));
                let moves = review::review(&record, &mut brain, &mut |_, _| {});
                Reply::Review(moves.unwrap())
            }
        };
        app.handle(Event::Answer(reply));
    }

    #[test]
    fn a_digit_plays_and_the_ai_is_asked_to_answer() {
        let mut app = app(Player::Human, Player::Hard);
        assert_eq!(app.job(), None);
        app.update(Action::Digit(5));
        assert_eq!(board(&app), ".../.X./...");
        let board_now = *app.game().position();
        assert_eq!(
            app.job(),
            Some(Job::Move {
                position: board_now,
                player: Player::Hard
            })
        );
        assert!(app.message().ends_with("O (hard AI) is thinking…"));
        app.handle(Event::Answer(Reply::Move(cell(&app, 1))));
        assert_eq!(board(&app), ".../.X./O..");
        assert_eq!(app.job(), None);
    }

    #[test]
    fn an_answer_to_an_old_job_is_ignored() {
        let mut app = app(Player::Human, Player::Hard);
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
        let mut app = app(Player::Human, Player::Hard);
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
            Session::new(Variant::Ultimate, Player::Human, Player::Hard),
            (80, 24),
        )
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
            "O (hard AI) played 59. X to move on board 9 (you)"
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
            "O (hard AI) played 51. X to move on board 1 (you); board 9 dropped"
        );
        // Sent anywhere, an open board chosen ahead stays chosen: X wins board 1 with 7 8 9,
        // then O's 91 sends X there, to a closed board.
        let mut app = ultimate_app();
        for mv in ["17", "71", "18", "81", "19"] {
            let mv: ultimate::Move = mv.parse().unwrap();
            app.session.game_mut().play(Move::Ultimate(mv)).unwrap();
        }
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
        let mut app = app(Player::Human, Player::Hard);
        app.update(Action::Digit(7));
        app.update(Action::Digit(5));
        app.handle(Event::Answer(Reply::Move(cell(&app, 5))));
        assert_eq!(board(&app), "X../.O./...");
        assert_eq!(app.message(), "Cell 5 is taken");
    }

    #[test]
    fn undo_during_the_ai_turn_cancels_its_job() {
        let mut app = app(Player::Human, Player::Hard);
        app.update(Action::Digit(5));
        assert!(matches!(app.job(), Some(Job::Move { .. })));
        app.update(Action::Undo);
        assert_eq!(board(&app), ".../.../...");
        assert_eq!(app.job(), None);
        assert!(app.message().starts_with("Took back 1 move"));
    }

    #[test]
    fn undo_against_the_ai_returns_to_the_human_turn() {
        let mut app = app(Player::Human, Player::Hard);
        app.update(Action::Digit(5));
        work(&mut app);
        app.update(Action::Undo);
        assert_eq!(board(&app), ".../.../...");
        assert!(app.message().starts_with("Took back 2 moves"));
    }

    #[test]
    fn a_hint_is_worked_out_and_lasts_until_the_next_key() {
        let mut app = app(Player::Human, Player::Hard);
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
        let mut app = app(Player::Human, Player::Hard);
        app.update(Action::Hint);
        app.update(Action::Escape);
        assert_eq!((app.mode(), app.job()), (&Mode::Playing, None));
        assert!(!app.should_quit());
    }

    #[test]
    fn no_hint_on_the_ai_turn() {
        let mut app = app(Player::Hard, Player::Human);
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
    fn undo_after_a_win_takes_the_point_back() {
        let mut app = app(Player::Human, Player::Human);
        for d in [7, 1, 8, 2, 9] {
            app.update(Action::Digit(d));
        }
        app.update(Action::Undo);
        assert_eq!(app.session().score(), Score::default());
    }

    #[test]
    fn space_pauses_a_game_between_two_ais() {
        let mut app = app(Player::Hard, Player::Easy);
        assert!(matches!(app.job(), Some(Job::Move { .. })));
        app.update(Action::Activate);
        assert!(app.paused() && app.job().is_none());
        app.handle(Event::Answer(Reply::Move(cell(&app, 5))));
        assert!(app.game().history().is_empty());
        app.update(Action::Activate);
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
        let mut app = app(Player::Human, Player::Hard);
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
        app.handle(Event::Answer(Reply::Progress { done: 4, total: 6 }));
        assert_eq!(app.message(), "Reviewing the game: move 4 of 6 judged…");
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
        let mut app = app(Player::Hard, Player::Hard);
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
        let mut app = app(Player::Hard, Player::Easy);
        app.update(Action::Digit(5));
        assert!(app.game().history().is_empty());
        assert!(app.message().starts_with("The AIs play each other"));
    }

    #[test]
    fn queued_moves_are_listed_and_limited() {
        let mut app = app(Player::Human, Player::Hard);
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
}
