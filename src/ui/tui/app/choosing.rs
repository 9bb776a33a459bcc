//! A swap opening's choice on the game screen: where a person is asked to choose, `b` takes
//! black (X), `w` white (O) and `2` places two more stones, each where the opening offers it.
//! Every other key does what it does on the board (`?`, `u`, `q`...).

use super::App;
use crate::rules::gomoku::Gomoku;
use crate::rules::gomoku::opening::{Choice, Stage};
use crate::rules::position::{Move, Position};
use crate::ui::tui::input::Action;

/// The choices with their keys, in the order they are offered.
const KEYS: [(Choice, &str); 3] = [
    (Choice::Black, "b black"),
    (Choice::White, "w white"),
    (Choice::Two, "2 two more"),
];

/// What the opening asks of the person acting in `position`, said of them (or to them,
/// `you`), with the keys of a choice: `chooses: b black · w white · 2 two more`, `places
/// stone 2 of 3 (O)`.
pub(super) fn asked(position: &Position, you: bool) -> String {
    let placing = position.gomoku().and_then(Gomoku::placing);
    let mark = position.to_move();
    let (choose, place) = if you {
        ("choose", "place")
    } else {
        ("chooses", "places")
    };
    match (position.stage(), placing) {
        (Stage::Choose(offered), _) => format!("{choose}: {}", keys(offered)),
        (_, Some((n, 3))) => format!("{place} stone {n} of 3 ({mark})"),
        (_, Some((n, _))) => format!("{place} two more: stone {n} of 2 ({mark})"),
        (_, None) => String::new(),
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
            Action::Letter(_)
            | Action::Analyse
            | Action::Digit(_)
            | Action::Activate
            | Action::Click { .. } => {
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
