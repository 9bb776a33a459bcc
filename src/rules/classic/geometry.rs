//! The shape of a board, built once per size and line length: the winning lines as bit masks,
//! the lines through each cell, and the symmetries of the board (the permutations of cells
//! that map lines to lines).

use std::collections::HashSet;
use std::sync::OnceLock;

/// The smallest supported board side.
pub const MIN_SIZE: u8 = 3;
/// The largest board side the classic game is played on.
pub const MAX_SIZE: u8 = 7;
/// The largest board side the proof search takes: 8×8 (64 cells fill a `u64`), with a line
/// of [`PROOF_K`] to [`PROOF_MAX_K`], the boards from 8×8 up being played with Gomoku's
/// rules.
pub const PROOF_SIZE: u8 = 8;
/// The shortest line the proof search takes on 8×8: with four there would be more lines than
/// a set of lines holds (130).
pub const PROOF_K: u8 = 5;
/// The longest line the proof search takes on 8×8: with eight, a line would span the side and
/// the pairing search's scratch arrays would grow for every board (a cost measured on 7×7).
pub const PROOF_MAX_K: u8 = 7;
/// The most cells a board the search takes has.
pub const MAX_CELLS: usize = (PROOF_SIZE as usize) * (PROOF_SIZE as usize);
/// The most lines a board the search takes has: the classic game's largest board with the
/// shortest line (3), more than 8×8 with five.
pub const MAX_LINES: usize = max(line_count(MAX_SIZE, 3), line_count(PROOF_SIZE, PROOF_K));
// Sets of lines are 128-bit masks.
const _: () = assert!(MAX_LINES <= 128);
/// How many (size, k) shapes there are: every classic size with every k from 3 to the size,
/// and 8×8 with every k from [`PROOF_K`] to [`PROOF_MAX_K`].
const SHAPES: usize = shape_index(PROOF_SIZE, PROOF_MAX_K) + 1;

const fn max(a: usize, b: usize) -> usize {
    if a > b { a } else { b }
}

/// Whether the search takes a board of side `size` with `k` in a row.
pub const fn takes(size: u8, k: u8) -> bool {
    let classic = size >= MIN_SIZE && size <= MAX_SIZE && k >= 3 && k <= size;
    classic || (size == PROOF_SIZE && k >= PROOF_K && k <= PROOF_MAX_K)
}

/// The place of the shape (`size`, `k`) among [`SHAPES`]: the classic sizes' shapes in order,
/// then 8×8's.
const fn shape_index(size: u8, k: u8) -> usize {
    let mut index = 0;
    let mut s = MIN_SIZE;
    while s < size {
        index += (s - 2) as usize;
        s += 1;
    }
    let first = if size == PROOF_SIZE { PROOF_K } else { 3 };
    index + (k - first) as usize
}

/// The number of lines of `k` cells on a `size`×`size` board: rows and columns, then the two
/// diagonal directions.
pub const fn line_count(size: u8, k: u8) -> usize {
    let (n, fits) = (size as usize, (size - k + 1) as usize);
    2 * n * fits + 2 * fits * fits
}

/// A permutation of the cells that maps every line onto a line.
#[derive(Debug)]
pub struct Symmetry {
    /// `map[cell]` is the image of `cell`.
    pub map: Vec<u8>,
    /// `inverse[image]` is the cell that maps to `image`.
    pub inverse: Vec<u8>,
    /// `chunks[byte_index][byte]`: the image of 8 cells at once, for fast transforms.
    chunks: Vec<[u64; 256]>,
}

impl Symmetry {
    fn new(map: Vec<u8>) -> Symmetry {
        let mut inverse = vec![0; map.len()];
        for (cell, &image) in map.iter().enumerate() {
            inverse[usize::from(image)] = cell as u8;
        }
        let chunks = (0..map.len().div_ceil(8))
            .map(|chunk| {
                let mut table = [0u64; 256];
                for (byte, image) in table.iter_mut().enumerate() {
                    for bit in 0..8 {
                        let cell = chunk * 8 + bit;
                        if byte & (1 << bit) != 0 && cell < map.len() {
                            *image |= 1 << map[cell];
                        }
                    }
                }
                table
            })
            .collect();
        Symmetry {
            map,
            inverse,
            chunks,
        }
    }

    /// The image of a set of cells.
    #[inline]
    pub fn apply(&self, bits: u64) -> u64 {
        self.chunks.iter().enumerate().fold(0, |acc, (i, table)| {
            acc | table[((bits >> (8 * i)) & 0xFF) as usize]
        })
    }
}

