//! The start screen of `tictactoe` with no flags: what to play, chosen with the keypad
//! digits, the arrows and Enter, remembered in the profile for the next time.
//!
//! [`Menu::update`] is pure: a key in, what to do out. [`run`] is the loop around it, on the
//! terminal, before any game takes the screen.

use std::path::PathBuf;

use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use serde::{Deserialize, Serialize};

use super::games::{Choice, GameList, ListKey};
use super::settings_page::{PageKey, SettingsPage};
use crate::ai::levels::{Adaptive, Level};
use crate::ai::player::Player;
use crate::game::clock::TimeControl;
use crate::game::record::Record;
use crate::report::stats;
use crate::rules::catalogue::{CATALOGUE, Entry, Shape, Shaped};
use crate::rules::classic::{MAX_SIZE, MIN_SIZE, Rules};
use crate::rules::gomoku;
use crate::rules::gomoku::opening::Opening;
use crate::rules::position::Variant;
use crate::store::history;
use crate::store::settings::{Opponent, Settings};

/// The file in the profile directory that keeps the last choices.
const FILE: &str = "menu.json";

/// The longest address or code typed on the join screen.
const MAX_TYPED: usize = 80;

/// The menu's rows, top to bottom; row `i` has the keypad digit `(i + 1) % 10`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    PlayAi,
    TwoPlayers,
    Host,
    Join,
    Game,
    Size,
    InARow,
    Misere,
    Statistics,
    Clock,
    /// The analysis board, or (←→) the puzzles from the person's games.
    Analyse,
    Quit,
}

impl Row {
    pub const ALL: [Row; 12] = [
        Row::PlayAi,
        Row::TwoPlayers,
        Row::Host,
        Row::Join,
        Row::Game,
        Row::Size,
        Row::InARow,
        Row::Misere,
        Row::Clock,
        Row::Statistics,
        Row::Analyse,
        Row::Quit,
    ];

    /// What the row says, without its value.
    pub fn label(self) -> &'static str {
        match self {
            Row::PlayAi => "Play the AI",
            Row::TwoPlayers => "Two players here",
            Row::Host => "Host a network game",
            Row::Join => "Join a network game",
            Row::Game => "Game",
            Row::Size => "Board size",
            Row::InARow => "In a row",
            Row::Misere => "Misère",
            Row::Clock => "Clock",
            Row::Statistics => "Your games",
            Row::Analyse => "Analysis board",
            Row::Quit => "Quit",
        }
    }

    /// The keypad digit that highlights the row: 1 to 9 down from the top, 0 for Quit; the
    /// Clock row and the one below *Your games* have none.
    pub fn digit(self) -> Option<u8> {
        match self {
            Row::Clock | Row::Analyse => None,
            Row::Quit => Some(0),
            row => {
                let i = Row::ALL.iter().position(|&r| r == row).unwrap_or(0);
                let i = if i > 8 { i - 1 } else { i };
                u8::try_from(i + 1).ok()
            }
        }
    }

    /// The row that `digit` highlights.
    fn of_digit(digit: u8) -> Option<Row> {
        Row::ALL.into_iter().find(|row| row.digit() == Some(digit))
    }
}

/// The Game row's name for classic play.
const CLASSIC: &str = "classic";

/// The choices the menu remembers between runs.
// Independent toggles as the file keeps them, each read back by name: an old file lacks the
// newer ones and takes their defaults.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Choices {
    /// The highlighted row, by index.
    pub row: usize,
    /// The AI's level, by its command-line name (`hard`): the settings' opponent, kept in
    /// `settings.toml` only (a `level` an older file holds is not read).
    #[serde(skip)]
    pub level: String,
    /// The game by its name: `classic` (with the size, line and misère rows), or a rule set's
    /// own ([`Variant::name`]: `ultimate`, `gomoku`).
    pub game: String,
    /// Ultimate chosen, as files written before the Game row kept it; read, never written.
    #[serde(skip_serializing)]
    pub ultimate: bool,
    pub size: u8,
    pub k: u8,
    pub misere: bool,
    /// Only exactly `k` in a row wins, on a board played with Gomoku's rules (8×8 up).
    pub exact: bool,
    /// The last address joined.
    pub address: String,
    /// Host online (through the peer-to-peer layer) rather than on this network.
    pub online: bool,
    /// The board side of Gomoku chosen on the Game row, 8 to 20.
    pub gomoku_size: u8,
    /// How a game of five in a row chosen on the Game row opens, by its name: `free`,
    /// `swap1`, `swap2` (the In a row row's, where the line is five).
    pub opening: String,
    /// The clock of the games started here, as typed (`5+3`), or `off`.
    pub clock: String,
    /// The Join row watches a game instead (←→ on it).
    pub watch: bool,
    /// The Analysis row poses the puzzles from the person's games instead (←→ on it).
    pub puzzles: bool,
}

impl Default for Choices {
    fn default() -> Choices {
        Choices {
            row: 0,
            level: name(Player::HARD),
            game: CLASSIC.to_string(),
            ultimate: false,
            size: 3,
            k: 3,
            misere: false,
            exact: false,
            address: String::new(),
            online: false,
            gomoku_size: gomoku::SIZE,
            opening: Opening::Free.name().to_string(),
            clock: OFF.to_string(),
            watch: false,
            puzzles: false,
        }
    }
}

/// The Clock row's value for no clock.
const OFF: &str = "off";

/// The clocks the Clock row steps through, after `off`.
const CLOCKS: [&str; 7] = ["1", "3+2", "5+3", "10+5", "30+20", "10s", "30s"];

/// A player's command-line name: `human`, an AI level's name where it has one (`hard`), or
/// its number (`2`).
fn name(player: Player) -> String {
    match player.level() {
        Some(level) => level
            .alias()
            .map_or_else(|| level.number().to_string(), str::to_string),
        None => player.to_string(),
    }
}

/// Whether this build plays online (the `online` feature): the host row then offers it.
const ONLINE: bool = cfg!(feature = "online");

/// The name of the level that follows the person's results (`--level auto`).
const AUTO: &str = "auto";

/// The AI levels' names, weakest first, then `auto`.
fn levels() -> Vec<String> {
    Level::all()
        .map(|level| name(Player::Ai(level)))
        .chain([AUTO.to_string()])
        .collect()
}

