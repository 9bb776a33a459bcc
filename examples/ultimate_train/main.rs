//! Self-play games and training for the learned evaluation of Ultimate positions
//! (`src/ai/mcts/value.rs`), in plain Rust.
//!
//! ```text
//! cargo run --release --example ultimate_train -- generate --games 3000 --out target/ultimate/selfplay.txt
//! cargo run --release --example ultimate_train -- train --data target/ultimate/selfplay.txt
//! cargo run --release --example ultimate_train -- generate --engine hard --out target/ultimate/round2.txt
//! cargo run --release --example ultimate_train -- train --data target/ultimate/round2.txt --data target/ultimate/round3.txt
//! ```
//!
//! `generate` plays games of the engine against itself: a few uniformly random first moves
//! (so that games differ), then the search (`--engine`: `Settings::FROZEN`, or `Settings::HARD`
//! guided by the network this build embeds, or the one `--network` names) with a fixed number of iterations a move, its tree
//! kept between moves. Each game is one line: the result (`X`,
//! `O` or `D`), the number of random first moves, the moves as indices (board × 9 + cell),
//! after `|` the search's value of each searched position for its side to move (0 to 1), and
//! after a second `|` each searched position's moves with their visits (`index:visits`, joined
//! by commas; the imaginary visits of the prior left out; `-` where the search proved the
//! position, whose move played is then the policy's target). Everything follows from `--seed`.
//! `--network FILE` has `hard` play on a network `train` wrote instead of the embedded one, to
//! play the next round's games before that network is embedded; `--policy W` and `--minimax W`
//! set the weights of its policy and of the minimax estimates (`hard`'s own without them).
//!
//! With `--policy-weight W` above 0, `train` also fits a policy (a network of its own over the
//! same inputs; see `value`'s module docs) to the share of the visits each move got (the move
//! played, in files without visits), by cross-entropy weighted `W` beside the value's squared
//! error; `--value-from FILE` copies the value from a weights file and keeps it as it is.
//! `--value-start FILE` starts the value from a weights file's and trains it on (a new round
//! of games refining the value that played them).
//! `--hidden N` (64, 128 or 256) sets the network's hidden units; beside `--value-from`, the
//! policy's (the value keeps its own, and the file says both). `--policy-from FILE` starts the
//! policy from a file's instead of random weights; with `--value-from` and `--epochs 0` it
//! writes one file's value beside another's policy.
//!
//! `train` replays every game in the eight symmetries of the grid (the same turn or mirror of
//! the big board and of every small board), takes each searched position with the target
//! `w * result + (1 - w) * search value` (from the side to move, in −1..=1), holds one game in
//! ten out for validation, and fits the network by Adam on the squared error. It writes the
//! weights of the epoch with the lowest validation loss, and beside them a check file of
//! validation positions with this program's own value of each, which the engine's tests
//! compare with the embedded network's.

// Counts of positions become floats for averages: exact far beyond any data set here.
#![allow(clippy::cast_precision_loss)]

use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use tictactoe::ai::mcts::value::{self, MAX_ACTIVE, Network, Shape, WIDTHS, value_parameters};
use tictactoe::ai::mcts::{Mcts, Settings};
use tictactoe::ai::search::Value;
use tictactoe::rules::ultimate::{Outcome, UltimateBoard};

mod model;
use model::{Adam, Errors, Model, Samples};

