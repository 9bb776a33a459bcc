//! Strategies as proofs, and what the search does with them: pairing strategies (see
//! `pairing.rs`) and mirror strategies (see `mirror.rs`) bound a node's value at a draw, a
//! move that takes one settles a node where a draw is enough, and at a root the search could
//! not finish a move proven not to lose is played rather than an estimate, and the value
//! reported is the proven bound ([`Value::AtLeastDraw`], [`Value::AtMostDraw`]).

use super::mirror::{self, Verdict};
use super::pairing::{self, Pairing};
use super::table::Bound;
use super::{
    BOUND_SAMPLE, PAIRING_EMPTIES, PAIRING_MOVE_TRIES, PAIRING_NODE_WORK, RESTRICT_TRIES, Searcher,
    Thought, sides,
};
use crate::ai::search::Value;
use crate::rules::classic::{Board, Cell, Geometry, Mark, Outcome, bit_indices};

/// How often the searches of [`Searcher::pairing_move`] (or of [`Searcher::pairing_bound`])
/// find a pairing, over the last few
/// thousand: where they almost never do (as on boards won by the first player, 6×6 with four),
/// only the most promising move is tried, which cut that proof from 0.50 s to 0.18 s; where
/// they often do (7×7 with five: 38% of them), nothing changes. A count, so the search stays
/// a function of its history.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Yield {
    tries: u32,
    found: u32,
}

impl Yield {
    /// Tries counted before the rate is trusted, and the count at which both halve.
    const TRUSTED: u32 = 512;
    const WINDOW: u32 = 4096;

    fn record(&mut self, found: bool) {
        self.tries += 1;
        self.found += u32::from(found);
        if self.tries == Self::WINDOW {
            self.tries /= 2;
            self.found /= 2;
        }
    }

    /// Whether fewer than one try in 64 finds a pairing.
    fn rare(self) -> bool {
        self.tries >= Self::TRUSTED && self.found * 64 < self.tries
    }
}

impl Searcher {
    /// What the strategies prove about the root when the search could only estimate it
    /// (`found`): a move proven not to lose (one the search to the end proved before it was
    /// cut off, under misère rules the answer that keeps a mirror strategy, under normal
    /// rules a move that keeps or takes a pairing) is played instead, and the value is then
    /// [`Value::AtLeastDraw`]; when the other side holds a mirror or a pairing, the value is
    /// [`Value::AtMostDraw`]; both at once prove a draw.
    pub(super) fn proven_bounds(&self, geom: &Geometry, board: &Board, found: Thought) -> Thought {
        let Value::Estimate(estimate) = found.value else {
            return found;
        };
        let (me, opp) = sides(board);
        let (answer, mirrored) = mirror::bounds(geom, &self.mirrors, me, opp);
        let held = mirrored || self.opponent_pairs(geom, me, opp);
        let cell = |c: usize| board.cell(c).expect("search moves are on the board");
        let safe = self
            .safe
            .or(answer)
            .or_else(|| self.pairing_safe_move(geom, me, opp));
        match (safe, held) {
            (Some(c), true) => Thought {
                cell: cell(c),
                value: Value::Draw,
            },
            (Some(c), false) => Thought {
                cell: cell(c),
                value: Value::bound(true, estimate),
            },
            (None, true) => Thought {
                cell: found.cell,
                value: Value::bound(false, estimate),
            },
            (None, false) => found,
        }
    }

    /// Whether the other side holds a pairing strategy against the side to move (`me`), so
    /// cannot lose (the same search as [`Searcher::pairing_bound`]'s, with a root's effort).
    fn opponent_pairs(&self, geom: &Geometry, me: u64, opp: u64) -> bool {
        let effort = pairing::ROOT_EFFORT;
        if self.misere {
            pairing::exists(geom, opp, me, false, effort, &mut 0)
        } else {
            pairing::exists(geom, me, opp, true, effort, &mut 0)
        }
    }

    /// When both sides hold pairing strategies, so that neither can lose, a move of the side
    /// to move's pairing that keeps it: the position is a draw and that move holds it. The
    /// side to move's pairing is remembered from move to move while it holds.
    pub(super) fn drawn_by_pairings(
        &mut self,
        geom: &Geometry,
        me: u64,
        opp: u64,
    ) -> Option<usize> {
        let empties = i32::from(geom.cells) - (me | opp).count_ones() as i32;
        if self.misere
            || empties < PAIRING_EMPTIES
            || !pairing::exists(geom, me, opp, true, pairing::ROOT_EFFORT, &mut 0)
        {
            return None;
        }
        let keeps = |p: &Pairing| keeping_move(geom, p, me, opp);
        if let Some(cell) = self.pairing.as_ref().and_then(keeps) {
            return Some(cell);
        }
        let fresh = pairing::find(geom, opp, me, false, pairing::ROOT_EFFORT, &mut 0)?;
        let cell = keeps(&fresh);
        self.pairing = Some(fresh);
        cell
    }

