//! Root parallelism: several trees of the same position searched at once, one a thread, their
//! root statistics summed before the move is chosen. Each tree is a whole search of its own,
//! with its own random numbers and its tree kept between moves, so nothing is shared while
//! they run; a proof found by any tree is a proof. The trees after the first move their root
//! children's worth by a little noise of their own ([`ROOT_NOISE`]): without it every tree
//! of a position with a learned evaluation grows the same, and more trees (or another seed)
//! would play the very same moves as one. With budgets by work each tree runs the
//! same iterations whatever the load, so a seeded search still replays exactly.

use std::thread;
use std::time::Duration;

use super::{Choice, Evaluator, Mcts, Node, Proof, SearchGame, choose_among};

/// How often, in percent of the most visited move's visits, a move must have been visited for
/// [`Parallel::think_varied`] to draw it.
const NEARLY: u64 = 95;

/// The most each root child's worth (a win rate, 0 to 1) is moved, either way, in choosing
/// which to search, in every tree but the first; drawn anew by each search from its tree's
/// random numbers.
pub const ROOT_NOISE: f32 = 0.05;

/// A search spread over one tree a thread.
pub struct Parallel<G: SearchGame, E: Evaluator<G>> {
    trees: Vec<Mcts<G, E>>,
}

impl<G, E> Parallel<G, E>
where
    G: SearchGame + Send + Sync,
    G::Move: Send,
    E: Evaluator<G> + Send,
{
    /// A search over `trees`, each searched on a thread of its own; every tree but the first
    /// searches with [`ROOT_NOISE`], the first as it would alone.
    ///
    /// # Panics
    /// If `trees` is empty.
    pub fn new(mut trees: Vec<Mcts<G, E>>) -> Parallel<G, E> {
        assert!(!trees.is_empty(), "a search needs a tree");
        for tree in &mut trees[1..] {
            tree.set_root_noise(ROOT_NOISE);
        }
        Parallel { trees }
    }

    /// The trees, to set them up (the cancel flag, the meter) or to read one.
    pub fn trees(&mut self) -> &mut [Mcts<G, E>] {
        &mut self.trees
    }

    /// Searches `board` for `budget` on every tree at once and chooses from their summed
    /// root statistics; `None` once the game is over or when cancelled. With one tree this
    /// is [`Mcts::think`] exactly.
    pub fn think(&mut self, board: &G, budget: Duration) -> Option<Choice<G::Move>> {
        if let [tree] = self.trees.as_mut_slice() {
            return tree.think(board, budget);
        }
        let searched: Vec<bool> = thread::scope(|scope| {
            let running: Vec<_> = self
                .trees
                .iter_mut()
                .map(|tree| scope.spawn(move || tree.think(board, budget).is_some()))
                .collect();
            running
                .into_iter()
                .map(|t| t.join().expect("a search does not panic"))
                .collect()
        });
        if !searched.iter().all(|&s| s) {
            return None;
        }
        Some(choose_among(&self.merged()))
    }

    /// [`Parallel::think`], then, where no proof decides, a move drawn with the first tree's
    /// random numbers among those visited at least [`NEARLY`] percent as often as the most
    /// visited: moves the search cannot tell apart, so the seed, and the number of trees,
    /// vary the game without costing strength. A seeded search still replays exactly.
    pub fn think_varied(&mut self, board: &G, budget: Duration) -> Option<Choice<G::Move>> {
        let choice = self.think(board, budget)?;
        let children = self.merged();
        let unproven = || children.iter().filter(|(_, n)| n.proof == Proof::Unknown);
        let Some(most) = unproven().map(|(_, n)| n.visits).max() else {
            return Some(choice);
        };
        let chosen_proven = children
            .iter()
            .any(|(mv, n)| *mv == choice.mv && n.proof != Proof::Unknown);
        if chosen_proven {
            return Some(choice);
        }
        let near: Vec<&(G::Move, Node)> = unproven()
            .filter(|(_, n)| u64::from(n.visits) * 100 >= u64::from(most) * NEARLY)
            .collect();
        let mut rng = fastrand::Rng::with_seed(self.trees[0].draw_seed());
        let &(mv, node) = near[rng.usize(..near.len())];
        Some(Choice {
            mv,
            value: super::value_of(node),
        })
    }

    /// The root's children of every tree, move by move (in move order): visits and scores
    /// summed, and a proof any tree found (the quickest win, the slowest loss).
    fn merged(&self) -> Vec<(G::Move, Node)> {
        let mut all: Vec<(u8, G::Move, Node)> = Vec::new();
        for tree in &self.trees {
            for (mv, node) in tree.root_children() {
                let index = G::index_of(mv);
                match all.iter_mut().find(|(i, _, _)| *i == index) {
                    Some((_, _, sum)) => merge(sum, node),
                    None => all.push((index, mv, node)),
                }
            }
        }
        all.sort_by_key(|&(index, _, _)| index);
        all.into_iter().map(|(_, mv, node)| (mv, node)).collect()
    }

    /// Iterations run by the last search, over every tree.
    pub fn iterations(&self) -> u64 {
        self.trees.iter().map(Mcts::iterations).sum()
    }
}

/// `node`'s statistics added to `sum`'s, and its proof if `sum` has none or a worse one for
/// its mover.
fn merge(sum: &mut Node, node: Node) {
    sum.visits = sum.visits.saturating_add(node.visits);
    sum.score = sum.score.saturating_add(node.score);
    sum.proof = match (sum.proof, node.proof) {
        (Proof::Unknown, other) => {
            sum.plies = node.plies;
            other
        }
        (Proof::Win, Proof::Win) => {
            sum.plies = sum.plies.min(node.plies);
            Proof::Win
        }
        (Proof::Loss, Proof::Loss) => {
            sum.plies = sum.plies.max(node.plies);
            Proof::Loss
        }
        (kept, _) => kept,
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::mcts::Settings;
    use crate::ai::search::{Meter, Value};
    use crate::rules::ultimate::UltimateBoard;

    fn trees(n: u64) -> Parallel<UltimateBoard, crate::ai::mcts::UltimateEval> {
        Parallel::new(
            (0..n)
                .map(|i| {
                    let mut tree = Mcts::new(Some(i + 1)).with_settings(Settings::HARD);
                    tree.set_meter(Meter::Work);
                    tree
                })
                .collect(),
        )
    }

    #[test]
    fn several_trees_prove_what_one_proves_and_a_seeded_search_replays() {
        let mut proven = 0;
        for seed in 0..40 {
            let board = crate::ai::mcts::step::tests::near_the_end(seed, 14);
            let one = trees(1).think(&board, Duration::from_millis(20)).unwrap();
            let mut two = trees(2);
            let both = two.think(&board, Duration::from_millis(20)).unwrap();
            let again = trees(2).think(&board, Duration::from_millis(20)).unwrap();
            assert_eq!(both, again, "{board}: a seeded search replays");
            let result = |v: Value| match v {
                Value::Win(_) => Some(1),
                Value::Draw => Some(0),
                Value::Loss(_) => Some(-1),
                _ => None,
            };
            if let (Some(a), Some(b)) = (result(one.value), result(both.value)) {
                assert_eq!(a, b, "{board}: the proofs disagree");
                proven += 1;
            }
        }
        assert!(proven > 0, "nothing proven near the end");
    }
}
