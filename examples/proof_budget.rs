//! Measures how much of its budget the search needs to prove the positions `hard` meets: it
//! plays seeded `hard` against `hard` games on each board and, for every distinct position of
//! those games, proves its value with a fresh search (an empty table, so nothing is carried
//! over from the game) and reports the distribution of the work and time that took.
//!
//! ```text
//! cargo run --release --example proof_budget -- --boards 5,6,7 --games 5
//! ```
//!
//! Budgets are spent as work (the unit `--think` buys with a seed, 28,000 a millisecond),
//! so each search, and the share proven within a tenth of the budget, is the same on any
//! machine under any load; only the times differ. A position counts as proven within a tenth
//! when a search given a tenth of `--think` returns a proven value; the others are searched
//! again with the whole budget, and those still unproven are listed. A second figure keeps
//! the table as a game does: a searcher that follows each game and is given a tenth of the
//! budget at every position, its table kept from move to move (a machine ten times slower,
//! playing the same game).

// Counts and work here stay far below 2^52, where f64 is exact.
#![allow(clippy::cast_precision_loss)]

use std::time::{Duration, Instant};

use clap::Parser;
use tictactoe::ai::player::{Brain, Player};
use tictactoe::ai::search::{Meter, Searcher, Value, WORK_PER_MS};
use tictactoe::rules::classic::{Board, Outcome, Rules};

#[derive(Parser)]
#[command(about = "Plays seeded hard-against-hard games and measures the work of each proof")]
struct Args {
    /// Board sides, each with its default line length (5 to 7: 4, 5 and 5 in a row).
    #[arg(long, value_delimiter = ',', default_value = "5,6,7")]
    boards: Vec<u8>,
    /// Line length for every board instead of the default.
    #[arg(long)]
    k: Option<u8>,
    /// Games per board, with seeds `--seed`, `--seed + 1`, ...
    #[arg(long, default_value_t = 5)]
    games: u64,
    /// The first seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The budget of each `hard` move and each proof, in milliseconds (spent as work).
    #[arg(long, default_value_t = 1000)]
    think: u64,
    /// Also print every position with its work.
    #[arg(long)]
    verbose: bool,
}

/// One position's proof.
struct Proof {
    board: Board,
    /// Proven by the searcher that followed the game with a tenth of the budget a move.
    in_game: bool,
    /// Work of the search that settled it (the tenth's search, or the full one).
    work: u64,
    time: Duration,
    value: Value,
    within_tenth: bool,
}

fn main() {
    let args = Args::parse();
    let budget = Duration::from_millis(args.think);
    println!(
        "budget {} ms = {} work; a tenth = {} work",
        args.think,
        Meter::work(budget),
        Meter::work(budget / 10)
    );
    for &n in &args.boards {
        let k = args.k.unwrap_or(Rules::default_k(n));
        let Ok(rules) = Rules::new(n, k, false) else {
            eprintln!("no such board: {n}×{n} with {k}");
            continue;
        };
        let positions = positions(rules, &args, budget);
        let proofs: Vec<Proof> = positions
            .into_iter()
            .map(|(b, in_game)| prove(b, in_game, budget))
            .collect();
        summarise(n, k, &proofs, &args);
    }
}

/// Every distinct unfinished position of `args.games` seeded `hard` against `hard` games,
/// each with whether a searcher following the game proved it within a tenth of the budget.
fn positions(rules: Rules, args: &Args, budget: Duration) -> Vec<(Board, bool)> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for seed in args.seed..args.seed + args.games {
        let mut brain = Brain::new(Some(seed)).with_think(budget);
        let mut follower = Searcher::new();
        follower.set_meter(Meter::Work);
        let mut board = Board::new(rules);
        while board.outcome() == Outcome::InProgress {
            let thought = follower.think(&board, Some(budget / 10));
            let in_game = thought.is_some_and(|t| t.value.is_proven());
            if seen.insert(board.to_string()) {
                out.push((board, in_game));
            }
            let cell = brain
                .choose_cell(Player::HARD, &board)
                .expect("a game in progress has a move");
            board.play(cell).expect("hard plays legal moves");
        }
        println!(
            "{}×{} seed {seed}: {:?} after {} moves",
            rules.size(),
            rules.k(),
            board.outcome(),
            board.marks()
        );
    }
    out
}

