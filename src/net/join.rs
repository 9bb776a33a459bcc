//! The joiner's side: connecting with the join code, the host's answer as a typed
//! [`JoinError`] when it is not a welcome, and getting back in after a lost connection,
//! retrying what may pass (a busy host, a timeout, a reset) with back-off and stopping at
//! what will not (a wrong code, a game with another player).

use std::io;
use std::net::{IpAddr, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::net::failure::{ANSWER_DELAY_MAX, HELLO_WITHIN, JoinError, rejoin_window};
use crate::net::link::{
    Admit, Connection, Incoming, Link, LinkEvent, Sink, WATCHER_FLOOD, write_message, write_sealed,
};
use crate::net::protocol::{
    Message, PROTOCOL, REMOTE_TEXT, RefusalKind, SessionState, cut, program, read_line,
};
use crate::net::seal::{Exchange, Keys, Opener, Role};
use crate::net::stream::Wire;
use crate::rules::position::Variant;

/// The port `host` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7373;
/// How long a joiner waits to connect, and to send each line of the handshake.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);
/// How long the whole handshake may take: the host may keep the key exchange in line for
/// [`HELLO_WITHIN`] and wait [`ANSWER_DELAY_MAX`] before its answer, and takes its time to
/// answer on top of that.
const HANDSHAKE_WITHIN: Duration = ANSWER_WITHIN
    .saturating_add(HELLO_WITHIN)
    .saturating_add(ANSWER_DELAY_MAX);
/// How long a first join keeps asking a busy host.
const JOIN_PATIENCE: Duration = Duration::from_secs(10);
/// The first wait before trying again, doubled after each try up to [`BACK_OFF_MAX`].
const BACK_OFF_FIRST: Duration = Duration::from_millis(250);
const BACK_OFF_MAX: Duration = Duration::from_secs(8);
/// The longest `HOST[:PORT]` taken, in characters.
pub const MAX_TARGET: usize = 255;

/// What a joiner learns from the host's hello.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Welcome {
    pub rules: Variant,
    pub state: SessionState,
    /// The host's program version.
    pub program: String,
    /// Whether the host asks for hints.
    pub hints: bool,
}

/// What a joiner comes for: to play (asking for hints or not), or to watch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Asking {
    Play { hints: bool },
    Watch,
}

/// A way to a host: each [`Route::open`] is a fresh connection to it, over TCP or another
/// transport ([`crate::net::stream`]).
pub trait Route: Send + Sync {
    /// A new connection to the host, or why none could be made; every wait has a deadline.
    fn open(&self) -> io::Result<Wire>;
    /// The host's name for people: `127.0.0.1:7373`, or an online host's short id.
    fn name(&self) -> String;
    /// The host's side in the game: its address without the port, or its short id.
    fn label(&self) -> String;
    /// How the last connection goes, where the transport can tell: `direct, round trip 0.4 ms`.
    fn path(&self) -> Option<String> {
        None
    }
}

/// A host at a TCP address.
struct Tcp(SocketAddr);

impl Route for Tcp {
    fn open(&self) -> io::Result<Wire> {
        TcpStream::connect_timeout(&self.0, ANSWER_WITHIN).map(Wire::from)
    }

    fn name(&self) -> String {
        self.0.to_string()
    }

    fn label(&self) -> String {
        self.0.ip().to_string()
    }
}

/// A joiner's way back to its host.
#[derive(Clone)]
pub struct Joiner {
    route: Arc<dyn Route>,
    code: String,
    link: Link,
    /// The token the host gave at the last welcome, shown when coming back.
    token: Arc<Mutex<Option<String>>>,
    /// What this joiner comes for, as every `join` says.
    asking: Asking,
}

impl Joiner {
    /// Connects to `target` (`HOST` or `HOST:PORT`, [`DEFAULT_PORT`] if none) with `code`,
    /// and starts the connection's threads, asking for hints if `hints`. A busy host is asked
    /// again for a few seconds.
    pub fn join(
        target: &str,
        (code, asking): (&str, Asking),
        sink: &Sink,
    ) -> Result<(Joiner, Welcome), JoinError> {
        let addr = resolve(target)?;
        Joiner::through(Arc::new(Tcp(addr)), (code, asking), sink)
    }

