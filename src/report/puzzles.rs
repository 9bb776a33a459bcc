//! Puzzles from the person's own games (`tictactoe puzzles`): the positions of the history
//! where a side a person played had a proven win and played a move proven not to keep it
//! ("X to play and win in 3"), found once per game and kept ([`crate::store::puzzles`]), then
//! posed, and each answer checked by the search.

use std::fmt::{self, Write as _};

use crate::ai::player::{Brain, Player};
use crate::ai::search::Value;
use crate::game::record::{Record, RecordError};
use crate::report::board;
use crate::rules::gomoku::opening::Stage;
use crate::rules::position::{Move, Position, Variant};
use crate::store::history::Entry;
use crate::store::puzzles::{Kept, Puzzles};

/// The most games searched in one run, the newest first: a long history is searched over
/// several runs.
pub const GAMES_A_RUN: usize = 30;

/// Searches the games of `entries` not searched yet (at most [`GAMES_A_RUN`], the newest
/// first) for missed wins with `brain`, adding each to `kept`; returns how many games were
/// searched. A search cancelled leaves its game unsearched.
pub fn search(entries: &[Entry], kept: &mut Puzzles, brain: &mut Brain) -> usize {
    let fresh: Vec<&Entry> = entries
        .iter()
        .rev()
        .filter(|entry| !kept.searched.contains(&key(entry)))
        .take(GAMES_A_RUN)
        .collect();
    let mut searched = 0;
    let mut new = Vec::new();
    for entry in fresh {
        let Some(found) = missed_wins(entry, brain) else {
            break;
        };
        new.extend(found);
        kept.searched.push(key(entry));
        searched += 1;
    }
    // After the puzzles listed before, so that their numbers stay; in the order played.
    new.sort_by(|a, b| (&a.game, a.number).cmp(&(&b.game, b.number)));
    kept.puzzles.extend(new);
    searched
}

/// How many games of `entries` are not searched yet.
pub fn unsearched(entries: &[Entry], kept: &Puzzles) -> usize {
    entries
        .iter()
        .filter(|entry| !kept.searched.contains(&key(entry)))
        .count()
}

/// What tells a game of the history from every other: when it ended and its record (two
/// games may end in the same second).
fn key(entry: &Entry) -> String {
    format!("{} {}", entry.time, entry.game.record())
}

/// The moves of `entry`'s game, after the position it was set up at, where a person was to
/// move in a position proven won and played a move proven not to win; `None` if a search was
/// cancelled.
fn missed_wins(entry: &Entry, brain: &mut Brain) -> Option<Vec<Kept>> {
    let game = &entry.game;
    let record = game.record();
    let mut found = Vec::new();
    let played = record.positions().zip(record.moves()).enumerate();
    for (i, (position, &mv)) in played.skip(game.setup()) {
        let person = game.player(position.to_move()) == Player::Human;
        if !person || position.stage() != Stage::Play {
            continue;
        }
        let verdict = brain.judge(&position, mv)?;
        let kept_no_win = matches!(
            verdict.after,
            Value::Draw | Value::Loss(_) | Value::AtMostDraw(_)
        );
        if let (Value::Win(plies), true) = (verdict.before, kept_no_win) {
            found.push(Kept {
                game: entry.time.clone(),
                number: i + 1,
                rules: record.variant().flags().join(" "),
                moves: record.moves()[..i]
                    .iter()
                    .map(ToString::to_string)
                    .collect(),
                played: mv.to_string(),
                plies,
                solved: false,
                tries: 0,
            });
        }
    }
    Some(found)
}

/// Why a kept puzzle cannot be set up again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetUpError {
    /// Rules this program does not read.
    Rules(String),
    /// Moves that do not replay.
    Moves(RecordError),
}

