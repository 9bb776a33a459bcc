//! One more iteration of the last search, watched (`tictactoe explain --ultimate --steps`):
//! [`Mcts::step`] runs the search's own iteration and reports its walk down the tree with the
//! UCB1 scores each choice was made by, the node it expanded, the random game it played and
//! the visits and score of every node on the walk before and after the backup.

// Visit counts become f32 for UCB1, as in the search itself.
#![allow(clippy::cast_precision_loss)]

use super::playouts::{greedy_move, result};
use super::{Evaluator, HALF, Mcts, Node, Proof, Proven, SearchGame};
use crate::rules::ultimate::{Move, UltimateBoard};

/// How a child stood when its parent chose among them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// UCB1: the mover's win rate (weighed with the child's minimax estimate, when the search
    /// weighs one) plus the exploration term (with the policy's bonus, when it weighs one).
    Ucb { rate: f32, exploration: f32 },
    /// Never visited (possible only without the move prior): taken at once.
    Untried,
    /// Proven won for its mover: taken at once.
    ProvenWin,
    /// Proven lost for its mover, or proven at the root (its value is known): never taken.
    Skipped,
}

impl Score {
    /// The UCB1 score, if the child is scored by it.
    pub fn ucb(&self) -> Option<f32> {
        match *self {
            Score::Ucb { rate, exploration } => Some(rate + exploration),
            _ => None,
        }
    }
}

/// A child of a node on the walk, as it stood when the walk chose among its siblings; `M` is
/// the rule set's move.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate<M = Move> {
    pub mv: M,
    pub visits: u32,
    /// Half-points won by its mover: 2 a win, 1 a draw.
    pub score: u32,
    pub proven: Option<Proven>,
    pub ucb: Score,
    /// The child the search walked into.
    pub chosen: bool,
}

/// One node on the walk, root first.
#[derive(Clone, Debug, PartialEq)]
pub struct Walked<M = Move> {
    /// The move into the node (`None` at the root).
    pub mv: Option<M>,
    /// Visits and half-points before the iteration and after its backup.
    pub before: (u32, u32),
    pub after: (u32, u32),
    /// Whether this iteration added the node's children.
    pub expanded: bool,
    /// Its children after the iteration.
    pub children: usize,
    pub proven_after: Option<Proven>,
    /// The children the walk chose among here, in the tree's order (empty at the last node).
    pub choices: Vec<Candidate<M>>,
}

/// How the iteration's game ended below the last node of the walk.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending<M = Move> {
    /// The last node is proven: its result is known without a random game.
    Proven(Proven),
    /// A random game from the last node's position: its moves, or `None` if replaying it
    /// with the same random numbers did not give the game the search played.
    Playout(Option<Vec<M>>),
}

/// What one iteration did.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration<M = Move> {
    /// The iteration's number in the search, from 1.
    pub number: u64,
    pub walk: Vec<Walked<M>>,
    pub ending: Ending<M>,
}

impl<M> Iteration<M> {
    /// The same iteration with its moves turned into `N`s by `f` (for a front end that holds
    /// the moves of every rule set in one type).
    pub fn map<N>(self, f: impl Fn(M) -> N) -> Iteration<N> {
        let walk = self
            .walk
            .into_iter()
            .map(|w| Walked {
                mv: w.mv.map(&f),
                before: w.before,
                after: w.after,
                expanded: w.expanded,
                children: w.children,
                proven_after: w.proven_after,
                choices: w
                    .choices
                    .into_iter()
                    .map(|c| Candidate {
                        mv: f(c.mv),
                        visits: c.visits,
                        score: c.score,
                        proven: c.proven,
                        ucb: c.ucb,
                        chosen: c.chosen,
                    })
                    .collect(),
            })
            .collect();
        let ending = match self.ending {
            Ending::Proven(p) => Ending::Proven(p),
            Ending::Playout(moves) => {
                Ending::Playout(moves.map(|m| m.into_iter().map(&f).collect()))
            }
        };
        Iteration {
            number: self.number,
            walk,
            ending,
        }
    }
}

