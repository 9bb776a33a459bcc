//! Moves from the keyboard and the mouse: digits (one a cell, or in Ultimate a board then a
//! cell), the cursor, a click, and the moves typed while the AI thinks, which wait their turn.

use crate::ai::player::Player;
use crate::rules::classic::Mark;
use crate::rules::position::{Move, Position};
use crate::text::sentence;
use crate::ui::driver::{Refused, Sent};
use crate::ui::keypad::Digit;
use crate::ui::tui::input::Direction;
use crate::ui::tui::layout::GridLayout;

use super::{App, Mode};

impl App {
    /// A digit: a cell of 3×3; in Ultimate the cell when a board is chosen or sent to,
    /// otherwise the board. While the AI or the other player moves, only whole moves are
    /// queued, board then cell: the board the player will be sent to is not known yet.
    pub(super) fn digit(&mut self, selected: Option<u8>, d: u8) {
        let position = self.input_position();
        // On the analysis board the keyboard plays either side.
        let mover = match self.analysis() {
            Some(_) => (!position.is_over()).then_some(Player::Human),
            None => self.game().turn().map(|(_, p)| p),
        };
        let mover_is_human = mover.is_some_and(Player::is_human);
        let ai_moves = mover.is_some_and(Player::is_ai) && self.driver.session().has_human();
        let meaning = if mover.is_some() && !mover_is_human {
            position.digit_ahead(selected, d)
        } else {
            position.digit(selected, d)
        };
        match meaning {
            // Sent to board b, the digit b is cell b or the start of the whole move b·c: it
            // waits for the cell, and Enter plays cell b (the cursor is on it).
            Digit::Move(mv)
                if mover_is_human && selected.is_none() && position.forced_board() == Some(d) =>
            {
                self.selected = Some(d);
                self.cursor = mv;
                self.message = format!(
                    "Board {d}: now the cell, 1-9, or Enter plays cell {d} (Esc chooses again)"
                );
            }
            // A board whose moves are digits (Connect Four's columns) has fewer than nine.
            Digit::NoDigits if position.variant().move_noun() == "column" => {
                let forms = position.move_forms();
                self.message = format!("{d} is no column here: type {forms} or use the arrows");
            }
            Digit::NoDigits => {
                self.message =
                    "Digits name cells on 3×3 only: type a coordinate (c3) or use the arrows"
                        .into();
            }
            Digit::Move(mv) => {
                self.cursor = mv;
                self.human_move(mv);
            }
            // Whose turn it is, or that the game is over, is for `human_move` to say.
            Digit::Board(_) | Digit::ClosedBoard(_) if !mover_is_human && !ai_moves => {
                if mover.is_some() && self.driver.session().has_human() {
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

    /// A column letter: the first half of a coordinate, shown on the message line until its
    /// row comes.
    pub(super) fn letter(&mut self, c: char) {
        let side = self.input_position().grid_side();
        let column = u32::from(c) - u32::from('a');
        if column >= u32::from(side) {
            let last = char::from(b'a' + side - 1);
            self.message = format!("There is no column {c} here: columns are a to {last}");
        } else {
            self.column = Some(c);
            self.message = self.column_message();
        }
    }

    /// The message while a column letter waits for its row.
    pub(super) fn column_message(&self) -> String {
        let column = self.column.unwrap_or('a');
        let side = self.input_position().grid_side();
        let again = match column {
            'a' => "; a again: the analysis board",
            'h' => "; h again: a hint",
            'l' => "; l again: the level",
            'n' => "; n again: a new round",
            'q' => "; q again: quit",
            'r' => "; r again: the review",
            't' => "; t again: the explorer",
            _ => "",
        };
        format!("Typed {column}… now the row, 1-{side} (Esc cancels{again})")
    }

    /// A digit of the row after column letter `column`: a digit that begins a row of the
    /// board's (a `1` from ten rows up, a `2` on 20×20) waits for a second digit (or Enter),
    /// `first` is that digit, and any other digit ends the row.
    pub(super) fn row_digit(&mut self, column: Option<char>, first: Option<u8>, d: u8) {
        let side = self.input_position().grid_side();
        match (first, column) {
            (Some(first), _) => self.coordinate(column, first * 10 + d),
            (None, Some(c)) if d > 0 && d * 10 <= side => {
                self.column = column;
                self.first_digit = Some(d);
                let last = side.min(d * 10 + 9);
                let second = if last == d * 10 {
                    format!("0 for {c}{last}")
                } else {
                    format!("a second digit {c}{d}0-{c}{last}")
                };
                self.message = format!("Typed {c}{d}… Enter plays {c}{d}, {second} (Esc cancels)");
            }
            (None, _) if d == 0 => {
                self.column = column;
                self.message = format!("Rows start at 1: {}", self.column_message());
            }
            (None, _) => self.coordinate(column, d),
        }
    }

    /// The row after a column letter: the coordinate is played (or queued) like a click.
    pub(super) fn coordinate(&mut self, column: Option<char>, row: u8) {
        let Some(column) = column else {
            return;
        };
        let text = format!("{column}{row}");
        match self.input_position().parse_move(&text) {
            Ok(mv) => {
                self.cursor = mv;
                self.follow(mv);
                self.human_move(mv);
            }
            Err(e) => {
                let why = sentence(&e.to_string());
                self.message = format!("{why}: type a column letter again");
            }
        }
    }

    pub(super) fn move_cursor(&mut self, direction: Direction) {
        let position = self.input_position();
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
        self.follow(self.cursor);
    }

    /// Scrolls a tall board's window as little as shows `mv` (the cursor, or the move just
    /// played).
    pub(super) fn follow(&mut self, mv: Move) {
        let position = self.input_position();
        if let Some((_, row)) = position.grid_point(mv) {
            let window = GridLayout::scrolled(self.board_area(), position.grid_side(), self.scroll);
            self.scroll = window.following(row).hidden_above;
        }
    }

    pub(super) fn activate(&mut self) {
        if self.analysis().is_some() {
            self.human_move(self.cursor);
        } else if self.game().is_over() {
            self.start_new_round();
        } else if self.watching().1 {
            self.message = sentence(&Refused::Watching.to_string());
        } else if !self.driver.session().has_human() {
            self.mode = if self.mode == Mode::Paused {
                Mode::Playing
            } else {
                Mode::Paused
            };
            // A pause stops the AIs' clock too.
            self.driver.pause_clock(self.mode == Mode::Paused);
            self.message = if self.paused() {
                super::PAUSED.into()
            } else {
                self.turn_message()
            };
        } else {
            self.human_move(self.cursor);
        }
    }

    /// A human asks to play `cell`: now if it is a human's turn, after the AI's move if not.
    pub(super) fn human_move(&mut self, cell: Move) {
        if self.analysis().is_some() {
            return self.analysis_move(cell);
        }
        let result = self.driver.person_move(cell);
        self.moved(cell, result);
    }

    /// Says what became of a move the player made.
    fn moved(&mut self, cell: Move, result: Result<Sent, Refused>) {
        self.message = match result {
            Ok(Sent::Played(mark)) => return self.after_move(mark, cell),
            Ok(Sent::Queued(1)) => format!("Wait for the AI: {cell} will be played next"),
            Ok(Sent::Queued(_)) => {
                let cells: Vec<String> = self
                    .driver
                    .queued()
                    .iter()
                    .map(ToString::to_string)
                    .collect();
                format!(
                    "Wait for the AI: {} will be played in turn",
                    cells.join(", ")
                )
            }
            Err(Refused::Over) => "The game is over: n, Enter or Space starts a new round".into(),
            Err(Refused::Flagged(_)) => self.turn_message(),
            Err(Refused::AisPlay) => {
                "The AIs play each other: Space pauses, n starts a new round".into()
            }
            Err(Refused::NoOneJoined) => {
                let line = self.net.as_ref().and_then(|n| n.join_line.as_deref());
                format!("No one has joined yet. {}", line.unwrap_or_default())
            }
            Err(why) => sentence(&why.to_string()),
        };
    }

    /// Plays the AI's `cell`, then the moves typed meanwhile, in order.
    pub(super) fn ai_move(&mut self, cell: Move) {
        let Some(mark) = self.driver.ai_move(cell) else {
            // Its flag fell before the move came.
            if self.game().is_over() {
                self.message = self.turn_message();
            }
            return;
        };
        self.after_move(mark, cell);
        let humans_turn = matches!(self.game().turn(), Some((_, p)) if p.is_human());
        if let Some(b) = self.selected.take() {
            // A board chosen ahead in Ultimate stays chosen where the player is sent to it, or
            // sent anywhere, if it is open; otherwise it is dropped.
            let position = self.game().position();
            let (forced, open) = (position.forced_board(), position.board_open(b));
            if humans_turn && forced.is_none() && open {
                self.selected = Some(b);
                self.message = format!("{}; board {b} chosen", self.message);
            } else if humans_turn && forced == Some(b) {
                // Sent where the player chose: the next digit is its cell.
                self.selected = Some(b);
            } else if humans_turn && forced != Some(b) {
                self.message = format!("{}; board {b} dropped", self.message);
            }
        }
        let Some(queued) = self.driver.play_queued() else {
            return;
        };
        self.moved(queued.mv, queued.result);
        if queued.dropped {
            self.message.push_str(" (later moves dropped)");
        }
    }

    pub(super) fn after_move(&mut self, mark: Mark, cell: Move) {
        if self.looking_back().is_none() {
            self.follow(cell);
        }
        // In Ultimate the cursor follows the player to the board they are sent to.
        if let Some(forced) = self.game().position().forced_board()
            && Position::board_of(self.cursor) != Some(forced)
        {
            self.cursor = self.game().position().centre();
        }
        self.message = match self.driver.session().result() {
            None if let Some(said) = self.driver.session().opening_act() => {
                format!("{said}. {}", self.turn_message())
            }
            None => {
                let who = self.driver.session().name_of(mark);
                let nothing = (self.game().position().wins_nothing(cell))
                    .map(|why| format!(" ({why})"))
                    .unwrap_or_default();
                format!(
                    "{mark} ({who}) played {cell}{nothing}. {}",
                    self.turn_message()
                )
            }
            Some(result) => format!("{result} {}", self.after_game()),
        };
    }
}

#[cfg(test)]
mod tests {
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::Rules;
    use crate::ui::tui::app::App;
    use crate::ui::tui::input::Action;

    fn five_by_five() -> App {
        let rules = Rules::new(5, 4, false).unwrap();
        App::new(Session::new(rules, Player::Human, Player::Human), (80, 24))
    }

    #[test]
    fn a_column_letter_then_a_row_plays_that_cell() {
        let mut app = five_by_five();
        app.update(Action::Letter('c'));
        assert_eq!(app.message(), "Typed c… now the row, 1-5 (Esc cancels)");
        app.update(Action::Activate);
        assert!(app.game().history().is_empty(), "Enter waits for the row");
        app.update(Action::Digit(3));
        assert_eq!(app.game().record().to_string(), "--size 5 c3");
    }

    #[test]
    fn a_row_off_the_board_is_refused_and_nothing_is_played() {
        let mut app = five_by_five();
        app.update(Action::Analyse);
        app.update(Action::Digit(9));
        assert!(app.game().history().is_empty());
        assert!(
            app.message().ends_with("type a column letter again"),
            "{}",
            app.message()
        );
    }

    #[test]
    fn escape_cancels_a_column_letter_without_asking() {
        let mut app = five_by_five();
        app.update(Action::Analyse);
        app.update(Action::Digit(1));
        app.update(Action::Letter('b'));
        app.update(Action::Escape);
        assert_eq!(app.question(), None);
        assert!(app.message().starts_with("Coordinate cancelled."));
    }
}
