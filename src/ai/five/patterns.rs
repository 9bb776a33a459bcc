//! A five-in-a-row position kept as line patterns read from tables ([`super::codes`]): for
//! every point and direction, the key of the points around it (2 bits each); for every empty
//! point, each side's pattern in each direction and the *threat* they make together (five,
//! open four or two fours, four and open three, four, two open threes, open three); and for
//! each side the points of each threat that matters, its estimate and its counts. A stone
//! changes the keys of the points within reach along its four lines and recounts those
//! points alone; taking it back restores what was saved and recounts nothing. Lines too long
//! for a table (seven and up, six and up with exactly `k`) keep no keys: each changed
//! direction is read from the stones along it ([`codes::Scan`]).

use std::sync::OnceLock;

use super::board::{Board, worth};
use super::codes::{self, Codes, EMPTY, MINE, Scan, THEIRS, WALL, class};
use super::points::{Bits, MAX_SIDE, Near, POINTS, zobrist};
use super::values::{self, Values};
use crate::rules::classic::Mark;
use crate::rules::gomoku::Gomoku;
use crate::rules::gomoku::renju::Stones;

/// What a point's four directions make together for one side.
pub mod threat {
    pub const NONE: u8 = 0;
    pub const OPEN_THREE: u8 = 1;
    pub const DOUBLE_THREE: u8 = 2;
    pub const FOUR: u8 = 3;
    pub const FOUR_THREE: u8 = 4;
    /// An open four, or two fours: won next move unless the other side makes five first.
    pub const FLEX_FOUR: u8 = 5;
    pub const FIVE: u8 = 6;
    /// Renju: black may not play here (an overline, two fours; two open threes as the
    /// patterns read them).
    pub const FORBIDDEN: u8 = 7;
    pub const COUNT: usize = 8;
}

/// Ordering points for each direction's pattern.
const CLASS_POINTS: [i32; class::COUNT] = [0, 0, 2, 4, 8, 24, 60, 400, 600, 1 << 16, 1 << 20];

/// The four directions, as (column, row) steps: across, up, diagonal, antidiagonal.
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

/// The geometry of one side and reach: for each point and direction, the points within
/// reach on that line and where this point sits in each of their keys; and each point's
/// keys on the empty board (the points off the board written in).
struct Reach {
    /// `around[p][d]`: the points within reach of `p` in direction `d`, each with the bit of
    /// its key that holds `p`.
    around: Vec<[Vec<(u16, u8)>; 4]>,
    /// Each point's keys on the empty board: the points off the board (kept only where a
    /// table reads the keys).
    walls: Vec<[u32; 4]>,
    /// Each point's neighbours, within two in the square around it.
    near: Vec<Vec<u16>>,
}

fn reach_of(side: usize, reach: usize) -> &'static Reach {
    const N: usize = MAX_SIDE + 1;
    static TABLES: [[OnceLock<Reach>; N]; N] = [const { [const { OnceLock::new() }; N] }; N];
    TABLES[side][reach].get_or_init(|| build_reach(side, reach))
}

/// The bit of a key that holds the point `offset` away (−reach to reach, not 0).
fn shift(offset: i32, reach: usize) -> u8 {
    let r = reach as i32;
    let j = if offset < 0 {
        offset + r
    } else {
        offset + r - 1
    };
    (2 * j) as u8
}

