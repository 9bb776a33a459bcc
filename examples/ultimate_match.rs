//! Plays Ultimate tic-tac-toe matches between two players and reports the first player's score
//! with a 95% confidence interval.
//!
//! ```text
//! cargo run --release --example ultimate_match -- --a hard:100ms --b uct:1000 --games 200
//! ```
//!
//! A player is `easy`, `medium`, `hard:<time>` (the engine's AI; `hard` alone thinks 1000 ms),
//! `hardN:<time>` (`hard` on N trees at once, one a thread: `--threads N`), `frozen:<time>` (`hard` as it was when `Settings::FROZEN` was made, kept unchanged in the
//! engine to measure a new `hard` against), `uct:<iterations>` or `uct:<time>` (the
//! baseline below); times are written `250ms` or `1s`. Games alternate who moves first; with
//! `--openings` each pair of games starts from its own first two moves (one game with each
//! player as X), drawn without repeats from the 720 legal pairs, so games are not repeats of
//! each other. `hard` uses the learned evaluation (`mcts::value`) at its leaves and for its new
//! nodes' priors; `--leaf playout` and `--prior-from hand` give the first player, when it is
//! the engine, a random game and the hand-made guess instead, and `--leaf both` the mean of
//! the evaluation and the random game; `--network FILE` gives it a network `ultimate_train`
//! wrote instead of the embedded one (`--b-network FILE` gives one to the second player, when it
//! is `hard`, and `--b-policy`, `--b-policy-visits`, `--b-minimax` and `--b-exploration` its
//! settings); `--policy W` sets the weight of its policy in the choice
//! of children (`Mcts::with_policy`; 2 in `hard`, 0 leaves it out) and `--minimax W` that of the
//! minimax estimates (`Mcts::with_minimax`; 0.2 in `hard`); `--work` gives both players budgets of
//! work instead of the clock. The score is (wins + draws / 2) / games; its interval is
//! Wilson's score interval, which stays sensible near 0% and 100%.
//!
//! The baseline is plain UCT as textbooks give it: UCB1 with c = √2, one node added per
//! iteration (a random untried move), uniformly random games to the end, a fresh tree for every
//! move, and the most visited move played. Its tree uses the rules' public API; its random games
//! use the engine's bitboard kernel without the engine's heuristics
//! (`mcts::uniform_playout`), so a match at equal time compares the algorithms, not the speed
//! of two implementations of the rules.

use std::fmt;
use std::time::{Duration, Instant};

use clap::Parser;
use tictactoe::ai::mcts::{
    Effort, Leaf, Mcts, Parallel, Playouts, Prior, Settings, UltimateEval, uniform_playout,
    value::{self, Network},
};
use tictactoe::ai::search::Meter;
use tictactoe::rules::classic::Mark;
use tictactoe::rules::ultimate::{Move, Outcome, UltimateBoard};

