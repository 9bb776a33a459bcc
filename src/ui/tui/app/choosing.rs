//! A swap opening's choice on the game screen: where a person is asked to choose, `b` takes
//! black (X), `w` white (O) and `2` places two more stones, each where the opening offers it.
//! Every other key does what it does on the board (`?`, `u`, `q`...).

use super::App;
use crate::rules::gomoku::opening::{Choice, Stage};
use crate::rules::position::{Move, Position};
use crate::ui::tui::input::Action;

/// The choices with their keys, in the order they are offered.
const KEYS: [(Choice, &str); 3] = [
    (Choice::Black, "b black (X)"),
    (Choice::White, "w white (O)"),
    (Choice::Two, "2 place two more"),
];

/// What the opening asks of the person acting in `position`, with the keys of a choice:
/// `choose: b black (X) · w white (O) · 2 place two more`, or the stone to place.
pub(super) fn asked(position: &Position) -> String {
    match position.stage() {
        Stage::Choose(offered) => {
            let keys: Vec<&str> = KEYS
                .iter()
                .filter(|(choice, _)| offered.contains(choice))
                .map(|&(_, key)| key)
                .collect();
            format!("choose: {}", keys.join(" · "))
        }
        _ => position.stage_words().unwrap_or_default(),
    }
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
                self.message = format!("First {}", asked(&position));
                return true;
            }
            _ => return false,
        };
        if offered.contains(&choice) {
            self.human_move(Move::Choice(choice));
        } else {
            self.message = format!("'{choice}' is not a choice now: {}", asked(&position));
        }
        true
    }
}
