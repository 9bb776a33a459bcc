//! Classic m,n,k boards as a member of [`Position`].

use crate::board::{self, Board, Cell, CellError, ParseBoardError, Rules};
use crate::position::{
    Member, Move, MoveError, ParseMoveError, ParsePositionError, Position, Variant, own_cell,
};

impl Member for Board {
    fn variant(&self) -> Variant {
        Variant::Classic(self.rules())
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

    fn within(position: &Position) -> Option<&Board> {
        match position {
            Position::Classic(board) => Some(board),
            _ => None,
        }
    }
}

impl From<Board> for Position {
    fn from(board: Board) -> Position {
        Position::Classic(board)
    }
}

impl From<Rules> for Variant {
    fn from(rules: Rules) -> Variant {
        Variant::Classic(rules)
    }
}

impl From<Cell> for Move {
    fn from(cell: Cell) -> Move {
        Move::Cell(cell)
    }
}

impl From<ParseBoardError> for ParsePositionError {
    fn from(e: ParseBoardError) -> ParsePositionError {
        ParsePositionError::Classic(e)
    }
}
