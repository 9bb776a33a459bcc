//! The Gomocup (piskvork) brain protocol, for our m,n,k boards and Gomoku's up to 20×20. The manager writes commands,
//! one a line: `START n` (an n×n board), `BEGIN` (we move first), `TURN x,y` (the opponent's
//! move; we answer ours), `BOARD` … `DONE` (a whole position, each stone as `x,y,field`, 1
//! ours and 2 the opponent's; we answer our move), `INFO key value`, `RESTART`, `TAKEBACK
//! x,y`, `SWAP2BOARD` … `DONE` (the swap2 opening: we place three stones, or choose after three
//! or five), `ABOUT` and `END`. Moves are `x,y`: x the column from 0 at the left, y the row from 0
//! at the top. Boards we do not offer get `ERROR`, commands we do not know `UNKNOWN`.
//!
//! Lines in a row: the default for each size as in the game (three on 3×3, four on 4×4), and
//! five on 5×5 to 7×7 as Gomocup plays, unless `--k` says otherwise; five or more count (the
//! freestyle rule). From `START 8` to `START 20` the board is played with Gomoku's rules by
//! its alpha-beta search (five in a row unless `--k` says otherwise), with exactly that line
//! winning when `INFO rule` says so (its bit 1), renju's rules when it says so (its bit 4,
//! over the others: black, who moves first, never plays a forbidden point), and caro's (its
//! bit 8, over bit 1: five blocked at both ends wins nothing).

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;
use std::time::Duration;

use super::{EngineError, Options, brain, next_line, refuse};
use crate::ai::opening::{self, Choice};
use crate::ai::player::Brain;
use crate::rules::catalogue::Entry;
use crate::rules::classic::MIN_SIZE;
use crate::rules::gomoku;
use crate::rules::position::{Move, Position, Variant};

/// Time kept back from each move for the answer to travel.
const MARGIN: Duration = Duration::from_millis(30);
/// Our moves a game is expected to still last at its start (a Gomoku game rarely goes past
/// 40 a side), one fewer for every two we play, and never fewer than [`FEWEST_AHEAD`].
const MOVES_AHEAD: u32 = 40;
const FEWEST_AHEAD: u32 = 12;

/// The rules the engine plays, besides the size `START` gives.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lines {
    /// Marks in a row that complete a line; `None` for the default.
    pub k: Option<u8>,
    pub misere: bool,
}

/// One game of the protocol: the board and the moves that made it, whose stones are ours,
/// and the time the manager allows.
struct Session {
    options: Options,
    lines: Lines,
    brain: Brain,
    /// The game of the size `START` gave, and the moves since.
    start: Option<Variant>,
    /// The game `INFO rule` asked for, by its bits in the catalogue (freestyle, exactly the
    /// line, renju or caro), on the board `START` gave.
    rule: &'static Entry,
    moves: Vec<Move>,
    /// Time for each move and what is left of the match (`INFO timeout_turn`, `time_left`).
    turn: Option<Duration>,
    left: Option<Duration>,
    /// Raised when `END` is read, even while a move is being searched.
    end: Arc<AtomicBool>,
}

/// What a command asks to be written back.
enum Reply {
    Line(String),
    Nothing,
    End,
}

/// The manager's lines, read on a thread of their own, so that `END` is seen while we think;
/// and how many of the commands read ask for a move and are not yet taken.
struct Input {
    lines: Receiver<Result<String, EngineError>>,
    asking: Arc<AtomicUsize>,
}

/// Whether `line` is a command we answer with a move.
fn asks_for_a_move(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    ["BEGIN", "TURN", "BOARD", "SWAP2BOARD"]
        .iter()
        .any(|c| word.eq_ignore_ascii_case(c))
}

impl Input {
    /// The next line; `None` at the end of the input.
    fn next(&self) -> Result<Option<String>, EngineError> {
        let Ok(line) = self.lines.recv() else {
            return Ok(None);
        };
        if let Ok(text) = &line
            && asks_for_a_move(text)
        {
            self.asking.fetch_sub(1, Ordering::SeqCst);
        }
        line.map(Some)
    }
}

