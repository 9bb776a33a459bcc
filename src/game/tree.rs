//! A tree of moves from a game's start: its main line and the variations that branch off it,
//! each move with a comment of its own, as the analysis board keeps them and a game file saves
//! them ([`super::file`]). Moves are only ever added; a node's number stays its own.

use crate::game::record::Record;
use crate::rules::position::{Move, MoveError, Position, Variant};

/// The start of the game: the node no move leads to.
pub const ROOT: usize = 0;

/// The moves tried from a game's start, as a tree.
#[derive(Clone, Debug)]
pub struct Tree {
    variant: Variant,
    nodes: Vec<Node>,
}

#[derive(Clone, Debug)]
struct Node {
    /// The move that leads here (`None` at the root).
    mv: Option<Move>,
    parent: usize,
    /// The moves tried from here, the main one first.
    children: Vec<usize>,
    comment: String,
}

impl Node {
    fn new(mv: Option<Move>, parent: usize) -> Node {
        Node {
            mv,
            parent,
            children: Vec::new(),
            comment: String::new(),
        }
    }
}

impl Tree {
    /// A tree of `variant` with no move yet.
    pub fn new(variant: Variant) -> Tree {
        Tree {
            variant,
            nodes: vec![Node::new(None, ROOT)],
        }
    }

    /// The tree of one line: `record`'s moves.
    pub fn of_record(record: &Record) -> Tree {
        let mut tree = Tree::new(record.variant());
        let mut at = ROOT;
        for &mv in record.moves() {
            at = tree.push(at, mv);
        }
        tree
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The node `mv` leads to from `at`: the one already there, or a new one after the moves
    /// tried before it. Refused, and nothing added, where the move is not legal there.
    pub fn play(&mut self, at: usize, mv: Move) -> Result<usize, MoveError> {
        if let Some(&child) = self.children(at).iter().find(|&&c| self.mv(c) == Some(mv)) {
            return Ok(child);
        }
        self.position(at).play(mv)?;
        Ok(self.push(at, mv))
    }

    /// A new child of `at` by `mv`, known to be legal.
    fn push(&mut self, at: usize, mv: Move) -> usize {
        let child = self.nodes.len();
        self.nodes.push(Node::new(Some(mv), at));
        self.nodes[at].children.push(child);
        child
    }

    /// The moves from the start to `at`.
    pub fn moves_to(&self, mut at: usize) -> Vec<Move> {
        let mut moves = Vec::new();
        while let Some(mv) = self.mv(at) {
            moves.push(mv);
            at = self.nodes[at].parent;
        }
        moves.reverse();
        moves
    }

    /// The position at `at`.
    pub fn position(&self, at: usize) -> Position {
        let mut position = self.variant.start();
        for mv in self.moves_to(at) {
            position.play(mv).expect("the tree's moves are legal");
        }
        position
    }

    /// The record of the moves to `at`.
    pub fn record_to(&self, at: usize) -> Record {
        Record::new(self.variant, self.moves_to(at)).expect("the tree's moves are legal")
    }

    /// The move that leads to `at` (`None` at the root).
    pub fn mv(&self, at: usize) -> Option<Move> {
        self.nodes[at].mv
    }

    /// The node before `at` (`None` at the root).
    pub fn parent(&self, at: usize) -> Option<usize> {
        self.mv(at).map(|_| self.nodes[at].parent)
    }

    /// The moves tried from `at`, the main one first.
    pub fn children(&self, at: usize) -> &[usize] {
        &self.nodes[at].children
    }

    pub fn comment(&self, at: usize) -> &str {
        &self.nodes[at].comment
    }

    /// Sets `at`'s comment: one line (line breaks become spaces), without braces (they close
    /// a comment in a game file: they become parentheses).
    pub fn set_comment(&mut self, at: usize, comment: &str) {
        let comment = comment.replace(['\n', '\r'], " ").replace('{', "(");
        self.nodes[at].comment = comment.replace('}', ")").trim().to_string();
    }

    /// How many moves the tree holds, in every line.
    pub fn moves(&self) -> usize {
        self.nodes.len() - 1
    }

    /// The main line: the first move tried at each node from the start.
    pub fn main_line(&self) -> Vec<Move> {
        self.moves_to(self.line_end(ROOT))
    }

    /// Where the line through `at` ends, following the first move tried from each node.
    pub fn line_end(&self, mut at: usize) -> usize {
        while let Some(&next) = self.children(at).first() {
            at = next;
        }
        at
    }

    /// The other move tried in `at`'s place `step` places on (the next, -1 the one before),
    /// round the moves tried there; `None` where `at` has no sibling.
    pub fn sibling(&self, at: usize, step: isize) -> Option<usize> {
        let siblings = self.children(self.parent(at)?);
        if siblings.len() < 2 {
            return None;
        }
        let here = siblings.iter().position(|&s| s == at)?;
        let n = siblings.len() as isize;
        Some(siblings[(here as isize + step).rem_euclid(n) as usize])
    }

    /// Which of the moves tried in its place `at` is (from 1), and how many there are.
    pub fn place(&self, at: usize) -> Option<(usize, usize)> {
        let siblings = self.children(self.parent(at)?);
        let here = siblings.iter().position(|&s| s == at)?;
        Some((here + 1, siblings.len()))
    }

    /// Whether two nodes, each of its own tree, hold the same moves and comments below.
    fn same(&self, at: usize, other: &Tree, there: usize) -> bool {
        let (a, b) = (&self.nodes[at], &other.nodes[there]);
        a.mv == b.mv
            && a.comment == b.comment
            && a.children.len() == b.children.len()
            && (a.children.iter().zip(&b.children)).all(|(&x, &y)| self.same(x, other, y))
    }
}

impl PartialEq for Tree {
    /// The same game, moves, order of moves tried and comments, however the nodes were made.
    fn eq(&self, other: &Tree) -> bool {
        self.variant == other.variant && self.same(ROOT, other, ROOT)
    }
}

impl Eq for Tree {}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(position: &Position, text: &str) -> Move {
        position.parse_move(text).unwrap()
    }

