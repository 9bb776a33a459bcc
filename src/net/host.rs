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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
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
/// Key exchanges under way or waiting to give their answer, in all and from one address
/// (the online peers counting as one address, and an IPv6 network's /64 too).
const SLOTS: usize = 48;
const SLOTS_PER_ADDRESS: usize = 16;
/// Each wrong code in a row from an address makes the answers to that address wait this much
/// longer, up to [`PENALTY_MAX`]; so does each [`WRONG_PER_STEP`] wrong codes from anywhere.
/// An address forgets its wrong codes after [`FORGET`] without one, the host its count too.
const PENALTY_STEP: Duration = Duration::from_millis(250);
const PENALTY_MAX: Duration = Duration::from_secs(3);
const WRONG_PER_STEP: u32 = 4;
const FORGET: Duration = Duration::from_mins(1);
/// Addresses remembered for their wrong codes, at most.
const REMEMBERED: usize = 4096;
/// Threads working on strangers' connections, at most: past it a connection is told the
/// host is busy by the accepting thread, which starts none.
const THREADS: usize = 128;
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

/// A key exchange under way, or waiting to give its answer.
struct Slot {
    id: u64,
    ip: PeerKey,
    stream: TcpStream,
    /// Whether the joiner's sealed `join` has been read: from then on the slot waits for its
    /// answer, and never gives way (that the code was right or wrong is known here only).
    answering: bool,
}

/// The handshake places, the key exchanges' slots, and the wrong codes of each address and
/// of all of them.
#[derive(Default)]
struct Gate {
    /// Oldest first.
    places: Vec<Place>,
    next: u64,
    /// Oldest first.
    slots: Vec<Slot>,
    failures: HashMap<PeerKey, (u32, Instant)>,
    /// Wrong codes from anywhere, and when the last came.
    wrong: (u32, Option<Instant>),
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

    /// A slot for the key exchange of a connection from `ip`, and the connection that gave
    /// way for it, if one had to: of those whose `join` has not come yet, the oldest of `ip`'s
    /// own when it holds its share, else when every slot is taken the oldest of the address
    /// holding the most. `None` where none can give way (the host is busy).
    fn take_slot(&mut self, ip: PeerKey, stream: TcpStream) -> Option<(u64, Option<TcpStream>)> {
        let ip = group(ip);
        let count = |ip: PeerKey| self.slots.iter().filter(|s| s.ip == ip).count();
        let victim_ip = if count(ip) >= SLOTS_PER_ADDRESS {
            Some(ip)
        } else if self.slots.len() >= SLOTS {
            let yielding = self.slots.iter().filter(|s| !s.answering);
            Some(yielding.map(|s| s.ip).max_by_key(|&a| count(a))?)
        } else {
            None
        };
        let evicted = match victim_ip {
            Some(v) => {
                let at = self.slots.iter().position(|s| s.ip == v && !s.answering)?;
                Some(self.slots.remove(at).stream)
            }
            None => None,
        };
        self.next += 1;
        self.slots.push(Slot {
            id: self.next,
            ip,
            stream,
            answering: false,
        });
        Some((self.next, evicted))
    }

    /// Slot `id`'s `join` has come: it waits for its answer; `false` if it gave way before.
    fn answering(&mut self, id: u64) -> bool {
        self.slots
            .iter_mut()
            .find(|s| s.id == id)
            .map(|s| s.answering = true)
            .is_some()
    }

    fn release_slot(&mut self, id: u64) {
        self.slots.retain(|s| s.id != id);
    }

    /// How long an answer to `ip` waits now: longer for each of its wrong codes in a row and
    /// for every [`WRONG_PER_STEP`] from anywhere, up to [`PENALTY_MAX`]. The same for a right
    /// code as for a wrong one, so the time of an answer tells nothing.
    fn answer_delay(&mut self, ip: PeerKey, now: Instant) -> Duration {
        let mine = match self.failures.get(&group(ip)) {
            Some(&(n, at)) if now.duration_since(at) < FORGET => n,
            _ => 0,
        };
        let all = match self.wrong {
            (n, Some(at)) if now.duration_since(at) < FORGET => n / WRONG_PER_STEP,
            _ => 0,
        };
        (PENALTY_STEP * mine.max(all)).min(PENALTY_MAX)
    }

    /// A wrong code from `ip`, counted as soon as it is known, whether or not its sender waits
    /// for the answer.
    fn count_wrong(&mut self, ip: PeerKey, now: Instant) {
        if self.failures.len() >= REMEMBERED {
            self.failures
                .retain(|_, (_, at)| now.duration_since(*at) < FORGET);
        }
        let entry = self.failures.entry(group(ip)).or_insert((0, now));
        if now.duration_since(entry.1) >= FORGET {
            entry.0 = 0;
        }
        *entry = (entry.0.saturating_add(1), now);
        let quiet = self
            .wrong
            .1
            .is_none_or(|at| now.duration_since(at) >= FORGET);
        self.wrong = (
            if quiet {
                1
            } else {
                self.wrong.0.saturating_add(1)
            },
            Some(now),
        );
    }
}

