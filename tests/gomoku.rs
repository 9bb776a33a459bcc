//! Gomoku (`--gomoku`) through every part of the game that knows nothing of it: the plain
//! front end, the terminal game in a pseudo-terminal, the network between two processes,
//! records, review, explain and the AI.

use std::time::Duration;

mod proc;
use proc::terminal::Terminal;
use proc::{Proc, record};

const TIMEOUT: Duration = Duration::from_secs(30);

fn spawn(args: &[&str]) -> Proc {
    Proc::spawn(args, &[], TIMEOUT)
}

/// X makes five along row 1 from a1 while O plays row 3: the moves, one a line.
const FIVE_ON_ROW_ONE: [&str; 9] = ["a1", "a3", "b1", "b3", "c1", "c3", "d1", "d3", "e1"];

/// The rows of the last board printed, top first, without the row numbers: 15 rows of 15
/// points (`.`, `+`, `X`, `O`).
fn last_board(output: &str) -> Vec<String> {
    let lines: Vec<&str> = output.lines().collect();
    let end = lines
        .iter()
        .rposition(|l| l.trim_start().starts_with("a b c d e f g h i j k l m n o"))
        .expect("a board");
    lines[end - 15..end]
        .iter()
        .map(|l| l[2..].replace(' ', ""))
        .collect()
}

#[test]
fn two_people_play_five_in_a_row_in_the_plain_front_end_and_the_record_names_the_game() {
    let mut game = spawn(&["--plain", "--gomoku", "-o", "human", "--no-history"]);
    game.send(&format!("{}\n", FIVE_ON_ROW_ONE.join("\n")));
    assert!(game.wait_exit().success(), "{}", game.output());
    let output = game.output();
    assert!(output.contains("X wins."), "{output}");
    assert_eq!(
        record(&output),
        format!("Record: --gomoku {}", FIVE_ON_ROW_ONE.join(" "))
    );
    let board = last_board(&output);
    assert_eq!(board[14], "XXXXX..........");
    assert_eq!(board[12], "OOOO...........");
    assert_eq!(board[7], ".......+.......", "the centre point is marked");
}

/// Two people play `moves` in the plain front end with the rules `rules`: the game ends, X
/// wins, and only once (the earlier line won nothing). The game's output.
fn won_once(rules: &[&str], moves: &[&str]) -> String {
    let mut args = vec!["--plain", "-o", "human", "--no-history"];
    args.extend(rules);
    let mut game = spawn(&args);
    game.send(&format!("{}\n", moves.join("\n")));
    assert!(game.wait_exit().success(), "{}", game.output());
    let output = game.output();
    assert_eq!(output.matches("X wins.").count(), 1, "one win: {output}");
    output
}

#[test]
fn with_exact_six_in_a_row_wins_nothing_and_five_then_wins() {
    // X: a1 b1 c1 e1 f1, then d1 makes six; O plays row 3. Then X makes five on row 5.
    let moves = [
        "a1", "a3", "b1", "b3", "c1", "c3", "e1", "j3", "f1", "l3", "d1", "n3", "a5", "a7", "b5",
        "b7", "c5", "c7", "d5", "d7", "e5",
    ];
    let output = won_once(&["--gomoku", "--exact"], &moves);
    assert!(
        output.contains("A line longer than five wins nothing here."),
        "{output}"
    );
    assert_eq!(
        record(&output),
        format!("Record: --gomoku --exact {}", moves.join(" "))
    );
    let mut args = vec!["review", "--gomoku", "--exact", "--think", "20"];
    args.extend(moves);
    let mut review = spawn(&args);
    assert!(review.wait_exit().success(), "{}", review.output());
    let output = review.output();
    assert!(
        output.contains("21. X e5"),
        "the last move judged: {output}"
    );
}

