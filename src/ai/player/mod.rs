//! Who moves: a human, or an AI at a difficulty; and the one dispatch from a rule set to its
//! AI ([`Brain`], over one engine per rule set in [`engines`]): the negamax search for classic
//! boards, the Monte Carlo tree search for Ultimate, threats for Gomoku ([`threat`]). What a
//! front end or a report asks of the AI (a move, a hint, an analysis, a verdict on a move
//! played) it asks here, once for every rule set. All randomness comes from one seeded source.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

mod engines;
mod lines;
mod threat;

use crate::ai::connect_four::{self, Four};
use crate::ai::levels::Level;
use crate::ai::opening;
use crate::ai::search::{Meter, Searcher, Value, best_of};
use crate::rules::RuleSet;
use crate::rules::classic::{Board, Cell};
use crate::rules::connect_four::ConnectFour;
use crate::rules::gomoku::Gomoku;
use crate::rules::gomoku::opening::{Choice, Stage};
use crate::rules::position::{Move, Position, Variant, each};
use crate::rules::ultimate::UltimateBoard;
use engines::Engine;
pub use engines::Work;
pub use lines::{LINE_PLIES, Line, MOST_LINES};

/// The thinking budget of a `hard` Ultimate move when none is given: Ultimate is never
/// searched to the end.
pub const ULTIMATE_THINK: Duration = Duration::from_secs(1);

/// The time the AI gives a swap opening's stones or choice when no budget is given.
const OPENING_THINK: Duration = Duration::from_secs(1);

/// Who controls a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// The computer at a level of the ladder (see [`crate::ai::levels`]).
    Ai(Level),
    /// The other player of a network game, whose moves arrive over the connection.
    Remote,
}

impl Player {
    /// `easy`: level 1, a beginner who takes a win it sees but blocks nothing.
    pub const EASY: Player = Player::Ai(Level::EASY);
    /// `medium`: level 3.
    pub const MEDIUM: Player = Player::Ai(Level::MEDIUM);
    /// `hard`: the top level, perfect play wherever its search proves the value within
    /// `--think`, else a move proven not to lose or the best move found.
    pub const HARD: Player = Player::Ai(Level::HARD);

    pub const fn is_human(self) -> bool {
        matches!(self, Player::Human)
    }

    /// Whether the computer chooses this side's moves here.
    pub const fn is_ai(self) -> bool {
        matches!(self, Player::Ai(_))
    }

    /// The AI's level, if the computer plays this side.
    pub const fn level(self) -> Option<Level> {
        match self {
            Player::Ai(level) => Some(level),
            _ => None,
        }
    }
}

/// A player's name that is not one: neither `human`, a level's name nor a level's number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParsePlayerError;

impl fmt::Display for ParsePlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected human, easy, medium, hard or a level from 1 to {}",
            Level::TOP
        )
    }
}

impl std::error::Error for ParsePlayerError {}

impl FromStr for Player {
    type Err = ParsePlayerError;

    /// `human`, `easy`, `medium`, `hard` or a level's number.
    fn from_str(s: &str) -> Result<Player, ParsePlayerError> {
        let level = |n| Level::new(n).map(Player::Ai);
        match s.trim().to_ascii_lowercase().as_str() {
            "human" => Ok(Player::Human),
            "easy" => Ok(Player::EASY),
            "medium" => Ok(Player::MEDIUM),
            "hard" => Ok(Player::HARD),
            n => n.parse().ok().and_then(level).ok_or(ParsePlayerError),
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Player::Human => f.write_str("human"),
            Player::Ai(level) => level.fmt(f),
            Player::Remote => f.write_str("remote"),
        }
    }
}

/// The computer's move chooser for every AI side of a session: one engine per rule set (see
/// [`engines`]), chosen from one table, each keeping its search from move to move: the
/// negamax table for classic boards, the Monte Carlo tree for Ultimate. Seeded, every random
/// choice follows from the seed and every budget is work.
pub struct Brain {
    engines: Engines,
    think: Option<Duration>,
    seed: Option<u64>,
    /// How the thinking budget is spent: by work with a seed, by the clock without.
    meter: Meter,
    cancel: Option<Arc<AtomicBool>>,
    /// Gomoku's search table, in MiB.
    table_mb: usize,
    /// What the analyses did since it was last taken ([`Brain::take_work`]).
    work: Work,
}

