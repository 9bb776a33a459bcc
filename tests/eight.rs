//! 8×8 with five in a row, the board the proof search takes from Gomoku's: every value
//! `analyze` reports as proven (a win, a draw, a loss, or a bound) agrees with a minimax
//! written from the rules alone (`play`, `legal_moves`, the outcome) on random endgames, and
//! the search settles most of them.

use std::collections::HashMap;
use std::time::Duration;

use tictactoe::ai::player::Brain;
use tictactoe::ai::search::Value;
use tictactoe::rules::gomoku::Gomoku;
use tictactoe::rules::position::Position;

/// The outcome for the side to move with best play: 1 a win, 0 a draw, -1 a loss.
fn minimax(board: &Gomoku, seen: &mut HashMap<Gomoku, i8>) -> i8 {
    if let Some(&known) = seen.get(board) {
        return known;
    }
    let mut best = -1;
    for cell in board.legal_moves() {
        let mut next = *board;
        next.play(cell).unwrap();
        let value = if next.winner().is_some() {
            1
        } else if next.is_over() {
            0
        } else {
            -minimax(&next, seen)
        };
        best = best.max(value);
        if best == 1 {
            break;
        }
    }
    seen.insert(*board, best);
    best
}

/// Whether the side to move, or the other side were it to move, makes five at once.
fn five_at_hand(board: &Gomoku) -> bool {
    let passed = |board: &Gomoku| {
        // The other side's threats: as if the side to move had played a stone elsewhere,
        // which only ever adds to them; checked point by point.
        board.legal_moves().into_iter().any(|c| {
            let mut next = *board;
            next.play(c).unwrap();
            next.winner().is_some()
        })
    };
    let mut other = *board;
    let swap = other.legal_moves();
    passed(board)
        || swap.iter().any(|&c| {
            other = *board;
            other.play(c).unwrap();
            !other.is_over() && passed(&other)
        })
}

/// Positions of random games on 8×8 with `empty` points left, the game not over and no five
/// at hand for either side.
fn endgames(seed: u64, count: usize, empty: usize) -> Vec<Gomoku> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let mut board = Gomoku::with_size(8).unwrap();
        while board.legal_moves().len() > empty && !board.is_over() {
            let moves = board.legal_moves();
            board.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        if !board.is_over() && !five_at_hand(&board) {
            found.push(board);
        }
    }
    found
}

#[test]
fn every_value_analyze_proves_on_eight_by_eight_agrees_with_a_minimax_from_the_rules() {
    let mut brain = Brain::new(Some(1)).with_think(Duration::from_millis(200));
    let (mut settled, mut total) = (0, 0);
    for board in endgames(8, 60, 11) {
        let truth = minimax(&board, &mut HashMap::new());
        let analysis = brain.analyze(&Position::Gomoku(board), true);
        let (value, _) = analysis.head.expect("a game in progress has a best move");
        total += 1;
        let agrees = match value {
            Value::Win(_) => truth == 1,
            Value::Draw => truth == 0,
            Value::Loss(_) => truth == -1,
            Value::AtLeastDraw(_) => truth >= 0,
            Value::AtMostDraw(_) => truth <= 0,
            _ => continue,
        };
        settled += 1;
        assert!(agrees, "{value:?} where the rules give {truth}:\n{board}");
    }
    assert!(
        settled * 10 >= total * 9,
        "{settled} of {total} settled within the budget"
    );
}
