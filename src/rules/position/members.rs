//! Each rule set's declaration as a [`Member`](super::Member) of
//! [`Position`](super::Position), one file each, and the cells every square board's moves are
//! ([`cells`]): all a rule set adds to the enums the rest of the program passes around.

mod cells;
mod classic;
mod connect_four;
mod gomoku;
mod ultimate;
