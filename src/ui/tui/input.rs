//! The only place that knows the key bindings: terminal events become [`Action`]s.

use crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

/// A direction for the cursor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

/// What the player asked for, independent of which key or click said it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Play the cell with this numpad digit (3×3 boards), or the row after a column letter.
    Digit(u8),
    /// `0`: the second digit of a row from 10 up, after a column letter and a `1`.
    Zero,
    /// A column letter that is no other key's: the first half of a coordinate such as `c3`
    /// (the keys `a`, `h`, `l`, `n`, `p`, `q`, `r`, `s` and `t` are other actions, which the game
    /// takes as columns where the board has them: [`Action::letter`]).
    Letter(char),
    /// Move the cursor one cell.
    Move(Direction),
    /// Enter or Space: play the cursor's cell, start a new round after a game, or pause and
    /// resume a game between two AIs.
    Activate,
    /// A left click at a screen position (column, row).
    Click {
        column: u16,
        row: u16,
    },
    Undo,
    Hint,
    /// `L`: the AI's level for the next round, one down ([`Action::Level`] is one up).
    LevelDown,
    /// Open (or leave) the review of the finished game.
    Review,
    NewRound,
    /// `l`: the AI's level for the next round.
    Level,
    /// `p`: in the review of a game of the history, play on after the move shown.
    PlayOn,
    /// `w`: in the review of a game of the history, show its record to copy.
    Export,
    /// `t`: open (or close) the explorer of the AI's search tree.
    Explore,
    /// `a`: open the analysis board on the position on screen.
    Analyse,
    /// `z`: on the analysis board, setting up or playing moves, in turn.
    Stones,
    /// Tab: on the analysis board, the colour of the stones set up: the side to move's, X's,
    /// O's, in turn.
    Colour,
    /// `v`: move numbers on the stones: the last ten, all, none.
    Numbers,
    /// `{` and `}`: on the analysis board, the move tried before or after the one shown in
    /// its place (-1 or 1).
    OtherLine(isize),
    /// Text pasted into the terminal: on the analysis board, a game to set it up from.
    Paste(String),
    /// `s`: in the explorer, replay the search step by step (or stop replaying).
    Step,
    /// `+` and `-`: in the explorer's step mode, replay faster or slower.
    Faster,
    Slower,
    /// `=`: offer a draw or accept one (in the explorer, as `+`).
    Draw,
    /// `x`: resign the game (asking first).
    Resign,
    /// Open the help overlay (or close it).
    Help,
    /// Esc: close the help overlay, cancel a board chosen in Ultimate, or quit (asking first
    /// in the middle of a game).
    Escape,
    /// Backspace: cancel a board chosen in Ultimate.
    Back,
    /// `q`: quit, asking first in the middle of a game.
    Quit,
    /// Ctrl-C: quit at once.
    Interrupt,
    /// `y`: yes to a question.
    Yes,
    /// `[`: look one move further back through the game on screen.
    Earlier,
    /// `]`: one move forward again, back to the game as it stands at the end.
    Later,
    /// A key with no meaning here, named for the status line.
    Unknown(String),
    /// Test builds only: a deliberate panic, to test that the terminal is restored.
    Panic,
}

impl Action {
    /// The letter whose key asks for this action, where that letter can also name a column of
    /// a large board (`a` to `t` on 20×20): the game takes it as the column first.
    pub fn letter(&self) -> Option<char> {
        match self {
            Action::Hint => Some('h'),
            Action::Level | Action::LevelDown => Some('l'),
            Action::NewRound => Some('n'),
            Action::PlayOn => Some('p'),
            Action::Quit => Some('q'),
            Action::Review => Some('r'),
            Action::Step => Some('s'),
            Action::Explore => Some('t'),
            Action::Analyse => Some('a'),
            _ => None,
        }
    }
}

/// The action for a terminal event, or `None` for events that are no action of the player's
/// (key releases and repeats, mouse moves, focus changes, resizes). `test_panic` makes `!`
/// panic on purpose.
pub fn action(event: &Event, test_panic: bool) -> Option<Action> {
    match event {
        Event::Key(key) => key_action(key, test_panic),
        Event::Mouse(mouse) => mouse_action(*mouse),
        Event::Paste(text) => Some(Action::Paste(text.clone())),
        _ => None,
    }
}

