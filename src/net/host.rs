//! The host's side of the handshake: listening, admitting connections through the [`Gate`]
//! (which shares the host's attention fairly between addresses and makes every answer after
//! a wrong code wait), proving the join code by a key exchange ([`crate::net::seal`]), and
//! refusing with a typed [`Refusal`], counted so a storm of connections makes a few lines,
//! not one line each. At most [`THREADS`] threads work on strangers' connections.

use std::collections::BTreeMap;
use std::io::{self, BufReader};
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, UdpSocket};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::net::failure::{HELLO_WITHIN, Refusal, RefusalNotice};
use crate::net::gate::{Gate, Turn};
use crate::net::link::{
    Admit, Connection, Incoming, Link, LinkEvent, Sink, write_message, write_sealed,
};
use crate::net::peer::{Peer, PeerKey};
use crate::net::protocol::{Message, PROTOCOL, ProtocolError, SessionState, program, read_line};
use crate::net::seal::{Exchange, Keys, Role, Sealer};
use crate::net::stream::Wire;
use crate::net::watchers::{DEFAULT_LIMIT, NotAdmitted, Watchers, greeting};
use crate::rules::position::Variant;

/// Threads working on strangers' connections, at most: past it a connection is told the
/// host is busy by the accepting thread, which starts none. More than the places, slots and
/// line of the [`Gate`] hold together, so only a storm of connections meets it.
const THREADS: usize = 192;
/// Refusals shown one by one in each [`TALLY_WINDOW`]; the rest are counted and summed up
/// at its end, and while they keep coming (a window had some counted), the next window shows
/// its summary only.
const SHOWN_PER_WINDOW: usize = 10;
const TALLY_WINDOW: Duration = Duration::from_secs(10);

/// Refusals of the current window: how many were shown, and the rest by label.
struct Tally {
    shown: usize,
    hidden: BTreeMap<&'static str, u64>,
}

/// What the accepting threads share.
struct Shared {
    host: Host,
    link: Link,
    state: Arc<Mutex<SessionState>>,
    sink: Sink,
    gate: Mutex<Gate>,
    /// Handshake threads running ([`THREADS`] at most).
    threads: AtomicUsize,
    tally: Mutex<Tally>,
}

/// One handshake thread counted in [`Shared::threads`] while it lives.
struct Running(Arc<Shared>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.threads.fetch_sub(1, Ordering::SeqCst);
    }
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where a host's connections come from.
enum Source {
    /// Accepted on a TCP port.
    Listener(TcpListener),
    /// Handed over by another transport as loopback streams, each with the peer behind it.
    Fed(Mutex<Receiver<(Wire, Peer)>>),
}

/// What a `join` that opened with the code said: the rejoin token it shows, whether it asks
/// for hints and whether it comes to watch; and how long it took to come after the host's
/// hello (a round trip, and the joiner's half of the key exchange).
struct Joined {
    token: Option<String>,
    hints: bool,
    watch: bool,
    trip: Duration,
}

/// A host waiting for, or playing with, one player.
pub struct Host {
    source: Source,
    code: String,
    rules: Variant,
    /// Whether the host asks for hints, as its welcome tells the joiner.
    hints: bool,
    /// Those who watch the game.
    watchers: Watchers,
}

impl Host {
    /// Listens on `bind`:`port` (`port` 0 takes any free port).
    pub fn bind(bind: IpAddr, port: u16, rules: Variant) -> io::Result<Host> {
        let listener = TcpListener::bind((bind, port))?;
        Ok(Host {
            source: Source::Listener(listener),
            code: new_code(),
            rules,
            hints: false,
            watchers: Watchers::new(DEFAULT_LIMIT),
        })
    }

    /// A host whose connections another transport hands over through `feed`: each stream
    /// with the peer it carries, whose key shares the handshake places as an address does.
    pub fn fed(feed: Receiver<(Wire, Peer)>, rules: Variant) -> Host {
        Host {
            source: Source::Fed(Mutex::new(feed)),
            code: new_code(),
            rules,
            hints: false,
            watchers: Watchers::new(DEFAULT_LIMIT),
        }
    }

    /// Whether the host asks for hints (it does not unless told): hints are on in the game
    /// only when the player who joins asks too.
    pub fn ask_hints(&mut self, on: bool) {
        self.hints = on;
    }

    pub fn code(&self) -> &str {
        &self.code
    }

    /// Takes at most `limit` watchers at once (0: none).
    pub fn limit_watchers(&mut self, limit: usize) {
        self.watchers = Watchers::new(limit);
    }

