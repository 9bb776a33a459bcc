//! Renju, the rule of the world championships: black (X, who moves first) may not make an
//! overline (six or more in a row), a double four or a double three, unless the same move makes
//! exactly five, which wins. White may do all of these, and wins with five or more.
//!
//! The definitions, for a black stone just placed at `p`:
//! - a **five** is exactly five black stones in a row;
//! - a **four** is four black stones in a line, with `p` among them, that one more black stone
//!   makes a five; four stones that two points make a five (`.XXXX.`, a *straight four*) are
//!   one four, and two groups of four on one line (`XXX.X.XXX`) are two;
//! - a **three** is three black stones in a line, with `p` among them, that one more black stone
//!   makes a straight four, where that stone would not itself be forbidden: whether a three is
//!   real is decided recursively.

use crate::rules::classic::Mark;

/// Why black may not play a point.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Foul {
    Overline,
    DoubleFour,
    DoubleThree,
}

impl Foul {
    /// `a double three`, for messages.
    pub fn words(self) -> &'static str {
        match self {
            Foul::Overline => "an overline",
            Foul::DoubleFour => "a double four",
            Foul::DoubleThree => "a double three",
        }
    }
}

/// The four directions of a line, as (column, row) steps.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// The stones as the rule reads them: the board's side and each point's stone (point
/// `row * side + col`), with black's stones added while a three is tried.
#[derive(Clone, Copy, Debug)]
pub struct Stones {
    side: u8,
    /// Black's stones and white's, bit `index % 64` of word `index / 64`.
    bits: [[u64; super::WORDS]; 2],
}

impl Stones {
    /// The stones `stone` says are on a board of side `side` (at most 16).
    pub fn new(side: u8, stone: impl Fn(usize) -> Option<Mark>) -> Stones {
        let mut stones = Stones {
            side,
            bits: [[0; super::WORDS]; 2],
        };
        let n = usize::from(side);
        for index in 0..n * n {
            match stone(index) {
                Some(Mark::X) => stones.put(index, 0),
                Some(Mark::O) => stones.put(index, 1),
                None => {}
            }
        }
        stones
    }

    fn put(&mut self, index: usize, who: usize) {
        self.bits[who][index / 64] |= 1 << (index % 64);
    }

    fn at(&self, index: usize) -> Option<usize> {
        (0..2).find(|&who| self.bits[who][index / 64] >> (index % 64) & 1 == 1)
    }

    /// The point `steps` along direction `d` from `index`, if on the board.
    fn along(&self, index: usize, (dc, dr): (i32, i32), steps: i32) -> Option<usize> {
        let n = i32::from(self.side);
        let (col, row) = (index as i32 % n, index as i32 / n);
        let (c, r) = (col + dc * steps, row + dr * steps);
        ((0..n).contains(&c) && (0..n).contains(&r)).then(|| (r * n + c) as usize)
    }

    /// The black stones in a row through `index` (black there) in direction `d`: how many
    /// behind it and how many ahead.
    fn reach(&self, index: usize, d: (i32, i32)) -> (i32, i32) {
        let stone = |step: i32| {
            self.along(index, d, step)
                .is_some_and(|q| self.at(q) == Some(0))
        };
        let side = i32::from(self.side);
        let back = (1..side).take_while(|&s| stone(-s)).count() as i32;
        let ahead = (1..side).take_while(|&s| stone(s)).count() as i32;
        (back, ahead)
    }

    /// Black stones in a row through `index` (black there) in direction `d`.
    fn run(&self, index: usize, d: (i32, i32)) -> i32 {
        let (back, ahead) = self.reach(index, d);
        1 + back + ahead
    }

    /// Whether black on the empty point `index` makes exactly five in direction `d` with `p`
    /// among them.
    fn five_with(&self, index: usize, d: (i32, i32), p: usize) -> bool {
        let mut with = *self;
        with.put(index, 0);
        let (back, ahead) = with.reach(index, d);
        1 + back + ahead == 5 && (-back..=ahead).any(|s| with.along(index, d, s) == Some(p))
    }

    /// The empty points on the line through `p` in direction `d` where black would make a
    /// five with `p` in it, as steps from `p`.
    fn completions(&self, p: usize, d: (i32, i32)) -> Vec<i32> {
        (-4..=4)
            .filter(|&s| {
                self.along(p, d, s)
                    .is_some_and(|q| self.at(q).is_none() && self.five_with(q, d, p))
            })
            .collect()
    }

    /// The fours through `p` in direction `d`: none, one (a four, or a straight four), or two
    /// on one line.
    fn fours(&self, p: usize, d: (i32, i32)) -> usize {
        match self.completions(p, d).as_slice() {
            [] => 0,
            [a, b] if (b - a).abs() == 5 => 1,
            points => points.len(),
        }
    }

    /// Whether black's stone on `p` makes a three in direction `d`: a stone on one more point
    /// of the line makes a straight four with `p`, and that point is not itself forbidden.
    fn three(&self, p: usize, d: (i32, i32)) -> bool {
        (-4..=4).any(|step| {
            let Some(q) = self.along(p, d, step).filter(|&q| self.at(q).is_none()) else {
                return false;
            };
            let mut with = *self;
            with.put(q, 0);
            // A straight four with `q` among its stones, which lie between its two ends.
            let straight = match with.completions(p, d).as_slice() {
                &[first, last] => last - first == 5 && first < step && step < last,
                _ => false,
            };
            straight && self.foul(q).is_none()
        })
    }

    /// Why black may not play the empty point `p`, if it may not.
    pub fn foul(&self, p: usize) -> Option<Foul> {
        let mut with = *self;
        with.put(p, 0);
        let runs = DIRECTIONS.map(|d| with.run(p, d));
        if runs.contains(&5) {
            return None;
        }
        if runs.iter().any(|&len| len > 5) {
            return Some(Foul::Overline);
        }
        if DIRECTIONS.iter().map(|&d| with.fours(p, d)).sum::<usize>() >= 2 {
            return Some(Foul::DoubleFour);
        }
        let threes = DIRECTIONS.iter().filter(|&&d| with.three(p, d)).count();
        (threes >= 2).then_some(Foul::DoubleThree)
    }
}
