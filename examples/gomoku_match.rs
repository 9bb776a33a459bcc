//! Plays Gomoku's `hard` (or another level, `--player`) against another player on 15×15 and
//! prints its score with a 95% Wilson interval:
//!
//! ```text
//! cargo run --release --example gomoku_match -- --against mcts --games 20 --think 100
//! cargo run --release --example gomoku_match -- --against 5 --games 40 --size 20
//! ```
//!
//! `--exact`, `--renju` and `--caro` play those rules, `--size` another board (8 to 20).
//!
//! The opponents: a level of the ladder (`--against 4`), or `mcts`, the plain Monte Carlo tree
//! search with uniformly random games (Gomoku's AI before the threat engine) thinking as long.
//! Games are played in pairs from the same opening, the first two stones drawn near the centre
//! from `--seed`, one game with each player moving first. Every budget is work, so a run
//! replays.

use std::time::Duration;

use clap::Parser;
use tictactoe::ai::mcts::{Mcts, RandomGames};
use tictactoe::ai::player::{Brain, Player};
use tictactoe::ai::rating;
use tictactoe::ai::search::Meter;
use tictactoe::rules::classic::Mark;
use tictactoe::rules::gomoku::{Gomoku, Rule};
use tictactoe::rules::position::{Move, Outcome, Position};

#[derive(Parser)]
#[command(
    about = "Plays Gomoku's hard, or a level, against a level or the plain Monte Carlo search"
)]
struct Args {
    /// The player scored: `hard` or a level 1 to 6.
    #[arg(long, default_value = "hard")]
    player: String,
    /// The opponent: a level 1 to 6, or `mcts`.
    #[arg(long, default_value = "mcts")]
    against: String,
    /// Games, in pairs (rounded up to an even number).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Milliseconds of thought a move, spent as work.
    #[arg(long, default_value_t = 100)]
    think: u64,
    /// Seed of the openings and of both players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Exactly five in a row wins (Gomoku's standard rule); five or more otherwise.
    #[arg(long)]
    exact: bool,
    /// Caro: five blocked at both ends wins nothing.
    #[arg(long, conflicts_with = "exact")]
    caro: bool,
    /// Renju: black may not make an overline, a double four or a double three.
    #[arg(long, conflicts_with_all = ["exact", "caro"])]
    renju: bool,
    /// The board's side, 8 to 20.
    #[arg(long, default_value_t = 15)]
    size: u8,
}

/// One side of a game.
enum Side {
    Brain(Box<Brain>, Player),
    Mcts(Box<Mcts<Gomoku, RandomGames>>),
}

impl Side {
    fn choose(&mut self, position: &Position, think: Duration) -> Option<Move> {
        match self {
            Side::Brain(brain, player) => brain.choose(*player, position),
            Side::Mcts(mcts) => {
                mcts.clear();
                let board = position.gomoku().expect("a Gomoku game");
                mcts.think(board, think).map(|c| Move::Cell(c.mv))
            }
        }
    }
}

fn side(args: &Args, who: &str, seed: u64) -> Side {
    let think = Duration::from_millis(args.think);
    match who {
        "mcts" => {
            let mut mcts = Mcts::with_evaluator(Some(seed), RandomGames);
            mcts.set_meter(Meter::Work);
            Side::Mcts(Box::new(mcts))
        }
        level => {
            let player = level.parse::<Player>().expect("a level or hard");
            Side::Brain(Box::new(Brain::new(Some(seed)).with_think(think)), player)
        }
    }
}

/// Two different stones near the centre, from `rng`, on the board and rules `args` give.
fn opening(rng: &mut fastrand::Rng, args: &Args) -> Position {
    let rule = match (args.exact, args.caro, args.renju) {
        (true, _, _) => Rule::Exact,
        (_, true, _) => Rule::Caro,
        (_, _, true) => Rule::Renju,
        _ => Rule::Freestyle,
    };
    let board = Gomoku::with_rule(args.size, 5, rule).expect("a board of 8 to 20");
    let mut position = Position::Gomoku(board);
    let near = args.size / 2 - 2..args.size / 2 + 3;
    while position.gomoku().is_some_and(|b| b.stones() < 2) {
        let board = position.gomoku().unwrap();
        let cell = board
            .cell_at(rng.u8(near.clone()), rng.u8(near.clone()))
            .unwrap();
        let _ = position.play(Move::Cell(cell));
    }
    position
}

/// Plays one game from `position`, X first; the winner's side index (0 for `x`), or `None`.
fn play(mut position: Position, x: &mut Side, o: &mut Side, think: Duration) -> Option<usize> {
    loop {
        match position.outcome() {
            Outcome::Won(mark) => return Some(usize::from(mark != Mark::X)),
            Outcome::Draw => return None,
            Outcome::InProgress => {}
        }
        let mover = if position.to_move() == Mark::X {
            &mut *x
        } else {
            &mut *o
        };
        let mv = mover
            .choose(&position, think)
            .expect("a move in a game in progress");
        position.play(mv).expect("a legal move");
    }
}

fn main() {
    let args = Args::parse();
    let think = Duration::from_millis(args.think);
    let mut rng = fastrand::Rng::with_seed(args.seed);
    let (mut points, mut games) = (0.0, 0u32);
    for pair in 0..args.games.div_ceil(2) {
        let start = opening(&mut rng, &args);
        for hard_first in [true, false] {
            let seed = args.seed ^ u64::from(pair) << 8 ^ u64::from(hard_first);
            let mut hard = side(&args, &args.player, seed);
            let mut other = side(&args, &args.against, seed ^ 1);
            let (x, o) = if hard_first {
                (&mut hard, &mut other)
            } else {
                (&mut other, &mut hard)
            };
            let winner = play(start, x, o, think);
            let hard_index = usize::from(!hard_first);
            points += match winner {
                Some(w) if w == hard_index => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            games += 1;
        }
        let (low, high) = rating::wilson(points / f64::from(games), f64::from(games));
        println!(
            "after {games} games: {} scored {points} ({:.3}, 95% {low:.3}-{high:.3})",
            args.player,
            points / f64::from(games)
        );
    }
}
