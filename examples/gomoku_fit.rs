//! Fits the weights of Gomoku's estimate to the results of games, as chess engines' Texel
//! tuning does: plays the search against itself from each opening of `--openings` (with
//! `--variants` games from each, each after one random stone near the others), at `--nodes`
//! a move by work so that a run replays, keeps every position of each game from the side to
//! move's view with the game's result for that side (1, ½ or 0), and fits the weights of the
//! features of [`Patterns::features`] by logistic regression: the chance of winning read as
//! `1 / (1 + e^(−estimate / scale))`. Prints the weights in the estimate's units, to put in
//! `src/ai/five/patterns.rs`, and the loss before and after:
//!
//! ```text
//! cargo run --release --example gomoku_fit -- --openings balanced-15.txt --variants 4
//! ```

#![allow(clippy::cast_precision_loss)]

use std::time::Duration;

use clap::Parser;
use tictactoe::ai::five::Five;
use tictactoe::ai::five::board::Board;
use tictactoe::ai::five::patterns::{self, FEATURES, Patterns};
use tictactoe::ai::search::Meter;
use tictactoe::rules::gomoku::Gomoku;

#[path = "common/openings.rs"]
mod openings;

#[derive(Parser)]
#[command(about = "Fits Gomoku's estimate to the results of self-play games")]
struct Args {
    /// Openings, one a line: `x,y` points from the top left, black first.
    #[arg(long)]
    openings: std::path::PathBuf,
    /// Games from each opening.
    #[arg(long, default_value_t = 4)]
    variants: u32,
    /// Milliseconds of work a move (the search's nodes at its rate).
    #[arg(long, default_value_t = 10)]
    think: u64,
    /// The estimate's units for a factor e in the odds of winning.
    #[arg(long, default_value_t = 600.0)]
    scale: f64,
    /// Passes of gradient descent.
    #[arg(long, default_value_t = 3000)]
    passes: u32,
    /// The step of gradient descent, in the estimate's units.
    #[arg(long, default_value_t = 200.0)]
    rate: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// A position's features for the side to move and the other, and its result for the first.
struct Sample {
    features: [f64; 2 * FEATURES],
    result: f64,
}

/// One game from `board` after a random stone within two of the others; its positions.
fn game(mut board: Gomoku, rng: &mut fastrand::Rng, think: u64) -> Vec<Sample> {
    let near: Vec<_> = board
        .legal_moves()
        .into_iter()
        .filter(|&c| {
            board.cells().any(|s| {
                board.mark_at(s).is_some()
                    && c.row().abs_diff(s.row()) <= 2
                    && c.col().abs_diff(s.col()) <= 2
            })
        })
        .collect();
    board.play(near[rng.usize(..near.len())]).expect("legal");
    let mut five = Five::new(16, Meter::Work);
    let mut seen = Vec::new();
    while !board.is_over() && !board.is_full() {
        let patterns = Patterns::of(&board);
        let (me, them) = (patterns.to_move(), 1 - patterns.to_move());
        let quiet = patterns.fives(me).is_empty() && patterns.fives(them).is_empty();
        if quiet {
            let [mine, theirs] = patterns.features();
            let mut features = [0.0; 2 * FEATURES];
            for i in 0..FEATURES {
                features[i] = f64::from(mine[i]);
                features[FEATURES + i] = f64::from(theirs[i]);
            }
            seen.push((features, board.to_move()));
        }
        let Some(thought) = five.think(&board, Duration::from_millis(think), 64) else {
            break;
        };
        board
            .play(board.cell(thought.best).expect("a point"))
            .expect("legal");
    }
    let winner = board.winner();
    seen.into_iter()
        .map(|(features, mover)| Sample {
            features,
            result: match winner {
                Some(m) if m == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            },
        })
        .collect()
}

/// The weights as the estimate has them: the side to move's, then the other's (negated).
fn current() -> [f64; 2 * FEATURES] {
    let mut w = [0.0; 2 * FEATURES];
    let parts = [
        patterns::MINE_CLASS.as_slice(),
        &patterns::MINE_THREAT,
        &patterns::THEIRS_CLASS.map(|v| -v),
        &patterns::THEIRS_THREAT.map(|v| -v),
    ];
    for (slot, v) in w.iter_mut().zip(parts.concat()) {
        *slot = f64::from(v);
    }
    w
}

fn loss(samples: &[Sample], w: &[f64], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let z: f64 = s.features.iter().zip(w).map(|(f, w)| f * w).sum::<f64>() / scale;
            let p = (1.0 / (1.0 + (-z).exp())).clamp(1e-9, 1.0 - 1e-9);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len() as f64
}

/// Gradient descent on the cross-entropy from `w`, each feature's step scaled by its spread.
fn fit(samples: &[Sample], mut w: [f64; 2 * FEATURES], args: &Args) -> [f64; 2 * FEATURES] {
    let n = samples.len() as f64;
    let mut spread = [0.0f64; 2 * FEATURES];
    for s in samples {
        for (v, f) in spread.iter_mut().zip(&s.features) {
            *v += f * f / n;
        }
    }
    for pass in 0..args.passes {
        if pass % 500 == 0 {
            eprintln!("pass {pass}: loss {:.4}", loss(samples, &w, args.scale));
        }
        let mut grad = [0.0; 2 * FEATURES];
        for s in samples {
            let z: f64 = s.features.iter().zip(&w).map(|(f, w)| f * w).sum::<f64>() / args.scale;
            let p = 1.0 / (1.0 + (-z).exp());
            for (g, f) in grad.iter_mut().zip(&s.features) {
                *g += (p - s.result) * f / args.scale / n;
            }
        }
        for i in 0..2 * FEATURES {
            if spread[i] > 0.0 {
                w[i] -= args.rate * grad[i] / spread[i].sqrt();
            }
        }
    }
    w
}

fn main() {
    let args = Args::parse();
    let openings: Vec<Gomoku> = openings::read(&args.openings, &Gomoku::new())
        .into_iter()
        .map(|(board, _)| board)
        .collect();
    let jobs: Vec<(Gomoku, u64)> = openings
        .iter()
        .flat_map(|&o| (0..u64::from(args.variants)).map(move |v| (o, v)))
        .collect();
    let samples: Vec<Sample> = std::thread::scope(|scope| {
        let halves: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2))
            .map(|part| {
                scope.spawn(|| {
                    part.iter()
                        .flat_map(|&(board, v)| {
                            let mut rng = fastrand::Rng::with_seed(args.seed * 1_000 + v);
                            game(board, &mut rng, args.think)
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        halves
            .into_iter()
            .flat_map(|h| h.join().expect("a half"))
            .collect()
    });
    let wins = samples.iter().filter(|s| s.result > 0.75).count();
    println!(
        "{} positions from {} games ({} won by the side to move)",
        samples.len(),
        jobs.len(),
        wins
    );
    let start = current();
    println!(
        "loss with today's weights: {:.4}",
        loss(&samples, &start, args.scale)
    );
    let w = fit(&samples, start, &args);
    println!("loss fitted: {:.4}", loss(&samples, &w, args.scale));
    let show = |part: &[f64], sign: f64| -> String {
        let v: Vec<String> = part
            .iter()
            .map(|x| format!("{}", (sign * x).round() as i64))
            .collect();
        format!("[{}]", v.join(", "))
    };
    let c = tictactoe::ai::five::codes::class::COUNT;
    println!("MINE_CLASS: {}", show(&w[..c], 1.0));
    println!("MINE_THREAT: {}", show(&w[c..FEATURES], 1.0));
    println!("THEIRS_CLASS: {}", show(&w[FEATURES..FEATURES + c], -1.0));
    println!("THEIRS_THREAT: {}", show(&w[FEATURES + c..], -1.0));
}
