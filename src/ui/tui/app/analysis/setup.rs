//! Setting the analysis board up stone by stone: either side's stones, in any order. The
//! position the engine thinks on is always one a game reaches: X moves first, so X has as
//! many stones as O or one more. The stones a side puts down beyond that wait, drawn faint,
//! until the other side's stones catch up (or they are taken up), and the engine waits with
//! them.

use crate::game::record::Record;
use crate::game::tree::{ROOT, Tree};
use crate::rules::classic::Mark;
use crate::rules::gomoku::opening::Opening;
use crate::rules::position::{Move, Position};

use super::{Analysis, Hand, Refusal};

/// A stone on the board as the player set it.
pub type Stone = (Move, Mark);

impl Analysis {
    /// The stone on `mv`'s point, in the position or waiting.
    pub fn stone_on(&self, mv: Move) -> Option<Mark> {
        let (col, row) = self.position.grid_point(mv)?;
        self.waiting_on(mv)
            .or_else(|| self.position.point_mark(col, row))
    }

    /// The stone waiting on `mv`'s point, if one does.
    pub fn waiting_on(&self, mv: Move) -> Option<Mark> {
        let waiting = self.waiting.iter().find(|(at, _)| *at == mv);
        waiting.map(|&(_, mark)| mark)
    }

    /// The stones put down beyond the position, in the order they were: of one side only.
    pub fn waiting(&self) -> &[Stone] {
        &self.waiting
    }

    /// The colour a key puts down while setting up: `None` for the side to move's.
    pub fn colour(&self) -> Option<Mark> {
        self.colour
    }

    /// `Tab`: the stones set up are the side to move's, X's, then O's, in turn.
    pub(super) fn next_colour(&mut self) -> Result<String, Refusal> {
        if self.hand != Hand::SetUp {
            return Err(Refusal::ColourInMoves);
        }
        self.colour = match self.colour {
            None => Some(Mark::X),
            Some(Mark::X) => Some(Mark::O),
            Some(Mark::O) => None,
        };
        Ok(match self.colour {
            Some(mark) => format!("Keys put {mark}'s stones down (Tab: {})", next(mark)),
            None => "Keys put the side to move's stone down (Tab: X's only)".into(),
        })
    }

    /// A move key while setting up: the hand's stone on an empty point, or the stone there
    /// taken up.
    pub(super) fn stone(&mut self, mv: Move) -> Result<String, Refusal> {
        self.position.grid_point(mv).ok_or(Refusal::NoPoint)?;
        match self.stone_on(mv) {
            Some(_) => self.set(mv, None),
            None => self.set(mv, Some(self.colour.unwrap_or(self.position.to_move()))),
        }
    }

    /// The board with the point of `mv` holding `mark` (`None`: empty). The tree starts
    /// again from the position so made, played as a game could reach it; the stones beyond
    /// it wait.
    pub(super) fn set(&mut self, mv: Move, mark: Option<Mark>) -> Result<String, Refusal> {
        self.position.grid_point(mv).ok_or(Refusal::NoPoint)?;
        if mark.is_none() && self.stone_on(mv).is_none() {
            return Err(Refusal::Empty(mv));
        }
        let mut stones = self.stones();
        stones.retain(|&(at, _)| at != mv);
        stones.extend(mark.map(|mark| (mv, mark)));
        let (placed, waiting) = split(stones);
        let record = set_up(&self.position, &placed)?;
        let dropped = self.tree.moves() > self.tree.moves_to(self.at).len();
        self.tree = Tree::of_record(&record);
        self.go(self.tree.line_end(ROOT));
        self.verdicts.clear();
        self.waiting = waiting;
        let done = match mark {
            Some(mark) => format!("{mark} on {mv}"),
            None => format!("{mv} emptied"),
        };
        let dropped = if dropped {
            " (the variations were of the board before)"
        } else {
            ""
        };
        let after = match self.waiting.first() {
            Some(&(_, ahead)) => format!(
                "The faint stones wait for {}'s, and the engine with them",
                ahead.other()
            ),
            // The message says the game is over.
            None if self.position.is_over() => return Ok(format!("Set up: {done}{dropped}")),
            None => format!("{} to move", self.position.to_move()),
        };
        Ok(format!("Set up: {done}{dropped}. {after}"))
    }

    /// What the stones waiting wait for: `X's stones on e5 f6 wait for two of O's`.
    pub fn waiting_words(&self) -> Option<String> {
        let &(_, ahead) = self.waiting.first()?;
        let points: Vec<String> = self.waiting.iter().map(|(mv, _)| mv.to_string()).collect();
        let other = ahead.other();
        Some(match points.len() {
            1 => format!(
                "{ahead}'s stone on {} waits for one of {other}'s",
                points[0]
            ),
            n => format!(
                "{ahead}'s stones on {} wait for {n} of {other}'s",
                points.join(" ")
            ),
        })
    }

