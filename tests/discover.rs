//! Finding a host on the same network: real `tictactoe host` and `tictactoe join` processes in
//! a network of their own that each test creates (`unshare`, with loopback up and multicast on,
//! which the machine's own loopback lacks), so that mDNS really travels between them and no
//! other game on the machine's network is seen. Where the system does not allow a network of
//! one's own, each test says why and passes without checking.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod proc;
use proc::terminal::Terminal;
use proc::{Proc, boards, record};

const TIMEOUT: Duration = Duration::from_secs(20);

/// A network namespace with only loopback, up and able to multicast, held open by a sleeping
/// process; processes join it through `nsenter`.
struct Network {
    holder: Child,
    pid: String,
}

/// A test that cannot run its subject here says so and passes, except under continuous
/// integration (`CI` set), where `.ci/run` installs what it needs: there it fails, so that a
/// green run has run it.
fn cannot_run(why: &str) {
    assert!(
        std::env::var_os("CI").is_none(),
        "{why}, and under CI this test must run (.ci/run installs what it needs)"
    );
    eprintln!("skipped: {why}");
}

impl Network {
    /// A new network, or `None` (said on standard error) where this system refuses one.
    fn new() -> Option<Network> {
        let holder = Command::new("unshare")
            .args(["-rn", "sh", "-c"])
            .arg("ip link set lo up && ip link set lo multicast on && echo ready && exec sleep 120")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let Ok(mut holder) = holder else {
            cannot_run("`unshare` cannot be run here");
            return None;
        };
        let mut ready = String::new();
        let _ = std::io::Read::read_to_string(
            &mut std::io::Read::take(holder.stdout.take().unwrap(), 6),
            &mut ready,
        );
        if ready.trim() != "ready" {
            let _ = holder.kill();
            let _ = holder.wait();
            cannot_run("this system does not allow a network namespace of one's own");
            return None;
        }
        let pid = holder.id().to_string();
        Some(Network { holder, pid })
    }

    /// What runs a program inside this network.
    fn wrapper(&self) -> Vec<&str> {
        vec![
            "nsenter",
            "--preserve-credentials",
            "-U",
            "-n",
            "-t",
            &self.pid,
        ]
    }

    /// `tictactoe` with `args`, inside this network.
    fn spawn(&self, args: &[&str]) -> Proc {
        Proc::spawn_in(&self.wrapper(), args, &[], TIMEOUT)
    }

    /// A host waiting for a player, with the code from its `Join with:` line.
    fn host(&self, extra: &[&str]) -> (Proc, String) {
        let mut args = vec!["host", "--port", "0"];
        args.extend_from_slice(extra);
        let host = self.spawn(&args);
        host.wait_for("Waiting for a player");
        let output = host.output();
        let code = output
            .lines()
            .find_map(|l| l.split_once(" --code ").map(|(_, code)| code.to_string()))
            .unwrap_or_else(|| panic!("no join line in:\n{output}"));
        (host, code)
    }
}

impl Drop for Network {
    fn drop(&mut self) {
        let _ = self.holder.kill();
        let _ = self.holder.wait();
    }
}

