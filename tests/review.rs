//! The review checked against a deliberately naive solver written here, and driven through the
//! binary as a user runs it.

use std::collections::HashMap;
use std::process::{Command, Output};
use std::time::Duration;

use tictactoe::ai::player::Brain;
use tictactoe::ai::search::Value;
use tictactoe::game::record::Record;
use tictactoe::report::review::{Label, Summary, judge, review};
use tictactoe::rules::classic::{Board, Cell, Outcome, Rules};
use tictactoe::rules::position::Move;

mod common;
use common::{naive_move, naive_position};

/// Ample time: every position checked here is small enough to be proven.
const BUDGET: Duration = Duration::from_secs(30);

/// The label the issue describes, written from its words: the same value is best; the same
/// result is an inaccuracy; a win turned into a draw is a mistake; a loss from a win or a
/// draw is a blunder.
fn naive_label(before: Value, after: Value) -> Label {
    let result = |v: Value| match v {
        Value::Win(_) => 1,
        Value::Draw => 0,
        Value::Loss(_) => -1,
        Value::Estimate(_) | Value::WinRate(_) | Value::AtLeastDraw(_) | Value::AtMostDraw(_) => {
            unreachable!("naive values are proven")
        }
    };
    if before == after {
        Label::Best
    } else if result(before) == result(after) {
        Label::Inaccuracy
    } else if result(after) == 0 {
        Label::Mistake
    } else {
        Label::Blunder
    }
}

/// A random game: each move is a random legal move or, with probability `best`, one of the
/// moves the naive solver likes best.
fn random_game(
    rules: Rules,
    start: &[Cell],
    best: f64,
    rng: &mut fastrand::Rng,
    memo: &mut HashMap<Board, Value>,
) -> Vec<Cell> {
    let mut board = Board::new(rules);
    let mut moves = start.to_vec();
    for &cell in start {
        board.play(cell).unwrap();
    }
    while board.outcome() == Outcome::InProgress {
        let legal = board.legal_moves();
        let cell = if rng.f64() < best {
            let value = naive_position(&board, memo);
            let best: Vec<Cell> = legal
                .into_iter()
                .filter(|&c| naive_move(&board, c, memo) == value)
                .collect();
            best[rng.usize(..best.len())]
        } else {
            legal[rng.usize(..legal.len())]
        };
        board.play(cell).unwrap();
        moves.push(cell);
    }
    moves
}

fn classic(cells: &[Cell]) -> Vec<Move> {
    cells.iter().map(|&c| Move::Cell(c)).collect()
}

/// Checks one judgement of `cell` on `board` against the naive solver.
fn check(
    j: &tictactoe::report::review::Judgement,
    board: &Board,
    cell: Cell,
    memo: &mut HashMap<Board, Value>,
) {
    let before = naive_position(board, memo);
    let after = naive_move(board, cell, memo);
    let context = format!("{board} move {} {cell}: {j:?}", j.number);
    assert_eq!(
        (j.mark, j.mv),
        (board.to_move(), Move::Cell(cell)),
        "{context}"
    );
    assert_eq!((j.before, j.after), (before, after), "{context}");
    assert_eq!(j.label, naive_label(before, after), "{context}");
    match j.best {
        None => assert_eq!(j.label, Label::Best, "{context}"),
        Some(best) => {
            let Move::Cell(best) = best else {
                panic!("{context}: not a cell");
            };
            assert_ne!(j.label, Label::Best, "{context}");
            assert_eq!(naive_move(board, best, memo), before, "{context}");
        }
    }
}

