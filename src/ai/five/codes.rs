//! Line patterns read from tables. For an empty point and one of its four directions, the
//! `reach` points on each side of it (2 bits each: empty, black, white, off the board) make a
//! key; the table made here from every key gives, for each side, the pattern the line has
//! for it at that point: what a stone of that side there makes (five, open four, four, open
//! three, three, open two…, or nothing at all). The patterns are defined by what follows,
//! not by drawings of lines: a *five* is a winning line through the point by the side's
//! rule; a point makes an *open four* where, after it, two empty points would each make five
//! through it, a *four* where one would; an *open three* where some empty point would then
//! make an open four, a *three* where some would make a four; and so down to ones.
//!
//! Each rule has its table: five or more (freestyle), exactly `k` (an overline makes nothing,
//! as renju has it for black), and caro's (exactly `k` blocked at both ends by the other
//! side's stones wins nothing). The reach is `k − 1` points where more than `k` wins (a line
//! of `k` through the point lies within it), and `k` where a point beyond must be seen.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use crate::rules::gomoku::Rule;

/// A line's pattern at a point for one side, from nothing (0) to five.
pub mod class {
    pub const DEAD: u8 = 0;
    /// A stone here makes a line longer than `k`, which wins nothing by this rule.
    pub const OVERLINE: u8 = 1;
    pub const ONE: u8 = 2;
    pub const OPEN_ONE: u8 = 3;
    pub const TWO: u8 = 4;
    pub const OPEN_TWO: u8 = 5;
    pub const THREE: u8 = 6;
    pub const OPEN_THREE: u8 = 7;
    pub const FOUR: u8 = 8;
    pub const OPEN_FOUR: u8 = 9;
    pub const FIVE: u8 = 10;
    /// How many there are.
    pub const COUNT: usize = 11;
}

/// Which lines win for one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Wins {
    /// `k` or more in a row.
    AtLeast,
    /// Exactly `k`.
    Exactly,
    /// `k` or more, but not exactly `k` with the other side's stones beyond both ends.
    Caro,
}

/// Cell codes in a key.
pub const EMPTY: u32 = 0;
pub const MINE: u32 = 1;
pub const THEIRS: u32 = 2;
/// Off the board.
pub const WALL: u32 = 3;

/// The patterns of one line length and rule: each key's class for black (the low four
/// bits) and for white (the high four).
pub struct Codes {
    /// Points seen on each side of the point.
    pub reach: usize,
    table: Vec<u8>,
}

impl Codes {
    /// The class of the line `key` for `side` (0 black, 1 white).
    #[inline]
    pub fn class(&self, key: u32, side: usize) -> u8 {
        self.table[key as usize] >> (4 * side) & 0xf
    }
}

/// The largest `k` with a table: where more than `k` wins, six; else five (a table has
/// 4^(2 × reach) keys).
pub const MOST_REACH: usize = 5;

/// The reach a rule needs for line length `k`, where a table is made for it.
pub fn reach(k: usize, rule: Rule) -> Option<usize> {
    let reach = if rule == Rule::Freestyle { k - 1 } else { k };
    (k >= 3 && reach <= MOST_REACH).then_some(reach)
}

/// The table of line length `k` under `rule`, made the first time it is asked for; `None`
/// where the line is too long for a table.
pub fn codes(k: usize, rule: Rule) -> Option<&'static Codes> {
    const RULES: usize = 4;
    static TABLES: [[OnceLock<Codes>; RULES]; MOST_REACH + 2] =
        [const { [const { OnceLock::new() }; RULES] }; MOST_REACH + 2];
    let reach = reach(k, rule)?;
    let index = match rule {
        Rule::Freestyle => 0,
        Rule::Exact => 1,
        Rule::Renju => 2,
        Rule::Caro => 3,
    };
    Some(TABLES[k][index].get_or_init(|| build(k, reach, rule)))
}

/// Which lines win for each side under `rule`: black's, then white's.
fn wins_of(rule: Rule) -> [Wins; 2] {
    match rule {
        Rule::Freestyle => [Wins::AtLeast; 2],
        Rule::Exact => [Wins::Exactly; 2],
        Rule::Renju => [Wins::Exactly, Wins::AtLeast],
        Rule::Caro => [Wins::Caro; 2],
    }
}