/// The lines of a block that ends with `DONE` (after `BOARD` or `SWAP2BOARD`, `line`), each
/// read by `read`. The whole block is read even where a line is wrong, so the answer, one
/// `ERROR` for its first wrong line, stays in step with the manager.
fn block<T>(
    line: &str,
    input: &Input,
    mut read: impl FnMut(&str) -> Result<T, EngineError>,
) -> Result<Vec<T>, EngineError> {
    let mut read_so_far = Ok(Vec::new());
    loop {
        let Some(text) = input.next()? else {
            return Err(refuse(line, "the input ended before DONE"));
        };
        if text.trim().eq_ignore_ascii_case("DONE") {
            return read_so_far;
        }
        if let Ok(items) = &mut read_so_far {
            match read(&text) {
                Ok(item) => items.push(item),
                Err(e) => read_so_far = Err(e),
            }
        }
    }
}

/// Reads `input` line by line into `lines` until its end or an unreadable line. An `END` read,
/// or the end of the input, while no command asking for a move waits behind the one being
/// answered raises `end` at once: the search in progress stops, and the session ends.
fn pump(
    mut input: Box<dyn BufRead + Send>,
    lines: &Sender<Result<String, EngineError>>,
    asking: &AtomicUsize,
    end: &AtomicBool,
) {
    loop {
        match next_line(&mut *input) {
            Ok(Some(text)) => {
                if asks_for_a_move(&text) {
                    asking.fetch_add(1, Ordering::SeqCst);
                } else if text.trim().eq_ignore_ascii_case("END")
                    && asking.load(Ordering::SeqCst) == 0
                {
                    end.store(true, Ordering::SeqCst);
                }
                if lines.send(Ok(text)).is_err() {
                    return;
                }
            }
            // The manager is gone: as with END, the search in progress (if nothing waits
            // behind it) stops, and the session ends.
            Ok(None) => {
                if asking.load(Ordering::SeqCst) == 0 {
                    end.store(true, Ordering::SeqCst);
                }
                return;
            }
            Err(e) => {
                let _ = lines.send(Err(e));
                return;
            }
        }
    }
}

/// Reads the manager's commands from `input` and answers them on `output`, until `END` or
/// the end of the input. A command that cannot be carried out is answered `ERROR` and the
/// session goes on; only a line too long to read ends it. `input` is read on a thread of its
/// own: an `END` that comes while a move is being searched stops the search and the session.
pub fn run(
    options: &Options,
    lines: Lines,
    input: Box<dyn BufRead + Send>,
    output: &mut dyn Write,
) -> Result<(), EngineError> {
    let end = Arc::new(AtomicBool::new(false));
    let (send, received) = mpsc::channel();
    let asking = Arc::new(AtomicUsize::new(0));
    let (raised, counted) = (Arc::clone(&end), Arc::clone(&asking));
    thread::Builder::new()
        .name("gomocup-input".into())
        .spawn(move || pump(input, &send, &counted, &raised))?;
    let lines_in = Input {
        lines: received,
        asking,
    };
    let mut brain = brain(options);
    brain.set_cancel(Some(Arc::clone(&end)));
    let mut session = Session {
        options: *options,
        lines,
        brain,
        start: None,
        rule: Entry::of_gomocup_rule(0),
        moves: Vec::new(),
        turn: None,
        left: None,
        end,
    };
    while let Some(line) = lines_in.next()? {
        let reply = match session.command(&line, &lines_in) {
            Ok(reply) => reply,
            Err(EngineError::Protocol { line, why }) => Reply::Line(format!("ERROR {line}: {why}")),
            Err(e) => return Err(e),
        };
        match reply {
            Reply::Line(text) => {
                writeln!(output, "{text}")?;
                output.flush()?;
            }
            Reply::Nothing => {}
            Reply::End => break,
        }
    }
    Ok(())
}

