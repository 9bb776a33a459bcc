//! The connection to the other player: the host's listener and handshake, the joiner's
//! connect and rejoin, a reader thread per connection and a heartbeat, all feeding the game
//! loop's channel with [`NetEvent`]s.
//!
//! Nothing here knows the game's rules beyond carrying them: the front end checks every move
//! with its own rules engine and closes the connection with an `error` when one is wrong.

use std::io::{self, BufReader, Write};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::net::protocol::{
    HEARTBEAT, MAX_LINE, Message, PROTOCOL, ProtocolError, SILENCE, SessionState, read_line,
};
use crate::position::Variant;

/// The port `host` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 7373;
/// How long a new connection has to say `hello`, and a joiner waits for the answer.
const HANDSHAKE: Duration = Duration::from_secs(5);
/// Handshakes served at once; more connections are closed straight away.
const MAX_HANDSHAKES: usize = 8;
/// More messages than this in one second close the connection.
const FLOOD: usize = 64;
/// How long a joiner whose connection was lost keeps trying to get back in.
pub const REJOIN_WINDOW: Duration = Duration::from_secs(180);

/// What the network tells the game loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetEvent {
    /// (Host) a player joined, or rejoined, from this address.
    Joined(SocketAddr),
    /// (Joiner) back in after a lost connection: the host's session, which is the truth.
    Rejoined(SessionState),
    /// A message from the other side, after the handshake. Pings are not passed on.
    Received(Message),
    /// The connection is gone, and why, for people.
    Lost(String),
    /// (Joiner) the host did not take us back, and why.
    Refused(String),
    /// (Host) something worth a line: a connection refused, and why.
    Notice(String),
}

/// The read half of a connection. During the handshake the whole hello must arrive before a
/// deadline (a peer that dribbles a byte at a time cannot hold a place); after it, each read
/// waits at most [`SILENCE`], as the socket's timeout says.
pub struct Incoming {
    stream: TcpStream,
    deadline: Option<Instant>,
}

impl io::Read for Incoming {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(deadline) = self.deadline {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::ErrorKind::TimedOut.into());
            }
            self.stream.set_read_timeout(Some(left))?;
        }
        io::Read::read(&mut self.stream, buf)
    }
}

impl Incoming {
    /// The read half of `stream`, with the whole of the next `within` to say hello.
    fn new(stream: &TcpStream, within: Duration) -> io::Result<BufReader<Incoming>> {
        Ok(BufReader::new(Incoming {
            stream: stream.try_clone()?,
            deadline: Some(Instant::now() + within),
        }))
    }

    /// The handshake is over: from now on silence, not a deadline, ends the connection.
    fn settle(reader: &mut BufReader<Incoming>) -> io::Result<()> {
        let incoming = reader.get_mut();
        incoming.deadline = None;
        incoming.stream.set_read_timeout(Some(SILENCE))
    }
}

/// The current connection and why it was closed, if this side closed it.
#[derive(Default)]
struct Slot {
    stream: Option<TcpStream>,
    /// Counts connections, so a reader can tell whether it is still the current one.
    generation: u64,
    closing: Option<String>,
}

/// The game's side of the connection: sending, closing, and the shared slot the threads use.
#[derive(Clone)]
pub struct Link {
    slot: Arc<Mutex<Slot>>,
}

