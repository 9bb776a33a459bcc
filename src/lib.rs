//! Tic-tac-toe with a perfect game-tree search, playable in any terminal.
//!
//! The house is its folders, each a layer that uses only the layers below it (a test,
//! `tests/layers.rs`, reads every `use crate::…` and holds it to this order), from the bottom
//! up:
//! - [`text`]: text from outside made safe to print, and lines read with a cap;
//! - [`rules`]: the traits every rule set implements ([`rules::RuleSet`],
//!   [`rules::Notation`]), one folder per rule set ([`rules::classic`],
//!   [`rules::ultimate`], [`rules::gomoku`]) and [`rules::position`], the one enum over them;
//!   they know nothing of the AI or of input and output;
//! - [`ai`]: the searches and the ladder of strengths, reached through [`ai::player`]; they
//!   know nothing of input or output;
//! - [`game`]: a game and a session of rounds, and [`game::record`], a game as data;
//! - [`store`]: the history, the settings and the profile's files;
//! - [`net`]: the connection to the other player and the network session;
//! - [`explain`]: the textbook searches, instrumented to record the tree they visit;
//! - [`report`]: what several front ends print (boards as text, analyze, review, explain);
//! - [`ui`]: the front ends (terminal, plain lines, engine protocols) and the driver that runs
//!   a game the same way under each;
//! - [`cli`], the command line, and [`commands`], what each command runs, with the
//!   binary's thin `main.rs` on top.
//!
//! ```
//! use tictactoe::rules::classic::Board;
//! use tictactoe::ai::search::{Searcher, Value};
//!
//! // X on 7 and 8, O on 4 and 5: X to move completes the top row on 9.
//! let board: Board = "XX./OO./...".parse()?;
//! let mut searcher = Searcher::new();
//! assert_eq!(searcher.value(&board), Some(Value::Win(1)));
//! let (cell, value) = searcher.best_move(&board).unwrap();
//! assert_eq!((cell.to_string(), value.to_string()), ("9".into(), "win in 1".into()));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod ai;
pub mod cli;
pub mod commands;
pub mod explain;
pub mod game;
pub mod net;
pub mod report;
pub mod rules;
pub mod store;
pub mod text;
pub mod ui;
