//! The binary driven through pipes, as a script or another program drives it.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input).unwrap();
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The boards printed, each as its three rows joined.
fn boards(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    lines
        .windows(5)
        .filter(|w| w[1] == "---+---+---" && w[3] == "---+---+---")
        .map(|w| format!("{}/{}/{}", w[0].trim(), w[2].trim(), w[4].trim()))
        .collect()
}

/// The result line of a finished game, checked to be followed by the game's record, the last
/// line of the output.
fn result(stdout: &str) -> Option<&str> {
    let lines: Vec<&str> = stdout.lines().collect();
    let [.., result, record] = lines[..] else {
        return None;
    };
    assert!(record.starts_with("Record: "), "no record after:\n{stdout}");
    Some(result)
}

#[test]
fn two_humans_play_a_full_game() {
    let out = run(&["-o", "human"], b"7\n1\n8\n2\n9\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(result(&stdout), Some("X wins."));
    assert_eq!(
        boards(&stdout).last().unwrap(),
        "X | X | X/4 | 5 | 6/O | O | 3"
    );
    assert!(stdout.contains("O to move (1-9, u undo, h hint, q quit): 1"));
    assert_eq!(boards(&stdout).len(), 6, "the board after every move");
    assert!(stdout.ends_with("X wins.\nRecord: 7 1 8 2 9\n"));
}

#[test]
fn a_drawn_game_says_draw() {
    let out = run(&["-o", "human"], b"5\n1\n9\n7\n4\n6\n3\n8\n2\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success());
    assert_eq!(result(&stdout), Some("Draw."));
}

#[test]
fn bad_lines_are_refused_and_the_board_is_unchanged() {
    let input: &[u8] =
        b"abc\n\n0\n10\n-1\n5\n5\n\xff\xfe\nd4\n   \n9999999999999999999999999999999\nq\n";
    let out = run(&["-o", "human"], input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "q quits cleanly");
    for expected in [
        "'abc' is not a cell",
        "Type a cell (1-9), u to undo, h for a hint or q to quit.",
        "0 is not on the board",
        "10 is not on the board",
        "-1 is not on the board",
        "Cell 5 is taken: pick an empty cell.",
        "not valid text (UTF-8)",
        "d4 is not on the board",
        "'999999999999999999999999…' is not a cell",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in\n{stdout}"
        );
    }
    // Only two boards were drawn: the empty one and the one after the single legal move.
    assert_eq!(
        boards(&stdout),
        [
            "7 | 8 | 9/4 | 5 | 6/1 | 2 | 3",
            "7 | 8 | 9/4 | X | 6/1 | 2 | 3"
        ]
    );
    // Every refusal is followed by the same prompt: five for X before its move, then five
    // for O before it quits.
    assert_eq!(stdout.matches("X to move (1-9").count(), 6);
    assert_eq!(stdout.matches("O to move (1-9").count(), 6);
    assert!(stdout.ends_with("Quit.\nRecord: 5\n"), "the game so far");
}

#[test]
fn undo_takes_back_the_move_and_the_ai_reply() {
    let out = run(&["--seed", "1"], b"5\nu\nq\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("O (hard) plays"), "{stdout}");
    assert!(stdout.contains("Took back 2 moves."));
    assert_eq!(
        boards(&stdout).last().unwrap(),
        "7 | 8 | 9/4 | 5 | 6/1 | 2 | 3"
    );
    let nothing = run(&[], b"u\nq\n");
    assert!(text(&nothing.stdout).contains("Nothing to undo."));
}

#[test]
fn hint_prints_the_analysis() {
    let out = run(&["-o", "human"], b"h\nq\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("X to move: draw, best move 7"), "{stdout}");
    assert!(stdout.contains("  5: draw"));
    assert!(stdout.contains("  best: 7 8 9 4 5 6 1 2 3"));
}

#[test]
fn input_ending_mid_game_fails_with_a_message() {
    let out = run(&["-o", "human"], b"5\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("input ended before the game was over"));
    let empty = run(&[], b"");
    assert_eq!(empty.status.code(), Some(1));
}

#[test]
fn ai_against_ai_plays_through_without_input() {
    let out = run(&["-x", "hard", "-o", "hard", "--seed", "4"], b"");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(result(&stdout), Some("Draw."));
    assert_eq!(stdout.matches(" (hard) plays ").count(), 9);
}

#[test]
fn the_same_seed_replays_the_same_game() {
    let args = ["-x", "easy", "-o", "medium", "--seed", "99"];
    assert_eq!(run(&args, b"").stdout, run(&args, b"").stdout);
}

#[test]
fn hard_never_loses_to_medium_or_easy() {
    for seed in ["1", "2", "3", "4", "5", "6"] {
        for (x, o, loser) in [("medium", "hard", "X wins."), ("hard", "easy", "O wins.")] {
            let out = run(&["-x", x, "-o", o, "--seed", seed], b"");
            let stdout = text(&out.stdout);
            assert!(out.status.success());
            assert_ne!(
                result(&stdout),
                Some(loser),
                "{x} vs {o}, seed {seed}\n{stdout}"
            );
        }
    }
}

#[test]
fn the_ai_can_move_first() {
    let out = run(&["-x", "medium", "-o", "human"], b"q\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("X (medium) plays 5"), "{stdout}");
    assert!(stdout.contains("O to move"));
}

#[test]
fn analyze_reports_every_move() {
    let out = run(&["analyze", "X.O/.X./..O"], b"");
    assert!(out.status.success());
    #[rustfmt::skip]
    assert_eq!(text(&out.stdout), concat!(
        "X.O/.X./..O\n",
        "  X to move: draw, best move 6\n",
        "  8: loss in 2\n",
        "  4: loss in 2\n",
        "  6: draw\n",
        "  1: loss in 2\n",
        "  2: loss in 2\n",
        "  best: 6\n",
    ));
}

#[test]
fn analyze_keeps_going_past_a_bad_board() {
    let out = run(
        &["analyze", "XX./OO./...", "XX./.../...", "XXX/OO./..."],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("X to move: win in 1, best move 9"),
        "{stdout}"
    );
    assert!(stdout.contains("game over: X won (7 8 9)"));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bad board \"XX./.../...\": impossible mark counts"),
        "{stderr}"
    );
}

#[test]
fn analyze_reads_boards_from_stdin_and_prints_json() {
    let out = run(&["analyze", "--json", "-"], b"XX./OO./...\n\nnonsense\n");
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert!(lines[0].starts_with(r#"{"board":"XX./OO./...","to_move":"X","outcome":"in_progress","line":null,"value":{"value":"win in 1","result":"win","plies":1,"proven":true},"best_move":"9","moves":[{"cell":"9","value":"win in 1","result":"win","plies":1,"proven":true},"#), "{}", lines[0]);
    assert!(lines[0].ends_with(r#""best":["9"]}"#));
    assert!(
        lines[1].starts_with(r#"{"board":"nonsense","error":"expected 3 to 7 rows"#),
        "{}",
        lines[1]
    );
}

#[test]
fn help_and_version() {
    let help = run(&["--help"], b"");
    assert!(help.status.success());
    let help = text(&help.stdout);
    for flag in [
        "--x-player <PLAYER>",
        "--o-player <PLAYER>",
        "--seed <N>",
        "--plain",
        "--no-color",
        "analyze",
        "7 8 9 / 4 5 6 / 1 2 3",
    ] {
        assert!(help.contains(flag), "{flag} missing from\n{help}");
    }
    let version = run(&["--version"], b"");
    assert_eq!(
        text(&version.stdout),
        format!("tictactoe {}\n", env!("CARGO_PKG_VERSION"))
    );
    let bad = run(&["-o", "perfect"], b"");
    assert_eq!(bad.status.code(), Some(2));
    assert!(text(&bad.stderr).contains("possible values: human, easy, medium, hard"));
}

#[test]
fn a_four_by_four_game_with_coordinates() {
    // Four in a row on 4×4 by default: X fills column a.
    let out = run(
        &["--size", "4", "-o", "human"],
        b"a1\nb1\na2\nb2\na3\nb3\nA4\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("X to move (a1-d4, u undo, h hint, q quit): a1"));
    assert!(stdout.contains("   a   b   c   d"), "column letters");
    assert_eq!(result(&stdout), Some("X wins."));
}

#[test]
fn a_five_by_five_game_against_the_ai_with_coordinates() {
    let out = run(
        &["--size", "5", "--think", "50", "--seed", "2"],
        b"c3\n5\nf6\nc3\nq\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("O (hard) plays "), "{stdout}");
    assert!(stdout.contains("'5' is not a cell: type a coordinate from a1 to e5."));
    assert!(stdout.contains("f6 is not on the board: cells are a1-e5."));
    assert!(stdout.contains("Cell c3 is taken: pick an empty cell."));
    assert!(
        stdout.contains("5  . |"),
        "row numbers on the left:\n{stdout}"
    );
}

#[test]
fn misere_completing_a_line_loses() {
    let out = run(&["--misere", "-o", "human"], b"7\n1\n8\n2\n9\n");
    assert_eq!(result(&text(&out.stdout)), Some("O wins."));
}

#[test]
fn rules_that_do_not_fit_are_refused() {
    let out = run(&["--k", "4"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("4 in a row does not fit a 3×3 board"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["--size", "9"], b"");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn analyze_takes_the_size_from_the_notation_and_checks_it() {
    let out = run(&["analyze", "--best", "..../..../..../...."], b"");
    assert!(out.status.success());
    assert_eq!(
        text(&out.stdout),
        "..../..../..../....\n  X to move: draw, best move a1\n"
    );
    let out = run(&["analyze", "--size", "4", "X.O/.X./..O"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("the board is 3×3 but --size is 4"));
    let out = run(
        &["analyze", "--k", "3", "--best", "..../..../..../...."],
        b"",
    );
    assert!(
        text(&out.stdout).contains("X to move: win in 5"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn analyze_marks_estimates_when_time_runs_out() {
    let board = "......./......./......./......./......./......./.......";
    let out = run(&["analyze", "--think", "100", "--json", board], b"");
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains(r#""result":"estimate","plies":null,"proven":false,"estimate":"#),
        "{stdout}"
    );
    assert_eq!(stdout.matches(r#""cell":"#).count(), 49);
}
