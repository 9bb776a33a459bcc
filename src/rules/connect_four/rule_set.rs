//! Connect Four as a rule set: a move is a column, typed `1` to `9` from the left.

use crate::rules::classic::Mark;
use crate::rules::connect_four::{COLUMNS, Column, ConnectFour, MoveError, ParseColumnError, ROWS};
use crate::rules::{Notation, Outcome, RuleSet, WonLine};

impl RuleSet for ConnectFour {
    type Move = Column;

    fn to_move(&self) -> Mark {
        ConnectFour::to_move(self)
    }

    fn legal_moves(&self) -> Vec<Column> {
        ConnectFour::legal_moves(self)
    }

    fn play(&mut self, mv: Column) -> Result<(), MoveError> {
        ConnectFour::play(self, mv)
    }

    fn outcome(&self) -> Outcome {
        ConnectFour::outcome(self)
    }

    /// The cells of the four in a row, named as a chess board names squares: the column's
    /// letter and the row from the bottom (`d1 d2 d3 d4`).
    fn won_line(&self) -> Option<WonLine> {
        let cells = self.won_cells();
        (!cells.is_empty()).then(|| {
            let name = |(col, row): (u8, u8)| format!("{}{}", char::from(b'a' + col), row + 1);
            WonLine::Cells(cells.into_iter().map(name).collect())
        })
    }
}

impl Notation for ConnectFour {
    type ParseMoveError = ParseColumnError;

    fn parse_move(&self, text: &str) -> Result<Column, ParseColumnError> {
        let refused = ParseColumnError {
            columns: self.columns(),
        };
        let text = text.trim();
        let column = match text.parse::<u8>() {
            Ok(n) => n.checked_sub(1),
            // A column's letter, as the winning line names cells.
            Err(_) => match text.as_bytes() {
                [c @ b'a'..=b'i'] => Some(c - b'a'),
                _ => None,
            },
        };
        column
            .filter(|&c| c < self.columns())
            .map(Column)
            .ok_or(refused)
    }

    fn move_forms(&self) -> String {
        format!("1-{}", self.columns())
    }

    fn name(&self) -> &'static str {
        "connect-four"
    }

    fn title(&self) -> String {
        if (self.columns(), self.rows()) == (COLUMNS, ROWS) {
            "Connect Four".to_string()
        } else {
            format!("Connect Four, {}×{}", self.columns(), self.rows())
        }
    }

    fn flags(&self) -> Vec<String> {
        let mut words = vec!["--connect-four".to_string()];
        if self.columns() != COLUMNS {
            words.push(format!("--columns {}", self.columns()));
        }
        if self.rows() != ROWS {
            words.push(format!("--rows {}", self.rows()));
        }
        words
    }

    fn typing_help(&self, forms: &str) -> String {
        format!(
            "Type a column ({forms}, from the left; the keypad's digits on the bottom row and above): the disc falls to the lowest empty cell"
        )
    }

    fn move_noun(&self) -> &'static str {
        "column"
    }

    fn pieces(&self) -> &'static str {
        "discs"
    }

    fn shape(&self) -> crate::rules::catalogue::Shape {
        crate::rules::catalogue::Shape::Columns
    }

    fn rules_text(&self) -> Vec<String> {
        let (columns, rows) = (self.columns(), self.rows());
        let mut lines = vec![
            self.title(),
            String::new(),
            format!("{columns} columns of {rows} cells stand upright. X and O take turns"),
            "to drop a disc into a column that is not full; it falls to".into(),
            "the lowest empty cell. X drops first.".into(),
            "The first to make four of their own discs in a row (across,".into(),
            "up or diagonal) wins; a full board without four is a draw.".into(),
            String::new(),
            format!("Columns are the digits 1-{columns} from the left, or the arrows"),
            "and Enter, or a click.".into(),
        ];
        if (columns, rows) == (COLUMNS, ROWS) {
            lines.push("Played well by both sides, X wins by starting in the".into());
            lines.push("middle column (proven in 1988).".into());
        }
        lines
    }
}
