//! Measures the ladder of AI levels: on each board every level plays its neighbours and three
//! fixed anchors (random moves, the one-ply heuristic, the perfect `hard`), then a
//! Bradley–Terry fit rates everyone on the Elo scale with random play at 0.
//!
//! ```text
//! cargo run --release --example ladder -- --games 20
//! ```
//!
//! Each pairing plays `--games` games in pairs: both games of a pair start from the same random
//! opening (two plies; distinct pairs draw distinct openings where the board has enough), or on
//! Gomoku from the next of `--openings`, one with each player moving first. Gomoku's ladder is
//! measured from balanced openings:
//!
//! ```text
//! cargo run --release --example ladder -- --boards g --games 64 --think 100 \
//!     --openings balanced-15.txt --concurrency 2
//! ```
//!
//! The one-ply heuristic is the old `medium` on classic boards (win, else block, else build the
//! most lines); in Ultimate, where no one-ply rule plays sensibly, it is a 250-playout search
//! without the move prior; Gomoku has none, and plays random moves there. `hard` thinks `--think`
//! milliseconds, spent as work, so every game replays from `--seed`.

use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use clap::Parser;
use tictactoe::ai::levels::{Adaptive, Level};
use tictactoe::ai::mcts::{self, Mcts};
use tictactoe::ai::player::{Brain, Player, medium_candidates};
use tictactoe::ai::rating::{self, Pairing};
use tictactoe::rules::classic::{Mark, Rules};
use tictactoe::rules::position::{Move, Outcome, Position, Variant};

#[path = "common/openings.rs"]
mod file;

#[derive(Parser)]
#[command(about = "Plays the AI levels against each other and anchors, and rates them")]
struct Args {
    /// The boards: 3 to 7 for classic N×N boards (default k), u for Ultimate, g for Gomoku, ge for Gomoku with exactly five, c4 for Connect Four.
    #[arg(long, value_delimiter = ',', default_value = "3,5,7,u")]
    boards: Vec<String>,
    /// Games per pairing (rounded up to an even number).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Milliseconds of thought for `hard` (level 7), spent as work.
    #[arg(long, default_value_t = 100)]
    think: u64,
    /// Seed of the openings and of every player.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Instead of the ladder: each fixed level meets `--level auto` (a new person, rated as
    /// level 4, whose rating follows the results) for `--games` games, alternating colours,
    /// and its score is printed.
    #[arg(long)]
    auto: bool,
    /// Gomoku only: a file of openings (one a line, `x,y` stones in the order played, black
    /// first) to start the games from instead of two random plies, taken in turn.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Pairings played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
}

/// Someone on the ladder or an anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Agent {
    Random,
    Heuristic,
    Level(Level),
}

impl Agent {
    fn name(self) -> String {
        match self {
            Agent::Random => "random".into(),
            Agent::Heuristic => "one-ply".into(),
            Agent::Level(l) if l.is_top() => format!("{} (hard)", l.number()),
            Agent::Level(l) => l.number().to_string(),
        }
    }
}

/// Everyone rated: the anchors, then the levels (the top level is `hard`).
fn agents() -> Vec<Agent> {
    let mut all = vec![Agent::Random, Agent::Heuristic];
    all.extend(Level::all().map(Agent::Level));
    all
}

/// A player's move chooser for one game.
struct Seat {
    agent: Agent,
    brain: Brain,
    rng: fastrand::Rng,
    mcts: Mcts,
}

impl Seat {
    fn new(agent: Agent, seed: u64, think: Duration) -> Seat {
        Seat {
            agent,
            brain: Brain::new(Some(seed)).with_think(think),
            rng: fastrand::Rng::with_seed(seed),
            mcts: Mcts::new(Some(seed)),
        }
    }

    fn choose(&mut self, position: &Position) -> Option<Move> {
        let moves = position.legal_moves();
        let pick = |rng: &mut fastrand::Rng, moves: &[Move]| {
            (!moves.is_empty()).then(|| moves[rng.usize(..moves.len())])
        };
        match (self.agent, position) {
            // Gomoku and Connect Four have no heuristic player of their own yet.
            (Agent::Random, _)
            | (Agent::Heuristic, Position::Gomoku(_) | Position::ConnectFour(_)) => {
                pick(&mut self.rng, &moves)
            }
            (Agent::Heuristic, Position::Classic(board)) => {
                let cells: Vec<Move> = medium_candidates(board)
                    .into_iter()
                    .map(Move::from)
                    .collect();
                pick(&mut self.rng, &cells)
            }
            (Agent::Heuristic, Position::Ultimate(board)) => self
                .mcts
                .choose(mcts::Effort::Medium, board, Duration::ZERO)
                .map(Move::from),
            (Agent::Level(level), _) => self.brain.choose(Player::Ai(level), position),
        }
    }
}