#[derive(Parser)]
#[command(about = "Self-play data and training for the learned evaluation of Ultimate positions")]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Play games of the engine against itself and write them, one a line.
    Generate {
        /// Games to play.
        #[arg(long, default_value_t = 3000)]
        games: u32,
        /// Search iterations a move.
        #[arg(long, default_value_t = 500)]
        iterations: u64,
        /// At most this many uniformly random first moves (at least 2).
        #[arg(long, default_value_t = 8)]
        random: usize,
        /// Seed for every random choice.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The search that plays: `frozen` (random games, the first data set) or `hard`
        /// (guided by the embedded network, or `--network`'s: the next round's data).
        #[arg(long, default_value = "frozen", value_parser = parse_engine)]
        engine: Settings,
        /// A weights file `hard` values positions by instead of the embedded network.
        #[arg(long)]
        network: Option<PathBuf>,
        /// The weight of the network's policy in `hard`'s choice of children
        /// (`Settings::policy`, the engine's own without it; the network must have a policy).
        #[arg(long)]
        policy: Option<f32>,
        /// The visits from which `hard`'s nodes ask the policy (`Settings::policy_visits`).
        #[arg(long)]
        policy_visits: Option<u32>,
        /// The weight of the minimax estimates in `hard`'s choice of children
        /// (`Settings::minimax`, the engine's own without it).
        #[arg(long)]
        minimax: Option<f32>,
        /// Where to write the games.
        #[arg(long, default_value = "target/ultimate/selfplay.txt")]
        out: PathBuf,
    },
    /// Fit the network to games written by `generate`.
    Train(TrainArgs),
}

/// What `train` is given.
#[derive(clap::Args)]
struct TrainArgs {
    /// The games.
    #[arg(long, default_value = "target/ultimate/selfplay.txt")]
    data: Vec<PathBuf>,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 12)]
    epochs: u32,
    /// Adam's step size.
    #[arg(long, default_value_t = 0.001)]
    lr: f32,
    /// Weight of the game's result in the target (the search's value has the rest).
    #[arg(long, default_value_t = 0.5)]
    result_weight: f32,
    /// Weight of the policy's cross-entropy in the loss; above 0 the network gets a policy,
    /// trained on the visits of each search (or the move played, in files without
    /// them).
    #[arg(long, default_value_t = 0.0)]
    policy_weight: f32,
    /// Take the value (and the hidden layer) from this weights file and keep it as it is:
    /// only the policy is trained.
    #[arg(long)]
    value_from: Option<PathBuf>,
    /// Start the value (and the hidden layer) from this weights file's instead of random
    /// weights, and train it on: a round of new games refines the value played them. The
    /// file's value must be as wide as the one trained (`--hidden`).
    #[arg(long, conflicts_with = "value_from")]
    value_start: Option<PathBuf>,
    /// Start the policy from this weights file's instead of random weights; needs a
    /// `--policy-weight`, and the file's policy as wide as the one trained (`--hidden`, by
    /// default the value's width). With `--value-from` and `--epochs 0`, writes that value
    /// beside this policy, and their check file.
    #[arg(long)]
    policy_from: Option<PathBuf>,
    /// Hidden units of the network trained, 64, 128 or 256; with `--value-from`, of the
    /// policy (the value keeps its own) [default: the width of the value of
    /// `--value-from`, else of the embedded network]
    #[arg(long, value_parser = parse_width)]
    hidden: Option<usize>,
    /// Seed for the initial weights and the order of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the weights.
    #[arg(long, default_value = "src/ai/mcts/ultimate_value.bin")]
    out: PathBuf,
    /// Where to write validation positions with this program's value of each.
    #[arg(long, default_value = "src/ai/mcts/ultimate_value_check.txt")]
    check: PathBuf,
}

fn main() -> anyhow::Result<()> {
    match Args::parse().command {
        Command::Generate {
            games,
            iterations,
            random,
            seed,
            mut engine,
            network,
            policy,
            policy_visits,
            minimax,
            out,
        } => {
            engine.policy = policy.unwrap_or(engine.policy);
            engine.policy_visits = policy_visits.unwrap_or(engine.policy_visits);
            engine.minimax = minimax.unwrap_or(engine.minimax);
            let network = match network {
                Some(path) => Box::leak(Box::new(read_network(&path)?)),
                None => value::embedded(),
            };
            if engine.policy > 0.0 && !network.has_policy() {
                bail!(
                    "the engine weighs a policy (--policy): give a --network with one, or --policy 0"
                );
            }
            generate(
                games,
                (iterations, engine, network),
                random.max(2),
                seed,
                &out,
            )
        }
        Command::Train(args) => run_train(&args),
    }
}

