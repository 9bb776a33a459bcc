//! Fits the values of Gomoku's estimate to the results of games, as chess engines' Texel
//! tuning does. It plays the search against itself from each opening of `--openings`
//! (`--variants` games from each, each after one random stone near the others) at `--think`
//! milliseconds of work a move, so that a run replays. Every position without a five to make
//! or block is kept from the side to move's view, with how many empty points have each code
//! (`src/ai/five/values.rs`) for each side and the game's result for the side to move (1, ½
//! or 0). A logistic regression then fits each code's two values, the chance of winning read
//! as `1 / (1 + e^(−estimate / scale))`, pulled toward the values it started from so that a
//! code seen in few positions moves little. One game in eight is held out, its loss printed
//! beside the fitted games'. `--write` writes the table for `src/ai/five/values.txt`:
//!
//! ```text
//! cargo run --release --example gomoku_fit -- --openings balanced-15.txt --variants 16 \
//!     --write src/ai/five/values.txt
//! ```
//!
//! `--linear` starts from the weighted count the first table was made from (a weight for
//! each class in each direction and for each threat, below) instead of the table in the code;
//! with `--variants 0` it writes that table and fits nothing.

#![allow(clippy::cast_precision_loss)]

use std::time::Duration;

use clap::Parser;
use tictactoe::ai::five::Five;
use tictactoe::ai::five::board::Board;
use tictactoe::ai::five::codes::class;
use tictactoe::ai::five::patterns::{Patterns, threat, threat_of};
use tictactoe::ai::five::values::{self, CODES, Values};
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
    #[arg(long, default_value_t = 20)]
    think: u64,
    /// The estimate's units for a factor e in the odds of winning.
    #[arg(long, default_value_t = 600.0)]
    scale: f64,
    /// How far, in the estimate's units, a value may stray from where it started before the
    /// pull back toward it weighs as much as one position's loss.
    #[arg(long, default_value_t = 300.0)]
    prior: f64,
    /// Passes of the fit.
    #[arg(long, default_value_t = 200)]
    passes: u32,
    /// How much of the first pass's Newton step to take.
    #[arg(long, default_value_t = 0.25)]
    rate: f64,
    /// Start from the weighted count, not the table in the code.
    #[arg(long)]
    linear: bool,
    /// Keep the games' positions in DIR (fitted.txt and held.txt), or read them from there
    /// instead of playing where they are already kept.
    #[arg(long)]
    samples: Option<std::path::PathBuf>,
    /// Where to write the fitted table.
    #[arg(long)]
    write: Option<std::path::PathBuf>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// The weighted count the first table summed: for the side to move and for the other side,
/// a weight for each class in each direction (dead to five) and for each threat (none to
/// five, then forbidden), fitted by the earlier linear form of this tool.
const MINE_CLASS: [i32; class::COUNT] = [6, 0, 9, 5, 11, 20, 43, 108, 174, 562, 800];
const MINE_THREAT: [i32; threat::COUNT] = [1, 20, 251, 77, 1182, 1767, 2000, 0];
const THEIRS_CLASS: [i32; class::COUNT] = [5, 0, 7, 4, 12, 16, 39, 69, 112, -270, 800];
const THEIRS_THREAT: [i32; threat::COUNT] = [3, 22, 131, 66, 697, 916, 2000, 0];

fn linear() -> Values {
    let mut v = Values {
        mine: [0; CODES],
        theirs: [0; CODES],
    };
    let sum = |w: &[i32], four: [u8; 4]| four.iter().map(|&c| w[usize::from(c)]).sum::<i32>();
    for four in values::all_classes() {
        let at = usize::from(values::code(four));
        let t = usize::from(threat_of(four, false));
        v.mine[at] = sum(&MINE_CLASS, four) + MINE_THREAT[t];
        v.theirs[at] = sum(&THEIRS_CLASS, four) + THEIRS_THREAT[t];
    }
    // A forbidden point's directions were counted as their classes, which vary; the threat's
    // weight is what they shared.
    let f = usize::from(values::FORBIDDEN);
    v.mine[f] = MINE_THREAT[usize::from(threat::FORBIDDEN)];
    v.theirs[f] = THEIRS_THREAT[usize::from(threat::FORBIDDEN)];
    v
}

