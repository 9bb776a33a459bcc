//! Why a connection was refused (the host's side) or a join failed (the joiner's side): the
//! typed errors the sessions and front ends branch on, each with its sentence in `Display`.

use std::fmt;
use std::time::Duration;

use crate::net::peer::Peer;
use crate::net::protocol::{PROTOCOL, ProtocolError, RefusalKind};
use crate::rules::position::RulesDataError;
use crate::text::grouped;

/// How long a new connection has to send its whole hello.
pub const HELLO_WITHIN: Duration = Duration::from_secs(3);

/// The longest a host makes an answer after the key exchange wait, welcome or refusal: the
/// more wrong codes it has been sent of late, the longer, so guessing the code is slow.
pub const ANSWER_DELAY_MAX: Duration = Duration::from_secs(3);

/// How long a joiner whose connection was lost keeps trying to get back in before it says
/// the host is gone (docs/network.md).
pub const REJOIN_WINDOW: Duration = Duration::from_mins(1);

/// The environment variable that shortens [`REJOIN_WINDOW`] to a number of seconds, for
/// tests of a host that is gone.
pub const REJOIN_WINDOW_VAR: &str = "TICTACTOE_REJOIN_WINDOW";

/// How long a joiner keeps trying to get back in: [`REJOIN_WINDOW`], or the whole seconds in
/// [`REJOIN_WINDOW_VAR`] where it is set to a number from 1 to 60.
pub fn rejoin_window() -> Duration {
    std::env::var(REJOIN_WINDOW_VAR)
        .ok()
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|s| (1..=REJOIN_WINDOW.as_secs()).contains(s))
        .map_or(REJOIN_WINDOW, Duration::from_secs)
}

/// Why the host refused a connection: sent to it as an `error` (the text, and the
/// [`RefusalKind`]) and counted for the host's screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    WrongCode,
    /// A game is in progress with another player.
    InProgress,
    /// No place now: it gave its place to a newer connection, or too many wait already.
    Busy,
    /// The hello had not arrived after [`HELLO_WITHIN`].
    NoHello,
    /// The connection closed or failed before its hello.
    Closed,
    /// The first line is not a message of this game.
    Junk(ProtocolError),
    NotHello,
    /// A hello without the key exchange, or with one that is not one.
    NoExchange,
    /// A hello of another protocol version.
    Version(u32),
    /// A watcher, when as many watch as the host takes (this many).
    Full(usize),
}

impl Refusal {
    pub fn kind(&self) -> RefusalKind {
        match self {
            Refusal::WrongCode => RefusalKind::WrongCode,
            Refusal::InProgress => RefusalKind::InProgress,
            Refusal::Busy => RefusalKind::Busy,
            Refusal::Full(_) => RefusalKind::Full,
            Refusal::NoHello | Refusal::Closed => RefusalKind::Timeout,
            Refusal::Junk(_) | Refusal::NotHello | Refusal::NoExchange | Refusal::Version(_) => {
                RefusalKind::BadHello
            }
        }
    }

    /// A word or two for the summary of many.
    pub fn label(&self) -> &'static str {
        match self {
            Refusal::WrongCode => "wrong code",
            Refusal::InProgress => "game in progress",
            Refusal::Busy => "busy",
            Refusal::Full(_) => "watchers full",
            Refusal::NoHello => "no hello",
            Refusal::Closed => "closed early",
            Refusal::Junk(_) | Refusal::NotHello | Refusal::NoExchange | Refusal::Version(_) => {
                "bad hello"
            }
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::WrongCode => write!(f, "wrong code"),
            Refusal::InProgress => write!(f, "a game is already in progress with another player"),
            Refusal::Busy => write!(f, "the host is busy: try again in a moment"),
            Refusal::Full(0) => write!(f, "this host takes no watchers"),
            Refusal::Full(n) => write!(f, "{n} watch already, as many as this host takes"),
            Refusal::NoHello => write!(f, "no hello within {} s", HELLO_WITHIN.as_secs()),
            Refusal::Closed => write!(f, "it closed without a hello"),
            Refusal::Junk(e) => write!(f, "{e}"),
            Refusal::NotHello => write!(f, "the first message must be hello"),
            Refusal::NoExchange => write!(f, "hello without a key exchange"),
            Refusal::Version(v) => write!(
                f,
                "protocol version {v} is not spoken here (this host speaks {PROTOCOL}): both players need the same version of tictactoe"
            ),
        }
    }
}

/// What the host's screen is told about refused connections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefusalNotice {
    /// One refusal, shown by itself.
    One {
        from: Option<Peer>,
        refusal: Refusal,
    },
    /// Refusals not shown one by one in the last `within`, counted by label.
    More {
        within: Duration,
        counts: Vec<(&'static str, u64)>,
    },
}

