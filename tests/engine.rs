//! `tictactoe engine` as tournament managers and arenas run it: protocol lines piped in, the
//! answers read back, and games played through it to the end by a referee written here.

mod pipe;

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

use tictactoe::ai::search::Searcher;
use tictactoe::rules::position::{Move, Position, Variant};
use tictactoe::rules::ultimate;

fn gomocup(script: &str) -> (Vec<String>, std::process::Output) {
    let out = pipe::run(
        &[
            "--seed",
            "1",
            "engine",
            "--protocol",
            "gomocup",
            "--think",
            "200",
        ],
        script.as_bytes(),
    );
    let lines = pipe::text(&out.stdout).lines().map(String::from).collect();
    (lines, out)
}

/// The cell `x,y` (x from the left, y from the top) of an n×n board, as the game names it.
fn cell_name(answer: &str, n: u8) -> String {
    let (x, y) = answer.split_once(',').expect("an answer is x,y");
    let (x, y): (u8, u8) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < n && y < n, "{answer} is off the board");
    if n == 3 {
        char::from(b'1' + x + 3 * (2 - y)).to_string()
    } else {
        format!("{}{}", char::from(b'a' + x), n - y)
    }
}

#[test]
fn gomocup_starts_answers_every_turn_with_an_empty_cell_and_ends() {
    let (lines, out) = gomocup("START 7\nBEGIN\nTURN 0,0\nTURN 6,6\nEND\n");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(lines[0], "OK");
    let mut seen = vec!["a7".to_string(), "g1".to_string()];
    for answer in &lines[1..] {
        let name = cell_name(answer, 7);
        assert!(!seen.contains(&name), "{answer} was taken");
        seen.push(name);
    }
}

#[test]
fn gomocup_refuses_boards_not_offered_and_names_unknown_commands() {
    let (lines, out) = gomocup("START 21\nTURN 1,1\nFROB\nABOUT\nSTART 5\nTURN 9,9\nEND\n");
    assert!(out.status.success(), "{out:?}");
    assert!(
        lines[0].starts_with("ERROR ") && lines[0].contains("not offered"),
        "{lines:?}"
    );
    assert!(lines[1].starts_with("ERROR ") && lines[1].contains("START comes first"));
    assert_eq!(lines[2], "UNKNOWN FROB");
    assert!(lines[3].starts_with("name=\"tictactoe\""), "{}", lines[3]);
    assert_eq!(lines[4], "OK");
    assert!(lines[5].starts_with("ERROR ") && lines[5].contains("off the 5×5 board"));
}

#[test]
fn gomocup_plays_gomoku_on_fifteen_by_fifteen_making_five_and_blocking_five() {
    // Ours on x 3 to 6 of the top row, the opponent's below: 2,0 or 7,0 makes five.
    let ours = "3,0,1\n4,0,1\n5,0,1\n6,0,1\n3,1,2\n4,1,2\n5,1,2\n9,9,2\n";
    let (lines, out) = gomocup(&format!("START 15\nBOARD\n{ours}DONE\nEND\n"));
    assert!(out.status.success(), "{out:?}");
    assert_eq!(lines[0], "OK");
    assert!(["2,0", "7,0"].contains(&lines[1].as_str()), "{lines:?}");
    // The opponent's four on x 10 to 13 of the bottom row, x 9 held: only 14,14 blocks it.
    let theirs = "10,14,2\n11,14,2\n12,14,2\n13,14,2\n9,14,1\n0,0,1\n7,7,1\n";
    let (lines, _) = gomocup(&format!("START 15\nBOARD\n{theirs}DONE\nEND\n"));
    assert_eq!(lines[1], "14,14", "{lines:?}");
    // A game's first moves: each answer an empty point of the 15×15 board.
    let (lines, _) = gomocup("START 15\nBEGIN\nTURN 0,0\nTURN 14,14\nEND\n");
    let mut seen = vec!["a15".to_string(), "o1".to_string()];
    for answer in &lines[1..] {
        let name = cell_name(answer, 15);
        assert!(!seen.contains(&name), "{answer} was taken: {lines:?}");
        seen.push(name);
    }
    assert_eq!(seen.len(), 5, "{lines:?}");
}

