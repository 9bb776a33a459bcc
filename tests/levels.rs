//! The ladder of AI levels, by its properties: every level plays only legal moves on every
//! board; from the level documented to see them on, a level takes a win in one and blocks the
//! opponent's win in one; and the first level beats random play and is not perfect.

use std::time::Duration;

use tictactoe::ai::levels::Level;
use tictactoe::ai::player::{Brain, Player};
use tictactoe::rules::classic::{Board, Cell, Mark, Outcome, Rules};
use tictactoe::rules::position::{Position, Variant};

fn variants() -> Vec<Variant> {
    let mut all: Vec<Variant> = (3..=7)
        .map(|n| Variant::from(Rules::new(n, Rules::default_k(n), false).unwrap()))
        .collect();
    all.push(Variant::from(Rules::new(4, 3, true).unwrap()));
    all.push(Variant::Ultimate);
    all
}

#[test]
fn every_level_plays_only_legal_moves_on_every_board() {
    for variant in variants() {
        for level in Level::all() {
            let mut brain =
                Brain::new(Some(u64::from(level.number()))).with_think(Duration::from_millis(5));
            let mut random = fastrand::Rng::with_seed(7);
            let mut position = variant.start();
            while !position.is_over() {
                let legal = position.legal_moves();
                let mv = if position.to_move() == Mark::X {
                    brain.choose(Player::Ai(level), &position).unwrap()
                } else {
                    legal[random.usize(..legal.len())]
                };
                assert!(legal.contains(&mv), "{variant}, {level}: {mv}");
                position.play(mv).unwrap();
            }
        }
    }
}

/// Random positions of classic boards, still in play, after `plies` random moves.
fn positions(plies: u32, count: usize) -> Vec<Board> {
    let mut rng = fastrand::Rng::with_seed(u64::from(plies));
    let mut out = Vec::new();
    while out.len() < count {
        let n = rng.u8(3..=7);
        let mut board = Board::new(Rules::new(n, Rules::default_k(n), false).unwrap());
        for _ in 0..plies {
            let moves = board.legal_moves();
            if board.outcome() != Outcome::InProgress || moves.is_empty() {
                break;
            }
            board.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        if board.outcome() == Outcome::InProgress {
            out.push(board);
        }
    }
    out
}

/// The cells where the side to move, or with `theirs` its opponent, would complete a line.
/// The opponent's are found by letting the side to move mark some other cell first.
fn winning_cells(board: &Board, theirs: bool) -> Vec<Cell> {
    let empty = board.legal_moves();
    if !theirs {
        return empty.into_iter().filter(|&c| wins(board, c)).collect();
    }
    empty
        .iter()
        .copied()
        .filter(|&c| {
            empty
                .iter()
                .filter(|&&p| p != c)
                .any(|&p| wins(&board.with_move(p).unwrap(), c))
        })
        .collect()
}

fn wins(board: &Board, cell: Cell) -> bool {
    board.outcome() == Outcome::InProgress
        && matches!(board.with_move(cell).unwrap().outcome(), Outcome::Won { winner, .. } if winner == board.to_move())
}

#[test]
fn levels_that_see_a_win_in_one_take_it() {
    let mut checked = 0;
    for plies in [4, 6, 8, 10, 14] {
        for board in positions(plies, 60) {
            let wins = winning_cells(&board, false);
            if wins.is_empty() {
                continue;
            }
            checked += 1;
            for level in Level::all().filter(|&l| l >= Level::SEES_WIN) {
                let mut brain = Brain::new(Some(3)).with_think(Duration::from_millis(5));
                let cell = brain.choose_cell(Player::Ai(level), &board).unwrap();
                assert!(wins.contains(&cell), "{level} missed a win on\n{board}");
            }
        }
    }
    assert!(checked > 20, "only {checked} positions with a win");
}

#[test]
fn levels_that_see_a_loss_in_one_block_it() {
    let mut checked = 0;
    for plies in [3, 5, 7, 9, 13] {
        for board in positions(plies, 60) {
            let threats = winning_cells(&board, true);
            if threats.len() != 1 || !winning_cells(&board, false).is_empty() {
                continue;
            }
            checked += 1;
            for level in Level::all().filter(|&l| l >= Level::SEES_BLOCK) {
                let mut brain = Brain::new(Some(5)).with_think(Duration::from_millis(5));
                let cell = brain.choose_cell(Player::Ai(level), &board).unwrap();
                assert_eq!(cell, threats[0], "{level} did not block on\n{board}");
            }
        }
    }
    assert!(checked > 20, "only {checked} positions with one threat");
}

#[test]
fn level_one_beats_random_play_on_three_by_three() {
    let variant = Variant::from(Rules::CLASSIC);
    let mut score = 0.0;
    for game in 0..40u64 {
        let mut brain = Brain::new(Some(game));
        let mut random = fastrand::Rng::with_seed(game);
        let mut position: Position = variant.start();
        let level_is = if game % 2 == 0 { Mark::X } else { Mark::O };
        while !position.is_over() {
            let legal = position.legal_moves();
            let mv = if position.to_move() == level_is {
                brain.choose(Player::EASY, &position).unwrap()
            } else {
                legal[random.usize(..legal.len())]
            };
            position.play(mv).unwrap();
        }
        score += match position.outcome() {
            tictactoe::rules::position::Outcome::Won(m) if m == level_is => 1.0,
            tictactoe::rules::position::Outcome::Won(_) => 0.0,
            _ => 0.5,
        };
    }
    assert!(
        score > 24.0,
        "level 1 scored {score} of 40 against random play"
    );
}
