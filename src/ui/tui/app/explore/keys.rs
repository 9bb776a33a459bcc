//! The explorer's keys: while walking the tree, in step mode, and at any time, for each kind
//! of search. [`super::Explore`] acts on a key by looking it up here, and its help is written
//! from the same maps.

use crate::ui::tui::input::{Action, Direction};
use crate::ui::tui::keymap::Binding;

/// What a key asks of the explorer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Command {
    /// The selection one move up or down the list.
    Previous,
    Next,
    /// Into the selected move.
    Into,
    /// A digit: a move by its keypad name (its action says which).
    Digit,
    /// Back up the tree (or cancel a board typed first).
    Back,
    Step,
    /// The next search: the next algorithm, or between the textbook searches and the tree.
    Switch,
    /// More or fewer iterations.
    More,
    Fewer,
    Close,
    /// Close, and act on the key as the screen under the explorer would.
    Leave,
    /// Step mode's keys.
    RunPause,
    Forward,
    Backward,
    ToEnd,
    ToStart,
    Faster,
    Slower,
    LeaveStep,
}

type Keys = Binding<Command>;

const DIGITS: &[Action] = &[
    Action::Digit(1),
    Action::Digit(2),
    Action::Digit(3),
    Action::Digit(4),
    Action::Digit(5),
    Action::Digit(6),
    Action::Digit(7),
    Action::Digit(8),
    Action::Digit(9),
];

/// The keys that move in the tree, told by each kind's first line.
const PREVIOUS: Keys = Binding::hidden(&[Action::Move(Direction::Up)], Command::Previous);
const NEXT: Keys = Binding::hidden(&[Action::Move(Direction::Down)], Command::Next);
const INTO: Keys = Binding::hidden(
    &[Action::Activate, Action::Move(Direction::Right)],
    Command::Into,
);
const DIGIT: Keys = Binding::hidden(DIGITS, Command::Digit);

const KEYPAD_INTO: Keys = Binding::note("1-9 Enter →", &["go into a move (↑ ↓ choose one)"])
    .short("1-9 Enter", "into a move");

const BACK: Keys = Binding::command(
    "Bksp Esc ←",
    &["back up the tree"],
    &[Action::Back, Action::Escape, Action::Move(Direction::Left)],
    Command::Back,
)
.short("Bksp Esc", "back up");

/// Step mode's keys; `s` or Esc leaves it.
const RUN: Keys = Binding::command(
    "Space",
    &["step mode: run or pause"],
    &[Action::Activate],
    Command::RunPause,
);
const FORWARD: Keys = Binding::command(
    "→ ←",
    &["step mode: one step on or back"],
    &[Action::Move(Direction::Right), Action::Digit(6)],
    Command::Forward,
);
const TO_END: Keys = Binding::command(
    "1 7",
    &["step mode: to the end, to the start"],
    &[Action::Digit(1)],
    Command::ToEnd,
);
const BACKWARD: Keys = Binding::hidden(
    &[Action::Move(Direction::Left), Action::Digit(4)],
    Command::Backward,
);
const TO_START: Keys = Binding::hidden(&[Action::Digit(7)], Command::ToStart);
const SPEED: Keys = Binding::command(
    "+ -",
    &["step mode: faster, slower"],
    &[Action::Faster, Action::Draw],
    Command::Faster,
);
const SLOWER: Keys = Binding::hidden(&[Action::Slower], Command::Slower);
const LEAVE_STEP: Keys = Binding::hidden(
    &[Action::Step, Action::Escape, Action::Back],
    Command::LeaveStep,
);

/// The keys at any time.
pub const ALWAYS: [Keys; 3] = [
    Binding::command(
        "t",
        &["close the explorer"],
        &[Action::Explore],
        Command::Close,
    )
    .short("t", "close"),
    Binding::command(
        "q Ctrl-C",
        &["quit"],
        &[Action::Quit, Action::Interrupt],
        Command::Leave,
    )
    .short("q", "quit"),
    Binding::hidden(&[Action::NewRound, Action::Panic], Command::Leave),
];

/// The textbook searches while walking the tree.
pub const TEXTBOOK: [Keys; 8] = [
    KEYPAD_INTO,
    PREVIOUS,
    NEXT,
    INTO,
    DIGIT,
    BACK,
    Binding::command(
        "a",
        &[
            "the next algorithm (totals below),",
            "after symmetry the Monte Carlo tree",
        ],
        &[Action::Analyse],
        Command::Switch,
    )
    .short("a", "next algorithm"),
    Binding::command(
        "s",
        &["step mode: replay the search"],
        &[Action::Step],
        Command::Step,
    )
    .short("s", "step mode"),
];

/// The textbook searches in step mode, with what their values mean.
pub const TEXTBOOK_STEPS: [Keys; 10] = [
    RUN,
    FORWARD,
    BACKWARD,
    TO_END,
    TO_START,
    SPEED,
    SLOWER,
    LEAVE_STEP,
    Binding::hidden(&[Action::Analyse], Command::Switch),
    Binding::note(
        "values",
        &[
            "+1 X wins, 0 draw, -1 O wins;",
            "≥ ≤ a bound after a cut-off",
        ],
    ),
];

/// `+` and `-` in the Monte Carlo tree.
const ITERATIONS: Keys = Binding::command(
    "+ -",
    &["more or fewer iterations"],
    &[Action::Faster, Action::Draw],
    Command::More,
);
const FEWER: Keys = Binding::hidden(&[Action::Slower], Command::Fewer);
const MCTS_STEP: Keys = Binding::command(
    "s",
    &["step mode: the first iterations"],
    &[Action::Step],
    Command::Step,
)
.short("s", "step mode");

/// The Monte Carlo tree of Ultimate while walking it; `a` says why there is nothing else.
pub const ULTIMATE: [Keys; 11] = [
    Binding::note(
        "2 digits",
        &[
            "go into a move: board, then cell",
            "(one digit when sent to a board)",
        ],
    )
    .short("55 Enter", "into a move"),
    Binding::note("↑ ↓ Enter →", &["choose a move, go into it"]),
    PREVIOUS,
    NEXT,
    INTO,
    DIGIT,
    BACK,
    ITERATIONS.short("+ -", "iterations"),
    FEWER,
    Binding::hidden(&[Action::Analyse], Command::Switch),
    MCTS_STEP,
];

/// The Monte Carlo tree of a classic board while walking it, `a` going back to the textbook
/// searches.
pub const CLASSIC_MCTS: [Keys; 10] = [
    KEYPAD_INTO,
    PREVIOUS,
    NEXT,
    INTO,
    DIGIT,
    BACK,
    ITERATIONS,
    FEWER,
    Binding::command(
        "a",
        &["back to the textbook searches"],
        &[Action::Analyse],
        Command::Switch,
    )
    .short("a", "textbook searches"),
    MCTS_STEP,
];

/// The Monte Carlo tree in step mode.
pub const MCTS_STEPS: [Keys; 8] = [
    RUN, FORWARD, BACKWARD, TO_END, TO_START, SPEED, SLOWER, LEAVE_STEP,
];
