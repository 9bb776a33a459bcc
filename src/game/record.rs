//! A game record: the variant and the moves, checked to replay legally, and written the way
//! `tictactoe review` reads it back.

use std::fmt;

use crate::rules::position::{Move, MoveError, ParseMoveError, Position, Variant};

/// A game: its variant (with its rules) and its moves in order.
///
/// Invariant: the moves replay legally from the start position of `variant` and no move
/// follows the end of the game. The game need not be finished. Every constructor checks it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Record {
    variant: Variant,
    moves: Vec<Move>,
}

impl Record {
    /// The record of `moves` played from the start position of `variant`.
    pub fn new(variant: impl Into<Variant>, moves: Vec<Move>) -> Result<Record, RecordError> {
        let variant = variant.into();
        let mut position = variant.start();
        for (i, &mv) in moves.iter().enumerate() {
            position.play(mv).map_err(|e| RecordError {
                number: i + 1,
                text: mv.to_string(),
                fault: RecordFault::Move(e),
            })?;
        }
        Ok(Record { variant, moves })
    }

    /// Reads moves written as players type them (numpad digits on 3×3, coordinates such as
    /// `b2` on any size; two digits such as `53` in Ultimate, or one when the board is
    /// forced) and replays them from the start. The first move that names no move, a taken
    /// cell or a closed board, or comes after the end of the game is the error.
    pub fn parse(
        variant: impl Into<Variant>,
        moves: &[impl AsRef<str>],
    ) -> Result<Record, RecordError> {
        let variant = variant.into();
        let mut position = variant.start();
        let mut played = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            let error = |fault| RecordError {
                number: i + 1,
                // Enough to quote it back; a longer text is cut when shown.
                text: text.chars().take(25).collect(),
                fault,
            };
            let mv = position
                .parse_move(text)
                .map_err(|e| error(RecordFault::Text(e)))?;
            position.play(mv).map_err(|e| error(RecordFault::Move(e)))?;
            played.push(mv);
        }
        Ok(Record {
            variant,
            moves: played,
        })
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The moves in the order they were played; X played the first.
    pub fn moves(&self) -> &[Move] {
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

    /// The position after the last move.
    pub fn end(&self) -> Position {
        let mut position = self.variant.start();
        for &mv in &self.moves {
            position.play(mv).expect("a record replays legally");
        }
        position
    }

    /// The position before each move, in order (as many as there are moves).
    pub fn positions(&self) -> impl Iterator<Item = Position> + '_ {
        let mut position = self.variant.start();
        self.moves.iter().map(move |&mv| {
            let before = position;
            position.play(mv).expect("a record replays legally");
            before
        })
    }
}

impl fmt::Display for Record {
    /// The arguments `tictactoe review` takes: the flags that select the variant and differ
    /// from the defaults (`--size N`, `--k K`, `--misere`, `--ultimate`), then the moves
    /// separated by spaces, for example `5 9 4 6 1`, `--size 5 c3 b2 d4` or
    /// `--ultimate 55 51 19`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words = self.variant.flags();
        words.extend(self.moves.iter().map(ToString::to_string));
        write!(f, "{}", words.join(" "))
    }
}

/// Why one move of a record could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordFault {
    /// The text names no move.
    Text(ParseMoveError),
    /// The move is not legal there (a taken cell, a closed board, the game already over).
    Move(MoveError),
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
            RecordFault::Text(e) => write!(f, "{e}"),
            RecordFault::Move(e) if e.is_game_over() => write!(
                f,
                "the game was already over after move {}",
                self.number - 1
            ),
            RecordFault::Move(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RecordError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::{Board, CellError, Rules};

    fn rules(size: u8, k: u8, misere: bool) -> Rules {
        Rules::new(size, k, misere).unwrap()
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
            RecordFault::Text(ParseMoveError::Cell(CellError::Unknown { .. }))
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
        let five = Move::Cell(classic.numpad(5).unwrap());
        let e = Record::new(Rules::CLASSIC, vec![five, five]).unwrap_err();
        assert_eq!(e.to_string(), r#"move 2 ("5"): cell 5 is taken"#);
        let big = Board::new(rules(4, 4, false));
        let e = Record::new(Rules::CLASSIC, vec![Move::Cell(big.cell(0).unwrap())]).unwrap_err();
        assert_eq!(e.fault, RecordFault::Move(MoveError::OtherBoard));
    }

    #[test]
    fn ultimate_records_name_the_board_faults() {
        let err = |moves: &[&str]| {
            Record::parse(Variant::Ultimate, moves)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err(&["55", "33"]),
            r#"move 2 ("33"): you were sent to board 5, not board 3"#
        );
        assert_eq!(
            err(&["55", "55"]),
            r#"move 2 ("55"): cell 5 of board 5 is taken"#
        );
        assert!(err(&["5"]).starts_with(r#"move 1 ("5"): '5' names a cell but no board"#));
    }
}
