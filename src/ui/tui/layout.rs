//! The geometry of the screen: where the board, its cells and the text lines go on a terminal
//! of a given size, and which cell a click hits. Shared by the app (clicks) and the view.

use crate::rules::catalogue::Shaped;
use crate::rules::classic::{Board, Cell};
use crate::rules::position::{Move, Position};
use crate::rules::ultimate;

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

/// Cell interiors to try, largest first: the board grows with the terminal.
const CELL_SIZES: [(u16, u16); 4] = [(11, 5), (7, 3), (5, 1), (3, 1)];
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

/// Where the 9×9 grid of Ultimate tic-tac-toe and the text lines go. Each small board is three
/// rows of three cells with thin lines between the cells of a row; heavy lines frame the small
/// boards, so the grid is 13 rows high.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct UltimateLayout {
    /// Interior width of a cell.
    pub cell_w: u16,
    /// Rows of a cell: 1, or 3 on a screen with room for marks drawn large.
    pub cell_h: u16,
    /// Top-left corner of the grid's outer border.
    pub left: u16,
    pub top: u16,
    /// First row of the whole picture (the title).
    pub first_row: u16,
    pub fits: bool,
}

/// Cell sizes (width, rows) to try, largest first: the grid grows with the terminal.
const ULTIMATE_CELL_SIZES: [(u16, u16); 3] = [(7, 3), (5, 1), (3, 1)];

impl UltimateLayout {
    pub fn new((width, height): (u16, u16)) -> UltimateLayout {
        let fits = |c: (u16, u16)| {
            let (w, h) = UltimateLayout::needs(c);
            w <= width && h <= height
        };
        let (cell_w, cell_h) = ULTIMATE_CELL_SIZES
            .into_iter()
            .find(|&c| fits(c))
            .or_else(|| {
                // Too low for any: the widest that fits across, to say what is missing.
                ULTIMATE_CELL_SIZES
                    .into_iter()
                    .filter(|c| c.1 == 1)
                    .find(|&c| UltimateLayout::needs(c).0 <= width)
            })
            .unwrap_or((3, 1));
        let (_, need_h) = UltimateLayout::needs((cell_w, cell_h));
        let first_row = height.saturating_sub(need_h) / 2;
        UltimateLayout {
            cell_w,
            cell_h,
            left: width.saturating_sub(UltimateLayout::grid_width_for(cell_w)) / 2,
            top: first_row + 2,
            first_row,
            fits: fits((cell_w, cell_h)),
        }
    }

    fn grid_width_for(cell_w: u16) -> u16 {
        9 * cell_w + 10
    }

    /// The grid's height with cells `cell_h` rows high: three small boards of three rows of
    /// cells, and four heavy lines.
    const fn grid_height_for(cell_h: u16) -> u16 {
        9 * cell_h + 4
    }

    /// The screen a grid of cells (`cell_w`, `cell_h`) needs, text and labels included.
    fn needs((cell_w, cell_h): (u16, u16)) -> (u16, u16) {
        (
            (UltimateLayout::grid_width_for(cell_w) + 4).max(MIN_TEXT_WIDTH),
            UltimateLayout::grid_height_for(cell_h) + TEXT_ROWS + 1,
        )
    }

    /// The smallest screen (columns, rows) the Ultimate grid fits on.
    pub fn minimum() -> (u16, u16) {
        UltimateLayout::needs((3, 1))
    }

    pub fn grid_width(&self) -> u16 {
        UltimateLayout::grid_width_for(self.cell_w)
    }

    pub const fn grid_height(&self) -> u16 {
        UltimateLayout::grid_height_for(self.cell_h)
    }

    /// The width of one small board between its heavy lines.
    pub fn board_width(&self) -> u16 {
        3 * self.cell_w + 2
    }

    /// The height of one small board between its heavy lines.
    pub fn board_height(&self) -> u16 {
        3 * self.cell_h
    }

    /// Screen position of the left end of `mv`'s cell interior, on the cell's middle row.
    pub fn cell_origin(&self, mv: ultimate::Move) -> (u16, u16) {
        let col = u16::from(mv.col());
        let from_top = 8 - u16::from(mv.row());
        (
            self.left + 1 + (col / 3) * (self.board_width() + 1) + (col % 3) * (self.cell_w + 1),
            self.top
                + 1
                + (from_top / 3) * (self.board_height() + 1)
                + (from_top % 3) * self.cell_h
                + self.cell_h / 2,
        )
    }

    /// Screen position of the top-left corner of small board `board`'s interior.
    pub fn board_origin(&self, board: u8) -> (u16, u16) {
        let index = u16::from(board - 1);
        let (col, from_top) = (index % 3, 2 - index / 3);
        (
            self.left + 1 + col * (self.board_width() + 1),
            self.top + 1 + from_top * (self.board_height() + 1),
        )
    }