fn lock(slot: &Mutex<Slot>) -> MutexGuard<'_, Slot> {
    slot.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Link {
    fn new() -> Link {
        Link {
            slot: Arc::new(Mutex::new(Slot::default())),
        }
    }

    /// Sends `message` if connected; a failed write closes the connection (the reader then
    /// reports it lost). Returns whether it was sent.
    pub fn send(&self, message: &Message) -> bool {
        let mut slot = lock(&self.slot);
        let Some(stream) = slot.stream.as_mut() else {
            return false;
        };
        if stream.write_all(message.to_line().as_bytes()).is_ok() {
            return true;
        }
        close(&mut slot, "the connection failed");
        false
    }

    /// Tells the other side what was wrong and closes the connection; the reader reports it
    /// lost with `why`.
    pub fn refuse(&self, why: &str) {
        self.refuse_connection(None, why);
    }

    /// [`Link::refuse`], for connection `generation` only when one is given. The error and
    /// the close happen under one lock: a player who reads the error and rejoins at once
    /// must find the old connection gone, and must not have the new one closed by it.
    fn refuse_connection(&self, generation: Option<u64>, why: &str) {
        let mut slot = lock(&self.slot);
        if generation.is_some_and(|g| g != slot.generation) {
            return;
        }
        if let Some(stream) = slot.stream.as_mut() {
            let error = Message::Error {
                message: why.to_string(),
            };
            let _ = stream.write_all(error.to_line().as_bytes());
        }
        close(&mut slot, why);
    }

    /// Says goodbye and closes the connection gently: this side stops sending, and waits up
    /// to a second for the other side to close too, so nothing either side sent is lost.
    pub fn leave(&self) {
        let generation = {
            let mut slot = lock(&self.slot);
            let Some(stream) = slot.stream.as_mut() else {
                return;
            };
            let _ = stream.write_all(Message::Bye.to_line().as_bytes());
            let _ = stream.shutdown(Shutdown::Write);
            slot.closing = Some("you left".into());
            slot.generation
        };
        let start = Instant::now();
        while start.elapsed() < Duration::from_secs(1) {
            let slot = lock(&self.slot);
            if slot.stream.is_none() || slot.generation != generation {
                return;
            }
            drop(slot);
            thread::sleep(Duration::from_millis(5));
        }
        close(&mut lock(&self.slot), "you left");
    }

    /// Makes `stream` the connection and starts its reader, after writing `greeting` (if
    /// any) under the same lock, so nothing else is sent in between, and sending `announce`
    /// to the game, so it arrives before anything the reader passes on. With `exclusive`,
    /// refuses (returns `Ok(false)`) while another connection is live; otherwise replaces it.
    fn install<M: Send + 'static>(
        &self,
        stream: TcpStream,
        mut reader: BufReader<Incoming>,
        greeting: Option<&dyn Fn() -> Message>,
        announce: Option<NetEvent>,
        exclusive: bool,
        (events, wrap): (&Sender<M>, fn(NetEvent) -> M),
    ) -> io::Result<bool> {
        Incoming::settle(&mut reader)?;
        let generation = {
            let mut slot = lock(&self.slot);
            if exclusive && slot.stream.is_some() {
                return Ok(false);
            }
            if let Some(greeting) = greeting {
                (&stream).write_all(greeting().to_line().as_bytes())?;
            }
            stream.set_write_timeout(Some(SILENCE))?;
            if let Some(old) = slot.stream.take() {
                let _ = old.shutdown(Shutdown::Both);
            }
            slot.stream = Some(stream);
            slot.generation += 1;
            slot.closing = None;
            if let Some(event) = announce {
                let _ = events.send(wrap(event));
            }
            slot.generation
        };
        let link = self.clone();
        let events = events.clone();
        thread::Builder::new()
            .name("net-reader".into())
            .spawn(move || link.read(reader, generation, &events, wrap))?;
        Ok(true)
    }

    /// The reader thread of connection `generation`: passes messages on until the connection
    /// ends, then reports it lost (unless a newer connection took its place).
    fn read<M>(
        &self,
        mut reader: BufReader<Incoming>,
        generation: u64,
        events: &Sender<M>,
        wrap: fn(NetEvent) -> M,
    ) {
        let mut buf = Vec::with_capacity(MAX_LINE);
        let mut window = (Instant::now(), 0usize);
        let why = loop {
            match read_line(&mut reader, &mut buf) {
                Ok(false) => break "the connection closed".to_string(),
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    break format!("no word for {} s", SILENCE.as_secs());
                }
                Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                    self.refuse_connection(Some(generation), &ProtocolError::TooLong.to_string());
                    break ProtocolError::TooLong.to_string();
                }
                Err(_) => break "the connection failed".to_string(),
                Ok(true) => {}
            }
            if window.0.elapsed() >= Duration::from_secs(1) {
                window = (Instant::now(), 0);
            }
            window.1 += 1;
            if window.1 > FLOOD {
                let why = "too many messages".to_string();
                self.refuse_connection(Some(generation), &why);
                break why;
            }
            match Message::parse(&buf) {
                Ok(Message::Ping) => {}
                Ok(Message::Hello { .. }) => {
                    let why = "hello was already said".to_string();
                    self.refuse_connection(Some(generation), &why);
                    break why;
                }
                Ok(message) => {
                    if events.send(wrap(NetEvent::Received(message))).is_err() {
                        return;
                    }
                }
                Err(e) => {
                    self.refuse_connection(Some(generation), &e.to_string());
                    break e.to_string();
                }
            }
        };
        let mut slot = lock(&self.slot);
        if slot.generation != generation {
            return;
        }
        let why = slot.closing.take().unwrap_or(why);
        close(&mut slot, &why);
        slot.closing = None;
        // Under the lock: a connection that takes this one's place announces itself after.
        let _ = events.send(wrap(NetEvent::Lost(why)));
    }

    /// Sends `ping` every [`HEARTBEAT`] while connected, for as long as the program runs.
    fn heartbeat(&self) -> io::Result<()> {
        let link = self.clone();
        thread::Builder::new()
            .name("net-heartbeat".into())
            .spawn(move || {
                loop {
                    thread::sleep(HEARTBEAT);
                    link.send(&Message::Ping);
                }
            })?;
        Ok(())
    }
}

