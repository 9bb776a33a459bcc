//! Leaving a game in the middle asks first: Esc, `q` and `n` while a person's game goes on
//! open `Leave this game? y/n`, and only `y` (or a second `q`) leaves. Once the game is over,
//! or before its first move, nothing is lost and they act at once.

use crate::game::{GameEnd, Verdict, lone_human};
use crate::net::session::NetGame;
use crate::ui::tui::input::Action;

use super::{App, Mode};

/// What a confirmed question leaves the game for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leave {
    /// End the program (Esc or `q`).
    Quit,
    /// Start a new round (`n`).
    NewRound,
    /// Resign the game (`x`).
    Resign,
}

impl Leave {
    /// What `y` does, for the line of keys under the question.
    pub fn answer(self) -> &'static str {
        match self {
            Leave::Quit => "y leave",
            Leave::NewRound => "y new round",
            Leave::Resign => "y resign",
        }
    }

    /// The question on the message line; `loses` where leaving counts as a loss.
    pub fn question(self, loses: bool) -> &'static str {
        match (self, loses) {
            (Leave::Quit, false) => "Leave this game? y/n",
            (Leave::Quit, true) => "Leave? It counts as a loss. y/n",
            (Leave::NewRound, false) => "Leave this game for a new round? y/n",
            (Leave::NewRound, true) => "New round? This counts as a loss. y/n",
            (Leave::Resign, false) => "Resign this game? y/n",
            (Leave::Resign, true) => "Resign? It counts as a loss. y/n",
        }
    }
}

impl App {
    /// Whether leaving now would lose something: a game a person plays, with a move in it
    /// after any set-up, not over, not one of the history being looked at, and (in a network
    /// game) with the other player still in it.
    pub(super) fn at_stake(&self) -> bool {
        let game = self.game();
        !game.is_over()
            && !self.archived
            && game.history().len() > game.setup()
            && self.driver.session().has_human()
            && !self.driver.net().is_some_and(NetGame::is_over)
    }

    /// Esc, `q` or `n` while playing: leave at once if nothing is at stake, otherwise ask.
    pub(super) fn leave(&mut self, leave: Leave) {
        if self.at_stake() {
            let under = std::mem::replace(&mut self.mode, Mode::Playing);
            self.mode = Mode::Confirm(leave, Box::new(under));
        } else {
            self.left(leave);
        }
    }

    fn left(&mut self, leave: Leave) {
        match leave {
            Leave::Quit => self.quit = true,
            Leave::NewRound => self.start_new_round(),
            Leave::Resign => self.resign(),
        }
    }

    /// The key that answers the question: `y` (or `q` when quitting) leaves, Ctrl-C quits,
    /// any other key keeps playing and does nothing else. The mode is already back to the
    /// one under the question.
    pub(super) fn confirm_key(&mut self, leave: Leave, action: &Action) {
        match action {
            Action::Yes => self.left(leave),
            Action::Quit if leave == Leave::Quit => self.left(leave),
            Action::Interrupt => self.quit = true,
            _ => self.message = format!("Still playing. {}", self.turn_message()),
        }
    }

