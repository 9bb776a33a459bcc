//! Gomoku benchmarks: the threat engine on 15×15, one thread.
//!
//! `cargo bench --bench gomoku`: `threats/place_remove` puts a stone down and takes it back
//! on a point in 20 windows (the windows' counts kept both ways; throughput in stones);
//! `threats/new` reads a 22-stone position into its windows; `vcf/win_in_5` finds the
//! two-four victory of the guide's example (`docs/rules.md#gomoku`); `vcf/none_midgame` finds
//! that X has no victory by fours in that 22-stone position, whose fours lead nowhere
//! (throughput in positions looked at, the search's rate); `hard/midgame` is `hard`'s whole
//! move there at `--think 100`, seeded, so a budget of positions, not of time;
//! `puzzles/win_in_N` finds the shortest victory by fours of a puzzle of
//! `tests/data/vcf_puzzles.txt` won in N plies (3 to 15). `five/play_undo`,
//! `five/midgame_depth_6` and `five_puzzles/win_in_N` are the alpha-beta search's: see
//! [`five`] below. `vct_puzzles/puzzle_N` is `hard`'s move on a puzzle of
//! `tests/data/vct_puzzles.txt`, won by one threat that no reply stops and by no fours.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tictactoe::ai::five::Five;
use tictactoe::ai::five::board::Board;
use tictactoe::ai::five::patterns::Patterns;
use tictactoe::ai::player::{Brain, Player};
use tictactoe::ai::search::Meter;
use tictactoe::ai::threats::Threats;
use tictactoe::rules::gomoku::Gomoku;
use tictactoe::rules::position::Position;

/// The position after `moves`.
fn position(moves: &[&str]) -> Gomoku {
    let mut board = Gomoku::new();
    for m in moves {
        board
            .play(board.parse_cell(m).expect("a point"))
            .expect("a legal move");
    }
    board
}

/// The guide's example: X wins in 5 with e1, e2 forced, then f1.
const WIN_IN_5: [&str; 16] = [
    "c1", "b1", "d1", "e6", "e3", "f6", "e4", "a15", "e5", "o15", "f3", "o1", "f4", "a10", "f5",
    "o10",
];

/// The first 22 stones of a game of level 5 against itself (`--seed 5`), X to move: X has
/// fours to play but no victory by them.
const MIDGAME: [&str; 22] = [
    "h8", "g7", "h7", "h6", "f8", "g8", "g9", "h10", "f10", "i7", "e11", "d12", "f9", "f7", "f12",
    "f11", "h9", "i9", "e9", "d9", "d10", "g13",
];

/// The positions a search for X's victory by fours looks at in `board`.
fn looked_at(board: &Gomoku) -> u64 {
    let mut budget = 40_000;
    Threats::new(board).vcf(0, 12, &mut budget);
    u64::from(40_000 - budget)
}

/// Puzzles of each length in `tests/data/vcf_puzzles.txt`.
const PUZZLES_EACH: usize = 3;

/// The puzzles: X to move wins by `n` fours and no fewer.
fn puzzles() -> Vec<(u32, Gomoku)> {
    let text = include_str!("../tests/data/vcf_puzzles.txt");
    let parse = |line: &str| {
        let (n, board) = line.split_once(' ').expect("N and a position");
        (
            n.parse().expect("a number"),
            board.parse().expect("a position"),
        )
    };
    text.lines().map(parse).collect()
}

