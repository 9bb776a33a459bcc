//! Connect Four's board: its columns a point wide and two apart on [`GridLayout`], the
//! columns' digits below, and above the board the disc of the side to move hanging over the
//! cursor's column, ready to fall; the cell it would land on is bracketed. Discs, the last
//! one dropped, the four that won, a hint's values and the review's move on the cell each
//! column's next disc lands on.

use super::frame::{Frame, Palette, Style, too_small};
use super::gomoku::{point_hint, stone};
use super::{Placed, hinted};
use crate::report::review::Label;
use crate::rules::connect_four::{Column, ConnectFour};
use crate::rules::position::Move;
use crate::ui::tui::app::App;
use crate::ui::tui::layout::GridLayout;

/// The layout's side: the columns, or the rows and the one the falling disc hangs in.
pub(crate) fn side(board: &ConnectFour) -> u8 {
    board.columns().max(board.rows() + 1)
}

/// How moves are typed, by the number of columns.
const KEYS: [&str; 6] = [
    "1-4 or ← → Enter",
    "1-5 or ← → Enter",
    "1-6 or ← → Enter",
    "1-7 or ← → Enter",
    "1-8 or ← → Enter",
    "1-9 or ← → Enter",
];

/// Draws the board and says where the text around it goes; `None` (with a message) when the
/// terminal is too small for it.
pub(super) fn draw(
    frame: &mut Frame,
    app: &App,
    board: &ConnectFour,
    palette: Palette,
) -> Option<Placed> {
    let layout = GridLayout::new((frame.width(), frame.height()), side(board));
    if !layout.fits {
        too_small(frame, GridLayout::minimum(side(board)));
        return None;
    }
    let won = board.won_cells();
    for col in 0..board.columns() {
        for row in 0..board.rows() {
            draw_cell(frame, &layout, app, (board, &won), (col, row), palette);
        }
        let (x, _) = layout.origin(0, col);
        let digit = char::from(b'1' + col);
        frame.put(x, layout.letters_row(), digit, Style::PLAIN.dim());
    }
    draw_falling(frame, &layout, app, board, palette);
    Some(Placed {
        title: format!("{} · round {}", app.game().variant(), app.session().round()),
        first_row: layout.first_row,
        below: layout.letters_row() + 2,
        keys: KEYS[usize::from(board.columns() - 4)],
    })
}

/// The disc about to fall over the cursor's column, and brackets round where it would land.
fn draw_falling(
    frame: &mut Frame,
    layout: &GridLayout,
    app: &App,
    board: &ConnectFour,
    palette: Palette,
) {
    let Move::Column(Column(col)) = app.cursor() else {
        return;
    };
    if !app.cursor_on() || !board.can_play(col) {
        return;
    }
    let mark = board.to_move();
    let (x, y) = layout.origin(board.rows(), col);
    frame.put(
        x,
        y,
        stone(mark),
        Style::PLAIN.fg(palette.mark(mark)).bold(),
    );
    let (x, y) = layout.origin(board.height(col), col);
    let bracket = Style::PLAIN.fg(palette.accent()).bold();
    frame.put(x - 1, y, '[', bracket);
    frame.put(x + 1, y, ']', bracket);
}

/// One cell: its disc (the last dropped underlined, the winning four reversed, the review's
/// move in its label's colour), or on the cell a column's next disc lands on the review's
/// best move (`*`) or the hint's value for the column, or an empty cell.
fn draw_cell(
    frame: &mut Frame,
    layout: &GridLayout,
    app: &App,
    (board, won): (&ConnectFour, &[(u8, u8)]),
    (col, row): (u8, u8),
    palette: Palette,
) {
    let (x, y) = layout.origin(row, col);
    let shown = Move::Column(Column(col));
    let lands_here = board.height(col) == row;
    let review = app.review().map(|(j, _, _)| j);
    let played = review.filter(|j| j.mv == shown && lands_here);
    let (ch, style) = if let Some(mark) = board.mark_at(col, row).or(played.map(|j| j.mark)) {
        let mut style = Style::PLAIN.fg(palette.mark(mark)).bold();
        let top = board.height(col).checked_sub(1) == Some(row);
        if app.shown_last_move() == Some(shown) && top {
            style = style.underline();
        }
        if won.contains(&(col, row)) {
            style = style.reverse();
        }
        if let Some(j) = played {
            style = Style::PLAIN.fg(palette.label(j.label)).reverse().bold();
        }
        (stone(mark), style)
    } else if lands_here && review.is_some_and(|j| j.best == Some(shown)) {
        ('*', Style::PLAIN.fg(palette.label(Label::Best)).bold())
    } else if let Some((value, style)) = hinted(app, shown, palette).filter(|_| lands_here) {
        (point_hint(value), style)
    } else {
        ('·', Style::PLAIN.dim())
    };
    frame.put(x, y, ch, style);
}
