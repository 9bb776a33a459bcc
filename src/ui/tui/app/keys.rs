//! The game screen's keys: how each kind of board takes a cell (told, for the help: the
//! keypad reads those keys), then the commands every board shares. [`App`](super::App) acts
//! on a key by looking it up here, and the help and the manual are written from here.

use crate::rules::gomoku::opening::Opening;
use crate::rules::position::Position;
use crate::ui::keypad::Digit;
use crate::ui::tui::input::Action;
use crate::ui::tui::keymap::Binding;

/// What a key asks of the game screen, beyond playing a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    Undo,
    Hint,
    NewRound,
    /// `l` up, `L` down.
    Level,
    Review,
    Explore,
    /// `a`: the analysis board on the position on screen.
    Analyse,
    /// `v`: move numbers on the stones.
    Numbers,
    /// `w`: a finished game to a file.
    Save,
    /// `[` back through the game, `]` forward to where it stands.
    Look,
    /// `=`: offer a draw, or accept one.
    Draw,
    /// `x`: resign (asking first).
    Resign,
    Help,
    /// `q` and Esc (asking first in the middle of a game), Ctrl-C (at once).
    Quit,
}

type Keys = Binding<Command>;

/// How a cell is played on 3×3, by the keypad.
const KEYPAD: [Keys; 5] = [
    Binding::note("1-9", &["play that cell: 7 8 9 is the top row"]).short("1-9 c3", "play a cell"),
    Binding::note("keypad", &["Home PgUp End PgDn Begin play 7 9 1 3 5"]),
    Binding::note("arrows", &["move the cursor; c3 typed plays c3"])
        .short("arrows", "move; Enter plays"),
    Binding::note("Enter Space", &["play the cursor's cell"]),
    Binding::note("mouse", &["click a cell to play it"]),
];

/// How a cell is played on boards named by coordinates only (classic boards larger than
/// 3×3, and Gomoku).
const COORDINATES: [Keys; 4] = [
    Binding::note("c3 h12", &["play there: its column letter, then its row"])
        .short("c3", "play there"),
    Binding::note(
        "h l n q r t",
        &[
            "where the board has such a column, that column;",
            "typed twice, the key below",
        ],
    ),
    Binding::note("arrows", &["move the cursor"]).short("arrows", "move; Enter plays"),
    Binding::note("Enter Space", &["play the cursor's cell; mouse: click one"]),
];

/// How a cell is played in Ultimate.
const ULTIMATE: [Keys; 6] = [
    Binding::note(
        "two digits",
        &[
            "board, then cell, each as the keypad",
            "(7 8 9 the top row): 53 is board 5's 3",
        ],
    )
    .short("53", "board 5, cell 3"),
    Binding::note("one digit", &["when you are sent to a board: the cell"])
        .short("3", "cell, when sent"),
    Binding::note("Esc Bksp", &["choose another board after a first digit"])
        .short("Esc", "another board"),
    Binding::note("arrows", &["move the cursor over all 81 cells"])
        .short("arrows", "move; Enter plays"),
    Binding::note("a1 .. i9", &["play a cell by column and row (h5)"]),
    Binding::note("Enter Space", &["play the cursor's cell; mouse: click one"]),
];

const UNDO: Keys = Binding::command(
    "u",
    &["undo your last move"],
    &[Action::Undo],
    Command::Undo,
)
.short("u", "undo");

/// The hint where it is one key: W D L by the proof.
const HINT: Keys = Binding::command(
    "h",
    &["hint: W win, D draw, L loss (in plies)"],
    &[Action::Hint],
    Command::Hint,
)
.short("h", "hint");

/// The hint in Ultimate, where `h` is a column first.
const ULTIMATE_HINT: Keys = Binding::command(
    "h h",
    &["hint: win rates, or W D L"],
    &[Action::Hint],
    Command::Hint,
)
.short("h h", "hint");

/// The commands every board shares, after undo and the hint.
const COMMANDS: [Keys; 12] = [
    Binding::command(
        "n",
        &["new round (the other side starts)"],
        &[Action::NewRound],
        Command::NewRound,
    )
    .short("n", "new round"),
    Binding::command(
        "l L",
        &["the AI's level next round: up, down"],
        &[Action::Level, Action::LevelDown],
        Command::Level,
    )
    .short("l L", "the AI's level"),
    Binding::command(
        "r",
        &["review the finished game, move by move"],
        &[Action::Review],
        Command::Review,
    )
    .short("r", "review the game"),
    Binding::command(
        "t",
        &["explore the AI's search tree from here"],
        &[Action::Explore],
        Command::Explore,
    )
    .short("t a a", "explore, analyse"),
    Binding::command(
        "a a",
        &["the analysis board here (a column first)"],
        &[Action::Analyse],
        Command::Analyse,
    ),
    Binding::command(
        "w",
        &["save the finished game to a file (.psq for Gomoku)"],
        &[Action::Export],
        Command::Save,
    ),
    Binding::command(
        "=",
        &["offer a draw (on your turn), or accept one"],
        &[Action::Draw],
        Command::Draw,
    )
    .short("= x", "draw, resign"),
    Binding::command(
        "x",
        &["resign the game (asks first)"],
        &[Action::Resign],
        Command::Resign,
    ),
    Binding::command(
        "[ ]",
        &["look back through the game, and forward again"],
        &[Action::Earlier, Action::Later],
        Command::Look,
    )
    .short("[ ] w", "look back, save"),
    Binding::note("Space", &["pause or resume AI against AI"]),
    Binding::command("?", &["this help"], &[Action::Help], Command::Help)
        .short("? ?", "keys, then rules"),
    Binding::command(
        "q Esc Ctrl-C",
        &["quit (mid-game q and Esc ask first)"],
        &[Action::Quit, Action::Escape, Action::Interrupt],
        Command::Quit,
    )
    .short("q Esc", "quit (asks first)"),
];