    /// Connects through `route` with `code`, as [`Joiner::join`] does.
    pub fn through(
        route: Arc<dyn Route>,
        (code, asking): (&str, Asking),
        sink: &Sink,
    ) -> Result<(Joiner, Welcome), JoinError> {
        let joiner = Joiner {
            route,
            code: code.to_string(),
            link: Link::new(),
            token: Arc::default(),
            asking,
        };
        if asking == Asking::Watch {
            joiner.link.allow(WATCHER_FLOOD);
        }
        let start = Instant::now();
        let mut wait = BACK_OFF_FIRST;
        let welcome = loop {
            match joiner.connect(sink, false) {
                Err(e) if e.is_busy() && start.elapsed() + wait < JOIN_PATIENCE => {
                    thread::sleep(wait);
                    wait = (wait * 2).min(Duration::from_secs(1));
                }
                outcome => break outcome?,
            }
        };
        joiner.link.heartbeat().map_err(|e| JoinError::Failed {
            addr: joiner.route.name(),
            why: format!("could not start the heartbeat: {e}"),
        })?;
        Ok((joiner, welcome))
    }

    pub fn link(&self) -> &Link {
        &self.link
    }

    /// The route to the host.
    pub fn route(&self) -> &dyn Route {
        &*self.route
    }

    /// The way to the host, to ask later how the connection goes.
    pub fn route_handle(&self) -> Arc<dyn Route> {
        Arc::clone(&self.route)
    }

    /// One connection and handshake; `rejoining` announces the host's session as
    /// [`LinkEvent::Rejoined`].
    fn connect(&self, sink: &Sink, rejoining: bool) -> Result<Welcome, JoinError> {
        let addr = self.route.name();
        let failed = |e: io::Error| JoinError::Failed {
            addr: addr.clone(),
            why: e.to_string(),
        };
        // The hello is ready before the connection is made, so it follows it at once: a
        // host full of silent connections keeps a place whose hello has arrived.
        let (exchange, pake) = Exchange::start(Role::Joiner, &self.code);
        let hello = Message::Hello {
            protocol: PROTOCOL,
            program: program(),
            pake: Some(pake),
        };
        let stream = self.route.open().map_err(|e| JoinError::Connect {
            addr: addr.clone(),
            why: e.to_string(),
        })?;
        stream
            .set_write_timeout(Some(ANSWER_WITHIN))
            .map_err(failed)?;
        write_message(&stream, &hello).map_err(failed)?;
        let mut reader = Incoming::new(&stream, HANDSHAKE_WITHIN).map_err(failed)?;
        let mut buf = Vec::new();
        answer(&mut reader, &mut buf, &addr)?;
        let (mut keys, program) = exchanged(&addr, Message::parse(&buf).ok(), exchange)?;
        let token = self
            .token
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let join = Message::Join {
            token,
            hints: self.asking == Asking::Play { hints: true },
            watch: self.asking == Asking::Watch,
        };
        write_sealed(&stream, &mut keys.seal, &join).map_err(failed)?;
        answer(&mut reader, &mut buf, &addr)?;
        let answer = opened(&mut keys.open, &buf, &addr)?;
        let (welcome, token) = welcome(addr.clone(), program, answer)?;
        *self.token.lock().unwrap_or_else(PoisonError::into_inner) = Some(token);
        // Before the reader starts, so the game is restored before any move arrives.
        let rejoined = rejoining.then(|| LinkEvent::Rejoined(welcome.state.clone()));
        // The welcome waits as long as a refusal would: it times no round trip.
        let connection = Connection {
            stream,
            reader,
            keys,
            trip: None,
        };
        self.link
            .install(connection, None, rejoined, Admit::Always, sink)
            .map_err(failed)?
            .map_err(|_| JoinError::Closed(addr.clone()))?;
        Ok(welcome)
    }

    /// After a lost connection: tries to get back in on a thread of its own, waiting longer
    /// after each failed try, until [`rejoin_window`] ends (the host is gone) or the host says
    /// something that will not change; reports [`LinkEvent::Rejoined`] or [`LinkEvent::RejoinFailed`].
    pub fn rejoin(&self, sink: &Sink) {
        let again = self.clone();
        let sink = Arc::clone(sink);
        let _ = thread::Builder::new()
            .name("net-rejoin".into())
            .spawn(move || {
                let start = Instant::now();
                let window = rejoin_window();
                let mut wait = BACK_OFF_FIRST;
                let last = loop {
                    thread::sleep(wait.min(window.saturating_sub(start.elapsed())));
                    match again.connect(&sink, true) {
                        Ok(_) => return,
                        Err(e) if e.ends_a_rejoin() => break e,
                        Err(e) if start.elapsed() >= window => {
                            break JoinError::GaveUp {
                                after: window,
                                last: Box::new(e),
                            };
                        }
                        Err(_) => wait = (wait * 2).min(BACK_OFF_MAX),
                    }
                };
                sink(LinkEvent::RejoinFailed(last));
            });
    }
}

