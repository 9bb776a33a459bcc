//! How long a move takes to reach a watcher's screen, and whether each player's clock adds up:
//! a host, a joiner and a watcher, three real `tictactoe` processes on loopback in the plain
//! front end, play a 15×15 Gomoku game of `--moves` moves (100 by default) on a `5+2` clock.
//! Each move is typed into its player's input once that player has seen the one before and
//! thought (30 ms for X, 60 ms for O); its delay is the time from then until the watcher
//! prints it. At the end the host's clock is read beside what each side's time should be:
//! five minutes, less what it thought, plus two seconds a move.
//!
//! Build the game first (`cargo build --release`), then:
//! `cargo run --release --example watch_delay -- --moves 100`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

const SIDE: usize = 15;

/// A running `tictactoe` whose output lines are collected with the moment each arrived.
struct Player {
    child: Child,
    input: ChildStdin,
    lines: Arc<Mutex<Vec<(Instant, String)>>>,
}

impl Player {
    fn spawn(args: &[&str]) -> Player {
        let game = std::env::current_exe()
            .expect("this example's path")
            .parent()
            .and_then(|examples| examples.parent())
            .expect("target/release")
            .join("tictactoe");
        let mut child = Command::new(&game)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e} (cargo build --release first)", game.display()));
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (out, into) = (child.stdout.take().unwrap(), Arc::clone(&lines));
        thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                into.lock().unwrap().push((Instant::now(), line));
            }
        });
        let input = child.stdin.take().unwrap();
        Player {
            child,
            input,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
    }

    /// Waits for the `n`th line (from 1) that contains `text`; the moment it came, and it.
    fn wait(&self, text: &str, n: usize) -> (Instant, String) {
        let start = Instant::now();
        loop {
            let found = self
                .lines
                .lock()
                .unwrap()
                .iter()
                .filter(|(_, line)| line.contains(text))
                .nth(n - 1)
                .cloned();
            if let Some(found) = found {
                return found;
            }
            if start.elapsed() > Duration::from_secs(30) {
                let lines = self.lines.lock().unwrap();
                let tail: Vec<&str> = lines.iter().rev().take(12).map(|(_, l)| &l[..]).collect();
                panic!("no {text:?}; the last lines, last first: {tail:#?}");
            }
            thread::sleep(Duration::from_micros(200));
        }
    }
}

impl Drop for Player {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Whether a stone at `(r, c)` makes five or more in a row for its side on `grid`.
fn makes_five(grid: &[[u8; SIDE]; SIDE], (r, c): (usize, usize), side: u8) -> bool {
    [(0i32, 1i32), (1, 0), (1, 1), (1, -1)]
        .iter()
        .any(|&(dr, dc)| {
            let run = |sign: i32| {
                (1..5)
                    .take_while(|&k| {
                        let (rr, cc) = (r as i32 + sign * k * dr, c as i32 + sign * k * dc);
                        (0..SIDE as i32).contains(&rr)
                            && (0..SIDE as i32).contains(&cc)
                            && grid[rr as usize][cc as usize] == side
                    })
                    .count()
            };
            1 + run(1) + run(-1) >= 5
        })
}

/// `n` moves that end no game: each the first point, row by row, that makes no five.
fn moves(n: usize) -> Vec<String> {
    let mut grid = [[0u8; SIDE]; SIDE];
    (0..n)
        .map(|i| {
            let side = 1 + (i % 2) as u8;
            let (r, c) = (0..SIDE * SIDE)
                .map(|k| (k / SIDE, k % SIDE))
                .find(|&(r, c)| grid[r][c] == 0 && !makes_five(&grid, (r, c), side))
                .expect("a point");
            grid[r][c] = side;
            format!("{}{}", char::from(b'a' + c as u8), r + 1)
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let count: usize = args
        .iter()
        .position(|a| a == "--moves")
        .and_then(|i| args.get(i + 1)?.parse().ok())
        .unwrap_or(100);
    let host_args = ["host", "--bind", "127.0.0.1", "--port", "0", "--gomoku"];
    let rest = ["--clock", "5+2", "--no-history", "--plain"];
    let mut host = Player::spawn(&[&host_args[..], &rest[..]].concat());
    let (_, line) = host.wait("Join with:", 1);
    let words: Vec<&str> = line.split_whitespace().collect();
    let (addr, code) = (words[4], words[6]);
    let watcher = Player::spawn(&["watch", addr, "--code", code, "--plain"]);
    watcher.wait("Watching", 1);
    let mut joiner = Player::spawn(&["join", addr, "--code", code, "--no-history", "--plain"]);
    joiner.wait("You play O.", 1);
    let mut delays = Vec::new();
    // Each side's thinking: from seeing the other's move to typing its own.
    let mut thought = [Duration::ZERO; 2];
    let mut seen_at = [host.wait("joined", 1).0, Instant::now()];
    for (i, cell) in moves(count).iter().enumerate() {
        let (mover, other) = if i % 2 == 0 {
            (&mut host, &joiner)
        } else {
            (&mut joiner, &host)
        };
        // X takes 30 ms a move, O 60 ms, so that the clocks have something to count.
        thread::sleep(Duration::from_millis(30 * (1 + i as u64 % 2)));
        let typed = Instant::now();
        thought[i % 2] += typed.saturating_duration_since(seen_at[i % 2]);
        mover.send(cell);
        let (shown, _) = watcher.wait(&format!("plays {cell}"), 1);
        delays.push(shown.saturating_duration_since(typed));
        seen_at[1 - i % 2] = other.wait(&format!("(remote) plays {cell}"), 1).0;
    }
    let moved = [count.div_ceil(2), count / 2];
    let mut sorted = delays.clone();
    sorted.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "{count} moves: watcher's delay median {:.2} ms, 90th percentile {:.2} ms, slowest {:.2} ms",
        ms(sorted[count / 2]),
        ms(sorted[count * 9 / 10]),
        ms(sorted[count - 1])
    );
    for (side, name) in [(0, "X (host)"), (1, "O (joiner)")] {
        let expected = 300.0 - thought[side].as_secs_f64() + 2.0 * f64::from(moved[side] as u32);
        println!(
            "{name}: {} moves, thought {:.2} s, so 300 s - {:.2} s + {} × 2 s = {expected:.1} s left",
            moved[side],
            thought[side].as_secs_f64(),
            thought[side].as_secs_f64(),
            moved[side]
        );
    }
    // The host's reading of both clocks, asked on its turn (after an even number of moves).
    if count.is_multiple_of(2) {
        host.send("clock");
        let (_, reading) = host.wait("Clock: 5 minutes", 1);
        println!("host's clock: {}", reading.trim_start_matches(|c| c != 'C'));
    }
}
