//! Misère proofs, checked by brute force, and `hard` playing misère games: the side that can
//! mirror never loses a game, whoever plays the other side.
//!
//! A *mirror strategy* answers every move with its image under a symmetry of the board (the
//! point reflection through the centre, taking the centre first on an odd board); a misère
//! *pairing* pairs the cells of a side's own lines, so that the side, answering inside pairs,
//! never takes both cells of one. Both are proofs that a side cannot lose; the search uses
//! them, and these tests play every sequence of the other side against them.

mod common;

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use tictactoe::ai::player::{Brain, Player};
use tictactoe::ai::search::{Meter, Searcher, Value, mirror, pairing};
use tictactoe::rules::classic::{Board, Cell, Mark, Outcome, Rules};

fn rules(n: u8, k: u8) -> Rules {
    Rules::new(n, k, true).unwrap()
}

/// Whether `mirrorer` never loses from `board` when it always plays the engine's mirror
/// answer (which must exist at each of its turns) and the other side plays anything.
fn mirror_never_loses(board: &Board, mirrorer: Mark, seen: &mut HashSet<Board>) -> bool {
    match board.outcome() {
        Outcome::Won { winner, .. } => return winner == mirrorer,
        Outcome::Draw => return true,
        Outcome::InProgress => {}
    }
    if !seen.insert(*board) {
        return true;
    }
    if board.to_move() == mirrorer {
        let Some(cell) = mirror(board) else {
            return false; // the strategy has no answer
        };
        return mirror_never_loses(&board.with_move(cell).unwrap(), mirrorer, seen);
    }
    board
        .empty_cells()
        .all(|c| mirror_never_loses(&board.with_move(c).unwrap(), mirrorer, seen))
}

#[test]
fn the_mirror_strategy_never_loses_from_the_empty_board() {
    // 3×3 and 5×5: X takes the centre and mirrors; 4×4: O mirrors from the start.
    for (n, k, mirrorer) in [(3, 3, Mark::X), (4, 4, Mark::O), (5, 4, Mark::X)] {
        let board = Board::new(rules(n, k));
        assert!(
            mirror_never_loses(&board, mirrorer, &mut HashSet::new()),
            "{n}×{n}, {mirrorer} mirroring"
        );
    }
}

#[test]
fn the_mirror_strategy_never_loses_on_the_larger_boards() {
    let mut rng = fastrand::Rng::with_seed(5);
    for (n, k, mirrorer, empties) in [
        (6, 5, Mark::O, 16),
        (7, 5, Mark::X, 17),
        (6, 6, Mark::O, 16),
        (7, 6, Mark::X, 17),
    ] {
        let mut checked = 0;
        while checked < 6 {
            let Some(board) = common::mirrored_position(rules(n, k), mirrorer, empties, &mut rng)
            else {
                continue;
            };
            assert!(
                mirror_never_loses(&board, mirrorer, &mut HashSet::new()),
                "{n}×{n} k={k}, {mirrorer} mirroring from {board}"
            );
            checked += 1;
        }
    }
}

#[test]
fn no_mirror_from_the_centre_where_a_line_from_it_holds_no_pair() {
    // 7×7 with four: X's centre and a mirrored three from it toward the edge would be a line.
    assert_eq!(mirror(&Board::new(rules(7, 4))), None);
    assert_eq!(mirror(&Board::new(rules(5, 3))), None);
    // Normal rules: no mirror at all.
    assert_eq!(mirror(&Board::new(Rules::new(5, 4, false).unwrap())), None);
    // The centre on boards where it works.
    for (n, k) in [(3, 3), (5, 4), (7, 5)] {
        let centre = Board::new(rules(n, k)).cell_at(n / 2, n / 2);
        assert_eq!(mirror(&Board::new(rules(n, k))), centre, "{n}×{n}");
    }
}

