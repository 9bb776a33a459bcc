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
//! after `|` the search's value of each searched position for its side to move (0 to 1), and
//! after a second `|` each searched position's moves with their visits (`index:visits`, joined
//! by commas; the imaginary visits of the prior left out). Everything follows from `--seed`.
//! `--network FILE` has `hard` play on a network `train` wrote instead of the embedded one, to
//! play the next round's games before that network is embedded, and `--policy W` weighs that
//! network's policy.
//!
//! With `--policy-weight W` above 0, `train` also fits a policy (a network of its own over the
//! same inputs; see `value`'s module docs) to the share of the visits each move got (the move
//! played, in files without visits), by cross-entropy weighted `W` beside the value's squared
//! error; `--value-from FILE` copies the value from a weights file and keeps it as it is.
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
use tictactoe::mcts::value::{
    self, HIDDEN, INPUTS, MAX_ACTIVE, MOVES, Network, PARAMETERS, POLICY_PARAMETERS,
};
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
        /// The weight of the network's policy in `hard`'s choice of children
        /// (`Settings::policy`; the network must have a policy).
        #[arg(long, default_value_t = 0.0)]
        policy: f32,
        /// The visits from which `hard`'s nodes ask the policy (`Settings::policy_visits`).
        #[arg(long, default_value_t = tictactoe::mcts::POLICY_VISITS)]
        policy_visits: u32,
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
        /// Weight of the policy's cross-entropy in the loss; above 0 the network gets a policy,
        /// trained on the visits of each search (or the move played, in files without
        /// them).
        #[arg(long, default_value_t = 0.0)]
        policy_weight: f32,
        /// Take the value (and the hidden layer) from this weights file and keep it as it is:
        /// only the policy is trained.
        #[arg(long)]
        value_from: Option<PathBuf>,
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
            mut engine,
            network,
            policy,
            policy_visits,
            out,
        } => {
            engine.policy = policy;
            engine.policy_visits = policy_visits;
            let network = match network {
                Some(path) => Box::leak(Box::new(read_network(&path)?)),
                None => value::embedded(),
            };
            if policy > 0.0 && !network.has_policy() {
                bail!("--policy needs a --network with a policy");
            }
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
            policy_weight,
            value_from,
            seed,
            out,
            check,
        } => {
            if value_from.is_some() && policy_weight <= 0.0 {
                bail!("--value-from trains only a policy: give it a --policy-weight");
            }
            let fixed_value = match value_from {
                Some(path) => Some(read_network(&path)?.parameters()[..PARAMETERS].to_vec()),
                None => None,
            };
            let mut games = Vec::new();
            for path in &data {
                games.extend(read_games(path)?);
            }
            let how = Training {
                result_weight,
                policy_weight,
                fixed_value,
                lr,
                seed,
            };
            train(&games, epochs, &how, (&out, &check))
        }
    }
}

/// The network in the weights file `path`.
fn read_network(path: &PathBuf) -> anyhow::Result<Network> {
    let bytes = fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    Network::from_bytes(&bytes).with_context(|| format!("{} is not a network", path.display()))
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
        visits.push(root_visits(&mcts));
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

/// The visits of the root's moves in the last search, less their imaginary ones: `index:visits`
/// for each move searched, joined by commas (`-` if none was).
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

/// Training positions: the set inputs of each, flat, with where each starts, and its target;
/// when the policy is trained, also each one's legal moves with the policy's target share of
/// each, flat, with where each position's start.
#[derive(Default)]
struct Samples {
    features: Vec<u8>,
    starts: Vec<usize>,
    targets: Vec<f32>,
    moves: Vec<u8>,
    shares: Vec<f32>,
    moves_at: Vec<usize>,
}

/// One training position.
struct Sample<'a> {
    active: &'a [u8],
    target: f32,
    /// Its legal moves and their target shares (empty when the policy is not trained).
    moves: &'a [u8],
    shares: &'a [f32],
}

