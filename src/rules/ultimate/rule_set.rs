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

    fn shape(&self) -> crate::rules::catalogue::Shape {
        crate::rules::catalogue::Shape::Boards
    }

    fn rules_text(&self) -> Vec<String> {
        [
            "Ultimate tic-tac-toe",
            "",
            "Nine small boards sit in a 3×3. X and O take turns; X moves",
            "first. A move is a board and a cell in it: 53 is cell 3 of",
            "board 5, both numbered like the keypad (7 8 9 on top).",
            "",
            "Where you play decides where the other side must play next:",
            "the cell you choose sends them to the board in its place.",
            "Play cell 3 of any board, and they must play on board 3.",
            "",
            "Three in a row on a small board wins it for good. Win three",
            "small boards in a row on the big board to win the game.",
            "A board that is won or full is closed: sent there, you may",
            "play on any open board instead (a free move).",
            "If every board closes with no line of boards, it is a draw.",
        ]
        .map(str::to_string)
        .to_vec()
    }
}
