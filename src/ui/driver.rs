//! One game run the same way under every front end: whose turn it is, who may move now, the
//! moves a person types while the AI thinks, the AI's move and the network game's part in
//! each. The terminal app and the plain front end read input, ask the AI when [`Driver::ai_to_move`]
//! says so, and put into words what the driver reports; the rules of a turn are here once.
//!
//! The driver does no input, output or search: it is a state machine over a [`Session`] and,
//! in a network game, the [`NetGame`] that decides what the network means for it.

use std::collections::VecDeque;
use std::fmt;
use std::time::{Duration, Instant};

use crate::ai::player::Player;
use crate::game::ending::Drawn;
use crate::game::{Game, Session, Side, TYPE_AHEAD};
use crate::net::link::LinkEvent;
use crate::net::session::{MoveBlocked, NO_UNDO, NetEvent, NetGame, Order, Rematch};
use crate::rules::classic::Mark;
use crate::rules::gomoku::opening::Seat;
use crate::rules::position::{Move, MoveError, Position};

/// A game being played: the session, its network game if any, and the moves typed ahead.
#[derive(Clone, Debug)]
pub struct Driver {
    session: Session,
    net: Option<NetGame>,
    /// Moves a person typed while the AI was to move, played in order on their turn.
    queued: VecDeque<Move>,
}

/// What became of a move a person made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sent {
    /// Played for `Mark` (and, in a network game, sent).
    Played(Mark),
    /// The AI is to move: the move waits, with this many in all.
    Queued(usize),
}

/// Why a move a person made was not played; the game is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The game is over.
    Over,
    /// No person plays: two AIs play each other.
    AisPlay,
    /// The other player of a network game is to move.
    RemoteTurn(Mark),
    /// A network host's game has no second player yet.
    NoOneJoined,
    /// The network game does not take moves now (the connection is down, the other left).
    Blocked(MoveBlocked),
    /// The AI is to move and as many moves as may wait already do.
    QueueFull,
    /// The rules refuse the move.
    Illegal(MoveError),
    /// A draw is offered on one's own turn: the AI is thinking.
    AiThinking,
    /// The flag of this mark fell before the move: the game is lost on time.
    Flagged(Mark),
    /// This side watches a network game: the players move.
    Watching,
    /// A joiner's own clock has run out: the host's says what comes of it.
    TimeUp,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::Over => write!(f, "the game is over"),
            Refused::AisPlay => write!(f, "the AIs play each other"),
            Refused::RemoteTurn(mark) => write!(f, "it is {mark}'s turn: wait for their move"),
            Refused::NoOneJoined => write!(f, "no one has joined yet"),
            Refused::Blocked(blocked) => write!(f, "{blocked}"),
            Refused::QueueFull => write!(f, "wait for the AI: no more moves can be queued"),
            Refused::Illegal(e) => write!(f, "{e}"),
            Refused::AiThinking => {
                write!(f, "offer a draw on your turn: the AI answers with its move")
            }
            Refused::Flagged(mark) => write!(f, "too late: {mark}'s time ran out"),
            Refused::Watching => write!(f, "you are watching: the players move"),
            Refused::TimeUp => write!(f, "your time is up: the host's clock decides"),
        }
    }
}

/// Why `u` takes nothing back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoUndo {
    /// A network game: the other player has seen the move.
    Network,
    /// The game is over and its result counts.
    Over,
    /// The game is played on a clock: time spent is spent.
    Clock,
}

impl fmt::Display for NoUndo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NoUndo::Network => f.write_str(NO_UNDO),
            NoUndo::Over => write!(f, "the game is over and its result counts: no undo"),
            NoUndo::Clock => write!(f, "the game is on a clock: no undo"),
        }
    }
}

/// The first move typed while the AI thought, played once it had moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Queued {
    pub mv: Move,
    pub result: Result<Sent, Refused>,
    /// The move was refused and the ones typed after it, meant for later turns, dropped.
    pub dropped: bool,
}

impl Driver {
    /// A game on this machine.
    /// A game on this machine; its clock, if it has one, starts now.
    pub fn new(session: Session) -> Driver {
        let mut driver = Driver {
            session,
            net: None,
            queued: VecDeque::new(),
        };
        driver.start_clock();
        driver
    }

