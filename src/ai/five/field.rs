//! A five-in-a-row position as the search works on it, kept up to date as stones come and
//! go rather than recounted: each window's stones of each side, and from them, for every
//! point, side and direction, how many windows still open to that side lack one, two, three
//! or four stones. A point's *shape* for a side (five, open four, four, open three…) is read
//! from those counts in each direction, and a move's score from a table of shapes; the
//! position's estimate is a sum over windows kept the same way. Where each side makes five
//! at once, and where it makes a four, are sets of points kept beside them.
//!
//! The words are Gomoku's for any line length `k`: a *four* is a window one stone short,
//! its empty point a *five point*; a point makes an *open four* in a direction where two
//! windows there would become fours (two five points: one block cannot stop both), a *four*
//! where one would, an *open three* where two windows lack two stones, and so on.

use super::lines::{Lines, POINTS, lines};
use crate::rules::classic::Mark;
use crate::rules::gomoku::renju::Stones;
use crate::rules::gomoku::{Gomoku, WORDS};

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

/// A point's shape in one direction for one side, from nothing (0) to five (7).
pub mod shape {
    pub const TWO_CLOSED: u8 = 1;
    pub const TWO: u8 = 2;
    pub const THREE_CLOSED: u8 = 3;
    pub const THREE: u8 = 4;
    pub const FOUR: u8 = 5;
    pub const OPEN_FOUR: u8 = 6;
    pub const FIVE: u8 = 7;
}

/// What a window holding `c` stones of a side, open to it, adds to that side's estimate, by
/// how many stones it lacks (1 to 4; 0 stones add nothing, more than four short, 1).
const WINDOW_VALUE: [i32; 5] = [0, 360, 48, 9, 2];

/// What a move is worth for ordering, by what it makes in its best directions.
pub mod worth {
    /// Five: the game.
    pub const FIVE: i32 = 1 << 20;
    /// An open four, two fours, or a four and an open three: a win unless answered by fours.
    pub const WINNING: i32 = 1 << 16;
    /// Two open threes.
    pub const DOUBLE_THREE: i32 = 1 << 13;
}

/// Points for each direction's shape, summed with the combinations above.
const SHAPE_POINTS: [i32; 8] = [0, 4, 24, 60, 400, 600, 1 << 16, 1 << 20];

/// A position of five in a row, for the search.
#[derive(Clone)]
pub struct Field {
    lines: &'static Lines,
    k: usize,
    /// Each side's rule: only exactly `k` makes a line (with the exact rule for both, under
    /// renju for black).
    exact: [bool; 2],
    /// Renju: black may not play its forbidden points.
    renju: bool,
    /// Caro: a window whose both outer points hold the other side's stones makes no line.
    caro: bool,
    /// 0 empty, 1 + side for a stone.
    stone: [u8; POINTS],
    /// Each window's stones of each side.
    count: Vec<[u8; 2]>,
    /// With the exact rule or caro's: each window's stones of each side just beyond its ends
    /// (with the exact rule a side with one there cannot make exactly `k` in it; under caro a
    /// side cannot make a line in a window with two of the other's there).
    dead: Vec<[u8; 2]>,
    /// `level[side][point][dir]`: windows open to the side, through the point in that
    /// direction, lacking 1, 2, 3 and 4 stones.
    level: [Vec<[[u8; 4]; 4]>; 2],
    /// Windows through each point lacking one stone (making five there) and two.
    one_short: [Vec<u8>; 2],
    two_short: [Vec<u8>; 2],
    /// The points where each side makes five, and a four (whether empty or not).
    fives: [Bits; 2],
    fours: [Bits; 2],
    empty: Bits,
    near: Near,
    /// Each side's sum of its open windows' values.
    total: [i32; 2],
    hash: u64,
    /// The moves played on this field, to take back.
    played: Vec<u16>,
    /// Whose turn it is: 0 or 1.
    to_move: usize,
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

impl Field {
    /// The field of a Gomoku position.
    pub fn new(board: &Gomoku) -> Field {
        let (side, k) = (usize::from(board.size()), usize::from(board.k()));
        let lines = lines(side, k);
        let windows = lines.windows.len();
        let mut empty = Bits::default();
        (0..side * side).for_each(|p| empty.set(p));
        let mut field = Field {
            lines,
            k,
            exact: [board.is_exact() || board.is_renju(), board.is_exact()],
            renju: board.is_renju(),
            caro: board.is_caro(),
            stone: [0; POINTS],
            count: vec![[0; 2]; windows],
            dead: vec![[0; 2]; windows],
            level: [
                vec![[[0; 4]; 4]; side * side],
                vec![[[0; 4]; 4]; side * side],
            ],
            one_short: [vec![0; side * side], vec![0; side * side]],
            two_short: [vec![0; side * side], vec![0; side * side]],
            fives: [Bits::default(); 2],
            fours: [Bits::default(); 2],
            empty,
            near: Near::default(),
            total: [0; 2],
            hash: 0,
            played: Vec::new(),
            to_move: 0,
        };
        for w in 0..windows {
            for s in 0..2 {
                field.add(w, s, field.status(w, s), 1);
            }
        }
        // Stones go down in turn, X's first, so whose turn it is follows.
        let marks: Vec<(usize, usize)> = board
            .cells()
            .filter_map(|c| {
                board
                    .mark_at(c)
                    .map(|m| (c.index(), crate::ai::threats::side(m)))
            })
            .collect();
        for (p, s) in marks {
            field.put(p, s);
        }
        field.played.clear();
        field.to_move = usize::from(board.to_move() == crate::rules::classic::Mark::O);
        field
    }

