//! The host's side of the handshake: listening, sharing the handshake places fairly between
//! addresses, proving the join code by a key exchange ([`crate::net::seal`]), and refusing with a typed [`Refusal`], counted so a
//! storm of connections makes a few lines, not one line each.
//!
//! Fairness: a connection holds a place only until its hello has arrived, within
//! [`HELLO_WITHIN`]. When every place is taken a newcomer still gets one: the oldest
//! handshake of the address holding the most places gives way (told the host is busy), and an
//! address already holding its share gives way its own oldest. A proper player's hello
//! arrives at once, so strangers who connect and say nothing, or dribble, cannot keep it out.
//! A wrong code is answered after a delay that grows with that address's wrong codes in a
//! row. The key exchanges in flight and the wrong codes waiting for their answer are limited
//! per address, each on its own count: a wrong code past the limit waits in line for its
//! delay (never answered sooner), and strangers serving their delays never hold up a proper
//! joiner's exchange from the same address.

use std::collections::{BTreeMap, HashMap};
use std::io::{self, BufReader};
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::net::failure::{HELLO_WITHIN, Refusal, RefusalNotice};
use crate::net::link::{
    Admit, Connection, Incoming, Link, LinkEvent, Sink, write_message, write_sealed,
};
use crate::net::peer::{Peer, PeerKey};
use crate::net::protocol::{Message, PROTOCOL, ProtocolError, SessionState, program, read_line};
use crate::net::seal::{Exchange, Keys, Role, Sealer};
use crate::position::Variant;

/// Handshakes heard at once, and at most this many from one address (or online peer).
const PLACES: usize = 16;
const PLACES_PER_ADDRESS: usize = 4;
/// Connections waiting for the answer to a wrong code, in all and from one address.
const WAITING: usize = 32;
const WAITING_PER_ADDRESS: usize = 8;
/// Each wrong code in a row from an address waits this much longer for its answer, up to
/// [`PENALTY_MAX`]; an address forgets its wrong codes after [`FORGET`].
const PENALTY_STEP: Duration = Duration::from_millis(250);
const PENALTY_MAX: Duration = Duration::from_secs(3);
/// How long a wrong code waits in line for its delay before it is answered busy instead.
const PENALTY_QUEUE: Duration = Duration::from_secs(10);
const FORGET: Duration = Duration::from_mins(1);
/// Addresses remembered for their wrong codes, at most.
const REMEMBERED: usize = 4096;
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

/// A handshake in progress.
struct Place {
    id: u64,
    ip: PeerKey,
    stream: TcpStream,
}

/// The handshake places, the connections waiting for a wrong code's answer, and each
/// address's wrong codes in a row.
#[derive(Default)]
struct Gate {
    /// Oldest first.
    places: Vec<Place>,
    next: u64,
    /// Key exchanges in flight, by address.
    waiting: HashMap<PeerKey, usize>,
    /// Wrong codes serving their delay, by address.
    penalized: HashMap<PeerKey, usize>,
    failures: HashMap<PeerKey, (u32, Instant)>,
}

impl Gate {
    /// A place for a connection from `ip`, and the connection that gave way for it, if one
    /// had to: the oldest of `ip`'s own when it holds its share, else when every place is
    /// taken the oldest of the address holding the most.
    fn admit(&mut self, ip: PeerKey, stream: TcpStream) -> (u64, Option<TcpStream>) {
        let count = |ip: PeerKey| self.places.iter().filter(|p| p.ip == ip).count();
        let victim_ip = if count(ip) >= PLACES_PER_ADDRESS {
            Some(ip)
        } else if self.places.len() >= PLACES {
            self.places.iter().map(|p| p.ip).max_by_key(|&a| count(a))
        } else {
            None
        };
        // Of the victim's places, the oldest that has sent nothing yet gives way; one whose
        // hello has arrived but is not read yet only when all have.
        let evicted = victim_ip
            .and_then(|v| {
                let theirs = || {
                    self.places
                        .iter()
                        .enumerate()
                        .filter(move |(_, p)| p.ip == v)
                };
                theirs()
                    .find(|(_, p)| !has_input(&p.stream))
                    .or_else(|| theirs().next())
                    .map(|(i, _)| i)
            })
            .map(|i| self.places.remove(i).stream);
        self.next += 1;
        self.places.push(Place {
            id: self.next,
            ip,
            stream,
        });
        (self.next, evicted)
    }