    /// The move whose cell is under screen position (`column`, `row`), if any.
    pub fn move_at(&self, column: u16, row: u16) -> Option<ultimate::Move> {
        if !self.fits {
            return None;
        }
        let x = column.checked_sub(self.left + 1)?;
        let y = row.checked_sub(self.top + 1)?;
        let (board_col, in_board) = (x / (self.board_width() + 1), x % (self.board_width() + 1));
        let rows = self.board_height() + 1;
        let (board_row, in_rows) = (y / rows, y % rows);
        if in_board == self.board_width()
            || in_rows == self.board_height()
            || board_col >= 3
            || board_row >= 3
        {
            return None;
        }
        let (cell_col, in_cell) = (in_board / (self.cell_w + 1), in_board % (self.cell_w + 1));
        if in_cell == self.cell_w {
            return None;
        }
        let col = board_col * 3 + cell_col;
        let from_top = board_row * 3 + in_rows / self.cell_h;
        ultimate::Move::at(col as u8, (8 - from_top) as u8)
    }
}

/// Where a large square board drawn compactly goes (Gomoku's, up to 20×20): a point a
/// character, two columns apart, no lines between them, row numbers on the left and column
/// letters below, and the text lines. Where the screen is too short for every row, a window of
/// rows is shown, scrolled to follow the play ([`GridLayout::following`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GridLayout {
    /// The first screen column of the row numbers.
    pub left: u16,
    /// The screen row of the first board row shown.
    pub top: u16,
    /// First row of the whole picture (the title).
    pub first_row: u16,
    pub fits: bool,
    /// The board's side.
    pub n: u16,
    /// Board rows shown, all `n` where they fit.
    pub shown: u16,
    /// Board rows above the window, counted from the top row.
    pub hidden_above: u16,
}

/// The fewest board rows a window shows: enough to see a fight.
const MIN_SHOWN_ROWS: u16 = 11;

impl GridLayout {
    /// The whole board, or the window of its top rows where the screen is too short.
    pub fn new(size: (u16, u16), board: u8) -> GridLayout {
        GridLayout::scrolled(size, board, 0)
    }

    /// The layout with `hidden_above` rows above the window (as far as the board goes).
    pub fn scrolled((width, height): (u16, u16), size: u8, hidden_above: u16) -> GridLayout {
        let n = u16::from(size);
        let (need_w, need_h) = GridLayout::minimum(size);
        let shown = height
            .saturating_sub(1 + TEXT_ROWS)
            .clamp(n.min(MIN_SHOWN_ROWS), n);
        let first_row = height.saturating_sub(shown + 1 + TEXT_ROWS) / 2;
        GridLayout {
            left: width.saturating_sub(GridLayout::board_width(n)) / 2,
            top: first_row + 2,
            first_row,
            fits: need_w <= width && need_h <= height,
            n,
            shown,
            hidden_above: hidden_above.min(n - shown),
        }
    }

    /// This layout scrolled as little as keeps board `row` (from the bottom) and a row
    /// either side of it in the window.
    pub fn following(self, row: u8) -> GridLayout {
        let from_top = self.n - 1 - u16::from(row).min(self.n - 1);
        let margin = u16::from(self.shown > 2);
        let mut above = self.hidden_above;
        if from_top < above + margin {
            above = from_top.saturating_sub(margin);
        } else if from_top + margin >= above + self.shown {
            above = (from_top + margin + 1).saturating_sub(self.shown);
        }
        GridLayout {
            hidden_above: above.min(self.n - self.shown),
            ..self
        }
    }

    /// Board rows below the window.
    pub fn hidden_below(&self) -> u16 {
        self.n - self.shown - self.hidden_above
    }

    /// Whether board `row` (from the bottom) is in the window.
    pub fn shows(&self, row: u8) -> bool {
        let from_top = self.n - 1 - u16::from(row);
        (self.hidden_above..self.hidden_above + self.shown).contains(&from_top)
    }

    /// Row numbers two wide and a space, then two columns a point.
    fn board_width(n: u16) -> u16 {
        3 + 2 * n
    }

    /// The smallest screen (columns, rows) on which a board of `size` fits, in a window of
    /// rows where it is tall.
    pub fn minimum(size: u8) -> (u16, u16) {
        let n = u16::from(size);
        (
            GridLayout::board_width(n).max(MIN_TEXT_WIDTH),
            n.min(MIN_SHOWN_ROWS) + 1 + TEXT_ROWS,
        )
    }