impl Session {
    fn command(&mut self, line: &str, input: &Input) -> Result<Reply, EngineError> {
        let mut words = line.split_whitespace();
        let Some(word) = words.next() else {
            return Ok(Reply::Nothing);
        };
        let rest: Vec<&str> = words.collect();
        let rest = rest.join(" ");
        match word.to_ascii_uppercase().as_str() {
            "START" => self.start(line, &rest),
            "RECTSTART" => match rest.split_once(',') {
                Some((w, h)) if w.trim() == h.trim() => self.start(line, w),
                _ => Err(refuse(line, "only square boards are offered")),
            },
            "RESTART" => {
                self.board(line)?;
                self.moves.clear();
                Ok(Reply::Line("OK".into()))
            }
            "BEGIN" => {
                if !self.moves.is_empty() {
                    return Err(refuse(line, "BEGIN comes on an empty board"));
                }
                self.answer(line)
            }
            "TURN" => {
                let cell = self.cell(line, &rest)?;
                self.play(line, cell)?;
                self.answer(line)
            }
            "BOARD" => {
                self.read_board(line, input)?;
                self.answer(line)
            }
            "SWAP2BOARD" => self.swap2(line, input),
            "TAKEBACK" => {
                let cell = self.cell(line, &rest)?;
                if self.moves.last() != Some(&cell) {
                    return Err(refuse(line, "only the last move can be taken back"));
                }
                self.moves.pop();
                Ok(Reply::Line("OK".into()))
            }
            "INFO" => Ok(self.info(&rest)),
            "ABOUT" => Ok(Reply::Line(format!(
                "name=\"tictactoe\", version=\"{}\", author=\"the tictactoe authors\", country=\"-\"",
                env!("CARGO_PKG_VERSION")
            ))),
            "END" => Ok(Reply::End),
            _ => Ok(Reply::Line(format!(
                "UNKNOWN {}",
                crate::text::quoted(word)
            ))),
        }
    }

    fn start(&mut self, line: &str, size: &str) -> Result<Reply, EngineError> {
        let size: u8 = size
            .trim()
            .parse()
            .map_err(|_| refuse(line, "expected a board size"))?;
        if !(MIN_SIZE..=gomoku::MAX_SIZE).contains(&size) {
            return Err(refuse(
                line,
                format!(
                    "a {size}×{size} board is not offered: boards are {MIN_SIZE} to {} wide",
                    gomoku::MAX_SIZE
                ),
            ));
        }
        // Five in a row from 5×5 up, as Gomocup plays; the game's default below.
        let five = (size >= 5).then_some(5);
        let k = self.lines.k.or(five);
        let variant = Variant::of_size(size, k, self.lines.misere);
        self.start = Some(variant.map_err(|e| refuse(line, format!("{e}")))?);
        self.moves.clear();
        Ok(Reply::Line("OK".into()))
    }

    /// The position as the moves made it.
    fn board(&self, line: &str) -> Result<Position, EngineError> {
        let start = self
            .start
            .ok_or_else(|| refuse(line, "no board yet: START comes first"))?;
        // The rule may come before START or after it.
        let mut position = self.rule.rule_on(start).unwrap_or(start).start();
        for &mv in &self.moves {
            // Checked when made, but by the rule of the time: `INFO rule` may have changed it.
            position.play(mv).map_err(|e| {
                refuse(
                    line,
                    format!("the moves so far do not replay by this rule: {e}"),
                )
            })?;
        }
        Ok(position)
    }

    /// The cell `x,y` names on the board.
    fn cell(&self, line: &str, text: &str) -> Result<Move, EngineError> {
        let board = self.board(line)?;
        let parsed = text
            .split_once(',')
            .and_then(|(x, y)| Some((x.trim().parse::<u8>().ok()?, y.trim().parse::<u8>().ok()?)));
        let (x, y) = parsed.ok_or_else(|| refuse(line, "expected a move as x,y"))?;
        let n = board.grid_side();
        (x < n && y < n)
            .then(|| board.at_grid_point(x, n - 1 - y))
            .flatten()
            .ok_or_else(|| refuse(line, format!("{x},{y} is off the {n}×{n} board")))
    }

    /// Plays `mv` for the side to move.
    fn play(&mut self, line: &str, mv: Move) -> Result<(), EngineError> {
        let mut board = self.board(line)?;
        board.play(mv).map_err(|e| refuse(line, format!("{e}")))?;
        self.moves.push(mv);
        Ok(())
    }

