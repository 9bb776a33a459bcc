//! Proven bounds: where a side can mirror under misère rules, the search reports the position
//! as proven at least a draw for that side (at most a draw for the other) although it cannot
//! finish in time. Checked through the binary (`analyze`, `review`, JSON) and, on small boards,
//! against the naive solver that looks at every continuation.

mod common;
mod pipe;

use std::collections::HashMap;
use std::time::Duration;

use pipe::{run, text};
use tictactoe::ai::search::{Meter, Searcher, Value, pairing};
use tictactoe::rules::classic::{Board, Mark, Rules};

fn empty(n: usize) -> String {
    vec![".".repeat(n); n].join("/")
}

/// `analyze --best --misere` of the empty `n`×`n` board with a short budget: the first line
/// of the report.
fn best_line(n: usize) -> String {
    let out = run(
        &["analyze", "--misere", "--think", "100", "--best", &empty(n)],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    text(&out.stdout)
        .lines()
        .nth(1)
        .unwrap_or_default()
        .to_string()
}

#[test]
fn empty_misere_boards_are_proven_at_least_a_draw_for_the_side_that_mirrors() {
    // Odd boards: X takes the centre and mirrors; even boards: O mirrors from the start, so
    // X to move is at most a draw.
    assert_eq!(best_line(5), "  X to move: at least a draw, best move c3");
    assert!(
        best_line(6).starts_with("  X to move: at most a draw, best move "),
        "{}",
        best_line(6)
    );
    assert_eq!(best_line(7), "  X to move: at least a draw, best move d4");
}

#[test]
fn the_centre_alone_is_proven_not_to_lose_on_an_odd_misere_board() {
    let out = run(&["analyze", "--misere", "--think", "200", &empty(5)], b"");
    let stdout = text(&out.stdout);
    let bounds: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("at least a draw") || l.contains("at most a draw"))
        .collect();
    assert!(bounds.contains(&"  c3: at least a draw"), "{stdout}");
    // The head line and the centre's line; every other first move is only an estimate.
    assert_eq!(bounds.len(), 2, "{stdout}");
}

#[test]
fn no_bound_is_reported_where_no_side_can_mirror() {
    // 7×7 with four: no line through the centre holds a pair of mirror cells.
    let out = run(
        &[
            "analyze",
            "--misere",
            "--k",
            "4",
            "--think",
            "100",
            &empty(7),
        ],
        b"",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert!(stdout.contains("X to move: estimate"), "{stdout}");
    assert!(!stdout.contains("at least"), "{stdout}");
    assert!(!stdout.contains("at most"), "{stdout}");
}

#[test]
fn only_the_reply_that_hands_over_the_mirror_is_bounded() {
    // X opened a1 away from the centre, so nobody mirrors yet; O's reply e5 (a1's image) lets
    // X take the centre and hold the mirror, so that reply alone is at most a draw for O.
    let board = "...../...../...../...../X....";
    let out = run(&["analyze", "--misere", "--think", "300", board], b"");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("O to move: estimate"), "{stdout}");
    let bounded: Vec<&str> = stdout
        .lines()
        .filter(|l| l.contains("at least") || l.contains("at most"))
        .collect();
    assert_eq!(bounded, ["  e5: at most a draw"], "{stdout}");
}

