//! Looking back through the game on screen without undoing anything: `[` one move back, `]`
//! one forward, Esc (or `]` past the last move) back to the game as it stands. The game goes
//! on meanwhile (the AI, the other player over the network); a move is only played from the
//! game as it stands.

use super::App;
use crate::rules::position::Move;
use crate::ui::tui::input::Action;

impl App {
    /// While looking back: the moves shown (the position after that many) and the moves of
    /// the game.
    pub fn looking_back(&self) -> Option<(usize, usize)> {
        if self.analysis().is_some() {
            return None;
        }
        let total = self.game().history().len();
        self.looking.filter(|&n| n < total).map(|n| (n, total))
    }

    /// The last move of the position on screen, to mark: none in the review (which marks its
    /// own), the move looked back at, or the game's last.
    pub fn shown_last_move(&self) -> Option<Move> {
        if let Some(analysis) = self.analysis() {
            return analysis.tree().mv(analysis.at());
        }
        if self.review().is_some() {
            return None;
        }
        match self.looking_back() {
            Some((0, _)) => None,
            Some((n, _)) => self.game().history().get(n - 1).copied(),
            None => self.game().last_move(),
        }
    }

    /// `[` and `]`: a move back or forward; the message says where and how back.
    pub(super) fn look(&mut self, action: &Action) {
        let total = self.game().history().len();
        let now = self.looking_back().map_or(total, |(n, _)| n);
        let next = match action {
            Action::Earlier if now == 0 => {
                self.message = format!("This is the start of the game. {}", looking_keys());
                return;
            }
            Action::Earlier => now - 1,
            _ if self.looking_back().is_none() => {
                self.message = "This is the game as it stands: [ looks back".into();
                return;
            }
            _ => now + 1,
        };
        self.looking = (next < total).then_some(next);
        if let Some(mv) = self.shown_last_move() {
            self.follow(mv);
        }
        self.message = match self.looking {
            Some(n) => looking_message(n, total),
            None => format!("Back to the game. {}", self.turn_message()),
        };
    }

    /// A key while looking back: `[`, `]` and Esc move through the game or leave; the game's
    /// keys wait until the game is back on screen. Whether the key was taken.
    pub(super) fn looking_key(&mut self, action: &Action) -> bool {
        let Some((n, total)) = self.looking_back() else {
            self.looking = None;
            return false;
        };
        match action {
            Action::Earlier | Action::Later => self.look(action),
            Action::Escape => {
                self.looking = None;
                self.message = format!("Back to the game. {}", self.turn_message());
            }
            Action::Quit | Action::Interrupt => return false,
            _ => {
                let at = looking_message(n, total);
                self.message = format!("Esc first to play on. {at}");
            }
        }
        true
    }
}

/// Where the look back is: the move shown of how many.
fn looking_message(n: usize, total: usize) -> String {
    let at = if n == 0 {
        "the start".to_string()
    } else {
        format!("move {n} of {total}")
    };
    format!("Looking back at {at}: {}", looking_keys())
}

/// How to move on while looking back.
fn looking_keys() -> &'static str {
    "[ back, ] forward, Esc to the game"
}

#[cfg(test)]
mod tests {
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::classic::Rules;
    use crate::rules::position::Move;
    use crate::ui::tui::app::App;
    use crate::ui::tui::input::Action;

    /// Two people on 3×3 after X 5, O 1, X 9.
    fn three_moves() -> App {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
        let mut app = App::new(session, (80, 24));
        for d in [5, 1, 9] {
            app.update(Action::Digit(d));
        }
        app
    }

    fn cell(app: &App, d: u8) -> Move {
        app.game().position().parse_move(&d.to_string()).unwrap()
    }

    #[test]
    fn brackets_look_back_and_forward_through_the_game_without_undoing_it() {
        let mut app = three_moves();
        app.update(Action::Earlier);
        assert_eq!(app.looking_back(), Some((2, 3)));
        assert_eq!(app.shown_position().to_string(), ".../.X./O..");
        assert_eq!(app.shown_last_move(), Some(cell(&app, 1)));
        assert!(app.message.contains("move 2 of 3"), "{}", app.message);
        app.update(Action::Earlier);
        app.update(Action::Earlier);
        assert_eq!(app.looking_back(), Some((0, 3)));
        assert_eq!(app.shown_position().to_string(), ".../.../...");
        assert_eq!(app.shown_last_move(), None);
        app.update(Action::Earlier);
        assert!(
            app.message.starts_with("This is the start"),
            "{}",
            app.message
        );
        for _ in 0..3 {
            app.update(Action::Later);
        }
        assert_eq!(app.looking_back(), None, "past the last move: the game");
        assert_eq!(app.shown_position(), *app.game().position());
        assert_eq!(app.game().history().len(), 3, "nothing was undone");
    }

    #[test]
    fn a_click_beside_the_move_list_plays_the_cell_under_it() {
        use crate::ui::tui::layout::{Layout, MOVES_FROM, board_area, board_left};
        // At 200 columns the board and the list are centred together: the click is read
        // from where the board's area starts.
        for size in [(MOVES_FROM, 24), (200, 60)] {
            let session = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
            let mut app = App::new(session, size);
            let board = *app.game().position().classic().unwrap();
            let layout = Layout::new(board_area(size, true), 3);
            let (column, row) = layout.cell_origin(board.numpad(4).unwrap());
            let column = column + board_left(size, true);
            app.update(Action::Click { column, row });
            assert_eq!(app.game().last_move(), Some(cell(&app, 4)), "{size:?}");
        }
    }

    #[test]
    fn a_move_waits_until_escape_returns_to_the_game() {
        let mut app = three_moves();
        app.update(Action::Earlier);
        app.update(Action::Digit(3));
        assert_eq!(
            app.game().history().len(),
            3,
            "nothing played while looking back"
        );
        assert!(app.message.starts_with("Esc first"), "{}", app.message);
        app.update(Action::Escape);
        assert_eq!(app.looking_back(), None);
        app.update(Action::Digit(3));
        assert_eq!(app.game().last_move(), Some(cell(&app, 3)));
        app.update(Action::Later);
        assert!(app.message.contains("as it stands"), "{}", app.message);
    }
}
