//! The classic N×N board: its grid, its cells (marks, hints, the review's moves, the
//! cursor) and the coordinates around it.

use super::frame::too_small;
use super::frame::{Frame, LIGHT, Palette, Style, junction};
use super::gomoku::{Points, draw_points};
use super::{Placed, hinted};
use crate::ai::search::Value;
use crate::report::review::Label;
use crate::rules::classic::{Board, Cell, Mark, Outcome, Rules};
use crate::rules::position::Move;
use crate::ui::tui::app::App;
use crate::ui::tui::layout::{GridLayout, Layout, compact};

pub(super) const X_ART: [&str; 3] = ["╲ ╱", " ╳ ", "╱ ╲"];
pub(super) const O_ART: [&str; 3] = ["╭─╮", "│ │", "╰─╯"];
/// The marks in the largest cells.
const X_ART_LARGE: [&str; 5] = ["╲   ╱", " ╲ ╱ ", "  ╳  ", " ╱ ╲ ", "╱   ╲"];
const O_ART_LARGE: [&str; 5] = ["╭───╮", "│   │", "│   │", "│   │", "╰───╯"];

/// The short label of a hint value: `W3`, `D`, `L4` when proven, `D+` (at least a draw) and
/// `D-` (at most a draw) when proven bounds; a heuristic estimate is `~`
/// and its sign, with its size where there is room (`~+12`); a win rate in percent (`62%`, or
/// `62` in a narrow cell).
pub fn hint_label(value: Value, width: u16) -> String {
    match value {
        Value::WinRate(r) => {
            let percent = (f32::from(r) / 10.0).round().clamp(0.0, 99.0) as u32;
            if width >= 4 {
                format!("{percent}%")
            } else {
                format!("{percent}")
            }
        }
        Value::Win(n) => format!("W{n}"),
        Value::Draw => "D".to_string(),
        Value::Loss(n) => format!("L{n}"),
        Value::AtLeastDraw(_) => "D+".to_string(),
        Value::AtMostDraw(_) => "D-".to_string(),
        Value::Estimate(e) if width >= 5 => format!("~{:+}", e.clamp(-99, 99)),
        Value::Estimate(e) => match e.signum() {
            1 => "~+",
            -1 => "~-",
            _ => "~=",
        }
        .to_string(),
    }
}

/// Draws a classic board with its coordinates where there is room, and says where the text
/// around it goes; `None` (with a message) when the terminal is too small for it.
pub(super) fn draw(
    frame: &mut Frame,
    app: &App,
    board: &Board,
    palette: Palette,
) -> Option<Placed> {
    let size = (frame.width(), frame.height());
    let layout = Layout::new(size, board.size());
    let (first_row, below) = if layout.fits {
        draw_grid(frame, &layout);
        for cell in board.cells() {
            draw_cell(frame, &layout, app, board, cell, palette);
        }
        if layout.labels() {
            draw_labels(frame, &layout, board);
        }
        let below = layout.top + layout.board_height() + 1 + u16::from(layout.labels());
        (layout.first_row, below)
    } else if let Some(compact) = compact(size, board.size()) {
        // Too small for cells: a point a character, as Gomoku's board is drawn.
        let won = match board.outcome() {
            Outcome::Won { line, .. } => board.cells().filter(|&c| line.contains(c)).collect(),
            _ => Vec::new(),
        };
        let points = Points {
            board,
            won,
            star: &|_| false,
            forbidden: Vec::new(),
            symbol: Mark::symbol,
            numbered: app.numbered(),
        };
        draw_points(frame, &compact, app, &points, palette);
        (compact.first_row, compact.top + compact.n + 2)
    } else {
        too_small(frame, minimum(board.size()));
        return None;
    };
    let rules = board.rules();
    let round = app.session().round();
    let title = if rules == Rules::CLASSIC {
        format!("Tic-tac-toe · round {round}")
    } else {
        format!("Tic-tac-toe · {rules} · round {round}")
    };
    let keys = if board.size() == 3 {
        "1-9"
    } else {
        "c3 or arrows"
    };
    Some(Placed {
        title,
        first_row,
        below,
        keys,
    })
}

