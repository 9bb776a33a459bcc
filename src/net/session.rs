//! One network game between the socket and the screen, written once for both front ends.
//!
//! [`NetGame`] is the game's side of it, with no input or output: it turns what the
//! connection reports ([`LinkEvent`]) into typed [`NetEvent`]s, applying the other player's
//! moves and the host's session to the game as it goes, and turns the local player's requests
//! (a move played, a rematch, leaving) into [`Order`]s. [`Connection`] is the other side: it
//! carries the orders out on the socket, keeps the host's published session current and
//! starts a rejoin. The words a player is told about the network are the `Display` of these
//! types, and nowhere else.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::ai::player::Player;
use crate::game::clock::{Clock, LAG, Reported, TimeControl};
use crate::game::ending::{Drawn, Ending};
use crate::game::record::{Record, RecordError};
use crate::game::{Score, Session, Side, Standing};
use crate::net::failure::rejoin_window;
use crate::net::join::Joiner;
use crate::net::link::{Link, LinkEvent, Sink};
use crate::net::protocol::{
    ClockState, EndedState, JOINER_NAME, JoinerState, Message, REMOTE_TEXT, SessionState, cut,
};
use crate::net::watchers::Watchers;
use crate::rules::classic::Mark;
use crate::rules::position::{Move, MoveError, ParseMoveError, Variant};

/// What the connection must do for the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Order {
    /// Send this side's move, the game's move number `seq` (from 1).
    Move {
        seq: u32,
        mv: Move,
        /// The time its player was charged, and (from the host) each seat's time left
        /// after it, in a game with a clock.
        spent: Option<Duration>,
        left: Option<[Duration; 2]>,
    },
    /// (Host) say the flag of the player to act after `seq` moves fell.
    Flag {
        seq: u32,
    },
    /// (Host) tell the player how many watch.
    Watching(u32),
    Rematch,
    /// Say this side resigns, `seq` moves into the game.
    Resign {
        seq: u32,
    },
    /// Offer a draw, or accept the other's, `seq` moves into the game.
    Draw {
        seq: u32,
    },
    /// Tell the other side what was wrong and close the connection.
    Refuse(String),
    /// Try to get back in (the joiner, after a lost connection).
    Rejoin,
    /// Say goodbye and close the connection.
    Leave,
    /// (Host) the player who joined is connected now, or not, or has left: watchers are
    /// told.
    Seat {
        here: bool,
        left: bool,
    },
}

/// What asking for a rematch came to; `Display` is what the player is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rematch {
    /// The game is not over.
    NotOver,
    /// The other player is not connected.
    NotConnected(Mark),
    /// Asked; the new game starts when the other player asks too.
    Asked(Mark),
    /// Asked already; nothing more happens until the other player asks.
    AlreadyAsked(Mark),
    /// The other player had asked: the front end starts the next round.
    Agreed,
}

impl fmt::Display for Rematch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rematch::NotOver => write!(f, "A rematch can be asked for once this game is over"),
            Rematch::NotConnected(mark) => write!(f, "{mark} is not connected"),
            Rematch::Asked(mark) | Rematch::AlreadyAsked(mark) => {
                write!(f, "Asked {mark} for a rematch…")
            }
            Rematch::Agreed => write!(f, "A rematch: a new game starts"),
        }
    }
}

/// Why the local player may not move now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveBlocked {
    /// (Joiner) the connection is lost: wait to be back in.
    NotConnected,
    /// The other player left, or could not be reached again: the game cannot go on.
    Gone,
    /// (Joiner) a long game's moves are still arriving from the host.
    CatchingUp,
}

impl fmt::Display for MoveBlocked {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveBlocked::NotConnected => write!(f, "Not connected: wait until you are back in"),
            MoveBlocked::Gone => write!(f, "The other player is gone: the game cannot go on"),
            MoveBlocked::CatchingUp => {
                write!(f, "The game is still arriving from the host: wait a moment")
            }
        }
    }
}

/// Why hints and the explorer are off in a network game; `Display` is what the player is
/// told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HintsOff {
    /// This side did not ask for them.
    NotAsked,
    /// This side asked; the other did not.
    OtherDidNotAsk,
}

impl fmt::Display for HintsOff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HintsOff::NotAsked => write!(
                f,
                "Hints and the explorer are off: both players must ask (host/join --hints)"
            ),
            HintsOff::OtherDidNotAsk => write!(
                f,
                "Hints and the explorer are off: you asked for them, the other player did not"
            ),
        }
    }
}

