//! Play over the network: the protocol (messages, framing, limits) and the connection
//! (listening, joining, the handshake, heartbeats, rejoining). The front ends check every move
//! with their own rules and treat the other player as one more kind of player.

pub mod peer;
pub mod protocol;
