//! The learned evaluation of Ultimate positions: a small network (one hidden layer) trained
//! from the engine's own self-play games (`examples/ultimate_train/`; `docs/ai.md` tells how),
//! whose weights the build embeds.
//!
//! # Inputs and output
//!
//! Everything is seen from the side to move ("mine" and "theirs"). The inputs are 0 or 1 and
//! few are set, so the network reads them as a list of indices ([`active_features`]):
//! - 0-80: my marks, 81-161: theirs (board index × 9 + cell index);
//! - 162-170: small boards I won, 171-179: boards they won, 180-188: boards full with no winner;
//! - 189-197: the boards I may play on now;
//! - 198-206: open boards where I have two in a line with the third cell empty (I could win
//!   them with one mark), 207-215: open boards where they have.
//!
//! The hidden layer is 64, 128 or 256 rectified units ([`WIDTHS`]; the file says which); the
//! output is `tanh`, from −1 (the side to move loses) through 0 (a draw, or even chances) to 1
//! (it wins).
//!
//! A network may also have a policy: a second network of the same kind over the same inputs,
//! with one output a cell ([`MOVES`]) instead of the value, turned by a softmax over the legal
//! moves into the share of the search each move is worth ([`Network::policy`]), trained on the
//! visits of the engine's own searches. It has hidden units of its own, so training it leaves
//! the value as it was.
//!
//! # The file
//!
//! Little-endian: the 4 bytes `UTTV`, then the version, the number of inputs and of hidden
//! units as `u32`, then `f32`s: the first layer's weights input by input (one a hidden unit),
//! its biases, the output's weights and its bias. Version 3 goes on with the policy: its first
//! layer's weights and biases as the value's, then the weights of each move's output
//! (one a hidden unit, move by move), then their biases; the policy is as wide as the value.
//! Version 4 is version 3 with a policy of its own width, written as a fifth `u32` after the
//! value's (a version 4 file whose widths are equal reads as well, and is written back as
//! version 3). [`Network::from_bytes`] refuses a file whose header does not match a shape
//! this build reads.
//!
//! The value's first layer is worked out in fixed point (16-bit integers, `Fixed`), whose sums
//! are exact in any order, and the output's products in sixteen lanes of a fixed order, so the
//! same position always gets the same value, bit for bit, on the same platform. The embedded
//! network's values differ from its float weights' by at most about a hundredth (a test bounds
//! it); the policy is worked out in floats.

use std::fmt;
use std::sync::OnceLock;

use crate::rules::ultimate::{UltimateBoard, threats};

mod fixed;
use fixed::{Fixed, add_row, rectified_dot, sub_row};

/// Inputs of the network (see the module docs).
pub const INPUTS: usize = 216;
/// The numbers of hidden units a network may have. Each gets loops of a length the compiler
/// knows (see `by_width!`), as fast as a build for that width alone.
pub const WIDTHS: [usize; 3] = [64, 128, 256];
/// The most hidden units.
const MAX_HIDDEN: usize = 256;
/// The most inputs set at once: 81 marks, 9 board states, 9 playable boards and 18 threats.
pub const MAX_ACTIVE: usize = 117;
/// The file format's version for a network of a value alone.
pub const VERSION: u32 = 2;
/// The version for a network with a policy as wide as its value.
pub const POLICY_VERSION: u32 = 3;
/// The version for a network with a policy of its own width: the header goes on with it.
pub const WIDE_POLICY_VERSION: u32 = 4;
const MAGIC: &[u8; 4] = b"UTTV";
const HEADER: usize = 16;
/// Outputs of the policy: one a cell of the grid (board index × 9 + cell index).
pub const MOVES: usize = 81;

/// Parameters of a value of `hidden` units, after the header.
pub const fn value_parameters(hidden: usize) -> usize {
    INPUTS * hidden + hidden + hidden + 1
}

/// Parameters of a policy of `hidden` units, after the value's.
pub const fn policy_parameters(hidden: usize) -> usize {
    INPUTS * hidden + hidden + MOVES * hidden + MOVES
}

/// Evaluates `$body` with `$n` a constant equal to `$hidden`, one of [`WIDTHS`], so that the
/// loops over the hidden units in it have a fixed length.
macro_rules! by_width {
    ($hidden:expr, $n:ident => $body:expr) => {
        match $hidden {
            64 => {
                const $n: usize = 64;
                $body
            }
            128 => {
                const $n: usize = 128;
                $body
            }
            256 => {
                const $n: usize = 256;
                $body
            }
            w => unreachable!("a network is built only with a width of WIDTHS, not {w}"),
        }
    };
}

