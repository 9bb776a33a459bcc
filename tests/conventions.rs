//! What a Unix command is expected to do: shell completions and a manual page, a quiet end
//! when its output is closed (`| head`), and Ctrl-C answered as `q` is.

#![cfg(unix)]

mod pipe;

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use pipe::{run, text};

#[test]
fn completions_are_generated_for_every_shell_and_name_the_commands() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(&["completions", shell], b"");
        assert!(out.status.success(), "{shell}: {}", text(&out.stderr));
        let script = text(&out.stdout);
        for word in ["tictactoe", "analyze", "review", "size", "ultimate"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    let out = run(&["completions", "tcsh"], b"");
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
    assert!(text(&out.stderr).contains("possible values"));
}

#[test]
fn the_man_page_is_roff_with_the_flags_and_commands() {
    let out = run(&["man"], b"");
    assert!(out.status.success());
    let page = text(&out.stdout);
    assert!(
        page.starts_with(".ie") || page.contains(".TH tictactoe"),
        "{page}"
    );
    for word in [".SH NAME", ".SH OPTIONS", "\\-\\-misere", "review", "host"] {
        assert!(page.contains(word), "the page lacks {word}");
    }
}

/// Runs the binary with its standard output already closed by the reader, as `| head` leaves
/// it once it has its lines.
fn with_stdout_closed(args: &[&str], input: &[u8]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env(
            "TICTACTOE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
        )
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    let _ = stdin.write_all(input);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (out.status.code(), text(&out.stderr))
}

#[test]
fn a_closed_stdout_ends_review_analyze_and_games_quietly_with_status_0() {
    let cases: [(&[&str], &[u8]); 5] = [
        (&["review", "5", "9", "4", "6", "1"], b""),
        (&["analyze", "X.O/.X./..O"], b""),
        (&["completions", "bash"], b""),
        (&["--plain", "-o", "human"], b"5\n"),
        (&["--plain", "-x", "easy", "-o", "easy"], b""),
    ];
    for (args, input) in cases {
        assert_eq!(
            with_stdout_closed(args, input),
            (Some(0), String::new()),
            "{args:?}"
        );
    }
}

/// A plain game on pipes that stay open, with its output read as it comes.
struct Plain {
    child: Child,
    lines: std::sync::mpsc::Receiver<String>,
    seen: String,
}

impl Plain {
    fn start(args: &[&str]) -> Plain {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
            .env(
                "TICTACTOE_HOME",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
            )
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let (tx, lines) = std::sync::mpsc::channel();
        thread::spawn(move || {
            let mut chunk = [0u8; 4096];
            while let Ok(n) = stdout.get_mut().read(&mut chunk) {
                if n == 0 || tx.send(text(&chunk[..n])).is_err() {
                    break;
                }
            }
            let _ = stdout.fill_buf();
        });
        Plain {
            child,
            lines,
            seen: String::new(),
        }
    }

