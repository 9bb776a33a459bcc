//! Everything around the board: the status and message lines, the line of keys, the help
//! overlay and the message for a terminal too small for the board.

use std::time::Duration;

use super::frame::{Frame, Palette, Style};
use crate::board::Mark;
use crate::position;
use crate::tui::app::App;

/// Frames of the spinner shown while the AI works.
const SPINNER: [char; 4] = ['◐', '◓', '◑', '◒'];

/// The message line: the app's message and, while the AI has been working on something for
/// `busy`, a spinner and, after the first second, the seconds.
pub(super) fn message_line(app: &App, busy: Option<Duration>) -> String {
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
pub(super) fn too_small(frame: &mut Frame, (w, h): (u16, u16)) {
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

/// The line of keys under the board, for what can be done now; `keys` says how moves are
/// typed (`1-9`).
pub(super) fn key_line(app: &App, keys: &str) -> String {
    let humans = app.session().has_human();
    if app.question().is_some() {
        "y leave · any other key keeps playing".to_string()
    } else if app.is_network() && app.review().is_none() {
        if app.game().is_over() {
            "n rematch · r review · ? keys · q quit".to_string()
        } else {
            format!("{keys} play · h hint · ? keys · q quit")
        }
    } else if app.review().is_some() {
        "← → step · 7 first · 1 last · r or Esc leave · q quit".to_string()
    } else if app.game().is_over() {
        "n new round · r review · ? keys · q quit".to_string()
    } else if humans {
        format!("{keys} play · u undo · h hint · n new round · ? keys · q quit")
    } else {
        "Space pause · h hint · n new round · ? keys · q quit".to_string()
    }
}

/// The players' line: whose turn it is, each mark's player in its colour (an AI with its
/// measured rating), and the result.
pub(super) fn draw_status(frame: &mut Frame, y: u16, app: &App, palette: Palette) {
    let turn = app.game().turn().map(|(m, _)| m);
    let part = |mark: Mark| {
        let marker = if turn == Some(mark) { "▸ " } else { "" };
        let variant = app.game().variant();
        let rating = (app.game().player(mark).level())
            .and_then(|level| crate::levels::rating(variant, level))
            .map_or_else(String::new, |r| format!(" (≈ {r})"));
        format!("{marker}{mark}: {}{rating}", app.session().name_of(mark))
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

pub(super) const HELP: [&str; 14] = [
    "1-9          play that cell: 7 8 9 is the top row",
    "keypad       Home PgUp End PgDn Begin play 7 9 1 3 5",
    "arrows       move the cursor; c3 typed plays c3",
    "Enter Space  play the cursor's cell",
    "mouse        click a cell to play it",
    "u            undo your last move",
    "h            hint: W win, D draw, L loss (in moves)",
    "n            new round (the other side starts)",
    "l            the AI's level for the next round",
    "r            review the finished game, move by move",
    "Space        pause or resume AI against AI",
    "?            this help",
    "q Esc Ctrl-C quit (mid-game q and Esc ask first)",
    "         any key closes this help",
];

/// The keys of Ultimate tic-tac-toe.
pub(super) const ULTIMATE_HELP: [&str; 16] = [
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
    "l            the AI's level for the next round",
    "r            review the finished game, move by move",
    "Space        pause or resume AI against AI",
    "?            this help",
    "q Esc Ctrl-C quit (mid-game q and Esc ask first)",
    "         any key closes this help",
];

pub(super) fn draw_help(frame: &mut Frame, help: &[&str]) {
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
