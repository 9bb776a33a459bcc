//! Renju's forbidden points, checked against a second reading of the rule written here from its
//! definition, by brute force over whole lines: a five is five black stones in a row with no
//! black stone beyond either end; a four is a group of four black stones with the new stone
//! among them that one point makes a five (a group two points complete is one four); a three
//! is a point that makes a group of four with two points completing it, the point itself not
//! forbidden. Tricky positions are checked against what the rule says of them, and random
//! games are refereed by both readings.

use tictactoe::rules::classic::Mark;
use tictactoe::rules::gomoku::Gomoku;
use tictactoe::rules::gomoku::renju::{Foul, Stones};

const N: i32 = 15;
const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// Points of the board, by (column, row).
type Points = Vec<(i32, i32)>;

/// A group of four black stones, and the points that make it a five.
type Group = (Points, Points);

/// The test's board: `Some(true)` black, `Some(false)` white, by (column, row).
#[derive(Clone)]
struct Grid(Vec<Option<bool>>);

impl Grid {
    /// Rows written top (row 15) first, `x` black, `o` white, `.` empty; short rows are
    /// padded with empty points, missing rows are empty.
    fn from_rows(rows: &[&str]) -> Grid {
        let mut grid = Grid(vec![None; (N * N) as usize]);
        for (i, text) in rows.iter().enumerate() {
            let row = N - 1 - i as i32;
            for (col, ch) in text.chars().enumerate() {
                let stone = match ch {
                    'x' => Some(true),
                    'o' => Some(false),
                    _ => None,
                };
                grid.0[(row * N + col as i32) as usize] = stone;
            }
        }
        grid
    }

    fn on(&self, (c, r): (i32, i32)) -> bool {
        (0..N).contains(&c) && (0..N).contains(&r) && self.0.len() == (N * N) as usize
    }

    fn empty(&self, p: (i32, i32)) -> bool {
        self.on(p) && self.0[(p.1 * N + p.0) as usize].is_none()
    }

    fn black(&self, p: (i32, i32)) -> bool {
        self.on(p) && self.0[(p.1 * N + p.0) as usize] == Some(true)
    }

    fn with_black(&self, (c, r): (i32, i32)) -> Grid {
        let mut grid = self.clone();
        grid.0[(r * N + c) as usize] = Some(true);
        grid
    }

    /// Every point of the line through `p` in direction `d`, in order.
    fn line(&self, p: (i32, i32), (dc, dr): (i32, i32)) -> Vec<(i32, i32)> {
        let mut start = p;
        while self.on((start.0 - dc, start.1 - dr)) {
            start = (start.0 - dc, start.1 - dr);
        }
        let mut points = Vec::new();
        let mut q = start;
        while self.on(q) {
            points.push(q);
            q = (q.0 + dc, q.1 + dr);
        }
        points
    }

    /// The windows of five on `p`'s line in direction `d` that hold `p` and are a five: all
    /// black, no black just beyond either end.
    fn fives(&self, p: (i32, i32), d: (i32, i32)) -> Vec<Vec<(i32, i32)>> {
        let line = self.line(p, d);
        (0..line.len().saturating_sub(4))
            .map(|start| line[start..start + 5].to_vec())
            .filter(|w| w.contains(&p) && w.iter().all(|&q| self.black(q)))
            .filter(|w| {
                let before = (w[0].0 - d.0, w[0].1 - d.1);
                let after = (w[4].0 + d.0, w[4].1 + d.1);
                !self.black(before) && !self.black(after)
            })
            .collect()
    }

    /// Whether six black stones in a row on `p`'s line in direction `d` hold `p`.
    fn six(&self, p: (i32, i32), d: (i32, i32)) -> bool {
        let line = self.line(p, d);
        (0..line.len().saturating_sub(5))
            .any(|s| line[s..s + 6].contains(&p) && line[s..s + 6].iter().all(|&q| self.black(q)))
    }

    /// The groups of four black stones holding `p` on its line in direction `d` that one
    /// empty point makes a five, each with the points that complete it.
    fn fours(&self, p: (i32, i32), d: (i32, i32)) -> Vec<Group> {
        let mut groups: Vec<Group> = Vec::new();
        for q in self.line(p, d) {
            if !self.empty(q) {
                continue;
            }
            for five in self
                .with_black(q)
                .fives(p, d)
                .into_iter()
                .filter(|w| w.contains(&q))
            {
                let group: Vec<_> = five.into_iter().filter(|&s| s != q).collect();
                match groups.iter_mut().find(|(g, _)| *g == group) {
                    Some((_, completions)) => completions.push(q),
                    None => groups.push((group, vec![q])),
                }
            }
        }
        groups
    }

