//! A running `tictactoe` in a test, as a script would run it: arguments, lines on its standard
//! input, and its standard output and error collected together as they arrive, with waits
//! that fail with the output after a time limit.

pub mod terminal;

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// A running `tictactoe` whose output (standard output and error together) is collected.
pub struct Proc {
    pub child: Child,
    stdin: Option<ChildStdin>,
    output: Arc<Mutex<String>>,
    /// How long a wait may take before the test fails.
    timeout: Duration,
}

impl Proc {
    /// Starts the binary with `args` and the environment `envs`, its profile in the tests'
    /// own directory; each wait may take up to `timeout`.
    #[allow(dead_code)] // a test file whose processes all run through a wrapper
    pub fn spawn(args: &[&str], envs: &[(&str, &str)], timeout: Duration) -> Proc {
        Proc::spawn_in(&[], args, envs, timeout)
    }

    /// As [`Proc::spawn`], run through `wrapper` (a program and its arguments, before the
    /// binary's path): `nsenter …` to run it in a network of its own, say.
    pub fn spawn_in(
        wrapper: &[&str],
        args: &[&str],
        envs: &[(&str, &str)],
        timeout: Duration,
    ) -> Proc {
        let binary = env!("CARGO_BIN_EXE_tictactoe");
        let (program, before) = match wrapper.split_first() {
            Some((program, rest)) => (*program, rest.iter().chain([&binary]).copied().collect()),
            None => (binary, Vec::new()),
        };
        let mut child = Command::new(program)
            .args(before)
            .env(
                "TICTACTOE_HOME",
                concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
            )
            .envs(envs.iter().copied())
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let output = Arc::new(Mutex::new(String::new()));
        let pipes: [Box<dyn Read + Send>; 2] = [
            Box::new(child.stdout.take().unwrap()),
            Box::new(child.stderr.take().unwrap()),
        ];
        for mut pipe in pipes {
            let output = Arc::clone(&output);
            // Chunks, not lines: a prompt waits for its answer on the same line.
            thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    output
                        .lock()
                        .unwrap()
                        .push_str(&String::from_utf8_lossy(&buf[..n]));
                }
            });
        }
        Proc {
            stdin: child.stdin.take(),
            child,
            output,
            timeout,
        }
    }

    /// Everything it printed so far.
    pub fn output(&self) -> String {
        self.output.lock().unwrap().clone()
    }

    /// Types `text` on its standard input.
    pub fn send(&mut self, text: &str) {
        let stdin = self.stdin.as_mut().expect("input is open");
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
    }

    /// Waits until the output holds `text`, or panics with the output.
    pub fn wait_for(&self, text: &str) {
        self.wait_until(&format!("{text:?}"), |output| output.contains(text));
    }

    /// Waits until `done` holds of the output, or panics with the output and `what`.
    pub fn wait_until(&self, what: &str, done: impl Fn(&str) -> bool) {
        let start = Instant::now();
        while !done(&self.output()) {
            assert!(
                start.elapsed() < self.timeout,
                "timed out waiting for {what}; output:\n{}",
                self.output()
            );
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Waits until it exits (and its last output is read), or panics with the output.
    pub fn wait_exit(&mut self) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                thread::sleep(Duration::from_millis(50));
                return status;
            }
            assert!(
                start.elapsed() < self.timeout,
                "did not exit; output:\n{}",
                self.output()
            );
            thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The boards printed, in order: each a run of lines drawn with `|`.
#[allow(dead_code)] // a test file of boards drawn otherwise (Gomoku's)
pub fn boards(output: &str) -> Vec<String> {
    let mut boards = Vec::new();
    let mut current = Vec::new();
    for line in output.lines() {
        if line.contains(" | ") || line.contains("---+") {
            current.push(line.trim_end());
        } else if !current.is_empty() {
            boards.push(current.join("/"));
            current.clear();
        }
    }
    if !current.is_empty() {
        boards.push(current.join("/"));
    }
    boards
}

/// The `Record:` line of a finished game.
pub fn record(output: &str) -> String {
    output
        .lines()
        .find(|l| l.starts_with("Record: "))
        .unwrap_or_else(|| panic!("no record in:\n{output}"))
        .to_string()
}
