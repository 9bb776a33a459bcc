//! The AI's search: negamax with alpha-beta, move ordering and a transposition table.
//!
//! # Scores
//! Inside the search a score is from the side to move's point of view and *absolute in
//! time*: a game that the side to move wins when the board holds `m` marks scores
//! `WIN - m`, a game it loses scores `-(WIN - m)`, a draw `0`. Because the number of marks
//! on a board is fixed by the position, the same position always has the same score whatever
//! path reached it, so the transposition table needs no adjustment, and plain negation moves
//! a score between the two sides. The bounds `±INF` are mirrored, so negating never
//! overflows. A quicker win scores higher than a slower one and a slower loss higher than a
//! quicker one. At the API the score becomes a [`Value`] counted in plies from the position.

use std::cmp::Ordering;
use std::fmt;

use crate::board::{Board, Cell, Geometry, Outcome};

/// The score of winning on an empty board; every decided game scores within 64 of ±`WIN`.
const WIN: i32 = 1000;
/// Above any score; `-INF` is below any.
const INF: i32 = WIN + 1;

/// The value of a position or a move for the side that is to play it, with perfect play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Wins; the game ends that many plies from now (a move that completes a line: `Win(1)`).
    Win(u32),
    Draw,
    /// Loses; the game ends that many plies from now.
    Loss(u32),
}

impl Value {
    /// A score relative to now: higher is better for the side to move.
    fn relative(self) -> i32 {
        match self {
            Value::Win(n) => WIN - n as i32,
            Value::Draw => 0,
            Value::Loss(n) => -(WIN - n as i32),
        }
    }

    /// The value of an absolute score at a position holding `marks` marks.
    fn from_score(score: i32, marks: u32) -> Value {
        let m = marks as i32;
        match score.cmp(&0) {
            Ordering::Greater => Value::Win((WIN - score - m) as u32),
            Ordering::Equal => Value::Draw,
            Ordering::Less => Value::Loss((WIN + score - m) as u32),
        }
    }
}

impl Ord for Value {
    /// Better for the side to move is greater: quick wins, then slow wins, draws, slow losses,
    /// quick losses.
    fn cmp(&self, other: &Self) -> Ordering {
        self.relative().cmp(&other.relative())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Draw => write!(f, "draw"),
            Value::Loss(n) => write!(f, "loss in {n}"),
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The true score is at least the stored one.
    Lower,
    /// The true score is at most the stored one.
    Upper,
}

#[derive(Clone, Copy)]
struct Entry {
    me: u64,
    opp: u64,
    score: i16,
    bound: Bound,
    best: u8,
}

const EMPTY: Entry = Entry {
    me: u64::MAX,
    opp: u64::MAX,
    score: 0,
    bound: Bound::Exact,
    best: 0,
};

/// A reusable searcher: keeps its transposition table between calls on boards of the same
/// rules, so an AI that moves several times in one game reuses earlier work.
pub struct Searcher {
    table: Vec<Entry>,
    shift: u32,
    geom: Option<&'static Geometry>,
    misere: bool,
    nodes: u64,
}

impl Default for Searcher {
    fn default() -> Self {
        Searcher::new()
    }
}

impl Searcher {
    pub fn new() -> Searcher {
        Searcher {
            table: Vec::new(),
            shift: 64,
            geom: None,
            misere: false,
            nodes: 0,
        }
    }

    /// Positions visited since this searcher was made.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Makes the table fit the board's rules, clearing it if the rules changed.
    fn prepare(&mut self, board: &Board) -> &'static Geometry {
        let geom = board.geometry();
        let same = self.geom.is_some_and(|g| std::ptr::eq(g, geom));
        if !same || self.misere != board.rules().misere() {
            // 3×3 searches visit a few hundred positions; larger boards get 2^20 entries
            // (24 MiB).
            let bits = if geom.cells <= 9 { 10 } else { 20 };
            self.table = vec![EMPTY; 1 << bits];
            self.shift = 64 - bits;
            self.geom = Some(geom);
            self.misere = board.rules().misere();
        }
        geom
    }