/// What both sides are told when hints are on in a network game.
pub const HINTS_ON: &str = "Hints are on: both players asked for them";

/// What a player is told when asking to undo in a network game.
pub const NO_UNDO: &str = "Undo is not available in network games";

/// A move from the other player that was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RemoteMoveError {
    /// The move's number as sent.
    pub seq: u32,
    /// The cell as sent, cut to 12 characters.
    pub cell: String,
    pub fault: MoveFault,
}

/// What was wrong with a move from the other player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveFault {
    /// It is not the other player's turn.
    OutOfTurn,
    AfterTheEnd,
    /// Another move number was due.
    Due(usize),
    /// The cell names no move.
    Unreadable(ParseMoveError),
    /// Not legal there (a taken cell, the wrong board).
    Illegal(MoveError),
}

impl fmt::Display for RemoteMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (seq, cell) = (self.seq, &self.cell);
        match &self.fault {
            MoveFault::OutOfTurn => write!(f, "move {seq} ({cell}) came out of turn"),
            MoveFault::AfterTheEnd => {
                write!(f, "move {seq} ({cell}) came after the end of the game")
            }
            MoveFault::Due(n) => write!(f, "move {seq} ({cell}) came when move {n} was due"),
            MoveFault::Unreadable(e) => write!(f, "move {seq}: {e}"),
            MoveFault::Illegal(e) => write!(f, "move {seq}: {e}"),
        }
    }
}

impl std::error::Error for RemoteMoveError {}

/// Plays a move that arrived from the remote player: it must be their turn, the next move of
/// the game (`seq`, from 1) and legal. A move the game already has at `seq` (sent again after
/// a rejoin brought it) is `Ok(None)` and changes nothing.
pub fn remote_move(
    session: &mut Session,
    seq: u32,
    cell: &str,
    spent: Option<Reported>,
) -> Result<Option<Move>, RemoteMoveError> {
    let error = |fault| RemoteMoveError {
        seq,
        cell: cell.chars().take(12).collect(),
        fault,
    };
    let game = session.game();
    let index = usize::try_from(seq).ok().and_then(|s| s.checked_sub(1));
    if let Some(i) = index
        && let Some(&had) = game.history().get(i)
    {
        let record = game.record();
        let before = record.positions().nth(i).expect("one position per move");
        if before.parse_move(cell) == Ok(had) {
            return Ok(None);
        }
    }
    match game.turn() {
        Some((_, Player::Remote)) => {}
        Some(_) => return Err(error(MoveFault::OutOfTurn)),
        // A move that crossed the word that the flag fell is too late, not wrong.
        None if matches!(game.ending(), Some(Ending::Time(_))) => return Ok(None),
        None => return Err(error(MoveFault::AfterTheEnd)),
    }
    let expected = game.history().len() + 1;
    if index.map(|i| i + 1) != Some(expected) {
        return Err(error(MoveFault::Due(expected)));
    }
    let mv = game
        .position()
        .parse_move(cell)
        .map_err(|e| error(MoveFault::Unreadable(e)))?;
    session
        .play_reported(mv, spent)
        .map_err(|e| error(MoveFault::Illegal(e)))?;
    Ok(Some(mv))
}

/// The session as the host tells it: the round, the score as `[host, joiner, draws]` (the
/// host is side A) and the moves as cell names.
pub fn state_of(standing: &Standing) -> SessionState {
    SessionState {
        round: standing.round,
        score: [standing.score.a, standing.score.b, standing.score.draws],
        moves: standing
            .record
            .moves()
            .iter()
            .map(ToString::to_string)
            .collect(),
        clock: standing.clock.map(|(control, left)| ClockState {
            control: control.to_string(),
            left_ms: left.map(millis),
        }),
        ending: standing.ending.map(ended_state),
        more: 0,
        joiner: None,
    }
}

/// How a game ended off the board, as the protocol says it.
fn ended_state(ending: Ending) -> EndedState {
    let (how, loser) = match ending {
        Ending::Resigned(mark) => ("resigned", Some(mark)),
        Ending::Time(mark) => ("time", Some(mark)),
        Ending::Agreed => ("agreed", None),
    };
    EndedState {
        how: how.to_string(),
        loser: loser.map(|m| m.to_string()),
    }
}