#[test]
fn gomocup_rule_one_plays_exactly_five_and_rule_four_plays_renju() {
    // Ours on x 0 to 3 and 5 of the top row: 4,0 makes six. Theirs along the bottom row.
    let six = "0,0,1\n1,0,1\n2,0,1\n3,0,1\n5,0,1\n0,14,2\n2,14,2\n4,14,2\n6,14,2\n8,14,2\n";
    let (lines, out) = gomocup(&format!("START 15\nBOARD\n{six}DONE\nEND\n"));
    assert!(out.status.success(), "{out:?}");
    assert_eq!(lines[1], "4,0", "five or more: six wins");
    let ruled = |rule: u8, extra: &str| {
        let board = format!("BOARD\n{six}{extra}DONE\n");
        gomocup(&format!("START 15\nINFO rule {rule}\n{board}END\n")).0
    };
    let lines = ruled(1, "");
    assert_ne!(lines[1], "4,0", "exactly five: six wins nothing");
    // Renju (bit 4, over bit 1): we are black, first to move, and six is forbidden to black.
    for rule in [4, 5] {
        let lines = ruled(rule, "");
        assert_ne!(lines[1], "4,0", "renju: six is an overline, {lines:?}");
        assert_renju_allows(six, &lines[1]);
    }
    // A continuous game (bit 2) is not played, and a message says so.
    let lines = ruled(2, "");
    assert!(
        lines[1].starts_with("MESSAGE a continuous game"),
        "{lines:?}"
    );
    // And x 10 of rows 5 to 8 (theirs on the right edge): 10,4 or 10,9 makes exactly five.
    let extra = "10,5,1\n10,6,1\n10,7,1\n10,8,1\n14,2,2\n14,4,2\n14,6,2\n14,8,2\n";
    for rule in [1, 4] {
        let lines = ruled(rule, extra);
        assert!(["10,4", "10,9"].contains(&lines[1].as_str()), "{lines:?}");
    }
}

/// Asserts that `answer` ("x,y") is an empty point black may play under renju, with the
/// stones of `board` (Gomocup's "x,y,who" lines, 1 black, 2 white) on 15×15, as the rule
/// set's own referee reads it.
fn assert_renju_allows(board: &str, answer: &str) {
    use tictactoe::rules::classic::Mark;
    use tictactoe::rules::gomoku::renju::Stones;
    let point = |x: &str, y: &str| -> usize {
        y.trim().parse::<usize>().unwrap() * 15 + x.trim().parse::<usize>().unwrap()
    };
    let mut marks = [None; 225];
    for line in board.lines() {
        let fields: Vec<&str> = line.split(',').collect();
        let mark = if fields[2] == "1" { Mark::X } else { Mark::O };
        marks[point(fields[0], fields[1])] = Some(mark);
    }
    let (x, y) = answer
        .split_once(',')
        .unwrap_or_else(|| panic!("not a point: {answer}"));
    let p = point(x, y);
    assert!(marks[p].is_none(), "{answer} is taken");
    let foul = Stones::new(15, |i| marks[i]).foul(p);
    assert!(foul.is_none(), "{answer} is forbidden to black: {foul:?}");
}

/// Black's only point that makes two fours at once (each blocked at one end) is forbidden
/// under renju: the brain, black there, plays something else black may play; freestyle
/// plays it and wins with one of the fours.
#[test]
fn gomocup_renju_leaves_black_a_double_four_it_would_win_with_in_freestyle() {
    // Black down x 7 from y 2 to 4 (white above, on y 1), and along y 5 from x 8 to 10
    // (white on x 11): 7,5 makes both fours. White's other four stones are in the corners.
    let board = concat!(
        "7,2,1\n7,3,1\n7,4,1\n8,5,1\n9,5,1\n10,5,1\n",
        "7,1,2\n11,5,2\n0,14,2\n4,14,2\n14,0,2\n14,14,2\n"
    );
    let play = |rule: u8| {
        let script = format!("START 15\nINFO rule {rule}\nBOARD\n{board}DONE\nEND\n");
        gomocup(&script).0
    };
    let renju = play(4);
    assert_ne!(
        renju[1], "7,5",
        "renju: a double four is forbidden to black"
    );
    assert_renju_allows(board, &renju[1]);
    let free = play(0);
    assert_eq!(free[1], "7,5", "freestyle: the double four wins");
}