    /// The value of the position for the side to move, or `None` if the game is over.
    pub fn value(&mut self, board: &Board) -> Option<Value> {
        if board.outcome() != Outcome::InProgress {
            return None;
        }
        self.prepare(board);
        let (me, opp) = sides(board);
        let score = self.negamax(me, opp, -INF, INF);
        Some(Value::from_score(score, board.marks()))
    }

    /// The value of playing `cell` for the side to move.
    ///
    /// # Panics
    /// If the move is illegal.
    pub fn move_value(&mut self, board: &Board, cell: Cell) -> Value {
        let child = board
            .with_move(cell)
            .expect("move_value takes a legal move");
        let mover = board.to_move();
        match child.outcome() {
            Outcome::Won { winner, .. } if winner == mover => Value::Win(1),
            Outcome::Won { .. } => Value::Loss(1),
            Outcome::Draw => Value::Draw,
            Outcome::InProgress => {
                self.prepare(&child);
                let (me, opp) = sides(&child);
                let score = -self.negamax(me, opp, -INF, INF);
                Value::from_score(score, board.marks())
            }
        }
    }

    /// Every legal move with its value, in cell order. Empty once the game is over.
    pub fn analyze(&mut self, board: &Board) -> Vec<(Cell, Value)> {
        board
            .legal_moves()
            .into_iter()
            .map(|c| (c, self.move_value(board, c)))
            .collect()
    }

    /// One best move and its value (the first best in move-ordering order), or `None` once
    /// the game is over. Cheaper than [`Searcher::analyze`]: it proves only that no other
    /// move is better.
    pub fn best_move(&mut self, board: &Board) -> Option<(Cell, Value)> {
        if board.outcome() != Outcome::InProgress {
            return None;
        }
        let geom = self.prepare(board);
        let (me, opp) = sides(board);
        let mut best: Option<(usize, i32)> = None;
        let mut alpha = -INF;
        let empty = geom.full & !(me | opp);
        let completing = geom.threats(me, opp);
        for &c in &geom.order {
            let c = usize::from(c);
            if empty & (1 << c) == 0 {
                continue;
            }
            let score = self.child_score(geom, me, opp, completing, c, alpha, INF);
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((c, score));
                alpha = alpha.max(score);
            }
        }
        best.map(|(c, s)| {
            let cell = board.cell(c).expect("search moves are on the board");
            (cell, Value::from_score(s, board.marks()))
        })
    }

    /// The score, for the side to move at (`me`, `opp`), of marking cell `c`; `completing`
    /// holds the cells that complete one of `me`'s lines ([`Geometry::threats`]).
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child_score(
        &mut self,
        geom: &Geometry,
        me: u64,
        opp: u64,
        completing: u64,
        c: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        let mine = me | (1 << c);
        let marks = (mine | opp).count_ones() as i32;
        if completing & (1 << c) != 0 {
            if self.misere {
                -(WIN - marks)
            } else {
                WIN - marks
            }
        } else if mine | opp == geom.full {
            0
        } else {
            -self.negamax(opp, mine, -beta, -alpha)
        }
    }

    /// The absolute score of an unfinished position for the side to move (`me`), exact when
    /// it lies strictly between `alpha` and `beta`, otherwise a bound on the same side.
    fn negamax(&mut self, me: u64, opp: u64, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        let geom = self.geom.expect("prepare() runs before the search");
        let m = (me | opp).count_ones() as i32;
        let empty = geom.full & !(me | opp);
        let mut candidates = empty;
        let completing = geom.threats(me, opp);
        if self.misere {
            // Best left: the opponent is forced to complete a line on its move.
            beta = beta.min(WIN - (m + 2));
        } else {
            // A line to complete now is the best there is.
            if completing != 0 {
                return WIN - (m + 1);
            }
            // The opponent's immediate wins must be blocked; two cannot be.
            let threats = geom.threats(opp, me);
            match threats.count_ones() {
                0 => {}
                1 => candidates = threats,
                _ => return -(WIN - (m + 2)),
            }
            // No win in one for us: the best left is a win on our next move.
            beta = beta.min(WIN - (m + 3));
        }
        // The worst: the opponent completes a line (or, misère, we must) next ply or this one.
        alpha = alpha.max(-(WIN - (m + 1)));
        if alpha >= beta {
            return alpha;
        }

        let slot = self.slot(me, opp);
        let entry = self.table[slot];
        let mut first = None;
        if entry.me == me && entry.opp == opp {
            let s = i32::from(entry.score);
            match entry.bound {
                Bound::Exact => return s,
                Bound::Lower => alpha = alpha.max(s),
                Bound::Upper => beta = beta.min(s),
            }
            if alpha >= beta {
                return s;
            }
            first = Some(usize::from(entry.best));
        }

        let alpha_in = alpha;
        let mut best_score = -INF;
        let mut best_cell = 0usize;
        let ordered = first.into_iter().chain(
            geom.order
                .iter()
                .map(|&c| usize::from(c))
                .filter(|&c| Some(c) != first),
        );
        for c in ordered {
            if candidates & (1 << c) == 0 {
                continue;
            }
            let score = self.child_score(geom, me, opp, completing, c, alpha, beta);
            if score > best_score {
                best_score = score;
                best_cell = c;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }

        let bound = if best_score <= alpha_in {
            Bound::Upper
        } else if best_score >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.table[slot] = Entry {
            me,
            opp,
            score: best_score as i16,
            bound,
            best: best_cell as u8,
        };
        best_score
    }

    #[inline]
    fn slot(&self, me: u64, opp: u64) -> usize {
        let h = me.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ opp.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        (h.rotate_left(17).wrapping_mul(0x1656_67B1_9E37_79F9) >> self.shift) as usize
    }
}

