//! Classic m,n,k boards as a rule set: cells named `5` on 3×3 (the keypad) or `b2`.

use crate::rules::classic::{self, Board, Cell, CellError, Mark, MoveError, Rules};
use crate::rules::{Notation, Outcome, RuleSet, WonLine};

impl RuleSet for Board {
    type Move = Cell;

    fn to_move(&self) -> Mark {
        Board::to_move(self)
    }

    fn legal_moves(&self) -> Vec<Cell> {
        Board::legal_moves(self)
    }

    fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        Board::play(self, cell)
    }

    fn outcome(&self) -> Outcome {
        Board::outcome(self).into()
    }

    fn won_line(&self) -> Option<WonLine> {
        match Board::outcome(self) {
            classic::Outcome::Won { line, .. } => Some(WonLine::Cells(
                line.cells().map(|c| c.to_string()).collect(),
            )),
            _ => None,
        }
    }
}

impl Notation for Board {
    type ParseMoveError = CellError;

    fn parse_move(&self, text: &str) -> Result<Cell, CellError> {
        self.parse_cell(text)
    }

    fn move_forms(&self) -> String {
        match self.size() {
            3 => "1-9".to_string(),
            n => format!("a1-{}{n}", char::from(b'a' + n - 1)),
        }
    }

    fn name(&self) -> &'static str {
        "classic"
    }

    fn title(&self) -> String {
        self.rules().to_string()
    }

    fn flags(&self) -> Vec<String> {
        let rules = self.rules();
        let mut words = Vec::new();
        if rules.size() != Rules::CLASSIC.size() {
            words.push(format!("--size {}", rules.size()));
        }
        if rules.k() != Rules::default_k(rules.size()) {
            words.push(format!("--k {}", rules.k()));
        }
        if rules.misere() {
            words.push("--misere".to_string());
        }
        words
    }

    fn typing_help(&self, forms: &str) -> String {
        format!(
            "Type a cell ({forms}; on 3×3 the numpad layout, 7 8 9 is the top row, or a coordinate like b2)"
        )
    }
}
