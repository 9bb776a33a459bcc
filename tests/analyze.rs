//! `tictactoe analyze` driven through pipes, as a script drives it.

mod pipe;
use pipe::{run, text, ultimate_grids};

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
fn analyze_marks_estimates_when_time_runs_out_and_names_the_best_of_them() {
    // 7×7 with four in a row is far from proven in 100 ms.
    let board = "......./......./......./......./......./......./.......";
    let out = run(
        &["analyze", "--k", "4", "--think", "100", "--json", board],
        b"",
    );
    assert!(out.status.success());
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let moves = report["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 49);
    let estimate = |v: &serde_json::Value| {
        assert_eq!(
            (v["result"].as_str(), v["proven"].as_bool()),
            (Some("estimate"), Some(false)),
            "{v}"
        );
        v["estimate"].as_i64().unwrap()
    };
    let best = moves.iter().map(estimate).max().unwrap();
    assert_eq!(
        estimate(&report["value"]),
        best,
        "the position is worth its best move"
    );
    let named = report["best_move"].as_str().unwrap();
    let of_named = moves.iter().find(|m| m["cell"] == named).unwrap();
    assert_eq!(estimate(of_named), best, "{named} is a best move");
}

/// The position of [`ULTIMATE_GAME`] before X's last move: X has won boards 3 and 5 and,
/// sent to board 7, wins with 75.
const ULTIMATE_WIN_IN_ONE: &str =
    "........./X.X....O./..O....../O..X..O../....X..O./..O..X.../......O.X/.......OX/........X 7";

#[test]
fn analyze_ultimate_finds_the_winning_move() {
    let out = run(
        &[
            "analyze",
            "--ultimate",
            "--think",
            "50",
            ULTIMATE_WIN_IN_ONE,
        ],
        b"",
    );
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(stdout.starts_with("Boards: X won 3 5\n"), "{stdout}");
    #[rustfmt::skip]
    assert_eq!(ultimate_grids(&stdout)[0].split('/').collect::<Vec<_>>(), [
        "789......",
        "X5X....O.",
        "12O......",
        "O..X..O..",
        "....X..O.",
        "..O..X...",
        "......O.X",
        ".......OX",
        "........X",
    ]);
    let report: Vec<&str> = stdout.lines().skip(14).collect();
    assert_eq!(
        report.first(),
        Some(&"  X to move on board 7: win in 1, best move 75"),
        "{stdout}"
    );
    assert_eq!(report.last(), Some(&"  best: 75"));
    let listed: Vec<&str> = report[1..report.len() - 1]
        .iter()
        .map(|l| l.trim().split(':').next().unwrap())
        .collect();
    assert_eq!(listed, ["71", "72", "75", "77", "78", "79"], "{stdout}");
    assert!(report.contains(&"  75: win in 1"));

    let best = run(
        &[
            "analyze",
            "--ultimate",
            "--best",
            "--think",
            "50",
            ULTIMATE_WIN_IN_ONE,
        ],
        b"",
    );
    assert!(text(&best.stdout).ends_with("\n  X to move on board 7: win in 1, best move 75\n"));
}

#[test]
fn analyze_ultimate_prints_json_and_reports_bad_positions() {
    let over = ULTIMATE_WIN_IN_ONE
        .replace("X.X....O.", "XXX....O.")
        .replace(" 7", " *");
    let bad_counts = format!("XX.......{}", &ULTIMATE_WIN_IN_ONE[9..]);
    let closed = ULTIMATE_WIN_IN_ONE.replace(" 7", " 3");
    let out = run(
        &[
            "analyze",
            "--ultimate",
            "--json",
            "--think",
            "50",
            ULTIMATE_WIN_IN_ONE,
            &over,
            &closed,
            "nonsense",
            &bad_counts,
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON object per line"))
        .collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    let first = &lines[0];
    assert_eq!(first["position"], ULTIMATE_WIN_IN_ONE);
    assert_eq!(first["to_move"], "X");
    assert_eq!(first["forced_board"], 7);
    assert_eq!(first["outcome"], "in_progress");
    assert_eq!(first["value"]["value"], "win in 1");
    assert_eq!(first["value"]["proven"], true);
    assert_eq!(first["best_move"], "75");
    assert_eq!(first["best"], serde_json::json!(["75"]));
    let moves = first["moves"].as_array().unwrap();
    let names: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(names, ["71", "72", "75", "77", "78", "79"]);
    for m in moves {
        let rate = m["win_rate"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&rate), "{m}");
    }
    let second = &lines[1];
    assert_eq!(second["outcome"], "x_won");
    assert_eq!(second["line"], serde_json::json!([3, 5, 7]));
    assert_eq!(second["forced_board"], serde_json::Value::Null);
    assert_eq!(second["moves"], serde_json::json!([]));
    for (line, why) in [
        (&lines[2], "board 3 is closed"),
        (&lines[3], "must end with a space and the forced board"),
        (&lines[4], "impossible mark counts"),
    ] {
        let error = line["error"].as_str().unwrap_or_else(|| panic!("{line}"));
        assert!(error.contains(why), "{line}");
        // Named as the good lines name theirs.
        assert!(
            line["position"].is_string() && line.get("board").is_none(),
            "{line}"
        );
    }
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bad position \"nonsense\": the position must end with a space"),
        "{stderr}"
    );
}

