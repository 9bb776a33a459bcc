//! The full-screen terminal game: one loop of draw, wait for the next message, update.
//!
//! Every message comes through one channel: keys, clicks and resizes from an input thread,
//! answers from the AI's worker thread, and stop signals. Nothing slow runs on the loop's
//! thread, so a key is acted on at once even while the AI thinks, and an idle game sleeps in
//! the channel until something happens.

pub mod app;
pub mod games;
pub mod home;
pub mod input;
pub mod keymap;
pub mod layout;
pub mod menu;
mod net;
pub mod settings_page;
mod terminal;
pub mod view;
pub mod worker;

use std::io::{self, BufWriter};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;
use crossterm::event::{self, Event as TermEvent};

use crate::ai::player::Brain;
use crate::game::clock::TimeControl;
use crate::game::record::Record;
use crate::game::{Journal, Session};
use crate::net::link::LinkEvent;
use crate::net::session::{Connection, NetGame};
use app::{App, Event};
pub use net::{host, join, watch};
use terminal::TerminalGuard;
use view::Painter;
use worker::{Job, Reply, Worker};

/// How often the screen is redrawn while the AI works, to show that it does.
const TICK: Duration = Duration::from_millis(200);

/// How often a running clock is looked at and redrawn: it shows tenths in its last ten
/// seconds.
const CLOCK_TICK: Duration = Duration::from_millis(100);

/// How often the explorer's step mode takes its next steps while it runs.
const STEP_TICK: Duration = Duration::from_millis(150);

/// How the terminal game is set up.
// Each bool is an independent switch of the screen, not a hidden state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug)]
pub struct Options {
    pub color: bool,
    /// Draw with ASCII characters only.
    pub ascii: bool,
    /// The least time between the AI's turn coming and its move being shown, so a person
    /// can follow.
    pub delay: Duration,
    /// Make `!` panic, to test that a panic restores the terminal.
    pub test_panic: bool,
    /// The session's game is one of the history: open it in the review.
    pub open_review: bool,
    /// Open the analysis board on this tree (at the end of its main line), on its own: leaving
    /// it ends the screen; posing the puzzle where there is one.
    pub analysis: Option<(crate::game::tree::Tree, Option<app::Posed>)>,
    /// Whether `h` gives hints.
    pub hints: bool,
    /// Open with the lesson of a first Ultimate game.
    pub lesson: bool,
    /// Where the games of a network game go (the session made on connecting enters them
    /// there); a game on this machine comes with its session's own.
    pub journal: Option<Arc<dyn Journal>>,
    /// The clock a hosted game is played on; a game on this machine comes with its
    /// session's own.
    pub clock: Option<TimeControl>,
    /// How many may watch a hosted game at once.
    pub watchers: usize,
}

/// What the session left for the caller to print once the screen is gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// `Score: you 1 · level 7 AI 0 · draws 2`.
    pub score: String,
    /// The last game with a move in it.
    pub record: Option<Record>,
    /// The signal that ended the game, if one did.
    pub signal: Option<i32>,
    /// The wait before a network game was cancelled with a key: nothing was played.
    pub cancelled: bool,
}

impl Summary {
    /// A network game whose wait (for a relay, for the host) was cancelled.
    pub fn cancelled() -> Summary {
        Summary {
            score: String::new(),
            record: None,
            signal: None,
            cancelled: true,
        }
    }
}

/// Everything the loop waits for.
pub enum Message {
    Input(TermEvent),
    InputFailed(io::Error),
    /// The worker's answer to its job number `.0`.
    Answer(u64, Reply),
    /// News from the connection of a network game.
    Net(LinkEvent),
    /// A stop signal (SIGTERM, SIGHUP, SIGINT and the like), with its number.
    Stop(i32),
    /// How the two sides of an online game are connected now (`relayed, round trip 31 ms`).
    Path(String),
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
    app.set_hints(options.hints);
    if options.lesson {
        app.start_lesson();
    }
    if options.open_review {
        app.open_archived();
    }
    match options.analysis.clone() {
        Some((tree, Some(puzzle))) => app.open_puzzle(tree, puzzle),
        Some((tree, None)) => {
            let end = tree.line_end(crate::game::tree::ROOT);
            app.open_analysis(tree, end, true);
        }
        None => {}
    }
    let connection = net.map(|net| {
        app.connect(net.game, net.join_line);
        net.connection
    });
    let input = read_input(tx.clone())?;
    let worker = Worker::spawn(brain, tx, Message::Answer)?;
    let mut game = Game {
        app,
        worker,
        held: None,
        signal: None,
        options,
        connection: connection.as_ref(),
    };
    game.run(&rx)?;
    drop(input);
    game.worker.cancel();
    game.app.close();
    if let Some(connection) = &connection {
        connection.leave();
    }
    Ok(Summary {
        score: game.app.session().score_line(),
        record: game.app.last_record(),
        signal: game.signal,
        cancelled: false,
    })
}