    /// Under normal rules, a move after which the side to move (`me`) holds a pairing, so
    /// cannot lose: the move that keeps a pairing it holds, else one that takes a pairing.
    fn pairing_safe_move(&self, geom: &Geometry, me: u64, opp: u64) -> Option<usize> {
        if self.misere {
            return None;
        }
        if let Some(p) = pairing::find(geom, opp, me, false, pairing::ROOT_EFFORT, &mut 0) {
            return keeping_move(geom, &p, me, opp);
        }
        let empty = geom.full & !(me | opp);
        bit_indices(empty)
            .find(|&c| pairing::exists(geom, opp, me | 1 << c, true, pairing::ROOT_EFFORT, &mut 0))
    }

    /// The moves that might win for the side to move (`me`), found by letting the opponent
    /// move twice: if after a reply `o` the opponent would hold a pairing, any move of ours
    /// outside that pairing's cells and `o` lets it play `o` and hold the draw. The answer is
    /// the intersection over a few replies, tried best first from ply `ply`'s move list of
    /// `len`; every move outside it scores a draw at most.
    pub(super) fn restriction(
        &mut self,
        geom: &Geometry,
        me: u64,
        opp: u64,
        ply: usize,
        len: usize,
    ) -> u64 {
        let mut allowed = geom.full & !(me | opp);
        let mut tried = 0u64;
        for _ in 0..RESTRICT_TRIES {
            let Some(o) = self.order.peek(ply, len, allowed & !tried) else {
                break;
            };
            tried |= 1 << o;
            let mut spent = 0;
            let cells = pairing::cells_after(geom, me, opp, o, pairing::TREE_EFFORT, &mut spent);
            self.nodes += spent * PAIRING_NODE_WORK;
            if let Some(cells) = cells {
                allowed &= cells | 1 << o;
                if allowed == 0 {
                    break;
                }
            }
        }
        allowed
    }

    /// A move among the first few of ply `ply`'s list of `len` after which the side to move
    /// (`me`) holds a pairing, so cannot lose.
    pub(super) fn pairing_move(
        &mut self,
        geom: &Geometry,
        me: u64,
        opp: u64,
        ply: usize,
        len: usize,
    ) -> Option<usize> {
        let mut tried = 0u64;
        // Under misère rules rare successes still pay (7×7 with six: 3.8 s against 15 s).
        let attempts = if self.move_yield.rare() && !self.misere {
            1
        } else {
            PAIRING_MOVE_TRIES
        };
        for _ in 0..attempts {
            let c = self.order.peek(ply, len, !tried)?;
            tried |= 1 << c;
            let mut spent = 0;
            let effort = pairing::MOVE_EFFORT;
            let found = if self.misere {
                pairing::exists(geom, me | 1 << c, opp, false, effort, &mut spent)
            } else {
                pairing::exists(geom, opp, me | 1 << c, true, effort, &mut spent)
            };
            self.nodes += spent * PAIRING_NODE_WORK;
            self.move_yield.record(found);
            if found {
                return Some(c);
            }
        }
        None
    }

