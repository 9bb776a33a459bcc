//! Move ordering: the table's move first, then by how many open lines a cell builds or
//! blocks, weighted by how full they are, then by history (moves that caused cut-offs before).

use crate::rules::classic::bit_indices;
use crate::rules::classic::geometry::{Geometry, MAX_CELLS, MAX_LINES};

/// Per-ply scratch space, so a node fills arrays instead of building them: line weights,
/// then candidate moves with their ordering scores.
#[derive(Clone)]
struct Ply {
    /// Per line: how much playing on it builds an open line of ours or blocks one of theirs.
    weight: [u16; MAX_LINES],
    cells: [u8; MAX_CELLS],
    scores: [u32; MAX_CELLS],
}

const EMPTY_PLY: Ply = Ply {
    weight: [0; MAX_LINES],
    cells: [0; MAX_CELLS],
    scores: [0; MAX_CELLS],
};

/// The ordering's memory: history scores and one scratch list per number of marks.
pub(super) struct MoveOrder {
    history: [u32; 64],
    plies: Vec<Ply>,
}

impl MoveOrder {
    /// Fresh history, with scratch space for boards of `cells` cells (none for 0 cells, to be
    /// replaced before use).
    pub fn new(cells: usize) -> MoveOrder {
        MoveOrder {
            history: [0; 64],
            plies: if cells == 0 {
                Vec::new()
            } else {
                vec![EMPTY_PLY; cells + 1]
            },
        }
    }

    /// Fresh ordering with its history filled with small random scores drawn from `seed`:
    /// the helpers of a search on several threads break the ordering's ties differently, so
    /// they take different paths through the tree and fill the shared table with different
    /// proofs.
    pub fn shuffled(cells: usize, seed: u64) -> MoveOrder {
        let mut order = MoveOrder::new(cells);
        let mut rng = fastrand::Rng::with_seed(seed);
        for h in &mut order.history {
            *h = rng.u32(..512);
        }
        order
    }

    /// Ply `ply`'s line weights, for [`super::eval::scan`] to fill.
    #[inline]
    pub fn weights(&mut self, ply: usize) -> &mut [u16; MAX_LINES] {
        &mut self.plies[ply].weight
    }

    /// Credits `cell` with a cut-off `depth` plies above the horizon.
    #[inline]
    pub fn reward(&mut self, cell: usize, depth: u32) {
        self.history[cell] = self.history[cell].saturating_add(depth * depth);
    }

    /// Fills ply `ply`'s move list with the candidates and their ordering scores: `first`
    /// (the table's move) highest, then by the line weights the scan left in the ply, then by
    /// history; misère reverses all but `first`. Returns how many; take them best first with
    /// [`MoveOrder::next`].
    pub fn order(
        &mut self,
        geom: &Geometry,
        ply: usize,
        candidates: u64,
        first: Option<usize>,
        misere: bool,
    ) -> usize {
        let mut len = 0;
        let slot = &mut self.plies[ply];
        for c in bit_indices(candidates) {
            let lines: u32 = geom.through_index[c]
                .iter()
                .map(|&l| u32::from(slot.weight[usize::from(l)]))
                .sum();
            let mut score = lines * 1024 + self.history[c].min(1023);
            if misere {
                score = u32::MAX / 2 - score;
            }
            if Some(c) == first {
                score = u32::MAX;
            }
            slot.cells[len] = c as u8;
            slot.scores[len] = score;
            len += 1;
        }
        len
    }

    /// The best-scored cell of `mask` left in ply `ply`'s list of `len`, without taking it.
    pub fn peek(&self, ply: usize, len: usize, mask: u64) -> Option<usize> {
        let slot = &self.plies[ply];
        (0..len)
            .filter(|&i| mask & (1 << slot.cells[i]) != 0)
            .max_by_key(|&i| slot.scores[i])
            .map(|i| usize::from(slot.cells[i]))
    }

    /// The best-scored move left in ply `ply`'s list of `len` (a selection sort that stops at
    /// a cut-off).
    #[inline]
    pub fn next(&mut self, ply: usize, len: &mut usize) -> Option<usize> {
        if *len == 0 {
            return None;
        }
        let slot = &mut self.plies[ply];
        let mut best = 0;
        for i in 1..*len {
            if slot.scores[i] > slot.scores[best] {
                best = i;
            }
        }
        let cell = slot.cells[best];
        *len -= 1;
        slot.cells[best] = slot.cells[*len];
        slot.scores[best] = slot.scores[*len];
        Some(usize::from(cell))
    }
}
