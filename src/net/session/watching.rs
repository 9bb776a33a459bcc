//! A watcher's side of a network game: the host's updates ([`crate::net::watchers`]) applied
//! to the game watched, move by move, with the clock and how the game ended. A watcher sends
//! nothing and plays nothing; when the host goes, there is nothing more to watch.

use std::time::{Duration, Instant};

use super::{NetEvent, NetGame, Presence, SeatNews, ending_of, standing_of};
use crate::ai::player::Player;
use crate::game::ending::Ending;
use crate::game::{Session, Side, Standing};
use crate::net::link::LinkEvent;
use crate::net::protocol::{JoinerState, Message, REMOTE_TEXT, SessionState, cut};

/// The watcher's session: the host is side A (named `host`: its address without the port,
/// or its short id), the player who joined it side B (`guest` until the host names it, as
/// [`NetGame::seat`] does); both play from afar.
pub fn watcher_session(host: &str, standing: &Standing) -> Session {
    let mut session = Session::restore(Player::Remote, Player::Remote, standing);
    session.rename(Side::A, host.to_string());
    session.rename(Side::B, "guest");
    session
}

impl NetGame {
    /// What the connection reports, to a watcher (and the host's updates to a joiner, which
    /// bring a long game's moves after its welcome's first hundred).
    pub(super) fn watched(&mut self, session: &mut Session, event: LinkEvent) -> Option<NetEvent> {
        match event {
            LinkEvent::Received(Message::Update {
                round,
                score,
                from,
                moves,
                clock,
                ending,
                joiner,
            }) => {
                let seat = self.seat(session, joiner);
                let state = SessionState {
                    round,
                    score,
                    moves,
                    clock,
                    ending,
                    more: 0,
                    joiner: None,
                };
                self.update(session, from as usize, &state).or(seat)
            }
            LinkEvent::Received(Message::Bye) => self.gone("the host left".into()),
            LinkEvent::Received(Message::Error { message, .. }) => {
                self.gone(format!("the host said: {}", cut(&message, REMOTE_TEXT)))
            }
            LinkEvent::Lost(why) => self.gone(why),
            _ => None,
        }
    }

    /// The player who joined, as the host now says it is: its name on side B, and news of
    /// it where it changed.
    pub fn seat(&mut self, session: &mut Session, joiner: Option<JoinerState>) -> Option<NetEvent> {
        let now = joiner?;
        let before = self.joiner.replace(now.clone());
        session.rename(Side::B, now.name.clone());
        if before.as_ref() == Some(&now) {
            return None;
        }
        let news = match (before.map(|b| b.here), now.here) {
            _ if now.left => SeatNews::Left,
            (None, true) => SeatNews::Joined,
            (Some(false), true) => SeatNews::Back,
            (_, false) => SeatNews::Lost,
            (Some(true), true) => return None,
        };
        let mark = session.mark_of(Side::B);
        Some(NetEvent::Seat {
            mark,
            name: now.name,
            news,
        })
    }

    /// Nothing more to watch, for `why` (said once); for a joiner, whose game does not fit
    /// the host's, the game cannot go on and the host is told goodbye.
    pub(super) fn gone(&mut self, why: String) -> Option<NetEvent> {
        if self.is_over() {
            return None;
        }
        self.presence = Presence::Gone;
        if self.watcher {
            Some(NetEvent::WatchOver(why))
        } else {
            self.orders.push(super::Order::Leave);
            Some(NetEvent::OutOfStep(why))
        }
    }