    pub fn side(&self) -> usize {
        self.lines.side
    }
    pub fn to_move(&self) -> usize {
        self.to_move
    }
    pub fn hash(&self) -> u64 {
        self.hash ^ (self.to_move as u64)
    }
    pub fn is_empty(&self, p: usize) -> bool {
        self.stone[p] == 0
    }
    pub fn is_full(&self) -> bool {
        self.empty.is_empty()
    }
    /// The empty points within two of a stone.
    pub fn candidates(&self) -> Bits {
        self.near.candidates()
    }
    /// The empty points where `side` makes five.
    pub fn fives(&self, side: usize) -> Bits {
        self.fives[side].and(self.empty)
    }
    /// The empty points where `side` makes a four: each lies in a window that lacks two of
    /// its stones. A point that makes five is here only where such a window passes through it
    /// too: on a line with exactly `k` points open to `side` (`O X X X . X O`), its five point
    /// is in [`Field::fives`] alone.
    pub fn fours(&self, side: usize) -> Bits {
        self.fours[side].and(self.empty)
    }

    /// The side to move puts a stone on the empty point `p`.
    pub fn play(&mut self, p: usize) {
        self.put(p, self.to_move);
        self.played.push(p as u16);
        self.to_move ^= 1;
    }

    /// Takes back the last move played.
    ///
    /// # Panics
    /// If no move was played.
    pub fn undo(&mut self) {
        let p = usize::from(self.played.pop().expect("a move to take back"));
        self.to_move ^= 1;
        self.take(p, self.to_move);
    }

    /// A window's state for `side`: the stones it holds if it is still open to it (none of
    /// the other's, and with the exact rule none of its own beyond the ends), or `None`.
    fn status(&self, w: usize, side: usize) -> Option<u8> {
        let [mine, theirs] = [self.count[w][side], self.count[w][1 - side]];
        let open = theirs == 0
            && (!self.exact[side] || self.dead[w][side] == 0)
            && !(self.caro && self.dead[w][1 - side] == 2);
        (open && usize::from(mine) < self.k).then_some(mine)
    }

