//! Scores inside the search and the [`Value`]s the API reports.
//!
//! # Scores
//! Inside the search a score is from the side to move's point of view and *absolute in
//! time*: a game that the side to move wins when the board holds `m` marks scores
//! `WIN - m`, a game it loses scores `-(WIN - m)`, a draw `0`. Because the number of marks
//! on a board is fixed by the position, the same position always has the same score whatever
//! path reached it, so the transposition table needs no adjustment, and plain negation moves
//! a score between the two sides. The bounds `±INF` are mirrored, so negating never
//! overflows. A quicker win scores higher than a slower one and a slower loss higher than a
//! quicker one. Heuristic estimates stay strictly within `±EST_MAX`, far from any decided
//! score, so a decided score is always a proof. At the API a score becomes a [`Value`]
//! counted in plies from the position.
//!
//! # Bounds
//! A strategy that never loses (a mirror, see `mirror.rs`; a pairing, see `pairing.rs`; a
//! move the search to the end proved) can prove a position at least a draw while the search
//! cannot finish:
//! [`Value::AtLeastDraw`], and for the other side [`Value::AtMostDraw`]. Each keeps the
//! search's estimate on its own side of zero, to order bounds among themselves. A proven
//! bound ranks above every estimate on its side (a move proven not to lose is preferred to any
//! unproven one) and between the exact values it bounds: wins > at least a draw > estimates
//! and draws > at most a draw > losses. Negation between plies swaps the two.

use std::cmp::Ordering;
use std::fmt;

/// The score of winning on an empty board; a decided game scores ±(`WIN` − the marks on the
/// board when it ends), so at most 64 from ±`WIN` (a 64-cell board filled).
pub(super) const WIN: i32 = 1000;
/// Above any score; `-INF` is below any.
pub(super) const INF: i32 = WIN + 1;
/// Scores beyond ±`DECIDED` are wins and losses: every one, the 64th mark's included.
pub(super) const DECIDED: i32 = WIN - 65;
/// Heuristic estimates lie strictly within ±`EST_MAX`.
pub(super) const EST_MAX: i32 = 500;

/// The value of a position or a move for the side that is to play it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Wins; the game ends that many plies from now (a move that completes a line: `Win(1)`).
    /// From a search cut short by its budget, a win may be proven by a forcing line that is
    /// not the quickest, and then the game ends within that many plies.
    Win(u32),
    Draw,
    /// Loses; the game ends that many plies from now. From a search cut short by its budget,
    /// as with a win, the game may end sooner than that.
    Loss(u32),
    /// Not proven: a heuristic estimate from a search cut off by its time budget. Positive
    /// favours the side to move; always below any win and above any loss.
    Estimate(i32),
    /// Proven not to lose (a draw or a win), the exact value unknown; the search's estimate,
    /// zero or above, orders such values among themselves.
    AtLeastDraw(i32),
    /// Proven not to win (a draw or a loss), the exact value unknown; the search's estimate is
    /// zero or below.
    AtMostDraw(i32),
    /// Not proven: the side to move's estimated share of the points (a draw counts half), in
    /// thousandths from 1 to 999, from games sampled by a Monte Carlo search. Below any win and
    /// above any loss; ordered against a heuristic score as if 500 were a score of 0.
    WinRate(u16),
}

impl Value {
    /// Where the value ranks for the side to move, higher being better: a tier (loss, at most
    /// a draw, estimates and draws, at least a draw, win), then a score within it.
    fn rank(self) -> (i8, i32) {
        match self {
            Value::Win(n) => (2, -(n as i32)),
            Value::AtLeastDraw(e) => (1, e),
            Value::Draw => (0, 0),
            Value::Estimate(e) => (0, e),
            Value::WinRate(r) => (0, i32::from(r) - 500),
            Value::AtMostDraw(e) => (-1, e),
            Value::Loss(n) => (-2, n as i32),
        }
    }

    /// The bound `lower` (at least a draw) or upper (at most a draw) on a position the search
    /// estimated `estimate`: the estimate is kept on the bound's side of zero.
    pub(super) fn bound(lower: bool, estimate: i32) -> Value {
        if lower {
            Value::AtLeastDraw(estimate.max(0))
        } else {
            Value::AtMostDraw(estimate.min(0))
        }
    }