#[test]
fn review_agrees_with_naive_minimax_on_random_classic_games() {
    let mut rng = fastrand::Rng::with_seed(12);
    let mut seen: HashMap<Label, usize> = HashMap::new();
    let mut brain = Brain::new(None).with_think(BUDGET);
    for misere in [false, true] {
        let rules = Rules::new(3, 3, misere).unwrap();
        let mut memo = HashMap::new();
        for game in 0..200 {
            let best = f64::from(game % 5) / 4.0;
            let moves = random_game(rules, &[], best, &mut rng, &mut memo);
            let record = Record::new(rules, classic(&moves)).unwrap();
            let mut calls = Vec::new();
            let judgements = review(&record, &mut brain, &mut |judged, total| {
                calls.push((judged.number, total));
            })
            .unwrap();
            let n = moves.len();
            assert_eq!(calls, (1..=n).map(|d| (d, n)).collect::<Vec<_>>());
            assert_eq!(judgements.len(), n);
            for ((j, board), (i, &cell)) in judgements
                .iter()
                .zip(record.positions())
                .zip(moves.iter().enumerate())
            {
                assert_eq!(j.number, i + 1);
                check(j, board.classic().unwrap(), cell, &mut memo);
                *seen.entry(j.label).or_default() += 1;
            }
            let summary = Summary::of(&judgements);
            let total: usize = Label::ALL
                .iter()
                .map(|&l| summary.x.of(l) + summary.o.of(l))
                .sum();
            assert_eq!(total, n);
        }
    }
    for label in [
        Label::Best,
        Label::Inaccuracy,
        Label::Mistake,
        Label::Blunder,
    ] {
        assert!(seen.get(&label) > Some(&10), "{label}: {seen:?}");
    }
    assert_eq!(seen.get(&Label::Unproven), None);
}

