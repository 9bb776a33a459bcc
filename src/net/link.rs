//! One connection to the other player, after its handshake: sending, a reader thread that
//! passes messages on, a heartbeat, and closing with a reason. Both the host and the joiner
//! use a [`Link`]; what arrives goes to the game loop's channel as [`LinkEvent`]s through a
//! [`Sink`].

use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufReader};
use std::net::Shutdown;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::net::failure::{JoinError, RefusalNotice};
use crate::net::peer::{Peer, PeerKey};
use crate::net::protocol::{
    HEARTBEAT, MAX_WIRE, Message, ProtocolError, SILENCE, SessionState, read_line,
};
use crate::net::seal::{Keys, Opener, SealError, Sealer};
use crate::net::stream::Wire;

/// More messages than this in one second close the connection.
const FLOOD: usize = 64;
/// A watcher's limit instead, on what its host sends: every move of both players, however
/// fast they come.
pub const WATCHER_FLOOD: usize = 1024;

/// What the connection tells the game loop, before the game makes sense of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LinkEvent {
    /// (Host) a player joined, or rejoined, from `peer`; `hints`: it asks for hints.
    Joined { peer: Peer, hints: bool },
    /// (Joiner) back in after a lost connection: the host's session, which is the truth.
    Rejoined(SessionState),
    /// A message from the other side, after the handshake. Pings are not passed on; what
    /// their echoes time is, as [`LinkEvent::RoundTrip`].
    Received(Message),
    /// The connection is gone, and why, for people.
    Lost(String),
    /// (Joiner) the host did not take us back.
    RejoinFailed(JoinError),
    /// (Host) connections refused: one, or a count of those not shown one by one.
    Refused(RefusalNotice),
    /// (Host) how many watch the game now.
    Watching(usize),
    /// The longest of the round trips timed lately on the connection: the most of a
    /// remote player's answer that may have been the way there and back.
    RoundTrip(Duration),
}

/// Where the connection's threads send their events: the game loop's channel, wrapped in the
/// loop's own message type. Returns whether anyone still listens.
pub type Sink = Arc<dyn Fn(LinkEvent) -> bool + Send + Sync>;

/// A [`Sink`] into `tx`, each event wrapped by `wrap`.
pub fn sink<M: Send + 'static>(tx: Sender<M>, wrap: fn(LinkEvent) -> M) -> Sink {
    Arc::new(move |event| tx.send(wrap(event)).is_ok())
}

/// The read half of a connection. During the handshake the whole hello must arrive before a
/// deadline (a peer that dribbles a byte at a time cannot hold a place); after it, each read
/// waits at most [`SILENCE`], as the socket's timeout says.
pub struct Incoming {
    stream: Wire,
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
    pub fn new(stream: &Wire, within: Duration) -> io::Result<BufReader<Incoming>> {
        Ok(BufReader::new(Incoming {
            stream: stream.clone(),
            deadline: Some(Instant::now() + within),
        }))
    }

    /// The next line of the handshake has the whole of the next `within` to come.
    pub fn renew(reader: &mut BufReader<Incoming>, within: Duration) {
        reader.get_mut().deadline = Some(Instant::now() + within);
    }

    /// The handshake is over: from now on silence, not a deadline, ends the connection.
    fn settle(reader: &mut BufReader<Incoming>) -> io::Result<()> {
        let incoming = reader.get_mut();
        incoming.deadline = None;
        incoming.stream.set_read_timeout(Some(SILENCE))
    }
}

/// Writes `message` as one line, not sealed (the hellos, and refusals during the handshake);
/// a message too long to send is an error, never a panic.
pub fn write_message(stream: &Wire, message: &Message) -> io::Result<()> {
    let line = message
        .to_line()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    stream.write_all(line.as_bytes())
}

/// Writes `message` as one sealed line.
pub fn write_sealed(stream: &Wire, sealer: &mut Sealer, message: &Message) -> io::Result<()> {
    let line = message
        .to_line()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    stream.write_all(
        sealer
            .seal(line.trim_end_matches('\n').as_bytes())
            .as_bytes(),
    )
}

