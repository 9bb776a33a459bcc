//! Game clocks: a time control (`5+3`: five minutes and three seconds added after each
//! move; `30s`: thirty seconds for every move), each seat's time left, and a flag that falls
//! when the seat to act has none.
//!
//! The clock keeps time by seats, not colours, so it stays with the people when a swap
//! opening exchanges the colours. It runs for the seat to act from the moment the session
//! starts it ([`Session::start_clock`]) and is pressed by every move played in the session.
//! Every method that reads time takes the moment it reads it at, so the rules of time are
//! tested without waiting.
//!
//! In a network game the host's clock is the referee: the joiner says with each move how
//! long it thought, and the host charges it that, but never less than the time the host saw
//! pass between sending its own move and receiving the answer, less the time the messages
//! may have spent on the way (the round trip the connection timed lately, at most [`LAG`]),
//! nor more than that whole time. A joiner that lags keeps its thinking time; one that
//! claims to think faster than the host could see is charged all but the round trip of what
//! the host saw. Only the host lets a flag fall, and the remote seat's flag falls [`LAG`]
//! after its time runs out on the host's clock.

use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

use super::{Game, GameEnd, Session};
use crate::ai::player::Player;
use crate::game::ending::Ending;
use crate::rules::classic::Mark;
use crate::rules::gomoku::opening::Seat;

/// The most a remote player's answer may spend on the way without being charged to them.
pub const LAG: Duration = Duration::from_secs(1);

/// What a remote player says it spent on a move, and how much of the time the referee saw
/// may have been the messages' way there and back (never counted as more than [`LAG`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reported {
    pub spent: Duration,
    pub lag: Duration,
}
/// What a program's thinking leaves of its time for making the move.
const MARGIN: Duration = Duration::from_millis(50);
/// The most time a clock may give: a day.
const MOST: Duration = Duration::from_hours(24);
/// How a player writes a time control, for error messages.
const CLOCK_FORMS: &str =
    "minutes and seconds added a move (5+3), minutes (10) or seconds a move (30s)";

/// How much time each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeControl {
    /// `main` for the whole game, and `increment` added after each of one's own moves.
    Fischer { main: Duration, increment: Duration },
    /// The same time for every move; time not used is not saved up.
    PerMove(Duration),
}

impl TimeControl {
    /// The time each side starts with.
    pub fn start(self) -> Duration {
        match self {
            TimeControl::Fischer { main, .. } => main,
            TimeControl::PerMove(each) => each,
        }
    }

    /// What it is, in words: `5 min + 3 s a move`, `30 s a move`.
    pub fn words(self) -> String {
        self.phrased(span, ("for the game", "+", "a move"))
    }

    /// What it is, in whole words for a screen reader: `5 minutes each, and 3 seconds more
    /// a move`, `30 seconds a move`.
    pub fn spoken(self) -> String {
        self.phrased(said, ("each for the game", "each, and", "more a move"))
    }

    /// What it is, each span put by `unit`: the main time and `whole` (a game without
    /// increment), the main time, `plus` and the increment, `more`, or the time a move.
    fn phrased(
        self,
        unit: fn(Duration) -> String,
        (whole, plus, more): (&str, &str, &str),
    ) -> String {
        match self {
            TimeControl::Fischer { main, increment } if increment.is_zero() => {
                format!("{} {whole}", unit(main))
            }
            TimeControl::Fischer { main, increment } => {
                format!("{} {plus} {} {more}", unit(main), unit(increment))
            }
            TimeControl::PerMove(each) => format!("{} a move", unit(each)),
        }
    }
}

/// A span of time in words: `5 min`, `1 min 30 s`, `45 s`.
fn span(d: Duration) -> String {
    let secs = d.as_secs();
    match (secs / 60, secs % 60) {
        (0, s) => format!("{s} s"),
        (m, 0) => format!("{m} min"),
        (m, s) => format!("{m} min {s} s"),
    }
}

/// Written as it is typed: `5+3`, `10`, `1:30+2`, `30s`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Fischer { main, increment } => {
                let secs = main.as_secs();
                match secs % 60 {
                    0 => write!(f, "{}", secs / 60)?,
                    s => write!(f, "{}:{s:02}", secs / 60)?,
                }
                match increment.as_secs() {
                    0 => Ok(()),
                    inc => write!(f, "+{inc}"),
                }
            }
            TimeControl::PerMove(each) => write!(f, "{}s", each.as_secs()),
        }
    }
}

