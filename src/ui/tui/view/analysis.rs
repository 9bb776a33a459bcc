//! What surrounds the analysis board: its title and where it is in the tree, the hand and the
//! side to move, the engine's lines with their values and its work, and the board's keys.

use std::fmt::Write as _;

use super::Placed;
use super::chrome::{analysis_help, draw_help, draw_rules, wrap};
use super::frame::{Frame, Palette, Style};
use crate::ai::player::Line;
use crate::report::analyze;
use crate::ui::tui::app::{Analysis, App, Hand};

/// The keys on the line under the board.
const KEYS: &str = "z stones · Tab colour · + - lines · [ ] { } moves · w save · ? keys · Esc";

/// The title, the status, the message, the engine's work and the keys around the board
/// drawn as `placed`; the row of the title.
pub(super) fn draw_around(
    frame: &mut Frame,
    app: &App,
    analysis: &Analysis,
    placed: &Placed,
) -> u16 {
    let width = frame.width();
    frame.centred(placed.first_row, &title(analysis), Style::PLAIN.bold());
    let mut row = placed.below;
    frame.centred(row, &status(analysis), Style::PLAIN);
    for line in wrap(app.message(), width) {
        row += 1;
        frame.centred(row, &line, Style::PLAIN.bold());
    }
    row += 1;
    let work = app.analysis_work().unwrap_or_else(|| waiting(analysis));
    frame.centred(row, &work, Style::PLAIN.dim());
    frame.centred(row + 1, KEYS, Style::PLAIN.dim());
    if app.rules_open() {
        draw_rules(frame, analysis.tree().variant());
    } else if app.help_open() {
        let (lines, short) = analysis_help(analysis.position());
        draw_help(frame, &lines, &short);
    }
    placed.first_row
}

/// The lines from row `top` down, one a row, cut to the screen's width: under the board,
/// where the screen has no room beside it ([`App::lines_below`]).
pub(super) fn draw_lines_below(frame: &mut Frame, app: &App, top: u16, palette: Palette) {
    let Some(analysis) = app.analysis() else {
        return;
    };
    for (row, line) in (top..).zip(lines_text(analysis)) {
        let shown: String = line.chars().take(usize::from(frame.width() - 1)).collect();
        frame.text(1, row, &shown, line_style(&line, palette));
    }
}

/// The lines in a panel from column `left`, its title on row `top`, each wrapped to the
/// panel.
pub(super) fn draw_lines_beside(
    frame: &mut Frame,
    app: &App,
    left: u16,
    top: u16,
    palette: Palette,
) {
    let Some(analysis) = app.analysis() else {
        return;
    };
    frame.text(left + 1, top, "Lines", Style::PLAIN.bold());
    let width = frame.width().saturating_sub(left + 2).max(10);
    let mut row = top + 2;
    for line in lines_text(analysis) {
        let style = line_style(&line, palette);
        for part in wrap(&line, width) {
            frame.text(left + 1, row, &part, style);
            row += 1;
        }
    }
}

/// `Analysis · Gomoku 15×15 · move 12 · variation 2 of 3`.
fn title(analysis: &Analysis) -> String {
    let tree = analysis.tree();
    let mut title = match analysis.puzzle() {
        Some(puzzle) => format!("Puzzle {} · {}", puzzle.number, tree.variant()),
        None => format!("Analysis · {}", tree.variant()),
    };
    let moves = tree.moves_to(analysis.at()).len();
    if moves > 0 {
        let _ = write!(title, " · move {moves}");
    }
    // The variation the board is in: the nearest branch above it.
    let mut at = analysis.at();
    while let Some(parent) = tree.parent(at) {
        if let Some((n, count)) = tree.place(at).filter(|&(_, count)| count > 1) {
            let _ = write!(title, " · variation {n} of {count}");
            break;
        }
        at = parent;
    }
    title
}