/// Plays one game from `opening`; the points of `x` (1, ½ or 0).
fn play(variant: Variant, opening: &[Move], x: &mut Seat, o: &mut Seat) -> f64 {
    let mut position = variant.start();
    for &mv in opening {
        position.play(mv).expect("openings are legal");
    }
    while !position.is_over() {
        let seat = match position.to_move() {
            Mark::X => &mut *x,
            Mark::O => &mut *o,
        };
        let mv = seat
            .choose(&position)
            .expect("a game in progress has a move");
        position.play(mv).expect("every AI plays legal moves");
    }
    match position.outcome() {
        Outcome::Won(Mark::X) => 1.0,
        Outcome::Won(_) => 0.0,
        _ => 0.5,
    }
}

/// `count` openings of two random plies that do not end the game, distinct while the board
/// has enough.
fn openings(variant: Variant, count: usize, rng: &mut fastrand::Rng) -> Vec<Vec<Move>> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for attempt in 0..count * 50 {
        if out.len() == count {
            break;
        }
        let mut position = variant.start();
        let mut line = Vec::new();
        for _ in 0..2 {
            let moves = position.legal_moves();
            let mv = moves[rng.usize(..moves.len())];
            position.play(mv).expect("a legal move");
            line.push(mv);
        }
        if position.is_over() || (!seen.insert(line.clone()) && attempt < count * 40) {
            continue;
        }
        out.push(line);
    }
    out
}

/// `count` openings for `variant`: the file's, in turn, where one is given and the board
/// is Gomoku's; else [`openings`].
fn starts(variant: Variant, args: &Args, count: usize, rng: &mut fastrand::Rng) -> Vec<Vec<Move>> {
    match (&args.openings, variant.start()) {
        (Some(path), Position::Gomoku(board)) => file::read(path, &board)
            .into_iter()
            .map(|(_, cells)| cells.into_iter().map(Move::Cell).collect())
            .cycle()
            .take(count)
            .collect(),
        _ => openings(variant, count, rng),
    }
}

/// Who plays whom: each level its upper neighbour and the three anchors; the anchors each
/// other.
fn schedule(all: &[Agent]) -> Vec<(usize, usize)> {
    let at = |a: Agent| {
        all.iter()
            .position(|&b| b == a)
            .expect("every agent is listed")
    };
    let (random, heuristic, hard) = (
        at(Agent::Random),
        at(Agent::Heuristic),
        at(Agent::Level(Level::HARD)),
    );
    let mut pairs = vec![(heuristic, random)];
    for level in Level::all() {
        let me = at(Agent::Level(level));
        if !level.is_top() {
            pairs.push((me, at(Agent::Level(level.up()))));
        }
        for anchor in [random, heuristic, hard] {
            if anchor != me && !pairs.contains(&(anchor, me)) && !pairs.contains(&(me, anchor)) {
                pairs.push((me, anchor));
            }
        }
    }
    pairs
}

fn variant_of(name: &str) -> Result<Variant, String> {
    if name.eq_ignore_ascii_case("u") {
        return Ok(Variant::Ultimate);
    }
    if name.eq_ignore_ascii_case("g") {
        return Ok(Variant::GOMOKU);
    }
    if name.eq_ignore_ascii_case("ge") {
        return Ok(Variant::GOMOKU_EXACT);
    }
    if name.eq_ignore_ascii_case("c4") {
        return Ok(Variant::CONNECT_FOUR);
    }
    let size: u8 = name.parse().map_err(|_| format!("{name}: not a board"))?;
    let rules = Rules::new(size, Rules::default_k(size), false).map_err(|e| e.to_string())?;
    Ok(Variant::from(rules))
}

