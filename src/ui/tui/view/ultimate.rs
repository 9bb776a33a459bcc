//! The Ultimate board: nine small boards in heavy lines, the boards the side to move may
//! play in, won boards as one large mark, and the cursor, the last move, hints and the
//! review's moves.

use super::classic::{O_ART, X_ART, hint_label};
use super::frame::too_small;
use super::frame::{Frame, HEAVY, Palette, Style, junction};
use super::{Placed, hinted};
use crate::report::review::Label;
use crate::rules::classic::Mark;
use crate::rules::position::Move;
use crate::rules::ultimate::{self, SmallStatus, UltimateBoard};
use crate::ui::tui::app::App;
use crate::ui::tui::layout::UltimateLayout;

/// Draws the Ultimate board and says where the text around it goes; `None` (with a message)
/// when the terminal is too small for it.
pub(super) fn draw(
    frame: &mut Frame,
    app: &App,
    board: &UltimateBoard,
    palette: Palette,
) -> Option<Placed> {
    let layout = UltimateLayout::new((frame.width(), frame.height()));
    if !layout.fits {
        too_small(frame, UltimateLayout::minimum());
        return None;
    }
    draw_ultimate(frame, &layout, app, board, palette);
    let round = app.session().round();
    Some(Placed {
        title: format!("Ultimate tic-tac-toe · round {round}"),
        first_row: layout.first_row,
        below: layout.top + layout.grid_height() + 1,
        keys: "board+cell",
    })
}

/// Large marks for a won small board, three rows high, for boards 11 and 17 (or more) columns
/// wide.
const BIG_X: [[&str; 3]; 2] = [
    ["  ╲     ╱  ", "     ╳     ", "  ╱     ╲  "],
    [
        "    ╲       ╱    ",
        "        ╳        ",
        "    ╱       ╲    ",
    ],
];
const BIG_O: [[&str; 3]; 2] = [
    ["  ╭─────╮  ", "  │     │  ", "  ╰─────╯  "],
    [
        "    ╭───────╮    ",
        "    │       │    ",
        "    ╰───────╯    ",
    ],
];

/// The Ultimate grid: heavy lines around the small boards, thin ones between cells, the boards
/// the side to move may play in marked, won boards as a large mark, and the cursor, the last
/// move, a hint or the review's move.
fn draw_ultimate(
    frame: &mut Frame,
    layout: &UltimateLayout,
    app: &App,
    board: &UltimateBoard,
    palette: Palette,
) {
    draw_ultimate_lines(frame, layout);
    let review = app.review().map(|(j, _, _)| j);
    let over = board.outcome() != ultimate::Outcome::InProgress;
    let human_turn = app.analysis().is_some()
        || review.is_none() && matches!(app.game().turn(), Some((_, p)) if p.is_human());
    let legal = board.legal_moves();
    let digits_board = app
        .selected()
        .or(board.forced_board())
        .filter(|_| human_turn);
    // The board the player must play in (or chose) gets an accent frame; when every open
    // board is playable, none does.
    if !over
        && review.is_none()
        && let Some(b) = app.selected().or(board.forced_board())
    {
        mark_playable(frame, layout, b, palette);
    }
    let w = layout.cell_w;
    for index in 0..81 {
        let mv = ultimate::Move::from_index(index).expect("81 moves");
        let (x, y) = layout.cell_origin(mv);
        let shown = Move::Ultimate(mv);
        let played = review.filter(|j| j.mv == shown);
        let last = app.shown_last_move() == Some(shown);
        if let Some(mark) = board.mark(mv).or(played.map(|j| j.mark)) {
            let mut style = Style::PLAIN.fg(palette.mark(mark));
            if last {
                style = style.reverse().bold();
            }
            if let Some(j) = played {
                style = Style::PLAIN.fg(palette.label(j.label)).reverse().bold();
            }
            draw_mark(frame, layout, (x, y), mark, style, last || played.is_some());
        } else if review.is_some_and(|j| j.best == Some(shown)) {
            let style = Style::PLAIN
                .fg(palette.label(Label::Best))
                .bold()
                .underline();
            frame.put(x + w / 2, y, '*', style);
        } else if let Some((value, style)) = hinted(app, shown, palette) {
            let label = hint_label(value, w);
            let len = label.chars().count() as u16;
            frame.text(x + (w.saturating_sub(len)) / 2, y, &label, style);
        } else if digits_board == Some(mv.board()) {
            let digit = char::from(b'0' + mv.cell());
            frame.put(x + w / 2, y, digit, Style::PLAIN.fg(palette.accent()));
        } else if !over && legal.contains(mv) && review.is_none() {
            frame.put(x + w / 2, y, '·', Style::PLAIN.fg(palette.accent()));
        }
        let cursor = app.cursor() == shown && !over && review.is_none();
        if cursor {
            let style = Style::PLAIN.fg(palette.accent()).bold();
            frame.put(x, y, '[', style);
            frame.put(x + w - 1, y, ']', style);
        }
    }
    draw_closed_boards(frame, layout, board, palette);
    draw_ultimate_labels(frame, layout);
}

