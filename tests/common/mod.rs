//! A deliberately naive solver shared by the tests: it looks at every continuation, with no
//! pruning, ordering or symmetry, so it checks the engine without sharing its ideas; and random
//! positions to check it on.
#![allow(dead_code)] // not every test file uses every helper

use std::collections::HashMap;

use tictactoe::ai::search::{Value, mirror};
use tictactoe::rules::classic::{Board, Cell, Mark, Outcome, Rules};

/// A value as a number, written independently of the engine's ordering: quicker wins and
/// slower losses are better.
pub fn naive_score(v: Value) -> i32 {
    match v {
        Value::Win(n) => 100 - n as i32,
        Value::Draw => 0,
        Value::Loss(n) => -(100 - n as i32),
        Value::Estimate(_) | Value::WinRate(_) | Value::AtLeastDraw(_) | Value::AtMostDraw(_) => {
            panic!("the naive search proves every value")
        }
    }
}

/// The value of a move found by looking at every continuation, without pruning or ordering
/// (memoised only to keep the test quick).
pub fn naive_move(board: &Board, cell: Cell, memo: &mut HashMap<Board, Value>) -> Value {
    let mover = board.to_move();
    let child = board.with_move(cell).unwrap();
    match child.outcome() {
        Outcome::Won { winner, .. } if winner == mover => Value::Win(1),
        Outcome::Won { .. } => Value::Loss(1),
        Outcome::Draw => Value::Draw,
        Outcome::InProgress => match naive_position(&child, memo) {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Draw => Value::Draw,
            Value::Loss(n) => Value::Win(n + 1),
            Value::Estimate(_)
            | Value::WinRate(_)
            | Value::AtLeastDraw(_)
            | Value::AtMostDraw(_) => unreachable!("naive values are proven"),
        },
    }
}

/// The best value the side to move can reach.
pub fn naive_position(board: &Board, memo: &mut HashMap<Board, Value>) -> Value {
    if let Some(&v) = memo.get(board) {
        return v;
    }
    let best = board
        .empty_cells()
        .map(|c| naive_move(board, c, memo))
        .max_by_key(|&v| naive_score(v))
        .expect("an unfinished board has an empty cell");
    memo.insert(*board, best);
    best
}

/// A position reached by `marks` random legal moves that leaves the game unfinished.
pub fn random_position(rules: Rules, marks: usize, rng: &mut fastrand::Rng) -> Board {
    loop {
        let mut board = Board::new(rules);
        for _ in 0..marks {
            let moves = board.legal_moves();
            board.play(moves[rng.usize(..moves.len())]).unwrap();
            if board.outcome() != Outcome::InProgress {
                break;
            }
        }
        if board.outcome() == Outcome::InProgress {
            return board;
        }
    }
}

/// A position reached by random moves of the other side, each answered by the mirror side's
/// mirror move, until `empties` cells are left; `None` if the game ended first.
pub fn mirrored_position(
    rules: Rules,
    mirrorer: Mark,
    empties: usize,
    rng: &mut fastrand::Rng,
) -> Option<Board> {
    let mut board = Board::new(rules);
    while board.empty_cells().count() > empties {
        let cell = if board.to_move() == mirrorer {
            mirror(&board).expect("the mirror side always has an answer")
        } else {
            let moves = board.legal_moves();
            moves[rng.usize(..moves.len())]
        };
        board.play(cell).unwrap();
        if board.outcome() != Outcome::InProgress {
            return None;
        }
    }
    Some(board)
}
