//! The AIs, above the rules and knowing nothing of input or output: [`search`] (negamax with
//! proofs, pairing and mirror strategies, for classic boards), [`mcts`] (Monte Carlo tree
//! search guided by a learned value, for Ultimate), [`threats`] and [`five`] (threat-space
//! and alpha-beta search for Gomoku), [`levels`] (the ladder of strengths, rated with
//! [`rating`]), and [`player`], the one dispatch from a rule set to its engine that the game
//! and the front ends call.

pub mod connect_four;
pub mod five;
pub mod levels;
pub mod mcts;
pub mod opening;
pub mod player;
pub mod rating;
pub mod search;
pub mod threats;