    /// Every stone on the board: the position's, in the order of its moves, then those
    /// waiting.
    fn stones(&self) -> Vec<Stone> {
        let position = &self.position;
        let order = self.tree.moves_to(self.at);
        let mut stones = Vec::new();
        for row in 0..position.grid_rows() {
            for col in 0..position.grid_side() {
                if let (Some(mark), Some(mv)) = (
                    position.point_mark(col, row),
                    position.at_grid_point(col, row),
                ) {
                    stones.push((mv, mark));
                }
            }
        }
        stones.sort_by_key(|(mv, _)| order.iter().position(|m| m == mv));
        stones.extend(self.waiting.iter().copied());
        stones
    }
}

/// The colour after `mark`'s in Tab's turn: its words.
fn next(mark: Mark) -> &'static str {
    match mark {
        Mark::X => "O's",
        Mark::O => "the side to move's",
    }
}

/// `stones` as a position a game reaches and the stones beyond it: the latest stones of the
/// side more than its share ahead (X may have one more than O, O none more than X).
fn split(mut stones: Vec<Stone>) -> (Vec<Stone>, Vec<Stone>) {
    let count = |mark| stones.iter().filter(|&&(_, m)| m == mark).count();
    let (xs, os) = (count(Mark::X), count(Mark::O));
    let (ahead, excess) = if xs > os + 1 {
        (Mark::X, xs - os - 1)
    } else if os > xs {
        (Mark::O, os - xs)
    } else {
        return (stones, Vec::new());
    };
    let mut waiting = Vec::with_capacity(excess);
    for i in (0..stones.len()).rev() {
        if waiting.len() == excess {
            break;
        }
        if stones[i].1 == ahead {
            waiting.push(stones.remove(i));
        }
    }
    waiting.reverse();
    (stones, waiting)
}

/// The moves that set up `stones` (as many of X's as O's, or one more) on `position`'s
/// board: X and O in turn, in reading order, the side that moved last ending on a stone that
/// makes any line it has; or why no game reaches that position.
fn set_up(position: &Position, stones: &[Stone]) -> Result<Record, Refusal> {
    let (side, rows) = (position.grid_side(), position.grid_rows());
    let (mut xs, mut os) = (Vec::new(), Vec::new());
    for row in (0..rows).rev() {
        for col in 0..side {
            let Some(mv) = position.at_grid_point(col, row) else {
                continue;
            };
            match stones.iter().find(|(at, _)| *at == mv) {
                Some((_, Mark::X)) => xs.push(mv),
                Some((_, Mark::O)) => os.push(mv),
                None => {}
            }
        }
    }
    // Free of any opening rule: the stones are placed, not chosen.
    let variant = position.variant();
    let variant = variant.opened(Opening::Free).unwrap_or(variant);
    let last_is_x = xs.len() > os.len();
    let lasts = if last_is_x { xs.len() } else { os.len() };
    let mut why = None;
    // The reading order first, then each of the last side's stones played last in turn.
    for last in (0..lasts).rev() {
        let (mut xs, mut os) = (xs.clone(), os.clone());
        let own = if last_is_x { &mut xs } else { &mut os };
        let stone = own.remove(last);
        own.push(stone);
        let mut moves = Vec::with_capacity(xs.len() + os.len());
        for (i, &x) in xs.iter().enumerate() {
            moves.push(x);
            moves.extend(os.get(i));
        }
        match Record::new(variant, moves) {
            Ok(record) => return Ok(record),
            Err(e) => why = Some(e),
        }
    }
    if lasts == 0 {
        return Record::new(variant, Vec::new()).map_err(Refusal::Unreachable);
    }
    Err(Refusal::Unreachable(why.expect("a stone was tried last")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::position::Variant;

    fn cells(digits: &[(u8, Mark)]) -> Vec<Stone> {
        let position = Variant::default().start();
        digits
            .iter()
            .map(|&(d, mark)| {
                let (col, row) = ((d - 1) % 3, (d - 1) / 3);
                (position.at_grid_point(col, row).unwrap(), mark)
            })
            .collect()
    }

    #[test]
    fn the_latest_stones_of_the_side_ahead_wait_and_the_rest_make_a_reachable_count() {
        use Mark::{O, X};
        for (stones, waits) in [
            (vec![(7, X), (8, X), (9, X)], vec![(8, X), (9, X)]),
            (vec![(7, X), (5, O)], vec![]),
            (vec![(5, O), (7, X), (1, O), (3, O)], vec![(1, O), (3, O)]),
            (vec![(5, O)], vec![(5, O)]),
            (vec![(7, X), (8, X), (5, O), (9, X)], vec![(9, X)]),
        ] {
            let (placed, waiting) = split(cells(&stones));
            assert_eq!(waiting, cells(&waits), "{stones:?}");
            let xs = placed.iter().filter(|s| s.1 == X).count();
            let os = placed.len() - xs;
            assert!(xs == os || xs == os + 1, "{stones:?}: {placed:?}");
            assert_eq!(placed.len() + waiting.len(), stones.len());
        }
    }
}