impl Brain {
    /// A chooser whose random choices follow from `seed`, or from entropy with `None`. With a
    /// seed every budget is spent as work (see [`Meter::Work`]), so each move is a function of
    /// the position, the seed and the moves before it: a seeded game replays exactly, on any
    /// machine under any load. Without one, budgets are wall-clock time.
    pub fn new(seed: Option<u64>) -> Brain {
        let meter = if seed.is_some() {
            Meter::Work
        } else {
            Meter::Clock
        };
        Brain {
            engines: Engines {
                classic: engines::Classic::new(seed, Searcher::new(), meter),
                ultimate: engines::MonteCarlo::new(seed, meter, 1),
                gomoku: threat::Threat::new(seed, meter),
                connect_four: Four::new(seed, meter, connect_four::TABLE_MB),
            },
            think: None,
            seed,
            meter,
            cancel: None,
            table_mb: threat::TABLE_MB,
            work: Work::default(),
        }
    }

    /// Searches each `hard` Ultimate move on `threads` trees at once, one a thread (see
    /// [`crate::ai::mcts::Parallel`]), and every classic search, unless seeded, on `threads`
    /// threads sharing one table (see [`Searcher::set_threads`]); 1, the default, is the
    /// search on one thread exactly. A seeded brain proves on one thread, where spending its
    /// budget as work replays exactly. The Ultimate trees start afresh.
    pub fn with_threads(mut self, threads: usize) -> Brain {
        self.engines.ultimate = engines::MonteCarlo::new(self.seed, self.meter, threads);
        self.engines.ultimate.set_cancel(self.cancel.clone());
        if self.seed.is_none() {
            self.engines.classic.searcher.set_threads(threads);
            self.engines.gomoku.prover().set_threads(threads);
            self.engines.gomoku.size_search(self.table_mb, threads);
        }
        self
    }

    /// A search table of at most `mb` MiB, for the classic boards and for 8×8's proofs.
    pub fn with_table_mb(mut self, mb: usize) -> Brain {
        let threads = self.engines.classic.searcher.threads();
        self.engines.classic.searcher = self.searcher(mb, threads);
        *self.engines.gomoku.prover() = self.searcher(mb, threads);
        self.table_mb = mb;
        let gomoku_threads = if self.seed.is_none() { threads } else { 1 };
        self.engines.gomoku.size_search(mb, gomoku_threads);
        self.engines.connect_four = Four::new(self.seed, self.meter, mb);
        self.engines.connect_four.set_cancel(self.cancel.clone());
        self
    }

    /// A proof search with a table of at most `mb` MiB on `threads` threads, spending its
    /// budgets by this brain's meter and stopped by its cancel flag.
    fn searcher(&self, mb: usize, threads: usize) -> Searcher {
        let mut searcher = Searcher::with_table_mb(mb);
        searcher.set_meter(self.meter);
        searcher.set_threads(threads);
        searcher.set_cancel(self.cancel.clone());
        searcher
    }

    /// Limits each `hard` move to `budget` of search (plus the first, always completed,
    /// depth). Without a limit `hard` searches every classic position to the end, and an
    /// Ultimate move gets [`ULTIMATE_THINK`].
    pub fn with_think(mut self, budget: Duration) -> Brain {
        self.set_think(budget);
        self
    }

    /// [`Brain::with_think`] for a brain in use: from its next search on.
    pub fn set_think(&mut self, budget: Duration) {
        self.think = Some(budget);
    }

    /// Lets a Gomoku move of `hard` whose best choice is still changing once its budget is
    /// spent think on up to `most` in all (`None`: the budget is all it gets).
    pub fn set_think_most(&mut self, most: Option<Duration>) {
        self.engines.gomoku.set_most(most);
    }

