//! Online play between real processes through the peer-to-peer layer, all on this machine:
//! each test runs the layer's own relay server in process on loopback and points both sides
//! at it, so nothing needs the internet. Games over a direct path and through the relay only,
//! a wrong code and a mistyped ticket refused, a host whose relay is unreachable still
//! joined on the local network, a killed joiner back in, and a watcher with the ticket.
#![cfg(feature = "online")]

use std::time::{Duration, Instant};

use tictactoe::net::online::{RELAY_ONLY, Ticket};

mod relay;
use relay::LocalRelay;

const TIMEOUT: Duration = Duration::from_secs(40);

mod proc;
use proc::{Proc, boards, record};

/// A `tictactoe` of these tests, with their time limit; `relay_only` withholds direct paths.
fn spawn(args: &[&str], relay_only: bool) -> Proc {
    let envs: &[(&str, &str)] = if relay_only {
        &[(RELAY_ONLY, "1")]
    } else {
        &[]
    };
    Proc::spawn(args, envs, TIMEOUT)
}

/// An online host through `relay`, and the ticket from its `Join with:` line.
fn host(relay: &str, relay_only: bool) -> (Proc, String) {
    let host = spawn(&["host", "--online", "--relay", relay], relay_only);
    host.wait_for("Waiting for a player");
    let output = host.output();
    let line = output
        .lines()
        .find_map(|l| l.strip_prefix("Join with: tictactoe join "))
        .unwrap_or_else(|| panic!("no join line in:\n{output}"));
    assert!(
        line.chars().all(|c| c.is_ascii_alphanumeric()),
        "a ticket copies in one piece: {line:?}"
    );
    (host, line.to_string())
}

/// Plays a whole 3×3 game between a host and a joiner, one move at a time, and checks both
/// printed the same boards after every move.
fn play_a_game(host: &mut Proc, joiner: &mut Proc) {
    let cells = ["5", "7", "4", "6", "3", "1", "2", "8", "9"];
    for (i, mv) in cells.iter().enumerate() {
        let (mover, other, mark) = if i % 2 == 0 {
            (&mut *host, &mut *joiner, "X")
        } else {
            (&mut *joiner, &mut *host, "O")
        };
        mover.send(&format!("{mv}\n"));
        other.wait_for(&format!("{mark} (remote) plays {mv}"));
        // The board after the move is printed after that line: wait for it, whole, on both.
        let drawn = |output: &str| {
            let boards = boards(output);
            boards.len() == i + 2 && boards.last().is_some_and(|b| b.split('/').count() == 5)
        };
        host.wait_until("the board after the move", drawn);
        joiner.wait_until("the board after the move", drawn);
        let (a, b) = (boards(&host.output()), boards(&joiner.output()));
        assert_eq!(a.len(), i + 2, "a board per move:\n{}", host.output());
        assert_eq!(a, b, "the same boards after move {}", i + 1);
    }
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let (h, j) = (host.output(), joiner.output());
    assert!(h.contains("Draw.") && j.contains("Draw."));
    assert_eq!(record(&h), "Record: 5 7 4 6 3 1 2 8 9");
    assert_eq!(record(&h), record(&j));
}

#[test]
fn a_game_over_a_direct_path_prints_the_same_boards_on_both_sides() {
    let relay = LocalRelay::start();
    let (mut host, ticket) = host(&relay.url, false);
    let mut joiner = spawn(&["join", &ticket], false);
    joiner.wait_for("You play O.");
    host.wait_for("joined. You play X.");
    let said = joiner.output();
    assert!(said.contains("direct, round trip"), "{said}");
    play_a_game(&mut host, &mut joiner);
}

#[test]
fn a_game_through_the_relay_only_prints_the_same_boards_on_both_sides() {
    let relay = LocalRelay::start();
    let (mut host, ticket) = host(&relay.url, true);
    let mut joiner = spawn(&["join", &ticket], true);
    joiner.wait_for("You play O.");
    host.wait_for("joined. You play X.");
    assert!(
        joiner.output().contains("relayed, round trip"),
        "{}",
        joiner.output()
    );
    assert!(
        host.output().contains("relayed, round trip"),
        "{}",
        host.output()
    );
    play_a_game(&mut host, &mut joiner);
}