impl fmt::Display for RefusalNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RefusalNotice::One {
                from: Some(addr),
                refusal,
            } => write!(f, "Refused a connection from {addr}: {refusal}"),
            RefusalNotice::One {
                from: None,
                refusal,
            } => {
                write!(f, "Refused a connection: {refusal}")
            }
            RefusalNotice::More { within, counts } => {
                let total: u64 = counts.iter().map(|(_, n)| n).sum();
                let s = if total == 1 { "" } else { "s" };
                let parts: Vec<String> = counts
                    .iter()
                    .map(|(label, n)| format!("{label} {}", grouped(*n)))
                    .collect();
                write!(
                    f,
                    "Refused {} more connection{s} in the last {} s ({})",
                    grouped(total),
                    within.as_secs(),
                    parts.join(", ")
                )
            }
        }
    }
}

/// Why joining (or rejoining) did not work.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JoinError {
    /// The address names no host.
    Find { target: String, why: String },
    /// No connection could be made (`addr`: the host's name).
    Connect { addr: String, why: String },
    /// The connection failed or timed out during the handshake.
    Failed { addr: String, why: String },
    /// The host closed the connection without an answer.
    Closed(String),
    /// What answered is not a tictactoe host.
    NotAHost(String),
    /// The host refused, saying why (`kind` from a host that says which kind); `verified`
    /// where the refusal came sealed, after the code was proven, so only the host could have
    /// written it. Before that anyone on the way could have.
    Refused {
        kind: Option<RefusalKind>,
        message: String,
        verified: bool,
    },
    /// After the code was proven, an answer came unsealed: not the host's (only it can seal),
    /// so not believed; the connection is taken as lost.
    Unsealed(String),
    /// The host speaks another protocol version.
    Version(u32),
    /// The host could not open what was sealed with the code, nor seal its answer with it:
    /// it does not know the code (or it was mistyped). Nothing of the code was sent.
    Unproven(String),
    /// The host's rules are not playable here.
    Rules(RulesDataError),
    /// Every try within the rejoin window (`after`) failed: the host is gone. The last
    /// try's error.
    GaveUp {
        after: Duration,
        last: Box<JoinError>,
    },
}

impl JoinError {
    /// Whether trying again may work: a busy host, a timeout, a reset or no answer. A wrong
    /// code, a game with another player, another version or other rules will not change.
    pub fn is_passing(&self) -> bool {
        match self {
            JoinError::Connect { .. }
            | JoinError::Failed { .. }
            | JoinError::Closed(_)
            | JoinError::Unsealed(_) => true,
            JoinError::Refused {
                kind: Some(kind), ..
            } => kind.is_passing(),
            _ => false,
        }
    }

    /// Whether a rejoin stops at this: what will not change, and only where the host said
    /// it. The code was proven when the game began, so an answer that does not open with it
    /// now, or a refusal in the clear (the host seals every refusal it makes after the key
    /// exchange, and before it says only what passes), is someone on the way: the rejoin
    /// goes on trying.
    pub fn ends_a_rejoin(&self) -> bool {
        !self.is_passing()
            && !matches!(
                self,
                JoinError::Unproven(_)
                    | JoinError::Refused {
                        verified: false,
                        ..
                    }
            )
    }

    /// Whether this is the host saying it is busy (or that the hello came too slowly).
    pub fn is_busy(&self) -> bool {
        matches!(self, JoinError::Refused { kind: Some(kind), .. } if kind.is_passing())
    }
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JoinError::Find { target, why } => write!(f, "cannot find {target}: {why}"),
            JoinError::Connect { addr, why } => write!(f, "cannot connect to {addr}: {why}"),
            JoinError::Failed { addr, why } => write!(f, "the connection to {addr} failed: {why}"),
            JoinError::Closed(addr) => write!(f, "{addr} closed the connection"),
            JoinError::NotAHost(addr) => write!(f, "{addr} did not answer like a tictactoe host"),
            JoinError::Refused {
                message,
                verified: true,
                ..
            } => write!(f, "the host refused: {message}"),
            JoinError::Refused { message, .. } => write!(
                f,
                "the host refused: {message} (unverified: said before the code was proven)"
            ),
            JoinError::Unsealed(addr) => write!(
                f,
                "{addr} answered unsealed after the code was proven: not the host's word, not believed"
            ),
            JoinError::Version(v) => write!(
                f,
                "the host speaks protocol version {v}, this program {PROTOCOL}: both players need the same version of tictactoe"
            ),
            JoinError::Unproven(addr) => write!(
                f,
                "the code did not match: {addr} could not prove it knows this code (check the code the host printed; nothing of the code was sent)"
            ),
            JoinError::Rules(why) => write!(f, "the host's rules are not playable here: {why}"),
            JoinError::GaveUp { after, last } => write!(
                f,
                "the host is gone: no answer in {} s ({last})",
                after.as_secs()
            ),
        }
    }
}

impl std::error::Error for JoinError {}