    /// Stops any search of this brain at once when `flag` is raised (see
    /// [`Searcher::set_cancel`]); a cancelled [`Brain::choose`] returns `None`.
    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.engines.classic.set_cancel(flag.clone());
        self.engines.ultimate.set_cancel(flag.clone());
        self.engines.gomoku.set_cancel(flag.clone());
        self.engines.connect_four.set_cancel(flag.clone());
        self.cancel = flag;
    }

    /// The move `player` makes in `position`, or `None` for a person (here or remote), a
    /// finished game or a cancelled search.
    pub fn choose(&mut self, player: Player, position: &Position) -> Option<Move> {
        let level = player.level()?;
        if let Some(board) = position.gomoku()
            && board.stage() != Stage::Play
        {
            let budget = self.think.unwrap_or(OPENING_THINK);
            let mut judge = |board: &Gomoku, within| self.judged(board, within);
            return opening::act(board, budget, &mut judge);
        }
        let (think, engines) = (self.think, &mut self.engines);
        each!(position, p => engines.of(p).choose(level, p, think).map(Into::into))
    }

    /// [`Brain::choose`] thinking for no more than `cap` (the AI's share of its clock), where
    /// there is a cap.
    pub fn choose_within(
        &mut self,
        player: Player,
        position: &Position,
        cap: Option<Duration>,
    ) -> Option<Move> {
        let Some(cap) = cap else {
            return self.choose(player, position);
        };
        let (think, most) = (self.think, self.engines.gomoku.most());
        self.think = Some(think.map_or(cap, |t| t.min(cap)));
        self.engines.gomoku.set_most(most.map(|m| m.min(cap)));
        let chosen = self.choose(player, position);
        self.think = think;
        self.engines.gomoku.set_most(most);
        chosen
    }

    /// The assessment of `mv` in a swap opening: a colour chosen is worth the share of the
    /// points that colour has (white's by the search, black's the rest) against the better
    /// of the two; a stone placed for either colour, or two more to place, is not judged
    /// (an estimate of 0 before and after).
    fn judge_opening(&mut self, board: &Gomoku, mv: Move) -> Option<Assessment> {
        let unjudged = Assessment {
            before: Value::Estimate(0),
            after: Value::Estimate(0),
            best: mv,
        };
        let Move::Choice(colour @ (Choice::Black | Choice::White)) = mv else {
            return Some(unjudged);
        };
        let within = self.think.unwrap_or(OPENING_THINK);
        let (_, white) = self.judged(&board.opened(), within)?;
        let (better, best) = if white >= 0.5 {
            (white, Choice::White)
        } else {
            (1.0 - white, Choice::Black)
        };
        let chosen = if colour == Choice::White {
            white
        } else {
            1.0 - white
        };
        Some(Assessment {
            before: Value::win_rate(better),
            after: Value::win_rate(chosen),
            best: Move::Choice(best),
        })
    }

    /// `hard`'s best move on a Gomoku `board` and the share of the points it promises (½
    /// where the value is no rate), searched afresh within `within`: how the AI weighs a swap
    /// opening ([`opening::Judge`]). `None` once the game is over or if cancelled.
    pub fn judged(&mut self, board: &Gomoku, within: Duration) -> Option<(Cell, f32)> {
        let engine = &mut self.engines.gomoku;
        engine.fresh();
        // `within` is all: a move whose choice keeps changing gets no more here, since an
        // opening judges several positions within one turn's time.
        let most = engine.most();
        engine.set_most(None);
        let found = engine.best(board, Some(within));
        engine.set_most(most);
        let (cell, value) = found?;
        Some((cell, value.rate().unwrap_or(0.5)))
    }

    /// [`Brain::choose`] on a classic board.
    pub fn choose_cell(&mut self, player: Player, board: &Board) -> Option<Cell> {
        let level = player.level()?;
        self.engines.classic.choose_cell(level, board, self.think)
    }

    /// The assessment of `mv` played in `position`, from its mover's side: the position is
    /// searched within the thinking budget, then the move played, unless it is the search's
    /// own choice, within another. `None` if the search was cancelled.
    ///
    /// # Panics
    /// If `mv` is not legal in `position`.
    pub fn judge(&mut self, position: &Position, mv: Move) -> Option<Assessment> {
        assert!(
            position.legal_moves().contains(&mv),
            "judge takes a legal move"
        );
        if let Some(board) = position.gomoku()
            && board.stage() != Stage::Play
        {
            return self.judge_opening(board, mv);
        }
        let (think, engines) = (self.think, &mut self.engines);
        each!(position, p => {
            let mv = mv.try_into().expect("a legal move is of its position's rule set");
            engines::judge(engines.of(p), p, mv, think)
        })
    }

    /// What is known of `position` within the thinking budget: unless `best_only`, every
    /// legal move's value, the position's value and best move being its best listed move's
    /// (one search, one answer); with `best_only`, its value and one best move only (unless
    /// the game is over). Each position is searched afresh.
    pub fn analyze(&mut self, position: &Position, best_only: bool) -> Analysis {
        let (think, engines, work) = (self.think, &mut self.engines, &mut self.work);
        each!(position, p => {
            let engine = engines.of(p);
            engine.fresh();
            let analysis = if best_only {
                let head = engine.best(p, think).map(|(m, v)| (v, m.into()));
                Analysis { head, moves: Vec::new() }
            } else {
                let moves = engine.hint(p, think).into_iter().map(|(m, v)| (m.into(), v));
                Analysis::of_moves(moves.collect())
            };
            work.add(engine.work());
            analysis
        })
    }

    /// What the analyses ([`Brain::analyze`], and so [`Brain::lines`]) did since this was last
    /// asked.
    pub fn take_work(&mut self) -> Work {
        std::mem::take(&mut self.work)
    }

    /// Every legal move's value for a hint, proven where the time budget allows (all of them
    /// without a budget on classic boards). In Ultimate an unproven value is an estimate of
    /// the win rate (a [`Value::WinRate`]). The position is searched afresh, as [`Brain::analyze`]
    /// searches it: a hint never reads what the game's earlier searches left (their bounds
    /// and estimates are of other positions and budgets).
    pub fn hint(&mut self, position: &Position) -> Vec<(Move, Value)> {
        let (think, engines) = (self.think, &mut self.engines);
        each!(position, p => {
            let engine = engines.of(p);
            engine.fresh();
            let moves = engine.hint(p, think).into_iter();
            moves.map(|(m, v)| (m.into(), v)).collect()
        })
    }
}