    /// The proven range of the value, from the side to move's point of view, as scores
    /// relative to now (a win in `n` is `WIN - n`, a draw 0, a loss in `n` is `n - WIN`);
    /// `None` for an estimate. An exact value is a range of one.
    pub fn proven_range(self) -> Option<(i32, i32)> {
        let exact = |s| Some((s, s));
        match self {
            Value::Win(n) => exact(WIN - n as i32),
            Value::Draw => exact(0),
            Value::Loss(n) => exact(n as i32 - WIN),
            Value::AtLeastDraw(_) => Some((0, WIN)),
            Value::AtMostDraw(_) => Some((-WIN, 0)),
            Value::Estimate(_) | Value::WinRate(_) => None,
        }
    }

    /// Whether the side to move can hope for no more than a draw: proven so, or an estimate
    /// of even or worse. What an AI offered a draw accepts it on.
    pub fn at_most_even(self) -> bool {
        match self {
            Value::Draw | Value::Loss(_) | Value::AtMostDraw(_) => true,
            Value::Win(_) | Value::AtLeastDraw(_) => false,
            Value::Estimate(score) => score <= 0,
            Value::WinRate(rate) => rate <= 500,
        }
    }

    /// The win rate `rate` (0 to 1) as a [`Value::WinRate`], kept strictly between a loss
    /// and a win.
    pub fn win_rate(rate: f32) -> Value {
        Value::WinRate((rate * 1000.0).round().clamp(1.0, 999.0) as u16)
    }

    /// The side to move's expected share of the points: 1 for a win, ½ for a draw, 0 for a
    /// loss, the rate of a [`Value::WinRate`]; `None` for a heuristic score, which is no rate.
    pub fn rate(self) -> Option<f32> {
        match self {
            Value::Win(_) => Some(1.0),
            Value::Draw => Some(0.5),
            Value::Loss(_) => Some(0.0),
            Value::WinRate(r) => Some(f32::from(r) / 1000.0),
            Value::Estimate(_) | Value::AtLeastDraw(_) | Value::AtMostDraw(_) => None,
        }
    }

    /// The value of an absolute score at a position holding `marks` marks.
    pub(super) fn from_score(score: i32, marks: u32, proven: bool) -> Value {
        let m = marks as i32;
        if score > DECIDED {
            Value::Win((WIN - score - m) as u32)
        } else if score < -DECIDED {
            Value::Loss((WIN + score - m) as u32)
        } else if proven && score == 0 {
            Value::Draw
        } else {
            Value::Estimate(score)
        }
    }

    /// The absolute score of this value at a position holding `marks` marks: the inverse of
    /// [`Value::from_score`] (an estimate is its own score, and so is a bound's).
    pub(super) fn score(self, marks: u32) -> i32 {
        let m = marks as i32;
        match self {
            Value::Win(n) => WIN - (m + n as i32),
            Value::Loss(n) => -(WIN - (m + n as i32)),
            Value::Draw => 0,
            Value::Estimate(e) | Value::AtLeastDraw(e) | Value::AtMostDraw(e) => e,
            Value::WinRate(r) => i32::from(r) - 500,
        }
    }

    /// The value of the position before a move, given this value of the position after it
    /// (for the other side).
    pub fn before(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
            Value::Estimate(e) => Value::Estimate(-e),
            Value::WinRate(r) => Value::WinRate(1000 - r),
            Value::AtLeastDraw(e) => Value::AtMostDraw(-e),
            Value::AtMostDraw(e) => Value::AtLeastDraw(-e),
        }
    }

    /// Whether the value is exact and proven by search to the end of the game: a win, a draw
    /// or a loss (a proven bound is not: see [`Value::is_bound`]).
    pub fn is_proven(self) -> bool {
        matches!(self, Value::Win(_) | Value::Draw | Value::Loss(_))
    }

    /// Whether the value is a proven bound: at least a draw, or at most a draw.
    pub fn is_bound(self) -> bool {
        matches!(self, Value::AtLeastDraw(_) | Value::AtMostDraw(_))
    }
}

