//! The search explorer's screen, drawn once for every kind of search ([`Shown`]): the heading,
//! the board of the node looked at beside its moves (or, in step mode, the kind's own replay),
//! what the kind shows below (the textbook searches' totals side by side), the message line
//! and the keys. The textbook searches' parts are in `textbook.rs`, the Monte Carlo tree's in
//! `mcts.rs`.

mod mcts;
mod textbook;

use std::time::Duration;

use super::chrome::{draw_help, message_line};
use super::frame::too_small;
use super::frame::{Frame, Palette, Style};
use crate::rules::catalogue::Shaped;
use crate::rules::classic::{Cell, Squares};
use crate::rules::position::{Move, Position};
use crate::ui::tui::app::{App, Explore, Kind, Replay, SPEEDS, TreeNode};
use crate::ui::tui::keymap;

/// The board's left edge.
const LEFT: u16 = 2;

/// The first row below the heading.
const TOP: u16 = 4;

/// The help's last line, and the small box's.
const HELP_END: &str = "         any key closes this help";
const SHORT_END: &str = "  any key closes this";

/// The width of the keys' column in the small box.
const SHORT_KEYS: usize = 11;

/// The keys line of step mode, the same in both explorers.
const STEP_KEY_LINE: &str =
    "Space run/pause · → ← step · 1 end · + - speed · s leave · ? keys · q quit";

/// How a kind of search is drawn: the parts of the explorer's screen that differ.
pub(super) trait Shown: Kind {
    /// The least screen it draws on.
    const MIN: (u16, u16);
    /// The row, below [`TOP`], the list of moves starts on.
    const LIST_AT: u16;
    /// The rows left under the list of moves.
    const BELOW: u16;
    /// The list's heading.
    const LIST_HEADING: &'static str;

    /// The keys line while browsing the tree.
    fn keys_line(explore: &Explore<Self>) -> &'static str;
    /// The heading's rows: the title, the search's line, and a note in dim.
    fn heading(explore: &Explore<Self>) -> (String, String, Option<String>);
    /// The left edge of the text right of a board `board_width` wide.
    fn text_x(board_width: u16) -> u16;
    /// The lines about the node looked at (at the moves `at`, in `position`), the first in
    /// bold.
    fn node_lines(
        explore: &Explore<Self>,
        at: &str,
        position: &Position,
        node: Option<&Self::Node>,
    ) -> Vec<(String, Style)>;
    /// One move of the list, `child` of `node`, and how it stands out.
    fn child_row(node: &Self::Node, child: &Self::Node, chosen: bool) -> (String, Style);
    /// Why `node` has no moves listed; `over`: the game is over there.
    fn empty_note(node: &Self::Node, over: bool) -> String;
    /// Step mode's screen, right of the board and on it.
    fn step_view(frame: &mut Frame, explore: &Explore<Self>, palette: Palette);
    /// What goes under the tree, if anything.
    fn below(_frame: &mut Frame, _explore: &Explore<Self>) {}
}

/// Draws the explorer on `explore` over the whole frame, with its help when open.
pub(super) fn draw<K: Shown>(
    frame: &mut Frame,
    app: &App,
    explore: &Explore<K>,
    palette: Palette,
    busy: Option<Duration>,
) {
    let (min, height) = (K::MIN, frame.height());
    if frame.width() < min.0 || height < min.1 {
        too_small(frame, min);
        return;
    }
    let (title, line, note) = K::heading(explore);
    frame.centred(0, &title, Style::PLAIN.bold());
    frame.centred(1, &line, Style::PLAIN);
    if let Some(note) = note {
        frame.centred(2, &note, Style::PLAIN.dim());
    }
    match explore.stepping() {
        Some(_) => K::step_view(frame, explore, palette),
        None => browse_view(frame, explore, palette),
    }
    K::below(frame, explore);
    frame.centred(height - 2, &message_line(app, busy), Style::PLAIN.bold());
    let keys = match explore.stepping() {
        Some(_) => STEP_KEY_LINE,
        None => K::keys_line(explore),
    };
    frame.centred(height - 1, keys, Style::PLAIN.dim());
    if app.help_open() {
        let mut help = keymap::lines(explore.help_map());
        help.push(HELP_END.into());
        let mut short = keymap::short_lines(explore.help_map(), SHORT_KEYS);
        short.push(SHORT_END.into());
        draw_help(frame, &help, &short);
    }
}