    /// Those who watch the game: what the host's connection publishes the session to.
    pub fn watchers(&self) -> Watchers {
        self.watchers.clone()
    }

    /// The address people should join: the one bound to, or when bound to every interface
    /// this machine's address on its network ([`network_address`]), else loopback.
    pub fn join_address(&self) -> io::Result<SocketAddr> {
        let Source::Listener(listener) = &self.source else {
            return Err(io::ErrorKind::Unsupported.into());
        };
        let mut addr = listener.local_addr()?;
        if addr.ip().is_unspecified() {
            let loopback = if addr.is_ipv4() {
                IpAddr::from([127, 0, 0, 1])
            } else {
                IpAddr::from([0, 0, 0, 0, 0, 0, 0, 1])
            };
            addr.set_ip(network_address(addr.is_ipv6()).unwrap_or(loopback));
        }
        Ok(addr)
    }

    /// Starts accepting players on a thread of its own. A player with the right code gets the
    /// session as `state` holds it at that moment; while one is connected every other is
    /// refused. Returns the link to the current player.
    pub fn start(self, state: Arc<Mutex<SessionState>>, sink: Sink) -> io::Result<Link> {
        let link = Link::new();
        link.heartbeat()?;
        self.watchers.tell(Arc::clone(&sink));
        let shared = Arc::new(Shared {
            host: self,
            link: link.clone(),
            state,
            sink,
            gate: Mutex::new(Gate::default()),
            threads: AtomicUsize::new(0),
            tally: Mutex::new(Tally {
                shown: 0,
                hidden: BTreeMap::new(),
            }),
        });
        let tallying = Arc::clone(&shared);
        thread::Builder::new()
            .name("net-tally".into())
            .spawn(move || tallying.sum_up())?;
        thread::Builder::new()
            .name("net-accept".into())
            .spawn(move || shared.accept())?;
        Ok(link)
    }
}

impl Shared {
    /// The accepting thread: every connection gets a place and a handshake thread.
    fn accept(self: &Arc<Shared>) {
        loop {
            let (stream, peer) = match &self.host.source {
                Source::Listener(listener) => {
                    if let Ok((stream, addr)) = listener.accept() {
                        (Wire::from(stream), Some(Peer::from(addr)))
                    } else {
                        // Out of file descriptors, say: let the handshakes finish.
                        thread::sleep(Duration::from_millis(20));
                        continue;
                    }
                }
                Source::Fed(feed) => match locked(feed).recv() {
                    Ok((stream, peer)) => (stream, Some(peer)),
                    Err(_) => return,
                },
            };
            if stream.closed_already() {
                // A connect-and-close storm costs no thread.
                self.count(peer, Refusal::Closed);
                continue;
            }
            if self.threads.load(Ordering::SeqCst) >= THREADS {
                let _ = stream.set_write_timeout(Some(Duration::from_millis(50)));
                refuse(&stream, &Refusal::Busy);
                self.count(peer, Refusal::Busy);
                continue;
            }
            let copy = stream.clone();
            let ip = peer
                .as_ref()
                .map_or(PeerKey::Ip(IpAddr::V4(Ipv4Addr::UNSPECIFIED)), Peer::key);
            let (id, evicted) = locked(&self.gate).admit(ip, copy);
            if let Some(old) = evicted {
                let _ = old.set_write_timeout(Some(Duration::from_millis(50)));
                refuse(&old, &Refusal::Busy);
            }
            self.threads.fetch_add(1, Ordering::SeqCst);
            let running = Running(Arc::clone(self));
            let spawned = thread::Builder::new()
                .name("net-handshake".into())
                .spawn(move || {
                    let shared = &running.0;
                    if let Err(answer) = shared.greet(&stream, id, ip, peer.clone()) {
                        let refusal = match answer {
                            Answer::Clear(refusal) => {
                                refuse(&stream, &refusal);
                                refusal
                            }
                            Answer::Sealed(refusal, mut sealer) => {
                                refuse_sealed(&stream, &mut sealer, &refusal);
                                refusal
                            }
                        };
                        shared.count(peer, refusal);
                    }
                });
            if spawned.is_err() {
                locked(&self.gate).release(id);
            }
        }
    }

