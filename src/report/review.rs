//! `tictactoe review`: a game replayed and every move judged by the AI, as text or JSON
//! lines, for every rule set. The plain front end prints the same review after a game.
//!
//! Each move is judged from its mover's side, comparing the best value the position offered
//! (`before`) with the value of the move played (`after`):
//!
//! | label | meaning |
//! | --- | --- |
//! | `best` | the move keeps the best value: the same result, as quick a win or as slow a loss |
//! | `inaccuracy` | the same result as the best move, but a slower win or a quicker loss |
//! | `mistake` | a won position played into a draw |
//! | `blunder` | a won or drawn position played into a loss |
//! | `unproven` | either value is only an estimate (the search ran out of time), so no verdict |
//!
//! An AI that reads positions by win rates (Ultimate's, which is never searched to the end)
//! has its moves judged by how much they lower the mover's win rate (a draw counts half)
//! against its best move: under [`BEST_DROP`] is `best`, under [`INACCURACY_DROP`] an
//! `inaccuracy`, under [`MISTAKE_DROP`] a `mistake`, more a `blunder`. Such a verdict is
//! marked as an estimate unless both values are proven, in which case the table above
//! applies.

use std::fmt::{self, Write as _};
use std::io::{self, Write};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::ai::player::{self, Assessment, Brain};
use crate::ai::search::Value;
use crate::game::record::{Record, RecordError};
use crate::report::json::JsonValue;
use crate::rules::classic::Mark;
use crate::rules::position::{Move, Position, Variant};

/// An Ultimate move that lowers the win rate by less than this is `best`.
pub const BEST_DROP: f32 = 0.03;
/// By less than this (and at least [`BEST_DROP`]), an `inaccuracy`.
pub const INACCURACY_DROP: f32 = 0.10;
/// By less than this (and at least [`INACCURACY_DROP`]), a `mistake`; more is a `blunder`.
pub const MISTAKE_DROP: f32 = 0.25;

/// The verdict on one move, from its mover's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Label {
    /// Keeps the best value available.
    Best,
    /// Keeps the result, but wins more slowly or loses more quickly than the best move.
    Inaccuracy,
    /// Turns a won position into a draw.
    Mistake,
    /// Turns a won or drawn position into a loss.
    Blunder,
    /// The value before or after the move is only an estimate: no verdict. Shown as
    /// `unproven`.
    Unproven,
}

impl Label {
    /// Every label, best first.
    pub const ALL: [Label; 5] = [
        Label::Best,
        Label::Inaccuracy,
        Label::Mistake,
        Label::Blunder,
        Label::Unproven,
    ];

    /// The label for a move worth `after` where the best move was worth `before`, both from the
    /// mover's side.
    pub fn of(before: Value, after: Value) -> Label {
        if before.is_bound() || after.is_bound() {
            return Label::of_bounds(before, after);
        }
        if !before.is_proven() || !after.is_proven() {
            return Label::Unproven;
        }
        if after >= before {
            return Label::Best;
        }
        match (before, after) {
            (Value::Win(_), Value::Win(_)) | (Value::Loss(_), Value::Loss(_)) => Label::Inaccuracy,
            (Value::Win(_), Value::Draw) => Label::Mistake,
            _ => Label::Blunder,
        }
    }

    /// [`Label::of`] where either value is a proven bound (at least or at most a draw): the
    /// verdict the bounds prove, else [`Label::Unproven`]. A move proven at least as good as
    /// anything the position offered is `best`; a move proven to lose where a draw or better
    /// was proven is a `blunder`; a move proven at most a draw where a win was proven, a
    /// `mistake` when it is a draw and a `blunder` when it loses, so unknown.
    fn of_bounds(before: Value, after: Value) -> Label {
        let (Some((before_low, before_high)), Some((after_low, after_high))) =
            (before.proven_range(), after.proven_range())
        else {
            return Label::Unproven;
        };
        if after_low >= before_high {
            Label::Best
        } else if after_high < 0 && before_low >= 0 {
            Label::Blunder
        } else {
            Label::Unproven
        }
    }