/// The patterns of lines too long for a table, worked out from the line's points each time
/// they are asked for, by the same definition the tables are made from.
#[derive(Clone, Copy, Debug)]
pub struct Scan {
    pub k: usize,
    /// Points seen on each side of the point, as a table of the same rule would see them.
    pub reach: usize,
    wins: [Wins; 2],
}

/// The reader of lines of length `k` (3 to 20) under `rule`, for any length.
pub fn scan(k: usize, rule: Rule) -> Scan {
    Scan {
        k,
        reach: if rule == Rule::Freestyle { k - 1 } else { k },
        wins: wins_of(rule),
    }
}

impl Scan {
    /// Black's class and white's of the line `cells` ([`EMPTY`], black's stones as `MINE`,
    /// white's as `THEIRS`, and [`WALL`]) at the empty `cells[at]`. Lines seen before are
    /// remembered, by thread, up to [`SCANS_KEPT`] of them.
    pub fn classes(&self, cells: &mut [u32], at: usize) -> [u8; 2] {
        type Seen = HashMap<u128, [u8; 2], BuildHasherDefault<Mix>>;
        thread_local! {
            static SEEN: RefCell<Seen> = RefCell::new(Seen::default());
        }
        let key = cells
            .iter()
            .rev()
            .fold(0u128, |key, &c| key << 2 | u128::from(c))
            | (cells.len() as u128) << 84
            | (at as u128) << 90
            | (self.k as u128) << 96
            | (self.wins[0] as u128) << 102
            | (self.wins[1] as u128) << 104;
        if let Some(classes) = SEEN.with_borrow(|seen| seen.get(&key).copied()) {
            return classes;
        }
        cells[at] = MINE;
        let black = scanned(cells, at, self.k, self.wins[0]);
        // The point stays the side's own: white's, once the stones are swapped.
        swap_all(cells);
        cells[at] = MINE;
        let white = scanned(cells, at, self.k, self.wins[1]);
        swap_all(cells);
        cells[at] = EMPTY;
        SEEN.with_borrow_mut(|seen| {
            if seen.len() >= SCANS_KEPT {
                seen.clear();
            }
            seen.insert(key, [black, white]);
        });
        [black, white]
    }
}

/// A cell as the other side sees it.
fn swapped(cell: u32) -> u32 {
    match cell {
        MINE => THEIRS,
        THEIRS => MINE,
        c => c,
    }
}

/// A line's cells as the other side sees them.
fn swap_all(cells: &mut [u32]) {
    for cell in cells {
        *cell = swapped(*cell);
    }
}

/// A quick hash of a line's key: the lines remembered are ours, not anyone's input.
#[derive(Default)]
struct Mix(u64);