#[derive(Parser)]
#[command(about = "Ultimate tic-tac-toe matches between AIs, with a 95% confidence interval")]
struct Args {
    /// The first player: easy, medium, hard[:TIME], frozen[:TIME], uct:ITERATIONS or uct:TIME.
    #[arg(long)]
    a: Spec,
    /// The second player, written the same way.
    #[arg(long)]
    b: Spec,
    /// Games to play; the first player moves first in the even-numbered ones.
    #[arg(long, default_value_t = 200)]
    games: u32,
    /// Seed for every random choice of both players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print a line every this many games.
    #[arg(long, default_value_t = 20)]
    every: u32,
    /// UCB1's exploration constant for the first player, when it is the engine (for tuning).
    #[arg(long)]
    exploration: Option<f32>,
    /// Imaginary visits of each new node for the first player, when it is `hard` (0 turns the
    /// move prior off, for comparison; `medium` never uses the prior).
    #[arg(long)]
    prior: Option<u32>,
    /// The first player's random games, when it is the engine: greedy or safe.
    #[arg(long, value_parser = parse_playouts)]
    playouts: Option<Playouts>,
    /// How the first player, when it is the engine, values a leaf: playout (a random game),
    /// network (the learned evaluation) or both (their mean).
    #[arg(long, value_parser = parse_leaf)]
    leaf: Option<Leaf>,
    /// Where the first player's new nodes take their prior from, when it is the engine: hand
    /// (the hand-made guess from the move) or network (the learned evaluation of the position
    /// after the move).
    #[arg(long, value_parser = parse_prior)]
    prior_from: Option<Prior>,
    /// A weights file the first player, when it is the engine, values positions by instead of
    /// the embedded network (as `ultimate_train train --out` writes it). `frozen` uses no
    /// network unless `--leaf` or `--prior-from` names it.
    #[arg(long)]
    network: Option<std::path::PathBuf>,
    /// A weights file the second player, when it is `hard`, values positions by instead of the
    /// embedded network, with `hard`'s own settings: a candidate network measured against
    /// another without building it in (it must have a policy unless `--b-policy 0`).
    #[arg(long)]
    b_network: Option<std::path::PathBuf>,
    /// `--exploration` for the second player, when it is the engine.
    #[arg(long)]
    b_exploration: Option<f32>,
    /// `--policy` for the second player, when it is the engine.
    #[arg(long)]
    b_policy: Option<f32>,
    /// `--policy-visits` for the second player, when it is the engine.
    #[arg(long)]
    b_policy_visits: Option<u32>,
    /// `--minimax` for the second player, when it is the engine.
    #[arg(long)]
    b_minimax: Option<f32>,
    /// The weight of the network's policy in the first player's choice of children, when it is
    /// the engine (`Settings::policy`; the network must have a policy).
    #[arg(long)]
    policy: Option<f32>,
    /// The visits from which the first player's nodes ask the policy (`Settings::policy_visits`).
    #[arg(long)]
    policy_visits: Option<u32>,
    /// The weight of the minimax estimates in the first player's choice of children, when it
    /// is the engine (`Settings::minimax`).
    #[arg(long)]
    minimax: Option<f32>,
    /// Budgets by work instead of the clock, for both players when they are the engine:
    /// `mcts::ITERATIONS_PER_MS` iterations a millisecond, so two searches compare at equal
    /// iterations, whatever each costs.
    #[arg(long)]
    work: bool,
    /// Start each pair of games from its own two opening moves (a seeded draw of the 720 legal
    /// pairs, without repeats until all are used).
    #[arg(long)]
    openings: bool,
}

/// A time or a number of iterations per move.
#[derive(Clone, Copy, Debug)]
enum Budget {
    Time(Duration),
    Iterations(u64),
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Time(t) => write!(f, "{} ms", t.as_millis()),
            Budget::Iterations(n) => write!(f, "{n} iterations"),
        }
    }
}

fn parse_playouts(s: &str) -> Result<Playouts, String> {
    Playouts::ALL
        .into_iter()
        .find(|p| p.name() == s)
        .ok_or_else(|| format!("{s}: playouts are greedy or safe"))
}

fn parse_leaf(s: &str) -> Result<Leaf, String> {
    Leaf::ALL
        .into_iter()
        .find(|l| l.name() == s)
        .ok_or_else(|| format!("{s}: leaves are playout, network or both"))
}

fn parse_prior(s: &str) -> Result<Prior, String> {
    match s {
        "hand" => Ok(Prior::Hand),
        "network" => Ok(Prior::Network),
        _ => Err(format!("{s}: priors are hand or network")),
    }
}

fn parse_budget(s: &str) -> Result<Budget, String> {
    let number = |t: &str| t.parse::<u64>().map_err(|e| format!("{s}: {e}"));
    if let Some(ms) = s.strip_suffix("ms") {
        Ok(Budget::Time(Duration::from_millis(number(ms)?)))
    } else if let Some(secs) = s.strip_suffix('s') {
        Ok(Budget::Time(Duration::from_secs(number(secs)?)))
    } else {
        Ok(Budget::Iterations(number(s)?))
    }
}

#[derive(Clone, Copy, Debug)]
enum Spec {
    Engine(Effort, Duration),
    /// `hard` on this many trees at once, one a thread (`--threads`).
    Threads(usize, Duration),
    /// `hard` with [`Settings::FROZEN`].
    Frozen(Duration),
    Uct(Budget),
}

impl std::str::FromStr for Spec {
    type Err = String;