#[test]
fn with_caro_five_blocked_at_both_ends_wins_nothing_and_an_open_five_then_wins() {
    // X: d1..h1 between O's c1 and i1, a five blocked at both ends; then five on row 5.
    let moves = [
        "d1", "c1", "e1", "i1", "f1", "a3", "g1", "c3", "h1", "e3", "a5", "g3", "b5", "k3", "c5",
        "m3", "d5", "o3", "e5",
    ];
    let output = won_once(&["--caro"], &moves);
    assert!(
        output.contains("Five blocked at both ends wins nothing in caro."),
        "{output}"
    );
    assert_eq!(
        record(&output),
        format!("Record: --caro {}", moves.join(" "))
    );
}

#[test]
fn a_plain_hint_lists_twelve_points_and_counts_the_rest() {
    let mut game = spawn(&["--plain", "--gomoku", "-o", "human", "--no-history"]);
    game.send("h8\nh\nq\n");
    assert!(game.wait_exit().success(), "{}", game.output());
    let output = game.output();
    let hint: Vec<&str> = output
        .lines()
        .skip_while(|l| !l.ends_with("Hint:"))
        .skip(2)
        .take_while(|l| !l.trim_start().starts_with("best:"))
        .collect();
    assert_eq!(hint.len(), 12, "{output}");
    let more = output
        .lines()
        .find(|l| l.contains("more points, none better"))
        .unwrap_or_else(|| panic!("the rest counted: {output}"));
    let n: usize = more
        .trim()
        .trim_start_matches('(')
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(n > 0, "{more}");
}

#[test]
fn bad_cells_are_refused_with_the_boards_names_and_nothing_is_played() {
    let mut game = spawn(&["--plain", "--gomoku", "-o", "human", "--no-history"]);
    game.send("p1\na16\n5\nh8\nh8\nq\n");
    assert!(game.wait_exit().success(), "{}", game.output());
    let output = game.output();
    for expected in [
        "p1 is not on the board: points are a1-o15.",
        "a16 is not on the board: points are a1-o15.",
        "'5' is not a point: type a coordinate from a1 to o15.",
        "Point h8 is taken: pick an empty point.",
    ] {
        assert!(output.contains(expected), "{expected:?} in:\n{output}");
    }
    assert_eq!(last_board(&output)[7], ".......X.......");
}

#[test]
fn the_ai_plays_gomoku_to_the_end_and_the_same_seed_replays_the_game() {
    let play = || {
        let args = ["--plain", "--gomoku", "-x", "2", "-o", "1", "--seed", "5"];
        let mut game = spawn(&[&args[..], &["--no-history"]].concat());
        assert!(game.wait_exit().success(), "{}", game.output());
        game.output()
    };
    let first = play();
    let result = ["X wins.", "O wins.", "Draw."];
    assert!(result.iter().any(|r| first.contains(r)), "{first}");
    assert_eq!(record(&first), record(&play()));
}

#[test]
fn review_judges_a_gomoku_game_from_its_record() {
    let mut args = vec!["review", "--gomoku", "--think", "50"];
    args.extend(FIVE_ON_ROW_ONE);
    let mut review = spawn(&args);
    assert!(review.wait_exit().success(), "{}", review.output());
    let output = review.output();
    let last = output
        .lines()
        .find(|l| l.trim_start().starts_with("9. X e1"))
        .unwrap_or_else(|| panic!("the winning move judged in:\n{output}"));
    assert!(last.contains("best") && last.contains("win in 1"), "{last}");
    assert!(output.contains("O d3"), "every move is judged:\n{output}");
}

#[test]
fn two_processes_play_gomoku_over_the_network_and_print_the_same_boards() {
    let host = ["host", "--bind", "127.0.0.1", "--port", "0", "--gomoku"];
    let mut host = spawn(&[&host[..], &["--no-history"]].concat());
    host.wait_for("Waiting for a player");
    let line = host.output().lines().next().unwrap().to_string();
    let rest = line.strip_prefix("Join with: tictactoe join ").unwrap();
    let (addr, code) = rest.split_once(" --code ").unwrap();
    let mut joiner = spawn(&["join", addr, "--code", code, "--no-history"]);
    joiner.wait_for("You play O.");
    host.wait_for("You play X.");
    // Each side's moves, every other one from the first or the second.
    let lines = |first: usize| -> String {
        FIVE_ON_ROW_ONE[first..]
            .iter()
            .step_by(2)
            .fold(String::new(), |lines, m| lines + m + "\n")
    };
    host.send(&lines(0));
    joiner.send(&lines(1));
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let (h, j) = (host.output(), joiner.output());
    assert!(j.contains("Gomoku"), "the joiner is told the game:\n{j}");
    assert!(h.contains("X wins.") && j.contains("X wins."), "{h}\n{j}");
    assert_eq!(last_board(&h), last_board(&j));
    assert_eq!(record(&h), record(&j));
}

