//! A game record: the rules and the moves, checked to replay legally, and written the way
//! `tictactoe review` reads it back.

use std::fmt;

use crate::board::{Board, Cell, CellError, MoveError, Rules};

/// A game: its rules and its moves in order.
///
/// Invariant: the moves replay legally from the empty board of `rules` (each cell is of that
/// board and empty when played) and no move follows the end of the game. The game need not be
/// finished. Every constructor checks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    rules: Rules,
    moves: Vec<Cell>,
}

impl Record {
    /// The record of `moves` played from the empty board of `rules`.
    pub fn new(rules: Rules, moves: Vec<Cell>) -> Result<Record, RecordError> {
        let mut board = Board::new(rules);
        for (i, &cell) in moves.iter().enumerate() {
            let fault = if board.cell(cell.index()) == Some(cell) {
                board.play(cell).err().map(RecordFault::Move)
            } else {
                Some(RecordFault::OtherBoard)
            };
            if let Some(fault) = fault {
                return Err(RecordError {
                    number: i + 1,
                    text: cell.to_string(),
                    fault,
                });
            }
        }
        Ok(Record { rules, moves })
    }

    /// Reads moves written as cell names (numpad digits on 3×3, coordinates such as `b2` on
    /// any size) and replays them from the empty board of `rules`. The first move that names
    /// no cell, a taken cell, or comes after the end of the game is the error.
    pub fn parse(rules: Rules, moves: &[impl AsRef<str>]) -> Result<Record, RecordError> {
        let mut board = Board::new(rules);
        let mut cells = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            let error = |fault| RecordError {
                number: i + 1,
                // Enough to quote it back; a longer text is cut when shown.
                text: text.chars().take(25).collect(),
                fault,
            };
            let cell = board
                .parse_cell(text)
                .map_err(|e| error(RecordFault::Cell(e)))?;
            board.play(cell).map_err(|e| error(RecordFault::Move(e)))?;
            cells.push(cell);
        }
        Ok(Record {
            rules,
            moves: cells,
        })
    }

    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The moves in the order they were played; X played the first.
    pub fn moves(&self) -> &[Cell] {
        &self.moves
    }

    /// The number of moves.
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether no move was played.
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The board before each move, in order (as many as there are moves).
    pub fn positions(&self) -> impl Iterator<Item = Board> + '_ {
        let mut board = Board::new(self.rules);
        self.moves.iter().map(move |&cell| {
            let before = board;
            board.play(cell).expect("a record replays legally");
            before
        })
    }

    /// The board after the last move.
    pub fn final_board(&self) -> Board {
        let mut board = Board::new(self.rules);
        for &cell in &self.moves {
            board.play(cell).expect("a record replays legally");
        }
        board
    }
}

impl fmt::Display for Record {
    /// The arguments `tictactoe review` takes: the rule flags that differ from the defaults
    /// (`--size N`, `--k K`, `--misere`), then the moves separated by spaces, for example
    /// `5 9 4 6 1` or `--size 5 c3 b2 d4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules = self.rules;
        let mut words: Vec<String> = Vec::new();
        if rules.size() != Rules::CLASSIC.size() {
            words.push(format!("--size {}", rules.size()));
        }
        if rules.k() != Rules::default_k(rules.size()) {
            words.push(format!("--k {}", rules.k()));
        }
        if rules.misere() {
            words.push("--misere".to_string());
        }
        words.extend(self.moves.iter().map(ToString::to_string));
        write!(f, "{}", words.join(" "))
    }
}

/// Why one move of a record could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordFault {
    /// The text names no cell of the board.
    Cell(CellError),
    /// The cell is taken, or the game was already over.
    Move(MoveError),
    /// The cell belongs to a board of another size.
    OtherBoard,
}

/// A record refused at one move: which move (from 1), the text given for it (at most 25
/// characters of it), and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    pub number: usize,
    pub text: String,
    pub fault: RecordFault,
}

impl fmt::Display for RecordError {
    /// For example `move 3 ("5"): cell 5 is taken`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = if self.text.chars().count() > 24 {
            self.text.chars().take(24).chain(['…']).collect()
        } else {
            self.text.clone()
        };
        write!(f, "move {} ({text:?}): ", self.number)?;
        match &self.fault {
            RecordFault::Cell(e) => write!(f, "{e}"),
            RecordFault::Move(MoveError::GameOver) => write!(
                f,
                "the game was already over after move {}",
                self.number - 1
            ),
            RecordFault::Move(e) => write!(f, "{e}"),
            RecordFault::OtherBoard => write!(f, "the cell is from a board of another size"),
        }
    }
}

