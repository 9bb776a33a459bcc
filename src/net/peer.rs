//! Who is at the other end of a connection, whatever carries it: a TCP address, or the key
//! a peer-to-peer endpoint proves it holds. The host shares its handshake places by
//! [`PeerKey`], and people read the [`Peer`]'s name.

use std::fmt;
use std::net::{IpAddr, SocketAddr};

/// What the host shares its places by: one key per person as far as it can tell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PeerKey {
    /// A TCP connection's address (the port is left out: one machine, one share).
    Ip(IpAddr),
    /// An online peer's endpoint key, proved by the connection's handshake.
    Endpoint([u8; 32]),
}

/// The other end of a connection: its key, and its name for people (`127.0.0.1:5144`, or an
/// online peer's short id with how it is connected).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Peer {
    key: PeerKey,
    name: String,
    /// The side's name in the game: the address without its port, or the short id.
    label: String,
}

impl Peer {
    pub fn online(key: [u8; 32], label: String, name: String) -> Peer {
        Peer {
            key: PeerKey::Endpoint(key),
            name,
            label,
        }
    }

    pub fn key(&self) -> PeerKey {
        self.key
    }

    /// The side's name in the game.
    pub fn label(&self) -> &str {
        &self.label
    }
}

impl From<SocketAddr> for Peer {
    fn from(addr: SocketAddr) -> Peer {
        Peer {
            key: PeerKey::Ip(addr.ip()),
            name: addr.to_string(),
            label: addr.ip().to_string(),
        }
    }
}

impl fmt::Display for Peer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}
