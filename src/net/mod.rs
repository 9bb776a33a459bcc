//! Play over the network, below the front ends: the protocol (messages, framing, limits), the
//! connection ([`link`]), the host's handshake ([`host`]) and the joiner's ([`join`]), and
//! the [`session`] that turns it all into typed events both front ends consume; [`setup`]
//! gets a game to that point, and [`discover`] finds a host on the same network. Each side
//! checks every move with its own rules.

pub mod discover;
pub mod failure;
mod gate;
pub mod host;
pub mod join;
pub mod link;
#[cfg(feature = "online")]
pub mod online;
pub mod peer;
pub mod protocol;
pub mod seal;
pub mod session;
pub mod setup;
pub mod stream;
pub mod watchers;