    fn wait_for(&mut self, what: &str, count: usize) {
        let start = Instant::now();
        while self.seen.matches(what).count() < count {
            assert!(
                start.elapsed() < Duration::from_secs(10),
                "no {what:?} in:\n{}",
                self.seen
            );
            if let Ok(more) = self.lines.recv_timeout(Duration::from_millis(20)) {
                self.seen.push_str(&more);
            }
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    fn interrupt(&self) {
        kill(Pid::from_raw(self.child.id() as i32), Signal::SIGINT).unwrap();
    }

    /// Waits for the exit; returns its status code and everything printed.
    fn finish(mut self) -> (Option<i32>, String) {
        // Input stays open, as a terminal's does: `wait` would close it first.
        let _stdin = self.child.stdin.take();
        let start = Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(start.elapsed() < Duration::from_secs(10), "no exit");
            thread::sleep(Duration::from_millis(10));
        };
        while let Ok(more) = self.lines.recv_timeout(Duration::from_millis(200)) {
            self.seen.push_str(&more);
        }
        (status.code(), self.seen)
    }
}

#[test]
fn ctrl_c_in_a_plain_game_prints_quit_and_the_record_as_q_does() {
    let mut game = Plain::start(&["--plain", "-o", "human"]);
    game.wait_for("X to move", 1);
    game.send("5\n");
    game.wait_for("O to move", 1);
    game.interrupt();
    let (code, out) = game.finish();
    assert_eq!(code, Some(130), "128 + SIGINT\n{out}");
    assert!(out.ends_with("Quit.\nRecord: 5\n"), "{out}");
}

#[test]
fn a_stop_signal_during_a_long_search_ends_it_at_once_with_quit_and_the_record() {
    for signal in [Signal::SIGINT, Signal::SIGTERM] {
        // X (hard) thinks 60 s over its second Ultimate move; the signal comes a moment in.
        // (Set up at a position, the game does not count.)
        let mut game = Plain::start(&[
            "--plain",
            "--ultimate",
            "--from",
            "55",
            "53",
            "-x",
            "hard",
            "-o",
            "human",
            "--think",
            "60000",
        ]);
        game.wait_for("a b c   d e f   g h i", 1);
        thread::sleep(Duration::from_millis(300));
        let start = Instant::now();
        kill(Pid::from_raw(game.child.id() as i32), signal).unwrap();
        let (code, out) = game.finish();
        let took = start.elapsed();
        assert_eq!(code, Some(128 + signal as i32), "{out}");
        assert!(out.ends_with("Quit.\nRecord: --ultimate 55 53\n"), "{out}");
        // Not the handler's last resort, which ends the process 3 s after the signal.
        assert!(took < Duration::from_secs(2), "{signal}: {took:?}");
    }
}

#[test]
fn ctrl_c_stops_a_game_between_two_ais_with_the_record_so_far() {
    let mut game = Plain::start(&[
        "--plain", "--size", "7", "--k", "4", "-x", "hard", "-o", "hard", "--think", "300",
    ]);
    game.wait_for("plays", 1);
    game.interrupt();
    let (code, out) = game.finish();
    assert_eq!(code, Some(130), "{out}");
    assert!(out.contains("Quit.\nRecord: --size 7 --k 4 "), "{out}");
}

/// Runs `program` with `args` in a pseudo-terminal with `env`, types `input` once it has
/// printed `ready`, and returns every byte it wrote to the terminal once it exits.
fn in_terminal(
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
    ready: &str,
    input: &str,
) -> String {
    use portable_pty::{CommandBuilder, PtySize, native_pty_system};
    use std::sync::{Arc, Mutex};
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pty");
    let mut cmd = CommandBuilder::new(program);
    cmd.args(args);
    cmd.env(
        "TICTACTOE_HOME",
        concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
    );
    cmd.env("RUST_BACKTRACE", "0");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = pair.slave.spawn_command(cmd).expect("the program starts");
    drop(pair.slave);
    let seen = Arc::new(Mutex::new(String::new()));
    let mut reader = pair.master.try_clone_reader().unwrap();
    let copy = Arc::clone(&seen);
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            copy.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    let start = Instant::now();
    while !seen.lock().unwrap().contains(ready) {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "timed out waiting for {ready:?}: {}",
            seen.lock().unwrap()
        );
        thread::sleep(Duration::from_millis(5));
    }
    let mut writer = pair.master.take_writer().unwrap();
    writer.write_all(input.as_bytes()).unwrap();
    writer.flush().unwrap();
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "it did not exit: {}",
            seen.lock().unwrap()
        );
        thread::sleep(Duration::from_millis(5));
    }
    thread::sleep(Duration::from_millis(50));
    seen.lock().unwrap().clone()
}