impl Choices {
    /// These choices with anything out of range (an edited or old file) put back in range.
    #[must_use]
    pub fn checked(mut self) -> Choices {
        let fresh = Choices::default();
        self.row = self.row.min(Row::ALL.len() - 1);
        if std::mem::take(&mut self.ultimate) {
            // The field of older files, which knew one game besides classic.
            self.game = "ultimate".to_string();
        }
        if self.clock != OFF && self.clock.parse::<TimeControl>().is_err() {
            self.clock = fresh.clock;
        }
        if self.game != CLASSIC && Variant::named(&self.game).is_none() {
            self.game = CLASSIC.to_string();
        }
        if self.level != AUTO && self.level.parse::<Player>().map_or(true, |p| !p.is_ai()) {
            self.level = fresh.level;
        }
        if !(MIN_SIZE..=gomoku::MAX_SIZE).contains(&self.size) {
            self.size = fresh.size;
        }
        if !(gomoku::MIN_SIZE..=gomoku::MAX_SIZE).contains(&self.gomoku_size) {
            self.gomoku_size = fresh.gomoku_size;
        }
        if !(3..=self.size).contains(&self.k) {
            self.k = self.default_k();
        }
        if Opening::named(&self.opening).is_none() {
            self.opening = fresh.opening;
        }
        self.address = self.address.chars().take(MAX_TYPED).collect();
        self
    }

    /// The AI level chosen; with `auto`, the level a person starts at before their history
    /// is read.
    pub fn level(&self) -> Player {
        if self.adapts() {
            return Player::Ai(Adaptive::MIDDLE);
        }
        self.level.parse().unwrap_or(Player::HARD)
    }

    /// Whether the AI's level follows the person's results (`auto`).
    pub fn adapts(&self) -> bool {
        self.level == AUTO
    }

    /// The game the choices describe.
    pub fn variant(&self) -> Variant {
        if let Some(named) = Variant::named(&self.game) {
            let variant =
                Variant::named_on(&self.game, self.gomoku_size, gomoku::FIVE).unwrap_or(named);
            let opening = Opening::named(&self.opening).unwrap_or_default();
            return variant.opened(opening).unwrap_or(variant);
        }
        if self.gomoku_rules() {
            return Variant::of_size(self.size, Some(self.k), false)
                .and_then(|v| v.exactly(self.exact))
                .unwrap_or_default();
        }
        Rules::new(self.size, self.k, self.misere)
            .or_else(|_| Rules::new(self.size, Rules::default_k(self.size), self.misere))
            .map_or(Variant::default(), Variant::from)
    }

    /// Whether the board chosen is played with Gomoku's rules (8×8 up): any line, no misère.
    fn gomoku_rules(&self) -> bool {
        self.size > MAX_SIZE
    }

    /// The line of the board chosen unless one is: five from 8×8 up.
    fn default_k(&self) -> u8 {
        if self.gomoku_rules() {
            gomoku::FIVE
        } else {
            Rules::default_k(self.size)
        }
    }

    /// Whether the misère row is the exact rule's: on a board played with Gomoku's rules,
    /// chosen by size (not a named game, whose rules are its own).
    fn exact_row(&self) -> bool {
        self.gomoku_rules() && !self.fixed_rules()
    }

    /// What the row says, without its value: its own label, but on a board played with
    /// Gomoku's rules the misère row is the exact rule's (`Exactly 5`).
    pub fn label(&self, row: Row) -> String {
        match row {
            Row::Misere if self.own_rule().is_some() => "Rule".to_string(),
            Row::Misere if self.named_gomoku().is_some() => format!("Exactly {}", gomoku::FIVE),
            Row::InARow if self.named_gomoku().is_some() => "Opening".to_string(),
            Row::Misere if self.exact_row() => format!("Exactly {}", self.k),
            Row::Join if self.watch => "Watch a network game".to_string(),
            Row::Analyse if self.puzzles => "Puzzles from your games".to_string(),
            _ => row.label().to_string(),
        }
    }

    /// The row's value as shown beside it, if it has one.
    pub fn value(&self, row: Row) -> Option<String> {
        let on_off = |on: bool| if on { "on" } else { "off" }.to_string();
        match row {
            Row::PlayAi => Some(format!("◂ {} ▸", self.level)),
            Row::Host if ONLINE => Some(format!(
                "◂ {} ▸",
                if self.online { "online" } else { "local" }
            )),
            Row::Join if !self.address.is_empty() => Some(self.address.clone()),
            Row::Game => Some(format!("◂ {} ▸", self.game_name())),
            Row::Size if self.named_gomoku().is_some() => {
                Some(format!("◂ {0}×{0} ▸", self.gomoku_size))
            }
            Row::InARow if self.named_gomoku().is_some() => Some(format!("◂ {} ▸", self.opening)),
            Row::Misere => match (self.own_rule(), self.named_gomoku()) {
                (Some(rule), _) => Some(rule.into()),
                (None, Some(exact)) => Some(on_off(exact)),
                (None, None) if self.exact_row() => Some(on_off(self.exact)),
                (None, None) => Some(on_off(self.misere)),
            },
            Row::Size | Row::InARow => Some(match (self.board_game(), row) {
                (Some((c, r)), Row::Size) => format!("{c}×{r}"),
                (Some(_), _) => crate::rules::connect_four::FOUR.to_string(),
                (None, Row::Size) => format!("◂ {0}×{0} ▸", self.size),
                (None, _) => format!("◂ {} ▸", self.k),
            }),
            Row::Clock => Some(format!("◂ {} ▸", self.clock)),
            _ => None,
        }
    }

    /// Whether the row's value does not apply now or cannot change: the classic rules in
    /// Ultimate, the line in Gomoku (five).
    pub fn inactive(&self, row: Row) -> bool {
        if self.named_gomoku().is_some() {
            return self.own_rule().is_some() && row == Row::Misere;
        }
        let lines = matches!(row, Row::InARow | Row::Misere);
        self.fixed_rules() && (lines || row == Row::Size)
    }

    /// The clock chosen, if any.
    pub fn clock(&self) -> Option<TimeControl> {
        self.clock.parse().ok()
    }

