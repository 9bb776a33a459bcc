//! Games on a clock, played by the real binary: a flag that falls for a person who does not
//! answer, the AI keeping to its own clock, and a network game whose host's clock referees
//! both sides, between two processes on loopback.

use std::time::Duration;

mod proc;
use proc::{Proc, record};

const TIMEOUT: Duration = Duration::from_mins(1);

/// A home of its own for a test's history.
fn home(name: &str) -> String {
    let dir = format!("{}/clock-{name}", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The one game of a history, as JSON.
fn kept(home: &str) -> serde_json::Value {
    let text = std::fs::read_to_string(format!("{home}/history.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    serde_json::from_str(&text).unwrap()
}

#[test]
fn a_person_who_lets_the_time_run_out_loses_on_time_and_the_history_says_so() {
    let dir = home("person");
    let mut game = Proc::spawn(
        &["--plain", "-o", "hard", "--clock", "1s"],
        &[("TICTACTOE_HOME", &dir)],
        TIMEOUT,
    );
    game.wait_for("X to move, ");
    game.send("5\n");
    game.wait_for("X ran out of time: O wins.");
    assert!(game.wait_exit().success(), "{}", game.output());
    let output = game.output();
    // Said once, on a line of its own after the prompt the flag fell under.
    assert_eq!(output.matches("ran out").count(), 1, "{output}");
    assert!(output.contains("\nX ran out of time: O wins."), "{output}");
    let line = kept(&dir);
    assert_eq!(
        [&line["ending"], &line["winner"], &line["result"]],
        ["time", "O", "lost"],
        "{line}"
    );
}

#[test]
fn the_ai_keeps_to_its_own_clock_through_a_whole_ultimate_game() {
    // Five seconds each for the game: the AI thinks for a twentieth of what it has left.
    // Without the clock it would think its second a move, some 40 s in all.
    let start = std::time::Instant::now();
    let mut game = Proc::spawn(
        &[
            "--plain",
            "--ultimate",
            "-x",
            "hard",
            "-o",
            "hard",
            "--clock",
            "0:05",
            "--no-history",
        ],
        &[],
        TIMEOUT,
    );
    assert!(game.wait_exit().success(), "{}", game.output());
    let took = start.elapsed();
    let output = game.output();
    assert!(!output.contains("ran out of time"), "{output}");
    assert!(
        output.contains(" wins.") || output.contains("Draw."),
        "{output}"
    );
    assert!(
        took < std::time::Duration::from_secs(15),
        "two five-second clocks took {took:?}"
    );
}

/// The seconds of a reading such as `1 minute 19 seconds`, found after the last `who` in
/// `reading`.
fn seconds_of(reading: &str, who: &str) -> u64 {
    let at = reading
        .rfind(who)
        .unwrap_or_else(|| panic!("{who} in {reading}"))
        + who.len();
    let said = reading[at..].split(" left").next().unwrap();
    let words: Vec<&str> = said.split_whitespace().collect();
    words
        .chunks(2)
        .map(|pair| {
            let n: u64 = pair[0].parse().unwrap_or_else(|_| panic!("{said}"));
            if pair[1].starts_with("minute") {
                n * 60
            } else {
                n
            }
        })
        .sum()
}

#[test]
fn the_clock_reading_says_each_sides_time_and_whose_runs() {
    let mut game = Proc::spawn(
        &["--plain", "-o", "human", "--clock", "5+30", "--no-history"],
        &[],
        TIMEOUT,
    );
    game.send("clock\n");
    game.wait_for("Clock: 5 minutes each, and 30 seconds more a move. X, Player 1: 4 minutes");
    let reading = clock_line(&game.output(), 1);
    assert!(
        reading.ends_with("left, running; O, Player 2: 5 minutes left."),
        "{reading}"
    );
    // X's move, made within half a minute, is charged its time and given 30 s more: more
    // than X started with, less than that and the whole increment.
    game.send("5\nclock\n");
    game.wait_until("a second reading", |out| {
        out.matches("Clock: 5 minutes").count() == 2
    });
    let reading = clock_line(&game.output(), 2);
    let x = seconds_of(&reading, "X, Player 1: ");
    assert!((301..330).contains(&x), "{reading}");
    assert!(seconds_of(&reading, "O, Player 2: ") < 300, "{reading}");
    assert!(reading.ends_with("left, running."), "{reading}");
}

/// The `n`th clock reading in `output` (from 1).
fn clock_line(output: &str, n: usize) -> String {
    let at = output.match_indices("Clock: ").nth(n - 1).unwrap().0;
    output[at..].lines().next().unwrap().to_string()
}

/// A plain host on a free loopback port with `extra` flags and the history in `home`, and
/// the address and code from its `Join with:` line.
fn host(extra: &[&str], home: &str) -> (Proc, String, String) {
    let mut args = vec!["host", "--bind", "127.0.0.1", "--port", "0"];
    args.extend_from_slice(extra);
    let host = Proc::spawn(&args, &[("TICTACTOE_HOME", home)], TIMEOUT);
    host.wait_for("Waiting for a player");
    let output = host.output();
    let line = output.lines().next().unwrap();
    let rest = line.strip_prefix("Join with: tictactoe join ").unwrap();
    let (addr, code) = rest.split_once(" --code ").unwrap();
    (host, addr.to_string(), code.to_string())
}

#[test]
fn over_the_network_the_hosts_clock_lets_the_silent_joiners_flag_fall_on_both_sides() {
    let (host_home, join_home) = (home("net-host"), home("net-joiner"));
    let (mut host, addr, code) = host(&["--clock", "2s"], &host_home);
    assert!(
        host.output().contains("clock 2 s a move"),
        "{}",
        host.output()
    );
    let mut joiner = Proc::spawn(
        &["join", &addr, "--code", &code],
        &[("TICTACTOE_HOME", &join_home)],
        TIMEOUT,
    );
    joiner.wait_for("You play O.");
    assert!(
        joiner.output().contains(", clock 2 s a move)."),
        "{}",
        joiner.output()
    );
    host.send("5\n");
    joiner.wait_for("O to move, ");
    // The joiner says nothing: its two seconds, and the second allowed for lag, pass.
    host.wait_for("O ran out of time");
    joiner.wait_for("O ran out of time");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let (h, j) = (host.output(), joiner.output());
    // Each side says it once, on a line of its own (the joiner's flag fell under its prompt).
    for said in [&h, &j] {
        assert_eq!(said.matches("ran out").count(), 1, "{said}");
        assert!(said.contains("\nO ran out of time: X wins."), "{said}");
    }
    assert_eq!(record(&h), "Record: 5");
    assert_eq!(record(&h), record(&j));
    for (home, result) in [(&host_home, "won"), (&join_home, "lost")] {
        let line = kept(home);
        assert_eq!(
            [&line["ending"], &line["result"]],
            ["time", result],
            "{line}"
        );
    }
}

#[test]
fn over_the_network_each_sides_clock_follows_the_moves_and_the_increment() {
    let dir = home("net-both");
    let (mut host, addr, code) = host(&["--clock", "1+20", "--no-history"], &dir);
    let mut joiner = Proc::spawn(
        &["join", &addr, "--code", &code, "--no-history"],
        &[],
        TIMEOUT,
    );
    joiner.wait_for("You play O.");
    host.send("5\n");
    joiner.wait_for("O to move, ");
    // The host's readings came with its move: a minute, less its thinking, plus twenty
    // seconds: more than a minute (the increment given), less than 80 s (the time charged).
    joiner.send("clock\n");
    joiner.wait_for("Clock: 1 minute each, and 20 seconds more a move.");
    let reading = clock_line(&joiner.output(), 1);
    let (x, o) = reading.split_once("; ").unwrap();
    assert!((61..80).contains(&seconds_of(x, ": ")), "{reading}");
    assert!(
        o.starts_with("O, you: ") && o.ends_with("left, running."),
        "{reading}"
    );
    joiner.send("1\n");
    host.wait_for("X to move, ");
    host.send("clock\n");
    host.wait_for("Clock: 1 minute each, and 20 seconds more a move.");
    let reading = clock_line(&host.output(), 1);
    let (x, o) = reading.split_once("; ").unwrap();
    assert!(
        x.starts_with("Clock: 1 minute each, and 20 seconds more a move. X, you: "),
        "{reading}"
    );
    assert!(x.ends_with("left, running"), "{reading}");
    // The joiner's move came as the host's clock referees it: charged, and given 20 s.
    assert!((61..80).contains(&seconds_of(o, ": ")), "{reading}");
    host.send("q\n");
    assert!(host.wait_exit().success(), "{}", host.output());
}
