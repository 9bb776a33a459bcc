//! The people who watch a hosted game. A watcher proves the join code as a player does and
//! says it comes to watch; the host welcomes it with the session as it stands (a late watcher
//! gets the game so far: its first moves in the welcome, the rest in updates right after it)
//! and from then on sends it an `update` whenever the session changes:
//! the moves it has not seen, the clock, how the game ended and where the player who
//! joined is. A watcher never plays:
//! anything it sends but a ping or a goodbye closes its connection, and nothing it sends
//! reaches the game. The host takes at most its limit of watchers at once; the players are
//! told how many watch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, SyncSender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use crate::net::link::{Admit, Connection, Link, LinkEvent, Sink};
use crate::net::protocol::{EndedState, HEARTBEAT, JoinerState, Message, SessionState};

/// How many may watch a hosted game at once, unless the host says otherwise.
pub const DEFAULT_LIMIT: usize = 8;

/// The most moves one `update` carries: a longer game goes in several, each within the
/// protocol's line.
const MOVES_A_LINE: usize = 100;

/// The watchers of a hosted game; cloned handles share them.
#[derive(Clone)]
pub struct Watchers {
    inner: Arc<Mutex<Inner>>,
}

struct Inner {
    limit: usize,
    list: Vec<Watcher>,
    /// Where the host's game hears how many watch.
    sink: Option<Sink>,
    /// How many the game was last told, and when.
    told: (usize, Instant),
}

/// One watcher: what is to be sent to it, and what it has been sent.
struct Watcher {
    /// Messages for its writer thread: the game never waits on a watcher's connection.
    queue: SyncSender<Message>,
    /// Raised when its connection is gone, or it does not keep up.
    gone: Arc<AtomicBool>,
    /// Its writer thread, which ends when the queue is sent or the watcher let go.
    writing: thread::JoinHandle<()>,
    sent: Sent,
}

impl Watcher {
    /// Queues `message` for the watcher; one whose queue is full does not keep up and is
    /// let go (its connection closes when its writer gives up).
    fn post(&self, message: Message) {
        if self.queue.try_send(message).is_err() {
            self.gone.store(true, Ordering::SeqCst);
        }
    }
}

/// Messages waiting for one watcher, at most.
const QUEUE: usize = 256;
/// How often the game hears how many watch, at most, and the watchers are looked after.
const TELL_EVERY: Duration = Duration::from_millis(500);
/// How long a host that leaves waits for its watchers to be sent the rest, at most.
const LEAVE_WITHIN: Duration = Duration::from_millis(1500);

/// What a watcher has been sent: the round, how many of its moves, and how it ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Sent {
    round: u32,
    moves: usize,
    ending: Option<EndedState>,
    joiner: Option<JoinerState>,
}

impl Sent {
    fn of(state: &SessionState) -> Sent {
        Sent {
            round: state.round,
            moves: state.moves.len(),
            ending: state.ending.clone(),
            joiner: state.joiner.clone(),
        }
    }
}

/// Why a watcher was not let in.
pub enum NotAdmitted {
    /// As many watch as the host takes.
    Full(crate::net::seal::Sealer),
    /// The connection failed.
    Failed,
}

