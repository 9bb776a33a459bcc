//! The people who watch a hosted game. A watcher proves the join code as a player does and
//! says it comes to watch; the host welcomes it with the session as it stands (a late watcher
//! gets the game so far: its first moves in the welcome, the rest in updates right after it)
//! and from then on sends it an `update` whenever the session changes:
//! the moves it has not seen, the clock and how the game ended. A watcher never plays:
//! anything it sends but a ping or a goodbye closes its connection, and nothing it sends
//! reaches the game. The host takes at most its limit of watchers at once; the players are
//! told how many watch.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread;

use crate::net::link::{Admit, Connection, Link, LinkEvent, Sink};
use crate::net::protocol::{EndedState, HEARTBEAT, Message, SessionState};

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
    /// How many the game was last told.
    told: usize,
}

/// One watcher: its connection and what it has been sent.
struct Watcher {
    link: Link,
    /// Raised when its connection is gone.
    gone: Arc<AtomicBool>,
    sent: Sent,
}

/// What a watcher has been sent: the round, how many of its moves, and how it ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Sent {
    round: u32,
    moves: usize,
    ending: Option<EndedState>,
}

impl Sent {
    fn of(state: &SessionState) -> Sent {
        Sent {
            round: state.round,
            moves: state.moves.len(),
            ending: state.ending.clone(),
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
    /// No watchers yet, and room for `limit`; a thread pings those who come.
    pub fn new(limit: usize) -> Watchers {
        let watchers = Watchers {
            inner: Arc::new(Mutex::new(Inner {
                limit,
                list: Vec::new(),
                sink: None,
                told: 0,
            })),
        };
        let pinged = Arc::downgrade(&watchers.inner);
        let _ = thread::Builder::new()
            .name("net-watchers".into())
            .spawn(move || {
                loop {
                    thread::sleep(HEARTBEAT);
                    let Some(inner) = pinged.upgrade() else {
                        return;
                    };
                    for watcher in &locked(&inner).list {
                        watcher.link.send(&Message::Ping);
                    }
                }
            });
        watchers
    }

    /// The host's game hears through `sink` how many watch ([`LinkEvent::Watching`]).
    pub fn tell(&self, sink: Sink) {
        locked(&self.inner).sink = Some(sink);
    }

    /// How many watch now.
    pub fn count(&self) -> usize {
        locked(&self.inner).list.len()
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
        // The welcome holds the round's first moves, as many as a line takes; the updates
        // after it bring the rest, and how the game ended.
        let first = SessionState {
            moves: state.moves.iter().take(MOVES_A_LINE).cloned().collect(),
            ending: None,
            ..state.clone()
        };
        let sent = Sent::of(&first);
        let greeting = move || welcome(first.clone());
        let link = Link::new();
        let gone = Arc::new(AtomicBool::new(false));
        let sink = self.watcher_sink(link.clone(), Arc::clone(&gone));
        match link.install(connection, Some(&greeting), None, Admit::Always, &sink) {
            Ok(Ok(())) => {}
            Ok(Err(_)) | Err(_) => return Err(NotAdmitted::Failed),
        }
        for update in updates(&sent, &state) {
            link.send(&update);
        }
        inner.list.push(Watcher {
            link,
            gone,
            sent: Sent::of(&state),
        });
        inner.tell_count();
        Ok(())
    }

    /// Where a watcher's connection reports: a goodbye or a lost connection lets it go, and
    /// anything else it sends closes it.
    fn watcher_sink(&self, link: Link, gone: Arc<AtomicBool>) -> Sink {
        let watchers = Arc::downgrade(&self.inner);
        Arc::new(move |event| {
            match event {
                LinkEvent::Received(Message::Bye) => {}
                LinkEvent::Received(_) => {
                    link.refuse("a watcher only watches: it sends nothing but ping and bye");
                    return true;
                }
                _ => {}
            }
            if matches!(
                event,
                LinkEvent::Lost(_) | LinkEvent::Received(Message::Bye)
            ) {
                gone.store(true, Ordering::SeqCst);
                // Told on a thread of its own: the link reports a loss under its own lock,
                // which an update being sent may hold while it waits for the watchers'.
                let watchers = watchers.clone();
                let _ = thread::Builder::new()
                    .name("net-watcher-gone".into())
                    .spawn(move || {
                        if let Some(inner) = watchers.upgrade() {
                            let mut inner = locked(&inner);
                            inner.list.retain(|w| !w.gone.load(Ordering::SeqCst));
                            inner.tell_count();
                        }
                    });
            }
            true
        })
    }

    /// Sends each watcher what changed in the session since it was last sent anything.
    pub fn publish(&self, state: &SessionState) {
        let mut inner = locked(&self.inner);
        for watcher in &mut inner.list {
            for update in updates(&watcher.sent, state) {
                if !watcher.link.send(&update) {
                    break;
                }
            }
            watcher.sent = Sent::of(state);
        }
    }

    /// Says goodbye to every watcher.
    pub fn leave(&self) {
        let links: Vec<Link> = locked(&self.inner)
            .list
            .iter()
            .map(|w| w.link.clone())
            .collect();
        for link in links {
            link.leave();
        }
    }
}

impl Inner {
    /// Tells the game how many watch, if that changed.
    fn tell_count(&mut self) {
        let count = self.list.len();
        if count != self.told
            && let Some(sink) = &self.sink
        {
            self.told = count;
            sink(LinkEvent::Watching(count));
        }
    }
}

/// The updates that bring a watcher from `sent` to `state`: none if nothing changed; the
/// round's moves from the first if the round is new to it; otherwise the moves after those
/// it has, with the clock and the ending.
fn updates(sent: &Sent, state: &SessionState) -> Vec<Message> {
    let same_round = sent.round == state.round && sent.moves <= state.moves.len();
    let from = if same_round { sent.moves } else { 0 };
    if same_round && from == state.moves.len() && sent.ending == state.ending {
        return Vec::new();
    }
    let new = &state.moves[from..];
    let chunks: Vec<&[String]> = if new.is_empty() {
        vec![new]
    } else {
        new.chunks(MOVES_A_LINE).collect()
    };
    let mut at = from;
    chunks
        .into_iter()
        .map(|moves| {
            let update = Message::Update {
                round: state.round,
                score: state.score,
                from: u32::try_from(at).unwrap_or(u32::MAX),
                moves: moves.to_vec(),
                clock: state.clock.clone(),
                ending: state.ending.clone(),
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
        }
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
    }
}