    /// Whether black on `p` (there already) makes a three in direction `d`.
    fn three(&self, p: (i32, i32), d: (i32, i32)) -> bool {
        self.line(p, d).into_iter().any(|q| {
            self.empty(q)
                && self
                    .with_black(q)
                    .fours(p, d)
                    .iter()
                    .any(|(group, completions)| group.contains(&q) && completions.len() == 2)
                && self.foul(q).is_none()
        })
    }

    /// Why black may not play the empty `p`, by the definition.
    fn foul(&self, p: (i32, i32)) -> Option<Foul> {
        let with = self.with_black(p);
        if DIRECTIONS.iter().any(|&d| !with.fives(p, d).is_empty()) {
            return None;
        }
        if DIRECTIONS.iter().any(|&d| with.six(p, d)) {
            return Some(Foul::Overline);
        }
        let fours: usize = DIRECTIONS.iter().map(|&d| with.fours(p, d).len()).sum();
        if fours >= 2 {
            return Some(Foul::DoubleFour);
        }
        let threes = DIRECTIONS.iter().filter(|&&d| with.three(p, d)).count();
        (threes >= 2).then_some(Foul::DoubleThree)
    }

    /// The program's reading of the same stones.
    fn stones(&self) -> Stones {
        Stones::new(N as u8, |i| match self.0[i] {
            Some(true) => Some(Mark::X),
            Some(false) => Some(Mark::O),
            None => None,
        })
    }
}

/// The point named like `h8`.
fn point(name: &str) -> (i32, i32) {
    let col = i32::from(name.as_bytes()[0] - b'a');
    let row: i32 = name[1..].parse().unwrap();
    (col, row - 1)
}

fn index((c, r): (i32, i32)) -> usize {
    (r * N + c) as usize
}

/// Both readings of `p` on the board of `rows`, which must agree.
fn judged(rows: &[&str], p: &str) -> Option<Foul> {
    let grid = Grid::from_rows(rows);
    let p = point(p);
    let theirs = grid.stones().foul(index(p));
    assert_eq!(theirs, grid.foul(p), "the two readings differ at {p:?}");
    theirs
}

/// Rows 15 down to 1: the positions below are drawn on the rows near the middle.
fn board(middle: &[&str]) -> Vec<String> {
    let mut rows = vec![String::new(); 4];
    rows.extend(middle.iter().map(ToString::to_string));
    rows
}

fn check(middle: &[&str], p: &str) -> Option<Foul> {
    let rows = board(middle);
    let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
    judged(&refs, p)
}

// In the drawings, the first row is row 11 and columns run a to o.

#[test]
fn two_open_threes_through_the_stone_are_a_double_three() {
    let rows = [
        "...............", // 11
        "...............", // 10
        "...............", // 9
        ".....xx........", // 8: f8 g8, and h8 is played
        ".......x.......", // 7: h7
        ".......x.......", // 6: h6
    ];
    assert_eq!(check(&rows, "h8"), Some(Foul::DoubleThree));
}

#[test]
fn a_four_and_an_open_three_are_allowed() {
    let rows = [
        "...............",
        "...............",
        "...............",
        "....xxx........", // e8 f8 g8: h8 makes a four
        ".......x.......",
        ".......x.......", // h6 h7: h8 makes an open three
    ];
    assert_eq!(check(&rows, "h8"), None);
}

#[test]
fn two_fours_are_a_double_four_even_closed() {
    let rows = [
        "...............",
        "...............",
        "...............",
        "...oxxx........", // d8 white, e8 f8 g8: h8 makes a closed four
        ".......x.......",
        ".......x.......",
        ".......x.......", // h5 h6 h7: and another
    ];
    assert_eq!(check(&rows, "h8"), Some(Foul::DoubleFour));
}

#[test]
fn two_fours_on_one_line_are_a_double_four() {
    let rows = ["...", "...", "...", "...xxx.x.xxx..."]; // d8 e8 f8 . h8 . j8 k8 l8
    assert_eq!(check(&rows, "g8"), None, "g8 makes d8-h8, a five");
    let rows = ["...", "...", "...", "..xxx...xxx...."]; // c8 d8 e8 ... i8 j8 k8
    assert_eq!(check(&rows, "g8"), Some(Foul::DoubleFour));
}

#[test]
fn six_in_a_row_is_an_overline_and_five_wins_over_any_forbidden_shape() {
    let rows = ["...", "...", "...", "...xxxx.xx....."]; // d8 to g8, i8 j8
    assert_eq!(check(&rows, "h8"), Some(Foul::Overline));
    let rows = [
        "...............",
        "...............",
        "...............",
        "...xxxx........", // d8 to g8: h8 makes exactly five
        ".......x.......",
        ".......x.......",
        ".......x.......", // and a four downwards
    ];
    assert_eq!(check(&rows, "h8"), None);
    let rows = [
        ".......x.......", // h11
        ".......x.......", // h10
        ".......x.......", // h9
        "...xxxx........", // h8 makes exactly five across and six up and down (h6 to h11)
        ".......x.......",
        ".......x.......",
    ];
    assert_eq!(check(&rows, "h8"), None);
}

