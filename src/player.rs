//! Who moves: a human, or an AI at a difficulty; and the one dispatch from a rule set to its
//! AI ([`Brain`]): the negamax search for classic boards, the Monte Carlo tree search for
//! Ultimate. What a front end or a report asks of the AI (a move, a hint, an analysis, a
//! verdict on a move played) it asks here, once for every rule set. All randomness comes
//! from one seeded source.

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use crate::board::{Board, Cell};
use crate::levels::{self, Level};
use crate::mcts::{self, Mcts};
use crate::position::{Move, Position, Variant};
use crate::search::{Meter, Searcher, Value, best_of};

/// The thinking budget of a `hard` Ultimate move when none is given: Ultimate is never
/// searched to the end.
pub const ULTIMATE_THINK: Duration = Duration::from_secs(1);

/// Who controls a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// The computer at a level of the ladder (see [`crate::levels`]).
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
    cancel: Option<Arc<AtomicBool>>,
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
            cancel: None,
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
        self.searcher.set_cancel(flag.clone());
        self.cancel = flag;
    }

    /// The budget of one Ultimate search: `--think`, or [`ULTIMATE_THINK`].
    fn ultimate_budget(&self) -> Duration {
        self.think.unwrap_or(ULTIMATE_THINK)
    }

    /// The move `player` makes in `position`, or `None` for a person (here or remote), a
    /// finished game or a cancelled search.
    pub fn choose(&mut self, player: Player, position: &Position) -> Option<Move> {
        let level = player.level()?;
        match position {
            Position::Classic(board) => self.choose_cell(player, board).map(Move::Classic),
            Position::Ultimate(board) => {
                let effort = level
                    .style()
                    .map_or(mcts::Level::Hard, |s| mcts::Level::Playouts(s.playouts));
                let budget = self.ultimate_budget();
                self.mcts.choose(effort, board, budget).map(Move::Ultimate)
            }
        }
    }

    /// [`Brain::choose`] on a classic board.
    pub fn choose_cell(&mut self, player: Player, board: &Board) -> Option<Cell> {
        let level = player.level()?;
        if let Some(style) = level.style() {
            return levels::choose_cell(board, style, &mut self.rng, self.cancel.as_deref());
        }
        let candidates = self.searcher.best_moves(board, self.think);
        if self.searcher.cancelled() {
            return None;
        }
        self.pick(&candidates)
    }

    fn pick(&mut self, cells: &[Cell]) -> Option<Cell> {
        (!cells.is_empty()).then(|| cells[self.rng.usize(..cells.len())])
    }

    /// The verdict on `mv` played in `position`, from its mover's side: the position is
    /// searched within the thinking budget, then the move played, unless it is the search's
    /// own choice, within another. `None` if the search was cancelled.
    ///
    /// # Panics
    /// If `mv` is not legal in `position`.
    pub fn judge(&mut self, position: &Position, mv: Move) -> Option<Verdict> {
        assert!(
            position.legal_moves().contains(&mv),
            "judge takes a legal move"
        );
        match (position, mv) {
            (Position::Classic(board), Move::Classic(cell)) => self.judge_cell(board, cell),
            (Position::Ultimate(board), Move::Ultimate(played)) => {
                let budget = self.ultimate_budget();
                let verdict = mcts::judge(&mut self.mcts, board, played, budget)?;
                Some(Verdict {
                    before: verdict.before,
                    after: verdict.after,
                    best: verdict.best.into(),
                })
            }
            _ => unreachable!("a legal move is of the position's rule set"),
        }
    }

    fn judge_cell(&mut self, board: &Board, cell: Cell) -> Option<Verdict> {
        // A board with a legal move is not finished: no thought means a cancelled search.
        let thought = self.searcher.think(board, self.think)?;
        let after = if thought.cell == cell {
            thought.value
        } else {
            self.searcher.move_value(board, cell, self.think)
        };
        if self.searcher.cancelled() {
            return None;
        }
        Some(Verdict {
            before: thought.value,
            after,
            best: thought.cell.into(),
        })
    }

    /// What is known of `position` within the thinking budget: its value with a best move
    /// (unless the game is over), and, unless `best_only`, every legal move's value within
    /// another budget. Each position is searched afresh.
    pub fn analyze(&mut self, position: &Position, best_only: bool) -> Analysis {
        match position {
            Position::Classic(board) => {
                let head = self
                    .searcher
                    .think(board, self.think)
                    .map(|t| (t.value, Move::from(t.cell)));
                let moves = if best_only {
                    Vec::new()
                } else {
                    self.hint(position)
                };
                Analysis { head, moves }
            }
            Position::Ultimate(board) => {
                // A tree kept from another position would only mislead.
                self.mcts.clear();
                if best_only {
                    let budget = self.ultimate_budget();
                    let head = self
                        .mcts
                        .think(board, budget)
                        .map(|c| (c.value, c.mv.into()));
                    return Analysis {
                        head,
                        moves: Vec::new(),
                    };
                }
                Analysis::of_moves(position, self.hint(position))
            }
        }
    }

    /// Every legal move's value for a hint, proven where the time budget allows (all of them
    /// without a budget on classic boards), sharing the AI's table or tree. In Ultimate an
    /// unproven value is an estimate of the win rate (a [`Value::WinRate`]).
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

/// Whether the AI of `variant` values unproven positions by win rates (a proven value is then
/// read as a rate too: 1, ½ or 0) rather than by a heuristic score.
pub fn rates(variant: Variant) -> bool {
    match variant {
        Variant::Classic(_) => false,
        Variant::Ultimate => true,
    }
}

/// A move judged for review, from its mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
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
    /// several best moves the first for people (see [`Position::reading_key`]) is named.
    pub fn of_moves(position: &Position, moves: Vec<(Move, Value)>) -> Analysis {
        let head = best_of(&moves)
            .into_iter()
            .min_by_key(|&(m, _)| position.reading_key(m))
            .map(|(m, v)| (v, m));
        Analysis { head, moves }
    }

    /// The moves as good as the best, for people in order (just the best move when only it is
    /// known).
    pub fn best(&self, position: &Position) -> Vec<Move> {
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
        best.sort_by_key(|&m| position.reading_key(m));
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
    use crate::board::Rules;

    #[test]
    fn a_cancelled_brain_chooses_nothing() {
        let mut brain = Brain::new(Some(1)).with_think(Duration::from_mins(1));
        brain.set_cancel(Some(Arc::new(AtomicBool::new(true))));
        let mut board = Board::new(Rules::new(7, 4, false).unwrap());
        board.play(board.cell_at(3, 3).unwrap()).unwrap();
        assert_eq!(brain.choose(Player::HARD, &Position::Classic(board)), None);
        let ultimate = crate::position::Variant::Ultimate.start();
        assert_eq!(brain.choose(Player::HARD, &ultimate), None);
        brain.set_cancel(None);
        let classic = Position::Classic(Board::default());
        assert!(brain.choose(Player::HARD, &classic).is_some());
        let mut quick = Brain::new(Some(1)).with_think(Duration::from_millis(20));
        assert!(quick.choose(Player::HARD, &ultimate).is_some());
    }
}
