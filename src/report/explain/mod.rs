//! `tictactoe explain`: the tree a textbook search visits from a position ([`crate::explain`]),
//! as an indented text tree ending with the totals, as JSON, or as Graphviz DOT for slides.

pub mod mcts;
pub mod watch;

use std::fmt::{self, Write as _};
use std::io::{self, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use serde::Serialize;

use crate::explain::{self, Algorithm, Bound, ExplainError, Explanation, Hit, Limits, Node};
use crate::game::record::{Record, RecordError};
use crate::report::tree::{self, Printed};
use crate::rules::catalogue::{Asked, Shape};
use crate::rules::classic::RulesError;
use crate::rules::position::{ParsePositionError, Position, Variant};

/// How the tree is printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Indented text with the marks, then the totals.
    Plain,
    /// One JSON document (pretty-printed): the root's value and totals, then the tree.
    Json,
    /// Graphviz DOT: pruned branches dashed, the principal variation bold.
    Dot,
}

/// The rules, the search and the output of `explain`.
#[derive(Clone, Debug)]
pub struct Options {
    /// The game the rule flags name, where moves are played (and why they name none).
    pub variant: Result<Variant, RulesError>,
    /// The rule flags as given, the game's name resolved: `size`, which a board given in
    /// notation must have; its line, misère, exactly five; nine boards.
    pub asked: Asked,
    /// The search: a textbook one (classic rules only; minimax if none is given) or the
    /// Monte Carlo tree search (Ultimate's, and the one `--iterations` and `--seed` set).
    pub algorithm: Option<Algorithm>,
    pub format: Format,
    pub limits: Limits,
    /// The Monte Carlo tree search's iterations and seed (1000 and 1 if not given), and, on
    /// Ultimate, the iterations after them to show one at a time.
    pub iterations: Option<u64>,
    pub seed: Option<u64>,
    pub steps: Option<u64>,
}

/// Iterations of the Monte Carlo tree search when `--iterations` is not given.
pub const DEFAULT_ITERATIONS: u64 = 1000;
/// The search's seed when `--seed` is not given.
pub const DEFAULT_SEED: u64 = 1;

/// Why the flags given do not go together, if they do not: the Monte Carlo flags need the
/// Monte Carlo tree search, Ultimate has no textbook search, and the steps are text.
fn conflict(options: &Options) -> Option<&'static str> {
    let flags = options.iterations.is_some() || options.seed.is_some() || options.steps.is_some();
    let textbook = options.algorithm.is_some_and(|a| a != Algorithm::Mcts);
    // Ultimate and Gomoku: rule sets of their own, with no textbook search.
    let named = options.variant.as_ref().is_ok_and(|v| v.rules().is_none());
    if !named && flags && options.algorithm != Some(Algorithm::Mcts) {
        Some(
            "--iterations, --seed and --steps set the Monte Carlo tree search: add \
             --algorithm mcts (or --ultimate), or drop them",
        )
    } else if named && textbook {
        Some(
            "--algorithm chooses a textbook search of the classic game; Ultimate's and \
             Gomoku's trees are Monte Carlo tree searches: drop --algorithm (set --iterations \
             and --seed instead)",
        )
    } else if options.steps.is_some() && options.format != Format::Plain {
        Some("--steps prints text only: drop --json or --dot")
    } else {
        None
    }
}

/// Explains the position given by `input` (nothing: the empty board; one word with `/`: a
/// board in notation; otherwise moves played from the empty board) and writes the tree to
/// `out`. A bad board or move, and a tree too big to print, get a message on `err`. Returns
/// the exit status: 0, or 2 for any of those.
pub fn run(
    input: &[String],
    options: &Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    if let Some(why) = conflict(options) {
        writeln!(err, "tictactoe: {why}")?;
        return Ok(2);
    }
    let position = match position(input, options) {
        Ok(position) => position,
        Err(why) => {
            writeln!(err, "tictactoe: {why}")?;
            return Ok(2);
        }
    };
    if position.classic().is_none() || options.algorithm == Some(Algorithm::Mcts) {
        return monte_carlo(&position, options, out, err);
    }
    let algorithm = options.algorithm.unwrap_or(Algorithm::Minimax);
    match fitted(&position, algorithm, options.limits, err)? {
        Ok(explanation) => {
            let text = match options.format {
                Format::Plain => plain(&position, &explanation),
                Format::Json => json(&position, &explanation),
                Format::Dot => dot(&explanation),
            };
            out.write_all(text.as_bytes())?;
            Ok(0)
        }
        Err(why) => {
            writeln!(err, "tictactoe: {why}")?;
            Ok(2)
        }
    }
}