    /// Gives place `id` up; `false` if it had already given way to another.
    fn release(&mut self, id: u64) -> bool {
        let before = self.places.len();
        self.places.retain(|p| p.id != id);
        self.places.len() < before
    }

    /// A wrong code from `ip`: how long its answer waits, or `None` when too many wait
    /// already (it is told the host is busy).
    fn penalty(&mut self, ip: PeerKey) -> Option<Duration> {
        if !take(&mut self.penalized, ip) {
            return None;
        }
        let now = Instant::now();
        if self.failures.len() >= REMEMBERED {
            self.failures
                .retain(|_, (_, at)| now.duration_since(*at) < FORGET);
        }
        let entry = self.failures.entry(ip).or_insert((0, now));
        if now.duration_since(entry.1) >= FORGET {
            entry.0 = 0;
        }
        let delay = (PENALTY_STEP * entry.0).min(PENALTY_MAX);
        *entry = (entry.0.saturating_add(1), now);
        Some(delay)
    }

    /// A connection from `ip` starts to wait (for the key exchange to end, or for a wrong
    /// code's answer); `false` when too many wait already, in all or from `ip`.
    fn enter(&mut self, ip: PeerKey) -> bool {
        take(&mut self.waiting, ip)
    }

    fn done_waiting(&mut self, ip: PeerKey) {
        give(&mut self.waiting, ip);
    }

    /// A wrong code from `ip` has served its delay.
    fn done_penalty(&mut self, ip: PeerKey) {
        give(&mut self.penalized, ip);
    }
}

/// One more of `counts` for `ip`; `false` when [`WAITING`] are counted in all or
/// [`WAITING_PER_ADDRESS`] for `ip`.
fn take(counts: &mut HashMap<PeerKey, usize>, ip: PeerKey) -> bool {
    let in_all: usize = counts.values().sum();
    let mine = counts.get(&ip).copied().unwrap_or(0);
    if in_all >= WAITING || mine >= WAITING_PER_ADDRESS {
        return false;
    }
    *counts.entry(ip).or_insert(0) += 1;
    true
}

/// One fewer of `counts` for `ip`.
fn give(counts: &mut HashMap<PeerKey, usize>, ip: PeerKey) {
    if let Some(n) = counts.get_mut(&ip) {
        *n -= 1;
        if *n == 0 {
            counts.remove(&ip);
        }
    }
}

/// What the accepting threads share.
struct Shared {
    host: Host,
    link: Link,
    state: Arc<Mutex<SessionState>>,
    sink: Sink,
    gate: Mutex<Gate>,
    /// Told when a wrong code has served its delay, for those waiting in line for theirs.
    served: Condvar,
    tally: Mutex<Tally>,
}

fn locked<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Where a host's connections come from.
enum Source {
    /// Accepted on a TCP port.
    Listener(TcpListener),
    /// Handed over by another transport as loopback streams, each with the peer behind it.
    Fed(Mutex<Receiver<(TcpStream, Peer)>>),
}

