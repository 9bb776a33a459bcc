//! The start screen drawn from the menu's state: the rows with their values, the join
//! screen and the statistics.

use super::frame::{Frame, Palette, Style};
use crate::tui::menu::{Menu, Row, Screen};

/// The width of the rows' block: digit, label, value.
const BLOCK: u16 = 44;

/// The keys of the rows screen, widest first; the first that fits is shown.
const KEYS: [&str; 3] = [
    "1-9 0 ↑↓ choose · ←→ change · Enter start · q quit",
    "↑↓ choose · ←→ change · Enter · q quit",
    "↑↓ ←→ Enter · q quit",
];

/// The whole start screen for the menu's state.
pub fn render(menu: &Menu, color: bool) -> Frame {
    let (width, height) = menu.size;
    let mut frame = Frame::new(width, height);
    let palette = Palette { color };
    match &menu.screen {
        Screen::Rows => rows(&mut frame, menu, palette),
        Screen::Joining { code } => joining(&mut frame, menu, code.as_deref()),
        Screen::Statistics(lines) => statistics(&mut frame, lines),
    }
    frame
}

/// The first row of a block of `lines` centred in the frame's height.
fn top(frame: &Frame, lines: u16) -> u16 {
    frame.height().saturating_sub(lines) / 2
}

fn rows(frame: &mut Frame, menu: &Menu, palette: Palette) {
    let count = u16::try_from(Row::ALL.len()).unwrap_or(10);
    let top = top(frame, count + 5);
    frame.centred(top, "Tic-tac-toe", Style::PLAIN.bold().fg(palette.accent()));
    let left = frame.width().saturating_sub(BLOCK) / 2;
    for (y, row) in (top + 2..).zip(Row::ALL) {
        let mut line = format!(" {}  {:<20}", row.digit(), row.label());
        if let Some(value) = menu.choices.value(row) {
            line.push_str(&value);
        }
        let line = format!("{line:<width$}", width = usize::from(BLOCK));
        let style = match (row == menu.row(), menu.choices.inactive(row)) {
            (true, _) => Style::PLAIN.reverse(),
            (false, true) => Style::PLAIN.dim(),
            (false, false) => Style::PLAIN,
        };
        frame.text(left, y, &line, style);
    }
    let below = top + count + 3;
    frame.centred(below, &menu.message, Style::PLAIN);
    let keys = KEYS
        .iter()
        .find(|k| k.chars().count() <= usize::from(frame.width()))
        .unwrap_or(&KEYS[KEYS.len() - 1]);
    frame.centred(below + 1, keys, Style::PLAIN.dim());
}

fn joining(frame: &mut Frame, menu: &Menu, code: Option<&str>) {
    let top = top(frame, 7);
    frame.centred(top, "Join a network game", Style::PLAIN.bold());
    let left = frame.width().saturating_sub(BLOCK) / 2;
    let address = &menu.choices.address;
    let (address, code) = match code {
        None => (format!("{address}_"), String::new()),
        Some(code) => (address.clone(), format!("{code}_")),
    };
    frame.text(left, top + 2, &format!("Address: {address}"), Style::PLAIN);
    frame.text(left, top + 3, &format!("Code:    {code}"), Style::PLAIN);
    frame.centred(top + 5, &menu.message, Style::PLAIN);
    frame.centred(top + 6, "Enter next · Esc back", Style::PLAIN.dim());
}

fn statistics(frame: &mut Frame, lines: &[String]) {
    let shown = u16::try_from(lines.len())
        .unwrap_or(u16::MAX)
        .min(frame.height().saturating_sub(4));
    let top = top(frame, shown + 4);
    frame.centred(top, "Your statistics", Style::PLAIN.bold());
    let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let left = frame
        .width()
        .saturating_sub(u16::try_from(widest).unwrap_or(u16::MAX))
        / 2;
    for (y, line) in (top + 2..).zip(lines.iter().take(usize::from(shown))) {
        frame.text(left, y, line, Style::PLAIN);
    }
    frame.centred(top + shown + 3, "Any key goes back", Style::PLAIN.dim());
}