/// The explanation of `position` within `limits`; where no `--depth` was given and the whole
/// tree has more nodes than allowed, the deepest tree that fits instead, with a note on `err`
/// saying how to see more.
fn fitted(
    position: &Position,
    algorithm: Algorithm,
    limits: Limits,
    err: &mut dyn Write,
) -> io::Result<Result<explain::Explanation, ExplainError>> {
    let first = explain::explain(position, algorithm, limits);
    let Err(ExplainError::TooBig { nodes, limit, .. }) = first else {
        return Ok(first);
    };
    if limits.depth.is_some() {
        return Ok(first);
    }
    let plies = position.legal_moves().len() as u32;
    for depth in (1..plies).rev() {
        let shallower = Limits {
            depth: Some(depth),
            ..limits
        };
        match explain::explain(position, algorithm, shallower) {
            Err(ExplainError::TooBig { .. }) => {}
            fits => {
                writeln!(
                    err,
                    "Shown to depth {depth}: the whole tree has {nodes} nodes, more than \
                     --max-nodes {limit}. --depth {} or a larger --max-nodes shows more.",
                    depth + 1
                )?;
                return Ok(fits);
            }
        }
    }
    Ok(first)
}

/// The Monte Carlo tree of `position` within `limits`; where no `--depth` was given and the
/// whole tree has more nodes than allowed, the deepest tree that fits instead, with a note on
/// `err` saying how to see more (as [`fitted`] does for the textbook searches).
fn mcts_fitted(
    position: &Position,
    iterations: u64,
    seed: u64,
    limits: Limits,
    err: &mut dyn Write,
) -> io::Result<Result<explain::MctsExplanation, ExplainError>> {
    if limits.depth.is_some() {
        return Ok(explain::explain_mcts(position, iterations, seed, limits));
    }
    let never = Arc::new(AtomicBool::new(false));
    let fitted =
        explain::explain_mcts_fitting(position, iterations, seed, limits.max_nodes, &never);
    if let Ok(
        x @ explain::MctsExplanation {
            depth: Some(depth), ..
        },
    ) = &fitted
    {
        writeln!(
            err,
            "Shown to depth {depth}: the whole tree has {} nodes, more than --max-nodes {}. \
             --depth {} or a larger --max-nodes shows more.",
            x.nodes,
            limits.max_nodes,
            depth + 1
        )?;
    }
    Ok(fitted)
}

/// [`run`] for the Monte Carlo tree search: its tree, or on Ultimate its steps.
fn monte_carlo(
    position: &Position,
    options: &Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let iterations = options.iterations.unwrap_or(DEFAULT_ITERATIONS);
    let seed = options.seed.unwrap_or(DEFAULT_SEED);
    if let Some(steps) = options.steps {
        return match explain::watch_mcts(position, iterations, seed, steps) {
            Ok(watched) => {
                let c = crate::ai::mcts::EXPLORATION;
                let text = watch::plain(position, iterations, seed, c, &watched);
                out.write_all(text.as_bytes())?;
                Ok(0)
            }
            Err(why) => {
                writeln!(err, "tictactoe: {why}")?;
                Ok(2)
            }
        };
    }
    match mcts_fitted(position, iterations, seed, options.limits, err)? {
        Ok(x) => {
            let text = match options.format {
                Format::Plain => mcts::plain(position, &x),
                Format::Json => mcts::json(position, &x),
                Format::Dot => mcts::dot(position, &x),
            };
            out.write_all(text.as_bytes())?;
            Ok(0)
        }
        Err(why) => {
            writeln!(err, "tictactoe: {why}")?;
            Ok(2)
        }
    }
}

