//! The painter: writes frames to a terminal, only the tiles that changed since the last
//! one, queued and flushed once.

use std::io::{self, Write};

use crossterm::style::{Attribute, Print, SetAttribute, SetForegroundColor};
use crossterm::{cursor, queue, terminal};

use super::frame::{Frame, Style, Tile};

/// Writes frames to a terminal, sending only the tiles that changed since the last one.
#[derive(Default)]
pub struct Painter {
    last: Option<Frame>,
    /// Write every character as ASCII (see [`ascii`]), for terminals without box drawing.
    ascii: bool,
}

impl Painter {
    /// A painter that writes ASCII only when `ascii` is set.
    pub fn new(ascii: bool) -> Painter {
        Painter { last: None, ascii }
    }

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
                let ch = if self.ascii { ascii(tile.ch) } else { tile.ch };
                queue!(out, Print(ch))?;
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

/// The ASCII character drawn for `ch` where the terminal shows ASCII only: lines become `-`,
/// `|`, `=` and `+`, the large marks' strokes `\\`, `/` and `X`, pointers `>` and `<`, and
/// anything else outside ASCII `?`. One character for one, so the layout stays.
pub fn ascii(ch: char) -> char {
    if ch.is_ascii() {
        return ch;
    }
    STAND_INS
        .iter()
        .find(|(these, _)| these.contains(ch))
        .map_or('?', |&(_, stand_in)| stand_in)
}

/// The characters drawn outside ASCII, grouped by their ASCII stand-in.
const STAND_INS: [(&str, char); 22] = [
    // Gomoku's stones: the marks they stand for.
    ("●", 'X'),
    ("○", 'O'),
    ("─·…–—▄", '-'),
    ("━▅", '='),
    ("│┃", '|'),
    ("┌┐└┘├┤┬┴┼┏┓┗┛┣┫┳┻╋╭╮╰╯±▆", '+'),
    ("╲", '\\'),
    ("╱½", '/'),
    ("╳×", 'x'),
    ("◆•∞▇", '*'),
    ("◐◓◑◒", 'o'),
    ("▸→≥", '>'),
    ("◂←≤", '<'),
    ("↑", '^'),
    ("↓", 'v'),
    ("èé", 'e'),
    ("≈", '~'),
    ("α", 'a'),
    ("β", 'b'),
    // A sparkline's lowest blocks; the others are above.
    ("▁", '_'),
    ("▂▃", '.'),
    ("█", '#'),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_drawing_character_has_an_ascii_stand_in() {
        for ch in "─━│┃┌┐└┘├┤┬┴┼┏┓┗┛┣┫┳┻╋╭╮╰╯╲╱╳●○◆•◐◓◑◒▸◂·…→←↑↓×–—èé≈≤≥±∞½αβ▁▂▃▄▅▆▇█".chars()
        {
            let a = ascii(ch);
            assert!(a.is_ascii() && a != '?', "{ch} → {a}");
        }
        assert_eq!(ascii('X'), 'X');
        assert_eq!(
            (ascii('●'), ascii('○')),
            ('X', 'O'),
            "stones are their marks"
        );
        assert_eq!(ascii('☃'), '?');
    }
}
