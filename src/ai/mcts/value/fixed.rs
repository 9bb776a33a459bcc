//! The arithmetic of the value's first layer and output: the first layer in fixed point
//! ([`Fixed`]), the sums both it and the policy's float layer add ([`Unit`], [`add_row`]; the
//! value's also take rows away, [`sub_row`]), and the rectified output in lanes
//! ([`rectified_dot`]).

use super::{FULL_BOARDS, INPUTS, PLAYABLE, THEIR_BOARDS, THEIR_MARKS};

/// The value's first layer in fixed point: each weight and bias of a unit × that unit's
/// scale, rounded to an `i16`. Sixteen-bit sums take half the memory and twice the lanes of
/// `f32` ones, and as integers they are exact, so the order of the additions cannot change a
/// value.
///
/// A unit's scale is the largest power of two (at most [`MAX_SCALE`]) for which the sum of its
/// bias and the rows of any position's inputs, each rounded, stays within the `i16`s
/// ([`Fixed::scale_for`]): no value overflows, and a unit of small weights keeps more of their
/// digits. The output's weights are divided by the scales, so the scales cost nothing
/// when a value is worked out. A test bounds the difference from the float network's values.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Fixed {
    /// Each unit's scale.
    pub(super) scales: Vec<f32>,
    /// `w1[input * hidden + unit]`, × the unit's scale.
    pub(super) w1: Vec<i16>,
    /// × the unit's scale.
    pub(super) b1: Vec<i16>,
    /// The output's weights ÷ their unit's scale, so that they weigh the fixed-point sums as
    /// the float weights weigh the float sums.
    pub(super) w2: Vec<f32>,
}

/// The largest scale of a unit of [`Fixed`].
const MAX_SCALE: f32 = 4096.0;

impl Fixed {
    /// The first layer `w1`, `b1` of `hidden` units, and the output's weights `w2`, in
    /// fixed point.
    pub(super) fn new(hidden: usize, w1: &[f32], b1: &[f32], w2: &[f32]) -> Fixed {
        let scales: Vec<f32> = (0..hidden)
            .map(|u| Fixed::scale_for(b1[u], |i| w1[i * hidden + u]))
            .collect();
        // Through `i32`, so that a weight beyond the `i16`s wraps (its sums come out exact, as
        // they are in range) instead of saturating. A weight may be beyond them: the bound
        // holds sums of rows with the bias, not each row alone.
        let to_fixed = |x: f32, u: usize| (x * scales[u]).round() as i32 as i16;
        Fixed {
            w1: w1
                .iter()
                .enumerate()
                .map(|(i, &w)| to_fixed(w, i % hidden))
                .collect(),
            b1: b1
                .iter()
                .enumerate()
                .map(|(u, &b)| to_fixed(b, u))
                .collect(),
            w2: w2.iter().zip(&scales).map(|(w, s)| w / s).collect(),
            scales,
        }
    }

    /// The largest power of two up to [`MAX_SCALE`] by which the sum of a unit's `bias` and
    /// the rows of the inputs of any position stays within the `i16`s, each rounded by up to
    /// half a step. Of the inputs that cannot be set together (my mark and theirs on a cell;
    /// a board won by me, by them or full), such a sum holds at most one, so it lies between
    /// the bias plus the most negative row of each such group and of each other input, and
    /// the bias plus the most positive ones. (Wrapping additions give the exact sum at the end
    /// whenever it is in range, whatever the sums on the way.)
    fn scale_for(bias: f32, row: impl Fn(usize) -> f32) -> f32 {
        let cells = (0..81).map(|c| vec![c, THEIR_MARKS + c]);
        let boards = (0..9).map(|b| vec![162 + b, THEIR_BOARDS + b, FULL_BOARDS + b]);
        let others = (PLAYABLE..INPUTS).map(|i| vec![i]);
        let (mut up, mut down) = (bias, bias);
        for group in cells.chain(boards).chain(others) {
            up += group.iter().map(|&i| row(i)).fold(0.0, f32::max);
            down += group.iter().map(|&i| row(i)).fold(0.0, f32::min);
        }
        let bound = up.abs().max(down.abs());
        let rounding = (INPUTS + 1) as f32 * 0.5;
        let mut scale = MAX_SCALE;
        while scale * bound + rounding > f32::from(i16::MAX) && scale > f32::MIN_POSITIVE {
            scale /= 2.0;
        }
        scale
    }
}

/// A first-layer sum: `f32` in the policy, fixed point ([`Fixed`]) in the value.
pub(super) trait Unit: Copy {
    fn plus(self, other: Self) -> Self;
    /// `max(0, self)` as a float (in the sum's own units).
    fn rectified(self) -> f32;
}

impl Unit for f32 {
    #[inline]
    fn plus(self, other: f32) -> f32 {
        self + other
    }
    #[inline]
    fn rectified(self) -> f32 {
        self.max(0.0)
    }
}