/// A host waiting for, or playing with, one player.
pub struct Host {
    source: Source,
    code: String,
    rules: Variant,
    /// Whether the host asks for hints, as its welcome tells the joiner.
    hints: bool,
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
        })
    }

    /// A host whose connections another transport hands over through `feed`: each stream
    /// with the peer it carries, whose key shares the handshake places as an address does.
    pub fn fed(feed: Receiver<(TcpStream, Peer)>, rules: Variant) -> Host {
        Host {
            source: Source::Fed(Mutex::new(feed)),
            code: new_code(),
            rules,
            hints: false,
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
        let shared = Arc::new(Shared {
            host: self,
            link: link.clone(),
            state,
            sink,
            gate: Mutex::new(Gate::default()),
            served: Condvar::new(),
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
                        (stream, Some(Peer::from(addr)))
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
            if closed_already(&stream) {
                // A connect-and-close storm costs no thread.
                self.count(peer, Refusal::Closed);
                continue;
            }
            let Ok(copy) = stream.try_clone() else {
                continue;
            };
            let ip = peer
                .as_ref()
                .map_or(PeerKey::Ip(IpAddr::V4(Ipv4Addr::UNSPECIFIED)), Peer::key);
            let (id, evicted) = locked(&self.gate).admit(ip, copy);
            if let Some(old) = evicted {
                let _ = old.set_write_timeout(Some(Duration::from_millis(50)));
                refuse(&old, &Refusal::Busy);
            }
            let shared = Arc::clone(self);
            let spawned = thread::Builder::new()
                .name("net-handshake".into())
                .spawn(move || {
                    if let Err(refusal) = shared.greet(&stream, id, ip, peer.clone()) {
                        let refusal = match refusal {
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

    /// The delay a wrong code from `ip` waits before its answer, once its turn comes among
    /// the wrong codes of its address; `None` if none comes within [`PENALTY_QUEUE`].
    fn penalty(&self, ip: PeerKey) -> Option<Duration> {
        let deadline = Instant::now() + PENALTY_QUEUE;
        let mut gate = locked(&self.gate);
        loop {
            if let Some(delay) = gate.penalty(ip) {
                return Some(delay);
            }
            let left = deadline.checked_duration_since(Instant::now())?;
            gate = self
                .served
                .wait_timeout(gate, left)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// The handshake with one connection; a refusal to send in the clear (before the key
    /// exchange) or sealed (after it: the joiner trusts nothing unsealed from then on).
    fn greet(
        &self,
        stream: &TcpStream,
        id: u64,
        ip: PeerKey,
        peer: Option<Peer>,
    ) -> Result<(), Answer> {
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
        // The rest of the exchange waits among those counted per address, as wrong codes do.
        if !locked(&self.gate).enter(ip) {
            return Err(Answer::Clear(Refusal::Busy));
        }
        let exchanged = self.exchange(stream, &mut reader, &pake);
        locked(&self.gate).done_waiting(ip);
        let (keys, joined) = exchanged.map_err(Answer::Clear)?;
        let (shown, hints) = match joined {
            Ok(joined) => joined,
            Err(Refusal::WrongCode) => {
                let refusal = match self.penalty(ip) {
                    Some(delay) => {
                        thread::sleep(delay);
                        locked(&self.gate).done_penalty(ip);
                        self.served.notify_all();
                        Refusal::WrongCode
                    }
                    None => Refusal::Busy,
                };
                return Err(Answer::Sealed(refusal, Box::new(keys.seal)));
            }
            Err(refusal) => return Err(Answer::Sealed(refusal, Box::new(keys.seal))),
        };
        locked(&self.gate).failures.remove(&ip);
        let (Some(peer), Ok(copy)) = (peer, stream.try_clone()) else {
            return Err(Answer::Clear(Refusal::Closed));
        };
        let connection = Connection {
            stream: copy,
            reader,
            keys,
        };
        self.seat(peer, connection, shown, hints)
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
        let greeting = || Message::Welcome {
            rules: self.host.rules.into(),
            state: locked(&self.state).clone(),
            token: issued.clone(),
            hints: self.host.hints,
        };
        let admit = Admit::Seat {
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
        stream: &TcpStream,
        reader: &mut BufReader<Incoming>,
        pake: &str,
    ) -> Result<(Keys, Result<(Option<String>, bool), Refusal>), Refusal> {
        let (exchange, mine) = Exchange::start(Role::Host, &self.host.code);
        let mut keys = exchange.finish(pake).map_err(|_| Refusal::NoExchange)?;
        let hello = Message::Hello {
            protocol: PROTOCOL,
            program: program(),
            pake: Some(mine),
        };
        write_message(stream, &hello).map_err(|_| Refusal::Closed)?;
        let mut buf = Vec::new();
        if let Err(refusal) = first_line(reader, &mut buf) {
            return Ok((keys, Err(refusal)));
        }
        let joined = match keys.open.open(&buf) {
            Err(_) => Err(Refusal::WrongCode),
            Ok(text) => match Message::parse(&text) {
                Ok(Message::Join { token, hints }) => Ok((token, hints)),
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

/// Whether `stream` was closed (or reset) by the other side before anything arrived, found
/// without waiting.
/// Whether `stream` has bytes waiting to be read, looked at without waiting and without
/// changing the socket's mode (a handshake thread may be reading it).
#[cfg(unix)]
fn has_input(stream: &TcpStream) -> bool {
    use rustix::net::{RecvFlags, recv};
    let mut byte = [0u8; 1];
    matches!(
        recv(stream, &mut byte, RecvFlags::PEEK | RecvFlags::DONTWAIT),
        Ok((n, _)) if n > 0
    )
}

/// Elsewhere the oldest place gives way, whatever it has sent.
#[cfg(not(unix))]
fn has_input(_: &TcpStream) -> bool {
    false
}

fn closed_already(stream: &TcpStream) -> bool {
    if stream.set_nonblocking(true).is_err() {
        return false;
    }
    let closed = match stream.peek(&mut [0u8; 1]) {
        Ok(n) => n == 0,
        Err(e) => e.kind() != io::ErrorKind::WouldBlock,
    };
    closed || stream.set_nonblocking(false).is_err()
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
fn refuse_sealed(stream: &TcpStream, sealer: &mut Sealer, refusal: &Refusal) {
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
fn refuse(stream: &TcpStream, refusal: &Refusal) {
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

    fn key(ip: [u8; 4]) -> PeerKey {
        PeerKey::Ip(IpAddr::from(ip))
    }

    /// A connected pair of loopback streams, the server's end first.
    fn pair(listener: &TcpListener) -> TcpStream {
        let _client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        listener.accept().unwrap().0
    }

    #[test]
    fn an_address_holding_its_share_gives_way_its_own_oldest_place() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut gate = Gate::default();
        let (a, b) = (key([10, 0, 0, 1]), PeerKey::Endpoint([7; 32]));
        let (first_b, _) = gate.admit(b, pair(&listener));
        let ids: Vec<u64> = (0..PLACES_PER_ADDRESS)
            .map(|_| gate.admit(a, pair(&listener)).0)
            .collect();
        let (_, evicted) = gate.admit(a, pair(&listener));
        assert!(evicted.is_some(), "a fifth place from one address evicts");
        assert!(!gate.release(ids[0]), "the oldest of that address gave way");
        assert!(gate.release(first_b), "another address keeps its place");
    }

    #[test]
    fn a_full_gate_takes_from_the_address_with_the_most_places() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut gate = Gate::default();
        let mut first = None;
        for i in 0..PLACES {
            let ip = key([10, 0, 0, (i % 5) as u8]);
            let (id, evicted) = gate.admit(ip, pair(&listener));
            assert!(evicted.is_none());
            first.get_or_insert(id);
        }
        // 10.0.0.0 holds four places (0, 5, 10, 15), more than any other.
        let (_, evicted) = gate.admit(key([10, 0, 0, 9]), pair(&listener));
        assert!(evicted.is_some());
        assert!(!gate.release(first.unwrap()));
        assert_eq!(gate.places.len(), PLACES);
    }

    #[test]
    fn wrong_codes_wait_longer_in_a_row_and_only_so_many_wait() {
        let mut gate = Gate::default();
        let ip = PeerKey::Endpoint([1; 32]);
        let delays: Vec<Duration> = (0..3).map(|_| gate.penalty(ip).unwrap()).collect();
        assert_eq!(delays, [Duration::ZERO, PENALTY_STEP, PENALTY_STEP * 2]);
        for _ in 3..WAITING_PER_ADDRESS {
            assert!(gate.penalty(ip).is_some());
        }
        assert_eq!(gate.penalty(ip), None, "too many wait from one address");
        assert!(gate.penalty(PeerKey::Endpoint([2; 32])).is_some());
        assert!(gate.enter(ip), "a key exchange is counted apart");
        gate.done_penalty(ip);
        assert!(gate.penalty(ip).unwrap() <= PENALTY_MAX);
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