    /// A network game, played by `net`'s rules; its clock starts once both players are in.
    pub fn networked(session: Session, net: NetGame) -> Driver {
        let mut driver = Driver {
            session,
            net: Some(net),
            queued: VecDeque::new(),
        };
        driver.start_clock();
        driver
    }

    /// Stops the clock while a game between two AIs is paused (`paused`), and starts it
    /// again after.
    pub fn pause_clock(&mut self, paused: bool) {
        if paused {
            self.session.stop_clock(Instant::now());
        } else {
            self.start_clock();
        }
    }

    /// Starts the clock for the side to act, unless a network game is not connected.
    fn start_clock(&mut self) {
        if self.net.as_ref().is_none_or(NetGame::is_connected) {
            self.session.start_clock(Instant::now());
        }
    }

    /// Looks at the clock at `now`: where this side keeps time (every game but a joiner's,
    /// whose host referees) and the flag of the side to act has fallen, the game is lost on
    /// time, the other side of a network game is told, and the mark that lost is returned.
    pub fn tick(&mut self, now: Instant) -> Option<Mark> {
        if self.net.as_ref().is_some_and(NetGame::is_over) {
            // The other player left: nothing is timed any more.
            self.session.stop_clock(now);
            return None;
        }
        if self.net.as_ref().is_some_and(|net| !net.is_host()) {
            return None;
        }
        let mark = self.session.flag(now)?;
        self.queued.clear();
        if let Some(net) = self.net.as_mut() {
            net.flagged(&self.session);
        }
        Some(mark)
    }

    /// Whether a clock runs: a front end looks at it ([`Driver::tick`]) and shows it often.
    pub fn clock_runs(&self) -> bool {
        self.session.clock().is_some_and(|c| c.running().is_some())
    }

    /// How long the AI to move may think by its clock, if it plays on one.
    pub fn ai_budget(&self) -> Option<Duration> {
        let seat = self.game().position().seat();
        Some(self.session.clock()?.budget(seat))
    }

    pub fn session(&self) -> &Session {
        &self.session
    }

    pub fn game(&self) -> &Game {
        self.session.game()
    }

    /// The network game, in a network game.
    pub fn net(&self) -> Option<&NetGame> {
        self.net.as_ref()
    }

    /// The moves typed ahead, in the order they will be played.
    pub fn queued(&self) -> &VecDeque<Move> {
        &self.queued
    }

    /// The position and the AI that is to choose a move in it, when an AI is to move.
    pub fn ai_to_move(&self) -> Option<(Position, Player)> {
        match self.game().turn() {
            Some((_, player)) if player.is_ai() => Some((*self.game().position(), player)),
            _ => None,
        }
    }

    /// A move a person made: played (and sent, in a network game), kept for later while the
    /// AI is to move, or refused with the reason.
    pub fn person_move(&mut self, mv: Move) -> Result<Sent, Refused> {
        self.not_watching()?;
        if let Some(mark) = self.tick(Instant::now()) {
            return Err(Refused::Flagged(mark));
        }
        self.time_left()?;
        let (mark, player) = self.game().turn().ok_or(Refused::Over)?;
        if !self.session.has_human() {
            return Err(Refused::AisPlay);
        }
        if player == Player::Remote {
            return Err(Refused::RemoteTurn(mark));
        }
        if let Some(net) = &self.net {
            if net.waiting_for_player() {
                return Err(Refused::NoOneJoined);
            }
            net.may_move().map_err(Refused::Blocked)?;
        }
        if player.is_ai() {
            if self.queued.len() >= TYPE_AHEAD {
                return Err(Refused::QueueFull);
            }
            self.queued.push_back(mv);
            return Ok(Sent::Queued(self.queued.len()));
        }
        self.session.play(mv).map_err(Refused::Illegal)?;
        if let Some(net) = self.net.as_mut() {
            net.played(&self.session);
        }
        Ok(Sent::Played(mark))
    }

