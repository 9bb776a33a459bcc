//! Threats on Gomoku's board, asked side by side: the position as the alpha-beta search
//! reads it ([`Patterns`]: line patterns from tables), where either side may place a stone
//! out of turn; where a side makes five and four; a score of each point for attack and
//! defence; the points worth a look; and the search's victory by continuous fours (VCF), a
//! proof of a win ([`crate::ai::five::vcf`]). `hard` proves its threats with it, and the
//! puzzle tools find their puzzles with it.

use crate::ai::five::board::Board;
use crate::ai::five::patterns::Patterns;
use crate::ai::five::vcf::{Refuted, Vcf};
use crate::rules::classic::{Cell, Mark};
use crate::rules::gomoku::Gomoku;

/// A Gomoku position as threats are asked of it.
pub struct Threats {
    board: Patterns,
    size: u8,
    /// Positions known to have no victory by fours, made at the first search for one.
    refuted: Option<Box<Refuted>>,
}

/// The side index of a mark.
pub fn side(mark: Mark) -> usize {
    usize::from(mark == Mark::O)
}

impl Threats {
    /// The threats of `board`.
    pub fn new(board: &Gomoku) -> Threats {
        Threats {
            board: Patterns::of(board),
            size: board.size(),
            refuted: None,
        }
    }

    /// The cell of point `p`.
    pub fn cell(&self, p: usize) -> Cell {
        cell_of(self.size, p)
    }

    fn points(&self) -> std::ops::Range<usize> {
        0..usize::from(self.size) * usize::from(self.size)
    }

    /// Whether point `p` is empty.
    pub fn is_empty(&self, p: usize) -> bool {
        self.board.is_empty(p)
    }

    /// The empty points, in board order.
    pub fn empty_points(&self) -> Vec<usize> {
        self.points().filter(|&p| self.is_empty(p)).collect()
    }

    /// Stones on the board.
    pub fn placed(&self) -> usize {
        self.points().filter(|&p| !self.is_empty(p)).count()
    }

    /// Puts a stone of `side` on the empty point `p`.
    pub fn place(&mut self, p: usize, side: usize) {
        self.board.put(p, side);
    }

    /// Takes back the stone of `side` on `p`: the last one placed.
    pub fn remove(&mut self, p: usize, side: usize) {
        debug_assert!(!self.is_empty(p), "{p} of side {side} is on the board");
        self.board.take();
    }

    /// The points where `side` makes its winning line at once, in board order.
    pub fn fives(&self, side: usize) -> Vec<usize> {
        self.board.fives(side).iter().collect()
    }

    /// The points where a stone of `side` makes a four (a point where it then makes five),
    /// in board order.
    pub fn fours(&self, side: usize) -> Vec<usize> {
        self.board.fours(side).iter().collect()
    }

    /// How good point `p` is for `side` to play, as the search first orders its moves: what
    /// it makes for `side`, and what it stops of the other's.
    pub fn score(&self, p: usize, side: usize) -> i64 {
        self.board.promise(p, side)
    }

    /// The empty points within two of a stone (the centre on an empty board): where a move
    /// is worth looking at.
    pub fn candidates(&self) -> Vec<usize> {
        if self.placed() == 0 {
            let size = usize::from(self.size);
            return vec![(size / 2) * size + size / 2];
        }
        self.board.candidates().iter().collect()
    }

    /// A victory by continuous fours for `side`, as if to move: every move of it makes five
    /// or a four, so each reply of the other side is forced, and the last makes five. Its
    /// moves and the forced replies in order, ending with the five; `None` if none is found
    /// with at most `fours` fours before the five within `budget` positions looked at (which
    /// it spends).
    pub fn vcf(&mut self, side: usize, fours: u32, budget: &mut u32) -> Option<Vec<usize>> {
        let turn = self.board.to_move();
        self.board.set_turn(side);
        let refuted = self.refuted.get_or_insert_with(Box::default);
        let mut search = Vcf {
            refuted,
            budget: u64::from(*budget),
            nodes: 0,
            stop: None,
        };
        let line = search.find(&mut self.board, fours.min(u32::from(u8::MAX)) as u8);
        *budget = u32::try_from(search.budget).unwrap_or(u32::MAX);
        self.board.set_turn(turn);
        line
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
        for size in crate::rules::gomoku::MIN_SIZE..=crate::rules::gomoku::MAX_SIZE {
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