/// Reads what `train` starts from, and the games, then trains.
fn run_train(args: &TrainArgs) -> anyhow::Result<()> {
    if args.value_from.is_some() && args.policy_weight <= 0.0 {
        bail!("--value-from trains only a policy: give it a --policy-weight");
    }
    // At most one of the two (clap refuses both): the value read from a file, and whether it
    // is kept as it is or trained on.
    let value_file = args.value_from.as_ref().or(args.value_start.as_ref());
    let keep_value = args.value_from.is_some();
    let read_value = match value_file {
        Some(path) => Some((read_network(path)?, path)),
        None => None,
    };
    // By default as wide as the value read, else as the embedded network's.
    let hidden = args.hidden.unwrap_or_else(|| {
        read_value
            .as_ref()
            .map_or_else(|| value::embedded(), |(n, _)| n)
            .shape()
            .value
    });
    let shape = Shape {
        value: match &read_value {
            Some((n, _)) if keep_value => n.shape().value,
            _ => hidden,
        },
        policy: (args.policy_weight > 0.0).then_some(hidden),
    };
    let start_value = match read_value {
        Some((n, _)) if n.shape().value == shape.value => {
            Some(n.parameters()[..value_parameters(shape.value)].to_vec())
        }
        Some((n, path)) => bail!(
            "{} has a value of {} units, not {}",
            path.display(),
            n.shape().value,
            shape.value
        ),
        None => None,
    };
    let start_policy = match &args.policy_from {
        Some(path) => Some(policy_of(&read_network(path)?, shape, path)?),
        None => None,
    };
    let mut games = Vec::new();
    for path in &args.data {
        games.extend(read_games(path)?);
    }
    let how = Training {
        result_weight: args.result_weight,
        policy_weight: args.policy_weight,
        start_value,
        keep_value,
        start_policy,
        lr: args.lr,
        seed: args.seed,
        shape,
    };
    train(&games, args.epochs, &how, (&args.out, &args.check))
}

/// The policy's parameters of `network` (read from `path`), which must be as wide as the
/// policy of `shape`.
fn policy_of(network: &Network, shape: Shape, path: &Path) -> anyhow::Result<Vec<f32>> {
    let theirs = network.shape();
    match (theirs.policy, shape.policy) {
        (Some(p), Some(q)) if p == q => {
            Ok(network.parameters()[value_parameters(theirs.value)..].to_vec())
        }
        (Some(p), Some(q)) => bail!(
            "{} has a policy of {p} units, not {q}: give --hidden {p}",
            path.display()
        ),
        (None, _) => bail!("{} has no policy", path.display()),
        (_, None) => bail!("--policy-from starts a policy: give a --policy-weight"),
    }
}

/// The network in the weights file `path`.
fn read_network(path: &PathBuf) -> anyhow::Result<Network> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Network::from_bytes(&bytes).with_context(|| format!("{} is not a network", path.display()))
}

fn parse_width(text: &str) -> Result<usize, String> {
    match text.parse() {
        Ok(n) if WIDTHS.contains(&n) => Ok(n),
        _ => Err(format!("{text} is not one of {WIDTHS:?}")),
    }
}

fn parse_engine(name: &str) -> Result<Settings, String> {
    match name {
        "frozen" => Ok(Settings::FROZEN),
        "hard" => Ok(Settings::HARD),
        _ => Err(format!("`{name}` is not an engine: frozen or hard")),
    }
}