    /// Plays the AI's move for the side to move; `None` (and nothing played) if the game is
    /// over or the move is not legal. Moves typed meanwhile are dropped unless a person is
    /// to move next: then [`Driver::play_queued`] plays them.
    pub fn ai_move(&mut self, mv: Move) -> Option<Mark> {
        self.tick(Instant::now());
        let (mark, _) = self.game().turn()?;
        self.session.play(mv).ok()?;
        if !matches!(self.game().turn(), Some((_, p)) if p.is_human()) {
            self.queued.clear();
        }
        Some(mark)
    }

    /// Plays the first move typed ahead, if any; a refused one drops those after it, which
    /// were meant for later turns.
    pub fn play_queued(&mut self) -> Option<Queued> {
        let mv = self.queued.pop_front()?;
        let rest = std::mem::take(&mut self.queued);
        let result = self.person_move(mv);
        let dropped = result.is_err() && !rest.is_empty();
        if !dropped {
            self.queued = rest;
        }
        Some(Queued {
            mv,
            result,
            dropped,
        })
    }

    /// The seat of the person here who resigns or offers a draw: the one person at this
    /// machine, or of two, the one to act.
    fn person_seat(&self) -> Result<Seat, Refused> {
        self.not_watching()?;
        self.time_left()?;
        let game = self.game();
        if game.is_over() {
            return Err(Refused::Over);
        }
        let human = |seat| game.seat_player(seat).is_human();
        match (human(Seat::First), human(Seat::Second)) {
            (true, true) => Ok(game.position().seat()),
            (true, false) => Ok(Seat::First),
            (false, true) => Ok(Seat::Second),
            (false, false) => Err(Refused::AisPlay),
        }
    }

    /// Refused where a joiner's own clock says its time is up: the host's clock, the
    /// referee's, has the last word, and a move sent now would cross it.
    fn time_left(&self) -> Result<(), Refused> {
        let Some(net) = self.net.as_ref().filter(|net| !net.is_host()) else {
            return Ok(());
        };
        let Some(clock) = self.session.clock() else {
            return Ok(());
        };
        let seat = self.game().position().seat();
        let mine = self.game().seat_player(seat).is_human();
        let running = mine && net.is_connected() && clock.running() == Some(seat);
        if running && clock.left(seat, Instant::now()).is_zero() {
            return Err(Refused::TimeUp);
        }
        Ok(())
    }

    /// Refused where this side only watches a network game.
    fn not_watching(&self) -> Result<(), Refused> {
        match &self.net {
            Some(net) if net.is_watcher() => Err(Refused::Watching),
            _ => Ok(()),
        }
    }

    /// Whether the network game takes a resignation or an offer now.
    fn net_allows(&self) -> Result<(), Refused> {
        match &self.net {
            Some(net) if net.waiting_for_player() => Err(Refused::NoOneJoined),
            // The other side must hear it: an ending or an offer is not kept for a rejoin.
            Some(net) if !net.is_connected() && !net.is_over() => {
                Err(Refused::Blocked(MoveBlocked::NotConnected))
            }
            Some(net) => net.may_move().map_err(Refused::Blocked),
            None => Ok(()),
        }
    }

    /// The person here resigns: the mark they played.
    pub fn resign(&mut self) -> Result<Mark, Refused> {
        let seat = self.person_seat()?;
        self.net_allows()?;
        let mark = self.game().position().mark_of(seat);
        self.session.resign(seat);
        self.queued.clear();
        if let Some(net) = self.net.as_mut() {
            net.concluded(&self.session, true);
        }
        Ok(mark)
    }

    /// The person here offers a draw, or accepts the other side's; against the AI on their
    /// own turn, and the AI answers with its move ([`Driver::ai_draws`]).
    pub fn offer_draw(&mut self) -> Result<Drawn, Refused> {
        let seat = self.person_seat()?;
        self.net_allows()?;
        if self.game().turn().is_some_and(|(_, player)| player.is_ai()) {
            return Err(Refused::AiThinking);
        }
        let drawn = self.session.offer_draw(seat);
        if let (Drawn::Offered | Drawn::Agreed, Some(net)) = (drawn, self.net.as_mut()) {
            net.concluded(&self.session, false);
        }
        Ok(drawn)
    }

