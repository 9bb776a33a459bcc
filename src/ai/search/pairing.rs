//! Pairing strategies: a proof that a side cannot lose.
//!
//! A *pairing* for a defender is a set of disjoint pairs of empty cells such that every line
//! the attacker could still complete holds both cells of some pair. Whenever the attacker
//! takes a cell of a pair, the defender takes the other; then the attacker never holds both
//! cells of a pair, so never completes a line: the defender cannot lose (the Hales–Jewett
//! pairing argument). Finding one is a small exact-cover-like search: every line to cover
//! picks one pair of its own empty cells, pairs may not share cells, and one pair covers
//! every line holding both its cells. The search is bounded, so "no pairing" means "none
//! found within the effort", never a proof of anything.
//!
//! # Misère
//! Under misère rules completing a line loses, and a pairing of a side's *own* lines (those
//! free of the other side's marks) proves that it cannot lose. The side, A, answers a move
//! into a pair with the pair's other cell; else it takes an unpaired cell; else it opens an
//! untouched pair. It never takes both cells of a pair, so never completes a line, as long as
//! it is never left with only the other cells of pairs it opened itself. Count, with the
//! other side to move, the empty unpaired cells `U` and the opened pairs whose other cell is
//! empty `D`. A's first move leaves `D = 0`, or `D = 1` and `U = 0` when it had to open a
//! pair. While `D = 0` and `U` is even, a move into an unpaired cell leaves A another one: `D`
//! stays 0. While `U + D` is odd and `D ≤ 1`, a move into an unpaired cell leaves `U - 1`
//! cells, and A takes another, or if none is left (so `D = 0`) opens a pair; a move into the
//! open pair's other cell leaves `D = 0` and `U` even, and A takes an unpaired cell or opens a
//! pair; either way `U + D` is odd again and `D ≤ 1`. A move into an untouched pair is
//! answered inside it. So A always has a move, and the finder is asked for pairs covering
//! A's lines, with A as the "attacker" whose lines need covering: the same search.

use crate::rules::classic::bit_indices;
use crate::rules::classic::geometry::{Geometry, MAX_CELLS, MAX_LINES};

/// Effort of one search inside the tree, in nodes of the pairing search.
pub(super) const TREE_EFFORT: u32 = 48;
/// Effort of one search for a move that would give the side to move a pairing: the search
/// settles its node when one is found.
pub(super) const MOVE_EFFORT: u32 = 100;
/// Effort of one search at the root of a move, where its answer is reused.
pub(super) const ROOT_EFFORT: u32 = 2_000;

/// A pairing: disjoint pairs of cells, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    pairs: Vec<(u8, u8)>,
}

impl Pairing {
    /// The pairs, by cell index.
    pub fn pairs(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.pairs
            .iter()
            .map(|&(a, b)| (usize::from(a), usize::from(b)))
    }

    /// The cell of `cell`'s pair other than `cell`, if `cell` is paired.
    pub fn partner(&self, cell: usize) -> Option<usize> {
        self.pairs().find_map(|(a, b)| {
            if a == cell {
                Some(b)
            } else if b == cell {
                Some(a)
            } else {
                None
            }
        })
    }

    /// Whether the pairing still proves that `defender` cannot lose with the attacker to
    /// move: every line the attacker can still complete holds a pair with both cells empty.
    pub fn holds(&self, geom: &Geometry, attacker: u64, defender: u64) -> bool {
        let empty = geom.full & !(attacker | defender);
        let intact: Vec<u64> = self
            .pairs()
            .map(|(a, b)| (1u64 << a) | (1u64 << b))
            .filter(|&p| p & empty == p)
            .collect();
        let reach = attacker_reach(geom, attacker, defender, true);
        geom.lines
            .iter()
            .filter(|&&l| l & defender == 0 && k_missing(l, attacker) <= reach)
            .all(|&l| intact.iter().any(|&p| p & !l == 0))
    }

    /// The defender's answer, with the defender to move: the partner of a pair the attacker
    /// broke (took one cell of, leaving the other empty), `Some(None)` when no pair is broken,
    /// and `None` when several are (the pairing no longer guarantees anything).
    pub fn answer(&self, attacker: u64, defender: u64) -> Option<Option<usize>> {
        let mut broken = None;
        for (a, b) in self.pairs() {
            let taken = |c: usize| (attacker >> c) & 1 != 0;
            let empty = |c: usize| ((attacker | defender) >> c) & 1 == 0;
            let partner = if taken(a) && empty(b) {
                b
            } else if taken(b) && empty(a) {
                a
            } else {
                continue;
            };
            if broken.is_some() {
                return None;
            }
            broken = Some(partner);
        }
        Some(broken)
    }
}

