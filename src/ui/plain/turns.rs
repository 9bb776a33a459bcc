//! One loop for every plain game, on this machine or over the network: typed lines, the
//! network's [`NetEvent`]s and the stop signals arrive on one channel, and the [`Driver`]
//! says whose turn it is and what became of each move. This file only prints it.

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::Context;

use super::{
    Ending, Options, Typed, concedes, finish, hint, prompt, quit, quits, show, speech,
    spoken_prompt, typed,
};
use crate::ai::player::Brain;
use crate::game::ending::Drawn;
use crate::game::{GameEnd, TYPE_AHEAD, Verdict};
use crate::net::link::LinkEvent;
use crate::net::session::{Connection, NetEvent, NetGame};
use crate::rules::gomoku::opening::Stage;
use crate::rules::position::Move;
use crate::text::line;
use crate::text::sentence;
use crate::ui::driver::{Driver, Refused, Sent};

/// What the plain game waits for.
#[derive(Debug)]
pub enum Input {
    /// A line typed (or piped) by the local player.
    Line(Vec<u8>),
    /// The local input ended.
    Ended,
    Net(Box<LinkEvent>),
    /// SIGINT, SIGTERM or SIGHUP, with its number.
    Stop(i32),
    /// The flag of the side to act fell while the game waited.
    TimeUp,
    /// A look at the running clock found nothing to do (the session is published again).
    Tick,
}

/// How often a plain game waiting for a line looks at a running clock.
const CLOCK_LOOK: Duration = Duration::from_millis(100);

/// How long a stopped game has to say goodbye before the process ends anyway.
const STOP_GRACE: Duration = Duration::from_secs(3);

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

/// Sends SIGINT, SIGTERM and SIGHUP to the game as [`Input::Stop`], then raises `cancel` (if
/// given) so that a search under way ends at once; if the game has not ended [`STOP_GRACE`]
/// later, ends the process.
pub(super) fn on_stop_signal(
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

/// One game in lines of text.
// Each bool is a fact of its own about the lines so far (input ended, the prompt printed and
// still open, a quit asked about), not a hidden state machine.
#[allow(clippy::struct_excessive_bools)]
pub(super) struct Turns<'a> {
    driver: &'a mut Driver,
    /// A network game's connection, which carries out the driver's orders after each step.
    connection: Option<&'a Connection>,
    brain: &'a mut Brain,
    events: &'a Receiver<Input>,
    /// Raised by a stop signal, to end the AI's search under way.
    cancel: Option<Arc<AtomicBool>>,
    out: &'a mut dyn Write,
    options: Options,
    /// What arrived while the game looked only for a stop signal, before the AI's move.
    pending: VecDeque<Input>,
    /// Lines typed while the other player of a network game is to move, played in order on
    /// this side's turn (not `q`, which is answered at once).
    typed_ahead: VecDeque<Vec<u8>>,
    input_ended: bool,
    /// Whether this turn's prompt (or waiting line) has been printed.
    announced: bool,
    /// Whether the last thing printed is a prompt, its line still open for what is typed:
    /// news from elsewhere (the other player, the clock) starts a line of its own.
    open_prompt: bool,
    /// (Screen reader) `q` was asked whether it means to lose the game: the next line is
    /// the answer.
    quitting: bool,
}