    /// Our move on the board as it stands, played and written as `x,y`.
    fn answer(&mut self, line: &str) -> Result<Reply, EngineError> {
        let board = self.board(line)?;
        let (budget, most) = self.budget(&board);
        self.brain.set_think(budget);
        self.brain.set_think_most(Some(most));
        let Some(mv) = self.brain.choose(crate::ai::player::Player::HARD, &board) else {
            if self.end.load(Ordering::SeqCst) {
                // `END` came while we thought: no move, and the session is over.
                return Ok(Reply::End);
            }
            return Err(refuse(line, "the game is over: there is no move to make"));
        };
        self.moves.push(mv);
        let n = board.grid_side();
        let (x, row) = board.grid_point(mv).expect("a move of the board");
        Ok(Reply::Line(format!("{x},{}", n - 1 - row)))
    }

    /// The time for this move and the most a critical one may take: the turn's allowance (or
    /// `--think`) less a margin for the answer to travel. Where the match's time left is
    /// known, a move's share of it, counting [`MOVES_AHEAD`] of our moves still to come (at
    /// least [`FEWEST_AHEAD`]), and up to three shares for a move whose best choice is still
    /// changing, never more than the turn allows or a third of what is left.
    fn budget(&self, board: &Position) -> (Duration, Duration) {
        let turn = self.turn.unwrap_or(self.options.think);
        let most = turn.saturating_sub(turn / 10 + MARGIN);
        let Some(left) = self.left else {
            return (most, most);
        };
        let left = left.saturating_sub(left / 20 + MARGIN);
        let ours = u32::try_from(self.moves.len() / 2).unwrap_or(u32::MAX);
        let ahead = MOVES_AHEAD
            .saturating_sub(ours / 2)
            .max(FEWEST_AHEAD)
            .min(board.legal_moves().len().div_ceil(2).max(1) as u32);
        let share = left / (ahead + 1);
        (share.min(most), (share * 3).min(left / 3).min(most))
    }

    /// Reads stones until `DONE` ([`block`]) and makes them the position: ours and the
    /// opponent's, with whoever moved first as X.
    fn read_board(&mut self, line: &str, input: &Input) -> Result<(), EngineError> {
        let start = self.board(line);
        let read = block(line, input, |text| self.stone(text))?;
        let start = start?.variant().start();
        let (ours, theirs): (Vec<_>, Vec<_>) = read.into_iter().partition(|&(_, i)| i == 0);
        let [ours, theirs]: [Vec<Move>; 2] =
            [ours, theirs].map(|s| s.into_iter().map(|(mv, _)| mv).collect());
        // We are to move: X if the counts are equal, else O one stone behind.
        let (first, second) = match ours.len() {
            n if n == theirs.len() => (ours, theirs),
            n if n + 1 == theirs.len() => (theirs, ours),
            _ => return Err(refuse(line, "it is not our turn on this board")),
        };
        let mut board = start;
        let mut moves = Vec::new();
        for i in 0..first.len().max(second.len()) {
            for mv in [first.get(i), second.get(i)].into_iter().flatten() {
                board.play(*mv).map_err(|e| refuse(line, format!("{e}")))?;
                moves.push(*mv);
            }
        }
        self.moves = moves;
        Ok(())
    }