/// A cell's mark, its middle row at (`x`, `y`): large in a tall cell, as on a classic board;
/// otherwise one character, widened by a space each side where it is `marked` (the last move,
/// the review's move).
fn draw_mark(
    frame: &mut Frame,
    layout: &UltimateLayout,
    (x, y): (u16, u16),
    mark: Mark,
    style: Style,
    marked: bool,
) {
    let w = layout.cell_w;
    if layout.cell_h >= 3 {
        let art = if mark == Mark::X { X_ART } else { O_ART };
        for (dy, row) in (0..).zip(art) {
            frame.text(x + (w - 3) / 2, y + dy - 1, row, style);
        }
    } else {
        frame.put(x + w / 2, y, mark.symbol(), style);
        if marked {
            frame.put(x + w / 2 - 1, y, ' ', style);
            frame.put(x + w / 2 + 1, y, ' ', style);
        }
    }
}

/// Closed boards over their cells: a large mark for a won board (reversed when part of the
/// winning line), dim cells for a full one.
fn draw_closed_boards(
    frame: &mut Frame,
    layout: &UltimateLayout,
    board: &UltimateBoard,
    palette: Palette,
) {
    let winning = match board.outcome() {
        ultimate::Outcome::Won { line, .. } => Some(line),
        _ => None,
    };
    for b in 1..=9u8 {
        let (x, y) = layout.board_origin(b);
        match board.small_board_status(b) {
            SmallStatus::Won(mark) => {
                let art = match (mark, layout.cell_w >= 5) {
                    (Mark::X, false) => BIG_X[0],
                    (Mark::X, true) => BIG_X[1],
                    (Mark::O, false) => BIG_O[0],
                    (Mark::O, true) => BIG_O[1],
                };
                let mut style = Style::PLAIN.fg(palette.mark(mark)).bold();
                if winning.is_some_and(|line| line.contains(b)) {
                    style = style.reverse();
                }
                // The board's cells give way to the mark, centred in it.
                let (bw, bh) = (layout.board_width(), layout.board_height());
                for dy in 0..bh {
                    frame.text(x, y + dy, &" ".repeat(usize::from(bw)), style);
                }
                let (art_w, top) = (art[0].chars().count() as u16, y + (bh - 3) / 2);
                for (dy, row) in (0..).zip(art) {
                    frame.text(x + (bw - art_w) / 2, top + dy, row, style);
                }
            }
            SmallStatus::Full => {
                for dy in 0..layout.board_height() {
                    for dx in 0..layout.board_width() {
                        let tile = frame.tile(x + dx, y + dy);
                        frame.put(x + dx, y + dy, tile.ch, tile.style.dim());
                    }
                }
            }
            SmallStatus::Open => {}
        }
    }
}

/// Column letters below the grid and row numbers left of it.
fn draw_ultimate_labels(frame: &mut Frame, layout: &UltimateLayout) {
    let w = layout.cell_w;
    let dim = Style::PLAIN.dim();
    for col in 0..9u8 {
        let mv = ultimate::Move::at(col, 0).expect("on the grid");
        let (x, _) = layout.cell_origin(mv);
        let letter = char::from(b'a' + col);
        frame.put(x + w / 2, layout.top + layout.grid_height(), letter, dim);
    }
    for row in 0..9u8 {
        let mv = ultimate::Move::at(0, row).expect("on the grid");
        let (_, y) = layout.cell_origin(mv);
        frame.put(
            layout.left.saturating_sub(2),
            y,
            char::from(b'1' + row),
            dim,
        );
    }
}

/// Accent-coloured corners on small board `b`'s frame: the player may play there.
fn mark_playable(frame: &mut Frame, layout: &UltimateLayout, b: u8, palette: Palette) {
    let (x, y) = layout.board_origin(b);
    let style = Style::PLAIN.fg(palette.accent()).bold();
    let (left, right) = (x - 1, x + layout.board_width());
    let bottom = y + layout.board_height();
    for (cx, cy) in [
        (left, y - 1),
        (right, y - 1),
        (left, bottom),
        (right, bottom),
    ] {
        frame.put(cx, cy, '◆', style);
    }
    for dy in 0..layout.board_height() {
        frame.put(left, y + dy, '┃', style);
        frame.put(right, y + dy, '┃', style);
    }
}

/// The heavy and thin lines of the Ultimate grid.
fn draw_ultimate_lines(frame: &mut Frame, layout: &UltimateLayout) {
    #[derive(Clone, Copy, PartialEq)]
    enum Line {
        None,
        Thin,
        Heavy,
    }
    let (gw, gh) = (layout.grid_width(), layout.grid_height());
    let board_w = layout.board_width() + 1;
    let column = |dx: u16| {
        if dx == 0 || dx == gw - 1 || dx.is_multiple_of(board_w) {
            Line::Heavy
        } else if (dx % board_w - 1) % (layout.cell_w + 1) == layout.cell_w {
            Line::Thin
        } else {
            Line::None
        }
    };
    let style = Style::PLAIN;
    for dy in 0..gh {
        let heavy_row = dy % (layout.board_height() + 1) == 0;
        for dx in 0..gw {
            let ch = match (heavy_row, column(dx)) {
                (false, Line::None) => continue,
                (false, Line::Thin) => '│',
                (false, Line::Heavy) => '┃',
                (true, Line::None | Line::Thin) => '━',
                (true, Line::Heavy) => {
                    junction((dy == 0, dy == gh - 1, dx == 0, dx == gw - 1), &HEAVY)
                }
            };
            frame.put(layout.left + dx, layout.top + dy, ch, style);
        }
    }
}