/// The lines of one board shape, its symmetries, and a static move order.
#[derive(Debug)]
pub struct Geometry {
    pub size: u8,
    pub k: u8,
    pub cells: u8,
    /// Mask of every cell on the board.
    pub full: u64,
    pub lines: Vec<u64>,
    /// `straight[line]`: which full row, column or diagonal of the board the line lies on, a
    /// number below 64 (lines on one share it, and no others do).
    pub straight: Vec<u8>,
    /// `through[cell]`: the lines that pass through that cell.
    pub through: Vec<Vec<u64>>,
    /// `through_index[cell]`: their indices in `lines`.
    pub through_index: Vec<Vec<u8>>,
    /// `through_lines[cell]`: the same as a mask, bit `i` for `lines[i]`.
    pub through_lines: Vec<u128>,
    /// `on_straight[s]`: the lines whose `straight` is `s`, as a mask of indices in `lines`.
    pub on_straight: Vec<u128>,
    /// Every symmetry, the identity first.
    pub symmetries: Vec<Symmetry>,
    /// The search looks for a position's symmetric twins only while it holds at most this many
    /// marks; deeper, twins are rare and the transforms cost more than they save.
    pub canon_marks: i32,
}

/// Permutations `p` of `0..n` with `p(n-1-i) = n-1-p(i)`: the candidates for rows and columns.
fn centrally_symmetric_permutations(n: usize) -> Vec<Vec<usize>> {
    fn extend(n: usize, p: &mut Vec<Option<usize>>, i: usize, out: &mut Vec<Vec<usize>>) {
        if i >= n.div_ceil(2) {
            out.push(p.iter().map(|x| x.expect("every place is set")).collect());
            return;
        }
        for v in 0..n {
            let mirror = n - 1 - v;
            let (j, used) = (n - 1 - i, p.contains(&Some(v)) || p.contains(&Some(mirror)));
            if used || (i == j) != (v == mirror) {
                continue;
            }
            p[i] = Some(v);
            p[j] = Some(mirror);
            extend(n, p, i + 1, out);
            p[i] = None;
            p[j] = None;
        }
    }
    let mut out = Vec::new();
    extend(n, &mut vec![None; n], 0, &mut out);
    out
}

impl Geometry {
    fn build(size: u8, k: u8) -> Geometry {
        let n = i32::from(size);
        let k = i32::from(k);
        let bit = |row: i32, col: i32| 1u64 << (row * n + col);
        let mut lines = Vec::new();
        let mut straight = Vec::new();
        // Directions: right, up, up-right, up-left. A line is k steps from a start cell.
        for (d, (dr, dc)) in [(0, 1), (1, 0), (1, 1), (1, -1)].into_iter().enumerate() {
            for row in 0..n {
                for col in 0..n {
                    let (end_r, end_c) = (row + dr * (k - 1), col + dc * (k - 1));
                    if (0..n).contains(&end_r) && (0..n).contains(&end_c) {
                        lines.push((0..k).map(|i| bit(row + dr * i, col + dc * i)).sum());
                        // What stays constant along the direction names the straight line.
                        let along = match d {
                            0 => row,
                            1 => col,
                            2 => col - row + n - 1,
                            _ => col + row,
                        };
                        straight.push((d * 16) as u8 + along as u8);
                    }
                }
            }
        }
        let cells = (n * n) as u8;
        let through: Vec<Vec<u64>> = (0..cells)
            .map(|c| {
                lines
                    .iter()
                    .copied()
                    .filter(|l| l & (1 << c) != 0)
                    .collect()
            })
            .collect();
        let through_index = (0..cells)
            .map(|c| {
                (0..lines.len())
                    .filter(|&i| lines[i] & (1 << c) != 0)
                    .map(|i| i as u8)
                    .collect()
            })
            .collect();
        let mut through_lines = vec![0u128; usize::from(cells)];
        let mut on_straight = vec![0u128; 64];
        for (i, (&line, &s)) in lines.iter().zip(&straight).enumerate() {
            on_straight[usize::from(s)] |= 1 << i;
            for c in bit_indices(line) {
                through_lines[c] |= 1 << i;
            }
        }
        let symmetries = symmetries(usize::from(size), &lines);
        Geometry {
            size,
            k: k as u8,
            cells,
            full: if cells == 64 {
                u64::MAX
            } else {
                (1u64 << cells) - 1
            },
            lines,
            straight,
            through,
            through_index,
            through_lines,
            on_straight,
            symmetries,
            canon_marks: i32::from(cells) / 3,
        }
    }

    /// The shape for `size` and `k`, built on first use and shared for the life of the
    /// program.
    ///
    /// # Panics
    /// If the search does not take `size` and `k` ([`takes`]).
    pub fn of(size: u8, k: u8) -> &'static Geometry {
        static ALL: [OnceLock<Geometry>; SHAPES] = [const { OnceLock::new() }; SHAPES];
        assert!(takes(size, k), "{size} {k}");
        ALL[shape_index(size, k)].get_or_init(|| Geometry::build(size, k))
    }

    /// Whether `bits` holds a complete line through `cell`.
    #[inline]
    #[allow(clippy::manual_contains)] // `contains` cannot say "every bit of l is set"
    pub fn completes(&self, bits: u64, cell: usize) -> bool {
        self.through[cell].iter().any(|&l| bits & l == l)
    }

    /// The union of every complete line in `bits` (0 if none).
    pub fn completed(&self, bits: u64) -> u64 {
        self.lines
            .iter()
            .filter(|&&l| bits & l == l)
            .fold(0, |acc, l| acc | l)
    }
}