/// One engine of each rule set, each the AI of its own rule set's positions.
struct Engines {
    classic: engines::Classic,
    ultimate: engines::MonteCarlo<UltimateBoard>,
    gomoku: threat::Threat,
    connect_four: Four,
}

impl Engines {
    /// The engine of the rule set `R`, found by its type.
    fn of<R: Played>(&mut self, _: &R) -> &mut R::Engine {
        R::engine(self)
    }
}

/// A rule set the brain plays, and which of its engines does: the one table from rule sets to
/// engines, checked by the compiler.
trait Played: RuleSet<Move: Into<Move>> {
    type Engine: Engine<Self>;
    /// Whether its engine values unproven positions by win rates (see [`rates`]).
    const RATES: bool;
    fn engine(engines: &mut Engines) -> &mut Self::Engine;
}

impl Played for Board {
    type Engine = engines::Classic;
    const RATES: bool = false;
    fn engine(engines: &mut Engines) -> &mut engines::Classic {
        &mut engines.classic
    }
}

impl Played for UltimateBoard {
    type Engine = engines::MonteCarlo<UltimateBoard>;
    const RATES: bool = true;
    fn engine(engines: &mut Engines) -> &mut engines::MonteCarlo<UltimateBoard> {
        &mut engines.ultimate
    }
}

impl Played for Gomoku {
    type Engine = threat::Threat;
    const RATES: bool = true;
    fn engine(engines: &mut Engines) -> &mut threat::Threat {
        &mut engines.gomoku
    }
}

impl Played for ConnectFour {
    type Engine = Four;
    const RATES: bool = false;
    fn engine(engines: &mut Engines) -> &mut Four {
        &mut engines.connect_four
    }
}

/// Whether the AI of `variant` values unproven positions by win rates (a proven value is then
/// read as a rate too: 1, ½ or 0) rather than by a heuristic score.
pub fn rates(variant: Variant) -> bool {
    fn of<R: Played>(_: &R) -> bool {
        R::RATES
    }
    each!(variant.start(), p => of(&p))
}