#[test]
fn a_three_whose_straight_four_point_is_forbidden_is_no_three() {
    // Across: f8 g8 and h8 played, white on d8: only i8 makes a straight four (f8 to i8).
    // Up and down: h6 h7, a real three. i8 itself is an overline (i4 to i9 with it).
    let rows = [
        "...............", // 11
        "...............", // 10
        "........x......", // 9: i9
        "...o.xx........", // 8
        ".......xx......", // 7: h7 i7
        ".......xx......", // 6: h6 i6
        "........x......", // 5: i5
        "........x......", // 4: i4
    ];
    assert_eq!(check(&rows, "h8"), None, "one real three only");
    // Without the stones that make i8 forbidden, the same shape is a double three.
    let rows = [
        "...............",
        "...............",
        "...............",
        "...o.xx........",
        ".......x.......",
        ".......x.......",
    ];
    assert_eq!(check(&rows, "h8"), Some(Foul::DoubleThree));
}

#[test]
fn a_split_three_counts_and_a_three_closed_by_white_does_not() {
    // i8 played: across f8 . h8 i8 is a split three (g8 makes f8 to i8, open at e8 and j8),
    // up and down i6 i7 i8 an open three.
    let rows = [
        "...............",
        "...............",
        "...............",
        ".....x.x.......",
        "........x......",
        "........x......",
    ];
    assert_eq!(check(&rows, "i8"), Some(Foul::DoubleThree));
    // White on e8: g8 makes a four that only j8 completes, so across there is no three.
    let rows = [
        "...............",
        "...............",
        "...............",
        "....ox.x.......",
        "........x......",
        "........x......",
    ];
    assert_eq!(check(&rows, "i8"), None);
}

/// The points within two of a stone, where games grow.
fn near(
    board: &Gomoku,
    moves: &[tictactoe::rules::classic::Cell],
) -> Vec<tictactoe::rules::classic::Cell> {
    let taken: Vec<_> = board
        .cells()
        .filter(|&c| board.mark_at(c).is_some())
        .collect();
    let close: Vec<_> = moves
        .iter()
        .copied()
        .filter(|m| {
            taken.iter().any(|t| {
                (i32::from(t.row()) - i32::from(m.row())).abs() <= 2
                    && (i32::from(t.col()) - i32::from(m.col())).abs() <= 2
            })
        })
        .collect();
    if close.is_empty() {
        moves.to_vec()
    } else {
        close
    }
}

/// Whether `p` has at least four black stones on its lines within four points: no shape is
/// forbidden with fewer.
fn crowded(grid: &Grid, p: (i32, i32)) -> bool {
    let count: usize = DIRECTIONS
        .iter()
        .map(|&(dc, dr)| {
            (-4..=4)
                .filter(|&s| s != 0 && grid.black((p.0 + dc * s, p.1 + dr * s)))
                .count()
        })
        .sum();
    count >= 4
}

/// The test's reading of a game's board.
fn grid_of(board: &Gomoku) -> Grid {
    Grid(
        (0..225)
            .map(|i| {
                board
                    .cell(i)
                    .and_then(|c| board.mark_at(c))
                    .map(|m| m == Mark::X)
            })
            .collect(),
    )
}

#[test]
fn two_hundred_random_renju_games_are_refereed_alike_by_both_readings() {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut forbidden_seen = 0;
    for _ in 0..200 {
        let mut board = Gomoku::renju(15).unwrap();
        while !board.is_over() {
            // Every point on every third turn of black's (every point every turn takes a
            // minute in a debug build); the point played on every turn, below.
            if board.to_move() == Mark::X && board.stones().is_multiple_of(6) {
                let grid = grid_of(&board);
                for cell in board.cells().filter(|&c| board.mark_at(c).is_none()) {
                    let p = (i32::from(cell.col()), i32::from(cell.row()));
                    let theirs = board.foul(cell);
                    let ours = if crowded(&grid, p) {
                        grid.foul(p)
                    } else {
                        None
                    };
                    assert_eq!(theirs, ours, "at {cell} of\n{board}");
                    forbidden_seen += usize::from(theirs.is_some());
                }
            }
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let choices = near(&board, &moves);
            let mv = choices[rng.usize(..choices.len())];
            assert!(board.foul(mv).is_none(), "a legal move is never forbidden");
            if board.to_move() == Mark::X {
                let grid = grid_of(&board);
                let p = (i32::from(mv.col()), i32::from(mv.row()));
                assert_eq!(
                    grid.foul(p),
                    None,
                    "{mv} is legal by the test's reading too"
                );
            }
            board.play(mv).unwrap();
        }
    }
    assert!(
        forbidden_seen > 100,
        "the games met forbidden points: {forbidden_seen}"
    );
}