#[test]
fn a_mirror_in_the_middle_row_is_found_and_holds() {
    // 6×6 with five: O mirrors X in the horizontal middle line (row r ↔ row 5 - r), a
    // symmetry that is not the point reflection.
    let mut rng = fastrand::Rng::with_seed(9);
    let mut checked = 0;
    while checked < 4 {
        let mut board = Board::new(rules(6, 5));
        let mut cells: Vec<(u8, u8)> = (0..3).flat_map(|r| (0..6).map(move |c| (r, c))).collect();
        rng.shuffle(&mut cells);
        for &(r, c) in &cells[..11] {
            for row in [r, 5 - r] {
                // A line completed on the way ends the game: the rest is refused.
                let _ = board.play(board.cell_at(row, c).unwrap());
            }
        }
        if board.outcome() != Outcome::InProgress {
            continue;
        }
        let moves = board.legal_moves();
        let after = board.with_move(moves[rng.usize(..moves.len())]).unwrap();
        if after.outcome() != Outcome::InProgress {
            continue;
        }
        assert!(mirror(&after).is_some(), "{after}");
        assert!(
            mirror_never_loses(&after, Mark::O, &mut HashSet::new()),
            "{after}"
        );
        checked += 1;
    }
}

/// Whether `avoider` never loses from `board` when it answers a move into a pair with the
/// pair's other cell, and otherwise takes any unpaired cell, else any cell of an untouched
/// pair (every such choice is tried); it must never be left without one. `last` is the other
/// side's last move.
fn avoider_never_loses(
    board: &Board,
    avoider: Mark,
    partner: &HashMap<Cell, Cell>,
    last: Option<Cell>,
    seen: &mut HashSet<(Board, Option<Cell>)>,
) -> bool {
    match board.outcome() {
        Outcome::Won { winner, .. } => return winner == avoider,
        Outcome::Draw => return true,
        Outcome::InProgress => {}
    }
    if !seen.insert((*board, last)) {
        return true;
    }
    let mut next = |c: Cell, last| {
        avoider_never_loses(&board.with_move(c).unwrap(), avoider, partner, last, seen)
    };
    if board.to_move() != avoider {
        return board.empty_cells().all(|c| next(c, Some(c)));
    }
    let empty = |c: &Cell| board.mark_at(*c).is_none();
    if let Some(&p) = last.and_then(|a| partner.get(&a)).filter(|p| empty(p)) {
        return next(p, None);
    }
    let unpaired: Vec<Cell> = board
        .empty_cells()
        .filter(|c| !partner.contains_key(c))
        .collect();
    if !unpaired.is_empty() {
        return unpaired.into_iter().all(|c| next(c, None));
    }
    let fresh: Vec<Cell> = board.empty_cells().filter(|c| empty(&partner[c])).collect();
    !fresh.is_empty() && fresh.into_iter().all(|c| next(c, None))
}

/// Every line of `k` cells on an `n`×`n` board as (row, col) lists, written independently
/// of the engine.
fn lines(n: i32, k: i32) -> Vec<Vec<(i32, i32)>> {
    let mut out = Vec::new();
    for (dr, dc) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
        for r in 0..n {
            for c in 0..n {
                let cells: Vec<(i32, i32)> = (0..k).map(|i| (r + dr * i, c + dc * i)).collect();
                if cells
                    .iter()
                    .all(|&(r, c)| (0..n).contains(&r) && (0..n).contains(&c))
                {
                    out.push(cells);
                }
            }
        }
    }
    out
}

/// The misère pairing's definition: disjoint pairs of empty cells, and every line free of
/// the other side's marks that the avoider has moves enough to fill holds both cells of a
/// pair.
fn is_a_misere_pairing(board: &Board, avoider: Mark, pairs: &[(Cell, Cell)]) -> bool {
    let mut used = HashSet::new();
    if !pairs.iter().all(|&(a, b)| {
        used.insert(a) && used.insert(b) && board.mark_at(a).is_none() && board.mark_at(b).is_none()
    }) {
        return false;
    }
    let empties = board.empty_cells().count();
    let moves_left = if board.to_move() == avoider {
        empties.div_ceil(2)
    } else {
        empties / 2
    };
    let n = i32::from(board.size());
    lines(n, i32::from(board.rules().k())).iter().all(|line| {
        let cells: Vec<Cell> = line
            .iter()
            .map(|&(r, c)| board.cell_at(r as u8, c as u8).unwrap())
            .collect();
        let missing = cells
            .iter()
            .filter(|&&c| board.mark_at(c).is_none())
            .count();
        cells
            .iter()
            .any(|&c| board.mark_at(c) == Some(avoider.other()))
            || missing > moves_left
            || pairs
                .iter()
                .any(|(a, b)| cells.contains(a) && cells.contains(b))
    })
}

