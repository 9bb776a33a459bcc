//! The binary driven through pipes, as a script or another program drives it.

mod pipe;
use pipe::{run, text, ultimate_grids};

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
fn a_taken_cell_is_named_as_it_was_typed() {
    let out = run(&["-o", "human"], b"5\nb2\nB2\n5\nq\n");
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout
            .matches("Cell b2 is taken: pick an empty cell.")
            .count(),
        2,
        "{stdout}"
    );
    assert!(
        stdout.contains("Cell 5 is taken: pick an empty cell."),
        "{stdout}"
    );
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
    assert!(stdout.contains("O (level 7) plays"), "{stdout}");
    assert!(stdout.contains("Took back 2 moves."));
    assert_eq!(
        boards(&stdout).last().unwrap(),
        "7 | 8 | 9/4 | 5 | 6/1 | 2 | 3"
    );
    let nothing = run(&[], b"u\nq\n");
    assert!(text(&nothing.stdout).contains("Nothing to undo."));
}

#[test]
fn hint_prints_the_analysis_every_first_move_a_draw() {
    let out = run(&["-o", "human"], b"h\nq\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("X to move: draw, best move 7"), "{stdout}");
    for cell in 1..=9 {
        assert!(
            stdout.contains(&format!("  {cell}: draw\n")),
            "{cell}: {stdout}"
        );
    }
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
    assert_eq!(stdout.matches(" (level 7) plays ").count(), 9);
}

#[test]
fn the_same_seed_replays_the_same_game() {
    let args = ["-x", "easy", "-o", "medium", "--seed", "99"];
    assert_eq!(run(&args, b"").stdout, run(&args, b"").stdout);
}

#[test]
fn the_ai_can_move_first() {
    let out = run(&["-x", "medium", "-o", "human"], b"q\n");
    let stdout = text(&out.stdout);
    assert!(stdout.contains("X (level 3) plays "), "{stdout}");
    assert!(stdout.contains("O to move"));
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
    assert!(stdout.contains("O (level 7) plays "), "{stdout}");
    assert!(stdout.contains("'5' is not a cell: type a coordinate from a1 to e5."));
    assert!(stdout.contains("f6 is not on the board: cells are a1-e5."));
    assert!(stdout.contains("Cell c3 is taken: pick an empty cell."));
    assert!(
        stdout.contains("5  . |"),
        "row numbers on the left:\n{stdout}"
    );
}

#[test]
fn misere_completing_a_line_loses_and_the_result_says_why() {
    let out = run(&["--misere", "-o", "human"], b"7\n1\n8\n2\n9\n");
    assert_eq!(
        result(&text(&out.stdout)),
        Some("X completed a line: O wins.")
    );
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
    let out = run(&["--size", "21"], b"");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["--size", "9", "--k", "10"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("10 in a row does not fit a 9×9 board: use 3 to 9"),
        "{}",
        text(&out.stderr)
    );
}

/// A short Ultimate game X wins by taking boards 3, 5 and 7, typed in every form a move
/// takes: two digits, one digit when sent to a board, two digits anyway, a coordinate
/// (`d6` is cell 7 of board 5).
const ULTIMATE_GAME: &[u8] = b"39\n5\nd6\n73\n3\n5\n3\n37\n6\n7\n4\n3\n6\n5\n5\n47\nB8\n";
const ULTIMATE_RECORD: &str =
    "Record: --ultimate 39 95 57 73 33 35 53 37 76 67 74 43 36 65 55 47 75";

#[test]
fn two_humans_play_an_ultimate_game_in_every_notation() {
    let out = run(&["--ultimate", "-o", "human"], ULTIMATE_GAME);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.starts_with("Boards: none closed yet\n"), "{stdout}");
    for prompt in [
        "X to move anywhere (board then cell, e.g. 53): 39\n",
        "O to move on board 9 (1-9, u undo, h hint, q quit): 5\n",
        "X to move on board 5 (1-9, u undo, h hint, q quit): d6\n",
        "O to move on board 7 (1-9, u undo, h hint, q quit): 73\n",
        // Board 5 is won when O is sent there: O may play anywhere.
        "O to move anywhere (board then cell, e.g. 53): 47\n",
        "X to move on board 7 (1-9, u undo, h hint, q quit): B8\n",
    ] {
        assert!(stdout.contains(prompt), "missing {prompt:?} in\n{stdout}");
    }
    let grids = ultimate_grids(&stdout);
    assert_eq!(
        grids.len(),
        18,
        "the empty grid and one per move:\n{stdout}"
    );
    assert_eq!(grids[0], ["........."; 9].join("/"));
    // X's 39 is i3; O is sent to board 9, whose empty cells show their digits.
    #[rustfmt::skip]
    assert_eq!(grids[1].split('/').collect::<Vec<_>>(), [
        "......789",
        "......456",
        "......123",
        ".........",
        ".........",
        ".........",
        "........X",
        ".........",
        ".........",
    ]);
    #[rustfmt::skip]
    assert_eq!(grids[17].split('/').collect::<Vec<_>>(), [
        ".........",
        "XXX....O.",
        "..O......",
        "O..X..O..",
        "....X..O.",
        "..O..X...",
        "......O.X",
        ".......OX",
        "........X",
    ]);
    assert!(stdout.contains("Boards: X won 3\n"));
    assert!(stdout.contains("Boards: X won 3 5 7\n"));
    assert_eq!(result(&stdout), Some("X wins."));
    assert!(stdout.ends_with(&format!("X wins.\n{ULTIMATE_RECORD}\n")));
}

