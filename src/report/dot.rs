//! Graphviz DOT pieces that both search trees (`explain`'s textbook searches and its Monte
//! Carlo tree) are drawn with.

/// A DOT string literal.
pub(super) fn quoted(text: &str) -> String {
    format!("\"{}\"", text.replace('\\', "\\\\").replace('"', "\\\""))
}
