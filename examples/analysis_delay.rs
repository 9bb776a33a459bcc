//! How long the analysis board takes to show the lines of a position set up on it: the
//! release binary's `tictactoe analyze` in a pseudo-terminal, a position typed stone by stone
//! on each board (3×3, 7×7, Ultimate, Gomoku 15×15 and renju), and the time from the last key
//! to the first frame with all three lines, `--runs` times each (5 by default), with the
//! median and the slowest.
//!
//! Build the game first (`cargo build --release`), then, beside a second job on one core:
//! `yes > /dev/null & cargo run --release --example analysis_delay -- --runs 5; kill %1`.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};

/// Each board: its flags, and the keys that set its position up, the last one timed (it
/// puts the last stone down).
const BOARDS: [(&str, &[&str], &str); 5] = [
    ("3×3", &[], "z75"),
    ("7×7, 4 in a row", &["--size", "7", "--k", "4"], "zd3a1d4a7"),
    ("Ultimate", &["--rules", "ultimate"], "5371"),
    ("Gomoku 15×15", &["--rules", "gomoku"], "zh8a2i8a4j8a6"),
    (
        "renju 15×15",
        &["--rules", "renju"],
        "zh8a2i8a4j8a6d12c2e12c4f11c6f10e2",
    ),
];

/// The lines on the screen: rows that start `1. `, `2. `, ….
fn lines(screen: &str) -> usize {
    screen
        .lines()
        .filter(|row| {
            let row = row.trim_start();
            row.split_once(". ")
                .is_some_and(|(n, _)| n.parse::<u8>().is_ok())
        })
        .count()
}

/// The screen without the engine's lines and its count of nodes: what a key changes, and
/// thinking does not.
fn board(screen: &str) -> String {
    screen
        .lines()
        .filter(|row| lines(row) == 0 && !row.contains(" nodes"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One run on one board: the time from the last key to three lines on the screen.
fn run(game: &std::path::Path, args: &[&str], keys: &str) -> Duration {
    let pair = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .expect("a pty");
    let mut cmd = CommandBuilder::new(game);
    cmd.arg("analyze");
    cmd.args(args);
    cmd.env("TERM", "xterm-256color");
    cmd.env("LANG", "C.UTF-8");
    let home = std::env::temp_dir().join("tictactoe-analysis-delay");
    cmd.env("TICTACTOE_HOME", home);
    let mut child = pair.slave.spawn_command(cmd).expect("the game starts");
    drop(pair.slave);
    let mut reader = pair.master.try_clone_reader().unwrap();
    let mut writer = pair.master.take_writer().unwrap();
    let parser = Arc::new(Mutex::new(vt100::Parser::new(40, 80, 0)));
    let screen = Arc::clone(&parser);
    thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            screen.lock().unwrap().process(&buf[..n]);
        }
    });
    let contents = || parser.lock().unwrap().screen().contents();
    let wait = |done: &dyn Fn(&str) -> bool| {
        let start = Instant::now();
        while !done(&contents()) {
            assert!(start.elapsed() < Duration::from_secs(20), "{}", contents());
            thread::sleep(Duration::from_millis(1));
        }
    };
    wait(&|s| s.contains("Analysis"));
    let (setup, last) = keys.split_at(keys.len() - 1);
    writer.write_all(setup.as_bytes()).unwrap();
    writer.flush().unwrap();
    // Once the keys before the last are on the board, the last one is timed.
    thread::sleep(Duration::from_millis(300));
    let before = board(&contents());
    let start = Instant::now();
    writer.write_all(last.as_bytes()).unwrap();
    writer.flush().unwrap();
    // The last key changes the board and takes the old position's lines away in the same
    // frame, so the first frame with a new board and three lines shows the new position's.
    wait(&|s| board(s) != before && lines(s) >= 3);
    let took = start.elapsed();
    let _ = child.kill();
    took
}

fn main() {
    let mut args = std::env::args().skip(1);
    let mut runs = 5;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => runs = args.next().and_then(|n| n.parse().ok()).expect("--runs N"),
            other => panic!("unknown argument {other}"),
        }
    }
    let game = std::env::current_exe()
        .expect("this example's path")
        .parent()
        .and_then(|examples| examples.parent())
        .expect("target/release")
        .join("tictactoe");
    println!("board                 median  slowest  (ms from the last key to three lines)");
    for (name, flags, keys) in BOARDS {
        let mut times: Vec<Duration> = (0..runs).map(|_| run(&game, flags, keys)).collect();
        times.sort();
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{name:<20} {:>7.0} {:>8.0}",
            ms(times[times.len() / 2]),
            ms(times[times.len() - 1])
        );
    }
}
