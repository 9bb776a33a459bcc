//! Gomoku as a member of [`Position`]: its moves and errors are a square board's, as the
//! classic boards' are ([`super::cells`]).

use crate::rules::classic::Cell;
use crate::rules::gomoku::{Gomoku, ParseGomokuError};
use crate::rules::position::{
    Member, Move, MoveError, ParsePositionError, Position, Variant, own_cell,
};

impl Member for Gomoku {
    fn variant(&self) -> Variant {
        Variant::Gomoku {
            size: self.size(),
            k: self.k(),
            rule: self.rule(),
            opening: self.opening(),
        }
    }

    fn within(position: &Position) -> Option<&Gomoku> {
        match position {
            Position::Gomoku(board) => Some(board),
            _ => None,
        }
    }

    fn own_move(&self, mv: Move) -> Result<Cell, MoveError> {
        own_cell(self, mv)
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
