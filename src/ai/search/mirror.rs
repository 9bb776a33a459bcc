//! Mirror strategies: a proof that a side cannot lose a misère game.
//!
//! Take a symmetry `s` of the board that is its own inverse (a *mirror*: the point reflection
//! through the centre, or on even boards a reflection in the middle row or column). Say a side
//! M *holds* the mirror when, with the other side to move, M owns every cell `s` fixes and
//! M's other cells are exactly the mirror images of the other side's. The other side then
//! plays some cell `a`; its image `s(a)` is empty (the empty cells are mirror-symmetric, and
//! the other side owns no fixed cell), and M answers there, holding the mirror again. Under
//! misère rules, completing a line loses, and M's answer never completes one: if the line `L`
//! were M's, then every cell of `L` that `s` moves has its image among the other side's
//! cells, so
//! - if `L` holds no fixed cell, the line `s(L)` is the other side's, and it was complete
//!   before M answered: the game was already over (and `s(L) = L` cannot be, for `L` would be
//!   both sides');
//! - if `L` holds a fixed cell, then `L` holds no cell together with its image (one of the
//!   two would be the other side's), which is ruled out by choosing only mirrors where every
//!   line through a fixed cell holds such a pair.
//!
//! So M never completes a line, and never loses: its value is at least a draw. Only mirrors
//! fixing at most one cell are used. On an even board the point reflection fixes none, and O
//! holds it from the start; on an odd board it fixes the centre, X holds it once it takes the
//! centre, and every line through the centre holds a pair of mirror cells exactly when
//! k > (N + 1) / 2, true of every default board (not of 7×7 with four in a row).

use crate::rules::classic::geometry::{Geometry, Symmetry};

/// The most mirrors kept for one board: boards where a line spans the whole side have many
/// involutive symmetries, and each is a look at every node.
const MAX_MIRRORS: usize = 8;

/// One mirror: a symmetry of the board that is its own inverse and fixes at most one cell,
/// such that every line through that cell holds a pair of mirror cells.
#[derive(Clone, Copy, Debug)]
pub(super) struct Mirror {
    /// The symmetry's index in the board's list.
    sym: usize,
    /// The cells it fixes: none, or one.
    fixed: u64,
}

/// The mirrors of a board shape.
pub(super) fn mirrors(geom: &Geometry) -> Vec<Mirror> {
    let mut out: Vec<Mirror> = geom
        .symmetries
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, s)| is_involution(s))
        .map(|(sym, s)| Mirror {
            sym,
            fixed: fixed_cells(s),
        })
        .filter(|m| m.fixed.count_ones() <= 1 && pairs_on_fixed_lines(geom, m))
        .collect();
    // The point reflection first: it is the one that holds from the empty board.
    out.sort_by_key(|m| !is_point_reflection(geom, m));
    out.truncate(MAX_MIRRORS);
    out
}

fn is_involution(s: &Symmetry) -> bool {
    s.map
        .iter()
        .enumerate()
        .all(|(c, &i)| usize::from(s.map[usize::from(i)]) == c)
}

fn fixed_cells(s: &Symmetry) -> u64 {
    s.map
        .iter()
        .enumerate()
        .filter(|&(c, &i)| usize::from(i) == c)
        .fold(0, |acc, (c, _)| acc | 1 << c)
}

fn is_point_reflection(geom: &Geometry, m: &Mirror) -> bool {
    let s = &geom.symmetries[m.sym];
    let last = usize::from(geom.cells) - 1;
    (0..=last).all(|c| usize::from(s.map[c]) == last - c)
}

/// Whether every line through a fixed cell holds a cell and its image (other than itself).
fn pairs_on_fixed_lines(geom: &Geometry, m: &Mirror) -> bool {
    let s = &geom.symmetries[m.sym];
    geom.lines.iter().filter(|&&l| l & m.fixed != 0).all(|&l| {
        let moved = l & !m.fixed;
        moved & s.apply(moved) != 0
    })
}

impl Mirror {
    /// Whether `mirrorer` holds this mirror against `other`, with `other` to move.
    #[inline]
    pub fn held(&self, geom: &Geometry, mirrorer: u64, other: u64) -> bool {
        mirrorer & self.fixed == self.fixed
            && other & self.fixed == 0
            && mirrorer & !self.fixed == geom.symmetries[self.sym].apply(other)
    }