/// Reads the host's next line of the handshake into `buf`.
fn answer(
    reader: &mut std::io::BufReader<Incoming>,
    buf: &mut Vec<u8>,
    addr: &str,
) -> Result<(), JoinError> {
    match read_line(reader, buf) {
        Ok(true) => Ok(()),
        Ok(false) => Err(JoinError::Closed(addr.to_string())),
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            Err(JoinError::NotAHost(addr.to_string()))
        }
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) =>
        {
            Err(JoinError::Failed {
                addr: addr.to_string(),
                why: format!(
                    "the host did not finish the handshake within {} s",
                    HANDSHAKE_WITHIN.as_secs()
                ),
            })
        }
        Err(e) => Err(JoinError::Failed {
            addr: addr.to_string(),
            why: e.to_string(),
        }),
    }
}

/// The host's hello finishes the exchange: the keys and the host's program version, or why
/// there are none.
fn exchanged(
    addr: &str,
    answer: Option<Message>,
    exchange: Exchange,
) -> Result<(Keys, String), JoinError> {
    match answer {
        Some(Message::Hello {
            protocol: PROTOCOL,
            pake: Some(pake),
            program,
        }) => exchange
            .finish(&pake)
            .map(|keys| (keys, program))
            .map_err(|_| JoinError::NotAHost(addr.to_string())),
        Some(Message::Error { message, kind }) => Err(refused(kind, &message, false)),
        Some(Message::Hello { protocol, .. }) if protocol != PROTOCOL => {
            Err(JoinError::Version(protocol))
        }
        _ => Err(JoinError::NotAHost(addr.to_string())),
    }
}

/// The host's second answer, which must be sealed: a welcome or a refusal only the host
/// could have written. One in the clear is not believed ([`JoinError::Unsealed`]); one that
/// does not open is from a host that does not know this code.
fn opened(opener: &mut Opener, line: &[u8], addr: &str) -> Result<Option<Message>, JoinError> {
    if line.first() == Some(&b'{') {
        return Err(JoinError::Unsealed(addr.to_string()));
    }
    let text = opener
        .open(line)
        .map_err(|_| JoinError::Unproven(addr.to_string()))?;
    Ok(Message::parse(&text).ok())
}

/// A refusal as the host gave it, its text cut to [`REMOTE_TEXT`] characters; `verified`
/// where it came sealed.
fn refused(kind: Option<RefusalKind>, message: &str, verified: bool) -> JoinError {
    JoinError::Refused {
        kind,
        message: cut(message, REMOTE_TEXT),
        verified,
    }
}

/// The host's welcome and the token it gave, or why it is not one.
fn welcome(
    addr: String,
    program: String,
    answer: Option<Message>,
) -> Result<(Welcome, String), JoinError> {
    match answer {
        Some(Message::Welcome {
            rules,
            state,
            token,
            hints,
        }) if state.round > 0 => {
            let rules = Variant::try_from(rules).map_err(JoinError::Rules)?;
            let welcome = Welcome {
                rules,
                state,
                program,
                hints,
            };
            Ok((welcome, token))
        }
        Some(Message::Error { message, kind }) => Err(refused(kind, &message, true)),
        _ => Err(JoinError::NotAHost(addr)),
    }
}

