//! A guard that puts the terminal into game mode (raw mode, alternate screen, hidden cursor,
//! mouse reports) and always puts it back: on drop, on panic, and, through a message to the
//! game loop, on every catchable signal that would end the game ([`STOP_SIGNALS`]). A stop
//! (Ctrl-Z, or SIGTSTP sent by anyone) leaves game mode before the game stops and enters it
//! again once it is continued; the loops see [`continued`] change and draw the whole screen.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, Once, PoisonError};
use std::time::Duration;

use anyhow::Context;
use crossterm::event::{
    self, DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::style::{Attribute, SetAttribute};
use crossterm::terminal::{self, EnterAlternateScreen, LeaveAlternateScreen};
use crossterm::{cursor, execute};

/// Whether the terminal is in game mode now, so restoring happens once.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// How many times the game has been stopped and continued; a loop that saw another number
/// draws the whole screen again.
static CONTINUED: AtomicU64 = AtomicU64::new(0);

/// Held while the game stops and comes back, so a Ctrl-Z key and a SIGTSTP arriving together
/// stop it once each, one after the other.
static STOPPING: Mutex<()> = Mutex::new(());

/// While this lives the terminal is in game mode.
pub struct TerminalGuard(());

impl TerminalGuard {
    /// Enters game mode. If any step fails, what was done is undone before returning.
    pub fn enter() -> anyhow::Result<TerminalGuard> {
        install_panic_hook();
        install_stop_handler();
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
            DisableBracketedPaste,
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

/// Ctrl-Z: puts the terminal back as the shell left it, stops the game as job control does,
/// and once it is continued (`fg`) enters game mode again. The caller then draws the whole
/// screen. Where the game cannot be stopped (no job control: an orphaned process group, or
/// not Unix), the screen just comes back.
pub fn suspend() -> anyhow::Result<()> {
    if !ACTIVE.load(Ordering::SeqCst) {
        return Ok(());
    }
    stop_as_a_job()
}

/// How many times the game has been stopped and continued so far: when it differs from the
/// number a loop saw last, that loop draws the whole screen.
pub fn continued() -> u64 {
    CONTINUED.load(Ordering::SeqCst)
}

/// Leaves game mode if in it, stops the process where a shell can continue it, and after
/// that enters game mode again if it was in it.
fn stop_as_a_job() -> anyhow::Result<()> {
    let _one_at_a_time = STOPPING.lock().unwrap_or_else(PoisonError::into_inner);
    let was_active = ACTIVE.load(Ordering::SeqCst);
    restore();
    #[cfg(unix)]
    if under_job_control() {
        // SIGSTOP, not SIGTSTP: our own handler has SIGTSTP, and SIGSTOP cannot be caught.
        signal_hook::low_level::raise(signal_hook::consts::SIGSTOP).context("stopping")?;
    }
    CONTINUED.fetch_add(1, Ordering::SeqCst);
    if was_active {
        game_mode()?;
    }
    Ok(())
}

/// Whether a shell with job control could continue the game once stopped: the parent is in
/// the same session and in another process group, so ours is not orphaned (POSIX drops the
/// terminal's stop signals for orphaned groups, which nothing could continue).
#[cfg(unix)]
fn under_job_control() -> bool {
    use rustix::process::{getpgid, getpgrp, getppid, getsid};
    let Some(parent) = getppid() else {
        return false;
    };
    match (getpgid(Some(parent)), getsid(Some(parent)), getsid(None)) {
        (Ok(parent_group), Ok(parent_session), Ok(session)) => {
            parent_group != getpgrp() && parent_session == session
        }
        _ => false,
    }
}

/// SIGTSTP from outside the game (`kill -TSTP`; Ctrl-Z itself arrives as a key in raw mode):
/// handled as Ctrl-Z is, so the game never stops with the terminal left in game mode.
fn install_stop_handler() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        #[cfg(unix)]
        if let Ok(mut signals) = signal_hook::iterator::Signals::new([signal_hook::consts::SIGTSTP])
        {
            let _ = std::thread::Builder::new()
                .name("job-stop".into())
                .spawn(move || {
                    for _ in signals.forever() {
                        let _ = stop_as_a_job();
                    }
                });
        }
    });
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
        EnableMouseCapture,
        EnableBracketedPaste
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