/// Why a sealed line is not a message: it does not open with the keys, or what it holds is not
/// one.
#[derive(Debug)]
pub enum OpenError {
    Seal(SealError),
    Protocol(ProtocolError),
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Seal(e) => e.fmt(f),
            OpenError::Protocol(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OpenError {}

/// The message in a sealed line, or why it is not one.
pub fn open_message(opener: &mut Opener, line: &[u8]) -> Result<Message, OpenError> {
    let text = opener.open(line).map_err(OpenError::Seal)?;
    Message::parse(&text).map_err(OpenError::Protocol)
}

/// A connection whose handshake is over: the stream, its read half, the keys that seal
/// each direction, and the round trip the handshake took, where this side timed one.
pub struct Connection {
    pub stream: Wire,
    pub reader: BufReader<Incoming>,
    pub keys: Keys,
    pub trip: Option<Duration>,
}

/// How many pings may wait for their echo; an older one is forgotten.
const WAITING: usize = 8;
/// How many of the latest round trips count.
const TIMED: usize = 4;

/// The pings sent on the current connection that wait for their echo, and the round trips
/// the latest echoes timed.
#[derive(Default)]
struct Trips {
    next: u32,
    waiting: VecDeque<(u32, Instant)>,
    timed: VecDeque<Duration>,
}

impl Trips {
    /// A new ping's id, sent at `now`.
    fn send(&mut self, now: Instant) -> u32 {
        let id = self.next;
        self.next = self.next.wrapping_add(1);
        if self.waiting.len() == WAITING {
            self.waiting.pop_front();
        }
        self.waiting.push_back((id, now));
        id
    }

    /// A round trip of `trip` was timed.
    fn timed(&mut self, trip: Duration) {
        if self.timed.len() == TIMED {
            self.timed.pop_front();
        }
        self.timed.push_back(trip);
    }

    /// The echo of ping `id` came at `now`: the longest round trip of late, or `None` for an
    /// echo of no ping waiting (made up, or of a ping forgotten). Pings sent before it are
    /// not waited for any more.
    fn echoed(&mut self, id: u32, now: Instant) -> Option<Duration> {
        let at = self
            .waiting
            .iter()
            .position(|&(waiting, _)| waiting == id)?;
        let (_, sent) = self.waiting.drain(..=at).next_back()?;
        self.timed(now.saturating_duration_since(sent));
        self.longest()
    }

    fn longest(&self) -> Option<Duration> {
        self.timed.iter().max().copied()
    }
}

/// The current connection and why it was closed, if this side closed it.
#[derive(Default)]
struct Slot {
    stream: Option<Wire>,
    /// Seals what is sent on `stream`.
    sealer: Option<Sealer>,
    /// Counts connections, so a reader can tell whether it is still the current one.
    generation: u64,
    closing: Option<String>,
    /// (Host) the token of the player who holds the seat, and where it joined from.
    token: Option<String>,
    holder: Option<PeerKey>,
    /// (Host) when the seat's connection was lost, while no other has taken its place: the
    /// seat is kept for its token until [`seat_kept`] has passed.
    lost: Option<Instant>,
    /// More messages than this in one second close the connection ([`FLOOD`] unless set).
    flood: Option<usize>,
    /// The round trips of the current connection.
    trips: Trips,
}

impl Slot {
    /// Writes `message` sealed to the connection, if there is one.
    fn write(&mut self, message: &Message) -> Option<io::Result<()>> {
        let (Some(stream), Some(sealer)) = (self.stream.as_ref(), self.sealer.as_mut()) else {
            return None;
        };
        Some(write_sealed(stream, sealer, message))
    }
}

/// Who may take the connection's place.
pub enum Admit {
    /// Whoever comes: the joiner's own connection, new or renewed.
    Always,
    /// (Host) `from`, showing `shown`: the seat's player when it matches the seat's token;
    /// once that player's connection is lost, also a join from where the player joined from
    /// (the player's program started again, which has no token; online, where a program
    /// started again has a new endpoint key, any join); anyone while the seat is
    /// free (no player yet, or none back within [`seat_kept`]). The one admitted gets the
    /// seat's new token `issued`.
    Seat {
        from: PeerKey,
        shown: Option<String>,
        issued: String,
    },
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
    pub fn new() -> Link {
        Link {
            slot: Arc::new(Mutex::new(Slot::default())),
        }
    }

    /// Takes up to `limit` messages a second from the other side before it counts as a flood
    /// (a watcher's, from its host).
    pub fn allow(&self, limit: usize) {
        lock(&self.slot).flood = Some(limit);
    }

    /// Sends `message` if connected; a failed write closes the connection (the reader then
    /// reports it lost). Returns whether it was sent.
    pub fn send(&self, message: &Message) -> bool {
        let mut slot = lock(&self.slot);
        match slot.write(message) {
            None => false,
            Some(Ok(())) => true,
            Some(Err(_)) => {
                close(&mut slot, "the connection failed");
                false
            }
        }
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
        let _ = slot.write(&Message::error(why));
        close(&mut slot, why);
    }

    /// Says goodbye and closes the connection gently: this side stops sending, and waits up
    /// to a second for the other side to close too, so nothing either side sent is lost.
    pub fn leave(&self) {
        let generation = {
            let mut slot = lock(&self.slot);
            if slot.write(&Message::Bye).is_none() {
                return;
            }
            if let Some(stream) = slot.stream.as_ref() {
                let _ = stream.shutdown(Shutdown::Write);
            }
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

    /// Makes `stream` the connection and starts its reader, after writing `greeting`'s
    /// messages (if any) under the same lock, so nothing else is sent in between, and sending `announce`
    /// to the game, so it arrives before anything the reader passes on. Returns `Ok(false)`
    /// (and changes nothing) when `admit` does not let it in; otherwise a live connection is
    /// replaced.
    pub fn install(
        &self,
        connection: Connection,
        greeting: Option<&dyn Fn() -> Vec<Message>>,
        announce: Option<LinkEvent>,
        admit: Admit,
        sink: &Sink,
    ) -> io::Result<Result<(), Sealer>> {
        let Connection {
            stream,
            mut reader,
            keys:
                Keys {
                    seal: mut sealer,
                    open: opener,
                },
            trip,
        } = connection;
        Incoming::settle(&mut reader)?;
        let generation = {
            let mut slot = lock(&self.slot);
            if let Admit::Seat {
                from,
                shown,
                issued,
            } = admit
            {
                // A seat that has had a player is that player's while it is connected and
                // for as long as it may come back: no one else takes it (a watcher or a
                // stranger who knows the code, joining while the player's link is down).
                let token = shown.is_some() && shown == slot.token;
                let lost = slot.lost.is_some_and(|at| at.elapsed() < seat_kept());
                let admitted = if slot.stream.is_some() {
                    token
                } else if lost {
                    // An online player started again has a new endpoint key, which tells
                    // nothing: there, as before, a join with the code takes the seat back.
                    token || slot.holder == Some(from) || matches!(from, PeerKey::Endpoint(_))
                } else {
                    true
                };
                if !admitted {
                    return Ok(Err(sealer));
                }
                slot.token = Some(issued);
                slot.holder = Some(from);
                slot.lost = None;
            }
            if let Some(greeting) = greeting {
                for message in greeting() {
                    write_sealed(&stream, &mut sealer, &message)?;
                }
            }
            stream.set_write_timeout(Some(SILENCE))?;
            if let Some(old) = slot.stream.take() {
                let _ = old.shutdown(Shutdown::Both);
            }
            slot.stream = Some(stream);
            slot.sealer = Some(sealer);
            slot.generation += 1;
            slot.closing = None;
            slot.trips = Trips::default();
            if let Some(event) = announce {
                sink(event);
            }
            if let Some(trip) = trip {
                slot.trips.timed(trip);
                sink(LinkEvent::RoundTrip(trip));
            }
            slot.generation
        };
        let link = self.clone();
        let sink = Arc::clone(sink);
        thread::Builder::new()
            .name("net-reader".into())
            .spawn(move || link.read(reader, opener, generation, &sink))?;
        Ok(Ok(()))
    }

    /// The reader thread of connection `generation`: passes messages on until the connection
    /// ends, then reports it lost (unless a newer connection took its place).
    fn read(
        &self,
        mut reader: BufReader<Incoming>,
        mut opener: Opener,
        generation: u64,
        sink: &Sink,
    ) {
        let mut buf = Vec::with_capacity(MAX_WIRE);
        let mut window = (Instant::now(), 0usize);
        let flood = lock(&self.slot).flood.unwrap_or(FLOOD);
        let why = loop {
            if let Err(end) = next_line(&mut reader, &mut buf) {
                let why = end.to_string();
                if end == End::TooLong {
                    self.refuse_connection(Some(generation), &why);
                }
                break why;
            }
            if window.0.elapsed() >= Duration::from_secs(1) {
                window = (Instant::now(), 0);
            }
            window.1 += 1;
            let fault = match open_message(&mut opener, &buf) {
                _ if window.1 > flood => "too many messages".to_string(),
                Ok(Message::Ping { id, echo }) => match self.pinged(generation, id, echo) {
                    Some(trip) if !sink(LinkEvent::RoundTrip(trip)) => return,
                    _ => continue,
                },
                Ok(Message::Hello { .. } | Message::Join { .. } | Message::Welcome { .. }) => {
                    "hello was already said".to_string()
                }
                Ok(message) => {
                    if sink(LinkEvent::Received(message)) {
                        continue;
                    }
                    return;
                }
                Err(e) => e.to_string(),
            };
            self.refuse_connection(Some(generation), &fault);
            break fault;
        };
        let mut slot = lock(&self.slot);
        if slot.generation != generation {
            return;
        }
        let why = slot.closing.take().unwrap_or(why);
        close(&mut slot, &why);
        slot.closing = None;
        slot.lost = Some(Instant::now());
        // Under the lock: a connection that takes this one's place announces itself after.
        sink(LinkEvent::Lost(why));
    }

    /// Sends `ping` every [`HEARTBEAT`] while connected, for as long as the program runs,
    /// each with an id for the other side to echo.
    pub fn heartbeat(&self) -> io::Result<()> {
        let link = self.clone();
        thread::Builder::new()
            .name("net-heartbeat".into())
            .spawn(move || {
                loop {
                    thread::sleep(HEARTBEAT);
                    link.ping();
                }
            })?;
        Ok(())
    }

    /// Sends a ping to be echoed, if connected.
    fn ping(&self) {
        let mut slot = lock(&self.slot);
        if slot.stream.is_none() {
            return;
        }
        let id = slot.trips.send(Instant::now());
        let ping = Message::Ping {
            id: Some(id),
            echo: None,
        };
        if let Some(Err(_)) = slot.write(&ping) {
            close(&mut slot, "the connection failed");
        }
    }

    /// Connection `generation` brought a ping: one with an `id` is echoed at once, and the
    /// echo of one of ours times a round trip. Returns the longest round trip of late when
    /// it timed one.
    fn pinged(&self, generation: u64, id: Option<u32>, echo: Option<u32>) -> Option<Duration> {
        let now = Instant::now();
        let mut slot = lock(&self.slot);
        if slot.generation != generation {
            return None;
        }
        if id.is_some() {
            let echo = Message::Ping { id: None, echo: id };
            if let Some(Err(_)) = slot.write(&echo) {
                close(&mut slot, "the connection failed");
            }
        }
        slot.trips.echoed(echo?, now)
    }
}

impl Default for Link {
    fn default() -> Link {
        Link::new()
    }
}

/// How long a host keeps a seat whose connection was lost for the player who held it: as
/// long as that player keeps trying to get back in, and the time its last try may take.
fn seat_kept() -> Duration {
    crate::net::failure::rejoin_window() + crate::net::protocol::SILENCE
}

/// Why reading a settled connection stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    Closed,
    Silent,
    TooLong,
    Failed,
}

impl std::fmt::Display for End {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            End::Closed => write!(f, "the connection closed"),
            End::Silent => write!(f, "no word for {} s", SILENCE.as_secs()),
            End::TooLong => write!(f, "{}", ProtocolError::TooLong),
            End::Failed => write!(f, "the connection failed"),
        }
    }
}

/// Reads the next line of a settled connection into `buf`.
fn next_line(reader: &mut BufReader<Incoming>, buf: &mut Vec<u8>) -> Result<(), End> {
    match read_line(reader, buf) {
        Ok(true) => Ok(()),
        Ok(false) => Err(End::Closed),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) =>
        {
            Err(End::Silent)
        }
        Err(e) if e.kind() == io::ErrorKind::InvalidData => Err(End::TooLong),
        Err(_) => Err(End::Failed),
    }
}