/// The ending the protocol says, if it is one this program knows.
fn ending_of(state: &EndedState) -> Option<Ending> {
    let loser = match state.loser.as_deref() {
        Some("X") => Some(Mark::X),
        Some("O") => Some(Mark::O),
        _ => None,
    };
    match (state.how.as_str(), loser) {
        ("resigned", Some(mark)) => Some(Ending::Resigned(mark)),
        ("time", Some(mark)) => Some(Ending::Time(mark)),
        ("agreed", None) => Some(Ending::Agreed),
        _ => None,
    }
}

/// The host's session as this side's game: its moves replayed with `variant`'s rules. An
/// error names the first move that does not replay.
pub fn standing_of(state: &SessionState, variant: Variant) -> Result<Standing, RecordError> {
    let [a, b, draws] = state.score;
    // A clock this program cannot read is not shown; the host still keeps time.
    let clock = state.clock.as_ref().and_then(|c| {
        let control = c.control.parse::<TimeControl>().ok()?;
        Some((control, c.left_ms.map(Duration::from_millis)))
    });
    Ok(Standing {
        round: state.round,
        score: Score { a, b, draws },
        record: Record::parse(variant, &state.moves)?,
        clock,
        // A loss on time needs a clock: the host's word alone is not taken.
        ending: state
            .ending
            .as_ref()
            .and_then(ending_of)
            .filter(|e| clock.is_some() || !matches!(e, Ending::Time(_))),
    })
}

/// A time in whole milliseconds, as the protocol sends it.
fn millis(d: Duration) -> u64 {
    u64::try_from(d.as_millis()).unwrap_or(u64::MAX)
}

/// Where the other player of a network game is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Presence {
    /// (Host) no one has joined yet.
    #[default]
    Waiting,
    Connected,
    /// The connection was lost; the player may come back.
    Away,
    /// The other player left, or the joiner could not get back in: nothing brings it back.
    Gone,
}

/// The game's side of a network game: where the other player is, who has asked for a
/// rematch, and the orders for the connection.
#[derive(Clone, Debug, Default)]
pub struct NetGame {
    host: bool,
    presence: Presence,
    /// Hints asked for by this side and by the other; on only when both asked.
    hints: (bool, bool),
    /// Rematch asked for by this side and by the other.
    rematch: (bool, bool),
    orders: Vec<Order>,
    /// This side only watches ([`crate::net::watchers`]).
    watcher: bool,
    /// How many watch the game, as the host last said.
    watching: usize,
    /// (Joiner) moves of a long game still to come after the welcome.
    behind: usize,
    /// (Watcher) the player who joined, as the host last said.
    joiner: Option<JoinerState>,
    /// The longest round trip the connection timed lately: how much of the other player's
    /// answer may have been the way ([`LAG`] until one is timed).
    trip: Option<Duration>,
}

impl NetGame {
    /// A host's game, waiting for its first player; `hints`: the host asks for hints.
    pub fn hosting(hints: bool) -> NetGame {
        NetGame {
            host: true,
            hints: (hints, false),
            ..NetGame::default()
        }
    }

    /// A joiner's game, connected; `hints`: whether the joiner asked for hints, and whether
    /// the host did.
    pub fn joined(hints: bool, host_hints: bool) -> NetGame {
        NetGame {
            presence: Presence::Connected,
            hints: (hints, host_hints),
            ..NetGame::default()
        }
    }

    /// Whether hints and the explorer are on in this game: both sides asked for them.
    pub fn hints_on(&self) -> bool {
        self.hints.0 && self.hints.1
    }

    /// Why hints are off in this game, or `None` when they are on.
    pub fn hints_off(&self) -> Option<HintsOff> {
        match self.hints {
            (true, true) => None,
            (false, _) => Some(HintsOff::NotAsked),
            (true, false) => Some(HintsOff::OtherDidNotAsk),
        }
    }

    pub fn is_host(&self) -> bool {
        self.host
    }

    /// A watcher's game: connected, never playing ([`crate::net::watchers`]).
    pub fn watcher() -> NetGame {
        NetGame {
            presence: Presence::Connected,
            watcher: true,
            ..NetGame::default()
        }
    }

    /// This game, its welcome saying `more` moves follow it (a long game's).
    pub fn catching_up(mut self, more: u32) -> NetGame {
        self.behind = more as usize;
        self
    }

    /// Whether this side only watches.
    pub fn is_watcher(&self) -> bool {
        self.watcher
    }

    /// How many watch the game, as the host last said.
    pub fn watching(&self) -> usize {
        self.watching
    }