#[test]
fn every_misere_pairing_found_holds_against_every_sequence() {
    let mut rng = fastrand::Rng::with_seed(13);
    let mut found = 0;
    for (n, k, marks) in [
        (4, 4, 5),
        (4, 4, 7),
        (5, 4, 13),
        (5, 4, 15),
        (6, 5, 24),
        (5, 5, 12),
    ] {
        for _ in 0..30 {
            let board = common::random_position(rules(n, k), marks, &mut rng);
            for avoider in [Mark::X, Mark::O] {
                let Some(pairs) = pairing(&board, avoider) else {
                    continue;
                };
                assert!(
                    is_a_misere_pairing(&board, avoider, &pairs),
                    "{board} {avoider}: {pairs:?}"
                );
                let partner: HashMap<Cell, Cell> =
                    pairs.iter().flat_map(|&(a, b)| [(a, b), (b, a)]).collect();
                assert!(
                    avoider_never_loses(&board, avoider, &partner, None, &mut HashSet::new()),
                    "{board} {avoider}: {pairs:?}"
                );
                found += 1;
            }
        }
    }
    assert!(found >= 100, "only {found} pairings to check");
}

/// The side that holds a mirror strategy from the empty board.
fn mirror_side(n: u8) -> Mark {
    if n.is_multiple_of(2) {
        Mark::O
    } else {
        Mark::X
    }
}

/// Plays `hard` (as `hard_side`) against `other` on an `n`×`n` misère board with the default
/// line length; returns the finished board.
fn misere_game(n: u8, hard_side: Mark, other: Player, think: Duration, seed: u64) -> Board {
    let mut board = Board::new(rules(n, Rules::default_k(n)));
    let mut hard = Brain::new(Some(seed)).with_think(think);
    let mut opponent = Brain::new(Some(seed + 1000)).with_think(think);
    while board.outcome() == Outcome::InProgress {
        let cell = if board.to_move() == hard_side {
            hard.choose_cell(Player::HARD, &board)
        } else {
            opponent.choose_cell(other, &board)
        };
        board.play(cell.unwrap()).unwrap();
    }
    board
}

fn lost(board: &Board, mark: Mark) -> bool {
    matches!(board.outcome(), Outcome::Won { winner, .. } if winner != mark)
}

