//! Gomoku as a rule set: cells named `h8`, `o15`, as on the classic boards larger than 3×3.

use super::{Notation, Outcome, RuleSet, WonLine};
use crate::board::{Cell, CellError, Mark, MoveError};
use crate::gomoku::{self, Gomoku};

impl RuleSet for Gomoku {
    type Move = Cell;
    type MoveError = MoveError;

    fn to_move(&self) -> Mark {
        Gomoku::to_move(self)
    }

    fn legal_moves(&self) -> Vec<Cell> {
        Gomoku::legal_moves(self)
    }

    fn play(&mut self, cell: Cell) -> Result<(), MoveError> {
        Gomoku::play(self, cell)
    }

    fn outcome(&self) -> Outcome {
        match self.winner() {
            Some(winner) => Outcome::Won(winner),
            None if self.is_full() => Outcome::Draw,
            None => Outcome::InProgress,
        }
    }

    fn won_line(&self) -> Option<WonLine> {
        let cells = Gomoku::won_line(self)?;
        Some(WonLine::Cells(cells.iter().map(Cell::to_string).collect()))
    }
}

impl Notation for Gomoku {
    type ParseMoveError = CellError;

    fn parse_move(&self, text: &str) -> Result<Cell, CellError> {
        self.parse_cell(text)
    }

    fn move_forms(&self) -> String {
        let n = self.size();
        format!("a1-{}{n}", char::from(b'a' + n - 1))
    }

    fn name(&self) -> &'static str {
        if self.is_exact() {
            "gomoku-exact"
        } else {
            "gomoku"
        }
    }

    fn title(&self) -> String {
        match (self.size(), self.is_exact()) {
            (gomoku::SIZE, false) => "Gomoku".to_string(),
            (gomoku::SIZE, true) => "Gomoku, exactly five".to_string(),
            (n, false) => format!("{n}×{n}, five in a row"),
            (n, true) => format!("{n}×{n}, exactly five in a row"),
        }
    }

    fn flags(&self) -> Vec<String> {
        let mut flags = match self.size() {
            gomoku::SIZE => vec!["--gomoku".to_string()],
            n => vec![format!("--size {n}")],
        };
        if self.is_exact() {
            flags.push("--exact".to_string());
        }
        flags
    }

    fn typing_help(&self, forms: &str) -> String {
        format!("Type a cell as a column letter and a row number ({forms}, a1 at the bottom left)")
    }
}