/// Proves `board` with a tenth of `budget`, and if that fails with all of it.
fn prove(board: Board, in_game: bool, budget: Duration) -> Proof {
    let search = |share: Duration| {
        let mut searcher = Searcher::new();
        searcher.set_meter(Meter::Work);
        let start = Instant::now();
        let thought = searcher.think(&board, Some(share)).expect("in progress");
        (thought.value, searcher.work(), start.elapsed())
    };
    let (value, work, time) = search(budget / 10);
    if value.is_proven() {
        return Proof {
            board,
            in_game,
            work,
            time,
            value,
            within_tenth: true,
        };
    }
    let (value, work, time) = search(budget);
    Proof {
        board,
        in_game,
        work,
        time,
        value,
        within_tenth: false,
    }
}

/// The value at quantile `q` (0 to 1) of sorted `xs`, nearest rank.
fn quantile<T: Copy>(xs: &[T], q: f64) -> T {
    let rank = ((q * xs.len() as f64).ceil() as usize).clamp(1, xs.len());
    xs[rank - 1]
}

fn summarise(n: u8, k: u8, proofs: &[Proof], args: &Args) {
    if proofs.is_empty() {
        return;
    }
    let proven: Vec<&Proof> = proofs.iter().filter(|p| p.value.is_proven()).collect();
    let tenth = proofs.iter().filter(|p| p.within_tenth).count();
    let in_game = proofs.iter().filter(|p| p.in_game).count();
    let mut works: Vec<u64> = proven.iter().map(|p| p.work).collect();
    works.sort_unstable();
    let mut times: Vec<Duration> = proven.iter().map(|p| p.time).collect();
    times.sort_unstable();
    let ms = |w: u64| w as f64 / WORK_PER_MS as f64;
    println!(
        "{n}×{n}, {k} in a row: {} positions; proven within a tenth of the budget {tenth} \
         ({:.1}%), within the budget {} ({:.1}%)",
        proofs.len(),
        100.0 * tenth as f64 / proofs.len() as f64,
        proven.len(),
        100.0 * proven.len() as f64 / proofs.len() as f64,
    );
    println!(
        "  proven within a tenth of the budget by a searcher that followed the game, its table \
         kept: {in_game} ({:.1}%)",
        100.0 * in_game as f64 / proofs.len() as f64
    );
    if !works.is_empty() {
        let (median, p95, max) = (
            quantile(&works, 0.5),
            quantile(&works, 0.95),
            quantile(&works, 1.0),
        );
        println!(
            "  work of the proofs: median {median} ({:.2} ms), 95th percentile {p95} ({:.2} ms), \
             max {max} ({:.2} ms)",
            ms(median),
            ms(p95),
            ms(max)
        );
        println!(
            "  time of the proofs: median {:.2?}, 95th percentile {:.2?}, max {:.2?}",
            quantile(&times, 0.5),
            quantile(&times, 0.95),
            quantile(&times, 1.0)
        );
    }
    for p in proofs {
        if args.verbose || !p.within_tenth {
            let mut mark = if p.value.is_proven() {
                String::new()
            } else {
                " NOT PROVEN".to_string()
            };
            if !p.in_game {
                mark.push_str(" (not proven in the game with a tenth)");
            }
            println!(
                "  {} ({} marks): {}, work {} ({:.2?}){mark}",
                p.board,
                p.board.marks(),
                p.value,
                p.work,
                p.time
            );
        }
    }
}