    /// The question being asked, if one is.
    pub fn question(&self) -> Option<&'static str> {
        let leave = self.confirming()?;
        let game = self.game();
        let (first, second) = game.seats();
        // A resignation is a loss wherever the game counts (one person, not set up).
        let loses = match leave {
            Leave::Resign => lone_human(first, second).is_some() && game.setup() == 0,
            _ => game.counts(GameEnd::Abandoned) == Some(Verdict::Lost),
        };
        Some(leave.question(loses))
    }

    /// What the question on the message line asks to do, if one is asked.
    pub fn confirming(&self) -> Option<Leave> {
        let mut mode = &self.mode;
        loop {
            match mode {
                Mode::Help(under) => mode = under,
                Mode::Confirm(leave, _) => return Some(*leave),
                _ => return None,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::{Board, Rules};
    use crate::rules::position::{Move, Variant};

    fn two_humans(variant: impl Into<Variant>) -> App {
        App::new(
            Session::new(variant, Player::Human, Player::Human),
            (80, 24),
        )
    }

    fn play(app: &mut App, digits: &[u8]) {
        for &d in digits {
            app.update(Action::Digit(d));
        }
    }

    #[test]
    fn q_in_the_middle_of_a_game_asks_and_a_second_q_quits() {
        let mut app = two_humans(Rules::CLASSIC);
        play(&mut app, &[5]);
        app.update(Action::Quit);
        assert!(!app.should_quit());
        assert_eq!(app.message(), "Leave this game? y/n");
        app.update(Action::Quit);
        assert!(app.should_quit());
    }

    #[test]
    fn escape_asks_and_y_quits_but_a_second_escape_keeps_playing() {
        let mut app = two_humans(Rules::CLASSIC);
        play(&mut app, &[5]);
        app.update(Action::Escape);
        assert_eq!(app.message(), "Leave this game? y/n");
        app.update(Action::Escape);
        assert!(!app.should_quit());
        assert_eq!(app.message(), "Still playing. O to move (Player 2)");
        app.update(Action::Escape);
        app.update(Action::Yes);
        assert!(app.should_quit());
    }

    #[test]
    fn any_other_answer_keeps_the_game_and_does_not_act() {
        let mut app = two_humans(Rules::CLASSIC);
        play(&mut app, &[5]);
        app.update(Action::Quit);
        app.update(Action::Digit(1));
        assert!(!app.should_quit());
        assert_eq!(app.game().history().len(), 1, "the digit did not play");
        assert_eq!(app.question(), None);
    }

    #[test]
    fn n_in_the_middle_of_a_game_asks_and_only_y_starts_a_new_round() {
        let mut app = two_humans(Rules::CLASSIC);
        play(&mut app, &[5]);
        app.update(Action::NewRound);
        assert_eq!(app.message(), "Leave this game for a new round? y/n");
        app.update(Action::NewRound);
        assert_eq!((app.session().round(), app.game().history().len()), (1, 1));
        app.update(Action::NewRound);
        app.update(Action::Yes);
        assert_eq!(app.session().round(), 2);
    }

    #[test]
    fn leaving_a_game_against_an_ai_after_a_move_says_it_counts_as_a_loss() {
        let mut app = App::new(
            Session::new(Rules::CLASSIC, Player::Human, Player::HARD),
            (80, 24),
        );
        play(&mut app, &[5]);
        app.update(Action::Quit);
        assert_eq!(app.message(), "Leave? It counts as a loss. y/n");
        app.update(Action::Digit(1));
        app.update(Action::NewRound);
        assert_eq!(app.message(), "New round? This counts as a loss. y/n");
    }

    #[test]
    fn ctrl_c_quits_at_once_even_mid_game() {
        let mut app = two_humans(Rules::CLASSIC);
        play(&mut app, &[5]);
        app.update(Action::Interrupt);
        assert!(app.should_quit());
    }

    #[test]
    fn before_the_first_move_and_after_the_end_nothing_is_asked() {
        let mut app = two_humans(Rules::CLASSIC);
        app.update(Action::Escape);
        assert!(app.should_quit(), "an empty board is left at once");
        let mut app = two_humans(Rules::CLASSIC);
        play(&mut app, &[7, 1, 8, 2, 9]);
        app.update(Action::NewRound);
        assert_eq!(app.session().round(), 2, "a finished game: n acts at once");
        play(&mut app, &[7, 1, 8, 2, 9]);
        app.update(Action::Quit);
        assert!(app.should_quit(), "a finished game: q acts at once");
    }

    #[test]
    fn q_in_the_help_over_a_game_asks_too() {
        let mut app = two_humans(Rules::CLASSIC);
        play(&mut app, &[5]);
        app.update(Action::Help);
        app.update(Action::Quit);
        assert!(!app.should_quit());
        assert_eq!(app.message(), "Leave this game? y/n");
    }

    #[test]
    fn ultimate_escape_with_a_board_chosen_only_cancels_the_choice() {
        let mut app = two_humans(Variant::Ultimate);
        play(&mut app, &[5, 5, 3]);
        assert_eq!(app.selected(), None, "sent to board 5, one digit plays");
        let mut app = two_humans(Variant::Ultimate);
        play(&mut app, &[5]);
        app.update(Action::Escape);
        assert_eq!(app.question(), None, "nothing played yet: no question");
        assert!(!app.should_quit(), "only the board choice went");
        play(&mut app, &[5, 5]);
        // X played 55; O, sent to board 5, has no board choice to cancel: Esc asks.
        app.update(Action::Escape);
        assert_eq!(app.message(), "Leave this game? y/n");
    }

    #[test]
    fn the_ai_does_not_move_while_the_question_is_open() {
        let mut app = App::new(
            Session::new(Rules::CLASSIC, Player::Human, Player::HARD),
            (80, 24),
        );
        play(&mut app, &[5]);
        assert!(app.job().is_some());
        app.update(Action::Quit);
        assert_eq!(app.job(), None);
        app.handle(super::super::Event::Answer(
            crate::ui::tui::worker::Reply::Move(Move::Cell(Board::default().numpad(1).unwrap())),
        ));
        assert_eq!(app.game().history().len(), 1);
        app.update(Action::Escape);
        assert!(app.job().is_some(), "the AI thinks again");
    }
}