/// Shuts the slot's connection down, remembering why (the reader reports it).
fn close(slot: &mut Slot, why: &str) {
    if let Some(stream) = slot.stream.take() {
        let _ = stream.shutdown(Shutdown::Both);
        slot.closing.get_or_insert_with(|| why.to_string());
    }
}

/// Whether `given` is `expected`, in time that depends only on the length of `given`.
fn code_matches(given: &str, expected: &str) -> bool {
    let (given, expected) = (given.as_bytes(), expected.as_bytes());
    let mut difference = u8::from(given.len() != expected.len());
    for (i, &b) in given.iter().enumerate() {
        difference |= b ^ expected.get(i).copied().unwrap_or(0);
    }
    difference == 0
}

/// A fresh join code: eight characters a person can read out without confusion, in two
/// groups (`k7m2-qx4p`).
pub fn new_code() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    let mut rng = fastrand::Rng::new();
    let mut code: String = (0..8)
        .map(|_| char::from(ALPHABET[rng.usize(..ALPHABET.len())]))
        .collect();
    code.insert(4, '-');
    code
}

/// The program's version, as `hello` carries it.
fn program() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// A host waiting for, or playing with, one player.
pub struct Host {
    listener: TcpListener,
    code: String,
    rules: Variant,
}

impl Host {
    /// Listens on `bind`:`port` (`port` 0 takes any free port).
    pub fn bind(bind: IpAddr, port: u16, rules: Variant) -> io::Result<Host> {
        let listener = TcpListener::bind((bind, port))?;
        Ok(Host {
            listener,
            code: new_code(),
            rules,
        })
    }

    pub fn code(&self) -> &str {
        &self.code
    }

    /// The address people should join: the one bound to, or loopback when bound to every
    /// interface (this program cannot tell which of them a friend can reach).
    pub fn join_address(&self) -> io::Result<SocketAddr> {
        let mut addr = self.listener.local_addr()?;
        if addr.ip().is_unspecified() {
            addr.set_ip(if addr.is_ipv4() {
                IpAddr::from([127, 0, 0, 1])
            } else {
                IpAddr::from([0, 0, 0, 0, 0, 0, 0, 1])
            });
        }
        Ok(addr)
    }