#[test]
fn analyze_ultimate_in_text_reports_bad_positions_after_the_good_ones() {
    let over = ULTIMATE_WIN_IN_ONE
        .replace("X.X....O.", "XXX....O.")
        .replace(" 7", " *");
    let closed = ULTIMATE_WIN_IN_ONE.replace(" 7", " 3");
    let out = run(
        &["analyze", "--ultimate", "--think", "50", &over, &closed],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stdout).contains("  game over: X won (boards 3 5 7)\n"));
    assert!(
        text(&out.stderr).contains("board 3 is closed, so nobody can be sent there"),
        "{}",
        text(&out.stderr)
    );
}

/// `analyze --json` for `args`: the headline's value and best move, each listed move's value
/// and the best moves, checked to be one answer: the best move is listed among the best and
/// carries the headline's value.
fn assert_one_answer(args: &[&str]) {
    let out = run(args, b"");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{args:?}: {stdout}");
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    let best_move = report["best_move"].as_str().expect("a best move");
    let headline = &report["value"]["value"];
    let best: Vec<&str> = report["best"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(best.contains(&best_move), "{args:?}: {stdout}");
    let listed = report["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["cell"].as_str().or(m["move"].as_str()) == Some(best_move))
        .unwrap_or_else(|| panic!("{args:?}: the best move is not listed: {stdout}"));
    assert_eq!(&listed["value"], headline, "{args:?}: {stdout}");
}

#[test]
fn analyze_best_move_is_among_the_best_with_the_headline_value_on_every_rule_set() {
    let seven_c1 = "......./......./......./......./......./......./..X....";
    let five_a1 = "...../...../...../...../X....";
    let nine =
        "........./........./........./.....X.../....X..../...O...../........./........./.........";
    let cases: [&[&str]; 6] = [
        &["analyze", "--json", "X.O/.X./..O"],
        &[
            "analyze", "--json", "--think", "100", "--size", "7", "--k", "4", seven_c1,
        ],
        &[
            "analyze",
            "--json",
            "--think",
            "100",
            "--k",
            "4",
            "...../...../..X../...../.....",
        ],
        &["analyze", "--json", "--think", "100", "--misere", five_a1],
        &[
            "analyze",
            "--json",
            "--think",
            "100",
            "--ultimate",
            ULTIMATE_WIN_IN_ONE,
        ],
        &["analyze", "--json", "--think", "100", nine],
    ];
    for args in cases {
        assert_one_answer(args);
    }
}

#[test]
fn analyze_lines_in_json_are_led_by_the_positions_value_and_sorted_with_distinct_first_moves() {
    let out = run(&["analyze", "--json", "--lines", "4", "X.O/.X./..."], b"");
    assert!(out.status.success(), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let lines = report["lines"].as_array().expect("lines");
    assert_eq!(lines.len(), 4, "{report}");
    assert_eq!(lines[0]["value"], report["value"]);
    let rank = |line: &serde_json::Value| {
        let plies = line["value"]["plies"].as_i64().unwrap_or(0);
        match line["value"]["result"].as_str() {
            Some("win") => 100 - plies,
            Some("draw") => 0,
            _ => plies - 100,
        }
    };
    for pair in lines.windows(2) {
        assert!(rank(&pair[0]) >= rank(&pair[1]), "{report}");
    }
    let firsts: std::collections::HashSet<&str> = lines
        .iter()
        .map(|l| l["moves"][0].as_str().unwrap())
        .collect();
    assert_eq!(firsts.len(), 4, "{report}");
    let plain = run(&["analyze", "X.O/.X./..."], b"");
    assert!(
        !text(&plain.stdout).contains("line 1"),
        "lines only when asked"
    );
    let both = run(&["analyze", "--lines", "2", "--best", "X.O/.X./..."], b"");
    assert_eq!(both.status.code(), Some(2), "--lines and --best conflict");
}

#[test]
fn a_board_of_another_shape_than_the_game_rules_names_is_a_bad_board() {
    let out = run(&["analyze", "--rules", "gomoku", "X.O/.X./..."], b"");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(
        err.contains("--rules gomoku plays on Gomoku's points, 8×8 to 20×20, not on this board"),
        "{err}"
    );
    let same = run(
        &["analyze", "--rules", "classic", "--best", "X.O/.X./..."],
        b"",
    );
    assert!(same.status.success(), "{same:?}");
}