    /// The handshake with one connection; a refusal to send in the clear (before the key
    /// exchange) or sealed (after it: the joiner trusts nothing unsealed from then on).
    fn greet(&self, stream: &Wire, id: u64, ip: PeerKey, peer: Option<Peer>) -> Result<(), Answer> {
        stream
            .set_write_timeout(Some(HELLO_WITHIN))
            .map_err(|_| Answer::Clear(Refusal::Closed))?;
        let mut reader =
            Incoming::new(stream, HELLO_WITHIN).map_err(|_| Answer::Clear(Refusal::Closed))?;
        let mut buf = Vec::new();
        let first = first_line(&mut reader, &mut buf);
        if !locked(&self.gate).release(id) {
            return Err(Answer::Clear(Refusal::Busy));
        }
        first.map_err(Answer::Clear)?;
        let pake = read_hello(&buf).map_err(Answer::Clear)?;
        let slot = self
            .slot(ip, stream.clone())
            .ok_or(Answer::Clear(Refusal::Busy))?;
        let answered = self.answer(stream, reader, &pake, (slot, ip), peer);
        locked(&self.gate).release_slot(slot);
        answered
    }

    /// A slot for the key exchange of `stream`, from `ip`, once its turn in line comes
    /// ([`Gate::turn`]); `None` (busy) if it gave way in line or waited [`HELLO_WITHIN`].
    fn slot(&self, ip: PeerKey, stream: Wire) -> Option<u64> {
        let start = Instant::now();
        let id = locked(&self.gate).queue(ip, stream);
        loop {
            // The gate is locked for the look only, never through the wait.
            let turn = locked(&self.gate).turn(id, Instant::now());
            match turn {
                Turn::Slot(slot, evicted) => {
                    if let Some(old) = evicted {
                        let _ = old.shutdown(Shutdown::Both);
                    }
                    return Some(slot);
                }
                Turn::Gone => return None,
                Turn::Wait if start.elapsed() >= HELLO_WITHIN => {
                    locked(&self.gate).leave_line(id);
                    return None;
                }
                Turn::Wait => thread::sleep(Duration::from_millis(10)),
            }
        }
    }

    /// The key exchange in `slot` for a connection from `ip`, and its answer: the welcome,
    /// or the refusal, sealed. Either waits as long as the other would have
    /// ([`Gate::answer_delay`]), so that neither its time nor whether it comes tells a
    /// guesser anything before that.
    fn answer(
        &self,
        stream: &Wire,
        mut reader: BufReader<Incoming>,
        pake: &str,
        (slot, ip): (u64, PeerKey),
        peer: Option<Peer>,
    ) -> Result<(), Answer> {
        let (keys, joined) = self
            .exchange(stream, &mut reader, pake)
            .map_err(Answer::Clear)?;
        if !locked(&self.gate).answering(slot) {
            // It gave way to another before its `join` came.
            return Err(Answer::Clear(Refusal::Closed));
        }
        let now = Instant::now();
        let delay = {
            let mut gate = locked(&self.gate);
            let delay = gate.answer_delay(ip, now);
            if matches!(joined, Err(Refusal::WrongCode)) {
                gate.count_wrong(ip, now);
            }
            delay
        };
        thread::sleep(delay);
        let Joined {
            token: shown,
            hints,
            watch,
            trip,
        } = match joined {
            Ok(joined) => joined,
            Err(refusal) => return Err(Answer::Sealed(refusal, Box::new(keys.seal))),
        };
        locked(&self.gate).forgive(ip);
        let Some(peer) = peer else {
            return Err(Answer::Clear(Refusal::Closed));
        };
        let connection = Connection {
            stream: stream.clone(),
            reader,
            keys,
            trip: Some(trip),
        };
        if watch {
            return self.watch(connection);
        }
        self.seat(peer, connection, shown, hints)
    }

    /// Lets in a watcher whose code is proven on `connection`: the welcome, with the session
    /// as it is now, or the refusal, sealed.
    fn watch(&self, connection: Connection) -> Result<(), Answer> {
        let read = || locked(&self.state).clone();
        let welcome = |state| Message::Welcome {
            rules: self.host.rules.into(),
            state,
            token: String::new(),
            hints: false,
        };
        match self.host.watchers.admit(connection, &read, &welcome) {
            Ok(()) => Ok(()),
            Err(NotAdmitted::Full(sealer)) => Err(Answer::Sealed(
                Refusal::Full(self.host.watchers.limit()),
                Box::new(sealer),
            )),
            Err(NotAdmitted::Failed) => Err(Answer::Clear(Refusal::Closed)),
        }
    }

