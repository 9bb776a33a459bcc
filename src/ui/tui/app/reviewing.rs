//! The review screen's keys: waiting for the judgement, stepping through the judged moves, and
//! the position shown for each.

use crate::ai::player::Player;
use crate::game::Session;
use crate::game::record::Record;
use crate::report::review::{self, Judgement};
use crate::rules::position::Position;
use crate::ui::tui::input::{Action, Direction};
use crate::ui::tui::keymap::{self, Binding};

use super::{App, Mode};

/// How many of the last moves `v` numbers first.
pub const LAST_NUMBERED: usize = 10;

/// Which stones show their move's number.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Numbers {
    #[default]
    Off,
    /// The last [`LAST_NUMBERED`].
    Last,
    All,
}

/// What a key asks of the review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Review {
    Back,
    Forward,
    First,
    Last,
    Explore,
    /// The analysis board on the position before the move shown.
    Analyse,
    /// Move numbers on the stones: the last ten, all, none.
    Numbers,
    Leave,
    /// A game of the history: play on after the move shown.
    PlayOn,
    /// Save the game to a file.
    Export,
    Help,
    /// Quit (asking first in the middle of a game), or a new round: as the game screen does.
    Game,
}

type Keys = Binding<Review>;

/// The keys of the review of any game.
const STEPS: [Keys; 8] = [
    Binding::command(
        "← →",
        &["the move before, the move after"],
        &[Action::Move(Direction::Left), Action::Digit(4)],
        Review::Back,
    )
    .short("← →", "step"),
    Binding::hidden(
        &[
            Action::Move(Direction::Right),
            Action::Digit(6),
            Action::Activate,
        ],
        Review::Forward,
    ),
    Binding::command(
        "7 1",
        &["the first move, the last"],
        &[Action::Digit(7)],
        Review::First,
    ),
    Binding::hidden(&[Action::Digit(1)], Review::Last),
    Binding::command(
        "t",
        &["explore the AI's search before the move"],
        &[Action::Explore],
        Review::Explore,
    )
    .short("t a", "explore, analyse"),
    Binding::command(
        "a",
        &["the analysis board on the position shown"],
        &[Action::Analyse],
        Review::Analyse,
    ),
    Binding::command(
        "v",
        &["move numbers on the stones: last 10, all, none"],
        &[Action::Numbers],
        Review::Numbers,
    ),
    Binding::command("?", &["this help"], &[Action::Help], Review::Help),
];

/// Quitting, as the game screen does (asking first in the middle of a game).
const QUIT: Keys = Binding::command(
    "q Ctrl-C",
    &["quit (mid-game q asks first)"],
    &[
        Action::Quit,
        Action::Interrupt,
        Action::NewRound,
        Action::Panic,
    ],
    Review::Game,
)
.short("q", "quit");

/// Saving the game reviewed to a file.
const SAVE: Keys = Binding::command(
    "w",
    &["save the game to a file (.psq for Gomoku)"],
    &[Action::Export],
    Review::Export,
)
.short("w", "save it");

/// Leaving the review of the game just played.
pub const REVIEW: [Keys; 3] = [
    SAVE,
    Binding::command(
        "r Esc",
        &["back to the game"],
        &[Action::Review, Action::Escape],
        Review::Leave,
    )
    .short("r Esc", "leave"),
    QUIT,
];

/// The review of a game of the history: playing on from it, its record, back to the list.
pub const ARCHIVED: [Keys; 4] = [
    Binding::command(
        "p",
        &["play on after the move shown"],
        &[Action::PlayOn],
        Review::PlayOn,
    )
    .short("p", "play on"),
    SAVE,
    Binding::command(
        "r Esc",
        &["back to your games"],
        &[Action::Review, Action::Escape],
        Review::Leave,
    )
    .short("r Esc", "your games"),
    QUIT,
];

/// The keys of a review: of the game just played, or of one of the history (`archived`).
pub fn review_keys(archived: bool) -> impl Iterator<Item = &'static Keys> {
    let leaving: &'static [Keys] = if archived { &ARCHIVED } else { &REVIEW };
    STEPS.iter().chain(leaving)
}

