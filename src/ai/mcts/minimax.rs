//! Implicit minimax backups (Lanctot, Winands, Pepels and Sturtevant, 2014): beside its win
//! rate, each node holds the evaluator's guess at its position backed up by minimax through
//! the tree below it, and the walk down weighs the two (see [`Mcts::with_minimax`]). The win
//! rate averages every game played through a node; the estimate follows the line the
//! evaluator finds best at each depth, so a refutation deep in the tree reaches the choice at
//! the top at once instead of over many visits.

// Visit counts become f32 for rates, as in the search itself.
#![allow(clippy::cast_precision_loss)]

use super::{Evaluator, HALF, Mcts, Proof, SearchGame};

impl<G: SearchGame, E: Evaluator<G>> Mcts<G, E> {
    /// Gives the children the last expansion added, from `first` on, their first estimates:
    /// the rate their imaginary games hold (an even game without a prior), or their proven
    /// value.
    pub(super) fn estimate_new(&mut self, first: usize) {
        for i in first..self.nodes.len() {
            let c = self.nodes[i];
            self.estimates.push(match c.proof {
                Proof::Unknown if c.visits == 0 => 0.5,
                Proof::Unknown => c.score as f32 / (2 * HALF * c.visits) as f32,
                proof => proven_rate(proof),
            });
        }
    }

    /// The win rate `rate` of child `child` weighed with its estimate, as the walk down scores
    /// it (the rate itself without the estimates).
    pub(super) fn weighed(&self, rate: f32, child: usize) -> f32 {
        self.weighed_with(rate, self.estimates.get(child).copied().unwrap_or(0.5))
    }

    /// The win rate `rate` weighed with the estimate `estimate`.
    pub(super) fn weighed_with(&self, rate: f32, estimate: f32) -> f32 {
        if self.minimax > 0.0 {
            (1.0 - self.minimax) * rate + self.minimax * estimate
        } else {
            rate
        }
    }

    /// Works out again the minimax estimates of the walk's nodes, from the one just expanded up,
    /// stopping where one does not change unless `proofs` (nodes of the walk were proven, and
    /// their estimates are their values).
    pub(super) fn back_up_estimates(&mut self, proofs: bool) {
        for k in (0..self.path.len()).rev() {
            let node = self.path[k] as usize;
            let estimate = match self.nodes[node].proof {
                // A leaf: its estimate is its prior's.
                Proof::Unknown if self.nodes[node].first == 0 => continue,
                Proof::Unknown => {
                    let best = self
                        .children(node)
                        .map(|i| self.estimates[i])
                        .fold(0.0f32, f32::max);
                    1.0 - best
                }
                proof => proven_rate(proof),
            };
            // Exactly the same bits: the nodes above worked theirs out from this one.
            let same = estimate.to_bits() == self.estimates[node].to_bits();
            self.estimates[node] = estimate;
            if same && !proofs && k + 1 < self.path.len() {
                break;
            }
        }
    }
}

/// The win rate of a proven result for the player who moved into the node.
fn proven_rate(proof: Proof) -> f32 {
    match proof {
        Proof::Win => 1.0,
        Proof::Loss => 0.0,
        Proof::Draw | Proof::Unknown => 0.5,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::mcts::Settings;
    use crate::rules::ultimate::{Outcome, UltimateBoard};

    /// Checks every node under the root of `mcts`: a proven node's estimate is its value, an
    /// expanded one's is one less the best of its children's, and a leaf's is its prior's
    /// rate (to the rounding of its score, and only while it has had at most one real visit).
    /// The number of nodes checked.
    fn check_estimates(mcts: &Mcts) -> usize {
        assert_eq!(mcts.estimates.len(), mcts.nodes.len());
        let mut stack = vec![0usize];
        let mut checked = 0;
        while let Some(node) = stack.pop() {
            let n = mcts.nodes[node];
            let estimate = mcts.estimates[node];
            let children = mcts.children(node);
            if n.proof != Proof::Unknown {
                assert_eq!(
                    estimate.to_bits(),
                    proven_rate(n.proof).to_bits(),
                    "node {node}"
                );
            } else if children.is_empty() {
                if n.visits <= mcts.prior + 1 {
                    let rate = n.score as f32 / (2 * HALF * n.visits) as f32;
                    assert!((estimate - rate).abs() < 0.01, "leaf {node}");
                }
            } else if node != 0 {
                // (The root's own estimate is never weighed: nothing chooses the root. A new
                // root's is set only once a change below reaches it.)
                let best = children.clone().map(|c| mcts.estimates[c]);
                let want = 1.0 - best.fold(0.0f32, f32::max);
                assert_eq!(estimate.to_bits(), want.to_bits(), "node {node}");
            }
            stack.extend(children);
            checked += 1;
        }
        checked
    }

    /// Plays a seeded game of `mcts` against itself, `iterations` a move with the tree kept,
    /// checking the estimates after every search; the number of nodes checked.
    fn checked_game(mut mcts: Mcts, iterations: u64) -> usize {
        let mut board = UltimateBoard::new();
        let mut checked = 0;
        while board.outcome() == Outcome::InProgress {
            let choice = mcts.think_iterations(&board, iterations).expect("a move");
            checked += check_estimates(&mcts);
            board.play(choice.mv).unwrap();
        }
        checked
    }

    #[test]
    fn every_node_below_the_root_holds_the_minimax_of_its_childrens_estimates_through_a_game() {
        assert!(
            Mcts::new(None).settings().minimax > 0.0,
            "hard weighs the estimates"
        );
        let checked = checked_game(Mcts::new(Some(11)), 4000);
        assert!(checked > 50_000, "{checked} nodes checked");
    }

    #[test]
    fn the_estimates_stay_the_minimax_of_the_children_in_a_full_tree() {
        // 600 nodes: the tree fills within a few hundred iterations, and expansions fail.
        let checked = checked_game(Mcts::new(Some(12)).with_node_cap(600), 2000);
        assert!(checked > 5_000, "{checked} nodes checked");
    }

    #[test]
    fn a_new_search_has_hards_settings() {
        assert_eq!(Mcts::new(Some(1)).settings(), Settings::HARD);
    }

    #[test]
    fn a_search_without_the_weight_keeps_no_estimates() {
        let settings = Settings {
            minimax: 0.0,
            ..Settings::HARD
        };
        let mut mcts = Mcts::new(Some(11)).with_settings(settings);
        mcts.think_iterations(&UltimateBoard::new(), 2000).unwrap();
        assert!(mcts.estimates.is_empty());
        assert!(mcts.nodes.len() > 1000);
    }
}
