//! One interface over both rule sets, classic N×N ([`board`]) and Ultimate ([`ultimate`]):
//! whose turn it is, the legal moves, playing one, how the game stands, and naming and
//! parsing moves. The game, the session, records, the AI's choice and the network work
//! through it once for both; only drawing a board is per variant.

use std::fmt;

use crate::board::{self, Board, Cell, Mark, Rules};
use crate::ultimate::{self, UltimateBoard};

/// Which game is played: classic with its rules, or Ultimate tic-tac-toe.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Classic(Rules),
    Ultimate,
}

impl Default for Variant {
    fn default() -> Self {
        Variant::Classic(Rules::CLASSIC)
    }
}

impl From<Rules> for Variant {
    fn from(rules: Rules) -> Variant {
        Variant::Classic(rules)
    }
}

impl Variant {
    /// The starting position: the empty board, X to move.
    pub fn start(self) -> Position {
        match self {
            Variant::Classic(rules) => Position::Classic(Board::new(rules)),
            Variant::Ultimate => Position::Ultimate(UltimateBoard::new()),
        }
    }

    /// The command-line flags that select this variant and differ from the defaults:
    /// none for classic 3×3, `--size 5`, `--size 4 --k 3 --misere`, `--ultimate`.
    pub fn flags(self) -> Vec<String> {
        let Variant::Classic(rules) = self else {
            return vec!["--ultimate".to_string()];
        };
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

    /// The classic rules, if this is classic play.
    pub fn rules(self) -> Option<Rules> {
        match self {
            Variant::Classic(rules) => Some(rules),
            Variant::Ultimate => None,
        }
    }
}

impl fmt::Display for Variant {
    /// For people: `3×3`, `5×5, four in a row, misère`, `Ultimate`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Variant::Classic(rules) => write!(f, "{rules}"),
            Variant::Ultimate => f.write_str("Ultimate"),
        }
    }
}

/// A move of either variant: a cell of a classic board, or a board and a cell of Ultimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Classic(Cell),
    Ultimate(ultimate::Move),
}

impl fmt::Display for Move {
    /// As players type it: `5` or `b2` on a classic board, `53` in Ultimate.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Classic(cell) => write!(f, "{cell}"),
            Move::Ultimate(mv) => write!(f, "{mv}"),
        }
    }
}

impl From<Cell> for Move {
    fn from(cell: Cell) -> Move {
        Move::Classic(cell)
    }
}

impl From<ultimate::Move> for Move {
    fn from(mv: ultimate::Move) -> Move {
        Move::Ultimate(mv)
    }
}

/// How a game stands, the same for both variants (each rule set says more: the line won).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    InProgress,
    Draw,
    Won(Mark),
}

/// Why a move was refused; the position is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError {
    Classic(board::MoveError),
    Ultimate(ultimate::MoveError),
    /// A move of the other variant.
    OtherVariant,
    /// A cell of a classic board of another size.
    OtherBoard,
}

impl MoveError {
    /// Whether the game was already over.
    pub fn is_game_over(self) -> bool {
        matches!(
            self,
            MoveError::Classic(board::MoveError::GameOver)
                | MoveError::Ultimate(ultimate::MoveError::GameOver)
        )
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Classic(e) => write!(f, "{e}"),
            MoveError::Ultimate(e) => write!(f, "{e}"),
            MoveError::OtherVariant => write!(f, "the move is from another game"),
            MoveError::OtherBoard => write!(f, "the cell is from a board of another size"),
        }
    }
}

impl std::error::Error for MoveError {}

/// Text that names no move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    Classic(board::CellError),
    Ultimate(ultimate::ParseMoveError),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Classic(e) => write!(f, "{e}"),
            ParseMoveError::Ultimate(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// A position of either variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Position {
    Classic(Board),
    Ultimate(UltimateBoard),
}

impl Position {
    pub fn variant(&self) -> Variant {
        match self {
            Position::Classic(board) => Variant::Classic(board.rules()),
            Position::Ultimate(_) => Variant::Ultimate,
        }
    }

    /// Whose turn it is (once the game is over: who would move next).
    pub fn to_move(&self) -> Mark {
        match self {
            Position::Classic(board) => board.to_move(),
            Position::Ultimate(board) => board.to_move(),
        }
    }