/// A position: how many points have each code, the side to move's `+` and the other's `−`
/// (the parameters run mine then theirs), and its result for the side to move.
struct Sample {
    features: Vec<(u16, f64)>,
    result: f64,
}

fn sample_of(patterns: &Patterns) -> Vec<(u16, f64)> {
    let (me, them) = (patterns.to_move(), 1 - patterns.to_move());
    let mut n = vec![0u32; 2 * CODES];
    patterns.codes(me).for_each(|c| n[usize::from(c)] += 1);
    patterns
        .codes(them)
        .for_each(|c| n[CODES + usize::from(c)] += 1);
    n.iter()
        .enumerate()
        .filter(|&(_, &k)| k > 0)
        .map(|(i, &k)| {
            let sign = if i < CODES { 1.0 } else { -1.0 };
            (i as u16, sign * f64::from(k))
        })
        .collect()
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
        if patterns.fives(me).is_empty() && patterns.fives(them).is_empty() {
            seen.push((sample_of(&patterns), board.to_move()));
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

fn chance(s: &Sample, w: &[f64], scale: f64) -> f64 {
    let z: f64 = s.features.iter().map(|&(i, f)| f * w[usize::from(i)]).sum();
    1.0 / (1.0 + (-z / scale).exp())
}

fn loss(samples: &[Sample], w: &[f64], scale: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let p = chance(s, w, scale).clamp(1e-9, 1.0 - 1e-9);
            -(s.result * p.ln() + (1.0 - s.result) * (1.0 - p).ln())
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The mean cross-entropy plus the pull toward `start`, and its gradient and curvature.
fn objective(samples: &[Sample], w: &[f64], start: &[f64], args: &Args) -> Measure {
    let count = samples.len() as f64;
    let pull = 1.0 / (count * args.prior * args.prior);
    let mut m = Measure {
        value: 0.0,
        grad: w.iter().zip(start).map(|(w, s)| (w - s) * pull).collect(),
        curve: vec![pull; w.len()],
    };
    m.value = w
        .iter()
        .zip(start)
        .map(|(w, s)| (w - s) * (w - s) * pull / 2.0)
        .sum::<f64>()
        + loss(samples, w, args.scale);
    for s in samples {
        let p = chance(s, w, args.scale);
        for &(i, f) in &s.features {
            let i = usize::from(i);
            m.grad[i] += (p - s.result) * f / args.scale / count;
            m.curve[i] += p * (1.0 - p) * f * f / (args.scale * args.scale * count);
        }
    }
    m
}

struct Measure {
    value: f64,
    grad: Vec<f64>,
    curve: Vec<f64>,
}

/// Diagonal Newton steps on [`objective`], each a share of the full step: a step that makes
/// it worse is taken back and the share halved, one that makes it better lengthens it.
fn fit(samples: &[Sample], start: &[f64], args: &Args) -> Vec<f64> {
    let mut w = start.to_vec();
    let mut here = objective(samples, &w, start, args);
    let mut rate = args.rate;
    for pass in 0..args.passes {
        if pass % 25 == 0 {
            eprintln!("pass {pass}: objective {:.5}, share {rate:.4}", here.value);
        }
        let next: Vec<f64> = (0..w.len())
            .map(|i| w[i] - rate * here.grad[i] / here.curve[i])
            .collect();
        let there = objective(samples, &next, start, args);
        if there.value < here.value {
            (w, here) = (next, there);
            rate = (rate * 1.25).min(1.0);
        } else {
            rate /= 2.0;
        }
    }
    w
}

/// Writes the samples, a line each: the result, then `parameter:count` pairs.
fn save(path: &std::path::Path, samples: &[Sample]) {
    use std::fmt::Write;
    let mut text = String::new();
    for s in samples {
        let pairs: Vec<String> = s.features.iter().map(|(i, f)| format!("{i}:{f}")).collect();
        let _ = writeln!(text, "{} {}", s.result, pairs.join(" "));
    }
    std::fs::write(path, text).expect("the samples written");
}

fn load(path: &std::path::Path) -> Vec<Sample> {
    let text = std::fs::read_to_string(path).expect("the samples read");
    text.lines()
        .map(|line| {
            let mut words = line.split_whitespace();
            let result = words.next().and_then(|w| w.parse().ok()).expect("a result");
            let features = words
                .map(|w| {
                    let (i, f) = w.split_once(':').expect("i:f");
                    (i.parse().expect("i"), f.parse().expect("f"))
                })
                .collect();
            Sample { features, result }
        })
        .collect()
}

fn play_all(args: &Args) -> (Vec<Sample>, Vec<Sample>) {
    let openings: Vec<Gomoku> = openings::read(&args.openings, &Gomoku::new())
        .into_iter()
        .map(|(board, _)| board)
        .collect();
    let jobs: Vec<(Gomoku, u64)> = openings
        .iter()
        .flat_map(|&o| (0..u64::from(args.variants)).map(move |v| (o, v)))
        .collect();
    let games: Vec<(u64, Vec<Sample>)> = std::thread::scope(|scope| {
        let halves: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2).max(1))
            .map(|part| {
                scope.spawn(|| {
                    part.iter()
                        .map(|&(board, v)| {
                            let mut rng = fastrand::Rng::with_seed(args.seed * 1_000 + v);
                            (v, game(board, &mut rng, args.think))
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
    println!(
        "{} positions from {} games",
        games.iter().map(|(_, g)| g.len()).sum::<usize>(),
        games.len()
    );
    let (held, fitted): (Vec<_>, Vec<_>) = games.into_iter().partition(|(v, _)| v % 8 == 7);
    let flat = |g: Vec<(u64, Vec<Sample>)>| g.into_iter().flat_map(|(_, s)| s).collect();
    (flat(fitted), flat(held))
}

fn main() {
    let args = Args::parse();
    let table = if args.linear {
        linear()
    } else {
        values::values().clone()
    };
    let start: Vec<f64> = table
        .mine
        .iter()
        .chain(&table.theirs)
        .map(|&v| f64::from(v))
        .collect();
    let (fitted, held) = match &args.samples {
        Some(dir) if dir.join("fitted.txt").exists() => {
            (load(&dir.join("fitted.txt")), load(&dir.join("held.txt")))
        }
        _ => {
            let (fitted, held) = play_all(&args);
            if let Some(dir) = &args.samples {
                std::fs::create_dir_all(dir).expect("a folder for the samples");
                save(&dir.join("fitted.txt"), &fitted);
                save(&dir.join("held.txt"), &held);
            }
            (fitted, held)
        }
    };
    let w = if fitted.is_empty() {
        start.clone()
    } else {
        let before = (
            loss(&fitted, &start, args.scale),
            loss(&held, &start, args.scale),
        );
        println!(
            "loss before: {:.4} fitted, {:.4} held out",
            before.0, before.1
        );
        let w = fit(&fitted, &start, &args);
        let after = (loss(&fitted, &w, args.scale), loss(&held, &w, args.scale));
        println!("loss after: {:.4} fitted, {:.4} held out", after.0, after.1);
        w
    };
    let mut out = table;
    for i in 0..CODES {
        out.mine[i] = w[i].round() as i32;
        out.theirs[i] = w[CODES + i].round() as i32;
    }
    let moved = (0..2 * CODES)
        .filter(|&i| (w[i] - start[i]).abs() >= 0.5)
        .count();
    println!("{moved} of {} values moved", 2 * CODES);
    if let Some(path) = &args.write {
        let header = format!(
            "Gomoku's estimate: for each point code (four classes, 0 dead, 1 overline, 2 one,\n\
             3 open one, 4 two, 5 open two, 6 three, 7 open three, 8 four, 9 open four,\n\
             10 five), its value for the side to move and for the other side.\n\
             Written by examples/gomoku_fit.rs --openings {} --variants {} --think {}\n\
             --scale {} --prior {} --passes {} --rate {} --seed {}{}",
            args.openings
                .file_name()
                .unwrap_or_default()
                .to_string_lossy(),
            args.variants,
            args.think,
            args.scale,
            args.prior,
            args.passes,
            args.rate,
            args.seed,
            if args.linear { " --linear" } else { "" },
        );
        std::fs::write(path, out.write(&header)).expect("the table written");
    }
}
