//! Ultimate tic-tac-toe as a member of [`Position`].

use crate::rules::position::{
    Member, Move, MoveError, ParseMoveError, ParsePositionError, Position, Variant,
};
use crate::rules::ultimate::{self, ParseUltimateError, UltimateBoard};

impl Member for UltimateBoard {
    fn variant(&self) -> Variant {
        Variant::Ultimate
    }

    fn within(position: &Position) -> Option<&UltimateBoard> {
        match position {
            Position::Ultimate(board) => Some(board),
            _ => None,
        }
    }
}

impl From<UltimateBoard> for Position {
    fn from(board: UltimateBoard) -> Position {
        Position::Ultimate(board)
    }
}

impl From<ultimate::Move> for Move {
    fn from(mv: ultimate::Move) -> Move {
        Move::Ultimate(mv)
    }
}

impl TryFrom<Move> for ultimate::Move {
    type Error = MoveError;

    fn try_from(mv: Move) -> Result<ultimate::Move, MoveError> {
        match mv {
            Move::Ultimate(mv) => Ok(mv),
            _ => Err(MoveError::OtherVariant),
        }
    }
}

impl From<ultimate::ParseMoveError> for ParseMoveError {
    fn from(e: ultimate::ParseMoveError) -> ParseMoveError {
        ParseMoveError::Ultimate(e)
    }
}

impl From<ParseUltimateError> for ParsePositionError {
    fn from(e: ParseUltimateError) -> ParsePositionError {
        ParsePositionError::Ultimate(e)
    }
}