#[test]
fn bad_ultimate_moves_are_refused_and_the_grid_is_unchanged() {
    let input = b"50\nx\n5\n\n55\n5\n11\na1\n0\n53\nq\n";
    let out = run(&["--ultimate", "-o", "human"], input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "q quits cleanly: {stdout}");
    for expected in [
        "50 is not on the board: moves are a board and a cell 1-9 (like 53) or a1-i9.\n",
        "'x' is not a move: type the board and the cell as two digits (53: board 5, cell 3; 7 8 9 is the top row) or a coordinate like e5.\n",
        "'5' names a cell but no board: you may play in any open board, so type two digits like 53.\n",
        "Type a move (board then cell, e.g. 53), u to undo, h for a hint or q to quit.\n",
        "Cell 5 of board 5 is taken.\n",
        "You were sent to board 5, not board 1.\n",
        "0 is not on the board",
    ] {
        assert!(
            stdout.contains(expected),
            "missing {expected:?} in\n{stdout}"
        );
    }
    // `11` and `a1` are both cell 1 of board 1.
    assert_eq!(
        stdout
            .matches("You were sent to board 5, not board 1.")
            .count(),
        2
    );
    // Three grids: the empty one, after 55 and after 53; none after a refusal.
    #[rustfmt::skip]
    assert_eq!(ultimate_grids(&stdout), [
        ["........."; 9].join("/"),
        "........./........./........./...789.../...4X6.../...123.../........./........./.........".to_string(),
        "........./........./........./........./....X..../.....O.../......789/......456/......123".to_string(),
    ]);
    // Every refusal is followed by the same prompt again.
    assert_eq!(
        stdout
            .matches("X to move anywhere (board then cell, e.g. 53): ")
            .count(),
        5
    );
    assert_eq!(
        stdout
            .matches("O to move on board 5 (1-9, u undo, h hint, q quit): ")
            .count(),
        5
    );
    assert!(stdout.contains("X to move on board 3 (1-9, u undo, h hint, q quit): q\n"));
    assert!(
        stdout.ends_with("Quit.\nRecord: --ultimate 55 53\n"),
        "{stdout}"
    );
}

/// The moves of a `Record:` line, checked to be an Ultimate record.
fn ultimate_moves(stdout: &str) -> Vec<String> {
    let record = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Record: --ultimate "))
        .unwrap_or_else(|| panic!("no Ultimate record in\n{stdout}"));
    record.split(' ').map(str::to_string).collect()
}

fn is_ultimate_move(mv: &str) -> bool {
    mv.len() == 2 && mv.bytes().all(|b| (b'1'..=b'9').contains(&b))
}

#[test]
fn the_ai_answers_on_the_board_it_is_sent_to_and_hints_give_win_rates() {
    let out = run(
        &["--ultimate", "--think", "50", "--seed", "1"],
        b"55\nh\nq\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let reply = stdout
        .lines()
        .find_map(|l| l.strip_prefix("O (level 7) plays "))
        .unwrap_or_else(|| panic!("no reply in\n{stdout}"));
    assert!(
        is_ultimate_move(reply) && reply.starts_with('5'),
        "O was sent to board 5: {reply}"
    );
    let cell = &reply[1..];
    let prompt = format!("X to move on board {cell} (1-9, u undo, h hint, q quit): ");
    assert_eq!(stdout.matches(&prompt).count(), 2, "{stdout}");
    assert!(
        stdout.contains(&format!("Hint:\n  X to move on board {cell}: ")),
        "{stdout}"
    );
    // The hint lists every move of the board X is sent to (`  31: 59%`), and only those.
    let hinted: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_once(": "))
        .map(|(mv, _)| mv)
        .filter(|mv| is_ultimate_move(mv))
        .collect();
    let expected: Vec<String> = (1..=9).map(|c| format!("{cell}{c}")).collect();
    assert_eq!(hinted, expected, "{stdout}");
    assert!(stdout.contains("% to win"), "win rates: {stdout}");
    assert!(stdout.ends_with(&format!("Quit.\nRecord: --ultimate 55 {reply}\n")));
}

