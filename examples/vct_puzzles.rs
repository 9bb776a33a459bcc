//! Finds Gomoku puzzles won by threats and not by fours: X, to move, has no victory by
//! continuous fours (VCF), but has a threat (a stone after which a free move would win by
//! fours) that no reply stops: after every reply, anywhere on the board, X wins by fours. One
//! puzzle a line, `1 <position>` (one threat before the fours, X to move):
//!
//! ```text
//! cargo run --release --example vct_puzzles -- --seed 1 --count 12 > tests/data/vct_puzzles.txt
//! ```
//!
//! The positions are random, 16 to 36 stones near the centre. The engine's own search of
//! fours ([`Threats::vcf`]) finds the victories here; the tests check every puzzle with a
//! search of their own written from the rules alone (`tests/vcf.rs`), and that `hard` plays a
//! threat that wins.

use clap::Parser;
use tictactoe::ai::threats::{Threats, side};
use tictactoe::rules::gomoku::Gomoku;

#[derive(Parser)]
#[command(about = "Finds Gomoku positions won by one threat and then fours, and not by fours")]
struct Args {
    /// Puzzles to find.
    #[arg(long, default_value_t = 12)]
    count: usize,
    /// Seed of the random positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions tried before giving up.
    #[arg(long, default_value_t = 20_000)]
    tries: usize,
}

/// The longest victory by fours looked for.
const FOURS: u32 = 11;
/// Positions one search of fours may look at: far more than any victory here needs.
const BUDGET: u32 = 5_000_000;

/// A random position of 16 to 36 stones near the centre, X to move, not over, where neither
/// side has a point of five.
fn start(rng: &mut fastrand::Rng) -> Option<Gomoku> {
    let mut board = Gomoku::new();
    for _ in 0..rng.usize(8..=18) * 2 {
        let cell = board.cell_at(rng.u8(4..11), rng.u8(4..11))?;
        if board.mark_at(cell).is_none() {
            board.play(cell).ok()?;
        }
        if board.is_over() {
            return None;
        }
    }
    let threats = Threats::new(&board);
    let quiet = threats.fives(0).is_empty() && threats.fives(1).is_empty();
    (quiet && side(board.to_move()) == 0).then_some(board)
}

/// Whether the side to move (`me`) wins by fours, with at most [`FOURS`] fours.
fn wins_by_fours(threats: &mut Threats, me: usize) -> bool {
    threats.vcf(me, FOURS, &mut { BUDGET }).is_some()
}

/// Whether `me`'s stone on `x` is a threat no reply stops: the other side then has no five,
/// a free move would win by fours, and so does every reply.
fn threat_wins(threats: &mut Threats, x: usize, me: usize) -> bool {
    let other = 1 - me;
    threats.place(x, me);
    let wins = threats.fives(other).is_empty()
        && wins_by_fours(threats, me)
        && threats.empty_points().into_iter().all(|r| {
            threats.place(r, other);
            let won = threats.fives(other).is_empty() && wins_by_fours(threats, me);
            threats.remove(r, other);
            won
        });
    threats.remove(x, me);
    wins
}

fn main() {
    let args = Args::parse();
    let mut rng = fastrand::Rng::with_seed(args.seed);
    let mut found = 0;
    for _ in 0..args.tries {
        if found >= args.count {
            break;
        }
        let Some(board) = start(&mut rng) else {
            continue;
        };
        let mut threats = Threats::new(&board);
        if wins_by_fours(&mut threats, 0) {
            continue;
        }
        if threats
            .candidates()
            .into_iter()
            .any(|x| threat_wins(&mut threats, x, 0))
        {
            println!("1 {board}");
            found += 1;
        }
    }
    if found < args.count {
        eprintln!("found {found} of {} puzzles", args.count);
        std::process::exit(1);
    }
}