#[test]
fn a_ticket_with_a_wrong_code_is_refused_and_the_host_keeps_waiting() {
    let relay = LocalRelay::start();
    let (mut host, ticket) = host(&relay.url, false);
    let wrong = ticket.parse::<Ticket>().unwrap().with_code("abcd-2345");
    let mut stranger = spawn(&["join", &wrong.to_string()], false);
    assert!(!stranger.wait_exit().success());
    assert!(
        stranger.output().contains("the code did not match"),
        "{}",
        stranger.output()
    );
    host.wait_for(": wrong code");
    let mut joiner = spawn(&["join", &ticket], false);
    joiner.wait_for("You play O.");
    host.send("q\n");
    assert!(host.wait_exit().success());
    joiner.wait_for("X left the game.");
    assert!(joiner.wait_exit().success());
}

#[test]
fn a_mistyped_ticket_is_refused_at_once_with_status_2() {
    let relay = LocalRelay::start();
    let (_host, ticket) = host(&relay.url, false);
    let mut typo: Vec<char> = ticket.chars().collect();
    typo[30] = if typo[30] == 'q' { 'r' } else { 'q' };
    let typo: String = typo.into_iter().collect();
    for (text, says) in [
        (typo.as_str(), "mistyped"),
        (&ticket[..ticket.len() - 2], "mistyped"),
        ("192.168.1.20", "needs --code"),
        ("not-a-ticket", "not part of a ticket"),
    ] {
        let start = Instant::now();
        let mut joiner = spawn(&["join", text], false);
        let status = joiner.wait_exit();
        assert_eq!(status.code(), Some(2), "{}", joiner.output());
        assert!(joiner.output().contains(says), "{}", joiner.output());
        assert!(start.elapsed() < Duration::from_secs(5));
    }
}

#[test]
fn a_host_whose_relay_is_unreachable_says_so_and_is_joined_on_this_network() {
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let (mut host, ticket) = host(&url, false);
    assert!(
        host.output().contains("Could not reach a relay"),
        "{}",
        host.output()
    );
    let mut joiner = spawn(&["join", &ticket], false);
    joiner.wait_for("You play O.");
    assert!(
        joiner.output().contains("direct, round trip"),
        "{}",
        joiner.output()
    );
    play_a_game(&mut host, &mut joiner);
}

#[test]
fn a_killed_joiner_rejoins_through_the_relay_and_gets_the_exact_game() {
    let relay = LocalRelay::start();
    let (mut host, ticket) = host(&relay.url, true);
    let mut joiner = spawn(&["join", &ticket], true);
    joiner.wait_for("You play O.");
    host.send("5\n");
    joiner.wait_for("X (remote) plays 5");
    joiner.send("7\n");
    host.wait_for("O (remote) plays 7");
    joiner.child.kill().unwrap();
    host.wait_for("O's connection was lost");
    host.send("4\n");
    host.wait_for(" X | X | 6");
    let mut back = spawn(&["join", &ticket], true);
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
fn a_watcher_with_the_ticket_sees_the_whole_game_through_the_relay() {
    let relay = LocalRelay::start();
    let (mut host, ticket) = host(&relay.url, true);
    let watcher = spawn(&["watch", &ticket], true);
    watcher.wait_for("Watching ");
    host.wait_for("1 person watches.");
    let mut joiner = spawn(&["join", &ticket], true);
    joiner.wait_for("You play O.");
    host.wait_for("joined. You play X.");
    play_a_game(&mut host, &mut joiner);
    watcher.wait_for("Record: 5 7 4 6 3 1 2 8 9");
    let seen = watcher.output();
    assert!(seen.contains("Draw."), "{seen}");
    assert_eq!(
        boards(&seen).last(),
        boards(&host.output()).last(),
        "{seen}"
    );
}
