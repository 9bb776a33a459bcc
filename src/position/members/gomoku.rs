//! Gomoku as a member of [`Position`]: its moves and errors are a square board's, as the
//! classic boards' are.

use crate::board::{self, Cell, CellError};
use crate::gomoku::{Gomoku, ParseGomokuError};
use crate::position::{
    Member, Move, MoveError, ParseMoveError, ParsePositionError, Position, Variant, own_cell,
};

impl Member for Gomoku {
    fn variant(&self) -> Variant {
        Variant::Gomoku(self.size())
    }

    fn own_move(&self, mv: Move) -> Result<Cell, MoveError> {
        own_cell(self, mv)
    }

    fn wrap_move(cell: Cell) -> Move {
        Move::Cell(cell)
    }

    fn move_error(e: board::MoveError) -> MoveError {
        MoveError::Cell(e)
    }

    fn parse_error(e: CellError) -> ParseMoveError {
        ParseMoveError::Cell(e)
    }

    fn within(position: &Position) -> Option<&Gomoku> {
        match position {
            Position::Gomoku(board) => Some(board),
            _ => None,
        }
    }
}

impl From<Gomoku> for Position {
    fn from(board: Gomoku) -> Position {
        Position::Gomoku(board)
    }
}

impl From<ParseGomokuError> for ParsePositionError {
    fn from(e: ParseGomokuError) -> ParsePositionError {
        ParsePositionError::Gomoku(e)
    }
}
