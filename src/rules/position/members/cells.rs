//! The cells of every square board (classic and Gomoku) as moves of [`Position`], with their
//! errors.

use crate::rules::classic::{Cell, CellError};
use crate::rules::position::{Move, MoveError, ParseMoveError};

impl From<Cell> for Move {
    fn from(cell: Cell) -> Move {
        Move::Cell(cell)
    }
}

impl TryFrom<Move> for Cell {
    type Error = MoveError;

    fn try_from(mv: Move) -> Result<Cell, MoveError> {
        match mv {
            Move::Cell(cell) => Ok(cell),
            _ => Err(MoveError::OtherVariant),
        }
    }
}

impl From<CellError> for ParseMoveError {
    fn from(e: CellError) -> ParseMoveError {
        ParseMoveError::Cell(e)
    }
}
