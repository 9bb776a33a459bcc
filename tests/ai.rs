//! The AI proved by exhaustion and by properties, never by a list of expected moves.

use std::collections::{HashMap, HashSet};

use tictactoe::ai::player::{Brain, Player, medium_candidates};
use tictactoe::ai::search::{Searcher, Value};
use tictactoe::rules::classic::{Board, Cell, Mark, Outcome, Rules};

mod common;
use common::{naive_move, naive_position};

/// Every position reachable from the empty board, finished ones included.
fn reachable(rules: Rules) -> Vec<Board> {
    let mut seen = HashSet::new();
    let mut stack = vec![Board::new(rules)];
    while let Some(b) = stack.pop() {
        if !seen.insert(b) {
            continue;
        }
        for c in b.legal_moves() {
            stack.push(b.with_move(c).unwrap());
        }
    }
    let mut all: Vec<Board> = seen.into_iter().collect();
    all.sort_by_key(Board::to_string);
    all
}

fn check_every_position(rules: Rules) {
    let positions = reachable(rules);
    assert_eq!(positions.len(), 5478, "reachable 3×3 positions");
    let mut memo = HashMap::new();
    let mut shared = Searcher::new();
    let mut checked = 0;
    for board in positions
        .iter()
        .filter(|b| b.outcome() == Outcome::InProgress)
    {
        let expected = naive_position(board, &mut memo);
        assert_eq!(shared.value(board), Some(expected), "{board}");
        for (cell, value) in shared.analyze(board) {
            assert_eq!(
                value,
                naive_move(board, cell, &mut memo),
                "{board} move {cell}"
            );
        }
        // A fresh table must agree with one warmed by every other position.
        let (cell, value) = Searcher::new().best_move(board).unwrap();
        assert_eq!(value, expected, "{board} best move {cell}");
        assert_eq!(
            naive_move(board, cell, &mut memo),
            expected,
            "{board} best move {cell}"
        );
        checked += 1;
    }
    assert_eq!(checked, 5478 - 958, "958 positions are finished games");
}

#[test]
fn engine_agrees_with_naive_minimax_on_every_position() {
    check_every_position(Rules::CLASSIC);
}

#[test]
fn engine_agrees_with_naive_minimax_on_every_misere_position() {
    check_every_position(Rules::new(3, 3, true).unwrap());
}

#[test]
fn perfect_play_is_a_draw() {
    assert_eq!(Searcher::new().value(&Board::default()), Some(Value::Draw));
}

/// Plays `ai` as `ai_mark` against every possible sequence of opponent moves; returns the
/// number of finished games and asserts the opponent wins none.
fn explore(board: Board, ai: Player, ai_mark: Mark, brain: &mut Brain) -> usize {
    match board.outcome() {
        Outcome::Won { winner, .. } => {
            assert_eq!(winner, ai_mark, "{ai} as {ai_mark} lost: {board}");
            1
        }
        Outcome::Draw => 1,
        Outcome::InProgress if board.to_move() == ai_mark => {
            let cell = brain.choose_cell(ai, &board).unwrap();
            explore(board.with_move(cell).unwrap(), ai, ai_mark, brain)
        }
        Outcome::InProgress => board
            .legal_moves()
            .into_iter()
            .map(|c| explore(board.with_move(c).unwrap(), ai, ai_mark, brain))
            .sum(),
    }
}

#[test]
fn hard_never_loses_as_x_or_as_o() {
    for seed in 0..4 {
        for mark in [Mark::X, Mark::O] {
            let mut brain = Brain::new(Some(seed));
            let games = explore(Board::default(), Player::HARD, mark, &mut brain);
            assert!(games > 50, "{mark}: only {games} games explored");
        }
    }
}

#[test]
fn hard_against_hard_always_draws() {
    for seed in 0..20 {
        let mut brain = Brain::new(Some(seed));
        let mut board = Board::default();
        while let Some(cell) = brain.choose_cell(Player::HARD, &board) {
            board.play(cell).unwrap();
        }
        assert_eq!(board.outcome(), Outcome::Draw, "seed {seed}: {board}");
    }
}

#[test]
fn hard_varies_its_games() {
    let games: HashSet<String> = (0..20)
        .map(|seed| {
            let mut brain = Brain::new(Some(seed));
            let mut board = Board::default();
            while let Some(cell) = brain.choose_cell(Player::HARD, &board) {
                board.play(cell).unwrap();
            }
            board.to_string()
        })
        .collect();
    assert!(games.len() > 3, "only {} different games", games.len());
}

