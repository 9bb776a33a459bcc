//! Ending a game off the board on the game screen: `x` resigns (asking first), `=` offers a
//! draw or accepts one. Against the AI a draw is offered on one's own turn, and the AI
//! answers it before its move; over the network the other player is told and answers with `=`
//! or a move; two people at one keyboard offer and accept in turn.

use super::confirm::Leave;
use super::{App, Mode};
use crate::game::ending::Drawn;
use crate::text::sentence;

impl App {
    /// `x`: asks whether to resign, where a person plays a game that goes on.
    pub(super) fn ask_resign(&mut self) {
        if self.game().is_over() || self.archived {
            self.message = "The game is over: there is nothing to resign".into();
            return;
        }
        let under = std::mem::replace(&mut self.mode, Mode::Playing);
        self.mode = Mode::Confirm(Leave::Resign, Box::new(under));
    }

    /// The resignation confirmed.
    pub(super) fn resign(&mut self) {
        self.message = match self.driver.resign() {
            Ok(_) => self.turn_message(),
            Err(why) => sentence(&why.to_string()),
        };
    }

    /// `=`: offers a draw, or accepts the other side's.
    pub(super) fn offer_draw(&mut self) {
        if self.archived {
            self.message = "This game is over: there is no draw to offer".into();
            return;
        }
        self.message = match self.driver.offer_draw() {
            Ok(Drawn::Offered) if self.net.is_some() => {
                format!(
                    "You offer a draw: it stands until the other player moves. {}",
                    self.turn_message()
                )
            }
            Ok(Drawn::Offered) => {
                let (first, second) = self.game().seats();
                let against_ai = first.is_ai() || second.is_ai();
                let answer = if against_ai {
                    "make your move, and the AI answers it"
                } else {
                    "the other player accepts with =, or declines with a move"
                };
                format!("Draw offered: {answer}")
            }
            Ok(Drawn::AlreadyOffered) => {
                "Your offer stands: it lapses when the other side moves".into()
            }
            Ok(Drawn::Agreed | Drawn::Over) => self.turn_message(),
            Err(why) => sentence(&why.to_string()),
        };
    }

    /// The AI's answer to a person's draw offer, before its move.
    pub(super) fn ai_answers_draw(&mut self, accepts: bool) {
        let session = self.driver.session();
        let acting = session.side_in(self.game().position().seat());
        let name = session.name(acting).to_string();
        self.message = if self.driver.ai_draws(accepts) {
            format!("{name} accepts the draw. {}", self.turn_message())
        } else {
            format!("{name} declines the draw. {}", self.turn_message())
        };
    }
}
