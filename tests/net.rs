//! Network play between real processes on loopback: `tictactoe host` and `tictactoe join` in
//! the plain front end, and hand-made clients that misbehave. Every test binds 127.0.0.1 on a
//! port the system picks, and ends by itself within seconds.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use tictactoe::net::seal::{Exchange, Keys, Role};

const TIMEOUT: Duration = Duration::from_secs(20);

mod proc;
use proc::{Proc, boards, record};

/// A `tictactoe` of these tests, with their time limit.
fn spawn(args: &[&str]) -> Proc {
    Proc::spawn(args, &[], TIMEOUT)
}

/// A host on a free loopback port, with the address and code from its `Join with:` line.
fn host(extra: &[&str]) -> (Proc, String, String) {
    host_with(extra, &[])
}

/// [`host`] with the environment `envs`.
fn host_with(extra: &[&str], envs: &[(&str, &str)]) -> (Proc, String, String) {
    let mut args = vec!["host", "--bind", "127.0.0.1", "--port", "0"];
    args.extend_from_slice(extra);
    let host = Proc::spawn(&args, envs, TIMEOUT);
    host.wait_for("Waiting for a player");
    let output = host.output();
    let line = output.lines().next().unwrap();
    let rest = line
        .strip_prefix("Join with: tictactoe join ")
        .unwrap_or_else(|| panic!("first line: {line:?}"));
    let (addr, code) = rest.split_once(" --code ").unwrap();
    assert_eq!(
        output.matches("Join with:").count(),
        1,
        "exactly one join line"
    );
    (host, addr.to_string(), code.to_string())
}

fn join(addr: &str, code: &str) -> Proc {
    spawn(&["join", addr, "--code", code])
}

/// A plain host and a joiner, once both say the game has begun.
fn connected() -> (Proc, Proc) {
    let (host, addr, code) = host(&[]);
    let joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    host.wait_for("joined. You play X.");
    (host, joiner)
}