fn locked(inner: &Mutex<Inner>) -> MutexGuard<'_, Inner> {
    inner.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Watchers {
    /// No watchers yet, and room for `limit`; a thread pings those who come, lets go of
    /// those who left, and tells the game how many watch.
    pub fn new(limit: usize) -> Watchers {
        let watchers = Watchers {
            inner: Arc::new(Mutex::new(Inner {
                limit,
                list: Vec::new(),
                sink: None,
                told: (0, Instant::now()),
            })),
        };
        let looked_after = Arc::downgrade(&watchers.inner);
        let _ = thread::Builder::new()
            .name("net-watchers".into())
            .spawn(move || {
                let mut pinged = Instant::now();
                loop {
                    thread::sleep(TELL_EVERY);
                    let Some(inner) = looked_after.upgrade() else {
                        return;
                    };
                    let mut inner = locked(&inner);
                    if pinged.elapsed() >= HEARTBEAT {
                        pinged = Instant::now();
                        for watcher in &inner.list {
                            watcher.post(Message::ping());
                        }
                    }
                    inner.list.retain(|w| !w.gone.load(Ordering::SeqCst));
                    inner.tell_count();
                }
            });
        watchers
    }

    /// The host's game hears through `sink` how many watch ([`LinkEvent::Watching`]).
    pub fn tell(&self, sink: Sink) {
        locked(&self.inner).sink = Some(sink);
    }

    /// How many may watch at once.
    pub fn limit(&self) -> usize {
        locked(&self.inner).limit
    }

    /// Lets in a watcher whose code is proven on `connection`: it is welcomed with
    /// `welcome(state)`, `state` being the session as it stands, read by `read`.
    pub fn admit(
        &self,
        connection: Connection,
        read: &dyn Fn() -> SessionState,
        welcome: &dyn Fn(SessionState) -> Message,
    ) -> Result<(), NotAdmitted> {
        let mut inner = locked(&self.inner);
        inner.list.retain(|w| !w.gone.load(Ordering::SeqCst));
        if inner.list.len() >= inner.limit {
            return Err(NotAdmitted::Full(connection.keys.seal));
        }
        let state = read();
        let said = greeting(&state, welcome);
        let greeting = move || said.clone();
        let link = Link::new();
        let gone = Arc::new(AtomicBool::new(false));
        let sink = watcher_sink(link.clone(), Arc::clone(&gone));
        match link.install(connection, Some(&greeting), None, Admit::Always, &sink) {
            Ok(Ok(())) => {}
            Ok(Err(_)) | Err(_) => return Err(NotAdmitted::Failed),
        }
        let (queue, writing) = writer(link, Arc::clone(&gone)).ok_or(NotAdmitted::Failed)?;
        let watcher = Watcher {
            queue,
            gone,
            writing,
            sent: Sent::of(&state),
        };
        inner.list.push(watcher);
        inner.tell_count();
        Ok(())
    }

    /// Queues for each watcher what changed in the session since it was last sent anything.
    pub fn publish(&self, state: &SessionState) {
        let mut inner = locked(&self.inner);
        for watcher in &mut inner.list {
            for update in updates(&watcher.sent, state) {
                watcher.post(update);
            }
            watcher.sent = Sent::of(state);
        }
    }

    /// Says goodbye to every watcher once it has been sent all that is queued for it, and
    /// waits for them together, at most [`LEAVE_WITHIN`]: a host that ends its game and
    /// quits must not take the last move away from those who watch it.
    pub fn leave(&self) {
        let list = std::mem::take(&mut locked(&self.inner).list);
        let writing: Vec<_> = list
            .into_iter()
            .map(|watcher| {
                watcher.post(Message::Bye);
                watcher.writing
            })
            .collect();
        let start = Instant::now();
        while start.elapsed() < LEAVE_WITHIN && !writing.iter().all(thread::JoinHandle::is_finished)
        {
            thread::sleep(Duration::from_millis(5));
        }
    }
}

/// A watcher's writer: a thread that sends what is queued on `link` until the connection
/// fails, the watcher is let go, or a goodbye closes it gently; the queue's sending end and
/// the thread.
fn writer(
    link: Link,
    gone: Arc<AtomicBool>,
) -> Option<(SyncSender<Message>, thread::JoinHandle<()>)> {
    let (queue, queued) = mpsc::sync_channel::<Message>(QUEUE);
    let writing = thread::Builder::new()
        .name("net-watcher".into())
        .spawn(move || {
            for message in queued {
                if gone.load(Ordering::SeqCst) {
                    break;
                }
                if message == Message::Bye {
                    gone.store(true, Ordering::SeqCst);
                    link.leave();
                    return;
                }
                if !link.send(&message) {
                    break;
                }
            }
            gone.store(true, Ordering::SeqCst);
            link.refuse("this watcher was let go");
        })
        .ok()?;
    Some((queue, writing))
}

/// Where a watcher's connection reports: a goodbye or a lost connection lets it go (the
/// watchers' thread takes it off the list), and anything else it sends closes it.
fn watcher_sink(link: Link, gone: Arc<AtomicBool>) -> Sink {
    Arc::new(move |event| {
        match event {
            LinkEvent::Received(Message::Bye) | LinkEvent::Lost(_) => {
                gone.store(true, Ordering::SeqCst);
            }
            LinkEvent::Received(_) => {
                link.refuse("a watcher only watches: it sends nothing but ping and bye");
            }
            _ => {}
        }
        true
    })
}

