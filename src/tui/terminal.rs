//! A guard that puts the terminal into game mode (raw mode, alternate screen, hidden cursor,
//! mouse reports) and always puts it back: on drop, on panic, and, through a message to the
//! game loop, on every catchable signal that would end the game ([`STOP_SIGNALS`]).

use std::io::{self, Write};
use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use anyhow::Context;
use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use crossterm::style::{Attribute, SetAttribute};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};

/// Whether the terminal is in game mode now, so restoring happens once.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// While this lives the terminal is in game mode.
pub struct TerminalGuard(());

impl TerminalGuard {
    /// Enters game mode. If any step fails, what was done is undone before returning.
    pub fn enter() -> anyhow::Result<TerminalGuard> {
        install_panic_hook();
        // Made first: where a step below fails, dropping it undoes the steps before.
        let guard = TerminalGuard(());
        game_mode()?;
        // crossterm installs its resize (SIGWINCH) handler on the first poll; do it now so an
        // early resize is not lost.
        event::poll(Duration::ZERO).context("polling the terminal")?;
        Ok(guard)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// Leaves game mode: alternate screen and cursor first, then cooked mode. Safe to call more
/// than once, and from a panic hook.
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let mut out = io::stdout();
        let _ = execute!(
            out,
            DisableMouseCapture,
            SetAttribute(Attribute::Reset),
            LeaveAlternateScreen,
            cursor::Show
        );
        let _ = out.flush();
        let _ = terminal::disable_raw_mode();
    }
}

/// Whether `event` is Ctrl-Z, which raw mode delivers as a key instead of stopping the game.
pub fn is_suspend(event: &event::Event) -> bool {
    use crossterm::event::{Event, KeyCode, KeyEventKind, KeyModifiers};
    matches!(event, Event::Key(key)
        if key.kind == KeyEventKind::Press
            && key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('z' | 'Z')))
}

/// Ctrl-Z: puts the terminal back as the shell left it, stops the game as job control does
/// (SIGTSTP), and once it is continued (`fg`) enters game mode again. The caller then draws
/// the whole screen. Where the game cannot be stopped (no job control: an orphaned process
/// group, or not Unix), the screen just comes back.
pub fn suspend() -> anyhow::Result<()> {
    if !ACTIVE.load(Ordering::SeqCst) {
        return Ok(());
    }
    restore();
    #[cfg(unix)]
    signal_hook::low_level::raise(signal_hook::consts::SIGTSTP).context("suspending")?;
    game_mode()
}

/// Raw mode, the alternate screen, the cursor hidden and mouse reports: game mode, which
/// [`restore`] leaves.
fn game_mode() -> anyhow::Result<()> {
    terminal::enable_raw_mode().context("enabling raw mode")?;
    ACTIVE.store(true, Ordering::SeqCst);
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        cursor::Hide,
        EnableMouseCapture
    )
    .context("entering the alternate screen")
}

fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore();
            previous(info);
        }));
    });
}

/// The signals that end the game: every catchable one whose default is to end the process,
/// less those the program itself relies on or that are faults (SIGWINCH is a resize; SIGSEGV
/// and the like cannot be resumed from). SIGPIPE counts too: the runtime ignores it, so it
/// could only come from someone asking the game to stop.
pub const STOP_SIGNALS: [i32; 8] = {
    use signal_hook::consts::{
        SIGALRM, SIGHUP, SIGINT, SIGPIPE, SIGQUIT, SIGTERM, SIGUSR1, SIGUSR2,
    };
    [
        SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE,
    ]
};

/// Calls `stop` with the signal's number on any of [`STOP_SIGNALS`] instead of the default of
/// dying on the spot, so the game loop can return and the guard restore the terminal.
///
/// A watchdog backs this up: if the process is still running half a second after the signal,
/// it restores the terminal and exits. That covers a closed terminal window, whose input then
/// reads as endless end-of-file, which crossterm's reader can spin on.
pub fn on_stop_signal(stop: impl FnOnce(i32) + Send + 'static) -> anyhow::Result<()> {
    use signal_hook::iterator::Signals;
    let mut signals = Signals::new(STOP_SIGNALS).context("handling signals")?;
    std::thread::Builder::new()
        .name("stop-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                stop(signal);
                std::thread::sleep(Duration::from_millis(500));
                restore();
                std::process::exit(128 + signal);
            }
        })
        .context("starting the signal watchdog")?;
    Ok(())
}