    pub fn is_connected(&self) -> bool {
        self.presence == Presence::Connected
    }

    /// Whether the other player left for good (or a joiner could not get back in).
    pub fn is_over(&self) -> bool {
        self.presence == Presence::Gone
    }

    /// (Host) whether no player has joined yet.
    pub fn waiting_for_player(&self) -> bool {
        self.presence == Presence::Waiting
    }

    /// Whether the local player may play a move now: the joiner waits to be back in; the
    /// host plays on, and a player who rejoins gets its moves.
    pub fn may_move(&self) -> Result<(), MoveBlocked> {
        if self.is_over() {
            Err(MoveBlocked::Gone)
        } else if self.behind > 0 {
            Err(MoveBlocked::CatchingUp)
        } else if self.host || self.is_connected() {
            Ok(())
        } else {
            Err(MoveBlocked::NotConnected)
        }
    }

    /// (Host) tells the watchers where the player who joined is now.
    fn tell_seat(&mut self, here: bool, left: bool) {
        if self.host {
            self.orders.push(Order::Seat { here, left });
        }
    }

    /// Takes the orders for the connection.
    pub fn orders(&mut self) -> Vec<Order> {
        std::mem::take(&mut self.orders)
    }

    /// The local player has just played the game's last move: send it.
    pub fn played(&mut self, session: &Session) {
        let game = session.game();
        if let Some(mv) = game.last_move() {
            let seq = game.history().len() as u32;
            let clock = session.clock();
            let spent = clock.and_then(Clock::spent);
            let left = clock
                .filter(|_| self.host)
                .map(|c| c.readings(Instant::now()));
            self.orders.push(Order::Move {
                seq,
                mv,
                spent,
                left,
            });
        }
    }

    /// (Host) the flag of the player to act fell in `session`'s game: the other side is
    /// told.
    pub fn flagged(&mut self, session: &Session) {
        if self.host {
            let seq = session.game().history().len() as u32;
            self.orders.push(Order::Flag { seq });
        }
    }

    /// The local player resigned or offered a draw in `session`'s game (the move number is
    /// sent with it): the other side is told.
    pub fn concluded(&mut self, session: &Session, resigned: bool) {
        let seq = session.game().history().len() as u32;
        self.orders.push(if resigned {
            Order::Resign { seq }
        } else {
            Order::Draw { seq }
        });
    }

    /// The local player asks for a rematch.
    pub fn ask_rematch(&mut self, session: &Session) -> Rematch {
        let them = session.remote_mark().unwrap_or(Mark::O);
        if !session.game().is_over() {
            Rematch::NotOver
        } else if !self.is_connected() {
            Rematch::NotConnected(them)
        } else if self.rematch.0 {
            Rematch::AlreadyAsked(them)
        } else {
            self.rematch.0 = true;
            self.orders.push(Order::Rematch);
            if self.rematch.1 {
                self.rematch = (false, false);
                Rematch::Agreed
            } else {
                Rematch::Asked(them)
            }
        }
    }

    /// The local player leaves.
    pub fn leave(&mut self) {
        self.orders.push(Order::Leave);
    }