impl App {
    /// The position on screen: the game's, or in the review the position before the move
    /// shown.
    pub fn shown_position(&self) -> Position {
        if let Some(analysis) = self.analysis() {
            return *analysis.position();
        }
        let shown = match self.review() {
            Some((j, _, _)) => j.number - 1,
            None => match self.looking_back() {
                Some((n, _)) => n,
                None => return *self.game().position(),
            },
        };
        let mut position = self.game().variant().start();
        for &mv in &self.game().history()[..shown] {
            position.play(mv).expect("the history replays");
        }
        position
    }

    /// The moves that led to the position on screen.
    pub fn shown_moves(&self) -> Vec<crate::rules::position::Move> {
        if let Some(analysis) = self.analysis() {
            return analysis.tree().moves_to(analysis.at());
        }
        let history = self.game().history();
        let shown = match self.review() {
            Some((j, _, _)) => j.number - 1,
            None => self.looking_back().map_or(history.len(), |(n, _)| n),
        };
        history[..shown.min(history.len())].to_vec()
    }

    /// The stones to number on the board, each with its move's number ([`Numbers`]).
    pub fn numbered(&self) -> Vec<(crate::rules::position::Move, usize)> {
        let moves = self.shown_moves();
        let from = match self.numbers {
            Numbers::Off => return Vec::new(),
            Numbers::Last => moves.len().saturating_sub(LAST_NUMBERED),
            Numbers::All => 0,
        };
        let numbered = moves.into_iter().enumerate().skip(from);
        numbered.map(|(i, mv)| (mv, i + 1)).collect()
    }

    /// `v`: move numbers on the stones, the last ten, all, or none, in turn.
    pub(super) fn next_numbers(&mut self) {
        self.numbers = match self.numbers {
            Numbers::Off => Numbers::Last,
            Numbers::Last => Numbers::All,
            Numbers::All => Numbers::Off,
        };
        self.message = match self.numbers {
            Numbers::Off => "Move numbers off".into(),
            Numbers::Last => format!("The last {LAST_NUMBERED} moves numbered (v: all)"),
            Numbers::All => "Every move numbered, to its last two digits (v: none)".into(),
        };
    }

    /// In the review: the move on screen, its index and the number of moves.
    pub fn review(&self) -> Option<(&Judgement, usize, usize)> {
        match self.base_mode() {
            Mode::Review { moves, at, total } => Some((&moves[*at], *at, *total)),
            _ => None,
        }
    }

    /// Keys while the review is worked out: it can be left, nothing else happens.
    pub(super) fn review_waiting_key(&mut self, action: Action) {
        match action {
            Action::Escape | Action::Review if self.archived => self.quit = true,
            Action::Escape | Action::Review => {
                self.mode = Mode::Playing;
                self.message = format!("Review cancelled. {}", self.turn_message());
            }
            Action::Quit | Action::Interrupt | Action::NewRound | Action::Panic => {
                self.mode = Mode::Playing;
                self.play_key(action);
            }
            _ => self.message = "Reviewing the game: Esc cancels".into(),
        }
    }