    #[test]
    fn a_move_tried_again_is_the_same_node_and_another_starts_a_branch() {
        let mut tree = Tree::new(Variant::default());
        let start = tree.position(ROOT);
        let five = tree.play(ROOT, cell(&start, "5")).unwrap();
        let one = tree.play(five, cell(&start, "1")).unwrap();
        assert_eq!(tree.play(ROOT, cell(&start, "5")), Ok(five));
        let seven = tree.play(five, cell(&start, "7")).unwrap();
        assert_eq!(tree.children(five), [one, seven]);
        assert_eq!(tree.sibling(one, 1), Some(seven));
        assert_eq!(tree.sibling(one, -1), Some(seven));
        assert_eq!(tree.place(seven), Some((2, 2)));
        assert_eq!(tree.sibling(five, 1), None);
        assert_eq!(tree.main_line(), tree.moves_to(one));
        assert_eq!(tree.moves(), 3);
        assert_eq!(tree.parent(seven), Some(five));
        assert_eq!(tree.parent(ROOT), None);
    }

    #[test]
    fn an_illegal_move_is_refused_and_adds_nothing() {
        let mut tree = Tree::new(Variant::default());
        let start = tree.position(ROOT);
        let five = tree.play(ROOT, cell(&start, "5")).unwrap();
        assert!(tree.play(five, cell(&start, "5")).is_err());
        assert_eq!(tree.moves(), 1);
    }

    #[test]
    fn trees_are_equal_by_their_moves_and_comments_not_by_how_they_were_made() {
        let start = Variant::default().start();
        let (five, one, seven) = (cell(&start, "5"), cell(&start, "1"), cell(&start, "7"));
        let mut a = Tree::new(Variant::default());
        let at = a.play(ROOT, five).unwrap();
        a.play(at, one).unwrap();
        a.play(ROOT, seven).unwrap();
        let mut b = Tree::new(Variant::default());
        b.play(ROOT, seven).unwrap();
        let at = b.play(ROOT, five).unwrap();
        b.play(at, one).unwrap();
        assert_ne!(a, b, "the order of the moves tried differs");
        let mut c = Tree::new(Variant::default());
        let at = c.play(ROOT, five).unwrap();
        c.play(ROOT, seven).unwrap();
        c.play(at, one).unwrap();
        assert_eq!(a, c);
        c.set_comment(at, "the centre");
        assert_ne!(a, c);
    }
}