    /// Makes sense of what the connection reports, changing `session` where the other side
    /// changed the game (a move, a name, the host's session after a rejoin). `None`: nothing
    /// for the player (a move sent again, news after the other player left).
    pub fn handle(&mut self, session: &mut Session, event: LinkEvent) -> Option<NetEvent> {
        let them = session.remote_mark().unwrap_or(Mark::O);
        if self.watcher {
            return self.watched(session, event);
        }
        match event {
            LinkEvent::Received(message) => self.received(session, them, message),
            LinkEvent::RoundTrip(trip) => {
                self.trip = Some(trip);
                None
            }
            LinkEvent::Watching(count) => {
                self.watching = count;
                self.orders
                    .push(Order::Watching(u32::try_from(count).unwrap_or(u32::MAX)));
                Some(NetEvent::Watching { count })
            }
            // Once the other side has left, nothing brings it back.
            LinkEvent::Lost(_) | LinkEvent::Rejoined(_) | LinkEvent::RejoinFailed(_)
                if self.is_over() =>
            {
                None
            }
            LinkEvent::Lost(why) => {
                self.presence = Presence::Away;
                self.tell_seat(false, false);
                if !self.host {
                    self.orders.push(Order::Rejoin);
                }
                Some(NetEvent::ConnectionLost {
                    mark: them,
                    why,
                    rejoining: (!self.host).then(rejoin_window),
                })
            }
            LinkEvent::Joined { peer: addr, hints } => {
                let first = self.presence == Presence::Waiting;
                self.presence = Presence::Connected;
                // A new connection: its round trip is still to be timed.
                self.trip = None;
                if self.watching > 0 {
                    let count = u32::try_from(self.watching).unwrap_or(u32::MAX);
                    self.orders.push(Order::Watching(count));
                }
                self.hints.1 = hints;
                self.rematch = (false, false);
                let side = session.side_of(them);
                session.rename(side, addr.label().to_string());
                self.tell_seat(true, false);
                Some(if first {
                    NetEvent::Joined { addr }
                } else {
                    NetEvent::Back { mark: them, addr }
                })
            }
            LinkEvent::Rejoined(state) => match standing_of(&state, session.game().variant()) {
                Ok(standing) => {
                    *session = session.restored(&standing);
                    self.behind = state.more as usize;
                    self.presence = Presence::Connected;
                    self.rematch = (false, false);
                    Some(NetEvent::Rejoined)
                }
                Err(e) => {
                    self.presence = Presence::Gone;
                    self.orders.push(Order::Leave);
                    Some(NetEvent::Desynced(e))
                }
            },
            LinkEvent::RejoinFailed(error) => {
                self.presence = Presence::Gone;
                let kept = session.keep_to_continue();
                Some(NetEvent::RejoinFailed { error, kept })
            }
            LinkEvent::Refused(notice) => Some(NetEvent::Refused(notice)),
        }
    }

    /// The other player's move `seq`, `cell`, with the time it says it thought and (from the
    /// host) both clocks' readings after it, in milliseconds.
    fn moved(
        &mut self,
        session: &mut Session,
        them: Mark,
        (seq, cell): (u32, &str),
        (spent_ms, left_ms): (Option<u64>, Option<[u64; 2]>),
    ) -> Option<NetEvent> {
        let reported = spent_ms.map(|ms| Reported {
            spent: Duration::from_millis(ms),
            lag: self.trip.unwrap_or(LAG),
        });
        match remote_move(session, seq, cell, reported) {
            Ok(None) => None,
            Ok(Some(mv)) => {
                // The host's clock is the referee's.
                if let (false, Some(left)) = (self.host, left_ms) {
                    session.set_clock(left.map(Duration::from_millis), Instant::now());
                }
                Some(NetEvent::OpponentMoved { mark: them, mv })
            }
            Err(error) => {
                self.orders.push(Order::Refuse(error.to_string()));
                Some(NetEvent::MoveRefused { mark: them, error })
            }
        }
    }

    /// A message from the other player.
    fn received(
        &mut self,
        session: &mut Session,
        them: Mark,
        message: Message,
    ) -> Option<NetEvent> {
        match message {
            Message::Move {
                seq,
                cell,
                spent_ms,
                left_ms,
            } => self.moved(session, them, (seq, &cell), (spent_ms, left_ms)),
            Message::Rematch if !session.game().is_over() => {
                self.orders.push(Order::Refuse(RematchRefusal.to_string()));
                Some(NetEvent::RematchRefused { mark: them })
            }
            Message::Rematch => {
                self.rematch.1 = true;
                if self.rematch.0 {
                    self.rematch = (false, false);
                    Some(NetEvent::NewRound)
                } else {
                    Some(NetEvent::RematchOffered { mark: them })
                }
            }
            Message::Resign { .. } => {
                let seat = session.game().position().seat_of(them);
                session
                    .resign(seat)
                    .then_some(NetEvent::Resigned { mark: them })
            }
            // An offer sent before a move this side has played since has lapsed, unless it
            // accepts this side's own offer, which stood when it was sent.
            Message::Draw { seq } if !draw_stands(session, them, seq as usize) => None,
            Message::Draw { .. } => {
                let seat = session.game().position().seat_of(them);
                match session.offer_draw(seat) {
                    Drawn::Offered => Some(NetEvent::DrawOffered { mark: them }),
                    Drawn::Agreed => Some(NetEvent::DrawAgreed),
                    Drawn::AlreadyOffered | Drawn::Over => None,
                }
            }
            // A long game's moves after the welcome's first hundred.
            message @ Message::Update { .. } if !self.host => {
                self.watched(session, LinkEvent::Received(message))
            }
            Message::Watching { count } if !self.host => {
                self.watching = count as usize;
                Some(NetEvent::Watching {
                    count: self.watching,
                })
            }
            // Only the host lets a flag fall.
            Message::Flag { .. } if self.host => None,
            Message::Flag { seq } => match flag_disputed(session, seq as usize, Instant::now()) {
                Some(why) => self.gone(why),
                None => session
                    .flag_fell_at(seq as usize, Instant::now())
                    .map(|mark| NetEvent::TimeOut { mark }),
            },
            Message::Bye => {
                self.presence = Presence::Gone;
                self.tell_seat(false, true);
                self.orders.push(Order::Leave);
                Some(NetEvent::OpponentLeft { mark: them })
            }
            Message::Error { message, .. } => Some(NetEvent::Reported {
                mark: them,
                text: cut(&message, REMOTE_TEXT),
            }),
            Message::Hello { .. }
            | Message::Join { .. }
            | Message::Welcome { .. }
            | Message::Update { .. }
            | Message::Watching { .. }
            | Message::Ping { .. } => None,
        }
    }
}

