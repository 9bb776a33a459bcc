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
const EMPTY: u32 = 0;
const MINE: u32 = 1;
const THEIRS: u32 = 2;
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

fn build(k: usize, reach: usize, rule: Rule) -> Codes {
    let wins = match rule {
        Rule::Freestyle => [Wins::AtLeast; 2],
        Rule::Exact => [Wins::Exactly; 2],
        Rule::Renju => [Wins::Exactly, Wins::AtLeast],
        Rule::Caro => [Wins::Caro; 2],
    };
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
    (0..2 * reach).fold(0, |out, j| {
        let cell = key >> (2 * j) & 3;
        let swapped = match cell {
            MINE => THEIRS,
            THEIRS => MINE,
            c => c,
        };
        out | swapped << (2 * j)
    })
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
