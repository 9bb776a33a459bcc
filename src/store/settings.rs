//! The player's settings: `settings.toml` in the platform's config directory (or in the
//! directory `TICTACTOE_HOME` names), written by the start screen's settings page and
//! editable by hand. Flags on the command line win over it.
//!
//! A missing file is the defaults. A file that is not TOML, or a value out of range, gives one
//! warning and the default for what could not be read; nothing in it can stop a game.

use std::io;
use std::path::PathBuf;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::ai::player::Player;
use crate::store::history::{self, HOME_VAR};

/// The settings file's name.
pub const FILE: &str = "settings.toml";

/// The largest AI delay the settings and `--delay` take, in milliseconds.
pub const MAX_DELAY: u16 = 5_000;

/// What the player chose once, for every game after.
// Independent toggles, each a key of the file a player edits by name.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The AI that `tictactoe` plays and the start screen offers first: a level `1` to `7`,
    /// `easy`, `medium`, `hard`, or `auto` (the level follows your results).
    pub opponent: String,
    /// Milliseconds the terminal game waits before showing an AI move.
    pub delay: u64,
    /// Whether `h` shows hints (off: for games played without help).
    pub hints: bool,
    /// Whether the terminal game draws in colour (`NO_COLOR` and `--no-color` win).
    pub color: bool,
    /// Whether the terminal game draws with ASCII characters only.
    pub ascii: bool,
    /// Whether the game speaks in words for a screen reader (`--screen-reader`): the plain
    /// front end, no grids or symbols, commands that read the board.
    pub screen_reader: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            opponent: "hard".to_string(),
            delay: 400,
            hints: true,
            color: true,
            ascii: false,
            screen_reader: false,
        }
    }
}

/// The opponent setting, read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    Fixed(Player),
    Auto,
}

impl Settings {
    /// The opponent setting: an AI level, or auto.
    pub fn opponent(&self) -> Opponent {
        if self.opponent == "auto" {
            return Opponent::Auto;
        }
        match Player::from_str(&self.opponent) {
            Ok(player) if player.is_ai() => Opponent::Fixed(player),
            _ => Opponent::Fixed(Player::HARD),
        }
    }

    /// These settings with every value that is out of range put back to its default, and
    /// what was put back, for a warning.
    pub fn checked(mut self) -> (Settings, Vec<String>) {
        let defaults = Settings::default();
        let mut fixed = Vec::new();
        let known =
            self.opponent == "auto" || Player::from_str(&self.opponent).is_ok_and(Player::is_ai);
        if !known {
            fixed.push(format!(
                "opponent {:?} is not a level (1-7, easy, medium, hard or auto)",
                self.opponent
            ));
            self.opponent = defaults.opponent;
        }
        if self.delay > u64::from(MAX_DELAY) {
            fixed.push(format!("delay {} is over {MAX_DELAY} ms", self.delay));
            self.delay = defaults.delay;
        }
        (self, fixed)
    }

    /// The settings read from `text`, or why they could not be.
    pub fn parse(text: &str) -> Result<(Settings, Vec<String>), toml::de::Error> {
        toml::from_str::<Settings>(text).map(Settings::checked)
    }

    /// The settings as the file keeps them, with a comment on each.
    pub fn to_toml(&self) -> String {
        let mut text = String::from(
            "# tictactoe settings: flags on the command line win over these.\n\
             # opponent: 1-7, easy, medium, hard or auto; delay: milliseconds before an AI\n\
             # move is shown; hints: whether h shows hints; color and ascii: how the\n\
             # terminal game draws; screen_reader: words for a screen reader instead.\n",
        );
        text.push_str(&toml::to_string(self).unwrap_or_default());
        text
    }
}

/// Where the settings file is: in `TICTACTOE_HOME` if set, else in the platform's config
/// directory (`~/.config/tictactoe` on Linux).
pub fn path() -> Option<PathBuf> {
    match std::env::var_os(HOME_VAR) {
        Some(dir) if !dir.is_empty() => Some(PathBuf::from(dir).join(FILE)),
        _ => dirs::config_dir().map(|d| d.join("tictactoe").join(FILE)),
    }
}

/// The settings: the file's, or the defaults where it is missing; a damaged file or value
/// gives a warning (once) and the defaults for what could not be read.
pub fn load() -> Settings {
    let Some(path) = path() else {
        return Settings::default();
    };
    let text = match crate::store::files::read_to_string(&path) {
        Ok(text) => text,
        // No file, or no directory where it would be: nothing was set.
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
            ) =>
        {
            return Settings::default();
        }
        Err(e) => {
            history::warn(&format!("cannot read {}: {e}", path.display()));
            return Settings::default();
        }
    };
    match Settings::parse(&text) {
        Ok((settings, fixed)) => {
            for why in fixed {
                history::warn(&format!("{}: {why}; using the default", path.display()));
            }
            settings
        }
        Err(e) => {
            let why = e.message().to_string();
            history::warn(&format!(
                "{} is damaged ({why}); using the default settings",
                path.display()
            ));
            Settings::default()
        }
    }
}

/// Writes `settings` to the file (made with its directory if missing), whole: to a new file
/// that then takes the old one's place.
pub fn save(settings: &Settings) -> io::Result<()> {
    let path = path().ok_or_else(|| io::Error::other("no config directory"))?;
    history::replace_whole(&path, settings.to_toml().as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_file_reads_back_as_the_same_settings() {
        let settings = Settings {
            opponent: "auto".into(),
            delay: 0,
            hints: false,
            color: false,
            ascii: true,
            screen_reader: true,
        };
        let (back, fixed) = Settings::parse(&settings.to_toml()).unwrap();
        assert_eq!((back, fixed), (settings, Vec::new()));
    }

    #[test]
    fn missing_keys_are_the_defaults_and_unknown_keys_are_ignored() {
        let (settings, fixed) = Settings::parse("delay = 100\ntheme = \"dark\"\n").unwrap();
        assert_eq!(
            settings,
            Settings {
                delay: 100,
                ..Settings::default()
            }
        );
        assert!(fixed.is_empty());
    }

    #[test]
    fn values_out_of_range_are_put_back_and_named() {
        let (settings, fixed) =
            Settings::parse("opponent = \"grandmaster\"\ndelay = 99999\n").unwrap();
        assert_eq!(settings, Settings::default());
        assert_eq!(fixed.len(), 2, "{fixed:?}");
        assert!(fixed[0].contains("grandmaster"), "{fixed:?}");
        assert_eq!(
            Settings::parse("opponent = \"3\"").unwrap().0.opponent(),
            Opponent::Fixed(Player::MEDIUM)
        );
        assert_eq!(
            Settings::parse("opponent = \"human\"")
                .unwrap()
                .0
                .opponent(),
            Opponent::Fixed(Player::HARD),
            "a person is not an AI level"
        );
    }

    #[test]
    fn a_file_that_is_not_toml_or_has_wrong_types_is_an_error_not_a_panic() {
        assert!(Settings::parse("delay = [").is_err());
        assert!(Settings::parse("delay = \"slow\"").is_err());
        assert!(Settings::parse("\u{0}\u{ff}").is_err());
    }
}