    /// Seats the joiner whose code is proven on `connection`: the welcome, with the session
    /// as it is now, or the refusal, sealed.
    fn seat(
        &self,
        peer: Peer,
        connection: Connection,
        shown: Option<String>,
        hints: bool,
    ) -> Result<(), Answer> {
        let issued = new_code();
        // The session is read, the welcome written and the connection installed under the
        // connection's lock: a move the host makes meanwhile is either in the welcome or sent
        // after it.
        // A long game's moves come in updates after the welcome, within the protocol's line.
        let welcome = |state| Message::Welcome {
            rules: self.host.rules.into(),
            state,
            token: issued.clone(),
            hints: self.host.hints,
        };
        let greeting = || greeting(&locked(&self.state), &welcome);
        let admit = Admit::Seat {
            from: peer.key(),
            shown,
            issued: issued.clone(),
        };
        let joined = Some(LinkEvent::Joined { peer, hints });
        match self
            .link
            .install(connection, Some(&greeting), joined, admit, &self.sink)
        {
            Ok(Ok(())) => Ok(()),
            Ok(Err(sealer)) => Err(Answer::Sealed(Refusal::InProgress, Box::new(sealer))),
            Err(_) => Err(Answer::Clear(Refusal::Closed)),
        }
    }

    /// The key exchange with the join code, after the joiner's hello (`pake`, its half):
    /// ours, and the joiner's first sealed message, which opens only if it used the same
    /// code. Returns the keys (a refusal from here on is sealed with them), and the token the
    /// joiner shows, if any, and whether it asks for hints, or why it is refused.
    #[allow(clippy::type_complexity)]
    fn exchange(
        &self,
        stream: &Wire,
        reader: &mut BufReader<Incoming>,
        pake: &str,
    ) -> Result<(Keys, Result<Joined, Refusal>), Refusal> {
        let (exchange, mine) = Exchange::start(Role::Host, &self.host.code);
        let mut keys = exchange.finish(pake).map_err(|_| Refusal::NoExchange)?;
        let hello = Message::Hello {
            protocol: PROTOCOL,
            program: program(),
            pake: Some(mine),
        };
        write_message(stream, &hello).map_err(|_| Refusal::Closed)?;
        let sent = Instant::now();
        // The hello may have waited in line for its key exchange: the `join` has the whole
        // time a hello has.
        Incoming::renew(reader, HELLO_WITHIN);
        let mut buf = Vec::new();
        if let Err(refusal) = first_line(reader, &mut buf) {
            return Ok((keys, Err(refusal)));
        }
        let joined = match keys.open.open(&buf) {
            Err(_) => Err(Refusal::WrongCode),
            Ok(text) => match Message::parse(&text) {
                Ok(Message::Join {
                    token,
                    hints,
                    watch,
                }) => Ok(Joined {
                    token,
                    hints,
                    watch,
                    trip: sent.elapsed(),
                }),
                Ok(_) => Err(Refusal::NotHello),
                Err(e) => Err(Refusal::Junk(e)),
            },
        };
        Ok((keys, joined))
    }

    /// Counts a refusal: shown by itself while few have been this window, else summed up.
    fn count(&self, from: Option<Peer>, refusal: Refusal) {
        let mut tally = locked(&self.tally);
        if tally.shown < SHOWN_PER_WINDOW {
            tally.shown += 1;
            drop(tally);
            (self.sink)(LinkEvent::Refused(RefusalNotice::One { from, refusal }));
        } else {
            *tally.hidden.entry(refusal.label()).or_insert(0) += 1;
        }
    }

    /// Every [`TALLY_WINDOW`], reports the refusals not shown one by one, and starts a new
    /// window: quiet enough to show some one by one again, unless some were counted.
    fn sum_up(&self) {
        loop {
            thread::sleep(TALLY_WINDOW);
            let mut tally = locked(&self.tally);
            tally.shown = if tally.hidden.is_empty() {
                0
            } else {
                SHOWN_PER_WINDOW
            };
            let counts: Vec<(&'static str, u64)> =
                std::mem::take(&mut tally.hidden).into_iter().collect();
            drop(tally);
            if !counts.is_empty() {
                let notice = RefusalNotice::More {
                    within: TALLY_WINDOW,
                    counts,
                };
                if !(self.sink)(LinkEvent::Refused(notice)) {
                    return;
                }
            }
        }
    }
}

/// This machine's address on its network: the one its route to other networks leaves from,
/// found by pointing a UDP socket at a documentation address (RFC 5737, RFC 3849), which sends
/// nothing. `None` without such a route, or when that address is loopback.
pub fn network_address(v6: bool) -> Option<IpAddr> {
    let (local, remote) = if v6 {
        ("[::]:0", "[2001:db8::1]:9")
    } else {
        ("0.0.0.0:0", "192.0.2.1:9")
    };
    let socket = UdpSocket::bind(local).ok()?;
    socket.connect(remote).ok()?;
    let ip = socket.local_addr().ok()?.ip();
    (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
}

/// Reads the next line of the handshake into `buf`.
fn first_line(reader: &mut BufReader<Incoming>, buf: &mut Vec<u8>) -> Result<(), Refusal> {
    match read_line(reader, buf) {
        Ok(true) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            Err(Refusal::Junk(ProtocolError::TooLong))
        }
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) =>
        {
            Err(Refusal::NoHello)
        }
        Ok(false) | Err(_) => Err(Refusal::Closed),
    }
}

