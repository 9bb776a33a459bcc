//! How the search values a leaf it reaches ([`Leaf`]) and what a new node's imaginary visits
//! are worth ([`Prior`]): a random game or the learned evaluation, the hand-made guess or the
//! learned evaluation of the position after the move.

use super::HALF;
use super::evaluate::Evaluator;
use super::playouts::{DRAW, Playouts, playout_from};
use super::value::{self, AfterMoves, Network};
use crate::rules::ultimate::{UltimateBoard, threats};

/// How the search values a leaf it reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Leaf {
    /// The result of one random game (see [`Playouts`]).
    Playout,
    /// The learned evaluation's expected score (see [`value`]).
    Network,
    /// The mean of the two.
    Both,
}

/// Where the rate of a new node's imaginary visits comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Prior {
    /// `prior()`: a guess from the move alone, with weights set by hand.
    Hand,
    /// The learned evaluation of the position after the move.
    Network,
}

impl Leaf {
    /// Every way, in the order of the match tool's names.
    pub const ALL: [Leaf; 3] = [Leaf::Playout, Leaf::Network, Leaf::Both];

    /// The name in lower case (`playout`, `network`, `both`).
    pub fn name(self) -> &'static str {
        match self {
            Leaf::Playout => "playout",
            Leaf::Network => "network",
            Leaf::Both => "both",
        }
    }
}

/// The units of score X earns from a game's `result` (a side, or `DRAW`).
pub(super) fn x_units(result: u8) -> u32 {
    match result {
        0 => 2 * HALF,
        DRAW => HALF,
        _ => 0,
    }
}

/// Ultimate's evaluation: greedy random games ([`Playouts`]), the hand-made move prior and
/// the learned network ([`value`]), in the combinations [`super::Settings`] names.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct UltimateEval {
    /// How the random games choose their moves.
    pub playouts: Playouts,
    /// What a leaf reached for the first time is worth.
    pub leaf: Leaf,
    /// Where a new node's prior comes from.
    pub prior: Prior,
    /// Whether the network is spared repeated work (see [`super::Settings::incremental`]).
    pub incremental: bool,
    /// The network: the embedded one ([`value::embedded`]) unless another is being measured.
    pub network: &'static Network,
}

impl Evaluator<UltimateBoard> for UltimateEval {
    /// The network's first-layer sums of the position, from which each child is valued.
    type Expansion = Option<AfterMoves<'static>>;

    fn expansion(&self, board: &UltimateBoard, prior_visits: u32) -> Option<AfterMoves<'static>> {
        (self.incremental && prior_visits > 0 && self.prior == Prior::Network)
            .then(|| self.network.after_moves(board))
    }

    fn policy(&self, board: &UltimateBoard, shares: &mut [f32; 256]) -> bool {
        let cells: &mut [f32; value::MOVES] = (&mut shares[..value::MOVES])
            .try_into()
            .expect("a share a cell");
        self.network.policy(board, cells)
    }

    fn prior(
        &self,
        board: &UltimateBoard,
        after: &UltimateBoard,
        index: u8,
        over: bool,
        prior_visits: u32,
        network: &Option<AfterMoves<'static>>,
    ) -> (u32, u32) {
        let mv = usize::from(index);
        if prior_visits == 0 {
            (0, 0)
        } else if self.prior == Prior::Network && !over {
            let v = network
                .as_ref()
                .map_or_else(|| self.network.evaluate(after), |n| n.evaluate(mv, after));
            let units = (value::rate(v, 1) * (2 * HALF * prior_visits) as f32).round();
            (prior_visits, units as u32)
        } else {
            let rate = prior(board, after, mv, over);
            let half_points = (rate * 2.0 * prior_visits as f32).round() as u32;
            (prior_visits, half_points * HALF)
        }
    }

    fn leaf(
        &self,
        board: &mut UltimateBoard,
        visits: u32,
        score: u32,
        prior_visits: u32,
        rng: &mut fastrand::Rng,
    ) -> u32 {
        // A node the network valued when it was added is worth that value again.
        let known = (self.incremental
            && prior_visits > 0
            && self.prior == Prior::Network
            && visits == prior_visits)
            .then(|| {
                let units = (score + prior_visits / 2) / prior_visits;
                if board.side() == 1 {
                    units
                } else {
                    2 * HALF - units
                }
            });
        let network = |board: &UltimateBoard| {
            known.unwrap_or_else(|| {
                let x = value::rate(self.network.evaluate(board), board.side() as u8);
                (x * (2 * HALF) as f32).round() as u32
            })
        };
        match self.leaf {
            Leaf::Playout => x_units(playout_from(board, self.playouts, rng)),
            Leaf::Network => network(board),
            Leaf::Both => {
                let net = network(board);
                u32::midpoint(net, x_units(playout_from(board, self.playouts, rng)))
            }
        }
    }

    fn plays_random_games(&self) -> bool {
        self.leaf == Leaf::Playout
    }

    fn traced(&self, board: &mut UltimateBoard, rng: &mut fastrand::Rng) -> Option<Vec<u8>> {
        self.plays_random_games()
            .then(|| super::step::traced_playout(board, rng).0)
    }
}

