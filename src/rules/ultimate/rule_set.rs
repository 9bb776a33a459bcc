//! Ultimate tic-tac-toe as a rule set: moves named `53` (board 5, cell 3), `3` when sent to
//! a board, or `e5`.

use crate::rules::classic::Mark;
use crate::rules::ultimate::{self, Move, MoveError, ParseMoveError, UltimateBoard};
use crate::rules::{Notation, Outcome, RuleSet, WonLine};

impl RuleSet for UltimateBoard {
    type Move = Move;

    fn to_move(&self) -> Mark {
        UltimateBoard::to_move(self)
    }

    fn legal_moves(&self) -> Vec<Move> {
        UltimateBoard::legal_moves(self).into_iter().collect()
    }

    fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        UltimateBoard::play(self, mv)
    }

    fn outcome(&self) -> Outcome {
        UltimateBoard::outcome(self).into()
    }

    fn won_line(&self) -> Option<WonLine> {
        match UltimateBoard::outcome(self) {
            ultimate::Outcome::Won { line, .. } => Some(WonLine::Boards(line.digits().collect())),
            _ => None,
        }
    }
}

impl Notation for UltimateBoard {
    type ParseMoveError = ParseMoveError;

    fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        UltimateBoard::parse_move(self, text)
    }

    fn move_forms(&self) -> String {
        if self.forced_board().is_some() {
            "1-9".to_string()
        } else {
            "board then cell, e.g. 53".to_string()
        }
    }

    fn whereabouts(&self) -> Option<String> {
        Some(
            self.forced_board()
                .map_or_else(|| "anywhere".to_string(), |b| format!("on board {b}")),
        )
    }

    fn name(&self) -> &'static str {
        "ultimate"
    }

    fn title(&self) -> String {
        "Ultimate".to_string()
    }

    fn flags(&self) -> Vec<String> {
        vec!["--ultimate".to_string()]
    }

    fn typing_help(&self, _forms: &str) -> String {
        "Type a board and a cell as two digits, both laid out as the numpad (53: board 5, cell 3; 7 8 9 is the top row), or one digit when you are sent to a board, or a coordinate a1-i9".to_string()
    }

    fn noun(&self) -> &'static str {
        "position"
    }

    fn move_noun(&self) -> &'static str {
        "move"
    }

    fn has_boards(&self) -> bool {
        true
    }
}
