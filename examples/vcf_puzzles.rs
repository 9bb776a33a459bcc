//! Finds Gomoku puzzles: positions whose shortest victory by continuous fours (VCF) for the
//! side to move takes exactly N fours, for N from 1 to `--longest`, and prints one a line as
//! `N <position>` (the position in Gomoku's notation, X to move):
//!
//! ```text
//! cargo run --release --example vcf_puzzles -- --seed 1 --each 3 > tests/data/vcf_puzzles.txt
//! ```
//!
//! It climbs: from a random position near the centre it adds a stone of each side at a time,
//! O's most often on a point of X's shortest victory (which blocks it) and X's near its own
//! stones, and keeps the pair when X still wins by fours and needs at least as many fours as
//! before. The victories are found by the engine's own search ([`Threats::vcf`]); the tests
//! check each one with a search of their own written from the rules alone (`tests/vcf.rs`).

use std::collections::BTreeMap;

use clap::Parser;
use tictactoe::ai::threats::{Threats, side};
use tictactoe::rules::classic::Mark;
use tictactoe::rules::gomoku::Gomoku;

#[derive(Parser)]
#[command(about = "Finds Gomoku positions won by fours in exactly N fours")]
struct Args {
    /// Puzzles of each length.
    #[arg(long, default_value_t = 3)]
    each: usize,
    /// The longest victory looked for, in fours.
    #[arg(long, default_value_t = 11)]
    longest: u32,
    /// Seed of the random positions and stones.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Climbs tried before giving up on the lengths still missing.
    #[arg(long, default_value_t = 2_000)]
    climbs: usize,
}

/// Positions one search may look at: far more than any victory here needs.
const BUDGET: u32 = 5_000_000;

/// X's shortest victory by fours in `board` (X to move), with at most `longest` fours: its
/// length in fours and its points.
fn shortest(board: &Gomoku, longest: u32) -> Option<(u32, Vec<usize>)> {
    let mut threats = Threats::new(board);
    let me = side(board.to_move());
    if !threats.fives(1 - me).is_empty() {
        return None;
    }
    (0..=longest).find_map(|n| {
        let line = threats.vcf(me, n, &mut { BUDGET })?;
        Some((n, line))
    })
}

/// A random empty point of rows and columns `range`.
fn empty_point(board: &Gomoku, rng: &mut fastrand::Rng, range: std::ops::Range<u8>) -> usize {
    loop {
        let cell = board
            .cell_at(rng.u8(range.clone()), rng.u8(range.clone()))
            .expect("on the board");
        if board.mark_at(cell).is_none() {
            return cell.index();
        }
    }
}

/// A random position of 16 to 36 stones near the centre, X to move, not over.
fn start(rng: &mut fastrand::Rng) -> Gomoku {
    loop {
        let mut board = Gomoku::new();
        for _ in 0..rng.usize(8..=18) * 2 {
            let p = empty_point(&board, rng, 4..11);
            board.play(board.cell(p).expect("a point")).expect("empty");
            if board.is_over() {
                break;
            }
        }
        if !board.is_over() {
            return board;
        }
    }
}

/// `board` with a stone of X near X's stones and one of O, most often on a point of `line`.
fn grown(board: &Gomoku, line: &[usize], rng: &mut fastrand::Rng) -> Option<Gomoku> {
    let mut next = *board;
    let x = loop {
        let p = empty_point(board, rng, 2..13);
        let cell = board.cell(p)?;
        let near = board.cells().any(|c| {
            board.mark_at(c) == Some(Mark::X)
                && c.row().abs_diff(cell.row()) <= 2
                && c.col().abs_diff(cell.col()) <= 2
        });
        if near {
            break cell;
        }
    };
    next.play(x).ok()?;
    let open: Vec<usize> = line
        .iter()
        .copied()
        .filter(|&p| next.cell(p).is_some_and(|c| next.mark_at(c).is_none()))
        .collect();
    let o = if !open.is_empty() && rng.u8(0..4) > 0 {
        open[rng.usize(..open.len())]
    } else {
        empty_point(&next, rng, 2..13)
    };
    next.play(next.cell(o)?).ok()?;
    (!next.is_over()).then_some(next)
}

fn main() {
    let args = Args::parse();
    let mut rng = fastrand::Rng::with_seed(args.seed);
    let mut found: BTreeMap<u32, Vec<String>> = BTreeMap::new();
    let full = |found: &BTreeMap<u32, Vec<String>>| {
        (1..=args.longest).all(|n| found.get(&n).is_some_and(|v| v.len() >= args.each))
    };
    for _ in 0..args.climbs {
        if full(&found) {
            break;
        }
        let mut board = start(&mut rng);
        let Some((mut n, mut line)) = shortest(&board, args.longest) else {
            continue;
        };
        for _ in 0..300 {
            let Some(next) = grown(&board, &line, &mut rng) else {
                continue;
            };
            let Some((m, next_line)) = shortest(&next, args.longest) else {
                continue;
            };
            if m < n || m == 0 {
                continue;
            }
            (board, n, line) = (next, m, next_line);
            let kept = found.entry(n).or_default();
            let text = board.to_string();
            if kept.len() < args.each && !kept.contains(&text) {
                kept.push(text);
            }
        }
    }
    for (n, boards) in &found {
        for board in boards {
            println!("{n} {board}");
        }
    }
    let counts: Vec<String> = found
        .iter()
        .map(|(n, b)| format!("{n}: {}", b.len()))
        .collect();
    eprintln!("found {}", counts.join(", "));
}