/// The slice of `all` for item `i` of a flat list whose items start at `starts`.
fn item<'a, T>(all: &'a [T], starts: &[usize], i: usize) -> &'a [T] {
    let Some(&start) = starts.get(i) else {
        return &[];
    };
    let end = starts.get(i + 1).copied().unwrap_or(all.len());
    &all[start..end]
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

    fn get(&self, i: usize) -> Sample<'_> {
        Sample {
            active: item(&self.features, &self.starts, i),
            target: self.targets[i],
            moves: item(&self.moves, &self.moves_at, i),
            shares: item(&self.shares, &self.moves_at, i),
        }
    }

    /// Adds the policy's targets for `board`: the share of the search each legal move got,
    /// `visits` (moves already in the symmetry's coordinates), or all of it to `played` when
    /// there are none.
    fn push_policy(&mut self, board: &UltimateBoard, visits: &[(usize, f32)], played: usize) {
        self.moves_at.push(self.moves.len());
        let total: f32 = visits.iter().map(|&(_, v)| v).sum();
        for mv in board.legal_moves() {
            let i = mv.index();
            let share = if total > 0.0 {
                visits
                    .iter()
                    .filter(|&&(m, _)| m == i)
                    .map(|&(_, v)| v)
                    .sum::<f32>()
                    / total
            } else if i == played {
                1.0
            } else {
                0.0
            };
            self.moves.push(i as u8);
            self.shares.push(share);
        }
    }

    /// Adds `game`'s searched positions in the symmetry `map`, with the policy's targets if
    /// `policy`.
    fn add_game(
        &mut self,
        game: &Game,
        map: &[usize; 9],
        (result_weight, policy): (f32, bool),
    ) -> Vec<UltimateBoard> {
        let image = |m: usize| 9 * map[m / 9] + map[m % 9];
        let mut board = UltimateBoard::new();
        let mut boards = Vec::new();
        let mut active = [0u8; MAX_ACTIVE];
        for (ply, &m) in game.moves.iter().enumerate() {
            if ply >= game.opening {
                let searched_ply = ply - game.opening;
                let mover = if ply % 2 == 0 { 1.0 } else { -1.0 };
                let searched = 2.0 * game.values[searched_ply] - 1.0;
                let target = result_weight * mover * game.result + (1.0 - result_weight) * searched;
                let n = value::active_features(&board, &mut active);
                self.push(&active[..n], target);
                if policy {
                    let visits: Vec<(usize, f32)> = game
                        .visits
                        .get(searched_ply)
                        .map(|v| v.iter().map(|&(m, n)| (image(m), n)).collect())
                        .unwrap_or_default();
                    self.push_policy(&board, &visits, image(m));
                }
                boards.push(board);
            }
            let mv = Move::from_index(image(m)).expect("an index below 81");
            board
                .play(mv)
                .expect("a symmetric image of a legal game is legal");
        }
        boards
    }
}

/// The trainer's network: the parameters in the file's order (see `value`'s module docs), the
/// policy's after the value's when it has one.
struct Model {
    p: Vec<f32>,
}

const B1: usize = INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + HIDDEN;
/// The policy's first layer, its biases, its outputs' weights (move by move) and their biases.
const PW1: usize = PARAMETERS;
const PB1: usize = PW1 + INPUTS * HIDDEN;
const WP: usize = PB1 + HIDDEN;
const BP: usize = WP + MOVES * HIDDEN;

/// A position's errors: the value's squared error and the policy's cross-entropy.
#[derive(Clone, Copy, Default)]
struct Errors {
    value: f64,
    policy: f64,
}

impl Model {
    fn new(rng: &mut fastrand::Rng, policy: bool) -> Model {
        let extra = if policy { POLICY_PARAMETERS } else { 0 };
        let mut p = vec![0.0; PARAMETERS + extra];
        for x in &mut p[..B1] {
            *x = (rng.f32() - 0.5) * 0.4;
        }
        for x in &mut p[W2..B2] {
            *x = (rng.f32() - 0.5) * 0.6;
        }
        if policy {
            for x in &mut p[PW1..PB1] {
                *x = (rng.f32() - 0.5) * 0.4;
            }
            for x in &mut p[WP..BP] {
                *x = (rng.f32() - 0.5) * 0.2;
            }
        }
        Model { p }
    }