#[test]
fn judgements_agree_with_naive_minimax_on_four_by_four_games() {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut brain = Brain::new(None).with_think(BUDGET);
    let mut labels: HashMap<Label, usize> = HashMap::new();
    for (k, games) in [(4, 20), (3, 20)] {
        let rules = Rules::new(4, k, false).unwrap();
        let mut memo = HashMap::new();
        for game in 0..games {
            // Five random marks first: from there the naive solver is quick enough.
            let mut board = Board::new(rules);
            let mut start = Vec::new();
            while start.len() < 5 {
                let legal = board.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let cell = legal[rng.usize(..legal.len())];
                board.play(cell).unwrap();
                start.push(cell);
            }
            let best = if game % 2 == 0 { 0.5 } else { 0.8 };
            let moves = random_game(rules, &start, best, &mut rng, &mut memo);
            let record = Record::new(rules, classic(&moves)).unwrap();
            for (i, (position, &cell)) in record.positions().zip(&moves).enumerate().skip(5) {
                let j = judge(&mut brain, &position, Move::Cell(cell), i + 1).unwrap();
                let board = position.classic().unwrap();
                check(&j, board, cell, &mut memo);
                *labels.entry(j.label).or_default() += 1;
            }
        }
    }
    for label in [
        Label::Best,
        Label::Inaccuracy,
        Label::Mistake,
        Label::Blunder,
    ] {
        assert!(labels.contains_key(&label), "{label}: {labels:?}");
    }
}

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env(
            "TICTACTOE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
        )
        .arg("review")
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn review_prints_a_line_per_move_and_a_summary() {
    let out = run(&["5", "9", "4", "6", "1"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 7, "{stdout}");
    for (line, start) in lines
        .iter()
        .zip(["1. X 5", "2. O 9", "3. X 4", "4. O 6", "5. X 1"])
    {
        assert!(line.starts_with(start), "{line:?} should start {start:?}");
    }
    assert!(lines[4].contains("blunder"), "{stdout}");
    assert!(lines[4].ends_with("draw → loss in 2; best 3"), "{stdout}");
    assert!(lines[5].starts_with("X: 2 best,"), "{stdout}");
    assert!(lines[6].starts_with("O: 2 best,"), "{stdout}");
    assert_eq!(text(&out.stderr), "", "no progress off a terminal");
}

#[test]
fn review_json_prints_an_object_per_move_and_a_summary() {
    let out = run(&["--json", "5", "9", "4", "6", "1"]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 6, "{stdout}");
    assert!(
        lines[0].starts_with(r#"{"number":1,"mark":"X","cell":"5","label":"best","before":{"value":"draw","result":"draw","plies":null,"proven":true},"#),
        "{}",
        lines[0]
    );
    assert!(lines[0].ends_with(r#","best":null}"#), "{}", lines[0]);
    assert!(lines[4].contains(r#""label":"blunder""#), "{}", lines[4]);
    assert!(
        lines[5].starts_with(r#"{"summary":{"X":{"best":2,"#),
        "{}",
        lines[5]
    );
}

#[test]
fn review_reads_coordinates_on_larger_boards() {
    // X fills column a; O plays along column b and never blocks.
    let out = run(&["--size", "4", "a1", "b1", "a2", "b2", "a3", "b3", "a4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 9, "{stdout}");
    assert!(lines[0].starts_with(" 1. X a1"), "{stdout}");
    assert!(lines[6].starts_with(" 7. X a4"), "{stdout}");
    assert!(lines[6].contains("win in 1 → win in 1"), "{stdout}");
    // O's b3 leaves X a win in one: a blunder whatever O had before.
    assert!(lines[5].contains("blunder"), "{stdout}");
    assert!(lines[5].ends_with("; best a4"), "{stdout}");
    let out = run(&["--size", "4", "--k", "3", "--misere", "a1", "d4"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn malformed_records_are_refused_naming_the_move() {
    let bad_rules = run(&["--k", "4", "5"]);
    assert_eq!(bad_rules.status.code(), Some(2));
    let err = text(&bad_rules.stderr);
    assert!(err.contains("4 in a row does not fit a 3×3 board"), "{err}");
    for (args, message) in [
        (&["5", "5"][..], r#"move 2 ("5"): cell 5 is taken"#),
        (&["5", "x"], r#"move 2 ("x"): 'x' is not a cell"#),
        (&["5", "+1"], r#"move 2 ("+1"): '+1' is not a cell"#),
        (
            &["7", "1", "8", "2", "9", "3"],
            r#"move 6 ("3"): the game was already over after move 5"#,
        ),
        (
            &["--size", "5", "10"],
            r#"move 1 ("10"): '10' is not a cell: type a coordinate from a1 to e5"#,
        ),
        (
            &["--size", "4", "a1", "e1"],
            r#"move 2 ("e1"): e1 is not on the board"#,
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with(&format!("tictactoe: {message}")),
            "{args:?}: {stderr}"
        );
        assert_eq!(text(&out.stdout), "", "{args:?}");
    }
    let out = run(&["--json", "5", "5"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stdout),
        "{\"move\":2,\"text\":\"5\",\"error\":\"move 2 (\\\"5\\\"): cell 5 is taken\"}\n"
    );
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(2), "a review needs moves");
}

#[test]
fn review_says_unproven_where_the_search_only_estimates() {
    let out = run(&["--size", "7", "--k", "4", "--think", "20", "d4", "c3"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with(" 1. X d4  unproven   estimate "),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with(" 2. O c3  unproven   estimate "),
        "{stdout}"
    );
    assert!(lines[2].ends_with(", 1 unproven"), "{stdout}");
}

/// Plays a game in the plain front end with `input` piped in; returns its stdout.
fn play_plain(args: &[&str], input: &str) -> String {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env(
            "TICTACTOE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
        )
        .args(["--plain"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stdout));
    text(&out.stdout)
}

/// The arguments of the `Record:` line of a plain game's output.
fn record_of(output: &str) -> Vec<String> {
    let line = output
        .lines()
        .find_map(|l| l.strip_prefix("Record: "))
        .unwrap_or_else(|| panic!("no record line in:\n{output}"));
    line.split_whitespace().map(String::from).collect()
}

#[test]
fn a_plain_game_record_reviews_one_line_per_move() {
    let played = play_plain(&["-o", "human"], "5\n9\n4\n6\n1\n3\n");
    let lines: Vec<&str> = played.lines().collect();
    let result = lines
        .iter()
        .position(|l| *l == "O wins.")
        .expect("a result");
    assert_eq!(
        lines[result + 1],
        "Record: 5 9 4 6 1 3",
        "right after the result"
    );
    let record = record_of(&played);
    let args: Vec<&str> = record.iter().map(String::as_str).collect();
    let out = run(&args);
    assert!(out.status.success());
    let review = text(&out.stdout);
    let moves: Vec<&str> = review.lines().filter(|l| l.contains(" → ")).collect();
    assert_eq!(moves.len(), 6, "{review}");
    for (i, line) in moves.iter().enumerate() {
        let expected = format!("{}. {} {}", i + 1, ["X", "O"][i % 2], record[i]);
        assert!(line.starts_with(&expected), "{line:?} for {expected:?}");
    }
    assert!(moves[4].contains("blunder"), "{}", moves[4]);
}

#[test]
fn a_record_of_a_larger_board_carries_its_rules() {
    let played = play_plain(
        &[
            "--size", "4", "--k", "3", "-x", "easy", "-o", "easy", "--seed", "7",
        ],
        "",
    );
    let record = record_of(&played);
    assert_eq!(record[..4], ["--size", "4", "--k", "3"]);
    let args: Vec<&str> = record.iter().map(String::as_str).collect();
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let moves = text(&out.stdout)
        .lines()
        .filter(|l| l.contains(" → "))
        .count();
    assert_eq!(moves, record.len() - 4);
    // Without its rule flags the record does not replay on the 3×3 board.
    let out = run(&args[4..]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_plain_review_flag_prints_the_review_after_the_game() {
    let played = play_plain(&["-o", "human", "--review"], "5\n9\n4\n6\n1\n3\n");
    let after: Vec<&str> = played
        .lines()
        .skip_while(|l| !l.starts_with("Record: "))
        .collect();
    assert_eq!(after[1], "Review:");
    assert!(after[6].starts_with("5. X 1  blunder"), "{}", after[6]);
    assert!(
        after.iter().any(|l| l.starts_with("X: ")) && after.iter().any(|l| l.starts_with("O: "))
    );
}

#[test]
fn a_psq_file_a_move_string_a_saved_record_and_a_game_file_are_reviewed_and_a_bad_file_names_its_line()
 {
    let dir = std::env::temp_dir().join(format!("tictactoe-review-files-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let psq = dir.join("game.psq");
    std::fs::write(&psq, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,0\n8,9,0\n-1\n").unwrap();
    let record = dir.join("game.txt");
    std::fs::write(&record, "--gomoku h8 i8 h7\n").unwrap();
    let ours = dir.join("ours.txt");
    let header = "tictactoe game\nrules: --gomoku\nx: you\no: level 7 AI\ndate: 2026-11-29\n";
    std::fs::write(&ours, format!("{header}result:\n\n1. h8 i8\n2. h7\n")).unwrap();
    let moves = |out: &Output| -> Vec<String> {
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
            .take(3)
            .collect()
    };
    for args in [
        vec![psq.to_str().unwrap()],
        vec!["h8i8h7"],
        vec![record.to_str().unwrap()],
        vec![ours.to_str().unwrap()],
    ] {
        let mut all = args.clone();
        all.extend(["--think", "20"]);
        let out = run(&all);
        assert!(out.status.success(), "{args:?}: {out:?}");
        assert_eq!(moves(&out), ["h8", "i8", "h7"], "{args:?}: {out:?}");
    }
    let bad = dir.join("bad.psq");
    std::fs::write(&bad, "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n").unwrap();
    let out = run(&[bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("bad.psq: line 3: h8: point h8 is taken"),
        "{err}"
    );
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, format!("{header}\n1. h8 i8\n2. h8\n")).unwrap();
    let out = run(&[bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains(r#"bad.txt: line 8: move 3 ("h8"): point h8 is taken"#),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_missing_file_or_a_folder_is_named_as_such_not_read_as_a_cell() {
    let dir = std::env::temp_dir().join(format!("tictactoe-review-missing-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let missing = dir.join("nosuch.txt");
    let missing = missing.to_str().unwrap();
    for (args, said) in [
        (vec!["review", missing], "nosuch.txt: there is no such file"),
        (
            vec!["review", "nosuch.txt"],
            "nosuch.txt: there is no such file",
        ),
        (
            vec!["review", dir.to_str().unwrap()],
            "it is not a regular file",
        ),
        (
            vec!["--plain", "--from", "nosuch.txt"],
            "--from: nosuch.txt: there is no such file",
        ),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
            .args(&args)
            .stdin(std::process::Stdio::null())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(said), "{args:?}: {err}");
        assert!(!err.contains("is not a cell"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_file_holding_the_record_line_the_game_printed_is_reviewed() {
    let dir = std::env::temp_dir().join(format!("tictactoe-review-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("record.txt");
    std::fs::write(&file, "Record: 5 1 9\n").unwrap();
    let out = run(&[file.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let moves: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| l.split_whitespace().nth(2).map(str::to_string))
        .take(3)
        .collect();
    assert_eq!(moves, ["5", "1", "9"], "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn review_of_a_kept_game_still_refuses_flags_that_size_no_board_of_it() {
    // `--last` takes the game's rules from the history; `--columns` alone names no game.
    let out = run(&["--last", "--columns", "5"]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("--columns sizes Connect Four's board"),
        "{err}"
    );
}