    /// Adds (`by` 1) or takes away (`by` -1) what window `w` in state `status` gives `side`.
    fn add(&mut self, w: usize, side: usize, status: Option<u8>, by: i8) {
        let Some(stones) = status else { return };
        let lacking = self.k - usize::from(stones);
        if stones > 0 {
            let value = WINDOW_VALUE[lacking.min(WINDOW_VALUE.len() - 1)].max(1);
            self.total[side] += i32::from(by) * value;
        }
        if lacking > 4 {
            return;
        }
        let window = self.lines.windows[w];
        let dir = usize::from(window.dir);
        for q in self.lines.points(w) {
            let cell = &mut self.level[side][q][dir][lacking - 1];
            *cell = cell.wrapping_add_signed(by);
            let (counter, set) = match lacking {
                1 => (&mut self.one_short[side][q], &mut self.fives[side]),
                2 => (&mut self.two_short[side][q], &mut self.fours[side]),
                _ => continue,
            };
            *counter = counter.wrapping_add_signed(by);
            if *counter == 0 {
                set.clear(q);
            } else {
                set.set(q);
            }
        }
    }

    /// Changes window `w` by `change` (its counts) and keeps what follows from it.
    fn change(&mut self, w: usize, change: impl FnOnce(&mut Field)) {
        let before = [self.status(w, 0), self.status(w, 1)];
        change(self);
        for (s, &old) in before.iter().enumerate() {
            let new = self.status(w, s);
            if new != old {
                self.add(w, s, old, -1);
                self.add(w, s, new, 1);
            }
        }
    }

    /// A stone of `side` on the empty `p`.
    fn put(&mut self, p: usize, side: usize) {
        debug_assert_eq!(self.stone[p], 0);
        let lines = self.lines;
        for &w in &lines.through[p] {
            self.change(usize::from(w), |f| f.count[usize::from(w)][side] += 1);
        }
        if self.exact != [false; 2] || self.caro {
            for &w in &lines.beside[p] {
                self.change(usize::from(w), |f| f.dead[usize::from(w)][side] += 1);
            }
        }
        self.stone[p] = side as u8 + 1;
        self.empty.clear(p);
        self.near.put(p, &lines.near[p], &self.empty);
        self.hash ^= zobrist()[side][p];
    }

    /// Takes the stone of `side` off `p`.
    fn take(&mut self, p: usize, side: usize) {
        debug_assert_eq!(usize::from(self.stone[p]), side + 1);
        let lines = self.lines;
        for &w in &lines.through[p] {
            self.change(usize::from(w), |f| f.count[usize::from(w)][side] -= 1);
        }
        if self.exact != [false; 2] || self.caro {
            for &w in &lines.beside[p] {
                self.change(usize::from(w), |f| f.dead[usize::from(w)][side] -= 1);
            }
        }
        self.stone[p] = 0;
        self.empty.set(p);
        self.near.take(p, &lines.near[p]);
        self.hash ^= zobrist()[side][p];
    }

    /// Under renju on black's turn, the stones as the rule reads them, to ask of the points
    /// black may not play ([`crate::rules::gomoku::renju`]); `None` where every point may be
    /// played. Read from the whole board, so kept for the root and the few moves of a
    /// victory by fours.
    pub fn fouls(&self) -> Option<Stones> {
        (self.renju && self.to_move == 0).then(|| {
            Stones::new(self.lines.side as u8, |i| match self.stone[i] {
                1 => Some(Mark::X),
                2 => Some(Mark::O),
                _ => None,
            })
        })
    }

    /// Whether the side to move may not play the empty `p` ([`Field::fouls`]).
    pub fn forbidden(&self, p: usize) -> bool {
        self.stone[p] == 0 && self.fouls().is_some_and(|s| s.foul(p).is_some())
    }

    /// The shape `side` makes on the empty `p` in direction `dir`.
    pub fn shape(&self, p: usize, side: usize, dir: usize) -> u8 {
        let [one, two, three, four] = self.level[side][p][dir];
        match (one, two, three, four) {
            (1.., ..) => shape::FIVE,
            (_, 2.., ..) => shape::OPEN_FOUR,
            (_, 1, ..) => shape::FOUR,
            (_, _, 2.., _) => shape::THREE,
            (_, _, 1, _) => shape::THREE_CLOSED,
            (.., 2..) => shape::TWO,
            (.., 1) => shape::TWO_CLOSED,
            _ => 0,
        }
    }

