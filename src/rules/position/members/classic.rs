//! Classic m,n,k boards as a member of [`Position`].

use crate::rules::classic::{Board, Cell, ParseBoardError, Rules};
use crate::rules::position::{
    Member, Move, MoveError, ParsePositionError, Position, Variant, own_cell,
};

impl Member for Board {
    fn variant(&self) -> Variant {
        Variant::Classic(self.rules())
    }

    fn within(position: &Position) -> Option<&Board> {
        match position {
            Position::Classic(board) => Some(board),
            _ => None,
        }
    }

    fn own_move(&self, mv: Move) -> Result<Cell, MoveError> {
        own_cell(self, mv)
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

impl From<ParseBoardError> for ParsePositionError {
    fn from(e: ParseBoardError) -> ParsePositionError {
        ParsePositionError::Classic(e)
    }
}