#[test]
fn join_with_no_address_finds_the_host_on_the_network_and_plays_it() {
    let Some(net) = Network::new() else { return };
    let (mut host, code) = net.host(&[]);
    let mut joiner = net.spawn(&["join", "--code", &code]);
    joiner.wait_for("You play O.");
    let j = joiner.output();
    assert!(
        j.starts_with("Looking for a game on this network (3 s; Ctrl-C cancels)…\n"),
        "{j}"
    );
    assert!(
        j.contains(" at 127.0.0.1:") && j.contains("(3×3, 3 in a row)."),
        "{j}"
    );
    host.wait_for("joined. You play X.");
    host.send("5\n4\n3\n2\n9\n");
    joiner.send("7\n6\n1\n8\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    assert!(joiner.wait_exit().success(), "{}", joiner.output());
    let (h, j) = (host.output(), joiner.output());
    assert_eq!(boards(&h), boards(&j));
    assert_eq!(record(&h), "Record: 5 7 4 6 3 1 2 8 9");
}

#[test]
fn with_no_host_on_the_network_join_says_so_within_its_time_and_exits_2() {
    let Some(net) = Network::new() else { return };
    let start = Instant::now();
    let mut joiner = net.spawn(&["join", "--code", "k7m2-qx4p"]);
    let status = joiner.wait_exit();
    let took = start.elapsed();
    assert_eq!(status.code(), Some(2), "{}", joiner.output());
    assert!(
        joiner.output().contains(
            "No game found on this network in 3 s. Ask your friend for the address: tictactoe join ADDRESS"
        ),
        "{}",
        joiner.output()
    );
    assert!(
        took >= Duration::from_secs(3),
        "it looked for its 3 s: {took:?}"
    );
}

#[test]
fn several_hosts_without_a_terminal_or_a_code_are_listed_and_join_exits_2() {
    let Some(net) = Network::new() else { return };
    let (_first, _) = net.host(&[]);
    let (_second, _) = net.host(&["--size", "4"]);
    let mut joiner = net.spawn(&["join"]);
    assert_eq!(joiner.wait_exit().code(), Some(2), "{}", joiner.output());
    let out = joiner.output();
    assert!(out.contains("Games on this network:"), "{out}");
    assert!(out.contains("  1. ") && out.contains("  2. "), "{out}");
    assert!(
        out.contains("(3×3, 3 in a row)") && out.contains("(4×4"),
        "{out}"
    );
    assert!(
        out.contains("2 games on this network: join one by its address"),
        "{out}"
    );
}

#[test]
fn with_a_code_each_host_found_is_tried_and_only_the_one_that_proves_it_is_joined() {
    let Some(net) = Network::new() else { return };
    let (_first, _) = net.host(&[]);
    let (mut second, code) = net.host(&["--size", "4"]);
    // A code neither host knows joins neither.
    let mut stranger = net.spawn(&["join", "--code", "k7m2-qx4p"]);
    assert!(!stranger.wait_exit().success(), "{}", stranger.output());
    let out = stranger.output();
    assert!(out.contains("Trying the code with each…"), "{out}");
    assert!(
        out.contains("none of the 2 games found took the code"),
        "{out}"
    );
    // The second host's code joins the second host, whichever is tried first.
    let joiner = net.spawn(&["join", "--code", &code]);
    joiner.wait_for("You play O.");
    assert!(joiner.output().contains("(4×4"), "{}", joiner.output());
    second.wait_for("joined. You play X.");
    second.send("q\n");
    assert!(second.wait_exit().success(), "{}", second.output());
}

#[test]
fn a_host_stops_announcing_once_a_player_joined() {
    let Some(net) = Network::new() else { return };
    let (host, code) = net.host(&[]);
    let joiner = net.spawn(&["join", "--code", &code]);
    joiner.wait_for("You play O.");
    host.wait_for("joined. You play X.");
    let mut late = net.spawn(&["join", "--code", &code]);
    assert_eq!(late.wait_exit().code(), Some(2), "{}", late.output());
    assert!(late.output().contains("No game found"), "{}", late.output());
}

#[test]
fn a_joiner_without_a_code_and_no_terminal_is_told_how_to_give_it() {
    let Some(net) = Network::new() else { return };
    let (_host, _) = net.host(&[]);
    let mut joiner = net.spawn(&["join"]);
    assert_eq!(joiner.wait_exit().code(), Some(2), "{}", joiner.output());
    assert!(
        joiner
            .output()
            .contains("the host asks for its join code: tictactoe join --code CODE"),
        "{}",
        joiner.output()
    );
}

#[test]
fn a_wrong_code_for_a_found_host_is_refused() {
    let Some(net) = Network::new() else { return };
    let (_host, _) = net.host(&[]);
    let mut joiner = net.spawn(&["join", "--code", "zzzz-zzzz"]);
    assert!(!joiner.wait_exit().success(), "{}", joiner.output());
    assert!(
        joiner.output().contains("the code did not match"),
        "{}",
        joiner.output()
    );
}

#[test]
fn on_a_terminal_several_hosts_are_offered_by_number_and_the_code_is_asked_for() {
    let Some(net) = Network::new() else { return };
    let (_first, _) = net.host(&[]);
    let (second, code) = net.host(&["--size", "4"]);
    let mut joiner = Terminal::start(&net.wrapper(), &["join"]);
    joiner.wait_for("Which game? (1-2, q cancels)");
    let listed = joiner.contents();
    let four = if listed
        .lines()
        .any(|l| l.contains("1. ") && l.contains("4×4"))
    {
        "1"
    } else {
        "2"
    };
    joiner.send(&format!("{four}\r"));
    joiner.wait_for("Join code (as the host printed it):");
    joiner.send(&format!("{code}\r"));
    second.wait_for("joined. You play X.");
    joiner.wait_for("Tic-tac-toe · 4×4, 4 in a row · round 1");
}

#[test]
fn on_a_terminal_q_stops_the_search_at_once() {
    let Some(net) = Network::new() else { return };
    let mut joiner = Terminal::start(&net.wrapper(), &["join"]);
    joiner.wait_for("Looking for a game on this network (3 s; q cancels)…");
    joiner.send("q");
    let status = joiner.wait_exit();
    assert!(!status.success());
    assert!(
        !joiner.contents().contains("No game found"),
        "{}",
        joiner.contents()
    );
}

#[cfg(feature = "online")]
#[test]
fn an_online_host_is_found_on_its_network_and_joined_with_the_code_it_prints() {
    let Some(net) = Network::new() else { return };
    // No relay can be reached here: the host says so after its 5 s and serves its network.
    let host = net.spawn(&["host", "--online", "--relay", "http://127.0.0.1:9"]);
    host.wait_for("Waiting for a player");
    let output = host.output();
    let code = output
        .lines()
        .find_map(|l| l.strip_prefix("On this network: tictactoe join --code "))
        .unwrap_or_else(|| panic!("no line for this network in:\n{output}"))
        .to_string();
    let joiner = net.spawn(&["join", "--code", &code]);
    joiner.wait_for("You play O.");
    assert!(joiner.output().contains(" online, "), "{}", joiner.output());
    host.wait_for("joined. You play X.");
}

/// Set for this test binary where it runs, inside a test's network, as the fake announcers
/// of [`fake_announcers`].
const FAKES_VAR: &str = "TICTACTOE_TEST_FAKE_ANNOUNCERS";

/// Not a test of its own but a helper process, run (ignored otherwise) by
/// `fake_announcements_that_sort_first_and_answer_busy_do_not_hide_the_host` inside its
/// network with [`FAKES_VAR`] set: announces that many games under names that sort before any
/// host's, all leading to one port that answers every connection "busy" and closes, until
/// killed.
#[test]
#[ignore = "a helper process of a test, not a test"]
fn fake_announcers() {
    use std::io::Write;
    let Ok(count) = std::env::var(FAKES_VAR) else {
        return;
    };
    let count: usize = count.parse().expect("a count");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let daemon = mdns_sd::ServiceDaemon::new().unwrap();
    let txt = [("v", "1"), ("name", "aaaa"), ("rules", "3×3")];
    for n in 0..count {
        let info = mdns_sd::ServiceInfo::new(
            "_tictactoe._tcp.local.",
            &format!("aaaa fake {n:02}"),
            &format!("fake-{n}.local."),
            "127.0.0.1",
            port,
            &txt[..],
        )
        .unwrap();
        daemon.register(info).unwrap();
    }
    println!("announcing");
    std::io::stdout().flush().unwrap();
    let busy = "{\"type\":\"error\",\"message\":\"the host is busy: try again in a moment\",\"kind\":\"busy\"}\n";
    for mut stream in listener.incoming().flatten() {
        let _ = stream.write_all(busy.as_bytes());
    }
}

/// 25 announcements whose names sort before the host's, each answering busy: with the code,
/// `join` still finds the real host among them and gets in, well within its time (before,
/// the first 20 found were kept and tried one by one, and the host was never reached).
#[test]
fn fake_announcements_that_sort_first_and_answer_busy_do_not_hide_the_host() {
    let Some(net) = Network::new() else { return };
    let me = std::env::current_exe().unwrap();
    let mut fakes = Command::new(net.wrapper()[0])
        .args(&net.wrapper()[1..])
        .arg(&me)
        .args(["--exact", "fake_announcers", "--ignored", "--nocapture"])
        .env(FAKES_VAR, "25")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = std::io::BufReader::new(fakes.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("announcing") {
        line.clear();
        let read = std::io::BufRead::read_line(&mut out, &mut line).unwrap();
        assert!(
            read > 0,
            "the fake announcers did not start: {:?}",
            fakes.wait()
        );
    }
    let (mut host, code) = net.host(&[]);
    let start = Instant::now();
    let joiner = net.spawn(&["join", "--code", &code]);
    joiner.wait_for("You play O.");
    let took = start.elapsed();
    host.wait_for("joined. You play X.");
    host.send("q\n");
    assert!(host.wait_exit().success(), "{}", host.output());
    let _ = fakes.kill();
    let _ = fakes.wait();
    eprintln!("joined among 25 fakes in {took:?}");
    assert!(took < Duration::from_secs(15), "took {took:?}");
}
