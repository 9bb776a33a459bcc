//! Ultimate tic-tac-toe benchmarks: random games per second and MCTS iterations per second, on
//! one thread.
//!
//! `cargo bench --bench ultimate` prints each as a throughput: `playouts/safe` is the safe
//! random game (wins of small boards and of the game taken, no board handed to the opponent
//! where that can be avoided), `playouts/greedy` the one every level plays (wins taken, other
//! moves uniform), `playouts/uniform` a uniformly random
//! game on the same bitboards (the baseline's playout in the match tool),
//! `playouts/uniform_api` one through the rules' public API (legal moves, then play), and
//! `mcts/iterations_safe` a fresh search of 20,000 iterations from the empty grid with safe
//! playouts (tree building included), `mcts/iterations_frozen` the same with
//! `Settings::FROZEN` (greedy playouts and the hand-made prior: `hard` before the learned
//! evaluation), and
//! `mcts/iterations_without_prior` the frozen search with new nodes starting empty
//! (`with_prior(0)`), to show what the move prior costs; `mcts/iterations_network` values
//! each leaf by the learned evaluation instead of a random game (`Leaf::Network`),
//! `mcts/iterations_both` by both (each with the value alone: no policy, no minimax
//! estimates), and `mcts/iterations_hard` is `Settings::HARD`, which also takes each new node's
//! prior from the learned evaluation (`Prior::Network`) and weighs the policy and the
//! estimates; `mcts/iterations_hard_full` is the value alone evaluating every position in full
//! (`incremental: false`, as before the evaluation was made incremental). The `midgame/` group
//! runs `hard` both ways and the frozen search from a position 20 marks into a game
//! ([`MIDGAME`]), `iterations_without_minimax`: `hard` without its minimax estimates
//! (`Settings::minimax`), and `iterations_value_only`: without them and without the policy
//! (`Settings::policy`), `hard` as it was before it weighed either: what each costs.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tictactoe::ai::mcts::{Leaf, Mcts, Playouts, Prior, Settings, playout_with, uniform_playout};
use tictactoe::rules::ultimate::{Outcome, UltimateBoard};

/// A uniform random game through the rules' public API: every legal move equally likely.
fn api_playout(board: &UltimateBoard, rng: &mut fastrand::Rng) -> Outcome {
    let mut b = *board;
    loop {
        let moves = b.legal_moves();
        if moves.is_empty() {
            return b.outcome();
        }
        let mv = moves.nth(rng.usize(..moves.len())).expect("in range");
        b.play(mv).expect("a legal move");
    }
}

fn playouts(c: &mut Criterion) {
    let start = UltimateBoard::new();
    let mut group = c.benchmark_group("playouts");
    group.throughput(Throughput::Elements(1));
    group.measurement_time(Duration::from_secs(3));
    let mut rng = fastrand::Rng::with_seed(1);
    group.bench_function("safe", |b| {
        b.iter(|| playout_with(black_box(&start), Playouts::Safe, &mut rng));
    });
    group.bench_function("greedy", |b| {
        b.iter(|| playout_with(black_box(&start), Playouts::Greedy, &mut rng));
    });
    group.bench_function("uniform", |b| {
        b.iter(|| uniform_playout(black_box(&start), &mut rng));
    });
    group.bench_function("uniform_api", |b| {
        b.iter(|| api_playout(black_box(&start), &mut rng));
    });
    group.finish();
}

/// The moves (board, then cell, numpad digits) to the middle-game position: a seeded game of
/// `hard` against itself, 20 marks in, O to move on board 8.
const MIDGAME: &str = "55 57 77 71 11 13 33 36 62 22 26 64 48 88 84 44 42 28 86 68";

/// `hard` on the value alone with the learned evaluation computed in full at every position.
const HARD_FULL: Settings = Settings {
    incremental: false,
    ..VALUE_ONLY
};

/// `hard` without the minimax estimates: what they cost.
const WITHOUT_MINIMAX: Settings = Settings {
    minimax: 0.0,
    ..Settings::HARD
};

/// `hard` as it was before it weighed the policy and the estimates: the value alone.
const VALUE_ONLY: Settings = Settings {
    policy: 0.0,
    minimax: 0.0,
    ..Settings::HARD
};

fn midgame(c: &mut Criterion) {
    const N: u64 = 20_000;
    let mut board = UltimateBoard::new();
    for text in MIDGAME.split(' ') {
        let mv = board.parse_move(text).expect("a move");
        board.play(mv).expect("a legal move");
    }
    let mut group = c.benchmark_group("midgame");
    group.throughput(Throughput::Elements(N));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    for (name, settings) in [
        ("iterations_frozen", Settings::FROZEN),
        ("iterations_hard_full", HARD_FULL),
        ("iterations_hard", Settings::HARD),
        ("iterations_without_minimax", WITHOUT_MINIMAX),
        ("iterations_value_only", VALUE_ONLY),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                Mcts::new(Some(1))
                    .with_settings(settings)
                    .think_iterations(black_box(&board), N)
            });
        });
    }
    group.finish();
}

fn iterations(c: &mut Criterion) {
    const N: u64 = 20_000;
    let start = UltimateBoard::new();
    let mut group = c.benchmark_group("mcts");
    group.throughput(Throughput::Elements(N));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(4));
    group.bench_function("iterations_safe", |b| {
        b.iter(|| {
            Mcts::new(Some(1))
                .with_settings(Settings {
                    playouts: Playouts::Safe,
                    ..Settings::FROZEN
                })
                .think_iterations(black_box(&start), N)
        });
    });
    group.bench_function("iterations_frozen", |b| {
        b.iter(|| {
            Mcts::new(Some(1))
                .with_settings(Settings::FROZEN)
                .think_iterations(black_box(&start), N)
        });
    });
    group.bench_function("iterations_without_prior", |b| {
        b.iter(|| {
            Mcts::new(Some(1))
                .with_settings(Settings::FROZEN)
                .with_prior(0)
                .think_iterations(black_box(&start), N)
        });
    });
    for (name, leaf, prior) in [
        ("iterations_network", Leaf::Network, Prior::Hand),
        ("iterations_both", Leaf::Both, Prior::Hand),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                Mcts::new(Some(1))
                    .with_settings(Settings {
                        leaf,
                        prior,
                        ..VALUE_ONLY
                    })
                    .think_iterations(black_box(&start), N)
            });
        });
    }
    group.bench_function("iterations_hard", |b| {
        b.iter(|| {
            Mcts::new(Some(1))
                .with_settings(Settings::HARD)
                .think_iterations(black_box(&start), N)
        });
    });
    group.bench_function("iterations_hard_full", |b| {
        b.iter(|| {
            Mcts::new(Some(1))
                .with_settings(HARD_FULL)
                .think_iterations(black_box(&start), N)
        });
    });
    group.finish();
}

criterion_group!(benches, playouts, iterations, midgame);
criterion_main!(benches);