/// The key under which a peer's slots and wrong codes are counted: an online peer's key costs
/// nothing to make, so all online peers count as one; an IPv6 address as its /64, which one
/// machine may hold whole.
fn group(ip: PeerKey) -> PeerKey {
    match ip {
        PeerKey::Endpoint(_) => PeerKey::Endpoint([0; 32]),
        PeerKey::Ip(IpAddr::V6(v6)) => {
            let mut octets = v6.octets();
            octets[8..].fill(0);
            PeerKey::Ip(IpAddr::from(octets))
        }
        ip @ PeerKey::Ip(IpAddr::V4(_)) => ip,
    }
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
            if self.threads.load(Ordering::SeqCst) >= THREADS {
                let _ = stream.set_write_timeout(Some(Duration::from_millis(50)));
                refuse(&stream, &Refusal::Busy);
                self.count(peer, Refusal::Busy);
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
        let copy = stream
            .try_clone()
            .map_err(|_| Answer::Clear(Refusal::Closed))?;
        let Some((slot, evicted)) = locked(&self.gate).take_slot(ip, copy) else {
            return Err(Answer::Clear(Refusal::Busy));
        };
        if let Some(old) = evicted {
            let _ = old.shutdown(Shutdown::Both);
        }
        let answered = self.answer(stream, reader, &pake, (slot, ip), peer);
        locked(&self.gate).release_slot(slot);
        answered
    }

    /// The key exchange in `slot` for a connection from `ip`, and its answer: the welcome,
    /// or the refusal, sealed. Either waits as long as the other would have
    /// ([`Gate::answer_delay`]), so that neither its time nor whether it comes tells a
    /// guesser anything before that.
    fn answer(
        &self,
        stream: &TcpStream,
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
        let (shown, hints) = match joined {
            Ok(joined) => joined,
            Err(refusal) => return Err(Answer::Sealed(refusal, Box::new(keys.seal))),
        };
        locked(&self.gate).failures.remove(&group(ip));
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
    fn answers_wait_longer_for_each_wrong_code_in_a_row_and_for_wrong_codes_from_anywhere() {
        let mut gate = Gate::default();
        let now = Instant::now();
        let (ip, other) = (key([10, 0, 0, 1]), key([10, 0, 0, 2]));
        let delays: Vec<Duration> = (0..3)
            .map(|_| {
                let delay = gate.answer_delay(ip, now);
                gate.count_wrong(ip, now);
                delay
            })
            .collect();
        assert_eq!(delays, [Duration::ZERO, PENALTY_STEP, PENALTY_STEP * 2]);
        assert_eq!(
            gate.answer_delay(other, now),
            Duration::ZERO,
            "3 from anywhere"
        );
        gate.count_wrong(ip, now);
        assert_eq!(
            gate.answer_delay(other, now),
            PENALTY_STEP,
            "4 from anywhere"
        );
        for _ in 0..100 {
            gate.count_wrong(ip, now);
        }
        assert_eq!(gate.answer_delay(ip, now), PENALTY_MAX);
        assert_eq!(
            gate.answer_delay(ip, now + FORGET),
            Duration::ZERO,
            "forgotten"
        );
    }

    #[test]
    fn online_peers_share_one_address_and_an_ipv6_network_its_64() {
        assert_eq!(
            group(PeerKey::Endpoint([1; 32])),
            group(PeerKey::Endpoint([2; 32]))
        );
        let a: IpAddr = "2001:db8::1".parse().unwrap();
        let b: IpAddr = "2001:db8::ffff:2".parse().unwrap();
        let c: IpAddr = "2001:db8:0:1::1".parse().unwrap();
        assert_eq!(group(PeerKey::Ip(a)), group(PeerKey::Ip(b)));
        assert_ne!(group(PeerKey::Ip(a)), group(PeerKey::Ip(c)));
    }

    #[test]
    fn a_key_exchange_not_yet_answering_gives_way_and_one_answering_never_does() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let mut gate = Gate::default();
        let a = key([10, 0, 0, 1]);
        let ids: Vec<u64> = (0..SLOTS_PER_ADDRESS)
            .map(|_| gate.take_slot(a, pair(&listener)).unwrap().0)
            .collect();
        assert!(gate.answering(ids[0]));
        let (_, evicted) = gate.take_slot(a, pair(&listener)).unwrap();
        assert!(
            evicted.is_some(),
            "past its share, an address gives way its own"
        );
        assert!(!gate.answering(ids[1]), "the oldest not answering gave way");
        assert!(gate.answering(ids[0]), "one answering stays");
        // Fill the rest from other addresses, none past its share: a full host takes from
        // the address with the most.
        let mut n = 2u8;
        while gate.slots.len() < SLOTS {
            let ip = key([10, 0, 1, n / 8]);
            n += 1;
            gate.take_slot(ip, pair(&listener)).unwrap();
        }
        let (_, evicted) = gate.take_slot(key([10, 0, 0, 3]), pair(&listener)).unwrap();
        assert!(evicted.is_some());
        assert_eq!(gate.slots.len(), SLOTS);
        // Where every slot answers, none gives way: busy.
        let all: Vec<u64> = gate.slots.iter().map(|s| s.id).collect();
        for id in all {
            gate.answering(id);
        }
        assert!(
            gate.take_slot(key([10, 0, 0, 4]), pair(&listener))
                .is_none()
        );
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