    /// What a stone of `side` on the empty `p` makes, as points: five, a winning threat (an
    /// open four, two fours, a four with an open three), two open threes, or the sum of its
    /// directions' shapes.
    pub fn worth(&self, p: usize, side: usize) -> i32 {
        let mut counts = [0u8; 8];
        let mut sum = 0;
        for dir in 0..4 {
            let s = self.shape(p, side, dir);
            counts[usize::from(s)] += 1;
            sum += SHAPE_POINTS[usize::from(s)];
        }
        let fours = counts[usize::from(shape::FOUR)];
        let threes = counts[usize::from(shape::THREE)];
        if counts[usize::from(shape::FIVE)] > 0 {
            worth::FIVE
        } else if counts[usize::from(shape::OPEN_FOUR)] > 0 || fours >= 2 {
            worth::WINNING + sum
        } else if fours == 1 && threes >= 1 {
            worth::WINNING / 2 + sum
        } else if threes >= 2 {
            worth::DOUBLE_THREE + sum
        } else {
            sum
        }
    }

    /// The estimate of the position for the side to move: its open windows' values against
    /// the other side's.
    pub fn estimate(&self) -> i32 {
        let me = self.to_move;
        self.total[me] - self.total[1 - me]
    }

    /// The empty points of the windows open to `side` through `p` that lack at most three
    /// stones: where a stone of the other side breaks what `side` builds on `p`.
    pub fn threat_points(&self, p: usize, side: usize) -> Bits {
        let mut points = Bits::default();
        for &w in &self.lines.through[p] {
            let w = usize::from(w);
            if self
                .status(w, side)
                .is_some_and(|c| usize::from(c) + 3 >= self.k)
            {
                for q in self.lines.points(w) {
                    points.set(q);
                }
            }
        }
        points.and(self.empty)
    }
}

impl super::board::Board for Field {
    fn of(board: &Gomoku) -> Field {
        Field::new(board)
    }
    fn side(&self) -> usize {
        Field::side(self)
    }
    fn to_move(&self) -> usize {
        Field::to_move(self)
    }
    fn hash(&self) -> u64 {
        Field::hash(self)
    }
    fn is_empty(&self, p: usize) -> bool {
        Field::is_empty(self, p)
    }
    fn is_full(&self) -> bool {
        Field::is_full(self)
    }
    fn candidates(&self) -> Bits {
        Field::candidates(self)
    }
    fn fives(&self, side: usize) -> Bits {
        Field::fives(self, side)
    }
    fn fours(&self, side: usize) -> Bits {
        Field::fours(self, side)
    }
    fn play(&mut self, p: usize) {
        Field::play(self, p);
    }
    fn undo(&mut self) {
        Field::undo(self);
    }
    fn fouls(&self) -> Option<Stones> {
        Field::fouls(self)
    }
    fn worth(&self, p: usize, side: usize) -> i32 {
        Field::worth(self, p, side)
    }
    fn estimate(&self) -> i32 {
        Field::estimate(self)
    }
    fn threat_points(&self, p: usize, side: usize) -> Bits {
        Field::threat_points(self, p, side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::gomoku::Rule;

    fn field(moves: &[&str]) -> Field {
        let mut board = Gomoku::new();
        for m in moves {
            board.play(board.parse_cell(m).unwrap()).unwrap();
        }
        Field::new(&board)
    }

    fn point(f: &Field, name: &str) -> usize {
        Gomoku::with_size(f.side() as u8)
            .unwrap()
            .parse_cell(name)
            .unwrap()
            .index()
    }

    #[test]
    fn playing_and_taking_back_restores_every_count() {
        let mut f = field(&["h8", "h9", "i8", "j9", "g7"]);
        let before = f.clone();
        for name in ["g8", "f8", "k8", "e8"] {
            f.play(point(&f, name));
        }
        for _ in 0..4 {
            f.undo();
        }
        assert_eq!(f.count, before.count);
        assert_eq!(f.level, before.level);
        assert_eq!(f.total, before.total);
        assert_eq!(f.hash(), before.hash());
        assert_eq!(f.candidates(), before.candidates());
        assert_eq!(f.fours(0), before.fours(0));
    }

    #[test]
    fn an_open_three_makes_an_open_four_and_a_four_makes_five() {
        // X: g8 h8 i8 on row 8, O far away.
        let f = field(&["g8", "a1", "h8", "a3", "i8", "a5"]);
        assert_eq!(f.shape(point(&f, "j8"), 0, 0), shape::OPEN_FOUR);
        assert_eq!(f.shape(point(&f, "f8"), 0, 0), shape::OPEN_FOUR);
        assert_eq!(f.shape(point(&f, "k8"), 0, 0), shape::FOUR);
        assert!(f.fives(0).is_empty());
        let mut g = f.clone();
        g.play(point(&g, "j8"));
        assert_eq!(g.fives(0).len(), 2);
    }

    #[test]
    fn with_the_exact_rule_a_point_that_makes_six_makes_no_five() {
        let mut board = Gomoku::with_rules(15, 5, true).unwrap();
        for m in ["c8", "a1", "d8", "a3", "e8", "a5", "f8", "a7", "h8", "a9"] {
            board.play(board.parse_cell(m).unwrap()).unwrap();
        }
        let f = Field::new(&board);
        // g8 makes c8..h8, six: nothing; b8 makes five b8..f8.
        let fives: Vec<String> = f.fives(0).iter().map(|p| cell(&f, p)).collect();
        assert_eq!(fives, ["b8"]);
    }

    /// What a field holds that must not depend on how it got there.
    fn state(f: &Field) -> impl PartialEq + std::fmt::Debug {
        (
            f.count.clone(),
            f.dead.clone(),
            f.level.clone(),
            (f.one_short.clone(), f.two_short.clone()),
            (f.fives(0), f.fives(1), f.fours(0), f.fours(1)),
            (f.candidates(), f.total, f.hash(), f.to_move),
        )
    }

    #[test]
    fn a_field_kept_through_random_games_equals_one_made_afresh_on_every_board() {
        let mut rng = fastrand::Rng::with_seed(7);
        let boards = [
            (15, 5, Rule::Freestyle),
            (15, 5, Rule::Exact),
            (15, 5, Rule::Caro),
            (9, 4, Rule::Freestyle),
            (8, 3, Rule::Exact),
            (20, 5, Rule::Freestyle),
        ];
        for (size, k, rule) in boards {
            for _ in 0..20 {
                let mut board = Gomoku::with_rule(size, k, rule).unwrap();
                let mut field = Field::new(&board);
                let mut boards = vec![board];
                while !board.is_over() && !board.is_full() {
                    let empty: Vec<_> = board
                        .cells()
                        .filter(|&c| board.mark_at(c).is_none())
                        .collect();
                    let c = empty[rng.usize(..empty.len())];
                    board.play(c).unwrap();
                    field.play(c.index());
                    let fresh = Field::new(&board);
                    assert_eq!(state(&field), state(&fresh), "\n{board}");
                    boards.push(board);
                }
                // Taken back to a random point, it is that position's field again.
                let back = rng.usize(..boards.len());
                for _ in back + 1..boards.len() {
                    field.undo();
                }
                let fresh = Field::new(&boards[back]);
                assert_eq!(state(&field), state(&fresh));
            }
        }
    }

    #[test]
    fn the_points_where_the_side_to_move_makes_five_are_where_the_rules_say_it_wins() {
        let mut rng = fastrand::Rng::with_seed(11);
        for rule in [Rule::Freestyle, Rule::Exact, Rule::Caro] {
            for _ in 0..40 {
                let mut board = Gomoku::with_rule(9, 5, rule).unwrap();
                while !board.is_over() && !board.is_full() {
                    let field = Field::new(&board);
                    for c in board.legal_moves() {
                        let mut after = board;
                        after.play(c).unwrap();
                        let wins = after.winner() == Some(board.to_move());
                        let five = field.fives(field.to_move()).has(c.index());
                        assert_eq!(five, wins, "{rule:?}, {c} on\n{board}");
                    }
                    let moves = board.legal_moves();
                    board.play(moves[rng.usize(..moves.len())]).unwrap();
                }
            }
        }
    }

    fn cell(f: &Field, p: usize) -> String {
        crate::ai::threats::cell_of(f.side() as u8, p).to_string()
    }
}
