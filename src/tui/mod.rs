//! The full-screen terminal game: one loop of draw, wait for the next message, update.
//!
//! Every message comes through one channel: keys, clicks and resizes from an input thread,
//! answers from the AI's worker thread, and stop signals. Nothing slow runs on the loop's
//! thread, so a key is acted on at once even while the AI thinks, and an idle game sleeps in
//! the channel until something happens.

pub mod app;
pub mod input;
pub mod layout;
mod net;
mod terminal;
pub mod view;
pub mod worker;

use std::io::{self, BufWriter};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;
use crossterm::event::{self, Event as TermEvent};

use crate::game::Session;
use crate::net::link::LinkEvent;
use crate::net::session::{Connection, NetGame};
use crate::player::Brain;
use crate::record::Record;
use app::{App, Event};
pub use net::{host, join};
use terminal::TerminalGuard;
use view::Painter;
use worker::{Job, Reply, Worker};

/// How often the screen is redrawn while the AI works, to show that it does.
const TICK: Duration = Duration::from_millis(200);

/// How the terminal game is set up.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub color: bool,
    /// The least time between the AI's turn coming and its move being shown, so a person
    /// can follow.
    pub delay: Duration,
    /// Make `!` panic, to test that a panic restores the terminal.
    pub test_panic: bool,
}

/// What the session left for the caller to print once the screen is gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// `Score: you 1 · hard AI 0 · draws 2`.
    pub score: String,
    /// The last game with a move in it.
    pub record: Option<Record>,
    /// The signal that ended the game, if one did.
    pub signal: Option<i32>,
}

/// Everything the loop waits for.
pub enum Message {
    Input(TermEvent),
    InputFailed(io::Error),
    /// The worker's answer to its job number `.0`.
    Answer(u64, Reply),
    /// News from the connection of a network game.
    Net(LinkEvent),
    /// SIGTERM, SIGHUP or SIGINT, with its number.
    Stop(i32),
}

/// The loop's channel: a network connection made before the screen is taken sends into it.
pub fn channel() -> (Sender<Message>, Receiver<Message>) {
    mpsc::channel()
}

/// A network game for the loop: the game's side goes to the app, the connection stays with
/// the loop, which carries out the app's orders.
pub struct Network {
    pub game: NetGame,
    pub connection: Connection,
    /// A host's `Join with:` line, shown until a player joins.
    pub join_line: Option<String>,
}

/// Plays `session` on the terminal until the player quits or a stop signal arrives, with
/// `brain` moving for the AI. The terminal is restored whatever happens.
pub fn run(session: Session, brain: Brain, options: Options) -> anyhow::Result<Summary> {
    run_with(session, brain, options, channel(), None)
}

/// [`run`] on a channel made by the caller, with a network game's connection if there is one.
pub fn run_with(
    session: Session,
    brain: Brain,
    options: Options,
    (tx, rx): (Sender<Message>, Receiver<Message>),
    net: Option<Network>,
) -> anyhow::Result<Summary> {
    let stop = tx.clone();
    terminal::on_stop_signal(move |signal| {
        let _ = stop.send(Message::Stop(signal));
    })?;
    let _guard = TerminalGuard::enter()?;
    let size = crossterm::terminal::size().context("reading the terminal size")?;
    let mut app = App::new(session, size);
    let connection = net.map(|net| {
        app.connect(net.game, net.join_line);
        net.connection
    });
    read_input(tx.clone())?;
    let mut worker = Worker::spawn(brain, tx, Message::Answer)?;
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout());
    let mut painter = Painter::default();
    // The AI's move, held back until the delay has passed.
    let mut held: Option<(Reply, Instant)> = None;
    let mut dirty = true;
    let mut signal = None;
    while !app.should_quit() {
        if let Some(connection) = &connection {
            let orders = app.outbox();
            connection.sync(app.session(), orders);
        }
        let job = app.job();
        if worker.want(job.clone()) {
            held = None;
        }
        let busy = job.as_ref().and(worker.busy_for());
        if dirty {
            let frame = view::render(&app, busy, options.color);
            painter.paint(&mut out, frame).context("drawing")?;
            dirty = false;
        }
        let wait = match (&held, busy) {
            (Some((_, due)), _) => due.saturating_duration_since(Instant::now()).min(TICK),
            (None, Some(_)) => TICK,
            (None, None) => Duration::MAX,
        };
        let message = if wait == Duration::MAX {
            rx.recv().map_err(|_| RecvTimeoutError::Disconnected)
        } else {
            rx.recv_timeout(wait)
        };
        match message {
            Ok(Message::Input(TermEvent::Resize(columns, rows))) => {
                painter.invalidate();
                app.handle(Event::Resize { columns, rows });
            }
            Ok(Message::Input(event)) => match input::action(&event, options.test_panic) {
                Some(action) => app.update(action),
                None => continue,
            },
            Ok(Message::InputFailed(e)) => return Err(e).context("reading input"),
            Ok(Message::Answer(_, Reply::Failed)) => anyhow::bail!("the AI stopped unexpectedly"),
            Ok(Message::Answer(id, reply)) => {
                if !worker.accept(id, &reply) {
                    continue;
                }
                let shown_at = worker.busy_for().map(|b| options.delay.saturating_sub(b));
                match (job, shown_at) {
                    (Some(Job::Move { .. }), Some(wait)) if !wait.is_zero() => {
                        held = Some((reply, Instant::now() + wait));
                    }
                    _ => app.handle(Event::Answer(reply)),
                }
            }
            Ok(Message::Net(event)) => app.handle(Event::Net(event)),
            Ok(Message::Stop(number)) => {
                signal = Some(number);
                break;
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Some((_, due)) = held
                    && Instant::now() >= due
                {
                    let (reply, _) = held.take().expect("just matched");
                    app.handle(Event::Answer(reply));
                }
            }
            Err(RecvTimeoutError::Disconnected) => anyhow::bail!("the game's threads stopped"),
        }
        dirty = true;
    }
    worker.cancel();
    if let Some(connection) = &connection {
        connection.leave();
    }
    Ok(Summary {
        score: app.session().score_line(),
        record: app.last_record(),
        signal,
    })
}

/// Reads terminal events on a thread of their own and sends them to the loop.
fn read_input(tx: Sender<Message>) -> anyhow::Result<()> {
    thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            loop {
                let message = match event::read() {
                    Ok(event) => Message::Input(event),
                    Err(e) => Message::InputFailed(e),
                };
                let failed = matches!(message, Message::InputFailed(_));
                if tx.send(message).is_err() || failed {
                    break;
                }
            }
        })
        .context("starting the input thread")?;
    Ok(())
}