/// Why a time control could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClockError(String);

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: a clock is {CLOCK_FORMS}", self.0)
    }
}

impl std::error::Error for ClockError {}

impl FromStr for TimeControl {
    type Err = ClockError;

    fn from_str(text: &str) -> Result<TimeControl, ClockError> {
        let text = text.trim();
        let bad = |why: &str| ClockError(format!("{:?} {why}", crate::text::cut(text, 20)));
        let whole = |s: &str| s.parse::<u64>().map_err(|_| bad("is not a clock"));
        let control = if let Some(each) = text.strip_suffix('s') {
            TimeControl::PerMove(Duration::from_secs(whole(each)?))
        } else {
            let (main, increment) = text.split_once('+').unwrap_or((text, "0"));
            let main = match main.split_once(':') {
                Some((m, s)) if s.len() == 2 && whole(s)? < 60 => {
                    whole(m)?.saturating_mul(60).saturating_add(whole(s)?)
                }
                Some(_) => return Err(bad("has seconds that are not two digits under 60")),
                None => whole(main)?.saturating_mul(60),
            };
            TimeControl::Fischer {
                main: Duration::from_secs(main),
                increment: Duration::from_secs(whole(increment)?),
            }
        };
        let (start, added) = match control {
            TimeControl::Fischer { main, increment } => (main, increment),
            TimeControl::PerMove(each) => (each, Duration::ZERO),
        };
        if start.is_zero() {
            Err(bad("gives no time"))
        } else if start > MOST || added > MOST {
            Err(bad("gives more than a day"))
        } else {
            Ok(control)
        }
    }
}

/// Each seat's time under one time control, and the seat whose time runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// The first seat's time left and the second's, as of the moment the running one started.
    left: [Duration; 2],
    /// The seat whose time runs, since when.
    running: Option<(Seat, Instant)>,
    /// The time the last move pressed was charged.
    spent: Option<Duration>,
}

fn index(seat: Seat) -> usize {
    match seat {
        Seat::First => 0,
        Seat::Second => 1,
    }
}

impl Clock {
    /// Both seats' full time, neither running.
    pub fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: [control.start(); 2],
            running: None,
            spent: None,
        }
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The seat whose time runs, if one's does.
    pub fn running(&self) -> Option<Seat> {
        self.running.map(|(seat, _)| seat)
    }

    /// `seat`'s time left at `now`.
    pub fn left(&self, seat: Seat, now: Instant) -> Duration {
        let stored = self.left[index(seat)];
        match self.running {
            Some((running, since)) if running == seat => {
                stored.saturating_sub(now.saturating_duration_since(since))
            }
            _ => stored,
        }
    }

    /// Both seats' time left at `now`, the first seat's first.
    pub fn readings(&self, now: Instant) -> [Duration; 2] {
        [self.left(Seat::First, now), self.left(Seat::Second, now)]
    }

    /// The time charged for the last move pressed.
    pub fn spent(&self) -> Option<Duration> {
        self.spent
    }

    /// `seat`'s time runs from `now`; a seat whose time ran until now is charged it (no
    /// time is added: this is no move).
    pub fn run(&mut self, seat: Seat, now: Instant) {
        self.halt(now);
        self.running = Some((seat, now));
    }

    /// No time runs, and none is charged for the time it ran: it ran before the game was
    /// under way.
    pub fn unstart(&mut self) {
        self.running = None;
    }

    /// No time runs from `now`; the seat whose time ran is charged it.
    pub fn halt(&mut self, now: Instant) {
        if let Some((seat, _)) = self.running {
            self.left[index(seat)] = self.left(seat, now);
            self.running = None;
        }
    }

    /// `seat` moved at `now`: it is charged the time since its time started to run (or, for
    /// a remote player's `reported` time, that time within its lag of what was seen, as the
    /// module says), then given its increment, or its time for the next move. No time runs
    /// after it.
    pub fn press(&mut self, seat: Seat, now: Instant, reported: Option<Reported>) {
        let seen = match self.running {
            Some((running, since)) if running == seat => now.saturating_duration_since(since),
            _ => Duration::ZERO,
        };
        let spent = reported.map_or(seen, |r| {
            r.spent.clamp(seen.saturating_sub(r.lag.min(LAG)), seen)
        });
        self.running = None;
        let left = &mut self.left[index(seat)];
        *left = match self.control {
            TimeControl::Fischer { increment, .. } => left
                .saturating_sub(spent)
                .saturating_add(increment)
                .min(MOST),
            TimeControl::PerMove(each) => each,
        };
        self.spent = Some(spent);
    }

    /// How long `seat` may think when a program plays it, from the time it had when its
    /// turn came: a twentieth of it and most of its increment in a game, most of the move's
    /// time under a time a move, never more than half of it, with a margin for the move to
    /// be made.
    pub fn budget(&self, seat: Seat) -> Duration {
        let left = self.left[index(seat)];
        let share = match self.control {
            TimeControl::Fischer { increment, .. } => left / 20 + increment * 3 / 4,
            TimeControl::PerMove(_) => left * 3 / 4,
        };
        share
            .min(left / 2)
            .saturating_sub(MARGIN)
            .max(Duration::from_millis(1))
    }

    /// The seat whose flag has fallen at `now`: the one whose time runs, with none left
    /// `grace` after it ran out.
    pub fn fallen(&self, now: Instant, grace: Duration) -> Option<Seat> {
        let (seat, since) = self.running?;
        let spent = now.saturating_duration_since(since);
        (spent > self.left[index(seat)].saturating_add(grace)).then_some(seat)
    }

    /// Sets both seats' time left to `readings` (the host's, in a network game), the time of
    /// the seat that runs counted from `now`.
    pub fn set(&mut self, readings: [Duration; 2], now: Instant) {
        self.left = readings.map(|d| d.min(MOST));
        if let Some((seat, _)) = self.running {
            self.running = Some((seat, now));
        }
    }
}