impl Hasher for Mix {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }
    fn write_u128(&mut self, n: u128) {
        let x = (n as u64) ^ ((n >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        let x = (x ^ x >> 31).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 = x ^ x >> 29;
    }
}

/// The most lines read point by point a thread remembers.
const SCANS_KEPT: usize = 1 << 20;

/// The class of the line `cells` at `at`, which holds the side's stone. A point's class
/// follows from the fewest stones it lacks in a window of `k` that can still win through
/// it: none, a five (or by the run already there, an overline or a dead line); one, a four,
/// open where two points make five; two to four, the class below the best its window's
/// empty points make; more, a one. (Only those points can make the next class up: any other
/// leaves the point lacking as many.)
fn scanned(cells: &mut [u32], at: usize, k: usize, wins: Wins) -> u8 {
    let left = (0..at).rev().take_while(|&i| cells[i] == MINE).count();
    let right = (at + 1..cells.len())
        .take_while(|&i| cells[i] == MINE)
        .count();
    if 1 + left + right >= k {
        let len = 1 + left + right;
        let theirs = |i: Option<usize>| i.and_then(|i| cells.get(i)) == Some(&THEIRS);
        let blocked = theirs((at - left).checked_sub(1)) && theirs(Some(at + right + 1));
        return match wins {
            Wins::Exactly if len > k => class::OVERLINE,
            Wins::Caro if len == k && blocked => class::DEAD,
            Wins::AtLeast | Wins::Exactly | Wins::Caro => class::FIVE,
        };
    }
    let Some(lack) = open_windows(cells, at, k, wins).map(|(_, e)| e).min() else {
        return class::DEAD;
    };
    // The empty points of the windows that lack fewest, as bits.
    let points = open_windows(cells, at, k, wins)
        .filter(|&(_, e)| e == lack)
        .fold(0u64, |bits, (start, _)| bits | empties(cells, start, k));
    match lack {
        1 if points.count_ones() >= 2 && !one_block_stops(cells, at, k, wins) => class::OPEN_FOUR,
        1 => class::FOUR,
        2..=4 => {
            let mut best = class::DEAD;
            for e in (0..cells.len()).filter(|&e| points >> e & 1 == 1) {
                cells[e] = MINE;
                best = best.max(scanned(cells, at, k, wins));
                cells[e] = EMPTY;
            }
            best.saturating_sub(2).max(class::ONE)
        }
        _ => class::ONE,
    }
}

/// The windows of `k` points through `at` that the side can still make a winning line of:
/// their first points and how many empty points each has.
fn open_windows(
    cells: &[u32],
    at: usize,
    k: usize,
    wins: Wins,
) -> impl Iterator<Item = (usize, u32)> + '_ {
    let first = at.saturating_sub(k - 1);
    (first..=at)
        .filter(move |&s| s + k <= cells.len())
        .filter(move |&s| cells[s..s + k].iter().all(|&c| c == EMPTY || c == MINE))
        .filter(move |&s| {
            let before = s.checked_sub(1).map(|i| cells[i]);
            let after = cells.get(s + k).copied();
            match wins {
                Wins::AtLeast => true,
                Wins::Exactly => before != Some(MINE) && after != Some(MINE),
                Wins::Caro => !(before == Some(THEIRS) && after == Some(THEIRS)),
            }
        })
        .map(move |s| (s, empties(cells, s, k).count_ones()))
}

/// The empty points of the window of `k` from `start`, as bits.
fn empties(cells: &[u32], start: usize, k: usize) -> u64 {
    (start..start + k)
        .filter(|&i| cells[i] == EMPTY)
        .fold(0, |bits, i| bits | 1 << i)
}

/// Whether one stone of the other side's leaves the point no window lacking one stone:
/// only caro's can ([`Line::one_block_stops_every_five`]).
fn one_block_stops(cells: &mut [u32], at: usize, k: usize, wins: Wins) -> bool {
    if wins != Wins::Caro {
        return false;
    }
    (0..cells.len()).any(|b| {
        if cells[b] != EMPTY {
            return false;
        }
        cells[b] = THEIRS;
        let stops = open_windows(cells, at, k, wins).all(|(_, e)| e != 1);
        cells[b] = EMPTY;
        stops
    })
}

fn build(k: usize, reach: usize, rule: Rule) -> Codes {
    let wins = wins_of(rule);
    let keys = 1usize << (4 * reach);
    let classes = wins.map(|w| {
        let mut line = Line {
            k,
            reach,
            wins: w,
            memo: vec![u8::MAX; keys],
        };
        (0..keys as u32).for_each(|key| {
            line.class(key);
        });
        line.memo
    });
    let table = (0..keys)
        .map(|key| {
            let white = classes[1][swap(key as u32, reach) as usize];
            classes[0][key] | white << 4
        })
        .collect();
    Codes { reach, table }
}

/// `key` with the two sides' stones exchanged.
fn swap(key: u32, reach: usize) -> u32 {
    (0..2 * reach).fold(0, |out, j| out | swapped(key >> (2 * j) & 3) << (2 * j))
}

/// The classes of one side's lines, worked out key by key and kept.
struct Line {
    k: usize,
    reach: usize,
    wins: Wins,
    memo: Vec<u8>,
}

impl Line {
    /// The cell at position `pos` of the line (0 to 2 × reach; the point itself at `reach`).
    fn cell(&self, key: u32, pos: usize) -> u32 {
        let j = if pos < self.reach { pos } else { pos - 1 };
        key >> (2 * j) & 3
    }

    /// The class of `key` for the side whose stones are [`MINE`], a stone of its own put on
    /// the point: recursively, from the keys with one more of its stones.
    fn class(&mut self, key: u32) -> u8 {
        let known = self.memo[key as usize];
        if known != u8::MAX {
            return known;
        }
        let class = match self.line(key) {
            Some(made) => made,
            None => self.by_next(key),
        };
        self.memo[key as usize] = class;
        class
    }