    /// The label of a move the AI judged: by [`Label::of`] when both values are proven or
    /// either is a heuristic score, else by the win rate it cost (see the module docs).
    pub fn of_verdict(verdict: &Assessment) -> Label {
        let (Some(before), Some(after)) = (verdict.before.rate(), verdict.after.rate()) else {
            return Label::of(verdict.before, verdict.after);
        };
        if verdict.before.is_proven() && verdict.after.is_proven() {
            return Label::of(verdict.before, verdict.after);
        }
        match (before - after).max(0.0) {
            c if c < BEST_DROP => Label::Best,
            c if c < INACCURACY_DROP => Label::Inaccuracy,
            c if c < MISTAKE_DROP => Label::Mistake,
            _ => Label::Blunder,
        }
    }

    /// The word used in the text report and in JSON.
    pub const fn word(self) -> &'static str {
        match self {
            Label::Best => "best",
            Label::Inaccuracy => "inaccuracy",
            Label::Mistake => "mistake",
            Label::Blunder => "blunder",
            Label::Unproven => "unproven",
        }
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.word())
    }
}

/// One move of a game, judged. The board before the move is the record's position `number - 1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Judgement {
    /// The move's number, from 1.
    pub number: usize,
    pub mark: Mark,
    pub mv: Move,
    pub label: Label,
    /// Whether the AI reads values as win rates (Ultimate's does).
    pub rates: bool,
    /// Whether the label rests on estimated win rates (unless both values are proven).
    /// Heuristic estimates are labelled [`Label::Unproven`] instead.
    pub estimated: bool,
    /// The best value available to the mover.
    pub before: Value,
    /// The value of the move played, from the mover's side.
    pub after: Value,
    /// A best move, given when the move played was not best (for an unproven move, the
    /// search's choice when it differs from the move played).
    pub best: Option<Move>,
}

/// Judges `mv` played in `position` as move `number` with `brain`, within its thinking
/// budget for the position (and again for the move when it is not the AI's choice). `None`
/// if the search was cancelled.
///
/// # Panics
/// If `mv` is not legal in `position`.
pub fn judge(brain: &mut Brain, position: &Position, mv: Move, number: usize) -> Option<Judgement> {
    let verdict = brain.judge(position, mv)?;
    let label = Label::of_verdict(&verdict);
    let (before, after) = (verdict.before, verdict.after);
    let proven = before.is_proven() && after.is_proven();
    Some(Judgement {
        number,
        mark: position.to_move(),
        mv,
        label,
        rates: player::rates(position.variant()),
        estimated: !proven && before.rate().is_some() && after.rate().is_some(),
        before,
        after,
        best: (label != Label::Best && verdict.best != mv).then_some(verdict.best),
    })
}

/// Judges every move of `record` with `brain` (see [`judge`]), calling `progress` with (the
/// move's judgement, moves in all) after each one, in order. `None` if the search was cancelled.
pub fn review(
    record: &Record,
    brain: &mut Brain,
    progress: &mut dyn FnMut(&Judgement, usize),
) -> Option<Vec<Judgement>> {
    let total = record.len();
    let mut judgements = Vec::with_capacity(total);
    for (i, (position, &mv)) in record.positions().zip(record.moves()).enumerate() {
        let judgement = judge(brain, &position, mv, i + 1)?;
        progress(&judgement, total);
        judgements.push(judgement);
    }
    Some(judgements)
}

/// How many moves of one player got each label.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub best: usize,
    pub inaccuracy: usize,
    pub mistake: usize,
    pub blunder: usize,
    pub unproven: usize,
}

impl Counts {
    /// The count of one label.
    pub fn of(&self, label: Label) -> usize {
        match label {
            Label::Best => self.best,
            Label::Inaccuracy => self.inaccuracy,
            Label::Mistake => self.mistake,
            Label::Blunder => self.blunder,
            Label::Unproven => self.unproven,
        }
    }

    fn add(&mut self, label: Label) {
        let count = match label {
            Label::Best => &mut self.best,
            Label::Inaccuracy => &mut self.inaccuracy,
            Label::Mistake => &mut self.mistake,
            Label::Blunder => &mut self.blunder,
            Label::Unproven => &mut self.unproven,
        };
        *count += 1;
    }
}

impl fmt::Display for Counts {
    /// `3 best, 1 inaccuracy, 0 mistakes, 1 blunder`, then `, 2 unproven` if any were.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        write!(
            f,
            "{} best, {}, {}, {}",
            self.best,
            plural(self.inaccuracy, "inaccuracy", "inaccuracies"),
            plural(self.mistake, "mistake", "mistakes"),
            plural(self.blunder, "blunder", "blunders"),
        )?;
        if self.unproven > 0 {
            write!(f, ", {} unproven", self.unproven)?;
        }
        Ok(())
    }
}

