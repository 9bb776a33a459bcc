//! Waits before a game starts (finding a host, reaching a relay, connecting) that `q`, Esc or
//! Ctrl-C cancels on a terminal, for both front ends: the work runs on a thread of its own
//! while the terminal is read in raw mode.

use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use crossterm::event::{self, Event, KeyCode, KeyEventKind, KeyModifiers};
use crossterm::terminal;

/// Whether standard input and output are both a terminal, where keys can cancel a wait.
pub fn keys_cancel() -> bool {
    use std::io::IsTerminal;
    std::io::stdin().is_terminal() && std::io::stdout().is_terminal()
}

/// Runs `work` to its end, or until a cancelling key when `keys` (the terminal then raw
/// meanwhile, so print nothing from `work`): `None` when cancelled. The work itself keeps
/// its own deadline; a cancelled one is left to finish on its thread.
pub fn cancellable<T: Send + 'static>(
    keys: bool,
    work: impl FnOnce() -> T + Send + 'static,
) -> anyhow::Result<Option<T>> {
    let (tx, rx) = mpsc::channel();
    thread::Builder::new()
        .name("net-setup".into())
        .spawn(move || {
            let _ = tx.send(work());
        })?;
    if !keys {
        return Ok(rx.recv().ok());
    }
    terminal::enable_raw_mode()?;
    let outcome = loop {
        match rx.recv_timeout(Duration::from_millis(20)) {
            Ok(done) => break Some(done),
            Err(RecvTimeoutError::Timeout) if !cancel_key() => {}
            Err(_) => break None,
        }
    };
    terminal::disable_raw_mode()?;
    Ok(outcome)
}

/// Whether a key that cancels is waiting (keys before it are dropped). Polls for 1 ms: a
/// poll of no time at all reports only what was read already, never the keys typed since.
pub fn cancel_key() -> bool {
    while event::poll(Duration::from_millis(1)).unwrap_or(false) {
        if let Ok(Event::Key(key)) = event::read()
            && key.kind == KeyEventKind::Press
            && (matches!(key.code, KeyCode::Char('q' | 'Q') | KeyCode::Esc)
                || (key.code == KeyCode::Char('c')
                    && key.modifiers.contains(KeyModifiers::CONTROL)))
        {
            return true;
        }
    }
    false
}