/// The kinds of board by how their cells are typed, with their titles in the manual.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Board {
    Keypad,
    Coordinates,
    Ultimate,
}

impl Board {
    fn of(position: &Position) -> Board {
        if position.ultimate().is_some() {
            Board::Ultimate
        } else if position.digit(None, 5) == Digit::NoDigits {
            Board::Coordinates
        } else {
            Board::Keypad
        }
    }

    /// The board's keys, in the help's order; with a swap opening's (`swaps`) after the
    /// cells'.
    fn keys(self, swaps: bool) -> impl Iterator<Item = &'static Keys> {
        let (cells, hint): (&'static [Keys], &'static Keys) = match self {
            Board::Keypad => (&KEYPAD, &HINT),
            Board::Coordinates => (&COORDINATES, &HINT),
            Board::Ultimate => (&ULTIMATE, &ULTIMATE_HINT),
        };
        let opening = swaps.then_some(&OPENING);
        let numbers = (self == Board::Coordinates).then_some(&NUMBERS);
        cells
            .iter()
            .chain(opening)
            .chain([&UNDO, hint])
            .chain(&COMMANDS)
            .chain(numbers)
    }
}

/// Move numbers, on the boards named by coordinates (drawn a point a character on Gomoku's
/// and on small screens).
const NUMBERS: Keys = Binding::command(
    "v",
    &["move numbers: the last 10, all, none"],
    &[Action::Numbers],
    Command::Numbers,
)
.short("v", "move numbers");

/// The keys of a swap opening's choice (`--opening`), where Gomoku is opened by one.
const OPENING: Keys = Binding::note(
    "b w 2",
    &[
        "asked to choose in a swap opening: take",
        "black, take white, place two more",
    ],
);

/// The keys of the game on `position`'s board; without the hint where `hints` are off.
pub fn game_keys(position: &Position, hints: bool) -> impl Iterator<Item = &'static Keys> {
    let swaps = position.variant().opening() != Opening::Free;
    Board::of(position)
        .keys(swaps)
        .filter(move |b| hints || b.command != Some(Command::Hint))
}

/// Whether `position`'s board is named by coordinates, where its stones can show their
/// moves' numbers.
pub fn numbers_shown(position: &Position) -> bool {
    Board::of(position) == Board::Coordinates
}

/// The analysis board's own keys, after the board's keys for a move.
const ANALYSIS: [Keys; 10] = [
    Binding::note(
        "z",
        &[
            "set up (keys put stones down, take them",
            "up) or play moves",
        ],
    )
    .short("z", "set up, or moves"),
    Binding::note("Tab", &["set up the side to move's stones, X's, O's"]).short("Tab", "colour"),
    Binding::note("Bksp", &["take up the stone under the cursor"]).short("Bksp", "take up"),
    Binding::note("+ -", &["one line more or fewer (0: the value)"]).short("+ -", "lines"),
    Binding::note("[ ] u", &["back and forward along the line"]).short("[ ]", "back, forward"),
    Binding::note("{ }", &["the other moves tried in this place"]).short("{ }", "variations"),
    Binding::note("paste", &["a move string, record, .psq or game file"]),
    Binding::note("w", &["save the variations to a game file"]).short("w v", "save, numbers"),
    Binding::note("v", &["move numbers on the stones: last 10, all, none"]),
    Binding::note("Esc q", &["back to the game (or quit)"]).short("Esc", "leave"),
];

/// The analysis board's keys on `position`'s board: its moves', then its own.
pub fn analysis_keys(position: &Position) -> impl Iterator<Item = &'static Keys> {
    let cells: &'static [Keys] = match Board::of(position) {
        Board::Keypad => &KEYPAD,
        Board::Coordinates => &COORDINATES,
        Board::Ultimate => &ULTIMATE,
    };
    cells.iter().chain(&ANALYSIS)
}

/// The keys of each kind of board, for the manual: its title, then its keys.
pub fn every_board() -> [(&'static str, Vec<&'static Keys>); 3] {
    [
        ("3×3", Board::Keypad.keys(false).collect()),
        (
            "Larger boards and Gomoku",
            Board::Coordinates.keys(true).collect(),
        ),
        (
            "Ultimate tic-tac-toe",
            Board::Ultimate.keys(false).collect(),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_small_help_box_names_every_command_key_of_every_board() {
        for (title, keys) in every_board() {
            let named: Vec<&str> = keys
                .iter()
                .filter_map(|b| b.short)
                .flat_map(|(keys, _)| keys.split(' '))
                .collect();
            for binding in keys.iter().filter(|b| b.command.is_some()) {
                let first = binding.keys.split(' ').next().unwrap_or_default();
                assert!(
                    named.contains(&first),
                    "{title}: the small box leaves out {}",
                    binding.keys
                );
            }
        }
    }
}