fn gomoku(c: &mut Criterion) {
    let midgame = position(&MIDGAME);
    let mut group = c.benchmark_group("threats");
    let mut threats = Threats::new(&midgame);
    let centre = 7 * 15 + 7 + 1; // i8, empty, in the 20 windows a point can lie in
    group.throughput(Throughput::Elements(1));
    group.bench_function("place_remove", |b| {
        b.iter(|| {
            threats.place(black_box(centre), 0);
            threats.remove(black_box(centre), 0);
        });
    });
    group.bench_function("new", |b| b.iter(|| Threats::new(black_box(&midgame))));
    group.finish();

    let mut group = c.benchmark_group("vcf");
    let win = position(&WIN_IN_5);
    group.bench_function("win_in_5", |b| {
        b.iter(|| Threats::new(&win).vcf(0, 12, &mut 40_000).expect("a win"));
    });
    group.throughput(Throughput::Elements(looked_at(&midgame)));
    group.bench_function("none_midgame", |b| {
        b.iter(|| Threats::new(&midgame).vcf(0, 12, &mut 40_000));
    });
    group.finish();

    // The first puzzle of each length in fours, 1 to 7 (a win in 3 to 15 plies): the
    // search for the victory with the fewest fours, as `hard` and the hints run it.
    let mut group = c.benchmark_group("puzzles");
    for (n, board) in puzzles().into_iter().step_by(PUZZLES_EACH).take(7) {
        let plies = 2 * n + 1;
        group.bench_function(format!("win_in_{plies}"), |b| {
            b.iter(|| {
                let line = Threats::new(&board).shortest_vcf(0, 12, &mut { u32::MAX });
                assert_eq!(line.map(|l| l.len()), Some(plies as usize));
            });
        });
    }
    group.finish();

    five(c, &midgame, &puzzles());

    let mut group = c.benchmark_group("hard");
    group.sample_size(20);
    group.bench_function("midgame", |b| {
        b.iter(|| {
            let mut brain = Brain::new(Some(1)).with_think(Duration::from_millis(100));
            brain.choose(Player::HARD, &Position::Gomoku(midgame))
        });
    });
    group.finish();

    // The threat puzzles (won by one threat no reply stops, and by no fours): `hard`'s whole
    // move, seeded, on the first four, at `--think 1000`; it plays the proven threat at once.
    let mut group = c.benchmark_group("vct_puzzles");
    group.sample_size(10);
    for (i, board) in threat_puzzles().into_iter().take(4).enumerate() {
        group.bench_function(format!("puzzle_{}", i + 1), |b| {
            b.iter(|| {
                let mut brain = Brain::new(Some(1)).with_think(Duration::from_secs(1));
                brain.choose(Player::HARD, &Position::Gomoku(board))
            });
        });
    }
    group.finish();
}

/// The threat puzzles of `tests/data/vct_puzzles.txt`.
fn threat_puzzles() -> Vec<Gomoku> {
    let text = include_str!("../tests/data/vct_puzzles.txt");
    let parse = |line: &str| line.split_once(' ').expect("1 and a position").1.parse();
    text.lines()
        .map(|l| parse(l).expect("a position"))
        .collect()
}

/// The alpha-beta search (`tictactoe::ai::five`): the line patterns kept as a stone goes
/// down and comes back on the middle game's i8; a search of that position to 6 plies, in
/// nodes; the root's search for a victory by fours on the puzzles won in 5 to 15 plies.
fn five(c: &mut Criterion, midgame: &Gomoku, puzzles: &[(u32, Gomoku)]) {
    let mut group = c.benchmark_group("five");
    let centre = 7 * 15 + 7 + 1;
    group.throughput(Throughput::Elements(1));
    let mut patterns = Patterns::of(midgame);
    group.bench_function("patterns_play_undo", |b| {
        b.iter(|| {
            patterns.play(black_box(centre));
            patterns.undo();
        });
    });
    let nodes = {
        let mut five = Five::new(16, Meter::Work);
        five.think(midgame, Duration::from_mins(1), 6)
            .expect("a move")
            .nodes
    };
    group.throughput(Throughput::Elements(nodes));
    group.sample_size(20);
    group.bench_function("midgame_depth_6", |b| {
        b.iter(|| {
            let mut five = Five::new(16, Meter::Work);
            five.think(midgame, Duration::from_mins(1), 6)
        });
    });
    group.finish();
    let mut group = c.benchmark_group("five_puzzles");
    for (n, board) in puzzles.iter().step_by(PUZZLES_EACH).skip(1).take(6) {
        let plies = 2 * n + 1;
        group.bench_function(format!("win_in_{plies}"), |b| {
            b.iter(|| {
                let mut five = Five::new(1, Meter::Work);
                let thought = five
                    .think(board, Duration::from_secs(1), 1)
                    .expect("a move");
                assert!(thought.proof.is_some(), "a victory by fours");
            });
        });
    }
    group.finish();
}

criterion_group!(benches, gomoku);
criterion_main!(benches);