/// How many marks the attacker can still add: every other empty cell, starting with the
/// next one if it is to move.
fn attacker_reach(geom: &Geometry, attacker: u64, defender: u64, to_move: bool) -> u32 {
    let empties = (geom.full & !(attacker | defender)).count_ones();
    if to_move {
        empties.div_ceil(2)
    } else {
        empties / 2
    }
}

/// How many cells of `line` the attacker still needs.
fn k_missing(line: u64, attacker: u64) -> u32 {
    (line & !attacker).count_ones()
}

/// Searches for a pairing that keeps `defender` from losing to `attacker`, with at most
/// `effort` nodes of search, adding the nodes used to `spent`. `attacker_to_move` says whose
/// turn it is (lines the attacker has no time left to complete need no pair). Under misère
/// rules, ask with the side that avoids its own lines as the attacker (see the module docs).
pub(super) fn find(
    geom: &Geometry,
    attacker: u64,
    defender: u64,
    attacker_to_move: bool,
    effort: u32,
    spent: &mut u64,
) -> Option<Pairing> {
    let reach = attacker_reach(geom, attacker, defender, attacker_to_move);
    let f = Finder::run(geom, attacker, defender, reach, effort, spent)?;
    Some(Pairing {
        pairs: f.pairs[..f.len].to_vec(),
    })
}

/// Whether [`find`] would find a pairing, without building it.
#[inline]
pub(super) fn exists(
    geom: &Geometry,
    attacker: u64,
    defender: u64,
    attacker_to_move: bool,
    effort: u32,
    spent: &mut u64,
) -> bool {
    let reach = attacker_reach(geom, attacker, defender, attacker_to_move);
    Finder::run(geom, attacker, defender, reach, effort, spent).is_some()
}

/// The cells of a pairing that would hold for `defender` if it were to play `reply` now, with
/// the attacker to move: it still holds after any attacker move outside those cells, then
/// `reply`. Lines are covered with a margin of one mark, so that a move outside the cells
/// that brings a line within the attacker's reach cannot uncover it. `None` if none was
/// found within `effort`.
pub(super) fn cells_after(
    geom: &Geometry,
    attacker: u64,
    defender: u64,
    reply: usize,
    effort: u32,
    spent: &mut u64,
) -> Option<u64> {
    let defender = defender | 1 << reply;
    let reach = attacker_reach(geom, attacker, defender, true) + 1;
    let f = Finder::run(geom, attacker, defender, reach, effort, spent)?;
    Some(
        f.pairs[..f.len]
            .iter()
            .fold(0, |acc, &(a, b)| acc | 1 << a | 1 << b),
    )
}

/// What listing the lines to cover and trying one pair per straight line cost, in nodes of the
/// search: about eight (measured with a release build on 5×5 to 7×7 boards, normal and
/// misère).
const SETUP_NODES: u64 = 8;

/// A line has at most this many cells, free or not, plus one (7×7 with seven; 8×8 is taken
/// with five to seven).
const FREE: usize = 8;

/// The most straight lines the quick way pairs ([`Finder::one_pair_per_straight`]): as many as
/// 7×7 with five has, and no more, so that its scratch arrays stay small; a position with more
/// (8×8 has 30) is left to the search.
const STRAIGHTS: usize = 24;

/// The search's state: the lines to cover (as their empty cells) and the pairs so far.
struct Finder<'g> {
    geom: &'g Geometry,
    /// The lines to cover, by index in `geom.lines`.
    lines: u128,
    /// Each line's cells the attacker does not hold (for the lines in `lines` only).
    targets: [u64; MAX_LINES],
    pairs: [(u8, u8); MAX_CELLS / 2],
    len: usize,
    effort: u32,
}

