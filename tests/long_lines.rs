//! Lines of any length from a person or a pipe: the plain front end and `analyze -` refuse a
//! line over the cap, quote only its start, keep their memory bounded and go on.

use std::io::Write;
use std::process::{Command, Output, Stdio};

mod pipe;
use pipe::{run, text};

/// Runs the binary with `args` and feeds it 100 MB of `x` with no newline, then `after`.
/// Returns its output and, where the system tells, its peak resident memory in KiB once the
/// 100 MB are taken in (before `after` is written).
fn flooded(args: &[&str], after: &'static [u8]) -> (Output, Option<u64>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env(
            "TICTACTOE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
        )
        .args(args)
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let pid = child.id();
    let mut stdin = child.stdin.take().unwrap();
    // Written on a thread of its own while the output is read, so neither side can fill its
    // pipe and wait for the other.
    let writer = std::thread::spawn(move || {
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..100 {
            stdin
                .write_all(&chunk)
                .expect("the game takes the whole line");
        }
        let peak = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .ok()
            .and_then(|status| {
                let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
                line.split_whitespace().nth(1)?.parse().ok()
            });
        stdin.write_all(after).unwrap();
        peak
    });
    let out = child.wait_with_output().unwrap();
    (out, writer.join().unwrap())
}

#[test]
fn a_100_mb_line_is_refused_quoting_its_start_in_bounded_memory() {
    let (out, peak) = flooded(&["-o", "human"], b"\n5\nq\n");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let quoted = format!("\"{}…\"", "x".repeat(32));
    let expected = format!(
        "That line is over 1024 bytes long (it starts {quoted}): type a cell (1-9), u, h or q."
    );
    assert!(stdout.contains(&expected), "{stdout}");
    assert!(stdout.len() < 2000, "{} bytes of output", stdout.len());
    // The next line is read as usual.
    assert!(
        stdout.contains(" 7 | 8 | 9\n---+---+---\n 4 | X | 6\n---+---+---\n 1 | 2 | 3\n"),
        "the board after the next line's move: {stdout}"
    );
    assert!(stdout.ends_with("Quit.\nRecord: 5\n"), "{stdout}");
    if let Some(kib) = peak {
        eprintln!("peak resident memory after a 100 MB line: {kib} KiB");
        assert!(kib < 32 * 1024, "{kib} KiB resident");
    }
}

#[test]
fn analyze_refuses_a_100_mb_line_quoting_its_start_and_goes_on() {
    let (out, peak) = flooded(&["analyze", "--table-mb", "1", "-"], b"\nXX./OO./...\n");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    let quoted = format!("\"{}…\"", "x".repeat(32));
    assert_eq!(
        stderr,
        format!(
            "tictactoe: bad board line 1 of standard input: the line is over 1024 bytes long (it starts {quoted})\n"
        )
    );
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("X to move: win in 1, best move 9"),
        "{stdout}"
    );
    if let Some(kib) = peak {
        eprintln!("peak resident memory after a 100 MB line: {kib} KiB");
        assert!(kib < 32 * 1024, "{kib} KiB resident");
    }
}

#[test]
fn analyze_json_names_a_too_long_line_by_its_start() {
    let mut input = vec![b'X'; 5000];
    input.extend_from_slice(b"\n");
    let out = run(&["analyze", "--json", "-"], &input);
    assert_eq!(out.status.code(), Some(2));
    let stdout = text(&out.stdout);
    let board = format!("{}…", "X".repeat(32));
    assert_eq!(
        stdout,
        format!(
            "{{\"board\":\"{board}\",\"error\":\"the line is over 1024 bytes long (it starts \\\"{board}\\\")\"}}\n"
        )
    );
}
