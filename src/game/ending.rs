//! Games ended off the board: a player resigns, or both agree a draw.
//!
//! A draw is offered by one seat and stands until the other seat moves: the offerer may make
//! their move after offering, as chess players offer with a move, and the other side accepts
//! by offering in turn before moving, or declines by playing on. Each side of a network game
//! runs the same rules on the same moves, and an offer sent names how many moves its sender had
//! seen ([`Game::offered_at`]), so an offer overtaken by a move lapses on both sides alike.

use super::{Game, GameEnd, Session};
use crate::rules::classic::Mark;
use crate::rules::gomoku::opening::Seat;
use crate::rules::position::Outcome;

/// How a game ended off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ending {
    /// The player of this mark resigned: the other wins.
    Resigned(Mark),
    /// Both players agreed a draw.
    Agreed,
    /// The player of this mark ran out of time ([`crate::game::clock`]): the other wins.
    Time(Mark),
}

impl Ending {
    /// What it makes of the game.
    pub fn outcome(self) -> Outcome {
        match self {
            Ending::Resigned(mark) | Ending::Time(mark) => Outcome::Won(mark.other()),
            Ending::Agreed => Outcome::Draw,
        }
    }
}

/// A draw offered: by which seat, with how many moves played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Offer {
    pub(super) seat: Seat,
    pub(super) at: usize,
}

/// What became of a draw offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Drawn {
    /// The offer stands until the other side moves.
    Offered,
    /// The other side's offer stood: the game is drawn.
    Agreed,
    /// This side's offer stands already.
    AlreadyOffered,
    /// The game is over.
    Over,
}

impl Game {
    /// How the game ended off the board, if it did.
    pub fn ending(&self) -> Option<Ending> {
        self.ended
    }

    /// The seat whose draw offer stands: made, and the other seat has not moved since.
    pub fn draw_offer(&self) -> Option<Seat> {
        let offer = self.offer?;
        let moved = self.acts.get(offer.at..)?;
        let lapsed = moved.iter().any(|&(seat, _)| seat != offer.seat);
        (!lapsed && !self.is_over()).then_some(offer.seat)
    }

    /// `seat` resigns: the other wins. Refused (false) once the game is over.
    pub fn resign(&mut self, seat: Seat) -> bool {
        if self.is_over() {
            return false;
        }
        self.ended = Some(Ending::Resigned(self.position.mark_of(seat)));
        true
    }

    /// `seat` offers a draw, or accepts the other's offer that stands.
    pub fn offer_draw(&mut self, seat: Seat) -> Drawn {
        match self.draw_offer() {
            _ if self.is_over() => Drawn::Over,
            Some(offerer) if offerer == seat => Drawn::AlreadyOffered,
            Some(_) => {
                self.ended = Some(Ending::Agreed);
                Drawn::Agreed
            }
            None => {
                self.offer = Some(Offer {
                    seat,
                    at: self.history.len(),
                });
                Drawn::Offered
            }
        }
    }

    /// The offer that stands is declined: it lapses now, not at the other side's move.
    pub fn decline_draw(&mut self) {
        self.offer = None;
    }

    /// How many moves were played when the offer that stands was made (what a network game
    /// sends with it), if one stands.
    pub fn offered_at(&self) -> Option<usize> {
        self.draw_offer().and(self.offer).map(|o| o.at)
    }

    /// This game, ended as `ending` says (a game of the history read back).
    pub fn ended_as(mut self, ending: Option<Ending>) -> Game {
        self.ended = ending.filter(|_| !self.position.is_over());
        self
    }
}

impl Session {
    /// `seat` resigns the current game, which is entered in the journal as finished.
    /// Refused (false) once the game is over.
    pub fn resign(&mut self, seat: Seat) -> bool {
        let resigned = self.game.resign(seat);
        if resigned {
            self.enter(GameEnd::Finished);
        }
        resigned
    }

    /// The game ended as the host of a network game says, for one who watches it (and
    /// keeps nothing): false, and nothing changed, if it is over already.
    pub fn end_as(&mut self, ending: Ending) -> bool {
        if self.game.is_over() {
            return false;
        }
        self.game.ended = Some(ending);
        self.stop_clock(std::time::Instant::now());
        true
    }

    /// The draw offer that stands is declined ([`Game::decline_draw`]).
    pub fn decline_draw(&mut self) {
        self.game.decline_draw();
    }

    /// `seat` offers a draw, or accepts the other's; an agreed draw is entered in the
    /// journal as finished.
    pub fn offer_draw(&mut self, seat: Seat) -> Drawn {
        let drawn = self.game.offer_draw(seat);
        if drawn == Drawn::Agreed {
            self.enter(GameEnd::Finished);
        }
        drawn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::Player;
    use crate::game::Verdict;
    use crate::rules::classic::{Board, Rules};

    fn play(session: &mut Session, digits: &[u8]) {
        for &d in digits {
            session.play(Board::default().numpad(d).unwrap()).unwrap();
        }
    }

    #[test]
    fn a_resignation_ends_the_game_for_the_other_side_and_counts_as_a_loss() {
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::HARD);
        play(&mut s, &[5, 1]);
        assert!(s.resign(Seat::First));
        assert_eq!(s.game().outcome(), Outcome::Won(Mark::O));
        assert_eq!(s.game().ending(), Some(Ending::Resigned(Mark::X)));
        assert_eq!(s.game().verdict(), Some(Verdict::Lost));
        assert_eq!(s.game().counts(GameEnd::Finished), Some(Verdict::Lost));
        assert_eq!(s.score().b, 1);
        assert!(!s.resign(Seat::Second), "over already");
        let cell = Board::default().numpad(9).unwrap();
        assert!(s.play(cell).is_err(), "no move after it");
    }

    #[test]
    fn an_offer_stands_until_the_other_side_moves_and_is_accepted_by_an_offer() {
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
        assert_eq!(s.offer_draw(Seat::First), Drawn::Offered);
        assert_eq!(s.offer_draw(Seat::First), Drawn::AlreadyOffered);
        play(&mut s, &[5]);
        assert_eq!(s.game().draw_offer(), Some(Seat::First), "its own move");
        play(&mut s, &[1]);
        assert_eq!(s.game().draw_offer(), None, "the other side moved");
        assert_eq!(s.offer_draw(Seat::First), Drawn::Offered);
        assert_eq!(s.game().offered_at(), Some(2));
        assert_eq!(s.offer_draw(Seat::Second), Drawn::Agreed);
        assert_eq!(s.game().outcome(), Outcome::Draw);
        assert_eq!(s.result().as_deref(), Some("Draw agreed."));
        assert_eq!(s.score().draws, 1);
        assert_eq!(s.offer_draw(Seat::First), Drawn::Over);
    }

    #[test]
    fn undo_past_an_offer_withdraws_it() {
        let mut g = Game::new(Rules::CLASSIC, Player::Human, Player::HARD);
        g.play(Board::default().numpad(5).unwrap()).unwrap();
        g.play(Board::default().numpad(1).unwrap()).unwrap();
        assert_eq!(g.offer_draw(Seat::First), Drawn::Offered);
        g.play(Board::default().numpad(9).unwrap()).unwrap();
        assert_eq!(g.undo(), 1);
        assert_eq!(g.draw_offer(), Some(Seat::First));
        assert_eq!(g.undo(), 2);
        assert_eq!(g.draw_offer(), None, "made after more moves than are left");
        g.play(Board::default().numpad(9).unwrap()).unwrap();
        assert_eq!(g.draw_offer(), None, "and gone for good");
    }
}
