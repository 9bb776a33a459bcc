//! One more iteration of the last search, watched (`tictactoe explain --ultimate --steps`):
//! [`Mcts::step`] runs the search's own iteration and reports its walk down the tree with the
//! UCB1 scores each choice was made by, the node it expanded, the random game it played and
//! the visits and score of every node on the walk before and after the backup.

// Visit counts become f32 for UCB1, as in the search itself.
#![allow(clippy::cast_precision_loss)]

use super::{Mcts, Node, Proof, Proven, below, lowest, playout_from};
use crate::ultimate::{Move, UltimateBoard, count, nth_bit, threats};

/// How a child stood when its parent chose among them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Score {
    /// UCB1: the mover's win rate plus the exploration term.
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

/// A child of a node on the walk, as it stood when the walk chose among its siblings.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    pub mv: Move,
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
pub struct Walked {
    /// The move into the node (`None` at the root).
    pub mv: Option<Move>,
    /// Visits and half-points before the iteration and after its backup.
    pub before: (u32, u32),
    pub after: (u32, u32),
    /// Whether this iteration added the node's children.
    pub expanded: bool,
    /// Its children after the iteration.
    pub children: usize,
    pub proven_after: Option<Proven>,
    /// The children the walk chose among here, in the tree's order (empty at the last node).
    pub choices: Vec<Candidate>,
}

/// How the iteration's game ended below the last node of the walk.
#[derive(Clone, Debug, PartialEq)]
pub enum Ending {
    /// The last node is proven: its result is known without a random game.
    Proven(Proven),
    /// A random game from the last node's position: its moves, or `None` if replaying it
    /// with the same random numbers did not give the game the search played.
    Playout(Option<Vec<Move>>),
}

/// What one iteration did.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// The iteration's number in the search, from 1.
    pub number: u64,
    pub walk: Vec<Walked>,
    pub ending: Ending,
}

impl Mcts {
    /// Runs one more iteration of the last search, from its root and on its random numbers, as
    /// if it had been given one more iteration, and reports it. `None` before any search and
    /// once the root is proven (the search would have stopped).
    pub fn step(&mut self) -> Option<Iteration> {
        let root = self.root?;
        if self.nodes.is_empty() || self.nodes[0].first == 0 || self.finished(false) {
            return None;
        }
        let before = self.nodes.clone();
        let rng = self.rng.clone();
        self.iterate();
        self.iterations += 1;
        let path: Vec<usize> = self.path.iter().map(|&i| i as usize).collect();
        // The half-points the backup gave the root's mover: those of every node at an even
        // depth; the other side's at an odd depth.
        let root_added = self.nodes[0].score - before[0].score;
        let added = |depth: usize| {
            if depth % 2 == 0 {
                root_added
            } else {
                2 - root_added
            }
        };
        let mut walk = Vec::with_capacity(path.len());
        for (depth, &node) in path.iter().enumerate() {
            let next = path.get(depth + 1).map(|&n| (n, added(depth + 1)));
            walk.push(self.walked(&before, node, added(depth), next));
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
                    let mv = w.mv.expect("below the root").index();
                    board.apply(mv / 9, mv % 9);
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
    /// child this iteration added, as the expansion made it (less `added`, the half-points the
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

    /// The report of node `node` on the walk, to which the backup gave `added` half-points;
    /// the walk went on into `next` (with its half-points).
    fn walked(
        &self,
        before: &[Node],
        node: usize,
        added: u32,
        next: Option<(usize, u32)>,
    ) -> Walked {
        let was = self.at_choice(before, node, added);
        let now = self.nodes[node];
        let expanded = was.first == 0 && now.first != 0;
        let choices = match next {
            None => Vec::new(),
            Some((next, next_added)) => self
                .children(node)
                .map(|c| {
                    let n = self.at_choice(before, c, next_added);
                    Candidate {
                        mv: Move::from_index(usize::from(n.mv)).expect("a valid move"),
                        visits: n.visits,
                        score: n.score,
                        proven: proven(n),
                        ucb: self.ucb(was.visits, n, node == 0),
                        chosen: c == next,
                    }
                })
                .collect(),
        };
        Walked {
            mv: (node != 0)
                .then(|| Move::from_index(usize::from(now.mv)))
                .flatten(),
            before: (was.visits, was.score),
            after: (now.visits, now.score),
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

    /// How the search scores `child` of a node of `parent_visits` visits when it walks down.
    fn ucb(&self, parent_visits: u32, child: Node, at_root: bool) -> Score {
        let rate = match child.proof {
            Proof::Unknown if child.visits == 0 => return Score::Untried,
            Proof::Unknown => child.score as f32 / (2 * child.visits) as f32,
            _ if at_root => return Score::Skipped,
            Proof::Draw => 0.5,
            Proof::Win => return Score::ProvenWin,
            Proof::Loss => return Score::Skipped,
        };
        let log = (parent_visits.max(1) as f32).ln();
        let exploration = self.exploration * (log / child.visits.max(1) as f32).sqrt();
        Score::Ucb { rate, exploration }
    }

    /// The random game the iteration played from `board`: the random numbers as they stood
    /// before it, less those the expansion's shuffle took, replayed move by move; `None`
    /// unless the replay ends where the search's own random game does on the same numbers.
    fn replay(
        &self,
        walk: &[Walked],
        path: &[usize],
        board: UltimateBoard,
        mut rng: fastrand::Rng,
    ) -> Option<Vec<Move>> {
        for (w, &node) in walk.iter().zip(path) {
            if w.expanded {
                let mut scratch = vec![0u8; usize::from(self.nodes[node].count)];
                rng.shuffle(&mut scratch);
            }
        }
        let (mut real, mut real_rng) = (board, rng.clone());
        let result = playout_from(&mut real, &mut real_rng);
        let (mut traced, mut traced_rng) = (board, rng);
        let (moves, traced_result) = traced_playout(&mut traced, &mut traced_rng);
        (real == traced && result == traced_result && real_rng == traced_rng).then_some(moves)
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

/// The search's random game from `board`, move by move: the same choices on the same random
/// numbers, with the moves kept. [`Mcts::step`] checks it against the search's own.
fn traced_playout(board: &mut UltimateBoard, rng: &mut fastrand::Rng) -> (Vec<Move>, u8) {
    let mut moves = Vec::new();
    loop {
        let side = board.side();
        let forced = board.forced_index();
        let (b, c) = if forced < 9 {
            let empty = board.empty(forced);
            let wins = threats(board.cells_of(side, forced)) & empty;
            if wins == 0 {
                (forced, nth_bit(empty, below(rng, count(empty))))
            } else {
                (forced, lowest(wins))
            }
        } else {
            super::pick_anywhere(board, side, rng)
        };
        moves.extend(Move::from_index(b * 9 + c));
        if board.apply(b, c) {
            let result = if crate::ultimate::has_line(board.won_by(side)) {
                side as u8
            } else {
                super::DRAW
            };
            return (moves, result);
        }
    }
}
