//! The geometry of a five-in-a-row board, built once per side and line length: its windows
//! (`k` points in a row in one of four directions), the windows through each point, the
//! windows each point lies just beyond (for the exact rule), and each point's neighbours.

use std::sync::OnceLock;

/// The largest side (20×20), and so the most points.
pub const MAX_SIDE: usize = crate::rules::gomoku::MAX_SIZE as usize;
/// The most points a board has.
pub const POINTS: usize = MAX_SIDE * MAX_SIDE;

/// A window: where it lies and which way.
#[derive(Clone, Copy, Debug)]
pub struct Window {
    /// Its first point.
    pub first: u16,
    /// The index step to the next point (a row is `side` points).
    pub step: u8,
    /// Its direction: across, up, diagonal, antidiagonal.
    pub dir: u8,
}

/// The windows of one board and line length.
#[derive(Debug)]
pub struct Lines {
    pub side: usize,
    pub k: usize,
    pub windows: Vec<Window>,
    /// The windows through each point.
    pub through: Vec<Vec<u16>>,
    /// The windows each point lies just beyond, at either end.
    pub beside: Vec<Vec<u16>>,
    /// Each point's neighbours: the points within two in each direction of the square around
    /// it (Chebyshev distance 1 or 2), where moves are looked for.
    pub near: Vec<Vec<u16>>,
}

impl Lines {
    /// The points of window `w`.
    pub fn points(&self, w: usize) -> impl Iterator<Item = usize> + '_ {
        let Window { first, step, .. } = self.windows[w];
        (0..self.k).map(move |i| usize::from(first) + i * usize::from(step))
    }
}

/// The lines of a `side`×`side` board (8 to 20) with `k` in a row (3 to `side`).
///
/// # Panics
/// If `side` or `k` is out of range.
pub fn lines(side: usize, k: usize) -> &'static Lines {
    const N: usize = MAX_SIDE + 1;
    static TABLES: [[OnceLock<Lines>; N]; N] = [const { [const { OnceLock::new() }; N] }; N];
    assert!(
        side <= MAX_SIDE && (3..=side).contains(&k),
        "a board we play"
    );
    TABLES[side][k].get_or_init(|| build(side, k))
}

fn build(side: usize, k: usize) -> Lines {
    let n = side as i32;
    let on = |c: i32, r: i32| ((0..n).contains(&c) && (0..n).contains(&r)).then_some(r * n + c);
    let mut windows = Vec::new();
    let mut through = vec![Vec::new(); side * side];
    let mut beside = vec![Vec::new(); side * side];
    for (dir, (dc, dr)) in [(1i32, 0i32), (0, 1), (1, 1), (-1, 1)]
        .into_iter()
        .enumerate()
    {
        for row in 0..n {
            for col in 0..n {
                let last = k as i32 - 1;
                if on(col + last * dc, row + last * dr).is_none() {
                    continue;
                }
                let w = windows.len() as u16;
                let first = on(col, row).expect("on the board");
                let step = dr * n + dc;
                windows.push(Window {
                    first: first as u16,
                    step: step as u8,
                    dir: dir as u8,
                });
                for i in 0..k as i32 {
                    through[(first + i * step) as usize].push(w);
                }
                let ends = [
                    (col - dc, row - dr),
                    (col + k as i32 * dc, row + k as i32 * dr),
                ];
                for (c, r) in ends {
                    if let Some(p) = on(c, r) {
                        beside[p as usize].push(w);
                    }
                }
            }
        }
    }
    let near = (0..side * side)
        .map(|p| {
            let (r, c) = ((p / side) as i32, (p % side) as i32);
            (-2..=2)
                .flat_map(|dr| (-2..=2).map(move |dc| (dr, dc)))
                .filter(|&d| d != (0, 0))
                .filter_map(|(dr, dc)| on(c + dc, r + dr).map(|q| q as u16))
                .collect()
        })
        .collect();
    Lines {
        side,
        k,
        windows,
        through,
        beside,
        near,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fifteen_by_fifteen_with_five_has_572_windows_and_twenty_through_the_centre() {
        let lines = lines(15, 5);
        assert_eq!(lines.windows.len(), 572);
        assert_eq!(lines.through[7 * 15 + 7].len(), 20);
        assert_eq!(lines.through[0].len(), 3);
        assert_eq!(lines.near[0].len(), 8);
        assert_eq!(lines.near[7 * 15 + 7].len(), 24);
    }

    #[test]
    fn each_window_is_k_points_in_a_row_and_its_ends_lie_beside_it() {
        for (side, k) in [(8, 3), (9, 5), (15, 5), (15, 15)] {
            let lines = lines(side, k);
            for w in 0..lines.windows.len() {
                let points: Vec<usize> = lines.points(w).collect();
                for pair in points.windows(2) {
                    let (a, b) = (pair[0], pair[1]);
                    let (dr, dc) = (b / side - a / side, (b % side) as i32 - (a % side) as i32);
                    assert!(dr <= 1 && dc.abs() <= 1 && (dr, dc) != (0, 0));
                }
                let besides = (0..side * side)
                    .filter(|&p| lines.beside[p].contains(&(w as u16)))
                    .count();
                assert!(besides <= 2);
            }
        }
    }
}