/// Why the host's word that the flag fell after `seq` moves cannot be taken at `now`: the game
/// has no clock, or the time of the seat to act still reads more than [`LAG`] here (the
/// host's clock is ahead of ours by no more than the way its messages take). `None` where
/// it can. A flag that crosses this side's move is taken as the host says: the move's
/// increment is already counted here.
fn flag_disputed(session: &Session, seq: usize, now: Instant) -> Option<String> {
    let Some(clock) = session.clock() else {
        return Some(
            "the host's clock disagreed: it says time ran out in a game without a clock".into(),
        );
    };
    if seq != session.game().history().len() {
        return None;
    }
    let seat = session.game().position().seat();
    let left = clock.left(seat, now);
    (left > LAG).then(|| {
        format!(
            "the host's clock disagreed: it says time ran out with {} s left here",
            left.as_secs()
        )
    })
}

/// Whether the other player's `draw`, sent after `seq` moves, still means something here: it
/// accepts this side's offer that stood then, or it offers a draw with the game as it is.
fn draw_stands(session: &Session, them: Mark, seq: usize) -> bool {
    let game = session.game();
    let theirs = game.position().seat_of(them);
    let mine_stood = game.draw_offer().is_some_and(|seat| seat != theirs)
        && game.offered_at().is_some_and(|at| at <= seq);
    seq <= game.history().len() && (mine_stood || seq == game.history().len())
}

mod events;
mod watching;
use events::RematchRefusal;
pub use events::{NetEvent, SeatNews};
pub use watching::watcher_session;

/// The connection's side of a network game: the link to the other player, where a host
/// publishes its session for players who join, and a joiner's way back in.
pub struct Connection {
    link: Link,
    published: Option<Arc<Mutex<SessionState>>>,
    /// (Host) where the player who joined is, as the last [`Order::Seat`] said (none: no one
    /// has joined).
    seat: Mutex<Option<(bool, bool)>>,
    /// (Host) those who watch, sent what changes.
    watchers: Option<Watchers>,
    joiner: Option<Joiner>,
    sink: Sink,
}

impl Connection {
    /// A host's connection: `published` is what a player who joins gets, and `watchers`
    /// are sent each change of it.
    pub fn host(
        link: Link,
        (published, watchers): (Arc<Mutex<SessionState>>, Watchers),
        sink: Sink,
    ) -> Connection {
        Connection {
            link,
            published: Some(published),
            seat: Mutex::new(None),
            watchers: Some(watchers),
            joiner: None,
            sink,
        }
    }

    /// A joiner's connection (or a watcher's).
    pub fn joiner(joiner: Joiner, sink: Sink) -> Connection {
        Connection {
            link: joiner.link().clone(),
            published: None,
            seat: Mutex::new(None),
            watchers: None,
            joiner: Some(joiner),
            sink,
        }
    }

