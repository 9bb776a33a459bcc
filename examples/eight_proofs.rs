//! How far the proof search reaches on 8×8 with five in a row (a draw, proven by Ko, Hsu et
//! al. in 2020 with a search of their own): the empty board and each of its ten distinct first
//! moves, each given `--seconds` of search on one table kept from one to the next (first moves
//! first, so the empty board meets what they proved), and the stone from which the positions
//! of seeded `hard`-against-`hard` games are proven within `--game-ms` each.
//!
//! ```text
//! cargo run --release --example eight_proofs -- --seconds 300 --table-mb 2048
//! ```
//!
//! The proofs are timed by the clock, so their figures are this machine's; the games are
//! seeded and replay the same anywhere.

use std::time::{Duration, Instant};

use clap::Parser;
use tictactoe::ai::player::{Brain, Player};
use tictactoe::ai::search::{Meter, Searcher, Value};
use tictactoe::rules::classic::{Board, Cell, Rules};
use tictactoe::rules::position::{Position, Variant};

#[derive(Parser)]
#[command(about = "Measures how far the proof search reaches on 8×8 with five in a row")]
struct Args {
    /// Seconds of search for the empty board and for each first move.
    #[arg(long, default_value_t = 300)]
    seconds: u64,
    /// The search table's size.
    #[arg(long, default_value_t = 1024)]
    table_mb: usize,
    /// Seeded games of `hard` against `hard` whose positions are proven one by one.
    #[arg(long, default_value_t = 4)]
    games: u64,
    /// Milliseconds of search for each position of those games.
    #[arg(long, default_value_t = 1000)]
    game_ms: u64,
}

fn main() {
    let args = Args::parse();
    let rules = Rules::for_proof(8, 5).expect("the search takes 8×8 with five");
    let empty = Board::new(rules);
    let mut searcher = Searcher::with_table_mb(args.table_mb);
    searcher.set_meter(Meter::Clock);
    let budget = Duration::from_secs(args.seconds);
    println!(
        "8×8, five in a row; {} s a position, a {} MiB table kept throughout",
        args.seconds, args.table_mb
    );
    for cell in first_moves(&empty) {
        let mut board = empty;
        board.play(cell).expect("an empty cell");
        report(&mut searcher, &format!("after {cell}"), &board, budget);
    }
    report(&mut searcher, "the empty board", &empty, budget);
    println!(
        "\nseeded hard-against-hard games, {} ms a position, a fresh table each",
        args.game_ms
    );
    for seed in 1..=args.games {
        proven_from(seed, args.game_ms);
    }
}

/// The first moves no symmetry of the board maps onto one another: the cells of one eighth,
/// a1 to d4 with the row at most the column.
fn first_moves(board: &Board) -> Vec<Cell> {
    (0..4u8)
        .flat_map(|row| (row..4).map(move |col| (row, col)))
        .filter_map(|(row, col)| board.cell_at(row, col))
        .collect()
}

/// Searches `board` within `budget` and prints what the search proved, its time and work.
fn report(searcher: &mut Searcher, name: &str, board: &Board, budget: Duration) {
    let (start, work) = (Instant::now(), searcher.work());
    let thought = searcher
        .think(board, Some(budget))
        .expect("a game in progress");
    println!(
        "{name:>16}: {:<22} {:>7.1} s, {:>13} work",
        describe(thought.value),
        start.elapsed().as_secs_f64(),
        searcher.work() - work
    );
}

fn describe(value: Value) -> String {
    if value.is_proven() || value.is_bound() {
        format!("{value}")
    } else {
        "not proven".to_string()
    }
}

/// Plays the seeded game `seed` of `hard` against `hard` and prints the first stone count
/// from which every position of it is proven within `ms` by a fresh search.
fn proven_from(seed: u64, ms: u64) {
    let mut position = Variant::of_size(8, None, false).expect("8×8").start();
    let mut brain = Brain::new(Some(seed));
    let mut boards = Vec::new();
    while !position.is_over() {
        let gomoku = *position.gomoku().expect("a Gomoku board");
        boards.push(gomoku);
        let mv = brain.choose(Player::HARD, &position).expect("a move");
        position.play(mv).expect("a legal move");
    }
    let proven: Vec<bool> = boards
        .iter()
        .map(|g| {
            let board = g.as_classic().expect("8×8 with five");
            let mut searcher = Searcher::new();
            searcher.set_meter(Meter::Clock);
            let thought = searcher.think(&board, Some(Duration::from_millis(ms)));
            thought.is_some_and(|t| t.value.is_proven() || t.value.is_bound())
        })
        .collect();
    let from = proven.iter().rposition(|&p| !p).map_or(0, |i| i + 1);
    let outcome = match Position::outcome(&position) {
        tictactoe::rules::position::Outcome::Won(mark) => format!("{mark} won"),
        _ => "a draw".to_string(),
    };
    println!(
        "  game {seed}: {} stones, {outcome}; proven from stone {from} on ({} of {} positions)",
        boards.len(),
        proven.iter().filter(|&&p| p).count(),
        boards.len()
    );
}
