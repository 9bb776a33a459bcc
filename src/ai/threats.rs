//! Threats on Gomoku's board, for the AI: the lines of `k` points (five in Gomoku) a side
//! could still fill, counted as stones come and go; where a side completes its line (its
//! fours' last points); the moves that make a four; a score of each point for attack and
//! defence; and the threat-space search for a victory by continuous fours (VCF), a proof of a
//! win.
//!
//! A *window* is `k` points in a row (across, down or diagonal); with five there are 572 on
//! 15×15. A window holding stones of one side only is still open to it, and the more it holds
//! the more it threatens. The words are Gomoku's, for any `k`: a *four* is a window one stone
//! short (`k − 1` of a side's stones and an empty point), and its empty point makes *five*,
//! the winning line (or longer: freestyle counts an overline). Every question below is
//! answered from the windows' counts, kept as stones are placed and taken back.

use std::sync::OnceLock;

use crate::rules::classic::{Cell, Mark, Squares};
use crate::rules::gomoku::{self, Gomoku};

/// The most points a board has (20×20).
const POINTS: usize = gomoku::MAX_SIZE as usize * gomoku::MAX_SIZE as usize;

/// The windows of `k` points, the points just beyond each end of each (where the board has
/// them), and the windows through each point.
struct Windows {
    /// Points in a window.
    k: usize,
    /// Window `w`'s points are `points[w * k..(w + 1) * k]`.
    points: Vec<u16>,
    beyond: Vec<[Option<u16>; 2]>,
    through: Vec<Vec<u16>>,
}

impl Windows {
    /// The points of window `w`.
    fn of(&self, w: usize) -> &[u16] {
        &self.points[w * self.k..(w + 1) * self.k]
    }
}

/// The windows of `k` points on a board of side `size` (8 to 20), built once per board.
fn windows(size: usize, k: usize) -> &'static Windows {
    const SIDES: usize = gomoku::MAX_SIZE as usize + 1;
    static TABLES: [[OnceLock<Windows>; SIDES]; SIDES] =
        [const { [const { OnceLock::new() }; SIDES] }; SIDES];
    TABLES[size][k].get_or_init(|| {
        let n = size as i32;
        let (mut points, mut beyond) = (Vec::new(), Vec::new());
        for (dc, dr) in [(1i32, 0i32), (0, 1), (1, 1), (1, -1)] {
            for row in 0..n {
                for col in 0..n {
                    let on = |i: i32| {
                        let (c, r) = (col + i * dc, row + i * dr);
                        ((0..n).contains(&c) && (0..n).contains(&r)).then(|| (r * n + c) as u16)
                    };
                    if on(k as i32 - 1).is_none() {
                        continue;
                    }
                    points.extend((0..k as i32).map(|i| on(i).expect("between two ends")));
                    beyond.push([on(-1), on(k as i32)]);
                }
            }
        }
        let mut through = vec![Vec::new(); size * size];
        for (w, window) in points.chunks(k).enumerate() {
            for &p in window {
                through[usize::from(p)].push(w as u16);
            }
        }
        Windows {
            k,
            points,
            beyond,
            through,
        }
    })
}

/// Points of attack a window's stones give a side, by how many it lacks: a four (one
/// short) makes five; each stone fewer is worth about a tenth; an empty window, a point.
const ATTACK: [i64; 6] = [0, 1_000_000, 1_500, 120, 12, 1];
/// Points of defence for taking a window the opponent holds alone, by how many it lacks: a
/// little less than the attack of the same window, so a side makes its own four before it
/// blocks a three.
const DEFENCE: [i64; 6] = [0, 200_000, 1_100, 90, 8, 0];

/// The attack or defence (`table`) of a window `lacking` stones.
fn by_lack(table: &[i64; 6], lacking: usize) -> i64 {
    table[lacking.min(table.len() - 1)]
}

/// A Gomoku position as the threat search works on it: a stone per point and each window's
/// stones of each side.
#[derive(Clone)]
pub struct Threats {
    /// The board's side.
    size: usize,
    windows: &'static Windows,
    stones: [Option<usize>; POINTS],
    counts: Vec<[u8; 2]>,
    placed: usize,
    /// Only exactly `k` wins: a five point that would make a longer line is none.
    exact: bool,
    /// Caro: a window with the other side's stones just beyond both ends makes no line.
    caro: bool,
}