/// The symmetries of the board: every transposition-or-not of rows and columns permuted by
/// centrally symmetric permutations that maps the set of lines onto itself. That covers the
/// eight rotations and reflections, and the extra "inside-out" symmetries of boards where a
/// line spans the whole side.
fn symmetries(n: usize, lines: &[u64]) -> Vec<Symmetry> {
    let line_set: HashSet<u64> = lines.iter().copied().collect();
    let perms = centrally_symmetric_permutations(n);
    let mut maps: Vec<Vec<u8>> = Vec::new();
    for transpose in [false, true] {
        for p in &perms {
            for q in &perms {
                let map: Vec<u8> = (0..n * n)
                    .map(|cell| {
                        let (r, c) = (cell / n, cell % n);
                        let (r, c) = if transpose { (c, r) } else { (r, c) };
                        (p[r] * n + q[c]) as u8
                    })
                    .collect();
                let image = |l: u64| bit_indices(l).fold(0u64, |acc, cell| acc | (1 << map[cell]));
                if lines.iter().all(|&l| line_set.contains(&image(l))) {
                    maps.push(map);
                }
            }
        }
    }
    // The identity first, so a position's own orientation wins ties.
    let identity: Vec<u8> = (0..(n * n) as u8).collect();
    maps.sort_by_key(|m| *m != identity);
    maps.dedup();
    maps.into_iter().map(Symmetry::new).collect()
}

/// Iterates the set bits of a mask as cell indices, lowest first.
pub fn bit_indices(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let i = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            i
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetry_groups_have_the_known_sizes() {
        // Eight rotations and reflections; more where a line spans the whole side.
        for (n, k, order) in [
            (3, 3, 8),
            (4, 3, 8),
            (4, 4, 32),
            (5, 4, 8),
            (5, 5, 32),
            (6, 6, 192),
            (8, 5, 8),
        ] {
            assert_eq!(Geometry::of(n, k).symmetries.len(), order, "{n}×{n} k={k}");
        }
    }

    #[test]
    fn symmetries_map_lines_to_lines_and_invert() {
        for (n, k) in [(3, 3), (4, 4), (5, 4), (7, 5)] {
            let g = Geometry::of(n, k);
            let lines: HashSet<u64> = g.lines.iter().copied().collect();
            for s in &g.symmetries {
                for &l in &g.lines {
                    assert!(lines.contains(&s.apply(l)));
                }
                for c in 0..usize::from(g.cells) {
                    assert_eq!(usize::from(s.inverse[usize::from(s.map[c])]), c);
                    assert_eq!(s.apply(1 << c), 1 << s.map[c]);
                }
            }
            assert_eq!(
                g.symmetries[0].map,
                (0..g.cells).collect::<Vec<_>>(),
                "identity first"
            );
        }
    }

    #[test]
    fn lines_are_counted_for_every_shape() {
        // Lines of length k on an n×n board: 2n(n-k+1) straight plus 2(n-k+1)² diagonal.
        for n in MIN_SIZE..=MAX_SIZE {
            for k in 3..=n {
                let g = Geometry::of(n, k);
                let m = usize::from(n - k + 1);
                assert_eq!(g.lines.len(), 2 * usize::from(n) * m + 2 * m * m, "{n} {k}");
                assert_eq!(g.lines.len(), line_count(n, k));
                assert!(g.lines.len() <= MAX_LINES && usize::from(g.cells) <= MAX_CELLS);
                assert!(g.lines.iter().all(|l| l.count_ones() == u32::from(k)));
                // Overlapping lines of one direction share their straight line; lines on one
                // have one direction; there are as many as rows, columns and diagonals with
                // room for a line.
                let shape = |l: u64| l >> l.trailing_zeros();
                for (i, &a) in g.lines.iter().enumerate() {
                    for (j, &b) in g.lines.iter().enumerate() {
                        if a & b != 0 && shape(a) == shape(b) {
                            assert_eq!(g.straight[i], g.straight[j], "{n} {k}: {i} {j}");
                        }
                        if g.straight[i] == g.straight[j] {
                            assert_eq!(shape(a), shape(b), "{n} {k}: {i} {j}");
                        }
                    }
                }
                let distinct: HashSet<u8> = g.straight.iter().copied().collect();
                let diagonals = 2 * usize::from(n - k) + 1;
                assert_eq!(
                    distinct.len(),
                    2 * usize::from(n) + 2 * diagonals,
                    "{n} {k}"
                );
                assert!(distinct.iter().all(|&s| s < 64));
            }
        }
    }
}