#[test]
fn gomocup_rule_eight_plays_caro_where_five_blocked_at_both_ends_wins_nothing() {
    // Ours on x 2 to 5 of row 7, theirs on 1,7 and 7,7: 6,7 makes five blocked at both ends.
    // Theirs on x 10 of rows 5 to 8, ours on 10,9: 10,4 makes their five, open at 10,3.
    let ours = "2,7,1\n3,7,1\n4,7,1\n5,7,1\n10,9,1\n";
    let theirs = "1,7,2\n7,7,2\n10,5,2\n10,6,2\n10,7,2\n10,8,2\n";
    let answer = |rule: u8| {
        let script = format!("START 15\nINFO rule {rule}\nBOARD\n{ours}{theirs}DONE\nEND\n");
        let (lines, out) = gomocup(&script);
        assert!(out.status.success(), "{out:?}");
        lines[1].clone()
    };
    assert_eq!(answer(0), "6,7", "freestyle: the five wins");
    for rule in [8, 9] {
        assert_eq!(
            answer(rule),
            "10,4",
            "caro: the five wins nothing, so block theirs"
        );
    }
}

#[test]
fn gomocup_takes_a_win_in_one_from_a_board_and_never_gives_away_the_draw() {
    // Ours on 7 and 8 (x 0 and 1 of the top row), the opponent's on 4 and 5: 9 wins.
    let (lines, _) = gomocup("START 3\nBOARD\n0,0,1\n1,0,1\n0,1,2\n1,1,2\nDONE\nEND\n");
    assert_eq!(lines[1], "2,0", "{lines:?}");
    // The opponent took the centre first: every answer keeps the draw.
    let (lines, _) = gomocup("START 3\nBOARD\n1,1,2\nDONE\nEND\n");
    let answer = format!("5 {}", cell_name(&lines[1], 3));
    let mut position = Variant::default().start();
    for word in answer.split(' ') {
        position.play(position.parse_move(word).unwrap()).unwrap();
    }
    let value = Searcher::new().value(position.classic().unwrap()).unwrap();
    assert_eq!(value.to_string(), "draw", "after {answer}");
}

#[test]
fn gomocup_a_board_out_of_turn_or_a_taken_cell_is_an_error_and_the_session_goes_on() {
    let (lines, out) = gomocup("START 3\nBOARD\n0,0,1\n1,0,1\nDONE\nTURN 1,1\nTURN 1,1\nEND\n");
    assert!(out.status.success());
    assert!(lines[1].contains("not our turn"), "{lines:?}");
    assert!(!lines[2].starts_with("ERROR"), "{lines:?}");
    assert!(
        lines[3].starts_with("ERROR") && lines[3].contains("taken"),
        "{lines:?}"
    );
}

/// The protocol's `row col` of an Ultimate move: row 0 at the top of the 9×9 grid.
fn row_col(mv: ultimate::Move) -> String {
    format!("{} {}", 8 - mv.row(), mv.col())
}

/// The game run with `args`, spoken to line by line: the process, its input, its output.
fn engine(args: &[&str]) -> (Child, ChildStdin, BufReader<ChildStdout>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let to = child.stdin.take().unwrap();
    let from = BufReader::new(child.stdout.take().unwrap());
    (child, to, from)
}

/// Plays one game of Ultimate against `tictactoe engine --protocol codingame` as the
/// arena's referee does, the referee's side playing random legal moves; returns the moves.
fn refereed_game(engine_first: bool, seed: u64) -> Vec<String> {
    let args = [
        "--seed",
        "3",
        "engine",
        "--protocol",
        "codingame",
        "--think",
        "20",
    ];
    let (mut child, mut to, mut from) = engine(&args);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut position = Variant::Ultimate.start();
    let mut last = "-1 -1".to_string();
    let mut record = Vec::new();
    if !engine_first {
        let moves = position.legal_moves();
        let mv = moves[rng.usize(..moves.len())];
        last = row_col(ultimate_move(mv));
        position.play(mv).unwrap();
        record.push(mv.to_string());
    }
    while !position.is_over() {
        let moves = position.legal_moves();
        let actions: Vec<String> = moves.iter().map(|&m| row_col(ultimate_move(m))).collect();
        let turn = format!("{last}\n{}\n{}\n", moves.len(), actions.join("\n"));
        to.write_all(turn.as_bytes()).unwrap();
        let mut answer = String::new();
        from.read_line(&mut answer).unwrap();
        let answer = answer.trim().to_string();
        let mv = moves
            .iter()
            .copied()
            .find(|&m| row_col(ultimate_move(m)) == answer)
            .unwrap_or_else(|| panic!("{answer:?} is not a valid action after {record:?}"));
        position.play(mv).unwrap();
        record.push(mv.to_string());
        if position.is_over() {
            break;
        }
        let moves = position.legal_moves();
        let reply = moves[rng.usize(..moves.len())];
        last = row_col(ultimate_move(reply));
        position.play(reply).unwrap();
        record.push(reply.to_string());
    }
    drop(to);
    assert!(child.wait().unwrap().success());
    record
}