#[test]
fn two_processes_play_a_game_and_print_the_same_boards() {
    let (mut host, mut joiner) = connected();
    host.send("5\n4\n3\n2\n9\n");
    joiner.send("7\n6\n1\n8\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let (h, j) = (host.output(), joiner.output());
    assert!(j.contains("X (remote) plays 5") && h.contains("O (remote) plays 7"));
    assert_eq!(
        boards(&h).len(),
        10,
        "the empty board and one per move:\n{h}"
    );
    assert_eq!(boards(&h), boards(&j));
    assert!(h.contains("Draw.") && j.contains("Draw."));
    assert_eq!(record(&h), "Record: 5 7 4 6 3 1 2 8 9");
    assert_eq!(record(&h), record(&j));
}

#[test]
fn a_network_game_is_kept_in_each_players_history_against_remote() {
    let home = |who: &str| {
        let dir = format!("{}/net-history-{who}", env!("CARGO_TARGET_TMPDIR"));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    };
    let (host_home, join_home) = (home("host"), home("joiner"));
    let (mut host, addr, code) = host_with(&[], &[("TICTACTOE_HOME", &host_home)]);
    let mut joiner = Proc::spawn(
        &["join", &addr, "--code", &code],
        &[("TICTACTOE_HOME", &join_home)],
        TIMEOUT,
    );
    joiner.wait_for("You play O.");
    host.send("7\n8\n9\n");
    joiner.send("4\n5\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let line = |home: &str| {
        let text = std::fs::read_to_string(format!("{home}/history.jsonl")).unwrap();
        assert_eq!(text.lines().count(), 1, "{text}");
        serde_json::from_str::<serde_json::Value>(&text).unwrap()
    };
    let (kept_by_host, kept_by_joiner) = (line(&host_home), line(&join_home));
    for (kept, x, o, result) in [
        (&kept_by_host, "human", "remote", "won"),
        (&kept_by_joiner, "remote", "human", "lost"),
    ] {
        assert_eq!(
            [&kept["x"], &kept["o"], &kept["winner"], &kept["result"]],
            [x, o, "X", result],
            "{kept}"
        );
        assert_eq!(kept["moves"], serde_json::json!(["7", "4", "8", "5", "9"]));
    }
}

#[test]
fn a_host_on_every_interface_names_an_address_a_friend_can_join() {
    let host = spawn(&["host", "--port", "0"]);
    host.wait_for("Waiting for a player");
    let output = host.output();
    let rest = output
        .lines()
        .find_map(|l| l.strip_prefix("Join with: tictactoe join "))
        .unwrap_or_else(|| panic!("no join line:\n{output}"));
    let (addr, code) = rest.split_once(" --code ").unwrap();
    let ip: std::net::SocketAddr = addr.parse().unwrap();
    assert!(!ip.ip().is_unspecified(), "{addr}");
    let joiner = join(addr, code);
    joiner.wait_for("You play O.");
    host.wait_for("joined. You play X.");
}

#[test]
fn the_join_code_is_read_in_any_case_and_the_prompt_offers_no_undo_and_no_hint() {
    let (mut host, addr, code) = host(&[]);
    let mut joiner = join(&addr, &code.to_uppercase());
    joiner.wait_for("You play O.");
    host.wait_for("X to move (1-9, q quit): ");
    host.send("5\n");
    joiner.wait_for("O to move (1-9, q quit): ");
    joiner.send("q\n");
    host.wait_for("O left the game.");
    assert!(joiner.wait_exit().success());
    host.wait_exit();
    let (h, j) = (host.output(), joiner.output());
    assert!(!h.contains("u undo") && !j.contains("u undo"), "{h}\n{j}");
    assert!(!h.contains("h hint") && !j.contains("h hint"), "{h}\n{j}");
}

#[test]
fn a_five_by_five_game_takes_the_host_rules() {
    let (mut host, addr, code) = host(&["--size", "5"]);
    let mut joiner = join(&addr, &code);
    joiner.wait_for("(5×5, 4 in a row). You play O.");
    // X fills the bottom row's first four cells while O plays above them.
    host.send("a1\nb1\nc1\nd1\n");
    joiner.send("a2\nb2\nc2\n");
    assert!(host.wait_exit().success());
    assert!(joiner.wait_exit().success());
    let (h, j) = (host.output(), joiner.output());
    assert_eq!(boards(&h), boards(&j));
    assert!(h.contains("X wins.") && j.contains("X wins."), "{h}");
    assert_eq!(record(&j), "Record: --size 5 a1 a2 b1 b2 c1 c2 d1");
}

#[test]
fn a_connect_four_game_takes_the_host_rules_and_both_see_the_same_columns() {
    let (mut host, addr, code) = host(&["--connect-four"]);
    let mut joiner = join(&addr, &code);
    joiner.wait_for("(Connect Four). You play O.");
    // X stacks four in column 4 while O plays column 5.
    host.send("4\n4\n4\n4\n");
    joiner.send("5\n5\n5\n");
    assert!(host.wait_exit().success());
    assert!(joiner.wait_exit().success());
    let (h, j) = (host.output(), joiner.output());
    // Connect Four's rows stand between its sides: `| . . . X O . . |`.
    let rows = |out: &str| -> Vec<String> {
        let rows = out.lines().filter(|l| l.starts_with("| "));
        rows.map(str::to_string).collect()
    };
    assert!(rows(&h).len() >= 6 * 7, "{h}");
    assert_eq!(rows(&h), rows(&j));
    assert!(h.contains("| . . . X O . . |"), "{h}");
    assert!(h.contains("X wins.") && j.contains("X wins."), "{h}");
    assert_eq!(record(&j), "Record: --connect-four 4 5 4 5 4 5 4");
}

#[test]
fn a_swap2_opening_over_the_network_gives_the_joiner_the_colour_it_chose() {
    let (mut host, addr, code) = host(&["--opening", "swap2"]);
    let mut joiner = join(&addr, &code);
    joiner.wait_for("(Gomoku, swap2). You play O.");
    // The host places three stones; the joiner takes black and makes five on row 8 while
    // the host, now white, plays elsewhere.
    host.send("h8\ni9\nj8\n");
    joiner.wait_for("Opening, you: choose black (X), white (O) or two (place two more)");
    joiner.send("black\n");
    host.wait_for("127.0.0.1 takes black (X)");
    host.send("a1\na2\na3\n");
    joiner.send("i8\nk8\nl8\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let (h, j) = (host.output(), joiner.output());
    assert_eq!(boards(&h), boards(&j));
    assert!(
        j.contains("X (you) to move") && h.contains("O (you) to move"),
        "{j}"
    );
    assert!(j.contains("X wins.") && h.contains("X wins."), "{h}");
    let expected = "Record: --gomoku --opening swap2 h8 i9 j8 black a1 i8 a2 k8 a3 l8";
    assert_eq!(record(&h), expected);
    assert_eq!(record(&j), expected);
}

#[test]
fn a_host_started_from_a_position_gives_the_joiner_that_position() {
    let (mut host, addr, code) = host(&["--from", "5", "1"]);
    let mut joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    host.wait_for("X to move (1-9, q quit): ");
    // X completes 3-5-7 while O looks elsewhere.
    host.send("3\n");
    joiner.wait_for("X (remote) plays 3");
    joiner.send("2\n");
    host.wait_for("O (remote) plays 2");
    host.send("7\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let (h, j) = (host.output(), joiner.output());
    assert_eq!(
        boards(&j).first().map(String::as_str),
        Some(" 7 | 8 | 9/---+---+---/ 4 | X | 6/---+---+---/ O | 2 | 3"),
        "the joiner starts at the position:\n{j}"
    );
    assert_eq!(boards(&h), boards(&j));
    assert!(h.contains("X wins.") || h.contains("You win!"), "{h}");
    assert_eq!(record(&h), "Record: 5 1 3 2 7");
    assert_eq!(record(&h), record(&j));
}

#[test]
fn a_bad_from_move_is_named_and_the_host_does_not_listen() {
    let mut host = spawn(&["host", "--port", "0", "--from", "5", "5"]);
    let status = host.wait_exit();
    assert_eq!(status.code(), Some(2), "{}", host.output());
    assert!(
        host.output()
            .contains(r#"--from: move 2 ("5"): cell 5 is taken"#)
    );
    assert!(!host.output().contains("Join with"));
}

#[test]
fn a_busy_port_is_named_with_a_way_forward() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let mut host = spawn(&["host", "--bind", "127.0.0.1", "--port", &port]);
    let status = host.wait_exit();
    assert!(!status.success(), "{}", host.output());
    let output = host.output();
    assert!(
        output.contains(&format!("port {port} is taken")) && output.contains("--port 0"),
        "{output}"
    );
}

#[test]
fn the_joiner_may_not_choose_rules_or_players() {
    for args in [
        &["join", "127.0.0.1:9", "--code", "x", "--size", "5"][..],
        &["join", "127.0.0.1:9", "--code", "x", "-x", "hard"][..],
        &["-o", "human", "host"][..],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
            .env(
                "TICTACTOE_HOME",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
            )
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("do not apply") || err.contains("host's rules"),
            "{err}"
        );
    }
}

#[test]
fn a_wrong_code_is_refused_and_the_host_keeps_waiting() {
    let (mut host, addr, code) = host(&[]);
    let mut wrong = join(&addr, "abcd-2345");
    assert!(!wrong.wait_exit().success());
    assert!(
        wrong.output().contains("the code did not match"),
        "{}",
        wrong.output()
    );
    host.wait_for(": wrong code");
    let mut joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    host.send("q\n");
    assert!(host.wait_exit().success());
    joiner.wait_for("X left the game.");
    assert!(joiner.wait_exit().success());
}

#[test]
fn a_third_player_is_refused_while_a_game_runs() {
    let (host, addr, code) = host(&[]);
    let joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    let mut third = join(&addr, &code);
    assert!(!third.wait_exit().success());
    assert!(
        third.output().contains("a game is already in progress"),
        "{}",
        third.output()
    );
    host.wait_for("a game is already in progress");
}

/// A hand-made client: sends raw bytes, reads lines; after [`Raw::hello`] it seals what it
/// sends with [`Raw::say`] and opens the sealed lines it reads.
struct Raw {
    stream: TcpStream,
    reader: BufReader<TcpStream>,
    keys: Option<Keys>,
}

/// A joiner's hello with its half of the key exchange made with `code`.
fn hello_with(code: &str) -> (Exchange, String) {
    let (exchange, pake) = Exchange::start(Role::Joiner, code);
    let line =
        format!("{{\"type\":\"hello\",\"protocol\":3,\"program\":\"test\",\"pake\":\"{pake}\"}}\n");
    (exchange, line)
}

/// The `pake` field of a hello line.
fn pake_of(line: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(line).expect("a hello");
    value["pake"].as_str().expect("a key exchange").to_string()
}

impl Raw {
    fn connect(addr: &str) -> Raw {
        let stream = TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Raw {
            stream,
            reader,
            keys: None,
        }
    }

    fn send(&mut self, bytes: &[u8]) {
        // The host may already have closed the connection: that is its answer.
        let _ = self.stream.write_all(bytes);
    }

    /// Sends each line of `text` sealed.
    fn say(&mut self, text: &str) {
        let keys = self.keys.as_mut().expect("sealed after the hello");
        let sealed: String = text
            .lines()
            .map(|line| keys.seal.seal(line.as_bytes()))
            .collect();
        self.send(sealed.as_bytes());
    }

    /// The next line, opened if it is sealed, or `None` once the host closed the connection.
    fn line(&mut self) -> Option<String> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) if line.starts_with('{') => Some(line),
            Ok(_) => Some(self.open(&line)? + "\n"),
        }
    }

    /// `line` opened with this connection's keys, if it opens.
    fn open(&mut self, line: &str) -> Option<String> {
        let keys = self.keys.as_mut()?;
        let text = keys.open.open(line.trim_end().as_bytes()).ok()?;
        String::from_utf8(text).ok()
    }

    /// Joins properly with `code`: the key exchange and `join`; returns the host's welcome.
    fn hello(addr: &str, code: &str) -> (Raw, String) {
        Raw::join(addr, code, None)
    }

    /// [`Raw::hello`], showing `token` in `join` when given.
    fn join(addr: &str, code: &str, token: Option<&str>) -> (Raw, String) {
        let mut raw = Raw::connect(addr);
        let (exchange, hello) = hello_with(code);
        raw.send(hello.as_bytes());
        let answer = raw.line().expect("the host's hello");
        raw.keys = Some(exchange.finish(&pake_of(&answer)).unwrap());
        match token {
            Some(token) => raw.say(&format!(r#"{{"type":"join","token":"{token}"}}"#)),
            None => raw.say(r#"{"type":"join"}"#),
        }
        let welcome = raw.line().unwrap_or_default();
        (raw, welcome)
    }
}

#[test]
fn junk_gets_an_error_and_a_closed_connection_and_the_host_keeps_accepting() {
    let (mut host, addr, code) = host(&[]);
    let long = format!("{}\n", "x".repeat(5000));
    let junk: [(&[u8], &str); 7] = [
        (b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", "not a message"),
        (b"\x00\xff\xfe\x01\n", "not UTF-8"),
        (long.as_bytes(), "longer than 1024 bytes"),
        (b"{\"type\":\"ping\"}\n", "the first message must be hello"),
        (
            b"{\"type\":\"hello\",\"protocol\":99,\"program\":\"x\",\"code\":\"y\"}\n",
            "protocol version 99",
        ),
        (
            b"{\"type\":\"hello\",\"protocol\":3,\"program\":\"x\"}\n",
            "without a key exchange",
        ),
        (
            b"{\"type\":\"hello\",\"protocol\":2,\"program\":\"x\",\"code\":\"y\"}\n",
            "protocol version 2 is not spoken here (this host speaks 3): both players need the same version",
        ),
    ];
    for (bytes, why) in junk {
        let mut raw = Raw::connect(&addr);
        raw.send(bytes);
        let answer = raw.line().unwrap_or_default();
        assert!(
            answer.starts_with("{\"type\":\"error\"") && answer.contains(why),
            "{why}: {answer:?}"
        );
        assert_eq!(raw.line(), None, "closed after {why}");
    }
    host.wait_for("not a message");
    // A message type made of escape sequences reaches the host's screen as text only.
    let mut raw = Raw::connect(&addr);
    raw.send(b"{\"type\":\"\\u001b]0;PWNED\\u0007\\u001b[2J\"}\n");
    assert!(raw.line().unwrap_or_default().contains("unknown variant"));
    host.wait_for("PWNED");
    assert!(
        !host.output().contains('\u{1b}') && !host.output().contains('\u{7}'),
        "no control characters reach the host's terminal"
    );
    let joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    host.send("5\n");
    joiner.wait_for("X (remote) plays 5");
}

#[test]
fn a_peer_that_says_nothing_or_dribbles_is_dropped() {
    let (host, addr, _) = host(&[]);
    let mut silent = Raw::connect(&addr);
    // This one sends a byte a second: the hello has 5 s in all, not 5 s a byte.
    let mut dribbler = Raw::connect(&addr);
    let mut writer = dribbler.stream.try_clone().unwrap();
    thread::spawn(move || {
        for byte in b"{\"type\":\"hello\"" {
            if writer.write_all(&[*byte]).is_err() {
                break;
            }
            thread::sleep(Duration::from_secs(1));
        }
    });
    let start = Instant::now();
    for raw in [&mut silent, &mut dribbler] {
        let answer = raw.line().unwrap_or_default();
        assert!(answer.contains("no hello within"), "{answer:?}");
        assert_eq!(raw.line(), None);
    }
    assert!(start.elapsed() < Duration::from_secs(10));
    host.wait_for("no hello within");
}

#[test]
fn an_idle_connection_gives_its_place_to_a_newer_one_and_is_told_the_host_is_busy() {
    let (host, addr, _) = host(&[]);
    // One address holds at most four handshake places: a fifth takes the oldest's.
    let mut oldest = Raw::connect(&addr);
    thread::sleep(Duration::from_millis(50));
    let idle: Vec<Raw> = (0..4).map(|_| Raw::connect(&addr)).collect();
    let answer = oldest.line().unwrap_or_default();
    assert!(answer.contains("the host is busy"), "{answer:?}");
    assert!(answer.contains(r#""kind":"busy""#), "{answer:?}");
    assert_eq!(oldest.line(), None, "closed after giving way");
    drop(idle);
    drop(host);
}

#[test]
fn bad_moves_close_the_connection_and_change_nothing() {
    let (mut host, addr, code) = host(&[]);
    let (mut raw, hello) = Raw::hello(&addr, &code);
    assert!(
        hello.contains("\"rules\":{\"size\":3,\"k\":3,\"misere\":false}"),
        "{hello}"
    );
    // O moves first: out of turn.
    raw.say(r#"{"type":"move","seq":1,"cell":"5"}"#);
    let answer = raw.line().unwrap_or_default();
    assert!(answer.contains("came out of turn"), "{answer}");
    assert_eq!(raw.line(), None);
    host.wait_for("Refused a move from O: move 1 (5) came out of turn.");
    host.wait_for("O's connection was lost");
    // The host's game is untouched; the host moves, then a taken cell and a wrong number.
    host.send("5\n");
    host.wait_for(" 4 | X | 6");
    for (bad, why) in [
        (r#"{"type":"move","seq":2,"cell":"5"}"#, "cell 5 is taken"),
        (r#"{"type":"move","seq":7,"cell":"1"}"#, "move 2 was due"),
        (r#"{"type":"move","seq":2,"cell":"c9"}"#, "not on the board"),
    ] {
        let (mut raw, hello) = Raw::hello(&addr, &code);
        assert!(hello.contains("\"moves\":[\"5\"]"), "rejoined: {hello}");
        raw.say(bad);
        let answer = raw.line().unwrap_or_default();
        assert!(answer.contains(why), "{bad}: {answer}");
    }
    let mut joiner = join(&addr, &code);
    joiner.wait_for("O to move");
    joiner.send("1\n");
    host.wait_for("O (remote) plays 1");
    let board = boards(&host.output()).pop().unwrap();
    assert_eq!(
        board,
        " 7 | 8 | 9/---+---+---/ 4 | X | 6/---+---+---/ O | 2 | 3"
    );
}

#[test]
fn a_flood_of_messages_is_cut_off() {
    let (host, addr, code) = host(&[]);
    let (mut raw, _) = Raw::hello(&addr, &code);
    host.wait_for("joined");
    raw.say(&"{\"type\":\"ping\"}\n".repeat(500));
    let mut answers = String::new();
    while let Some(line) = raw.line() {
        answers.push_str(&line);
    }
    assert!(answers.contains("too many messages"), "{answers}");
    host.wait_for("O's connection was lost (too many messages)");
}

/// The `token` of a welcome line.
fn token_of(welcome: &str) -> String {
    let value: serde_json::Value = serde_json::from_str(welcome).expect("a welcome");
    value["token"].as_str().expect("a token").to_string()
}

#[test]
fn a_seat_whose_player_lost_its_connection_is_kept_for_that_players_token() {
    let (host, addr, code) = host(&[]);
    let (player, welcome) = Raw::hello(&addr, &code);
    assert!(welcome.contains("\"welcome\""), "{welcome}");
    let token = token_of(&welcome);
    host.wait_for("joined. You play X.");
    // The player's link goes down; someone else who knows the code (a watcher, say), on
    // another machine, asks for the seat without the token while it is away.
    drop(player);
    host.wait_for("O's connection was lost");
    let elsewhere = Target::new(&addr, Some([127, 0, 0, 7]));
    let mut stranger = exchange_with(&elsewhere, &code).expect("the key exchange");
    stranger.say(r#"{"type":"join"}"#);
    let answer = stranger.line().unwrap_or_default();
    assert!(answer.contains("in_progress"), "{answer}");
    assert_eq!(stranger.line(), None, "the stranger's connection is closed");
    assert!(!host.output().contains("O is back"), "{}", host.output());
    // The player comes back with its token and has its seat.
    let (_back, welcome) = Raw::join(&addr, &code, Some(&token));
    assert!(welcome.contains("\"welcome\""), "{welcome}");
    host.wait_for("O is back");
}

#[test]
fn a_killed_player_rejoins_and_gets_the_exact_game() {
    let (mut host, addr, code) = host(&[]);
    let mut joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    host.send("5\n");
    joiner.wait_for("X (remote) plays 5");
    joiner.send("7\n");
    host.wait_for("O (remote) plays 7");
    joiner.child.kill().unwrap();
    host.wait_for("O's connection was lost");
    // The host plays on while O is away; the rejoining player gets that move too.
    host.send("4\n");
    host.wait_for(" X | X | 6");
    let mut back = join(&addr, &code);
    back.wait_for("You play O.");
    host.wait_for("O is back");
    back.wait_for("O to move");
    assert_eq!(
        boards(&back.output()).first().unwrap(),
        " O | 8 | 9/---+---+---/ X | X | 6/---+---+---/ 1 | 2 | 3"
    );
    back.send("6\n1\n8\n");
    host.send("3\n2\n9\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(back.wait_exit().success(), "{}", back.output());
    assert_eq!(record(&host.output()), "Record: 5 7 4 6 3 1 2 8 9");
    assert_eq!(record(&back.output()), record(&host.output()));
}

#[test]
fn a_silent_peer_is_reported_lost() {
    let (host, addr, code) = host(&[]);
    let (raw, _) = Raw::hello(&addr, &code);
    host.wait_for("joined");
    let start = Instant::now();
    host.wait_for("O's connection was lost (no word for 10 s)");
    assert!(start.elapsed() >= Duration::from_secs(8));
    raw.stream.shutdown(Shutdown::Both).unwrap();
}

/// A loopback relay between a joiner and its host whose connections can be cut, as a flaky
/// network would, without stopping either program.
struct Relay {
    addr: String,
    live: Arc<Mutex<Vec<TcpStream>>>,
    /// Lines to answer the next connections with, one each, instead of relaying them.
    answers: Arc<Mutex<VecDeque<String>>>,
    /// Connections answered that way so far.
    answered: Arc<AtomicUsize>,
    /// Lines to answer the next connections with after relaying the key exchange, in place
    /// of the host's sealed answer to the joiner's `join`, as a man in the middle would.
    forged: Arc<Mutex<VecDeque<String>>>,
}

impl Relay {
    fn to(upstream: &str) -> Relay {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let live = Arc::new(Mutex::new(Vec::new()));
        let answers = Arc::new(Mutex::new(VecDeque::<String>::new()));
        let answered = Arc::new(AtomicUsize::new(0));
        let forged = Arc::new(Mutex::new(VecDeque::<String>::new()));
        let (upstream, conns) = (upstream.to_string(), Arc::clone(&live));
        let (lines, count) = (Arc::clone(&answers), Arc::clone(&answered));
        let forgeries = Arc::clone(&forged);
        thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(mut client) = client else { break };
                if let Some(line) = lines.lock().unwrap().pop_front() {
                    let _ = client.write_all(line.as_bytes());
                    let _ = client.shutdown(Shutdown::Both);
                    count.fetch_add(1, Ordering::SeqCst);
                    continue;
                }
                let Ok(server) = TcpStream::connect(&upstream) else {
                    continue;
                };
                if let Some(line) = forgeries.lock().unwrap().pop_front() {
                    forge_after_exchange(client, server, &line);
                    count.fetch_add(1, Ordering::SeqCst);
                    continue;
                }
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server.try_clone().unwrap(), client.try_clone().unwrap()),
                ] {
                    thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(Shutdown::Both);
                    });
                }
                conns.lock().unwrap().extend([client, server]);
            }
        });
        Relay {
            addr,
            live,
            answers,
            answered,
            forged,
        }
    }

    /// Relays the key exchange of each of the next `n` connections, then answers the
    /// joiner's sealed `join` with `line` in the clear and closes, as a man in the middle
    /// would.
    fn forge_next(&self, n: usize, line: &str) {
        let mut forged = self.forged.lock().unwrap();
        forged.extend(std::iter::repeat_n(format!("{line}\n"), n));
    }

    /// Answers each of the next `n` connections with `line` and closes it, as a host that
    /// refuses would.
    fn answer_next(&self, n: usize, line: &str) {
        let mut answers = self.answers.lock().unwrap();
        answers.extend(std::iter::repeat_n(format!("{line}\n"), n));
    }

    /// Drops every connection through the relay; new ones are still relayed.
    fn cut(&self) {
        for stream in self.live.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

/// The joiner's hello to the host and the host's hello back, then `line` for the joiner's
/// next line, which the host never sees.
fn forge_after_exchange(client: TcpStream, mut server: TcpStream, line: &str) {
    let mut from_client = BufReader::new(client.try_clone().unwrap());
    let mut from_server = BufReader::new(server.try_clone().unwrap());
    let mut client = client;
    let mut hello = String::new();
    let _ = from_client.read_line(&mut hello);
    let _ = server.write_all(hello.as_bytes());
    let mut answer = String::new();
    let _ = from_server.read_line(&mut answer);
    let _ = client.write_all(answer.as_bytes());
    let mut join = String::new();
    let _ = from_client.read_line(&mut join);
    let _ = client.write_all(line.as_bytes());
    let _ = client.shutdown(Shutdown::Both);
    let _ = server.shutdown(Shutdown::Both);
}

#[test]
fn a_dropped_connection_is_rejoined_by_the_same_player() {
    let (mut host, addr, code) = host(&[]);
    let relay = Relay::to(&addr);
    let mut joiner = join(&relay.addr, &code);
    joiner.wait_for("You play O.");
    host.send("5\n");
    joiner.wait_for("X (remote) plays 5");
    joiner.send("7\n");
    host.wait_for("O (remote) plays 7");
    relay.cut();
    host.wait_for("O's connection was lost");
    joiner.wait_for("trying to get back in");
    // The host plays while O is away; O comes back by itself and gets the move.
    host.send("4\n");
    joiner.wait_for("Back in.");
    host.wait_for("O is back");
    joiner.wait_for(" X | X | 6");
    joiner.send("6\n1\n8\n");
    host.send("3\n2\n9\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    assert_eq!(record(&host.output()), "Record: 5 7 4 6 3 1 2 8 9");
    assert_eq!(record(&joiner.output()), record(&host.output()));
}

/// The moves of a short Ultimate game X wins by taking boards 3, 5 and 7, as the host (X)
/// and the joiner (O) type them: two digits, one digit when sent to a board, a coordinate
/// (`d6` is cell 7 of board 5).
const ULTIMATE_X: &str = "39\nd6\n3\n3\n6\n4\n6\n5\n5\n";
const ULTIMATE_O: &str = "5\n73\n5\n37\n7\n43\n5\n47\n";
const ULTIMATE_RECORD: &str =
    "Record: --ultimate 39 95 57 73 33 35 53 37 76 67 74 43 36 65 55 47 75";

#[test]
fn an_ultimate_game_over_the_network_prints_the_same_grids() {
    let (mut host, addr, code) = host(&["--ultimate"]);
    assert!(
        host.output().contains("Waiting for a player (Ultimate"),
        "{}",
        host.output()
    );
    let mut joiner = join(&addr, &code);
    joiner.wait_for("(Ultimate). You play O.");
    host.wait_for("joined. You play X.");
    host.wait_for("X to move anywhere (board then cell, e.g. 53): ");
    host.send(ULTIMATE_X);
    joiner.send(ULTIMATE_O);
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let (h, j) = (host.output(), joiner.output());
    // The one-digit and coordinate moves reach the other side as board and cell.
    for seen in [
        "X (remote) plays 39",
        "X (remote) plays 57",
        "X (remote) plays 33",
        "X (remote) plays 75",
    ] {
        assert!(
            j.contains(seen),
            "{seen} missing from the joiner's output:\n{j}"
        );
    }
    for seen in [
        "O (remote) plays 95",
        "O (remote) plays 73",
        "O (remote) plays 37",
        "O (remote) plays 47",
    ] {
        assert!(
            h.contains(seen),
            "{seen} missing from the host's output:\n{h}"
        );
    }
    assert!(j.contains("O to move on board 9 (1-9, q quit): 5"));
    assert!(j.contains("O to move anywhere (board then cell, e.g. 53): 47"));
    let grids = boards(&h);
    assert_eq!(grids.len(), 18, "the empty grid and one per move:\n{h}");
    assert_eq!(grids, boards(&j));
    #[rustfmt::skip]
    assert_eq!(grids.last().unwrap().split('/').collect::<Vec<_>>(), [
        "9  . . . | . . . | . . .",
        "8  X X X | . . . | . O .",
        "7  . . O | . . . | . . .",
        "  -------+-------+-------",
        "6  O . . | X . . | O . .",
        "5  . . . | . X . | . O .",
        "4  . . O | . . X | . . .",
        "  -------+-------+-------",
        "3  . . . | . . . | O . X",
        "2  . . . | . . . | . O X",
        "1  . . . | . . . | . . X",
    ]);
    assert!(h.contains("Boards: X won 3 5 7\n"), "{h}");
    assert!(h.contains("X wins.") && j.contains("X wins."), "{h}");
    assert_eq!(record(&h), ULTIMATE_RECORD);
    assert_eq!(record(&j), ULTIMATE_RECORD);
}

/// Waits until `text` appears `n` times in the output of `proc`.
fn wait_count(proc: &Proc, text: &str, n: usize) {
    let start = Instant::now();
    while proc.output().matches(text).count() < n {
        assert!(
            start.elapsed() < TIMEOUT,
            "timed out waiting for {text:?} {n} times; output:\n{}",
            proc.output()
        );
        thread::sleep(Duration::from_millis(5));
    }
}

/// The first error message from the host, past the moves and pings sent before it.
fn error_line(raw: &mut Raw) -> String {
    while let Some(line) = raw.line() {
        if line.starts_with("{\"type\":\"error\"") {
            return line;
        }
    }
    panic!("the connection closed without an error");
}

#[test]
fn an_ultimate_move_to_the_wrong_board_is_refused_and_changes_nothing() {
    let (mut host, addr, code) = host(&["--ultimate"]);
    let (mut raw, hello) = Raw::hello(&addr, &code);
    assert!(hello.contains("\"variant\":\"ultimate\""), "{hello}");
    raw.say(r#"{"type":"ping"}"#);
    host.wait_for("joined. You play X.");
    host.send("55\n");
    host.wait_for("Waiting for O");
    let before = boards(&host.output()).pop().unwrap();
    // Sent to board 5, O answers on board 1.
    raw.say(r#"{"type":"move","seq":2,"cell":"13"}"#);
    let answer = error_line(&mut raw);
    assert!(answer.contains("board 5, not board 1"), "{answer}");
    assert_eq!(raw.line(), None, "closed after a refused move");
    host.wait_for("Refused a move from O");
    host.wait_for("O's connection was lost");
    assert_eq!(
        boards(&host.output()).pop().unwrap(),
        before,
        "the grid is unchanged"
    );
    // A player who rejoins gets the game as it was and plays on board 5 with one digit.
    let (mut raw, hello) = Raw::hello(&addr, &code);
    assert!(hello.contains("\"moves\":[\"55\"]"), "rejoined: {hello}");
    raw.say(r#"{"type":"move","seq":2,"cell":"55"}"#);
    let answer = error_line(&mut raw);
    assert!(answer.contains("cell 5 of board 5 is taken"), "{answer}");
    drop(raw);
    wait_count(&host, "O's connection was lost", 2);
    let mut joiner = join(&addr, &code);
    joiner.wait_for("O to move on board 5");
    joiner.send("3\n");
    host.wait_for("O (remote) plays 53");
    host.wait_for("X to move on board 3");
    #[rustfmt::skip]
    assert_eq!(boards(&host.output()).pop().unwrap().split('/').collect::<Vec<_>>(), [
        "9  . . . | . . . | . . .",
        "8  . . . | . . . | . . .",
        "7  . . . | . . . | . . .",
        "  -------+-------+-------",
        "6  . . . | . . . | . . .",
        "5  . . . | . X . | . . .",
        "4  . . . | . . O | . . .",
        "  -------+-------+-------",
        "3  . . . | . . . | 7 8 9",
        "2  . . . | . . . | 4 5 6",
        "1  . . . | . . . | 1 2 3",
    ]);
    host.send("q\n");
    assert!(host.wait_exit().success());
    assert_eq!(record(&host.output()), "Record: --ultimate 55 53");
}

#[test]
fn the_joiner_may_not_ask_for_ultimate() {
    let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env(
            "TICTACTOE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
        )
        .args(["join", "127.0.0.1:9", "--code", "x", "--ultimate"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the host's rules apply")
            && err.contains("--ultimate")
            && err.contains("go with `host`"),
        "{err}"
    );
}

/// Where an attacking connection goes, and the loopback address it comes from (127.0.0.1
/// unless told; Linux answers on all of 127.0.0.0/8).
#[derive(Clone)]
struct Target {
    addr: String,
    from: Option<[u8; 4]>,
    /// Connections made to `addr` so far, counted as each is made.
    opened: Arc<AtomicUsize>,
}

impl Target {
    fn new(addr: &str, from: Option<[u8; 4]>) -> Target {
        Target {
            addr: addr.to_string(),
            from,
            opened: Arc::default(),
        }
    }

    fn connect(&self) -> std::io::Result<TcpStream> {
        let stream = self.connect_from()?;
        self.opened.fetch_add(1, Ordering::SeqCst);
        Ok(stream)
    }

    fn connect_from(&self) -> std::io::Result<TcpStream> {
        let Some(from) = self.from else {
            return TcpStream::connect(&self.addr);
        };
        let addr: std::net::SocketAddr = self.addr.parse().unwrap();
        let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
        socket.bind(&std::net::SocketAddr::from((from, 0)).into())?;
        socket.connect_timeout(&addr.into(), Duration::from_secs(5))?;
        Ok(socket.into())
    }

    /// `addr` from 127.0.0.2, 127.0.0.3, … (`n` addresses).
    fn from_addresses(addr: &str, n: u8) -> Vec<Target> {
        (2..2 + n)
            .map(|last| Target::new(addr, Some([127, 0, 0, last])))
            .collect()
    }
}

/// Connections that attack the host from the test, until dropped.
struct Attack {
    stop: Arc<AtomicBool>,
    /// Connections made so far.
    made: Arc<AtomicUsize>,
    /// Connections opened so far.
    opened: Arc<AtomicUsize>,
    threads: Vec<thread::JoinHandle<()>>,
}

impl Attack {
    /// `n` threads from 127.0.0.1, each running `one` (one connection's worth of attack)
    /// until stopped.
    fn start(addr: &str, n: usize, one: fn(&Target, &AtomicBool)) -> Attack {
        Attack::from(&[Target::new(addr, None)], n, one)
    }

    /// `n` threads for each of `targets`, each running `one` until stopped.
    fn from(targets: &[Target], n: usize, one: fn(&Target, &AtomicBool)) -> Attack {
        let stop = Arc::new(AtomicBool::new(false));
        let made = Arc::new(AtomicUsize::new(0));
        let opened = Arc::new(AtomicUsize::new(0));
        let threads = targets
            .iter()
            .flat_map(|target| std::iter::repeat_n(target, n))
            .map(|target| {
                let target = Target {
                    opened: Arc::clone(&opened),
                    ..target.clone()
                };
                let (stop, made) = (Arc::clone(&stop), Arc::clone(&made));
                thread::spawn(move || {
                    while !stop.load(Ordering::SeqCst) {
                        made.fetch_add(1, Ordering::SeqCst);
                        one(&target, &stop);
                    }
                })
            })
            .collect();
        Attack {
            stop,
            made,
            opened,
            threads,
        }
    }

    /// Waits until the attack has taken hold: as many connections opened as it has threads.
    fn wait_hold(&self) {
        let start = Instant::now();
        while self.opened.load(Ordering::SeqCst) < self.threads.len() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "{} of {} attacking connections opened",
                self.opened.load(Ordering::SeqCst),
                self.threads.len()
            );
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Attack {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// A hello with a wrong code, a byte every 0.4 s.
fn dribble(target: &Target, stop: &AtomicBool) {
    let Ok(mut stream) = target.connect() else {
        return;
    };
    for byte in hello_with("aaaa-bbbb").1.bytes() {
        if stop.load(Ordering::SeqCst) || stream.write_all(&[byte]).is_err() {
            return;
        }
        thread::sleep(Duration::from_millis(400));
    }
}

/// The key exchange with a wrong code up to the host's hello, on a fresh connection; `None`
/// where the host refused or closed it.
fn exchanged(target: &Target) -> Option<Raw> {
    exchange_with(target, "aaaa-bbbb")
}

/// The key exchange with `code` up to the host's hello, on a fresh connection.
fn exchange_with(target: &Target, code: &str) -> Option<Raw> {
    let stream = target.connect().ok()?;
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let mut raw = Raw {
        reader: BufReader::new(stream.try_clone().ok()?),
        stream,
        keys: None,
    };
    let (exchange, hello) = hello_with(code);
    raw.send(hello.as_bytes());
    let answer: serde_json::Value = serde_json::from_str(&raw.line()?).ok()?;
    raw.keys = Some(exchange.finish(answer["pake"].as_str()?).ok()?);
    Some(raw)
}

/// The key exchange with a wrong code, then waiting for the answer.
fn wrong_code(target: &Target, _: &AtomicBool) {
    let Some(mut raw) = exchanged(target) else {
        return;
    };
    raw.say(r#"{"type":"join"}"#);
    let _ = raw.stream.read_to_end(&mut Vec::new());
}

/// The key exchange with a wrong code, then hanging up 50 ms after the `join`: silence read
/// as a wrong code, as a guesser in a hurry would.
fn wrong_code_hang_up(target: &Target, _: &AtomicBool) {
    let Some(mut raw) = exchanged(target) else {
        return;
    };
    raw.say(r#"{"type":"join"}"#);
    GUESSES_SENT.fetch_add(1, Ordering::SeqCst);
    thread::sleep(Duration::from_millis(50));
}

/// Wrong codes sent by [`wrong_code_hang_up`] after a key exchange, in this test binary.
static GUESSES_SENT: AtomicUsize = AtomicUsize::new(0);

/// The key exchange up to the host's hello, then silence until the host closes the
/// connection (or the attack stops): a key exchange's place held as long as the host lets.
fn hold_exchange(target: &Target, stop: &AtomicBool) {
    let Some(mut raw) = exchanged(target) else {
        return;
    };
    read_until_closed(&mut raw.stream, stop);
}

/// A connection that says nothing until the host closes it (or the attack stops).
fn idle(target: &Target, stop: &AtomicBool) {
    let Ok(mut stream) = target.connect() else {
        return;
    };
    read_until_closed(&mut stream, stop);
}

/// Reads and drops what comes until the host closes `stream`, or `stop`.
fn read_until_closed(stream: &mut TcpStream, stop: &AtomicBool) {
    let _ = stream.set_read_timeout(Some(Duration::from_millis(100)));
    let mut buf = [0u8; 256];
    while !stop.load(Ordering::SeqCst) {
        match stream.read(&mut buf) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) => {}
            Err(_) => return,
        }
    }
}

/// Connects and closes at once.
fn connect_and_close(target: &Target, _: &AtomicBool) {
    let _ = target.connect();
}

/// One attack at a time: four at once on two cores measure the machine, not the host.
fn one_attack_at_a_time() -> std::sync::MutexGuard<'static, ()> {
    static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());
    ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Starts `attack`, waits until each of its connections is open, then times a proper joiner from its start to
/// `You play O.`; the host and joiner play one move to show the game is on.
fn time_to_join_under(attack: fn(&Target, &AtomicBool), threads: usize, name: &str) -> Duration {
    let _turn = one_attack_at_a_time();
    let (mut host, addr, code) = host(&[]);
    let attack = Attack::start(&addr, threads, attack);
    attack.wait_hold();
    let start = Instant::now();
    let joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    let took = start.elapsed();
    eprintln!(
        "{name}: joined after {took:?} ({} attacking connections so far)",
        attack.made.load(Ordering::SeqCst)
    );
    host.wait_for("joined. You play X.");
    host.send("5\n");
    joiner.wait_for("X (remote) plays 5");
    drop(attack);
    took
}

/// "Within a few seconds": before the joiner's own patience with a busy host (10 s) runs out.
/// Before the fix it was refused at once. On an idle machine it takes milliseconds; with the
/// attackers on the joiner's own address (loopback) and the machine loaded, the 200 idle
/// connections, which the host keeps evicting for newer ones, have held it off for 8 s.
const JOIN_WITHIN: Duration = Duration::from_secs(10);

#[test]
fn a_proper_joiner_gets_in_within_seconds_while_eight_connections_dribble_hellos() {
    let took = time_to_join_under(dribble, 8, "eight dribbling hellos");
    assert!(took < JOIN_WITHIN, "took {took:?}");
}

#[test]
fn a_proper_joiner_gets_in_within_seconds_while_eight_wrong_code_connections_loop() {
    let took = time_to_join_under(wrong_code, 8, "eight wrong-code loops");
    assert!(took < JOIN_WITHIN, "took {took:?}");
}

#[test]
fn a_proper_joiner_gets_in_within_seconds_while_two_hundred_connections_sit_idle() {
    let took = time_to_join_under(idle, 200, "200 idle connections");
    assert!(took < JOIN_WITHIN, "took {took:?}");
}

#[test]
fn a_proper_joiner_gets_in_within_seconds_during_a_connect_and_close_storm() {
    let took = time_to_join_under(connect_and_close, 8, "connect/close storm");
    assert!(took < JOIN_WITHIN, "took {took:?}");
}

#[test]
fn a_connect_and_close_storm_prints_a_summary_not_a_line_per_connection() {
    let (host, addr, _) = host(&[]);
    let before = host.output().lines().count();
    let attack = Attack::start(&addr, 8, connect_and_close);
    // The summary comes at the end of the host's 10 s window (while the storm goes on, the
    // next window has its summary only).
    host.wait_for("more connections in the last 10 s");
    let made = attack.made.load(Ordering::SeqCst);
    drop(attack);
    let output = host.output();
    let lines: Vec<&str> = output.lines().skip(before).collect();
    let last = lines
        .iter()
        .rposition(|l| l.contains("more connections in the last 10 s"))
        .unwrap();
    let printed = last + 1;
    eprintln!("storm: {made} connections, {printed} lines from the host in 10 s");
    assert!(made > 100, "the storm made only {made} connections");
    assert!(printed <= 11, "{printed} lines:\n{output}");
    for summary in lines.iter().filter(|l| l.contains("in the last 10 s")) {
        assert!(summary.starts_with("Refused "), "{summary}");
    }
}

/// Starts `attack` from four addresses other than the friend's, `per_address` connections
/// each, waits until each of its connections is open, then times a proper joiner (through a relay) to `You play O.`,
/// cuts its connection after a move, and times its rejoin to `Back in.`.
#[cfg(target_os = "linux")]
fn join_and_rejoin_under(
    attack: fn(&Target, &AtomicBool),
    per_address: usize,
    name: &str,
) -> (Duration, Duration) {
    let _turn = one_attack_at_a_time();
    let (mut host, addr, code) = host(&[]);
    let attack = Attack::from(&Target::from_addresses(&addr, 4), per_address, attack);
    attack.wait_hold();
    let relay = Relay::to(&addr);
    let start = Instant::now();
    let mut joiner = join(&relay.addr, &code);
    joiner.wait_for("You play O.");
    let first = start.elapsed();
    host.wait_for("joined. You play X.");
    host.send("5\n");
    joiner.wait_for("X (remote) plays 5");
    let cut = Instant::now();
    relay.cut();
    joiner.wait_for("Back in.");
    let back = cut.elapsed();
    joiner.send("7\n");
    host.wait_for("O (remote) plays 7");
    eprintln!(
        "{name}: joined after {first:?}, back in after {back:?} ({} attacking connections)",
        attack.made.load(Ordering::SeqCst)
    );
    drop(attack);
    host.send("q\n");
    assert!(host.wait_exit().success());
    (first, back)
}

/// Strangers on four addresses hold key exchanges open (a proper hello, then silence), 16
/// connections each, more than the host has room for. Before, 8 each kept the friend out
/// ("the host is busy" on every try) and its rejoin too.
#[cfg(target_os = "linux")]
#[test]
fn a_friend_joins_and_rejoins_while_strangers_on_four_addresses_hold_key_exchanges_open() {
    let (joined, back) = join_and_rejoin_under(hold_exchange, 16, "held key exchanges");
    assert!(joined < JOIN_WITHIN, "joined after {joined:?}");
    assert!(back < JOIN_WITHIN, "back in after {back:?}");
}

/// Strangers on four addresses send wrong codes in a loop, 16 connections each: every key
/// exchange the host has room for is waiting for its (slowed) answer, and the friend waits in
/// line, first because its address holds none.
#[cfg(target_os = "linux")]
#[test]
fn a_friend_joins_and_rejoins_while_strangers_on_four_addresses_fill_every_answer_with_wrong_codes()
{
    let (joined, back) = join_and_rejoin_under(wrong_code, 16, "wrong codes in every slot");
    assert!(joined < JOIN_WITHIN, "joined after {joined:?}");
    assert!(back < JOIN_WITHIN, "back in after {back:?}");
}

/// Times the host's answer to a sealed `join` on `raw`, and returns it with the answer's
/// line as it came (empty if none came).
fn answer_to_join(raw: &mut Raw) -> (Duration, String) {
    let start = Instant::now();
    raw.say(r#"{"type":"join"}"#);
    let mut line = String::new();
    let _ = raw.reader.read_line(&mut line);
    (start.elapsed(), line)
}

/// Each wrong code in a row from an address makes every answer to it wait 250 ms longer,
/// right or wrong, and a guesser that hangs up before the answer is counted all the same.
/// Before, a right code was welcomed at once and a hang-up was not counted.
#[cfg(target_os = "linux")]
#[test]
fn a_right_code_waits_as_long_as_a_wrong_one_and_hanging_up_early_saves_no_wait() {
    let (_host, addr, code) = host(&[]);
    let guesser = Target::new(&addr, Some([127, 0, 0, 2]));
    let stop = AtomicBool::new(false);
    for _ in 0..4 {
        wrong_code_hang_up(&guesser, &stop);
    }
    let mut raw = exchanged(&guesser).expect("a key exchange");
    let (wrong_took, answer) = answer_to_join(&mut raw);
    assert!(
        !answer.is_empty() && raw.open(&answer).is_none(),
        "a wrong code's answer is sealed with the host's code: {answer:?}"
    );
    assert!(
        wrong_took >= Duration::from_secs(1),
        "four hung-up wrong codes, then a wrong code answered after {wrong_took:?}"
    );
    let mut raw = exchange_with(&guesser, &code).expect("a key exchange");
    let (right_took, welcome) = answer_to_join(&mut raw);
    let welcome = raw.open(&welcome).unwrap_or_default();
    assert!(welcome.contains("welcome"), "{welcome}");
    assert!(
        right_took >= Duration::from_millis(1250),
        "five wrong codes, then the right code answered after {right_took:?}"
    );
}

/// The threads of process `pid` now.
#[cfg(target_os = "linux")]
fn threads_of(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|line| line.strip_prefix("Threads:"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or(0)
}

/// Junk joins (a wrong code, hung up at once) from 16 addresses, 8 connections each: the
/// host's threads stay within its bound of 192 for strangers' handshakes, and the friend
/// gets in as the storm ends. (During it the friend got in after 8 to 9.5 s with nothing
/// else running, but beside the rest of the suite it could outlast the joiner's 10 s.) Before, such a storm grew the host to thousands of threads.
#[cfg(target_os = "linux")]
#[test]
fn a_storm_of_junk_joins_from_sixteen_addresses_keeps_the_host_within_its_thread_bound() {
    let _turn = one_attack_at_a_time();
    let (host, addr, code) = host(&[]);
    let pid = host.child.id();
    let before = threads_of(pid);
    let junk = Attack::from(&Target::from_addresses(&addr, 16), 8, wrong_code_hang_up);
    let mut most = 0;
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(5) {
        most = most.max(threads_of(pid));
        thread::sleep(Duration::from_millis(20));
    }
    let made = junk.made.load(Ordering::SeqCst);
    drop(junk);
    let start = Instant::now();
    let joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    let took = start.elapsed();
    eprintln!(
        "storm: {made} connections, the host's threads {before} before, {most} at most; \
         the friend joined after {took:?} once it ended"
    );
    assert!(made > 200, "the storm made only {made} connections");
    assert!(
        took < JOIN_WITHIN,
        "the friend joined after {took:?} once the storm ended"
    );
    // The bound is the host's: at most 192 threads on strangers' handshakes (107 to 135 of
    // them were seen here; 128, the figure this test once held them to, was passed by one on
    // a loaded machine).
    assert!(
        most - before <= 192,
        "{before} threads before, {most} at most"
    );
}

/// Wrong codes the host reported in `output`: one by one, and in its summaries.
fn wrong_codes_reported(output: &str) -> u64 {
    let number = |text: &str| text.replace(',', "").parse::<u64>().unwrap_or(0);
    output
        .lines()
        .map(|line| line.trim_end_matches('.'))
        .map(|line| {
            if line.starts_with("Refused a connection") && line.ends_with(": wrong code") {
                1
            } else if let Some((_, counts)) = line.split_once(" in the last 10 s (") {
                counts
                    .trim_end_matches(')')
                    .split(", ")
                    .filter_map(|count| count.strip_prefix("wrong code "))
                    .map(number)
                    .sum()
            } else {
                0
            }
        })
        .sum()
}

/// A measurement, not a check (docs/network.md): wrong codes a minute that guessers who hang
/// up 50 ms after their `join` send after a key exchange, and that the host reports, from one address (4 and 16 connections at
/// once) and from twenty (4 each). `TICTACTOE_MEASURE_BINARY` names another build to measure.
/// Run: `cargo test --test net -- --ignored --nocapture guesses_a_minute`.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "a measurement of a minute and a half"]
fn guesses_a_minute() {
    let binary = std::env::var("TICTACTOE_MEASURE_BINARY").ok();
    for (addresses, per_address) in [(1, 4), (1, 16), (20, 4)] {
        let _turn = one_attack_at_a_time();
        let args = ["host", "--bind", "127.0.0.1", "--port", "0"];
        let host = match &binary {
            Some(binary) => {
                let run = format!("shift; exec {binary} \"$@\"");
                Proc::spawn_in(&["sh", "-c", &run, "sh"], &args, &[], TIMEOUT)
            }
            None => spawn(&args),
        };
        host.wait_for("Waiting for a player");
        let output = host.output();
        let addr = output
            .split_whitespace()
            .find(|word| word.starts_with("127.0.0.1:"))
            .expect("the join line")
            .to_string();
        let targets = Target::from_addresses(&addr, addresses);
        let sent_before = GUESSES_SENT.load(Ordering::SeqCst);
        let attack = Attack::from(&targets, per_address, wrong_code_hang_up);
        let within = Duration::from_secs(30);
        thread::sleep(within);
        let sent = GUESSES_SENT.load(Ordering::SeqCst) - sent_before;
        drop(attack);
        // The last window's summary.
        thread::sleep(Duration::from_secs(11));
        let wrong = wrong_codes_reported(&host.output());
        let a_minute = |n: u64| n * 60 / within.as_secs();
        eprintln!(
            "{addresses} address(es), {per_address} connections each: a minute, {} codes sent \
             after a key exchange, {} wrong codes reported by the host",
            a_minute(sent as u64),
            a_minute(wrong)
        );
    }
}

#[test]
fn a_rejoining_player_retries_a_busy_host_until_it_gets_back_in() {
    let (mut host, addr, code) = host(&[]);
    let relay = Relay::to(&addr);
    let mut joiner = join(&relay.addr, &code);
    joiner.wait_for("You play O.");
    host.send("5\n");
    joiner.wait_for("X (remote) plays 5");
    // While the connection is down the host answers busy, four times.
    relay.answer_next(
        4,
        r#"{"type":"error","message":"the host is busy: try again in a moment","kind":"busy"}"#,
    );
    relay.cut();
    joiner.wait_for("trying to get back in");
    joiner.wait_for("Back in.");
    assert_eq!(relay.answered.load(Ordering::SeqCst), 4, "busy was retried");
    host.wait_for("O is back");
    joiner.send("7\n");
    host.wait_for("O (remote) plays 7");
    host.send("q\n");
    assert!(host.wait_exit().success());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
}

/// A man in the middle answers a rejoin with a refusal it wrote, `wrong code` or `a game in
/// progress`: in the clear before the key exchange (as a host's refusal there would be), or
/// in the clear in place of the host's sealed answer after it. Neither is believed: the
/// joiner tries again and gets back in.
#[test]
fn a_rejoin_is_not_ended_by_a_refusal_a_man_in_the_middle_wrote() {
    let wrong = r#"{"type":"error","message":"wrong code","kind":"wrong_code"}"#;
    let in_progress = r#"{"type":"error","message":"a game is already in progress with another player","kind":"in_progress"}"#;
    for (line, after_exchange) in [
        (wrong, false),
        (in_progress, false),
        (wrong, true),
        (in_progress, true),
    ] {
        let (mut host, addr, code) = host(&[]);
        let relay = Relay::to(&addr);
        let mut joiner = join(&relay.addr, &code);
        joiner.wait_for("You play O.");
        host.wait_for("joined");
        if after_exchange {
            relay.forge_next(1, line);
        } else {
            relay.answer_next(1, line);
        }
        relay.cut();
        joiner.wait_for("trying to get back in");
        joiner.wait_for("Back in.");
        assert_eq!(
            relay.answered.load(Ordering::SeqCst),
            1,
            "the forgery was met"
        );
        assert!(
            !joiner.output().contains("Could not get back in"),
            "{}",
            joiner.output()
        );
        host.send("q\n");
        assert!(host.wait_exit().success());
        assert!(joiner.wait_exit().success(), "{}", joiner.output());
    }
}

#[test]
fn a_join_code_of_970_characters_is_refused_with_a_message_not_a_panic() {
    let code = "x".repeat(970);
    let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env(
            "TICTACTOE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
        )
        .args(["join", "127.0.0.1:9", "--code", &code])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "an error, not a signal");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("a join code is at most 64 characters, and this one has 970"),
        "{err}"
    );
    assert!(!err.contains("panicked") && err.len() < 200, "{err}");
}

/// A fake host that answers every hello with a key exchange of its own guess and then
/// whatever it likes; returns its address and everything joiners sent it.
fn fake_host(then: &'static str) -> (String, Arc<Mutex<Vec<u8>>>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let heard = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&heard);
    thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { break };
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let mut writer = stream;
            let mut line = String::new();
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            log.lock().unwrap().extend(line.as_bytes());
            let (_, pake) = Exchange::start(Role::Host, "zzzz-zzzz");
            let hello = format!(
                "{{\"type\":\"hello\",\"protocol\":3,\"program\":\"0.1.0\",\"pake\":\"{pake}\"}}\n"
            );
            let _ = writer.write_all(hello.as_bytes());
            line.clear();
            let _ = reader.read_line(&mut line);
            log.lock().unwrap().extend(line.as_bytes());
            let _ = writer.write_all(then.as_bytes());
            let _ = writer.shutdown(Shutdown::Write);
        }
    });
    (addr, heard)
}

#[test]
fn a_host_that_does_not_know_the_code_is_refused_and_never_learns_it() {
    let code = "k7m2-qx4p";
    // A sealed-looking line under another key, and then a welcome in the clear.
    for then in [
        "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=\n",
        "{\"type\":\"welcome\",\"rules\":{\"size\":3,\"k\":3,\"misere\":false},\"state\":{\"round\":1,\"score\":[0,0,0],\"moves\":[]},\"token\":\"t\"}\n",
    ] {
        let (addr, heard) = fake_host(then);
        let mut joiner = join(&addr, code);
        let status = joiner.wait_exit();
        assert!(!status.success(), "{}", joiner.output());
        let heard = String::from_utf8_lossy(&heard.lock().unwrap()).to_lowercase();
        assert!(heard.contains("\"pake\""), "the joiner spoke: {heard}");
        assert!(
            !heard.contains("k7m2") && !heard.contains("qx4p"),
            "{heard}"
        );
        // A line that does not open: the host does not know the code. A welcome in the clear
        // after the exchange: not the host's word, not believed.
        let output = joiner.output();
        assert!(
            output.contains("the code did not match") || output.contains("not believed"),
            "{output}"
        );
        assert!(!output.contains("You play"), "{output}");
    }
}

#[test]
fn bidirectional_controls_from_the_other_side_never_reach_the_screen() {
    let (host, addr, code) = host(&[]);
    // From a stranger: the reason for refusing quotes the message type.
    let mut raw = Raw::connect(&addr);
    raw.send("{\"type\":\"\u{202E}evil\u{2066}\"}\n".as_bytes());
    assert!(raw.line().unwrap_or_default().contains("unknown variant"));
    host.wait_for("evil");
    // From the player: an error message.
    let (mut raw, _) = Raw::hello(&addr, &code);
    host.wait_for("joined");
    raw.say("{\"type\":\"error\",\"message\":\"gg \u{202E}\u{200F}\u{2067}txet\\u001b[2J\"}");
    host.wait_for("O's side reports: gg");
    let output = host.output();
    for hidden in ['\u{202E}', '\u{2066}', '\u{2067}', '\u{200F}', '\u{1b}'] {
        assert!(
            !output.contains(hidden),
            "U+{:04X} reached the screen",
            u32::from(hidden)
        );
    }
    assert!(output.contains("O's side reports: gg \u{fffd}\u{fffd}\u{fffd}txet\u{fffd}[2J."));
}

/// Sends `signal` to `proc`.
fn signal(proc: &Proc, signal: Signal) {
    kill(Pid::from_raw(proc.child.id() as i32), signal).unwrap();
}

#[test]
fn a_plain_host_ended_by_sigterm_says_bye() {
    let (mut host, mut joiner) = connected();
    let start = Instant::now();
    signal(&host, Signal::SIGTERM);
    joiner.wait_for("X left the game.");
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(host.wait_exit().code(), Some(128 + 15));
    let output = host.output();
    assert!(
        output.trim_end().ends_with("Quit."),
        "a stopped game ends as q ends it: {output}"
    );
}

#[test]
fn a_plain_joiner_ended_by_sigint_or_sighup_says_bye() {
    for stop in [Signal::SIGINT, Signal::SIGHUP] {
        let (mut host, mut joiner) = connected();
        signal(&joiner, stop);
        host.wait_for("O left the game.");
        assert!(host.wait_exit().success(), "{}", host.output());
        assert_eq!(joiner.wait_exit().code(), Some(128 + stop as i32));
    }
}

#[test]
fn q_typed_on_the_other_players_turn_leaves_at_once() {
    let (mut host, mut joiner) = connected();
    // X's turn: O types a move ahead, then q, and neither waits for X.
    joiner.send("7\nq\n");
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    assert!(
        joiner.output().trim_end().ends_with("Quit."),
        "{}",
        joiner.output()
    );
    host.wait_for("O left the game.");
    assert!(host.wait_exit().success(), "{}", host.output());
}

#[test]
fn a_waiting_plain_host_ends_at_once_on_sigint() {
    let (mut host, _, _) = host(&[]);
    signal(&host, Signal::SIGINT);
    assert_eq!(host.wait_exit().code(), Some(128 + 2));
}

/// The `token` in the host's welcome.
fn token(hello: &str) -> String {
    let rest = hello.split("\"token\":\"").nth(1).expect("a token");
    rest.split('"').next().unwrap().to_string()
}

#[test]
fn a_player_coming_back_with_its_token_takes_over_its_stale_connection() {
    let (host, addr, code) = host(&[]);
    let (mut stale, hello) = Raw::hello(&addr, &code);
    host.wait_for("joined");
    // Without the token, a second player is refused while the first is connected.
    let (_, answer) = Raw::hello(&addr, &code);
    assert!(answer.contains(r#""kind":"in_progress""#), "{answer}");
    // With it, the same player takes its seat back at once.
    let (_back, welcome) = Raw::join(&addr, &code, Some(&token(&hello)));
    assert!(welcome.starts_with(r#"{"type":"welcome""#), "{welcome}");
    assert_ne!(token(&welcome), token(&hello), "a fresh token each time");
    host.wait_for("O is back");
    assert_eq!(stale.line(), None, "the stale connection is closed");
}

/// Waits until the screen shows `text`, whatever lines it was wrapped on.
fn wait_words(terminal: &proc::terminal::Terminal, text: &str) {
    let words = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = Instant::now();
    while !words(&terminal.contents()).contains(text) {
        assert!(
            start.elapsed() < TIMEOUT,
            "timed out waiting for {text:?}; screen:\n{}",
            terminal.contents()
        );
        thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn a_joiner_whose_host_died_gives_up_keeps_the_game_and_the_start_screen_continues_it() {
    use proc::terminal::Terminal;
    let home = concat!(env!("CARGO_TARGET_TMPDIR"), "/home-host-gone");
    let _ = std::fs::remove_dir_all(home);
    let (mut host, addr, code) = host(&[]);
    let window = ["env", "TICTACTOE_REJOIN_WINDOW=2"];
    let mut joiner = Terminal::start_in(&window, &["join", &addr, "--code", &code], home);
    joiner.wait_for("O: you");
    host.wait_for("joined. You play X.");
    host.send("5\n");
    joiner.wait_for("played 5. O to move (you)");
    joiner.send("7");
    host.wait_for("O (remote) plays 7");
    host.child.kill().unwrap();
    host.child.wait().unwrap();
    wait_words(&joiner, "trying to get back in for 2 s (q leaves)");
    wait_words(&joiner, "the host is gone: no answer in 2 s");
    wait_words(
        &joiner,
        "The game is kept: c on the start screen continues it",
    );
    joiner.send("q");
    assert!(joiner.wait_exit().success(), "{}", joiner.contents());
    let mut menu = Terminal::start_in(&[], &[], home);
    menu.wait_for("c continues: 3×3, 3 in a row");
    menu.wait_for("2 moves");
    menu.send("c");
    menu.wait_for("X to move");
    menu.send("3");
    menu.wait_for("O to move");
}

#[test]
fn hints_are_on_in_a_network_game_only_when_both_players_ask_and_both_are_told() {
    let (mut host, addr, code) = host(&["--hints"]);
    let mut joiner = spawn(&["join", &addr, "--code", &code, "--hints"]);
    joiner.wait_for("You play O.\nHints are on: both players asked for them.");
    host.wait_for("joined. You play X.\nHints are on: both players asked for them.");
    host.wait_for("X to move (1-9, h hint, q quit): ");
    host.send("h\n");
    host.wait_for("Hint:\n");
    host.send("q\n");
    joiner.wait_for("X left the game.");
    host.wait_exit();
    joiner.wait_exit();
    drop((host, joiner));

    let (mut host, addr, code) = self::host(&["--hints"]);
    let mut joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    host.wait_for("X to move (1-9, q quit): ");
    host.send("h\n");
    host.wait_for("Hints and the explorer are off: you asked for them, the other player did not.");
    host.send("5\n");
    joiner.wait_for("O to move (1-9, q quit): ");
    joiner.send("h\n");
    joiner.wait_for("Hints and the explorer are off: both players must ask (host/join --hints).");
    joiner.send("q\n");
    host.wait_for("O left the game.");
    host.wait_exit();
    joiner.wait_exit();
    let (h, j) = (host.output(), joiner.output());
    assert!(
        !h.contains("Hints are on") && !j.contains("Hints are on"),
        "{h}\n{j}"
    );
}

/// The join code taken from `TICTACTOE_CODE` when `--code` is not given: a wrong one there
/// is refused as wrong, the right one joins, and the joiner's command line never holds it.
#[test]
fn the_join_code_comes_from_the_environment_and_stays_out_of_the_command_line() {
    let (mut host, addr, code) = host(&[]);
    let mut wrong = Proc::spawn(
        &["join", &addr],
        &[("TICTACTOE_CODE", "abcd-2345")],
        TIMEOUT,
    );
    assert!(!wrong.wait_exit().success());
    assert!(
        wrong.output().contains("the code did not match"),
        "{}",
        wrong.output()
    );
    let mut joiner = Proc::spawn(&["join", &addr], &[("TICTACTOE_CODE", &code)], TIMEOUT);
    joiner.wait_for("You play O.");
    let cmdline = std::fs::read(format!("/proc/{}/cmdline", joiner.child.id())).unwrap();
    assert!(
        !String::from_utf8_lossy(&cmdline).contains(&code),
        "the code is in the command line"
    );
    host.send("q\n");
    assert!(host.wait_exit().success());
    joiner.wait_for("X left the game.");
    assert!(joiner.wait_exit().success());
}

#[test]
fn a_draw_offered_over_the_network_is_accepted_and_a_resignation_ends_the_next_game() {
    let (mut host, mut joiner) = connected();
    host.send("5\n");
    joiner.wait_for("X (remote) plays 5");
    joiner.send("draw\n");
    host.wait_for("O (remote) offers a draw: type draw to accept it, or a move to play on.");
    host.send("draw\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let (h, j) = (host.output(), joiner.output());
    assert!(
        h.contains("Draw agreed.") && j.contains("Draw agreed."),
        "{h}\n{j}"
    );
    assert_eq!(record(&h), "Record: 5");

    let (mut host, mut joiner) = connected();
    host.send("5\n");
    joiner.wait_for("X (remote) plays 5");
    joiner.send("resign\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let (h, j) = (host.output(), joiner.output());
    assert!(
        h.contains("O resigned: X wins.") && j.contains("O resigned: X wins."),
        "{h}\n{j}"
    );
}

#[test]
fn a_move_declines_a_draw_offer_and_a_draw_after_it_is_a_new_offer() {
    let (mut host, mut joiner) = connected();
    // X offers and moves; O plays on, which declines; O's offer after that is a new one.
    host.send("draw\n5\n");
    joiner.wait_for("X (remote) offers a draw");
    joiner.wait_for("X (remote) plays 5");
    joiner.send("1\n");
    host.wait_for("O (remote) plays 1");
    joiner.send("draw\n");
    host.wait_for("O (remote) offers a draw");
    host.send("9\n");
    joiner.wait_for("X (remote) plays 9");
    // X moved: O's offer lapsed, and X's draw now is an offer, not an acceptance.
    host.send("draw\n");
    joiner.wait_for("X (remote) offers a draw");
    joiner.send("q\n");
    assert!(joiner.wait_exit().success());
    host.wait_exit();
    assert!(!host.output().contains("Draw agreed."), "{}", host.output());
}

fn watch(addr: &str, code: &str) -> Proc {
    spawn(&["watch", addr, "--code", code])
}

/// How many watch, as the last such news in `output` says (`2 people watch.`).
fn watchers_said(output: &str) -> Option<usize> {
    let at = [" person watches", " people watch"]
        .iter()
        .filter_map(|news| output.rfind(news))
        .max()?;
    let before = &output[..at];
    let digits = before.len() - before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    before[at - digits..].parse().ok()
}

#[test]
fn watchers_see_the_game_so_far_and_every_move_and_the_players_see_how_many_watch() {
    let (mut host, addr, code) = host(&[]);
    let early = watch(&addr, &code);
    early.wait_for("Watching 127.0.0.1:");
    host.wait_until("one watcher", |out| watchers_said(out) == Some(1));
    let mut joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    host.send("5\n");
    joiner.wait_for("X (remote) plays 5");
    joiner.send("7\n");
    host.wait_for("O (remote) plays 7");
    // One comes late, and gets the game so far; another comes and is killed.
    let late = watch(&addr, &code);
    late.wait_for("Watching 127.0.0.1:");
    let killed = watch(&addr, &code);
    killed.wait_for("Watching 127.0.0.1:");
    host.wait_until("three watchers", |out| watchers_said(out) == Some(3));
    joiner.wait_until("three watchers", |out| watchers_said(out) == Some(3));
    assert_eq!(
        boards(&late.output())[0],
        " O | 8 | 9/---+---+---/ 4 | X | 6/---+---+---/ 1 | 2 | 3",
        "the late watcher's first board is the game so far"
    );
    kill(Pid::from_raw(killed.child.id() as i32), Signal::SIGKILL).unwrap();
    host.wait_until("two watchers", |out| watchers_said(out) == Some(2));
    joiner.wait_until("two watchers", |out| watchers_said(out) == Some(2));
    host.send("4\n3\n2\n9\n");
    joiner.send("6\n1\n8\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    for watcher in [&early, &late] {
        watcher.wait_for("Record: 5 7 4 6 3 1 2 8 9");
        let out = watcher.output();
        assert!(out.contains("Draw."), "{out}");
        let (seen, played) = (boards(&out), boards(&host.output()));
        assert_eq!(seen.last(), played.last(), "{out}");
    }
    assert_eq!(boards(&early.output()), boards(&host.output()));
}

#[test]
fn a_watcher_that_sends_a_move_is_cut_off_and_the_game_never_hears_of_it() {
    let (mut host, addr, code) = host(&[]);
    let joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    let mut raw = Raw::connect(&addr);
    let (exchange, hello) = hello_with(&code);
    raw.send(hello.as_bytes());
    let answer = raw.line().expect("the host's hello");
    raw.keys = Some(exchange.finish(&pake_of(&answer)).unwrap());
    raw.say(r#"{"type":"join","watch":true}"#);
    let welcome = raw.line().unwrap_or_default();
    assert!(welcome.contains("\"type\":\"welcome\""), "{welcome}");
    host.wait_until("one watcher", |out| watchers_said(out) == Some(1));
    raw.say(r#"{"type":"move","seq":1,"cell":"5"}"#);
    // The game's news to watchers may come before the answer: the answer is the first line
    // that is not an update.
    let mut answer = raw.line().unwrap_or_default();
    while answer.contains("\"type\":\"update\"") {
        answer = raw.line().unwrap_or_default();
    }
    assert!(answer.contains("a watcher only watches"), "{answer}");
    host.wait_until("no watcher", |out| watchers_said(out) == Some(0));
    // X's turn is the host's still: the watcher's move reached no board.
    host.send("1\n");
    joiner.wait_for("X (remote) plays 1");
    for out in [host.output(), joiner.output()] {
        assert!(
            !out.contains("plays 5") && !out.contains("Refused"),
            "{out}"
        );
    }
}

#[test]
fn a_watcher_is_told_who_joined_and_when_that_players_connection_drops() {
    let (host, addr, code) = host(&[]);
    let watcher = watch(&addr, &code);
    watcher.wait_for("Watching 127.0.0.1:");
    let joiner = join(&addr, &code);
    joiner.wait_for("You play O.");
    watcher.wait_for("127.0.0.1 joined and plays O.");
    kill(Pid::from_raw(joiner.child.id() as i32), Signal::SIGKILL).unwrap();
    host.wait_for("connection was lost");
    watcher.wait_for("O's connection to the host was lost; waiting for them to rejoin.");
    assert!(!watcher.output().contains("guest"), "{}", watcher.output());
}

#[test]
fn a_host_takes_no_more_watchers_than_its_limit() {
    let (_host, addr, code) = host(&["--watchers", "1"]);
    let first = watch(&addr, &code);
    first.wait_for("Watching 127.0.0.1:");
    let mut second = watch(&addr, &code);
    assert!(!second.wait_exit().success());
    let out = second.output();
    assert!(
        out.contains("1 watch already, as many as this host takes"),
        "{out}"
    );
}

#[test]
fn a_watcher_can_neither_move_nor_ask_for_hints() {
    let (_host, addr, code) = host(&[]);
    let mut watcher = watch(&addr, &code);
    watcher.wait_for("Watching 127.0.0.1:");
    let mut refused = spawn(&["watch", &addr, "--code", &code, "--hints"]);
    assert!(!refused.wait_exit().success());
    assert!(refused.output().contains("a watcher sees no hints"));
    watcher.send("5\n");
    watcher.wait_for("You are watching: the players move.");
    assert_eq!(boards(&watcher.output()).len(), 1, "{}", watcher.output());
}

/// `n` moves on a 20×20 board that end no game: X and O take turns on the points of a
/// pattern that holds no more than two of a side in a row in any direction (alternate
/// columns, the pattern shifting every two rows).
fn long_game(n: usize) -> Vec<String> {
    let (mut xs, mut os) = (Vec::new(), Vec::new());
    for row in 0..20u8 {
        for col in 0..20u8 {
            let name = format!("{}{}", char::from(b'a' + col), row + 1);
            if (row / 2 + col) % 2 == 0 {
                xs.push(name);
            } else {
                os.push(name);
            }
        }
    }
    xs.into_iter()
        .zip(os)
        .flat_map(|(x, o)| [x, o])
        .take(n)
        .collect()
}

#[test]
fn a_watcher_who_comes_late_to_a_long_game_gets_all_of_it() {
    // Two hundred moves are more than the welcome's line holds.
    let moves = long_game(200);
    let mut args = vec!["--size", "20", "--from"];
    args.extend(moves.iter().map(String::as_str));
    let (_host, addr, code) = host(&args);
    let watcher = watch(&addr, &code);
    watcher.wait_for(&format!("plays {}", moves[199]));
    // The board after the last move, once it is all printed.
    let stones = |out: &str| {
        let Some(at) = out.rfind("plays ") else {
            return (0, 0);
        };
        let rows: Vec<&str> = out[at..].lines().skip(2).take(20).collect();
        let count = |mark| rows.iter().map(|r| r.matches(mark).count()).sum::<usize>();
        (count('X'), count('O'))
    };
    watcher.wait_until("200 stones", |out| stones(out) == (100, 100));
}

#[test]
fn a_player_who_joins_a_long_game_gets_all_of_it_and_plays_on() {
    // Two hundred moves are more than the welcome's line holds.
    let moves = long_game(202);
    let mut args = vec!["--size", "20", "--from"];
    args.extend(moves[..200].iter().map(String::as_str));
    let (mut host, addr, code) = host(&args);
    let mut joiner = join(&addr, &code);
    joiner.wait_for(&format!("plays {}", moves[199]));
    host.wait_for("joined. You play X.");
    host.send(&format!("{}\n", moves[200]));
    joiner.wait_for(&format!("X (remote) plays {}", moves[200]));
    joiner.send(&format!("{}\n", moves[201]));
    host.wait_for(&format!("O (remote) plays {}", moves[201]));
}

/// A hand-made host that proves `code` to the one joiner it takes, waits `delay`, welcomes it
/// with `welcome` and at once sends `then`; it ends when the joiner closes the connection.
fn proving_host(
    code: String,
    welcome: String,
    delay: Duration,
    then: &'static [&'static str],
) -> (String, thread::JoinHandle<()>) {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    let handle = thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(15)))
            .unwrap();
        let mut raw = Raw {
            reader: BufReader::new(stream.try_clone().unwrap()),
            stream,
            keys: None,
        };
        let hello = raw.line().expect("the joiner's hello");
        let (exchange, pake) = Exchange::start(Role::Host, &code);
        raw.send(
            format!(
                "{{\"type\":\"hello\",\"protocol\":3,\"program\":\"fake\",\"pake\":\"{pake}\"}}\n"
            )
            .as_bytes(),
        );
        raw.keys = Some(exchange.finish(&pake_of(&hello)).unwrap());
        raw.line().expect("the joiner's join");
        thread::sleep(delay);
        raw.say(welcome.trim_end());
        for line in then {
            raw.say(line);
        }
        // Whatever it says back, until it hangs up.
        while raw.line().is_some() {}
    });
    (addr, handle)
}

#[test]
fn of_the_games_found_only_the_one_joined_reaches_the_game() {
    use tictactoe::net::link::{LinkEvent, Sink};
    use tictactoe::net::setup::{Target, join};
    // A real host's welcome, from a host of its own, for the stranger to send.
    let (_other, other_addr, other_code) = host(&[]);
    let (_raw, welcome) = Raw::hello(&other_addr, &other_code);
    assert!(welcome.contains("\"welcome\""), "{welcome}");
    let (real, addr, code) = host(&[]);
    // A stranger announcing a game of its own proves the code too, but answers later.
    let then = &[
        r#"{"type":"move","seq":1,"cell":"5"}"#,
        r#"{"type":"resign","seq":1}"#,
    ];
    let (fake, stranger) = proving_host(code.clone(), welcome, Duration::from_millis(500), then);
    let (tx, rx) = std::sync::mpsc::channel();
    let sink: Sink = Arc::new(move |event| tx.send(event).is_ok());
    let found = [addr.clone(), fake]
        .map(|target| Target::Address {
            target,
            code: code.clone(),
        })
        .to_vec();
    let (network, line) = join(Target::Any(found), false, sink).unwrap();
    assert!(line.contains("You play O"), "{line}");
    real.wait_for("joined. You play X.");
    // The stranger's welcome, move and resignation came after the real host was chosen: its
    // connection is closed, and nothing it sent reaches the game.
    stranger.join().unwrap();
    let events: Vec<LinkEvent> = rx.try_iter().collect();
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, LinkEvent::Received(_) | LinkEvent::Lost(_))),
        "{events:?}"
    );
    drop(network);
}

/// A joiner told by its host that its flag fell, where its own clock says otherwise (a game
/// with no clock, or a minute left), takes no loss on time: the game ends as the host's clock
/// disagreeing, and the history counts no loss.
#[test]
fn a_flag_the_joiners_own_clock_contradicts_ends_the_game_without_a_loss_on_time() {
    for clock in [None, Some("1")] {
        let extra: Vec<&str> = clock.map(|c| vec!["--clock", c]).unwrap_or_default();
        let (_model, model_addr, model_code) = host(&extra);
        let (_raw, welcome) = Raw::hello(&model_addr, &model_code);
        assert!(welcome.contains("\"welcome\""), "{welcome}");
        let code = "abcd-efgh".to_string();
        // The host moves, then says O's flag fell at once, on O's first turn.
        let flag = &[
            r#"{"type":"move","seq":1,"cell":"5"}"#,
            r#"{"type":"flag","seq":1}"#,
        ];
        let (addr, host) = proving_host(code.clone(), welcome, Duration::ZERO, flag);
        let home = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("flag-home-{}", clock.is_some()));
        let _ = std::fs::remove_dir_all(&home);
        let home_text = home.to_str().unwrap();
        let mut joiner = Proc::spawn(
            &["join", &addr],
            &[("TICTACTOE_CODE", &code), ("TICTACTOE_HOME", home_text)],
            TIMEOUT,
        );
        joiner.wait_for("the host's clock disagreed");
        assert!(
            !joiner.output().contains("ran out of time"),
            "{}",
            joiner.output()
        );
        joiner.wait_exit();
        host.join().unwrap();
        let history = std::fs::read_to_string(home.join("history.jsonl")).unwrap_or_default();
        assert!(
            !history.contains("\"ending\":\"time\""),
            "{clock:?}: {history}"
        );
    }
}

/// The next message of `kind` from the host, past the pings and other messages before it.
fn next_of(raw: &mut Raw, kind: &str) -> serde_json::Value {
    while let Some(line) = raw.line() {
        let message: serde_json::Value = serde_json::from_str(&line).expect("a message");
        if message["type"] == kind {
            return message;
        }
    }
    panic!("the connection closed before a {kind}");
}

/// A joiner that says every move took it no time is charged what the host saw less the round
/// trip the connection timed (on loopback, a few milliseconds), not less a fixed second:
/// thinking 1.5 s and claiming none, it loses 1.5 s of its minute, not half a second. A ping
/// that asks for an echo gets one at once.
#[test]
fn a_joiner_that_claims_it_never_thinks_is_charged_all_but_the_round_trip() {
    let (mut host, addr, code) = host(&["--clock", "1"]);
    let (mut raw, _) = Raw::hello(&addr, &code);
    host.wait_for("joined. You play X.");
    raw.say(r#"{"type":"ping","id":41}"#);
    let echo = next_of(&mut raw, "ping");
    assert_eq!(echo["echo"], 41, "{echo}");
    host.send("5\n");
    next_of(&mut raw, "move");
    let thought = Duration::from_millis(1500);
    thread::sleep(thought);
    raw.say(r#"{"type":"move","seq":2,"cell":"1","spent_ms":0}"#);
    host.wait_for("O (remote) plays 1");
    host.send("9\n");
    let answer = next_of(&mut raw, "move");
    let left = answer["left_ms"][1].as_u64().expect("the clock's readings");
    let charged = 60_000 - left;
    assert!(
        charged >= 1_400,
        "charged {charged} ms for 1.5 s of thinking: {answer}"
    );
}