impl Inner {
    /// Tells the game how many watch, if that changed, at most once in [`TELL_EVERY`] (the
    /// watchers' thread tells the rest).
    fn tell_count(&mut self) {
        let count = self.list.len();
        let (told, when) = self.told;
        if count != told
            && when.elapsed() >= TELL_EVERY
            && let Some(sink) = &self.sink
        {
            self.told = (count, Instant::now());
            sink(LinkEvent::Watching(count));
        }
    }
}

/// The session `state` as one who comes in gets it, within the protocol's line: the state
/// for its welcome, with the round's first moves, as many as a line takes, and no ending;
/// and the updates that bring the rest and how the game ended.
pub fn catch_up(state: &SessionState) -> (SessionState, Vec<Message>) {
    let first = SessionState {
        moves: state.moves.iter().take(MOVES_A_LINE).cloned().collect(),
        ending: None,
        more: u32::try_from(state.moves.len().saturating_sub(MOVES_A_LINE)).unwrap_or(u32::MAX),
        ..state.clone()
    };
    let rest = updates(&Sent::of(&first), state);
    (first, rest)
}

/// What one who comes in is told of the session `state`: `welcome` with its first moves,
/// then the updates with the rest ([`catch_up`]).
pub fn greeting(state: &SessionState, welcome: &dyn Fn(SessionState) -> Message) -> Vec<Message> {
    let (first, rest) = catch_up(state);
    std::iter::once(welcome(first)).chain(rest).collect()
}

