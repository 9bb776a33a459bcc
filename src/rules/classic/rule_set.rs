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

    fn shape(&self) -> crate::rules::catalogue::Shape {
        crate::rules::catalogue::Shape::Cells
    }

    fn rules_text(&self) -> Vec<String> {
        let rules = self.rules();
        let mut lines = Vec::new();
        let (n, k) = (rules.size(), rules.k());
        lines.push(format!(
            "{n}×{n}, {k} in a row{}",
            if rules.misere() { ", misère" } else { "" }
        ));
        lines.push(String::new());
        lines.push("X and O take turns to put their mark on an empty cell; X".into());
        lines.push("moves first.".into());
        if rules.misere() {
            lines.push(format!(
                "Misère: whoever completes a line of {k} of their own marks"
            ));
            lines.push("(across, down or diagonal) LOSES. Fill the board without".into());
            lines.push("doing so, and make the other side do it first.".into());
            lines.push("A full board with no line is a draw.".into());
        } else {
            lines.push(format!(
                "The first to complete a line of {k} of their own marks"
            ));
            // A longer line needs a board wider than the line.
            lines.push(if n > k {
                "(across, down or diagonal) wins; longer lines count too.".into()
            } else {
                "(across, down or diagonal) wins.".into()
            });
            lines.push("A full board with no line is a draw.".into());
        }
        lines.push(String::new());
        if n == 3 {
            lines.push("Cells are the numeric keypad: 7 8 9 is the top row, 1 2 3".into());
            lines.push("the bottom; b2 names the centre too.".into());
        } else {
            let last = char::from(b'a' + n - 1);
            lines.push(format!(
                "Cells are named by column a-{last} and row 1-{n}, a1 at the"
            ));
            lines.push("bottom left, like a chess board: c3, b2.".into());
        }
        if n == 3 && k == 3 && !rules.misere() {
            lines.push("Played well by both sides, every game is a draw.".into());
        }
        lines
    }
}
