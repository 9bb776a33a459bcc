//! Search benchmarks, with the textbook minimax as the baseline in the same run.
//!
//! `cargo bench --bench search` prints each median; the ratio of `textbook/empty` to
//! `negamax/best_move_empty` is the speed-up of the engine over the textbook algorithm. The
//! `larger` group proves 4×4 and 5×5 boards with four in a row drawn, from a fresh searcher;
//! the `proofs` group proves the five-in-a-row boards drawn (pairing strategies and the
//! moves they rule out) and 6×6 with four in a row won; the `misere` group proves misère
//! boards (mirror strategies and misère pairings); the `threads` group proves three of them
//! on one thread and on two.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use tictactoe::ai::search::Searcher;
use tictactoe::rules::classic::{Board, Rules};

/// The algorithm as textbooks and tutorials write it: a grid of characters, a recursive
/// minimax with no pruning, +10 / -10 / 0 scores, and a loop over the empty cells at the root.
mod textbook {
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

    fn winner(grid: &[char; 9]) -> Option<char> {
        LINES.iter().find_map(|&[a, b, c]| {
            (grid[a] != ' ' && grid[a] == grid[b] && grid[b] == grid[c]).then_some(grid[a])
        })
    }

    fn minimax(grid: &mut [char; 9], x_to_move: bool) -> i32 {
        match winner(grid) {
            Some('X') => return 10,
            Some(_) => return -10,
            None => {}
        }
        if grid.iter().all(|&c| c != ' ') {
            return 0;
        }
        let mut best = if x_to_move { i32::MIN } else { i32::MAX };
        for i in 0..9 {
            if grid[i] == ' ' {
                grid[i] = if x_to_move { 'X' } else { 'O' };
                let score = minimax(grid, !x_to_move);
                grid[i] = ' ';
                best = if x_to_move {
                    best.max(score)
                } else {
                    best.min(score)
                };
            }
        }
        best
    }

    /// The best cell for X to play, by index.
    pub fn best_move(grid: &mut [char; 9]) -> usize {
        let mut best = (i32::MIN, 0);
        for i in 0..9 {
            if grid[i] == ' ' {
                grid[i] = 'X';
                let score = minimax(grid, false);
                grid[i] = ' ';
                if score > best.0 {
                    best = (score, i);
                }
            }
        }
        best.1
    }
}

/// The textbook algorithm and the engine on the 3×3 board.
fn three_by_three(c: &mut Criterion) {
    let empty = Board::default();
    let corner: Board = "X../.../...".parse().unwrap();
    let centre: Board = ".../.X./...".parse().unwrap();

    let mut group = c.benchmark_group("textbook");
    group.sample_size(20);
    group.bench_function("empty", |b| {
        b.iter(|| textbook::best_move(black_box(&mut [' '; 9])));
    });
    group.finish();

    let mut group = c.benchmark_group("negamax");
    group.bench_function("best_move_empty", |b| {
        b.iter(|| Searcher::new().best_move(black_box(&empty)));
    });
    group.bench_function("best_move_after_corner", |b| {
        b.iter(|| Searcher::new().best_move(black_box(&corner)));
    });
    group.bench_function("best_move_after_centre", |b| {
        b.iter(|| Searcher::new().best_move(black_box(&centre)));
    });
    group.bench_function("analyze_empty", |b| {
        b.iter(|| Searcher::new().analyze(black_box(&empty)));
    });
    group.finish();
}

fn rules(n: u8, k: u8) -> Rules {
    Rules::new(n, k, false).unwrap()
}

fn misere(n: u8, k: u8) -> Board {
    Board::new(Rules::new(n, k, true).unwrap())
}

/// 5×5 misère with four after X takes the centre (the default 5×5 misère board, where X then
/// holds the mirror).
fn misere_after_centre() -> Board {
    let mut centre = misere(5, 4);
    centre.play(centre.cell_at(2, 2).unwrap()).unwrap();
    centre
}

/// 4×4 and 5×5 with four in a row proven drawn, from a fresh searcher.
fn larger(c: &mut Criterion) {
    let four = Board::new(rules(4, 4));
    let five = Board::new(rules(5, 4));
    let mut group = c.benchmark_group("larger");
    group.sample_size(10);
    group.bench_function("4x4_k4_prove_empty", |b| {
        b.iter(|| Searcher::new().best_move(black_box(&four)));
    });
    group.bench_function("4x4_k4_every_first_move", |b| {
        b.iter(|| Searcher::new().analyze(black_box(&four)));
    });
    group.bench_function("5x5_k4_prove_empty", |b| {
        b.iter(|| Searcher::new().best_move(black_box(&five)));
    });
    group.finish();
}

/// The five-in-a-row boards proven drawn and 6×6 with four proven won.
fn proofs(c: &mut Criterion) {
    let mut group = c.benchmark_group("proofs");
    group.sample_size(10);
    for (n, k) in [(5, 5), (6, 5), (7, 5), (6, 4)] {
        let board = Board::new(rules(n, k));
        group.bench_function(format!("{n}x{n}_k{k}_prove_empty"), |b| {
            b.iter(|| Searcher::new().best_move(black_box(&board)));
        });
    }
    group.finish();
}

/// Misère boards proven from the empty board (mirror strategies and pairings of a side's own
/// lines), and 5×5 with four after the centre.
fn misere_proofs(c: &mut Criterion) {
    let centre = misere_after_centre();
    let mut group = c.benchmark_group("misere");
    group.sample_size(10);
    for (n, k) in [(3, 3), (4, 4), (5, 5), (6, 6)] {
        let board = misere(n, k);
        group.bench_function(format!("{n}x{n}_k{k}_prove_empty"), |b| {
            b.iter(|| Searcher::new().best_move(black_box(&board)));
        });
    }
    group.bench_function("5x5_k4_prove_after_centre", |b| {
        b.iter(|| Searcher::new().best_move(black_box(&centre)));
    });
    group.finish();
}

/// The same proofs on one thread and on two sharing a table, side by side (a fresh searcher
/// each time: on two threads that includes allocating the whole table).
fn threads(c: &mut Criterion) {
    let mut group = c.benchmark_group("threads");
    group.sample_size(10);
    let boards = [
        ("6x6_k4_prove_empty", Board::new(rules(6, 4))),
        ("7x7_k5_prove_empty", Board::new(rules(7, 5))),
        ("5x5_k4_misere_prove_after_centre", misere_after_centre()),
    ];
    for (name, board) in boards {
        for threads in [1, 2] {
            group.bench_function(format!("{name}_{threads}"), |b| {
                b.iter(|| {
                    let mut searcher = Searcher::new();
                    searcher.set_threads(threads);
                    searcher.best_move(black_box(&board))
                });
            });
        }
    }
    group.finish();
}

criterion_group!(
    benches,
    three_by_three,
    larger,
    proofs,
    misere_proofs,
    threads
);
criterion_main!(benches);