/// Why the input names no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// A board in notation that does not parse.
    Board {
        text: String,
        error: ParsePositionError,
    },
    /// A classic board of another size than `--size`.
    Size { text: String, found: u8, size: u8 },
    /// A board of another shape than the game `--rules` names.
    Shape {
        text: String,
        name: &'static str,
        shape: Shape,
    },
    /// Moves given, but the rule flags name no game.
    Rules(RulesError),
    /// A move that names no legal move.
    Move(RecordError),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Board { text, error } => write!(f, "bad board {text:?}: {error}"),
            InputError::Size { text, found, size } => {
                write!(
                    f,
                    "bad board {text:?}: it is {found}×{found}, but --size is {size}"
                )
            }
            InputError::Shape { text, name, shape } => write!(
                f,
                "bad board {text:?}: --rules {name} plays on {}, not on this board",
                shape.words()
            ),
            InputError::Rules(e) => write!(f, "{e}"),
            InputError::Move(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for InputError {}

/// The position `input` names, or why it names none.
fn position(input: &[String], options: &Options) -> Result<Position, InputError> {
    if let [text] = input
        && text.contains('/')
    {
        let a = options.asked;
        let position = Position::parse(
            text,
            a.game == Some(Shape::Boards),
            a.k,
            a.misere,
            a.rule == Some(crate::rules::gomoku::Rule::Exact),
        )
        .map_err(|error| InputError::Board {
            text: text.clone(),
            error,
        })?;
        if let Some(entry) = a.named.filter(|e| e.shape() != position.shape()) {
            return Err(InputError::Shape {
                text: text.clone(),
                name: entry.name(),
                shape: entry.shape(),
            });
        }
        if let (Some(size), Some(board)) = (a.size, position.classic())
            && board.size() != size
        {
            return Err(InputError::Size {
                text: text.clone(),
                found: board.size(),
                size,
            });
        }
        return Ok(position);
    }
    let variant = options.variant.clone().map_err(InputError::Rules)?;
    let record = Record::parse(variant, input).map_err(InputError::Move)?;
    let mut position = variant.start();
    for &mv in record.moves() {
        position.play(mv).expect("a record replays legally");
    }
    Ok(position)
}

/// A value with what it bounds: `0`, `≥ 1`, `≤ -1`.
fn value_text(node: &Node) -> String {
    let value = node.value.unwrap_or_default();
    match node.bound {
        Some(Bound::Lower) => format!("≥ {value}"),
        Some(Bound::Upper) => format!("≤ {value}"),
        _ => value.to_string(),
    }
}

/// What a node is, in words: its move (or `root`), value, window and marks.
fn describe(node: &Node) -> String {
    let mut s = match (&node.mv, node.by) {
        (Some(mv), Some(by)) => format!("{by} {mv}"),
        _ => format!("root, {} to move", node.to_move),
    };
    if node.pruned {
        s.push_str("  pruned");
        return s;
    }
    let _ = write!(s, ": {}", value_text(node));
    if let Some(window) = node.window {
        let _ = write!(s, "  {window}");
    }
    let mut marks = Vec::new();
    if node.leaf {
        marks.push("game over".to_string());
    }
    match node.table_hit {
        Some(Hit::Same) => marks.push("table hit".to_string()),
        Some(Hit::Symmetric) => marks.push("table hit (symmetric)".to_string()),
        None => {}
    }
    if node.cutoff {
        marks.push(format!("cut-off, {} pruned", node.pruned_moves));
    }
    if node.hidden > 0 {
        marks.push(nodes_below(node.hidden));
    }
    if !marks.is_empty() {
        let _ = write!(s, "  [{}]", marks.join(", "));
    }
    s
}

/// How many nodes were visited below a node whose children are not shown.
fn nodes_below(count: u64) -> String {
    let s = if count == 1 { "" } else { "s" };
    format!("{count} node{s} below")
}

/// The text report: what was searched, the value and best line, the tree indented two
/// spaces a level, and the totals.
pub fn plain(position: &Position, explanation: &Explanation) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{} from {position}", explanation.algorithm.title());
    let _ = writeln!(
        s,
        "value: {} ({}); X maximises, O minimises",
        explanation.value,
        explanation.verdict()
    );
    let _ = writeln!(s, "best line: {}", explanation.pv.join(" "));
    let _ = writeln!(s);
    tree::indented(&explanation.tree, position.to_move().symbol(), &mut s);
    let t = &explanation.totals;
    let _ = writeln!(s);
    let _ = writeln!(s, "nodes visited: {}", t.visited);
    let _ = writeln!(s, "games ended (leaves): {}", t.leaves);
    let _ = writeln!(s, "cut-offs: {}", t.cutoffs);
    let _ = writeln!(s, "pruned branches: {}", t.pruned);
    let _ = writeln!(s, "table hits: {}", t.table_hits);
    let _ = writeln!(s, "table entries: {}", t.table_entries);
    s
}

