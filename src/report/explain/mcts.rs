//! `tictactoe explain --ultimate`: the Monte Carlo tree ([`crate::explain::MctsExplanation`])
//! as indented text, as JSON, or as Graphviz DOT.

use std::fmt::Write as _;

use serde::Serialize;

use crate::explain::{MctsExplanation, MctsNode};
use crate::report::tree::{self, Printed};
use crate::rules::position::Position;

/// A rate or score to three decimals.
fn three(x: f32) -> String {
    format!("{x:.3}")
}

/// What a node is, in words: its move (or the root), visits, win rate, UCB1 score and marks.
fn describe(node: &MctsNode, to_move: char) -> String {
    let mut s = match (&node.mv, node.by) {
        (Some(mv), Some(by)) => format!("{by} {mv}: {} visits", node.visits),
        _ => format!("root, {to_move} to move: {} visits", node.visits),
    };
    if let (Some(rate), Some(_)) = (node.win_rate, node.by) {
        let _ = write!(
            s,
            ", win rate {} ({}/{})",
            three(rate),
            node.wins,
            node.visits
        );
    }
    if let (Some(q), Some(e), Some(u)) = (node.win_rate, node.exploration, node.ucb) {
        let _ = write!(s, ", UCB {} + {} = {}", three(q), three(e), three(u));
    }
    let mut marks = Vec::new();
    if let Some(proven) = node.proven {
        marks.push(proof(node, proven));
    }
    if node.pv && node.by.is_some() {
        marks.push("best line".to_string());
    }
    if node.hidden > 0 {
        let s = if node.hidden == 1 { "" } else { "s" };
        marks.push(format!("{} node{s} below", node.hidden));
    }
    if !marks.is_empty() {
        let _ = write!(s, "  [{}]", marks.join(", "));
    }
    s
}

/// `proven win in 3`, `proven draw`.
fn proof(node: &MctsNode, proven: &str) -> String {
    match node.plies {
        Some(plies) => format!("proven {proven} in {plies}"),
        None => format!("proven {proven}"),
    }
}

/// The text report: the search, the formula, the best line, the tree indented two spaces a
/// level (each node's children most visited first), and the size of the tree.
pub fn plain(position: &Position, x: &MctsExplanation) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Monte Carlo tree search from {position}: {} iterations, seed {}",
        x.iterations, x.seed
    );
    let prior = match x.prior_visits {
        0 => "no move prior: each node starts unvisited".to_string(),
        n => {
            format!("each node starts with {n} imaginary visits at the rate the move prior guesses")
        }
    };
    let _ = writeln!(
        s,
        "UCB = win rate + {} × sqrt(ln(parent's visits) / visits); {prior}; win rates are the \
         mover's",
        x.exploration_constant
    );
    let _ = writeln!(s, "best line: {}", x.pv.join(" "));
    let _ = writeln!(s);
    tree::indented(&x.tree, position.to_move().symbol(), &mut s);
    let _ = writeln!(s);
    let _ = writeln!(s, "nodes in the tree: {}", x.nodes);
    let _ = writeln!(s, "nodes shown: {}", x.tree.count());
    s
}

/// The JSON report: the position and whose turn it is, then the explanation (iterations,
/// seed, constants, best line, depth and the tree), one document.
pub fn json(position: &Position, x: &MctsExplanation) -> String {
    #[derive(Serialize)]
    struct Report<'a> {
        position: String,
        to_move: char,
        search: &'static str,
        #[serde(flatten)]
        explanation: &'a MctsExplanation,
    }
    let report = Report {
        position: position.to_string(),
        to_move: position.to_move().symbol(),
        search: "mcts",
        explanation: x,
    };
    let mut text = serde_json::to_string_pretty(&report).expect("a tree serializes");
    text.push('\n');
    text
}

/// The Graphviz picture: a box per node with its move, visits, win rate and UCB1 score;
/// proven nodes with a double border, the best line bold.
pub fn dot(position: &Position, x: &MctsExplanation) -> String {
    let label = format!(
        "Monte Carlo tree search, {} iterations, seed {}",
        x.iterations, x.seed
    );
    let to_move = position.to_move().symbol();
    tree::graph(&x.tree, &label, to_move, |child, _, _| child.pv)
}

impl Printed for MctsNode {
    fn children(&self) -> &[MctsNode] {
        &self.children
    }

    fn line(&self, to_move: char) -> String {
        describe(self, to_move)
    }

    /// Bold where the node itself is on the best line, as the tree marks it.
    fn attributes(&self, to_move: char, _: bool) -> String {
        attributes(self, to_move)
    }

    fn edge(&self, _: bool) -> &'static str {
        if self.pv {
            " [style=bold, penwidth=3]"
        } else {
            ""
        }
    }
}

/// A node's DOT attributes: its label and style.
fn attributes(node: &MctsNode, to_move: char) -> String {
    let head = match (&node.mv, node.by) {
        (Some(mv), Some(by)) => format!("{by} {mv}"),
        _ => format!("root ({to_move} to move)"),
    };
    let mut lines = vec![head, format!("{} visits", node.visits)];
    if let (Some(rate), Some(_)) = (node.win_rate, node.by) {
        lines.push(format!("win rate {}", three(rate)));
    }
    if let (Some(q), Some(e)) = (node.win_rate, node.exploration)
        && node.ucb.is_some()
    {
        lines.push(format!("UCB {} + {}", three(q), three(e)));
    }
    let mut extra = String::new();
    if let Some(proven) = node.proven {
        lines.push(proof(node, proven));
        extra.push_str(", peripheries=2");
    }
    if node.pv {
        extra.push_str(", style=bold, penwidth=3");
    }
    if node.hidden > 0 {
        lines.push(format!("{} below", node.hidden));
    }
    format!("label={}{extra}", tree::label(&lines))
}