    fn from_str(s: &str) -> Result<Spec, String> {
        let (name, budget) = s.split_once(':').unwrap_or((s, ""));
        let time = |default: u64| match budget {
            "" => Ok(Duration::from_millis(default)),
            b => match parse_budget(b)? {
                Budget::Time(t) => Ok(t),
                Budget::Iterations(_) => Err(format!("{s}: the engine takes a time, like 100ms")),
            },
        };
        match name {
            "easy" => Ok(Spec::Engine(Effort::Easy, Duration::ZERO)),
            "medium" => Ok(Spec::Engine(Effort::Medium, Duration::ZERO)),
            "hard" => Ok(Spec::Engine(Effort::Hard, time(1000)?)),
            threads if threads.starts_with("hard") => {
                let n: usize = threads["hard".len()..]
                    .parse()
                    .map_err(|_| format!("{s}: hardN is hard on N threads, like hard2"))?;
                Ok(Spec::Threads(n.max(1), time(1000)?))
            }
            "frozen" => Ok(Spec::Frozen(time(1000)?)),
            "uct" => Ok(Spec::Uct(parse_budget(budget)?)),
            _ => Err(format!(
                "{s}: players are easy, medium, hard[:TIME], hardN[:TIME] (N threads), frozen[:TIME] or uct:ITERATIONS|TIME"
            )),
        }
    }
}

impl fmt::Display for Spec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Spec::Engine(Effort::Hard, t) => write!(f, "hard ({} ms)", t.as_millis()),
            Spec::Threads(n, t) => write!(f, "hard on {n} threads ({} ms)", t.as_millis()),
            Spec::Engine(level, _) => write!(f, "{level:?}"),
            Spec::Frozen(t) => write!(f, "frozen hard ({} ms)", t.as_millis()),
            Spec::Uct(b) => write!(f, "baseline UCT ({b})"),
        }
    }
}

/// A player during one game.
enum Player {
    Engine(Effort, Duration, Box<Mcts>),
    Threads(Duration, Parallel<UltimateBoard, UltimateEval>),
    Uct(Budget, fastrand::Rng),
}

impl Player {
    fn new(spec: Spec, seed: u64) -> Player {
        match spec {
            Spec::Engine(level, t) => Player::Engine(level, t, Box::new(Mcts::new(Some(seed)))),
            Spec::Threads(n, t) => Player::Threads(
                t,
                Parallel::new(
                    (0..n as u64)
                        .map(|i| Mcts::new(Some(seed ^ i.wrapping_mul(0x2545_f491))))
                        .collect(),
                ),
            ),
            Spec::Frozen(t) => Player::Engine(
                Effort::Hard,
                t,
                Box::new(Mcts::new(Some(seed)).with_settings(Settings::FROZEN)),
            ),
            Spec::Uct(b) => Player::Uct(b, fastrand::Rng::with_seed(seed)),
        }
    }

    fn choose(&mut self, board: &UltimateBoard) -> Move {
        match self {
            Player::Engine(level, t, mcts) => mcts.choose(*level, board, *t),
            Player::Threads(t, search) => search.think(board, *t).map(|c| c.mv),
            Player::Uct(budget, rng) => Some(baseline::choose(board, *budget, rng)),
        }
        .expect("a game in progress has a move")
    }
}

/// The textbook UCT.
mod baseline {
    use super::{Budget, Instant, Mark, Move, UltimateBoard, uniform_playout};

    struct Node {
        mv: Option<Move>,
        /// Who played `mv`.
        mover: Mark,
        parent: usize,
        children: Vec<usize>,
        untried: Vec<Move>,
        visits: f64,
        /// Wins of `mover`, a draw counting half.
        wins: f64,
    }

    fn node(mv: Option<Move>, parent: usize, board: &UltimateBoard) -> Node {
        Node {
            mv,
            mover: board.to_move().other(),
            parent,
            children: Vec::new(),
            untried: board.legal_moves().into_iter().collect(),
            visits: 0.0,
            wins: 0.0,
        }
    }