impl std::error::Error for RecordError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    fn rules(size: u8, k: u8, misere: bool) -> Rules {
        Rules::new(size, k, misere).unwrap()
    }

    /// Reads a record back from its text as the command line does: `tictactoe review …`.
    fn read_back(text: &str) -> Record {
        let args = ["tictactoe", "review"].into_iter().chain(text.split(' '));
        let cli = Cli::try_parse_from(args).unwrap_or_else(|e| panic!("{text}: {e}"));
        let Some(Command::Review(review)) = &cli.command else {
            panic!("{text}: not a review");
        };
        Record::parse(cli.rules().unwrap(), &review.moves).unwrap()
    }

    #[test]
    fn records_round_trip_through_the_review_arguments() {
        for (rules, moves, text) in [
            (Rules::CLASSIC, &["5", "9", "4", "6", "1"][..], "5 9 4 6 1"),
            (rules(5, 4, false), &["c3", "b2", "d4"], "--size 5 c3 b2 d4"),
            (
                rules(4, 3, true),
                &["a1", "d4"],
                "--size 4 --k 3 --misere a1 d4",
            ),
            (rules(3, 3, true), &["b2"], "--misere 5"),
            (rules(7, 5, false), &["g7"], "--size 7 g7"),
        ] {
            let record = Record::parse(rules, moves).unwrap();
            assert_eq!(record.to_string(), text);
            assert_eq!(read_back(text), record, "{text}");
            assert_eq!(Record::new(rules, record.moves().to_vec()), Ok(record));
        }
    }

    #[test]
    fn positions_are_the_boards_before_each_move() {
        let record = Record::parse(Rules::CLASSIC, &["5", "9", "4", "6", "1"]).unwrap();
        let boards: Vec<String> = record.positions().map(|b| b.to_string()).collect();
        assert_eq!(
            boards,
            [
                ".../.../...",
                ".../.X./...",
                "..O/.X./...",
                "..O/XX./...",
                "..O/XXO/...",
            ]
        );
        assert_eq!(record.final_board().to_string(), "..O/XXO/X..");
        assert_eq!(record.len(), 5);
        assert!(Record::new(Rules::CLASSIC, Vec::new()).unwrap().is_empty());
    }

    #[test]
    fn bad_moves_name_their_number_text_and_fault() {
        let err = |rules: Rules, moves: &[&str]| Record::parse(rules, moves).unwrap_err();
        let classic = Rules::CLASSIC;
        assert_eq!(
            err(classic, &["5", "9", "5"]).to_string(),
            r#"move 3 ("5"): cell 5 is taken"#
        );
        let e = err(classic, &["5", "x"]);
        assert_eq!((e.number, e.text.as_str()), (2, "x"));
        assert!(matches!(
            e.fault,
            RecordFault::Cell(CellError::Unknown { .. })
        ));
        assert!(
            e.to_string()
                .starts_with(r#"move 2 ("x"): 'x' is not a cell"#),
            "{e}"
        );
        assert_eq!(
            err(classic, &["7", "1", "8", "2", "9", "3"]).to_string(),
            r#"move 6 ("3"): the game was already over after move 5"#
        );
        assert_eq!(
            err(rules(5, 4, false), &["10"]).to_string(),
            r#"move 1 ("10"): '10' is not a cell: type a coordinate from a1 to e5"#
        );
        assert_eq!(
            err(classic, &["+5"]).to_string(),
            r#"move 1 ("+5"): '+5' is not a cell: type a digit 1-9 (7 8 9 is the top row) or a coordinate like b2"#
        );
        let long = "a".repeat(30);
        assert!(
            err(classic, &[long.as_str()])
                .to_string()
                .starts_with(r#"move 1 ("aaaaaaaaaaaaaaaaaaaaaaaa…"): "#)
        );
    }

    #[test]
    fn new_checks_the_moves_too() {
        let classic = Board::default();
        let five = classic.numpad(5).unwrap();
        let e = Record::new(Rules::CLASSIC, vec![five, five]).unwrap_err();
        assert_eq!(e.to_string(), r#"move 2 ("5"): cell 5 is taken"#);
        let big = Board::new(rules(4, 4, false));
        let e = Record::new(Rules::CLASSIC, vec![big.cell(0).unwrap()]).unwrap_err();
        assert_eq!(e.fault, RecordFault::OtherBoard);
    }
}