/// Plays one Gomoku game on an `n`×`n` board against `tictactoe engine --protocol gomocup`
/// as a manager does (`START`, `INFO timeout_turn`, then `BEGIN` or `TURN`), the manager's
/// side playing random moves near the stones; each answer is refereed by the game's rules and
/// timed. Returns the moves and the slowest answer.
fn managed_gomoku_game(n: u8, engine_first: bool, seed: u64) -> (Vec<String>, Duration) {
    let (mut child, mut to, mut from) = engine(&["--seed", "5", "engine", "--protocol", "gomocup"]);
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut position = Variant::of_size(n, None, false).unwrap().start();
    let mut record = Vec::new();
    let mut played = Vec::new();
    let mut slowest = Duration::ZERO;
    let mut ask = format!("START {n}\nINFO timeout_turn {TURN_MS}\n");
    to.write_all(ask.as_bytes()).unwrap();
    let mut answer = String::new();
    from.read_line(&mut answer).unwrap();
    assert_eq!(answer.trim(), "OK", "START {n}");
    ask = if engine_first {
        "BEGIN\n".to_string()
    } else {
        let mv = near_move(&position, &played, &mut rng);
        record.push(mv.to_string());
        played.push(mv);
        position.play(mv).unwrap();
        format!("TURN {}\n", x_y(mv, n))
    };
    while !position.is_over() {
        to.write_all(ask.as_bytes()).unwrap();
        let asked = Instant::now();
        answer.clear();
        from.read_line(&mut answer).unwrap();
        slowest = slowest.max(asked.elapsed());
        let answer = answer.trim();
        let mv = position
            .legal_moves()
            .into_iter()
            .find(|&m| x_y(m, n) == answer)
            .unwrap_or_else(|| panic!("{answer:?} is no empty point after {record:?}"));
        record.push(mv.to_string());
        played.push(mv);
        position.play(mv).unwrap();
        if position.is_over() {
            break;
        }
        let reply = near_move(&position, &played, &mut rng);
        record.push(reply.to_string());
        played.push(reply);
        position.play(reply).unwrap();
        ask = format!("TURN {}\n", x_y(reply, n));
    }
    to.write_all(b"END\n").unwrap();
    drop(to);
    assert!(child.wait().unwrap().success());
    (record, slowest)
}

/// The milliseconds a turn the manager allows in [`managed_gomoku_game`].
const TURN_MS: u64 = 100;

/// The protocol's `x,y` of a Gomoku move: x from the left, y from the top.
fn x_y(mv: Move, n: u8) -> String {
    let Move::Cell(cell) = mv else { unreachable!() };
    format!("{},{}", cell.col(), n - 1 - cell.row())
}

/// A random empty point within two of a stone of `played` (anywhere on an empty board).
fn near_move(position: &Position, played: &[Move], rng: &mut fastrand::Rng) -> Move {
    let cells = |mv: &Move| match *mv {
        Move::Cell(c) => (i32::from(c.col()), i32::from(c.row())),
        _ => unreachable!(),
    };
    let taken: Vec<(i32, i32)> = played.iter().map(cells).collect();
    let moves: Vec<Move> = position
        .legal_moves()
        .into_iter()
        .filter(|mv| {
            let (c, r) = cells(mv);
            taken.is_empty()
                || taken
                    .iter()
                    .any(|&(tc, tr)| (tc - c).abs().max((tr - r).abs()) <= 2)
        })
        .collect();
    moves[rng.usize(..moves.len())]
}

