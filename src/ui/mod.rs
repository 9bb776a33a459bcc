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

use std::path::{Path, PathBuf};

use crate::game::file::GameFile;
use crate::store::games;

/// Saves the analysis board's variations (a game file's `text`) to the first free
/// `tictactoe-N.txt` here, and says where they went or why they did not.
pub fn save_analysis(text: &str) -> String {
    match games::save_text(text, "txt", Path::new(".")) {
        Ok(path) => format!(
            "Saved to {}: tictactoe analyze --open {} opens it again",
            path.display(),
            path.display()
        ),
        Err(e) => format!("The analysis could not be saved: {e}"),
    }
}

/// Saves `game` to the file `to` names (which must not exist yet), or to the first free
/// `tictactoe-N` here, and says where it went or why it did not, as both front ends say it.
pub fn save_game(game: &GameFile, to: Option<&Path>) -> String {
    let saved = match to {
        Some(path) => games::save_as(game, path).map(|()| PathBuf::from(path)),
        None => games::save(game, Path::new(".")),
    };
    match saved {
        Ok(path) => format!(
            "Saved to {}: tictactoe review {} opens it",
            path.display(),
            path.display()
        ),
        Err(e) => format!("The game could not be saved: {e}"),
    }
}