/// The weights the build embeds.
static EMBEDDED: &[u8] = include_bytes!("ultimate_value.bin");

/// Why a weights file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// It does not start with `UTTV`.
    Magic,
    /// Another version, another number of inputs, or a number of hidden units not in
    /// [`WIDTHS`] (the value's, or the policy's).
    Shape {
        version: u32,
        inputs: u32,
        hidden: u32,
    },
    /// Not as many bytes as the header's shape needs (the count it needs).
    Length(usize, usize),
    /// A weight that is not a finite number (its index among the weights).
    NotFinite(usize),
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelError::Magic => write!(f, "not a value network (no UTTV header)"),
            ModelError::Shape {
                version,
                inputs,
                hidden,
            } => write!(
                f,
                "a network of version {version} with {inputs} inputs and {hidden} hidden units \
                 (in its value or its policy), not version {VERSION} to {WIDE_POLICY_VERSION} \
                 with {INPUTS} inputs and {WIDTHS:?} hidden units"
            ),
            ModelError::Length(n, want) => write!(
                f,
                "{n} bytes, not the {want} of the header and the weights its version needs"
            ),
            ModelError::NotFinite(i) => write!(f, "weight {i} is not a finite number"),
        }
    }
}

impl std::error::Error for ModelError {}

/// The network's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Hidden units, one of [`WIDTHS`].
    hidden: usize,
    /// `w1[input * hidden + unit]`.
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
    /// The value's first layer in fixed point, which the search adds (see [`Fixed`]).
    fixed: Fixed,
    policy: Option<Policy>,
}

/// The hidden units of a network's value and of its policy, if it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    pub value: usize,
    pub policy: Option<usize>,
}

impl Shape {
    /// The parameters of a network of this shape.
    pub fn parameters(self) -> usize {
        value_parameters(self.value) + self.policy.map_or(0, policy_parameters)
    }
}

/// The policy's weights.
#[derive(Clone, Debug, PartialEq)]
struct Policy {
    /// Hidden units, one of [`WIDTHS`].
    hidden: usize,
    /// `w1[input * hidden + unit]`.
    w1: Vec<f32>,
    b1: Vec<f32>,
    /// `w[move * hidden + unit]`.
    w: Vec<f32>,
    b: Vec<f32>,
}

/// Reads the `i`-th little-endian `u32` or `f32` of `bytes`.
fn word(bytes: &[u8], i: usize) -> [u8; 4] {
    bytes[4 * i..4 * i + 4].try_into().expect("four bytes")
}

impl Network {
    /// A network of shape `shape` from its parameters in file order (see the module docs).
    ///
    /// # Panics
    /// If a width of `shape` is not one of [`WIDTHS`], or `parameters` holds another number of
    /// numbers than [`Shape::parameters`].
    pub fn from_parameters(shape: Shape, parameters: &[f32]) -> Network {
        let hidden = shape.value;
        let widths = [Some(hidden), shape.policy];
        assert!(
            widths.iter().flatten().all(|h| WIDTHS.contains(h)),
            "{shape:?}"
        );
        assert_eq!(
            parameters.len(),
            shape.parameters(),
            "a network's parameters"
        );
        let (w1, rest) = parameters.split_at(INPUTS * hidden);
        let (b1, rest) = rest.split_at(hidden);
        let (w2, rest) = rest.split_at(hidden);
        let (b2, rest) = rest.split_at(1);
        let policy = shape.policy.map(|hidden| {
            let (w1, rest) = rest.split_at(INPUTS * hidden);
            let (b1, rest) = rest.split_at(hidden);
            let (w, b) = rest.split_at(MOVES * hidden);
            Policy {
                hidden,
                w1: w1.to_vec(),
                b1: b1.to_vec(),
                w: w.to_vec(),
                b: b.to_vec(),
            }
        });
        Network {
            hidden,
            fixed: Fixed::new(hidden, w1, b1, w2),
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: b2[0],
            policy,
        }
    }

    /// The hidden units of its value and of its policy.
    pub fn shape(&self) -> Shape {
        Shape {
            value: self.hidden,
            policy: self.policy.as_ref().map(|p| p.hidden),
        }
    }

    /// Whether the network has a policy.
    pub fn has_policy(&self) -> bool {
        self.policy.is_some()
    }