impl<'g> Finder<'g> {
    /// A finder that found a pairing covering every line the attacker needs at most `reach`
    /// marks for within `effort` nodes, or `None`; the nodes used are added to `spent`.
    fn run(
        geom: &'g Geometry,
        attacker: u64,
        defender: u64,
        reach: u32,
        effort: u32,
        spent: &mut u64,
    ) -> Option<Finder<'g>> {
        *spent += SETUP_NODES;
        let mut f = Finder::new(geom, attacker, defender, reach)?;
        if f.one_pair_per_straight() {
            return Some(f);
        }
        f.effort = effort;
        let mut by_free = [0u128; FREE];
        for i in bits128(f.lines) {
            by_free[f.targets[i].count_ones() as usize] |= 1 << i;
        }
        let found = f.solve(f.lines, 0, &by_free);
        *spent += u64::from(effort - f.effort);
        found.then_some(f)
    }

    /// The lines to cover (those the attacker needs at most `reach` more marks for), or
    /// `None` when one cannot be: a line the attacker can complete
    /// with fewer than two empty cells left.
    fn new(geom: &'g Geometry, attacker: u64, defender: u64, reach: u32) -> Option<Self> {
        let mut f = Finder {
            geom,
            lines: 0,
            targets: [0; MAX_LINES],
            pairs: [(0, 0); MAX_CELLS / 2],
            len: 0,
            effort: 0,
        };
        // A pair lies on one row, column or diagonal, so each of those holding a line to
        // cover needs a pair of its own: too few empty cells for that, and there is none.
        let mut straights = 0u64;
        for (i, (&l, &straight)) in geom.lines.iter().zip(&geom.straight).enumerate() {
            if l & defender != 0 || k_missing(l, attacker) > reach {
                continue;
            }
            let free = l & !attacker;
            if free.count_ones() < 2 {
                return None;
            }
            // A line whose free cells hold another target's is covered with it: skip
            // supersets of a target already listed, and drop listed supersets of this one.
            // Two cells lie on one straight line only, so only lines on the same straight can
            // be such subsets or supersets.
            let beside = f.lines & geom.on_straight[usize::from(straight)];
            if bits128(beside).any(|j| f.targets[j] & !free == 0) {
                continue;
            }
            for j in bits128(beside) {
                if f.targets[j] & free == free {
                    f.lines &= !(1 << j);
                }
            }
            straights |= 1 << straight;
            f.targets[i] = free;
            f.lines |= 1 << i;
        }
        let empties = (geom.full & !(attacker | defender)).count_ones();
        (2 * straights.count_ones() <= empties).then_some(f)
    }

    /// The quick way, exact where it succeeds: one pair for each straight line that holds
    /// targets, taken from the cells all of that straight's targets share, so that it covers
    /// them all. Pairs on different straights must not share a cell, so choosing them is a
    /// bipartite matching (each straight needs two cells, each cell serves one straight),
    /// found by augmenting paths in polynomial time. `false` when a straight's targets share
    /// fewer than two cells or no matching exists: then a pairing may still need several
    /// pairs on one straight, which the search looks for.
    fn one_pair_per_straight(&mut self) -> bool {
        // The straights with targets, and the cells their pair may use.
        let mut ids = [0u8; STRAIGHTS];
        let mut wants = [0u64; 2 * STRAIGHTS];
        let mut n = 0;
        for i in bits128(self.lines) {
            let (target, straight) = (self.targets[i], self.geom.straight[i]);
            match ids[..n].iter().position(|&id| id == straight) {
                Some(i) => wants[2 * i] &= target,
                None if n < ids.len() => {
                    ids[n] = straight;
                    wants[2 * n] = target;
                    n += 1;
                }
                None => return false,
            }
        }
        for i in 0..n {
            if wants[2 * i].count_ones() < 2 {
                return false;
            }
            wants[2 * i + 1] = wants[2 * i];
        }
        let Some(owner) = matching(&wants[..2 * n]) else {
            return false;
        };
        let mut first = [u8::MAX; STRAIGHTS];
        self.len = 0;
        for (cell, &node) in owner.iter().enumerate() {
            if node == u8::MAX {
                continue;
            }
            let straight = usize::from(node) / 2;
            if first[straight] == u8::MAX {
                first[straight] = cell as u8;
            } else {
                self.pairs[self.len] = (first[straight], cell as u8);
                self.len += 1;
            }
        }
        true
    }

    /// Covers the targets in `uncovered` with pairs of cells outside `used`; `by_free[f]`
    /// holds the uncovered targets with `f` cells outside `used`.
    fn solve(&mut self, uncovered: u128, used: u64, by_free: &[u128; FREE]) -> bool {
        if uncovered == 0 {
            return true;
        }
        if self.effort == 0 {
            return false;
        }
        self.effort -= 1;
        // The most constrained line first (the lowest index among those with the fewest free
        // cells); one with fewer than two free cells is a dead end.
        if by_free[0] | by_free[1] != 0 {
            return false;
        }
        let Some(fewest) = by_free.iter().find(|&&b| b != 0) else {
            return true;
        };
        let line = self.targets[fewest.trailing_zeros() as usize] & !used;
        // Its pairs, those covering the most other lines first.
        let mut options = [(0u32, 0u8, 0u8); 28];
        let mut n = 0;
        for a in bit_indices(line) {
            for b in bit_indices(line & !(u64::MAX >> (63 - a))) {
                let covers = self.geom.through_lines[a] & self.geom.through_lines[b] & uncovered;
                if n < options.len() {
                    options[n] = (covers.count_ones(), a as u8, b as u8);
                    n += 1;
                }
            }
        }
        options[..n].sort_unstable_by_key(|o| std::cmp::Reverse(o.0));
        for &(_, a, b) in &options[..n] {
            let through = &self.geom.through_lines;
            let (ha, hb) = (through[usize::from(a)], through[usize::from(b)]);
            let left = uncovered & !(ha & hb);
            // The targets left that hold one of the two cells lose one free cell.
            let shrunk = (ha | hb) & left;
            let mut next = [0u128; FREE];
            for f in 0..FREE {
                let above = by_free.get(f + 1).copied().unwrap_or(0);
                next[f] = (by_free[f] & left & !shrunk) | (above & shrunk);
            }
            self.pairs[self.len] = (a, b);
            self.len += 1;
            if self.solve(left, used | (1 << a) | (1 << b), &next) {
                return true;
            }
            self.len -= 1;
            if self.effort == 0 {
                return false;
            }
        }
        false
    }
}