    /// Narrows the window with mirror strategies (see `mirror.rs`; misère only): a move that
    /// takes one means a draw at worst, one the opponent holds a draw at best. Returns the
    /// score when that settles the node (a draw: the window lies on one side of it).
    #[inline]
    pub(super) fn mirror_bound(
        &self,
        geom: &Geometry,
        me: u64,
        opp: u64,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Option<i32> {
        if self.mirrors.is_empty() {
            return None;
        }
        match mirror::verdict(geom, &self.mirrors, me, opp) {
            Verdict::Unknown => return None,
            Verdict::Answer(_) => *alpha = (*alpha).max(0),
            Verdict::Held => *beta = (*beta).min(0),
        }
        (*alpha >= *beta).then_some(0)
    }

    /// Narrows the window with pairing strategies (see `pairing.rs`): one for the side to move
    /// means a draw at worst, one for the opponent a draw at best. Returns the score and what
    /// it bounds when that settles the node. Only on positions with many empty cells.
    #[inline]
    pub(super) fn pairing_bound(
        &mut self,
        geom: &Geometry,
        me: u64,
        opp: u64,
        alpha: &mut i32,
        beta: &mut i32,
    ) -> Option<Bound> {
        let empties = i32::from(geom.cells) - (me | opp).count_ones() as i32;
        if empties < PAIRING_EMPTIES {
            return None;
        }
        // Where they almost never succeed (on boards won by the first player, 6×6 with four:
        // one in 180; and mid-proof on 7×7 with five), only a sample of nodes looks.
        if !self.misere && self.bound_yield.rare() {
            self.bound_passed = self.bound_passed.wrapping_add(1);
            if !self.bound_passed.is_multiple_of(BOUND_SAMPLE) {
                return None;
            }
        }
        let mut spent = 0;
        let effort = pairing::TREE_EFFORT;
        // Misère: a side pairs its own lines, which it must avoid completing.
        let (mine, theirs) = if self.misere {
            (
                *alpha < 0 && pairing::exists(geom, me, opp, true, effort, &mut spent),
                *beta > 0 && pairing::exists(geom, opp, me, false, effort, &mut spent),
            )
        } else {
            (
                *alpha < 0 && pairing::exists(geom, opp, me, false, effort, &mut spent),
                *beta > 0 && pairing::exists(geom, me, opp, true, effort, &mut spent),
            )
        };
        self.nodes += spent * PAIRING_NODE_WORK;
        if spent > 0 {
            self.bound_yield.record(mine || theirs);
        }
        match (mine, theirs) {
            (true, true) => Some(Bound::Exact),
            (true, false) if *beta <= 0 => Some(Bound::Lower),
            (false, true) if *alpha >= 0 => Some(Bound::Upper),
            _ => {
                if mine {
                    *alpha = 0;
                }
                if theirs {
                    *beta = 0;
                }
                None
            }
        }
    }
}

/// The move of the side to move (`me`) that keeps its pairing `p` (normal rules): the partner
/// of a cell the other side took, or with nothing to answer a cell outside every pair (else
/// any: taking a cell of its own pair only blocks that pair's lines). `None` if the pairing
/// does not hold after it.
fn keeping_move(geom: &Geometry, p: &Pairing, me: u64, opp: u64) -> Option<usize> {
    let empty = geom.full & !(me | opp);
    let cell = p.answer(opp, me)?.unwrap_or_else(|| {
        let paired = p.pairs().fold(0u64, |acc, (a, b)| acc | 1 << a | 1 << b);
        let free = if empty & !paired != 0 {
            empty & !paired
        } else {
            empty
        };
        free.trailing_zeros() as usize
    });
    p.holds(geom, opp, me | 1 << cell).then_some(cell)
}

/// A pairing strategy for `defender` on `board` (see [`Pairing`]): pairs of empty cells such
/// that answering the other side's move in a pair with the pair's other cell never loses.
/// Under misère rules the pairs cover the defender's own lines, and its other moves go first
/// to unpaired cells, then to a cell of an untouched pair: then it never takes both cells of
/// a pair, so never completes a line (see `pairing.rs`). `None` when the bounded search finds
/// none (which proves nothing).
pub fn pairing(board: &Board, defender: Mark) -> Option<Vec<(Cell, Cell)>> {
    if board.outcome() != Outcome::InProgress {
        return None;
    }
    let geom = board.geometry();
    let (other, own) = (board.bits(defender.other()), board.bits(defender));
    let defender_to_move = board.to_move() == defender;
    let effort = pairing::ROOT_EFFORT;
    let p = if board.rules().misere() {
        pairing::find(geom, own, other, defender_to_move, effort, &mut 0)?
    } else {
        pairing::find(geom, other, own, !defender_to_move, effort, &mut 0)?
    };
    let cell = |i: usize| board.cell(i).expect("pairing cells are on the board");
    Some(p.pairs().map(|(a, b)| (cell(a), cell(b))).collect())
}

/// Under misère rules, the move after which the side to move holds a mirror strategy (see
/// `mirror.rs`), so cannot lose: the mirror image of the other side's last move, or the
/// centre. `None` when there is none, and under normal rules.
pub fn mirror(board: &Board) -> Option<Cell> {
    if !board.rules().misere() || board.outcome() != Outcome::InProgress {
        return None;
    }
    let geom = board.geometry();
    let (me, opp) = sides(board);
    match mirror::verdict(geom, &mirror::mirrors(geom), me, opp) {
        Verdict::Answer(cell) => board.cell(cell),
        _ => None,
    }
}
