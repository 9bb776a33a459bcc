//! The full-screen terminal game: a short loop of draw, wait for an event or the AI's turn,
//! update.

use std::io::{self, BufWriter};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use anyhow::Context;
use crossterm::event::{self, Event};

use crate::app::App;
use crate::input::{self, Action};
use crate::terminal::{TerminalGuard, stop_signals};
use crate::view::{self, Painter};

/// How long to wait for input before looking at the signal flag again. Waiting is a blocking
/// poll, so an idle game uses no CPU to speak of.
const IDLE_POLL: Duration = Duration::from_millis(250);

/// How the terminal game is set up.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub color: bool,
    /// The pause before an AI move is shown.
    pub delay: Duration,
    /// Make `!` panic, to test that a panic restores the terminal.
    pub test_panic: bool,
}

/// Runs the game until the player quits or a stop signal arrives. The terminal is restored
/// whatever happens.
pub fn run(app: &mut App, options: Options) -> anyhow::Result<()> {
    let stop = stop_signals()?;
    let _guard = TerminalGuard::enter()?;
    let size = crossterm::terminal::size().context("reading the terminal size")?;
    app.update(Action::Resize {
        columns: size.0,
        rows: size.1,
    });
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout());
    let mut painter = Painter::default();
    let mut ai_due: Option<Instant> = None;
    let mut dirty = true;
    while !app.should_quit() && !stop.load(Ordering::Relaxed) {
        if dirty {
            painter
                .paint(&mut out, view::render(app, options.color))
                .context("drawing")?;
            dirty = false;
        }
        let timeout = if app.ai_to_move() {
            let now = Instant::now();
            let due = *ai_due.get_or_insert(now + options.delay);
            if now >= due {
                ai_due = None;
                app.update(Action::AiMove);
                dirty = true;
                continue;
            }
            (due - now).min(IDLE_POLL)
        } else {
            ai_due = None;
            IDLE_POLL
        };
        if event::poll(timeout).context("waiting for input")? {
            let event = event::read().context("reading input")?;
            if let Event::Resize(..) = event {
                painter.invalidate();
            }
            if let Some(action) = input::action(&event, options.test_panic) {
                app.update(action);
                dirty = true;
            }
        }
    }
    Ok(())
}
