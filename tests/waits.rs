//! The waits before a network game, on a terminal: `q` cancels connecting to a host that does
//! not answer, and reaching a relay, in the terminal game and in the plain one, with
//! `Cancelled.` and status 1 — before the wait's own deadline says anything.

use std::net::TcpListener;

#[path = "proc/terminal.rs"]
mod terminal;
use terminal::Terminal;

/// Connects to a host that takes the connection and never answers, types `q` once the
/// joiner says it is connecting, and checks it stopped at once.
fn q_cancels_connecting(front: &[&str]) {
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = silent.local_addr().unwrap().to_string();
    let mut args = front.to_vec();
    args.extend(["join", &addr, "--code", "k7m2-qx4p"]);
    let mut joiner = Terminal::start(&[], &args);
    joiner.wait_for(&format!("Connecting to {addr} (q cancels)…"));
    let (_held, _) = silent.accept().unwrap();
    joiner.send("q");
    let status = joiner.wait_exit();
    assert_eq!(status.exit_code(), 1, "{}", joiner.contents());
    joiner.wait_for("Cancelled.");
    assert!(
        !joiner.contents().contains("tictactoe:"),
        "{}",
        joiner.contents()
    );
}

#[test]
fn q_cancels_connecting_to_a_silent_host_in_the_terminal_game() {
    q_cancels_connecting(&[]);
}

#[test]
fn q_cancels_connecting_to_a_silent_host_in_the_plain_game_on_a_terminal() {
    q_cancels_connecting(&["--plain"]);
}

#[cfg(feature = "online")]
#[test]
fn q_cancels_reaching_a_relay_before_its_five_seconds() {
    let mut host = Terminal::start(&[], &["host", "--online", "--relay", "http://127.0.0.1:9"]);
    host.wait_for("Reaching a relay (q cancels)…");
    host.send("q");
    assert_eq!(host.wait_exit().exit_code(), 1, "{}", host.contents());
    host.wait_for("Cancelled.");
    assert!(
        !host.contents().contains("Could not reach a relay"),
        "{}",
        host.contents()
    );
}