pub(super) fn prior(board: &UltimateBoard, after: &UltimateBoard, mv: usize, over: bool) -> f32 {
    let (b, c) = (mv / 9, mv % 9);
    let side = board.side();
    let opponent = side ^ 1;
    let cell = (1 << c) & board.empty(b);
    let mut rate = 0.5;
    if threats(board.cells_of(side, b)) & cell != 0 {
        rate += 0.2;
    } else if threats(board.cells_of(opponent, b)) & cell != 0 {
        rate += 0.1;
    }
    if !over {
        let sent = after.forced_index();
        if sent == 9 || threats(after.cells_of(opponent, sent)) & after.empty(sent) != 0 {
            rate -= 0.15;
        }
    }
    rate
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::mcts::{Mcts, POLICY_VISITS, SearchGame, Settings};
    use crate::ai::search::{Meter, Value};
    use std::time::Duration;

    /// The root moves' values after a short seeded search of the empty grid on `network`.
    fn values_on(network: Option<&'static Network>) -> Vec<Value> {
        let mut mcts = Mcts::new(Some(3));
        if let Some(network) = network {
            mcts = mcts.with_network(network).with_settings(Settings::HARD);
        }
        mcts.set_meter(Meter::Work);
        let moves = mcts.analyze(&UltimateBoard::new(), Duration::from_millis(2));
        moves.into_iter().map(|(_, v)| v).collect()
    }

    #[test]
    fn a_search_values_positions_by_the_network_it_is_given_even_after_new_settings() {
        // Every weight zero: every position is worth an even game to either side.
        let shape = value::Shape {
            value: 64,
            policy: None,
        };
        let zeros = vec![0.0; shape.parameters()];
        let even: &'static Network = Box::leak(Box::new(Network::from_parameters(shape, &zeros)));
        let values = values_on(Some(even));
        assert_eq!(values.len(), 81);
        assert!(
            values.iter().all(|&v| v == Value::WinRate(500)),
            "{values:?}"
        );
        // The embedded network tells the moves apart.
        let embedded = values_on(None);
        assert!(
            embedded.iter().any(|&v| v != Value::WinRate(500)),
            "{embedded:?}"
        );
    }

    #[test]
    fn each_node_asked_keeps_the_policy_share_of_its_move_through_shuffles_and_reuse() {
        let network: &'static Network = Box::leak(Box::new(value::tests::with_random_policy(3)));
        let settings = Settings {
            policy: 1.0,
            ..Settings::HARD
        };
        let mut mcts = Mcts::new(Some(5))
            .with_network(network)
            .with_settings(settings);
        let mut board = UltimateBoard::new();
        let mut checked = 0;
        for _ in 0..12 {
            let choice = mcts.think_iterations(&board, 3000).expect("a move");
            assert_eq!(mcts.shares.len(), mcts.nodes.len());
            // The children of every node walked through from the policy's visits on hold the
            // shares the policy gives their moves; the others are not asked yet.
            let mut stack = vec![(0usize, board)];
            while let Some((node, position)) = stack.pop() {
                let mut shares = [0.0; value::MOVES];
                if mcts.children(node).is_empty() || !network.policy(&position, &mut shares) {
                    continue;
                }
                let asked = mcts.shares[mcts.nodes[node].first as usize] >= 0.0;
                // A node is asked on its first walk down from the policy's visits on (a proven
                // node is walked to, never down from).
                let n = mcts.nodes[node];
                let proven = n.proof != crate::ai::mcts::Proof::Unknown;
                assert!(asked || n.visits <= POLICY_VISITS || proven, "node {node}");
                for child in mcts.children(node) {
                    let mv = mcts.nodes[child].mv;
                    let want = if asked {
                        shares[usize::from(mv)]
                    } else {
                        super::super::NOT_YET
                    };
                    assert_eq!(mcts.shares[child].to_bits(), want.to_bits());
                    let mut after = position;
                    if after.apply_index(mv).is_none() {
                        stack.push((child, after));
                    }
                    checked += 1;
                }
            }
            board.play(choice.mv).unwrap();
            if board.outcome() != crate::rules::ultimate::Outcome::InProgress {
                break;
            }
        }
        assert!(checked > 1_000, "{checked} children checked");
    }

    /// The root's visits of the move of index `favoured`, and the most visits of any move,
    /// after 5,000 iterations from the empty grid with the policy weighed `weight`.
    fn root_visits(network: &'static Network, weight: f32, favoured: usize) -> (u32, u32) {
        let settings = Settings {
            policy: weight,
            ..Settings::HARD
        };
        let mut mcts = Mcts::new(Some(3))
            .with_network(network)
            .with_settings(settings);
        mcts.think_iterations(&UltimateBoard::new(), 5000).unwrap();
        let tree = mcts.tree().unwrap();
        let visits = |c: crate::ai::mcts::NodeView<'_, _, _>| c.visits();
        let most = tree.root().children().map(visits).max().unwrap();
        let of = tree.root().children();
        let favoured = of
            .filter(|c| c.mv().unwrap().index() == favoured)
            .map(visits);
        (favoured.sum(), most)
    }

    #[test]
    fn a_policy_that_favours_one_move_draws_the_search_to_it() {
        // The embedded value beside a policy whose one weight is a bias on a corner of a
        // corner board: the policy gives that move nearly all the share.
        let favoured = 0;
        let count = value::policy_parameters(value::embedded().shape().value);
        let mut policy = vec![0.0; count];
        policy[count - value::MOVES + favoured] = 10.0;
        let network: &'static Network = Box::leak(Box::new(value::tests::with_policy(policy)));
        let (alone, _) = root_visits(network, 0.0, favoured);
        let (weighed, most) = root_visits(network, 1.0, favoured);
        eprintln!("visits of the favoured move: {alone} without the policy, {weighed} with");
        assert_eq!(weighed, most, "the favoured move is the most visited");
        assert!(weighed > 5 * alone, "{weighed} visits against {alone}");
    }

    /// The prior of each of X's moves on board 5 (cells indexed 0-8, keypad digit - 1).
    fn priors(position: &str) -> Vec<(usize, f32)> {
        let board: UltimateBoard = position.parse().expect("a valid position");
        board
            .legal_moves()
            .into_iter()
            .map(|m| {
                let index = m.index();
                let mut after = board;
                let over = after.apply(index / 9, index % 9);
                (index % 9 + 1, prior(&board, &after, index, over))
            })
            .collect()
    }

    #[test]
    fn the_prior_favours_taking_and_blocking_and_shuns_gifts() {
        // X to move on board 5, where X can win at cell 9 and O threatens cell 3. O can win
        // board 6 at once, board 4 is closed (won by X), and cell 5 leaves O its threat on 5.
        let rows = [
            "..O ... ...", // board 7 cell 9
            "... ... ...",
            "O.. O.. ...", // board 7 cell 1, board 8 cell 1
            "..X XX. ...", // board 4 cell 9, board 5 cells 7 8
            ".X. ... OO.", // board 4 cell 5, board 6 cells 4 5
            "X.. OO. ...", // board 4 cell 1, board 5 cells 1 2
            "X.. ... ...", // board 1 cell 7
            "... ... ...",
            "... ... ..X", // board 3 cell 3
        ];
        let rows: Vec<String> = rows.iter().map(|r| r.replace(' ', "")).collect();
        let got = priors(&format!("{} 5", rows.join("/")));
        let expected = [(3, 0.6), (4, 0.35), (5, 0.35), (6, 0.35), (9, 0.7)];
        assert_eq!(got.len(), expected.len(), "{got:?}");
        for ((cell, rate), (want_cell, want)) in got.iter().zip(expected) {
            assert_eq!(*cell, want_cell);
            assert!(
                (rate - want).abs() < 1e-6,
                "cell {cell}: {rate}, not {want}"
            );
        }
    }
}