    /// A `SWAP2BOARD` block: the stones placed so far, `x,y` a line, black first, read to
    /// `DONE`, and our part of the swap2 opening ([`opening`]). On an empty board we place
    /// three stones (black, white, black); after three we take white and play (one move) or
    /// take black (`SWAP`); after five, the same. Stones are written `x,y` with spaces between.
    fn swap2(&mut self, line: &str, input: &Input) -> Result<Reply, EngineError> {
        let stones = block(line, input, |text| self.cell(text, text))?;
        let start = self.board(line)?.variant().start();
        let Some(&empty) = start.gomoku() else {
            return Err(refuse(line, "swap2 opens Gomoku's boards, 8×8 and up"));
        };
        if ![0, 3, 5].contains(&stones.len()) {
            let n = stones.len();
            return Err(refuse(
                line,
                format!("swap2 asks after 0, 3 or 5 stones, not after {n}"),
            ));
        }
        let mut board = empty;
        for &mv in &stones {
            let Move::Cell(cell) = mv else {
                return Err(refuse(line, "a Gomoku board's moves are points"));
            };
            board.play(cell).map_err(|e| refuse(line, format!("{e}")))?;
        }
        // The stones stand only once all are read and legal: a refused block changes nothing.
        self.moves.clone_from(&stones);
        let (budget, _) = self.budget(&start);
        self.brain.set_think(budget);
        self.brain.set_think_most(Some(budget));
        let called_off = || {
            if self.end.load(Ordering::SeqCst) {
                Ok(Reply::End)
            } else {
                Err(refuse(line, "the search was called off"))
            }
        };
        let n = empty.size();
        let at =
            |cell: crate::rules::classic::Cell| format!("{},{}", cell.col(), n - 1 - cell.row());
        let brain = &mut self.brain;
        let mut judge = |board: &gomoku::Gomoku, within| brain.judged(board, within);
        match stones.len() {
            0 => {
                let Some(opening) = opening::open(&empty, budget, &mut judge) else {
                    return called_off();
                };
                self.moves = opening.iter().map(|&c| Move::Cell(c)).collect();
                Ok(Reply::Line(opening.map(at).join(" ")))
            }
            n => match opening::choose(&board, budget, &mut judge, n == 3) {
                Some(Choice::Play(cell)) => {
                    self.moves.push(Move::Cell(cell));
                    Ok(Reply::Line(at(cell)))
                }
                Some(Choice::Swap) => Ok(Reply::Line("SWAP".into())),
                Some(Choice::Two(two)) => {
                    self.moves.extend(two.map(Move::Cell));
                    Ok(Reply::Line(two.map(at).join(" ")))
                }
                None => called_off(),
            },
        }
    }

    /// One stone of a `BOARD` block, `x,y,field`: its move, and 0 where it is ours, 1 where
    /// it is the opponent's.
    fn stone(&self, text: &str) -> Result<(Move, usize), EngineError> {
        let (at, field) = text
            .trim()
            .rsplit_once(',')
            .ok_or_else(|| refuse(text, "expected x,y,field"))?;
        let mv = self.cell(text, at)?;
        match field.trim() {
            "1" => Ok((mv, 0)),
            "2" => Ok((mv, 1)),
            _ => Err(refuse(text, "a field is 1 (ours) or 2 (the opponent's)")),
        }
    }

    /// Takes the manager's information: the time allowed, what is left of the match, the
    /// memory allowed and the rule.
    fn info(&mut self, rest: &str) -> Reply {
        let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
        let number = value.trim().parse::<u64>().ok();
        match (key.to_ascii_lowercase().as_str(), number) {
            ("timeout_turn", Some(ms)) => self.turn = Some(Duration::from_millis(ms)),
            ("time_left", Some(ms)) => self.left = Some(Duration::from_millis(ms)),
            ("max_memory", Some(bytes)) if bytes > 0 => {
                // Half of what is allowed, for the table; the rest is the program itself.
                let mb = usize::try_from(bytes / 2 / (1 << 20))
                    .unwrap_or(usize::MAX)
                    .max(1);
                self.options.table_mb = self.options.table_mb.min(mb);
                self.brain = brain(&self.options);
            }
            ("rule", Some(rule)) => {
                self.rule = Entry::of_gomocup_rule(u8::try_from(rule & 0xff).unwrap_or(0));
                // A rule of its own (renju's, caro's) is refused where the board is not
                // Gomoku's; exactly the line is a rule of Gomoku's boards and ignored elsewhere.
                if self.rule.rule.is_some()
                    && self.start.is_some_and(|v| self.rule.rule_on(v).is_err())
                {
                    return Reply::Line(format!(
                        "MESSAGE {} is played on Gomoku's boards only: these rules are not",
                        self.rule.name()
                    ));
                }
                if rule & 2 == 2 {
                    return Reply::Line(
                        "MESSAGE a continuous game is not played here: each game ends at its five"
                            .into(),
                    );
                }
            }
            _ => {}
        }
        Reply::Nothing
    }
}