    /// Starts accepting players on a thread of its own. A player with the right code gets the
    /// session as `state` holds it at that moment; while one is connected every other is
    /// refused. Returns the link to the current player.
    pub fn start<M: Send + 'static>(
        self,
        state: Arc<Mutex<SessionState>>,
        events: Sender<M>,
        wrap: fn(NetEvent) -> M,
    ) -> io::Result<Link> {
        let link = Link::new();
        link.heartbeat()?;
        let accepting = link.clone();
        let host = Arc::new(self);
        let failures = Arc::new(AtomicU32::new(0));
        let busy = Arc::new(AtomicUsize::new(0));
        thread::Builder::new()
            .name("net-accept".into())
            .spawn(move || {
                for stream in host.listener.incoming() {
                    let Ok(mut stream) = stream else { continue };
                    if busy.fetch_add(1, Ordering::SeqCst) >= MAX_HANDSHAKES {
                        busy.fetch_sub(1, Ordering::SeqCst);
                        let busy = Message::Error {
                            message: "the host is busy: try again in a moment".into(),
                        };
                        let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
                        let _ = stream.write_all(busy.to_line().as_bytes());
                        continue;
                    }
                    let (host, link, state, events, failures, done) = (
                        Arc::clone(&host),
                        accepting.clone(),
                        Arc::clone(&state),
                        events.clone(),
                        Arc::clone(&failures),
                        Arc::clone(&busy),
                    );
                    let spawned =
                        thread::Builder::new()
                            .name("net-handshake".into())
                            .spawn(move || {
                                let outcome =
                                    host.greet(stream, &link, &state, &failures, &events, wrap);
                                done.fetch_sub(1, Ordering::SeqCst);
                                if let Err(why) = outcome {
                                    let _ = events.send(wrap(NetEvent::Notice(why)));
                                }
                            });
                    if spawned.is_err() {
                        busy.fetch_sub(1, Ordering::SeqCst);
                    }
                }
            })?;
        Ok(link)
    }

    /// The handshake with one connection; an error is a line for the host's screen.
    fn greet<M: Send + 'static>(
        &self,
        stream: TcpStream,
        link: &Link,
        state: &Mutex<SessionState>,
        failures: &AtomicU32,
        events: &Sender<M>,
        wrap: fn(NetEvent) -> M,
    ) -> Result<(), String> {
        let addr = stream
            .peer_addr()
            .map_or_else(|_| "somewhere".to_string(), |a| a.to_string());
        let refuse = |mut stream: &TcpStream, why: &str| {
            let message = Message::Error {
                message: why.to_string(),
            };
            let _ = stream.write_all(message.to_line().as_bytes());
            let _ = stream.shutdown(Shutdown::Both);
            format!("Refused a connection from {addr}: {why}")
        };
        let setup = stream
            .set_write_timeout(Some(HANDSHAKE))
            .and_then(|()| Incoming::new(&stream, HANDSHAKE));
        let Ok(mut reader) = setup else {
            return Err(format!(
                "Lost a connection from {addr} during the handshake"
            ));
        };
        let mut buf = Vec::new();
        let hello = match read_line(&mut reader, &mut buf) {
            Ok(true) => Message::parse(&buf).map_err(|e| e.to_string()),
            Ok(false) => Err("it closed without a hello".to_string()),
            Err(e) if e.kind() == io::ErrorKind::InvalidData => {
                Err(ProtocolError::TooLong.to_string())
            }
            Err(_) => Err(format!("no hello within {} s", HANDSHAKE.as_secs())),
        };
        let code = match hello {
            Ok(Message::Hello {
                protocol: PROTOCOL,
                code: Some(code),
                ..
            }) => code,
            Ok(Message::Hello {
                protocol: PROTOCOL, ..
            }) => return Err(refuse(&stream, "hello without a join code")),
            Ok(Message::Hello { protocol, .. }) => {
                let why = format!(
                    "protocol version {protocol} is not spoken here (this host speaks {PROTOCOL})"
                );
                return Err(refuse(&stream, &why));
            }
            Ok(_) => return Err(refuse(&stream, "the first message must be hello")),
            Err(why) => return Err(refuse(&stream, &why)),
        };
        if !code_matches(&code, &self.code) {
            // Each wrong code in a row waits 250 ms longer before its answer, up to 5 s.
            let n = failures.fetch_add(1, Ordering::SeqCst).min(20);
            thread::sleep(Duration::from_millis(250 * u64::from(n)));
            return Err(refuse(&stream, "wrong code"));
        }
        failures.store(0, Ordering::SeqCst);
        let peer = stream.peer_addr().map_err(|e| e.to_string())?;
        // The session is read, the hello written and the connection installed under the
        // connection's lock: a move the host makes meanwhile is either in the hello or sent
        // after it.
        let greeting = || Message::Hello {
            protocol: PROTOCOL,
            program: program(),
            code: None,
            rules: Some(self.rules.into()),
            state: Some(state.lock().unwrap_or_else(PoisonError::into_inner).clone()),
        };
        let refusal = stream.try_clone();
        let joined = Some(NetEvent::Joined(peer));
        match link.install(
            stream,
            reader,
            Some(&greeting),
            joined,
            true,
            (events, wrap),
        ) {
            Ok(true) => Ok(()),
            Ok(false) => match refusal {
                Ok(stream) => Err(refuse(&stream, "a game is already in progress")),
                Err(_) => Err(format!("Refused a connection from {addr}")),
            },
            Err(_) => Err(format!(
                "Lost a connection from {addr} during the handshake"
            )),
        }
    }
}

