//! Proofs on the large boards: the empty 7×7 board with five in a row is a draw, `hard`
//! converts a win a mistake hands it, and it holds the draw against a `hard` player with ten
//! times its budget.

use std::time::Duration;

use tictactoe::ai::player::{Brain, Player};
use tictactoe::ai::search::{Searcher, Value};
use tictactoe::rules::classic::{Board, Mark, Outcome, Rules};

fn rules(n: u8, k: u8) -> Rules {
    Rules::new(n, k, false).unwrap()
}

/// Plays `board` out: `brains[0]` moves for X, `brains[1]` for O, both as `hard`.
fn play_out(board: &mut Board, brains: &mut [Brain; 2]) {
    while board.outcome() == Outcome::InProgress {
        let brain = &mut brains[usize::from(board.to_move() == Mark::O)];
        let cell = brain.choose_cell(Player::HARD, board).unwrap();
        board.play(cell).unwrap();
    }
}

fn lost(board: &Board, mark: Mark) -> bool {
    matches!(board.outcome(), Outcome::Won { winner, .. } if winner != mark)
}

#[test]
fn seven_by_seven_with_five_in_a_row_is_a_draw() {
    let board = Board::new(rules(7, 5));
    assert_eq!(Searcher::new().value(&board), Some(Value::Draw));
}

#[test]
fn hard_converts_a_win_handed_to_it() {
    // X: c4 d4 e4 and d3 d5; O wasted its moves in the corners. X to move wins: a four with
    // both ends open cannot be blocked.
    let board = Board::parse_with(
        "O.....O/......./...X.../..XXX../...X.../O....../O.....O",
        Some(5),
        false,
    )
    .unwrap();
    let value = Searcher::new()
        .think(&board, Some(Duration::from_millis(200)))
        .unwrap()
        .value;
    assert!(matches!(value, Value::Win(_)), "{value}");
    for seed in 0..2 {
        let mut game = board;
        let mut brains = [
            Brain::new(Some(seed)).with_think(Duration::from_millis(50)),
            Brain::new(Some(seed)).with_think(Duration::from_millis(500)),
        ];
        play_out(&mut game, &mut brains);
        assert!(lost(&game, Mark::O), "seed {seed}: {game}");
    }
}

/// `hard` with `budget` against `hard` with ten times as much, from each opening in
/// `openings` (cells played first), on each side.
fn hard_holds_against_ten_times_the_budget(n: u8, openings: &[&[&str]], budget: Duration) {
    for (i, opening) in openings.iter().enumerate() {
        for weak in [Mark::X, Mark::O] {
            let mut board = Board::new(rules(n, 5));
            for cell in *opening {
                board.play(board.parse_cell(cell).unwrap()).unwrap();
            }
            let seed = i as u64;
            let weak_brain = Brain::new(Some(seed)).with_think(budget);
            let strong_brain = Brain::new(Some(seed)).with_think(budget * 10);
            let mut brains = if weak == Mark::X {
                [weak_brain, strong_brain]
            } else {
                [strong_brain, weak_brain]
            };
            play_out(&mut board, &mut brains);
            assert!(
                !lost(&board, weak),
                "{n}×{n} {opening:?}, weak {weak}: {board}"
            );
        }
    }
}

#[test]
fn hard_holds_the_draw_on_six_and_seven_against_a_stronger_hard() {
    let budget = Duration::from_millis(20);
    hard_holds_against_ten_times_the_budget(6, &[&["c3"]], budget);
    hard_holds_against_ten_times_the_budget(7, &[&["d4"]], budget);
}

/// The long version: `cargo test --release --test proofs -- --ignored`.
#[test]
#[ignore = "about 40 s in a release build; run with --ignored"]
fn hard_holds_the_draw_from_many_openings_against_a_stronger_hard() {
    let budget = Duration::from_millis(100);
    let six: &[&[&str]] = &[
        &["a1"],
        &["c3"],
        &["b2", "c3"],
        &["f6", "a1"],
        &["c4", "d3"],
    ];
    let seven: &[&[&str]] = &[
        &["a1"],
        &["d4"],
        &["c3", "d4"],
        &["d4", "e5"],
        &["b6", "f2"],
    ];
    hard_holds_against_ten_times_the_budget(6, six, budget);
    hard_holds_against_ten_times_the_budget(7, seven, budget);
}