/// Plays every pairing on `variant`; each one's results, and prints them.
fn measure(variant: Variant, args: &Args, all: &[Agent]) -> Vec<Pairing> {
    let pairs = args.games.div_ceil(2) as usize;
    let mut rng = fastrand::Rng::with_seed(args.seed);
    let starts = starts(variant, args, pairs, &mut rng);
    let think = Duration::from_millis(args.think);
    let schedule = schedule(all);
    let next = AtomicUsize::new(0);
    let results = Mutex::new(vec![None; schedule.len()]);
    let work = || {
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some(&(a, b)) = schedule.get(i) else {
                break;
            };
            let pairing = pairing(variant, &starts, args.seed, think, all, (a, b));
            results.lock().expect("a runner")[i] = Some(pairing);
        }
    };
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.max(1) {
            scope.spawn(work);
        }
    });
    let results = results.into_inner().expect("every runner ended");
    results
        .into_iter()
        .map(|r| r.expect("every pairing played"))
        .collect()
}

/// Plays `a` against `b` from each of `starts` with both colours; prints and returns it.
fn pairing(
    variant: Variant,
    starts: &[Vec<Move>],
    seed: u64,
    think: Duration,
    all: &[Agent],
    (a, b): (usize, usize),
) -> Pairing {
    let mut score = 0.0;
    for (n, opening) in starts.iter().enumerate() {
        let seed = seed ^ (n as u64) << 8 ^ (a * 16 + b) as u64;
        let mut sa = Seat::new(all[a], seed, think);
        let mut sb = Seat::new(all[b], seed ^ 1, think);
        score += play(variant, opening, &mut sa, &mut sb);
        score += 1.0 - play(variant, opening, &mut sb, &mut sa);
    }
    let games = 2.0 * f64::from(u32::try_from(starts.len()).unwrap_or(u32::MAX));
    println!(
        "{variant}: {:>10} vs {:<10} {:>5.1} / {games} ({:.0}%)",
        all[a].name(),
        all[b].name(),
        score,
        100.0 * score / games
    );
    Pairing { a, b, score, games }
}

/// Each fixed level against the adapting AI on `variant`: the fixed level's score and where
/// the adapting AI ended.
fn against_auto(variant: Variant, args: &Args) {
    let think = Duration::from_millis(args.think);
    let mut rng = fastrand::Rng::with_seed(args.seed);
    let starts = starts(variant, args, args.games as usize, &mut rng);
    for fixed in Level::all() {
        let mut auto = Adaptive::new(variant, []);
        let mut score = 0.0;
        for (n, opening) in starts.iter().enumerate() {
            let seed = args.seed ^ (n as u64) << 8 ^ u64::from(fixed.number());
            let mut me = Seat::new(Agent::Level(fixed), seed, think);
            let met = auto.level();
            let mut it = Seat::new(Agent::Level(met), seed ^ 1, think);
            let points = if n % 2 == 0 {
                play(variant, opening, &mut me, &mut it)
            } else {
                1.0 - play(variant, opening, &mut it, &mut me)
            };
            score += points;
            auto.record(met, points);
        }
        println!(
            "{variant}: level {} against auto: {score:.1} / {} ({:.0}%), auto ended at {}",
            fixed.number(),
            starts.len(),
            100.0 * score / f64::from(u32::try_from(starts.len()).unwrap_or(u32::MAX)),
            auto.level().number()
        );
    }
}

fn main() {
    let args = Args::parse();
    let variants: Result<Vec<Variant>, String> =
        args.boards.iter().map(|b| variant_of(b)).collect();
    let variants = match variants {
        Ok(v) => v,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    if args.auto {
        for &variant in &variants {
            against_auto(variant, &args);
        }
        return;
    }
    let all = agents();
    let mut columns = Vec::new();
    for &variant in &variants {
        let results = measure(variant, &args, &all);
        columns.push(rating::fit(all.len(), &results, 0));
    }
    let heads: Vec<String> = variants.iter().map(ToString::to_string).collect();
    println!("\n| player | {} |", heads.join(" | "));
    println!("|---|{}", "---:|".repeat(heads.len()));
    for (i, agent) in all.iter().enumerate() {
        let cells: Vec<String> = columns.iter().map(|c| format!("{:.0}", c[i])).collect();
        println!("| {} | {} |", agent.name(), cells.join(" | "));
    }
}