    /// Reads a weights file (see the module docs).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, ModelError> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err(ModelError::Magic);
        }
        let header = |i| u32::from_le_bytes(word(bytes, i));
        let (version, inputs, hidden) = (header(1), header(2), header(3));
        let wide = version == WIDE_POLICY_VERSION && bytes.len() >= HEADER + 4;
        let policy = match version {
            POLICY_VERSION => Some(hidden),
            _ if wide => Some(header(4)),
            _ => None,
        };
        let refused = |hidden| ModelError::Shape {
            version,
            inputs,
            hidden,
        };
        let known = [VERSION, POLICY_VERSION, WIDE_POLICY_VERSION].contains(&version);
        if !known || inputs as usize != INPUTS {
            return Err(refused(hidden));
        }
        if version == WIDE_POLICY_VERSION && !wide {
            return Err(ModelError::Length(bytes.len(), HEADER + 4));
        }
        for width in [Some(hidden), policy].into_iter().flatten() {
            if !WIDTHS.contains(&(width as usize)) {
                return Err(refused(width));
            }
        }
        let shape = Shape {
            value: hidden as usize,
            policy: policy.map(|p| p as usize),
        };
        let start = if wide { HEADER + 4 } else { HEADER };
        let want = start + 4 * shape.parameters();
        if bytes.len() != want {
            return Err(ModelError::Length(bytes.len(), want));
        }
        let body = &bytes[start..];
        let parameters: Vec<f32> = (0..shape.parameters())
            .map(|i| f32::from_le_bytes(word(body, i)))
            .collect();
        if let Some(i) = parameters.iter().position(|w| !w.is_finite()) {
            return Err(ModelError::NotFinite(i));
        }
        Ok(Network::from_parameters(shape, &parameters))
    }

    /// The weights file of this network: version 2 for a value alone, 3 with a policy as wide,
    /// 4 with a policy of another width.
    pub fn to_bytes(&self) -> Vec<u8> {
        let shape = self.shape();
        let (version, extra) = match shape.policy {
            None => (VERSION, None),
            Some(p) if p == shape.value => (POLICY_VERSION, None),
            Some(p) => (WIDE_POLICY_VERSION, Some(p as u32)),
        };
        let mut out = Vec::with_capacity(HEADER + 4 + 4 * shape.parameters());
        out.extend_from_slice(MAGIC);
        for n in [version, INPUTS as u32, shape.value as u32]
            .into_iter()
            .chain(extra)
        {
            out.extend_from_slice(&n.to_le_bytes());
        }
        for x in self.parameters() {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// The parameters in file order, as [`Network::from_parameters`] takes them.
    pub fn parameters(&self) -> Vec<f32> {
        let tail = self.b1.iter().chain(&self.w2).chain([&self.b2]);
        let policy = self
            .policy
            .iter()
            .flat_map(|p| p.w1.iter().chain(&p.b1).chain(&p.w).chain(&p.b));
        self.w1.iter().chain(tail).chain(policy).copied().collect()
    }

    /// The policy's share of each legal move of `board` (a game in progress), written at the
    /// move's index (board index × 9 + cell index) into `out`, 0 elsewhere; the shares sum to
    /// 1. `false`, and nothing written, for a network without a policy.
    pub fn policy(&self, board: &UltimateBoard, out: &mut [f32; MOVES]) -> bool {
        let Some(head) = &self.policy else {
            return false;
        };
        let mut active = [0u8; MAX_ACTIVE];
        let n = active_features(board, &mut active);
        out.fill(0.0);
        by_width!(head.hidden, N => head.logits::<N>(board, &active[..n], out));
        let mut top = f32::NEG_INFINITY;
        for mv in board.legal_moves() {
            top = top.max(out[mv.index()]);
        }
        let mut total = 0.0;
        for mv in board.legal_moves() {
            let i = mv.index();
            out[i] = (out[i] - top).exp();
            total += out[i];
        }
        for mv in board.legal_moves() {
            out[mv.index()] /= total;
        }
        true
    }

    /// The network's value of `board` (a game in progress) for the side to move, in −1..=1.
    pub fn evaluate(&self, board: &UltimateBoard) -> f32 {
        let mut active = [0u8; MAX_ACTIVE];
        let n = active_features(board, &mut active);
        self.evaluate_features(&active[..n])
    }

    /// The value of a position whose set inputs are `active` (in increasing order).
    pub fn evaluate_features(&self, active: &[u8]) -> f32 {
        by_width!(self.hidden, N => {
            let mut sums = *first_of::<i16, N>(&self.fixed.b1);
            for &f in active {
                self.add(&mut sums, usize::from(f));
            }
            self.output(&sums)
        })
    }

    /// Adds the weights of input `input` to the first-layer `sums`.
    #[inline]
    fn add<const N: usize>(&self, sums: &mut [i16; N], input: usize) {
        add_row(&self.fixed.w1, sums, input);
    }

    /// Takes the weights of input `input` from the first-layer `sums`.
    #[inline]
    fn sub<const N: usize>(&self, sums: &mut [i16; N], input: usize) {
        sub_row(&self.fixed.w1, sums, input);
    }

    /// The output for the first-layer `sums` (biases included).
    #[inline]
    fn output<const N: usize>(&self, sums: &[i16; N]) -> f32 {
        tanh(self.b2 + rectified_dot(sums, first_of::<f32, N>(&self.fixed.w2)))
    }

    /// An evaluator of the positions one move after `board` (a game in progress); see
    /// [`AfterMoves`].
    pub fn after_moves(&self, board: &UltimateBoard) -> AfterMoves<'_> {
        by_width!(self.hidden, N => self.after_moves_in::<N>(board))
    }

    /// [`Network::after_moves`] for a network of `N` units.
    fn after_moves_in<const N: usize>(&self, board: &UltimateBoard) -> AfterMoves<'_> {
        let mut active = [0u8; MAX_ACTIVE];
        // The inputs the moves leave alone, seen by the side that answers them.
        let n = features(board, board.side() ^ 1, None, &mut active);
        let mut fixed = [0; MAX_HIDDEN];
        let sums = first::<N>(&mut fixed);
        sums.copy_from_slice(&self.fixed.b1[..N]);
        for &f in &active[..n] {
            self.add(sums, usize::from(f));
        }
        let mut anywhere = fixed;
        let sums = first::<N>(&mut anywhere);
        for b in open_boards(board.open()) {
            self.add(sums, PLAYABLE + b);
        }
        AfterMoves {
            network: self,
            board: *board,
            fixed,
            anywhere,
        }
    }
}