#[test]
fn the_terminal_game_draws_the_fifteen_by_fifteen_board_and_arrows_enter_and_typing_play() {
    let home = concat!(env!("CARGO_TARGET_TMPDIR"), "/gomoku-home");
    let mut game = Terminal::start_in(&[], &["--gomoku", "-o", "human"], home);
    game.wait_for("Gomoku · round 1");
    game.wait_for("a b c d e f g h i j k l m n o");
    game.send("\r"); // the cursor starts on the centre
    game.wait_for("O to move");
    game.send("\x1b[A\x1b[C\r"); // up and right: i9
    game.wait_for("X to move");
    game.send("o15"); // a column past i and a row past 9, typed
    game.wait_for("O to move");
    let rows = game.read(|s| {
        (0..24)
            .map(|r| s.contents_between(r, 0, r, 80))
            .collect::<Vec<_>>()
    });
    let row = |n: &str| {
        rows.iter()
            .find(|r| r.trim_start().starts_with(&format!("{n} ")))
            .unwrap_or_else(|| panic!("row {n} in:\n{}", rows.join("\n")))
            .split_whitespace()
            .skip(1)
            .collect::<String>()
            .replace(['[', ']'], "")
    };
    // Stones are drawn black (X) and white (O).
    assert_eq!(row("8"), "···+···●···+···".replace('+', "·"));
    assert_eq!(row("9"), "········○······");
    assert_eq!(row("15"), "··············●");
    game.send("q");
    game.send("q");
    assert!(game.wait_exit().success());
}

#[test]
fn a_finished_gomoku_game_is_kept_in_the_history_and_reviewed_from_it() {
    let home = concat!(env!("CARGO_TARGET_TMPDIR"), "/gomoku-history");
    let _ = std::fs::remove_dir_all(home);
    let in_home = |args: &[&str]| {
        let mut run = Proc::spawn(args, &[("TICTACTOE_HOME", home)], TIMEOUT);
        assert!(run.wait_exit().success(), "{}", run.output());
        run.output()
    };
    let mut game = Proc::spawn(
        &["--plain", "--gomoku", "-o", "human"],
        &[("TICTACTOE_HOME", home)],
        TIMEOUT,
    );
    game.send(&format!("{}\n", FIVE_ON_ROW_ONE.join("\n")));
    assert!(game.wait_exit().success(), "{}", game.output());
    let listed = in_home(&["history"]);
    let row = listed.lines().nth(1).unwrap_or_default();
    assert!(
        row.contains("Gomoku") && row.contains("X won") && row.ends_with(" 9"),
        "{listed}"
    );
    let reviewed = in_home(&["review", "--last", "--think", "20"]);
    assert!(reviewed.contains("9. X e1"), "{reviewed}");
}

/// The position after `moves`, typed as a player types them.
fn position_after(moves: &[&str]) -> tictactoe::rules::position::Position {
    let mut position = tictactoe::rules::position::Variant::GOMOKU.start();
    for text in moves {
        let mv = position.parse_move(text).unwrap();
        position.play(mv).unwrap();
    }
    position
}

#[test]
fn hard_takes_a_five_on_offer_and_blocks_the_only_point_that_stops_one() {
    use tictactoe::ai::player::{Brain, Player};
    let mut brain = Brain::new(Some(3)).with_think(Duration::from_millis(30));
    // Four of X on b1-e1 with a1 taken by O: only f1 makes five, and only f1 stops it.
    let four = ["b1", "a1", "c1", "h8", "d1", "h9", "e1"];
    let x_to_win = position_after(&[&four[..], &["j10"]].concat());
    let win = brain.choose(Player::HARD, &x_to_win).unwrap();
    assert_eq!(win.to_string(), "f1", "{x_to_win}");
    let o_to_block = position_after(&four);
    let block = brain.choose(Player::HARD, &o_to_block).unwrap();
    assert_eq!(block.to_string(), "f1", "{o_to_block}");
}

