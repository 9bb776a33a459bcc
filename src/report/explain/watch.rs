//! `tictactoe explain --algorithm mcts --steps K` (or `--ultimate`): iterations of the Monte Carlo tree search, one at a
//! time ([`crate::ai::mcts::Iteration`]), as text: the walk down the tree with each choice's UCB1
//! scores, the node expanded, the random game and its result, and the backup.

use std::fmt::Write as _;

use crate::ai::mcts::{Candidate, Ending, Iteration, Proven, Score, Walked};
use crate::rules::classic::Mark;
use crate::rules::position::{Move, Position};

/// Children listed at each choice besides the one taken: the best scored.
const RIVALS: usize = 3;

/// The text report: the search, the formula, then each iteration.
pub fn plain(
    position: &Position,
    iterations: u64,
    seed: u64,
    exploration: f32,
    watched: &[Iteration<Move>],
) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Monte Carlo tree search from {position}: {iterations} iterations, seed {seed}, then {} \
         more one at a time",
        watched.len()
    );
    // Only a search with a prior starts its nodes with imaginary visits.
    let prior = if crate::explain::mcts_prior_visits(position) == 0 {
        ""
    } else {
        "; visits include the prior's imaginary ones"
    };
    let _ = writeln!(
        s,
        "UCB = win rate + {exploration} × sqrt(ln(parent's visits) / visits); win rates are \
         the mover's{prior}"
    );
    let to_move = position.to_move();
    for iteration in watched {
        let _ = writeln!(s);
        iteration_text(&mut s, iteration, to_move);
    }
    s
}

/// Who moved into the node at `depth` on the walk (the root: the side not to move there).
fn mover(to_move: Mark, depth: usize) -> Mark {
    if depth % 2 == 1 {
        to_move
    } else {
        to_move.other()
    }
}

/// `X 55`, or `root` at depth 0.
fn name(w: &Walked<Move>, to_move: Mark, depth: usize) -> String {
    match w.mv {
        Some(mv) => format!("{} {mv}", mover(to_move, depth).symbol()),
        None => "root".to_string(),
    }
}

/// `1 move`, `9 moves`.
fn moves(n: usize) -> String {
    if n == 1 {
        "1 move".to_string()
    } else {
        format!("{n} moves")
    }
}

/// A win rate from half-points, to three decimals; `-` before any visit.
fn rate(score: u32, visits: u32) -> String {
    if visits == 0 {
        "-".to_string()
    } else {
        format!("{:.3}", f64::from(score) / f64::from(2 * visits))
    }
}

/// One iteration: its selection, expansion, playout and backup.
fn iteration_text(s: &mut String, it: &Iteration<Move>, to_move: Mark) {
    let _ = writeln!(s, "iteration {}", it.number);
    let _ = writeln!(s, "  selection:");
    for (depth, w) in it.walk.iter().enumerate() {
        if w.choices.is_empty() {
            continue;
        }
        let _ = writeln!(
            s,
            "    at {} ({} visits), {} chooses among {}:",
            name(w, to_move, depth),
            w.before.0,
            mover(to_move, depth + 1).symbol(),
            moves(w.choices.len())
        );
        choices_text(s, &w.choices, mover(to_move, depth + 1));
    }
    expansion_and_playout_text(s, it, to_move);
    let _ = writeln!(s, "  backup (visits, win rate before → after):");
    for (depth, w) in it.walk.iter().enumerate() {
        let _ = writeln!(
            s,
            "    {:<6} {} {} → {} {}",
            name(w, to_move, depth),
            w.before.0,
            rate(w.before.1, w.before.0),
            w.after.0,
            rate(w.after.1, w.after.0)
        );
    }
}

