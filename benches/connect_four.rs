//! The Connect Four solver: the time to prove positions of 7×6 from a fresh table, and
//! the nodes a second of one proof.
//!
//! `cargo bench --bench connect_four` prints each median. `after 12` is the mean of ten
//! positions twelve discs in by seeded random play, `after 8` five positions eight in; the
//! nodes a second are printed once before the timings. The empty board's proof takes more
//! than a quarter of an hour (`cargo test --release --test connect_four -- --ignored` asks
//! for it; see docs/ai.md).

use std::hint::black_box;
use std::time::Instant;

use criterion::{Criterion, criterion_group, criterion_main};
use tictactoe::ai::connect_four::solver::Solver;
use tictactoe::ai::search::Meter;
use tictactoe::rules::Outcome;
use tictactoe::rules::connect_four::ConnectFour;

/// Positions `discs` in by random play from `seed`, still in progress.
fn positions(discs: usize, count: usize, seed: u64) -> Vec<ConnectFour> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut board = ConnectFour::default();
        for _ in 0..discs {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            let _ = board.play(moves[rng.usize(..moves.len())]);
        }
        if board.outcome() == Outcome::InProgress && usize::from(board.moves()) == discs {
            out.push(board);
        }
    }
    out
}

fn solve_all(boards: &[ConnectFour]) -> u64 {
    let mut nodes = 0;
    for board in boards {
        let mut solver = Solver::new(64);
        black_box(solver.solve(board, None, Meter::Work));
        nodes += solver.nodes();
    }
    nodes
}

fn bench(c: &mut Criterion) {
    let late = positions(12, 10, 1);
    let early = positions(8, 5, 2);
    let start = Instant::now();
    let nodes = solve_all(&late) + solve_all(&early);
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "connect four: {nodes} nodes in {seconds:.2} s, {:.0} nodes a second",
        f64::from(u32::try_from(nodes / 1000).unwrap_or(u32::MAX)) * 1000.0 / seconds
    );
    let mut group = c.benchmark_group("connect_four");
    group.sample_size(10);
    group.bench_function("after 12, ten positions", |b| {
        b.iter(|| solve_all(black_box(&late)));
    });
    group.bench_function("after 8, five positions", |b| {
        b.iter(|| solve_all(black_box(&early)));
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