    pub fn choose(board: &UltimateBoard, budget: Budget, rng: &mut fastrand::Rng) -> Move {
        let start = Instant::now();
        let mut tree = vec![node(None, 0, board)];
        let mut done = 0u64;
        loop {
            let more = match budget {
                Budget::Iterations(n) => done < n,
                Budget::Time(t) => done == 0 || start.elapsed() < t,
            };
            if !more {
                break;
            }
            done += 1;
            // Select.
            let mut at = 0;
            let mut b = *board;
            while tree[at].untried.is_empty() && !tree[at].children.is_empty() {
                let log = tree[at].visits.ln();
                let ucb = |c: &Node| c.wins / c.visits + (2.0 * log / c.visits).sqrt();
                at = *tree[at]
                    .children
                    .iter()
                    .max_by(|&&x, &&y| ucb(&tree[x]).total_cmp(&ucb(&tree[y])))
                    .expect("children");
                b.play(tree[at].mv.expect("a child has a move"))
                    .expect("legal");
            }
            // Expand one random untried move.
            if !tree[at].untried.is_empty() {
                let i = rng.usize(..tree[at].untried.len());
                let mv = tree[at].untried.swap_remove(i);
                b.play(mv).expect("legal");
                let child = tree.len();
                tree.push(node(Some(mv), at, &b));
                tree[at].children.push(child);
                at = child;
            }
            // Simulate, then back up.
            let winner = uniform_playout(&b, rng);
            loop {
                let n = &mut tree[at];
                n.visits += 1.0;
                n.wins += match winner {
                    Some(w) if w == n.mover => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
                if at == 0 {
                    break;
                }
                at = n.parent;
            }
        }
        let best = tree[0]
            .children
            .iter()
            .max_by(|&&x, &&y| tree[x].visits.total_cmp(&tree[y].visits))
            .expect("a root with moves");
        tree[*best].mv.expect("a child has a move")
    }
}

fn report(a: Spec, b: Spec, (wins, draws, losses): (u32, u32, u32)) {
    let n = f64::from(wins + draws + losses);
    let score = (f64::from(wins) + f64::from(draws) / 2.0) / n;
    let (lo, hi) = tictactoe::ai::rating::wilson(score, n);
    println!(
        "{a} vs {b}: {wins} won, {draws} drawn, {losses} lost of {n}: score {:.1}% (95% CI {:.1}%-{:.1}%)",
        100.0 * score,
        100.0 * lo,
        100.0 * hi
    );
}

/// Every legal pair of first moves, in an order drawn from `seed`.
fn opening_pairs(seed: u64) -> Vec<[Move; 2]> {
    let start = UltimateBoard::new();
    let mut all = Vec::new();
    for first in start.legal_moves() {
        let after = start.with_move(first).expect("a legal move");
        for reply in after.legal_moves() {
            all.push([first, reply]);
        }
    }
    fastrand::Rng::with_seed(seed).shuffle(&mut all);
    all
}

/// The network in `path`, kept for the whole run.
fn load_network(path: &std::path::Path) -> &'static Network {
    let bytes = std::fs::read(path)
        .unwrap_or_else(|e| panic!("cannot read the network {}: {e}", path.display()));
    let network = Network::from_bytes(&bytes)
        .unwrap_or_else(|e| panic!("{} is not a network: {e}", path.display()));
    Box::leak(Box::new(network))
}

/// Gives `player`, when it searches, `network` in every tree.
fn give_network(player: &mut Player, network: &'static Network) {
    match player {
        Player::Engine(_, _, mcts) => {
            **mcts = std::mem::replace(&mut **mcts, Mcts::new(None)).with_network(network);
        }
        Player::Threads(_, search) => {
            for tree in search.trees() {
                *tree = std::mem::replace(tree, Mcts::new(None)).with_network(network);
            }
        }
        Player::Uct(..) => {}
    }
}

/// Whether `spec` searches with a policy: `hard` weighs one unless its `--policy` (or
/// `--b-policy`), `policy`, is 0, and the network it plays on must then have one.
fn weighs_policy(spec: Spec, policy: Option<f32>) -> bool {
    matches!(spec, Spec::Engine(Effort::Hard, _) | Spec::Threads(..))
        && policy.unwrap_or(Settings::HARD.policy) > 0.0
}

/// The network `--b-network` names, once it is known to fit the second player (`hard`, with a
/// policy unless `--b-policy 0`); exits with a message where it does not.
fn second_network(args: &Args) -> Option<&'static Network> {
    let network = args.b_network.as_deref().map(load_network)?;
    if !matches!(args.b, Spec::Engine(Effort::Hard, _) | Spec::Threads(..)) {
        eprintln!("--b-network is for a second player that is hard");
        std::process::exit(2);
    }
    if weighs_policy(args.b, args.b_policy) && !network.has_policy() {
        eprintln!(
            "the second player weighs a policy, as hard does: its --b-network needs one, or \
             --b-policy 0"
        );
        std::process::exit(2);
    }
    Some(network)
}