    /// The game of its own chosen on the Game row, if one is (not the classic rows').
    fn entry(&self) -> Option<&'static Entry> {
        Entry::named(&self.game).filter(|entry| entry.fixed_rules())
    }

    /// Whether a game of Gomoku's points is chosen on the Game row, and if so whether exactly
    /// five wins.
    fn named_gomoku(&self) -> Option<bool> {
        let entry = self.entry().filter(|e| e.shape() == Shape::Points)?;
        Some(entry.variant.exactly(true) == Ok(entry.variant))
    }

    /// The rule row's value where the game chosen has a rule of its own (renju's, caro's).
    fn own_rule(&self) -> Option<&'static str> {
        self.entry()?.rule
    }

    /// Why an inactive row has no choices, said on Enter.
    fn fixed_note(&self) -> &'static str {
        self.entry().map_or("", |entry| entry.fixed)
    }

    /// The columns and rows of the game chosen, where its board is columns (Connect Four's).
    fn board_game(&self) -> Option<(u8, u8)> {
        match self.entry()?.start().shaped() {
            Shaped::Columns(board) => Some((board.columns(), board.rows())),
            _ => None,
        }
    }

    /// Whether the game chosen has rules of its own, not the classic rows' (Ultimate, Gomoku).
    fn fixed_rules(&self) -> bool {
        self.entry().is_some()
    }

    /// The game chosen, as the Game row names it: `classic`, `Ultimate`, `Gomoku` (exactly
    /// five or not: the Exactly 5 row says which).
    fn game_name(&self) -> &'static str {
        self.entry().map_or(CATALOGUE[0].label, |entry| entry.label)
    }

    /// The next game (`up`) or the one before, around the catalogue: each label once, its
    /// first game (Gomoku's exact rule is its Exactly 5 row's, not a game of the row's own).
    fn step_game(&mut self, up: bool) {
        let mut labels: Vec<&str> = CATALOGUE.iter().map(|entry| entry.label).collect();
        labels.dedup();
        let i = labels.iter().position(|&l| l == self.game_name());
        let i = i.unwrap_or(0);
        let n = labels.len();
        let label = labels[if up { i + 1 } else { i + n - 1 } % n];
        let entry = CATALOGUE.iter().find(|entry| entry.label == label);
        self.game = entry.unwrap_or(&CATALOGUE[0]).name().to_string();
    }

    /// The game chosen with exactly five winning or not: the other game of its label.
    fn toggle_exact(&mut self) {
        let Some(now) = self.entry() else { return };
        let other = CATALOGUE.iter().find(|e| e.label == now.label && e != &now);
        if let Some(other) = other {
            self.game = other.name().to_string();
        }
    }

    /// Changes the row's value one step (`up`: the next one); returns whether it has one.
    fn step(&mut self, row: Row, up: bool) -> bool {
        match row {
            Row::PlayAi => {
                let levels = levels();
                let i = levels.iter().position(|l| *l == self.level).unwrap_or(0);
                let next = if up { i + 1 } else { i + levels.len() - 1 };
                self.level.clone_from(&levels[next % levels.len()]);
            }
            Row::Host if ONLINE => self.online = !self.online,
            Row::Join => self.watch = !self.watch,
            Row::Analyse => self.puzzles = !self.puzzles,
            Row::Game => self.step_game(up),
            Row::Clock => {
                let all: Vec<&str> = std::iter::once(OFF).chain(CLOCKS).collect();
                let i = all.iter().position(|&c| c == self.clock).unwrap_or(0);
                let next = if up { i + 1 } else { i + all.len() - 1 };
                self.clock = all[next % all.len()].to_string();
            }
            Row::Size if self.named_gomoku().is_some() => {
                self.gomoku_size = cycle(self.gomoku_size, gomoku::MIN_SIZE, gomoku::MAX_SIZE, up);
            }
            Row::Misere if self.own_rule().is_some() => return false,
            Row::InARow if self.named_gomoku().is_some() => {
                let all = Opening::ALL;
                let i = all.iter().position(|o| o.name() == self.opening);
                let i = i.unwrap_or(0);
                let next = if up { i + 1 } else { i + all.len() - 1 };
                self.opening = all[next % all.len()].name().to_string();
            }
            Row::Misere if self.named_gomoku().is_some() => self.toggle_exact(),
            Row::Size if !self.fixed_rules() => {
                self.size = cycle(self.size, MIN_SIZE, gomoku::MAX_SIZE, up);
                self.k = self.default_k();
            }
            _ if self.inactive(row) => return false,
            Row::Misere if self.exact_row() => self.exact = !self.exact,
            Row::Misere => self.misere = !self.misere,
            Row::InARow => self.k = cycle(self.k, 3, self.size, up),
            _ => return false,
        }
        true
    }
}

/// `n` one step up or down in `low..=high`, wrapping around.
fn cycle(n: u8, low: u8, high: u8, up: bool) -> u8 {
    match (up, n) {
        (true, n) if n >= high => low,
        (true, n) => n + 1,
        (false, n) if n <= low => high,
        (false, n) => n - 1,
    }
}

/// What the menu asks for once it is done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// A game here: the rules, X's player, O's player and the clock, if any.
    Play(Variant, Player, Player, Option<TimeControl>),
    /// A game here against the AI whose level follows the person's results, on the clock if
    /// any.
    PlayAuto(Variant, Option<TimeControl>),
    /// Host a network game of these rules, on the clock if any: online (through the
    /// peer-to-peer layer), or on this network.
    Host {
        variant: Variant,
        online: bool,
        clock: Option<TimeControl>,
    },
    /// Join the game at the address with the code, or watch it.
    Join {
        address: String,
        code: String,
        watch: bool,
    },
    /// A game of the history or of a file, on the board with its review: its record, its
    /// players, and the names a game file gives them (X's, then O's).
    Open(Record, Player, Player, Option<[String; 2]>),
    /// The last unfinished game, taken up again: its record, how many of its moves were set
    /// up, and its players.
    Resume(Record, usize, Player, Player),
    /// The analysis board, on the empty board of these rules.
    Analyse(Variant),
    /// The puzzles from the person's games.
    Puzzles,
    Quit,
    /// A stop signal arrived, with its number.
    Stopped(i32),
}

/// A key as the menu reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    Up,
    Down,
    Left,
    Right,
    Enter,
    Escape,
    Backspace,
    /// Ctrl-U: clears the field being typed, as in a shell.
    ClearLine,
    Char(char),
    Interrupt,
}

impl Key {
    /// The menu's key for a terminal event; `None` for everything else. With Num Lock off
    /// the keypad's 7, 9, 1, 3 and 5 arrive as `Home`, `PageUp`, `End`, `PageDown` and
    /// `KeypadBegin`.
    pub fn of(event: &Event) -> Option<Key> {
        let Event::Key(KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
            ..
        }) = event
        else {
            return None;
        };
        Some(match code {
            KeyCode::Char('c') if modifiers.contains(KeyModifiers::CONTROL) => Key::Interrupt,
            KeyCode::Char('u') if modifiers.contains(KeyModifiers::CONTROL) => Key::ClearLine,
            // Another control key types nothing (Ctrl-A is not `a`).
            KeyCode::Char(_) if modifiers.contains(KeyModifiers::CONTROL) => return None,
            KeyCode::Up => Key::Up,
            KeyCode::Down => Key::Down,
            KeyCode::Left => Key::Left,
            KeyCode::Right => Key::Right,
            KeyCode::Enter => Key::Enter,
            KeyCode::Esc => Key::Escape,
            KeyCode::Backspace => Key::Backspace,
            KeyCode::Home => Key::Char('7'),
            KeyCode::PageUp => Key::Char('9'),
            KeyCode::End => Key::Char('1'),
            KeyCode::PageDown => Key::Char('3'),
            KeyCode::KeypadBegin => Key::Char('5'),
            KeyCode::Char(c) => Key::Char(*c),
            _ => return None,
        })
    }
}

