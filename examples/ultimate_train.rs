//! Self-play games and training for the learned evaluation of Ultimate positions
//! (`src/mcts/value.rs`), in plain Rust.
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
//! and after `|` the search's value of each searched position for its side to move (0 to 1).
//! Everything follows from `--seed`. `--network FILE` has `hard` play on a network `train` wrote
//! instead of the embedded one, to play the next round's games before that network is embedded.
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
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Parser, Subcommand};
use tictactoe::mcts::value::{self, HIDDEN, INPUTS, MAX_ACTIVE, Network, PARAMETERS};
use tictactoe::mcts::{Mcts, Settings};
use tictactoe::ultimate::{Move, Outcome, UltimateBoard};

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
        /// Where to write the games.
        #[arg(long, default_value = "target/ultimate/selfplay.txt")]
        out: PathBuf,
    },
    /// Fit the network to games written by `generate`.
    Train {
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
        /// Seed for the initial weights and the order of positions.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Where to write the weights.
        #[arg(long, default_value = "src/mcts/ultimate_value.bin")]
        out: PathBuf,
        /// Where to write validation positions with this program's value of each.
        #[arg(long, default_value = "src/mcts/ultimate_value_check.txt")]
        check: PathBuf,
    },
}

fn main() -> anyhow::Result<()> {
    match Args::parse().command {
        Command::Generate {
            games,
            iterations,
            random,
            seed,
            engine,
            network,
            out,
        } => {
            let network = match network {
                Some(path) => {
                    let bytes =
                        fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
                    let network = Network::from_bytes(&bytes)
                        .with_context(|| format!("{} is not a network", path.display()))?;
                    Box::leak(Box::new(network))
                }
                None => value::embedded(),
            };
            generate(
                games,
                (iterations, engine, network),
                random.max(2),
                seed,
                &out,
            )
        }
        Command::Train {
            data,
            epochs,
            lr,
            result_weight,
            seed,
            out,
            check,
        } => {
            let mut games = Vec::new();
            for path in &data {
                games.extend(read_games(path)?);
            }
            train(&games, epochs, lr, result_weight, seed, &out, &check)
        }
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
    let mut values = Vec::new();
    while board.outcome() == Outcome::InProgress {
        let choice = mcts.think_iterations(&board, iterations)?;
        values.push(choice.value.rate().unwrap_or(0.5));
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
    Some(line)
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

/// A game read back: its result for X (1, 0 or −1), random first moves, moves and values.
struct Game {
    result: f32,
    opening: usize,
    moves: Vec<usize>,
    values: Vec<f32>,
}

fn parse_game(line: &str) -> Option<Game> {
    let (head, tail) = line.split_once('|')?;
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
    (opening + values.len() == moves.len() && moves.iter().all(|&m| m < 81)).then_some(Game {
        result,
        opening,
        moves,
        values,
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

/// Training positions: the set inputs of each, flat, with where each starts, and its target.
#[derive(Default)]
struct Samples {
    features: Vec<u8>,
    starts: Vec<usize>,
    targets: Vec<f32>,
}

impl Samples {
    fn push(&mut self, active: &[u8], target: f32) {
        self.starts.push(self.features.len());
        self.features.extend_from_slice(active);
        self.targets.push(target);
    }

    fn len(&self) -> usize {
        self.targets.len()
    }

    fn get(&self, i: usize) -> (&[u8], f32) {
        let end = self
            .starts
            .get(i + 1)
            .copied()
            .unwrap_or(self.features.len());
        (&self.features[self.starts[i]..end], self.targets[i])
    }

    /// Adds `game`'s searched positions in the symmetry `map`.
    fn add_game(
        &mut self,
        game: &Game,
        map: &[usize; 9],
        result_weight: f32,
    ) -> Vec<UltimateBoard> {
        let mut board = UltimateBoard::new();
        let mut boards = Vec::new();
        let mut active = [0u8; MAX_ACTIVE];
        for (ply, &m) in game.moves.iter().enumerate() {
            if ply >= game.opening {
                let mover = if ply % 2 == 0 { 1.0 } else { -1.0 };
                let searched = 2.0 * game.values[ply - game.opening] - 1.0;
                let target = result_weight * mover * game.result + (1.0 - result_weight) * searched;
                let n = value::active_features(&board, &mut active);
                self.push(&active[..n], target);
                boards.push(board);
            }
            let mv = Move::from_index(9 * map[m / 9] + map[m % 9]).expect("an index below 81");
            board
                .play(mv)
                .expect("a symmetric image of a legal game is legal");
        }
        boards
    }
}

/// The trainer's network: the parameters in the file's order (see `value`'s module docs).
struct Model {
    p: Vec<f32>,
}

const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + HIDDEN;

impl Model {
    fn new(rng: &mut fastrand::Rng) -> Model {
        let mut p = vec![0.0; PARAMETERS];
        for x in &mut p[..B1] {
            *x = (rng.f32() - 0.5) * 0.4;
        }
        for x in &mut p[W2..B2] {
            *x = (rng.f32() - 0.5) * 0.6;
        }
        Model { p }
    }

    /// The hidden layer before rectifying, and the output (after `tanh`).
    fn forward(&self, active: &[u8]) -> ([f32; HIDDEN], f32) {
        let mut pre: [f32; HIDDEN] = self.p[B1..W2].try_into().expect("HIDDEN biases");
        for &f in active {
            let row = usize::from(f) * HIDDEN;
            for (j, h) in pre.iter_mut().enumerate() {
                *h += self.p[row + j];
            }
        }
        let mut out = self.p[B2];
        for (j, h) in pre.iter().enumerate() {
            out += h.max(0.0) * self.p[W2 + j];
        }
        (pre, out.tanh())
    }

    /// Adds the gradient of the squared error on one position to `grad`; returns the error.
    fn backward(&self, active: &[u8], target: f32, grad: &mut [f32]) -> f32 {
        let (pre, y) = self.forward(active);
        let d = 2.0 * (y - target) * (1.0 - y * y);
        grad[B2] += d;
        let mut dh = [0.0f32; HIDDEN];
        for (j, &h) in pre.iter().enumerate() {
            if h > 0.0 {
                grad[W2 + j] += d * h;
                dh[j] = d * self.p[W2 + j];
                grad[B1 + j] += dh[j];
            }
        }
        for &f in active {
            let row = &mut grad[usize::from(f) * HIDDEN..][..HIDDEN];
            for (g, x) in row.iter_mut().zip(&dh) {
                *g += x;
            }
        }
        (y - target) * (y - target)
    }

    fn loss(&self, samples: &Samples) -> f32 {
        let total: f64 = (0..samples.len())
            .map(|i| {
                let (active, t) = samples.get(i);
                f64::from((self.forward(active).1 - t).powi(2))
            })
            .sum();
        (total / samples.len().max(1) as f64) as f32
    }
}

/// Adam's state.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn step(&mut self, p: &mut [f32], grad: &[f32], lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for i in 0..p.len() {
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * grad[i];
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * grad[i] * grad[i];
            p[i] -= lr * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

/// The training and validation positions of `games` (one game in ten held out), and a few
/// validation positions for the check file.
fn split(games: &[Game], result_weight: f32) -> (Samples, Samples, Vec<UltimateBoard>) {
    let (mut training, mut validation) = (Samples::default(), Samples::default());
    let mut check_boards = Vec::new();
    for (i, game) in games.iter().enumerate() {
        for (s, map) in symmetries().iter().enumerate() {
            if i % 10 == 0 {
                let boards = validation.add_game(game, map, result_weight);
                if s == 0 && check_boards.len() < 24 {
                    check_boards.extend(boards.iter().step_by(9).take(3));
                }
            } else {
                training.add_game(game, map, result_weight);
            }
        }
    }
    (training, validation, check_boards)
}

/// Writes the weights file and the check file.
fn write(
    model: &Model,
    boards: &[UltimateBoard],
    out: &PathBuf,
    check: &PathBuf,
) -> anyhow::Result<()> {
    let network = Network::from_parameters(&model.p);
    fs::write(out, network.to_bytes()).with_context(|| format!("writing {}", out.display()))?;
    let mut text = String::from(
        "# Validation positions and the trainer's value of each (side to move, -1 to 1).\n",
    );
    for board in boards {
        let mut active = [0u8; MAX_ACTIVE];
        let n = value::active_features(board, &mut active);
        writeln!(text, "{board}\t{:?}", model.forward(&active[..n]).1).expect("a string");
    }
    fs::write(check, text).with_context(|| format!("writing {}", check.display()))
}

fn train(
    games: &[Game],
    epochs: u32,
    lr: f32,
    result_weight: f32,
    seed: u64,
    out: &PathBuf,
    check: &PathBuf,
) -> anyhow::Result<()> {
    let start = Instant::now();
    let (training, validation, check_boards) = split(games, result_weight);
    println!(
        "{} games: {} training and {} validation positions (eight symmetries each), {:.1} s",
        games.len(),
        training.len(),
        validation.len(),
        start.elapsed().as_secs_f64()
    );
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut model = Model::new(&mut rng);
    let mut adam = Adam {
        m: vec![0.0; PARAMETERS],
        v: vec![0.0; PARAMETERS],
        t: 0,
    };
    let mut best = (model.loss(&validation), model.p.clone());
    println!("before training: validation loss {:.4}", best.0);
    let mut order: Vec<usize> = (0..training.len()).collect();
    let mut grad = vec![0.0f32; PARAMETERS];
    for epoch in 1..=epochs {
        rng.shuffle(&mut order);
        let mut total = 0.0f64;
        for batch in order.chunks(256) {
            grad.fill(0.0);
            for &i in batch {
                let (active, t) = training.get(i);
                total += f64::from(model.backward(active, t, &mut grad));
            }
            let scale = 1.0 / batch.len() as f32;
            for g in &mut grad {
                *g *= scale;
            }
            adam.step(&mut model.p, &grad, lr);
        }
        let val = model.loss(&validation);
        println!(
            "epoch {epoch}: training loss {:.4}, validation loss {val:.4}, {:.0} s",
            total / training.len() as f64,
            start.elapsed().as_secs_f64()
        );
        if val < best.0 {
            best = (val, model.p.clone());
        }
    }
    model.p = best.1;
    write(&model, &check_boards, out, check)?;
    println!(
        "kept validation loss {:.4}; wrote {} ({} bytes) and {} in {:.0} s",
        best.0,
        out.display(),
        HEADER_AND_WEIGHTS,
        check.display(),
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

const HEADER_AND_WEIGHTS: usize = 16 + 4 * PARAMETERS;