#[cfg(test)]
mod tests {
    use crossterm::style::Color;

    use crate::ai::player::Player;
    use crate::game::Session;
    use crate::rules::position::Variant;
    use crate::ui::tui::app::App;
    use crate::ui::tui::input::Action;
    use crate::ui::tui::view::render;

    #[test]
    fn on_a_large_screen_the_grid_grows_and_a_won_board_is_one_mark_centred_in_it() {
        let mut app = App::new(
            Session::new(Variant::Ultimate, Player::Human, Player::Human),
            (200, 60),
        );
        for d in [5, 5, 1, 5, 2, 5, 3] {
            app.update(Action::Digit(d));
        }
        let text = render(&app, None, false).to_text();
        let lines: Vec<&str> = text.lines().collect();
        let grid = lines.iter().filter(|l| l.contains('┃')).count();
        assert_eq!(grid, 27, "nine rows of cells, each 3 high:\n{text}");
        // Board 5's mark: one O, 3 rows high, in the middle rows of its 9; no small marks.
        let rows_with_o: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].contains("╭───────╮"))
            .collect();
        assert_eq!(rows_with_o.len(), 1, "{text}");
        let middle = lines[rows_with_o[0] + 1];
        assert!(
            middle.contains("│       │") && !middle.contains('X'),
            "{text}"
        );
        // X's two marks, drawn large in their cells (board 1 cell 5 and board 2 cell 5).
        assert_eq!(text.matches('╳').count(), 2, "{text}");
    }

    #[test]
    #[rustfmt::skip]
    fn a_won_small_board_shows_one_large_mark_and_the_board_to_play_is_framed() {
        let mut app = App::new(
            Session::new(Variant::Ultimate, Player::Human, Player::Human),
            (80, 24),
        );
        // 55, then O sent to board 5 takes 51, 52 and 53 (X answering 15 and 25 between):
        // O wins board 5 and sends X to board 3.
        for d in [5, 5, 1, 5, 2, 5, 3] {
            app.update(Action::Digit(d));
        }
        let frame = render(&app, None, true);
        let expected = [
            "",
            "                         Ultimate tic-tac-toe · round 1",
            "",
            "            ┏━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓",
            "          9 ┃     │     │     ┃     │     │     ┃     │     │     ┃",
            "          8 ┃     │     │     ┃     │     │     ┃     │     │     ┃",
            "          7 ┃     │     │     ┃     │     │     ┃     │     │     ┃",
            "            ┣━━━━━━━━━━━━━━━━━╋━━━━━━━━━━━━━━━━━╋━━━━━━━━━━━━━━━━━┫",
            "          6 ┃     │     │     ┃    ╭───────╮    ┃     │     │     ┃",
            "          5 ┃     │     │     ┃    │       │    ┃     │     │     ┃",
            "          4 ┃     │     │     ┃    ╰───────╯    ┃     │     │     ┃",
            "            ┣━━━━━━━━━━━━━━━━━╋━━━━━━━━━━━━━━━━━◆━━━━━━━━━━━━━━━━━◆",
            "          3 ┃     │     │     ┃     │     │     ┃  7  │  8  │  9  ┃",
            "          2 ┃     │  X  │     ┃     │  X  │     ┃  4  │[ 5 ]│  6  ┃",
            "          1 ┃     │     │     ┃     │     │     ┃  1  │  2  │  3  ┃",
            "            ┗━━━━━━━━━━━━━━━━━┻━━━━━━━━━━━━━━━━━◆━━━━━━━━━━━━━━━━━◆",
            "               a     b     c     d     e     f     g     h     i",
            "                          ▸ X: Player 1   O: Player 2",
            "            O (Player 2) played 53. X to move on board 3 (Player 1)",
            "                    Score: Player 1 0 · Player 2 0 · draws 0",
            "board+cell play · u undo · h h hint · n new round · t explore · ? keys · q quit",
            "",
            "",
            "",
        ];
        assert_eq!(frame.to_text(), expected.join("\n"));
        // The large O in O's colour, bold; the frame of board 3 and its digits in the accent.
        let o = frame.tile(35, 8);
        assert_eq!((o.ch, o.style.fg, o.style.bold), ('╭', Some(Color::Yellow), true));
        for (x, y) in [(48, 11), (66, 11), (48, 15), (66, 15), (48, 13), (51, 12)] {
            assert_eq!(frame.tile(x, y).style.fg, Some(Color::Magenta), "({x}, {y})");
        }
    }
}
