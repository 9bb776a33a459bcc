//! The screen as a pure function of the app state ([`render`]), and a painter that writes only
//! what changed since the last frame, queued and flushed once.

use std::io::{self, Write};
use std::time::Duration;

use crossterm::style::{Attribute, Color, Print, SetAttribute, SetForegroundColor};
use crossterm::{cursor, queue, terminal};

use crate::board::{Board, Cell, Mark, Outcome, Rules};
use crate::position::{self, Move, Position};
use crate::report::review::Label;
use crate::search::{Value, best_of};
use crate::tui::app::App;
use crate::tui::layout::{Layout, UltimateLayout};
use crate::ultimate::{self, SmallStatus, UltimateBoard};

/// How a character is drawn: a colour and the attributes a monochrome terminal has too.
#[allow(clippy::struct_excessive_bools)] // one flag per terminal attribute
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    pub fg: Option<Color>,
    pub bold: bool,
    pub dim: bool,
    pub reverse: bool,
    pub underline: bool,
}

impl Style {
    const PLAIN: Style = Style {
        fg: None,
        bold: false,
        dim: false,
        reverse: false,
        underline: false,
    };

    fn fg(self, color: Option<Color>) -> Style {
        Style { fg: color, ..self }
    }

    fn bold(self) -> Style {
        Style { bold: true, ..self }
    }

    fn dim(self) -> Style {
        Style { dim: true, ..self }
    }

    fn reverse(self) -> Style {
        Style {
            reverse: true,
            ..self
        }
    }

    fn underline(self) -> Style {
        Style {
            underline: true,
            ..self
        }
    }
}

/// One screen position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tile {
    pub ch: char,
    pub style: Style,
}

/// A whole screen of tiles.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    width: u16,
    height: u16,
    tiles: Vec<Tile>,
}

impl Frame {
    pub fn new(width: u16, height: u16) -> Frame {
        let blank = Tile {
            ch: ' ',
            style: Style::PLAIN,
        };
        Frame {
            width,
            height,
            tiles: vec![blank; usize::from(width) * usize::from(height)],
        }
    }

    pub fn width(&self) -> u16 {
        self.width
    }

    pub fn height(&self) -> u16 {
        self.height
    }

    /// The tile at column `x`, row `y`.
    ///
    /// # Panics
    /// If the position is off the frame.
    pub fn tile(&self, x: u16, y: u16) -> Tile {
        assert!(
            x < self.width && y < self.height,
            "({x}, {y}) is off the frame"
        );
        self.tiles[usize::from(y) * usize::from(self.width) + usize::from(x)]
    }

    fn put(&mut self, x: u16, y: u16, ch: char, style: Style) {
        // A control character would reach the terminal as a command.
        let ch = if ch.is_control() { '\u{fffd}' } else { ch };
        if x < self.width && y < self.height {
            self.tiles[usize::from(y) * usize::from(self.width) + usize::from(x)] =
                Tile { ch, style };
        }
    }

    /// Writes `text` from column `x`; what falls off the right edge is cut.
    fn text(&mut self, x: u16, y: u16, text: &str, style: Style) {
        for (i, ch) in text.chars().enumerate() {
            let Ok(i) = u16::try_from(i) else { break };
            self.put(x.saturating_add(i), y, ch, style);
        }
    }

    /// Writes `text` centred on row `y`, cut with `…` if wider than the frame.
    fn centred(&mut self, y: u16, text: &str, style: Style) {
        let len = text.chars().count();
        let width = usize::from(self.width);
        if len > width {
            let cut: String = text
                .chars()
                .take(width.saturating_sub(1))
                .chain(['…'])
                .collect();
            self.text(0, y, &cut, style);
        } else {
            self.text(((width - len) / 2) as u16, y, text, style);
        }
    }

