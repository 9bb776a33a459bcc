//! The terminal game's side of a network game: the [`NetEvent`]s of
//! [`crate::net::session`] shown on the message line, and the player's requests (a move, a
//! rematch) passed to it. The words come from the events; this file only adds the keys.

use super::{App, Mode};
use crate::net::link::LinkEvent;
use crate::net::session::{HINTS_ON, NetEvent, NetGame, Order, Rematch};

/// A network game as the app sees it.
#[derive(Clone, Debug)]
pub(super) struct Net {
    /// The host's join line, shown until a player joins; the joiner's `Joined` line, shown
    /// with the first turn.
    pub(super) join_line: Option<String>,
    /// The last word about refused connections, kept off the message line.
    notice: Option<String>,
    /// How the two sides are connected now, where the transport can tell.
    path: Option<String>,
}

impl App {
    /// Makes this a network game: as the host, waiting for a player (`join_line` is the line
    /// to show until one joins), or as the player who joined (`join_line` says how).
    pub fn connect(&mut self, game: NetGame, join_line: Option<String>) {
        let waiting = game.waiting_for_player();
        self.driver.connect(game);
        let hints = self.hints_news();
        self.message = match &join_line {
            Some(line) if waiting => format!("Waiting for a player. {line}"),
            Some(line) => format!("{line} {hints}{}", self.turn_message()),
            None => format!("{hints}{}", self.turn_message()),
        };
        self.net = Some(Net {
            join_line,
            notice: None,
            path: None,
        });
    }

    /// Takes the orders for the network game's connection.
    pub fn outbox(&mut self) -> Vec<Order> {
        self.driver.orders()
    }

    /// Whether this is a network game.
    pub fn is_network(&self) -> bool {
        self.net.is_some()
    }

    /// Whether hints and the explorer are on in a network game (both players asked): the
    /// title says so.
    pub fn net_hints_on(&self) -> bool {
        self.driver.net().is_some_and(NetGame::hints_on)
    }

    /// How many watch this network game (0 in a game on this machine), and whether this side
    /// is one of them.
    pub fn watching(&self) -> (usize, bool) {
        self.driver
            .net()
            .map_or((0, false), |net| (net.watching(), net.is_watcher()))
    }

    /// `Hints are on: both players asked for them. ` where they are, else nothing.
    fn hints_news(&self) -> String {
        if self.net_hints_on() {
            format!("{HINTS_ON}. ")
        } else {
            String::new()
        }
    }

    /// Whether the message line is wrapped, not cut: while a network game's other player is
    /// not connected (a host's join line, a lost connection, a host that is gone).
    pub fn message_wraps(&self) -> bool {
        self.driver.net().is_some_and(|n| !n.is_connected())
    }

    /// The last word about connections the host refused (`Refused 4,213 more connections in
    /// the last 10 s …`), which never takes the message line.
    pub fn net_notice(&self) -> Option<&str> {
        self.net.as_ref().and_then(|n| n.notice.as_deref())
    }

    /// How the two sides are connected now (`direct, round trip 0.4 ms`), shown beside the
    /// other player's name.
    pub fn net_path(&self) -> Option<&str> {
        self.net.as_ref().and_then(|n| n.path.as_deref())
    }

    /// Takes how the two sides are connected now.
    pub fn set_net_path(&mut self, path: String) {
        if let Some(net) = self.net.as_mut() {
            net.path = Some(path);
        }
    }

