//! Tic-tac-toe with a perfect game-tree search, playable in any terminal.
//!
//! The house, from the bottom up:
//! - rules: [`board`] (classic N×N, k in a row, misère) and [`ultimate`], each a
//!   [`rules::RuleSet`] with its [`rules::Notation`], and [`position`], the one enum over
//!   them that forwards to those traits; they know nothing of the AI or of input and output;
//!   [`keypad`]: how moves are typed on the keypad and lie on the screen's grid, for the
//!   front ends;
//! - AIs: [`search`] (negamax with proofs), [`mcts`] (Ultimate) and [`levels`] (the ladder of
//!   strengths, rated with [`rating`]), reached through one dispatch, [`player::Brain`]; they
//!   know nothing of input or output;
//! - a game: [`game::Game`] and [`game::Session`], and [`record::Record`], a game as data;
//!   [`history`], the finished games kept on disk;
//! - [`net`]: the connection to the other player and the network session;
//! - [`driver`]: a game run the same way under every front end (whose turn, who may move,
//!   moves typed ahead, the AI's move, the network game's part), below both;
//! - [`explain`]: the textbook searches (minimax, alpha-beta and its refinements),
//!   instrumented to record the tree they visit, for people learning game search;
//! - [`report`]: what several front ends print (boards as text, [`report::analyze`],
//!   [`report::review`], [`report::explain`]);
//! - front ends: [`plain`] (lines) and [`tui`] (the full-screen terminal game), which drive a
//!   game through the interface above, once for every rule set; [`waiting`]: the waits
//!   before a network game that a key cancels, for both; [`engine`]: the engine protocols
//!   (Gomocup, CodinGame), glue over the same AI.
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

pub mod board;
pub mod cli;
pub mod driver;
pub mod engine;
pub mod explain;
pub mod files;
pub mod five;
pub mod game;
mod geometry;
pub mod gomoku;
pub mod history;
pub mod keypad;
pub mod levels;
pub mod line;
pub mod mcts;
pub mod net;
pub mod plain;
pub mod player;
pub mod position;
pub mod rating;
pub mod record;
pub mod report;
pub mod rules;
pub mod search;
pub mod settings;
pub mod text;
pub mod threats;
pub mod tui;
pub mod ultimate;
pub mod waiting;