    /// The characters only, one line per row, trailing spaces removed.
    pub fn to_text(&self) -> String {
        self.tiles
            .chunks(usize::from(self.width.max(1)))
            .map(|row| {
                row.iter()
                    .map(|t| t.ch)
                    .collect::<String>()
                    .trim_end()
                    .to_string()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Colours of the session, or none.
#[derive(Clone, Copy, Debug)]
struct Palette {
    color: bool,
}

impl Palette {
    fn mark(self, mark: Mark) -> Option<Color> {
        self.color.then_some(match mark {
            Mark::X => Color::Cyan,
            Mark::O => Color::Yellow,
        })
    }

    fn value(self, value: Value) -> Option<Color> {
        self.color.then_some(match value {
            Value::Win(_) => Color::Green,
            Value::Draw => Color::Yellow,
            Value::Loss(_) => Color::Red,
            Value::Estimate(_) | Value::WinRate(_) => Color::Blue,
        })
    }

    fn label(self, label: Label) -> Option<Color> {
        self.color.then_some(match label {
            Label::Best => Color::Green,
            Label::Inaccuracy => Color::Yellow,
            Label::Mistake => Color::Magenta,
            Label::Blunder => Color::Red,
            Label::Unproven => Color::Blue,
        })
    }

    fn accent(self) -> Option<Color> {
        self.color.then_some(Color::Magenta)
    }
}

const X_ART: [&str; 3] = ["╲ ╱", " ╳ ", "╱ ╲"];
const O_ART: [&str; 3] = ["╭─╮", "│ │", "╰─╯"];

/// The short label of a hint value: `W3`, `D`, `L4` when proven; a heuristic estimate is `~`
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
        Value::Estimate(e) if width >= 5 => format!("~{:+}", e.clamp(-99, 99)),
        Value::Estimate(e) => match e.signum() {
            1 => "~+",
            -1 => "~-",
            _ => "~=",
        }
        .to_string(),
    }
}

/// Frames of the spinner shown while the AI works.
const SPINNER: [char; 4] = ['◐', '◓', '◑', '◒'];

/// The message line: the app's message and, while the AI has been working on something for
/// `busy`, a spinner and, after the first second, the seconds.
fn message_line(app: &App, busy: Option<Duration>) -> String {
    let message = app.message();
    match busy {
        None => message.to_string(),
        Some(busy) => {
            let frame = SPINNER[(busy.as_millis() / 200) as usize % SPINNER.len()];
            if busy >= Duration::from_secs(1) {
                format!("{message} {frame} {:.1} s", busy.as_secs_f32())
            } else {
                format!("{message} {frame}")
            }
        }
    }
}

/// Writes the too-small message for a board that needs `(w, h)`.
fn too_small(frame: &mut Frame, (w, h): (u16, u16)) {
    let (width, height) = (frame.width(), frame.height());
    let long = format!("Terminal too small: please enlarge it to at least {w}×{h}");
    let short = format!("Need at least {w}×{h}");
    let text = [long, short]
        .into_iter()
        .find(|t| t.chars().count() <= usize::from(width));
    frame.centred(
        height / 2,
        &text.unwrap_or_else(|| format!("{w}×{h}")),
        Style::PLAIN,
    );
}

/// The whole screen for the app's state and terminal size; `busy` is how long the AI has
/// been working on the app's current job, if it has one.
pub fn render(app: &App, busy: Option<Duration>, color: bool) -> Frame {
    let (width, height) = app.size();
    let mut frame = Frame::new(width, height);
    let palette = Palette { color };
    let round = app.session().round();
    let shown = app.shown_position();
    let (mut title, first_row, below, keys) = match &shown {
        Position::Classic(board) => {
            let layout = Layout::new((width, height), board.size());
            if !layout.fits {
                too_small(&mut frame, Layout::minimum(board.size()));
                return frame;
            }
            draw_grid(&mut frame, &layout);
            for cell in board.cells() {
                draw_cell(&mut frame, &layout, app, board, cell, palette);
            }
            if layout.labels() {
                draw_labels(&mut frame, &layout, board);
            }
            let rules = board.rules();
            let title = if rules == Rules::CLASSIC {
                format!("Tic-tac-toe · round {round}")
            } else {
                format!("Tic-tac-toe · {rules} · round {round}")
            };
            let below = layout.top + layout.board_height() + 1 + u16::from(layout.labels());
            let keys = if board.size() == 3 {
                "1-9"
            } else {
                "arrows+Enter"
            };
            (title, layout.first_row, below, keys)
        }
        Position::Ultimate(board) => {
            let layout = UltimateLayout::new((width, height));
            if !layout.fits {
                too_small(&mut frame, UltimateLayout::minimum());
                return frame;
            }
            draw_ultimate(&mut frame, &layout, app, board, palette);
            let title = format!("Ultimate tic-tac-toe · round {round}");
            let below = layout.top + layout.grid_height() + 1;
            (title, layout.first_row, below, "board+cell")
        }
    };
    if app.review().is_some() {
        title.push_str(" · review");
    }
    frame.centred(first_row, &title, Style::PLAIN.bold());
    draw_status(&mut frame, below, app, palette);
    frame.centred(below + 1, &message_line(app, busy), Style::PLAIN.bold());
    frame.centred(below + 2, &app.session().score_line(), Style::PLAIN);
    let humans = app.session().has_human();
    let help = if app.is_network() && app.review().is_none() {
        if app.game().is_over() {
            "n rematch · r review · ? keys · q quit".to_string()
        } else {
            format!("{keys} play · h hint · ? keys · q quit")
        }
    } else if app.review().is_some() {
        "← → step · 7 first · 1 last · r or Esc leave · q quit".to_string()
    } else if app.game().is_over() && humans {
        "n new round · r review · u undo · ? keys · q quit".to_string()
    } else if app.game().is_over() {
        "n new round · r review · ? keys · q quit".to_string()
    } else if humans {
        format!("{keys} play · u undo · h hint · n new round · ? keys · q quit")
    } else {
        "Space pause · h hint · n new round · ? keys · q quit".to_string()
    };
    frame.centred(below + 3, &help, Style::PLAIN.dim());
    if app.help_open() {
        let lines: &[&str] = if shown.ultimate().is_some() {
            &ULTIMATE_HELP
        } else {
            &HELP
        };
        draw_help(&mut frame, lines);
    }
    frame
}

/// Large marks for a won small board, three rows high, for boards 11 and 17 columns wide.
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
    let human_turn = review.is_none() && matches!(app.game().turn(), Some((_, p)) if p.is_human());
    let legal = board.legal_moves();
    let digits_board = app
        .selected()
        .or(board.forced_board())
        .filter(|_| human_turn);
    // The board the player must play in (or chose) gets an accent frame; when every open
    // board is playable, none does.
    if !over && review.is_none() {
        if let Some(b) = app.selected().or(board.forced_board()) {
            mark_playable(frame, layout, b, palette);
        }
    }
    let w = layout.cell_w;
    for index in 0..81 {
        let mv = ultimate::Move::from_index(index).expect("81 moves");
        let (x, y) = layout.cell_origin(mv);
        let shown = Move::Ultimate(mv);
        let played = review.filter(|j| j.mv == shown);
        let last = review.is_none() && app.game().last_move() == Some(shown);
        if let Some(mark) = board.mark(mv).or(played.map(|j| j.mark)) {
            let mut style = Style::PLAIN.fg(palette.mark(mark));
            if last {
                style = style.reverse().bold();
            }
            if let Some(j) = played {
                style = Style::PLAIN.fg(palette.label(j.label)).reverse().bold();
            }
            frame.put(x + w / 2, y, mark.symbol(), style);
            if last || played.is_some() {
                frame.put(x + w / 2 - 1, y, ' ', style);
                frame.put(x + w / 2 + 1, y, ' ', style);
            }
        } else if review.is_some_and(|j| j.best == Some(shown)) {
            let style = Style::PLAIN
                .fg(palette.label(Label::Best))
                .bold()
                .underline();
            frame.put(x + w / 2, y, '*', style);
        } else if let Some(&(_, value)) =
            app.hint().and_then(|h| h.iter().find(|(m, _)| *m == shown))
        {
            let label = hint_label(value, w);
            let best = best_of(app.hint().unwrap_or_default())
                .iter()
                .any(|&(m, _)| m == shown);
            let mut style = Style::PLAIN.fg(palette.value(value));
            if best {
                style = style.bold().underline();
            }
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
                for (dy, row) in art.iter().enumerate() {
                    frame.text(x, y + dy as u16, row, style);
                }
            }
            SmallStatus::Full => {
                for dy in 0..3 {
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
    for (cx, cy) in [(left, y - 1), (right, y - 1), (left, y + 3), (right, y + 3)] {
        frame.put(cx, cy, '●', style);
    }
    for dy in 0..3 {
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
        if dx == 0 || dx == gw - 1 || dx % board_w == 0 {
            Line::Heavy
        } else if (dx % board_w - 1) % (layout.cell_w + 1) == layout.cell_w {
            Line::Thin
        } else {
            Line::None
        }
    };
    let style = Style::PLAIN;
    for dy in 0..gh {
        let heavy_row = dy % 4 == 0;
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

/// Where lines meet: the four corners, the four edges' tees and the cross, in that order.
const LIGHT: [char; 9] = ['┌', '┐', '└', '┘', '┬', '┴', '├', '┤', '┼'];
const HEAVY: [char; 9] = ['┏', '┓', '┗', '┛', '┳', '┻', '┣', '┫', '╋'];

/// The character where lines meet, from whether it is on the (top, bottom, left, right) edge.
fn junction(edges: (bool, bool, bool, bool), set: &[char; 9]) -> char {
    set[match edges {
        (true, _, true, _) => 0,
        (true, _, _, true) => 1,
        (_, true, true, _) => 2,
        (_, true, _, true) => 3,
        (true, ..) => 4,
        (_, true, ..) => 5,
        (_, _, true, _) => 6,
        (_, _, _, true) => 7,
        _ => 8,
    }]
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

fn draw_cell(
    frame: &mut Frame,
    layout: &Layout,
    app: &App,
    board: &Board,
    cell: Cell,
    palette: Palette,
) {
    let (x, y) = layout.cell_origin(cell);
    let (w, h) = (layout.cell_w, layout.cell_h);
    let mid_y = y + h / 2;
    let big = h >= 3;
    let winning = match board.outcome() {
        Outcome::Won { line, .. } => line.contains(cell),
        _ => false,
    };
    let review = app.review().map(|(j, _, _)| j);
    let shown = Move::Classic(cell);
    let last = review.is_none() && app.game().last_move() == Some(shown);
    let cursor = app.cursor() == shown && !app.game().is_over();
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
        if big {
            let art = if mark == Mark::X { X_ART } else { O_ART };
            if winning {
                // Fill the interior so the whole line stands out.
                for dy in 0..h {
                    frame.text(x, y + dy, &" ".repeat(usize::from(w)), style);
                }
            }
            for (dy, row) in art.iter().enumerate() {
                frame.text(x + (w - 3) / 2, y + dy as u16, row, style);
            }
        } else {
            frame.put(x + w / 2, mid_y, mark.symbol(), style);
            if winning {
                frame.put(x + w / 2 - 1, mid_y, ' ', style);
                frame.put(x + w / 2 + 1, mid_y, ' ', style);
            }
        }
        if last && big && !winning {
            frame.put(x, y, '•', Style::PLAIN.fg(palette.accent()).bold());
        }
    } else if review.is_some_and(|j| j.best == Some(shown)) {
        let label = if w >= 5 { "best" } else { "*" };
        let style = Style::PLAIN
            .fg(palette.label(Label::Best))
            .bold()
            .underline();
        let len = label.chars().count() as u16;
        frame.text(x + (w.saturating_sub(len)) / 2, mid_y, label, style);
    } else if let Some(&(_, value)) = app.hint().and_then(|h| h.iter().find(|(c, _)| *c == shown)) {
        let label = hint_label(value, w);
        let best = best_of(app.hint().unwrap_or_default())
            .iter()
            .any(|&(c, _)| c == shown);
        let mut style = Style::PLAIN.fg(palette.value(value));
        if !value.is_proven() {
            style = style.dim();
        }
        if best {
            style = style.bold().underline();
        }
        let len = label.chars().count() as u16;
        frame.text(x + (w.saturating_sub(len)) / 2, mid_y, &label, style);
    } else if let Some(d) = cell.numpad() {
        frame.put(x + w / 2, mid_y, char::from(b'0' + d), Style::PLAIN.dim());
    } else if big {
        frame.put(x + w / 2, mid_y, '·', Style::PLAIN.dim());
    }
    if cursor {
        let style = Style::PLAIN.fg(palette.accent()).bold();
        if big {
            frame.put(x, mid_y, '[', style);
            frame.put(x + w - 1, mid_y, ']', style);
        } else {
            let centre = frame.tile(x + w / 2, mid_y);
            frame.put(x, mid_y, '[', style);
            frame.put(x + w - 1, mid_y, ']', style);
            frame.put(x + w / 2, mid_y, centre.ch, centre.style);
        }
    }
}

fn draw_status(frame: &mut Frame, y: u16, app: &App, palette: Palette) {
    let turn = app.game().turn().map(|(m, _)| m);
    let part = |mark: Mark| {
        let marker = if turn == Some(mark) { "▸ " } else { "" };
        format!("{marker}{mark}: {}", app.session().name_of(mark))
    };
    let (x_part, o_part) = (part(Mark::X), part(Mark::O));
    let state = match app.game().outcome() {
        _ if app.paused() => "  (paused)".to_string(),
        position::Outcome::Won(winner) => format!("   {winner} wins"),
        position::Outcome::Draw => "   draw".to_string(),
        position::Outcome::InProgress => String::new(),
    };
    let line = format!("{x_part}   {o_part}{state}");
    frame.centred(y, &line, Style::PLAIN);
    // Colour the two marks' names where they landed.
    let start = (frame.width().saturating_sub(line.chars().count() as u16)) / 2;
    let o_start = start + x_part.chars().count() as u16 + 3;
    let style_x = Style::PLAIN.fg(palette.mark(Mark::X)).bold();
    let style_o = Style::PLAIN.fg(palette.mark(Mark::O)).bold();
    if line.chars().count() <= usize::from(frame.width()) {
        frame.text(start, y, &x_part, style_x);
        frame.text(o_start, y, &o_part, style_o);
    }
}

const HELP: [&str; 13] = [
    "1-9          play that cell: 7 8 9 is the top row",
    "keypad       Home PgUp End PgDn Begin play 7 9 1 3 5",
    "arrows       move the cursor",
    "Enter Space  play the cursor's cell",
    "mouse        click a cell to play it",
    "u            undo your last move",
    "h            hint: W win, D draw, L loss (in moves)",
    "n            new round (the other side starts)",
    "r            review the finished game, move by move",
    "Space        pause or resume AI against AI",
    "?            this help",
    "q Esc Ctrl-C quit",
    "         any key closes this help",
];

/// The keys of Ultimate tic-tac-toe.
const ULTIMATE_HELP: [&str; 15] = [
    "two digits   board, then cell: both laid out as the",
    "             keypad (7 8 9 is the top row); 53 plays",
    "             cell 3 of board 5",
    "one digit    when you are sent to a board: the cell",
    "Esc Bksp     choose another board after a first digit",
    "arrows       move the cursor over all 81 cells",
    "Enter Space  play the cursor's cell; mouse: click one",
    "u            undo your last move",
    "h            hint: win rates, or W win D draw L loss",
    "n            new round (the other side starts)",
    "r            review the finished game, move by move",
    "Space        pause or resume AI against AI",
    "?            this help",
    "q Esc Ctrl-C quit",
    "         any key closes this help",
];

fn draw_help(frame: &mut Frame, help: &[&str]) {
    let inner = help.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16 + 2;
    let (w, h) = (inner + 2, help.len() as u16 + 2);
    let left = frame.width().saturating_sub(w) / 2;
    let top = frame.height().saturating_sub(h) / 2;
    let style = Style::PLAIN.bold();
    for dy in 0..h {
        for dx in 0..w {
            let ch = match (dy, dx) {
                (0, 0) => '┌',
                (0, x) if x == w - 1 => '┐',
                (y, 0) if y == h - 1 => '└',
                (y, x) if y == h - 1 && x == w - 1 => '┘',
                (0, _) => '─',
                (y, _) if y == h - 1 => '─',
                (_, 0) => '│',
                (_, x) if x == w - 1 => '│',
                _ => ' ',
            };
            frame.put(left + dx, top + dy, ch, style);
        }
    }
    frame.text(left + 2, top, " Keys ", style);
    for (i, line) in help.iter().enumerate() {
        frame.text(left + 2, top + 1 + i as u16, line, Style::PLAIN);
    }
}

/// Writes frames to a terminal, sending only the tiles that changed since the last one.
#[derive(Default)]
pub struct Painter {
    last: Option<Frame>,
}

impl Painter {
    /// Forgets the screen, so the next frame is drawn whole (after a resize).
    pub fn invalidate(&mut self) {
        self.last = None;
    }

    /// Queues the difference between the last frame and `frame` on `out` and flushes once.
    pub fn paint(&mut self, out: &mut impl Write, frame: Frame) -> io::Result<()> {
        let full = self
            .last
            .as_ref()
            .is_none_or(|l| l.width != frame.width || l.height != frame.height);
        if full {
            queue!(
                out,
                SetAttribute(Attribute::Reset),
                terminal::Clear(terminal::ClearType::All)
            )?;
        }
        let mut current = Style::PLAIN;
        queue!(out, SetAttribute(Attribute::Reset))?;
        for y in 0..frame.height {
            let start = usize::from(y) * usize::from(frame.width);
            let row = &frame.tiles[start..start + usize::from(frame.width)];
            let span = match (&self.last, full) {
                (Some(last), false) => {
                    let old = &last.tiles[start..start + usize::from(frame.width)];
                    let first = row.iter().zip(old).position(|(a, b)| a != b);
                    let end = row.iter().zip(old).rposition(|(a, b)| a != b);
                    first.zip(end)
                }
                _ => row
                    .iter()
                    .position(|t| {
                        *t != Tile {
                            ch: ' ',
                            style: Style::PLAIN,
                        }
                    })
                    .zip(row.iter().rposition(|t| {
                        *t != Tile {
                            ch: ' ',
                            style: Style::PLAIN,
                        }
                    })),
            };
            let Some((first, end)) = span else { continue };
            queue!(out, cursor::MoveTo(first as u16, y))?;
            for tile in &row[first..=end] {
                if tile.style != current {
                    apply(out, tile.style)?;
                    current = tile.style;
                }
                queue!(out, Print(tile.ch))?;
            }
        }
        if current != Style::PLAIN {
            queue!(out, SetAttribute(Attribute::Reset))?;
        }
        out.flush()?;
        self.last = Some(frame);
        Ok(())
    }
}

fn apply(out: &mut impl Write, style: Style) -> io::Result<()> {
    queue!(out, SetAttribute(Attribute::Reset))?;
    if let Some(color) = style.fg {
        queue!(out, SetForegroundColor(color))?;
    }
    for (on, attribute) in [
        (style.bold, Attribute::Bold),
        (style.dim, Attribute::Dim),
        (style.reverse, Attribute::Reverse),
        (style.underline, Attribute::Underlined),
    ] {
        if on {
            queue!(out, SetAttribute(attribute))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Session;
    use crate::player::Player;
    use crate::search::Searcher;
    use crate::tui::app::Event;
    use crate::tui::input::Action;
    use crate::tui::worker::Reply;

    fn app(moves: &[u8]) -> App {
        let session = Session::new(Rules::CLASSIC, Player::Human, Player::Human);
        let mut app = App::new(session, (60, 22));
        for &d in moves {
            app.update(Action::Digit(d));
        }
        app
    }

    #[test]
    #[rustfmt::skip]
    fn first_frame_shows_the_numbered_board() {
        let frame = render(&app(&[]), None, true);
        let expected = [
            "",
            "                   Tic-tac-toe · round 1",
            "",
            "                 ┌───────┬───────┬───────┐",
            "                 │       │       │       │",
            "                 │   7   │   8   │   9   │",
            "                 │       │       │       │",
            "                 ├───────┼───────┼───────┤",
            "                 │       │       │       │",
            "                 │   4   │[  5  ]│   6   │",
            "                 │       │       │       │",
            "                 ├───────┼───────┼───────┤",
            "                 │       │       │       │",
            "                 │   1   │   2   │   3   │",
            "                 │       │       │       │",
            "                 └───────┴───────┴───────┘",
            "",
            "                ▸ X: Player 1   O: Player 2",
            "                    X to move (Player 1)",
            "          Score: Player 1 0 · Player 2 0 · draws 0",
            " 1-9 play · u undo · h hint · n new round · ? keys · q quit",
            "",
        ];
        assert_eq!(frame.to_text(), expected.join("\n"));
    }

    #[test]
    #[rustfmt::skip]
    fn marks_are_drawn_large_and_the_last_move_is_marked() {
        let frame = render(&app(&[7, 5]), None, true);
        let text = frame.to_text();
        let rows: Vec<&str> = text.lines().skip(3).take(9).collect();
        assert_eq!(rows, [
            "                 ┌───────┬───────┬───────┐",
            "                 │  ╲ ╱  │       │       │",
            "                 │   ╳   │   8   │   9   │",
            "                 │  ╱ ╲  │       │       │",
            "                 ├───────┼───────┼───────┤",
            "                 │       │• ╭─╮  │       │",
            "                 │   4   │[ │ │ ]│   6   │",
            "                 │       │  ╰─╯  │       │",
            "                 ├───────┼───────┼───────┤",
        ]);
    }

    #[test]
    fn the_winning_line_is_highlighted() {
        let frame = render(&app(&[7, 1, 8, 2, 9]), None, false);
        let layout = Layout::new((60, 22), 3);
        let board = *app(&[]).game().position().classic().unwrap();
        for (d, highlighted) in [(7, true), (8, true), (9, true), (1, false), (5, false)] {
            let (x, y) = layout.cell_origin(board.numpad(d).unwrap());
            let tile = frame.tile(x + 3, y + 1);
            assert_eq!(tile.style.reverse, highlighted, "cell {d}: {tile:?}");
        }
        assert!(frame.to_text().contains("O: Player 2"));
        assert!(frame.to_text().contains("X (Player 1) wins."));
    }

    #[test]
    fn monochrome_uses_no_colour_but_keeps_the_marking() {
        let frame = render(&app(&[7, 5]), None, false);
        assert!(frame.tiles.iter().all(|t| t.style.fg.is_none()));
        let layout = Layout::new((60, 22), 3);
        let five = app(&[])
            .game()
            .position()
            .classic()
            .unwrap()
            .numpad(5)
            .unwrap();
        let (x, y) = layout.cell_origin(five);
        assert_eq!(frame.tile(x, y).ch, '•');
        assert!(frame.tile(x + 2, y + 1).style.bold, "the last mark is bold");
    }

    #[test]
    fn hint_shows_values_and_best_moves_stand_out() {
        // After X takes the centre, O draws only in a corner; an edge loses.
        let mut a = app(&[5]);
        a.update(Action::Hint);
        let board = *a.game().position().classic().unwrap();
        let analysis = Searcher::new().analyze(&board);
        let analysis = analysis
            .into_iter()
            .map(|(c, v)| (Move::Classic(c), v))
            .collect();
        a.handle(Event::Answer(Reply::Hint(analysis)));
        let frame = render(&a, None, true);
        let layout = Layout::new((60, 22), 3);
        let label = |d: u8| {
            let (x, y) = layout.cell_origin(board.numpad(d).unwrap());
            let s: String = (0..7).map(|dx| frame.tile(x + dx, y + 1).ch).collect();
            let first = (0..7).find(|&dx| frame.tile(x + dx, y + 1).ch.is_alphanumeric());
            let style = frame.tile(x + first.expect("a label"), y + 1).style;
            (s.trim().to_string(), style)
        };
        for corner in [7, 9, 1, 3] {
            let (text, style) = label(corner);
            assert_eq!(text, "D");
            assert!(style.bold && style.underline, "best move stands out");
            assert_eq!(style.fg, Some(Color::Yellow));
        }
        for edge in [8, 4, 6, 2] {
            let (text, style) = label(edge);
            assert!(text.starts_with('L'), "{edge}: {text}");
            assert!(!style.bold);
            assert_eq!(style.fg, Some(Color::Red));
        }
    }

    #[test]
    fn a_small_terminal_asks_for_more_room() {
        let mut a = app(&[]);
        a.handle(Event::Resize {
            columns: 20,
            rows: 8,
        });
        let text = render(&a, None, true).to_text();
        let (w, h) = Layout::minimum(3);
        assert_eq!(text.trim(), format!("Need at least {w}×{h}"));
        a.handle(Event::Resize {
            columns: 80,
            rows: 8,
        });
        let text = render(&a, None, true).to_text();
        assert_eq!(
            text.split('\n').count(),
            8,
            "one line, on a full-height screen"
        );
        assert_eq!(
            text.trim(),
            format!("Terminal too small: please enlarge it to at least {w}×{h}")
        );
        a.handle(Event::Resize {
            columns: 40,
            rows: 14,
        });
        assert!(
            render(&a, None, true).to_text().contains("[ 5 ]"),
            "compact board"
        );
    }

    #[test]
    fn painter_sends_only_what_changed() {
        let mut painter = Painter::default();
        let mut out = Vec::new();
        painter
            .paint(&mut out, render(&app(&[]), None, true))
            .unwrap();
        let first = out.len();
        out.clear();
        painter
            .paint(&mut out, render(&app(&[]), None, true))
            .unwrap();
        let unchanged = out.len();
        out.clear();
        painter
            .paint(&mut out, render(&app(&[5]), None, true))
            .unwrap();
        assert!(
            unchanged < 16,
            "an unchanged frame sends almost nothing: {unchanged}"
        );
        assert!(
            out.len() < first / 2,
            "a move sends less than half a frame: {} vs {first}",
            out.len()
        );
    }

    #[test]
    fn the_thinking_line_shows_a_spinner_and_the_seconds() {
        let a = app(&[]);
        let line = |ms| message_line(&a, Some(Duration::from_millis(ms)));
        assert_eq!(line(0), "X to move (Player 1) ◐");
        assert_eq!(line(250), "X to move (Player 1) ◓");
        assert_eq!(line(2500), "X to move (Player 1) ◐ 2.5 s");
        assert_eq!(message_line(&a, None), "X to move (Player 1)");
    }
}