    /// Whether the AI to move has a person's draw offer to answer.
    pub fn draw_offered_to_ai(&self) -> bool {
        let game = self.game();
        let offerer = game.draw_offer().map(|seat| game.seat_player(seat));
        offerer.is_some_and(Player::is_human)
            && game.turn().is_some_and(|(_, player)| player.is_ai())
    }

    /// The AI to move answers a person's draw offer: where it `accepts`, the game is drawn
    /// (true); otherwise it plays on and the offer lapses with its move.
    pub fn ai_draws(&mut self, accepts: bool) -> bool {
        if !self.draw_offered_to_ai() {
            return false;
        }
        if !accepts {
            self.session.decline_draw();
            return false;
        }
        let seat = self.game().position().seat();
        self.queued.clear();
        self.session.offer_draw(seat) == Drawn::Agreed
    }

    /// Takes back the last move (and the AI's answer to it): how many were taken back.
    pub fn undo(&mut self) -> Result<usize, NoUndo> {
        if self.net.is_some() {
            return Err(NoUndo::Network);
        }
        if self.game().is_over() {
            return Err(NoUndo::Over);
        }
        if self.session.clock().is_some() {
            return Err(NoUndo::Clock);
        }
        self.queued.clear();
        Ok(self.session.undo())
    }

    /// Makes this a network game, played by `net`'s rules: its clock waits, nothing charged,
    /// until both players are in.
    pub fn connect(&mut self, net: NetGame) {
        if !net.is_connected() {
            self.session.hold_clock();
        }
        self.net = Some(net);
    }

    /// Starts the next round, with `level` for the AI of one side if one was chosen.
    pub fn new_round(&mut self, level: Option<(Side, Player)>) {
        self.session.new_round_with(level);
        self.queued.clear();
        self.start_clock();
    }

    /// Starts a new session of this game: another opening, other players. A network game
    /// never does.
    /// The new session keeps its games where this one did.
    pub fn restart(&mut self, session: Session) {
        self.session = session.kept_in(self.session.journal());
        self.queued.clear();
        self.start_clock();
    }

    /// Ends the game here: it is recorded as left, and a network game says goodbye.
    pub fn leave(&mut self) {
        self.session.leave();
        if let Some(net) = self.net.as_mut() {
            net.leave();
        }
    }

    /// News from the network game's connection: what it means for the game, if anything.
    pub fn link_event(&mut self, event: LinkEvent) -> Option<NetEvent> {
        // A move that comes after the flag fell is too late.
        self.tick(Instant::now());
        let net = self.net.as_mut()?;
        let event = net.handle(&mut self.session, event);
        self.start_clock();
        event
    }

    /// The orders for the network game's connection, taken.
    pub fn orders(&mut self) -> Vec<Order> {
        self.net.as_mut().map(NetGame::orders).unwrap_or_default()
    }