    /// The host's update: a new round's game, or the moves after the first `from` of this
    /// one; the clock and the ending as the host has them.
    fn update(
        &mut self,
        session: &mut Session,
        from: usize,
        state: &SessionState,
    ) -> Option<NetEvent> {
        if state.round != session.round() {
            let Ok(standing) = standing_of(state, session.game().variant()) else {
                return self.gone("the host's game does not replay here".into());
            };
            *session = session.restored(&standing);
            return Some(NetEvent::WatchedRound { round: state.round });
        }
        let had = session.game().history().len();
        if from > had {
            return self.gone("the host's news skipped a move".into());
        }
        // Moves this side has already must be the host's.
        if had > from {
            let record = session.game().record();
            let before: Vec<_> = record.positions().skip(from).take(had - from).collect();
            let known = state
                .moves
                .iter()
                .zip(&record.moves()[from..had])
                .zip(before);
            for (i, ((cell, &mv), position)) in known.enumerate() {
                if position.parse_move(cell) != Ok(mv) {
                    return self.gone(format!("move {} differs", from + i + 1));
                }
            }
        }
        let mut last = None;
        for cell in state.moves.iter().skip(had - from) {
            let position = *session.game().position();
            let mark = position.mark_of(position.seat());
            let played = position
                .parse_move(cell)
                .ok()
                .filter(|&mv| session.play(mv).is_ok());
            let Some(mv) = played else {
                let cell = cut(cell, 12);
                return self.gone(format!("the host's move {cell} does not play here"));
            };
            last = Some(NetEvent::OpponentMoved { mark, mv });
            self.behind = self.behind.saturating_sub(1);
        }
        if let Some(clock) = &state.clock {
            session.set_clock(clock.left_ms.map(Duration::from_millis), Instant::now());
        }
        let ending = state.ending.as_ref().and_then(ending_of);
        match ending {
            Some(ending) if session.game().ending().is_none() && session.end_as(ending) => {
                Some(match ending {
                    Ending::Resigned(mark) => NetEvent::Resigned { mark },
                    Ending::Time(mark) => NetEvent::TimeOut { mark },
                    Ending::Agreed => NetEvent::DrawAgreed,
                })
            }
            _ => last,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::ending::Ending;
    use crate::net::link::LinkEvent;
    use crate::net::session::{NetGame, state_of};
    use crate::net::watchers::catch_up;
    use crate::rules::classic::Mark;
    use crate::rules::gomoku::opening::Seat;
    use crate::rules::position::{Outcome, Variant};

    /// A 20×20 game of `n` moves that ends no game (the points of a pattern with no more
    /// than two of a side in a row), as the host has it.
    fn hosted(n: usize) -> Session {
        let variant = Variant::of_size(20, None, false).unwrap();
        let mut session = Session::new(variant, Player::Human, Player::Remote);
        let (mut xs, mut os) = (Vec::new(), Vec::new());
        for row in 0..20u8 {
            for col in 0..20u8 {
                let name = format!("{}{}", char::from(b'a' + col), row + 1);
                (if (row / 2 + col) % 2 == 0 {
                    &mut xs
                } else {
                    &mut os
                })
                .push(name);
            }
        }
        for cell in xs.into_iter().zip(os).flat_map(|(x, o)| [x, o]).take(n) {
            let mv = session.game().position().parse_move(&cell).unwrap();
            session.play(mv).unwrap();
        }
        session
    }

    /// What one who comes in late makes of the host's session: its welcome, then updates.
    fn caught_up(host: &Session, watcher: bool) -> (Session, NetGame, Vec<NetEvent>) {
        let (first, rest) = catch_up(&state_of(&host.standing()));
        let standing = standing_of(&first, host.game().variant()).unwrap();
        let mut session = watcher_session("host", &standing);
        let mut net = if watcher {
            NetGame::watcher()
        } else {
            NetGame::joined(false, false).catching_up(first.more)
        };
        let events = rest
            .into_iter()
            .filter_map(|update| net.handle(&mut session, LinkEvent::Received(update)))
            .collect();
        (session, net, events)
    }

    #[test]
    fn a_long_game_that_ended_comes_whole_with_its_ending_last() {
        let mut host = hosted(250);
        assert!(host.resign(Seat::First));
        let (session, net, events) = caught_up(&host, true);
        assert_eq!(session.game().history(), host.game().history());
        assert_eq!(session.game().ending(), Some(Ending::Resigned(Mark::X)));
        assert_eq!(session.game().outcome(), Outcome::Won(Mark::O));
        assert!(!net.is_over(), "{events:?}");
    }

    #[test]
    fn a_joiner_may_not_move_until_a_long_game_has_come_whole() {
        let host = hosted(230);
        let (first, _) = catch_up(&state_of(&host.standing()));
        assert_eq!(first.more, 130);
        let net = NetGame::joined(false, false).catching_up(first.more);
        assert_eq!(net.may_move(), Err(super::super::MoveBlocked::CatchingUp));
        let (session, net, _) = caught_up(&host, false);
        assert_eq!(session.game().history().len(), 230);
        assert_eq!(net.may_move(), Ok(()));
    }

    #[test]
    fn a_watcher_hears_each_change_of_the_joiners_seat_once_and_names_it() {
        let host = hosted(2);
        let standing = standing_of(&state_of(&host.standing()), host.game().variant()).unwrap();
        let mut session = watcher_session("host", &standing);
        let mut net = NetGame::watcher();
        let seat = |here, left| {
            Some(JoinerState {
                name: "10.0.0.7".into(),
                here,
                left,
            })
        };
        let news = [
            (seat(true, false), Some(SeatNews::Joined)),
            (seat(true, false), None),
            (seat(false, false), Some(SeatNews::Lost)),
            (seat(false, false), None),
            (seat(true, false), Some(SeatNews::Back)),
            (seat(false, true), Some(SeatNews::Left)),
            (seat(false, true), None),
            (None, None),
        ];
        for (joiner, want) in news {
            let heard = net.seat(&mut session, joiner).map(|event| match event {
                NetEvent::Seat { mark, name, news } => {
                    assert_eq!((mark, name.as_str()), (Mark::O, "10.0.0.7"));
                    news
                }
                other => panic!("{other:?}"),
            });
            assert_eq!(heard, want);
        }
        assert_eq!(session.name(Side::B), "10.0.0.7");
    }

    #[test]
    fn news_that_contradicts_a_move_here_ends_a_joiners_game() {
        let host = hosted(120);
        let (first, rest) = catch_up(&state_of(&host.standing()));
        let standing = standing_of(&first, host.game().variant()).unwrap();
        let mut session = watcher_session("host", &standing);
        // This side has a move 101 of its own that the host does not.
        let other = session.game().position().parse_move("t20").unwrap();
        session.play(other).unwrap();
        let mut net = NetGame::joined(false, false);
        let event = net.handle(&mut session, LinkEvent::Received(rest[0].clone()));
        assert!(
            matches!(&event, Some(NetEvent::OutOfStep(why)) if why == "move 101 differs"),
            "{event:?}"
        );
        assert!(net.is_over());
        assert_eq!(net.orders(), [super::super::Order::Leave]);
    }
}
