//! The plain front end's network game: set up through [`crate::net::setup`], then one loop
//! over typed lines, the network's [`NetEvent`]s and stop signals. What the network means
//! for the game is decided in [`crate::net::session`]; this file only prints it.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use anyhow::Context;

use super::{Ending, Options, Typed, finish, hint, play, prompt, show, typed};
use crate::game::TYPE_AHEAD;
use crate::line;
use crate::net::link::{LinkEvent, sink};
use crate::net::session::{NO_UNDO, NetEvent};
use crate::net::setup::{self, Listen, Network, Target};
use crate::player::Brain;
use crate::record::Record;
use crate::waiting;

/// What the plain network game waits for.
#[derive(Debug)]
pub enum Input {
    /// A line typed (or piped) by the local player.
    Line(Vec<u8>),
    /// The local input ended.
    Ended,
    Net(LinkEvent),
    /// SIGINT, SIGTERM or SIGHUP, with its number.
    Stop(i32),
}

/// How long a stopped game has to say goodbye before the process ends anyway.
const STOP_GRACE: Duration = Duration::from_secs(3);

/// `tictactoe host` in the plain front end: listen, say how to join, wait for a player, play
/// one game.
pub fn host(
    (how, opening): (Listen, Record),
    brain: &mut Brain,
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
    options: Options,
) -> anyhow::Result<Ending> {
    let keys = waiting::keys_cancel();
    if keys && how.is_online() {
        writeln!(out, "Reaching a relay (q cancels)…")?;
        out.flush()?;
    }
    let Some(listening) = waiting::cancellable(keys, move || setup::listen(how, opening))? else {
        return Ok(Ending::Cancelled);
    };
    let listening = listening?;
    if let Some(note) = listening.note() {
        writeln!(out, "{note}.")?;
    }
    writeln!(out, "{}", listening.join_line())?;
    if let Some(line) = listening.local_line() {
        writeln!(out, "{line}")?;
    }
    let waiting = listening.waiting_line();
    let (tx, rx) = mpsc::channel();
    on_stop_signal(tx.clone())?;
    let mut network = listening.start(sink(tx.clone(), Input::Net))?;
    writeln!(out, "{waiting}")?;
    out.flush()?;
    loop {
        let event = match rx.recv().context("the listener stopped")? {
            Input::Net(event) => network.net.handle(&mut network.session, event),
            Input::Stop(signal) => return Ok(Ending::Stopped(signal)),
            Input::Line(_) | Input::Ended => None,
        };
        match event {
            Some(NetEvent::Joined { addr }) => {
                writeln!(out, "{addr} joined. You play X.")?;
                break;
            }
            Some(event) => writeln!(out, "{event}.")?,
            None => {}
        }
    }
    read_lines(input, tx).context("reading input")?;
    let ending = Game::new(&mut network, brain, &rx, out, options).play()?;
    network.session.leave();
    Ok(ending)
}

/// `tictactoe join` in the plain front end: connect with the code, take the host's rules and
/// game, play it.
pub fn join(
    target: Target,
    brain: &mut Brain,
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
    options: Options,
) -> anyhow::Result<Ending> {
    let (tx, rx) = mpsc::channel();
    let keys = waiting::keys_cancel();
    if keys {
        writeln!(out, "Connecting to {} (q cancels)…", target.name())?;
        out.flush()?;
    }
    let into = sink(tx.clone(), Input::Net);
    let Some(joined) = waiting::cancellable(keys, move || setup::join(target, into))? else {
        return Ok(Ending::Cancelled);
    };
    let (mut network, line) = joined?;
    on_stop_signal(tx.clone())?;
    writeln!(out, "{line}")?;
    read_lines(input, tx).context("reading input")?;
    let ending = Game::new(&mut network, brain, &rx, out, options).play()?;
    network.session.leave();
    Ok(ending)
}

/// Reads `input`'s lines on a thread of their own and sends them, then [`Input::Ended`].
pub(super) fn read_lines(
    mut input: impl BufRead + Send + 'static,
    tx: Sender<Input>,
) -> io::Result<()> {
    thread::Builder::new().name("input".into()).spawn(move || {
        loop {
            let mut buf = Vec::new();
            let message = match line::read_line(&mut input, &mut buf) {
                Ok(0) | Err(_) => Input::Ended,
                Ok(_) => Input::Line(buf),
            };
            let ended = matches!(message, Input::Ended);
            if tx.send(message).is_err() || ended {
                break;
            }
        }
    })?;
    Ok(())
}

/// Sends SIGINT, SIGTERM and SIGHUP to the game as [`Input::Stop`], so it can say goodbye;
/// if it has not ended [`STOP_GRACE`] later, ends the process.
pub(super) fn on_stop_signal(tx: Sender<Input>) -> anyhow::Result<()> {
    on_stop_signal_cancelling(tx, None)
}

/// [`on_stop_signal`], raising `cancel` too (after the stop is sent), so that a search under
/// way ends at once and the game sees the stop.
pub(super) fn on_stop_signal_cancelling(
    tx: Sender<Input>,
    cancel: Option<Arc<AtomicBool>>,
) -> anyhow::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;
    let mut signals = Signals::new([SIGINT, SIGTERM, SIGHUP]).context("handling signals")?;
    thread::Builder::new()
        .name("stop-signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let _ = tx.send(Input::Stop(signal));
                if let Some(cancel) = cancel {
                    cancel.store(true, Ordering::SeqCst);
                }
                thread::sleep(STOP_GRACE);
                std::process::exit(128 + signal);
            }
        })
        .context("starting the signal handler")?;
    Ok(())
}