    /// What the run of the side's stones through the point makes by itself: five, an
    /// overline or a dead line, or nothing decided yet.
    fn line(&self, key: u32) -> Option<u8> {
        let r = self.reach;
        let left = (0..r)
            .rev()
            .take_while(|&p| self.cell(key, p) == MINE)
            .count();
        let right = (r + 1..=2 * r)
            .take_while(|&p| self.cell(key, p) == MINE)
            .count();
        let len = 1 + left + right;
        let k = self.k;
        let outer = |pos: Option<usize>| pos.is_some_and(|p| self.cell(key, p) == THEIRS);
        match self.wins {
            _ if len < k => None,
            Wins::AtLeast => Some(class::FIVE),
            Wins::Exactly if len == k => Some(class::FIVE),
            Wins::Exactly => Some(class::OVERLINE),
            Wins::Caro if len > k => Some(class::FIVE),
            Wins::Caro => {
                let before = (r - left).checked_sub(1);
                let after = Some(r + right + 1).filter(|&p| p <= 2 * r);
                // Both ends blocked: no line through the point can win.
                Some(if outer(before) && outer(after) {
                    class::DEAD
                } else {
                    class::FIVE
                })
            }
        }
    }

    /// The class from the empty points: two that make five, and no one stone of the other
    /// side's that stops both, an open four; one, a four; else one below the best class a
    /// point makes.
    fn by_next(&mut self, key: u32) -> u8 {
        let (mut fives, mut best) = (0, class::DEAD);
        for j in self.empty(key) {
            let next = self.class(key | MINE << (2 * j));
            fives += usize::from(next == class::FIVE);
            best = best.max(next);
        }
        match (fives, best) {
            (2.., _) if self.one_block_stops_every_five(key) => class::FOUR,
            (2.., _) => class::OPEN_FOUR,
            (1, _) => class::FOUR,
            (_, class::OVERLINE | class::DEAD) => class::DEAD,
            (_, c) => (c - 2).max(class::ONE).min(c),
        }
    }
}

impl Line {
    /// The positions of the line's empty points in `key`.
    fn empty(&self, key: u32) -> impl Iterator<Item = usize> + use<> {
        (0..2 * self.reach).filter(move |j| key >> (2 * j) & 3 == EMPTY)
    }