#[test]
fn a_bound_in_json_is_proven_and_keeps_its_estimate() {
    let out = run(
        &["analyze", "--misere", "--think", "100", "--json", &empty(5)],
        b"",
    );
    let stdout = text(&out.stdout);
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON object");
    let value = &report["value"];
    assert_eq!(value["value"], "at least a draw", "{stdout}");
    assert_eq!(value["result"], "at_least_draw");
    assert_eq!(value["proven"], true);
    assert_eq!(value["plies"], serde_json::Value::Null);
    assert!(
        value["estimate"].as_i64().is_some_and(|e| e >= 0),
        "{stdout}"
    );
    assert_eq!(report["best_move"], "c3");
    let centre = report["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["cell"] == "c3")
        .unwrap();
    assert_eq!(centre["result"], "at_least_draw", "{stdout}");
    // Written back, the object reads the same.
    let again: serde_json::Value = serde_json::from_str(&report.to_string()).unwrap();
    assert_eq!(again, report);
}

#[test]
fn review_calls_leaving_the_mirror_for_a_loss_a_blunder() {
    // 6×6 misère: O answers X's f6, e6, d6, c6 with their images a1, b1, c1, d1, then leaves
    // the mirror (X's a3 asks for f4) by completing a1-e1 itself.
    let moves = ["f6", "a1", "e6", "b1", "d6", "c1", "c6", "d1", "a3", "e1"];
    let mut args = vec!["review", "--size", "6", "--misere", "--think", "100"];
    args.extend(moves);
    let out = run(&args, b"");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let last = stdout.lines().nth(9).unwrap();
    assert!(
        last.starts_with("10. O e1  blunder    at least a draw → loss in 1; best f4"),
        "{stdout}"
    );
    // O's mirror answers are proven not to lose.
    let second = stdout.lines().nth(1).unwrap();
    assert!(second.contains("→ at least a draw"), "{stdout}");
}

/// Checks every bound the search reports on `board` (for the position and for each move,
/// searched with no budget) against the naive solver; returns how many it checked.
fn bounds_hold(board: &Board, budget: Duration, memo: &mut HashMap<Board, Value>) -> usize {
    let mut searcher = Searcher::new();
    searcher.set_meter(Meter::Work);
    let head = searcher.think(board, Some(budget)).unwrap().value;
    let mut values = vec![(None, head)];
    for (cell, value) in searcher.analyze_within(board, budget) {
        values.push((Some(cell), value));
    }
    let mut checked = 0;
    for (cell, value) in values {
        if !value.is_bound() {
            continue;
        }
        let truth = match cell {
            None => common::naive_position(board, memo),
            Some(c) => common::naive_move(board, c, memo),
        };
        let score = common::naive_score(truth);
        match value {
            Value::AtLeastDraw(_) => assert!(score >= 0, "{board} {cell:?}: {value}, {truth}"),
            _ => assert!(score <= 0, "{board} {cell:?}: {value}, {truth}"),
        }
        checked += 1;
    }
    checked
}

#[test]
fn every_bound_the_search_reports_holds_under_perfect_play() {
    let mut rng = fastrand::Rng::with_seed(31);
    let mut checked = 0;
    for (n, k, mirrorer, empties) in [
        (4, 4, Mark::O, 11),
        (4, 4, Mark::O, 12),
        (5, 4, Mark::X, 12),
        (5, 4, Mark::X, 13),
        (6, 5, Mark::O, 12),
        (3, 3, Mark::X, 8),
    ] {
        let rules = Rules::new(n, k, true).unwrap();
        let mut memo = HashMap::new();
        for _ in 0..6 {
            if let Some(board) = common::mirrored_position(rules, mirrorer, empties, &mut rng) {
                checked += bounds_hold(&board, Duration::ZERO, &mut memo);
            }
        }
    }
    assert!(checked >= 100, "only {checked} bounds to check");
}

#[test]
fn bounds_on_random_misere_positions_hold_under_perfect_play_too() {
    // Random positions, where a mirror applies only by chance; searched with no budget and
    // with a little (so that some searches to the end are cut off after proving a move).
    let mut rng = fastrand::Rng::with_seed(37);
    let mut checked = 0;
    for (n, k, marks) in [(4, 4, 5), (5, 4, 13), (6, 5, 23)] {
        let rules = Rules::new(n, k, true).unwrap();
        let mut memo = HashMap::new();
        for _ in 0..8 {
            let board = common::random_position(rules, marks, &mut rng);
            for budget in [Duration::ZERO, Duration::from_micros(200)] {
                checked += bounds_hold(&board, budget, &mut memo);
            }
        }
    }
    assert!(checked >= 50, "only {checked} bounds to check");
}

#[test]
fn a_pairing_the_other_side_holds_bounds_the_side_to_move_at_most_a_draw() {
    let mut rng = fastrand::Rng::with_seed(41);
    let mut bounded = 0;
    for (n, k, misere, marks) in [(5, 4, true, 8), (6, 5, true, 12), (7, 5, false, 10)] {
        let rules = Rules::new(n, k, misere).unwrap();
        for _ in 0..20 {
            let board = common::random_position(rules, marks, &mut rng);
            if tictactoe::ai::search::pairing(&board, board.to_move().other()).is_none() {
                continue;
            }
            let mut searcher = Searcher::new();
            searcher.set_meter(Meter::Work);
            let value = searcher.think(&board, Some(Duration::ZERO)).unwrap().value;
            assert!(
                value <= Value::AtMostDraw(0) || value == Value::Draw,
                "{board}: {value}"
            );
            bounded += usize::from(value.is_bound());
        }
    }
    assert!(
        bounded >= 5,
        "only {bounded} positions bounded by a pairing"
    );
}

#[test]
fn a_pairing_the_side_to_move_holds_or_takes_bounds_it_at_least_a_draw() {
    // With no budget the search is cut off at once on 7×7; where the side to move holds a
    // pairing or can take one with its move, the value is at least a draw, and the proven
    // search agrees that the move played does not lose.
    let mut rng = fastrand::Rng::with_seed(43);
    let rules = Rules::new(7, 5, false).unwrap();
    let mut paired = 0;
    for _ in 0..40 {
        let board = common::random_position(rules, 14, &mut rng);
        let mover = board.to_move();
        let takes = |c| pairing(&board.with_move(c).unwrap(), mover).is_some();
        if pairing(&board, mover).is_none() && !board.legal_moves().into_iter().any(takes) {
            continue;
        }
        paired += 1;
        let mut searcher = Searcher::new();
        searcher.set_meter(Meter::Work);
        let thought = searcher.think(&board, Some(Duration::ZERO)).unwrap();
        assert!(
            matches!(
                thought.value,
                Value::Win(_) | Value::AtLeastDraw(_) | Value::Draw
            ),
            "{board}: {}",
            thought.value
        );
        let truth = Searcher::new().move_value(&board, thought.cell, None);
        assert!(
            truth >= Value::Draw,
            "{board}: {} played as {}, but it is {truth}",
            thought.cell,
            thought.value
        );
    }
    assert!(
        paired >= 5,
        "only {paired} positions with a pairing to keep or take"
    );
}