/// The smallest screen (columns, rows) a classic board of `size` is drawn on: with cells, or
/// above 3×3 a point a character.
fn minimum(size: u8) -> (u16, u16) {
    let cells = Layout::minimum(size);
    if size <= 3 {
        return cells;
    }
    let points = GridLayout::minimum(size);
    if points.0 * points.1 < cells.0 * cells.1 {
        points
    } else {
        cells
    }
}

/// Row numbers left of the board and column letters below it.
fn draw_labels(frame: &mut Frame, layout: &Layout, board: &Board) {
    let style = Style::PLAIN.dim();
    for cell in board.cells() {
        let (x, y) = layout.cell_origin(cell);
        if cell.col() == 0 {
            let number = (cell.row() + 1).to_string();
            frame.text(
                layout.left.saturating_sub(2),
                y + layout.cell_h / 2,
                &number,
                style,
            );
        }
        if cell.row() == 0 {
            let letter = char::from(b'a' + cell.col());
            frame.put(
                x + layout.cell_w / 2,
                layout.top + layout.board_height(),
                letter,
                style,
            );
        }
    }
}

fn draw_grid(frame: &mut Frame, layout: &Layout) {
    let (w, h, n) = (layout.cell_w + 1, layout.cell_h + 1, layout.n);
    let style = Style::PLAIN;
    for dy in 0..=n * h {
        for dx in 0..=n * w {
            let (on_col, on_row) = (dx % w == 0, dy % h == 0);
            let (first_c, last_c, first_r, last_r) = (dx == 0, dx == n * w, dy == 0, dy == n * h);
            let ch = match (on_row, on_col) {
                (false, false) => continue,
                (false, true) => '│',
                (true, false) => '─',
                (true, true) => junction((first_r, last_r, first_c, last_c), &LIGHT),
            };
            frame.put(layout.left + dx, layout.top + dy, ch, style);
        }
    }
}

/// A cell's rectangle on the screen.
#[derive(Clone, Copy)]
struct Area {
    x: u16,
    y: u16,
    w: u16,
    h: u16,
}

impl Area {
    /// The middle row, where a small mark, a label or a digit goes.
    fn mid_y(self) -> u16 {
        self.y + self.h / 2
    }

    /// Whether the cell is tall enough for a mark drawn large.
    fn big(self) -> bool {
        self.h >= 3
    }

    /// Writes `label` centred on the middle row.
    fn label(self, frame: &mut Frame, label: &str, style: Style) {
        let len = label.chars().count() as u16;
        frame.text(
            self.x + (self.w.saturating_sub(len)) / 2,
            self.mid_y(),
            label,
            style,
        );
    }
}

