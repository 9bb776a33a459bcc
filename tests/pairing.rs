//! Pairing strategies, checked by brute force: on small positions, a defender that answers
//! every move into a pair with the other cell (and otherwise plays anything) never loses.

mod common;

use std::collections::{HashMap, HashSet};

use common::random_position;
use tictactoe::ai::search::pairing;
use tictactoe::rules::classic::{Board, Cell, Mark, Outcome, Rules};

fn rules(n: u8, k: u8) -> Rules {
    Rules::new(n, k, false).unwrap()
}

/// Whether `defender` never loses from `board` when it answers a move into a pair with the
/// pair's other cell while that is empty, and plays any cell at all otherwise: every
/// sequence of the attacker and every free choice of the defender is tried.
fn defender_never_loses(
    board: &Board,
    defender: Mark,
    partner: &HashMap<Cell, Cell>,
    seen: &mut HashSet<Board>,
) -> bool {
    match board.outcome() {
        Outcome::Won { winner, .. } => return winner == defender,
        Outcome::Draw => return true,
        Outcome::InProgress => {}
    }
    if !seen.insert(*board) {
        return true;
    }
    if board.to_move() == defender {
        return board
            .empty_cells()
            .all(|c| defender_never_loses(&board.with_move(c).unwrap(), defender, partner, seen));
    }
    board.empty_cells().all(|a| {
        let after = board.with_move(a).unwrap();
        if after.outcome() != Outcome::InProgress {
            return defender_never_loses(&after, defender, partner, seen);
        }
        match partner.get(&a) {
            Some(&p) if after.mark_at(p).is_none() => {
                defender_never_loses(&after.with_move(p).unwrap(), defender, partner, seen)
            }
            _ => after.empty_cells().all(|c| {
                defender_never_loses(&after.with_move(c).unwrap(), defender, partner, seen)
            }),
        }
    })
}

/// Every line of `k` cells on an `n`×`n` board as lists of (row, col), written
/// independently of the engine.
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

/// The pairing's definition, checked directly: disjoint pairs of empty cells, and every line
/// free of the defender's marks holds both cells of a pair.
fn is_a_pairing(board: &Board, defender: Mark, pairs: &[(Cell, Cell)]) -> bool {
    let mut used = HashSet::new();
    for &(a, b) in pairs {
        if !used.insert(a) || !used.insert(b) {
            return false;
        }
        if board.mark_at(a).is_some() || board.mark_at(b).is_some() {
            return false;
        }
    }
    let at = |(r, c): (i32, i32)| board.cell_at(r as u8, c as u8).unwrap();
    let n = i32::from(board.size());
    lines(n, i32::from(board.rules().k())).iter().all(|line| {
        let cells: Vec<Cell> = line.iter().map(|&p| at(p)).collect();
        cells.iter().any(|&c| board.mark_at(c) == Some(defender))
            || pairs
                .iter()
                .any(|(a, b)| cells.contains(a) && cells.contains(b))
            // Lines the attacker has no time left to complete may go unpaired.
            || {
                let missing = cells.iter().filter(|&&c| board.mark_at(c).is_none()).count();
                let empties = board.empty_cells().count();
                let attacker_moves = if board.to_move() == defender {
                    empties / 2
                } else {
                    empties.div_ceil(2)
                };
                missing > attacker_moves
            }
    })
}

#[test]
fn every_pairing_found_holds_against_every_attacker() {
    let mut rng = fastrand::Rng::with_seed(21);
    let mut found = 0;
    for (n, k, marks) in [(4, 4, 6), (4, 4, 8), (5, 5, 14), (5, 4, 15), (6, 5, 26)] {
        for _ in 0..30 {
            let board = random_position(rules(n, k), marks, &mut rng);
            for defender in [Mark::X, Mark::O] {
                let Some(pairs) = pairing(&board, defender) else {
                    continue;
                };
                assert!(
                    is_a_pairing(&board, defender, &pairs),
                    "{board} {defender}: {pairs:?}"
                );
                let partner: HashMap<Cell, Cell> =
                    pairs.iter().flat_map(|&(a, b)| [(a, b), (b, a)]).collect();
                assert!(
                    defender_never_loses(&board, defender, &partner, &mut HashSet::new()),
                    "{board} {defender}: {pairs:?}"
                );
                found += 1;
            }
        }
    }
    assert!(found >= 40, "only {found} pairings to check");
}

#[test]
fn five_by_five_with_five_in_a_row_is_paired_from_the_start() {
    let board = Board::new(rules(5, 5));
    for defender in [Mark::X, Mark::O] {
        let pairs = pairing(&board, defender).expect("the classic pairing");
        assert!(is_a_pairing(&board, defender, &pairs), "{pairs:?}");
    }
    // Three in a row leaves no room for pairs.
    assert_eq!(pairing(&Board::default(), Mark::O), None);
}