/// Which screen of the menu is showing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Screen {
    /// The list of rows.
    Rows,
    /// The join screen: the address, then the code (`code` is `Some` once the address is in).
    Joining { code: Option<String> },
    /// The statistics, as `tictactoe stats` prints them; any key goes back.
    Statistics(Vec<String>),
    /// The rules of the chosen game (`?`); any key goes back.
    Rules,
    /// The games of the history ([`Menu::games`]).
    Games,
    /// A game file's path being typed (`f` on *Your games*), to open it on the board.
    OpenFile(String),
    /// The levels' measured ratings on the chosen game, beside the person's; any key goes
    /// back.
    Ladder,
    /// The settings ([`Menu::settings`]), saved when left.
    Settings,
}

/// What the menu loop must do after a key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Stay,
    /// Read the statistics and show them.
    ShowStatistics,
    /// Save the settings page's settings.
    SaveSettings,
    Done(Start),
}

/// The start screen: the choices, the screen showing and a line of news.
#[derive(Clone, Debug)]
pub struct Menu {
    pub choices: Choices,
    pub screen: Screen,
    pub message: String,
    pub size: (u16, u16),
    /// The person's rating on each board where they played a measured AI, from the history.
    pub ratings: Vec<stats::Rating>,
    /// The games of the history, for *Your games*.
    pub games: GameList,
    /// The last game a person played here and left unfinished, to continue with `c`.
    pub unfinished: Option<history::Entry>,
    /// The settings, as the settings page (`s`) changes them.
    pub settings: SettingsPage,
    /// Esc asked whether to quit: Esc again or `y` quits, any other key stays.
    pub quitting: bool,
}

impl Menu {
    pub fn new(choices: Choices, size: (u16, u16)) -> Menu {
        Menu {
            choices: choices.checked(),
            screen: Screen::Rows,
            message: String::new(),
            size,
            ratings: Vec::new(),
            games: GameList::default(),
            unfinished: None,
            settings: SettingsPage::default(),
            quitting: false,
        }
    }

    /// The line that offers the unfinished game: `c continues: 3×3, 3 in a row, level 7 AI,
    /// 4 moves`.
    pub fn continue_line(&self) -> Option<String> {
        let entry = self.unfinished.as_ref()?;
        let [_, rules, opponent, _] = stats::columns(entry);
        let moves = entry.game.history().len();
        Some(format!("c continues: {rules}, {opponent}, {moves} moves"))
    }

    /// The person's rating on the chosen game, where they have one.
    pub fn rating(&self) -> Option<&stats::Rating> {
        let rules = self.choices.variant().to_string();
        self.ratings.iter().find(|r| r.rules == rules)
    }

    /// The highlighted row.
    pub fn row(&self) -> Row {
        Row::ALL[self.choices.row.min(Row::ALL.len() - 1)]
    }

    /// Acts on one key.
    pub fn update(&mut self, key: &Key) -> Outcome {
        if *key == Key::Interrupt {
            return Outcome::Done(Start::Quit);
        }
        match self.screen.clone() {
            Screen::Rows => self.on_rows(key),
            Screen::Joining { code } => self.joining(key, code),
            Screen::Statistics(_) | Screen::Ladder => {
                self.screen = Screen::Games;
                Outcome::Stay
            }
            Screen::Rules => {
                self.screen = Screen::Rows;
                Outcome::Stay
            }
            Screen::Games => self.on_games(key),
            Screen::OpenFile(path) => self.opening_file(key, path.clone()),
            Screen::Settings => self.on_settings(key),
        }
    }

    /// A key on the settings page: Enter saves, Esc puts them back as they were saved; the
    /// Play row then offers the settings' opponent.
    fn on_settings(&mut self, key: &Key) -> Outcome {
        let page_key = match key {
            Key::Up | Key::Char('8') => PageKey::Up,
            Key::Down | Key::Char('2') => PageKey::Down,
            Key::Char('7' | '9') => PageKey::First,
            Key::Char('1' | '3') => PageKey::Last,
            Key::Left | Key::Char('4') => PageKey::Left,
            Key::Right | Key::Char('6') => PageKey::Right,
            Key::Enter | Key::Char('s') => PageKey::Save,
            Key::Escape | Key::Char('q') => PageKey::Cancel,
            _ => return Outcome::Stay,
        };
        if !self.settings.key(page_key) {
            return Outcome::Stay;
        }
        self.screen = Screen::Rows;
        self.choices.level = level_name(&self.settings.settings);
        if page_key == PageKey::Cancel {
            self.message = "Settings not changed (Enter saves them)".into();
            return Outcome::Stay;
        }
        Outcome::SaveSettings
    }

    fn on_rows(&mut self, key: &Key) -> Outcome {
        let count = Row::ALL.len();
        self.message.clear();
        match key {
            Key::Escape | Key::Char('y') if std::mem::take(&mut self.quitting) => {
                return Outcome::Done(Start::Quit);
            }
            _ if std::mem::take(&mut self.quitting) => {}
            Key::Escape => {
                self.quitting = true;
                self.message = "Quit? Esc again or y quits, any other key stays".into();
            }
            Key::Up => self.choices.row = (self.choices.row + count - 1) % count,
            Key::Down => self.choices.row = (self.choices.row + 1) % count,
            Key::Left | Key::Right => {
                if !self.choices.step(self.row(), *key == Key::Right) {
                    let label = self.choices.label(self.row());
                    self.message = if self.choices.inactive(self.row()) {
                        self.choices.fixed_note().to_string()
                    } else {
                        format!("{label} has no choices: Enter")
                    };
                } else if self.row() == Row::PlayAi {
                    // One opponent: the Play row's is the settings'.
                    let level = self.choices.level.clone();
                    self.settings.settings.opponent.clone_from(&level);
                    self.settings.saved.opponent = level;
                }
            }
            Key::Char('q') => return Outcome::Done(Start::Quit),
            Key::Char(c @ '0'..='9') => {
                let digit = u8::try_from(c.to_digit(10).unwrap_or(0)).unwrap_or(0);
                let row = Row::of_digit(digit).unwrap_or(Row::Quit);
                self.choices.row = Row::ALL.iter().position(|&r| r == row).unwrap_or(0);
            }
            Key::Enter | Key::Char(' ') => return self.activate(),
            Key::Char('?') => self.screen = Screen::Rules,
            Key::Char('s') => self.screen = Screen::Settings,
            Key::Char('c') if self.unfinished.is_some() => {
                if let Some(entry) = &self.unfinished {
                    let game = &entry.game;
                    let (first, second) = game.seats();
                    return Outcome::Done(Start::Resume(
                        game.record(),
                        game.setup(),
                        first,
                        second,
                    ));
                }
            }
            Key::Char(c) => {
                self.message = format!("'{c}' does nothing here: arrows, digits, Enter, ?, s, q");
            }
            Key::Backspace | Key::ClearLine | Key::Interrupt => {}
        }
        Outcome::Stay
    }