/// A 15×15 board as the tests see it, apart from the engine: `grid[row][col]`, row 0 the
/// bottom (`a1`), 0 empty, 1 X, 2 O.
type Grid = [[u8; 15]; 15];

/// Whether `side` has five in a row through (`row`, `col`) once a stone of its is there.
fn makes_five(grid: &Grid, row: usize, col: usize, side: u8) -> bool {
    let at = |r: i32, c: i32| {
        (0..15).contains(&r) && (0..15).contains(&c) && {
            let (r, c) = (r as usize, c as usize);
            (r, c) == (row, col) || grid[r][c] == side
        }
    };
    [(0, 1), (1, 0), (1, 1), (1, -1)].iter().any(|&(dr, dc)| {
        let run = |sign: i32| {
            (1..5)
                .take_while(|&i| at(row as i32 + sign * i * dr, col as i32 + sign * i * dc))
                .count()
        };
        1 + run(1) + run(-1) >= 5
    })
}

/// The empty points where `side` makes five.
fn five_points(grid: &Grid, side: u8) -> Vec<(usize, usize)> {
    (0..15)
        .flat_map(|r| (0..15).map(move |c| (r, c)))
        .filter(|&(r, c)| grid[r][c] == 0 && makes_five(grid, r, c, side))
        .collect()
}

fn point_name((row, col): (usize, usize)) -> String {
    format!("{}{}", (b'a' + col as u8) as char, row + 1)
}

/// A position with X to move where O has one five point, on a line with exactly five points
/// open to it (`X O O O . O X`, or the same against the board's edge), and a threat to win
/// elsewhere besides (an open three); no five on the board and none for X to make. Drawn by
/// `rng`; `None` when the stones drawn do not make one.
fn one_five_point_to_block(rng: &mut fastrand::Rng) -> Option<(Vec<String>, (usize, usize))> {
    let mut grid: Grid = [[0; 15]; 15];
    // Each side's stones, in the order placed: X's, then O's.
    let mut stones: [Vec<(usize, usize)>; 2] = [Vec::new(), Vec::new()];
    let put = |grid: &mut Grid, stones: &mut [Vec<_>; 2], r: i32, c: i32, side: u8| {
        let (r, c) = (usize::try_from(r).ok()?, usize::try_from(c).ok()?);
        (r < 15 && c < 15 && grid[r][c] == 0).then_some(())?;
        grid[r][c] = side;
        stones[usize::from(side - 1)].push((r, c));
        Some(())
    };
    let dirs = [(0, 1), (1, 0), (1, 1), (1, -1)];
    // The four: X, then four O and a gap among them, then X, or the edge at one end.
    let (dr, dc) = dirs[rng.usize(..4)];
    let against_edge = rng.bool();
    let (r0, c0) = if against_edge {
        // The line's first point lies on the edge the line runs from.
        let mut start = |d: i32| match d.cmp(&0) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 14,
            std::cmp::Ordering::Equal => rng.i32(0..15),
        };
        (start(dr), start(dc))
    } else {
        (rng.i32(0..15), rng.i32(0..15))
    };
    let gap = rng.usize(1..4);
    let first = i32::from(!against_edge);
    if !against_edge {
        put(&mut grid, &mut stones, r0, c0, 1)?;
    }
    let mut hole = None;
    for i in 0..5 {
        let (r, c) = (r0 + (first + i) * dr, c0 + (first + i) * dc);
        if i as usize == gap {
            hole = Some((usize::try_from(r).ok()?, usize::try_from(c).ok()?));
            (0..15).contains(&r).then_some(())?;
            (0..15).contains(&c).then_some(())?;
        } else {
            put(&mut grid, &mut stones, r, c, 2)?;
        }
    }
    put(
        &mut grid,
        &mut stones,
        r0 + (first + 5) * dr,
        c0 + (first + 5) * dc,
        1,
    )?;
    // An open three of O elsewhere: `. O O O .`.
    let (tr, tc) = dirs[rng.usize(..4)];
    let (r1, c1) = (rng.i32(2..13), rng.i32(2..13));
    for i in 0..3 {
        put(&mut grid, &mut stones, r1 + i * tr, c1 + i * tc, 2)?;
    }
    for i in [-1, 3] {
        let (r, c) = (r1 + i * tr, c1 + i * tc);
        ((0..15).contains(&r) && (0..15).contains(&c) && grid[r as usize][c as usize] == 0)
            .then_some(())?;
    }
    // X as many stones as O, the rest scattered.
    while stones[0].len() < stones[1].len() {
        put(&mut grid, &mut stones, rng.i32(0..15), rng.i32(0..15), 1)?;
    }
    let hole = hole?;
    let no_five =
        (0..15).all(|r| (0..15).all(|c| grid[r][c] == 0 || !makes_five(&grid, r, c, grid[r][c])));
    let fair = no_five && five_points(&grid, 1).is_empty() && five_points(&grid, 2) == [hole];
    fair.then(|| {
        let moves = stones[0].iter().zip(&stones[1]).flat_map(|(&x, &o)| [x, o]);
        (moves.map(point_name).collect(), hole)
    })
}

