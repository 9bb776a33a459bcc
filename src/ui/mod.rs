//! The front ends, on top of everything but the command line: [`tui`] (the full-screen
//! terminal game) and [`plain`] (lines, for pipes and scripts), which drive a game through
//! [`driver`] once for every rule set; [`engine`], the engine protocols (Gomocup, CodinGame)
//! over the same AI; and their small helpers, [`keypad`] (how moves are typed and where they
//! lie on the screen) and [`waiting`] (the waits before a network game that a key cancels).

pub mod driver;
pub mod engine;
pub mod keypad;
pub mod plain;
pub mod tui;
pub mod waiting;
