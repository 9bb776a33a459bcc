//! What a frame is made of: styles, tiles, the frame itself with its text primitives, the
//! palette, and the characters where box-drawing lines meet.

use crossterm::style::Color;

use crate::ai::search::Value;
use crate::report::review::Label;
use crate::rules::classic::Mark;

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
    pub(super) const PLAIN: Style = Style {
        fg: None,
        bold: false,
        dim: false,
        reverse: false,
        underline: false,
    };

    pub(super) fn fg(self, color: Option<Color>) -> Style {
        Style { fg: color, ..self }
    }

    pub(super) fn bold(self) -> Style {
        Style { bold: true, ..self }
    }

    pub(super) fn dim(self) -> Style {
        Style { dim: true, ..self }
    }

    pub(super) fn reverse(self) -> Style {
        Style {
            reverse: true,
            ..self
        }
    }

    pub(super) fn underline(self) -> Style {
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
    pub(super) width: u16,
    pub(super) height: u16,
    pub(super) tiles: Vec<Tile>,
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

    pub(super) fn put(&mut self, x: u16, y: u16, ch: char, style: Style) {
        // A control character would reach the terminal as a command.
        let ch = if ch.is_control() { '\u{fffd}' } else { ch };
        if x < self.width && y < self.height {
            self.tiles[usize::from(y) * usize::from(self.width) + usize::from(x)] =
                Tile { ch, style };
        }
    }

    /// Copies every tile of `from` onto this frame with its top-left corner at (`x`, `y`);
    /// what falls off is cut.
    pub(super) fn blit(&mut self, from: &Frame, x: u16, y: u16) {
        for dy in 0..from.height {
            for dx in 0..from.width {
                let tile = from.tile(dx, dy);
                self.put(
                    x.saturating_add(dx),
                    y.saturating_add(dy),
                    tile.ch,
                    tile.style,
                );
            }
        }
    }

    /// Writes `text` from column `x`; what falls off the right edge is cut.
    pub(super) fn text(&mut self, x: u16, y: u16, text: &str, style: Style) {
        for (i, ch) in text.chars().enumerate() {
            let Ok(i) = u16::try_from(i) else { break };
            self.put(x.saturating_add(i), y, ch, style);
        }
    }

    /// Writes `text` centred on row `y`, cut with `…` if wider than the frame.
    pub(super) fn centred(&mut self, y: u16, text: &str, style: Style) {
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

/// Colours of the session, or none. Good and bad never rest on green against red, which a
/// player with red-green colour blindness cannot tell apart: good is blue, bad red (blue and
/// red stay apart for every common kind of colour blindness), in between yellow and magenta,
/// an estimate grey; and every coloured value or label also says itself in letters.
#[derive(Clone, Copy, Debug)]
pub(super) struct Palette {
    pub(super) color: bool,
}

impl Palette {
    pub(super) fn mark(self, mark: Mark) -> Option<Color> {
        self.color.then_some(match mark {
            Mark::X => Color::Cyan,
            Mark::O => Color::Yellow,
        })
    }

    pub(super) fn value(self, value: Value) -> Option<Color> {
        self.color.then_some(match value {
            Value::Win(_) => Color::Blue,
            Value::Draw | Value::AtLeastDraw(_) | Value::AtMostDraw(_) => Color::Yellow,
            Value::Loss(_) => Color::Red,
            Value::Estimate(_) | Value::WinRate(_) => Color::DarkGrey,
        })
    }

    pub(super) fn label(self, label: Label) -> Option<Color> {
        self.color.then_some(match label {
            Label::Best => Color::Blue,
            Label::Inaccuracy => Color::Yellow,
            Label::Mistake => Color::Magenta,
            Label::Blunder => Color::Red,
            Label::Unproven => Color::DarkGrey,
        })
    }

    pub(super) fn accent(self) -> Option<Color> {
        self.color.then_some(Color::Magenta)
    }
}

/// Where lines meet: the four corners, the four edges' tees and the cross, in that order.
pub(super) const LIGHT: [char; 9] = ['┌', '┐', '└', '┘', '┬', '┴', '├', '┤', '┼'];
pub(super) const HEAVY: [char; 9] = ['┏', '┓', '┗', '┛', '┳', '┻', '┣', '┫', '╋'];

/// The character where lines meet, from whether it is on the (top, bottom, left, right) edge.
pub(super) fn junction(edges: (bool, bool, bool, bool), set: &[char; 9]) -> char {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_and_bad_never_rest_on_green_against_red() {
        let palette = Palette { color: true };
        let values = [
            Value::Win(1),
            Value::Draw,
            Value::Loss(1),
            Value::WinRate(500),
        ];
        let labels = [Label::Best, Label::Mistake, Label::Blunder, Label::Unproven];
        let colours: Vec<Option<Color>> = values
            .iter()
            .map(|&v| palette.value(v))
            .chain(labels.iter().map(|&l| palette.label(l)))
            .collect();
        assert!(!colours.contains(&Some(Color::Green)), "{colours:?}");
        assert_eq!(palette.value(Value::Win(1)), palette.label(Label::Best));
        assert_ne!(palette.value(Value::Win(1)), palette.value(Value::Loss(1)));
        assert_eq!(Palette { color: false }.value(Value::Win(1)), None);
    }
}