#[test]
fn hard_blocks_a_lone_five_point_on_a_line_of_exactly_five_while_another_threat_stands() {
    use tictactoe::ai::player::{Brain, Player};
    let mut rng = fastrand::Rng::with_seed(67);
    let mut tried = 0;
    while tried < 16 {
        let Some((moves, hole)) = one_five_point_to_block(&mut rng) else {
            continue;
        };
        tried += 1;
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        let position = position_after(&texts);
        let mut brain = Brain::new(Some(tried)).with_think(Duration::from_millis(20));
        let played = brain.choose(Player::HARD, &position).unwrap();
        assert_eq!(played.to_string(), point_name(hole), "{position}");
    }
}

#[test]
fn a_lost_position_is_played_to_its_longest_defence() {
    use tictactoe::ai::player::{Brain, Player};
    // Black (X) to move, lost: white's four g6 h6 i6 k6 has exactly five points between
    // X's f6 and l6, and white has more threats besides.
    let moves = "k5 k6 i5 g5 h7 h8 d7 i6 l6 g6 j4 i3 m7 n8 f6 g7 g8 g3 g4 h3 j3 h6";
    let position = position_after(&moves.split(' ').collect::<Vec<_>>());
    let mut brain = Brain::new(Some(7)).with_think(Duration::from_millis(100));
    let values = brain.hint(&position);
    let longest = values.iter().map(|&(_, v)| v).max().unwrap();
    assert!(
        matches!(longest, tictactoe::ai::search::Value::Loss(_)),
        "a lost position: {values:?}"
    );
    let played = Brain::new(Some(7))
        .with_think(Duration::from_millis(100))
        .choose(Player::HARD, &position)
        .unwrap();
    let value = values.iter().find(|&&(m, _)| m == played).map(|&(_, v)| v);
    assert_eq!(
        value,
        Some(longest),
        "played {played}; every move's value: {values:?}"
    );
}

#[test]
fn a_hint_in_a_game_gives_the_values_a_fresh_look_at_the_same_position_gives() {
    use tictactoe::ai::player::{Brain, Player};
    // The game of a player who followed the hints: the AI has searched its own moves, then
    // is asked for a hint.
    let from = [
        "h8", "h10", "i9", "i7", "j10", "g7", "j9", "k9", "j11", "j12",
    ];
    let brain = || Brain::new(Some(5)).with_think(Duration::from_millis(40));
    let mut in_game = brain();
    let mut moves: Vec<String> = from.iter().map(ToString::to_string).collect();
    for person in ["k11", "k10"] {
        moves.push(person.into());
        let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
        let reply = in_game
            .choose(Player::HARD, &position_after(&texts))
            .unwrap();
        moves.push(reply.to_string());
    }
    let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
    let position = position_after(&texts);
    let hinted = in_game.hint(&position);
    assert!(!hinted.is_empty());
    assert_eq!(hinted, brain().hint(&position), "{position}");
}

