//! What more than one front end prints: boards as text ([`board`]), the analysis of a
//! position ([`analyze`]), the review of a game ([`review`]), the tree a textbook search
//! visits ([`explain`]) and Ultimate's Monte Carlo tree ([`explain::mcts`]), the statistics of the history ([`stats`]), the rules of each game ([`rules`]) and values in JSON
//! ([`json`]).
//! Reports are made from the rule-set interface ([`crate::rules::position`]) and the AI's answers
//! ([`crate::ai::player::Brain`]), once for every rule set.

pub mod analyze;
pub mod board;
pub mod explain;
pub mod json;
pub mod puzzles;
pub mod review;
pub mod rules;
pub mod stats;
mod tree;