impl Policy {
    /// Writes the logit of each legal move of `board`, whose set inputs are `active`, at its
    /// index in `out`.
    fn logits<const N: usize>(&self, board: &UltimateBoard, active: &[u8], out: &mut [f32]) {
        let mut sums = *first_of::<f32, N>(&self.b1);
        for &f in active {
            add_row(&self.w1, &mut sums, usize::from(f));
        }
        for mv in board.legal_moves() {
            let i = mv.index();
            out[i] = self.b[i] + rectified_dot(&sums, first_of::<f32, N>(&self.w[i * N..]));
        }
    }
}

/// `tanh(x)` by one exponential, `1 − 2 / (1 + e^2x)`, within 2e-7 of the library's `tanh`
/// (which works through `expm1` and costs several times as much); ±1 where `e^2x` leaves
/// the floats.
#[inline]
fn tanh(x: f32) -> f32 {
    1.0 - 2.0 / (1.0 + (2.0 * x).exp())
}

/// The value's first-layer sums of a position in fixed point ([`Fixed`]), biases included,
/// before the rectifier: the first as many as the value's hidden units ([`Network::shape`])
/// are used.
type Sums = [i16; MAX_HIDDEN];

/// The first `N` of `sums`.
fn first<const N: usize>(sums: &mut Sums) -> &mut [i16; N] {
    (&mut sums[..N]).try_into().expect("N sums")
}

/// The first `N` of `numbers`, as an array.
fn first_of<T, const N: usize>(numbers: &[T]) -> &[T; N] {
    numbers[..N].try_into().expect("N numbers")
}

/// The first input of each block (see the module docs).
const THEIR_MARKS: usize = 81;
const THEIR_BOARDS: usize = 171;
const FULL_BOARDS: usize = 180;
const PLAYABLE: usize = 189;
const MY_THREATS: usize = 198;
const THEIR_THREATS: usize = 207;

/// The indices of the boards in a 9-bit mask.
fn open_boards(mask: u16) -> impl Iterator<Item = usize> {
    (0..9).filter(move |b| mask & (1 << b) != 0)
}

/// The network's values of the positions one move after a position, each worked out from the
/// first-layer sums of that position's unchanged inputs plus the few the move changes (its
/// mark, its small board's state and threats, the boards playable next) instead of from all of
/// its inputs: about a tenth of the additions of [`Network::evaluate`] in a middle game.
///
/// The sums are integers (see `Fixed`), so a value is [`Network::evaluate`]'s, bit for bit,
/// though the rows are added in another order.
pub struct AfterMoves<'a> {
    network: &'a Network,
    /// The position the moves are made from.
    board: UltimateBoard,
    /// The sums of its inputs as the side that answers sees them, but for the playable boards.
    fixed: Sums,
    /// `fixed` with every open board playable.
    anywhere: Sums,
}

