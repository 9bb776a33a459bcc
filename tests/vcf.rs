//! Gomoku's `hard` against an independent search for victories by continuous fours (VCF),
//! written from the rules alone (`play`, `legal_moves`, the stones on the board): it never
//! misses a victory of up to eleven fours that this search finds, and never lets one through
//! that a move could have stopped; on the threat puzzles, where no victory by fours exists,
//! it plays a threat after which every reply loses to one.

use std::time::Duration;

use tictactoe::ai::player::{Brain, Player};
use tictactoe::ai::search::Value;
use tictactoe::rules::classic::{Cell, Mark};
use tictactoe::rules::gomoku::{self, Gomoku};
use tictactoe::rules::position::{Move, Position};

/// The longest victory checked, in fours before the five.
const FOURS: u32 = 11;

/// The four directions of a line: along a row, a column and the two diagonals.
const DIRECTIONS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// Whether a stone of `mark` on the empty `extra` would stand in a winning line of `mark`'s:
/// `k` (five, or the board's line) or more in a row, or with the exact rule exactly `k`,
/// counted point by point.
fn five_through(board: &Gomoku, mark: Mark, extra: Cell) -> bool {
    let k = usize::from(board.k());
    let n = i32::from(board.size());
    let (row, col) = (i32::from(extra.row()), i32::from(extra.col()));
    let holds = |r: i32, c: i32| {
        (0..n).contains(&r)
            && (0..n).contains(&c)
            && board.mark_at(board.cell_at(r as u8, c as u8).unwrap()) == Some(mark)
    };
    let beyond = |dr: i32, dc: i32| {
        (1..n)
            .take_while(|&i| holds(row + i * dr, col + i * dc))
            .count()
    };
    DIRECTIONS.iter().any(|&(dr, dc)| {
        let run = 1 + beyond(dr, dc) + beyond(-dr, -dc);
        if board.is_exact() { run == k } else { run >= k }
    })
}

/// The empty points where `mark` would make five.
fn fives(board: &Gomoku, mark: Mark) -> Vec<Cell> {
    let empty = board.cells().filter(|&c| board.mark_at(c).is_none());
    empty.filter(|&c| five_through(board, mark, c)).collect()
}

/// The empty points less than `k` from `centre` along its lines where `mark` would make
/// five: after a stone on `centre`, the only new ones there can be.
fn fives_near(board: &Gomoku, mark: Mark, centre: Cell) -> Vec<Cell> {
    let n = i32::from(board.size());
    let reach = i32::from(board.k()) - 1;
    let (row, col) = (i32::from(centre.row()), i32::from(centre.col()));
    let mut found = Vec::new();
    for (dr, dc) in DIRECTIONS {
        for i in (-reach..=reach).filter(|&i| i != 0) {
            let (r, c) = (row + i * dr, col + i * dc);
            if !(0..n).contains(&r) || !(0..n).contains(&c) {
                continue;
            }
            let cell = board.cell_at(r as u8, c as u8).unwrap();
            if board.mark_at(cell).is_none() && five_through(board, mark, cell) {
                found.push(cell);
            }
        }
    }
    found.sort_by_key(|c| c.index());
    found.dedup();
    found
}

/// Whether the side to move wins by continuous fours with at most `fours` fours: it makes
/// five, or a four (a stone after which it has a point of five) that the other side can only
/// answer on that point (any other reply loses to the five, unless it makes five itself), and
/// wins the same way after that answer with one four fewer; two points of five at once win.
fn vcf(board: &Gomoku, fours: u32) -> bool {
    let attacker = board.to_move();
    if !fives(board, attacker).is_empty() {
        return true;
    }
    fours > 0
        && board
            .legal_moves()
            .into_iter()
            .filter(|&c| three_beside(board, attacker, c))
            .any(|c| four_wins(board, c, fours))
}

/// Whether `k − 2` stones of `mark` (three with five) lie less than `k` from `c` on one of
/// its lines: where they do not, a stone on `c` makes no four (a cheap test before the exact
/// one).
fn three_beside(board: &Gomoku, mark: Mark, c: Cell) -> bool {
    let n = i32::from(board.size());
    let (row, col) = (i32::from(c.row()), i32::from(c.col()));
    let (k, reach) = (usize::from(board.k()), i32::from(board.k()) - 1);
    DIRECTIONS.iter().any(|&(dr, dc)| {
        let mine = (-reach..=reach).filter(|&i| i != 0).filter(|&i| {
            let (r, c) = (row + i * dr, col + i * dc);
            (0..n).contains(&r)
                && (0..n).contains(&c)
                && board.mark_at(board.cell_at(r as u8, c as u8).unwrap()) == Some(mark)
        });
        mine.count() >= k - 2
    })
}

