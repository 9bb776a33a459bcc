//! Whether a seeded second of Ultimate's tree search is a second: for a few positions, how
//! many iterations a search by the clock runs in `--ms` milliseconds, and how long a seeded
//! search of the same budget ([`ITERATIONS_PER_MS`] iterations a millisecond) takes, for
//! `hard` and for `frozen`. A rate far from the clock's means seeded games play weaker (too
//! few iterations) or slower (too many) than unseeded ones. `--network FILE` has `hard` value
//! positions by another weights file (as `ultimate_train train --out` writes it), to compare
//! what two networks cost.
//!
//! `cargo run --release --example seed_rate -- --ms 1000`

use std::time::{Duration, Instant};

use tictactoe::ai::mcts::value::Network;
use tictactoe::ai::mcts::{ITERATIONS_PER_MS, Mcts, Settings};
use tictactoe::ai::search::Meter;
use tictactoe::rules::ultimate::UltimateBoard;

/// A game of seeded `hard` against itself (`tictactoe --ultimate -x hard -o hard --seed 1
/// --think 300 --plain`).
const GAME: &str = "57 77 72 22 24 42 26 66 68 84 44 41 16 69 99 92 25 59 98 86 63 36 61 17 73 35 54 43 38 81 18 87 75 55 51 11 14 71 15 97 74 96 64 34 79 91 93 78 67 76 94 95";

/// The empty grid, and that game after 10, 20 and 40 marks.
const MARKS: [usize; 4] = [0, 10, 20, 40];

fn position(moves: &str) -> UltimateBoard {
    let mut board = UltimateBoard::new();
    for text in moves.split_whitespace() {
        let mv = board.parse_move(text).expect("a move");
        board.play(mv).expect("a legal move");
    }
    board
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut ms = 1000u64;
    let mut network: Option<&'static Network> = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--ms" => ms = args.next().and_then(|v| v.parse().ok()).expect("--ms N"),
            "--network" => {
                let path = args.next().expect("--network FILE");
                let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                let read = Network::from_bytes(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
                network = Some(Box::leak(Box::new(read)));
            }
            _ => panic!("usage: seed_rate [--ms N] [--network FILE]"),
        }
    }
    let search = |settings: Settings| {
        let mcts = Mcts::new(Some(1));
        match network {
            Some(n) if settings == Settings::HARD => mcts.with_network(n).with_settings(settings),
            _ => mcts.with_settings(settings),
        }
    };
    let budget = Duration::from_millis(ms);
    println!("seeded budgets: {ITERATIONS_PER_MS} iterations a millisecond; {ms} ms a search");
    println!("| position | search | clock: iterations a ms | seed: time taken |");
    println!("| --- | --- | ---: | ---: |");
    for marks in MARKS {
        let moves: Vec<&str> = GAME.split_whitespace().take(marks).collect();
        let board = position(&moves.join(" "));
        let name = format!("{marks} marks");
        for (label, settings) in [("hard", Settings::HARD), ("frozen", Settings::FROZEN)] {
            let mut clock = search(settings);
            clock.think(&board, budget);
            let rate = clock.iterations() / ms.max(1);
            let mut seeded = search(settings);
            seeded.set_meter(Meter::Work);
            let start = Instant::now();
            seeded.think(&board, budget);
            let took = start.elapsed().as_secs_f64();
            println!("| {name} | {label} | {rate} | {took:.2} s |");
        }
    }
}