/// `hard` never loses as the mirror side, against `hard`, `medium` and `easy`; it also plays
/// the other side of each game.
fn hard_never_loses_as_the_mirror_side(sizes: &[u8], think: Duration, seeds: u64) {
    for &n in sizes {
        for seed in 0..seeds {
            for other in [Player::HARD, Player::MEDIUM, Player::EASY] {
                for hard_side in [Mark::X, Mark::O] {
                    let board = misere_game(n, hard_side, other, think, seed);
                    if hard_side == mirror_side(n) {
                        assert!(
                            !lost(&board, hard_side),
                            "{n}×{n}: hard {hard_side} against {other}, seed {seed}: {board}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn hard_never_loses_a_misere_game_as_the_mirror_side() {
    hard_never_loses_as_the_mirror_side(&[4, 5, 6, 7], Duration::from_millis(10), 1);
}

/// The long version: `cargo test --release --test misere -- --ignored`.
#[test]
#[ignore = "about 4 minutes; run with --ignored"]
fn hard_never_loses_many_misere_games_as_the_mirror_side() {
    hard_never_loses_as_the_mirror_side(&[4, 5, 6, 7], Duration::from_millis(300), 2);
}

/// Every move's value on `board` agrees with the naive search's.
fn agrees_with_the_naive_search(board: &Board) {
    let mut memo = HashMap::new();
    let engine = Searcher::new().analyze(board);
    for (cell, value) in engine {
        let naive = common::naive_move(board, cell, &mut memo);
        assert_eq!(value, naive, "{board}: {cell}");
    }
}

#[test]
fn misere_values_agree_with_the_naive_search_near_the_end() {
    // Random positions, and positions the mirror side reached (where mirrors and pairings
    // both bound the search), with 10 to 14 empty cells.
    let mut rng = fastrand::Rng::with_seed(23);
    for (n, k) in [(5, 4), (6, 5), (7, 5), (4, 3)] {
        let cells = usize::from(n) * usize::from(n);
        for empties in [10, 11, 12, 13, 14] {
            if empties < cells {
                agrees_with_the_naive_search(&common::random_position(
                    rules(n, k),
                    cells - empties,
                    &mut rng,
                ));
            }
            let mirrorer = mirror_side(n);
            if let Some(board) = common::mirrored_position(rules(n, k), mirrorer, empties, &mut rng)
            {
                agrees_with_the_naive_search(&board);
            }
        }
    }
}

#[test]
fn small_misere_boards_are_proven() {
    // 4×4 with four: a draw (O mirrors, X pairs its lines).
    assert_eq!(
        Searcher::new().value(&Board::new(rules(4, 4))),
        Some(Value::Draw)
    );
}

/// The values of every legal move of `board` that `checker` proves within `budget` each
/// (every value on boards small enough to search to the end, with `None`).
fn proven_moves(
    checker: &mut Searcher,
    board: &Board,
    budget: Option<Duration>,
) -> Vec<(Cell, Value)> {
    board
        .legal_moves()
        .into_iter()
        .map(|c| (c, checker.move_value(board, c, budget)))
        .filter(|(_, v)| v.is_proven())
        .collect()
}

/// Plays `hard` as the side that cannot mirror (X on even boards, O on odd ones) against
/// `hard`, `medium` and `easy` on an `n`×`n` misère board, and checks each of its moves
/// against a separate searcher's proven values (within `check` per move, or to the end with
/// `None`): where some move is proven not to lose, the move played is never proven to lose.
/// Returns how many of its moves were checked against a proven non-losing move.
fn other_side_never_plays_a_proven_loss(
    n: u8,
    think: Duration,
    check: Option<Duration>,
    seeds: u64,
) -> usize {
    let side = mirror_side(n).other();
    let mut checker = Searcher::new();
    checker.set_meter(Meter::Work);
    let mut safe_moves = 0;
    for seed in 0..seeds {
        for other in [Player::HARD, Player::MEDIUM, Player::EASY] {
            let mut board = Board::new(rules(n, Rules::default_k(n)));
            let mut hard = Brain::new(Some(seed)).with_think(think);
            let mut opponent = Brain::new(Some(seed + 1000)).with_think(think);
            while board.outcome() == Outcome::InProgress {
                if board.to_move() != side {
                    board
                        .play(opponent.choose_cell(other, &board).unwrap())
                        .unwrap();
                    continue;
                }
                let cell = hard.choose_cell(Player::HARD, &board).unwrap();
                let proven = proven_moves(&mut checker, &board, check);
                let safe = proven.iter().any(|&(_, v)| v >= Value::Draw);
                if safe {
                    safe_moves += 1;
                    let played = proven.iter().find(|&&(c, _)| c == cell).map(|&(_, v)| v);
                    let values: Vec<String> = proven
                        .iter()
                        .map(|(c, v)| format!("{} {v}", c.coordinate()))
                        .collect();
                    assert!(
                        !matches!(played, Some(Value::Loss(_))),
                        "{n}×{n}, seed {seed} against {other}: {board}: {} loses though \
                         {}",
                        cell.coordinate(),
                        values.join(", ")
                    );
                }
                board.play(cell).unwrap();
            }
        }
    }
    safe_moves
}

#[test]
fn the_side_that_cannot_mirror_never_plays_a_proven_loss_on_4x4() {
    // 4×4 is small enough to check every move against values searched to the end.
    let checked = other_side_never_plays_a_proven_loss(4, Duration::from_millis(10), None, 2);
    assert!(checked >= 20, "only {checked} moves checked");
}

#[test]
fn the_side_that_cannot_mirror_never_plays_a_proven_loss_on_5x5() {
    let budget = Some(Duration::from_millis(20));
    let checked = other_side_never_plays_a_proven_loss(5, Duration::from_millis(20), budget, 1);
    assert!(checked >= 10, "only {checked} moves checked");
}

/// The long version: `cargo test --release --test misere -- --ignored`.
#[test]
#[ignore = "a few minutes; run with --ignored"]
fn the_side_that_cannot_mirror_never_plays_a_proven_loss_in_many_games() {
    other_side_never_plays_a_proven_loss(4, Duration::from_millis(100), None, 6);
    other_side_never_plays_a_proven_loss(
        5,
        Duration::from_millis(200),
        Some(Duration::from_millis(200)),
        3,
    );
}