/// The labels each player's moves got.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    #[serde(rename = "X")]
    pub x: Counts,
    #[serde(rename = "O")]
    pub o: Counts,
}

impl Summary {
    pub fn of(judgements: &[Judgement]) -> Summary {
        let mut summary = Summary::default();
        for j in judgements {
            match j.mark {
                Mark::X => summary.x.add(j.label),
                Mark::O => summary.o.add(j.label),
            }
        }
        summary
    }

    pub fn counts(&self, mark: Mark) -> Counts {
        match mark {
            Mark::X => self.x,
            Mark::O => self.o,
        }
    }
}

impl fmt::Display for Summary {
    /// Two lines, `X: …` and `O: …`, each ending in a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "X: {}", self.x)?;
        writeln!(f, "O: {}", self.o)
    }
}

/// One move in words: `5. X 1  blunder    draw → loss in 2; best 3`. On boards larger than
/// 3×3 the move number is right-aligned to two places; the cell and label are padded so the
/// lines of one game align.
pub fn text_line(j: &Judgement) -> String {
    let name = j.mv.to_string();
    // Numpad digits are one character; coordinates and Ultimate's moves two.
    let width = name.chars().count().min(2);
    let mut line = format!(
        "{:>width$}. {} {name:<width$}  {:<10} {} → {}",
        j.number, j.mark, j.label, j.before, j.after,
    );
    if j.estimated {
        line.push_str(" (estimated)");
    }
    if let Some(best) = j.best {
        let _ = write!(line, "; best {best}");
    }
    line
}

/// The text review: a line per move, then the summary.
pub fn write_text(out: &mut dyn Write, judgements: &[Judgement]) -> io::Result<()> {
    for j in judgements {
        writeln!(out, "{}", text_line(j))?;
    }
    write!(out, "{}", Summary::of(judgements))
}

/// One move as a JSON object on one line: `number`, `mark`, `cell`, `label`, where the AI reads
/// values as win rates `estimated`, `before` and `after` (each as `analyze --json` writes
/// values) and `best` (a move, or null).
pub fn json_line(j: &Judgement) -> String {
    #[derive(Serialize)]
    struct Line {
        number: usize,
        mark: String,
        cell: String,
        label: Label,
        #[serde(skip_serializing_if = "Option::is_none")]
        estimated: Option<bool>,
        before: JsonValue,
        after: JsonValue,
        best: Option<String>,
    }
    let line = Line {
        number: j.number,
        mark: j.mark.to_string(),
        cell: j.mv.to_string(),
        label: j.label,
        estimated: j.rates.then_some(j.estimated),
        before: JsonValue::new(j.before, j.rates),
        after: JsonValue::new(j.after, j.rates),
        best: j.best.map(|c| c.to_string()),
    };
    serde_json::to_string(&line).expect("a judgement serializes")
}

/// The summary as one JSON object: `{"summary":{"X":{"best":…,"inaccuracy":…,"mistake":…,
/// "blunder":…,"unproven":…},"O":{…}}}`.
pub fn summary_json(summary: &Summary) -> String {
    #[derive(Serialize)]
    struct Line<'a> {
        summary: &'a Summary,
    }
    serde_json::to_string(&Line { summary }).expect("a summary serializes")
}

/// The JSON review: a line per move, then the summary's line.
pub fn write_json(out: &mut dyn Write, judgements: &[Judgement]) -> io::Result<()> {
    for j in judgements {
        writeln!(out, "{}", json_line(j))?;
    }
    writeln!(out, "{}", summary_json(&Summary::of(judgements)))
}

/// How `review` reads its record and searches its moves.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub variant: Variant,
    /// Search time for each position, and again for the move played when it is not the
    /// search's choice.
    pub budget: Duration,
    pub json: bool,
    pub table_mb: usize,
    /// Threads for each search (see [`Brain::with_threads`]).
    pub threads: usize,
    /// Show progress on `err` once the review has taken this long (`None`: never; a front end
    /// passes `None` when `err` is not a terminal).
    pub progress_after: Option<Duration>,
}

