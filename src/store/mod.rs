//! What is kept on disk between runs, in the player's profile: [`history`] (the finished
//! games, and the one left unfinished), [`settings`], and [`files`] (opening the profile's
//! files safely, whatever someone put there).

pub mod files;
pub mod games;
pub mod history;
pub mod puzzles;
pub mod settings;
