//! The network protocol: newline-delimited JSON messages of at most [`MAX_LINE`] bytes,
//! versioned by [`PROTOCOL`], and the limits on what the other side may send.
//!
//! A session between a host and the player who joins it (protocol 3):
//!
//! 1. The joiner connects and sends `hello`: the protocol version, its program version and
//!    its half of the key exchange made with the join code (`pake`). The code itself is never
//!    sent ([`crate::net::seal`]).
//! 2. The host answers with its own `hello` and half of the exchange, or with `error` (the
//!    [`RefusalKind`] as `kind`) and closes the connection.
//! 3. From here every line is sealed with the exchange's key. The joiner sends `join` (coming
//!    back after a lost connection, with the token the host gave it; `hints: true` if this
//!    player asks for hints). A host that cannot
//!    open it had another code: it answers `error` (kind `wrong_code`, not sealed) after a
//!    delay. Otherwise it sends `welcome`: the rules, the state of the session (the round,
//!    the score and the moves of the current game, so that a player who rejoins gets the
//!    exact game back), a token for coming back and `hints`, whether the host asks for
//!    hints. Hints (and the explorer) are on in the game only when both sides asked; a
//!    program that sends no `hints` (before they were agreed on) counts as not asking. A
//!    joiner that cannot open the welcome is talking to a host that does not know the code,
//!    and leaves.
//! 4. Then either side sends `move` (on its own turn), `rematch` (after a game; a new game
//!    starts when both have sent it), `ping` (every [`HEARTBEAT`], with an `id` the other
//!    side echoes at once in a `ping` of its own, which times the round trip; a program
//!    that does not echo is allowed the most lag) and `bye` (leaving).
//!    Anything else, anything at the wrong time, or a line that does not open is answered
//!    with `error` and the connection is closed. Each side checks every move with its own
//!    rules; no side ever takes a board from the other.
//!
//! Version 1 sent the code in the joiner's hello, unsealed; it is refused by name.

use std::io::{self, BufRead};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::rules::position::RulesData;
pub use crate::text::{cut, printable};

/// The protocol version spoken here.
pub const PROTOCOL: u32 = 3;
/// The longest message, in bytes, newline included.
pub const MAX_LINE: usize = 1024;
/// The longest line on the wire: a sealed message of [`MAX_LINE`] bytes (and its 16-byte tag)
/// in base64, and its newline.
pub const MAX_WIRE: usize = (MAX_LINE + 16).div_ceil(3) * 4 + 1;
/// How often each side sends `ping`.
pub const HEARTBEAT: Duration = Duration::from_secs(2);
/// Silence after which the other side counts as gone.
pub const SILENCE: Duration = Duration::from_secs(10);
/// The most characters of free text from the other side (an error's message) shown.
pub const REMOTE_TEXT: usize = 120;
/// The longest join code, in characters.
pub const MAX_CODE: usize = 64;

/// Where a session stands, as the host tells it to a player who joins or rejoins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionState {
    /// The round being played, from 1; the host plays X in odd rounds.
    pub round: u32,
    /// Games won by the host and by the joiner, and draws, before this round.
    pub score: [u32; 3],
    /// The moves of the current game, in order, as cell names.
    pub moves: Vec<String>,
    /// The game's clock, where it has one (absent: untimed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockState>,
    /// How the current game ended off the board, if it did (absent: it did not).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ending: Option<EndedState>,
    /// (A welcome) how many more moves of the game follow it in `update`s, a long game's
    /// after the first hundred (absent: none).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub more: u32,
    /// (Host, to a watcher) the player who joined, as the host sees it (absent: no one yet).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joiner: Option<JoinerState>,
}

/// The longest name a host sends for the player who joined (its address or short id are
/// shorter): the longest welcome stays within the line.
pub const JOINER_NAME: usize = 48;

/// The player who joined a hosted game, as the host sees it: the name the host shows (its
/// address without the port, or its short id), whether its connection is up now, and
/// whether it has left for good (said goodbye).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JoinerState {
    pub name: String,
    pub here: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub left: bool,
}