impl AfterMoves<'_> {
    /// The value of `after`, the position after the legal move with index `mv` (board index ×
    /// 9 + cell index) from the position this was made for, for its side to move (as
    /// [`Network::evaluate`] gives it). The move must not end the game.
    pub fn evaluate(&self, mv: usize, after: &UltimateBoard) -> f32 {
        by_width!(self.network.hidden, N => self.evaluate_in::<N>(mv, after))
    }

    /// [`AfterMoves::evaluate`] for a network of `N` units.
    fn evaluate_in<const N: usize>(&self, mv: usize, after: &UltimateBoard) -> f32 {
        let net = self.network;
        let (b, c) = (mv / 9, mv % 9);
        let (answerer, mover) = (after.side(), after.side() ^ 1);
        let closed = after.open() & (1 << b) == 0;
        let forced = after.forced_index();
        let mut sums = if forced < 9 {
            let mut s = *first_of::<i16, N>(&self.fixed);
            net.add(&mut s, PLAYABLE + forced);
            s
        } else {
            let mut s = *first_of::<i16, N>(&self.anywhere);
            if closed {
                net.sub(&mut s, PLAYABLE + b);
            }
            s
        };
        net.add(&mut sums, THEIR_MARKS + 9 * b + c);
        if after.won_by(mover) & (1 << b) != 0 {
            net.add(&mut sums, THEIR_BOARDS + b);
        } else if closed {
            net.add(&mut sums, FULL_BOARDS + b);
        }
        let hot = |board: &UltimateBoard, side: usize| {
            board.open() & (1 << b) != 0 && threats(board.cells_of(side, b)) & board.empty(b) != 0
        };
        for (side, base) in [(answerer, MY_THREATS), (mover, THEIR_THREATS)] {
            match (hot(&self.board, side), hot(after, side)) {
                (false, true) => net.add(&mut sums, base + b),
                (true, false) => net.sub(&mut sums, base + b),
                _ => {}
            }
        }
        net.output(&sums)
    }
}

/// The expected score (a win 1, a draw ½) of a network's output `value` for the side to move
/// when `ply` is 0, for the other side when it is 1.
pub fn rate(value: f32, ply: u8) -> f32 {
    let mover = 0.5 + 0.5 * value;
    if ply == 0 { mover } else { 1.0 - mover }
}

/// The network the build embeds.
///
/// # Panics
/// If the embedded file does not fit this build (a test checks that it does).
pub fn embedded() -> &'static Network {
    static NETWORK: OnceLock<Network> = OnceLock::new();
    NETWORK.get_or_init(|| {
        Network::from_bytes(EMBEDDED).unwrap_or_else(|e| panic!("the embedded network: {e}"))
    })
}

/// Writes the indices of `board`'s set inputs (see the module docs) into `out`, in increasing
/// order, and returns how many there are.
pub fn active_features(board: &UltimateBoard, out: &mut [u8; MAX_ACTIVE]) -> usize {
    let forced = board.forced_index();
    let playable = if forced < 9 {
        1 << forced
    } else {
        board.open()
    };
    features(board, board.side(), Some(playable), out)
}