#[test]
fn same_seed_same_game() {
    let play = |seed| {
        let mut brain = Brain::new(Some(seed));
        let mut board = Board::default();
        let mut moves = Vec::new();
        while let Some(cell) = brain.choose_cell(
            if moves.len() % 2 == 0 {
                Player::HARD
            } else {
                Player::EASY
            },
            &board,
        ) {
            board.play(cell).unwrap();
            moves.push(cell);
        }
        moves
    };
    assert_eq!(play(7), play(7));
}

/// The eight lines of the 3×3 board by cell index, written out independently of the engine.
const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The empty cells that would complete a line for `mark`, whoever is to move.
fn finishing_cells(board: &Board, mark: Mark) -> Vec<Cell> {
    board
        .legal_moves()
        .into_iter()
        .filter(|&c| {
            let bits = board.bits(mark) | (1 << c.index());
            LINES
                .iter()
                .any(|line| line.iter().all(|&i| bits & (1 << i) != 0))
        })
        .collect()
}

#[test]
fn medium_takes_a_win_in_one_and_blocks_a_loss_in_one() {
    let (mut wins, mut blocks) = (0, 0);
    for board in reachable(Rules::CLASSIC) {
        if board.outcome() != Outcome::InProgress {
            continue;
        }
        let me = board.to_move();
        let candidates = medium_candidates(&board);
        assert!(!candidates.is_empty());
        let my_wins = finishing_cells(&board, me);
        let their_wins = finishing_cells(&board, me.other());
        if !my_wins.is_empty() {
            wins += 1;
            assert!(
                candidates.iter().all(|c| my_wins.contains(c)),
                "{board}: {candidates:?}"
            );
        } else if !their_wins.is_empty() {
            blocks += 1;
            assert!(
                candidates.iter().all(|c| their_wins.contains(c)),
                "{board}: {candidates:?}"
            );
        }
    }
    assert!(wins > 100 && blocks > 100, "{wins} {blocks}");
}

#[test]
fn medium_can_be_beaten_by_a_fork() {
    let board = |s: &str| -> Board { s.parse().unwrap_or_else(|e| panic!("{s}: {e}")) };
    let cell = |b: &Board, d| b.numpad(d).unwrap();
    // X takes a corner; medium answers in the centre.
    let corner = board("X../.../...");
    assert_eq!(medium_candidates(&corner), [cell(&corner, 5)]);
    // X takes the opposite corner. Among medium's equally liked replies is a corner.
    let opposite = board("X../.O./..X");
    assert!(medium_candidates(&opposite).contains(&cell(&opposite, 9)));
    // After O on 9 X must block on 1, which threatens both 4 and 2: whatever medium replies,
    // X completes a line.
    let fork = board("X.O/.O./X.X");
    let replies = medium_candidates(&fork);
    assert!(!replies.is_empty());
    for reply in replies {
        let mut b = fork;
        b.play(reply).unwrap();
        let finish = finishing_cells(&b, Mark::X);
        assert_eq!(finish.len(), 1, "{b}");
        b.play(finish[0]).unwrap();
        assert!(
            matches!(
                b.outcome(),
                Outcome::Won {
                    winner: Mark::X,
                    ..
                }
            ),
            "{b}"
        );
    }
    // The perfect AI would not have lost: the position after X's opposite corner is a draw,
    // and the corner reply medium may pick loses, X completing a line on the fourth ply.
    let mut searcher = Searcher::new();
    assert_eq!(searcher.value(&opposite), Some(Value::Draw));
    assert_eq!(
        searcher.move_value(&opposite, cell(&opposite, 9), None),
        Value::Loss(4)
    );
}

#[test]
fn medium_loses_some_games_hard_never_does() {
    let mut medium_losses = 0;
    for seed in 0..50 {
        let mut brain = Brain::new(Some(seed));
        let mut board = Board::default();
        while board.outcome() == Outcome::InProgress {
            let player = if board.to_move() == Mark::X {
                Player::HARD
            } else {
                Player::MEDIUM
            };
            let cell = brain.choose_cell(player, &board).unwrap();
            board.play(cell).unwrap();
        }
        if matches!(
            board.outcome(),
            Outcome::Won {
                winner: Mark::X,
                ..
            }
        ) {
            medium_losses += 1;
        }
        assert!(!matches!(
            board.outcome(),
            Outcome::Won {
                winner: Mark::O,
                ..
            }
        ));
    }
    assert!(medium_losses > 0, "medium never lost to hard in 50 games");
}