/// `HOST` or `HOST:PORT` as a socket address ([`DEFAULT_PORT`] when none is given).
fn resolve(target: &str) -> Result<SocketAddr, JoinError> {
    let find = |why: String| JoinError::Find {
        target: cut(target, 40),
        why,
    };
    if target.chars().count() > MAX_TARGET {
        return Err(find(format!(
            "an address is at most {MAX_TARGET} characters"
        )));
    }
    if let Ok(addr) = target.parse::<SocketAddr>() {
        return Ok(addr);
    }
    if let Ok(ip) = target.parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, DEFAULT_PORT));
    }
    let found = if target.contains(':') {
        target.to_socket_addrs()
    } else {
        (target, DEFAULT_PORT).to_socket_addrs()
    };
    found
        .map_err(|e| find(e.to_string()))?
        .next()
        .ok_or_else(|| find("no address".into()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_take_the_default_port() {
        assert_eq!(resolve("127.0.0.1").unwrap().port(), DEFAULT_PORT);
        assert_eq!(resolve("127.0.0.1:9").unwrap().port(), 9);
        assert_eq!(resolve("[::1]:9").unwrap().port(), 9);
        assert_eq!(resolve("::1").unwrap().port(), DEFAULT_PORT);
        assert!(resolve("127.0.0.1:99999").is_err());
        let long = resolve(&"a".repeat(1000)).unwrap_err().to_string();
        assert!(
            long.contains("at most 255 characters") && long.len() < 120,
            "{long}"
        );
    }

    #[test]
    fn rejoining_stops_at_final_refusals_and_retries_passing_ones() {
        let refused = |kind| JoinError::Refused {
            kind: Some(kind),
            message: String::new(),
            verified: true,
        };
        assert!(!refused(RefusalKind::WrongCode).is_passing());
        assert!(!refused(RefusalKind::InProgress).is_passing());
        assert!(!refused(RefusalKind::BadHello).is_passing());
        assert!(refused(RefusalKind::Busy).is_passing());
        assert!(refused(RefusalKind::Timeout).is_passing());
        let addr = String::from("127.0.0.1:9");
        let why = String::from("reset");
        assert!(
            JoinError::Connect {
                addr: addr.clone(),
                why: why.clone()
            }
            .is_passing()
        );
        assert!(
            JoinError::Failed {
                addr: addr.clone(),
                why
            }
            .is_passing()
        );
        assert!(JoinError::Closed(addr.clone()).is_passing());
        assert!(!JoinError::NotAHost(addr).is_passing());
        assert!(!JoinError::Version(2).is_passing());
    }

    #[test]
    fn a_refusal_before_the_code_is_proven_says_it_is_unverified_and_one_after_in_the_clear_is_not_believed()
     {
        let (exchange, _) = Exchange::start(Role::Joiner, "k7m2-qx4p");
        let busy = Message::Error {
            message: "the host is busy".into(),
            kind: Some(RefusalKind::Busy),
        };
        let Err(error) = exchanged("h:1", Some(busy), exchange) else {
            panic!("a refusal is no exchange");
        };
        assert_eq!(
            error.to_string(),
            "the host refused: the host is busy (unverified: said before the code was proven)"
        );
        let (host, to_joiner) = Exchange::start(Role::Host, "k7m2-qx4p");
        let (joiner, to_host) = Exchange::start(Role::Joiner, "k7m2-qx4p");
        let _ = host.finish(&to_host).unwrap();
        let mut keys = joiner.finish(&to_joiner).unwrap();
        let forged = b"{\"type\":\"error\",\"message\":\"wrong code\",\"kind\":\"wrong_code\"}";
        let error = opened(&mut keys.open, forged, "h:1").unwrap_err();
        assert_eq!(error, JoinError::Unsealed("h:1".into()));
        assert!(error.is_passing(), "a rejoin keeps trying");
    }

    #[test]
    fn a_refusal_reads_as_the_host_said_it() {
        let addr = String::from("127.0.0.1:9");
        let answer = Message::Error {
            message: "wrong code".into(),
            kind: Some(RefusalKind::WrongCode),
        };
        let error = welcome(addr.clone(), String::new(), Some(answer)).unwrap_err();
        assert_eq!(error.to_string(), "the host refused: wrong code");
        assert!(!error.is_passing());
        let long = Message::error("x".repeat(400));
        let error = welcome(addr, String::new(), Some(long)).unwrap_err();
        let JoinError::Refused { message, .. } = &error else {
            panic!("{error:?}");
        };
        assert_eq!(
            message.chars().count(),
            REMOTE_TEXT,
            "cut to the documented length"
        );
    }

    #[test]
    fn a_welcome_at_round_zero_is_not_one() {
        let state = SessionState {
            round: 0,
            score: [0; 3],
            moves: vec![],
            clock: None,
            ending: None,
            more: 0,
            joiner: None,
        };
        let zero = Message::Welcome {
            rules: crate::rules::classic::Rules::CLASSIC.into(),
            state: state.clone(),
            token: "t".into(),
            hints: false,
        };
        let addr = String::from("127.0.0.1:9");
        assert_eq!(
            welcome(addr.clone(), String::new(), Some(zero)).unwrap_err(),
            JoinError::NotAHost(addr.clone())
        );
        let one = Message::Welcome {
            rules: crate::rules::classic::Rules::CLASSIC.into(),
            state: SessionState { round: 1, ..state },
            token: "t".into(),
            hints: false,
        };
        assert!(welcome(addr, String::new(), Some(one)).is_ok());
    }

    #[test]
    fn a_host_that_cannot_seal_with_the_code_is_named_as_not_knowing_it() {
        let (_, to_joiner) = Exchange::start(Role::Host, "aaaa-bbbb");
        let (exchange, _) = Exchange::start(Role::Joiner, "cccc-dddd");
        let hello = Message::Hello {
            protocol: PROTOCOL,
            program: "x".into(),
            pake: Some(to_joiner),
        };
        let (mut keys, _) = exchanged("h:1", Some(hello), exchange).unwrap();
        let mut other = {
            let (host, _) = Exchange::start(Role::Host, "aaaa-bbbb");
            let (_, mine) = Exchange::start(Role::Joiner, "aaaa-bbbb");
            host.finish(&mine).unwrap()
        };
        let line = other.seal.seal(b"{\"type\":\"bye\"}");
        let error = opened(&mut keys.open, line.trim_end().as_bytes(), "h:1").unwrap_err();
        assert_eq!(error, JoinError::Unproven("h:1".into()));
        assert!(error.to_string().starts_with("the code did not match"));
        assert!(!error.is_passing());
    }
}