/// One self-play game: one line of `generate`'s output.
fn self_play(
    rng: &mut fastrand::Rng,
    (iterations, engine, network): (u64, Settings, &'static Network),
    random: usize,
) -> Option<String> {
    let mut board = UltimateBoard::new();
    let mut moves = Vec::new();
    let opening = rng.usize(2..=random);
    for _ in 0..opening {
        let legal = board.legal_moves();
        let mv = legal.nth(rng.usize(..legal.len()))?;
        board.play(mv).expect("a legal move");
        if board.outcome() != Outcome::InProgress {
            return None;
        }
        moves.push(mv);
    }
    let mut mcts = Mcts::new(Some(rng.u64(..)))
        .with_settings(engine)
        .with_network(network);
    let (mut values, mut visits) = (Vec::new(), Vec::new());
    while board.outcome() == Outcome::InProgress {
        let choice = mcts.think_iterations(&board, iterations)?;
        values.push(choice.value.rate().unwrap_or(0.5));
        // A proven root's visits need not point at the move played: the move is target enough.
        visits.push(if matches!(choice.value, Value::WinRate(_)) {
            root_visits(&mcts)
        } else {
            "-".to_string()
        });
        board.play(choice.mv).expect("the search plays legal moves");
        moves.push(choice.mv);
    }
    let result = match board.outcome() {
        Outcome::Won { winner, .. } => winner.to_string(),
        _ => "D".to_string(),
    };
    let mut line = format!("{result} {opening}");
    for mv in &moves {
        write!(line, " {}", mv.index()).expect("writing to a string");
    }
    line.push_str(" |");
    for v in values {
        write!(line, " {v:.3}").expect("writing to a string");
    }
    line.push_str(" |");
    for v in visits {
        write!(line, " {v}").expect("writing to a string");
    }
    Some(line)
}

/// The visits of the root's moves after the last search (those of earlier searches kept with
/// the tree included), less their imaginary ones: `index:visits` for each move searched,
/// joined by commas (`-` if none was).
fn root_visits(mcts: &Mcts) -> String {
    let Some(tree) = mcts.tree() else {
        return "-".to_string();
    };
    let imaginary = mcts.prior_visits();
    let searched: Vec<String> = tree
        .root()
        .children()
        .filter(|c| c.visits() > imaginary)
        .map(|c| {
            let mv = c.mv().expect("a child has a move");
            format!("{}:{}", mv.index(), c.visits() - imaginary)
        })
        .collect();
    if searched.is_empty() {
        "-".to_string()
    } else {
        searched.join(",")
    }
}

fn generate(
    games: u32,
    (iterations, engine, network): (u64, Settings, &'static Network),
    random: usize,
    seed: u64,
    out: &PathBuf,
) -> anyhow::Result<()> {
    if let Some(dir) = out.parent() {
        fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut file = fs::File::create(out).with_context(|| format!("creating {}", out.display()))?;
    let start = Instant::now();
    let (mut written, mut positions) = (0u32, 0usize);
    for game in 0..games {
        let mut rng = fastrand::Rng::with_seed(seed.wrapping_mul(1_000_003) ^ u64::from(game));
        if let Some(line) = self_play(&mut rng, (iterations, engine, network), random) {
            positions += line
                .split('|')
                .nth(1)
                .map_or(0, |v| v.split_whitespace().count());
            writeln!(file, "{line}").context("writing the games")?;
            written += 1;
        }
        if (game + 1) % 100 == 0 {
            eprintln!(
                "{} games, {positions} positions, {:.0} s",
                game + 1,
                start.elapsed().as_secs_f64()
            );
        }
    }
    println!(
        "{written} games, {positions} searched positions, {iterations} iterations a move, in {:.0} s",
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// A game read back: its result for X (1, 0 or −1), random first moves, moves and values, and
/// for each searched position its moves' visits (empty in files written before they were).
struct Game {
    result: f32,
    opening: usize,
    moves: Vec<usize>,
    values: Vec<f32>,
    visits: Vec<Vec<(usize, f32)>>,
}

/// One position's `index:visits` list (see `root_visits`).
fn parse_visits(word: &str) -> Option<Vec<(usize, f32)>> {
    if word == "-" {
        return Some(Vec::new());
    }
    word.split(',')
        .map(|pair| {
            let (index, visits) = pair.split_once(':')?;
            let index: usize = index.parse().ok()?;
            (index < 81).then_some((index, visits.parse().ok()?))
        })
        .collect()
}

fn parse_game(line: &str) -> Option<Game> {
    let (head, tail) = line.split_once('|')?;
    let (tail, visits) = tail.split_once('|').unwrap_or((tail, ""));
    let visits: Vec<Vec<(usize, f32)>> = visits
        .split_whitespace()
        .map(parse_visits)
        .collect::<Option<_>>()?;
    let mut words = head.split_whitespace();
    let result = match words.next()? {
        "X" => 1.0,
        "O" => -1.0,
        "D" => 0.0,
        _ => return None,
    };
    let opening = words.next()?.parse().ok()?;
    let moves: Vec<usize> = words.map(str::parse).collect::<Result<_, _>>().ok()?;
    let values: Vec<f32> = tail
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    (opening + values.len() == moves.len()
        && (visits.is_empty() || visits.len() == values.len())
        && moves.iter().all(|&m| m < 81))
    .then_some(Game {
        result,
        opening,
        moves,
        values,
        visits,
    })
}

fn read_games(path: &PathBuf) -> anyhow::Result<Vec<Game>> {
    let text = fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        match parse_game(line) {
            Some(game) => games.push(game),
            None => bail!("{}: line {}: not a game", path.display(), i + 1),
        }
    }
    Ok(games)
}

/// The eight symmetries of a 3 × 3 grid, as permutations of the indices 0-8.
fn symmetries() -> [[usize; 9]; 8] {
    type Map = fn(usize, usize) -> (usize, usize);
    let maps: [Map; 8] = [
        |r, c| (r, c),
        |r, c| (c, 2 - r),
        |r, c| (2 - r, 2 - c),
        |r, c| (2 - c, r),
        |r, c| (r, 2 - c),
        |r, c| (2 - r, c),
        |r, c| (c, r),
        |r, c| (2 - c, 2 - r),
    ];
    maps.map(|f| {
        std::array::from_fn(|i| {
            let (r, c) = f(i / 3, i % 3);
            3 * r + c
        })
    })
}

/// The training and validation positions of `games` (one game in ten held out), and a few
/// validation positions for the check file.
fn split(games: &[Game], how: (f32, bool)) -> (Samples, Samples, Vec<UltimateBoard>) {
    let (mut training, mut validation) = (Samples::default(), Samples::default());
    let mut check_boards = Vec::new();
    for (i, game) in games.iter().enumerate() {
        for (s, map) in symmetries().iter().enumerate() {
            if i % 10 == 0 {
                let boards = validation.add_game(game, map, how);
                if s == 0 && check_boards.len() < 24 {
                    check_boards.extend(boards.iter().step_by(9).take(3));
                }
            } else {
                training.add_game(game, map, how);
            }
        }
    }
    (training, validation, check_boards)
}

/// Writes the weights file and the check file: each position, the trainer's value of it, and
/// with a policy its share of each legal move (`index:share`, joined by commas); returns the
/// weights file's length.
fn write(
    model: &Model,
    boards: &[UltimateBoard],
    out: &PathBuf,
    check: &PathBuf,
) -> anyhow::Result<usize> {
    let network = Network::from_parameters(model.shape(), &model.p);
    let bytes = network.to_bytes();
    fs::write(out, &bytes).with_context(|| format!("writing {}", out.display()))?;
    let mut text = String::from(
        "# Validation positions and the trainer's value of each (side to move, -1 to 1).\n",
    );
    for board in boards {
        let mut active = [0u8; MAX_ACTIVE];
        let n = value::active_features(board, &mut active);
        let value = model.forward(&active[..n]).1;
        write!(text, "{board}\t{value:?}").expect("a string");
        if model.has_policy() {
            let moves: Vec<u8> = board
                .legal_moves()
                .into_iter()
                .map(|m| m.index() as u8)
                .collect();
            let shares = model.policy(&model.policy_hidden(&active[..n]), &moves);
            let pairs: Vec<String> = moves
                .iter()
                .zip(&shares)
                .map(|(m, p)| format!("{m}:{p:?}"))
                .collect();
            write!(text, "\t{}", pairs.join(",")).expect("a string");
        }
        text.push('\n');
    }
    fs::write(check, text).with_context(|| format!("writing {}", check.display()))?;
    Ok(bytes.len())
}

/// How `train` trains: the result's weight in the value's target, the policy's weight in the
/// loss (0: no policy), Adam's step, the seed and the widths.
struct Training {
    result_weight: f32,
    policy_weight: f32,
    /// The value's parameters to start from, instead of random ones.
    start_value: Option<Vec<f32>>,
    /// Whether the value is kept as it starts while the policy trains.
    keep_value: bool,
    /// The policy's parameters to start from, instead of random ones.
    start_policy: Option<Vec<f32>>,
    lr: f32,
    seed: u64,
    /// The network's widths.
    shape: Shape,
}

/// One pass over `training` in the order `order`, in batches of 256; the mean errors.
fn epoch(
    model: &mut Model,
    adam: &mut Adam,
    training: &Samples,
    order: &[usize],
    how: &Training,
) -> Errors {
    let mut grad = vec![0.0f32; model.p.len()];
    let mut total = Errors::default();
    for batch in order.chunks(256) {
        grad.fill(0.0);
        for &i in batch {
            let errors = model.backward(&training.get(i), how.policy_weight, &mut grad);
            total.value += errors.value;
            total.policy += errors.policy;
        }
        let scale = 1.0 / batch.len() as f32;
        for g in &mut grad {
            *g *= scale;
        }
        if how.keep_value {
            grad[..value_parameters(model.shape().value)].fill(0.0);
        }
        adam.step(&mut model.p, &grad, how.lr);
    }
    let n = training.len().max(1) as f64;
    Errors {
        value: total.value / n,
        policy: total.policy / n,
    }
}

fn train(
    games: &[Game],
    epochs: u32,
    how: &Training,
    (out, check): (&PathBuf, &PathBuf),
) -> anyhow::Result<()> {
    let start = Instant::now();
    let policy = how.policy_weight > 0.0;
    let (training, validation, check_boards) = split(games, (how.result_weight, policy));
    println!(
        "{} games: {} training and {} validation positions (eight symmetries each), {:.1} s",
        games.len(),
        training.len(),
        validation.len(),
        start.elapsed().as_secs_f64()
    );
    let mut rng = fastrand::Rng::with_seed(how.seed);
    let mut model = Model::new(&mut rng, how.shape);
    if let Some(value) = &how.start_value {
        model.p[..value.len()].copy_from_slice(value);
    }
    if let Some(policy) = &how.start_policy {
        model.p[value_parameters(how.shape.value)..].copy_from_slice(policy);
    }
    let mut adam = Adam {
        m: vec![0.0; model.p.len()],
        v: vec![0.0; model.p.len()],
        t: 0,
    };
    // The value's loss, plus the policy's weighted, decides the epoch kept.
    let combined = |e: Errors| e.value + f64::from(how.policy_weight) * e.policy;
    let first = model.loss(&validation);
    let mut best = (first, model.p.clone());
    println!("before training: validation loss {}", shown(first, policy));
    let mut order: Vec<usize> = (0..training.len()).collect();
    for n in 1..=epochs {
        rng.shuffle(&mut order);
        let trained = epoch(&mut model, &mut adam, &training, &order, how);
        let val = model.loss(&validation);
        println!(
            "epoch {n}: training loss {}, validation loss {}, {:.0} s",
            shown(trained, policy),
            shown(val, policy),
            start.elapsed().as_secs_f64()
        );
        if combined(val) < combined(best.0) {
            best = (val, model.p.clone());
        }
    }
    model.p = best.1;
    let bytes = write(&model, &check_boards, out, check)?;
    println!(
        "kept validation loss {}; wrote {} ({bytes} bytes) and {} in {:.0} s",
        shown(best.0, policy),
        out.display(),
        check.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The value's loss, and the policy's cross-entropy when there is a policy.
fn shown(errors: Errors, policy: bool) -> String {
    if policy {
        format!("{:.4} (policy {:.4})", errors.value, errors.policy)
    } else {
        format!("{:.4}", errors.value)
    }
}