    /// Publishes the session (a host's), to players who join and to those who watch, then
    /// carries `orders` out. The session goes first: a player joining meanwhile gets a move
    /// in its hello or after it.
    pub fn sync(&self, session: &Session, orders: Vec<Order>) {
        if let Some(published) = &self.published {
            let mut seat = self.seat.lock().unwrap_or_else(PoisonError::into_inner);
            for order in &orders {
                if let &Order::Seat { here, left } = order {
                    *seat = Some((here, left));
                }
            }
            let mut state = state_of(&session.standing());
            state.joiner = seat.map(|(here, left)| JoinerState {
                name: cut(session.name(Side::B), JOINER_NAME),
                here,
                left,
            });
            drop(seat);
            *published.lock().unwrap_or_else(PoisonError::into_inner) = state.clone();
            if let Some(watchers) = &self.watchers {
                watchers.publish(&state);
            }
        }
        for order in orders {
            match order {
                Order::Move {
                    seq,
                    mv,
                    spent,
                    left,
                } => {
                    self.link.send(&Message::Move {
                        seq,
                        cell: mv.to_string(),
                        spent_ms: spent.map(millis),
                        left_ms: left.map(|l| l.map(millis)),
                    });
                }
                Order::Flag { seq } => {
                    self.link.send(&Message::Flag { seq });
                }
                Order::Watching(count) => {
                    self.link.send(&Message::Watching { count });
                }
                Order::Rematch => {
                    self.link.send(&Message::Rematch);
                }
                Order::Resign { seq } => {
                    self.link.send(&Message::Resign { seq });
                }
                Order::Draw { seq } => {
                    self.link.send(&Message::Draw { seq });
                }
                Order::Refuse(why) => self.link.refuse(&why),
                Order::Rejoin => {
                    if let Some(joiner) = &self.joiner {
                        joiner.rejoin(&self.sink);
                    }
                }
                Order::Leave => self.link.leave(),
                Order::Seat { .. } => {}
            }
        }
    }

    /// Says goodbye and closes the connection, and a host's watchers'.
    pub fn leave(&self) {
        self.link.leave();
        if let Some(watchers) = &self.watchers {
            watchers.leave();
        }
    }
}