/// A joiner's way back to its host.
pub struct Joiner {
    addr: SocketAddr,
    code: String,
    link: Link,
}

/// What a joiner learns from the host's hello.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Welcome {
    pub rules: Variant,
    pub state: SessionState,
    /// The host's program version.
    pub program: String,
}

impl Joiner {
    /// Connects to `target` (`HOST` or `HOST:PORT`, [`DEFAULT_PORT`] if none) with `code`,
    /// and starts the connection's threads. An error is a message for the player.
    pub fn join<M: Send + 'static>(
        target: &str,
        code: &str,
        events: &Sender<M>,
        wrap: fn(NetEvent) -> M,
    ) -> Result<(Joiner, Welcome), String> {
        let addr = resolve(target)?;
        let link = Link::new();
        let joiner = Joiner {
            addr,
            code: code.to_string(),
            link,
        };
        let welcome = joiner.connect(events, wrap, false)?;
        joiner
            .link
            .heartbeat()
            .map_err(|e| format!("could not start the heartbeat: {e}"))?;
        Ok((joiner, welcome))
    }

    pub fn link(&self) -> &Link {
        &self.link
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// One connection and handshake; `rejoining` announces the host's session as
    /// [`NetEvent::Rejoined`].
    fn connect<M: Send + 'static>(
        &self,
        events: &Sender<M>,
        wrap: fn(NetEvent) -> M,
        rejoining: bool,
    ) -> Result<Welcome, String> {
        let addr = self.addr;
        let stream = TcpStream::connect_timeout(&addr, HANDSHAKE)
            .map_err(|e| format!("cannot connect to {addr}: {e}"))?;
        let failed = |e: io::Error| format!("the connection to {addr} failed: {e}");
        stream.set_read_timeout(Some(HANDSHAKE)).map_err(failed)?;
        stream.set_write_timeout(Some(HANDSHAKE)).map_err(failed)?;
        let hello = Message::Hello {
            protocol: PROTOCOL,
            program: program(),
            code: Some(self.code.clone()),
            rules: None,
            state: None,
        };
        (&stream)
            .write_all(hello.to_line().as_bytes())
            .map_err(failed)?;
        let mut reader = Incoming::new(&stream, HANDSHAKE).map_err(failed)?;
        let mut buf = Vec::new();
        match read_line(&mut reader, &mut buf) {
            Ok(true) => {}
            Ok(false) => return Err(format!("{addr} closed the connection")),
            Err(_) => return Err(format!("{addr} did not answer like a tictactoe host")),
        }
        let welcome = match Message::parse(&buf) {
            Ok(Message::Hello {
                protocol: PROTOCOL,
                program,
                rules: Some(rules),
                state: Some(state),
                ..
            }) => {
                let rules = Variant::try_from(rules)
                    .map_err(|e| format!("the host's rules are not playable here: {e}"))?;
                Welcome {
                    rules,
                    state,
                    program,
                }
            }
            Ok(Message::Error { message }) => return Err(format!("the host refused: {message}")),
            Ok(Message::Hello { protocol, .. }) if protocol != PROTOCOL => {
                return Err(format!(
                    "the host speaks protocol version {protocol}, this program {PROTOCOL}"
                ));
            }
            _ => return Err(format!("{addr} did not answer like a tictactoe host")),
        };
        // Before the reader starts, so the game is restored before any move arrives.
        let rejoined = rejoining.then(|| NetEvent::Rejoined(welcome.state.clone()));
        self.link
            .install(stream, reader, None, rejoined, false, (events, wrap))
            .map_err(failed)?;
        Ok(welcome)
    }

    /// After a lost connection: tries to get back in every second for [`REJOIN_WINDOW`] on a
    /// thread of its own, then reports [`NetEvent::Rejoined`] or [`NetEvent::Refused`].
    pub fn rejoin<M: Send + 'static>(&self, events: &Sender<M>, wrap: fn(NetEvent) -> M) {
        let again = Joiner {
            addr: self.addr,
            code: self.code.clone(),
            link: self.link.clone(),
        };
        let events = events.clone();
        let _ = thread::Builder::new()
            .name("net-rejoin".into())
            .spawn(move || {
                let start = Instant::now();
                let mut last = String::new();
                while start.elapsed() < REJOIN_WINDOW {
                    thread::sleep(Duration::from_secs(1));
                    match again.connect(&events, wrap, true) {
                        Ok(_) => return,
                        // A refusal other than a full game is final (a wrong code, say).
                        Err(why)
                            if why.starts_with("the host refused")
                                && !why.contains("in progress") =>
                        {
                            let _ = events.send(wrap(NetEvent::Refused(why)));
                            return;
                        }
                        Err(why) => last = why,
                    }
                }
                let _ = events.send(wrap(NetEvent::Refused(format!(
                    "could not get back in within {} minutes ({last})",
                    REJOIN_WINDOW.as_secs() / 60
                ))));
            });
    }
}