/// A time left as a clock shows it: `4:05`, `1:02:03`, and tenths in the last ten seconds
/// (`9.4s`).
pub fn shown(left: Duration) -> String {
    let secs = left.as_secs();
    if secs < 10 {
        format!("{secs}.{}s", left.subsec_millis() / 100)
    } else if secs < 3600 {
        format!("{}:{:02}", secs / 60, secs % 60)
    } else {
        format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60)
    }
}

/// A time left in words: `4 minutes 5 seconds`, `9 seconds`.
pub fn said(left: Duration) -> String {
    let secs = left.as_secs();
    let unit = |n: u64, one: &str| match n {
        1 => format!("1 {one}"),
        n => format!("{n} {one}s"),
    };
    match (secs / 60, secs % 60) {
        (0, s) => unit(s, "second"),
        (m, 0) => unit(m, "minute"),
        (m, s) => format!("{} {}", unit(m, "minute"), unit(s, "second")),
    }
}

/// Whether a time left is in its last ten seconds, when a clock is drawn to catch the eye.
pub fn is_short(left: Duration) -> bool {
    left < Duration::from_secs(10)
}

impl Game {
    /// `seat`'s flag fell: the other wins. Refused (false) once the game is over.
    fn time_out(&mut self, seat: Seat) -> bool {
        if self.is_over() {
            return false;
        }
        self.ended = Some(Ending::Time(self.position.mark_of(seat)));
        true
    }

    /// Takes back the last move, whoever made it (a move that crossed the host's word that
    /// the flag had fallen before it).
    fn take_back(&mut self) {
        if self.history.len() > self.opening {
            self.truncate(self.history.len() - 1);
        }
    }
}

impl Session {
    /// This session, played on `control`'s clock from its next start
    /// ([`Session::start_clock`]).
    pub fn with_clock(mut self, control: Option<TimeControl>) -> Session {
        self.clock = control.map(Clock::new);
        self
    }