fn build_reach(side: usize, reach: usize) -> Reach {
    let n = side as i32;
    let on = |c: i32, r: i32| ((0..n).contains(&c) && (0..n).contains(&r)).then_some(r * n + c);
    let mut around = Vec::with_capacity(side * side);
    let mut walls = Vec::with_capacity(side * side);
    for p in 0..n * n {
        let (c, r) = (p % n, p / n);
        let mut lists: [Vec<(u16, u8)>; 4] = Default::default();
        let mut keys = [0u32; 4];
        for (d, (dc, dr)) in DIRECTIONS.into_iter().enumerate() {
            for i in (-(reach as i32)..=reach as i32).filter(|&i| i != 0) {
                match on(c + i * dc, r + i * dr) {
                    // This point is −i away from q.
                    Some(q) => lists[d].push((q as u16, shift(-i, reach))),
                    // Keys are kept only where a table reads them.
                    None if reach <= codes::MOST_REACH => keys[d] |= WALL << shift(i, reach),
                    None => {}
                }
            }
        }
        around.push(lists);
        walls.push(keys);
    }
    // Each point's neighbours: the points within two in the square around it.
    let near = (0..n * n)
        .map(|p| {
            let (c, r) = (p % n, p / n);
            (-2..=2)
                .flat_map(|dr| (-2..=2).map(move |dc| (dc, dr)))
                .filter(|&d| d != (0, 0))
                .filter_map(|(dc, dr)| on(c + dc, r + dr).map(|q| q as u16))
                .collect()
        })
        .collect();
    Reach {
        around,
        walls,
        near,
    }
}

/// One point's keys and, while it is empty, what each side makes there.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Point {
    key: [u32; 4],
    /// `class[side][dir]`.
    class: [[u8; 4]; 2],
    threat: [u8; 2],
    /// Each side's [`values::code`].
    code: [u16; 2],
}

/// How a position reads its lines' patterns: from a table by key, or, for lines too long
/// for one, point by point along the line.
#[derive(Clone, Copy)]
enum Reader {
    Table(&'static Codes),
    Scan(Scan),
}

/// A position of five in a row as line patterns.
#[derive(Clone)]
pub struct Patterns {
    lines: Reader,
    /// Points seen on each side of a point along its lines.
    seen: usize,
    reach: &'static Reach,
    values: &'static Values,
    side: usize,
    renju: bool,
    point: Vec<Point>,
    stone: [u8; POINTS],
    empty: Bits,
    near: Near,
    /// The empty points of each threat, for each side.
    fives: [Bits; 2],
    fours: [Bits; 2],
    winning: [Bits; 2],
    /// How many empty points make each threat, for each side.
    count: [[u16; threat::COUNT]; 2],
    /// Each side's values summed over the points, as the side to move's and as the other's.
    as_mover: [i32; 2],
    as_other: [i32; 2],
    hash: u64,
    /// The points changed by each move, as they were before it: the move's own point last.
    saved: Vec<(u16, Point)>,
    /// Where each move's saved points begin, and the move.
    moves: Vec<(u32, u16)>,
    to_move: usize,
}

impl Patterns {
    /// The threat `side` makes on the empty `p`.
    pub fn threat(&self, p: usize, side: usize) -> u8 {
        self.point[p].threat[side]
    }

    /// Makes it `side`'s turn, to ask what that side could do if it moved now.
    pub fn set_turn(&mut self, side: usize) {
        self.to_move = side;
    }

    /// How many empty points make `threat` for `side`.
    pub fn count(&self, side: usize, threat: u8) -> u16 {
        self.count[side][usize::from(threat)]
    }

    /// Every point's code for `side` ([`values::code`]; a stone's is that of four dead
    /// directions): what the estimate reads.
    pub fn codes(&self, side: usize) -> impl Iterator<Item = u16> + '_ {
        self.point.iter().map(move |p| p.code[side])
    }

    /// The point `p` as its lines make it now, `key` its keys, for an empty point; as
    /// nothing for a stone. Where lines are read point by point, only direction `dir` is read
    /// again (`None`: all four).
    fn read(&self, p: usize, key: [u32; 4], dir: Option<usize>) -> Point {
        if self.stone[p] != 0 {
            return Point {
                key,
                ..Point::default()
            };
        }
        let class: [[u8; 4]; 2] = match self.lines {
            Reader::Table(codes) => {
                std::array::from_fn(|s| std::array::from_fn(|d| codes.class(key[d], s)))
            }
            Reader::Scan(scan) => {
                let mut class = self.point[p].class;
                for d in dir.map_or(0..4, |d| d..d + 1) {
                    let [black, white] = self.scanned(&scan, p, d);
                    (class[0][d], class[1][d]) = (black, white);
                }
                class
            }
        };
        let threat: [u8; 2] = std::array::from_fn(|s| threat_of(class[s], self.renju && s == 0));
        let code = std::array::from_fn(|s| match threat[s] {
            threat::FORBIDDEN => values::FORBIDDEN,
            _ => values::code(class[s]),
        });
        Point {
            key,
            class,
            threat,
            code,
        }
    }