/// Reviews the game whose moves are `moves` under the rules of `options`, writing the review
/// to `out`. A bad record (a move that is not a cell, is taken or follows the end of the
/// game) is refused whole: its message goes to `err` (and, with `json`,
/// an error object to `out`). Returns the exit status: 0, or 2 for a bad record.
pub fn run(
    moves: &[String],
    options: Options,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let record = match Record::parse(options.variant, moves) {
        Ok(record) => record,
        Err(e) => return refuse(&options, &e, out, err),
    };
    let mut progress = Progress::new(err, options.progress_after);
    let mut show = |judged: &Judgement, total| progress.show(judged.number, total);
    let mut brain = Brain::new(None)
        .with_table_mb(options.table_mb)
        .with_think(options.budget)
        .with_threads(options.threads);
    let judgements = review(&record, &mut brain, &mut show).expect("no cancel flag is set");
    progress.clear();
    if options.json {
        write_json(out, &judgements)?;
    } else {
        write_text(out, &judgements)?;
    }
    Ok(0)
}

/// Reports a bad record, refused at `error`'s move.
fn refuse(
    options: &Options,
    error: &RecordError,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> io::Result<u8> {
    let why = error.to_string();
    writeln!(err, "tictactoe: {why}")?;
    if options.json {
        #[derive(Serialize)]
        struct Line<'a> {
            #[serde(rename = "move")]
            number: usize,
            text: &'a str,
            error: &'a str,
        }
        let line = Line {
            number: error.number,
            text: &error.text,
            error: &why,
        };
        let line = serde_json::to_string(&line).expect("an error serializes");
        writeln!(out, "{line}")?;
    }
    Ok(2)
}

/// A progress line, `Reviewing: move 7 of 20…`, rewritten in place with `\r` once the review
/// has taken `after`, and cleared at the end. Writing it is best effort.
struct Progress<'a> {
    err: &'a mut dyn Write,
    start: Instant,
    after: Option<Duration>,
    width: usize,
}