    fn has_policy(&self) -> bool {
        self.p.len() > PARAMETERS
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

    /// The policy's hidden layer before rectifying.
    fn policy_hidden(&self, active: &[u8]) -> [f32; HIDDEN] {
        let mut pre: [f32; HIDDEN] = self.p[PB1..WP].try_into().expect("HIDDEN biases");
        for &f in active {
            let row = PW1 + usize::from(f) * HIDDEN;
            for (j, h) in pre.iter_mut().enumerate() {
                *h += self.p[row + j];
            }
        }
        pre
    }

    /// The policy's share of each of `moves` for its hidden layer `pre` (before rectifying).
    fn policy(&self, pre: &[f32; HIDDEN], moves: &[u8]) -> Vec<f32> {
        let mut shares: Vec<f32> = moves
            .iter()
            .map(|&m| {
                let row = &self.p[WP + usize::from(m) * HIDDEN..][..HIDDEN];
                let dot = pre.iter().zip(row).map(|(h, w)| h.max(0.0) * w);
                dot.fold(self.p[BP + usize::from(m)], |a, x| a + x)
            })
            .collect();
        let top = shares.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut total = 0.0;
        for x in &mut shares {
            *x = (*x - top).exp();
            total += *x;
        }
        for x in &mut shares {
            *x /= total;
        }
        shares
    }

    /// The policy's cross-entropy against `sample`'s target shares (0 without a policy).
    fn cross_entropy(sample: &Sample, shares: &[f32]) -> f64 {
        let terms = sample.shares.iter().zip(shares);
        terms
            .filter(|&(&t, _)| t > 0.0)
            .map(|(&t, &p)| -f64::from(t) * f64::from(p.max(1e-12)).ln())
            .sum()
    }

    /// Adds the gradient of the squared error on one position, and of `weight` × the policy's
    /// cross-entropy, to `grad`; returns both errors.
    fn backward(&self, sample: &Sample, weight: f32, grad: &mut [f32]) -> Errors {
        let (pre, y) = self.forward(sample.active);
        let d = 2.0 * (y - sample.target) * (1.0 - y * y);
        grad[B2] += d;
        let mut dh = [0.0f32; HIDDEN];
        for (j, &h) in pre.iter().enumerate() {
            if h > 0.0 {
                grad[W2 + j] += d * h;
                dh[j] = d * self.p[W2 + j];
            }
        }
        let mut policy = 0.0;
        if self.has_policy() && !sample.moves.is_empty() {
            policy = self.policy_backward(sample, weight, grad);
        }
        for (j, &x) in dh.iter().enumerate() {
            if pre[j] > 0.0 {
                grad[B1 + j] += x;
            }
        }
        for &f in sample.active {
            let row = &mut grad[usize::from(f) * HIDDEN..][..HIDDEN];
            for (g, x) in row.iter_mut().zip(&dh) {
                *g += x;
            }
        }
        Errors {
            value: f64::from((y - sample.target) * (y - sample.target)),
            policy,
        }
    }

    /// Adds the gradient of `weight` × the policy's cross-entropy on one position to `grad`;
    /// returns the cross-entropy.
    fn policy_backward(&self, sample: &Sample, weight: f32, grad: &mut [f32]) -> f64 {
        let pre = self.policy_hidden(sample.active);
        let shares = self.policy(&pre, sample.moves);
        let mut dh = [0.0f32; HIDDEN];
        let targets = sample.shares.iter().zip(&shares);
        for (&m, (&t, &p)) in sample.moves.iter().zip(targets) {
            let g = weight * (p - t);
            let m = usize::from(m);
            grad[BP + m] += g;
            let row = WP + m * HIDDEN;
            for (j, &h) in pre.iter().enumerate() {
                if h > 0.0 {
                    grad[row + j] += g * h;
                    dh[j] += g * self.p[row + j];
                }
            }
        }
        for (j, &x) in dh.iter().enumerate() {
            if pre[j] > 0.0 {
                grad[PB1 + j] += x;
            }
        }
        for &f in sample.active {
            let row = &mut grad[PW1 + usize::from(f) * HIDDEN..][..HIDDEN];
            for (g, x) in row.iter_mut().zip(&dh) {
                *g += x;
            }
        }
        Model::cross_entropy(sample, &shares)
    }

    /// The mean errors over `samples`.
    fn loss(&self, samples: &Samples) -> Errors {
        let mut total = Errors::default();
        for i in 0..samples.len() {
            let sample = samples.get(i);
            let (_, y) = self.forward(sample.active);
            total.value += f64::from((y - sample.target).powi(2));
            if self.has_policy() && !sample.moves.is_empty() {
                let pre = self.policy_hidden(sample.active);
                total.policy += Model::cross_entropy(&sample, &self.policy(&pre, sample.moves));
            }
        }
        let n = samples.len().max(1) as f64;
        Errors {
            value: total.value / n,
            policy: total.policy / n,
        }
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
/// with a policy its share of each legal move (`index:share`, joined by commas).
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
    fs::write(check, text).with_context(|| format!("writing {}", check.display()))
}

/// How `train` trains: the result's weight in the value's target, the policy's weight in the
/// loss (0: no policy), Adam's step and the seed.
struct Training {
    result_weight: f32,
    policy_weight: f32,
    /// The value's parameters, kept fixed while the policy trains.
    fixed_value: Option<Vec<f32>>,
    lr: f32,
    seed: u64,
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
        if how.fixed_value.is_some() {
            grad[..PARAMETERS].fill(0.0);
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
    let mut model = Model::new(&mut rng, policy);
    if let Some(fixed) = &how.fixed_value {
        model.p[..PARAMETERS].copy_from_slice(fixed);
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
    write(&model, &check_boards, out, check)?;
    println!(
        "kept validation loss {}; wrote {} ({} bytes) and {} in {:.0} s",
        shown(best.0, policy),
        out.display(),
        16 + 4 * model.p.len(),
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