/// Whether the side to move's stone on `c` is a four that wins by [`vcf`].
fn four_wins(board: &Gomoku, c: Cell, fours: u32) -> bool {
    let attacker = board.to_move();
    let mut after = *board;
    after.play(c).unwrap();
    if after.is_over() {
        return after.winner() == Some(attacker);
    }
    let points = fives_near(&after, attacker, c);
    if points.is_empty() || !fives(&after, attacker.other()).is_empty() {
        return false;
    }
    if points.len() > 1 {
        return true;
    }
    let mut blocked = after;
    blocked.play(points[0]).unwrap();
    !blocked.is_over() && vcf(&blocked, fours - 1)
}

/// Positions from a random game near the centre of 15×15, each with the side to move.
fn positions(seed: u64, games: usize) -> Vec<Gomoku> {
    positions_on(Gomoku::new(), seed, games)
}

/// Positions from a random game on `empty`'s board, within four of its centre, each with the
/// side to move; the game stops before the side to move has a point that wins at once.
fn positions_on(empty: Gomoku, seed: u64, games: usize) -> Vec<Gomoku> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut found = Vec::new();
    let centre = empty.size() / 2;
    let near = centre.saturating_sub(4)..(centre + 5).min(empty.size());
    for _ in 0..games {
        let mut board = empty;
        let stones = rng.usize(20..=60);
        while usize::from(board.stones()) < stones {
            let (row, col) = (rng.u8(near.clone()), rng.u8(near.clone()));
            let c = board.cell_at(row, col).unwrap();
            if board.mark_at(c).is_some() {
                continue;
            }
            let mut next = board;
            next.play(c).unwrap();
            if next.is_over() || !fives(&next, next.to_move()).is_empty() {
                break;
            }
            board = next;
        }
        found.push(board);
    }
    found
}

/// The puzzles of `tests/data/vcf_puzzles.txt` (made by `examples/vcf_puzzles.rs`): X to
/// move wins by fours in the number of fours given, and in no fewer.
fn puzzles() -> Vec<(u32, Gomoku)> {
    let text = include_str!("data/vcf_puzzles.txt");
    let parse = |line: &str| {
        let (n, board) = line.split_once(' ').expect("N and a position");
        (
            n.parse().expect("a number"),
            board.parse().expect("a position"),
        )
    };
    text.lines().map(parse).collect()
}

fn hard(board: &Gomoku) -> Cell {
    let mut brain = Brain::new(Some(1)).with_think(Duration::from_secs(1));
    match brain.choose(Player::HARD, &Position::Gomoku(*board)) {
        Some(Move::Cell(cell)) => cell,
        other => panic!("hard chose {other:?} on\n{board}"),
    }
}

/// The fewest fours `vcf` wins with, up to `most`.
fn shortest(board: &Gomoku, most: u32) -> Option<u32> {
    (0..=most).find(|&n| vcf(board, n))
}

#[test]
fn hard_plays_every_victory_by_fours_of_up_to_eleven_that_the_rules_find() {
    let lengths = every_victory_played(positions(5, 300));
    assert!(
        lengths.len() >= 20 && lengths.iter().any(|&n| n >= 2),
        "victories of one and more fours: {lengths:?}"
    );
}

#[test]
fn with_exactly_five_hard_plays_every_victory_by_fours_the_rules_find() {
    let exact = positions(6, 300)
        .into_iter()
        .filter_map(|board| board.played_with(gomoku::FIVE, true).ok());
    let lengths = every_victory_played(exact.collect());
    assert!(lengths.len() >= 20, "victories: {lengths:?}");
}

#[test]
fn with_other_lines_hard_plays_every_victory_by_fours_the_rules_find() {
    for (size, k, exact, seed) in [(11, 4, false, 7), (15, 6, true, 8), (9, 3, false, 9)] {
        let empty = Gomoku::with_rules(size, k, exact).unwrap();
        let lengths = every_victory_played(positions_on(empty, seed, 150));
        assert!(
            lengths.len() >= 10,
            "{size}×{size}, {k} in a row: victories {lengths:?}"
        );
    }
}

/// Checks that `hard` plays into every victory of up to eleven fours in `boards`: their
/// lengths, in fours.
fn every_victory_played(boards: Vec<Gomoku>) -> Vec<u32> {
    let mut lengths = Vec::new();
    for board in boards {
        let Some(n) = shortest(&board, FOURS) else {
            continue;
        };
        let c = hard(&board);
        assert!(
            four_wins(&board, c, FOURS),
            "hard played {c}, which is no victory by fours, where one of {n} fours wins:\n{board}"
        );
        lengths.push(n);
    }
    lengths
}

#[test]
fn every_puzzle_takes_its_fours_and_no_fewer_and_hard_plays_its_first_four() {
    let mut lengths = Vec::new();
    for (n, board) in puzzles() {
        assert!(
            !vcf(&board, n - 1),
            "a victory in fewer than {n} fours:\n{board}"
        );
        assert!(vcf(&board, n), "no victory in {n} fours:\n{board}");
        let c = hard(&board);
        assert!(
            four_wins(&board, c, n),
            "hard played {c}, which does not win in {n} fours:\n{board}"
        );
        lengths.push(n);
    }
    lengths.dedup();
    assert_eq!(lengths, (1..=FOURS).collect::<Vec<_>>(), "every length");
}