    /// Keys in the review ([`REVIEW`], [`ARCHIVED`]): step through the moves, or leave.
    pub(super) fn review_key(&mut self, action: Action) {
        let Some(command) = keymap::command(review_keys(self.archived), &action) else {
            self.message = if self.archived {
                "← → step, p plays on after this move, w saves the game, t explores, q leaves"
            } else {
                "In the review: ← → step through the moves, w saves the game, t explores, r or Esc leaves"
            }
            .into();
            return;
        };
        let Mode::Review { moves, at, total } = &mut self.mode else {
            return;
        };
        let last = moves.len() - 1;
        let step = match command {
            // Past the moves judged so far: the next is on its way.
            Review::Forward | Review::Last if *at == last && moves.len() < *total => {
                self.message = format!("Move {} of {} is being judged…", last + 2, *total);
                return;
            }
            Review::Back => Some(at.saturating_sub(1)),
            Review::Forward => Some((*at + 1).min(last)),
            Review::First => Some(0),
            Review::Last => Some(last),
            _ => None,
        };
        if let Some(to) = step {
            *at = to;
            self.show_review_move();
            return;
        }
        match command {
            // A game of the history: back to the list.
            Review::Leave if self.archived => self.quit = true,
            Review::Leave => {
                self.mode = Mode::Playing;
                self.message = self.turn_message();
            }
            Review::Explore => self.open_explorer(),
            Review::Analyse => self.analyse_here(),
            Review::Numbers => self.next_numbers(),
            Review::PlayOn => {
                let shown = self.review().map_or(0, |(j, _, _)| j.number);
                self.play_on(shown);
            }
            Review::Export => self.save(),
            _ => {
                self.mode = Mode::Playing;
                self.play_key(action);
            }
        }
    }

    /// A move of the review judged by the worker: the review opens on the first, and the
    /// others join it as they come.
    pub(super) fn judged(&mut self, judged: Judgement, total: usize) {
        match self.base_mode_mut() {
            // A review started again (after the explorer) skips the moves it has.
            Mode::Review { moves, .. } if moves.len() < judged.number => moves.push(judged),
            mode @ Mode::ReviewWaiting { .. } => {
                *mode = Mode::Review {
                    moves: vec![judged],
                    at: 0,
                    total,
                };
                self.show_review_move();
            }
            _ => {}
        }
    }

    /// The message line for the move the review shows.
    pub(super) fn show_review_move(&mut self) {
        if let Some((judgement, at, total)) = self.review() {
            let line = review::text_line(judgement);
            let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
            let mv = judgement.mv;
            self.message = format!("Move {} of {total}: {line}", at + 1);
            self.follow(mv);
        }
    }

    /// Opens the session's game, one of the history, in the review: it may be unfinished
    /// (left), and `p` plays on after the move shown.
    pub fn open_archived(&mut self) {
        self.archived = true;
        self.ask_review();
    }

    /// `p` in the review of a game of the history: a new game at the position shown (its
    /// first `upto` moves, the move on screen the last of them), between the same players (a
    /// remote player's side played here). Set up at a position, it counts for nobody. Where
    /// the move shown ended the game, there is nothing to play on from, and the message says
    /// so.
    fn play_on(&mut self, upto: usize) {
        let moves = self.game().history()[..upto].to_vec();
        let record = Record::new(self.game().variant(), moves).expect("a prefix replays");
        if record.end().is_over() {
            self.message =
                format!("Move {upto} ended the game: step back (←) to play on from before it");
            return;
        }
        let local = |p: Player| {
            if p == Player::Remote {
                Player::Human
            } else {
                p
            }
        };
        let (first, second) = self.game().seats();
        let (x, o) = (local(first), local(second));
        self.driver.restart(Session::starting_at(&record, x, o));
        self.looking = None;
        self.archived = false;
        self.mode = Mode::Playing;
        self.cursor = self.game().position().centre();
        self.message = format!("Playing on after move {upto}. {}", self.turn_message());
    }

    pub(super) fn ask_review(&mut self) {
        if self.game().history().is_empty() && (self.archived || self.game().is_over()) {
            self.message =
                "The game ended before its first move: there is nothing to review".into();
            return;
        }
        if self.archived && !self.game().history().is_empty() {
            // A game of the history: reviewed as it stands, finished or not.
        } else if !self.game().is_over() {
            self.message = "The review opens once the game is over".into();
            return;
        }
        let record = self.game().record();
        if let Some((_, moves)) = self.reviewed.as_ref().filter(|(r, _)| *r == record) {
            self.mode = Mode::Review {
                moves: moves.clone(),
                at: 0,
                total: moves.len(),
            };
            self.show_review_move();
            return;
        }
        let total = record.len();
        self.mode = Mode::ReviewWaiting { done: 0, total };
        self.message = format!("Reviewing the game: move 0 of {total} judged…");
    }
}