/// `HOST` or `HOST:PORT` as a socket address ([`DEFAULT_PORT`] when none is given).
fn resolve(target: &str) -> Result<SocketAddr, String> {
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
        .map_err(|e| format!("cannot find {target}: {e}"))?
        .next()
        .ok_or_else(|| format!("cannot find {target}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_only_exactly() {
        assert!(code_matches("k7m2-qx4p", "k7m2-qx4p"));
        for wrong in ["", "k7m2-qx4", "k7m2-qx4pp", "K7M2-QX4P", "a7m2-qx4p"] {
            assert!(!code_matches(wrong, "k7m2-qx4p"), "{wrong}");
        }
    }

    #[test]
    fn new_codes_are_readable_and_differ() {
        let (a, b) = (new_code(), new_code());
        assert_ne!(a, b);
        assert_eq!(a.len(), 9);
        assert!(a.chars().all(|c| c == '-' || c.is_ascii_alphanumeric()));
        assert!(!a.contains(['0', 'o', '1', 'l', 'i']));
    }

    #[test]
    fn targets_take_the_default_port() {
        assert_eq!(resolve("127.0.0.1").unwrap().port(), DEFAULT_PORT);
        assert_eq!(resolve("127.0.0.1:9").unwrap().port(), 9);
        assert_eq!(resolve("[::1]:9").unwrap().port(), 9);
        assert_eq!(resolve("::1").unwrap().port(), DEFAULT_PORT);
        assert!(resolve("127.0.0.1:99999").is_err());
    }
}