/// `X to move · keys play moves`, or the hand of stones.
fn status(analysis: &Analysis) -> String {
    let position = analysis.position();
    let turn = if position.is_over() {
        match position.outcome() {
            crate::rules::Outcome::Won(mark) => format!("{mark} has won here"),
            _ => "A draw here".to_string(),
        }
    } else {
        let place = position
            .whereabouts()
            .map(|w| format!(" {w}"))
            .unwrap_or_default();
        format!("{} to move{place}", position.to_move())
    };
    let hand = match analysis.hand() {
        Hand::Moves => "keys play moves".to_string(),
        Hand::SetUp => match analysis.colour() {
            Some(mark) => format!("setting up {mark}'s stones"),
            None => format!("setting up: keys put {}'s stone down", position.to_move()),
        },
    };
    match analysis.waiting_words() {
        Some(waits) => format!("{waits} · {hand}"),
        None => format!("{turn} · {hand}"),
    }
}

/// What the engine line says before any lines came.
fn waiting(analysis: &Analysis) -> String {
    match analysis.puzzle() {
        Some(puzzle) if puzzle.verdict.is_none() => match puzzle.answer {
            Some(mv) => format!("Checking {mv}…"),
            None => format!("{}: the engine waits for your move", puzzle.question),
        },
        _ if !analysis.waiting().is_empty() => {
            "The engine waits for a position a game reaches".into()
        }
        _ if analysis.position().is_over() => "The game is over here: [ goes back".into(),
        _ => "Thinking…".into(),
    }
}

/// Each line in words: `1. X wins in 5: e5 d4 c3 …` (the value alone where no line is
/// asked for).
fn lines_text(analysis: &Analysis) -> Vec<String> {
    let Some(thought) = analysis.thought() else {
        return Vec::new();
    };
    if analysis.count() == 0 {
        return thought
            .lines
            .first()
            .map(|line| format!("value: {}", said(analysis, line)))
            .into_iter()
            .collect();
    }
    thought
        .lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let moves: Vec<String> = line.moves.iter().map(ToString::to_string).collect();
            format!("{}. {}: {}", i + 1, said(analysis, line), moves.join(" "))
        })
        .collect()
}

/// A line's value for people: `X wins in 5` (`by fours` where Gomoku's victory is one),
/// `draw`, an estimate.
fn said(analysis: &Analysis, line: &Line) -> String {
    use crate::ai::search::Value;
    let mover = analysis.position().to_move();
    let gomoku = analysis.position().gomoku().is_some();
    // Gomoku's proven wins are found by threats; by fours where each of the winner's moves
    // makes one.
    let how = |winner| match gomoku {
        true if fours(analysis, line, winner) => " by fours",
        true => " by threats",
        false => "",
    };
    match line.value {
        Value::Win(n) => format!("{mover} wins{} in {n}", how(mover)),
        Value::Loss(n) => format!("{} wins{} in {n}", mover.other(), how(mover.other())),
        Value::WinRate(_) => format!("{mover} {}", analyze::words(line.value)),
        value => analyze::words(value),
    }
}

/// Whether every move of `winner` in a won line makes four (or five): a victory by fours.
fn fours(analysis: &Analysis, line: &Line, winner: crate::rules::classic::Mark) -> bool {
    let mut position = *analysis.position();
    let mover = winner;
    for &mv in &line.moves {
        let by_winner = position.to_move() == mover;
        if position.play(mv).is_err() {
            return false;
        }
        let Some(board) = position.gomoku() else {
            return false;
        };
        if by_winner && !board.is_over() && !board.threatens(mover) {
            return false;
        }
    }
    position.is_over()
}

/// A line's colour: the winner's where it is a proven win, plain otherwise.
fn line_style(line: &str, palette: Palette) -> Style {
    use crate::rules::classic::Mark;
    let mark = [Mark::X, Mark::O]
        .into_iter()
        .find(|m| line.contains(&format!("{m} wins")));
    match mark {
        Some(mark) => Style::PLAIN.fg(palette.mark(mark)),
        None => Style::PLAIN,
    }
}