impl JoinerState {
    fn printable(self) -> JoinerState {
        JoinerState {
            name: cut(&printable(&self.name), REMOTE_TEXT),
            ..self
        }
    }
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How a game ended off the board, as the host tells it: `how` is `resigned`, `time` (the
/// loser's flag fell) or `agreed` (a draw), and `loser` the mark that lost (`X`, `O`), but
/// for a draw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndedState {
    pub how: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loser: Option<String>,
}

/// A game's clock as the host tells it: the time control as typed (`5+3`, `30s`) and each
/// seat's time left in milliseconds, the first seat's (the player of X before any swap)
/// first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockState {
    pub control: String,
    pub left_ms: [u64; 2],
}

impl ClockState {
    fn printable(self) -> ClockState {
        ClockState {
            control: printable(&self.control),
            ..self
        }
    }
}

impl EndedState {
    fn printable(self) -> EndedState {
        EndedState {
            how: printable(&self.how),
            loser: self.loser.map(|l| printable(&l)),
        }
    }
}

/// One message. Unknown fields are ignored, so a later version may add some.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Message {
    /// The first message each way, the only ones not sealed: the versions, and each side's
    /// half of the key exchange ([`crate::net::seal`]).
    Hello {
        protocol: u32,
        program: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pake: Option<String>,
    },
    /// The joiner's first sealed message. Coming back after a lost connection it shows the
    /// token the host gave it, so the host knows it is the same player.
    Join {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
        /// This player asks for hints (absent: does not).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        hints: bool,
        /// This is a watcher, who sees the game and never plays (absent: a player).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        watch: bool,
    },
    /// The host's first sealed message: the rules, the session as it stands, a token for
    /// coming back, and whether the host asks for hints (absent: it does not).
    Welcome {
        rules: RulesData,
        state: SessionState,
        token: String,
        #[serde(default)]
        hints: bool,
    },
    /// A move: `seq` is its number in the game, from 1; `cell` its name (`5`, `c3`). In a
    /// game with a clock, `spent_ms` is how long its player thought, and the host adds
    /// `left_ms`, each seat's time left after the move as its clock (the referee's) reads.
    Move {
        seq: u32,
        cell: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        spent_ms: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_ms: Option<[u64; 2]>,
    },
    /// (Host) the flag of the player to act after `seq` moves fell: that player lost on time.
    Flag { seq: u32 },
    /// (Host, to a watcher) the session since the last update: the round and score as in
    /// [`SessionState`], the moves of the round after the first `from` (0 for a round the
    /// watcher has not seen), and the clock and ending as they are now.
    Update {
        round: u32,
        score: [u32; 3],
        from: u32,
        moves: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        clock: Option<ClockState>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ending: Option<EndedState>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        joiner: Option<JoinerState>,
    },
    /// (Host) how many watch the game now.
    Watching { count: u32 },
    /// Asks for a new game, or agrees to one.
    Rematch,
    /// I resign the game, `seq` moves into it.
    Resign { seq: u32 },
    /// I offer a draw, or accept yours, `seq` moves into the game: an offer overtaken by a
    /// move (another `seq`) has lapsed.
    Draw { seq: u32 },
    /// I am still here. A ping with an `id` asks to be echoed at once, by a ping whose `echo`
    /// is that id, so its sender can time the way there and back; one without asks nothing.
    Ping {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<u32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        echo: Option<u32>,
    },
    /// I am leaving.
    Bye,
    /// What was wrong with the last message; the connection closes after it. A refused hello
    /// says which kind of refusal it is, for programs to decide by.
    Error {
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kind: Option<RefusalKind>,
    },
}

impl Message {
    /// A ping that asks for nothing back.
    pub fn ping() -> Message {
        Message::Ping {
            id: None,
            echo: None,
        }
    }

    /// An `error` that is not a refused hello.
    pub fn error(message: impl Into<String>) -> Message {
        Message::Error {
            message: message.into(),
            kind: None,
        }
    }
}

/// Why a host refused a hello, as a program reads it (the `kind` of an `error`). A kind this
/// program does not know reads as [`RefusalKind::Other`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RefusalKind {
    /// The join code is wrong.
    WrongCode,
    /// A game is in progress with another player.
    InProgress,
    /// No place for the connection now: worth trying again in a moment.
    Busy,
    /// The hello did not arrive in time.
    Timeout,
    /// The hello was not one this host can take (no code, another protocol version, junk).
    BadHello,
    /// The host takes no more watchers.
    Full,
    #[serde(other)]
    Other,
}

impl RefusalKind {
    /// Whether asking again can help: a busy host or a slow hello, not a wrong code or a
    /// game with someone else.
    pub fn is_passing(self) -> bool {
        matches!(self, RefusalKind::Busy | RefusalKind::Timeout)
    }
}

