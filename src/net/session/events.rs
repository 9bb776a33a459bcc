//! What a network game tells the front end ([`NetEvent`]), each as the sentence a player is
//! told.

use std::fmt;
use std::time::Duration;

use super::RemoteMoveError;
use crate::game::record::RecordError;
use crate::net::failure::{JoinError, RefusalNotice};
use crate::net::peer::Peer;
use crate::rules::classic::Mark;
use crate::rules::position::Move;

/// What a network game tells the front end. Each prints, with `Display`, the sentence a
/// player is told (without a full stop; a front end adds its own ending).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetEvent {
    /// (Host) the first player joined, from `addr`.
    Joined {
        addr: Peer,
    },
    /// (Host) the player is back after a lost connection.
    Back {
        mark: Mark,
        addr: Peer,
    },
    /// The other player's move, checked and played.
    OpponentMoved {
        mark: Mark,
        mv: Move,
    },
    /// The other player's move was wrong: it was refused and the connection closed; the
    /// game is unchanged.
    MoveRefused {
        mark: Mark,
        error: RemoteMoveError,
    },
    /// The other player asked for a rematch during a game: refused, connection closed.
    RematchRefused {
        mark: Mark,
    },
    /// The other player asks for a rematch.
    RematchOffered {
        mark: Mark,
    },
    /// Both asked for a rematch: the front end starts the next round.
    NewRound,
    /// The other player resigned: the game is over.
    Resigned {
        mark: Mark,
    },
    /// The other player offers a draw; it stands until this side moves.
    DrawOffered {
        mark: Mark,
    },
    /// The other player accepted this side's offer: the game is drawn.
    DrawAgreed,
    /// (Joiner) the host's clock says `mark`'s flag fell: the game is lost on time.
    TimeOut {
        mark: Mark,
    },
    OpponentLeft {
        mark: Mark,
    },
    /// The connection is gone; `rejoining`: this side is trying to get back in for that
    /// long (the joiner), otherwise it waits for the other player to come back (the host).
    ConnectionLost {
        mark: Mark,
        why: String,
        rejoining: Option<Duration>,
    },
    /// (Joiner) back in: the game is now the host's.
    Rejoined,
    /// (Joiner) the host did not take us back, or is gone; the game cannot go on. `kept`:
    /// the game was kept to be continued.
    RejoinFailed {
        error: JoinError,
        kept: bool,
    },
    /// (Joiner) the host's game does not replay here; the game cannot go on.
    Desynced(RecordError),
    /// The other side's error message, made printable and cut to [`REMOTE_TEXT`].
    Reported {
        mark: Mark,
        text: String,
    },
    /// (Host) connections refused.
    Refused(RefusalNotice),
    /// How many watch the game now.
    Watching {
        count: usize,
    },
    /// (Watcher) the players began game `round`.
    WatchedRound {
        round: u32,
    },
    /// (Watcher) the game can be watched no more, and why.
    WatchOver(String),
    /// (Watcher) the player who joined, `name` as the host shows it and playing `mark`, came,
    /// lost its connection, came back or left.
    Seat {
        mark: Mark,
        name: String,
        news: SeatNews,
    },
    /// (Joiner) the host's news of a long game does not fit the game here: it cannot go on.
    OutOfStep(String),
}

impl fmt::Display for NetEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetEvent::Joined { addr } => write!(f, "{addr} joined"),
            NetEvent::Back { mark, addr } => write!(f, "{mark} is back ({addr})"),
            NetEvent::OpponentMoved { mark, mv } => write!(f, "{mark} (remote) plays {mv}"),
            NetEvent::Resigned { mark } => write!(f, "{mark} (remote) resigned"),
            NetEvent::DrawOffered { mark } => write!(f, "{mark} (remote) offers a draw"),
            NetEvent::DrawAgreed => write!(f, "Draw agreed"),
            NetEvent::TimeOut { mark } => write!(f, "{mark} ran out of time"),
            NetEvent::Watching { count: 1 } => write!(f, "1 person watches"),
            NetEvent::Watching { count } => write!(f, "{count} people watch"),
            NetEvent::WatchedRound { round } => write!(f, "Game {round} begins"),
            NetEvent::WatchOver(why) => write!(f, "Nothing more to watch: {why}"),
            NetEvent::OutOfStep(why) => {
                write!(
                    f,
                    "This game and the host's differ ({why}): it cannot go on"
                )
            }
            NetEvent::MoveRefused { mark, error } => {
                write!(f, "Refused a move from {mark}: {error}")
            }
            NetEvent::RematchRefused { mark } => {
                write!(f, "Refused a message from {mark}: {RematchRefusal}")
            }
            NetEvent::RematchOffered { mark } => write!(f, "{mark} asks for a rematch"),
            NetEvent::NewRound => write!(f, "A rematch: a new game starts"),
            NetEvent::OpponentLeft { mark } => write!(f, "{mark} left the game"),
            NetEvent::ConnectionLost {
                mark,
                why,
                rejoining: None,
            } => write!(
                f,
                "{mark}'s connection was lost ({why}); waiting for them to rejoin"
            ),
            NetEvent::ConnectionLost {
                mark,
                why,
                rejoining: Some(window),
            } => write!(
                f,
                "The connection to {mark} was lost ({why}); trying to get back in for {} s (q leaves)…",
                window.as_secs()
            ),
            NetEvent::Rejoined => write!(f, "Back in"),
            NetEvent::RejoinFailed { error, kept } => {
                write!(f, "Could not get back in: {error}")?;
                if *kept {
                    write!(f, ". The game is kept: c on the start screen continues it")?;
                }
                Ok(())
            }
            NetEvent::Desynced(e) => write!(f, "The host's game does not replay here: {e}"),
            NetEvent::Reported { mark, text } => write!(f, "{mark}'s side reports: {text}"),
            NetEvent::Refused(notice) => write!(f, "{notice}"),
            NetEvent::Seat { mark, name, news } => match news {
                SeatNews::Joined => write!(f, "{name} joined and plays {mark}"),
                SeatNews::Lost => write!(
                    f,
                    "{mark}'s connection to the host was lost; waiting for them to rejoin"
                ),
                SeatNews::Back => write!(f, "{mark} is back ({name})"),
                SeatNews::Left => write!(f, "{mark} ({name}) left the game"),
            },
        }
    }
}

/// What a watcher hears of the player who joined.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeatNews {
    Joined,
    Lost,
    Back,
    Left,
}

/// Why a rematch asked for during a game is refused.
pub(super) struct RematchRefusal;

impl fmt::Display for RematchRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a rematch can only be asked for after a game")
    }
}