/// Changes the settings of `player`, when it is the engine, by `change`.
fn retune(player: &mut Player, change: impl FnOnce(&mut Settings)) {
    if let Player::Engine(_, _, mcts) = player {
        let mut settings = mcts.settings();
        change(&mut settings);
        let old = std::mem::replace(&mut **mcts, Mcts::new(None));
        **mcts = old.with_settings(settings);
    }
}

/// Gives the first player, when it is the engine, the settings and network the flags name.
fn tune_first(args: &Args, network: Option<&'static Network>, a: &mut Player) {
    retune(a, |s| {
        s.exploration = args.exploration.unwrap_or(s.exploration);
        s.prior_visits = args.prior.unwrap_or(s.prior_visits);
        s.playouts = args.playouts.unwrap_or(s.playouts);
        s.leaf = args.leaf.unwrap_or(s.leaf);
        s.prior = args.prior_from.unwrap_or(s.prior);
        s.policy = args.policy.unwrap_or(s.policy);
        s.policy_visits = args.policy_visits.unwrap_or(s.policy_visits);
        s.minimax = args.minimax.unwrap_or(s.minimax);
    });
    if let Some(network) = network {
        give_network(a, network);
    }
}

/// Gives the second player, when it is the engine, the settings the `--b-…` flags name.
fn tune_second(args: &Args, b: &mut Player) {
    retune(b, |s| {
        s.exploration = args.b_exploration.unwrap_or(s.exploration);
        s.policy = args.b_policy.unwrap_or(s.policy);
        s.policy_visits = args.b_policy_visits.unwrap_or(s.policy_visits);
        s.minimax = args.b_minimax.unwrap_or(s.minimax);
    });
}

fn main() {
    let args = Args::parse();
    let network = args.network.as_deref().map(load_network);
    if weighs_policy(args.a, args.policy) && !network.unwrap_or_else(value::embedded).has_policy() {
        eprintln!(
            "the first player weighs a policy (--policy, {} in hard): give a --network with one, \
             or --policy 0",
            Settings::HARD.policy
        );
        std::process::exit(2);
    }
    let b_network = second_network(&args);
    let start = Instant::now();
    let mut tally = (0, 0, 0);
    let openings = if args.openings {
        opening_pairs(args.seed)
    } else {
        Vec::new()
    };
    for game in 0..args.games {
        let seed = args
            .seed
            .wrapping_mul(1_000_003)
            .wrapping_add(u64::from(game));
        let mut a = Player::new(args.a, seed);
        tune_first(&args, network, &mut a);
        let mut b = Player::new(args.b, seed ^ 0x5555_5555);
        tune_second(&args, &mut b);
        if let Some(network) = b_network {
            give_network(&mut b, network);
        }
        if args.work {
            for player in [&mut a, &mut b] {
                match player {
                    Player::Engine(_, _, mcts) => mcts.set_meter(Meter::Work),
                    Player::Threads(_, search) => {
                        search
                            .trees()
                            .iter_mut()
                            .for_each(|t| t.set_meter(Meter::Work));
                    }
                    Player::Uct(..) => {}
                }
            }
        }
        let a_mark = if game % 2 == 0 { Mark::X } else { Mark::O };
        let mut board = UltimateBoard::new();
        if !openings.is_empty() {
            for mv in openings[(game / 2) as usize % openings.len()] {
                board.play(mv).expect("openings are legal");
            }
        }
        while board.outcome() == Outcome::InProgress {
            let mv = if board.to_move() == a_mark {
                a.choose(&board)
            } else {
                b.choose(&board)
            };
            board.play(mv).expect("players choose legal moves");
        }
        match board.outcome() {
            Outcome::Won { winner, .. } if winner == a_mark => tally.0 += 1,
            Outcome::Won { .. } => tally.2 += 1,
            _ => tally.1 += 1,
        }
        if (game + 1) % args.every == 0 || game + 1 == args.games {
            print!(
                "[{} games, {:.0} s] ",
                game + 1,
                start.elapsed().as_secs_f64()
            );
            report(args.a, args.b, tally);
        }
    }
}
