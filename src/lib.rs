//! Tic-tac-toe with a perfect game-tree search, playable in any terminal.
//!
//! The rules ([`board`]) know nothing of the AI; the AI ([`search`], [`player`]) knows nothing
//! of input or output; the front ends ([`plain`], [`analyze`], [`review`] and the full-screen
//! terminal game in [`tui`]) drive a [`game::Game`] within a [`game::Session`]. A game is a
//! [`record::Record`], which [`review`] judges move by move. [`net`] carries a game between two
//! machines. [`ultimate`] and [`mcts`] are Ultimate tic-tac-toe's rules and AI; [`position`]
//! is the one interface over both rule sets that the game, records and front ends use.
//!
//! ```
//! use tictactoe::board::Board;
//! use tictactoe::search::{Searcher, Value};
//!
//! // X on 7 and 8, O on 4 and 5: X to move completes the top row on 9.
//! let board: Board = "XX./OO./...".parse()?;
//! let mut searcher = Searcher::new();
//! assert_eq!(searcher.value(&board), Some(Value::Win(1)));
//! let (cell, value) = searcher.best_move(&board).unwrap();
//! assert_eq!((cell.to_string(), value.to_string()), ("9".into(), "win in 1".into()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod analyze;
pub mod board;
pub mod cli;
pub mod game;
mod geometry;
pub mod line;
pub mod mcts;
pub mod net;
pub mod plain;
pub mod player;
pub mod position;
pub mod record;
pub mod review;
pub mod search;
pub mod tui;
pub mod ultimate;