impl<'a> Progress<'a> {
    fn new(err: &'a mut dyn Write, after: Option<Duration>) -> Progress<'a> {
        Progress {
            err,
            start: Instant::now(),
            after,
            width: 0,
        }
    }

    fn show(&mut self, done: usize, total: usize) {
        let due = self.after.is_some_and(|a| self.start.elapsed() >= a);
        if !due || done >= total {
            return;
        }
        let text = format!("Reviewing: move {} of {total}…", done + 1);
        let _ = write!(self.err, "\r{text}");
        let _ = self.err.flush();
        self.width = self.width.max(text.chars().count());
    }

    fn clear(&mut self) {
        if self.width > 0 {
            let _ = write!(self.err, "\r{}\r", " ".repeat(self.width));
            let _ = self.err.flush();
            self.width = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(json: bool, progress_after: Option<Duration>) -> Options {
        Options {
            variant: Variant::default(),
            budget: Duration::from_secs(5),
            json,
            table_mb: 1,
            threads: 1,
            progress_after,
        }
    }

    fn run_text(moves: &[&str], options: Options) -> (u8, String, String) {
        let moves: Vec<String> = moves.iter().map(ToString::to_string).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let status = run(&moves, options, &mut out, &mut err).unwrap();
        let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
        (status, text(out), text(err))
    }

    #[test]
    fn proven_bounds_give_a_label_only_where_they_settle_it() {
        use Value::{AtLeastDraw, AtMostDraw, Draw, Estimate, Loss, Win};
        assert_eq!(Label::of(AtLeastDraw(3), Loss(1)), Label::Blunder);
        assert_eq!(Label::of(AtLeastDraw(0), AtMostDraw(0)), Label::Unproven);
        assert_eq!(Label::of(AtLeastDraw(2), AtLeastDraw(2)), Label::Unproven);
        assert_eq!(Label::of(AtLeastDraw(2), Draw), Label::Unproven);
        assert_eq!(Label::of(Draw, AtLeastDraw(0)), Label::Best);
        assert_eq!(Label::of(AtMostDraw(-1), Draw), Label::Best);
        assert_eq!(Label::of(Win(3), AtMostDraw(0)), Label::Unproven);
        assert_eq!(Label::of(AtLeastDraw(0), Estimate(-4)), Label::Unproven);
        assert_eq!(Label::of(Estimate(4), AtLeastDraw(4)), Label::Unproven);
    }

    #[test]
    fn labels_follow_the_result_and_the_distance() {
        use Value::{Draw, Estimate, Loss, Win};
        assert_eq!(Label::of(Win(3), Win(3)), Label::Best);
        assert_eq!(Label::of(Draw, Draw), Label::Best);
        assert_eq!(Label::of(Loss(2), Loss(2)), Label::Best);
        assert_eq!(Label::of(Win(3), Win(5)), Label::Inaccuracy);
        assert_eq!(Label::of(Loss(4), Loss(2)), Label::Inaccuracy);
        assert_eq!(Label::of(Win(3), Draw), Label::Mistake);
        assert_eq!(Label::of(Win(3), Loss(2)), Label::Blunder);
        assert_eq!(Label::of(Draw, Loss(8)), Label::Blunder);
        assert_eq!(Label::of(Estimate(5), Estimate(5)), Label::Unproven);
        assert_eq!(Label::of(Win(3), Estimate(5)), Label::Unproven);
        assert_eq!(Label::of(Estimate(5), Loss(2)), Label::Unproven);
        let words: Vec<String> = Label::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(
            words,
            ["best", "inaccuracy", "mistake", "blunder", "unproven"]
        );
    }

    #[test]
    fn a_blunder_names_the_best_move() {
        let record = Record::parse(Variant::default(), &["5", "9", "4", "6", "1"]).unwrap();
        let mut brain = Brain::new(None).with_think(Duration::from_secs(5));
        let judgements = review(&record, &mut brain, &mut |_, _| {}).unwrap();
        let lines: Vec<String> = judgements.iter().map(text_line).collect();
        assert_eq!(lines[0], "1. X 5  best       draw → draw");
        assert_eq!(lines[4], "5. X 1  blunder    draw → loss in 2; best 3");
        let summary = Summary::of(&judgements);
        assert_eq!(summary.counts(Mark::X).of(Label::Blunder), 1);
        assert_eq!(
            summary.o,
            Counts {
                best: 2,
                ..Counts::default()
            }
        );
    }

    #[test]
    fn run_writes_lines_and_a_summary() {
        let (status, out, err) = run_text(&["5", "9", "4", "6", "1"], options(false, None));
        assert_eq!((status, err.as_str()), (0, ""));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 7, "{out}");
        assert_eq!(lines[5], "X: 2 best, 0 inaccuracies, 0 mistakes, 1 blunder");
        assert_eq!(
            lines[6],
            "O: 2 best, 0 inaccuracies, 0 mistakes, 0 blunders"
        );
    }

    #[test]
    fn json_has_a_line_per_move_and_a_summary() {
        let (status, out, _) = run_text(&["5", "9", "4", "6", "1"], options(true, None));
        assert_eq!(status, 0);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(
            lines[4],
            r#"{"number":5,"mark":"X","cell":"1","label":"blunder","before":{"value":"draw","result":"draw","plies":null,"proven":true},"after":{"value":"loss in 2","result":"loss","plies":2,"proven":true},"best":"3"}"#
        );
        assert_eq!(
            lines[5],
            r#"{"summary":{"X":{"best":2,"inaccuracy":0,"mistake":0,"blunder":1,"unproven":0},"O":{"best":2,"inaccuracy":0,"mistake":0,"blunder":0,"unproven":0}}}"#
        );
    }

    #[test]
    fn a_bad_record_is_refused_with_the_move_number() {
        let (status, out, err) = run_text(&["5", "5"], options(true, None));
        assert_eq!(status, 2);
        assert_eq!(err, "tictactoe: move 2 (\"5\"): cell 5 is taken\n");
        assert_eq!(
            out,
            r#"{"move":2,"text":"5","error":"move 2 (\"5\"): cell 5 is taken"}"#.to_string() + "\n"
        );
    }

    #[test]
    fn progress_shows_when_asked_and_is_cleared() {
        let (_, _, err) = run_text(&["5", "9", "4"], options(false, Some(Duration::ZERO)));
        assert!(
            err.starts_with("\rReviewing: move 2 of 3…\rReviewing: move 3 of 3…\r"),
            "{err:?}"
        );
        assert!(err.ends_with(&format!("\r{}\r", " ".repeat(23))), "{err:?}");
        let (_, _, err) = run_text(
            &["5", "9", "4"],
            options(false, Some(Duration::from_mins(1))),
        );
        assert_eq!(err, "");
    }
}