#[test]
fn explain_shows_gomokus_monte_carlo_tree_and_refuses_a_textbook_search() {
    let tree = || {
        let args = [
            "explain",
            "--gomoku",
            "--iterations",
            "200",
            "--seed",
            "3",
            "h8",
            "i9",
        ];
        let mut run = spawn(&args);
        assert!(run.wait_exit().success(), "{}", run.output());
        run.output()
    };
    let first = tree();
    assert!(first.contains("200 iterations, seed 3"), "{first}");
    assert!(first.contains("root, X to move: 200 visits"), "{first}");
    assert_eq!(first, tree(), "the same seed, the same tree");
    let mut textbook = spawn(&["explain", "--gomoku", "--algorithm", "minimax"]);
    assert_eq!(textbook.wait_exit().code(), Some(2));
    assert!(textbook.output().contains("Gomoku's trees are Monte Carlo"));
}

#[test]
fn boards_from_eight_to_fifteen_play_five_in_a_row_or_the_line_given_and_the_record_names_it() {
    let mut game = spawn(&["--plain", "--size", "9", "-o", "human", "--no-history"]);
    game.send(&format!("{}\n", FIVE_ON_ROW_ONE.join("\n")));
    assert!(game.wait_exit().success(), "{}", game.output());
    let output = game.output();
    assert!(output.contains("X wins."), "{output}");
    assert!(
        output.contains("   a b c d e f g h i\n"),
        "a 9×9 board:\n{output}"
    );
    assert_eq!(
        record(&output),
        format!("Record: --size 9 {}", FIVE_ON_ROW_ONE.join(" "))
    );
    let four = ["a1", "a3", "b1", "b3", "c1", "c3", "d1"];
    let args = [
        "--plain",
        "--size",
        "8",
        "--k",
        "4",
        "-o",
        "human",
        "--no-history",
    ];
    let mut game = spawn(&args);
    game.send(&format!("{}\n", four.join("\n")));
    assert!(game.wait_exit().success(), "{}", game.output());
    let output = game.output();
    assert!(output.contains("X wins."), "{output}");
    assert_eq!(
        record(&output),
        format!("Record: --size 8 --k 4 {}", four.join(" "))
    );
    let mut refused = spawn(&["--plain", "--size", "8", "--misere"]);
    assert_eq!(refused.wait_exit().code(), Some(2));
    assert!(
        refused
            .output()
            .contains("misère is played on boards up to 7×7"),
        "{}",
        refused.output()
    );
    let mut engine = spawn(&["engine", "--protocol", "gomocup", "--think", "50"]);
    engine.send("START 8\nBEGIN\nEND\n");
    assert!(engine.wait_exit().success());
    let answers: Vec<String> = engine.output().lines().map(String::from).collect();
    assert_eq!(answers[0], "OK", "{answers:?}");
    let (x, y) = answers[1].split_once(',').expect("a move");
    assert!(
        x.parse::<u8>().unwrap() < 8 && y.parse::<u8>().unwrap() < 8,
        "{answers:?}"
    );
}