/// The side index of a mark.
pub fn side(mark: Mark) -> usize {
    usize::from(mark == Mark::O)
}

impl Threats {
    /// The threats of `board`.
    pub fn new(board: &Gomoku) -> Threats {
        let size = usize::from(board.size());
        let windows = windows(size, usize::from(board.k()));
        let mut threats = Threats {
            size,
            windows,
            stones: [None; POINTS],
            counts: vec![[0; 2]; windows.beyond.len()],
            placed: 0,
            // Under renju black's overline wins nothing (white's six is read as nothing too:
            // rare, and only a threat missed).
            exact: board.is_exact() || board.is_renju(),
            caro: board.is_caro(),
        };
        for cell in board.cells() {
            if let Some(mark) = board.mark_on(cell) {
                threats.place(cell.index(), side(mark));
            }
        }
        threats
    }

    /// The cell of point `p`.
    pub fn cell(&self, p: usize) -> Cell {
        cell_of(self.size as u8, p)
    }

    /// Whether point `p` is empty.
    pub fn is_empty(&self, p: usize) -> bool {
        self.stones[p].is_none()
    }

    /// The empty points, in board order.
    pub fn empty_points(&self) -> Vec<usize> {
        (0..self.size * self.size)
            .filter(|&p| self.is_empty(p))
            .collect()
    }

    /// Stones on the board.
    pub fn placed(&self) -> usize {
        self.placed
    }

    /// Puts a stone of `side` on the empty point `p`.
    pub fn place(&mut self, p: usize, side: usize) {
        debug_assert!(self.stones[p].is_none());
        self.stones[p] = Some(side);
        self.placed += 1;
        for &w in &self.windows.through[p] {
            self.counts[usize::from(w)][side] += 1;
        }
    }

    /// Takes back the stone of `side` on `p`.
    pub fn remove(&mut self, p: usize, side: usize) {
        debug_assert_eq!(self.stones[p], Some(side));
        self.stones[p] = None;
        self.placed -= 1;
        for &w in &self.windows.through[p] {
            self.counts[usize::from(w)][side] -= 1;
        }
    }

    /// Whether window `w` can still become a winning five of `side`'s: always, but with
    /// the exact rule, not where a stone of `side` lies just beyond either end (five there
    /// would be six or more), and under caro not where the other side's lie beyond both.
    fn alive(&self, w: usize, side: usize) -> bool {
        let beyond = self.windows.beyond[w];
        let holds = |who: usize| {
            move |p: &Option<u16>| p.is_some_and(|p| self.stones[usize::from(p)] == Some(who))
        };
        let overline = self.exact && beyond.iter().any(holds(side));
        let blocked = self.caro && beyond.iter().all(holds(1 - side));
        !overline && !blocked
    }

    /// The empty points of windows holding `n` stones of `side` and none of the other's,
    /// still alive for `side`.
    fn open_points(&self, side: usize, n: u8) -> Vec<usize> {
        let mut found = Vec::new();
        for (w, count) in self.counts.iter().enumerate() {
            if count[side] == n && count[1 - side] == 0 && self.alive(w, side) {
                for &p in self.windows.of(w) {
                    let p = usize::from(p);
                    if self.is_empty(p) && !found.contains(&p) {
                        found.push(p);
                    }
                }
            }
        }
        found
    }

    /// The points where `side` makes five (its winning line) at once (with the exact rule,
    /// not a longer line), in board order.
    pub fn fives(&self, side: usize) -> Vec<usize> {
        let mut fives = self.open_points(side, self.short(1));
        fives.sort_unstable();
        fives
    }

    /// The points where a stone of `side` makes a four (a point where it then makes five),
    /// in board order.
    pub fn fours(&self, side: usize) -> Vec<usize> {
        let mut fours = self.open_points(side, self.short(2));
        fours.sort_unstable();
        fours
    }

