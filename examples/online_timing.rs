//! Times online play on this machine: from starting `tictactoe join <ticket>` to the first
//! board it prints, and a move's round trip (the host plays, the joiner answers at once, the
//! host sees the answer), over a direct path and through the relay only, with plain TCP beside
//! them. iroh's relay server runs in this process on loopback, so no internet is needed.
//!
//! ```text
//! cargo build --release && cargo run --release --example online_timing -- --runs 5
//! ```
//!
//! Each run starts a fresh host and joiner (the plain front end, through pipes); the medians
//! are printed per transport.

use std::io::{BufRead, BufReader, Write};
use std::net::Ipv4Addr;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::thread;
use std::time::{Duration, Instant};

use clap::Parser;
use iroh_relay::server::{RelayConfig, Server, ServerConfig};

#[derive(Parser)]
#[command(about = "Times joining and a move's round trip, direct, relayed and over TCP")]
struct Args {
    /// Runs per transport
    #[arg(long, default_value_t = 5)]
    runs: usize,
    /// The program to time
    #[arg(long, default_value = "target/release/tictactoe")]
    program: PathBuf,
}

/// A running `tictactoe` whose output lines arrive on a channel.
struct Proc {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Proc {
    fn spawn(program: &PathBuf, args: &[&str], relay_only: bool) -> Proc {
        let mut command = Command::new(program);
        command
            .args(args)
            .env(
                "TICTACTOE_HOME",
                std::env::temp_dir().join("tictactoe-timing"),
            )
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        if relay_only {
            command.env(tictactoe::net::online::RELAY_ONLY, "1");
        }
        let mut child = command.spawn().expect("the program runs");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Proc {
            stdin: child.stdin.take().unwrap(),
            child,
            lines,
        }
    }

    /// Waits for a line containing `text`, and returns it.
    fn until(&self, text: &str) -> String {
        loop {
            let line = self
                .lines
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no {text:?} within 30 s"));
            if line.contains(text) {
                return line;
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One run: the host's join arguments, then the time to the first board and a round trip.
fn run(program: &PathBuf, host_args: &[&str], relay_only: bool) -> (Duration, Duration, String) {
    let mut host = Proc::spawn(program, host_args, relay_only);
    let line = host.until("Join with: tictactoe join ");
    let join: Vec<&str> = line
        .trim_start_matches("Join with: tictactoe ")
        .split(' ')
        .collect();
    host.until("Waiting for a player");
    let start = Instant::now();
    let mut joiner = Proc::spawn(program, &join, relay_only);
    let welcome = joiner.until("You play O.");
    joiner.until("---+---+---");
    let first_board = start.elapsed();
    host.until("joined. You play X.");
    let start = Instant::now();
    host.send("5");
    joiner.until("X (remote) plays 5");
    joiner.send("7");
    host.until("O (remote) plays 7");
    (first_board, start.elapsed(), welcome)
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn main() {
    let args = Args::parse();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime
        .block_on(async {
            let mut config = ServerConfig::default();
            config.relay = Some(RelayConfig::new((Ipv4Addr::LOCALHOST, 0)));
            Server::spawn(config).await
        })
        .expect("the relay starts");
    let url = format!("http://{}", server.http_addr().expect("plain HTTP"));
    let online = ["host", "--online", "--relay", url.as_str()];
    let tcp = ["host", "--bind", "127.0.0.1", "--port", "0"];
    let transports: [(&str, &[&str], bool); 3] = [
        ("tcp", &tcp, false),
        ("online, direct", &online, false),
        ("online, relayed", &online, true),
    ];
    for (name, host_args, relay_only) in transports {
        let mut boards = Vec::new();
        let mut trips = Vec::new();
        let mut said = String::new();
        for _ in 0..args.runs {
            let (board, trip, joined) = run(&args.program, host_args, relay_only);
            boards.push(board);
            trips.push(trip);
            said = joined;
        }
        println!(
            "{name}: join to first board {:.1} ms, move round trip {:.1} ms (medians of {}); {said}",
            median(boards).as_secs_f64() * 1000.0,
            median(trips).as_secs_f64() * 1000.0,
            args.runs
        );
    }
    let _inside = runtime.enter();
    drop(server);
}
