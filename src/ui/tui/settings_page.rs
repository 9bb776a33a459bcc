//! The start screen's settings page: the rows of `settings.toml`, changed with ←→. Pure state:
//! keys in, what to do out; the start screen saves the settings when the page is left with
//! Enter, and Esc puts back the settings as they were saved.

use crate::ai::levels::Level;
use crate::store::settings::Settings;

/// The delays offered, in milliseconds.
const DELAYS: [u64; 6] = [0, 200, 400, 800, 1500, 3000];

/// The page's rows, top to bottom.
pub const ROWS: [&str; 5] = ["Opponent", "AI move delay", "Hints", "Colour", "ASCII only"];

/// A key of the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageKey {
    Up,
    Down,
    /// Home or page up: the first row; End or page down: the last.
    First,
    Last,
    Left,
    Right,
    /// Enter or `s`: back to the start screen, saving.
    Save,
    /// Esc or `q`: back to the start screen, the settings as they were saved.
    Cancel,
}

/// The settings being changed, the settings as last saved, and the highlighted row.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SettingsPage {
    pub settings: Settings,
    pub saved: Settings,
    pub row: usize,
}

impl SettingsPage {
    /// The value of row `row` as shown: `◂ hard ▸`.
    pub fn value(&self, row: usize) -> String {
        let s = &self.settings;
        let on_off = |on: bool| if on { "on" } else { "off" }.to_string();
        let value = match row {
            0 => s.opponent.clone(),
            1 => format!("{} ms", s.delay),
            2 => on_off(s.hints),
            3 => on_off(s.color),
            _ => on_off(s.ascii),
        };
        format!("◂ {value} ▸")
    }

    /// The page for `settings`, as saved.
    pub fn of(settings: Settings) -> SettingsPage {
        SettingsPage {
            saved: settings.clone(),
            settings,
            row: 0,
        }
    }

    /// Acts on one key; `true` when the page is left (saved, or put back as it was saved).
    pub fn key(&mut self, key: PageKey) -> bool {
        let count = ROWS.len();
        match key {
            PageKey::Up => self.row = (self.row + count - 1) % count,
            PageKey::Down => self.row = (self.row + 1) % count,
            PageKey::First => self.row = 0,
            PageKey::Last => self.row = count - 1,
            PageKey::Left | PageKey::Right => self.step(key == PageKey::Right),
            PageKey::Save => {
                self.saved = self.settings.clone();
                return true;
            }
            PageKey::Cancel => {
                self.settings = self.saved.clone();
                return true;
            }
        }
        false
    }

    /// The highlighted row's next value (`up`) or the one before.
    fn step(&mut self, up: bool) {
        let s = &mut self.settings;
        match self.row {
            0 => s.opponent = cycle(&opponents(), &s.opponent, up),
            1 => {
                let delays: Vec<String> = DELAYS.iter().map(ToString::to_string).collect();
                let now = cycle(&delays, &s.delay.to_string(), up);
                s.delay = now.parse().unwrap_or(400);
            }
            2 => s.hints = !s.hints,
            3 => s.color = !s.color,
            _ => s.ascii = !s.ascii,
        }
    }
}

/// The opponents offered: each level by its name or number, then `auto`.
fn opponents() -> Vec<String> {
    Level::all()
        .map(|level| {
            level
                .alias()
                .map_or_else(|| level.number().to_string(), str::to_string)
        })
        .chain(["auto".to_string()])
        .collect()
}

/// The value after (`up`) or before `now` in `all`, round again; the first where `now` is
/// not among them.
fn cycle(all: &[String], now: &str, up: bool) -> String {
    let n = all.len();
    let at = all.iter().position(|v| v == now);
    let next = match (at, up) {
        (None, _) => 0,
        (Some(i), true) => (i + 1) % n,
        (Some(i), false) => (i + n - 1) % n,
    };
    all[next].clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arrows_change_each_setting_and_the_page_is_left_with_enter() {
        let mut page = SettingsPage::default();
        assert_eq!(page.value(0), "◂ hard ▸");
        page.key(PageKey::Right);
        assert_eq!(page.settings.opponent, "auto");
        page.key(PageKey::Right);
        assert_eq!(page.settings.opponent, "easy", "round again");
        page.key(PageKey::Down);
        page.key(PageKey::Left);
        assert_eq!(page.value(1), "◂ 200 ms ▸");
        page.key(PageKey::Down);
        page.key(PageKey::Right);
        assert!(!page.settings.hints);
        page.key(PageKey::Up);
        page.key(PageKey::Up);
        page.key(PageKey::Up);
        assert_eq!(page.row, 4, "up from the top is the last row");
        page.key(PageKey::Right);
        assert!(page.settings.ascii);
        page.key(PageKey::First);
        assert_eq!(page.row, 0, "Home: the first row");
        page.key(PageKey::Last);
        assert_eq!(page.row, 4, "End: the last row");
        assert!(page.key(PageKey::Save));
        assert_eq!(page.saved, page.settings, "Enter keeps what was changed");
        let (checked, fixed) = page.settings.clone().checked();
        assert_eq!((checked, fixed), (page.settings, Vec::new()));
    }

    #[test]
    fn every_opponent_offered_is_one_the_settings_take() {
        for name in opponents() {
            let settings = Settings {
                opponent: name.clone(),
                ..Settings::default()
            };
            assert!(settings.checked().1.is_empty(), "{name}");
        }
    }

    #[test]
    fn escape_puts_back_the_settings_as_saved() {
        let mut page = SettingsPage::of(Settings::default());
        page.key(PageKey::Right);
        page.key(PageKey::Down);
        page.key(PageKey::Right);
        assert_ne!(page.settings, Settings::default());
        assert!(page.key(PageKey::Cancel));
        assert_eq!(page.settings, Settings::default());
        assert_eq!(page.saved, Settings::default());
    }
}
