//! The binary run as a script runs it: arguments, bytes on standard input, and its output.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the binary with `args`, writes `input` to its standard input and closes it.
// A file of tests with profiles of its own runs it with [`run_at`] only.
#[allow(dead_code)]
pub fn run(args: &[&str], input: &[u8]) -> Output {
    let home = concat!(env!("CARGO_TARGET_TMPDIR"), "/home");
    run_at(std::path::Path::new(home), args, input)
}

/// [`run`] with the profile in `home`.
pub fn run_at(home: &std::path::Path, args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env("TICTACTOE_HOME", home)
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    // The program may end before it reads everything.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().unwrap()
}

/// Output as text; the binary writes only UTF-8.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The Ultimate grids printed, each as its nine rows of cells top first, without the row
/// numbers and lines, joined by `/` as in the position notation (empty cells of the board the
/// player is sent to show their digit).
// Not every file of tests that runs the binary reads Ultimate grids.
#[allow(dead_code)]
pub fn ultimate_grids(out: &str) -> Vec<String> {
    let lines: Vec<&str> = out.lines().collect();
    lines
        .windows(13)
        .filter(|w| w[0].starts_with("Boards: ") && w[12] == "   a b c   d e f   g h i")
        .map(|w| {
            w[1..12]
                .iter()
                .filter(|l| !l.contains("-+-"))
                .map(|l| l[2..].replace([' ', '|'], ""))
                .collect::<Vec<_>>()
                .join("/")
        })
        .collect()
}