/// Why a line is not a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    TooLong,
    NotText,
    /// Not one of the messages, with serde's reason.
    Invalid(String),
}

impl std::fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProtocolError::TooLong => write!(f, "a message is longer than {MAX_LINE} bytes"),
            ProtocolError::NotText => write!(f, "a message is not UTF-8 text"),
            ProtocolError::Invalid(why) => write!(f, "not a message of this game: {why}"),
        }
    }
}

impl std::error::Error for ProtocolError {}

impl Message {
    /// The message as one line, newline included, or [`ProtocolError::TooLong`] if it would
    /// exceed [`MAX_LINE`] (the texts in it come from people and peers).
    pub fn to_line(&self) -> Result<String, ProtocolError> {
        let mut line = serde_json::to_string(self).map_err(|_| ProtocolError::NotText)?;
        line.push('\n');
        if line.len() > MAX_LINE {
            return Err(ProtocolError::TooLong);
        }
        Ok(line)
    }

    /// Parses one line (without its newline). Every text in the message, and in the reason
    /// for refusing it, is made printable: control characters from the other side never reach
    /// a terminal.
    pub fn parse(line: &[u8]) -> Result<Message, ProtocolError> {
        if line.len() >= MAX_LINE {
            return Err(ProtocolError::TooLong);
        }
        let text = std::str::from_utf8(line).map_err(|_| ProtocolError::NotText)?;
        let message: Message = serde_json::from_str(text).map_err(|e| {
            let why = printable(&e.to_string());
            ProtocolError::Invalid(why.chars().take(120).collect())
        })?;
        Ok(message.printable())
    }

    fn printable(self) -> Message {
        match self {
            Message::Hello {
                protocol,
                program,
                pake,
            } => Message::Hello {
                protocol,
                program: printable(&program),
                pake: pake.map(|p| printable(&p)),
            },
            Message::Join {
                token,
                hints,
                watch,
            } => Message::Join {
                token: token.map(|t| printable(&t)),
                hints,
                watch,
            },
            Message::Welcome {
                rules,
                state,
                token,
                hints,
            } => Message::Welcome {
                hints,
                rules,
                state: SessionState {
                    moves: state.moves.iter().map(|m| printable(m)).collect(),
                    clock: state.clock.map(ClockState::printable),
                    ending: state.ending.map(EndedState::printable),
                    joiner: state.joiner.map(JoinerState::printable),
                    ..state
                },
                token: printable(&token),
            },
            Message::Update {
                round,
                score,
                from,
                moves,
                clock,
                ending,
                joiner,
            } => Message::Update {
                round,
                score,
                from,
                moves: moves.iter().map(|m| printable(m)).collect(),
                clock: clock.map(ClockState::printable),
                ending: ending.map(EndedState::printable),
                joiner: joiner.map(JoinerState::printable),
            },
            Message::Move {
                seq,
                cell,
                spent_ms,
                left_ms,
            } => Message::Move {
                seq,
                cell: printable(&cell),
                spent_ms,
                left_ms,
            },
            Message::Error { message, kind } => Message::Error {
                message: printable(&message),
                kind,
            },
            other => other,
        }
    }
}

/// Reads the next line of at most [`MAX_WIRE`] bytes into `buf` (without the newline).
/// Returns `Ok(false)` at the end of the stream; an over-long line is an error of kind
/// `InvalidData`, and what was read of it is dropped. Memory stays bounded whatever arrives.
pub fn read_line(reader: &mut impl BufRead, buf: &mut Vec<u8>) -> io::Result<bool> {
    buf.clear();
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok(!buf.is_empty());
        }
        let (chunk, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (&available[..i], i + 1),
            None => (available, available.len()),
        };
        let newline = done > chunk.len();
        if buf.len() + chunk.len() >= MAX_WIRE {
            reader.consume(done);
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                ProtocolError::TooLong,
            ));
        }
        buf.extend_from_slice(chunk);
        reader.consume(done);
        if newline {
            if buf.last() == Some(&b'\r') {
                buf.pop();
            }
            return Ok(true);
        }
    }
}

