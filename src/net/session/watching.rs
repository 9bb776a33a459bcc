//! A watcher's side of a network game: the host's updates ([`crate::net::watchers`]) applied
//! to the game watched, move by move, with the clock and how the game ended. A watcher sends
//! nothing and plays nothing; when the host goes, there is nothing more to watch.

use std::time::{Duration, Instant};

use super::{NetEvent, NetGame, Presence, ending_of, standing_of};
use crate::ai::player::Player;
use crate::game::ending::Ending;
use crate::game::{Session, Side, Standing};
use crate::net::link::LinkEvent;
use crate::net::protocol::{Message, REMOTE_TEXT, SessionState, cut};

/// The watcher's session: the host is side A (named `host`: its address without the port,
/// or its short id), the player who joined it side B (`guest`); both play from afar.
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
            }) => {
                let state = SessionState {
                    round,
                    score,
                    moves,
                    clock,
                    ending,
                };
                self.update(session, from as usize, &state)
            }
            LinkEvent::Received(Message::Watching { count }) => {
                self.watching = count as usize;
                Some(NetEvent::Watching {
                    count: self.watching,
                })
            }
            LinkEvent::Received(Message::Bye) => self.gone("the host left".into()),
            LinkEvent::Received(Message::Error { message, .. }) => {
                self.gone(format!("the host said: {}", cut(&message, REMOTE_TEXT)))
            }
            LinkEvent::Lost(why) => self.gone(why),
            _ => None,
        }
    }

    /// Nothing more to watch, for `why` (said once).
    fn gone(&mut self, why: String) -> Option<NetEvent> {
        if self.is_over() {
            return None;
        }
        self.presence = Presence::Gone;
        Some(NetEvent::WatchOver(why))
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
