//! What the lines say about a position: one pass that finds threats and how far each side's
//! open lines have come, the bounds that follow from them, and the heuristic estimate used at
//! the search's horizon.

use super::value::{EST_MAX, WIN};
use crate::rules::classic::geometry::{Geometry, MAX_LINES};

/// One pass over the lines.
pub(super) struct Scan {
    /// Empty cells that complete a line of the side to move.
    pub my_threats: u64,
    /// Empty cells that complete a line of the opponent.
    pub their_threats: u64,
    /// The most marks of the side to move on a line with no opponent mark (-1: no such line).
    my_best: i32,
    /// The most opponent marks on a line with no mark of the side to move (-1: none).
    their_best: i32,
}

/// Scans the lines for the side to move (`me`), leaving in `weights` how much a mark on each
/// line builds an open line of ours or blocks one of theirs (for the move ordering).
#[inline]
pub(super) fn scan(geom: &Geometry, me: u64, opp: u64, weights: &mut [u16; MAX_LINES]) -> Scan {
    let need = u32::from(geom.k) - 1;
    let mut s = Scan {
        my_threats: 0,
        their_threats: 0,
        my_best: -1,
        their_best: -1,
    };
    for (i, &l) in geom.lines.iter().enumerate() {
        let (mine, theirs) = ((l & me).count_ones(), (l & opp).count_ones());
        let mut weight = 0;
        if theirs == 0 {
            s.my_best = s.my_best.max(mine as i32);
            weight += 1 << (2 * mine);
            if mine == need {
                s.my_threats |= l & !me;
            }
        }
        if mine == 0 {
            s.their_best = s.their_best.max(theirs as i32);
            weight += 1 << (2 * theirs);
            if theirs == need {
                s.their_threats |= l & !opp;
            }
        }
        weights[i] = weight;
    }
    s
}

impl Scan {
    /// Whether the side to move can still complete a line: some line free of the opponent
    /// needs no more marks than it has moves left (`empties` cells, and it moves first).
    fn mine_open(&self, k: i32, empties: i32) -> bool {
        self.my_best >= 0 && k - self.my_best <= (empties + 1) / 2
    }

    /// Whether the opponent can still complete a line.
    fn theirs_open(&self, k: i32, empties: i32) -> bool {
        self.their_best >= 0 && k - self.their_best <= empties / 2
    }

    /// What the lines alone say about a node holding `m` marks: a score that settles it, or a
    /// narrower window and, when the opponent threatens to complete a line, the one move that
    /// blocks it (in `candidates`).
    pub fn settle(
        &self,
        geom: &Geometry,
        misere: bool,
        m: i32,
        alpha: &mut i32,
        beta: &mut i32,
        candidates: &mut u64,
    ) -> Option<i32> {
        let (k, empties) = (i32::from(geom.k), i32::from(geom.cells) - m);
        let (mine_open, theirs_open) = (self.mine_open(k, empties), self.theirs_open(k, empties));
        if misere {
            // Best left: the opponent is forced to complete a line on its move.
            *beta = (*beta).min(WIN - (m + 2));
            if !mine_open {
                *alpha = (*alpha).max(0); // no line of ours can ever be completed
            }
            if !theirs_open {
                *beta = (*beta).min(0); // the opponent can never be made to complete one
            }
        } else {
            // A line to complete now is the best there is.
            if self.my_threats != 0 {
                return Some(WIN - (m + 1));
            }
            // The opponent's immediate wins must be blocked; two cannot be.
            match self.their_threats.count_ones() {
                0 => {}
                1 => *candidates = self.their_threats,
                _ => return Some(-(WIN - (m + 2))),
            }
            // No win in one for us: the best left is a win on our next move.
            *beta = (*beta).min(WIN - (m + 3));
            if !mine_open {
                *beta = (*beta).min(0); // no line of ours can be finished: a draw at best
            }
            if !theirs_open {
                *alpha = (*alpha).max(0); // no line of theirs can be: a draw at worst
            }
        }
        // The worst: the opponent completes a line (or, misère, we must) next ply or this one.
        *alpha = (*alpha).max(-(WIN - (m + 1)));
        (*alpha >= *beta).then_some(*alpha)
    }
}

/// A heuristic score for the side to move: lines still open to it count for it, lines open
/// to the opponent against it, each more the fuller it is. Strictly within ±`EST_MAX`.
pub(super) fn evaluate(geom: &Geometry, me: u64, opp: u64, misere: bool) -> i32 {
    let mut e: i32 = 0;
    for &l in &geom.lines {
        let (mine, theirs) = ((l & me).count_ones(), (l & opp).count_ones());
        if theirs == 0 && mine > 0 {
            e += 1 << (2 * (mine - 1));
        } else if mine == 0 && theirs > 0 {
            e -= 1 << (2 * (theirs - 1));
        }
    }
    if misere {
        e = -e;
    }
    e.clamp(-(EST_MAX - 1), EST_MAX - 1)
}