    /// Enter on the highlighted row: start what it names, or change its value.
    fn activate(&mut self) -> Outcome {
        let variant = self.choices.variant();
        let clock = self.choices.clock();
        let start = match self.row() {
            Row::PlayAi if self.choices.adapts() => Start::PlayAuto(variant, clock),
            Row::PlayAi => Start::Play(variant, Player::Human, self.choices.level(), clock),
            Row::TwoPlayers => Start::Play(variant, Player::Human, Player::Human, clock),
            Row::Host => Start::Host {
                variant,
                online: ONLINE && self.choices.online,
                clock,
            },
            Row::Join => {
                self.screen = Screen::Joining { code: None };
                return Outcome::Stay;
            }
            Row::Statistics => {
                self.screen = Screen::Games;
                return Outcome::Stay;
            }
            Row::Analyse if self.choices.puzzles => Start::Puzzles,
            Row::Analyse => Start::Analyse(variant),
            Row::Quit => Start::Quit,
            row => {
                if !self.choices.step(row, true) {
                    self.message = self.choices.fixed_note().into();
                }
                return Outcome::Stay;
            }
        };
        Outcome::Done(start)
    }

    /// A key on *Your games*: choose, filter, open; `s` the statistics, `l` the ladder.
    fn on_games(&mut self, key: &Key) -> Outcome {
        // Home, page up, End and page down arrive as the keypad's 7, 9, 1 and 3 ([`Key::of`]).
        let page = usize::from(self.size.1.saturating_sub(6)).max(1);
        let list_key = match key {
            Key::Up | Key::Char('8') => ListKey::Up,
            Key::Down | Key::Char('2') => ListKey::Down,
            Key::Char('7') => ListKey::First,
            Key::Char('1') => ListKey::Last,
            Key::Char('9') => ListKey::PageUp(page),
            Key::Char('3') => ListKey::PageDown(page),
            Key::Enter | Key::Char(' ') => ListKey::Enter,
            Key::Escape | Key::Backspace | Key::Char('q') => ListKey::Back,
            Key::Char('r') => ListKey::Rules,
            Key::Char('o') => ListKey::Opponent,
            Key::Char('s') => return Outcome::ShowStatistics,
            Key::Char('l') => {
                self.screen = Screen::Ladder;
                return Outcome::Stay;
            }
            Key::Char('f') => {
                self.message.clear();
                self.screen = Screen::OpenFile(String::new());
                return Outcome::Stay;
            }
            _ => {
                self.message =
                    "↑↓ choose, Enter opens, r rules, o opponent, f a file, s stats, l ladder, Esc back"
                        .into();
                return Outcome::Stay;
            }
        };
        self.message.clear();
        match self.games.key(list_key) {
            Choice::Stay => Outcome::Stay,
            Choice::Back => {
                self.screen = Screen::Rows;
                Outcome::Stay
            }
            Choice::Open(number) => match self.games.entry(number) {
                // Opened, a game with no moves would be a new game on an empty board.
                Some(entry) if entry.game.history().is_empty() => {
                    self.message = format!(
                        "Game {number} ended before its first move: there is nothing to look at"
                    );
                    Outcome::Stay
                }
                Some(entry) => {
                    let game = &entry.game;
                    let (first, second) = game.seats();
                    Outcome::Done(Start::Open(game.record(), first, second, None))
                }
                None => Outcome::Stay,
            },
        }
    }

    /// A key while a game file's path is typed: Enter opens the game on the board (any file
    /// `review FILE` reads), or says on the message line why it cannot.
    fn opening_file(&mut self, key: &Key, mut path: String) -> Outcome {
        match key {
            Key::Escape => {
                self.message.clear();
                self.screen = Screen::Games;
                return Outcome::Stay;
            }
            Key::Enter if path.trim().is_empty() => {
                self.message = "Type the file's path first (Esc goes back)".into();
            }
            Key::Enter => match opened(path.trim()) {
                Ok((record, _)) if record.is_empty() => {
                    let shown = crate::text::cut(&crate::text::printable(path.trim()), 60);
                    self.message = format!("{shown} holds no moves: there is nothing to look at");
                }
                Ok((record, names)) => {
                    return Outcome::Done(Start::Open(record, Player::Human, Player::Human, names));
                }
                Err(why) => {
                    let shown = crate::text::cut(&crate::text::printable(path.trim()), 60);
                    self.message = format!("{shown}: {why}");
                }
            },
            Key::Backspace => {
                path.pop();
            }
            Key::ClearLine => path.clear(),
            Key::Char(c) if !c.is_control() && path.chars().count() < MAX_PATH => path.push(*c),
            _ => {}
        }
        self.screen = Screen::OpenFile(path);
        Outcome::Stay
    }

    /// A key on the join screen: typing the address, then the code.
    fn joining(&mut self, key: &Key, code: Option<String>) -> Outcome {
        let mut field = code.clone().unwrap_or_else(|| self.choices.address.clone());
        match key {
            Key::Escape => {
                self.screen = Screen::Rows;
                return Outcome::Stay;
            }
            Key::Enter if field.trim().is_empty() => {
                self.message = "Type it first (Esc goes back)".into();
                return Outcome::Stay;
            }
            Key::Enter => match code {
                None => {
                    self.message.clear();
                    self.screen = Screen::Joining {
                        code: Some(String::new()),
                    };
                    return Outcome::Stay;
                }
                Some(code) => {
                    return Outcome::Done(Start::Join {
                        address: self.choices.address.trim().to_string(),
                        code: code.trim().to_string(),
                        watch: self.choices.watch,
                    });
                }
            },
            Key::Backspace => {
                field.pop();
            }
            Key::ClearLine => field.clear(),
            Key::Char(c) if !c.is_control() && field.chars().count() < MAX_TYPED => field.push(*c),
            _ => return Outcome::Stay,
        }
        match code {
            None => self.choices.address = field,
            Some(_) => self.screen = Screen::Joining { code: Some(field) },
        }
        Outcome::Stay
    }
}

/// The longest path typed to open a game file.
const MAX_PATH: usize = 200;

/// Why a game file did not open: it could not be read, or holds no game.
#[derive(Debug)]
enum OpenError {
    Read(std::io::Error),
    Game(crate::game::formats::FileError),
}

impl std::fmt::Display for OpenError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpenError::Read(e) => write!(f, "{e}"),
            OpenError::Game(e) => write!(f, "{e}"),
        }
    }
}

