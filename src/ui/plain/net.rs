//! The plain front end's network game: set up through [`crate::net::setup`], then played by
//! the one loop of every plain game ([`super::turns`]). What the network means for the game
//! is decided in [`crate::net::session`].

use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver};

use anyhow::Context;

use super::turns::{Input, Turns, on_stop_signal, read_lines};
use super::{Ending, Options};
use crate::ai::player::Brain;
use crate::game::record::Record;
use crate::net::link::sink;
use crate::net::session::{HINTS_ON, NetEvent};
use crate::net::setup::{self, Listen, Network, Target};
use crate::ui::driver::Driver;
use crate::ui::waiting;

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
    let mut listening = listening?;
    listening.ask_hints(!options.no_hints);
    listening.set_clock(options.clock);
    listening.limit_watchers(options.watchers);
    if let Some(note) = listening.note() {
        writeln!(out, "{note}.")?;
    }
    writeln!(out, "{}", listening.join_line())?;
    if let Some(line) = listening.local_line() {
        writeln!(out, "{line}")?;
    }
    let waiting = listening.waiting_line();
    let (tx, rx) = mpsc::channel();
    on_stop_signal(tx.clone(), None)?;
    let mut network = listening.start(sink(tx.clone(), |event| Input::Net(Box::new(event))))?;
    writeln!(out, "{waiting}")?;
    out.flush()?;
    loop {
        let event = match rx.recv().context("the listener stopped")? {
            Input::Net(event) => network.net.handle(&mut network.session, *event),
            Input::Stop(signal) => return Ok(Ending::Stopped(signal)),
            Input::Line(_) | Input::Ended | Input::TimeUp | Input::Tick => None,
        };
        match event {
            Some(NetEvent::Joined { addr }) => {
                writeln!(out, "{addr} joined. You play X.")?;
                say_hints(&network, out)?;
                break;
            }
            Some(event) => writeln!(out, "{event}.")?,
            None => {}
        }
    }
    read_lines(input, tx).context("reading input")?;
    play(network, brain, &rx, out, options)
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
    enter(target, brain, (input, out), options, false)
}

/// `tictactoe watch` in the plain front end: connect with the code, print the host's game as
/// it is played, the game so far first.
pub fn watch(
    target: Target,
    brain: &mut Brain,
    input: impl BufRead + Send + 'static,
    out: &mut dyn Write,
    options: Options,
) -> anyhow::Result<Ending> {
    enter(target, brain, (input, out), options, true)
}

/// Joins the game at `target` to play it, or to watch it.
fn enter(
    target: Target,
    brain: &mut Brain,
    (input, out): (impl BufRead + Send + 'static, &mut dyn Write),
    options: Options,
    watch: bool,
) -> anyhow::Result<Ending> {
    let (tx, rx) = mpsc::channel();
    let keys = waiting::keys_cancel();
    if keys {
        writeln!(out, "Connecting to {} (q cancels)…", target.name())?;
        out.flush()?;
    }
    let into = sink(tx.clone(), |event| Input::Net(Box::new(event)));
    let asks = !options.no_hints;
    let joined = waiting::cancellable(keys, move || {
        if watch {
            setup::watch(target, into)
        } else {
            setup::join(target, asks, into)
        }
    })?;
    let Some(joined) = joined else {
        return Ok(Ending::Cancelled);
    };
    let (network, line) = joined?;
    on_stop_signal(tx.clone(), None)?;
    writeln!(out, "{line}")?;
    say_hints(&network, out)?;
    read_lines(input, tx).context("reading input")?;
    play(network, brain, &rx, out, options)
}

/// Says so when hints are on in the game (both players asked), as both sides do.
fn say_hints(network: &Network, out: &mut dyn Write) -> std::io::Result<()> {
    if network.net.hints_on() {
        writeln!(out, "{HINTS_ON}.")?;
    }
    Ok(())
}

/// Plays the network game to its end, its orders carried out by its connection.
fn play(
    network: Network,
    brain: &mut Brain,
    events: &Receiver<Input>,
    out: &mut dyn Write,
    options: Options,
) -> anyhow::Result<Ending> {
    // A watcher keeps nothing: the game is the players'.
    let session = if network.net.is_watcher() {
        network.session
    } else {
        network.session.kept_in(options.journal.clone())
    };
    let mut driver = Driver::networked(session, network.net);
    let turns = Turns::new(&mut driver, brain, events, out, options);
    Ok(turns.over(&network.connection).play()?)
}