    /// The move after which `me` (to move) holds this mirror against `other`: the image of
    /// the other side's last move, or the fixed cell.
    #[inline]
    pub fn answer(&self, geom: &Geometry, me: u64, other: u64) -> Option<usize> {
        if other & self.fixed != 0 {
            return None;
        }
        let images = geom.symmetries[self.sym].apply(other);
        let mine = me & !self.fixed;
        if mine & !images != 0 {
            return None;
        }
        let missing = (images & !mine) | (self.fixed & !me);
        let empty = geom.full & !(me | other);
        (missing.is_power_of_two() && missing & empty == missing)
            .then(|| missing.trailing_zeros() as usize)
    }
}

/// What the mirrors say about a position, for the side to move (`me`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verdict {
    /// Nothing.
    Unknown,
    /// Playing this cell makes the side to move hold a mirror: it cannot lose.
    Answer(usize),
    /// The other side holds a mirror: the side to move cannot win.
    Held,
}

/// Looks for a mirror that `me` (to move) can take with one move, or that `other` holds.
#[inline]
pub(super) fn verdict(geom: &Geometry, mirrors: &[Mirror], me: u64, other: u64) -> Verdict {
    for m in mirrors {
        if m.held(geom, other, me) {
            return Verdict::Held;
        }
        if let Some(cell) = m.answer(geom, me, other) {
            return Verdict::Answer(cell);
        }
    }
    Verdict::Unknown
}

/// Everything the mirrors prove about a position, for the side to move (`me`): a move after
/// which it holds one (so it cannot lose), and whether the other side holds one (so it cannot
/// win). Both at once prove a draw.
pub(super) fn bounds(
    geom: &Geometry,
    mirrors: &[Mirror],
    me: u64,
    opp: u64,
) -> (Option<usize>, bool) {
    let answer = mirrors.iter().find_map(|m| m.answer(geom, me, opp));
    let held = mirrors.iter().any(|m| m.held(geom, opp, me));
    (answer, held)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(geom: &Geometry) -> Mirror {
        mirrors(geom)
            .into_iter()
            .find(|m| is_point_reflection(geom, m))
            .expect("the point reflection is a mirror")
    }

    #[test]
    fn every_default_board_has_the_point_reflection_as_a_mirror() {
        for (n, k) in [(3, 3), (4, 4), (5, 4), (6, 5), (7, 5)] {
            let g = Geometry::of(n, k);
            let m = point(g);
            assert_eq!(m.fixed.count_ones(), u32::from(n % 2), "{n}×{n}");
            assert!(is_point_reflection(g, &mirrors(g)[0]), "{n}×{n}: first");
        }
    }

    #[test]
    fn the_centre_is_no_mirror_where_a_line_from_it_has_no_pair() {
        // 7×7 with four: the line from the centre to the edge holds no pair of images.
        let g = Geometry::of(7, 4);
        assert!(mirrors(g).is_empty());
        assert!(!mirrors(Geometry::of(5, 3)).iter().any(|m| m.fixed != 0));
    }

    #[test]
    fn even_boards_mirror_in_the_middle_lines_too() {
        let g = Geometry::of(6, 5);
        assert_eq!(mirrors(g).len(), 3, "the point and two axis reflections");
        assert!(mirrors(g).iter().all(|m| m.fixed == 0));
    }

    #[test]
    fn the_answer_restores_the_mirror() {
        let g = Geometry::of(5, 4);
        let m = point(g);
        let centre = 12;
        // X to move on the empty board takes the centre.
        assert_eq!(m.answer(g, 0, 0), Some(centre));
        let x = 1 << centre;
        assert!(m.held(g, x, 0));
        // O plays a1 (cell 0): X answers e5 (cell 24).
        assert_eq!(m.answer(g, x, 1), Some(24));
        assert!(m.held(g, x | 1 << 24, 1));
        assert_eq!(verdict(g, &[m], 1, x | 1 << 24), Verdict::Held);
        // An asymmetric position: no answer.
        assert_eq!(m.answer(g, x | 1 << 3, 1 | 1 << 7), None);
    }
}