/// The node the iteration expanded (or why none), then its random game and the result.
fn expansion_and_playout_text(s: &mut String, it: &Iteration<Move>, to_move: Mark) {
    let (depth, last) = it.walk.iter().enumerate().next_back().expect("a walk");
    let _ = match it.walk.iter().enumerate().find(|(_, w)| w.expanded) {
        Some((d, w)) => writeln!(
            s,
            "  expansion: {}, reached again after {} visits: its {} added",
            name(w, to_move, d),
            w.before.0,
            moves(w.children)
        ),
        None if matches!(it.ending, Ending::Proven(_)) => {
            writeln!(
                s,
                "  expansion: none ({} is proven)",
                name(last, to_move, depth)
            )
        }
        None => writeln!(
            s,
            "  expansion: none ({} is new: its moves are added when a walk reaches it again)",
            name(last, to_move, depth)
        ),
    };
    // The root's mover gets 2 half-points for a win, 1 for a draw.
    let result = match it.walk[0].after.1 - it.walk[0].before.1 {
        2 => format!("{} wins", to_move.other().symbol()),
        1 => "draw".to_string(),
        _ => format!("{} wins", to_move.symbol()),
    };
    let from = name(last, to_move, depth);
    let _ = match &it.ending {
        Ending::Proven(p) => writeln!(
            s,
            "  playout: none, {from} is {} for {}: {result}",
            proven_text(*p),
            mover(to_move, depth).symbol()
        ),
        Ending::Playout(Some(moves)) => {
            let line: Vec<String> = moves.iter().map(ToString::to_string).collect();
            writeln!(
                s,
                "  playout from {from}, {}: {} → {result}",
                self::moves(moves.len()),
                line.join(" ")
            )
        }
        Ending::Playout(None) => writeln!(s, "  playout from {from}: {result}"),
    };
}

/// `a proven win in 3`, `a proven draw`.
fn proven_text(p: Proven) -> String {
    match p {
        Proven::Win(n) => format!("a proven win in {n}"),
        Proven::Loss(n) => format!("a proven loss in {n}"),
        Proven::Draw => "a proven draw".to_string(),
    }
}

/// The move taken and the best scored of the others, then how many more.
fn choices_text(s: &mut String, choices: &[Candidate<Move>], by: Mark) {
    let mut order: Vec<&Candidate<Move>> = choices.iter().collect();
    // Taken at once first, then by UCB1, skipped last; ties keep the tree's order.
    order.sort_by(|a, b| rank(b).total_cmp(&rank(a)));
    let mut shown = 0;
    for c in &order {
        if shown < RIVALS || c.chosen {
            let _ = writeln!(s, "      {}", candidate(c, by));
            shown += 1;
        }
    }
    if order.len() > shown {
        let _ = writeln!(s, "      ({} more, scored no higher)", order.len() - shown);
    }
}

/// A candidate's place in the order the search prefers them.
fn rank(c: &Candidate<Move>) -> f32 {
    match c.ucb {
        Score::Untried | Score::ProvenWin => f32::INFINITY,
        Score::Ucb { .. } => c.ucb.ucb().unwrap_or(0.0),
        Score::Skipped => f32::NEG_INFINITY,
    }
}

/// One move of a choice: its score, its visits, and whether it was taken.
fn candidate(c: &Candidate<Move>, by: Mark) -> String {
    let score = match c.ucb {
        // A proven draw below the root is scored at its value, ½.
        Score::Ucb { rate, exploration } => format!(
            "UCB {rate:.3} + {exploration:.3} = {:.3}{}",
            rate + exploration,
            c.proven
                .map_or_else(String::new, |p| format!(" ({})", proven_text(p)))
        ),
        Score::Untried => "never visited: taken at once".to_string(),
        Score::ProvenWin => "proven win: taken at once".to_string(),
        Score::Skipped => format!(
            "{}: skipped",
            c.proven.map_or_else(String::new, proven_text)
        ),
    };
    let chosen = if c.chosen { "  ← chosen" } else { "" };
    format!(
        "{} {}  {}  ({} visits){chosen}",
        by.symbol(),
        c.mv,
        score,
        c.visits
    )
}