    /// How good point `p` is for `side` to play: the attack of every window through it still
    /// open to `side`, and the defence of taking every window the opponent holds alone.
    pub fn score(&self, p: usize, side: usize) -> i64 {
        self.windows.through[p]
            .iter()
            .map(|&w| {
                let w = usize::from(w);
                match self.split(w, side) {
                    [m, 0] if self.alive(w, side) => by_lack(&ATTACK, self.lacking(m)),
                    [0, t] if t > 0 && self.alive(w, 1 - side) => {
                        by_lack(&DEFENCE, self.lacking(t))
                    }
                    _ => 0,
                }
            })
            .sum()
    }

    /// The count of a window `lacking` stones short of the line (1 for a four).
    fn short(&self, lacking: usize) -> u8 {
        self.windows.k.saturating_sub(lacking) as u8
    }

    /// How many stones a window holding `stones` of one side lacks.
    fn lacking(&self, stones: u8) -> usize {
        self.windows.k - usize::from(stones)
    }

    /// A window's counts as (`side`'s, the other's).
    fn split(&self, w: usize, side: usize) -> [u8; 2] {
        [self.counts[w][side], self.counts[w][1 - side]]
    }

    /// The empty points within two of a stone (the centre on an empty board): where a move
    /// is worth looking at.
    pub fn candidates(&self) -> Vec<usize> {
        if self.placed == 0 {
            return vec![(self.size / 2) * self.size + self.size / 2];
        }
        (0..self.size * self.size)
            .filter(|&p| self.is_empty(p) && self.near_a_stone(p))
            .collect()
    }

    fn near_a_stone(&self, p: usize) -> bool {
        let side = self.size as i32;
        let (row, col) = (p as i32 / side, p as i32 % side);
        (-2..=2).any(|dr: i32| {
            (-2..=2).any(|dc: i32| {
                let (r, c) = (row + dr, col + dc);
                (0..side).contains(&r)
                    && (0..side).contains(&c)
                    && !self.is_empty((r * side + c) as usize)
            })
        })
    }

    /// A victory by continuous fours for `side`, to move: every move of it makes five or a
    /// four, so each reply of the other side is forced, and the last makes five. Its moves and
    /// the forced replies in order, ending with the five; `None` if none is found with at most
    /// `fours` fours before the five within `budget` positions looked at (which it spends).
    pub fn vcf(&mut self, side: usize, fours: u32, budget: &mut u32) -> Option<Vec<usize>> {
        if let Some(&five) = self.fives(side).first() {
            return Some(vec![five]);
        }
        if fours == 0 || *budget == 0 {
            return None;
        }
        *budget -= 1;
        let other = 1 - side;
        let must_block = self.fives(other);
        if must_block.len() > 1 {
            return None;
        }
        for four in self.fours(side) {
            if must_block.first().is_some_and(|&b| b != four) {
                continue;
            }
            self.place(four, side);
            let line = self.after_four(four, side, fours, budget);
            self.remove(four, side);
            if line.is_some() {
                return line;
            }
        }
        None
    }

    /// [`Threats::vcf`], then the same search with fewer fours while the budget lasts: the
    /// victory with the fewest fours. Where none is found, it costs what `vcf` costs.
    pub fn shortest_vcf(
        &mut self,
        side: usize,
        fours: u32,
        budget: &mut u32,
    ) -> Option<Vec<usize>> {
        let line = self.vcf(side, fours, budget)?;
        let found = (line.len() as u32 - 1) / 2;
        let shorter = (0..found).find_map(|n| self.vcf(side, n, budget));
        Some(shorter.unwrap_or(line))
    }

    /// [`Threats::vcf`] after `side`'s four on `four`: two points of five cannot both be
    /// blocked; one is, and the search goes on.
    fn after_four(
        &mut self,
        four: usize,
        side: usize,
        fours: u32,
        budget: &mut u32,
    ) -> Option<Vec<usize>> {
        let fives = self.fives(side);
        match fives[..] {
            [] => None,
            [block, five, ..] => Some(vec![four, block, five]),
            [block] => {
                self.place(block, 1 - side);
                let rest = self.vcf(side, fours - 1, budget);
                self.remove(block, 1 - side);
                let mut line = vec![four, block];
                line.extend(rest?);
                Some(line)
            }
        }
    }
}

