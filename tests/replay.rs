//! Seeds that replay: the real binary, `hard` against `hard` with `--seed`, gives the same game
//! byte for byte in runs that compete for the processor, on every kind of board and in
//! Ultimate. The budgets are small, so that most moves are cut off by their budget: with a
//! seed the budget is work, not time, and where the search stops cannot depend on the load.

use std::process::{Command, Output, Stdio};
use std::thread;

/// Runs the binary with `args` and nothing on standard input.
fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(args)
        .env("NO_COLOR", "1")
        // Finished games are kept in a history: never the real one.
        .env(
            "TICTACTOE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
        )
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

/// Three runs of the same seeded game: one alone, then two at once (each slowing the other
/// down), all with identical output.
fn replays(args: &[&str]) {
    let first = run(args);
    assert!(first.status.success(), "{args:?}: {first:?}");
    let (second, third) = thread::scope(|s| {
        let a = s.spawn(|| run(args));
        let b = s.spawn(|| run(args));
        (a.join().unwrap(), b.join().unwrap())
    });
    let text = String::from_utf8_lossy(&first.stdout);
    assert!(text.contains("Record:"), "{args:?}: a whole game\n{text}");
    for other in [second, third] {
        assert_eq!(
            first.stdout,
            other.stdout,
            "{args:?}: runs differ\n{text}\n---\n{}",
            String::from_utf8_lossy(&other.stdout)
        );
    }
}

fn hard_against_hard(seed: &str, extra: &[&str]) -> Vec<String> {
    ["--plain", "-x", "hard", "-o", "hard", "--seed", seed]
        .iter()
        .chain(extra)
        .map(ToString::to_string)
        .collect()
}

fn replays_hard_against_hard(seed: &str, extra: &[&str]) {
    let args = hard_against_hard(seed, extra);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    replays(&args);
}

#[test]
fn a_seeded_classic_game_replays() {
    replays_hard_against_hard("3", &[]);
}

#[test]
fn a_seeded_seven_by_seven_game_replays_under_load() {
    replays_hard_against_hard("4", &["--size", "7", "--think", "40"]);
}

#[test]
fn a_seeded_misere_five_by_five_game_replays_under_load() {
    replays_hard_against_hard("2", &["--size", "5", "--misere", "--think", "40"]);
}

#[test]
fn a_seeded_seven_by_seven_four_in_a_row_game_replays_under_load() {
    replays_hard_against_hard("5", &["--size", "7", "--k", "4", "--think", "20"]);
}

#[test]
fn a_seeded_ultimate_game_replays_under_load() {
    replays_hard_against_hard("6", &["--ultimate", "--think", "20"]);
}

#[test]
fn a_seeded_ultimate_game_on_two_threads_replays_under_load() {
    replays_hard_against_hard("6", &["--ultimate", "--think", "20", "--threads", "2"]);
}

/// The record of a seeded Ultimate game of `hard` against `hard` at 20 ms a move, on
/// `threads` trees.
fn ultimate_record(seed: &str, threads: &str) -> String {
    let args = hard_against_hard(seed, &["--ultimate", "--think", "20", "--threads", threads]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run(&args);
    assert!(out.status.success(), "{args:?}: {out:?}");
    let text = String::from_utf8_lossy(&out.stdout);
    let record = text.lines().find(|l| l.starts_with("Record:"));
    record
        .unwrap_or_else(|| panic!("{args:?}: a whole game\n{text}"))
        .to_string()
}

#[test]
fn seeded_ultimate_games_on_several_trees_differ_by_seed_and_by_thread_count() {
    let three_on_two = ultimate_record("3", "2");
    let five_on_two = ultimate_record("5", "2");
    let three_on_three = ultimate_record("3", "3");
    let three_on_four = ultimate_record("3", "4");
    assert_ne!(three_on_two, five_on_two, "another seed, another game");
    assert_ne!(three_on_two, three_on_three, "another tree, another game");
    assert_ne!(three_on_three, three_on_four, "another tree, another game");
}

#[test]
fn a_seeded_game_against_medium_and_easy_replays() {
    for (x, o) in [("medium", "hard"), ("hard", "easy")] {
        replays(&[
            "--plain", "-x", x, "-o", o, "--seed", "7", "--size", "6", "--think", "20",
        ]);
        replays(&[
            "--plain",
            "-x",
            x,
            "-o",
            o,
            "--seed",
            "8",
            "--ultimate",
            "--think",
            "10",
        ]);
    }
}

#[test]
fn seeded_games_between_ladder_levels_replay() {
    for extra in [&[][..], &["--size", "7"], &["--ultimate"]] {
        for (x, o) in [("2", "5"), ("1", "6")] {
            let mut args = vec!["--plain", "-x", x, "-o", o, "--seed", "11"];
            args.extend_from_slice(extra);
            replays(&args);
        }
    }
}

#[test]
fn seeded_ultimate_games_on_one_tree_differ_by_seed() {
    let mut games: Vec<String> = ["1", "2", "3", "4"]
        .iter()
        .map(|seed| ultimate_record(seed, "1"))
        .collect();
    games.sort();
    games.dedup();
    assert!(games.len() >= 2, "four seeds, one game: {games:#?}");
}
