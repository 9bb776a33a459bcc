//! `tictactoe puzzles`: the wins a person had and missed, found in a history the test makes by
//! playing through the binary, posed, and answers judged and counted.

mod pipe;

use std::fs;
use std::path::{Path, PathBuf};

use tictactoe::ai::player::Player;
use tictactoe::game::record::Record;
use tictactoe::game::{Game, GameEnd};
use tictactoe::rules::position::Variant;
use tictactoe::store::history::Profile;

/// A fresh, empty profile directory for one test.
fn home(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("puzzles")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.parent().unwrap()).unwrap();
    dir
}

/// Runs the binary with the profile in `home` and `input` on its standard input; its exit
/// status and standard output.
fn run(home: &Path, args: &[&str], input: &str) -> (Option<i32>, String) {
    let out = pipe::run_at(home, args, input.as_bytes());
    (out.status.code(), pipe::text(&out.stdout))
}

/// Two people on 3×3: X on 7 and 8 has 9 to win at move 5, plays 1, and O wins on 6.
const MISSED: &str = "7\n4\n8\n5\n1\n6\n";

#[test]
fn a_missed_win_in_the_history_is_a_puzzle_and_a_wrong_answer_is_told_why() {
    let home = home("missed");
    let (code, played) = run(&home, &["--plain", "-x", "human", "-o", "human"], MISSED);
    assert_eq!(code, Some(0), "{played}");
    let (code, listed) = run(&home, &["puzzles"], "");
    assert_eq!(code, Some(0));
    assert!(
        listed.contains("move 5: X to play and win in 1 · unsolved"),
        "{listed}"
    );
    assert!(
        listed.contains("1 puzzle, 0 solved."),
        "only the one: {listed}"
    );
    let (code, wrong) = run(&home, &["puzzles", "1"], "1\n");
    assert_eq!(code, Some(0), "{wrong}");
    assert!(wrong.contains("X to play and win in 1."), "{wrong}");
    assert!(
        wrong.contains("Not this one: after 1, O wins (loss in 2). 9 wins."),
        "{wrong}"
    );
    assert!(wrong.contains("0 of 1 solved."), "{wrong}");
    let (_, listed) = run(&home, &["puzzles"], "");
    assert!(listed.contains("unsolved, tried 1×"), "{listed}");
    let (_, right) = run(&home, &["puzzles", "1"], "7\nz9\n9\n");
    assert!(
        right.contains("z9 is not on the board"),
        "a bad line is told: {right}"
    );
    assert!(
        right.contains("7 cannot be played here"),
        "a taken cell too: {right}"
    );
    assert!(right.contains("Right: 9 wins (win in 1)."), "{right}");
    assert!(right.contains("1 of 1 solved."), "{right}");
    let (_, listed) = run(&home, &["puzzles"], "");
    assert!(listed.contains("· solved"), "{listed}");
}

#[test]
fn games_without_a_missed_win_give_no_puzzle_and_each_game_is_searched_once() {
    let home = home("none");
    // X takes the top row at once; O never had a win.
    run(
        &home,
        &["--plain", "-x", "human", "-o", "human"],
        "7\n4\n8\n5\n9\n",
    );
    let (code, listed) = run(&home, &["puzzles"], "");
    assert_eq!(code, Some(0));
    assert!(listed.starts_with("No puzzles yet"), "{listed}");
    run(&home, &["--plain", "-x", "human", "-o", "human"], MISSED);
    run(&home, &["puzzles"], "");
    let kept = fs::read_to_string(home.join("puzzles.json")).unwrap();
    let file: serde_json::Value = serde_json::from_str(&kept).unwrap();
    assert_eq!(file["searched"].as_array().unwrap().len(), 2, "{kept}");
    assert_eq!(file["puzzles"].as_array().unwrap().len(), 1, "{kept}");
    let (code, _) = run(&home, &["puzzles", "2"], "");
    assert_eq!(code, Some(2), "there is no puzzle 2");
}

/// Keeps the game of `moves` on 3×3, X played by `x` and O by `o`, in the history of `home`.
fn kept(home: &Path, moves: &[&str], (x, o): (Player, Player), time: &str) {
    let record = Record::parse(Variant::default(), moves).unwrap();
    let game = Game::resume(&record, 0, x, o).unwrap();
    let end = GameEnd::Finished;
    Profile::at(home)
        .append(&game, end, time.to_string())
        .unwrap();
}

#[test]
fn an_ais_missed_win_is_no_puzzle_and_a_damaged_puzzle_file_is_set_aside() {
    let home = home("ai");
    let missed = ["7", "4", "8", "5", "1", "6"];
    kept(
        &home,
        &missed,
        (Player::EASY, Player::Human),
        "2026-12-04T10:00:00Z",
    );
    fs::write(home.join("puzzles.json"), "{ not json").unwrap();
    let (code, listed) = run(&home, &["puzzles"], "");
    assert_eq!(code, Some(0), "{listed}");
    assert!(
        listed.starts_with("No puzzles yet"),
        "X was the AI's: {listed}"
    );
    let file = fs::read_to_string(home.join("puzzles.json")).unwrap();
    assert!(file.contains("\"searched\""), "written afresh: {file}");
    let damaged = fs::read_to_string(home.join("puzzles.json.damaged")).unwrap();
    assert_eq!(
        damaged, "{ not json",
        "the damaged file is kept aside, not lost"
    );
    // The same game with the person as X, a second later: its own puzzle.
    kept(
        &home,
        &missed,
        (Player::Human, Player::EASY),
        "2026-12-04T10:00:01Z",
    );
    let (_, listed) = run(&home, &["puzzles"], "");
    assert!(listed.contains("1 puzzle, 0 solved."), "{listed}");
}