    /// Each side's class on the empty `p` in direction `d`, read point by point.
    fn scanned(&self, scan: &Scan, p: usize, direction: usize) -> [u8; 2] {
        let (dc, dr) = DIRECTIONS[direction];
        let side = self.side as i32;
        let (col, row) = (p as i32 % side, p as i32 / side);
        let reach = scan.reach as i32;
        let mut cells = [WALL; 2 * MAX_SIDE + 1];
        for i in -reach..=reach {
            let (c, r) = (col + i * dc, row + i * dr);
            if (0..side).contains(&c) && (0..side).contains(&r) {
                cells[(i + reach) as usize] = match self.stone[(r * side + c) as usize] {
                    0 => EMPTY,
                    1 => MINE,
                    _ => THEIRS,
                };
            }
        }
        scan.classes(&mut cells[..=2 * scan.reach], scan.reach)
    }

    /// Takes away what `p` gives now and adds what `new` gives.
    fn set(&mut self, p: usize, new: Point) {
        let old = std::mem::replace(&mut self.point[p], new);
        let v = self.values;
        for s in 0..2 {
            let (was, is) = (usize::from(old.code[s]), usize::from(new.code[s]));
            self.as_mover[s] += v.mine[is] - v.mine[was];
            self.as_other[s] += v.theirs[is] - v.theirs[was];
            self.count[s][usize::from(old.threat[s])] -= 1;
            self.count[s][usize::from(new.threat[s])] += 1;
            let t = new.threat[s];
            mark(&mut self.fives[s], p, t == threat::FIVE);
            mark(
                &mut self.winning[s],
                p,
                (threat::FOUR_THREE..threat::FIVE).contains(&t),
            );
            let four = new.class[s]
                .iter()
                .any(|&c| c == class::FOUR || c == class::OPEN_FOUR);
            mark(&mut self.fours[s], p, four && t != threat::FORBIDDEN);
        }
    }

    /// A stone of `side` on the empty `p`, whoever is to move; what it changes saved.
    pub fn put(&mut self, p: usize, side: usize) {
        let start = self.saved.len() as u32;
        let code = side as u32 + 1;
        let reach = self.reach;
        self.stone[p] = side as u8 + 1;
        for (d, list) in reach.around[p].iter().enumerate() {
            for &(q, shift) in list {
                let q = usize::from(q);
                let before = self.point[q];
                let mut key = before.key;
                if let Reader::Table(_) = self.lines {
                    key[d] |= code << shift;
                }
                self.saved.push((q as u16, before));
                let new = self.read(q, key, Some(d));
                self.set(q, new);
            }
        }
        let before = self.point[p];
        self.saved.push((p as u16, before));
        self.set(p, self.read(p, before.key, None));
        self.empty.clear(p);
        self.near.put(p, &reach.near[p], &self.empty);
        self.hash ^= zobrist()[side][p];
        self.moves.push((start, p as u16));
    }

    /// Takes back the last stone put.
    ///
    /// # Panics
    /// If none was put since the position was made.
    pub fn take(&mut self) {
        let (start, p) = self.moves.pop().expect("a stone to take back");
        let p = usize::from(p);
        let side = usize::from(self.stone[p]) - 1;
        self.stone[p] = 0;
        while self.saved.len() > start as usize {
            let (q, before) = self.saved.pop().expect("saved");
            self.set(usize::from(q), before);
        }
        self.empty.set(p);
        self.near.take(p, &self.reach.near[p]);
        self.hash ^= zobrist()[side][p];
    }
}