    /// The clock, where the session is played on one.
    pub fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref()
    }

    /// The clock runs from `now` for the seat to act, unless it runs already or the game is
    /// over.
    pub fn start_clock(&mut self, now: Instant) {
        let seat = self.game.position.seat();
        let over = self.game.is_over();
        if let Some(clock) = &mut self.clock
            && clock.running().is_none()
            && !over
        {
            clock.run(seat, now);
        }
    }

    /// Presses the clock for the move just played by `seat` at `now` (charged `reported`
    /// where a remote player says how long it thought), and runs it for the seat to act.
    pub(super) fn press_clock(&mut self, seat: Seat, now: Instant, reported: Option<Reported>) {
        let (next, over) = (self.game.position.seat(), self.game.is_over());
        if let Some(clock) = &mut self.clock {
            let running = clock.running().is_some();
            clock.press(seat, now, reported);
            if running && !over {
                clock.run(next, now);
            }
        }
    }

    /// No time runs from `now` (the game is not under way: a host waiting for its player,
    /// a network game whose other player left, a game that ended).
    pub fn stop_clock(&mut self, now: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.halt(now);
        }
    }

    /// The clock that started with the session waits, nothing charged, until the game is
    /// under way (a host's, for its player).
    pub fn hold_clock(&mut self) {
        if let Some(clock) = &mut self.clock {
            clock.unstart();
        }
    }

    /// Sets the clock to the host's `readings`, counted from `now` (a joiner's).
    pub fn set_clock(&mut self, readings: [Duration; 2], now: Instant) {
        if let Some(clock) = &mut self.clock {
            clock.set(readings, now);
        }
    }

    /// The referee's look at the clock at `now`: if the flag of the seat to act has fallen
    /// (a remote seat's [`LAG`] after its time ran out), the game is lost on time and
    /// entered in the journal, and the mark that lost is returned.
    pub fn flag(&mut self, now: Instant) -> Option<Mark> {
        let clock = self.clock.as_ref()?;
        let seat = clock.running()?;
        let grace = if self.game.seat_player(seat) == Player::Remote {
            LAG
        } else {
            Duration::ZERO
        };
        clock.fallen(now, grace)?;
        self.time_runs_out(seat, now)
    }

    /// `seat`'s flag fell at `now` (as the referee says): the game is lost on time.
    fn time_runs_out(&mut self, seat: Seat, now: Instant) -> Option<Mark> {
        if !self.game.time_out(seat) {
            return None;
        }
        if let Some(clock) = &mut self.clock {
            clock.halt(now);
            clock.left[index(seat)] = Duration::ZERO;
        }
        self.enter(GameEnd::Finished);
        Some(self.game.position.mark_of(seat))
    }

    /// The host says the flag of the seat to act after `moves` moves fell: the game is lost
    /// on time there, a move of this side's that crossed the word taken back. `None`: the
    /// game does not have that many moves (or one more), or is over.
    pub fn flag_fell_at(&mut self, moves: usize, now: Instant) -> Option<Mark> {
        let len = self.game.history.len();
        let crossed = moves.checked_add(1) == Some(len);
        if crossed && moves >= self.game.opening && self.game.ending().is_none() {
            self.game.take_back();
        } else if len != moves {
            return None;
        }
        let seat = self.game.position.seat();
        self.time_runs_out(seat, now)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::{Board, Rules};
    use crate::rules::position::Outcome;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn time_controls_read_as_typed_and_write_back_the_same() {
        for (text, control) in [
            (
                "5+3",
                TimeControl::Fischer {
                    main: secs(300),
                    increment: secs(3),
                },
            ),
            (
                "10",
                TimeControl::Fischer {
                    main: secs(600),
                    increment: secs(0),
                },
            ),
            (
                "1:30+2",
                TimeControl::Fischer {
                    main: secs(90),
                    increment: secs(2),
                },
            ),
            ("30s", TimeControl::PerMove(secs(30))),
        ] {
            assert_eq!(text.parse::<TimeControl>(), Ok(control), "{text}");
            assert_eq!(control.to_string(), text);
        }
        assert_eq!(
            "5+3".parse::<TimeControl>().unwrap().words(),
            "5 min + 3 s a move"
        );
        assert_eq!("30s".parse::<TimeControl>().unwrap().words(), "30 s a move");
        assert_eq!(
            "5+3".parse::<TimeControl>().unwrap().spoken(),
            "5 minutes each, and 3 seconds more a move"
        );
    }

    #[test]
    fn a_clock_that_gives_no_time_or_is_no_clock_is_refused_with_the_forms_it_takes() {
        for bad in [
            "0",
            "0s",
            "0+5",
            "five",
            "5+x",
            "1:5",
            "1:75",
            "",
            "100000",
            "-1",
            "99999999999999999999:00",
            "18446744073709551615:00",
        ] {
            let error = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(error.contains("a clock is minutes"), "{bad}: {error}");
        }
    }

    #[test]
    fn a_move_is_charged_its_time_and_given_the_increment() {
        let t0 = Instant::now();
        let mut clock = Clock::new("1+2".parse().unwrap());
        clock.run(Seat::First, t0);
        assert_eq!(clock.left(Seat::First, t0 + secs(10)), secs(50));
        assert_eq!(
            clock.left(Seat::Second, t0 + secs(10)),
            secs(60),
            "not running"
        );
        clock.press(Seat::First, t0 + secs(10), None);
        assert_eq!(clock.readings(t0 + secs(99)), [secs(52), secs(60)]);
        assert_eq!(clock.spent(), Some(secs(10)));
    }

    #[test]
    fn a_time_a_move_starts_afresh_each_move() {
        let t0 = Instant::now();
        let mut clock = Clock::new("20s".parse().unwrap());
        clock.run(Seat::Second, t0);
        clock.press(Seat::Second, t0 + secs(15), None);
        assert_eq!(clock.left(Seat::Second, t0 + secs(15)), secs(20));
    }

    #[test]
    fn the_flag_falls_only_when_the_running_time_is_spent_and_its_grace_too() {
        let t0 = Instant::now();
        let mut clock = Clock::new("10s".parse().unwrap());
        assert_eq!(
            clock.fallen(t0 + secs(60), Duration::ZERO),
            None,
            "not running"
        );
        clock.run(Seat::First, t0);
        assert_eq!(clock.fallen(t0 + secs(10), Duration::ZERO), None);
        let late = t0 + Duration::from_millis(10_500);
        assert_eq!(clock.fallen(late, Duration::ZERO), Some(Seat::First));
        assert_eq!(clock.fallen(late, LAG), None, "within the grace");
    }

    #[test]
    fn a_remote_player_is_charged_what_it_reports_within_the_lag_of_what_was_seen() {
        let t0 = Instant::now();
        let charged = |reported: u64, lag: Duration| {
            let mut clock = Clock::new("1".parse().unwrap());
            clock.run(Seat::Second, t0);
            let reported = Reported {
                spent: secs(reported),
                lag,
            };
            clock.press(Seat::Second, t0 + secs(5), Some(reported));
            clock.spent().unwrap()
        };
        assert_eq!(charged(5, LAG), secs(5), "no lag");
        assert_eq!(
            charged(4, LAG),
            secs(4),
            "a second on the way is not theirs"
        );
        assert_eq!(charged(1, LAG), secs(4), "no more than the lag is forgiven");
        assert_eq!(charged(9, LAG), secs(5), "no more than was seen");
        let trip = Duration::from_millis(30);
        assert_eq!(
            charged(0, trip),
            secs(5).saturating_sub(trip),
            "a claim of no time is charged all but the round trip"
        );
        assert_eq!(
            charged(0, secs(3)),
            secs(4),
            "a round trip longer than the lag forgives no more than the lag"
        );
    }

    #[test]
    fn a_program_thinks_for_a_share_of_its_time_and_never_half_of_it() {
        let t0 = Instant::now();
        let mut clock = Clock::new("1+2".parse().unwrap());
        assert_eq!(clock.budget(Seat::First), Duration::from_millis(4_450));
        clock.run(Seat::First, t0);
        clock.press(Seat::First, t0 + Duration::from_millis(61_900), None);
        assert_eq!(
            clock.budget(Seat::First),
            Duration::from_millis(950),
            "2 s left"
        );
        let each = Clock::new("8s".parse().unwrap());
        assert_eq!(each.budget(Seat::Second), Duration::from_millis(3_950));
    }

    #[test]
    fn clocks_are_shown_in_minutes_and_in_tenths_at_the_end() {
        assert_eq!(shown(secs(245)), "4:05");
        assert_eq!(shown(secs(3723)), "1:02:03");
        assert_eq!(shown(Duration::from_millis(9_460)), "9.4s");
        assert_eq!(said(secs(245)), "4 minutes 5 seconds");
        assert_eq!(said(secs(1)), "1 second");
        assert!(is_short(Duration::from_millis(9_999)));
        assert!(!is_short(secs(10)));
    }

    fn clocked() -> Session {
        Session::new(Rules::CLASSIC, Player::Human, Player::Human)
            .with_clock(Some("1+1".parse().unwrap()))
    }

    fn numpad(d: u8) -> crate::rules::position::Move {
        Board::default().numpad(d).unwrap().into()
    }

    #[test]
    fn moves_in_a_session_press_the_clock_for_the_seat_that_moved() {
        let mut s = clocked();
        let t0 = Instant::now();
        s.start_clock(t0);
        assert_eq!(s.clock().unwrap().running(), Some(Seat::First));
        s.play(numpad(5)).unwrap();
        assert_eq!(s.clock().unwrap().running(), Some(Seat::Second));
        let first = s.clock().unwrap().left(Seat::First, Instant::now());
        assert!(
            first > secs(60) && first <= secs(61),
            "{first:?}: the increment added"
        );
    }

    #[test]
    fn a_fallen_flag_loses_the_game_on_time_and_counts_as_finished() {
        let mut s = Session::new(Rules::CLASSIC, Player::Human, Player::HARD)
            .with_clock(Some("1".parse().unwrap()));
        let t0 = Instant::now();
        s.start_clock(t0);
        assert_eq!(s.flag(t0 + secs(59)), None);
        assert_eq!(s.flag(t0 + secs(61)), Some(Mark::X));
        assert_eq!(s.game().outcome(), Outcome::Won(Mark::O));
        assert_eq!(s.game().ending(), Some(Ending::Time(Mark::X)));
        assert_eq!(s.score().b, 1);
        assert_eq!(
            s.result().as_deref(),
            Some("X (you) ran out of time. O (level 7 AI) wins.")
        );
        assert_eq!(
            s.clock().unwrap().left(Seat::First, t0 + secs(99)),
            Duration::ZERO
        );
        assert_eq!(s.flag(t0 + secs(99)), None, "once");
        assert!(s.play(numpad(5)).is_err(), "no move after it");
    }

    #[test]
    fn a_remote_seats_flag_falls_a_lag_later() {
        let mut s = Session::new(Rules::CLASSIC, Player::Remote, Player::Human)
            .with_clock(Some("10s".parse().unwrap()));
        let t0 = Instant::now();
        s.start_clock(t0);
        assert_eq!(s.flag(t0 + Duration::from_millis(10_900)), None);
        assert_eq!(s.flag(t0 + Duration::from_millis(11_100)), Some(Mark::X));
    }

    #[test]
    fn the_hosts_word_of_a_fallen_flag_takes_back_a_move_that_crossed_it() {
        let mut s = clocked();
        let t0 = Instant::now();
        s.start_clock(t0);
        s.play(numpad(5)).unwrap();
        s.play(numpad(1)).unwrap();
        assert_eq!(s.flag_fell_at(5, t0), None, "no such move");
        assert_eq!(s.flag_fell_at(1, t0), Some(Mark::O), "O's move crossed it");
        assert_eq!(s.game().history().len(), 1);
        assert_eq!(s.game().outcome(), Outcome::Won(Mark::X));
        assert_eq!(s.flag_fell_at(1, t0), None, "over");
    }

    #[test]
    fn a_resignation_or_an_agreed_draw_stops_the_clock() {
        let t0 = Instant::now();
        let mut resigned = clocked();
        resigned.start_clock(t0);
        assert!(resigned.resign(Seat::First));
        assert_eq!(resigned.clock().unwrap().running(), None);
        let mut drawn = clocked();
        drawn.start_clock(t0);
        drawn.offer_draw(Seat::First);
        drawn.offer_draw(Seat::Second);
        assert_eq!(drawn.clock().unwrap().running(), None);
        assert_eq!(
            drawn.flag(t0 + secs(999)),
            None,
            "no flag falls after the end"
        );
    }

    #[test]
    fn a_new_round_starts_with_full_time_and_no_clock_running() {
        let mut s = clocked();
        let t0 = Instant::now();
        s.start_clock(t0);
        assert_eq!(s.flag(t0 + secs(100)), Some(Mark::X));
        s.new_round();
        let clock = s.clock().unwrap();
        assert_eq!(clock.running(), None);
        assert_eq!(clock.readings(t0), [secs(60), secs(60)]);
    }
}