#[test]
fn gomocup_plays_whole_games_on_twenty_by_twenty_and_fifteen_with_legal_answers_in_time() {
    for (n, engine_first, seed) in [(20, true, 1), (20, false, 2), (15, false, 3)] {
        let (record, slowest) = managed_gomoku_game(n, engine_first, seed);
        // The brain plays hard: against random moves it makes five.
        let brain = usize::from(!engine_first);
        assert_eq!(
            record.len() % 2,
            (brain + 1) % 2,
            "{n}×{n}, the brain's five: {record:?}"
        );
        // In time: the turn's budget, and room for a machine busy with other work.
        assert!(
            slowest < Duration::from_millis(TURN_MS + 1500),
            "{n}×{n}: an answer took {slowest:?}"
        );
    }
}

fn ultimate_move(mv: Move) -> ultimate::Move {
    match mv {
        Move::Ultimate(m) => m,
        _ => unreachable!(),
    }
}

#[test]
fn codingame_plays_whole_games_with_valid_actions_first_or_second() {
    for (first, seed) in [(true, 1), (false, 2)] {
        let record = refereed_game(first, seed);
        let mut position: Position = Variant::Ultimate.start();
        for mv in &record {
            position.play(position.parse_move(mv).unwrap()).unwrap();
        }
        assert!(position.is_over(), "{record:?}");
    }
}

#[test]
fn codingame_names_a_referee_that_disagrees_and_exits_with_status_2() {
    for (input, said) in [
        ("-1 -1\n1\n4 4\n", "not this position's legal moves"),
        ("junk\n", "expected a row and a column"),
        ("4 4\n81\n", "the input ended before the last action"),
        ("9 9\n", "rows and columns run from 0 to 8"),
    ] {
        let out = pipe::run(&["engine", "--protocol", "codingame"], input.as_bytes());
        assert_eq!(out.status.code(), Some(2), "{input:?}");
        let err = pipe::text(&out.stderr);
        assert!(err.contains(said), "{input:?}: {err}");
        assert!(out.stdout.is_empty(), "{input:?}");
    }
}

#[test]
fn gomocup_board_with_a_wrong_line_is_read_to_done_and_answered_once() {
    let (lines, out) = gomocup("START 15\nBOARD\n7,7,1\nfoo\n8,8,2\nDONE\nABOUT\nEND\n");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(lines.len(), 3, "OK, one ERROR, the ABOUT line: {lines:?}");
    assert_eq!(lines[0], "OK");
    assert!(
        lines[1].starts_with("ERROR") && lines[1].contains("foo"),
        "{lines:?}"
    );
    assert!(
        lines[2].starts_with("name="),
        "in step after the block: {lines:?}"
    );
}