/// The program's version, as `hello` carries it.
pub fn program() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::Rules;
    use crate::rules::position::Variant;

    #[test]
    fn messages_round_trip_as_one_line() {
        let hello = Message::Hello {
            protocol: PROTOCOL,
            program: "0.1.0".into(),
            pake: Some("QUJD".into()),
        };
        let welcome = Message::Welcome {
            rules: Rules::CLASSIC.into(),
            state: SessionState {
                round: 2,
                score: [1, 0, 0],
                moves: vec!["5".into(), "1".into()],
                clock: Some(ClockState {
                    control: "5+3".into(),
                    left_ms: [290_000, 301_000],
                }),
                ending: None,
                more: 0,
                joiner: None,
            },
            token: "t0k3n".into(),
            hints: true,
        };
        for message in [
            hello,
            welcome,
            Message::Join {
                token: None,
                hints: false,
                watch: false,
            },
            Message::Join {
                token: Some("t0k3n".into()),
                hints: true,
                watch: true,
            },
            Message::Update {
                round: 2,
                score: [1, 0, 0],
                from: 1,
                moves: vec!["1".into()],
                clock: None,
                ending: Some(EndedState {
                    how: "resigned".into(),
                    loser: Some("O".into()),
                }),
                joiner: Some(JoinerState {
                    name: "10.0.0.7".into(),
                    here: false,
                    left: false,
                }),
            },
            Message::Watching { count: 2 },
            Message::Move {
                seq: 3,
                cell: "c3".into(),
                spent_ms: None,
                left_ms: None,
            },
            Message::Move {
                seq: 4,
                cell: "c4".into(),
                spent_ms: Some(1500),
                left_ms: Some([298_500, 300_000]),
            },
            Message::Flag { seq: 4 },
            Message::Rematch,
            Message::Resign { seq: 4 },
            Message::Draw { seq: 5 },
            Message::ping(),
            Message::Ping {
                id: Some(7),
                echo: None,
            },
            Message::Ping {
                id: None,
                echo: Some(7),
            },
            Message::Bye,
            Message::Error {
                message: "wrong code".into(),
                kind: Some(RefusalKind::WrongCode),
            },
            Message::error("move 2 was due"),
        ] {
            let line = message.to_line().unwrap();
            assert_eq!(line.matches('\n').count(), 1);
            assert_eq!(Message::parse(line.trim_end().as_bytes()), Ok(message));
        }
        assert_eq!(
            Message::Move {
                seq: 1,
                cell: "5".into(),
                spent_ms: None,
                left_ms: None,
            }
            .to_line()
            .unwrap(),
            "{\"type\":\"move\",\"seq\":1,\"cell\":\"5\"}\n"
        );
        // A ping that asks nothing is the line every earlier program sends and reads.
        assert_eq!(Message::ping().to_line().unwrap(), "{\"type\":\"ping\"}\n");
    }

    #[test]
    fn every_named_game_and_size_goes_over_the_wire_and_comes_back() {
        let mut variants = vec![Variant::default(), Rules::new(5, 4, true).unwrap().into()];
        variants.extend(crate::rules::catalogue::CATALOGUE.map(|entry| entry.variant));
        variants.extend((8..15).filter_map(|n| Variant::named_on("gomoku-exact", n, 5)));
        variants.extend((3..=9).filter_map(|k| Variant::named_on("in-a-row-exact", 9, k)));
        variants.extend(Variant::named_on("in-a-row", 15, 4));
        variants.extend(Variant::named_on("renju", 11, 5));
        variants.extend(Variant::named_on("caro", 20, 5));
        variants.push(Variant::ConnectFour {
            columns: 9,
            rows: 4,
        });
        assert_eq!(variants.len(), 9 + 7 + 7 + 1 + 1 + 1 + 1, "{variants:?}");
        for variant in variants {
            let wire = RulesData::from(variant);
            assert_eq!(Variant::try_from(wire.clone()), Ok(variant), "{wire:?}");
        }
    }

    #[test]
    fn gomoku_from_a_program_that_sent_the_classic_line_is_still_five_in_a_row() {
        // Programs before other lines sent Gomoku with the classic fields: k 3.
        let older = RulesData {
            size: 15,
            k: 3,
            misere: false,
            variant: Some("gomoku".into()),
            rows: None,
        };
        assert_eq!(Variant::try_from(older), Ok(Variant::GOMOKU));
        let four = Variant::of_size(15, Some(4), false).unwrap();
        assert_eq!(RulesData::from(four).variant.as_deref(), Some("in-a-row"));
    }

    #[test]
    fn a_join_or_welcome_without_hints_from_an_older_program_asks_for_none() {
        let join = br#"{"type":"join","token":"t"}"#;
        assert_eq!(
            Message::parse(join),
            Ok(Message::Join {
                token: Some("t".into()),
                hints: false,
                watch: false,
            })
        );
        let welcome = br#"{"type":"welcome","rules":{"size":3,"k":3,"misere":false},"state":{"round":1,"score":[0,0,0],"moves":[]},"token":"t"}"#;
        assert!(matches!(
            Message::parse(welcome),
            Ok(Message::Welcome { hints: false, .. })
        ));
        // A player who does not ask sends what an older program sent.
        let line = Message::Join {
            token: None,
            hints: false,
            watch: false,
        };
        assert_eq!(line.to_line().unwrap(), "{\"type\":\"join\"}\n");
        let asking = Message::Join {
            token: None,
            hints: true,
            watch: false,
        };
        assert_eq!(
            asking.to_line().unwrap(),
            "{\"type\":\"join\",\"hints\":true}\n"
        );
        let junk = br#"{"type":"join","hints":"yes"}"#;
        assert!(matches!(
            Message::parse(junk),
            Err(ProtocolError::Invalid(_))
        ));
    }

    #[test]
    fn a_message_over_the_limit_is_an_error_not_a_panic() {
        let hello = Message::Hello {
            protocol: PROTOCOL,
            program: "0.1.0".into(),
            pake: Some("x".repeat(1100)),
        };
        assert_eq!(hello.to_line(), Err(ProtocolError::TooLong));
    }

    #[test]
    fn refusal_kinds_travel_beside_the_text_and_unknown_ones_read_as_other() {
        let line = Message::Error {
            message: "the host is busy: try again in a moment".into(),
            kind: Some(RefusalKind::Busy),
        }
        .to_line()
        .unwrap();
        assert!(line.contains(r#""kind":"busy""#), "{line}");
        let later = br#"{"type":"error","message":"m","kind":"full_moon"}"#;
        assert!(matches!(
            Message::parse(later),
            Ok(Message::Error {
                kind: Some(RefusalKind::Other),
                ..
            })
        ));
        let old = br#"{"type":"error","message":"wrong code"}"#;
        assert_eq!(Message::parse(old), Ok(Message::error("wrong code")));
        assert!(RefusalKind::Busy.is_passing() && RefusalKind::Timeout.is_passing());
        assert!(!RefusalKind::WrongCode.is_passing() && !RefusalKind::InProgress.is_passing());
    }

    #[test]
    fn junk_is_refused_with_a_reason() {
        for junk in [
            &b"GET / HTTP/1.1"[..],
            b"{}",
            b"{\"type\":\"move\",\"seq\":-1,\"cell\":\"5\"}",
            b"{\"type\":\"dance\"}",
            b"{\"type\":\"move\",\"seq\":1}",
            b"{\"type\":\"move\",\"seq\":1,\"cell\":5}",
        ] {
            assert!(
                matches!(Message::parse(junk), Err(ProtocolError::Invalid(_))),
                "{junk:?}"
            );
        }
        assert_eq!(Message::parse(b"\xff\xfe"), Err(ProtocolError::NotText));
        // Escape sequences from the other side are never passed on.
        let hostile = br#"{"type":"\u001b]0;PWNED\u0007\u001b[2J"}"#;
        let why = Message::parse(hostile).unwrap_err().to_string();
        assert!(!why.contains('\u{1b}') && !why.contains('\u{7}'), "{why:?}");
        let error = br#"{"type":"error","message":"\u001b[31mred"}"#;
        assert_eq!(Message::parse(error), Ok(Message::error("\u{fffd}[31mred")));
        assert_eq!(
            Message::parse(&[b' '; MAX_LINE]),
            Err(ProtocolError::TooLong)
        );
    }

    #[test]
    fn lines_are_read_within_the_limit() {
        let long = "x".repeat(MAX_WIRE * 3);
        let input = format!("{{\"type\":\"ping\"}}\r\n{long}\nnext\npartial");
        let mut reader = io::BufReader::with_capacity(64, input.as_bytes());
        let mut buf = Vec::new();
        assert!(read_line(&mut reader, &mut buf).unwrap());
        assert_eq!(buf, b"{\"type\":\"ping\"}");
        let err = read_line(&mut reader, &mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(buf.len() < MAX_WIRE, "memory stays bounded");
    }
}