    /// Screen position of the point at `row` (from the bottom) and `col`; a row outside the
    /// window is placed as if the window went on ([`GridLayout::shows`] says which are in).
    pub fn origin(&self, row: u8, col: u8) -> (u16, u16) {
        (
            self.left + 3 + 2 * u16::from(col),
            (self.top + self.n - 1 - u16::from(row)).saturating_sub(self.hidden_above),
        )
    }

    /// The screen row of the column letters, below the window.
    pub fn letters_row(&self) -> u16 {
        self.top + self.shown
    }

    /// The (column, row) of the point under screen position (`column`, `row`): its character
    /// or the space after it.
    pub fn point_at(&self, column: u16, row: u16) -> Option<(u8, u8)> {
        if !self.fits {
            return None;
        }
        let x = column.checked_sub(self.left + 3)? / 2;
        let y = row.checked_sub(self.top)?;
        (x < self.n && y < self.shown)
            .then(|| (x as u8, (self.n - 1 - y - self.hidden_above) as u8))
    }
}

/// The move list's width, its margin included, where it is shown beside the board.
pub const MOVES_PANEL: u16 = 22;
/// The narrowest screen with the move list beside the board: the board and its lines keep
/// the width an 80-column screen gives them.
pub const MOVES_FROM: u16 = 80 + MOVES_PANEL;

/// The part of a screen of `size` the board and its lines are laid out on: all of it, or, on
/// a screen of [`MOVES_FROM`] columns or more where the game's moves are `listed` beside the
/// board, the 80 columns left of the list's [`MOVES_PANEL`] (no board is drawn wider), the
/// two together centred on the screen from [`board_left`].
pub fn board_area((width, height): (u16, u16), listed: bool) -> (u16, u16) {
    if listed && width >= MOVES_FROM {
        (MOVES_FROM - MOVES_PANEL, height)
    } else {
        (width, height)
    }
}

/// The screen column [`board_area`] starts at: 0, or where the board and the move list beside
/// it are centred on a wide screen.
pub fn board_left((width, height): (u16, u16), listed: bool) -> u16 {
    let (area, _) = board_area((width, height), listed);
    if area < width {
        (width - area - MOVES_PANEL) / 2
    } else {
        0
    }
}

/// The compact layout of a classic board of side `n` on a screen of `size`: where its cells
/// do not fit but a point a character does (boards above 3×3).
pub fn compact(size: (u16, u16), n: u8) -> Option<GridLayout> {
    let points = GridLayout::new(size, n);
    (n > 3 && !Layout::new(size, n).fits && points.fits).then_some(points)
}