    /// News from the network game's connection.
    pub(super) fn link_event(&mut self, event: LinkEvent) {
        let Some(event) = self.driver.link_event(event) else {
            return;
        };
        match event {
            NetEvent::OpponentMoved { mark, mv } => self.after_move(mark, mv),
            NetEvent::Joined { .. } | NetEvent::Back { .. } => {
                let hints = self.hints_news();
                self.message = format!("{event}. {hints}{}", self.turn_message());
            }
            NetEvent::Rejoined | NetEvent::WatchedRound { .. } => {
                self.mode = Mode::Playing;
                self.message = format!("{event}. {}", self.turn_message());
            }
            // The title says how many watch: the message line keeps what it says (the join
            // line, an offer).
            NetEvent::Watching { .. } => {}
            NetEvent::NewRound => self.new_round(),
            NetEvent::RematchOffered { .. } => self.message = format!("{event}: n accepts"),
            NetEvent::DrawOffered { .. } => {
                self.message = format!("{event}: = accepts, a move declines");
            }
            NetEvent::Resigned { .. } | NetEvent::DrawAgreed | NetEvent::TimeOut { .. } => {
                self.message = self.turn_message();
            }
            NetEvent::OpponentLeft { .. }
            | NetEvent::RejoinFailed { .. }
            | NetEvent::WatchOver(_)
            | NetEvent::OutOfStep(_)
            | NetEvent::Desynced(_) => {
                self.message = format!("{event}. q quits");
            }
            NetEvent::Refused(_) => {
                if let Some(net) = self.net.as_mut() {
                    net.notice = Some(event.to_string());
                }
            }
            NetEvent::MoveRefused { .. }
            | NetEvent::RematchRefused { .. }
            | NetEvent::ConnectionLost { .. }
            | NetEvent::Seat { .. }
            | NetEvent::Reported { .. } => self.message = event.to_string(),
        }
    }

    /// `n` in a network game: a new game starts when both sides have asked.
    pub(super) fn ask_rematch(&mut self) {
        match self.driver.ask_rematch() {
            Some(Rematch::Agreed) => self.new_round(),
            Some(Rematch::AlreadyAsked(_)) | None => {}
            Some(answer) => self.message = answer.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::net::failure::{Refusal, RefusalNotice};
    use crate::net::protocol::Message;
    use crate::rules::classic::{Board, Rules};
    use crate::rules::gomoku::opening::Seat;
    use crate::rules::position::Move;
    use crate::ui::tui::app::Event;
    use crate::ui::tui::input::Action;
    use std::time::Instant;

    fn board(app: &App) -> String {
        app.game().position().to_string()
    }

    /// A network game as its host sees it, with the player joined.
    fn hosting() -> App {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Remote);
        let mut app = App::new(session, (80, 24));
        app.connect(NetGame::hosting(false), Some("Join with: …".into()));
        assert_eq!(app.message(), "Waiting for a player. Join with: …");
        let addr: std::net::SocketAddr = "127.0.0.1:9".parse().unwrap();
        app.handle(Event::Net(LinkEvent::Joined {
            peer: addr.into(),
            hints: false,
        }));
        let seated = Order::Seat {
            here: true,
            left: false,
        };
        assert_eq!(app.outbox(), [seated], "the watchers are told");
        app
    }

    #[test]
    fn a_hosts_clock_waits_for_its_player_and_stops_when_the_player_leaves() {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Remote)
            .with_clock(Some("1".parse().unwrap()));
        let mut app = App::new(session, (80, 24));
        app.connect(NetGame::hosting(false), Some("Join with: …".into()));
        assert!(!app.clock_runs(), "no one has joined");
        let full = std::time::Duration::from_mins(1);
        let first = app
            .session()
            .clock()
            .unwrap()
            .left(Seat::First, Instant::now());
        assert_eq!(first, full, "the time before the player came is nobody's");
        let addr: std::net::SocketAddr = "127.0.0.1:9".parse().unwrap();
        app.handle(Event::Net(LinkEvent::Joined {
            peer: addr.into(),
            hints: false,
        }));
        assert!(app.clock_runs(), "both are in");
        app.handle(Event::Net(LinkEvent::Received(Message::Bye)));
        app.handle(Event::Clock);
        assert!(!app.clock_runs(), "the other player left");
        assert!(!app.game().is_over(), "and no flag falls");
    }

    #[test]
    fn a_watcher_is_offered_no_rematch_when_the_game_ends() {
        let session = Session::new(Rules::CLASSIC, Player::Remote, Player::Remote);
        let mut app = App::new(session, (80, 24));
        app.connect(NetGame::watcher(), Some("Watching …".into()));
        app.handle(Event::Net(LinkEvent::Received(Message::Update {
            round: 1,
            score: [0, 0, 0],
            from: 0,
            moves: vec!["5".into()],
            clock: None,
            ending: Some(crate::net::protocol::EndedState {
                how: "resigned".into(),
                loser: Some("O".into()),
            }),
            joiner: None,
        })));
        assert!(app.game().is_over());
        assert!(app.message().ends_with("q quits"), "{}", app.message());
        assert!(!app.message().contains("rematch"), "{}", app.message());
    }