#[test]
fn an_ultimate_game_against_the_ai_ends_with_a_record_that_review_replays() {
    let out = run(
        &["--ultimate", "-x", "easy", "--think", "50", "--seed", "3"],
        b"",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        matches!(result(&stdout), Some("X wins." | "O wins." | "Draw.")),
        "{stdout}"
    );
    let moves = ultimate_moves(&stdout);
    assert!(moves.iter().all(|m| is_ultimate_move(m)), "{moves:?}");
    // Every move was announced, in the order of the record.
    let announced: Vec<&str> = stdout
        .lines()
        .filter_map(|l| {
            l.strip_prefix("X (level 1) plays ")
                .or_else(|| l.strip_prefix("O (level 7) plays "))
        })
        .collect();
    assert_eq!(announced, moves);
    assert!(
        stdout.contains(&format!("O (level 7) plays {}\n", moves[1])),
        "{stdout}"
    );
    assert_eq!(ultimate_grids(&stdout).len(), moves.len() + 1);

    let mut args = vec!["review", "--ultimate", "--think", "20"];
    args.extend(moves.iter().map(String::as_str));
    let review = run(&args, b"");
    let judged = text(&review.stdout);
    assert_eq!(
        review.status.code(),
        Some(0),
        "{judged}{}",
        text(&review.stderr)
    );
    let lines: Vec<&str> = judged
        .lines()
        .filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .collect();
    assert_eq!(lines.len(), moves.len(), "one line per move:\n{judged}");
    for (i, (line, mv)) in lines.iter().zip(&moves).enumerate() {
        let mark = if i % 2 == 0 { 'X' } else { 'O' };
        let expected = format!("{}. {mark} {mv} ", i + 1);
        assert!(line.trim_start().starts_with(&expected), "{line}");
    }
    assert!(
        judged.contains("\nX: ") && judged.contains("\nO: "),
        "{judged}"
    );
}

#[test]
fn review_replays_an_ultimate_record_and_refuses_a_wrong_board() {
    let moves = ULTIMATE_RECORD
        .strip_prefix("Record: --ultimate ")
        .unwrap()
        .split(' ');
    let mut args = vec!["review", "--ultimate", "--think", "20"];
    args.extend(moves);
    let out = run(&args, b"");
    let judged = text(&out.stdout);
    assert!(out.status.success(), "{judged}");
    let lines: Vec<&str> = judged.lines().collect();
    assert_eq!(
        lines.len(),
        17 + 2,
        "a line per move and one per player:\n{judged}"
    );
    assert!(lines[16].starts_with("17. X 75  best "), "{judged}");
    assert!(
        lines[16].contains("win in 1"),
        "the winning move is proven: {judged}"
    );
    let out = run(&["review", "--ultimate", "55", "11"], b"");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("move 2 (\"11\"): you were sent to board 5, not board 1"),
        "{stderr}"
    );
}

#[test]
fn ultimate_does_not_take_classic_rules() {
    for args in [
        &["--ultimate", "--size", "5"][..],
        &["--ultimate", "--k", "3"][..],
        &["--ultimate", "--misere"][..],
        &["analyze", "--ultimate", "--size", "5", "x"][..],
        &["review", "--ultimate", "--misere", "55"][..],
    ] {
        let out = run(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("the argument '--ultimate' cannot be used with"),
            "{args:?}: {stderr}"
        );
        assert!(out.stdout.is_empty(), "{args:?}: nothing played");
    }
}

