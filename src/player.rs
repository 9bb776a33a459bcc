//! Who moves: a human, or an AI at a difficulty. All randomness comes from one seeded source.

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::board::{Board, Cell};
use crate::mcts::{Level, Mcts};
use crate::position::{Move, Position};
use crate::record::Record;
use crate::review::{self, Judgement};
use crate::search::{Meter, Searcher, Value};

/// The thinking budget of a `hard` Ultimate move when none is given: Ultimate is never
/// searched to the end.
pub const ULTIMATE_THINK: Duration = Duration::from_secs(1);

/// Who controls a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// Plays a random legal move.
    Easy,
    /// Wins in one, else blocks, else builds the most lines; can be beaten.
    Medium,
    /// Perfect play wherever its search proves the value within `--think` (3×3, 4×4, the
    /// default boards from the start given a free core or `--seed`, a misère game for the
    /// side that can mirror), else a move proven not to lose or the best move found; random
    /// among equally good moves.
    Hard,
    /// The other player of a network game, whose moves arrive over the connection.
    #[value(skip)]
    Remote,
}

impl Player {
    pub const fn is_human(self) -> bool {
        matches!(self, Player::Human)
    }

    /// Whether the computer chooses this side's moves here.
    pub const fn is_ai(self) -> bool {
        matches!(self, Player::Easy | Player::Medium | Player::Hard)
    }

    /// The lower-case name used on the command line and in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Easy => "easy",
            Player::Medium => "medium",
            Player::Hard => "hard",
            Player::Remote => "remote",
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The computer's move chooser for every AI side of a session: one random source, seeded for
/// reproducible games, one search table reused from move to move for classic boards, and one
/// Monte Carlo tree (also reused) for Ultimate.
pub struct Brain {
    rng: fastrand::Rng,
    searcher: Searcher,
    mcts: Mcts,
    think: Option<Duration>,
    /// How the thinking budget is spent: by work with a seed, by the clock without.
    meter: Meter,
}

impl Brain {
    /// A chooser whose random choices follow from `seed`, or from entropy with `None`. With a
    /// seed every budget is spent as work (see [`Meter::Work`]), so each move is a function of
    /// the position, the seed and the moves before it: a seeded game replays exactly, on any
    /// machine under any load. Without one, budgets are wall-clock time.
    pub fn new(seed: Option<u64>) -> Brain {
        let rng = seed.map_or_else(fastrand::Rng::new, fastrand::Rng::with_seed);
        // Its own stream, so classic games with a seed play as they always did.
        let mut mcts = Mcts::new(seed.map(|s| s ^ 0x9e37_79b9_7f4a_7c15));
        let meter = if seed.is_some() {
            Meter::Work
        } else {
            Meter::Clock
        };
        mcts.set_meter(meter);
        let mut searcher = Searcher::new();
        searcher.set_meter(meter);
        Brain {
            rng,
            searcher,
            mcts,
            think: None,
            meter,
        }
    }

    /// A search table of at most `mb` MiB.
    pub fn with_table_mb(mut self, mb: usize) -> Brain {
        self.searcher = Searcher::with_table_mb(mb);
        self.searcher.set_meter(self.meter);
        self
    }

    /// Limits each `hard` move to `budget` of search (plus the first, always completed,
    /// depth). Without a limit `hard` searches every position to the end.
    pub fn with_think(mut self, budget: Duration) -> Brain {
        self.think = Some(budget);
        self
    }

    /// Stops any search of this brain at once when `flag` is raised (see
    /// [`Searcher::set_cancel`]); a cancelled [`Brain::choose`] returns `None`.
    pub fn set_cancel(&mut self, flag: Option<Arc<AtomicBool>>) {
        self.mcts.set_cancel(flag.clone());
        self.searcher.set_cancel(flag);
    }

    /// The budget of one Ultimate search: `--think`, or [`ULTIMATE_THINK`].
    fn ultimate_budget(&self) -> Duration {
        self.think.unwrap_or(ULTIMATE_THINK)
    }

