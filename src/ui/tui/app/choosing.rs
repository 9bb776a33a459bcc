//! A swap opening's choice on the game screen: where a person is asked to choose, `b` takes
//! black (X), `w` white (O) and `2` places two more stones, each where the opening offers it.
//! Every other key does what it does on the board (`?`, `u`, `q`...).

use super::App;
use crate::rules::gomoku::opening::{Choice, Stage};
use crate::rules::position::{Move, Position};
use crate::ui::tui::input::Action;

/// The choices with their keys, in the order they are offered.
const KEYS: [(Choice, &str); 3] = [
    (Choice::Black, "b black"),
    (Choice::White, "w white"),
    (Choice::Two, "2 two more"),
];

/// What the opening asks of the person acting in `position`, said of them, with the keys of
/// a choice: `chooses: b black · w white · 2 two more`, `places stone 2 of 3 (O)`.
pub(super) fn asked(position: &Position) -> String {
    let stones = position
        .gomoku()
        .map_or(0, crate::rules::gomoku::Gomoku::stones);
    let mark = position.to_move();
    match position.stage() {
        Stage::Choose(offered) => format!("chooses: {}", keys(offered)),
        Stage::Place if stones < 3 => format!("places stone {} of 3 ({mark})", stones + 1),
        Stage::Place => format!("places two more: stone {} of 2 ({mark})", stones - 2),
        Stage::Play => String::new(),
    }
}

/// The keys of the choices `offered`: `b black · w white`.
fn keys(offered: &[Choice]) -> String {
    let keys: Vec<&str> = KEYS
        .iter()
        .filter(|(choice, _)| offered.contains(choice))
        .map(|&(_, key)| key)
        .collect();
    keys.join(" · ")
}

impl App {
    /// A key while a person is asked to choose in a swap opening: the choice it names is
    /// made (or refused, where not offered). Whether the key was taken.
    pub(super) fn choice_key(&mut self, action: &Action) -> bool {
        let position = *self.game().position();
        let Stage::Choose(offered) = position.stage() else {
            return false;
        };
        if !matches!(self.game().turn(), Some((_, player)) if player.is_human()) {
            return false;
        }
        let choice = match action {
            Action::Letter('b') => Choice::Black,
            Action::Export => Choice::White,
            Action::Digit(2) => Choice::Two,
            Action::Letter(_) | Action::Digit(_) | Action::Activate | Action::Click { .. } => {
                self.message = format!("The opening asks for a choice: {}", keys(offered));
                return true;
            }
            _ => return false,
        };
        if offered.contains(&choice) {
            self.human_move(Move::Choice(choice));
        } else {
            self.message = format!("'{choice}' is not a choice now: {}", keys(offered));
        }
        true
    }
}
