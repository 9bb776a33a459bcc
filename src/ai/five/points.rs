//! Sets of points, the points near the stones where moves are looked for, and the random
//! keys positions are known by.

use crate::rules::gomoku::WORDS;

/// The largest side (20×20), and so the most points.
pub const MAX_SIDE: usize = crate::rules::gomoku::MAX_SIZE as usize;
/// The most points a board has.
pub const POINTS: usize = MAX_SIDE * MAX_SIDE;

/// A set of points, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Bits([u64; WORDS]);

impl Bits {
    pub fn set(&mut self, p: usize) {
        self.0[p / 64] |= 1 << (p % 64);
    }
    pub fn clear(&mut self, p: usize) {
        self.0[p / 64] &= !(1 << (p % 64));
    }
    pub fn has(&self, p: usize) -> bool {
        self.0[p / 64] >> (p % 64) & 1 == 1
    }
    pub fn and(self, other: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }
    pub fn or(self, other: Bits) -> Bits {
        Bits(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }
    pub fn is_empty(&self) -> bool {
        self.0 == [0; WORDS]
    }
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    /// The first point of the set.
    pub fn first(&self) -> Option<usize> {
        self.iter().next()
    }
    /// The points, in index order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        (0..WORDS).flat_map(move |i| {
            let mut word = self.0[i];
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let bit = word.trailing_zeros() as usize;
                    word &= word - 1;
                    i * 64 + bit
                })
            })
        })
    }
}

/// How many stones lie within two of each point, and the empty points that have any: where
/// moves are looked for. Kept up to date as stones come and go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Near {
    count: [u8; POINTS],
    candidates: Bits,
}

impl Default for Near {
    fn default() -> Near {
        Near {
            count: [0; POINTS],
            candidates: Bits::default(),
        }
    }
}

impl Near {
    /// The empty points with a stone within two.
    pub fn candidates(&self) -> Bits {
        self.candidates
    }

    /// A stone put on `p`, whose points within two are `around`; `empty` says which points
    /// are empty now.
    pub fn put(&mut self, p: usize, around: &[u16], empty: &Bits) {
        self.candidates.clear(p);
        for &q in around {
            let q = usize::from(q);
            self.count[q] += 1;
            if empty.has(q) {
                self.candidates.set(q);
            }
        }
    }

    /// The stone on `p` taken off again.
    pub fn take(&mut self, p: usize, around: &[u16]) {
        for &q in around {
            let q = usize::from(q);
            self.count[q] -= 1;
            if self.count[q] == 0 {
                self.candidates.clear(q);
            }
        }
        if self.count[p] > 0 {
            self.candidates.set(p);
        }
    }
}

/// Zobrist keys: a random number per side and point.
pub fn zobrist() -> &'static [[u64; POINTS]; 2] {
    static KEYS: std::sync::OnceLock<[[u64; POINTS]; 2]> = std::sync::OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = fastrand::Rng::with_seed(0x5eed_f1fe);
        std::array::from_fn(|_| std::array::from_fn(|_| rng.u64(..)))
    })
}