/// A move judged for review, from its mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Assessment {
    /// The best value the position offered.
    pub before: Value,
    /// The value of the move played.
    pub after: Value,
    /// The search's choice.
    pub best: Move,
}

/// What the AI knows of one position: its value with a best move (none once the game is
/// over), and each legal move's value when every move was searched.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    pub head: Option<(Value, Move)>,
    pub moves: Vec<(Move, Value)>,
}

impl Analysis {
    /// The analysis made of every move's value: the position is worth its best move's, and of
    /// several best moves the first for people (see [`Move::reading_key`]) is named.
    pub fn of_moves(moves: Vec<(Move, Value)>) -> Analysis {
        let head = best_of(&moves)
            .into_iter()
            .min_by_key(|&(m, _)| m.reading_key())
            .map(|(m, v)| (v, m));
        Analysis { head, moves }
    }

    /// The moves as good as the best, for people in order (just the best move when only it is
    /// known).
    pub fn best(&self) -> Vec<Move> {
        let Some((value, mv)) = self.head else {
            return Vec::new();
        };
        if self.moves.is_empty() {
            return vec![mv];
        }
        let mut best: Vec<Move> = self
            .moves
            .iter()
            .filter(|&&(_, v)| v == value)
            .map(|&(m, _)| m)
            .collect();
        best.sort_by_key(|&m| m.reading_key());
        best
    }
}

/// The moves the one-ply heuristic likes equally (the ladder's anchor, which `medium` was
/// before the ladder): a move that completes a line; else one that
/// blocks the opponent's line; else those that build the most of the mover's open lines (lines
/// with no opponent mark), counting first the lines left one short of complete, so a move that
/// makes two such lines at once (a fork) is found. It does not look ahead, so it walks into
/// forks and can be beaten. Under misère rules it avoids completing a line where it can.
pub fn medium_candidates(board: &Board) -> Vec<Cell> {
    let moves = board.legal_moves();
    let geom = board.geometry();
    let me = board.to_move();
    let (mine, theirs) = (board.bits(me), board.bits(me.other()));
    let completes = |bits: u64, c: Cell| geom.completes(bits | c.bit(), c.index());
    if board.rules().misere() {
        let safe: Vec<Cell> = moves
            .iter()
            .copied()
            .filter(|&c| !completes(mine, c))
            .collect();
        return if safe.is_empty() { moves } else { safe };
    }
    let wins: Vec<Cell> = moves
        .iter()
        .copied()
        .filter(|&c| completes(mine, c))
        .collect();
    if !wins.is_empty() {
        return wins;
    }
    let blocks: Vec<Cell> = moves
        .iter()
        .copied()
        .filter(|&c| completes(theirs, c))
        .collect();
    if !blocks.is_empty() {
        return blocks;
    }
    let k = u32::from(geom.k);
    let score = |c: Cell| {
        let after = mine | c.bit();
        let open = geom.through[c.index()].iter().filter(|&&l| l & theirs == 0);
        open.fold((0u32, 0u32), |(threats, built), &l| {
            let have = (after & l).count_ones();
            (threats + u32::from(have == k - 1), built + have)
        })
    };
    let best = moves.iter().map(|&c| score(c)).max();
    moves
        .into_iter()
        .filter(|&c| Some(score(c)) == best)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::Rules;

    #[test]
    fn a_cancelled_brain_chooses_nothing() {
        let mut brain = Brain::new(Some(1)).with_think(Duration::from_mins(1));
        brain.set_cancel(Some(Arc::new(AtomicBool::new(true))));
        let mut board = Board::new(Rules::new(7, 4, false).unwrap());
        board.play(board.cell_at(3, 3).unwrap()).unwrap();
        assert_eq!(brain.choose(Player::HARD, &Position::Classic(board)), None);
        let ultimate = crate::rules::position::Variant::Ultimate.start();
        assert_eq!(brain.choose(Player::HARD, &ultimate), None);
        brain.set_cancel(None);
        let classic = Position::Classic(Board::default());
        assert!(brain.choose(Player::HARD, &classic).is_some());
        let mut quick = Brain::new(Some(1)).with_think(Duration::from_millis(20));
        assert!(quick.choose(Player::HARD, &ultimate).is_some());
    }
}