/// A brain searching a turn with no end (only the end of the session can stop it) is told
/// the session is over by `stop`, given its input; it must exit within 10 s.
fn thinking_brain_ends_when(stop: impl FnOnce(std::process::ChildStdin), what: &str) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["engine", "--protocol", "gomocup"])
        .env(
            "TICTACTOE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
        )
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the engine starts");
    let mut stdin = child.stdin.take().unwrap();
    writeln!(
        stdin,
        "START 15\nINFO timeout_turn 18446744073709551615\nBEGIN"
    )
    .unwrap();
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut ok = String::new();
    reader.read_line(&mut ok).unwrap();
    assert_eq!(ok.trim(), "OK");
    // BEGIN is taken and searched by now (nothing on the wire says when it starts).
    std::thread::sleep(std::time::Duration::from_millis(300));
    stop(stdin);
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success(), "{status}");
            break;
        }
        if started.elapsed() > std::time::Duration::from_secs(10) {
            let _ = child.kill();
            panic!("still searching 10 s after {what}");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn gomocup_end_while_thinking_ends_the_search_and_the_brain() {
    thinking_brain_ends_when(
        |mut stdin| {
            writeln!(stdin, "END").unwrap();
            // Held open: END alone ends it.
            std::mem::forget(stdin);
        },
        "END",
    );
}

#[test]
fn gomocup_input_closed_while_thinking_ends_the_search_and_the_brain() {
    thinking_brain_ends_when(drop, "the input closed");
}

#[test]
fn gomocup_swap2board_places_three_stones_then_chooses_or_places_two_after_three_and_chooses_after_five()
 {
    let script = "START 20\nSWAP2BOARD\nDONE\n\
                  SWAP2BOARD\n9,9\n10,9\n8,8\nDONE\n\
                  SWAP2BOARD\n9,9\n10,9\n8,8\n10,10\n11,11\nDONE\n\
                  SWAP2BOARD\n9,9\nDONE\nTURN 10,9\nABOUT\nEND\n";
    let (lines, out) = gomocup(script);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(lines.len(), 7, "{lines:?}");
    // Three distinct points of the 20×20 board, black, white, black.
    let opening: Vec<String> = lines[1].split(' ').map(|p| cell_name(p, 20)).collect();
    assert_eq!(opening.len(), 3, "{}", lines[1]);
    assert!(opening[0] != opening[1] && opening[1] != opening[2] && opening[0] != opening[2]);
    // After three stones: SWAP, white's move, or two more stones; after five: SWAP or white's
    // move. Each on an empty point.
    for (answer, taken, most) in [(&lines[2], 3, 2), (&lines[3], 5, 1)] {
        if answer != "SWAP" {
            let stones = ["j11", "k11", "i12", "k10", "l9"];
            let names: Vec<String> = answer.split(' ').map(|p| cell_name(p, 20)).collect();
            assert!((1..=most).contains(&names.len()), "{answer}");
            for name in &names {
                assert!(!stones[..taken].contains(&name.as_str()), "{answer}: taken");
            }
            assert!(names.len() < 2 || names[0] != names[1], "{answer}");
        }
    }
    assert!(lines[4].starts_with("ERROR ") && lines[4].contains("0, 3 or 5 stones"));
    // The refused block changed nothing: k11 is still white's stone of the five.
    assert!(
        lines[5].starts_with("ERROR ") && lines[5].contains("taken"),
        "{lines:?}"
    );
    assert!(
        lines[6].starts_with("name=\"tictactoe\""),
        "the session goes on"
    );
}

/// `SWAP2BOARD` keeps within `INFO timeout_turn` as `TURN` does: a manager that enforces the
/// turn's time would forfeit a brain that overran it. Each answer is timed from the command's
/// last line to the answer, the way the manager times it (the brain had placed its table
/// before, on a first swap2 board not timed).
#[test]
fn gomocup_swap2board_answers_within_the_turns_time() {
    let (mut child, mut to, mut from) = engine(&["engine", "--protocol", "gomocup"]);
    let turn = Duration::from_millis(1500);
    writeln!(to, "START 15\nINFO timeout_turn {}", turn.as_millis()).unwrap();
    let mut line = String::new();
    from.read_line(&mut line).unwrap();
    assert_eq!(line.trim(), "OK");
    let boards = [
        "SWAP2BOARD\nDONE",
        "SWAP2BOARD\nDONE",
        "SWAP2BOARD\n7,7\n8,7\n6,8\nDONE",
        "SWAP2BOARD\n7,7\n8,7\n6,8\n8,8\n9,9\nDONE",
    ];
    for (i, board) in boards.iter().enumerate() {
        writeln!(to, "{board}").unwrap();
        let asked = Instant::now();
        line.clear();
        from.read_line(&mut line).unwrap();
        let took = asked.elapsed();
        assert!(!line.starts_with("ERROR"), "{board}: {line}");
        assert!(
            i == 0 || took <= turn,
            "{board} answered {line:?} after {took:?}, the turn being {turn:?}"
        );
    }
    writeln!(to, "END").unwrap();
    assert!(child.wait().unwrap().success());
}

#[test]
fn gomocup_renju_or_caro_asked_on_a_classic_board_is_told_and_the_board_played_as_it_is() {
    for (bits, name) in [(4, "renju"), (8, "caro"), (12, "renju")] {
        let (lines, out) = gomocup(&format!("START 5\nINFO rule {bits}\nBEGIN\nEND\n"));
        assert!(out.status.success(), "{out:?}");
        assert_eq!(
            lines[1],
            format!("MESSAGE {name} is played on Gomoku's boards only: these rules are not")
        );
        assert_eq!(lines.len(), 3, "then a move on the 5×5 board: {lines:?}");
        cell_name(&lines[2], 5);
    }
    let (lines, _) = gomocup("START 5\nINFO rule 1\nBEGIN\nEND\n");
    assert_eq!(
        lines.len(),
        2,
        "exactly five says nothing on a classic board: {lines:?}"
    );
}