/// Wrapping, though [`Fixed::scale_for`] keeps every sum in range: a wrapping add is what the
/// processor does, and it vectorizes.
impl Unit for i16 {
    #[inline]
    fn plus(self, other: i16) -> i16 {
        self.wrapping_add(other)
    }
    #[inline]
    fn rectified(self) -> f32 {
        f32::from(self.max(0))
    }
}

/// Adds row `input` of the first-layer weights `w1` (`N` to a row) to `sums`.
#[inline]
pub(super) fn add_row<T: Unit, const N: usize>(w1: &[T], sums: &mut [T; N], input: usize) {
    let row = &w1[input * N..][..N];
    for (h, w) in sums.iter_mut().zip(row) {
        *h = h.plus(*w);
    }
}

/// Takes row `input` of the fixed-point first-layer weights `w1` (`N` to a row) from `sums`.
#[inline]
pub(super) fn sub_row<const N: usize>(w1: &[i16], sums: &mut [i16; N], input: usize) {
    let row = &w1[input * N..][..N];
    for (h, w) in sums.iter_mut().zip(row) {
        *h = h.wrapping_sub(*w);
    }
}

/// Lanes of [`rectified_dot`]: four 128-bit registers of partial sums, independent of each
/// other, so that the additions need not wait on one another.
const LANES: usize = 16;

/// The sum of `w[i] × max(0, h[i])`: the rectified first layer `h` weighed by `w`. Lane `j`
/// adds the units `j`, `j + LANES`, …, and the lanes are added last, so the compiler may use
/// vector instructions (one running sum would make each addition wait on the last). `N` must
/// be a multiple of `LANES`, as every width is: a build that makes another fails.
#[inline]
pub(super) fn rectified_dot<T: Unit, const N: usize>(h: &[T; N], w: &[f32; N]) -> f32 {
    const { assert!(N.is_multiple_of(LANES)) };
    let mut lanes = [0.0f32; LANES];
    let (hs, _) = h.as_chunks::<LANES>();
    let (ws, _) = w.as_chunks::<LANES>();
    for (h, w) in hs.iter().zip(ws) {
        for ((lane, h), w) in lanes.iter_mut().zip(h).zip(w) {
            *lane += h.rectified() * w;
        }
    }
    lanes.iter().sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Fixed::scale_for`], a whole number in every case here.
    fn scale(bias: f32, row: impl Fn(usize) -> f32) -> u32 {
        Fixed::scale_for(bias, row) as u32
    }

    #[test]
    fn a_scale_counts_one_input_of_each_group_that_cannot_be_set_together() {
        // Every row 1: a position sets at most 81 marks, 9 board states, 9 playable boards
        // and 18 threats, 117 in all, and 117 × 256 (with the rounding) fits where × 512 not.
        assert_eq!(scale(0.0, |_| 1.0), 256);
        // My mark and theirs on one cell, 100 each: one of them at most.
        let cell = |i| {
            if i == 40 || i == THEIR_MARKS + 40 {
                100.0
            } else {
                0.0
            }
        };
        assert_eq!(scale(0.0, cell), 256);
        // A board won by me, by them or full, 100 each: one of them at most.
        let board = |i| {
            if [162 + 4, THEIR_BOARDS + 4, FULL_BOARDS + 4].contains(&i) {
                100.0
            } else {
                0.0
            }
        };
        assert_eq!(scale(0.0, board), 256);
        // Two playable boards may be set together: 200.
        let playable = |i| {
            if i == PLAYABLE || i == PLAYABLE + 1 {
                100.0
            } else {
                0.0
            }
        };
        assert_eq!(scale(0.0, playable), 128);
        // Negative rows bound the sums from below, with the bias: −100.
        let negative = |i| if i == 0 { -90.0 } else { 0.0 };
        assert_eq!(scale(-10.0, negative), 256);
        // No weights: the largest scale.
        assert_eq!(scale(0.0, |_| 0.0), MAX_SCALE as u32);
    }

    #[test]
    fn a_weight_beyond_the_sixteen_bit_range_wraps_and_its_sums_come_out_exact() {
        // The bias −10 and one row 19: every sum is between −10 and 9, so the scale is 2048,
        // and the row, 38,912 steps, is beyond the i16s on its own.
        let hidden = 64;
        let mut w1 = vec![0.0; INPUTS * hidden];
        let mut b1 = vec![0.0; hidden];
        (w1[0], b1[0]) = (19.0, -10.0);
        let fixed = Fixed::new(hidden, &w1, &b1, &vec![1.0; hidden]);
        assert_eq!(fixed.scales[0] as u32, 2048);
        assert_eq!(fixed.b1[0].plus(fixed.w1[0]), 9 * 2048);
    }
}
