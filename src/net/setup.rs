//! Setting a network game up, the same for both front ends: listening and printing how to
//! join, or joining with a code, to the point where a session, a [`NetGame`] and its
//! [`Connection`] are ready to play.

use std::fmt;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Context;

use crate::ai::player::Player;
use crate::game::clock::TimeControl;
use crate::game::record::Record;
use crate::game::{Session, Side};
use crate::net::discover::{self, Advert, Offer};
use crate::net::host::Host;
use crate::net::join::{Asking, Joiner};
use crate::net::link::{LinkEvent, Sink};
use crate::net::peer::PeerKey;
use crate::net::protocol::{MAX_CODE, cut};
use crate::net::session::{
    Connection, NetGame, joiner_session, standing_of, state_of, watcher_session,
};
use crate::rules::position::Variant;

/// A join code as a person typed it: checked for length where it enters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JoinCode(String);

/// Why a typed join code cannot be one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeError {
    Empty,
    /// Longer than [`MAX_CODE`] characters: how many it has.
    TooLong(usize),
}

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CodeError::Empty => write!(f, "the join code is empty: give the code the host printed"),
            CodeError::TooLong(n) => write!(
                f,
                "a join code is at most {MAX_CODE} characters, and this one has {n}: give the code the host printed"
            ),
        }
    }
}

impl std::error::Error for CodeError {}

impl std::str::FromStr for JoinCode {
    type Err = CodeError;

    fn from_str(text: &str) -> Result<JoinCode, CodeError> {
        let text = text.trim();
        match text.chars().count() {
            0 => Err(CodeError::Empty),
            n if n > MAX_CODE => Err(CodeError::TooLong(n)),
            _ => Ok(JoinCode(text.to_string())),
        }
    }
}

/// A network game ready to play: the session (the host's first round, or the host's game
/// as the joiner gets it), the game's side of the network and the connection. `keep` holds
/// an online transport until the game is dropped; `path` says how a joiner is connected,
/// where the transport can tell (`direct, round trip 0.4 ms`).
pub struct Network {
    pub session: Session,
    pub net: NetGame,
    pub connection: Connection,
    pub keep: Keep,
    pub path: Option<String>,
    /// How the two are connected now, for an online game.
    pub watch: Option<PathWatch>,
}

/// How the two sides are connected now, where the transport can tell (`direct, round trip
/// 0.4 ms`): asked again during a game, since the path changes (relayed at first, direct once
/// the routers let a direct path through).
pub type PathWatch = Arc<dyn Fn() -> Option<String> + Send + Sync>;

/// How an online host is connected now to the peer with this key.
type PathTo = Arc<dyn Fn(&[u8; 32]) -> Option<String> + Send + Sync>;