impl<G: SearchGame, E: Evaluator<G>> Mcts<G, E> {
    /// Runs one more iteration of the last search, from its root and on its random numbers, as
    /// if it had been given one more iteration, and reports it. `None` before any search and
    /// once the root is proven (the search would have stopped), and for a search that values
    /// leaves otherwise than by a random game (see [`Leaf`]): a step shows the random game.
    pub fn step(&mut self) -> Option<Iteration<G::Move>> {
        let root = self.root?;
        if !self.eval.plays_random_games()
            || self.nodes.is_empty()
            || self.nodes[0].first == 0
            || self.finished(false)
        {
            return None;
        }
        let before = self.nodes.clone();
        let estimates = self.estimates.clone();
        let rng = self.rng.clone();
        self.iterate();
        self.iterations += 1;
        let path: Vec<usize> = self.path.iter().map(|&i| i as usize).collect();
        // The units of score the backup gave the root's mover: those of every node at an even
        // depth; the other side's at an odd depth.
        let root_added = self.nodes[0].score - before[0].score;
        let added = |depth: usize| {
            if depth % 2 == 1 {
                2 * HALF - root_added
            } else {
                root_added
            }
        };
        let mut walk = Vec::with_capacity(path.len());
        for (depth, &node) in path.iter().enumerate() {
            let next = path.get(depth + 1).map(|&n| (n, added(depth + 1)));
            walk.push(self.walked((&before, &estimates), node, added(depth), next));
        }
        let last = walk.last().expect("the walk starts at the root");
        let leaf = self.at_choice(&before, path[path.len() - 1], added(path.len() - 1));
        // A node just expanded ends the walk only when its new children prove it.
        let ending = match (proven(leaf), last.expanded) {
            (Some(p), _) if path.len() > 1 => Ending::Proven(p),
            (_, true) => Ending::Proven(last.proven_after.expect("proven by its children")),
            _ => {
                let mut board = root;
                for w in &walk[1..] {
                    board.apply_index(G::index_of(w.mv.expect("below the root")));
                }
                Ending::Playout(self.replay(&walk, &path, board, rng))
            }
        };
        Some(Iteration {
            number: self.iterations,
            walk,
            ending,
        })
    }

    /// Node `node` as it stood when the walk reached it: as before the iteration, or for a
    /// child this iteration added, as the expansion made it (less `added`, the units of score the
    /// backup gave it, and its visit, if it is on the walk).
    fn at_choice(&self, before: &[Node], node: usize, added: u32) -> Node {
        if let Some(&n) = before.get(node) {
            return n;
        }
        let mut n = self.nodes[node];
        if self.path.contains(&(node as u32)) {
            n.visits -= 1;
            n.score -= added;
        }
        n
    }

    /// The report of node `node` on the walk, to which the backup gave `added` units of score;
    /// the walk went on into `next` (with its half-points).
    fn walked(
        &self,
        (before, estimates): (&[Node], &[f32]),
        node: usize,
        added: u32,
        next: Option<(usize, u32)>,
    ) -> Walked<G::Move> {
        let root = self.root.as_ref().expect("a search ran");
        let was = self.at_choice(before, node, added);
        let now = self.nodes[node];
        let expanded = was.first == 0 && now.first != 0;
        let choices = match next {
            None => Vec::new(),
            Some((next, next_added)) => self
                .children(node)
                .map(|c| {
                    let n = self.at_choice(before, c, next_added);
                    // A child this iteration added holds the estimate it was added with.
                    let estimate = estimates
                        .get(c)
                        .or(self.estimates.get(c))
                        .copied()
                        .unwrap_or(0.5);
                    Candidate {
                        mv: root.move_at(n.mv),
                        visits: n.visits,
                        score: n.score / HALF,
                        proven: proven(n),
                        ucb: self.ucb(was.visits, n, node == 0, (self.share(c), estimate)),
                        chosen: c == next,
                    }
                })
                .collect(),
        };
        Walked {
            mv: (node != 0).then(|| root.move_at(now.mv)),
            before: (was.visits, was.score / HALF),
            after: (now.visits, now.score / HALF),
            expanded,
            children: if now.first == 0 {
                0
            } else {
                usize::from(now.count)
            },
            proven_after: proven(now),
            choices,
        }
    }

    /// The policy's share of node `node`'s move (0 without a policy, or before its parent asked).
    fn share(&self, node: usize) -> f32 {
        self.shares.get(node).map_or(0.0, |&s| s.max(0.0))
    }