impl Ord for Value {
    /// Better for the side to move is greater: quick wins, then slow wins, proven at least a
    /// draw, estimates and draws, proven at most a draw, slow losses, quick losses.
    fn cmp(&self, other: &Self) -> Ordering {
        self.rank().cmp(&other.rank())
    }
}

impl PartialOrd for Value {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(n) => write!(f, "win in {n}"),
            Value::Draw => write!(f, "draw"),
            Value::Loss(n) => write!(f, "loss in {n}"),
            Value::Estimate(e) => write!(f, "estimate {e:+}"),
            Value::WinRate(r) => write!(f, "{:.0}%", f32::from(*r) / 10.0),
            Value::AtLeastDraw(_) => write!(f, "at least a draw"),
            Value::AtMostDraw(_) => write!(f, "at most a draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_won_or_lost_with_the_64th_mark_is_decided_not_an_estimate() {
        // Won by the last mark of a 64-cell board, one ply from a position of 63 marks.
        assert_eq!(Value::from_score(WIN - 64, 63, false), Value::Win(1));
        assert_eq!(Value::from_score(-(WIN - 64), 62, false), Value::Loss(2));
    }

    #[test]
    fn values_order_from_quick_win_to_quick_loss() {
        let order = [
            Value::Win(1),
            Value::Win(3),
            Value::Estimate(7),
            Value::Draw,
            Value::Estimate(-7),
            Value::Loss(4),
            Value::Loss(2),
        ];
        for pair in order.windows(2) {
            assert!(pair[0] > pair[1], "{} > {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn proven_bounds_rank_between_the_values_they_bound_and_beyond_every_estimate() {
        let order = [
            Value::Win(7),
            Value::AtLeastDraw(40),
            Value::AtLeastDraw(0),
            Value::Estimate(EST_MAX - 1),
            Value::WinRate(900),
            Value::Draw,
            Value::WinRate(100),
            Value::Estimate(1 - EST_MAX),
            Value::AtMostDraw(0),
            Value::AtMostDraw(-40),
            Value::Loss(60),
        ];
        for pair in order.windows(2) {
            assert!(pair[0] > pair[1], "{} > {}", pair[0], pair[1]);
        }
    }

    #[test]
    fn a_bound_for_one_side_is_the_opposite_bound_for_the_other() {
        assert_eq!(Value::AtLeastDraw(3).before(), Value::AtMostDraw(-3));
        assert_eq!(Value::AtMostDraw(-3).before(), Value::AtLeastDraw(3));
        assert_eq!(Value::bound(true, -12), Value::AtLeastDraw(0));
        assert_eq!(Value::bound(false, 12), Value::AtMostDraw(0));
        for v in [Value::AtLeastDraw(5), Value::AtMostDraw(-5)] {
            assert!(v.is_bound() && !v.is_proven(), "{v}");
            assert_eq!(v.before().before(), v);
            assert_eq!(v.rate(), None);
        }
        assert_eq!(Value::AtLeastDraw(2).to_string(), "at least a draw");
        assert_eq!(Value::AtMostDraw(0).to_string(), "at most a draw");
    }

    #[test]
    fn a_bound_covers_the_exact_values_it_allows() {
        let (low, high) = Value::AtLeastDraw(0).proven_range().unwrap();
        for v in [Value::Draw, Value::Win(1), Value::Win(40)] {
            let (l, h) = v.proven_range().unwrap();
            assert!(low <= l && h <= high, "{v}");
        }
        let (low, high) = Value::AtMostDraw(0).proven_range().unwrap();
        for v in [Value::Draw, Value::Loss(1), Value::Loss(40)] {
            let (l, h) = v.proven_range().unwrap();
            assert!(low <= l && h <= high, "{v}");
        }
        assert_eq!(Value::Estimate(0).proven_range(), None);
    }

    #[test]
    fn scores_and_values_round_trip() {
        for marks in [0, 5, 48] {
            for v in [Value::Win(1), Value::Win(9), Value::Draw, Value::Loss(2)] {
                assert_eq!(Value::from_score(v.score(marks), marks, true), v);
            }
            assert_eq!(Value::from_score(12, marks, false), Value::Estimate(12));
        }
    }
}