/// What keeps a transport alive beside the connection (nothing for TCP).
pub struct Keep(#[allow(dead_code)] Option<Box<dyn Send>>);

/// How a host is reached.
#[derive(Clone, Debug)]
pub enum Listen {
    /// On a TCP address and port.
    Tcp { bind: IpAddr, port: u16 },
    /// Online, through a relay (`--relay`, or the public relays).
    #[cfg(feature = "online")]
    Online { relay: Option<String> },
}

impl Listen {
    /// Whether the host is online, which first waits to reach a relay.
    pub fn is_online(&self) -> bool {
        !matches!(self, Listen::Tcp { .. })
    }
}

/// Where a joiner goes.
#[derive(Clone, Debug)]
pub enum Target {
    /// A TCP host (`HOST[:PORT]`) with a join code.
    Address { target: String, code: String },
    /// An online host's ticket, which holds the code, and `--relay` if given.
    #[cfg(feature = "online")]
    Ticket {
        ticket: crate::net::online::Ticket,
        relay: Option<String>,
    },
    /// Several hosts found on this network, tried in turn with the code: the first that
    /// proves it is joined, so a stranger announcing a game cannot stand in for the host.
    Any(Vec<Target>),
}

impl Target {
    /// The host as people read it: `192.168.1.20:7373`, or an online host's short id.
    pub fn name(&self) -> String {
        match self {
            Target::Address { target, .. } => cut(target, 60),
            #[cfg(feature = "online")]
            Target::Ticket { ticket, .. } => ticket.short_name(),
            Target::Any(targets) => format!("{} games found", targets.len()),
        }
    }
}

/// A host listening, not yet accepting.
pub struct Listening {
    host: Host,
    rules: Variant,
    opening: Record,
    join_line: String,
    note: Option<String>,
    keep: Keep,
    /// The game announced on this network until a player joins.
    advert: Option<Advert>,
    /// An online host's way to tell how it is connected to a peer.
    path_to: Option<PathTo>,
    /// Whether the host asks for hints.
    hints: bool,
    /// The clock the games are played on.
    clock: Option<TimeControl>,
}

/// Listens as `how` says for a game of `opening`'s rules, whose first round starts at the
/// end of `opening` (no moves: the empty board). The joiner gets its moves with the game.
#[cfg_attr(not(feature = "online"), allow(clippy::needless_pass_by_value))]
pub fn listen(how: Listen, opening: Record) -> anyhow::Result<Listening> {
    let rules = opening.variant();
    let (bind, port) = match how {
        Listen::Tcp { bind, port } => (bind, port),
        #[cfg(feature = "online")]
        Listen::Online { relay } => return listen_online(relay.as_deref(), opening),
    };
    let host = Host::bind(bind, port, rules).map_err(|e| {
        let hint = if e.kind() == std::io::ErrorKind::AddrInUse {
            format!(
                ": port {port} is taken, perhaps by another game; try another with --port, \
                 or --port 0 for any free one"
            )
        } else {
            String::new()
        };
        anyhow::Error::new(e).context(format!("listening on {bind}:{port}{hint}"))
    })?;
    let addr = host
        .join_address()
        .context("reading the listening address")?;
    let join_line = format!("Join with: tictactoe join {addr} --code {}", host.code());
    let offer = Offer::Tcp {
        port: addr.port(),
        bound: Some(bind),
    };
    Ok(Listening {
        host,
        rules,
        opening,
        join_line,
        note: None,
        keep: Keep(None),
        advert: discover::advertise(&offer, rules),
        path_to: None,
        hints: false,
        clock: None,
    })
}

/// The port an online host announces when it has no direct address (the service needs one;
/// the ticket is what a joiner uses).
#[cfg(feature = "online")]
const DISCARD_PORT: u16 = 9;

#[cfg(feature = "online")]
fn listen_online(relay: Option<&str>, opening: Record) -> anyhow::Result<Listening> {
    use crate::net::online;
    let relay = relay.map(online::relay_url).transpose()?;
    let rules = opening.variant();
    let hosting = online::host(relay, rules)?;
    let offer = Offer::Online {
        ticket: hosting.ticket.announced(),
        port: hosting.ticket.port().unwrap_or(DISCARD_PORT),
    };
    Ok(Listening {
        host: hosting.host,
        rules,
        opening,
        join_line: format!("Join with: tictactoe join {}", hosting.ticket),
        note: hosting.note,
        keep: Keep(Some(Box::new(hosting.keep.clone()))),
        advert: discover::advertise(&offer, rules),
        path_to: Some(Arc::new(move |key| hosting.keep.path_to(key))),
        hints: false,
        clock: None,
    })
}

impl Listening {
    /// Whether the host asks for hints (not unless told): they are on in the game only when
    /// the player who joins asks too.
    pub fn ask_hints(&mut self, on: bool) {
        self.hints = on;
        self.host.ask_hints(on);
    }

    /// Takes at most `limit` watchers at once (0: none).
    pub fn limit_watchers(&mut self, limit: usize) {
        self.host.limit_watchers(limit);
    }

    /// Plays the games on `clock` (none: untimed); the player who joins plays on it too.
    pub fn set_clock(&mut self, clock: Option<TimeControl>) {
        self.clock = clock;
    }

    /// A line to show before the join line, if there is something to say (an online host
    /// that could not reach its relay).
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// `Join with: tictactoe join 127.0.0.1:7373 --code k7m2-qx4p`.
    pub fn join_line(&self) -> &str {
        &self.join_line
    }

    /// For an online host announced on its network, the line a friend there joins with:
    /// `On this network: tictactoe join --code k7m2-qx4p` (the ticket holds the code, and
    /// the announcement leaves it out).
    pub fn local_line(&self) -> Option<String> {
        let online = matches!(self.keep, Keep(Some(_)));
        (online && self.advert.is_some()).then(|| {
            format!(
                "On this network: tictactoe join --code {}",
                self.host.code()
            )
        })
    }

    /// `Waiting for a player (3×3, 3 in a row; Ctrl-C cancels)…`.
    pub fn waiting_line(&self) -> String {
        let clock = self
            .clock
            .map(|c| format!(", clock {}", c.words()))
            .unwrap_or_default();
        format!(
            "Waiting for a player ({}{clock}; Ctrl-C cancels)…",
            self.rules
        )
    }

    /// Starts accepting players; what happens arrives through `sink`. The game stays
    /// announced on this network until the first player joins.
    pub fn start(self, sink: Sink) -> anyhow::Result<Network> {
        let advert = Mutex::new(self.advert);
        let player: Arc<Mutex<Option<[u8; 32]>>> = Arc::default();
        let joined = Arc::clone(&player);
        let sink: Sink = Arc::new(move |event| {
            if let LinkEvent::Joined { peer, .. } = &event {
                drop(advert.lock().map(|mut held| held.take()));
                if let PeerKey::Endpoint(key) = peer.key() {
                    *joined.lock().unwrap_or_else(PoisonError::into_inner) = Some(key);
                }
            }
            sink(event)
        });
        let watch = self.path_to.map(|path_to| -> PathWatch {
            Arc::new(move || {
                let key = (*player.lock().unwrap_or_else(PoisonError::into_inner))?;
                path_to(&key)
            })
        });
        let session = Session::starting_at(&self.opening, Player::Human, Player::Remote)
            .with_clock(self.clock);
        let published = Arc::new(Mutex::new(state_of(&session.standing())));
        let watchers = self.host.watchers();
        let link = self
            .host
            .start(Arc::clone(&published), Arc::clone(&sink))
            .context("starting to listen")?;
        Ok(Network {
            session,
            net: NetGame::hosting(self.hints),
            connection: Connection::host(link, (published, watchers), sink),
            keep: self.keep,
            path: None,
            watch,
        })
    }
}

/// Joins the first of `targets` that proves the code; the error of the last when none does.
/// They are tried [`AT_ONCE`] at a time, in random order, so hosts that answer slowly or busy
/// (announcing themselves under names that sort first, say) cannot hold up the one that
/// proves it. Each is tried with a sink of its own behind a [`Gate`]: only the one chosen ever
/// reaches the game, and every other that got in is closed, its events dropped.
fn join_any(
    mut targets: Vec<Target>,
    asking: Asking,
    sink: &Sink,
) -> anyhow::Result<(Network, String)> {
    let count = targets.len();
    fastrand::shuffle(&mut targets);
    let queue = Arc::new(Mutex::new(std::collections::VecDeque::from(targets)));
    let (tx, rx) = std::sync::mpsc::channel();
    for _ in 0..count.min(AT_ONCE) {
        let (queue, sender, to_game) = (Arc::clone(&queue), tx.clone(), Arc::clone(sink));
        let spawned = std::thread::Builder::new()
            .name("net-try".into())
            .spawn(move || {
                loop {
                    let next = queue
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .pop_front();
                    let Some(target) = next else { return };
                    let gate = Gate::new(Arc::clone(&to_game));
                    let tried = enter(target, asking, gate.sink());
                    // Tried for as long as the first one that proves the code is not yet taken.
                    if let Err(std::sync::mpsc::SendError((tried, gate))) =
                        sender.send((tried, gate))
                    {
                        discard(tried, &gate);
                        return;
                    }
                }
            });
        if let Err(e) = spawned {
            let error = anyhow::Error::from(e).context("trying the games found");
            let _ = tx.send((Err(error), Gate::new(Arc::clone(sink))));
        }
    }
    drop(tx);
    let mut last = None;
    while let Ok((result, gate)) = rx.recv() {
        match result {
            Ok(joined) => {
                gate.open();
                // The others that get in after this one are closed as they come.
                let _ = std::thread::Builder::new()
                    .name("net-discard".into())
                    .spawn(move || {
                        for (tried, gate) in rx {
                            discard(tried, &gate);
                        }
                    });
                return Ok(joined);
            }
            Err(e) => {
                gate.shut();
                last = Some(e);
            }
        }
    }
    Err(match last {
        Some(e) => e.context(format!("none of the {count} games found took the code")),
        None => anyhow::anyhow!("no game to join"),
    })
}

/// A game joined but not chosen: nothing of it reaches the game, and its connection is closed.
fn discard(tried: anyhow::Result<(Network, String)>, gate: &Gate) {
    gate.shut();
    if let Ok((network, _)) = tried {
        network.connection.leave();
    }
}

/// What a connection tried by [`join_any`] tells the game: held back until it is chosen, then
/// passed on in order; dropped for good once another is.
struct Gate {
    inner: Sink,
    state: Arc<Mutex<Held>>,
}

enum Held {
    /// Not chosen yet: what came so far (at most [`HELD`] events).
    Waiting(Vec<LinkEvent>),
    Open,
    Shut,
}

/// Events a connection not yet chosen may have waiting; more close it.
const HELD: usize = 256;

impl Gate {
    fn new(inner: Sink) -> Gate {
        Gate {
            inner,
            state: Arc::new(Mutex::new(Held::Waiting(Vec::new()))),
        }
    }

    /// The sink the connection is given.
    fn sink(&self) -> Sink {
        let (inner, state) = (Arc::clone(&self.inner), Arc::clone(&self.state));
        Arc::new(move |event| {
            let mut state = state.lock().unwrap_or_else(PoisonError::into_inner);
            match &mut *state {
                Held::Open => inner(event),
                Held::Waiting(held) if held.len() < HELD => {
                    held.push(event);
                    true
                }
                Held::Waiting(_) | Held::Shut => {
                    *state = Held::Shut;
                    false
                }
            }
        })
    }

    /// Chosen: what was held goes to the game, in order, and all that comes after it.
    fn open(&self) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        if let Held::Waiting(held) = std::mem::replace(&mut *state, Held::Open) {
            for event in held {
                (self.inner)(event);
            }
        }
    }

    /// Not chosen: nothing of it reaches the game, now or later.
    fn shut(&self) {
        *self.state.lock().unwrap_or_else(PoisonError::into_inner) = Held::Shut;
    }
}