fn key_action(key: &KeyEvent, test_panic: bool) -> Option<Action> {
    // Windows also reports releases; only presses count.
    if key.kind != KeyEventKind::Press {
        return None;
    }
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    let action = match key.code {
        KeyCode::Char('c' | 'C') if ctrl => Action::Interrupt,
        KeyCode::Char(d @ '1'..='9') => Action::Digit(d as u8 - b'0'),
        // The keypad with NumLock off: corners and centre play, its arrows move.
        KeyCode::Home => Action::Digit(7),
        KeyCode::PageUp => Action::Digit(9),
        KeyCode::End => Action::Digit(1),
        KeyCode::PageDown => Action::Digit(3),
        KeyCode::KeypadBegin => Action::Digit(5),
        KeyCode::Up => Action::Move(Direction::Up),
        KeyCode::Down => Action::Move(Direction::Down),
        KeyCode::Left => Action::Move(Direction::Left),
        KeyCode::Right => Action::Move(Direction::Right),
        KeyCode::Enter | KeyCode::Char(' ') => Action::Activate,
        KeyCode::Char('u' | 'U') => Action::Undo,
        KeyCode::Char('h' | 'H') => Action::Hint,
        KeyCode::Char('r' | 'R') => Action::Review,
        KeyCode::Char('n' | 'N') => Action::NewRound,
        KeyCode::Char('l') => Action::Level,
        KeyCode::Char('L') => Action::LevelDown,
        KeyCode::Char('t' | 'T') => Action::Explore,
        KeyCode::Char('a' | 'A') => Action::Analyse,
        KeyCode::Char('z' | 'Z') => Action::Stones,
        KeyCode::Char('v' | 'V') => Action::Numbers,
        KeyCode::Tab => Action::Colour,
        KeyCode::Char('{') => Action::OtherLine(-1),
        KeyCode::Char('}') => Action::OtherLine(1),
        KeyCode::Char('p' | 'P') => Action::PlayOn,
        KeyCode::Char('w' | 'W') => Action::Export,
        KeyCode::Char('s' | 'S') => Action::Step,
        KeyCode::Char('+') => Action::Faster,
        KeyCode::Char('=') => Action::Draw,
        KeyCode::Char('x' | 'X') if !ctrl => Action::Resign,
        KeyCode::Char('-') => Action::Slower,
        KeyCode::Char('?') => Action::Help,
        KeyCode::Char('q' | 'Q') => Action::Quit,
        KeyCode::Char('y' | 'Y') => Action::Yes,
        KeyCode::Char('[') => Action::Earlier,
        KeyCode::Char(']') => Action::Later,
        KeyCode::Char('0') => Action::Zero,
        KeyCode::Char(
            c @ ('b'..='g' | 'i'..='k' | 'm' | 'o' | 'B'..='G' | 'I'..='K' | 'M' | 'O'),
        ) if !ctrl => Action::Letter(c.to_ascii_lowercase()),
        KeyCode::Esc => Action::Escape,
        KeyCode::Backspace => Action::Back,
        KeyCode::Char('!') if test_panic => Action::Panic,
        KeyCode::Char(c) if ctrl => Action::Unknown(format!("Ctrl-{c}")),
        KeyCode::Char(c) => Action::Unknown(format!("'{c}'")),
        other => Action::Unknown(other.to_string()),
    };
    Some(action)
}

fn mouse_action(mouse: MouseEvent) -> Option<Action> {
    match mouse.kind {
        MouseEventKind::Down(MouseButton::Left) => Some(Action::Click {
            column: mouse.column,
            row: mouse.row,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventState;

    fn press(code: KeyCode) -> Event {
        Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
    }

    #[test]
    fn digits_and_the_numlock_off_keypad_play_cells() {
        assert_eq!(
            action(&press(KeyCode::Char('7')), false),
            Some(Action::Digit(7))
        );
        let keypad = [
            (KeyCode::Home, 7),
            (KeyCode::PageUp, 9),
            (KeyCode::End, 1),
            (KeyCode::PageDown, 3),
            (KeyCode::KeypadBegin, 5),
        ];
        for (code, digit) in keypad {
            assert_eq!(
                action(&press(code), false),
                Some(Action::Digit(digit)),
                "{code}"
            );
        }
        assert_eq!(
            action(&press(KeyCode::Char('0')), false),
            Some(Action::Zero)
        );
    }

    #[test]
    fn only_presses_count() {
        let release = Event::Key(KeyEvent {
            code: KeyCode::Char('5'),
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Release,
            state: KeyEventState::NONE,
        });
        assert_eq!(action(&release, false), None);
    }

    #[test]
    fn quitting_keys() {
        let ctrl_c = Event::Key(KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL));
        assert_eq!(action(&ctrl_c, false), Some(Action::Interrupt));
        assert_eq!(
            action(&press(KeyCode::Char('q')), false),
            Some(Action::Quit)
        );
        assert_eq!(action(&press(KeyCode::Esc), false), Some(Action::Escape));
    }

    #[test]
    fn the_panic_key_exists_only_when_asked_for() {
        assert_eq!(
            action(&press(KeyCode::Char('!')), true),
            Some(Action::Panic)
        );
        assert_eq!(
            action(&press(KeyCode::Char('!')), false),
            Some(Action::Unknown("'!'".into()))
        );
    }
}
