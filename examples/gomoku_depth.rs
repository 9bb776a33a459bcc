//! How deep and how fast Gomoku's alpha-beta search goes: plays `--games` games of the
//! search against itself on 15×15 from openings of two stones near the centre (drawn from
//! `--seed`), `--think` milliseconds a move by the clock, and prints for each phase of the
//! game (openings: stones 2–11, middle games: 12 and up) the median depth completed, the
//! nodes a second and the share of the budget used on moves that were not proven:
//!
//! ```text
//! cargo run --release --example gomoku_depth -- --think 100 --games 4
//! cargo run --release --example gomoku_depth -- --think 1000 --games 10 --moves 14 \
//!     --openings balanced-15.txt
//! ```
//!
//! With `--openings` each game starts from the next opening of the file instead, and
//! `--moves` ends each game after that many moves.

#![allow(clippy::cast_precision_loss)]

use std::time::{Duration, Instant};

use clap::Parser;
use tictactoe::ai::five::Five;
use tictactoe::ai::search::Meter;
use tictactoe::rules::gomoku::Gomoku;

#[path = "common/openings.rs"]
mod openings;

#[derive(Parser)]
#[command(about = "Depth and speed of Gomoku's alpha-beta search in self-play")]
struct Args {
    /// Milliseconds a move.
    #[arg(long, default_value_t = 100)]
    think: u64,
    /// Games to play.
    #[arg(long, default_value_t = 4)]
    games: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads searching each move.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print every move's figures.
    #[arg(long)]
    verbose: bool,
    /// Openings to start from, one a line (`x,y` points from the top left, black first),
    /// the first `--games` of them, instead of two stones near the centre.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Moves each game plays at most.
    #[arg(long, default_value_t = 225)]
    moves: u32,
}

/// One move's figures: stones on the board before it, depth, nodes, time.
struct Figures {
    stones: u16,
    depth: u32,
    nodes: u64,
    used: Duration,
}

fn opening(rng: &mut fastrand::Rng) -> Gomoku {
    let mut board = Gomoku::new();
    while board.stones() < 2 {
        let (r, c) = (rng.u8(5..10), rng.u8(5..10));
        if let Some(cell) = board.cell_at(r, c) {
            let _ = board.play(cell);
        }
    }
    board
}

fn median<T: Copy + Ord>(mut v: Vec<T>) -> Option<T> {
    v.sort_unstable();
    v.get(v.len() / 2).copied()
}

fn report(name: &str, figures: &[&Figures], budget: Duration) {
    let depth = median(figures.iter().map(|f| f.depth).collect());
    let rate = median(
        figures
            .iter()
            .map(|f| (f.nodes as f64 / f.used.as_secs_f64().max(1e-6)) as u64)
            .collect(),
    );
    let used = median(
        figures
            .iter()
            .map(|f| (f.used.as_secs_f64() / budget.as_secs_f64() * 100.0) as u64)
            .collect(),
    );
    println!(
        "{name}: {} moves, median depth {}, median {} nodes/s, median {}% of the budget",
        figures.len(),
        depth.unwrap_or(0),
        rate.unwrap_or(0),
        used.unwrap_or(0)
    );
}

fn main() {
    let args = Args::parse();
    let budget = Duration::from_millis(args.think);
    let mut rng = fastrand::Rng::with_seed(args.seed);
    let mut all = Vec::new();
    let mut openings = args
        .openings
        .as_ref()
        .map(|path| openings::read(path, &Gomoku::new()))
        .unwrap_or_default()
        .into_iter();
    for _ in 0..args.games {
        let mut board = match openings.next() {
            Some((board, _)) => board,
            None => opening(&mut rng),
        };
        let mut left = args.moves;
        let mut five = Five::new(64, Meter::Clock);
        five.set_threads(args.threads);
        while !board.is_over() && !board.is_full() && left > 0 {
            left -= 1;
            let start = Instant::now();
            let thought = five.think(&board, budget, 60).expect("a move");
            let used = start.elapsed();
            let cell = board.cell(thought.best).expect("a point of the board");
            if args.verbose {
                println!(
                    "{:3} {cell:>4} depth {:2} nodes {:8} {:5.1} ms score {:6} {}",
                    board.stones(),
                    thought.depth,
                    thought.nodes,
                    used.as_secs_f64() * 1000.0,
                    thought.score,
                    if thought.proof.is_some() { "proof" } else { "" }
                );
            }
            if thought.proof.is_none() && thought.mate().is_none() {
                all.push(Figures {
                    stones: board.stones(),
                    depth: thought.depth,
                    nodes: thought.nodes,
                    used,
                });
            }
            board.play(cell).expect("a legal move");
        }
        println!(
            "game over after {} stones: {:?}",
            board.stones(),
            board.winner()
        );
    }
    let opening: Vec<&Figures> = all.iter().filter(|f| f.stones < 12).collect();
    let middle: Vec<&Figures> = all.iter().filter(|f| f.stones >= 12).collect();
    report("openings", &opening, budget);
    report("middle games", &middle, budget);
}
