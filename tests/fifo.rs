//! A profile whose files are FIFOs (or other things that are not files) never hangs the game:
//! each is refused with a message naming it, and the game goes on without it.

#![cfg(unix)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A fresh profile directory with a FIFO named `name` in it.
fn profile_with_fifo(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("fifo-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    nix::unistd::mkfifo(&dir.join(name), nix::sys::stat::Mode::S_IRWXU).unwrap();
    dir
}

/// The plain game on `home`, fed `input`; panics if it is still running after 20 s.
fn play(home: &PathBuf, input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["--plain", "-o", "human"])
        .env("TICTACTOE_HOME", home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    finished(child, "the game hangs on a FIFO in its profile")
}

/// What `child` printed once it exits; panics with `hangs` if it is still running after 20 s.
fn finished(mut child: std::process::Child, hangs: &str) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(20) {
            let _ = child.kill();
            panic!("{hangs}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

#[test]
fn fifos_for_the_settings_history_and_unfinished_game_are_refused_and_the_game_plays() {
    for name in ["settings.toml", "history.jsonl", "current.json"] {
        let home = profile_with_fifo(name);
        // X wins along the top row: the game ends, and is kept (or refused) in the history.
        let out = play(&home, b"7\n1\n8\n2\n9\n");
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(stdout.contains("X wins"), "{name}: {stdout}\n{stderr}");
        if name != "current.json" {
            assert!(
                stderr.contains(name) && stderr.contains("not a regular file"),
                "{name}: {stderr}"
            );
        }
    }
}

/// `review FILE` on a file whose size the file system does not tell (procfs says 0 for one
/// that goes on for gigabytes) reads no more than a game file's limit and says so.
#[cfg(target_os = "linux")]
#[test]
fn review_of_a_file_longer_than_its_reported_size_stops_at_the_limit() {
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(["review", "/proc/self/pagemap"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        stderr.contains("more than 1048576 bytes"),
        "{stderr} after {:?}",
        start.elapsed()
    );
}

/// `review` and `--from` given a FIFO refuse it at once, whether or not anyone writes to it.
#[test]
fn review_and_from_refuse_a_fifo_without_waiting_for_a_writer() {
    let dir = profile_with_fifo("game.psq");
    let fifo = dir.join("game.psq");
    for args in [vec!["review"], vec!["--plain", "--no-history", "--from"]] {
        let child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
            .args(args.iter().copied().chain([fifo.to_str().unwrap()]))
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let out = finished(child, &format!("{args:?} waits on a FIFO"));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("not a regular file"), "{args:?}: {stderr}");
    }
}
