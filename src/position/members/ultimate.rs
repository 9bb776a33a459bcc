//! Ultimate tic-tac-toe as a member of [`Position`].

use crate::position::{
    Member, Move, MoveError, ParseMoveError, ParsePositionError, Position, Variant,
};
use crate::ultimate::{self, ParseUltimateError, UltimateBoard};

impl Member for UltimateBoard {
    fn variant(&self) -> Variant {
        Variant::Ultimate
    }

    fn own_move(&self, mv: Move) -> Result<ultimate::Move, MoveError> {
        let Move::Ultimate(mv) = mv else {
            return Err(MoveError::OtherVariant);
        };
        Ok(mv)
    }

    fn wrap_move(mv: ultimate::Move) -> Move {
        Move::Ultimate(mv)
    }

    fn move_error(e: ultimate::MoveError) -> MoveError {
        MoveError::Ultimate(e)
    }

    fn parse_error(e: ultimate::ParseMoveError) -> ParseMoveError {
        ParseMoveError::Ultimate(e)
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

impl From<ParseUltimateError> for ParsePositionError {
    fn from(e: ParseUltimateError) -> ParsePositionError {
        ParsePositionError::Ultimate(e)
    }
}