/// The cell of point `p` of a board of side `size`.
pub fn cell_of(size: u8, p: usize) -> Cell {
    Cell::of(size, p).expect("a point of the board")
}

#[cfg(test)]
/// Random positions of 16 to 40 stones near the centre, X or O to move, none finished.
pub(crate) fn random_positions(count: usize, seed: u64) -> Vec<Gomoku> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut board = Gomoku::new();
        for _ in 0..rng.usize(16..=40) {
            let (row, col) = (rng.u8(4..11), rng.u8(4..11));
            let c = board.cell_at(row, col).unwrap();
            if board.play(c).is_err() || board.is_over() {
                break;
            }
        }
        if !board.is_over() && board.stones() >= 16 {
            found.push(board);
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Outcome, RuleSet};

    fn position(moves: &[&str]) -> Gomoku {
        let mut board = Gomoku::new();
        for m in moves {
            board.play(board.parse_cell(m).unwrap()).unwrap();
        }
        board
    }

    fn names(points: &[usize]) -> Vec<String> {
        points.iter().map(|&p| cell_of(15, p).to_string()).collect()
    }

    #[test]
    fn on_an_empty_board_of_every_side_the_one_candidate_is_a_centre_point() {
        for size in gomoku::MIN_SIZE..=gomoku::MAX_SIZE {
            let threats = Threats::new(&Gomoku::with_size(size).unwrap());
            let [p] = threats.candidates()[..] else {
                panic!("{size}: {:?}", threats.candidates());
            };
            let (cell, middle) = (threats.cell(p), [(size - 1) / 2, size / 2]);
            assert!(
                middle.contains(&cell.row()) && middle.contains(&cell.col()),
                "{size}×{size}: {cell}"
            );
        }
    }

    #[test]
    fn there_are_572_windows_and_each_point_lies_in_five_to_twenty() {
        let w = windows(15, 5);
        assert_eq!(w.beyond.len(), 2 * 15 * 11 + 2 * 11 * 11);
        assert_eq!(w.through[0].len(), 3);
        assert_eq!(w.through[7 * 15 + 7].len(), 20, "h8");
    }

    #[test]
    fn with_exactly_five_a_point_that_makes_six_is_no_five() {
        // X on h8 h9 h10 h11 and h13: h12 makes six, h7 makes five.
        let moves = ["h8", "a1", "h9", "a3", "h10", "a5", "h11", "a7", "h13"];
        let freestyle = position(&moves);
        assert_eq!(names(&Threats::new(&freestyle).fives(0)), ["h7", "h12"]);
        let exact = freestyle
            .played_with(crate::rules::gomoku::FIVE, true)
            .unwrap();
        assert_eq!(names(&Threats::new(&exact).fives(0)), ["h7"]);
    }

    #[test]
    fn fives_and_fours_are_the_points_that_make_them() {
        // X on h8 h9 h10 h11, O on i8: h7 and h12 make five.
        let board = position(&["h8", "i8", "h9", "i9", "h10", "a1", "h11"]);
        let threats = Threats::new(&board);
        assert_eq!(names(&threats.fives(0)), ["h7", "h12"]);
        assert!(threats.fives(1).is_empty());
        // O on i8 i9: no four in one move (two stones and a move are three).
        assert!(threats.fours(1).is_empty());
    }

    /// Checks a VCF line with the rules alone: every reply but the defender's in the line
    /// lets the attacker make five at once, and the line ends with the attacker's five.
    fn check_vcf(mut board: Gomoku, line: &[usize]) {
        let attacker = board.to_move();
        for pair in line.chunks(2) {
            board.play(cell_of(15, pair[0])).unwrap();
            let Some(&reply) = pair.get(1) else { break };
            for other in board.legal_moves() {
                if other == cell_of(15, reply) {
                    continue;
                }
                let mut after = board;
                after.play(other).unwrap();
                assert_eq!(
                    RuleSet::outcome(&after),
                    Outcome::InProgress,
                    "{other} wins"
                );
                assert!(wins_at_once(&after, attacker), "{other} defends too");
            }
            board.play(cell_of(15, reply)).unwrap();
            assert_eq!(RuleSet::outcome(&board), Outcome::InProgress);
        }
        assert_eq!(RuleSet::outcome(&board), Outcome::Won(attacker));
    }

    /// Whether `mark`, to move on `board`, makes five at once: by the rules alone.
    fn wins_at_once(board: &Gomoku, mark: Mark) -> bool {
        board.legal_moves().into_iter().any(|c| {
            let mut after = *board;
            after.play(c).unwrap();
            RuleSet::outcome(&after) == Outcome::Won(mark)
        })
    }

    /// A brute-force victory by fours with at most `fours` fours, by the rules alone: the
    /// side to move makes five, or makes a four (a move after which it could make five) that
    /// every reply either leaves to a five or answers with a position it wins the same way
    /// with one four fewer.
    fn brute_vcf(board: &Gomoku, fours: u32) -> bool {
        let attacker = board.to_move();
        if wins_at_once(board, attacker) {
            return true;
        }
        if fours == 0 {
            return false;
        }
        board.legal_moves().into_iter().any(|c| {
            let mut after = *board;
            after.play(c).unwrap();
            // A four: the attacker could make five next if it moved again.
            let four = after
                .legal_moves()
                .into_iter()
                .any(|e| five_through(&after, attacker, e));
            four && after.legal_moves().into_iter().all(|r| {
                let mut replied = after;
                replied.play(r).unwrap();
                RuleSet::outcome(&replied) == Outcome::InProgress && brute_vcf(&replied, fours - 1)
            })
        })
    }

    /// Whether a stone of `mark` on the empty `extra` would stand in five of `mark` in a row,
    /// counted point by point.
    fn five_through(board: &Gomoku, mark: Mark, extra: Cell) -> bool {
        let (row, col) = (i32::from(extra.row()), i32::from(extra.col()));
        let holds = |r: i32, c: i32| {
            (r, c) == (row, col)
                || (0..15).contains(&r)
                    && (0..15).contains(&c)
                    && board.mark_at(board.cell_at(r as u8, c as u8).unwrap()) == Some(mark)
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
            (-4..=0).any(|start| (start..start + 5).all(|i| holds(row + i * dr, col + i * dc)))
        })
    }

    #[test]
    fn the_vcf_search_finds_what_a_brute_force_search_of_the_rules_finds() {
        let (mut wins, mut none) = (0, 0);
        for board in random_positions(40, 11) {
            let side = side(board.to_move());
            let mut threats = Threats::new(&board);
            let line = threats.vcf(side, 2, &mut { u32::MAX });
            let brute = brute_vcf(&board, 2);
            assert_eq!(line.is_some(), brute, "{board}");
            match line {
                Some(line) => {
                    check_vcf(board, &line);
                    wins += 1;
                }
                None => none += 1,
            }
        }
        assert!(
            wins >= 5 && none >= 5,
            "both kinds: {wins} wins, {none} none"
        );
    }

    #[test]
    fn a_vcf_of_two_fours_is_found_and_every_reply_but_the_forced_one_loses() {
        // X: c1 d1 (b1 held by O), e3 e4 e5 (e6 held), f3 f4 f5 (f6 held). No move makes two
        // fours at once, but e1 forces e2, and then f1 makes two: g1 and f2.
        let board = position(&[
            "c1", "b1", "d1", "e6", "e3", "f6", "e4", "a15", "e5", "o15", "f3", "o1", "f4", "a10",
            "f5", "o10",
        ]);
        let mut threats = Threats::new(&board);
        let line = threats.vcf(0, 8, &mut 100_000).expect("a VCF");
        assert!(
            line.len() >= 5,
            "two fours and the five: {:?}",
            names(&line)
        );
        check_vcf(board, &line);
        assert!(
            threats.vcf(0, 1, &mut 100_000).is_none(),
            "not with one four"
        );
        assert!(threats.vcf(1, 8, &mut 100_000).is_none(), "O has none");
        assert_eq!(Threats::new(&board).placed(), usize::from(board.stones()));
    }
}
