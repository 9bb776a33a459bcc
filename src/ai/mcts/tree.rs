//! A read-only view of the search tree after a search, for people learning Monte Carlo tree
//! search (`tictactoe explain --algorithm mcts`): each node's move, visits, score and proof,
//! and the constants UCB1 used, for any rule set the search plays. Nothing here changes the
//! search.

use super::{Evaluator, HALF, Mcts, Proof, SearchGame};

/// What a node is proven to be worth for the player who moved into it, with the number of
/// plies from its parent's position to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    Win(u8),
    Loss(u8),
    Draw,
}

/// The tree of the last search.
pub struct TreeView<'a, G: SearchGame, E: Evaluator<G>> {
    mcts: &'a Mcts<G, E>,
    root: &'a G,
}

impl<G: SearchGame, E: Evaluator<G>> Clone for TreeView<'_, G, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: SearchGame, E: Evaluator<G>> Copy for TreeView<'_, G, E> {}

/// One node of a [`TreeView`]: the position after its move.
pub struct NodeView<'a, G: SearchGame, E: Evaluator<G>> {
    mcts: &'a Mcts<G, E>,
    root: &'a G,
    index: usize,
}

impl<G: SearchGame, E: Evaluator<G>> Clone for NodeView<'_, G, E> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G: SearchGame, E: Evaluator<G>> Copy for NodeView<'_, G, E> {}

impl<G: SearchGame, E: Evaluator<G>> Mcts<G, E> {
    /// The tree of the last search, read-only; `None` before any search.
    pub fn tree(&self) -> Option<TreeView<'_, G, E>> {
        let root = self.root.as_ref()?;
        (!self.nodes.is_empty()).then_some(TreeView { mcts: self, root })
    }
}

impl<'a, G: SearchGame, E: Evaluator<G>> TreeView<'a, G, E> {
    /// The position the search started from.
    pub fn position(&self) -> &'a G {
        self.root
    }

    pub fn root(&self) -> NodeView<'a, G, E> {
        NodeView {
            mcts: self.mcts,
            root: self.root,
            index: 0,
        }
    }

    /// The UCB1 exploration constant `c`: a child's score is its win rate plus
    /// `c * sqrt(ln(parent's visits) / its visits)`.
    pub fn exploration(&self) -> f32 {
        self.mcts.exploration
    }

    /// The imaginary visits each node started with, at the rate the move prior guessed.
    pub fn prior_visits(&self) -> u32 {
        self.mcts.prior
    }

    /// Iterations the last search ran.
    pub fn iterations(&self) -> u64 {
        self.mcts.iterations
    }

    /// Nodes in the tree.
    pub fn nodes(&self) -> usize {
        self.mcts.nodes.len()
    }
}

impl<'a, G: SearchGame, E: Evaluator<G>> NodeView<'a, G, E> {
    /// The move into the node (`None` at the root).
    pub fn mv(&self) -> Option<G::Move> {
        (self.index != 0).then(|| self.root.move_at(self.mcts.nodes[self.index].mv))
    }

    /// Visits, the imaginary ones of the prior included.
    pub fn visits(&self) -> u32 {
        self.mcts.nodes[self.index].visits
    }

    /// Half-points won by the player who moved into the node: 2 a win, 1 a draw (rounded down
    /// where the learned evaluation scored leaves in fractions).
    pub fn score(&self) -> u32 {
        self.mcts.nodes[self.index].score / HALF
    }

    pub fn proven(&self) -> Option<Proven> {
        let n = self.mcts.nodes[self.index];
        match n.proof {
            Proof::Unknown => None,
            Proof::Win => Some(Proven::Win(n.plies)),
            Proof::Loss => Some(Proven::Loss(n.plies)),
            Proof::Draw => Some(Proven::Draw),
        }
    }

    /// The children, in the order they were added (random); empty until expanded.
    pub fn children(&self) -> impl Iterator<Item = NodeView<'a, G, E>> + use<'a, G, E> {
        let (mcts, root) = (self.mcts, self.root);
        mcts.children(self.index)
            .map(move |index| NodeView { mcts, root, index })
    }
}