    /// `n` after a network game: a rematch asked for (`None` in a game on this machine).
    pub fn ask_rematch(&mut self) -> Option<Rematch> {
        let net = self.net.as_mut().filter(|net| !net.is_watcher())?;
        Some(net.ask_rematch(&self.session))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::Message;
    use crate::rules::classic::{Board, Rules};

    fn cell(digit: u8) -> Move {
        Move::Cell(Board::default().numpad(digit).unwrap())
    }

    fn against_the_ai() -> Driver {
        Driver::new(Session::new(Rules::CLASSIC, Player::Human, Player::HARD))
    }

    #[test]
    fn a_persons_move_is_played_and_the_ai_is_asked_for_its_own() {
        let mut driver = against_the_ai();
        assert_eq!(driver.ai_to_move(), None);
        assert_eq!(driver.person_move(cell(5)), Ok(Sent::Played(Mark::X)));
        let (position, player) = driver.ai_to_move().expect("the AI is to move");
        assert_eq!(
            (position.to_string(), player),
            (".../.X./...".into(), Player::HARD)
        );
    }

    #[test]
    fn moves_made_while_the_ai_thinks_wait_and_are_played_after_its_move() {
        let mut driver = against_the_ai();
        driver.person_move(cell(5)).unwrap();
        assert_eq!(driver.person_move(cell(1)), Ok(Sent::Queued(1)));
        assert_eq!(driver.person_move(cell(3)), Ok(Sent::Queued(2)));
        assert_eq!(driver.ai_move(cell(7)), Some(Mark::O));
        let first = driver.play_queued().expect("a move waits");
        assert_eq!(
            (first.mv, first.result),
            (cell(1), Ok(Sent::Played(Mark::X)))
        );
        assert!(!first.dropped);
        assert_eq!(
            driver.queued().len(),
            1,
            "the second waits for the next turn"
        );
        assert_eq!(driver.game().record().to_string(), "5 7 1");
    }

    #[test]
    fn a_refused_queued_move_drops_the_ones_after_it() {
        let mut driver = against_the_ai();
        driver.person_move(cell(5)).unwrap();
        driver.person_move(cell(7)).unwrap();
        driver.person_move(cell(3)).unwrap();
        driver.ai_move(cell(7));
        let first = driver.play_queued().unwrap();
        assert!(matches!(first.result, Err(Refused::Illegal(e)) if e.is_taken()));
        assert!(first.dropped);
        assert!(driver.queued().is_empty());
        assert_eq!(driver.game().record().to_string(), "5 7");
    }

    #[test]
    fn no_more_than_the_type_ahead_limit_waits() {
        let mut driver = against_the_ai();
        driver.person_move(cell(5)).unwrap();
        for digit in 1..=TYPE_AHEAD as u8 {
            assert!(driver.person_move(cell(digit)).is_ok());
        }
        assert_eq!(driver.person_move(cell(9)), Err(Refused::QueueFull));
    }

    #[test]
    fn undo_takes_back_a_turn_until_the_game_is_over() {
        let mut driver = against_the_ai();
        assert_eq!(driver.undo(), Ok(0));
        driver.person_move(cell(5)).unwrap();
        driver.ai_move(cell(1));
        assert_eq!(driver.undo(), Ok(2));
        let two = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
        let mut driver = Driver::new(two);
        for digit in [7, 1, 8, 2, 9] {
            driver.person_move(cell(digit)).unwrap();
        }
        assert_eq!(driver.undo(), Err(NoUndo::Over));
        assert_eq!(driver.person_move(cell(3)), Err(Refused::Over));
    }

    #[test]
    fn a_network_game_refuses_moves_until_a_player_joins_and_on_their_turn() {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Remote);
        let mut driver = Driver::networked(session, NetGame::hosting(false));
        assert_eq!(driver.person_move(cell(5)), Err(Refused::NoOneJoined));
        let addr: std::net::SocketAddr = "127.0.0.1:9".parse().unwrap();
        let joined = driver.link_event(LinkEvent::Joined {
            peer: addr.into(),
            hints: false,
        });
        assert!(matches!(joined, Some(NetEvent::Joined { .. })));
        assert_eq!(driver.person_move(cell(5)), Ok(Sent::Played(Mark::X)));
        assert!(driver.orders().contains(&Order::Move {
            seq: 1,
            mv: cell(5),
            spent: None,
            left: None,
        }));
        assert_eq!(
            driver.person_move(cell(1)),
            Err(Refused::RemoteTurn(Mark::O))
        );
        assert_eq!(driver.undo(), Err(NoUndo::Network));
        let moved = driver.link_event(LinkEvent::Received(Message::Move {
            seq: 2,
            cell: "1".into(),
            spent_ms: None,
            left_ms: None,
        }));
        assert!(matches!(moved, Some(NetEvent::OpponentMoved { .. })));
        assert_eq!(driver.game().record().to_string(), "5 1");
    }