/// The side to move's cells and the other side's.
fn sides(board: &Board) -> (u64, u64) {
    let mover = board.to_move();
    (board.bits(mover), board.bits(mover.other()))
}

/// Every legal move's value with a fresh searcher; see [`Searcher::analyze`].
pub fn analyze(board: &Board) -> Vec<(Cell, Value)> {
    Searcher::new().analyze(board)
}

/// One best move with a fresh searcher; see [`Searcher::best_move`].
pub fn best_move(board: &Board) -> Option<(Cell, Value)> {
    Searcher::new().best_move(board)
}

/// The moves of an analysis that share its best value.
pub fn best_of(analysis: &[(Cell, Value)]) -> Vec<(Cell, Value)> {
    let Some(top) = analysis.iter().map(|&(_, v)| v).max() else {
        return Vec::new();
    };
    analysis
        .iter()
        .copied()
        .filter(|&(_, v)| v == top)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(s: &str) -> Board {
        s.parse().unwrap()
    }

    #[test]
    fn values_order_from_quick_win_to_quick_loss() {
        let order = [
            Value::Win(1),
            Value::Win(3),
            Value::Draw,
            Value::Loss(4),
            Value::Loss(2),
        ];
        for pair in order.windows(2) {
            assert!(pair[0] > pair[1], "{} > {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn empty_board_is_a_draw() {
        assert_eq!(Searcher::new().value(&Board::default()), Some(Value::Draw));
    }

    #[test]
    fn finished_games_have_no_moves() {
        assert_eq!(Searcher::new().value(&board("XXX/OO./...")), None);
        assert!(analyze(&board("XOX/XOO/OXX")).is_empty());
        assert_eq!(best_move(&board("XXX/OO./...")), None);
    }

    #[test]
    fn best_move_value_matches_analysis() {
        for s in ["X../.../...", ".../.X./...", "X.O/.X./..O", "XO./.../..."] {
            let b = board(s);
            let (cell, v) = best_move(&b).unwrap();
            let all = analyze(&b);
            let top = best_of(&all);
            assert!(
                top.iter().any(|&(c, tv)| c == cell && tv == v),
                "{s}: {cell} {v} vs {top:?}"
            );
        }
    }

    #[test]
    fn misere_centre_opening_does_not_lose() {
        // In misère 3×3 the first player draws by taking the centre and mirroring.
        let b = Board::parse_with(".../.../...", None, true).unwrap();
        let all = Searcher::new().analyze(&b);
        let centre = all.iter().find(|(c, _)| c.numpad() == Some(5)).unwrap().1;
        assert_eq!(centre, Value::Draw);
        assert_eq!(Searcher::new().value(&b), Some(Value::Draw));
    }
}
