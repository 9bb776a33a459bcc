//! The terminal game's state: rounds and score, the game, the cursor, the message line and
//! the overlays. [`App::update`] applies one [`Action`] and does no input or output.

use std::collections::VecDeque;

use crate::board::{Board, Cell, Mark, MoveError, Outcome, Rules};
use crate::game::Game;
use crate::input::{Action, Direction};
use crate::player::{Brain, Player};
use crate::search::Value;
use crate::view::Layout;

/// One of the two players of a session. Side A is the one given with `-x`: it plays X in
/// the first round, and the sides swap marks every round, so the first move alternates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    A,
    B,
}

/// Results over the rounds of a session, kept per player, not per mark.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub a: u32,
    pub b: u32,
    pub draws: u32,
}

/// Human moves typed while the AI is to move wait here, at most this many.
const QUEUE_LIMIT: usize = 8;

pub struct App {
    players: [Player; 2],
    names: [String; 2],
    round: u32,
    game: Game,
    brain: Brain,
    cursor: Cell,
    message: String,
    hint: Option<Vec<(Cell, Value)>>,
    help: bool,
    paused: bool,
    /// Results of the rounds before this one.
    past: Score,
    queued: VecDeque<Cell>,
    size: (u16, u16),
    quit: bool,
}

impl App {
    /// A session where side A (`a`, X in the first round) meets side B (`b`); `brain` makes
    /// the AI's moves and the hints.
    pub fn new(rules: Rules, a: Player, b: Player, brain: Brain, size: (u16, u16)) -> App {
        let names = names(a, b);
        let game = Game::new(rules, a, b);
        let cursor = centre(game.board());
        let mut app = App {
            players: [a, b],
            names,
            round: 1,
            game,
            brain,
            cursor,
            message: String::new(),
            hint: None,
            help: false,
            paused: false,
            past: Score::default(),
            queued: VecDeque::new(),
            size,
            quit: false,
        };
        app.message = app.turn_message();
        app
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn cursor(&self) -> Cell {
        self.cursor
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// Every empty cell's value while a hint is shown.
    pub fn hint(&self) -> Option<&[(Cell, Value)]> {
        self.hint.as_deref()
    }

    pub fn help_open(&self) -> bool {
        self.help
    }

    pub fn paused(&self) -> bool {
        self.paused
    }

    pub fn round(&self) -> u32 {
        self.round
    }

    pub fn size(&self) -> (u16, u16) {
        self.size
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// The side playing `mark` this round.
    pub fn side_of(&self, mark: Mark) -> Side {
        match (mark, self.round % 2 == 1) {
            (Mark::X, true) | (Mark::O, false) => Side::A,
            _ => Side::B,
        }
    }

    /// How a side is called on screen: "you", "hard AI", "Player 1".
    pub fn name(&self, side: Side) -> &str {
        match side {
            Side::A => &self.names[0],
            Side::B => &self.names[1],
        }
    }

    /// The name of whoever plays `mark` this round.
    pub fn name_of(&self, mark: Mark) -> &str {
        self.name(self.side_of(mark))
    }

    /// The score including the current round once it has ended.
    pub fn score(&self) -> Score {
        let mut score = self.past;
        match self.game.outcome() {
            Outcome::Won { winner, .. } => match self.side_of(winner) {
                Side::A => score.a += 1,
                Side::B => score.b += 1,
            },
            Outcome::Draw => score.draws += 1,
            Outcome::InProgress => {}
        }
        score
    }

    /// Whether the AI is to move now (not paused, game not over).
    pub fn ai_to_move(&self) -> bool {
        !self.paused && self.game.turn().is_some_and(|(_, p)| !p.is_human())
    }

    fn has_human(&self) -> bool {
        self.players.iter().any(|p| p.is_human())
    }

    /// Applies one action.
    ///
    /// # Panics
    /// On [`Action::Panic`], which only a test build of the key map produces.
    pub fn update(&mut self, action: Action) {
        match action {
            Action::Resize { columns, rows } => {
                self.size = (columns, rows);
                return;
            }
            Action::AiMove => {
                self.ai_move();
                return;
            }
            _ => {}
        }
        // A key or click: a hint lasts until the next one, the help until any key.
        self.hint = None;
        if self.help {
            self.help = false;
            if action == Action::Quit {
                self.quit = true;
            }
            return;
        }
        match action {
            Action::Digit(d) => match self.game.board().numpad(d) {
                Some(cell) => {
                    self.cursor = cell;
                    self.human_move(cell);
                }
                None => self.message = "Digits name cells on 3×3 only: use the arrows".into(),
            },
            Action::Move(direction) => self.move_cursor(direction),
            Action::Activate => self.activate(),
            Action::Click { column, row } => {
                let layout = Layout::new(self.size, self.game.board().size());
                if let Some(cell) = layout.cell_at(self.game.board(), column, row) {
                    self.cursor = cell;
                    self.human_move(cell);
                }
            }
            Action::Undo => self.undo(),
            Action::Hint => self.show_hint(),
            Action::NewRound => self.new_round(),
            Action::Help => self.help = true,
            Action::Escape | Action::Quit => self.quit = true,
            Action::Unknown(key) => {
                self.message = format!("{key} does nothing here: press ? for the keys");
            }
            Action::Panic => panic!("deliberate panic (test key)"),
            Action::Resize { .. } | Action::AiMove => unreachable!("handled above"),
        }
    }

    fn move_cursor(&mut self, direction: Direction) {
        let board = self.game.board();
        let n = board.size();
        let (row, col) = (self.cursor.row(), self.cursor.col());
        let (row, col) = match direction {
            Direction::Up => (row.saturating_add(1).min(n - 1), col),
            Direction::Down => (row.saturating_sub(1), col),
            Direction::Left => (row, col.saturating_sub(1)),
            Direction::Right => (row, col.saturating_add(1).min(n - 1)),
        };
        self.cursor = board.cell_at(row, col).expect("clamped to the board");
    }

    fn activate(&mut self) {
        if self.game.is_over() {
            self.new_round();
        } else if !self.has_human() {
            self.paused = !self.paused;
            self.message = if self.paused {
                "Paused: Space resumes".into()
            } else {
                self.turn_message()
            };
        } else {
            self.human_move(self.cursor);
        }
    }

    /// A human asks to play `cell`: now if it is a human's turn, after the AI's move if not.
    fn human_move(&mut self, cell: Cell) {
        match self.game.turn() {
            None => self.message = "The game is over: n, Enter or Space starts a new round".into(),
            Some((_, player)) if !player.is_human() => {
                if self.queued.len() < QUEUE_LIMIT {
                    self.queued.push_back(cell);
                }
                self.message = format!("Wait for the AI: {cell} will be played next");
            }
            Some((mark, _)) => match self.game.play(cell) {
                Ok(()) => self.after_move(mark, cell),
                Err(MoveError::Occupied(c)) => self.message = format!("Cell {c} is taken"),
                Err(MoveError::GameOver) => unreachable!("turn() is None once the game is over"),
            },
        }
    }

    fn ai_move(&mut self) {
        if !self.ai_to_move() {
            return;
        }
        let (mark, player) = self.game.turn().expect("ai_to_move implies a turn");
        let cell = self
            .brain
            .choose(player, self.game.board())
            .expect("the game is not over");
        self.game.play(cell).expect("the AI plays legal moves");
        self.after_move(mark, cell);
        // Moves typed during the AI's turn are played now, in order.
        while let Some(next) = self.queued.pop_front() {
            if !matches!(self.game.turn(), Some((_, p)) if p.is_human()) {
                self.queued.clear();
                break;
            }
            self.human_move(next);
            if self.game.last_move() == Some(next) {
                break;
            }
        }
    }

    fn after_move(&mut self, mark: Mark, cell: Cell) {
        let who = self.name_of(mark);
        self.message = match self.game.outcome() {
            Outcome::InProgress => {
                format!("{mark} ({who}) played {cell}. {}", self.turn_message())
            }
            outcome => self.result_message(outcome),
        };
    }

    fn result_message(&self, outcome: Outcome) -> String {
        let result = match outcome {
            Outcome::Won { winner, .. } => match self.name_of(winner) {
                "you" => "You win!".to_string(),
                name => format!("{winner} ({name}) wins."),
            },
            _ => "Draw.".to_string(),
        };
        format!("{result} n, Enter or Space: new round")
    }

    fn turn_message(&self) -> String {
        match self.game.turn() {
            Some((mark, player)) if player.is_human() => {
                format!("{mark} to move ({})", self.name_of(mark))
            }
            Some((mark, _)) => format!("{mark} ({}) is thinking…", self.name_of(mark)),
            None => self.result_message(self.game.outcome()),
        }
    }

    fn undo(&mut self) {
        self.queued.clear();
        match self.game.undo() {
            0 => self.message = "Nothing to undo".into(),
            n => {
                let s = if n == 1 { "" } else { "s" };
                self.message = format!("Took back {n} move{s}. {}", self.turn_message());
            }
        }
    }

    fn show_hint(&mut self) {
        if self.game.is_over() {
            self.message = "The game is over: no hint".into();
            return;
        }
        let analysis = self.brain.hint(self.game.board());
        let mark = self.game.board().to_move();
        self.hint = Some(analysis);
        self.message =
            format!("Hint for {mark}: W win, D draw, L loss, in moves from now; best in bold");
    }

    fn new_round(&mut self) {
        self.past = self.score();
        self.round += 1;
        self.queued.clear();
        self.paused = false;
        let (x, o) = if self.round % 2 == 1 {
            (self.players[0], self.players[1])
        } else {
            (self.players[1], self.players[0])
        };
        self.game = Game::new(self.game.rules(), x, o);
        self.cursor = centre(self.game.board());
        let first = self.name_of(Mark::X);
        self.message = format!(
            "Round {}: {first} moves first. {}",
            self.round,
            self.turn_message()
        );
    }
}

fn centre(board: &Board) -> Cell {
    let mid = board.size() / 2;
    board.cell_at(mid, mid).expect("the centre is on the board")
}

/// Names for the two sides: "you" against an AI, "Player 1"/"Player 2" for two humans,
/// "hard AI" for an AI (numbered when both sides would read the same).
fn names(a: Player, b: Player) -> [String; 2] {
    let humans = usize::from(a.is_human()) + usize::from(b.is_human());
    let name = |p: Player, n: u8| match (p, humans) {
        (Player::Human, 1) => "you".to_string(),
        (Player::Human, _) => format!("Player {n}"),
        (ai, _) => format!("{ai} AI"),
    };
    let (first, second) = (name(a, 1), name(b, 2));
    if first == second {
        [format!("{first} 1"), format!("{second} 2")]
    } else {
        [first, second]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn app(a: Player, b: Player) -> App {
        App::new(Rules::CLASSIC, a, b, Brain::new(Some(1)), (80, 24))
    }

    fn board(app: &App) -> String {
        app.game().board().to_string()
    }

    #[test]
    fn a_digit_plays_and_the_ai_answers_on_its_turn() {
        let mut app = app(Player::Human, Player::Hard);
        app.update(Action::Digit(5));
        assert_eq!(board(&app), ".../.X./...");
        assert!(app.ai_to_move());
        app.update(Action::AiMove);
        assert_eq!(app.game().history().len(), 2);
        assert!(!app.ai_to_move());
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
        assert_eq!(app.cursor().numpad(), Some(5));
        for _ in 0..5 {
            app.update(Action::Move(Direction::Up));
        }
        app.update(Action::Move(Direction::Left));
        assert_eq!(app.cursor().numpad(), Some(7));
        app.update(Action::Activate);
        assert_eq!(board(&app), "X../.../...");
    }

    #[test]
    fn moves_typed_during_the_ai_turn_wait_for_the_human() {
        let mut app = app(Player::Human, Player::Hard);
        app.update(Action::Digit(5));
        app.update(Action::Digit(1));
        assert_eq!(app.game().history().len(), 1, "not played for O");
        app.update(Action::AiMove);
        let history = app.game().history();
        if history[1].numpad() == Some(1) {
            assert_eq!(
                history.len(),
                2,
                "the AI took 1, so the queued move is refused"
            );
        } else {
            assert_eq!(history.len(), 3);
            assert_eq!(history[2].numpad(), Some(1));
            assert_eq!(app.game().board().mark_at(history[2]), Some(Mark::X));
        }
    }

    #[test]
    fn undo_against_the_ai_returns_to_the_human_turn() {
        let mut app = app(Player::Human, Player::Hard);
        app.update(Action::Digit(5));
        app.update(Action::AiMove);
        app.update(Action::Undo);
        assert_eq!(board(&app), ".../.../...");
        assert!(app.message().starts_with("Took back 2 moves"));
    }

    #[test]
    fn hint_lasts_until_the_next_key() {
        let mut app = app(Player::Human, Player::Hard);
        app.update(Action::Hint);
        assert_eq!(app.hint().map(<[_]>::len), Some(9));
        app.update(Action::Move(Direction::Up));
        assert!(app.hint().is_none());
    }

    #[test]
    fn rounds_alternate_the_first_player_and_score_per_player() {
        let mut app = app(Player::Human, Player::Human);
        for d in [7, 1, 8, 2, 9] {
            app.update(Action::Digit(d));
        }
        assert_eq!(
            app.score(),
            Score {
                a: 1,
                b: 0,
                draws: 0
            }
        );
        assert_eq!(app.name_of(Mark::X), "Player 1");
        app.update(Action::Activate);
        assert_eq!(app.round(), 2);
        assert_eq!(app.name_of(Mark::X), "Player 2");
        // Player 2 (now X) wins round 2: the score follows the player, not the mark.
        for d in [7, 1, 8, 2, 9] {
            app.update(Action::Digit(d));
        }
        assert_eq!(
            app.score(),
            Score {
                a: 1,
                b: 1,
                draws: 0
            }
        );
        app.update(Action::NewRound);
        assert_eq!(app.name_of(Mark::X), "Player 1");
        assert_eq!(
            app.score(),
            Score {
                a: 1,
                b: 1,
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
        assert_eq!(app.score(), Score::default());
    }

    #[test]
    fn space_pauses_a_game_between_two_ais() {
        let mut app = app(Player::Hard, Player::Easy);
        assert!(app.ai_to_move());
        app.update(Action::Activate);
        assert!(app.paused() && !app.ai_to_move());
        app.update(Action::AiMove);
        assert!(app.game().history().is_empty());
        app.update(Action::Activate);
        assert!(app.ai_to_move());
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
    fn unknown_keys_only_change_the_message() {
        let mut app = app(Player::Human, Player::Human);
        app.update(Action::Unknown("'z'".into()));
        assert_eq!(app.message(), "'z' does nothing here: press ? for the keys");
        assert_eq!(board(&app), ".../.../...");
    }

    #[test]
    fn sides_are_named_for_people() {
        assert_eq!(names(Player::Human, Player::Hard), ["you", "hard AI"]);
        assert_eq!(
            names(Player::Human, Player::Human),
            ["Player 1", "Player 2"]
        );
        assert_eq!(
            names(Player::Easy, Player::Easy),
            ["easy AI 1", "easy AI 2"]
        );
    }
}
