//! Gomoku's board, compact: a point a character, two columns apart, row numbers on the left
//! and column letters below (see [`GridLayout`]), in a window of rows that follows the play
//! where the screen is too short for them all (20×20 in 80×24), with `↑` and `↓` beside it
//! where rows are out of sight; classic boards too where the screen is too small for their
//! cells. Stones, the last move, the winning
//! line, the best hint or the review's best move, under renju black's forbidden points (`×`)
//! on black's turn, and the cursor.

use super::frame::{Frame, Palette, Style, too_small};
use super::{Placed, hinted};
use crate::ai::search::Value;
use crate::report::review::Label;
use crate::rules::classic::{Cell, Mark, Squares};
use crate::rules::gomoku::Gomoku;
use crate::rules::position::Move;
use crate::ui::tui::app::App;
use crate::ui::tui::layout::GridLayout;

/// Draws the board with its coordinates and says where the text around it goes; `None` (with
/// a message) when the terminal is too small for it.
pub(super) fn draw(
    frame: &mut Frame,
    app: &App,
    board: &Gomoku,
    palette: Palette,
) -> Option<Placed> {
    let n = board.side();
    let layout = GridLayout::scrolled((frame.width(), frame.height()), n, app.scroll());
    if !layout.fits {
        too_small(frame, GridLayout::minimum(n));
        return None;
    }
    let points = Points {
        board,
        won: board.won_line().unwrap_or_default(),
        star: &|cell| board.is_star(cell),
        forbidden: board.forbidden(),
        symbol: stone,
        numbered: app.numbered(),
    };
    draw_points(frame, &layout, app, &points, palette);
    Some(Placed {
        title: format!("{} · round {}", app.game().variant(), app.session().round()),
        first_row: layout.first_row,
        below: layout.letters_row() + 2,
        keys: "h8 or arrows",
    })
}

/// A board drawn a point a character: its squares, its winning line, the points marked to
/// find one's way by, and how a mark is drawn.
pub(super) struct Points<'a> {
    pub board: &'a dyn Squares,
    pub won: Vec<Cell>,
    pub star: &'a dyn Fn(Cell) -> bool,
    /// Under renju, the points black may not play, while it is black's turn.
    pub forbidden: Vec<Cell>,
    pub symbol: fn(Mark) -> char,
    /// The stones that show their move's number instead ([`App::numbered`]).
    pub numbered: Vec<(Move, usize)>,
}

/// Every point of `points` on `layout`, with the coordinates around them.
pub(super) fn draw_points(
    frame: &mut Frame,
    layout: &GridLayout,
    app: &App,
    points: &Points,
    palette: Palette,
) {
    let n = points.board.side();
    for row in (0..n).filter(|&row| layout.shows(row)) {
        for col in 0..n {
            let cell = points.board.square(row, col).expect("on the board");
            draw_point(frame, layout, app, points, cell, palette);
        }
    }
    draw_labels(frame, layout);
}

/// Row numbers left of the board and column letters below it; `↑` right of the window's top
/// row where rows are out of sight above it, `↓` right of its bottom row where some are below.
fn draw_labels(frame: &mut Frame, layout: &GridLayout) {
    let style = Style::PLAIN.dim();
    for i in 0..layout.n as u8 {
        let (x, y) = layout.origin(i, i);
        if layout.shows(i) {
            frame.text(layout.left, y, &format!("{:>2}", i + 1), style);
        }
        frame.put(x, layout.letters_row(), char::from(b'a' + i), style);
    }
    let right = layout.left + 3 + 2 * layout.n;
    if layout.hidden_above > 0 {
        frame.put(right, layout.top, '↑', style);
    }
    if layout.hidden_below() > 0 {
        frame.put(right, layout.letters_row() - 1, '↓', style);
    }
}

/// The stone of `mark`: X plays black (`●`), O white (`○`); `X` and `O` where the terminal
/// shows ASCII only.
pub(super) fn stone(mark: Mark) -> char {
    match mark {
        Mark::X => '●',
        Mark::O => '○',
    }
}

/// A hinted move's value in the one character a point has: `W` a proven win, `L` a loss,
/// `D` a draw (`+` at least one, `-` at most one), and an estimated win rate as its tens of
/// percent, `0` to `9` (`6`: 60% to 69%).
pub fn point_hint(value: Value) -> char {
    match value {
        Value::Win(_) => 'W',
        Value::Loss(_) => 'L',
        Value::Draw => 'D',
        Value::AtLeastDraw(_) => '+',
        Value::AtMostDraw(_) => '-',
        Value::WinRate(r) => char::from(b'0' + u8::try_from((r / 100).min(9)).unwrap_or(9)),
        Value::Estimate(e) => match e.signum() {
            1 => '+',
            -1 => '-',
            _ => '=',
        },
    }
}

/// One point: its stone (the last move underlined, a winning line reversed, the review's move
/// in its label's colour), or a `*` for the review's best move, or a hinted move's value (the
/// best underlined), or an empty point; and the cursor's brackets either side.
fn draw_point(
    frame: &mut Frame,
    layout: &GridLayout,
    app: &App,
    points: &Points,
    cell: Cell,
    palette: Palette,
) {
    let winning = points.won.contains(&cell);
    let (x, y) = layout.origin(cell.row(), cell.col());
    let shown = Move::Cell(cell);
    let review = app.review().map(|(j, _, _)| j);
    let played = review.filter(|j| j.mv == shown);
    let (ch, style) = if let Some(mark) = points.board.mark_on(cell).or(played.map(|j| j.mark)) {
        let mut style = Style::PLAIN.fg(palette.mark(mark)).bold();
        if app.shown_last_move() == Some(shown) {
            style = style.underline();
        }
        if winning {
            style = style.reverse();
        }
        if let Some(j) = played {
            style = Style::PLAIN.fg(palette.label(j.label)).reverse().bold();
        }
        if let Some(&(_, number)) = points.numbered.iter().find(|(m, _)| *m == shown) {
            // Two digits from ten: the second over the gap to the next point.
            let number = number % 100;
            if number >= 10 {
                frame.put(x + 1, y, char::from(b'0' + (number % 10) as u8), style);
            }
            let first = if number >= 10 { number / 10 } else { number };
            (char::from(b'0' + first as u8), style)
        } else {
            ((points.symbol)(mark), style)
        }
    } else if let Some(mark) = app.waiting_stone(shown) {
        // Set up beyond a position a game reaches: faint until the other side's catch up.
        (
            (points.symbol)(mark),
            Style::PLAIN.fg(palette.mark(mark)).dim(),
        )
    } else if review.is_some_and(|j| j.best == Some(shown)) {
        ('*', Style::PLAIN.fg(palette.label(Label::Best)).bold())
    } else if let Some((value, style)) = hinted(app, shown, palette) {
        (point_hint(value), style)
    } else if points.forbidden.contains(&cell) {
        ('×', Style::PLAIN.fg(palette.accent()).dim())
    } else if (points.star)(cell) {
        ('+', Style::PLAIN.dim())
    } else {
        ('·', Style::PLAIN.dim())
    };
    frame.put(x, y, ch, style);
    if app.cursor() == shown && app.cursor_on() {
        let bracket = Style::PLAIN.fg(palette.accent()).bold();
        frame.put(x - 1, y, '[', bracket);
        frame.put(x + 1, y, ']', bracket);
    }
}