/// What a point's four directions' classes make together for one side; `forbids` where the
/// side is renju's black, for whom some of them are forbidden.
pub fn threat_of(class: [u8; 4], forbids: bool) -> u8 {
    let mut n = [0u8; class::COUNT];
    for &c in &class {
        n[usize::from(c)] += 1;
    }
    let fours = n[usize::from(class::FOUR)] + n[usize::from(class::OPEN_FOUR)];
    let threes = n[usize::from(class::OPEN_THREE)];
    if n[usize::from(class::FIVE)] > 0 {
        threat::FIVE
    } else if forbids && (n[usize::from(class::OVERLINE)] > 0 || fours >= 2 || threes >= 2) {
        threat::FORBIDDEN
    } else if n[usize::from(class::OPEN_FOUR)] > 0 || fours >= 2 {
        threat::FLEX_FOUR
    } else if fours == 1 && threes >= 1 {
        threat::FOUR_THREE
    } else if fours == 1 {
        threat::FOUR
    } else if threes >= 2 {
        threat::DOUBLE_THREE
    } else if threes == 1 {
        threat::OPEN_THREE
    } else {
        threat::NONE
    }
}

fn mark(bits: &mut Bits, p: usize, on: bool) {
    if on {
        bits.set(p);
    } else {
        bits.clear(p);
    }
}

impl Board for Patterns {
    fn of(board: &Gomoku) -> Patterns {
        let (side, k) = (usize::from(board.size()), usize::from(board.k()));
        let (lines, seen) = if let Some(codes) = codes::codes(k, board.rule()) {
            (Reader::Table(codes), codes.reach)
        } else {
            let scan = codes::scan(k, board.rule());
            (Reader::Scan(scan), scan.reach)
        };
        let reach = reach_of(side, seen);
        let mut empty = Bits::default();
        (0..side * side).for_each(|p| empty.set(p));
        let mut patterns = Patterns {
            lines,
            seen,
            reach,
            values: values::values(),
            side,
            renju: board.is_renju(),
            point: vec![Point::default(); side * side],
            stone: [0; POINTS],
            empty,
            near: Near::default(),
            fives: [Bits::default(); 2],
            fours: [Bits::default(); 2],
            winning: [Bits::default(); 2],
            count: [[0; threat::COUNT]; 2],
            as_mover: [0; 2],
            as_other: [0; 2],
            hash: 0,
            saved: Vec::new(),
            moves: Vec::new(),
            to_move: 0,
        };
        let empty_code = usize::from(values::code([class::DEAD; 4]));
        for s in 0..2 {
            patterns.count[s][usize::from(threat::NONE)] = (side * side) as u16;
            patterns.as_mover[s] = (side * side) as i32 * patterns.values.mine[empty_code];
            patterns.as_other[s] = (side * side) as i32 * patterns.values.theirs[empty_code];
        }
        for p in 0..side * side {
            let point = patterns.read(p, reach.walls[p], None);
            patterns.set(p, point);
        }
        for c in board.cells() {
            if let Some(m) = board.mark_at(c) {
                patterns.put(c.index(), usize::from(m == Mark::O));
            }
        }
        patterns.saved.clear();
        patterns.moves.clear();
        patterns.to_move = usize::from(board.to_move() == Mark::O);
        patterns
    }

    fn side(&self) -> usize {
        self.side
    }
    fn to_move(&self) -> usize {
        self.to_move
    }
    fn hash(&self) -> u64 {
        self.hash ^ (self.to_move as u64)
    }
    fn is_empty(&self, p: usize) -> bool {
        self.stone[p] == 0
    }
    fn is_full(&self) -> bool {
        self.empty.is_empty()
    }
    fn candidates(&self) -> Bits {
        self.near.candidates()
    }
    fn fives(&self, side: usize) -> Bits {
        self.fives[side]
    }
    fn fours(&self, side: usize) -> Bits {
        self.fours[side]
    }
    fn winning(&self, side: usize) -> Bits {
        self.winning[side]
    }
    fn flex_four(&self, side: usize) -> bool {
        self.count[side][usize::from(threat::FLEX_FOUR)] > 0
    }

    fn play(&mut self, p: usize) {
        self.put(p, self.to_move);
        self.to_move ^= 1;
    }

    fn undo(&mut self) {
        self.take();
        self.to_move ^= 1;
    }