/// The longest a burst of messages (a paste, say) may hold back the next frame.
const MAX_FRAME_GAP: Duration = Duration::from_millis(100);

/// The loop's state between messages.
struct Game<'a> {
    app: App,
    worker: Worker,
    /// The AI's move, held back until the delay has passed.
    held: Option<(Reply, Instant)>,
    /// The stop signal that ended the loop, if one did.
    signal: Option<i32>,
    options: Options,
    /// A network game's connection, which carries out the app's orders.
    connection: Option<&'a Connection>,
}

impl Game<'_> {
    /// Draws, waits for the next message and acts on it, until the player quits or a stop
    /// signal arrives. Messages that are already waiting are all acted on before the next
    /// frame (up to [`MAX_FRAME_GAP`]), so a burst of keys costs one frame, not one each.
    fn run(&mut self, rx: &Receiver<Message>) -> anyhow::Result<()> {
        let mut out = BufWriter::with_capacity(1 << 16, io::stdout());
        let mut painter = Painter::new(self.options.ascii);
        let mut dirty = true;
        let mut drawn = Instant::now();
        let mut next = None;
        while !self.app.should_quit() && self.signal.is_none() {
            if let Some(connection) = self.connection {
                let orders = self.app.outbox();
                connection.sync(self.app.session(), orders);
            }
            let job = self.app.job();
            if self.worker.want(job.clone()) {
                self.held = None;
            }
            let busy = job.as_ref().and(self.worker.busy_for());
            if dirty && (next.is_none() || drawn.elapsed() >= MAX_FRAME_GAP) {
                let frame = view::render(&self.app, busy, self.options.color);
                painter.paint(&mut out, frame).context("drawing")?;
                dirty = false;
                drawn = Instant::now();
            }
            let message = match next.take() {
                Some(message) => Ok(message),
                None => self.wait(rx, busy),
            };
            if let Ok(Message::Input(TermEvent::Resize(..))) = &message {
                painter.invalidate();
            }
            if let Ok(Message::Input(event)) = &message
                && terminal::is_suspend(event)
            {
                terminal::suspend()?;
                painter.invalidate();
                dirty = true;
                continue;
            }
            dirty |= self.handle(message, job)?;
            next = rx.try_recv().ok();
        }
        Ok(())
    }

    /// The next message, or a timeout when a held move falls due or the thinking line needs
    /// its next tick.
    fn wait(
        &self,
        rx: &Receiver<Message>,
        busy: Option<Duration>,
    ) -> Result<Message, RecvTimeoutError> {
        let tick = if self.app.clock_runs() {
            CLOCK_TICK
        } else {
            TICK
        };
        match (&self.held, busy) {
            _ if self.app.ticking() => rx.recv_timeout(STEP_TICK.min(tick)),
            (Some((_, due)), _) => {
                rx.recv_timeout(due.saturating_duration_since(Instant::now()).min(tick))
            }
            (None, Some(_)) => rx.recv_timeout(tick),
            (None, None) if self.app.clock_runs() => rx.recv_timeout(tick),
            (None, None) => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        }
    }

    /// Acts on one message; returns whether the screen may have changed. `job` is the job
    /// the worker had when the message was awaited.
    fn handle(
        &mut self,
        message: Result<Message, RecvTimeoutError>,
        job: Option<Job>,
    ) -> anyhow::Result<bool> {
        match message {
            Ok(Message::Input(TermEvent::Resize(columns, rows))) => {
                self.app.handle(Event::Resize { columns, rows });
            }
            Ok(Message::Input(event)) => match input::action(&event, self.options.test_panic) {
                Some(action) => {
                    self.app.update(action);
                    if let Some(record) = self.app.take_export() {
                        // Into the folder the game was started from.
                        self.app.saved(crate::ui::save_game(&record, None));
                    }
                    if let Some(text) = self.app.take_export_text() {
                        self.app.saved(crate::ui::save_analysis(&text));
                    }
                }
                None => return Ok(false),
            },
            Ok(Message::InputFailed(e)) => return Err(e).context("reading input"),
            Ok(Message::Answer(_, Reply::Failed)) => anyhow::bail!("the AI stopped unexpectedly"),
            Ok(Message::Answer(id, reply)) => {
                let taken = self.answer(id, reply, job);
                if let Some((number, verdict)) = self.app.take_puzzle_verdict() {
                    keep_verdict(number, verdict);
                }
                return Ok(taken);
            }
            Ok(Message::Net(event)) => self.app.handle(Event::Net(event)),
            Ok(Message::Stop(number)) => self.signal = Some(number),
            Ok(Message::Path(path)) => self.app.set_net_path(path),
            Err(RecvTimeoutError::Timeout) => {
                if self.app.ticking() {
                    self.app.handle(Event::Tick);
                }
                if self.app.clock_runs() {
                    self.app.handle(Event::Clock);
                }
                if let Some((_, due)) = self.held
                    && Instant::now() >= due
                {
                    let (reply, _) = self.held.take().expect("just matched");
                    self.app.handle(Event::Answer(reply));
                }
            }
            Err(RecvTimeoutError::Disconnected) => anyhow::bail!("the game's threads stopped"),
        }
        Ok(true)
    }

    /// Takes the worker's answer to job `id`, holding a move back until the delay has passed;
    /// returns whether it was taken.
    fn answer(&mut self, id: u64, reply: Reply, job: Option<Job>) -> bool {
        if !self.worker.accept(id, &reply) {
            return false;
        }
        let shown_at = self
            .worker
            .busy_for()
            .map(|b| self.options.delay.saturating_sub(b));
        match (job, shown_at) {
            // On a clock the move is shown at once: the pause would be charged to the AI.
            (Some(Job::Move { .. }), Some(wait)) if !wait.is_zero() && !self.app.clock_runs() => {
                self.held = Some((reply, Instant::now() + wait));
            }
            _ => self.app.handle(Event::Answer(reply)),
        }
        true
    }
}