/// One network game in lines of text.
struct Game<'a> {
    network: &'a mut Network,
    brain: &'a mut Brain,
    events: &'a Receiver<Input>,
    out: &'a mut dyn Write,
    options: Options,
    /// Lines typed while the other player is to move, played in order on this side's turn.
    typed_ahead: VecDeque<Vec<u8>>,
    input_ended: bool,
    /// Whether this turn's prompt (or waiting line) has been printed.
    announced: bool,
}

impl<'a> Game<'a> {
    fn new(
        network: &'a mut Network,
        brain: &'a mut Brain,
        events: &'a Receiver<Input>,
        out: &'a mut dyn Write,
        options: Options,
    ) -> Game<'a> {
        Game {
            network,
            brain,
            events,
            out,
            options,
            typed_ahead: VecDeque::new(),
            input_ended: false,
            announced: false,
        }
    }

    /// Plays the game to its end: the other side's moves are checked before they are played,
    /// this side's are sent, and a lost connection waits for a rejoin.
    fn play(mut self) -> io::Result<Ending> {
        write!(self.out, "{}", show(self.network.session.game().position()))?;
        loop {
            let ending = self.step();
            let network = &mut *self.network;
            network
                .connection
                .sync(&network.session, network.net.orders());
            if let Some(ending) = ending? {
                return Ok(ending);
            }
        }
    }

    /// Waits for one thing to happen and acts on it; `Some` ends the game.
    fn step(&mut self) -> io::Result<Option<Ending>> {
        let game = self.network.session.game();
        let Some((mark, player)) = game.turn() else {
            finish(game, self.brain, self.out, self.options)?;
            self.network.net.leave();
            return Ok(Some(Ending::Finished));
        };
        if !self.announced {
            if player.is_human() {
                prompt(game, self.out, false)?;
            } else {
                writeln!(self.out, "Waiting for {mark} (remote)…")?;
            }
            self.announced = true;
        }
        let input = match self.typed_ahead.pop_front() {
            Some(line) if player.is_human() => Input::Line(line),
            None if self.input_ended && player.is_human() => {
                writeln!(self.out)?;
                self.network.net.leave();
                return Ok(Some(Ending::InputEnded));
            }
            Some(line) => {
                self.typed_ahead.push_front(line);
                self.events.recv().unwrap_or(Input::Ended)
            }
            None => self.events.recv().unwrap_or(Input::Ended),
        };
        match input {
            Input::Line(line) if !player.is_human() => {
                if self.typed_ahead.len() < TYPE_AHEAD {
                    self.typed_ahead.push_back(line);
                }
                Ok(None)
            }
            Input::Line(line) => self.line(&line),
            Input::Ended => {
                self.input_ended = true;
                Ok(None)
            }
            Input::Net(event) => {
                let network = &mut *self.network;
                match network.net.handle(&mut network.session, event) {
                    Some(event) => self.on_event(&event),
                    None => Ok(None),
                }
            }
            Input::Stop(signal) => {
                self.network.net.leave();
                Ok(Some(Ending::Stopped(signal)))
            }
        }
    }

    /// A line typed on this side's turn.
    fn line(&mut self, line: &[u8]) -> io::Result<Option<Ending>> {
        self.announced = false;
        let network = &mut *self.network;
        match typed(
            network.session.game(),
            line,
            self.out,
            self.options.echo,
            false,
        )? {
            Typed::Cell(cell) => match network.net.may_move() {
                Err(blocked) => writeln!(self.out, "{blocked}.")?,
                Ok(()) => {
                    if play(&mut network.session, cell, self.out)? {
                        network.net.played(&network.session);
                    }
                }
            },
            Typed::Quit => {
                network.net.leave();
                network
                    .connection
                    .sync(&network.session, network.net.orders());
                writeln!(self.out, "Quit.")?;
                let game = network.session.game();
                if !game.history().is_empty() {
                    writeln!(self.out, "Record: {}", game.record())?;
                }
                return Ok(Some(Ending::Quit));
            }
            Typed::Undo => writeln!(self.out, "{NO_UNDO}.")?,
            Typed::Hint => hint(
                network.session.game(),
                self.brain,
                self.out,
                !self.options.no_hints,
            )?,
            Typed::Handled => {}
        }
        Ok(None)
    }

    /// Prints what the network game reports; `Some` ends the game.
    fn on_event(&mut self, event: &NetEvent) -> io::Result<Option<Ending>> {
        let out = &mut *self.out;
        let position = *self.network.session.game().position();
        match event {
            NetEvent::OpponentMoved { .. } | NetEvent::Rejoined => {
                let end = if matches!(event, NetEvent::Rejoined) {
                    "."
                } else {
                    ""
                };
                writeln!(out, "{event}{end}")?;
                write!(out, "{}", show(&position))?;
                self.announced = false;
            }
            NetEvent::ConnectionLost { .. } => writeln!(out, "{event}")?,
            NetEvent::Back { .. } => {
                writeln!(out, "{event}.")?;
                self.announced = false;
            }
            _ => writeln!(out, "{event}.")?,
        }
        Ok(match event {
            NetEvent::OpponentLeft { .. } => Some(Ending::Left),
            NetEvent::RejoinFailed(_) | NetEvent::Desynced(_) => Some(Ending::Disconnected),
            _ => None,
        })
    }
}
