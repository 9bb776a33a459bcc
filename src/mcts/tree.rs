//! A read-only view of the search tree after a search, for people learning Monte Carlo tree
//! search (`tictactoe explain --ultimate`): each node's move, visits, score and proof, and the
//! constants UCB1 used. Nothing here changes the search.

use super::{HALF, Mcts, Proof};
use crate::ultimate::{Move, UltimateBoard};

/// What a node is proven to be worth for the player who moved into it, with the number of
/// plies from its parent's position to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Proven {
    Win(u8),
    Loss(u8),
    Draw,
}

/// The tree of the last search.
#[derive(Clone, Copy)]
pub struct TreeView<'a> {
    mcts: &'a Mcts,
    root: UltimateBoard,
}

/// One node of a [`TreeView`]: the position after its move.
#[derive(Clone, Copy)]
pub struct NodeView<'a> {
    mcts: &'a Mcts,
    index: usize,
}

impl Mcts {
    /// The tree of the last search, read-only; `None` before any search.
    pub fn tree(&self) -> Option<TreeView<'_>> {
        let root = self.root?;
        (!self.nodes.is_empty()).then_some(TreeView { mcts: self, root })
    }
}

impl<'a> TreeView<'a> {
    /// The position the search started from.
    pub fn position(&self) -> UltimateBoard {
        self.root
    }

    pub fn root(&self) -> NodeView<'a> {
        NodeView {
            mcts: self.mcts,
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

impl<'a> NodeView<'a> {
    /// The move into the node (`None` at the root).
    pub fn mv(&self) -> Option<Move> {
        (self.index != 0)
            .then(|| Move::from_index(usize::from(self.mcts.nodes[self.index].mv)))
            .flatten()
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
    pub fn children(&self) -> impl Iterator<Item = NodeView<'a>> + use<'a> {
        let mcts = self.mcts;
        mcts.children(self.index)
            .map(move |index| NodeView { mcts, index })
    }
}