#[test]
fn term_dumb_gets_the_plain_game_on_a_terminal() {
    let bin = env!("CARGO_BIN_EXE_tictactoe");
    let prompt = "X to move (1-9, u undo, h hint, q quit):";
    let seen = in_terminal(bin, &["-o", "human"], &[("TERM", "dumb")], prompt, "5\nq\n");
    assert!(!seen.contains("\x1b[?1049h"), "no full screen: {seen:?}");
    assert!(seen.contains(" 4 | X | 6"), "{seen:?}");
    assert!(seen.contains("Record: 5"), "{seen:?}");
}

#[test]
fn a_game_with_its_output_in_a_file_is_still_seen_on_the_terminal() {
    let file = concat!(env!("CARGO_TARGET_TMPDIR"), "/redirected-game.txt");
    let _ = std::fs::remove_file(file);
    let bin = env!("CARGO_BIN_EXE_tictactoe");
    let script = "exec \"$0\" -o human > \"$1\"";
    let prompt = "X to move (1-9, u undo, h hint, q quit):";
    let env = [("TERM", "xterm-256color")];
    let seen = in_terminal("sh", &["-c", script, bin, file], &env, prompt, "5\nq\n");
    assert!(!seen.contains("\x1b[?1049h"), "no full screen: {seen:?}");
    assert!(seen.contains(" 4 | X | 6"), "the move is seen: {seen:?}");
    let kept = std::fs::read_to_string(file).unwrap();
    assert!(
        kept.contains(" 4 | X | 6") && kept.contains("Record: 5"),
        "{kept}"
    );
}

/// The top level's help with `flag` on a terminal 80 columns wide.
fn help_at_80_columns(flag: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .arg(flag)
        .env("COLUMNS", "80")
        .output()
        .unwrap();
    assert!(out.status.success());
    text(&out.stdout)
}

#[test]
fn short_help_fits_an_80_by_24_terminal_with_the_prompt_below_it_and_long_help_wraps_to_80() {
    let short = help_at_80_columns("-h");
    assert!(short.lines().count() <= 23, "{short}");
    let long = help_at_80_columns("--help");
    assert!(long.lines().count() > 24, "--help is the full text: {long}");
    for help in [&short, &long] {
        let widest = help.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= 80, "a line of {widest} columns: {help}");
    }
    assert!(
        short.contains("--help"),
        "-h says where to read more: {short}"
    );
}

#[test]
fn long_help_claims_a_perfect_ai_only_where_it_is_and_names_gomokus_points_from_a1() {
    let long = help_at_80_columns("--help")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        long.contains("On 3×3 the level 7 AI searches the whole game tree and never loses")
            && long
                .contains("in Ultimate and Gomoku it searches a budget of time and can be beaten"),
        "{long}"
    );
    assert!(long.contains("points a1 to o15"), "{long}");
}

#[test]
fn the_man_pages_carry_the_version_the_settings_file_the_engine_page_and_the_keys() {
    let version = env!("CARGO_PKG_VERSION");
    let page = text(&run(&["man"], b"").stdout);
    let title = page.lines().find(|l| l.starts_with(".TH")).unwrap();
    assert!(title.contains(version), "{title}");
    for word in [
        "settings.toml",
        "\\fBtictactoe\\-engine\\fR(1)",
        ".SH KEYS",
        "undo your last move",
        "hint: W win, D draw, L loss (in plies)",
        "Esc Bksp     choose another board after a first digit",
    ] {
        assert!(page.contains(word), "the page lacks {word}");
    }
    let explain = text(&run(&["man", "explain"], b"").stdout);
    let title = explain.lines().find(|l| l.starts_with(".TH")).unwrap();
    assert!(title.contains(version), "{title}");
}

#[test]
fn explain_help_shows_no_rustdoc_links() {
    let help = text(&run(&["explain", "--help"], b"").stdout);
    assert!(help.contains("Monte Carlo tree search"), "{help}");
    assert!(!help.contains("[`"), "{help}");
}