    /// The move `player` makes in `position`, or `None` for a person (here or remote), a
    /// finished game or a cancelled search.
    pub fn choose(&mut self, player: Player, position: &Position) -> Option<Move> {
        let level = match player {
            Player::Human | Player::Remote => return None,
            Player::Easy => Level::Easy,
            Player::Medium => Level::Medium,
            Player::Hard => Level::Hard,
        };
        match position {
            Position::Classic(board) => self.choose_cell(player, board).map(Move::Classic),
            Position::Ultimate(board) => {
                let budget = self.ultimate_budget();
                self.mcts.choose(level, board, budget).map(Move::Ultimate)
            }
        }
    }

    /// [`Brain::choose`] on a classic board.
    pub fn choose_cell(&mut self, player: Player, board: &Board) -> Option<Cell> {
        let candidates = match player {
            Player::Human | Player::Remote => return None,
            Player::Easy => board.legal_moves(),
            Player::Medium => medium_candidates(board),
            Player::Hard => self.searcher.best_moves(board, self.think),
        };
        if self.searcher.cancelled() {
            return None;
        }
        self.pick(&candidates)
    }

    fn pick(&mut self, cells: &[Cell]) -> Option<Cell> {
        (!cells.is_empty()).then(|| cells[self.rng.usize(..cells.len())])
    }

    /// Every move of `record` judged within the thinking budget (an hour a position without
    /// one), sharing the AI's table; `progress` hears of each move judged. `None` if the
    /// search was cancelled.
    pub fn review(
        &mut self,
        record: &Record,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Option<Vec<Judgement>> {
        if record.variant().rules().is_none() {
            let budget = self.ultimate_budget();
            return review::review_ultimate(record, &mut self.mcts, budget, progress);
        }
        let budget = self.think.unwrap_or(Duration::from_secs(3600));
        review::review(record, &mut self.searcher, budget, progress)
    }

    /// Every legal move's value for a hint, proven where the time budget allows (all of them
    /// without a budget on classic boards), sharing the AI's table or tree. In Ultimate an
    /// unproven value is an estimate of the win rate (see [`crate::mcts::win_rate`]).
    pub fn hint(&mut self, position: &Position) -> Vec<(Move, Value)> {
        let cells = |moves: Vec<(Cell, Value)>| {
            moves
                .into_iter()
                .map(|(c, v)| (Move::Classic(c), v))
                .collect()
        };
        match position {
            Position::Classic(board) => match self.think {
                Some(budget) => cells(self.searcher.analyze_within(board, budget)),
                None => cells(self.searcher.analyze(board)),
            },
            Position::Ultimate(board) => {
                let budget = self.ultimate_budget();
                self.mcts
                    .analyze(board, budget)
                    .into_iter()
                    .map(|(m, v)| (Move::Ultimate(m), v))
                    .collect()
            }
        }
    }
}

/// The moves the `medium` heuristic likes equally: a move that completes a line; else one that
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
    use crate::board::Rules;

    #[test]
    fn a_cancelled_brain_chooses_nothing() {
        let mut brain = Brain::new(Some(1)).with_think(Duration::from_secs(60));
        brain.set_cancel(Some(Arc::new(AtomicBool::new(true))));
        let mut board = Board::new(Rules::new(7, 4, false).unwrap());
        board.play(board.cell_at(3, 3).unwrap()).unwrap();
        assert_eq!(brain.choose(Player::Hard, &Position::Classic(board)), None);
        let ultimate = crate::position::Variant::Ultimate.start();
        assert_eq!(brain.choose(Player::Hard, &ultimate), None);
        brain.set_cancel(None);
        let classic = Position::Classic(Board::default());
        assert!(brain.choose(Player::Hard, &classic).is_some());
        let mut quick = Brain::new(Some(1)).with_think(Duration::from_millis(20));
        assert!(quick.choose(Player::Hard, &ultimate).is_some());
    }
}
