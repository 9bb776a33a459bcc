//! Gomoku as a rule set: cells named `h8`, `o15`, as on the classic boards larger than 3×3.

use crate::rules::classic::{Cell, CellError, Mark, MoveError};
use crate::rules::gomoku::opening::Opening;
use crate::rules::gomoku::{self, Gomoku};
use crate::rules::{Notation, Outcome, RuleSet, WonLine};

impl RuleSet for Gomoku {
    type Move = Cell;

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
    fn shape(&self) -> crate::rules::catalogue::Shape {
        crate::rules::catalogue::Shape::Points
    }

    fn rules_text(&self) -> Vec<String> {
        super::text::rules_text(self)
    }

    type ParseMoveError = CellError;

    fn parse_move(&self, text: &str) -> Result<Cell, CellError> {
        self.parse_cell(text)
    }

    fn move_forms(&self) -> String {
        let n = self.size();
        format!("a1-{}{n}", char::from(b'a' + n - 1))
    }

    /// `gomoku` and `gomoku-exact` for five in a row; `in-a-row` and `in-a-row-exact` for
    /// another line, whose `k` travels beside the name (a program that knows only five in a
    /// row then refuses the game rather than play other rules).
    fn name(&self) -> &'static str {
        if self.is_renju() {
            return "renju";
        }
        if self.is_caro() {
            return "caro";
        }
        match (self.k() == gomoku::FIVE, self.is_exact()) {
            (true, false) => "gomoku",
            (true, true) => "gomoku-exact",
            (false, false) => "in-a-row",
            (false, true) => "in-a-row-exact",
        }
    }

    fn title(&self) -> String {
        match self.opening() {
            Opening::Free => self.rules_title(),
            opening => format!("{}, {opening}", self.rules_title()),
        }
    }

    fn flags(&self) -> Vec<String> {
        let mut flags = self.rules_flags();
        if self.opening() != Opening::Free {
            flags.push(format!("--opening {}", self.opening()));
        }
        flags
    }

    fn typing_help(&self, forms: &str) -> String {
        format!("Type a point as a column letter and a row number ({forms}, a1 at the bottom left)")
    }

    fn pieces(&self) -> &'static str {
        "stones"
    }

    fn move_noun(&self) -> &'static str {
        "point"
    }
}

impl Gomoku {
    /// The title of its rules, the opening aside.
    fn rules_title(&self) -> String {
        if self.is_renju() || self.is_caro() {
            let name = self.name();
            return match self.size() {
                gomoku::SIZE if self.is_renju() => "Renju".to_string(),
                gomoku::SIZE => "Caro".to_string(),
                n => format!("{n}×{n}, {name}"),
            };
        }
        let exactly = if self.is_exact() { "exactly " } else { "" };
        match (self.size(), self.k()) {
            (gomoku::SIZE, gomoku::FIVE) if self.is_exact() => "Gomoku, exactly five".to_string(),
            (gomoku::SIZE, gomoku::FIVE) => "Gomoku".to_string(),
            (n, gomoku::FIVE) => format!("{n}×{n}, {exactly}five in a row"),
            (n, k) => format!("{n}×{n}, {exactly}{k} in a row"),
        }
    }

    /// The flags of its rules, the opening aside.
    fn rules_flags(&self) -> Vec<String> {
        if self.is_renju() || self.is_caro() {
            let flag = format!("--{}", self.name());
            return match self.size() {
                gomoku::SIZE => vec![flag],
                n => vec![format!("--size {n}"), flag],
            };
        }
        let mut flags = match (self.size(), self.k()) {
            (gomoku::SIZE, gomoku::FIVE) => vec!["--gomoku".to_string()],
            (n, gomoku::FIVE) => vec![format!("--size {n}")],
            (n, k) => vec![format!("--size {n}"), format!("--k {k}")],
        };
        if self.is_exact() {
            flags.push("--exact".to_string());
        }
        flags
    }
}