/// Shuts the slot's connection down, remembering why (the reader reports it).
fn close(slot: &mut Slot, why: &str) {
    slot.sealer = None;
    if let Some(stream) = slot.stream.take() {
        let _ = stream.shutdown(Shutdown::Both);
        slot.closing.get_or_insert_with(|| why.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_echo_times_its_ping_and_the_longest_of_the_latest_round_trips_counts() {
        let t0 = Instant::now();
        let ms = Duration::from_millis;
        let mut trips = Trips::default();
        let first = trips.send(t0);
        let second = trips.send(t0 + ms(10));
        assert_eq!(trips.echoed(99, t0 + ms(20)), None, "an echo of no ping");
        assert_eq!(trips.echoed(second, t0 + ms(30)), Some(ms(20)));
        assert_eq!(
            trips.echoed(first, t0 + ms(40)),
            None,
            "a ping sent before one echoed is waited for no more"
        );
        let mut at = t0 + ms(100);
        for trip in [50, 5, 5, 5] {
            let id = trips.send(at);
            at += ms(trip);
            trips.echoed(id, at);
        }
        assert_eq!(trips.longest(), Some(ms(50)), "of the latest four");
        let id = trips.send(at);
        assert_eq!(
            trips.echoed(id, at + ms(5)),
            Some(ms(5)),
            "the fifth forgets the first"
        );
    }

    #[test]
    fn pings_that_get_no_echo_are_forgotten_past_a_few() {
        let t0 = Instant::now();
        let mut trips = Trips::default();
        let ids: Vec<u32> = (0..=WAITING as u64)
            .map(|i| trips.send(t0 + Duration::from_secs(i)))
            .collect();
        assert_eq!(trips.waiting.len(), WAITING);
        assert_eq!(trips.echoed(ids[0], t0 + Duration::from_secs(20)), None);
        assert!(
            trips
                .echoed(ids[WAITING], t0 + Duration::from_secs(20))
                .is_some()
        );
    }
}