/// The joiner's session: the host is side A (named `host`: its address without the port, or
/// its short id), the person here side B.
pub fn joiner_session(host: &str, standing: &Standing) -> Session {
    let mut session = Session::restore(Player::Remote, Player::Human, standing);
    session.rename(Side::A, host.to_string());
    session
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::peer::Peer;
    use crate::rules::classic::Rules;

    fn play_digits(session: &mut Session, digits: &[u8]) {
        for &d in digits {
            let mv = session
                .game()
                .position()
                .parse_move(&d.to_string())
                .unwrap();
            session.play(mv).unwrap();
        }
    }

    #[test]
    fn a_session_state_restores_the_same_session() {
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::Remote);
        play_digits(&mut s, &[7, 1, 8, 2, 9]);
        s.new_round();
        play_digits(&mut s, &[5, 3]);
        let state = state_of(&s.standing());
        assert_eq!((state.round, state.score), (2, [1, 0, 0]));
        let standing = standing_of(&state, Rules::CLASSIC.into()).unwrap();
        let back = Session::restore(Player::Remote, Player::Human, &standing);
        assert_eq!(back.game().position(), s.game().position());
        assert_eq!(back.score(), s.score());
        // A move the restored game already has, sent again, changes nothing.
        let mut joined = Session::restore(Player::Human, Player::Remote, &standing);
        assert_eq!(remote_move(&mut joined, 2, "3", None), Ok(None));
        assert_eq!(joined.game().history().len(), 2);
        let bad = SessionState {
            moves: vec!["5".into(), "5".into()],
            ..state
        };
        assert_eq!(
            standing_of(&bad, Rules::CLASSIC.into()).unwrap_err().number,
            2
        );
    }

    #[test]
    fn remote_moves_are_refused_by_kind_and_change_nothing() {
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::Remote);
        let fault = |s: &mut Session, seq, cell| remote_move(s, seq, cell, None).unwrap_err().fault;
        assert_eq!(fault(&mut s, 1, "5"), MoveFault::OutOfTurn);
        assert_eq!(
            remote_move(&mut s, 1, "5", None).unwrap_err().to_string(),
            "move 1 (5) came out of turn"
        );
        play_digits(&mut s, &[5]);
        assert_eq!(fault(&mut s, 7, "1"), MoveFault::Due(2));
        assert!(matches!(fault(&mut s, 2, "5"), MoveFault::Illegal(_)));
        assert!(matches!(fault(&mut s, 2, "c9"), MoveFault::Unreadable(_)));
        // The move already played, sent again, is not a fault; a different one at its number is.
        assert_eq!(remote_move(&mut s, 1, "5", None), Ok(None));
        assert_eq!(
            remote_move(&mut s, 1, "b2", None),
            Ok(None),
            "the same cell named otherwise"
        );
        assert_eq!(s.game().history().len(), 1);
        let long = "9".repeat(500);
        let error = remote_move(&mut s, 2, &long, None).unwrap_err();
        assert_eq!(
            error.cell.chars().count(),
            12,
            "the cell is cut where it enters"
        );
        assert!(remote_move(&mut s, 2, "1", None).unwrap().is_some());
        play_digits(&mut s, &[7, 2, 3]);
        assert_eq!(fault(&mut s, 6, "3"), MoveFault::AfterTheEnd);
    }

    fn joined_game() -> (NetGame, Session) {
        let session = Session::new(Rules::CLASSIC, Player::Remote, Player::Human);
        (NetGame::joined(false, false), session)
    }

    #[test]
    fn a_lost_joiner_rejoins_and_a_lost_host_waits() {
        let (mut net, mut session) = joined_game();
        let lost = LinkEvent::Lost("no word for 10 s".into());
        let event = net.handle(&mut session, lost.clone()).unwrap();
        assert_eq!(
            event.to_string(),
            "The connection to X was lost (no word for 10 s); trying to get back in for 60 s (q leaves)…"
        );
        assert_eq!(net.orders(), [Order::Rejoin]);
        assert!(net.may_move().is_err());
        let mut host = NetGame::hosting(false);
        let mut hosted = Session::new(Rules::CLASSIC, Player::Human, Player::Remote);
        let addr = Peer::from("127.0.0.1:9".parse::<std::net::SocketAddr>().unwrap());
        let joined = host
            .handle(
                &mut hosted,
                LinkEvent::Joined {
                    peer: addr.clone(),
                    hints: false,
                },
            )
            .unwrap();
        assert_eq!(joined, NetEvent::Joined { addr: addr.clone() });
        let event = host.handle(&mut hosted, lost).unwrap();
        assert_eq!(
            event.to_string(),
            "O's connection was lost (no word for 10 s); waiting for them to rejoin"
        );
        assert_eq!(
            host.orders(),
            [
                Order::Seat {
                    here: true,
                    left: false
                },
                Order::Seat {
                    here: false,
                    left: false
                }
            ],
            "the host does not rejoin, and tells its watchers"
        );
        assert!(host.may_move().is_ok(), "the host plays on");
        let joined = LinkEvent::Joined {
            peer: addr,
            hints: false,
        };
        let back = host.handle(&mut hosted, joined).unwrap();
        assert_eq!(back.to_string(), "O is back (127.0.0.1:9)");
    }

    #[test]
    fn a_host_that_left_is_reported_gone_not_waited_for() {
        let (mut net, mut session) = joined_game();
        let left = net
            .handle(&mut session, LinkEvent::Received(Message::Bye))
            .unwrap();
        assert_eq!(left, NetEvent::OpponentLeft { mark: Mark::X });
        assert_eq!(net.may_move(), Err(MoveBlocked::Gone));
        assert_eq!(
            MoveBlocked::Gone.to_string(),
            "The other player is gone: the game cannot go on"
        );
    }

    #[test]
    fn text_from_the_other_side_is_cut_to_one_limit() {
        let (mut net, mut session) = joined_game();
        let long = Message::error("x".repeat(900));
        let Some(NetEvent::Reported { text, .. }) =
            net.handle(&mut session, LinkEvent::Received(long))
        else {
            panic!("an error is reported");
        };
        assert_eq!(text.chars().count(), REMOTE_TEXT);
    }

    #[test]
    fn nothing_brings_back_a_player_who_left() {
        let (mut net, mut session) = joined_game();
        let left = net.handle(&mut session, LinkEvent::Received(Message::Bye));
        assert_eq!(left, Some(NetEvent::OpponentLeft { mark: Mark::X }));
        assert_eq!(net.orders(), [Order::Leave]);
        assert!(net.is_over());
        let lost = LinkEvent::Lost("the connection closed".into());
        assert_eq!(net.handle(&mut session, lost), None);
        assert!(net.orders().is_empty(), "no rejoin after a goodbye");
    }

    #[test]
    fn a_rematch_asked_during_a_game_is_refused() {
        let (mut net, mut session) = joined_game();
        let event = net.handle(&mut session, LinkEvent::Received(Message::Rematch));
        assert_eq!(
            event.unwrap().to_string(),
            "Refused a message from X: a rematch can only be asked for after a game"
        );
        assert_eq!(
            net.orders(),
            [Order::Refuse(
                "a rematch can only be asked for after a game".into()
            )]
        );
        assert_eq!(net.ask_rematch(&session), Rematch::NotOver);
    }
}
