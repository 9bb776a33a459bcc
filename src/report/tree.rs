//! How both search trees of `explain` (the textbook searches' and the Monte Carlo tree) are
//! printed: one walk for the indented text and one for the Graphviz graph, over what a node
//! says of itself ([`Printed`]).

use std::fmt::Write as _;

/// A node of a search tree, as the printers see it.
pub(super) trait Printed: Sized {
    /// The nodes below it, in the order they are printed.
    fn children(&self) -> &[Self];
    /// The node in words: one line of the text tree (`to_move` moves at the root).
    fn line(&self, to_move: char) -> String;
    /// Its DOT attributes (its label and style), `on_pv` where it lies on the best line.
    fn attributes(&self, to_move: char, on_pv: bool) -> String;
    /// The DOT style of the edge into it (with its leading space), or nothing.
    fn edge(&self, on_pv: bool) -> &'static str;
}

/// The tree as text, a node a line, indented two spaces a level.
pub(super) fn indented<N: Printed>(root: &N, to_move: char, s: &mut String) {
    let mut stack = vec![(root, 0usize)];
    while let Some((node, level)) = stack.pop() {
        let _ = writeln!(
            s,
            "{:indent$}{}",
            "",
            node.line(to_move),
            indent = 2 * level
        );
        stack.extend(node.children().iter().rev().map(|c| (c, level + 1)));
    }
}

/// The tree as a Graphviz graph titled `label`, a box a node; `on_pv(child, parent_on_pv,
/// depth)` says whether a child at `depth` lies on the best line.
pub(super) fn graph<N: Printed>(
    root: &N,
    label: &str,
    to_move: char,
    on_pv: impl Fn(&N, bool, usize) -> bool,
) -> String {
    let mut s = String::from("digraph explain {\n");
    let _ = writeln!(s, "  label={};", quoted(label));
    s.push_str("  node [shape=box, fontname=\"Helvetica\"];\n");
    let mut next = 0usize;
    let mut stack: Vec<(&N, Option<usize>, bool, usize)> = vec![(root, None, true, 0)];
    while let Some((node, parent, pv, depth)) = stack.pop() {
        let id = next;
        next += 1;
        let _ = writeln!(s, "  n{id} [{}];", node.attributes(to_move, pv));
        if let Some(parent) = parent {
            let _ = writeln!(s, "  n{parent} -> n{id}{};", node.edge(pv));
        }
        for child in node.children().iter().rev() {
            stack.push((child, Some(id), on_pv(child, pv, depth), depth + 1));
        }
    }
    s.push_str("}\n");
    s
}

/// A DOT string literal.
pub(super) fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A DOT label of several lines.
pub(super) fn label(lines: &[String]) -> String {
    quoted(&lines.join("\n")).replace('\n', "\\n")
}