    #[test]
    fn a_draw_offer_overtaken_by_a_move_lapses_and_one_that_meets_an_offer_agrees() {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Remote);
        let mut driver = Driver::networked(session, NetGame::hosting(false));
        let addr: std::net::SocketAddr = "127.0.0.1:9".parse().unwrap();
        driver.link_event(LinkEvent::Joined {
            peer: addr.into(),
            hints: false,
        });
        driver.person_move(cell(5)).unwrap();
        // The host offers with one move played; the joiner's move crosses it on the way and
        // its offer, sent before it saw the host's, arrives after.
        assert_eq!(driver.offer_draw(), Ok(Drawn::Offered));
        assert!(driver.orders().contains(&Order::Draw { seq: 1 }));
        let received =
            |driver: &mut Driver, message| driver.link_event(LinkEvent::Received(message));
        let moved = received(
            &mut driver,
            Message::Move {
                seq: 2,
                cell: "1".into(),
                spent_ms: None,
                left_ms: None,
            },
        );
        assert!(matches!(moved, Some(NetEvent::OpponentMoved { .. })));
        assert_eq!(
            driver.game().draw_offer(),
            None,
            "the joiner moved: it lapsed"
        );
        assert_eq!(
            received(&mut driver, Message::Draw { seq: 1 }),
            None,
            "stale"
        );
        assert!(!driver.game().is_over());
        // An offer that meets the host's own, both at two moves, is a draw agreed.
        assert_eq!(driver.offer_draw(), Ok(Drawn::Offered));
        let agreed = received(&mut driver, Message::Draw { seq: 2 });
        assert_eq!(agreed, Some(NetEvent::DrawAgreed));
        assert_eq!(driver.session().result().as_deref(), Some("Draw agreed."));
        // An acceptance sent before the offerer's own move arrived still meets the offer.
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Remote);
        let mut crossing = Driver::networked(session, NetGame::hosting(false));
        crossing.link_event(LinkEvent::Joined {
            peer: addr.into(),
            hints: false,
        });
        assert_eq!(crossing.offer_draw(), Ok(Drawn::Offered));
        crossing.person_move(cell(5)).unwrap();
        let accepted = received(&mut crossing, Message::Draw { seq: 0 });
        assert_eq!(
            accepted,
            Some(NetEvent::DrawAgreed),
            "the joiner saw no move yet"
        );
        // Nothing more is taken: the game is over.
        assert_eq!(received(&mut driver, Message::Resign { seq: 2 }), None);
        assert_eq!(driver.resign(), Err(Refused::Over));
    }

    #[test]
    fn a_game_on_a_clock_takes_no_undo_and_a_joiner_out_of_time_waits_for_the_host() {
        let clocked =
            |a, b| Session::new(Rules::CLASSIC, a, b).with_clock(Some("1".parse().unwrap()));
        let mut here = Driver::new(clocked(Player::Human, Player::Human));
        here.person_move(cell(5)).unwrap();
        assert_eq!(here.undo(), Err(NoUndo::Clock));
        let hosted = clocked(Player::Remote, Player::Human);
        let mut joiner = Driver::networked(hosted, NetGame::joined(false, false));
        joiner
            .link_event(LinkEvent::Received(Message::Move {
                seq: 1,
                cell: "5".into(),
                spent_ms: Some(100),
                left_ms: Some([59_900, 0]),
            }))
            .unwrap();
        assert_eq!(joiner.person_move(cell(1)), Err(Refused::TimeUp));
        assert_eq!(joiner.resign(), Err(Refused::TimeUp));
        assert_eq!(
            joiner.tick(Instant::now()),
            None,
            "only the host lets a flag fall"
        );
        assert!(joiner.orders().is_empty());
    }

    #[test]
    fn a_watcher_can_neither_move_resign_offer_nor_ask_for_a_rematch() {
        let session = Session::new(Rules::CLASSIC, Player::Remote, Player::Remote);
        let mut driver = Driver::networked(session, NetGame::watcher());
        assert_eq!(driver.person_move(cell(5)), Err(Refused::Watching));
        assert_eq!(driver.resign(), Err(Refused::Watching));
        assert_eq!(driver.offer_draw(), Err(Refused::Watching));
        assert_eq!(driver.ask_rematch(), None);
        assert_eq!(driver.undo(), Err(NoUndo::Network));
        assert!(driver.game().history().is_empty());
        assert!(driver.orders().is_empty(), "nothing is sent");
    }

    #[test]
    fn two_ais_take_no_move_from_a_person() {
        let session = Session::new(Rules::CLASSIC, Player::HARD, Player::HARD);
        let mut driver = Driver::new(session);
        assert_eq!(driver.person_move(cell(5)), Err(Refused::AisPlay));
    }
}
