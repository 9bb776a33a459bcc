//! Where the plain game's lines come from: any reader, or (for a game on a terminal or a
//! pipe) a reader thread and the stop signals together, so Ctrl-C ends the game the way `q`
//! does, with `Quit.` and the record so far.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::mpsc::{self, Receiver, TryRecvError};

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use super::net::{Input, on_stop_signal_cancelling, read_lines};
use crate::line;

/// What asking for the next line got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A line, now in the buffer.
    Line,
    /// Input ended.
    Ended,
    /// A stop signal (SIGINT, SIGTERM, SIGHUP) arrived, with its number.
    Stopped(i32),
}

/// A source of typed lines for the plain game.
pub trait Lines {
    /// Reads the next line into `buf`, which is cleared first; a line over the limit is
    /// read to its end but not kept ([`line::read_line`]).
    fn next_line(&mut self, buf: &mut Vec<u8>) -> io::Result<Next>;

    /// A stop signal that has arrived, if one has; looked at between the AI's moves.
    fn stopped(&mut self) -> Option<i32> {
        None
    }

    /// The flag a stop signal raises (after it is sent), to end a search under way.
    fn cancel(&self) -> Option<Arc<AtomicBool>> {
        None
    }
}

impl<R: BufRead> Lines for R {
    fn next_line(&mut self, buf: &mut Vec<u8>) -> io::Result<Next> {
        buf.clear();
        Ok(match line::read_line(self, buf)? {
            0 => Next::Ended,
            _ => Next::Line,
        })
    }
}

/// Lines read on a thread of their own, and the stop signals, on one channel.
pub struct Signalled {
    rx: Receiver<Input>,
    /// Lines that arrived while the game looked only for a signal.
    pending: VecDeque<Input>,
    cancel: Arc<AtomicBool>,
}

impl Signalled {
    /// Starts reading `input` and listening for stop signals. A game that has not ended a
    /// few seconds after a signal is ended by the signal's handler.
    pub fn new(input: impl BufRead + Send + 'static) -> anyhow::Result<Signalled> {
        let (tx, rx) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        on_stop_signal_cancelling(tx.clone(), Some(Arc::clone(&cancel)))?;
        read_lines(input, tx)?;
        Ok(Signalled {
            rx,
            pending: VecDeque::new(),
            cancel,
        })
    }
}

impl Lines for Signalled {
    fn next_line(&mut self, buf: &mut Vec<u8>) -> io::Result<Next> {
        buf.clear();
        loop {
            let input = match self.pending.pop_front() {
                Some(input) => input,
                None => self.rx.recv().unwrap_or(Input::Ended),
            };
            match input {
                Input::Line(line) => {
                    *buf = line;
                    return Ok(Next::Line);
                }
                Input::Ended => return Ok(Next::Ended),
                Input::Stop(signal) => return Ok(Next::Stopped(signal)),
                Input::Net(_) => {}
            }
        }
    }

    fn cancel(&self) -> Option<Arc<AtomicBool>> {
        Some(Arc::clone(&self.cancel))
    }

    fn stopped(&mut self) -> Option<i32> {
        loop {
            match self.rx.try_recv() {
                Ok(Input::Stop(signal)) => return Some(signal),
                Ok(input) => self.pending.push_back(input),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return None,
            }
        }
    }
}