    fn remote_move(seq: u32, cell: &str) -> Event {
        Event::Net(LinkEvent::Received(Message::Move {
            seq,
            cell: cell.into(),
            spent_ms: None,
            left_ms: None,
        }))
    }

    #[test]
    fn local_moves_go_out_and_remote_ones_are_checked() {
        let mut app = hosting();
        assert_eq!(app.message(), "127.0.0.1:9 joined. X to move (you)");
        app.update(Action::Digit(5));
        let five = Move::Cell(Board::default().numpad(5).unwrap());
        assert_eq!(
            app.outbox(),
            [Order::Move {
                seq: 1,
                mv: five,
                spent: None,
                left: None
            }]
        );
        assert_eq!(app.job(), None, "no AI works for the remote player");
        app.handle(remote_move(3, "1"));
        assert_eq!(board(&app), ".../.X./...", "a wrong number changes nothing");
        assert!(
            matches!(&app.outbox()[..], [Order::Refuse(why)] if why.contains("move 2 was due"))
        );
        app.handle(remote_move(2, "1"));
        assert_eq!(board(&app), ".../.X./O..");
        app.update(Action::Undo);
        assert_eq!(app.message(), "Undo is not available in network games");
    }

    #[test]
    fn a_rematch_starts_when_both_sides_ask() {
        let mut app = hosting();
        for (mine, theirs) in [("7", "1"), ("8", "2")] {
            app.update(Action::Digit(mine.parse().unwrap()));
            let seq = app.game().history().len() as u32 + 1;
            app.handle(remote_move(seq, theirs));
        }
        app.update(Action::Digit(9));
        assert_eq!(app.message(), "You win! n: ask for a rematch");
        app.outbox();
        app.update(Action::NewRound);
        assert_eq!(app.outbox(), [Order::Rematch]);
        assert_eq!(app.message(), "Asked O for a rematch…");
        assert_eq!(app.session().round(), 1);
        app.handle(Event::Net(LinkEvent::Received(Message::Rematch)));
        assert_eq!(app.session().round(), 2);
        assert!(app.message().starts_with("Round 2: 127.0.0.1 moves first."));
        app.handle(Event::Net(LinkEvent::Received(Message::Bye)));
        assert_eq!(app.message(), "X left the game. q quits");
        let left = Order::Seat {
            here: false,
            left: true,
        };
        assert_eq!(app.outbox(), [left, Order::Leave], "a goodbye is answered");
    }

    #[test]
    fn refused_connections_never_take_the_message_line() {
        let mut app = hosting();
        let before = app.message().to_string();
        let notice = RefusalNotice::More {
            within: std::time::Duration::from_secs(10),
            counts: vec![("closed early", 4213)],
        };
        app.handle(Event::Net(LinkEvent::Refused(notice)));
        let one = RefusalNotice::One {
            from: None,
            refusal: Refusal::WrongCode,
        };
        app.handle(Event::Net(LinkEvent::Refused(one)));
        assert_eq!(app.message(), before);
        assert_eq!(app.net_notice(), Some("Refused a connection: wrong code"));
        let screen = crate::ui::tui::view::render(&app, None, false).to_text();
        let rows: Vec<&str> = screen.lines().collect();
        let at = |text: &str| rows.iter().position(|r| r.trim() == text);
        let title = at("Tic-tac-toe · round 1").expect("a title");
        assert_eq!(
            at("Refused a connection: wrong code"),
            Some(title - 1),
            "{screen}"
        );
        assert!(rows.iter().any(|r| r.trim() == before), "{screen}");
    }