impl<'a> Turns<'a> {
    pub(super) fn new(
        driver: &'a mut Driver,
        brain: &'a mut Brain,
        events: &'a Receiver<Input>,
        out: &'a mut dyn Write,
        options: Options,
    ) -> Turns<'a> {
        Turns {
            driver,
            connection: None,
            brain,
            events,
            cancel: None,
            out,
            options,
            pending: VecDeque::new(),
            typed_ahead: VecDeque::new(),
            input_ended: false,
            announced: false,
            open_prompt: false,
            quitting: false,
        }
    }

    /// The game's orders go to `connection`.
    pub(super) fn over(mut self, connection: &'a Connection) -> Turns<'a> {
        self.connection = Some(connection);
        self
    }

    /// The AI's searches end when `cancel` is raised.
    pub(super) fn cancelled_by(mut self, cancel: Arc<AtomicBool>) -> Turns<'a> {
        self.cancel = Some(cancel);
        self
    }

    /// Plays the game to its end: in a network game the other side's moves are checked
    /// before they are played, this side's are sent, and a lost connection waits for a
    /// rejoin.
    pub(super) fn play(mut self) -> io::Result<Ending> {
        self.show_board()?;
        loop {
            let ending = self.step();
            if let Some(connection) = self.connection {
                let orders = self.driver.orders();
                connection.sync(self.driver.session(), orders);
            }
            if let Some(ending) = ending? {
                return Ok(ending);
            }
        }
    }

    /// Waits for one thing to happen and acts on it; `Some` ends the game.
    fn step(&mut self) -> io::Result<Option<Ending>> {
        let game = self.driver.game();
        let Some((mark, player)) = game.turn() else {
            finish(game, self.brain, self.out, &self.options)?;
            self.driver.leave();
            return Ok(Some(Ending::Finished));
        };
        if player.is_ai() {
            return self.ai_move();
        }
        if !self.announced {
            if player.is_human() {
                let hints = self.hints_off().is_none();
                if self.options.speech {
                    spoken_prompt(self.driver.session(), self.out)?;
                } else {
                    let undo = self.driver.net().is_none();
                    prompt(self.driver.session(), self.out, (undo, hints))?;
                }
                self.open_prompt = true;
            } else if !self.driver.net().is_some_and(NetGame::is_watcher) {
                match game.position().stage() {
                    Stage::Play => writeln!(self.out, "Waiting for {mark} (remote)…")?,
                    _ => writeln!(self.out, "Waiting for remote…")?,
                }
            }
            self.announced = true;
        }
        let input = match self.typed_ahead.pop_front() {
            Some(line) if player.is_human() => Input::Line(line),
            None if self.input_ended && player.is_human() => {
                writeln!(self.out)?;
                self.driver.leave();
                return Ok(Some(Ending::InputEnded));
            }
            Some(line) => {
                self.typed_ahead.push_front(line);
                self.next_input()
            }
            None => self.next_input(),
        };
        match input {
            // `q` leaves at once, whoever's turn it is; other lines wait for this side's.
            Input::Line(line) if quits(&line) || concedes(&line) => self.line(&line),
            // A watcher's turn never comes: its lines are answered at once (a move refused,
            // a question about the game read out).
            Input::Line(line) if self.driver.net().is_some_and(NetGame::is_watcher) => {
                self.line(&line)
            }
            Input::Line(line) if !player.is_human() => {
                if self.typed_ahead.len() < TYPE_AHEAD {
                    self.typed_ahead.push_back(line);
                }
                Ok(None)
            }
            Input::Line(line) => {
                self.open_prompt = false;
                self.line(&line)
            }
            Input::Ended => {
                self.input_ended = true;
                Ok(None)
            }
            Input::Net(event) => match self.driver.link_event(*event) {
                Some(event) => {
                    self.close_prompt()?;
                    self.on_event(&event)
                }
                None => Ok(None),
            },
            Input::Stop(signal) => self.stop(signal),
            Input::Tick => Ok(None),
            // The game's last line says who ran out of time.
            Input::TimeUp => {
                self.announced = false;
                self.close_prompt()?;
                Ok(None)
            }
        }
    }

    /// Ends the prompt's line, if one is open, so that what follows has a line of its own.
    fn close_prompt(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.open_prompt) {
            writeln!(self.out)?;
        }
        Ok(())
    }

    fn next_input(&mut self) -> Input {
        if let Some(input) = self.pending.pop_front() {
            return input;
        }
        if !self.driver.clock_runs() {
            return self.events.recv().unwrap_or(Input::Ended);
        }
        match self.events.recv_timeout(CLOCK_LOOK) {
            Ok(input) => input,
            Err(RecvTimeoutError::Disconnected) => Input::Ended,
            Err(RecvTimeoutError::Timeout) => match self.driver.tick(Instant::now()) {
                Some(_) => Input::TimeUp,
                None => Input::Tick,
            },
        }
    }

    /// A stop signal that has arrived, if one has: what else arrived waits its turn.
    fn stop_arrived(&mut self) -> Option<i32> {
        loop {
            match self.events.try_recv() {
                Ok(Input::Stop(signal)) => return Some(signal),
                Ok(input) => self.pending.push_back(input),
                Err(TryRecvError::Empty | TryRecvError::Disconnected) => return None,
            }
        }
    }

    /// The AI's move, searched under the stop signals' cancel flag: a signal ends the search
    /// at once and the game as `q` does.
    fn ai_move(&mut self) -> io::Result<Option<Ending>> {
        if let Some(signal) = self.stop_arrived() {
            return self.stop(signal);
        }
        let (position, player) = self.driver.ai_to_move().expect("called on the AI's turn");
        self.brain.set_cancel(self.cancel.clone());
        if self.driver.draw_offered_to_ai() {
            let head = self.brain.analyze(&position, true).head;
            let accepts = head.is_some_and(|(value, _)| value.at_most_even());
            let session = self.driver.session();
            let name = session.name(session.side_in(position.seat())).to_string();
            if self.driver.ai_draws(accepts) {
                self.brain.set_cancel(None);
                writeln!(self.out, "{name} accepts the draw.")?;
                return Ok(None);
            }
            writeln!(self.out, "{name} declines the draw.")?;
        }
        let chosen = self
            .brain
            .choose_within(player, &position, self.driver.ai_budget());
        self.brain.set_cancel(None);
        let Some(mv) = chosen else {
            // Only a stop signal cancels the search, and it is sent before the flag is raised.
            let signal = self.stop_arrived().unwrap_or(2);
            return self.stop(signal);
        };
        let Some(mark) = self.driver.ai_move(mv) else {
            // Its flag fell before the move came: the game's last line says so.
            return Ok(None);
        };
        match self.driver.session().opening_act() {
            Some(said) => writeln!(self.out, "{said}")?,
            None if self.options.speech => {
                let position = self.driver.game().position();
                writeln!(self.out, "{mark} plays {}.", speech::said(position, mv))?;
            }
            None => writeln!(self.out, "{mark} ({player}) plays {mv}")?,
        }
        self.say_wins_nothing()?;
        self.show_board()?;
        Ok(None)
    }

    /// A stop signal: the game ends as `q` ends it, `Quit.` and the record so far.
    fn stop(&mut self, signal: i32) -> io::Result<Option<Ending>> {
        self.driver.leave();
        writeln!(self.out)?;
        quit(self.driver.game(), self.out, self.options.speech)?;
        Ok(Some(Ending::Stopped(signal)))
    }

    /// A line typed on this side's turn.
    fn line(&mut self, line: &[u8]) -> io::Result<Option<Ending>> {
        self.announced = false;
        if std::mem::take(&mut self.quitting) {
            let answer = String::from_utf8_lossy(line).trim().to_ascii_lowercase();
            if answer == "y" || answer == "yes" {
                self.driver.leave();
                quit(self.driver.game(), self.out, self.options.speech)?;
                return Ok(Some(Ending::Quit));
            }
            writeln!(self.out, "Playing on.")?;
            return Ok(None);
        }
        let undo = self.driver.net().is_none();
        let game = self.driver.game();
        let how = (self.options.echo, undo, self.options.speech);
        match typed(game, line, self.out, how)? {
            Typed::Cell(mv) => {
                let typed = String::from_utf8_lossy(line).trim().to_lowercase();
                self.person_move(mv, &typed)?;
            }
            // Heard, not seen: a quit that loses the game is asked about first, as the
            // terminal game asks.
            Typed::Quit
                if self.options.speech
                    && game.counts(GameEnd::Abandoned) == Some(Verdict::Lost)
                    && !game.is_over() =>
            {
                self.quitting = true;
                // The question is the prompt for its answer.
                write!(
                    self.out,
                    "Quit? It counts as a loss. Type y to quit, anything else plays on: "
                )?;
                self.announced = true;
                self.open_prompt = true;
            }
            Typed::Quit => {
                self.driver.leave();
                quit(self.driver.game(), self.out, self.options.speech)?;
                return Ok(Some(Ending::Quit));
            }
            Typed::Undo => match self.driver.undo() {
                Err(why) => writeln!(self.out, "{}.", sentence(&why.to_string()))?,
                Ok(0) => writeln!(self.out, "Nothing to undo.")?,
                Ok(n) => {
                    let s = if n == 1 { "" } else { "s" };
                    writeln!(self.out, "Took back {n} move{s}.")?;
                    self.show_board()?;
                }
            },
            Typed::Hint => {
                let off = self.hints_off();
                hint(self.driver.game(), self.brain, self.out, off)?;
            }
            Typed::Lines { count, only } => {
                let off = self.hints_off();
                super::lines(self.driver.game(), self.brain, self.out, off, (count, only))?;
            }
            Typed::Resign => {
                if let Err(why) = self.driver.resign() {
                    writeln!(self.out, "{}.", sentence(&why.to_string()))?;
                }
            }
            Typed::Draw => self.offer_draw()?,
            Typed::Save(file) => {
                let now = crate::store::history::now();
                let game = crate::game::file::GameFile::of(self.driver.session(), now);
                let said = crate::ui::save_game(&game, file.as_deref().map(std::path::Path::new));
                writeln!(self.out, "{said}.")?;
            }
            Typed::Read(reading) => {
                for line in reading.answer(self.driver.session()) {
                    writeln!(self.out, "{line}")?;
                }
            }
            Typed::Handled => {}
        }
        Ok(None)
    }

    /// The board after a move, drawn, except in words for a screen reader, where `board`
    /// reads it on request.
    fn show_board(&mut self) -> io::Result<()> {
        if self.options.speech {
            return Ok(());
        }
        write!(self.out, "{}", show(self.driver.game().position()))
    }

    /// Says so where the last move made a line that wins nothing by the game's rules (a
    /// caro five blocked at both ends, a six with exactly five), so nobody wonders why the
    /// game goes on.
    fn say_wins_nothing(&mut self) -> io::Result<()> {
        let game = self.driver.game();
        match game
            .last_move()
            .and_then(|mv| game.position().wins_nothing(mv))
        {
            Some(why) => writeln!(self.out, "{}.", sentence(why)),
            None => Ok(()),
        }
    }

    /// `draw`: a draw offered, or the other side's accepted.
    fn offer_draw(&mut self) -> io::Result<()> {
        let answer = match self.driver.offer_draw() {
            Ok(Drawn::Offered) => "You offer a draw: it stands until the other side moves.",
            Ok(Drawn::AlreadyOffered) => "Your offer stands until the other side moves.",
            Ok(Drawn::Agreed | Drawn::Over) => return Ok(()),
            Err(why) => return writeln!(self.out, "{}.", sentence(&why.to_string())),
        };
        writeln!(self.out, "{answer}")
    }

    /// Why hints are off, or `None` when `h` gives them: in a network game, unless both
    /// players asked for them; otherwise as the settings say.
    fn hints_off(&self) -> Option<String> {
        match self.driver.net() {
            Some(net) => net.hints_off().map(|why| why.to_string()),
            None => self
                .options
                .no_hints
                .then(|| "Hints are off in your settings (hints = false)".to_string()),
        }
    }

    /// Plays a move, typed as `typed`, and shows the board, or says why not (naming a taken
    /// cell as it was typed: `b2`, not `5`).
    fn person_move(&mut self, mv: Move, typed: &str) -> io::Result<()> {
        let before = *self.driver.game().position();
        match self.driver.person_move(mv) {
            // Read back in the words the other side's moves are said in.
            Ok(Sent::Played(mark)) if self.options.speech => {
                let said = self.driver.session().opening_act();
                let said =
                    said.unwrap_or_else(|| format!("{mark} plays {}.", speech::said(&before, mv)));
                writeln!(self.out, "{said}")?;
                self.say_wins_nothing()
            }
            Ok(_) => {
                self.say_wins_nothing()?;
                self.show_board()
            }
            Err(Refused::Illegal(e)) if e.is_taken() => {
                let named = mv.to_string();
                let why = e.to_string();
                let why = if typed.is_empty() || typed == named {
                    why
                } else {
                    why.replacen(&named, typed, 1)
                };
                let noun = mv.place_noun();
                writeln!(self.out, "{}: pick an empty {noun}.", sentence(&why))
            }
            Err(why) => writeln!(self.out, "{}.", sentence(&why.to_string())),
        }
    }

    /// Prints what the network game reports; `Some` ends the game.
    fn on_event(&mut self, event: &NetEvent) -> io::Result<Option<Ending>> {
        let out = &mut *self.out;
        let position = *self.driver.game().position();
        match event {
            NetEvent::OpponentMoved { .. } | NetEvent::Rejoined => {
                let speech = self.options.speech;
                let said = match event {
                    NetEvent::Rejoined => format!("{event}."),
                    NetEvent::OpponentMoved { mark, mv } if speech => {
                        let act = self.driver.session().opening_act();
                        act.unwrap_or_else(|| {
                            format!("{mark} plays {}.", speech::said(&position, *mv))
                        })
                    }
                    _ => (self.driver.session().opening_act()).unwrap_or_else(|| event.to_string()),
                };
                writeln!(out, "{said}")?;
                if !speech {
                    write!(out, "{}", show(&position))?;
                }
                self.announced = false;
            }
            NetEvent::ConnectionLost { .. } => writeln!(out, "{event}")?,
            NetEvent::DrawOffered { .. } => {
                writeln!(
                    out,
                    "{event}: type draw to accept it, or a move to play on."
                )?;
                self.announced = false;
            }
            // The result line says it, as the game ends.
            NetEvent::Resigned { .. } | NetEvent::DrawAgreed | NetEvent::TimeOut { .. } => {}
            NetEvent::Back { .. } => {
                writeln!(out, "{event}.")?;
                self.announced = false;
            }
            NetEvent::WatchedRound { .. } => {
                writeln!(out, "{event}.")?;
                write!(out, "{}", show(&position))?;
                self.announced = false;
            }
            _ => writeln!(out, "{event}.")?,
        }
        Ok(match event {
            NetEvent::OpponentLeft { .. } | NetEvent::WatchOver(_) => Some(Ending::Left),
            NetEvent::RejoinFailed { .. } | NetEvent::Desynced(_) | NetEvent::OutOfStep(_) => {
                Some(Ending::Disconnected)
            }
            _ => None,
        })
    }
}