    /// How the search scores `child`, whose move the policy gives `share` and whose minimax
    /// estimate is `estimate`, of a node of `parent_visits` visits when it walks down.
    fn ucb(
        &self,
        parent_visits: u32,
        child: Node,
        at_root: bool,
        (share, estimate): (f32, f32),
    ) -> Score {
        let rate = match child.proof {
            Proof::Unknown if child.visits == 0 => return Score::Untried,
            Proof::Unknown => child.score as f32 / (2 * HALF * child.visits) as f32,
            _ if at_root => return Score::Skipped,
            Proof::Draw => 0.5,
            Proof::Win => return Score::ProvenWin,
            Proof::Loss => return Score::Skipped,
        };
        let rate = self.weighed_with(rate, estimate);
        let exploration = self.bonus_terms(parent_visits).bonus(child.visits, share);
        Score::Ucb { rate, exploration }
    }

    /// The random game the iteration played from `board`: the random numbers as they stood
    /// before it, less those the expansion's shuffle took, replayed move by move; `None`
    /// unless the replay ends where the search's own random game does on the same numbers.
    fn replay(
        &self,
        walk: &[Walked<G::Move>],
        path: &[usize],
        board: G,
        mut rng: fastrand::Rng,
    ) -> Option<Vec<G::Move>> {
        for (w, &node) in walk.iter().zip(path) {
            if w.expanded {
                let mut scratch = vec![0u8; usize::from(self.nodes[node].count)];
                rng.shuffle(&mut scratch);
            }
        }
        let (mut traced, mut traced_rng) = (board, rng.clone());
        let moves = self.eval.traced(&mut traced, &mut traced_rng)?;
        let (mut real, mut real_rng) = (board, rng);
        self.eval.leaf(&mut real, 0, 0, 0, &mut real_rng);
        (real == traced && real_rng == traced_rng)
            .then(|| moves.into_iter().map(|i| board.move_at(i)).collect())
    }
}

/// A node's proof as the tree view names it.
fn proven(n: Node) -> Option<Proven> {
    match n.proof {
        Proof::Unknown => None,
        Proof::Win => Some(Proven::Win(n.plies)),
        Proof::Loss => Some(Proven::Loss(n.plies)),
        Proof::Draw => Some(Proven::Draw),
    }
}