impl fmt::Display for SetUpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetUpError::Rules(rules) => write!(f, "the rules '{rules}' are not known here"),
            SetUpError::Moves(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for SetUpError {}

/// The position a puzzle poses, or why it cannot be set up again (rules or moves this
/// program no longer reads).
pub fn position(kept: &Kept) -> Result<Position, SetUpError> {
    let variant =
        Variant::from_flags(&kept.rules).ok_or_else(|| SetUpError::Rules(kept.rules.clone()))?;
    let record = Record::parse(variant, &kept.moves).map_err(SetUpError::Moves)?;
    Ok(record.end())
}

/// What the puzzle asks: `X to play and win in 3`.
pub fn question(kept: &Kept, position: &Position) -> String {
    format!("{} to play and win in {}", position.to_move(), kept.plies)
}

/// The list `tictactoe puzzles` prints: a line a puzzle, then the counts, and how many games
/// are left for a later run (`unsearched`).
pub fn list(puzzles: &Puzzles, unsearched: usize) -> String {
    let mut s = String::new();
    let later = match unsearched {
        0 => String::new(),
        n => {
            format!("{n} more of your games are searched the next time `tictactoe puzzles` runs.\n")
        }
    };
    if puzzles.puzzles.is_empty() {
        s.push_str("No puzzles yet: none of your games searched had a win proven and missed.\n");
        s.push_str(&later);
        return s;
    }
    for (i, kept) in puzzles.puzzles.iter().enumerate() {
        let asked = position(kept).map_or_else(|e| e.to_string(), |p| question(kept, &p));
        let rules =
            Variant::from_flags(&kept.rules).map_or_else(|| kept.rules.clone(), |v| v.to_string());
        let day = kept.game.get(..10).unwrap_or(&kept.game);
        let state = match (kept.solved, kept.tries) {
            (true, _) => "solved".to_string(),
            (false, 0) => "unsolved".to_string(),
            (false, n) => format!("unsolved, tried {n}×"),
        };
        let _ = writeln!(
            s,
            "{:>3}. {day}, {rules}, move {}: {asked} · {state}",
            i + 1,
            kept.number
        );
    }
    let (all, solved) = puzzles.counts();
    let noun = if all == 1 { "puzzle" } else { "puzzles" };
    let _ = writeln!(
        s,
        "{all} {noun}, {solved} solved. `tictactoe puzzles N` poses puzzle N."
    );
    s.push_str(&later);
    s
}

/// The board and the question, as a puzzle is posed.
pub fn posed(kept: &Kept, position: &Position) -> String {
    format!(
        "{}{}. (In the game, move {} was {}.)\n",
        board::show(position),
        question(kept, position),
        kept.number,
        kept.played
    )
}

/// The verdict on an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The move keeps the win: `value` is its own.
    Right { value: Value },
    /// The move does not: `value` is its value for the mover; `best` wins.
    Wrong { value: Value, best: Move },
    /// The search could not tell within its time.
    Unknown { value: Value },
}

/// Judges `mv` as the answer to the puzzle at `position` with `brain`; `None` if cancelled.
pub fn judge(brain: &mut Brain, position: &Position, mv: Move) -> Option<Verdict> {
    let verdict = brain.judge(position, mv)?;
    Some(match verdict.after {
        value @ Value::Win(_) => Verdict::Right { value },
        value @ (Value::Draw | Value::Loss(_) | Value::AtMostDraw(_)) => Verdict::Wrong {
            value,
            best: verdict.best,
        },
        value => Verdict::Unknown { value },
    })
}

/// The verdict in words: `Right: 9 wins in 1.`, or `Not this one: after 1, O holds a draw
/// (draw). 9 wins.`
pub fn said(verdict: Verdict, mv: Move, position: &Position) -> String {
    let other = position.to_move().other();
    match verdict {
        Verdict::Right {
            value: Value::Win(n),
        } => format!("Right: {mv} wins (win in {n})."),
        Verdict::Right { value } => format!("Right: {mv} wins ({value})."),
        Verdict::Wrong { value, best } => {
            let then = match value {
                Value::Loss(n) => format!("{other} wins (loss in {n})"),
                Value::Draw => format!("{other} holds a draw"),
                _ => format!("{other} holds at least a draw"),
            };
            format!("Not this one: after {mv}, {then}. {best} wins.")
        }
        Verdict::Unknown { value } => format!(
            "The search could not tell in time whether {mv} wins ({value}): try again with more --think."
        ),
    }
}