/// The JSON report: the position, whose turn it is and the result, then the explanation
/// (algorithm, root value, best line, totals, depth and the tree), one document.
pub fn json(position: &Position, explanation: &Explanation) -> String {
    #[derive(Serialize)]
    struct Report<'a> {
        position: String,
        to_move: char,
        result: &'static str,
        #[serde(flatten)]
        explanation: &'a Explanation,
    }
    let report = Report {
        position: position.to_string(),
        to_move: position.to_move().symbol(),
        result: explanation.verdict(),
        explanation,
    };
    let mut text = serde_json::to_string_pretty(&report).expect("a tree serializes");
    text.push('\n');
    text
}

/// The Graphviz picture: a box per node with its move, value and window; pruned branches
/// dashed, table hits with a double border, the principal variation bold.
pub fn dot(explanation: &Explanation) -> String {
    let tree = &explanation.tree;
    let title = explanation.algorithm.title();
    tree::graph(tree, title, tree.to_move, |child, on_pv, depth| {
        on_pv && !child.pruned && child.mv.as_ref() == explanation.pv.get(depth)
    })
}

impl Printed for Node {
    fn children(&self) -> &[Node] {
        &self.children
    }

    fn line(&self, _: char) -> String {
        describe(self)
    }

    fn attributes(&self, _: char, on_pv: bool) -> String {
        node_attributes(self, on_pv)
    }

    fn edge(&self, on_pv: bool) -> &'static str {
        if self.pruned {
            " [style=dashed]"
        } else if on_pv {
            " [style=bold, penwidth=3]"
        } else {
            ""
        }
    }
}

/// A node's DOT attributes: its label and style.
fn node_attributes(node: &Node, on_pv: bool) -> String {
    let mut lines: Vec<String> = vec![describe_head(node)];
    if !node.pruned {
        lines.push(value_text(node));
        if let Some(window) = node.window {
            lines.push(window.to_string());
        }
    }
    if node.leaf {
        lines.push("game over".into());
    }
    let mut extra = String::new();
    match (node.pruned, on_pv) {
        (true, _) => {
            lines.push("pruned".into());
            extra.push_str(", style=dashed");
        }
        (false, true) => extra.push_str(", style=bold, penwidth=3"),
        (false, false) => {}
    }
    if node.cutoff {
        lines.push(format!("cut-off, {} pruned", node.pruned_moves));
    }
    if let Some(hit) = node.table_hit {
        lines.push(
            if hit == Hit::Same {
                "table hit"
            } else {
                "table hit (symmetric)"
            }
            .into(),
        );
        extra.push_str(", peripheries=2");
    }
    if node.hidden > 0 {
        lines.push(nodes_below(node.hidden));
    }
    format!("label={}{extra}", tree::label(&lines))
}

/// A node's move (`X 5`), or `root (X to move)`.
fn describe_head(node: &Node) -> String {
    match (&node.mv, node.by) {
        (Some(mv), Some(by)) => format!("{by} {mv}"),
        _ => format!("root ({} to move)", node.to_move),
    }
}