/// The set bits of a 128-bit mask, lowest first.
fn bits128(mut mask: u128) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

/// Gives each left node `i` a cell of `wants[i]`, no cell to two nodes: `owner[cell]` is the
/// node holding it (`u8::MAX`: none), or `None` when that cannot be done.
fn matching(wants: &[u64]) -> Option<[u8; MAX_CELLS]> {
    if wants.len() > MAX_CELLS {
        return None;
    }
    let mut owner = [u8::MAX; MAX_CELLS];
    (0..wants.len())
        .all(|node| augment(node, wants, &mut owner, &mut 0))
        .then_some(owner)
}

/// Kuhn's augmenting path from left node `node`: gives it a cell of `wants[node]`, moving
/// other nodes' cells along the path, and says whether that was possible. `seen` holds the
/// cells visited in this search.
fn augment(node: usize, wants: &[u64], owner: &mut [u8; MAX_CELLS], seen: &mut u64) -> bool {
    for cell in bit_indices(wants[node] & !*seen) {
        *seen |= 1 << cell;
        let holder = owner[cell];
        if holder == u8::MAX || augment(usize::from(holder), wants, owner, seen) {
            owner[cell] = node as u8;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_by_five_with_five_in_a_row_has_a_pairing_for_o_at_once() {
        let g = Geometry::of(5, 5);
        let p = find(g, 0, 0, true, ROOT_EFFORT, &mut 0).expect("the classic pairing");
        assert!(p.holds(g, 0, 0));
        assert_eq!(p.pairs().count(), 12, "one pair per line");
    }

    #[test]
    fn pairings_from_the_matching_cover_every_line_they_must() {
        let mut rng = fastrand::Rng::with_seed(5);
        let mut matched = 0;
        for _ in 0..3_000 {
            let n = rng.u8(5..=7);
            let g = Geometry::of(n, rng.u8(4..=n.min(5)));
            let (mut attacker, mut defender) = (0u64, 0u64);
            for i in 0..rng.usize(0..8) {
                let empty = g.full & !(attacker | defender);
                let cell = bit_indices(empty).nth(rng.usize(..empty.count_ones() as usize));
                let bit = 1 << cell.unwrap();
                if i % 2 == 0 {
                    attacker |= bit;
                } else {
                    defender |= bit;
                }
            }
            let reach = attacker_reach(g, attacker, defender, true);
            let Some(mut f) = Finder::new(g, attacker, defender, reach) else {
                continue;
            };
            if f.one_pair_per_straight() {
                matched += 1;
                let p = Pairing {
                    pairs: f.pairs[..f.len].to_vec(),
                };
                assert!(p.holds(g, attacker, defender), "{attacker:x} {defender:x}");
                let cells: Vec<usize> = p.pairs().flat_map(|(a, b)| [a, b]).collect();
                let distinct: std::collections::HashSet<_> = cells.iter().collect();
                assert_eq!(distinct.len(), cells.len(), "pairs share no cell");
            }
        }
        assert!(matched > 100, "only {matched} matchings");
    }

    #[test]
    fn three_by_three_has_no_pairing() {
        let g = Geometry::of(3, 3);
        assert_eq!(find(g, 0, 0, true, ROOT_EFFORT, &mut 0), None);
    }

    #[test]
    fn a_broken_pair_is_answered_by_its_partner() {
        let p = Pairing {
            pairs: vec![(0, 1), (2, 3)],
        };
        assert_eq!(p.partner(3), Some(2));
        assert_eq!(p.answer(0b1, 0), Some(Some(1)));
        assert_eq!(p.answer(0, 0), Some(None));
        assert_eq!(p.answer(0b101, 0), None);
        assert_eq!(p.answer(0b1, 0b10), Some(None), "already answered");
    }
}