/// The game in the file at `path` (a game file, `.psq`, move string or record, as `review
/// FILE` reads them) and, from a game file, the names of its players; or why not.
fn opened(path: &str) -> Result<(Record, Option<[String; 2]>), OpenError> {
    use crate::game::file;
    let text = crate::store::games::read(std::path::Path::new(path)).map_err(OpenError::Read)?;
    if file::is_game_file(&text) {
        let game = file::read(&text).map_err(OpenError::Game)?;
        // What a file says is shown as the player's name: printable, and short.
        let name = |name: &str| crate::text::cut(&crate::text::printable(name.trim()), 24);
        let names = (!game.x.trim().is_empty() && !game.o.trim().is_empty())
            .then(|| [name(&game.x), name(&game.o)]);
        return Ok((game.record, names));
    }
    let record = crate::game::formats::read_game(&text, Variant::default());
    Ok((record.map_err(OpenError::Game)?, None))
}

/// The file of the remembered choices, where there is a profile directory.
fn choices_file() -> Option<PathBuf> {
    history::profile_dir().map(|dir| dir.join(FILE))
}

/// The Play row's name for the opponent of `settings`: `hard`, `4`, `auto`.
pub fn level_name(settings: &Settings) -> String {
    match settings.opponent() {
        Opponent::Fixed(ai) => name(ai),
        Opponent::Auto => AUTO.to_string(),
    }
}

/// The remembered choices (the defaults where there are none or the file cannot be read),
/// with the opponent of `settings`.
pub fn load(settings: &Settings) -> Choices {
    let choices = choices_file()
        .and_then(|path| crate::store::files::read_to_string(&path).ok())
        .and_then(|text| serde_json::from_str::<Choices>(&text).ok())
        .unwrap_or_default();
    Choices {
        level: level_name(settings),
        ..choices
    }
    .checked()
}