/// The updates that bring a watcher from `sent` to `state`: none if nothing changed; the
/// round's moves from the first if the round is new to it; otherwise the moves after those
/// it has, with the clock and the ending.
fn updates(sent: &Sent, state: &SessionState) -> Vec<Message> {
    let same_round = sent.round == state.round && sent.moves <= state.moves.len();
    let from = if same_round { sent.moves } else { 0 };
    if same_round
        && from == state.moves.len()
        && sent.ending == state.ending
        && sent.joiner == state.joiner
    {
        return Vec::new();
    }
    let new = &state.moves[from..];
    let chunks: Vec<&[String]> = if new.is_empty() {
        vec![new]
    } else {
        new.chunks(MOVES_A_LINE).collect()
    };
    let (mut at, last) = (from, chunks.len() - 1);
    chunks
        .into_iter()
        .enumerate()
        .map(|(i, moves)| {
            let update = Message::Update {
                round: state.round,
                score: state.score,
                from: u32::try_from(at).unwrap_or(u32::MAX),
                moves: moves.to_vec(),
                clock: state.clock.clone(),
                // How the game ended comes with its last moves, not before them.
                ending: state.ending.clone().filter(|_| i == last),
                joiner: state.joiner.clone(),
            };
            at += moves.len();
            update
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(round: u32, moves: &[&str]) -> SessionState {
        SessionState {
            round,
            score: [0, 0, 0],
            moves: moves.iter().map(ToString::to_string).collect(),
            clock: None,
            ending: None,
            more: 0,
            joiner: None,
        }
    }

    /// A host's end of a loopback connection with a proven code, and the watcher's socket.
    fn watched_connection() -> (Connection, std::net::TcpStream) {
        use crate::net::link::Incoming;
        use crate::net::seal::{Exchange, Role};
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let watcher = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (host, _) = listener.accept().unwrap();
        let (ours, _) = Exchange::start(Role::Host, "code");
        let (_, theirs_said) = Exchange::start(Role::Joiner, "code");
        let stream = crate::net::stream::Wire::from(host);
        let connection = Connection {
            reader: Incoming::new(&stream, Duration::from_secs(5)).unwrap(),
            stream,
            keys: ours.finish(&theirs_said).unwrap(),
            trip: None,
        };
        (connection, watcher)
    }

    #[test]
    fn a_host_that_leaves_has_sent_its_watchers_every_queued_move_and_goodbye_by_then() {
        let watchers = Watchers::new(DEFAULT_LIMIT);
        let (connection, watcher) = watched_connection();
        let (read, welcome) = (|| state(1, &[]), |_| Message::ping());
        assert!(watchers.admit(connection, &read, &welcome).is_ok());
        let mut moves = Vec::new();
        for cell in 0..200 {
            moves.push(cell.to_string());
            let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
            watchers.publish(&state(1, &moves));
        }
        watchers.leave();
        // What has been written is on the watcher's side by now: read it without waiting.
        watcher.set_nonblocking(true).unwrap();
        let mut got = Vec::new();
        let _ = std::io::Read::read_to_end(&mut &watcher, &mut got);
        let lines = got.split(|&b| b == b'\n').count() - 1;
        // The welcome, an update a move, and the goodbye.
        assert!(lines > 201, "only {lines} lines had been sent");
    }

    fn froms(updates: &[Message]) -> Vec<(u32, usize)> {
        updates
            .iter()
            .map(|u| match u {
                Message::Update { from, moves, .. } => (*from, moves.len()),
                other => panic!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_watcher_is_sent_only_the_moves_it_has_not_seen() {
        let seen = Sent::of(&state(1, &["5"]));
        assert!(updates(&seen, &state(1, &["5"])).is_empty(), "nothing new");
        assert_eq!(
            froms(&updates(&seen, &state(1, &["5", "1", "9"]))),
            [(1, 2)]
        );
    }

    #[test]
    fn a_new_round_is_sent_from_its_first_move() {
        let seen = Sent::of(&state(1, &["5", "1", "9"]));
        assert_eq!(froms(&updates(&seen, &state(2, &["7"]))), [(0, 1)]);
        assert_eq!(froms(&updates(&seen, &state(2, &[]))), [(0, 0)]);
    }

    #[test]
    fn the_longest_update_and_welcome_a_host_sends_fit_within_the_line() {
        use crate::net::protocol::{ClockState, JOINER_NAME};
        let long = SessionState {
            round: 999,
            score: [999; 3],
            moves: vec!["t20".to_string(); MOVES_A_LINE],
            clock: Some(ClockState {
                control: "1:30+30".into(),
                left_ms: [5_400_000; 2],
            }),
            ending: Some(EndedState {
                how: "resigned".into(),
                loser: Some("O".into()),
            }),
            more: 300,
            joiner: Some(JoinerState {
                name: "f".repeat(JOINER_NAME),
                here: true,
                left: true,
            }),
        };
        for update in updates(&Sent::default(), &long) {
            assert!(update.to_line().is_ok(), "{update:?}");
        }
        let variant = crate::rules::position::Variant::of_size(20, None, false).unwrap();
        let welcome = Message::Welcome {
            rules: variant.into(),
            state: long,
            token: "t".repeat(9),
            hints: true,
        };
        assert!(welcome.to_line().is_ok());
    }

    #[test]
    fn an_ending_without_a_move_is_sent_and_a_long_game_goes_in_lines() {
        let seen = Sent::of(&state(1, &["5"]));
        let mut resigned = state(1, &["5"]);
        resigned.ending = Some(EndedState {
            how: "resigned".into(),
            loser: Some("O".into()),
        });
        assert_eq!(froms(&updates(&seen, &resigned)), [(1, 0)]);
        let many: Vec<String> = (0..250).map(|i| format!("m{i}")).collect();
        let long = SessionState {
            moves: many,
            ..state(1, &[])
        };
        let sent = updates(&Sent::default(), &long);
        assert_eq!(froms(&sent), [(0, 100), (100, 100), (200, 50)]);
        for update in sent {
            assert!(update.to_line().is_ok(), "within the line");
        }
        // A long game that ended: the ending comes with its last moves only.
        let ended = SessionState {
            ending: resigned.ending.clone(),
            ..long
        };
        let (first, rest) = catch_up(&ended);
        assert_eq!(
            (first.moves.len(), first.more, &first.ending),
            (100, 150, &None)
        );
        let endings: Vec<bool> = rest
            .iter()
            .map(|u| {
                matches!(
                    u,
                    Message::Update {
                        ending: Some(_),
                        ..
                    }
                )
            })
            .collect();
        assert_eq!(endings, [false, true]);
    }
}