/// The move under the screen cell at (`column`, `row`) on a screen of `size`, if any, with
/// `hidden_above` rows of a tall board scrolled out of sight.
pub fn move_at(
    position: &Position,
    size: (u16, u16),
    hidden_above: u16,
    (column, row): (u16, u16),
) -> Option<Move> {
    match position.shaped() {
        Shaped::Cells(board) => match compact(size, board.size()) {
            Some(points) => points
                .point_at(column, row)
                .and_then(|(col, row)| board.cell_at(row, col)),
            None => Layout::new(size, board.size()).cell_at(board, column, row),
        }
        .map(Move::Cell),
        Shaped::Boards(_) => UltimateLayout::new(size)
            .move_at(column, row)
            .map(Move::Ultimate),
        Shaped::Points(board) => GridLayout::scrolled(size, board.size(), hidden_above)
            .point_at(column, row)
            .and_then(|(col, row)| board.cell_at(row, col))
            .map(Move::Cell),
        // A column anywhere on it, the falling disc's row above it too.
        Shaped::Columns(board) => {
            let grid = board.columns().max(board.rows() + 1);
            let (col, _) = GridLayout::new(size, grid).point_at(column, row)?;
            position.at_grid_point(col, 0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ultimate_clicks_map_to_moves_and_lines_to_none() {
        for size in [(80, 24), (44, 21), (200, 60)] {
            let layout = UltimateLayout::new(size);
            assert!(layout.fits, "{size:?}");
            for index in 0..81 {
                let mv = ultimate::Move::from_index(index).unwrap();
                let (x, y) = layout.cell_origin(mv);
                assert_eq!(layout.move_at(x, y), Some(mv));
                assert_eq!(layout.move_at(x + layout.cell_w - 1, y), Some(mv));
                assert_eq!(layout.move_at(x + layout.cell_w, y), None, "a line");
            }
            assert_eq!(layout.move_at(layout.left, layout.top), None);
        }
        assert!(!UltimateLayout::new((30, 24)).fits);
        assert!(!UltimateLayout::new((80, 20)).fits);
    }

    #[test]
    fn a_classic_board_grows_with_the_terminal_and_shrinks_to_a_point_a_character() {
        let large = Layout::new((200, 60), 3);
        assert_eq!((large.cell_w, large.cell_h), (11, 5));
        assert_eq!(Layout::new((80, 24), 3).cell_h, 3, "as before at 80×24");
        // 7×7 at 60×20: no room for cells, room for points.
        assert!(!Layout::new((60, 20), 7).fits);
        let points = compact((60, 20), 7).expect("a compact 7×7");
        let board = Board::new(crate::rules::classic::Rules::new(7, 4, false).unwrap());
        let position = Position::Classic(board);
        for cell in board.cells() {
            let (x, y) = points.origin(cell.row(), cell.col());
            assert_eq!(
                move_at(&position, (60, 20), 0, (x, y)),
                Some(Move::Cell(cell))
            );
        }
        assert_eq!(compact((80, 24), 7), None, "cells where they fit");
        assert_eq!(compact((60, 20), 3), None, "3×3 keeps its cells");
    }

    #[test]
    fn twenty_by_twenty_shows_a_window_of_sixteen_rows_in_eighty_by_twenty_four_that_follows_a_row()
    {
        let board = crate::rules::gomoku::Gomoku::with_size(20).unwrap();
        let top = GridLayout::new((80, 24), 20);
        assert!(top.fits && top.first_row == 0);
        assert_eq!(
            (top.shown, top.hidden_above, top.hidden_below()),
            (16, 0, 4)
        );
        assert!(
            top.shows(19) && top.shows(4) && !top.shows(3),
            "rows 20 to 5"
        );
        let position = Position::Gomoku(board);
        for hidden in 0..=4 {
            let window = GridLayout::scrolled((80, 24), 20, hidden);
            for row in (0..20).filter(|&r| window.shows(r)) {
                let (x, y) = window.origin(row, 2);
                assert!(
                    y >= window.top && y < window.letters_row(),
                    "row {row} on screen"
                );
                let hit = move_at(&position, (80, 24), hidden, (x, y));
                assert_eq!(hit, board.cell_at(row, 2).map(Move::Cell), "row {row}");
            }
            assert_eq!(window.point_at(window.left + 3, window.letters_row()), None);
        }
        // Down to row 1: as little scrolling as keeps a row below the one followed in sight.
        assert_eq!(
            top.following(4).hidden_above,
            1,
            "row 5 with row 4 under it"
        );
        assert_eq!(top.following(0).hidden_above, 4, "as far as the board goes");
        assert_eq!(top.following(10).hidden_above, 0, "row 11 is in sight");
        let bottom = GridLayout::scrolled((80, 24), 20, 4);
        assert_eq!(
            bottom.following(18).hidden_above,
            0,
            "row 19 with row 20 above it"
        );
        assert_eq!(
            bottom.following(17).hidden_above,
            1,
            "row 18 with row 19 above it"
        );
        assert_eq!(
            GridLayout::scrolled((80, 24), 20, 99).hidden_above,
            4,
            "clamped"
        );
        let tall = GridLayout::new((80, 30), 20);
        assert_eq!(
            (tall.shown, tall.following(0).hidden_above),
            (20, 0),
            "no window"
        );
    }

    #[test]
    fn the_ultimate_grid_grows_with_the_terminal_and_every_row_of_a_tall_cell_is_its_move() {
        assert_eq!(UltimateLayout::new((80, 24)).cell_h, 1);
        let large = UltimateLayout::new((200, 60));
        assert_eq!((large.cell_w, large.cell_h), (7, 3));
        for index in 0..81 {
            let mv = ultimate::Move::from_index(index).unwrap();
            let (x, y) = large.cell_origin(mv);
            for dy in [y - 1, y, y + 1] {
                assert_eq!(large.move_at(x + 3, dy), Some(mv), "{mv}");
            }
        }
    }

    #[test]
    fn gomoku_fits_eighty_by_twenty_four_and_clicks_map_to_points() {
        let board = crate::rules::gomoku::Gomoku::new();
        let layout = GridLayout::new((80, 24), board.size());
        assert!(layout.fits);
        assert_eq!((layout.shown, layout.hidden_above), (15, 0), "every row");
        assert!(!GridLayout::new((80, 18), board.size()).fits);
        for cell in board.cells() {
            let (x, y) = layout.origin(cell.row(), cell.col());
            let position = Position::Gomoku(board);
            for dx in [0, 1] {
                let hit = move_at(&position, (80, 24), 0, (x + dx, y));
                assert_eq!(hit, Some(Move::Cell(cell)), "{cell}");
            }
        }
        assert_eq!(
            layout.point_at(layout.left, layout.top),
            None,
            "row numbers"
        );
        assert_eq!(
            layout.point_at(layout.left + 3, layout.top + 15),
            None,
            "letters"
        );
    }

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