/// One cell: its mark (the last move and a winning line stand out, the review's move takes
/// its label's colour), or the review's best move, a hint, the numpad digit; and the cursor.
fn draw_cell(
    frame: &mut Frame,
    layout: &Layout,
    app: &App,
    board: &Board,
    cell: Cell,
    palette: Palette,
) {
    let (x, y) = layout.cell_origin(cell);
    let area = Area {
        x,
        y,
        w: layout.cell_w,
        h: layout.cell_h,
    };
    let winning = match board.outcome() {
        Outcome::Won { line, .. } => line.contains(cell),
        _ => false,
    };
    let review = app.review().map(|(j, _, _)| j);
    let shown = Move::Cell(cell);
    let last = app.shown_last_move() == Some(shown);
    let cursor = app.cursor() == shown && app.cursor_on();
    // In the review, the move being judged is drawn in its label's colour, reversed.
    let played = review.filter(|j| j.mv == shown);
    if let Some(mark) = board.mark_at(cell).or(played.map(|j| j.mark)) {
        let mut style = Style::PLAIN.fg(palette.mark(mark));
        if last {
            style = style.bold();
        }
        if winning {
            style = style.reverse().bold();
        }
        if let Some(j) = played {
            style = Style::PLAIN.fg(palette.label(j.label)).reverse().bold();
        }
        draw_mark(frame, area, mark, style, winning);
        if last && area.big() && !winning {
            frame.put(x, y, '•', Style::PLAIN.fg(palette.accent()).bold());
        }
    } else if let Some(mark) = app.waiting_stone(shown) {
        // Set up beyond a position a game reaches: faint until the other side's catch up.
        let style = Style::PLAIN.fg(palette.mark(mark)).dim();
        draw_mark(frame, area, mark, style, false);
    } else if review.is_some_and(|j| j.best == Some(shown)) {
        let label = if area.w >= 5 { "best" } else { "*" };
        let style = Style::PLAIN
            .fg(palette.label(Label::Best))
            .bold()
            .underline();
        area.label(frame, label, style);
    } else if let Some((value, mut style)) = hinted(app, shown, palette) {
        if !value.is_proven() && !value.is_bound() {
            style = style.dim();
        }
        area.label(frame, &hint_label(value, area.w), style);
    } else if let Some(d) = cell.numpad() {
        let digit = char::from(b'0' + d);
        frame.put(x + area.w / 2, area.mid_y(), digit, Style::PLAIN.dim());
    } else if area.big() {
        frame.put(x + area.w / 2, area.mid_y(), '·', Style::PLAIN.dim());
    }
    if cursor {
        draw_cursor(frame, area, palette);
    }
}

/// A mark: three rows of art in a big cell (the whole cell filled when it is on the winning
/// line), one character otherwise (widened by a space each side on the winning line).
fn draw_mark(frame: &mut Frame, area: Area, mark: Mark, style: Style, winning: bool) {
    let Area { x, y, w, h } = area;
    if area.big() {
        let art: &[&str] = match (mark, h >= 5) {
            (Mark::X, true) => &X_ART_LARGE,
            (Mark::O, true) => &O_ART_LARGE,
            (Mark::X, false) => &X_ART,
            (Mark::O, false) => &O_ART,
        };
        if winning {
            // Fill the interior so the whole line stands out.
            for dy in 0..h {
                frame.text(x, y + dy, &" ".repeat(usize::from(w)), style);
            }
        }
        let (art_w, art_h) = (art[0].chars().count() as u16, art.len() as u16);
        for (dy, row) in (0..).zip(art) {
            frame.text(x + (w - art_w) / 2, y + (h - art_h) / 2 + dy, row, style);
        }
    } else {
        let mid_y = area.mid_y();
        frame.put(x + w / 2, mid_y, mark.symbol(), style);
        if winning {
            frame.put(x + w / 2 - 1, mid_y, ' ', style);
            frame.put(x + w / 2 + 1, mid_y, ' ', style);
        }
    }
}

/// Brackets at both ends of the cell's middle row; in a small cell they must not hide what
/// is in its centre.
fn draw_cursor(frame: &mut Frame, area: Area, palette: Palette) {
    let Area { x, w, .. } = area;
    let mid_y = area.mid_y();
    let style = Style::PLAIN.fg(palette.accent()).bold();
    if area.big() {
        frame.put(x, mid_y, '[', style);
        frame.put(x + w - 1, mid_y, ']', style);
    } else {
        let centre = frame.tile(x + w / 2, mid_y);
        frame.put(x, mid_y, '[', style);
        frame.put(x + w - 1, mid_y, ']', style);
        frame.put(x + w / 2, mid_y, centre.ch, centre.style);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hint_labels_say_proven_bounds_apart_from_estimates() {
        assert_eq!(hint_label(Value::AtLeastDraw(7), 3), "D+");
        assert_eq!(hint_label(Value::AtMostDraw(0), 3), "D-");
        assert_eq!(hint_label(Value::Draw, 3), "D");
        assert_eq!(hint_label(Value::Estimate(7), 5), "~+7");
    }
}