#[test]
fn a_game_starts_from_the_given_moves_and_undo_stops_there() {
    let out = run(
        &["-o", "human", "--from", "5", "1", "9"],
        b"u\n3\nu\n7\n2\n3\nq\n",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(
        boards(&stdout).first().unwrap(),
        "7 | 8 | X/4 | X | 6/O | 2 | 3",
        "the first board is the position"
    );
    assert!(stdout.contains("O to move"), "{stdout}");
    // O's 3 is taken back, O then plays 7, X 2 and O 3, and X quits.
    assert_eq!(
        boards(&stdout).last().unwrap(),
        "O | 8 | X/4 | X | 6/O | X | O"
    );
    assert!(stdout.contains("Nothing to undo."), "{stdout}");
    assert!(stdout.ends_with("Record: 5 1 9 7 2 3\n"), "{stdout}");
}

#[test]
fn an_ai_to_move_at_the_given_position_moves_first() {
    let out = run(&["--from", "5", "--think", "50", "--seed", "1"], b"q\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("O (level 7) plays "), "{stdout}");
    assert!(stdout.contains("Record: 5 "), "{stdout}");
}

#[test]
fn bad_from_moves_are_named_with_status_2() {
    for (args, expected) in [
        (
            &["--from", "5", "5"][..],
            r#"--from: move 2 ("5"): cell 5 is taken"#,
        ),
        (&["--from", "5", "x"][..], r#"--from: move 2 ("x")"#),
        (
            &["--from", "1", "2", "4", "5", "7"][..],
            "--from: the game is over after move 5",
        ),
        (
            &["--ultimate", "--from", "55", "11"][..],
            r#"--from: move 2 ("11")"#,
        ),
    ] {
        let out = run(args, b"");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn ultimate_starts_from_the_given_moves() {
    let out = run(&["--ultimate", "-o", "human", "--from", "55", "51"], b"q\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.contains("X to move on board 1"), "{stdout}");
    assert!(stdout.contains("Record: --ultimate 55 51"), "{stdout}");
}

#[test]
fn a_question_mark_prints_the_rules_of_the_game_then_how_to_type_a_move() {
    let out = run(&["--plain", "-o", "human"], b"?\nq\n");
    let shown = text(&out.stdout);
    assert!(
        shown.contains("3×3, 3 in a row") && shown.contains("keypad"),
        "{shown}"
    );
    let out = run(&["--plain", "--ultimate", "-o", "human"], b"?\nq\n");
    let shown = text(&out.stdout);
    assert!(
        shown.contains("sends them to the board") && shown.contains("free move"),
        "{shown}"
    );
    let out = run(
        &["--plain", "--size", "5", "--misere", "-o", "human"],
        b"?\nq\n",
    );
    assert!(text(&out.stdout).contains("LOSES"), "{}", text(&out.stdout));
}

#[test]
fn in_renju_a_double_three_is_refused_with_its_reason_and_the_board_is_unchanged() {
    // X on f8 g8 and h6 h7: h8 would make two open threes at once.
    let input = b"f8\na1\ng8\na2\nh6\na3\nh7\na4\nh8\nq\n";
    let out = run(&["--renju", "-o", "human"], input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "q quits cleanly: {stdout}");
    assert!(
        stdout.contains("Point h8 is forbidden to X (black) in renju: it makes a double three.\n"),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("Record: --renju f8 a1 g8 a2 h6 a3 h7 a4\n"),
        "h8 was not played: {stdout}"
    );
}

#[test]
fn the_screen_reader_mode_speaks_in_words_and_reads_the_game_on_request() {
    let input = b"7\n1\n8\nthreats\nboard\nstones\nlast\nmoves\nclock\n4\n9\n";
    let out = run(&["--screen-reader", "-o", "human", "--no-history"], input);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    for said in [
        "X to move, Player 1. Your move, or help: 7",
        "X wins next move on c3 unless you stop it.",
        "Row 3: X on a3 and b3.",
        "Row 2: empty.",
        "Row 1: O on a1.",
        "X: a3 and b3. O: a1.",
        "Last move: X on b3.",
        "6 cells: b1, c1, a2, b2, c2 and c3.",
        "This game has no clock.",
        "X wins with a3, b3 and c3.\nMoves: a3, a1, b3, a2, c3.\n",
    ] {
        assert!(stdout.contains(said), "{said:?} in:\n{stdout}");
    }
    // Nothing a reader spells out: no grids, no brackets, no dashes.
    for noise in ["---", "|", "(", ")", "["] {
        assert!(!stdout.contains(noise), "{noise:?} in:\n{stdout}");
    }
}

#[test]
fn the_screen_reader_says_the_ais_moves_and_plain_games_of_each_kind_read_stones_and_the_last_move()
{
    let out = run(
        &[
            "--screen-reader",
            "--ultimate",
            "-o",
            "hard",
            "--seed",
            "1",
            "--think",
            "20",
        ],
        b"55\nlast\nq\n",
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("O plays board 5 cell "), "{stdout}");
    assert!(stdout.contains("Last move: O on board 5 cell "), "{stdout}");
    for (flags, moves, stones, last) in [
        (vec![], "5\n", "X: b2. O: none.", "Last move: X on b2."),
        (
            vec!["--ultimate"],
            "55\n51\n",
            "X: board 5 cell 5, e5. O: board 5 cell 1, d4.",
            "Last move: O on board 5 cell 1, d4.",
        ),
        (
            vec!["--gomoku"],
            "h8\nj10\n",
            "X: h8. O: j10.",
            "Last move: O on j10.",
        ),
    ] {
        let mut args = flags.clone();
        args.extend(["-o", "human", "--no-history"]);
        let input = format!("{moves}stones\nlast\nq\n");
        let plain = text(&run(&args, input.as_bytes()).stdout);
        assert!(plain.contains(stones), "{flags:?}: {plain}");
        assert!(plain.contains(last), "{flags:?}: {plain}");
    }
}

#[test]
fn a_draw_offered_to_the_ai_is_taken_where_its_search_sees_no_win_and_resign_loses() {
    let out = run(&["-o", "hard", "--no-history"], b"draw\n5\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("You offer a draw: it stands until the other side moves."),
        "{stdout}"
    );
    assert!(
        stdout.ends_with("level 7 AI accepts the draw.\nDraw agreed.\nRecord: 5\n"),
        "{stdout}"
    );
    let out = run(&["-o", "hard", "--no-history"], b"5\nresign\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert_eq!(result(&stdout), Some("X resigned: O wins."));
}

#[test]
fn save_file_writes_the_game_file_that_review_reads_and_never_overwrites_one() {
    let dir = std::env::temp_dir().join(format!("tictactoe-plain-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    for (flag, name) in [("--plain", "plain.txt"), ("--screen-reader", "spoken.txt")] {
        let file = dir.join(name);
        let file = file.to_str().unwrap();
        let input = format!("5\n1\nsave {file}\nw {file}\nq\n");
        let out = run(&[flag, "-o", "human", "--no-history"], input.as_bytes());
        let stdout = text(&out.stdout);
        assert!(
            stdout.contains(&format!(
                "Saved to {file}: tictactoe review {file} opens it."
            )),
            "{flag}: {stdout}"
        );
        assert!(
            stdout.contains("could not be saved: a file of that name is there already"),
            "{flag}: {stdout}"
        );
        let saved = std::fs::read_to_string(file).unwrap();
        assert!(
            saved.starts_with("tictactoe game\nrules: \nx: Player 1\no: Player 2\n")
                && saved.ends_with("\n\n1. 5 1\n"),
            "{flag}: {saved}"
        );
        let review = run(&["review", file, "--think", "20"], b"");
        assert!(review.status.success(), "{review:?}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// What a screen reader would have to spell out or choke on: escapes (cursor movement, the
/// alternate screen, colours), box drawing and braille (the spinner).
fn unreadable(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            c == '\x1b'
                || ('\u{2500}'..='\u{259f}').contains(&c)
                || ('\u{2800}'..='\u{28ff}').contains(&c)
        })
        .collect()
}

#[test]
fn the_screen_reader_hears_its_own_moves_the_winning_line_and_whole_sentences_and_nothing_drawn() {
    let out = run(
        &["--screen-reader", "-o", "human", "--no-history"],
        b"?\n5\n1\n4\n2\nboard\n6\n",
    );
    let heard = text(&out.stdout);
    assert_eq!(unreadable(&heard), Vec::<char>::new(), "{heard}");
    // Each move read back in the words the board is read in, the typist's own too.
    assert!(
        heard.contains("X plays b2.\n") && heard.contains("O plays a1.\n"),
        "{heard}"
    );
    assert!(heard.contains("X wins with a2, b2 and c2.\n"), "{heard}");
    assert!(heard.contains("Moves: b2, a1, a2, b1, c2.\n"), "{heard}");
    // The rules read one sentence a line: no line ends inside one.
    assert!(
        heard.contains("\nX and O take turns to put their mark on an empty cell; X moves first.\n"),
        "{heard}"
    );
    assert!(
        !heard.contains("longer lines count too"),
        "not on 3×3: {heard}"
    );
    assert!(heard.contains("stones lists each side's marks"), "{heard}");
    // Under misère the line named is the loser's.
    let args = ["--screen-reader", "--misere", "-o", "human", "--no-history"];
    let heard = text(&run(&args, b"1\n5\n2\n9\n3\n").stdout);
    assert!(
        heard.contains("X completed a line, a1, b1 and c1: O wins.\n"),
        "{heard}"
    );
    // Quitting says the moves in the same words.
    let out = run(
        &["--screen-reader", "-o", "human", "--no-history"],
        b"5\nq\n",
    );
    let heard = text(&out.stdout);
    assert!(heard.ends_with("Quit.\nMoves: b2.\n"), "{heard}");
}

#[test]
fn a_caro_five_blocked_at_both_ends_and_an_exact_six_are_said_to_win_nothing() {
    let moves = "d8\nc8\ne8\ni8\nf8\na1\ng8\na2\nh8\nq\n";
    let out = text(&run(&["--caro", "-o", "human", "--no-history"], moves.as_bytes()).stdout);
    assert!(
        out.contains("Five blocked at both ends wins nothing in caro."),
        "{out}"
    );
    assert!(!out.contains("X wins"), "{out}");
    let six = "a1\na5\nb1\nb5\nc1\nc7\ne1\ne5\nf1\nf7\nd1\nq\n";
    let args = ["--gomoku", "--exact", "-o", "human", "--no-history"];
    let out = text(&run(&args, six.as_bytes()).stdout);
    assert!(
        out.contains("A line longer than five wins nothing here."),
        "{out}"
    );
}

#[test]
fn the_screen_reader_asks_before_a_quit_that_loses_the_game_and_plays_on_unless_told_yes() {
    let args = [
        "--screen-reader",
        "-o",
        "hard",
        "--think",
        "20",
        "--seed",
        "1",
        "--no-history",
    ];
    let out = text(&run(&args, b"5\nq\nn\nq\ny\n").stdout);
    let asked = "Quit? It counts as a loss. Type y to quit, anything else plays on: ";
    assert_eq!(out.matches(asked).count(), 2, "{out}");
    assert!(out.contains(&format!("{asked}Playing on.\n")), "{out}");
    assert!(
        out.ends_with(&format!("{asked}Quit.\nMoves: b2, a3.\n")),
        "{out}"
    );
    // Nothing at stake yet (no move made): q quits at once.
    let out = text(&run(&args, b"q\n").stdout);
    assert!(!out.contains("Quit?") && out.contains("Quit."), "{out}");
}

/// The `line N: VALUE: MOVES` lines of `stdout`, as (N, value, moves).
fn said_lines(stdout: &str) -> Vec<(usize, String, Vec<String>)> {
    stdout
        .lines()
        .filter_map(|l| {
            let rest = l.trim().strip_prefix("line ")?;
            let (n, rest) = rest.split_once(": ")?;
            let (value, moves) = rest.rsplit_once(": ")?;
            let moves = moves.split(' ').map(String::from).collect();
            Some((n.parse().ok()?, value.to_string(), moves))
        })
        .collect()
}

#[test]
fn lines_name_the_best_lines_led_by_the_value_analyze_gives_and_line_two_names_one() {
    // X on 7, O on 9: X to move wins in 5 (analyze says so of X.O/.../...).
    let analyzed = text(&run(&["analyze", "X.O/.../..."], b"").stdout);
    assert!(analyzed.contains("X to move: win in 5"), "{analyzed}");
    let out = run(
        &["-x", "human", "-o", "human"],
        b"7\n9\nlines\nline 2\nlines 9\nq\n",
    );
    let stdout = text(&out.stdout);
    let said = said_lines(&stdout);
    assert_eq!(said.len(), 4, "three lines, then line 2 alone: {stdout}");
    let (three, again) = said.split_at(3);
    assert_eq!(three[0].1, "win in 5", "{stdout}");
    let numbers: Vec<usize> = three.iter().map(|l| l.0).collect();
    assert_eq!(numbers, [1, 2, 3]);
    let firsts: std::collections::HashSet<&String> = three.iter().map(|l| &l.2[0]).collect();
    assert_eq!(
        firsts.len(),
        3,
        "each line a first move of its own: {stdout}"
    );
    assert_eq!(
        three[0].2.len(),
        5,
        "a win in 5 played out in five moves: {stdout}"
    );
    assert_eq!(again, &three[1..2], "line 2 is the second of the lines");
    assert!(
        stdout.contains("N from 1 to 5"),
        "lines 9 is refused: {stdout}"
    );
}
