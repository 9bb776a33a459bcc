//! The puzzles found in the person's own games, kept beside the history (`puzzles.json`):
//! each position where a side a person played had a proven win and played a move that did
//! not keep it, whether it has been solved and how often it was tried, and the games already
//! searched, so that each game is searched once.
//!
//! The file is written whole or not at all ([`history::replace_whole`]); one that cannot be
//! read (edited, cut short, of a later version) is moved aside to `puzzles.json.damaged`, with
//! a warning, and the puzzles start afresh; where it cannot be moved, nothing is written over
//! it.

use std::io;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::store::history;

/// The file's name in the profile directory.
pub const FILE: &str = "puzzles.json";

/// The largest puzzle file read.
const LARGEST: u64 = 8 << 20;

/// One puzzle: the game it comes from and the position, as its rules' flags and the moves
/// that lead to it (a `Record:` line's words), with the value the mover missed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Kept {
    /// When its game ended, as the history says (`2026-12-04T21:07:00Z`).
    pub game: String,
    /// The number of the move that missed the win, from 1.
    pub number: usize,
    /// The rules' flags, as `Record:` lines give them (empty for classic 3×3).
    pub rules: String,
    /// The moves before it, from the empty board.
    pub moves: Vec<String>,
    /// The move played instead.
    pub played: String,
    /// Plies to the win the mover had (the win in N a search proved).
    pub plies: u32,
    #[serde(default)]
    pub solved: bool,
    #[serde(default)]
    pub tries: u32,
}

/// What the file holds.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Puzzles {
    /// The puzzles, in the order their games were played.
    pub puzzles: Vec<Kept>,
    /// The games searched already, each by the time it ended and its record.
    pub searched: Vec<String>,
}

impl Puzzles {
    /// How many puzzles there are, and how many are solved.
    pub fn counts(&self) -> (usize, usize) {
        let solved = self.puzzles.iter().filter(|p| p.solved).count();
        (self.puzzles.len(), solved)
    }
}

/// The file of the profile, where there is a profile directory.
pub fn path() -> Option<PathBuf> {
    history::profile_dir().map(|dir| dir.join(FILE))
}

/// The puzzles kept; none where there is no file yet, and none, with a warning, where it
/// cannot be read and was moved aside ([`DAMAGED`]). An error where it could not be moved:
/// it is then left as it is, for nothing to write over it.
pub fn load() -> io::Result<Puzzles> {
    let Some(path) = path() else {
        return Ok(Puzzles::default());
    };
    let why = match crate::store::files::read_at_most(&path, LARGEST) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Puzzles::default()),
        Err(e) => format!("could not be read ({e})"),
        Ok(bytes) => match serde_json::from_slice(&bytes) {
            Ok(puzzles) => return Ok(puzzles),
            Err(e) => format!("is not a puzzle file ({e})"),
        },
    };
    let aside = path.with_file_name(DAMAGED);
    std::fs::rename(&path, &aside).map_err(|e| {
        io::Error::new(
            e.kind(),
            format!(
                "{} {why}, and could not be moved aside: {e}",
                path.display()
            ),
        )
    })?;
    history::warn(&format!(
        "{} {why}: it is kept as {} and the puzzles start afresh",
        path.display(),
        aside.display()
    ));
    Ok(Puzzles::default())
}

/// Where a puzzle file that cannot be read is moved.
pub const DAMAGED: &str = "puzzles.json.damaged";

/// Keeps `puzzles` in the profile, whole.
pub fn save(puzzles: &Puzzles) -> io::Result<()> {
    let Some(path) = path() else {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            "no data directory to keep puzzles in",
        ));
    };
    let text = serde_json::to_string_pretty(puzzles).map_err(io::Error::other)?;
    history::replace_whole(&path, (text + "\n").as_bytes())
}
