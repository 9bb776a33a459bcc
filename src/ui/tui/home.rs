//! The start screen's loop: draws the menu, reads the keys, and returns what was chosen. The
//! menu's state and its keys are in [`super::menu`], its drawing in [`super::view::menu`].

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};
use std::time::Duration;

use anyhow::Context;
use crossterm::event::{self, Event};

use super::games::GameList;
use super::menu::{Key, Menu, Outcome, Screen, Start, load, save};
use super::settings_page::SettingsPage;
use super::terminal::{self, TerminalGuard};
use super::view::{self, Painter};
use crate::report::stats;
use crate::store::{history, settings};

/// The statistics as `tictactoe stats` prints them, one string a line.
fn statistics(ascii: bool) -> Vec<String> {
    let mut text = Vec::new();
    let _ = stats::run(false, ascii, &history::games(), &mut text);
    String::from_utf8_lossy(&text)
        .lines()
        .map(str::to_string)
        .collect()
}

/// Shows the start screen until something is chosen, remembers the choices and returns what
/// to start; `news` is shown on its message line first (why the last choice could not
/// start). The terminal is restored before it returns; a stop signal quits.
pub fn run(color: bool, ascii: bool, news: Option<String>) -> anyhow::Result<Start> {
    let stopped = Arc::new(AtomicI32::new(0));
    let flag = Arc::clone(&stopped);
    terminal::on_stop_signal(move |signal| flag.store(signal, Ordering::SeqCst))?;
    let guard = TerminalGuard::enter()?;
    let size = crossterm::terminal::size().context("reading the terminal size")?;
    let mut menu = opened(size, news);
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let mut painter = Painter::new(ascii);
    let mut dirty = true;
    let mut continued = terminal::continued();
    let start = loop {
        if stopped_and_continued(&mut continued) {
            // The screen is the shell's until drawn whole.
            painter.invalidate();
            dirty = true;
        }
        if dirty {
            painter
                .paint(&mut out, view::menu::render(&menu, color))
                .context("drawing")?;
            dirty = false;
        }
        let signal = stopped.load(Ordering::SeqCst);
        if signal != 0 {
            break Start::Stopped(signal);
        }
        // Polled, not read on a thread: no reader may be left behind to take the game's keys.
        // The timeout only lets a stop signal be seen.
        if !event::poll(Duration::from_millis(100)).context("reading input")? {
            continue;
        }
        let event = event::read().context("reading input")?;
        if terminal::is_suspend(&event) {
            terminal::suspend()?;
            painter.invalidate();
            dirty = true;
            continue;
        }
        if let Event::Resize(columns, rows) = event {
            menu.size = (columns, rows);
            painter.invalidate();
            dirty = true;
            continue;
        }
        let Some(key) = Key::of(&event) else {
            continue;
        };
        dirty = true;
        match menu.update(&key) {
            Outcome::Stay => {}
            Outcome::ShowStatistics => menu.screen = Screen::Statistics(statistics(ascii)),
            Outcome::SaveSettings => {
                menu.message = match settings::save(&menu.settings.settings) {
                    Ok(()) => "Settings saved (flags still win over them)".to_string(),
                    Err(e) => format!("The settings were not saved: {e}"),
                };
            }
            Outcome::Done(start) => break start,
        }
    };
    drop(guard);
    save(&menu.choices);
    // The opponent changed on the Play row is the settings' from now on.
    let saved = settings::load();
    if saved.opponent() != menu.settings.saved.opponent() {
        let opponent = menu.settings.saved.opponent.clone();
        if let Err(e) = settings::save(&settings::Settings { opponent, ..saved }) {
            history::warn(&format!("the opponent chosen was not saved: {e}"));
        }
    }
    Ok(start)
}

/// The start screen for a terminal of `size`, read from the profile: the choices and
/// settings, the games, ratings and the unfinished game; on its message line `news`, else
/// what reading the profile warned of (printed again once the terminal is given back).
fn opened(size: (u16, u16), news: Option<String>) -> Menu {
    let settings = settings::load();
    let mut menu = Menu::new(load(&settings), size);
    let games = history::games();
    menu.ratings = stats::Stats::of(&games).ratings;
    menu.games = GameList::new(games);
    menu.unfinished = history::unfinished();
    menu.settings = SettingsPage::of(settings);
    menu.message = news.unwrap_or_else(|| history::held_warnings().join("\n"));
    menu
}

/// Whether the game was stopped by a signal and continued since `seen` was taken, which it
/// then brings up to date.
fn stopped_and_continued(seen: &mut u64) -> bool {
    let now = terminal::continued();
    std::mem::replace(seen, now) != now
}