/// Counts a puzzle's answer in the puzzles kept: solved, or one more try. A file that cannot
/// be read or written is left as it is: the answer was said on the board.
fn keep_verdict(number: usize, verdict: crate::report::puzzles::Verdict) {
    use crate::report::puzzles::Verdict;
    use crate::store::puzzles;
    let Ok(mut kept) = puzzles::load() else {
        return;
    };
    if let Some(puzzle) = number.checked_sub(1).and_then(|i| kept.puzzles.get_mut(i)) {
        match verdict {
            Verdict::Right { .. } => puzzle.solved = true,
            Verdict::Wrong { .. } => puzzle.tries += 1,
            Verdict::Unknown { .. } => return,
        }
        let _ = puzzles::save(&kept);
    }
}

/// Reads terminal events on a thread of their own and sends them to the loop.
fn read_input(tx: Sender<Message>) -> anyhow::Result<InputReader> {
    let stop = Arc::new(AtomicBool::new(false));
    let stopped = Arc::clone(&stop);
    thread::Builder::new()
        .name("input".into())
        .spawn(move || {
            let mut continued = terminal::continued();
            while !stopped.load(Ordering::Relaxed) {
                if continued != terminal::continued() {
                    // Stopped by a signal and continued: the screen is drawn whole, at the
                    // size the terminal has now.
                    continued = terminal::continued();
                    if let Ok((columns, rows)) = crossterm::terminal::size() {
                        let _ = tx.send(Message::Input(TermEvent::Resize(columns, rows)));
                    }
                }
                // Polled with a timeout, so the thread sees the game end and takes no key
                // meant for what comes after it (the start screen).
                match event::poll(INPUT_POLL) {
                    Ok(false) => continue,
                    // The game ended while the key came: it is the next screen's.
                    Ok(true) if stopped.load(Ordering::Relaxed) => break,
                    Ok(true) => {}
                    Err(e) => {
                        let _ = tx.send(Message::InputFailed(e));
                        break;
                    }
                }
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
    Ok(InputReader { stop })
}

/// How long the input thread waits for a key before it looks whether the game has ended:
/// long enough that an idle game costs next to no CPU.
const INPUT_POLL: Duration = Duration::from_millis(250);

/// The input thread: told to stop when dropped. It reads no key after that, so it need not
/// be waited for (it ends within [`INPUT_POLL`]).
struct InputReader {
    stop: Arc<AtomicBool>,
}

impl Drop for InputReader {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}