#[test]
fn under_swap2_two_people_place_choose_and_play_the_colours_chosen_and_review_replays_it() {
    // Player 1 places three stones, Player 2 places two more (a stone before choosing is
    // refused, and so is a second `two`), Player 1 takes white; then X, Player 2's, makes
    // five on row 7.
    let moves = [
        "h8", "i9", "j8", "a1", "two", "i7", "h7", "two", "white", "a15", "g7", "b15", "f7", "c15",
        "e7", "d15", "d7",
    ];
    let output = won_once(&["--opening", "swap2"], &moves);
    for asked in [
        "Opening, Player 1: place stone 2 of 3 (O, white)",
        "Opening, Player 2: choose black (X), white (O) or two (place two more) (u undo",
        "Opening, Player 2: place two more: stone 1 of 2 (O, white)",
        "Opening, Player 1: choose black (X) or white (O) (u undo",
        "O (Player 1) to move",
        "X (Player 2) to move",
    ] {
        assert!(output.contains(asked), "{asked:?} in:\n{output}");
    }
    assert!(
        output.contains("A colour is to be chosen first: black or white"),
        "{output}"
    );
    assert!(output.contains("'two' is not a choice now."), "{output}");
    let played = "h8 i9 j8 two i7 h7 white a15 g7 b15 f7 c15 e7 d15 d7";
    assert_eq!(
        record(&output),
        format!("Record: --gomoku --opening swap2 {played}")
    );
    let mut args = vec!["review", "--opening", "swap2", "--think", "20"];
    args.extend(played.split(' '));
    let mut review = spawn(&args);
    assert!(review.wait_exit().success(), "{}", review.output());
    let text = review.output();
    let chosen = text
        .lines()
        .find(|l| l.trim_start().starts_with("7. O white"))
        .unwrap_or_else(|| panic!("the choice judged in:\n{text}"));
    assert!(
        chosen.contains('%'),
        "a colour is judged by its share: {chosen}"
    );
}

#[test]
fn the_ai_opens_a_swap1_game_stone_by_stone_and_takes_the_colour_the_stones_favour_when_a_person_opens_a_swap2_game()
 {
    let mut opened = spawn(&[
        "--plain",
        "--opening",
        "swap1",
        "-x",
        "hard",
        "-o",
        "human",
        "--seed",
        "3",
        "--think",
        "30",
        "--no-history",
    ]);
    opened.wait_for("Opening, you: choose black (X) or white (O) (u undo, h hint, q quit): ");
    opened.send("q\n");
    opened.wait_exit();
    let output = opened.output();
    assert_eq!(
        output.matches("level 7 AI placed").count(),
        3,
        "three stones, one by one:\n{output}"
    );
    // Asked to choose after three stones a person placed, the AI takes the colour its own
    // reading favours where the stones leave no doubt: black's two side by side at the centre
    // against white's in a corner, and white's at the centre against black's in two corners.
    for (stones, taken) in [
        ("h8\na1\ni8\n", "level 7 AI takes black (X)"),
        ("a1\nh8\no15\n", "level 7 AI takes white (O)"),
    ] {
        let mut choosing = spawn(&[
            "--plain",
            "--opening",
            "swap2",
            "-o",
            "hard",
            "--seed",
            "3",
            "--think",
            "30",
            "--no-history",
        ]);
        choosing.send(stones);
        choosing.wait_until("the AI's choice", |out| {
            out.contains("level 7 AI takes ") || out.contains("level 7 AI places two more")
        });
        let output = choosing.output();
        assert!(output.contains(taken), "after {stones:?}:\n{output}");
        choosing.send("q\n");
        choosing.wait_exit();
    }
}

#[test]
fn in_the_terminal_game_b_w_and_2_choose_and_other_keys_say_what_is_asked() {
    let home = concat!(env!("CARGO_TARGET_TMPDIR"), "/swap-home");
    let mut game = Terminal::start_in(&[], &["--opening", "swap2", "-o", "human"], home);
    game.wait_for("Gomoku, swap2 · round 1");
    game.wait_for("Player 1 places stone 1 of 3 (X)");
    game.send("h8i9j8");
    game.wait_for("Player 2 chooses: b black · w white · 2 two more");
    game.send("a");
    game.wait_for("The opening asks for a choice: b black · w white · 2 two more");
    game.send("2");
    game.wait_for("Player 2 places two more. Player 2 places two more: stone 1 of 2 (O)");
    game.send("i7h7");
    game.wait_for("Player 1 chooses: b black · w white");
    game.send("b");
    game.wait_for("Player 1 takes black (X). O to move (Player 2)");
    game.send("q");
    game.wait_for("Leave this game?");
    game.send("y");
    assert!(game.wait_exit().success());
}