    fn fouls(&self) -> Option<Stones> {
        (self.renju && self.to_move == 0).then(|| {
            Stones::new(self.side as u8, |i| match self.stone[i] {
                1 => Some(Mark::X),
                2 => Some(Mark::O),
                _ => None,
            })
        })
    }

    fn looks_forbidden(&self, p: usize) -> bool {
        self.renju && self.to_move == 0 && self.point[p].threat[0] == threat::FORBIDDEN
    }

    fn worth(&self, p: usize, side: usize) -> i32 {
        let point = &self.point[p];
        let sum: i32 = point.class[side]
            .iter()
            .map(|&c| CLASS_POINTS[usize::from(c)])
            .sum();
        match point.threat[side] {
            threat::FIVE => worth::FIVE,
            threat::FLEX_FOUR => worth::WINNING + sum,
            threat::FOUR_THREE => worth::WINNING / 2 + sum,
            threat::DOUBLE_THREE => worth::DOUBLE_THREE + sum,
            threat::FORBIDDEN => 0,
            _ => sum,
        }
    }

    fn estimate(&self) -> i32 {
        let me = self.to_move;
        self.as_mover[me] - self.as_other[1 - me]
    }

    fn threat_points(&self, p: usize, side: usize) -> Bits {
        let mut points = Bits::default();
        let width = self.side as i32;
        let (col, row) = (p as i32 % width, p as i32 / width);
        let them = 2 - side as u8;
        for (d, (dc, dr)) in DIRECTIONS.into_iter().enumerate() {
            if self.point[p].class[side][d] < class::OPEN_THREE {
                continue;
            }
            for way in [1, -1] {
                for step in 1..=self.seen as i32 + 1 {
                    let (qc, qr) = (col + way * step * dc, row + way * step * dr);
                    if !(0..width).contains(&qc) || !(0..width).contains(&qr) {
                        break;
                    }
                    let q = (qr * width + qc) as usize;
                    if self.stone[q] == them {
                        break;
                    }
                    if self.stone[q] == 0 {
                        points.set(q);
                    }
                }
            }
        }
        points
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::gomoku::Rule;

    /// What a position holds that must not depend on how it got there.
    fn state(b: &Patterns) -> impl PartialEq + std::fmt::Debug + use<> {
        (
            b.point.clone(),
            (b.fives, b.fours, b.winning),
            (
                b.count,
                b.as_mover,
                b.as_other,
                b.hash(),
                b.candidates(),
                b.to_move,
            ),
        )
    }

    /// Every rule, and lines from three to ten: those of seven and up (six and up with exactly
    /// `k`) read point by point, the others from tables.
    const BOARDS: [(u8, u8, Rule); 10] = [
        (15, 5, Rule::Freestyle),
        (15, 5, Rule::Exact),
        (15, 5, Rule::Renju),
        (15, 5, Rule::Caro),
        (9, 4, Rule::Freestyle),
        (8, 3, Rule::Exact),
        (20, 6, Rule::Freestyle),
        (9, 7, Rule::Freestyle),
        (10, 6, Rule::Exact),
        (11, 10, Rule::Exact),
    ];

    #[test]
    fn a_position_kept_through_random_games_equals_one_made_afresh_on_every_rule() {
        let mut rng = fastrand::Rng::with_seed(5);
        for (size, k, rule) in BOARDS {
            for _ in 0..6 {
                let mut board = Gomoku::with_rule(size, k, rule).unwrap();
                let mut kept = Patterns::of(&board);
                let mut boards = vec![board];
                while !board.is_over() && !board.is_full() {
                    let moves = board.legal_moves();
                    let c = moves[rng.usize(..moves.len())];
                    board.play(c).unwrap();
                    kept.play(c.index());
                    assert_eq!(state(&kept), state(&Patterns::of(&board)), "\n{board}");
                    boards.push(board);
                }
                let back = rng.usize(..boards.len());
                for _ in back + 1..boards.len() {
                    kept.undo();
                }
                assert_eq!(state(&kept), state(&Patterns::of(&boards[back])));
            }
        }
    }

    #[test]
    fn the_points_where_the_side_to_move_makes_five_are_where_the_rules_say_it_wins() {
        let mut rng = fastrand::Rng::with_seed(11);
        for (size, k, rule) in BOARDS {
            for _ in 0..12 {
                let mut board = Gomoku::with_rule(size.min(11), k, rule).unwrap();
                while !board.is_over() && !board.is_full() {
                    let patterns = Patterns::of(&board);
                    let me = patterns.to_move();
                    for c in board.legal_moves() {
                        let mut after = board;
                        after.play(c).unwrap();
                        let wins = after.winner() == Some(board.to_move());
                        let five = patterns.fives(me).has(c.index());
                        assert_eq!(five, wins, "{rule:?}, {c} on\n{board}");
                    }
                    let moves = board.legal_moves();
                    board.play(moves[rng.usize(..moves.len())]).unwrap();
                }
            }
        }
    }

    #[test]
    fn a_point_makes_a_four_where_a_stone_there_leaves_a_point_that_makes_five() {
        let mut rng = fastrand::Rng::with_seed(13);
        for (size, k, rule) in BOARDS {
            for _ in 0..8 {
                let mut board = Gomoku::with_rule(size.min(11), k, rule).unwrap();
                while !board.is_over() && !board.is_full() {
                    let mut b = Patterns::of(&board);
                    for side in 0..2 {
                        let before = b.fives(side);
                        for p in 0..b.side * b.side {
                            if !b.is_empty(p)
                                || before.has(p)
                                || b.threat(p, side) == threat::FORBIDDEN
                            {
                                continue;
                            }
                            let four = b.fours(side).has(p);
                            b.put(p, side);
                            let after = b.fives(side);
                            let gained = after.iter().any(|q| !before.has(q));
                            b.take();
                            assert!(!four || !after.is_empty(), "{rule:?} {p}\n{board}");
                            assert!(four || !gained, "{rule:?} {p} side {side}\n{board}");
                        }
                    }
                    let moves = board.legal_moves();
                    board.play(moves[rng.usize(..moves.len())]).unwrap();
                }
            }
        }
    }

    #[test]
    fn under_caro_an_open_four_between_the_other_sides_stones_is_no_win_without_search() {
        // X e8 f8 g8, O c8 and j8: h8 makes O . X X X X . O. Freestyle: won, whichever end O
        // blocks. Caro: O d8 leaves i8 a five with O beyond both ends, which wins nothing.
        let moves = ["e8", "c8", "f8", "j8", "g8", "a1"];
        for (rule, won) in [(Rule::Freestyle, true), (Rule::Caro, false)] {
            let mut board = Gomoku::with_rule(15, 5, rule).unwrap();
            for m in moves {
                board.play(board.parse_cell(m).unwrap()).unwrap();
            }
            let mut b = Patterns::of(&board);
            let h8 = board.parse_cell("h8").unwrap().index();
            let open_four = if won { threat::FLEX_FOUR } else { threat::FOUR };
            assert_eq!(b.threat(h8, 0), open_four, "{rule:?}");
            assert_eq!(b.flex_four(0), won, "{rule:?}");
            b.play(h8);
            b.play(board.parse_cell("d8").unwrap().index());
            assert_eq!(b.fives(0).is_empty(), !won, "{rule:?}");
        }
    }

    #[test]
    fn an_open_three_is_a_threat_and_its_answer_is_among_the_points_that_break_it() {
        let mut board = Gomoku::new();
        for m in ["g8", "a1", "h8", "a3", "i8", "a5"] {
            board.play(board.parse_cell(m).unwrap()).unwrap();
        }
        let b = Patterns::of(&board);
        let at = |m: &str| board.parse_cell(m).unwrap().index();
        assert_eq!(b.threat(at("j8"), 0), threat::FLEX_FOUR);
        assert_eq!(b.threat(at("f8"), 0), threat::FLEX_FOUR);
        assert_eq!(b.count(0, threat::FLEX_FOUR), 2);
        assert_eq!(b.winning(0).len(), 2);
        let breaks = b.threat_points(at("j8"), 0);
        for m in ["f8", "k8", "e8"] {
            assert!(breaks.has(at(m)), "{m}");
        }
        assert!(!breaks.has(at("h9")));
    }
}