    pub fn outcome(&self) -> Outcome {
        match self {
            Position::Classic(board) => match board.outcome() {
                board::Outcome::InProgress => Outcome::InProgress,
                board::Outcome::Draw => Outcome::Draw,
                board::Outcome::Won { winner, .. } => Outcome::Won(winner),
            },
            Position::Ultimate(board) => match board.outcome() {
                ultimate::Outcome::InProgress => Outcome::InProgress,
                ultimate::Outcome::Draw => Outcome::Draw,
                ultimate::Outcome::Won { winner, .. } => Outcome::Won(winner),
            },
        }
    }

    pub fn is_over(&self) -> bool {
        self.outcome() != Outcome::InProgress
    }

    /// The moves the side to move may make, in board order; none once the game is over.
    pub fn legal_moves(&self) -> Vec<Move> {
        match self {
            Position::Classic(board) => board.legal_moves().into_iter().map(Move::from).collect(),
            Position::Ultimate(board) => board.legal_moves().into_iter().map(Move::from).collect(),
        }
    }

    /// Plays `mv` for the side to move; on error nothing changes.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        match (self, mv) {
            (Position::Classic(board), Move::Classic(cell)) => {
                if board.cell(cell.index()) != Some(cell) {
                    return Err(MoveError::OtherBoard);
                }
                board.play(cell).map_err(MoveError::Classic)
            }
            (Position::Ultimate(board), Move::Ultimate(mv)) => {
                board.play(mv).map_err(MoveError::Ultimate)
            }
            _ => Err(MoveError::OtherVariant),
        }
    }

    /// Names a move as a player types it (`5`, `b2`; `53`, `e5`, or `3` when sent to a
    /// board). Whether it is legal is for [`Position::play`] to say.
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        match self {
            Position::Classic(board) => board
                .parse_cell(text)
                .map(Move::Classic)
                .map_err(ParseMoveError::Classic),
            Position::Ultimate(board) => board
                .parse_move(text)
                .map(Move::Ultimate)
                .map_err(ParseMoveError::Ultimate),
        }
    }

    /// The classic board, in classic play.
    pub fn classic(&self) -> Option<&Board> {
        match self {
            Position::Classic(board) => Some(board),
            Position::Ultimate(_) => None,
        }
    }

    /// The Ultimate position, in Ultimate play.
    pub fn ultimate(&self) -> Option<&UltimateBoard> {
        match self {
            Position::Ultimate(board) => Some(board),
            Position::Classic(_) => None,
        }
    }
}

impl fmt::Display for Position {
    /// The variant's notation (see [`board`] and [`ultimate`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Position::Classic(board) => write!(f, "{board}"),
            Position::Ultimate(board) => write!(f, "{board}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_variants_play_through_one_interface() {
        for (variant, moves) in [
            (Variant::default(), ["5", "1", "9"]),
            (Variant::Ultimate, ["55", "1", "19"]),
        ] {
            let mut position = variant.start();
            for text in moves {
                let mv = position.parse_move(text).unwrap();
                assert!(position.legal_moves().contains(&mv));
                position.play(mv).unwrap();
            }
            assert_eq!(position.to_move(), Mark::O);
            assert_eq!(position.outcome(), Outcome::InProgress);
            assert_eq!(position.variant(), variant);
        }
    }

    #[test]
    fn moves_of_another_game_are_refused() {
        let mut classic = Variant::default().start();
        let mut ultimate = Variant::Ultimate.start();
        let cell = classic.parse_move("5").unwrap();
        let mv = ultimate.parse_move("55").unwrap();
        assert_eq!(ultimate.play(cell), Err(MoveError::OtherVariant));
        assert_eq!(classic.play(mv), Err(MoveError::OtherVariant));
        let big = Variant::Classic(Rules::new(5, 4, false).unwrap()).start();
        let b2 = big.parse_move("b2").unwrap();
        assert_eq!(classic.play(b2), Err(MoveError::OtherBoard));
        assert_eq!(classic, Variant::default().start());
    }

    #[test]
    fn flags_name_what_differs_from_the_defaults() {
        let flags = |v: Variant| v.flags().join(" ");
        assert_eq!(flags(Variant::default()), "");
        assert_eq!(flags(Variant::Ultimate), "--ultimate");
        let odd = Variant::Classic(Rules::new(4, 3, true).unwrap());
        assert_eq!(flags(odd), "--size 4 --k 3 --misere");
    }
}