/// A joiner's hello: its half of the key exchange.
fn read_hello(line: &[u8]) -> Result<String, Refusal> {
    match Message::parse(line).map_err(Refusal::Junk)? {
        Message::Hello {
            protocol: PROTOCOL,
            pake: Some(pake),
            ..
        } => Ok(pake),
        Message::Hello {
            protocol: PROTOCOL, ..
        } => Err(Refusal::NoExchange),
        Message::Hello { protocol, .. } => Err(Refusal::Version(protocol)),
        _ => Err(Refusal::NotHello),
    }
}

/// How a refusal is told: in the clear before the key exchange, sealed after it (a joiner
/// believes nothing unsealed once the exchange is done).
enum Answer {
    Clear(Refusal),
    Sealed(Refusal, Box<Sealer>),
}

/// Tells a connection why it is refused, sealed with `sealer`, and closes it. A joiner with
/// another code cannot open it, and takes that as the host not knowing its code.
fn refuse_sealed(stream: &Wire, sealer: &mut Sealer, refusal: &Refusal) {
    let message = Message::Error {
        message: refusal.to_string(),
        kind: Some(refusal.kind()),
    };
    if refusal != &Refusal::Closed {
        let _ = write_sealed(stream, sealer, &message);
    }
    let _ = stream.shutdown(Shutdown::Both);
}

/// Tells a connection why it is refused, and closes it.
fn refuse(stream: &Wire, refusal: &Refusal) {
    let message = Message::Error {
        message: refusal.to_string(),
        kind: Some(refusal.kind()),
    };
    if refusal != &Refusal::Closed {
        let _ = write_message(stream, &message);
    }
    let _ = stream.shutdown(Shutdown::Both);
}

/// A fresh join code: eight characters a person can read out without confusion, in two
/// groups (`k7m2-qx4p`), drawn from the system's secure random source: 31⁸, about 2⁴⁰
/// codes, of which a stranger gets one guess per connection, each answered slower than the
/// last.
pub fn new_code() -> String {
    const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";
    // A byte below 248 (8 × 31) is taken modulo 31, so every letter is as likely.
    let limit = 256 - 256 % ALPHABET.len();
    let mut code = String::with_capacity(9);
    while code.len() < 9 {
        let mut bytes = [0u8; 32];
        if getrandom::fill(&mut bytes).is_err() {
            fastrand::fill(&mut bytes);
        }
        for byte in bytes.iter().map(|&b| usize::from(b)).filter(|&b| b < limit) {
            if code.len() == 4 {
                code.push('-');
            }
            if code.len() < 9 {
                code.push(char::from(ALPHABET[byte % ALPHABET.len()]));
            }
        }
    }
    code
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn the_network_address_is_never_loopback_or_unspecified() {
        for v6 in [false, true] {
            if let Some(ip) = network_address(v6) {
                assert!(!ip.is_loopback() && !ip.is_unspecified(), "{ip}");
                assert_eq!(ip.is_ipv6(), v6);
            }
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
    fn refusals_past_the_first_few_are_summed_up_in_one_line() {
        let more = RefusalNotice::More {
            within: TALLY_WINDOW,
            counts: vec![("busy", 4000), ("wrong code", 213)],
        };
        assert_eq!(
            more.to_string(),
            "Refused 4,213 more connections in the last 10 s (busy 4,000, wrong code 213)"
        );
        let addr: SocketAddr = "127.0.0.1:9".parse().unwrap();
        let one = RefusalNotice::One {
            from: Some(addr.into()),
            refusal: Refusal::WrongCode,
        };
        assert_eq!(
            one.to_string(),
            "Refused a connection from 127.0.0.1:9: wrong code"
        );
    }
}
