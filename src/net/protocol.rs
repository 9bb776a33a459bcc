//! The network protocol: newline-delimited JSON messages of at most [`MAX_LINE`] bytes,
//! versioned by [`PROTOCOL`].
//!
//! A session between a host and the player who joins it:
//!
//! 1. The joiner connects and sends `hello` with the protocol version, its program version and
//!    the join code.
//! 2. The host answers with its own `hello`: the versions, the rules, and the state of the
//!    session (the round, the score and the moves of the current game, so that a player who
//!    rejoins after a lost connection gets the exact game back). Or it sends `error` and
//!    closes the connection.
//! 3. Then either side sends `move` (on its own turn), `rematch` (after a game; a new game
//!    starts when both have sent it), `ping` (every [`HEARTBEAT`]) and `bye` (leaving).
//!    Anything else, or anything at the wrong time, is answered with `error` and the
//!    connection is closed. Each side checks every move with its own rules; no side ever
//!    takes a board from the other.

use std::io::{self, BufRead};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::board::Rules;
use crate::position::Variant;

/// The protocol version spoken here.
pub const PROTOCOL: u32 = 1;
/// The longest message, in bytes, newline included.
pub const MAX_LINE: usize = 1024;
/// How often each side sends `ping`.
pub const HEARTBEAT: Duration = Duration::from_secs(2);
/// Silence after which the other side counts as gone.
pub const SILENCE: Duration = Duration::from_secs(10);

/// The rules as they travel: the classic rules, and `variant` (`"ultimate"`) for Ultimate
/// tic-tac-toe, where the classic fields are 3, 3 and false and mean nothing. A classic
/// game leaves `variant` out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireRules {
    pub size: u8,
    pub k: u8,
    pub misere: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
}

impl From<Rules> for WireRules {
    fn from(rules: Rules) -> WireRules {
        WireRules {
            size: rules.size(),
            k: rules.k(),
            misere: rules.misere(),
            variant: None,
        }
    }
}

impl From<Variant> for WireRules {
    fn from(variant: Variant) -> WireRules {
        match variant {
            Variant::Classic(rules) => rules.into(),
            Variant::Ultimate => WireRules {
                variant: Some("ultimate".into()),
                ..Rules::CLASSIC.into()
            },
        }
    }
}

impl TryFrom<WireRules> for Variant {
    type Error = String;

    fn try_from(w: WireRules) -> Result<Variant, String> {
        match w.variant.as_deref() {
            None | Some("classic") => Rules::new(w.size, w.k, w.misere)
                .map(Variant::Classic)
                .map_err(|e| e.to_string()),
            Some("ultimate") => Ok(Variant::Ultimate),
            Some(other) => Err(format!(
                "the variant {:?} is not known here",
                printable(&other.chars().take(20).collect::<String>())
            )),
        }
    }
}

/// Where a session stands, as the host tells it to a player who joins or rejoins.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionState {
    /// The round being played, from 1; the host plays X in odd rounds.
    pub round: u32,
    /// Games won by the host and by the joiner, and draws, before this round.
    pub score: [u32; 3],
    /// The moves of the current game, in order, as cell names.
    pub moves: Vec<String>,
}

/// One message. Unknown fields are ignored, so a later version may add some.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Message {
    /// The first message each way. The joiner sends `code`; the host sends `rules` and
    /// `state`.
    Hello {
        protocol: u32,
        program: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rules: Option<WireRules>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        state: Option<SessionState>,
    },
    /// A move: `seq` is its number in the game, from 1; `cell` its name (`5`, `c3`).
    Move { seq: u32, cell: String },
    /// Asks for a new game, or agrees to one.
    Rematch,
    /// I am still here.
    Ping,
    /// I am leaving.
    Bye,
    /// What was wrong with the last message; the connection closes after it.
    Error { message: String },
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
    /// The message as one line, newline included.
    ///
    /// # Panics
    /// If the line would exceed [`MAX_LINE`]; the messages this program builds never do.
    pub fn to_line(&self) -> String {
        let mut line = serde_json::to_string(self).expect("messages serialise");
        line.push('\n');
        assert!(line.len() <= MAX_LINE, "message too long: {line}");
        line
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
                code,
                rules,
                state,
            } => Message::Hello {
                protocol,
                program: printable(&program),
                code: code.map(|c| printable(&c)),
                rules,
                state: state.map(|s| SessionState {
                    moves: s.moves.iter().map(|m| printable(m)).collect(),
                    ..s
                }),
            },
            Message::Move { seq, cell } => Message::Move {
                seq,
                cell: printable(&cell),
            },
            Message::Error { message } => Message::Error {
                message: printable(&message),
            },
            other => other,
        }
    }
}

/// `text` with every control character (escape sequences included) replaced by `�`.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { '\u{fffd}' } else { c })
        .collect()
}

/// Reads the next line of at most [`MAX_LINE`] bytes into `buf` (without the newline).
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
        if buf.len() + chunk.len() >= MAX_LINE {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_as_one_line() {
        let hello = Message::Hello {
            protocol: PROTOCOL,
            program: "0.1.0".into(),
            code: None,
            rules: Some(Rules::CLASSIC.into()),
            state: Some(SessionState {
                round: 2,
                score: [1, 0, 0],
                moves: vec!["5".into(), "1".into()],
            }),
        };
        for message in [
            hello,
            Message::Move {
                seq: 3,
                cell: "c3".into(),
            },
            Message::Rematch,
            Message::Ping,
            Message::Bye,
            Message::Error {
                message: "wrong code".into(),
            },
        ] {
            let line = message.to_line();
            assert_eq!(line.matches('\n').count(), 1);
            assert_eq!(Message::parse(line.trim_end().as_bytes()), Ok(message));
        }
        assert_eq!(
            Message::Move {
                seq: 1,
                cell: "5".into()
            }
            .to_line(),
            "{\"type\":\"move\",\"seq\":1,\"cell\":\"5\"}\n"
        );
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
        assert_eq!(
            Message::parse(error),
            Ok(Message::Error {
                message: "\u{fffd}[31mred".into()
            })
        );
        assert_eq!(
            Message::parse(&[b' '; MAX_LINE]),
            Err(ProtocolError::TooLong)
        );
    }

    #[test]
    fn lines_are_read_within_the_limit() {
        let long = "x".repeat(MAX_LINE * 3);
        let input = format!("{{\"type\":\"ping\"}}\r\n{long}\nnext\npartial");
        let mut reader = io::BufReader::with_capacity(64, input.as_bytes());
        let mut buf = Vec::new();
        assert!(read_line(&mut reader, &mut buf).unwrap());
        assert_eq!(buf, b"{\"type\":\"ping\"}");
        let err = read_line(&mut reader, &mut buf).unwrap_err();
        assert_eq!(err.kind(), io::ErrorKind::InvalidData);
        assert!(buf.len() < MAX_LINE, "memory stays bounded");
    }
}