    #[test]
    fn the_status_line_shows_the_newest_path_beside_the_other_player() {
        let mut app = hosting();
        let status = |app: &App| {
            let screen = crate::ui::tui::view::render(app, None, false).to_text();
            let line = screen.lines().find(|l| l.contains("O: 127.0.0.1"));
            line.expect("a status line").trim().to_string()
        };
        assert_eq!(status(&app), "▸ X: you   O: 127.0.0.1");
        app.set_net_path("relayed, round trip 31.0 ms".into());
        assert_eq!(
            status(&app),
            "▸ X: you   O: 127.0.0.1 (relayed, round trip 31.0 ms)"
        );
        app.set_net_path("direct, round trip 0.4 ms".into());
        assert_eq!(
            status(&app),
            "▸ X: you   O: 127.0.0.1 (direct, round trip 0.4 ms)"
        );
    }

    /// A host that asks for hints, joined by a player who asks (`joiner_asks`) or not.
    fn hosting_with_hints(joiner_asks: bool) -> App {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Remote);
        let mut app = App::new(session, (80, 24));
        app.connect(NetGame::hosting(true), Some("Join with: …".into()));
        let addr: std::net::SocketAddr = "127.0.0.1:9".parse().unwrap();
        let joined = LinkEvent::Joined {
            peer: addr.into(),
            hints: joiner_asks,
        };
        app.handle(Event::Net(joined));
        app
    }

    fn screen(app: &App) -> String {
        crate::ui::tui::view::render(app, None, false).to_text()
    }

    #[test]
    fn hints_and_the_explorer_are_on_and_shown_only_when_both_players_asked() {
        let mut app = hosting_with_hints(true);
        assert_eq!(
            app.message(),
            "127.0.0.1:9 joined. Hints are on: both players asked for them. X to move (you)"
        );
        let shown = screen(&app);
        assert!(
            shown.contains("Tic-tac-toe · round 1 · hints on"),
            "{shown}"
        );
        assert!(
            shown.contains("h hint") && shown.contains("t explore"),
            "{shown}"
        );
        app.update(Action::Explore);
        assert!(app.explorer().is_some(), "the explorer opens");

        let mut app = hosting_with_hints(false);
        let shown = screen(&app);
        assert!(!shown.contains("hints on"), "{shown}");
        assert!(
            !shown.contains("h hint") && !shown.contains("t explore"),
            "{shown}"
        );
        app.update(Action::Explore);
        assert!(app.explorer().is_none(), "the explorer stays shut");
        assert_eq!(
            app.message(),
            "Hints and the explorer are off: you asked for them, the other player did not"
        );
        app.update(Action::Hint);
        assert!(matches!(app.mode, Mode::Playing), "no hint is worked out");
        // A host that did not ask, joined by a player who did.
        let session = Session::new(Rules::CLASSIC, Player::Remote, Player::Human);
        let mut joined = App::new(session, (80, 24));
        joined.connect(NetGame::joined(true, false), None);
        joined.update(Action::Explore);
        assert!(joined.explorer().is_none());
        assert!(!screen(&joined).contains("hints on"));
    }

    #[test]
    fn a_joiner_cut_off_waits_to_be_back_in_and_gets_the_hosts_game() {
        let session = Session::new(Rules::CLASSIC, Player::Remote, Player::Human);
        let mut app = App::new(session, (80, 24));
        app.connect(NetGame::joined(false, false), None);
        app.handle(remote_move(1, "5"));
        app.handle(Event::Net(LinkEvent::Lost("the connection closed".into())));
        assert_eq!(
            app.message(),
            "The connection to X was lost (the connection closed); trying to get back in for 60 s (q leaves)…"
        );
        assert_eq!(app.outbox(), [Order::Rejoin]);
        app.update(Action::Digit(1));
        assert_eq!(app.message(), "Not connected: wait until you are back in");
        let state = crate::net::protocol::SessionState {
            round: 1,
            score: [0, 0, 0],
            moves: vec!["5".into(), "1".into(), "9".into()],
            clock: None,
            ending: None,
            more: 0,
            joiner: None,
        };
        app.handle(Event::Net(LinkEvent::Rejoined(state)));
        assert_eq!(app.message(), "Back in. O to move (you)");
        assert_eq!(board(&app), "..X/.X./O..");
    }
}