/// Ultimate's random game from `board`, move by move (as indices): the same choices on the
/// same random numbers as its greedy playouts, with the moves kept. [`Mcts::step`] checks it
/// against the search's own (a search with other playouts gives no moves).
pub(super) fn traced_playout(board: &mut UltimateBoard, rng: &mut fastrand::Rng) -> (Vec<u8>, u8) {
    let mut moves = Vec::new();
    loop {
        let side = board.side();
        let (b, c) = greedy_move(board, side, rng);
        moves.push((b * 9 + c) as u8);
        if board.apply(b, c) {
            return (moves, result(board, side));
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::ai::mcts::{NETWORK_MINIMAX, NETWORK_POLICY, Settings};

    #[test]
    fn the_logarithm_of_visits_is_the_librarys_bit_for_bit() {
        for visits in (0..5000).chain([u32::MAX - 1, u32::MAX]) {
            let want = (visits.max(1) as f32).ln();
            assert_eq!(
                super::super::ln_visits(visits).to_bits(),
                want.to_bits(),
                "{visits}"
            );
        }
    }

    #[test]
    fn the_bonus_from_the_tables_is_the_one_worked_out_bit_for_bit() {
        let terms = super::super::BonusTerms {
            exploration: 0.7,
            policy: 3.0,
            tables: &super::super::VISIT_TABLES,
        };
        for visits in (0..5000).chain([1 << 24, u32::MAX - 1, u32::MAX]) {
            let n = visits.max(1) as f32;
            let explore = 0.7 * (1.0 / n.sqrt());
            assert_eq!(terms.bonus(visits, 0.0).to_bits(), explore.to_bits());
            assert_eq!(terms.bonus(visits, -1.0).to_bits(), explore.to_bits());
            let with_share = explore + 3.0 * 0.25 * (1.0 / (u64::from(visits) + 1) as f32);
            assert_eq!(
                terms.bonus(visits, 0.25).to_bits(),
                with_share.to_bits(),
                "{visits}"
            );
        }
    }

    /// The position after `moves` (board then cell, 1-based as the game names them).
    fn position(moves: &[&str]) -> UltimateBoard {
        let mut board = UltimateBoard::new();
        for m in moves {
            board.play(m.parse().unwrap()).unwrap();
        }
        board
    }

    /// A search of `n` iterations, then `k` steps.
    fn stepped(
        board: &UltimateBoard,
        seed: u64,
        prior: u32,
        n: u64,
        k: usize,
    ) -> (Mcts, Vec<Iteration>) {
        let settings = Settings {
            prior_visits: prior,
            ..Settings::FROZEN
        };
        stepped_with(board, seed, settings, n, k)
    }

    /// [`stepped`] with `settings`.
    fn stepped_with(
        board: &UltimateBoard,
        seed: u64,
        settings: Settings,
        n: u64,
        k: usize,
    ) -> (Mcts, Vec<Iteration>) {
        let mut mcts = Mcts::new(Some(seed)).with_settings(settings);
        mcts.think_iterations(board, n).unwrap();
        let steps = (0..k).map_while(|_| mcts.step()).collect();
        (mcts, steps)
    }

    fn boards() -> Vec<UltimateBoard> {
        vec![
            UltimateBoard::new(),
            position(&["55", "51", "15", "59", "95", "57"]),
        ]
    }

    #[test]
    fn stepping_grows_the_same_tree_as_a_longer_search() {
        for board in boards() {
            for prior in [0, PRIOR] {
                let (stepped, steps) = stepped(&board, 9, prior, 50, 200);
                assert_eq!(steps.len(), 200);
                let mut long = Mcts::new(Some(9))
                    .with_settings(Settings::FROZEN)
                    .with_prior(prior);
                long.think_iterations(&board, 250).unwrap();
                assert_eq!(format!("{:?}", stepped.nodes), format!("{:?}", long.nodes));
                assert!(stepped.rng == long.rng);
                assert_eq!(stepped.tree().unwrap().iterations(), 250);
            }
        }
    }

    const PRIOR: u32 = super::super::PRIOR_VISITS;

    #[test]
    fn a_step_adds_one_visit_along_its_walk_and_nowhere_else() {
        for board in boards() {
            let mut mcts = Mcts::new(Some(4)).with_settings(Settings::FROZEN);
            mcts.think_iterations(&board, 30).unwrap();
            for _ in 0..300 {
                let before: Vec<u32> = mcts.nodes.iter().map(|n| n.visits).collect();
                let it = mcts.step().unwrap();
                let path: Vec<usize> = mcts.path.iter().map(|&i| i as usize).collect();
                assert_eq!(it.walk.len(), path.len());
                for (w, &i) in it.walk.iter().zip(&path) {
                    assert_eq!(w.after, (mcts.nodes[i].visits, mcts.nodes[i].score / HALF));
                    assert_eq!(w.before.0 + 1, w.after.0);
                    assert!(w.after.1 - w.before.1 <= 2);
                }
                for (i, n) in mcts.nodes.iter().enumerate() {
                    // A node added by this step started with the prior's visits.
                    let was = before.get(i).copied().unwrap_or(mcts.prior);
                    let grew = u32::from(path.contains(&i));
                    assert_eq!(n.visits, was + grew, "node {i}");
                }
            }
        }
    }

    /// Checks that at every node of `it`'s walk the child walked into is the one taken at
    /// once or, failing that, the one the reported UCB ranks first.
    fn assert_chosen_ranks_first(it: &Iteration) {
        for w in it.walk.iter().filter(|w| !w.choices.is_empty()) {
            let at_once = w
                .choices
                .iter()
                .position(|c| matches!(c.ucb, Score::Untried | Score::ProvenWin));
            let best = at_once.unwrap_or_else(|| {
                let mut best = (f32::NEG_INFINITY, 0);
                for (i, c) in w.choices.iter().enumerate() {
                    if let Some(u) = c.ucb.ucb().filter(|&u| u > best.0) {
                        best = (u, i);
                    }
                }
                best.1
            });
            assert!(w.choices[best].chosen, "iteration {}", it.number);
            assert_eq!(w.choices.iter().filter(|c| c.chosen).count(), 1);
        }
    }

    #[test]
    fn with_the_policy_and_the_estimates_the_move_walked_into_is_the_one_ucb_ranks_first() {
        // Random games at the leaves (a step shows them), and `hard`'s weights of the policy,
        // asked from 5 visits on so that most walks weigh its shares, and of the estimates.
        let settings = Settings {
            policy: NETWORK_POLICY,
            policy_visits: 5,
            minimax: NETWORK_MINIMAX,
            ..Settings::FROZEN
        };
        let (mcts, steps) = stepped_with(&boards()[1], 2, settings, 200, 300);
        assert_eq!(steps.len(), 300);
        steps.iter().for_each(assert_chosen_ranks_first);
        let shared = mcts.shares.iter().filter(|&&s| s > 0.0).count();
        assert!(
            shared > 1000,
            "only {shared} children with a policy's share"
        );
    }

    #[test]
    fn the_move_walked_into_is_the_one_ucb_ranks_first() {
        for prior in [0, PRIOR] {
            let (_, steps) = stepped(&boards()[1], 2, prior, 20, 300);
            steps.iter().for_each(assert_chosen_ranks_first);
        }
    }

    #[test]
    fn with_minimax_estimates_the_move_walked_into_is_the_one_the_weighed_ucb_ranks_first() {
        let settings = Settings {
            minimax: 0.5,
            ..Settings::FROZEN
        };
        let (_, steps) = stepped_with(&boards()[1], 2, settings, 20, 300);
        steps.iter().for_each(assert_chosen_ranks_first);
        // The rates reported are weighed: many differ from the win rate alone by more than
        // the rounding of the half-points shown.
        let weighed = steps
            .iter()
            .flat_map(|it| it.walk.iter().flat_map(|w| &w.choices))
            .filter(|c| match c.ucb {
                Score::Ucb { rate, .. } => {
                    (rate - c.score as f32 / (2 * c.visits) as f32).abs() > 0.06
                }
                _ => false,
            })
            .count();
        assert!(weighed > 100, "{weighed} weighed rates");
    }

    #[test]
    fn every_random_game_is_replayed_move_by_move_to_its_result() {
        let mut expanded = 0;
        for board in boards() {
            let (_, steps) = stepped(&board, 5, PRIOR, 10, 400);
            for it in &steps {
                expanded += usize::from(it.walk.iter().any(|w| w.expanded));
                let mut at = board;
                for w in &it.walk[1..] {
                    at.play(w.mv.unwrap()).unwrap();
                }
                let moves = match &it.ending {
                    Ending::Playout(moves) => moves.as_ref().expect("replayed"),
                    Ending::Proven(_) => continue,
                };
                for &mv in moves {
                    at.play(mv).unwrap();
                }
                let root_added = it.walk[0].after.1 - it.walk[0].before.1;
                let root_mover = board.to_move().other();
                let expected = match at.outcome() {
                    crate::rules::ultimate::Outcome::Won { winner, .. } if winner == root_mover => {
                        2
                    }
                    crate::rules::ultimate::Outcome::Won { .. } => 0,
                    crate::rules::ultimate::Outcome::Draw => 1,
                    crate::rules::ultimate::Outcome::InProgress => panic!("the game goes on"),
                };
                assert_eq!(root_added, expected, "iteration {}", it.number);
            }
        }
        assert!(expanded > 10, "{expanded} expansions");
    }

    /// The position `plies` moves before the end of a random game.
    pub(in crate::ai::mcts) fn near_the_end(seed: u64, plies: usize) -> UltimateBoard {
        let mut rng = fastrand::Rng::with_seed(seed);
        let mut board = UltimateBoard::new();
        let mut moves = Vec::new();
        while board.outcome() == crate::rules::ultimate::Outcome::InProgress {
            let legal: Vec<Move> = board.legal_moves().into_iter().collect();
            let mv = legal[rng.usize(..legal.len())];
            board.play(mv).unwrap();
            moves.push(mv);
        }
        let mut start = UltimateBoard::new();
        for &mv in &moves[..moves.len().saturating_sub(plies)] {
            start.play(mv).unwrap();
        }
        start
    }

    #[test]
    fn a_walk_that_ends_on_a_proven_node_plays_no_random_game() {
        let mut proven_ends = 0;
        for seed in 0..20 {
            let board = near_the_end(seed, 8);
            let (_, steps) = stepped(&board, seed, PRIOR, 1, 200);
            for it in &steps {
                let Ending::Proven(p) = it.ending else {
                    continue;
                };
                proven_ends += 1;
                // The last node's mover scored what the proof says.
                let last = it.walk.last().unwrap();
                let added = last.after.1 - last.before.1;
                let expected = match p {
                    Proven::Win(_) => 2,
                    Proven::Draw => 1,
                    Proven::Loss(_) => 0,
                };
                assert_eq!(added, expected, "iteration {}", it.number);
            }
        }
        assert!(proven_ends > 20, "{proven_ends} proven ends");
    }

    #[test]
    fn a_proven_root_takes_no_step() {
        let board = near_the_end(1, 1);
        let mut mcts = Mcts::new(Some(1)).with_settings(Settings::FROZEN);
        mcts.think_iterations(&board, 1).unwrap();
        assert!(mcts.step().is_none(), "the winning move proves the root");
    }
}