/// Whether the side to move's stone on `c` wins by threats: it makes five, or after it the
/// other side has no five to make and every reply, anywhere on the board, leaves the side a
/// [`vcf`] of at most `fours` fours.
fn threat_wins(board: &Gomoku, c: Cell, fours: u32) -> bool {
    let attacker = board.to_move();
    let mut after = *board;
    after.play(c).unwrap();
    if after.is_over() {
        return after.winner() == Some(attacker);
    }
    fives(&after, attacker.other()).is_empty()
        && after.legal_moves().into_iter().all(|reply| {
            let mut replied = after;
            replied.play(reply).unwrap();
            !replied.is_over() && vcf(&replied, fours)
        })
}

/// The puzzles of `tests/data/vct_puzzles.txt` (made by `examples/vct_puzzles.rs`).
fn threat_puzzles() -> Vec<Gomoku> {
    let text = include_str!("data/vct_puzzles.txt");
    let parse = |line: &str| {
        let (_, board) = line.split_once(' ').expect("1 and a position");
        board.parse().expect("a position")
    };
    text.lines().map(parse).collect()
}

#[test]
fn every_threat_puzzle_has_no_victory_by_fours_and_hard_plays_a_threat_no_reply_stops() {
    let puzzles = threat_puzzles();
    assert!(puzzles.len() >= 10, "{} puzzles", puzzles.len());
    for board in puzzles {
        assert!(
            shortest(&board, FOURS).is_none(),
            "a victory by fours:\n{board}"
        );
        let c = hard(&board);
        assert!(
            threat_wins(&board, c, FOURS),
            "hard played {c}, which a reply stops:\n{board}"
        );
    }
}

#[test]
fn hard_stops_every_victory_by_fours_a_move_can_stop() {
    let (mut stopped, mut unstoppable) = (0, 0);
    for board in positions(7, 300) {
        if shortest(&board, FOURS).is_some() {
            continue; // the side to move wins first
        }
        let Some(far) = board.cells().find(|&c| {
            board.mark_at(c).is_none() && (c.row() < 2 || c.row() > 12) && (c.col() < 2)
        }) else {
            continue;
        };
        // The other side's threats, as if it were to move: a stone of the side to move far
        // from the game passes the turn.
        let mut passed = board;
        passed.play(far).unwrap();
        if !vcf(&passed, FOURS) {
            continue;
        }
        let after = |c: Cell| {
            let mut next = board;
            next.play(c).unwrap();
            next
        };
        let h = hard(&board);
        if !vcf(&after(h), FOURS) {
            stopped += 1;
            continue;
        }
        let stopping = board
            .legal_moves()
            .into_iter()
            .find(|&c| !vcf(&after(c), FOURS));
        assert!(
            stopping.is_none(),
            "hard played {h}, which lets a victory by fours through; {} stops it:\n{board}",
            stopping.unwrap()
        );
        unstoppable += 1;
    }
    assert!(
        stopped >= 10,
        "{stopped} stopped, {unstoppable} that nothing stops"
    );
}

#[test]
fn a_threat_hard_calls_a_proven_win_leaves_a_victory_by_fours_after_every_reply() {
    let mut proven = 0;
    for board in positions(9, 600) {
        if shortest(&board, FOURS).is_some() {
            continue; // a victory by fours: the tests above
        }
        let mut brain = Brain::new(Some(1)).with_think(Duration::from_secs(1));
        let head = brain.analyze(&Position::Gomoku(board), true).head;
        let Some((Value::Win(_), Move::Cell(threat))) = head else {
            continue;
        };
        let mut after = board;
        after.play(threat).unwrap();
        for reply in after.legal_moves() {
            let mut replied = after;
            replied.play(reply).unwrap();
            assert!(
                !replied.is_over() && vcf(&replied, FOURS),
                "hard called {threat} won, but {reply} leaves no victory by fours:\n{board}"
            );
        }
        proven += 1;
    }
    assert!(proven >= 5, "{proven} threats proven won");
}

#[test]
fn hards_win_in_n_on_a_victory_by_fours_is_the_shortest_the_rules_find() {
    let mut checked = 0;
    for board in positions(12, 200) {
        let Some(n) = shortest(&board, FOURS) else {
            continue;
        };
        let mut brain = Brain::new(Some(1)).with_think(Duration::from_secs(1));
        let head = brain.analyze(&Position::Gomoku(board), true).head;
        let Some((value, Move::Cell(first))) = head else {
            panic!("no move where {n} fours win:\n{board}");
        };
        assert_eq!(value, Value::Win(2 * n + 1), "{first}:\n{board}");
        assert!(four_wins(&board, first, n), "{first}:\n{board}");
        checked += 1;
    }
    assert!(checked >= 10, "{checked} victories by fours");
}
