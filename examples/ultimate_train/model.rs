//! The trainer's network and data: training positions with their targets ([`Samples`]),
//! the value and the policy as plain parameter vectors with their forward and backward passes
//! ([`Model`]), and Adam.

// Counts of positions become floats for averages: exact far beyond any data set here.
#![allow(clippy::cast_precision_loss)]

use tictactoe::ai::mcts::value::{self, INPUTS, MAX_ACTIVE, MOVES, Shape, value_parameters};
use tictactoe::rules::ultimate::{Move, UltimateBoard};

use super::Game;

/// Training positions: the set inputs of each, flat, with where each starts, and its target;
/// when the policy is trained, also each one's legal moves with the policy's target share of
/// each, flat, with where each position's start.
#[derive(Default)]
pub struct Samples {
    features: Vec<u8>,
    starts: Vec<usize>,
    targets: Vec<f32>,
    moves: Vec<u8>,
    shares: Vec<f32>,
    moves_at: Vec<usize>,
}

/// One training position.
pub struct Sample<'a> {
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
    pub fn push(&mut self, active: &[u8], target: f32) {
        self.starts.push(self.features.len());
        self.features.extend_from_slice(active);
        self.targets.push(target);
    }

    pub fn len(&self) -> usize {
        self.targets.len()
    }

    pub fn get(&self, i: usize) -> Sample<'_> {
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
    pub fn push_policy(&mut self, board: &UltimateBoard, visits: &[(usize, f32)], played: usize) {
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
    pub fn add_game(
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
/// policy's after the value's when it has one, and where each kind starts among them.
pub struct Model {
    pub p: Vec<f32>,
    at: Layout,
}

/// Where each kind of parameter starts in a network of shape `shape`: the value's first
/// layer at 0, its biases, its output's weights and bias; the policy's first layer, its biases,
/// its outputs' weights (move by move) and their biases.
#[derive(Clone, Copy)]
struct Layout {
    shape: Shape,
    /// The value's hidden units.
    hidden: usize,
    /// The policy's hidden units (the value's without a policy).
    policy_hidden: usize,
    b1: usize,
    w2: usize,
    b2: usize,
    pw1: usize,
    pb1: usize,
    wp: usize,
    bp: usize,
}

impl Layout {
    fn new(shape: Shape) -> Layout {
        let hidden = shape.value;
        let policy_hidden = shape.policy.unwrap_or(hidden);
        let b1 = INPUTS * hidden;
        let pw1 = value_parameters(hidden);
        let pb1 = pw1 + INPUTS * policy_hidden;
        Layout {
            shape,
            hidden,
            policy_hidden,
            b1,
            w2: b1 + hidden,
            b2: b1 + 2 * hidden,
            pw1,
            pb1,
            wp: pb1 + policy_hidden,
            bp: pb1 + policy_hidden + MOVES * policy_hidden,
        }
    }
}

/// A position's errors: the value's squared error and the policy's cross-entropy.
#[derive(Clone, Copy, Default)]
pub struct Errors {
    pub value: f64,
    pub policy: f64,
}

impl Model {
    /// A network of shape `shape` (widths of `value::WIDTHS`).
    pub fn new(rng: &mut fastrand::Rng, shape: Shape) -> Model {
        let at = Layout::new(shape);
        let policy = shape.policy.is_some();
        let mut p = vec![0.0; shape.parameters()];
        for x in &mut p[..at.b1] {
            *x = (rng.f32() - 0.5) * 0.4;
        }
        for x in &mut p[at.w2..at.b2] {
            *x = (rng.f32() - 0.5) * 0.6;
        }
        if policy {
            for x in &mut p[at.pw1..at.pb1] {
                *x = (rng.f32() - 0.5) * 0.4;
            }
            for x in &mut p[at.wp..at.bp] {
                *x = (rng.f32() - 0.5) * 0.2;
            }
        }
        Model { p, at }
    }

    pub fn shape(&self) -> Shape {
        self.at.shape
    }

    pub fn has_policy(&self) -> bool {
        self.p.len() > self.at.pw1
    }

    /// The hidden layer before rectifying, and the output (after `tanh`).
    pub fn forward(&self, active: &[u8]) -> (Vec<f32>, f32) {
        let (at, h) = (self.at, self.at.hidden);
        let mut pre = self.p[at.b1..at.w2].to_vec();
        for &f in active {
            let row = &self.p[usize::from(f) * h..][..h];
            for (x, w) in pre.iter_mut().zip(row) {
                *x += w;
            }
        }
        let mut out = self.p[at.b2];
        for (x, w) in pre.iter().zip(&self.p[at.w2..at.b2]) {
            out += x.max(0.0) * w;
        }
        (pre, out.tanh())
    }

    /// The policy's hidden layer before rectifying.
    pub fn policy_hidden(&self, active: &[u8]) -> Vec<f32> {
        let (at, h) = (self.at, self.at.policy_hidden);
        let mut pre = self.p[at.pb1..at.wp].to_vec();
        for &f in active {
            let row = &self.p[at.pw1 + usize::from(f) * h..][..h];
            for (x, w) in pre.iter_mut().zip(row) {
                *x += w;
            }
        }
        pre
    }

    /// The policy's share of each of `moves` for its hidden layer `pre` (before rectifying).
    pub fn policy(&self, pre: &[f32], moves: &[u8]) -> Vec<f32> {
        let (at, h) = (self.at, self.at.policy_hidden);
        let mut shares: Vec<f32> = moves
            .iter()
            .map(|&m| {
                let row = &self.p[at.wp + usize::from(m) * h..][..h];
                let dot = pre.iter().zip(row).map(|(x, w)| x.max(0.0) * w);
                dot.fold(self.p[at.bp + usize::from(m)], |a, x| a + x)
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
    pub fn cross_entropy(sample: &Sample, shares: &[f32]) -> f64 {
        let terms = sample.shares.iter().zip(shares);
        terms
            .filter(|&(&t, _)| t > 0.0)
            .map(|(&t, &p)| -f64::from(t) * f64::from(p.max(1e-12)).ln())
            .sum()
    }

    /// Adds the gradient of the squared error on one position, and of `weight` × the policy's
    /// cross-entropy, to `grad`; returns both errors.
    pub fn backward(&self, sample: &Sample, weight: f32, grad: &mut [f32]) -> Errors {
        let (at, h) = (self.at, self.at.hidden);
        let (pre, y) = self.forward(sample.active);
        let d = 2.0 * (y - sample.target) * (1.0 - y * y);
        grad[at.b2] += d;
        let mut dh = vec![0.0f32; h];
        for (j, &x) in pre.iter().enumerate() {
            if x > 0.0 {
                grad[at.w2 + j] += d * x;
                dh[j] = d * self.p[at.w2 + j];
            }
        }
        let mut policy = 0.0;
        if self.has_policy() && !sample.moves.is_empty() {
            policy = self.policy_backward(sample, weight, grad);
        }
        for (j, &x) in dh.iter().enumerate() {
            if pre[j] > 0.0 {
                grad[at.b1 + j] += x;
            }
        }
        for &f in sample.active {
            let row = &mut grad[usize::from(f) * h..][..h];
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
    pub fn policy_backward(&self, sample: &Sample, weight: f32, grad: &mut [f32]) -> f64 {
        let (at, h) = (self.at, self.at.policy_hidden);
        let pre = self.policy_hidden(sample.active);
        let shares = self.policy(&pre, sample.moves);
        let mut dh = vec![0.0f32; h];
        let targets = sample.shares.iter().zip(&shares);
        for (&m, (&t, &p)) in sample.moves.iter().zip(targets) {
            let g = weight * (p - t);
            let m = usize::from(m);
            grad[at.bp + m] += g;
            let row = at.wp + m * h;
            for (j, &x) in pre.iter().enumerate() {
                if x > 0.0 {
                    grad[row + j] += g * x;
                    dh[j] += g * self.p[row + j];
                }
            }
        }
        for (j, &x) in dh.iter().enumerate() {
            if pre[j] > 0.0 {
                grad[at.pb1 + j] += x;
            }
        }
        for &f in sample.active {
            let row = &mut grad[at.pw1 + usize::from(f) * h..][..h];
            for (g, x) in row.iter_mut().zip(&dh) {
                *g += x;
            }
        }
        Model::cross_entropy(sample, &shares)
    }

    /// The mean errors over `samples`.
    pub fn loss(&self, samples: &Samples) -> Errors {
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
pub struct Adam {
    pub m: Vec<f32>,
    pub v: Vec<f32>,
    pub t: i32,
}

impl Adam {
    pub fn step(&mut self, p: &mut [f32], grad: &[f32], lr: f32) {
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
