//! The solver on boards larger than 3×3: agreement with independent searches, symmetry,
//! misère rules, known results, and the `hard` player's play.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use tictactoe::ai::player::{Brain, Player};
use tictactoe::ai::search::{Searcher, Value};
use tictactoe::rules::classic::{Board, Cell, Mark, Outcome, Rules};

fn rules(n: u8, k: u8, misere: bool) -> Rules {
    Rules::new(n, k, misere).unwrap()
}

/// A position reached by `marks` random legal moves that leaves the game unfinished.
fn random_position(rules: Rules, marks: usize, rng: &mut fastrand::Rng) -> Board {
    loop {
        let mut board = Board::new(rules);
        for _ in 0..marks {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        if board.outcome() == Outcome::InProgress {
            return board;
        }
    }
}

/// Numbers for values, written independently of the engine's ordering.
fn rank(v: Value) -> i32 {
    match v {
        Value::Win(n) => 1000 - n as i32,
        Value::Draw => 0,
        Value::Loss(n) => -(1000 - n as i32),
        Value::Estimate(_) | Value::WinRate(_) | Value::AtLeastDraw(_) | Value::AtMostDraw(_) => {
            panic!("reference searches prove every value")
        }
    }
}

fn after(board: &Board, cell: Cell, child: impl FnOnce(&Board) -> Value) -> Value {
    let mover = board.to_move();
    let next = board.with_move(cell).unwrap();
    match next.outcome() {
        Outcome::Won { winner, .. } if winner == mover => Value::Win(1),
        Outcome::Won { .. } => Value::Loss(1),
        Outcome::Draw => Value::Draw,
        Outcome::InProgress => match child(&next) {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            v => v,
        },
    }
}

/// Memoised minimax over every move, no pruning.
fn memo_minimax(board: &Board, memo: &mut HashMap<Board, Value>) -> Value {
    if let Some(&v) = memo.get(board) {
        return v;
    }
    let v = board
        .empty_cells()
        .map(|c| after(board, c, |b| memo_minimax(b, memo)))
        .max_by_key(|&v| rank(v))
        .unwrap();
    memo.insert(*board, v);
    v
}

/// Plain alpha-beta over ranks, no table, cells in index order.
fn alpha_beta(board: &Board, mut alpha: i32, beta: i32) -> i32 {
    let mut best = i32::MIN;
    for cell in board.empty_cells() {
        let score = rank(after(board, cell, |b| {
            // The child's value, from a search whose window is this one's, mirrored.
            let r = alpha_beta(b, -beta.saturating_add(1), -alpha.saturating_sub(1));
            match r {
                r if r > 500 => Value::Win((1000 - r) as u32),
                r if r < -500 => Value::Loss((1000 + r) as u32),
                _ => Value::Draw,
            }
        }));
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

#[test]
fn four_by_four_agrees_with_memoised_minimax() {
    let mut rng = fastrand::Rng::with_seed(44);
    let mut memo = HashMap::new();
    let mut searcher = Searcher::new();
    for i in 0..300 {
        let k = if i % 2 == 0 { 4 } else { 3 };
        let board = random_position(rules(4, k, false), 6 + i % 7, &mut rng);
        let expected = memo_minimax(&board, &mut memo);
        assert_eq!(searcher.value(&board), Some(expected), "{board} k={k}");
    }
}

#[test]
fn misere_four_by_four_agrees_with_memoised_minimax() {
    let mut rng = fastrand::Rng::with_seed(45);
    let mut memo = HashMap::new();
    let mut searcher = Searcher::new();
    for i in 0..120 {
        let board = random_position(rules(4, 3, true), 7 + i % 6, &mut rng);
        let expected = memo_minimax(&board, &mut memo);
        assert_eq!(searcher.value(&board), Some(expected), "{board} misère");
        for (cell, value) in searcher.analyze(&board) {
            assert_eq!(
                value,
                after(&board, cell, |b| memo_minimax(b, &mut memo)),
                "{board} {cell}"
            );
        }
    }
}

#[test]
fn five_by_five_agrees_with_plain_alpha_beta() {
    let mut rng = fastrand::Rng::with_seed(55);
    let mut searcher = Searcher::new();
    for i in 0..16 {
        // 12 to 9 empty cells.
        let board = random_position(rules(5, 4, false), 13 + i % 4, &mut rng);
        let value = searcher.value(&board).unwrap();
        // A full window gives the exact value, distance included.
        assert_eq!(
            rank(value),
            alpha_beta(&board, -2000, 2000),
            "{board}: {value}"
        );
    }
}

#[test]
fn five_in_a_row_boards_agree_with_memoised_minimax_near_the_end() {
    // Pairing strategies and the proof machinery act on these boards; a search with none of
    // them must agree, distance included, on positions with 10 to 12 empty cells.
    let mut rng = fastrand::Rng::with_seed(57);
    let mut searcher = Searcher::new();
    for (n, positions) in [(5u8, 8usize), (6, 6), (7, 6)] {
        let cells = usize::from(n * n);
        for i in 0..positions {
            let board = random_position(rules(n, 5, false), cells - 10 - i % 3, &mut rng);
            let expected = memo_minimax(&board, &mut HashMap::new());
            assert_eq!(searcher.value(&board), Some(expected), "{board}");
        }
    }
}

/// The eight rotations and reflections of a board's notation.
fn images(notation: &str) -> Vec<String> {
    let rows: Vec<Vec<char>> = notation.split('/').map(|r| r.chars().collect()).collect();
    let n = rows.len();
    let mut out = Vec::new();
    for transpose in [false, true] {
        for flip_r in [false, true] {
            for flip_c in [false, true] {
                let cell = |r: usize, c: usize| {
                    let (r, c) = if transpose { (c, r) } else { (r, c) };
                    let r = if flip_r { n - 1 - r } else { r };
                    let c = if flip_c { n - 1 - c } else { c };
                    rows[r][c]
                };
                let image: Vec<String> = (0..n)
                    .map(|r| (0..n).map(|c| cell(r, c)).collect())
                    .collect();
                out.push(image.join("/"));
            }
        }
    }
    out
}

#[test]
fn symmetric_images_have_the_same_value() {
    let mut rng = fastrand::Rng::with_seed(8);
    for (n, k, marks) in [(4, 3, 3), (4, 4, 4), (5, 4, 9), (3, 3, 2)] {
        for _ in 0..6 {
            let board = random_position(rules(n, k, false), marks, &mut rng);
            let value = Searcher::new().value(&board);
            for image in images(&board.to_string()) {
                let twin = Board::parse_with(&image, Some(k), false).unwrap();
                assert_eq!(Searcher::new().value(&twin), value, "{board} vs {twin}");
            }
        }
    }
}

#[test]
fn known_results_come_out_right() {
    let value = |n, k| {
        Searcher::new()
            .value(&Board::new(rules(n, k, false)))
            .unwrap()
    };
    assert!(
        matches!(value(4, 3), Value::Win(_)),
        "4×4, three in a row: X wins"
    );
    assert!(
        matches!(value(5, 3), Value::Win(_)),
        "5×5, three in a row: X wins"
    );
    assert_eq!(value(4, 4), Value::Draw, "4×4, four in a row");
    assert_eq!(value(5, 4), Value::Draw, "5×5, four in a row");
    assert_eq!(value(5, 5), Value::Draw, "5×5, five in a row");
    assert_eq!(value(6, 5), Value::Draw, "6×6, five in a row");
}

fn play_out(board: &mut Board, brain: &mut Brain, players: [Player; 2], rng: &mut fastrand::Rng) {
    while board.outcome() == Outcome::InProgress {
        let player = players[usize::from(board.to_move() == Mark::O)];
        let cell = if player == Player::Human {
            let moves = board.legal_moves();
            moves[rng.usize(..moves.len())]
        } else {
            brain.choose_cell(player, board).unwrap()
        };
        board.play(cell).unwrap();
    }
}

#[test]
fn hard_against_hard_draws_on_four_by_four() {
    for seed in 0..3 {
        let mut brain = Brain::new(Some(seed)).with_think(Duration::from_millis(500));
        let mut board = Board::new(rules(4, 4, false));
        play_out(
            &mut board,
            &mut brain,
            [Player::HARD, Player::HARD],
            &mut fastrand::Rng::new(),
        );
        assert_eq!(board.outcome(), Outcome::Draw, "seed {seed}: {board}");
    }
}

#[test]
fn hard_never_loses_on_four_by_four_after_any_two_opening_replies() {
    // The opponent tries every first and second move; after that it plays at random.
    let mut rng = fastrand::Rng::with_seed(4);
    let mut brain = Brain::new(Some(1));
    let mut games = 0;
    for hard in [Mark::X, Mark::O] {
        let players = if hard == Mark::X {
            [Player::HARD, Player::Human]
        } else {
            [Player::Human, Player::HARD]
        };
        let empty = Board::new(rules(4, 4, false));
        let mut openings = vec![empty];
        for _ in 0..2 {
            let mut next = Vec::new();
            for mut board in openings {
                if board.to_move() == hard {
                    let cell = brain.choose_cell(Player::HARD, &board).unwrap();
                    board.play(cell).unwrap();
                }
                for cell in board.legal_moves() {
                    next.push(board.with_move(cell).unwrap());
                }
            }
            openings = next;
        }
        for mut board in openings {
            play_out(&mut board, &mut brain, players, &mut rng);
            let lost = matches!(board.outcome(), Outcome::Won { winner, .. } if winner != hard);
            assert!(!lost, "hard as {hard} lost: {board}");
            games += 1;
        }
    }
    assert!(games > 400, "{games} games");
}

/// Every line of `k` cells on an `n`×`n` board as bit masks (bit `row * n + col`), written
/// independently of the engine.
fn lines(n: usize, k: usize) -> Vec<u64> {
    let mut out = Vec::new();
    for (dr, dc) in [(0i64, 1i64), (1, 0), (1, 1), (1, -1)] {
        for r in 0..n as i64 {
            for c in 0..n as i64 {
                let cells: Vec<(i64, i64)> =
                    (0..k as i64).map(|i| (r + dr * i, c + dc * i)).collect();
                if cells
                    .iter()
                    .all(|&(r, c)| (0..n as i64).contains(&r) && (0..n as i64).contains(&c))
                {
                    out.push(cells.iter().map(|&(r, c)| 1u64 << (r * n as i64 + c)).sum());
                }
            }
        }
    }
    out
}

/// The empty cells where `mark` would complete a line, whoever is to move.
fn completing(board: &Board, mark: Mark) -> Vec<Cell> {
    let all = lines(usize::from(board.size()), usize::from(board.rules().k()));
    board
        .empty_cells()
        .filter(|&c| {
            let bits = board.bits(mark) | (1 << c.index());
            all.iter().any(|&l| l & !bits == 0)
        })
        .collect()
}

#[test]
fn hard_takes_a_win_in_one_and_blocks_a_loss_in_one_on_every_size() {
    let mut rng = fastrand::Rng::with_seed(3);
    for n in 3..=7 {
        let rules = rules(n, Rules::default_k(n), false);
        let (mut wins, mut blocks) = (0, 0);
        let mut brain = Brain::new(Some(2)).with_think(Duration::from_millis(20));
        for _ in 0..400 {
            if wins >= 5 && blocks >= 5 {
                break;
            }
            let marks = rng.usize(4..usize::from(n * n) - 2);
            let board = random_position(rules, marks, &mut rng);
            let me = board.to_move();
            let my_wins = completing(&board, me);
            let their_wins = completing(&board, me.other());
            if !my_wins.is_empty() && wins < 5 {
                let cell = brain.choose_cell(Player::HARD, &board).unwrap();
                assert!(
                    my_wins.contains(&cell),
                    "{n}×{n} {board}: played {cell}, wins at {my_wins:?}"
                );
                wins += 1;
            } else if my_wins.is_empty() && their_wins.len() == 1 && blocks < 5 {
                let cell = brain.choose_cell(Player::HARD, &board).unwrap();
                assert_eq!(cell, their_wins[0], "{n}×{n} {board}: must block");
                blocks += 1;
            }
        }
        assert!(
            wins >= 5 && blocks >= 5,
            "{n}×{n}: only {wins} wins and {blocks} blocks found"
        );
    }
}

#[test]
fn a_hard_move_keeps_to_its_budget() {
    let board = Board::new(rules(7, 5, false));
    let mut brain = Brain::new(Some(1)).with_think(Duration::from_millis(100));
    let start = Instant::now();
    let cell = brain.choose_cell(Player::HARD, &board);
    assert!(cell.is_some());
    // Generous: the budget is 100 ms; the check is that the search stops, not its speed.
    assert!(
        start.elapsed() < Duration::from_secs(2),
        "{:?}",
        start.elapsed()
    );
}