/// The node looked at: its board, the selected move marked, what the kind says of the node,
/// then its moves.
fn browse_view<K: Shown>(frame: &mut Frame, explore: &Explore<K>, palette: Palette) {
    let moves = explore.moves();
    let position = explore.position_after(&moves);
    let node = explore.node();
    let selected = node
        .and_then(|n| n.children().get(explore.selected()))
        .and_then(TreeNode::mv)
        .and_then(|m| position.parse_move(m).ok());
    let marked: Vec<Move> = selected.into_iter().collect();
    let x = K::text_x(draw_position(frame, &position, &marked, palette));
    let at = if moves.is_empty() {
        "the start".to_string()
    } else {
        moves.join(" ")
    };
    for (y, (line, style)) in (TOP..).zip(K::node_lines(explore, &at, &position, node)) {
        frame.text(x, y, &line, style);
    }
    let Some(node) = node else {
        return;
    };
    let header = TOP + K::LIST_AT;
    if node.children().is_empty() {
        let why = K::empty_note(node, position.is_over());
        frame.text(x, header, &why, Style::PLAIN.dim());
        return;
    }
    let rows = usize::from(frame.height() - K::BELOW - header);
    frame.text(x, header, K::LIST_HEADING, Style::PLAIN.dim());
    let (children, selected) = (node.children(), explore.selected());
    let first = selected.saturating_sub(rows.saturating_sub(1));
    for (y, (i, child)) in (header + 1..).zip(children.iter().enumerate().skip(first).take(rows)) {
        let chosen = i == selected;
        let (line, style) = K::child_row(node, child, chosen);
        let style = if chosen { style.reverse() } else { style };
        frame.text(x, y, &line, style);
    }
}

/// `running, 10 a tick` or `paused`: how a replay stands, for step mode's heading.
fn replay_state(replay: &Replay) -> String {
    if replay.running {
        format!("running, {} a tick", SPEEDS[replay.speed])
    } else {
        "paused".to_string()
    }
}

/// Draws `position` at the left by its rule set's drawing, the cells of `marked` reversed (on
/// a square board, the last of them); returns its width.
fn draw_position(frame: &mut Frame, position: &Position, marked: &[Move], palette: Palette) -> u16 {
    let last_cell = || {
        marked.iter().rev().find_map(|m| match m {
            Move::Cell(cell) => Some(*cell),
            _ => None,
        })
    };
    match position.shaped() {
        Shaped::Boards(board) => {
            let moves: Vec<_> = marked
                .iter()
                .filter_map(|m| match m {
                    Move::Ultimate(mv) => Some(*mv),
                    _ => None,
                })
                .collect();
            mcts::draw_ultimate(frame, board, &moves, palette)
        }
        Shaped::Cells(board) => draw_squares(frame, board, last_cell(), palette),
        Shaped::Points(board) => draw_squares(frame, board, last_cell(), palette),
        Shaped::Columns(board) => {
            let text = crate::report::board::connect_four_grid(board);
            for (y, line) in text.lines().enumerate() {
                frame.text(0, y as u16, line, Style::PLAIN);
            }
            text.lines()
                .map(|l| l.chars().count() as u16)
                .max()
                .unwrap_or(0)
        }
    }
}

/// Draws a square `board` at the left, `mark` (a cell to point at) reversed; returns its
/// width.
fn draw_squares(
    frame: &mut Frame,
    board: &impl Squares,
    mark: Option<Cell>,
    palette: Palette,
) -> u16 {
    let n = board.side();
    let three = n == 3;
    let step = if three { 4 } else { 2 };
    for row in 0..n {
        let y = TOP + u16::from(row) * if three { 2 } else { 1 };
        for col in 0..n {
            let cell = board.square(n - 1 - row, col).expect("on the board");
            let x = LEFT + u16::from(col) * step;
            let (ch, mut style) = match board.mark_on(cell) {
                Some(m) => (m.symbol(), Style::PLAIN.bold().fg(palette.mark(m))),
                None if three => (digit(cell), Style::PLAIN.dim()),
                None => ('·', Style::PLAIN.dim()),
            };
            if Some(cell) == mark {
                style = style.reverse();
            }
            let pad = u16::from(three);
            frame.put(x + pad, y, ch, style);
            if three && col < 2 {
                frame.put(x + 3, y, '│', Style::PLAIN);
            }
        }
        if three && row < 2 {
            frame.text(LEFT, y + 1, "───┼───┼───", Style::PLAIN);
        }
    }
    if three { 11 } else { u16::from(n) * 2 - 1 }
}

fn digit(cell: Cell) -> char {
    cell.numpad().map_or('·', |d| char::from(b'0' + d))
}