    /// Whether one stone of the other side's stops every five of `key`. Only caro's: there a
    /// block on one five point can leave the other's five with the other side's stones
    /// beyond both ends (`O . X X X X . O`, blocked on one side); by the other rules a five
    /// point is stopped only by a stone on it.
    fn one_block_stops_every_five(&mut self, key: u32) -> bool {
        if self.wins != Wins::Caro {
            return false;
        }
        self.empty(key).any(|block| {
            let blocked = key | THEIRS << (2 * block);
            self.empty(blocked)
                .all(|j| self.class(blocked | MINE << (2 * j)) != class::FIVE)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key of a line written as text around `*`, the point: `x` the side's stones, `o`
    /// the other's, `#` off the board, `.` empty; points not written are empty.
    fn key(codes: &Codes, line: &str) -> u32 {
        let centre = line.find('*').expect("the point");
        let mut key = 0;
        for (i, ch) in line.chars().enumerate() {
            let offset = i as i32 - centre as i32;
            if offset == 0 || offset.unsigned_abs() as usize > codes.reach {
                continue;
            }
            let j = if offset < 0 {
                (offset + codes.reach as i32) as usize
            } else {
                (offset + codes.reach as i32 - 1) as usize
            };
            let cell = match ch {
                'x' => MINE,
                'o' => THEIRS,
                '#' => WALL,
                _ => EMPTY,
            };
            key |= cell << (2 * j);
        }
        key
    }

    fn class_of(rule: Rule, line: &str) -> u8 {
        let codes = codes(5, rule).unwrap();
        codes.class(key(codes, line), 0)
    }

    /// The line of `key` as its points, the point itself (empty) at `reach`.
    fn cells_of(key: u32, reach: usize) -> Vec<u32> {
        (0..=2 * reach)
            .map(|pos| match pos {
                p if p == reach => EMPTY,
                p if p < reach => key >> (2 * p) & 3,
                p => key >> (2 * (p - 1)) & 3,
            })
            .collect()
    }

    #[test]
    fn a_line_read_point_by_point_has_the_class_its_table_gives_under_every_rule() {
        let mut rng = fastrand::Rng::with_seed(3);
        for rule in [Rule::Freestyle, Rule::Exact, Rule::Renju, Rule::Caro] {
            for k in 3..=6 {
                let Some(codes) = codes(k, rule) else {
                    continue;
                };
                let scan = scan(k, rule);
                assert_eq!(scan.reach, codes.reach);
                let keys = 1u32 << (4 * codes.reach);
                let sample: Vec<u32> = if keys <= 1 << 16 {
                    (0..keys).collect()
                } else {
                    (0..40_000).map(|_| rng.u32(..keys)).collect()
                };
                for key in sample {
                    let got = scan.classes(&mut cells_of(key, codes.reach), codes.reach);
                    let want = [codes.class(key, 0), codes.class(key, 1)];
                    assert_eq!(got, want, "{rule:?} k {k} key {key:#x}");
                }
            }
        }
    }

    #[test]
    fn freestyle_lines_read_as_gomoku_players_name_them() {
        let cases = [
            ("..xx*xx..", class::FIVE),
            ("xxxx*x", class::FIVE),
            ("...xx*x..", class::OPEN_FOUR),
            ("..oxx*x..", class::FOUR),
            ("..x.x*x..", class::FOUR),
            ("...xx*...", class::OPEN_THREE),
            ("..x.x*...", class::OPEN_THREE),
            ("..oxx*...", class::THREE),
            ("....x*...", class::OPEN_TWO),
            ("....*....", class::OPEN_ONE),
            ("#.x*.o", class::DEAD),
            ("...o*o...", class::DEAD),
        ];
        for (line, want) in cases {
            assert_eq!(class_of(Rule::Freestyle, line), want, "{line}");
        }
    }

    #[test]
    fn a_six_is_an_overline_with_exactly_five_and_a_blocked_five_is_dead_in_caro() {
        assert_eq!(class_of(Rule::Exact, ".xxxx*x."), class::OVERLINE);
        // One of the two points that make five under freestyle makes six.
        assert_eq!(class_of(Rule::Freestyle, ".xx*x.x"), class::OPEN_FOUR);
        assert_eq!(class_of(Rule::Exact, ".xx*x.x"), class::FOUR);
        assert_eq!(class_of(Rule::Exact, "x.xxx*."), class::FOUR);
        assert_eq!(class_of(Rule::Caro, "oxxx*xo"), class::DEAD);
        assert_eq!(class_of(Rule::Caro, "#xxx*xo"), class::FIVE);
        assert_eq!(class_of(Rule::Caro, "oxxx*xxo"), class::FIVE);
        // Renju: black's six is an overline, white's a five.
        let codes = codes(5, Rule::Renju).unwrap();
        let six = key(codes, ".xxxx*x.");
        assert_eq!(codes.class(six, 0), class::OVERLINE);
        assert_eq!(codes.class(swap(six, codes.reach), 1), class::FIVE);
    }

    #[test]
    fn under_caro_two_fives_that_one_block_stops_make_a_four_and_no_open_four() {
        // O . X X X X . O: a block on one end leaves the other five with O beyond both ends.
        assert_eq!(class_of(Rule::Freestyle, "o.xx*x.o"), class::OPEN_FOUR);
        assert_eq!(class_of(Rule::Caro, "o.xx*x.o"), class::FOUR);
        // With O beyond one end only, a block on the far end still stops both; with room
        // beyond both ends (the board's edge blocks nothing), no one stone does.
        assert_eq!(class_of(Rule::Caro, "o.xx*x.."), class::FOUR);
        assert_eq!(class_of(Rule::Caro, "..xx*x.."), class::OPEN_FOUR);
        assert_eq!(class_of(Rule::Caro, "#.xx*x.."), class::OPEN_FOUR);
        // And what becomes that four is a three, not an open three.
        assert_eq!(class_of(Rule::Freestyle, "o.x*x..o"), class::OPEN_THREE);
        assert_eq!(class_of(Rule::Caro, "o..x*x.o"), class::THREE);
    }
}