/// Games found on the network tried at once by [`join_any`]: a busy one is asked again for
/// a few seconds, on its own thread.
const AT_ONCE: usize = 64;

/// Joins the game at `target`; returns the game and the line that says so (`Joined
/// 127.0.0.1:7373 (3×3, 3 in a row). You play O.`, and online how the two are connected),
/// asking for hints if `hints`.
pub fn join(target: Target, hints: bool, sink: Sink) -> anyhow::Result<(Network, String)> {
    enter(target, Asking::Play { hints }, sink)
}

/// Watches the game at `target` ([`crate::net::watchers`]); returns the game and the line
/// that says so (`Watching 127.0.0.1:7373 (3×3, 3 in a row)`).
pub fn watch(target: Target, sink: Sink) -> anyhow::Result<(Network, String)> {
    enter(target, Asking::Watch, sink)
}

/// Joins the game at `target` to play or to watch, as `asking` says.
fn enter(target: Target, asking: Asking, sink: Sink) -> anyhow::Result<(Network, String)> {
    let (joiner, welcome, keep) = match target {
        Target::Any(targets) => return join_any(targets, asking, &sink),
        Target::Address { target, code } => {
            let code: JoinCode = code.parse()?;
            let (joiner, welcome) = Joiner::join(&target, (&code.0, asking), &sink)?;
            (joiner, welcome, Keep(None))
        }
        #[cfg(feature = "online")]
        Target::Ticket { ticket, relay } => {
            use crate::net::online;
            let relay = relay.as_deref().map(online::relay_url).transpose()?;
            let code: JoinCode = ticket.code().parse()?;
            let (dialer, keep) = online::Dialer::new(&ticket, relay)?;
            let (joiner, welcome) = Joiner::through(Arc::new(dialer), (&code.0, asking), &sink)?;
            (joiner, welcome, Keep(Some(Box::new(keep))))
        }
    };
    let standing = standing_of(&welcome.state, welcome.rules)
        .map_err(|e| anyhow::anyhow!("the host's game does not replay here: {e}"))?;
    let route = joiner.route();
    let path = route.path();
    let path_watch = path.as_ref().map(|_| -> PathWatch {
        let route = joiner.route_handle();
        Arc::new(move || route.path())
    });
    let how = path
        .as_ref()
        .map_or_else(String::new, |path| format!("; {path}"));
    let clock = standing
        .clock
        .map(|(control, _)| format!(", clock {}", control.words()))
        .unwrap_or_default();
    let about = format!("{} ({}{clock}{how})", cut(&route.name(), 60), welcome.rules);
    let (session, net, line) = match asking {
        Asking::Play { hints } => {
            let session = joiner_session(&route.label(), &standing);
            let mark = session.mark_of(Side::B);
            let line = format!("Joined {about}. You play {mark}.");
            let net = NetGame::joined(hints, welcome.hints).catching_up(welcome.state.more);
            (session, net, line)
        }
        Asking::Watch => {
            let mut session = watcher_session(&route.label(), &standing);
            let mut net = NetGame::watcher();
            // The player's name from the start; news of it only as it changes.
            net.seat(&mut session, welcome.state.joiner.clone());
            (session, net, format!("Watching {about}."))
        }
    };
    let network = Network {
        session,
        net,
        connection: Connection::joiner(joiner, sink),
        keep,
        path,
        watch: path_watch,
    };
    Ok((network, line))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_join_code_is_checked_for_length_where_it_enters() {
        assert_eq!("k7m2-qx4p".parse(), Ok(JoinCode("k7m2-qx4p".into())));
        assert_eq!("  ".parse::<JoinCode>(), Err(CodeError::Empty));
        let long = "x".repeat(970);
        let error = long.parse::<JoinCode>().unwrap_err();
        assert_eq!(error, CodeError::TooLong(970));
        assert!(
            error.to_string().len() < 120,
            "the message does not echo the code"
        );
    }
}