/// [`active_features`] as side `me` sees `board`, with `playable` as the boards `me` may play
/// on, or none of those inputs with `None`.
fn features(
    board: &UltimateBoard,
    me: usize,
    playable: Option<u16>,
    out: &mut [u8; MAX_ACTIVE],
) -> usize {
    let mut n = 0;
    let mut push = |mask: u16, base: usize| {
        let mut rest = mask;
        while rest != 0 {
            out[n] = (base + rest.trailing_zeros() as usize) as u8;
            n += 1;
            rest &= rest - 1;
        }
    };
    for (side, base) in [(me, 0), (me ^ 1, THEIR_MARKS)] {
        for b in 0..9 {
            push(board.cells_of(side, b), base + 9 * b);
        }
    }
    let (mine, theirs) = (board.won_by(me), board.won_by(me ^ 1));
    push(mine, 162);
    push(theirs, THEIR_BOARDS);
    push(!board.open() & !mine & !theirs & 0x1FF, FULL_BOARDS);
    if let Some(playable) = playable {
        push(playable, PLAYABLE);
    }
    let mut hot = [0u16; 2];
    for b in open_boards(board.open()) {
        for (i, side) in [me, me ^ 1].into_iter().enumerate() {
            if threats(board.cells_of(side, b)) & board.empty(b) != 0 {
                hot[i] |= 1 << b;
            }
        }
    }
    push(hot[0], MY_THREATS);
    push(hot[1], THEIR_THREATS);
    n
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The positions and values the trainer wrote beside the weights, from its own forward pass.
    static CHECK: &str = include_str!("ultimate_value_check.txt");

    #[test]
    fn the_embedded_network_gives_the_trainers_values() {
        let network = embedded();
        let mut checked = 0;
        for line in CHECK.lines().filter(|l| !l.starts_with('#')) {
            let mut columns = line.split('\t');
            let (position, value) = (columns.next().unwrap(), columns.next().expect("a value"));
            let board: UltimateBoard = position.parse().expect("a valid position");
            let want: f32 = value.parse().expect("a number");
            let exact = in_floats(network, &board);
            assert!(
                (exact - want).abs() < 1e-5,
                "{position}: {exact}, not {want}"
            );
            let got = network.evaluate(&board);
            assert!(
                (got - want).abs() < FIXED_POINT_ERROR,
                "{position}: {got} in fixed point, not {want}"
            );
            // With a policy, the share of each legal move.
            let mut shares = [0.0; MOVES];
            assert_eq!(
                network.policy(&board, &mut shares),
                columns.clone().count() == 1
            );
            for pair in columns.flat_map(|c| c.split(',')) {
                let (mv, want) = pair.split_once(':').expect("move:share");
                let (mv, want): (usize, f32) = (mv.parse().unwrap(), want.parse().unwrap());
                let got = shares[mv];
                assert!(
                    (got - want).abs() < 1e-5,
                    "{position} {mv}: {got}, not {want}"
                );
            }
            checked += 1;
        }
        assert!(checked >= 10, "only {checked} positions to check");
    }

    /// The most by which a value in fixed point may differ from the float network's.
    const FIXED_POINT_ERROR: f32 = 0.02;

    /// `network`'s value of `board` worked out in floats from its float weights, as the
    /// trainer works it out.
    fn in_floats(network: &Network, board: &UltimateBoard) -> f32 {
        let mut active = [0u8; MAX_ACTIVE];
        let n = active_features(board, &mut active);
        let mut sums = network.b1.clone();
        for &f in &active[..n] {
            let row = &network.w1[usize::from(f) * network.hidden..][..network.hidden];
            for (h, w) in sums.iter_mut().zip(row) {
                *h += w;
            }
        }
        let out: f32 = sums
            .iter()
            .zip(&network.w2)
            .map(|(h, w)| h.max(0.0) * w)
            .sum();
        (network.b2 + out).tanh()
    }

    #[test]
    fn values_in_fixed_point_stay_within_two_hundredths_of_the_floats_and_a_thousandth_on_average()
    {
        let network = embedded();
        // The scales docs/ai.md gives.
        let count = |s| {
            network
                .fixed
                .scales
                .iter()
                .filter(|&&x| x as u32 == s)
                .count()
        };
        assert_eq!([count(256), count(512), count(1024)], [91, 30, 7]);
        let mut rng = fastrand::Rng::with_seed(31);
        let (mut worst, mut total, mut count) = (0f32, 0f32, 0);
        for _ in 0..400 {
            let mut board = UltimateBoard::new();
            while board.outcome() == crate::rules::ultimate::Outcome::InProgress {
                let error = (network.evaluate(&board) - in_floats(network, &board)).abs();
                (worst, total, count) = (worst.max(error), total + error, count + 1);
                let moves = board.legal_moves();
                let mv = moves.nth(rng.usize(..moves.len())).expect("a move");
                board.play(mv).expect("a legal move");
            }
        }
        let mean = total / count as f32;
        eprintln!("{count} positions: the largest difference {worst:e}, the mean {mean:e}");
        assert!(count > 20_000, "only {count} positions");
        assert!(worst < FIXED_POINT_ERROR, "a difference of {worst}");
        assert!(mean < 1e-3, "a mean difference of {mean}");
    }

    #[test]
    fn no_first_layer_sum_in_fixed_point_overflows_even_with_large_weights() {
        let shape = Shape {
            value: 64,
            policy: None,
        };
        let mut rng = fastrand::Rng::with_seed(4);
        let parameters: Vec<f32> = (0..shape.parameters())
            .map(|_| (rng.f32() - 0.5) * 400.0)
            .collect();
        let network = Network::from_parameters(shape, &parameters);
        let scales = &network.fixed.scales;
        assert!(scales.iter().all(|&s| s <= 4.0), "{scales:?}");
        let mut positions = 0;
        for _ in 0..50 {
            let mut board = UltimateBoard::new();
            while board.outcome() == crate::rules::ultimate::Outcome::InProgress {
                let mut active = [0u8; MAX_ACTIVE];
                let n = active_features(&board, &mut active);
                for (u, &scale) in scales.iter().enumerate() {
                    let (mut fixed, mut float) = (network.fixed.b1[u], network.b1[u]);
                    for &f in &active[..n] {
                        fixed = fixed.wrapping_add(network.fixed.w1[usize::from(f) * 64 + u]);
                        float += network.w1[usize::from(f) * 64 + u];
                    }
                    let error = (f32::from(fixed) / scale - float).abs();
                    assert!(error <= (n + 1) as f32 * 0.5 / scale, "unit {u}: {error}");
                }
                positions += 1;
                let moves = board.legal_moves();
                let mv = moves.nth(rng.usize(..moves.len())).expect("a move");
                board.play(mv).expect("a legal move");
            }
        }
        assert!(positions > 2000, "only {positions} positions");
    }

    #[test]
    fn a_weights_file_of_another_shape_is_refused() {
        let mut bytes = embedded().to_bytes();
        assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(embedded()));
        bytes[12] ^= 1;
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(ModelError::Shape { .. })
        ));
        bytes[12] ^= 1;
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 4]),
            Err(ModelError::Length(bytes.len() - 4, bytes.len()))
        );
        // Another width of the widths read, but the body of this one.
        let other = if embedded().shape().value == 128 {
            64
        } else {
            128
        };
        bytes[12..16].copy_from_slice(&(other as u32).to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(ModelError::Length(..))
        ));
        assert_eq!(Network::from_bytes(b"junk"), Err(ModelError::Magic));
        // A weight that is not a number.
        let mut bytes = embedded().to_bytes();
        let at = bytes.len() - 8;
        bytes[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
        let last = embedded().shape().parameters() - 2;
        assert_eq!(
            Network::from_bytes(&bytes),
            Err(ModelError::NotFinite(last))
        );
        // A policy of a width not read, and a header cut short.
        let shape = Shape {
            value: 64,
            policy: Some(128),
        };
        let mut bytes = random(shape, 1).to_bytes();
        bytes[16..20].copy_from_slice(&100u32.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&bytes),
            Err(ModelError::Shape { hidden: 100, .. })
        ));
        assert_eq!(
            Network::from_bytes(&bytes[..HEADER]),
            Err(ModelError::Length(HEADER, HEADER + 4))
        );
    }

    /// A network of shape `shape` of seeded random weights.
    fn random(shape: Shape, seed: u64) -> Network {
        let mut rng = fastrand::Rng::with_seed(seed);
        let parameters: Vec<f32> = (0..shape.parameters())
            .map(|_| (rng.f32() - 0.5) * 0.2)
            .collect();
        Network::from_parameters(shape, &parameters)
    }

    #[test]
    fn every_pair_of_widths_reads_back_values_as_in_floats_and_after_moves_as_in_full() {
        let mut rng = fastrand::Rng::with_seed(9);
        for (i, (hidden, policy)) in WIDTHS
            .iter()
            .flat_map(|&v| WIDTHS.map(|p| (v, p)))
            .enumerate()
        {
            let shape = Shape {
                value: hidden,
                policy: Some(policy),
            };
            let network = random(shape, i as u64);
            let bytes = network.to_bytes();
            let version = if hidden == policy {
                POLICY_VERSION
            } else {
                WIDE_POLICY_VERSION
            };
            assert_eq!(bytes[4..8], version.to_le_bytes());
            assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(&network));
            let (differ, compared) = compare_after_moves(&network, 4, &mut rng, |board| {
                let error = (network.evaluate(board) - in_floats(&network, board)).abs();
                assert!(
                    error < FIXED_POINT_ERROR,
                    "{shape:?}: {error} from the floats"
                );
                let mut shares = [0.0; MOVES];
                assert!(network.policy(board, &mut shares));
                assert!((shares.iter().sum::<f32>() - 1.0).abs() < 1e-4);
            });
            assert!(compared > 200, "{shape:?}: only {compared} positions");
            assert_eq!(differ, 0, "{shape:?}: {differ} of {compared} values differ");
        }
    }

    /// A network with a policy of seeded random weights beside the embedded value.
    pub(in crate::ai::mcts) fn with_random_policy(seed: u64) -> Network {
        let mut rng = fastrand::Rng::with_seed(seed);
        let hidden = embedded().shape().value;
        with_policy(
            (0..policy_parameters(hidden))
                .map(|_| rng.f32() - 0.5)
                .collect(),
        )
    }

    /// A network with the embedded value (without the policy it may carry) and the policy of
    /// parameters `policy`.
    pub(in crate::ai::mcts) fn with_policy(policy: Vec<f32>) -> Network {
        let hidden = embedded().shape().value;
        let mut parameters = embedded().parameters();
        parameters.truncate(value_parameters(hidden));
        parameters.extend(policy);
        let shape = Shape {
            value: hidden,
            policy: Some(hidden),
        };
        Network::from_parameters(shape, &parameters)
    }

    #[test]
    fn a_policy_network_reads_back_from_its_file_and_keeps_the_value() {
        let network = with_random_policy(1);
        let bytes = network.to_bytes();
        assert_eq!(u32::from_le_bytes(word(&bytes, 1)), POLICY_VERSION);
        assert_eq!(bytes.len(), HEADER + 4 * network.shape().parameters());
        assert_eq!(Network::from_bytes(&bytes).as_ref(), Ok(&network));
        let board = UltimateBoard::new();
        assert_eq!(
            network.evaluate(&board).to_bits(),
            embedded().evaluate(&board).to_bits()
        );
        assert!(!embedded().has_policy() || embedded().policy(&board, &mut [0.0; MOVES]));
        assert!(matches!(
            Network::from_bytes(&bytes[..bytes.len() - 8]),
            Err(ModelError::Length(..))
        ));
    }

    #[test]
    fn the_policy_shares_out_one_over_the_legal_moves_only() {
        let network = with_random_policy(2);
        let mut rng = fastrand::Rng::with_seed(5);
        let mut shares = [0.0; MOVES];
        for _ in 0..50 {
            let mut board = UltimateBoard::new();
            while board.outcome() == crate::rules::ultimate::Outcome::InProgress {
                assert!(network.policy(&board, &mut shares));
                let legal: Vec<usize> = board
                    .legal_moves()
                    .into_iter()
                    .map(crate::rules::ultimate::Move::index)
                    .collect();
                let total: f32 = shares.iter().sum();
                assert!((total - 1.0).abs() < 1e-4, "{total}");
                for (i, &p) in shares.iter().enumerate() {
                    assert_eq!(p > 0.0, legal.contains(&i), "move {i}: {p}");
                }
                let mv = board.legal_moves().nth(rng.usize(..legal.len())).unwrap();
                board.play(mv).unwrap();
            }
        }
        let shape = Shape {
            value: 64,
            policy: None,
        };
        let value_only = Network::from_parameters(shape, &vec![0.0; shape.parameters()]);
        assert!(!value_only.policy(&UltimateBoard::new(), &mut shares));
    }

    /// Plays `games` random games on `rng` and, in each position (after calling `each` on it),
    /// values every move that does not end the game by `network`'s [`AfterMoves`] and in full;
    /// the number of values that differ in any bit, and the number of moves compared.
    fn compare_after_moves(
        network: &Network,
        games: usize,
        rng: &mut fastrand::Rng,
        mut each: impl FnMut(&UltimateBoard),
    ) -> (usize, usize) {
        let (mut differ, mut compared) = (0, 0);
        for _ in 0..games {
            let mut board = UltimateBoard::new();
            while board.outcome() == crate::rules::ultimate::Outcome::InProgress {
                each(&board);
                let after_moves = network.after_moves(&board);
                let moves = board.legal_moves();
                for mv in moves {
                    let mut after = board;
                    if !after.apply(mv.board() as usize - 1, mv.cell() as usize - 1) {
                        let full = network.evaluate(&after);
                        let quick = after_moves.evaluate(mv.index(), &after);
                        differ += usize::from(full.to_bits() != quick.to_bits());
                        compared += 1;
                    }
                }
                let mv = moves.nth(rng.usize(..moves.len())).expect("a move");
                board.play(mv).expect("a legal move");
            }
        }
        (differ, compared)
    }

    #[test]
    fn values_after_each_move_are_the_full_evaluations_bit_for_bit() {
        let mut rng = fastrand::Rng::with_seed(22);
        let (differ, compared) = compare_after_moves(embedded(), 300, &mut rng, |_| {});
        assert!(compared > 30_000, "only {compared} positions");
        assert_eq!(differ, 0, "{differ} of {compared} values differ");
    }

    #[test]
    fn tanh_by_one_exponential_is_within_rounding_of_the_librarys() {
        let mut worst = 0.0f32;
        for i in -20_000..=20_000 {
            let x = i as f32 / 1000.0;
            worst = worst.max((tanh(x) - x.tanh()).abs());
        }
        assert!(worst < 2e-7, "off by {worst}");
        for x in [-1e30, -100.0, 100.0, 1e30, f32::INFINITY, f32::NEG_INFINITY] {
            assert_eq!(tanh(x).to_bits(), x.signum().to_bits(), "tanh({x})");
        }
        assert!(tanh(f32::NAN).is_nan());
    }

    #[test]
    fn features_are_sorted_and_from_the_side_to_move() {
        let mut board = UltimateBoard::new();
        board.apply(4, 4);
        let mut active = [0u8; MAX_ACTIVE];
        let n = active_features(&board, &mut active);
        // O to move: X's centre mark is theirs, and O must play on board 4.
        assert_eq!(&active[..n], &[81 + 40, 189 + 4]);
    }
}