/// Remembers `choices` for the next time; a failure only costs the memory.
pub fn save(choices: &Choices) {
    let Some(path) = choices_file() else {
        return;
    };
    // Whole after a crash, and a link left where the file was is replaced, never written
    // through.
    if let Ok(text) = serde_json::to_string_pretty(choices) {
        let _ = history::replace_whole(&path, (text + "\n").as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn menu() -> Menu {
        Menu::new(Choices::default(), (80, 24))
    }

    fn keys(menu: &mut Menu, keys: &[Key]) -> Outcome {
        let mut last = Outcome::Stay;
        for key in keys {
            last = menu.update(key);
        }
        last
    }

    #[test]
    fn the_line_row_applies_from_eight_by_eight_and_goes_round_three_to_the_side() {
        let mut eight = Choices::default();
        for _ in 3..8 {
            eight.step(Row::Size, true);
        }
        assert_eq!(eight.k, 5, "five from 8×8 up");
        assert!(eight.step(Row::InARow, false));
        assert_eq!(
            eight.variant(),
            Variant::of_size(8, Some(4), false).unwrap()
        );
        for _ in 3..=8 {
            eight.step(Row::InARow, true);
        }
        assert_eq!(eight.k, 4, "round 3 to 8 and back to 4");
        eight.step(Row::Size, true);
        assert_eq!(
            (eight.size, eight.k),
            (9, 5),
            "a new size, its default line"
        );
    }

    #[test]
    fn on_gomokus_boards_the_misere_row_is_the_exact_rule() {
        let mut nine = Choices {
            size: 9,
            k: 4,
            ..Choices::default()
        };
        assert_eq!(nine.label(Row::Misere), "Exactly 4");
        assert_eq!(nine.value(Row::Misere).as_deref(), Some("off"));
        assert!(!nine.inactive(Row::Misere));
        assert!(nine.step(Row::Misere, true));
        assert_eq!(nine.value(Row::Misere).as_deref(), Some("on"));
        assert!(!nine.misere, "not misère");
        assert_eq!(
            nine.variant(),
            Variant::of_size(9, Some(4), false)
                .and_then(|v| v.exactly(true))
                .unwrap()
        );
        let seven = Choices {
            size: 7,
            exact: true,
            ..Choices::default()
        };
        assert_eq!(seven.label(Row::Misere), "Misère");
        assert_eq!(seven.value(Row::Misere).as_deref(), Some("off"));
        assert_eq!(
            seven.variant(),
            Variant::from(Rules::new(7, 3, false).unwrap()),
            "classic 7×7, whatever the exact rule says"
        );
    }

    #[test]
    fn gomoku_chosen_by_name_has_its_board_sizes_and_exactly_five_and_its_openings() {
        let mut choices = Choices {
            game: Variant::GOMOKU_EXACT.name().to_string(),
            ..Choices::default()
        };
        assert_eq!(
            choices.label(Row::InARow),
            "Opening",
            "Gomoku is five in a row"
        );
        assert_eq!(choices.value(Row::InARow).as_deref(), Some("◂ free ▸"));
        assert!(!choices.inactive(Row::Size) && !choices.inactive(Row::Misere));
        choices.step(Row::Size, false);
        assert_eq!(choices.size, 3, "Gomoku's size is its own");
        assert_eq!(choices.value(Row::Size).as_deref(), Some("◂ 14×14 ▸"));
        assert_eq!(choices.label(Row::Misere), "Exactly 5");
        assert_eq!(choices.value(Row::Misere).as_deref(), Some("on"));
        choices.step(Row::Misere, true);
        let fourteen = Variant::Gomoku {
            size: 14,
            k: 5,
            rule: gomoku::Rule::Freestyle,
            opening: Opening::Free,
        };
        assert_eq!(choices.variant(), fourteen, "Exactly 5 off, on 14×14");
        assert!(
            choices.step(Row::InARow, false),
            "free, back round to swap2"
        );
        assert_eq!(choices.value(Row::InARow).as_deref(), Some("◂ swap2 ▸"));
        assert_eq!(choices.variant(), fourteen.opened(Opening::Swap2).unwrap());
        choices.game = Variant::RENJU.name().to_string();
        let renju = Variant::named_on("renju", 14, 5).unwrap();
        assert_eq!(
            choices.variant(),
            renju.opened(Opening::Swap2).unwrap(),
            "renju keeps the opening"
        );
        choices.opening = "bogus".into();
        assert_eq!(choices.clone().checked().opening, "free");
        choices.gomoku_size = 21;
        assert_eq!(choices.checked().gomoku_size, 15, "out of range: 15×15");
    }

    #[test]
    fn gomokus_exact_rule_has_one_control_and_renju_and_caro_say_their_own_rule() {
        let mut choices = Choices {
            game: Variant::GOMOKU.name().to_string(),
            ..Choices::default()
        };
        choices.step(Row::Misere, true);
        assert_eq!(choices.variant(), Variant::GOMOKU_EXACT);
        assert_eq!(choices.value(Row::Game).as_deref(), Some("◂ Gomoku ▸"));
        assert_eq!(choices.value(Row::Misere).as_deref(), Some("on"));
        choices.step(Row::Game, true);
        assert_eq!(
            choices.variant(),
            Variant::RENJU,
            "the next game, not Gomoku again"
        );
        assert_eq!(choices.label(Row::Misere), "Rule");
        assert_eq!(
            choices.value(Row::Misere).as_deref(),
            Some("X: no overline")
        );
        assert!(choices.inactive(Row::Misere));
        choices.step(Row::Game, true);
        assert_eq!(
            choices.value(Row::Misere).as_deref(),
            Some("an open end needed")
        );
        let mut m = menu();
        m.choices.game = Variant::CARO.name().to_string();
        m.choices.row = Row::ALL.iter().position(|&r| r == Row::Misere).unwrap();
        m.update(&Key::Right);
        assert_eq!(
            m.message,
            "Caro is five in a row; five blocked at both ends wins nothing"
        );
    }

    #[test]
    fn the_game_row_cycles_classic_ultimate_and_gomoku_and_fixes_their_rules() {
        let mut choices = Choices::default();
        let mut seen = Vec::new();
        for _ in 0..6 {
            seen.push((choices.value(Row::Game).unwrap(), choices.variant()));
            choices.step(Row::Game, true);
        }
        assert_eq!(choices, Choices::default(), "six steps come round");
        let names: Vec<&str> = seen.iter().map(|(name, _)| name.as_str()).collect();
        assert_eq!(
            names,
            [
                "◂ classic ▸",
                "◂ Ultimate ▸",
                "◂ Gomoku ▸",
                "◂ Renju ▸",
                "◂ Caro ▸",
                "◂ Connect Four ▸"
            ]
        );
        let variants: Vec<Variant> = seen.iter().map(|&(_, v)| v).collect();
        assert_eq!(
            variants,
            [
                Variant::Classic(Rules::CLASSIC),
                Variant::Ultimate,
                Variant::GOMOKU,
                Variant::RENJU,
                Variant::CARO,
                Variant::CONNECT_FOUR
            ]
        );
        choices.step(Row::Game, false);
        assert_eq!(
            choices.variant(),
            Variant::CONNECT_FOUR,
            "down from classic"
        );
        let mut classic = Choices::default();
        for _ in 3..8 {
            classic.step(Row::Size, true);
        }
        assert_eq!(
            classic.variant(),
            Variant::Gomoku {
                size: 8,
                k: 5,
                rule: gomoku::Rule::Freestyle,
                opening: Opening::Free,
            },
            "the size row goes on past 7"
        );
        assert!(!classic.inactive(Row::InARow) && !classic.inactive(Row::Misere));
        for _ in 8..15 {
            classic.step(Row::Size, true);
        }
        assert_eq!(classic.variant(), Variant::GOMOKU);
        for _ in 15..20 {
            classic.step(Row::Size, true);
        }
        assert_eq!(
            classic.variant(),
            Variant::of_size(20, None, false).unwrap()
        );
        classic.step(Row::Size, true);
        assert_eq!(
            classic.variant(),
            Variant::Classic(Rules::CLASSIC),
            "and round to 3×3"
        );
        let before_the_game_row = Choices {
            ultimate: true,
            ..Choices::default()
        };
        assert_eq!(before_the_game_row.checked().variant(), Variant::Ultimate);
        let old: Choices = serde_json::from_str(r#"{"ultimate": true, "size": 5}"#).unwrap();
        assert_eq!(
            old.checked().game,
            "ultimate",
            "a file from before the Game row"
        );
        let gomoku = Choices {
            game: "gomoku".into(),
            ..Choices::default()
        };
        let text = serde_json::to_string(&gomoku).unwrap();
        assert!(
            text.contains(r#""game":"gomoku""#) && !text.contains("ultimate"),
            "{text}"
        );
        let read: Choices = serde_json::from_str(&text).unwrap();
        assert_eq!(read.checked(), gomoku);
        let unknown: Choices = serde_json::from_str(r#"{"game": "chess"}"#).unwrap();
        assert_eq!(
            unknown.checked().variant(),
            Variant::Classic(Rules::CLASSIC)
        );
    }

    #[test]
    fn enter_starts_the_highlighted_game_against_the_remembered_level() {
        let mut m = menu();
        assert_eq!(
            m.update(&Key::Enter),
            Outcome::Done(Start::Play(
                Variant::Classic(Rules::CLASSIC),
                Player::Human,
                Player::HARD,
                None
            ))
        );
    }

    #[test]
    fn the_game_chosen_is_the_game_started() {
        let mut m = menu();
        let done = keys(
            &mut m,
            &[Key::Char('5'), Key::Left, Key::Char('1'), Key::Enter],
        );
        assert_eq!(
            done,
            Outcome::Done(Start::Play(
                Variant::CONNECT_FOUR,
                Player::Human,
                Player::HARD,
                None
            ))
        );
    }

    #[test]
    fn digits_highlight_rows_and_arrows_change_values() {
        let mut m = menu();
        keys(&mut m, &[Key::Char('6'), Key::Right, Key::Right]);
        assert_eq!((m.choices.size, m.choices.k), (5, 4));
        keys(&mut m, &[Key::Char('8'), Key::Enter]);
        assert!(m.choices.misere);
        let rules = Rules::new(5, 4, true).unwrap();
        assert_eq!(
            keys(&mut m, &[Key::Char('2'), Key::Enter]),
            Outcome::Done(Start::Play(
                Variant::Classic(rules),
                Player::Human,
                Player::Human,
                None
            ))
        );
    }

    #[test]
    fn the_level_cycles_through_the_ai_levels_and_auto_only() {
        let mut m = menu();
        let mut seen = Vec::new();
        for _ in 0..levels().len() {
            m.update(&Key::Right);
            assert!(m.choices.level().is_ai());
            seen.push(m.choices.level.clone());
        }
        assert_eq!(m.choices.level(), Player::HARD);
        assert_eq!(seen[0], "auto", "after hard comes auto, then level 1");
        assert_eq!(seen[1], "easy");
        m.update(&Key::Right);
        assert_eq!(
            m.update(&Key::Enter),
            Outcome::Done(Start::PlayAuto(Variant::Classic(Rules::CLASSIC), None))
        );
    }

    #[test]
    #[cfg(feature = "online")]
    fn the_host_row_chooses_between_this_network_and_online() {
        let mut m = menu();
        keys(&mut m, &[Key::Char('3')]);
        assert_eq!(m.choices.value(Row::Host).as_deref(), Some("◂ local ▸"));
        keys(&mut m, &[Key::Right]);
        assert_eq!(m.choices.value(Row::Host).as_deref(), Some("◂ online ▸"));
        assert_eq!(
            m.update(&Key::Enter),
            Outcome::Done(Start::Host {
                variant: Variant::Classic(Rules::CLASSIC),
                online: true,
                clock: None,
            })
        );
    }

    #[test]
    fn arrows_on_the_join_row_make_it_watch_and_enter_watches() {
        let mut m = menu();
        keys(&mut m, &[Key::Char('4'), Key::Right]);
        assert_eq!(m.choices.label(Row::Join), "Watch a network game");
        keys(&mut m, &[Key::Left]);
        assert_eq!(m.choices.label(Row::Join), "Join a network game");
        keys(&mut m, &[Key::Right]);
        address_and_code_start(&mut m, true);
    }

    /// Enter on the Join row, `10.0.0.2` and the code `ab` typed: the network game asked for
    /// starts, to `watch` or to play.
    fn address_and_code_start(m: &mut Menu, watch: bool) {
        keys(m, &[Key::Enter]);
        for c in "10.0.0.2".chars() {
            m.update(&Key::Char(c));
        }
        keys(m, &[Key::Enter, Key::Char('a'), Key::Char('b')]);
        assert_eq!(
            m.update(&Key::Enter),
            Outcome::Done(Start::Join {
                address: "10.0.0.2".into(),
                code: "ab".into(),
                watch,
            })
        );
    }

    #[test]
    fn the_clock_row_steps_through_the_clocks_and_a_game_starts_on_the_one_chosen() {
        let mut m = menu();
        let row = Row::ALL.iter().position(|&r| r == Row::Clock).unwrap();
        m.choices.row = row;
        assert_eq!(m.choices.value(Row::Clock).as_deref(), Some("◂ off ▸"));
        keys(&mut m, &[Key::Right, Key::Right, Key::Right]);
        assert_eq!(m.choices.value(Row::Clock).as_deref(), Some("◂ 5+3 ▸"));
        keys(&mut m, &[Key::Char('1')]);
        let five_three = "5+3".parse().ok();
        assert_eq!(
            m.update(&Key::Enter),
            Outcome::Done(Start::Play(
                Variant::Classic(Rules::CLASSIC),
                Player::Human,
                Player::HARD,
                five_three
            ))
        );
        let left = Choices {
            clock: "nonsense".into(),
            ..Choices::default()
        };
        assert_eq!(
            left.checked().clock,
            "off",
            "an edited file's clock that is none"
        );
    }

    #[test]
    fn join_asks_for_the_address_then_the_code() {
        let mut m = menu();
        keys(&mut m, &[Key::Char('4')]);
        address_and_code_start(&mut m, false);
    }

    #[test]
    fn ctrl_u_clears_the_field_being_typed_and_other_control_keys_type_nothing() {
        let ctrl = |c| {
            Key::of(&Event::Key(KeyEvent::new(
                KeyCode::Char(c),
                KeyModifiers::CONTROL,
            )))
        };
        assert_eq!(ctrl('u'), Some(Key::ClearLine));
        assert_eq!(ctrl('a'), None, "not an a");
        let mut m = menu();
        m.screen = Screen::Games;
        m.update(&Key::Char('f'));
        for c in "old/path.txt".chars() {
            m.update(&Key::Char(c));
        }
        m.update(&Key::ClearLine);
        assert_eq!(m.screen, Screen::OpenFile(String::new()));
        m.update(&Key::Char('n'));
        assert_eq!(m.screen, Screen::OpenFile("n".into()));
    }

    #[test]
    fn f_on_your_games_opens_a_game_file_and_a_bad_one_is_named_with_its_line() {
        let dir = std::env::temp_dir().join(format!("tictactoe-open-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.txt");
        std::fs::write(&good, "tictactoe game\nrules: --size 5\n\n1. c3 b2\n").unwrap();
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "tictactoe game\nrules: --size 5\n\n1. c3 c3\n").unwrap();
        let typed = |m: &mut Menu, path: &std::path::Path| {
            for c in path.to_str().unwrap().chars() {
                m.update(&Key::Char(c));
            }
            m.update(&Key::Enter)
        };
        let mut m = menu();
        m.screen = Screen::Games;
        m.update(&Key::Char('f'));
        assert_eq!(m.screen, Screen::OpenFile(String::new()));
        assert_eq!(typed(&mut m, &bad), Outcome::Stay);
        assert!(
            m.message
                .ends_with(r#"bad.txt: line 4: move 2 ("c3"): cell c3 is taken"#),
            "{}",
            m.message
        );
        m.update(&Key::Escape);
        assert_eq!(m.screen, Screen::Games);
        m.update(&Key::Char('f'));
        let record = Record::parse(Variant::of_size(5, None, false).unwrap(), &["c3", "b2"]);
        assert_eq!(
            typed(&mut m, &good),
            Outcome::Done(Start::Open(
                record.unwrap(),
                Player::Human,
                Player::Human,
                None
            ))
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_game_of_your_games_with_no_moves_is_not_opened_as_a_new_game() {
        let variant = Variant::default();
        let mut resigned = crate::game::Game::new(variant, Player::Human, Player::HARD);
        resigned.resign(crate::rules::gomoku::opening::Seat::First);
        let mut played = crate::game::Game::new(variant, Player::Human, Player::HARD);
        played
            .play(Record::parse(variant, &["5"]).unwrap().moves()[0])
            .unwrap();
        let entry = |game| crate::store::history::Entry {
            time: "2026-11-25T10:00:00Z".into(),
            game,
            end: crate::game::GameEnd::Finished,
        };
        let mut m = menu();
        m.games = GameList::new(vec![entry(played.clone()), entry(resigned)]);
        m.screen = Screen::Games;
        assert_eq!(m.update(&Key::Enter), Outcome::Stay, "the newest: no moves");
        assert_eq!(
            m.message,
            "Game 2 ended before its first move: there is nothing to look at"
        );
        assert_eq!(m.screen, Screen::Games);
        m.update(&Key::Down);
        assert_eq!(
            m.update(&Key::Enter),
            Outcome::Done(Start::Open(
                played.record(),
                Player::Human,
                Player::HARD,
                None
            ))
        );
    }

    #[test]
    fn q_and_ctrl_c_quit_and_esc_leaves_the_join_screen_first() {
        let mut m = menu();
        keys(&mut m, &[Key::Char('4'), Key::Enter]);
        assert_eq!(m.update(&Key::Escape), Outcome::Stay);
        assert_eq!(m.screen, Screen::Rows);
        assert_eq!(m.update(&Key::Char('q')), Outcome::Done(Start::Quit));
        assert_eq!(menu().update(&Key::Interrupt), Outcome::Done(Start::Quit));
    }

    #[test]
    fn damaged_choices_are_put_back_in_range() {
        let choices: Choices =
            serde_json::from_str(r#"{"row": 99, "level": "human", "size": 40, "k": 9}"#).unwrap();
        let checked = choices.checked();
        assert_eq!(checked.row, Row::ALL.len() - 1);
        assert_eq!(checked.level(), Player::HARD);
        assert_eq!((checked.size, checked.k), (3, 3));
    }
}
