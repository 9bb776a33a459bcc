//! The geometry of the screen: where the board, its cells and the text lines go on a terminal
//! of a given size, and which cell a click hits. Shared by the app (clicks) and the view.

use crate::board::{Board, Cell};

/// Where the board and the text lines go on a screen of a given size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Interior width and height of a cell, in screen columns and rows.
    pub cell_w: u16,
    pub cell_h: u16,
    /// Top-left corner of the board's outer border.
    pub left: u16,
    pub top: u16,
    /// First row of the whole picture (the title).
    pub first_row: u16,
    pub fits: bool,
    /// The board's side.
    pub n: u16,
}

/// Cell interiors to try, largest first.
const CELL_SIZES: [(u16, u16); 3] = [(7, 3), (5, 1), (3, 1)];
/// Text rows besides the board: title and a blank above; blank, players, message, score and
/// keys below.
const TEXT_ROWS: u16 = 7;
/// The narrowest screen the text lines read well on.
const MIN_TEXT_WIDTH: u16 = 30;

impl Layout {
    pub fn new((width, height): (u16, u16), size: u8) -> Layout {
        let n = u16::from(size);
        let needs = |c: (u16, u16)| Layout::needs(n, c);
        let (cell_w, cell_h) = CELL_SIZES
            .into_iter()
            .find(|&c| needs(c).0 <= width && needs(c).1 <= height)
            .unwrap_or(CELL_SIZES[CELL_SIZES.len() - 1]);
        let (need_w, need_h) = needs((cell_w, cell_h));
        let fits = need_w <= width && need_h <= height;
        let first_row = height.saturating_sub(need_h) / 2;
        let bw = n * (cell_w + 1) + 1;
        Layout {
            cell_w,
            cell_h,
            left: width.saturating_sub(bw) / 2,
            top: first_row + 2,
            first_row,
            fits,
            n,
        }
    }

    /// The screen (columns, rows) a board of side `n` with cells of `cell` interior needs,
    /// text and coordinate labels included.
    fn needs(n: u16, (w, h): (u16, u16)) -> (u16, u16) {
        let labels = u16::from(n > 3);
        let (bw, bh) = (n * (w + 1) + 1, n * (h + 1) + 1);
        (
            (bw + 6 * labels).max(MIN_TEXT_WIDTH),
            bh + TEXT_ROWS + labels,
        )
    }

    /// The smallest screen (columns, rows) on which a board of `size` fits.
    pub fn minimum(size: u8) -> (u16, u16) {
        Layout::needs(u16::from(size), CELL_SIZES[CELL_SIZES.len() - 1])
    }

    /// Whether coordinate labels run along the edges (boards larger than 3×3).
    pub fn labels(&self) -> bool {
        self.n > 3
    }

    pub fn board_height(&self) -> u16 {
        self.n * (self.cell_h + 1) + 1
    }

    /// Screen position of the top-left interior tile of `cell`.
    pub fn cell_origin(&self, cell: Cell) -> (u16, u16) {
        let row_from_top = self.n - 1 - u16::from(cell.row());
        (
            self.left + 1 + u16::from(cell.col()) * (self.cell_w + 1),
            self.top + 1 + row_from_top * (self.cell_h + 1),
        )
    }

    /// The cell under screen position (`column`, `row`), if any (borders belong to none).
    pub fn cell_at(&self, board: &Board, column: u16, row: u16) -> Option<Cell> {
        if !self.fits {
            return None;
        }
        let x = column.checked_sub(self.left + 1)?;
        let y = row.checked_sub(self.top + 1)?;
        let (w, h) = (self.cell_w + 1, self.cell_h + 1);
        if x % w == self.cell_w || y % h == self.cell_h {
            return None;
        }
        let (col, from_top) = (x / w, y / h);
        if col >= self.n || from_top >= self.n {
            return None;
        }
        board.cell_at((self.n - 1 - from_top) as u8, col as u8)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clicks_map_to_cells_and_borders_to_none() {
        let layout = Layout::new((60, 22), 3);
        let board = Board::default();
        let (x, y) = layout.cell_origin(board.numpad(7).unwrap());
        assert_eq!(layout.cell_at(&board, x, y), board.numpad(7));
        assert_eq!(layout.cell_at(&board, x + 6, y + 2), board.numpad(7));
        assert_eq!(layout.cell_at(&board, x + 7, y), None, "border");
        assert_eq!(layout.cell_at(&board, x + 8, y + 4), board.numpad(5));
        assert_eq!(layout.cell_at(&board, 0, 0), None);
    }
}
