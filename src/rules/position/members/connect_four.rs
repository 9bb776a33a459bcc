//! Connect Four as a member of [`Position`]: its moves are columns.

use crate::rules::connect_four::{Column, ConnectFour, ParseBoardError, ParseColumnError};
use crate::rules::position::{
    Member, Move, MoveError, ParseMoveError, ParsePositionError, Position, Variant,
};

impl Member for ConnectFour {
    fn variant(&self) -> Variant {
        Variant::ConnectFour {
            columns: self.columns(),
            rows: self.rows(),
        }
    }

    fn within(position: &Position) -> Option<&ConnectFour> {
        match position {
            Position::ConnectFour(board) => Some(board),
            _ => None,
        }
    }

    /// A column of this board, refused if `mv` is no column or one off the board.
    fn own_move(&self, mv: Move) -> Result<Column, MoveError> {
        let column = Column::try_from(mv)?;
        if column.0 < self.columns() {
            Ok(column)
        } else {
            Err(MoveError::OtherBoard)
        }
    }
}

impl From<ConnectFour> for Position {
    fn from(board: ConnectFour) -> Position {
        Position::ConnectFour(board)
    }
}

impl From<Column> for Move {
    fn from(column: Column) -> Move {
        Move::Column(column)
    }
}

impl TryFrom<Move> for Column {
    type Error = MoveError;

    fn try_from(mv: Move) -> Result<Column, MoveError> {
        match mv {
            Move::Column(column) => Ok(column),
            _ => Err(MoveError::OtherVariant),
        }
    }
}

impl From<ParseColumnError> for ParseMoveError {
    fn from(e: ParseColumnError) -> ParseMoveError {
        ParseMoveError::Column(e)
    }
}

impl From<ParseBoardError> for ParsePositionError {
    fn from(e: ParseBoardError) -> ParsePositionError {
        ParsePositionError::ConnectFour(e)
    }
}
