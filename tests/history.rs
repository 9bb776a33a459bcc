//! The history of games on disk, through the binary: games kept, listed, counted and
//! reviewed; two programs appending at once; damaged lines; a directory that cannot be
//! written; `--no-history`.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread;

use tictactoe::game::Journal;
use tictactoe::store::history::{FILE, Profile};

/// A fresh, empty profile directory for one test.
fn home(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("history")
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(dir.parent().unwrap()).unwrap();
    dir
}

/// Runs the binary with the profile in `home` and `input` on its standard input.
fn run(home: &Path, args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env("TICTACTOE_HOME", home)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    // The game may end before it reads everything.
    let _ = stdin.write_all(input.as_bytes());
    drop(stdin);
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Two humans, X completes the top row: the same game every time.
const X_WINS: &str = "7\n1\n8\n2\n9\n";

/// A game where the easy AI plays O: X tries every cell in turn until the game ends.
fn game_against_easy(home: &Path) -> Output {
    let out = run(
        home,
        &["--plain", "-o", "easy", "--seed", "7"],
        "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    out
}

#[test]
fn a_plain_game_is_kept_counted_listed_and_reviewed() {
    let home = home("plain");
    let played = text(&game_against_easy(&home).stdout);
    let record = played
        .lines()
        .find_map(|l| l.strip_prefix("Record: "))
        .expect("a finished game prints its record");
    // The person plays X.
    let verdict = if played.contains("X wins.") {
        "won"
    } else if played.contains("Draw.") {
        "drawn"
    } else {
        "lost"
    };

    let stats = run(&home, &["stats", "--json"], "");
    let stats: serde_json::Value = serde_json::from_slice(&stats.stdout).unwrap();
    assert_eq!(stats["games"], 1);
    assert_eq!(stats["opponents"][0]["name"], "level 1 AI");
    assert_eq!(stats["opponents"][0][verdict], 1);
    assert_eq!(stats["streaks"]["current"]["result"], verdict);

    let text_stats = text(&run(&home, &["stats"], "").stdout);
    assert!(
        text_stats.starts_with("1 game against an AI or over the network: "),
        "{text_stats}"
    );
    assert!(text_stats.contains("level 1 AI "), "{text_stats}");

    let list = text(&run(&home, &["history"], "").stdout);
    let lines: Vec<&str> = list.lines().collect();
    assert_eq!(lines.len(), 2, "a heading and one game: {list}");
    let moves = record.split(' ').count();
    assert!(lines[1].starts_with("1  "), "{list}");
    assert!(lines[1].contains("level 1 AI"), "{list}");
    assert!(lines[1].contains(verdict), "{list}");
    assert!(lines[1].ends_with(&format!(" {moves}")), "{list}");

    let review = run(&home, &["review", "--last", "--think", "50"], "");
    let given = run(&home, &["review", "--think", "50"], "");
    assert!(review.status.success(), "{}", text(&review.stderr));
    let by_moves = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env("TICTACTOE_HOME", &home)
        .args(["review", "--think", "50"])
        .args(record.split(' '))
        .output()
        .unwrap();
    assert_eq!(text(&review.stdout), text(&by_moves.stdout));
    assert!(!given.status.success(), "review with nothing to review");
    let numbered = run(&home, &["review", "--game", "1", "--think", "50"], "");
    assert_eq!(text(&numbered.stdout), text(&review.stdout));
    let missing = run(&home, &["review", "--game", "2"], "");
    assert_eq!(
        missing.status.code(),
        Some(2),
        "a missing game is a usage error"
    );
    assert!(
        text(&missing.stderr).contains("there is no game 2 in the history: it has 1"),
        "{}",
        text(&missing.stderr)
    );
}

#[test]
fn two_programs_finishing_at_once_keep_every_line_whole() {
    const GAMES: usize = 20;
    let home = home("concurrent");
    thread::scope(|scope| {
        for level in ["easy", "medium"] {
            let home = &home;
            scope.spawn(move || {
                for _ in 0..GAMES {
                    let out = run(home, &["--plain", "-x", level, "-o", "easy"], "");
                    assert!(out.status.success(), "{}", text(&out.stderr));
                }
            });
        }
    });
    let file = fs::read_to_string(home.join(FILE)).unwrap();
    assert_eq!(file.lines().count(), 2 * GAMES);
    for line in file.lines() {
        let value: serde_json::Value = serde_json::from_str(line).expect("a whole JSON line");
        assert!(value["moves"].is_array(), "{line}");
    }
    let games = Profile::at(&home).read().unwrap();
    assert_eq!(games.len(), 2 * GAMES, "every line reads back as a game");
}

#[test]
fn a_program_killed_mid_game_loses_only_that_game_and_corrupts_nothing() {
    use std::io::Read;
    let home = home("killed");
    assert!(
        run(&home, &["--plain", "-o", "human"], X_WINS)
            .status
            .success()
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env("TICTACTOE_HOME", &home)
        .args(["--plain", "-o", "human"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"5\n").unwrap();
    // Killed once the move is on the board and O is asked, in the middle of the game (the
    // prompt ends in no newline: read what comes as it comes).
    let mut stdout = child.stdout.take().unwrap();
    let mut seen = Vec::new();
    let mut chunk = [0u8; 1024];
    while !String::from_utf8_lossy(&seen).contains("O to move") {
        let n = stdout.read(&mut chunk).unwrap();
        assert!(n > 0, "the game went on to O's turn: {}", text(&seen));
        seen.extend_from_slice(&chunk[..n]);
    }
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(
        run(&home, &["--plain", "-o", "human"], X_WINS)
            .status
            .success()
    );
    let file = fs::read_to_string(home.join(FILE)).unwrap();
    assert_eq!(file.lines().count(), 2, "the two finished games: {file}");
    assert!(file.ends_with('\n'));
    let games = Profile::at(&home).read().unwrap();
    assert_eq!(games.len(), 2, "both read back whole");
}

#[test]
fn damaged_lines_are_skipped_with_one_warning() {
    let home = home("damaged");
    run(&home, &["--plain", "-o", "human"], X_WINS);
    let path = home.join(FILE);
    let good = fs::read_to_string(&path).unwrap();
    let damaged = format!("{good}{{\"time\": \"cut off\n\u{0}garbage\n{good}not json\n");
    fs::write(&path, damaged).unwrap();

    let list = run(&home, &["history"], "");
    assert!(list.status.success());
    assert_eq!(
        text(&list.stderr),
        format!(
            "tictactoe: warning: skipped 3 damaged lines in {}\n",
            path.display()
        )
    );
    assert_eq!(text(&list.stdout).lines().count(), 3, "two games listed");

    // A game still ends normally, warns once (reading the file for the score), and its
    // line lands whole after the damage.
    let game = run(
        &home,
        &["--plain", "-o", "easy"],
        "1\n2\n3\n4\n5\n6\n7\n8\n9\n",
    );
    assert!(game.status.success());
    assert_eq!(text(&game.stderr).matches("warning").count(), 1);
    assert_eq!(Profile::at(&home).read().unwrap().len(), 3);
}

#[test]
fn a_directory_that_cannot_be_written_gives_a_warning_and_the_game_ends_normally() {
    let base = home("unwritable");
    fs::create_dir_all(&base).unwrap();
    // A file where the directory should be: nothing can be created under it, even by root.
    let blocker = base.join("a-file");
    fs::write(&blocker, "").unwrap();
    let home = blocker.join("profile");
    let out = run(&home, &["--plain", "-o", "human"], X_WINS);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.contains("X wins.\nRecord: 7 1 8 2 9\n"), "{stdout}");
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("tictactoe: warning: this game was not kept in "),
        "{stderr}"
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_gives_a_warning_and_the_game_ends_normally() {
    let home = home("full");
    fs::create_dir_all(&home).unwrap();
    std::os::unix::fs::symlink("/dev/full", home.join(FILE)).unwrap();
    let out = run(&home, &["--plain", "-o", "human"], X_WINS);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("Record: 7 1 8 2 9"));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("warning: this game was not kept"),
        "{stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_line_cut_short_by_a_file_size_limit_is_taken_back_and_the_next_game_is_kept() {
    let home = home("short-write");
    game_against_easy(&home);
    let file = home.join(FILE);
    let line = fs::read(&file).unwrap();
    // Whole copies of that line up to just under 2 KiB, the limit set below: the next line
    // crosses it, and only its first part can be written.
    let copies = 2048 / line.len();
    fs::write(&file, line.repeat(copies)).unwrap();
    let before = fs::read(&file).unwrap();
    let limited = Command::new("bash")
        .args([
            "-c",
            r#"trap '' XFSZ; ulimit -f 2; exec "$0" "$@""#,
            env!("CARGO_BIN_EXE_tictactoe"),
            "--plain",
            "-o",
            "easy",
            "--seed",
            "7",
        ])
        .env("TICTACTOE_HOME", &home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = limited.stdin.as_ref().unwrap();
    let _ = stdin.write_all(b"1\n2\n3\n4\n5\n6\n7\n8\n9\n");
    let out = limited.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("this game was not kept"), "{stderr}");
    assert!(
        stderr.contains("taken back") && stderr.contains("record: "),
        "{stderr}"
    );
    let after = fs::read(&file).unwrap();
    assert!(
        after == before,
        "nothing written before is touched: {} bytes before, {} after",
        before.len(),
        after.len()
    );
    game_against_easy(&home);
    let listed = run(&home, &["history"], "");
    let listed = text(&listed.stdout) + &text(&listed.stderr);
    assert!(!listed.contains("damaged"), "{listed}");
    assert_eq!(
        fs::read_to_string(&file).unwrap().lines().count(),
        copies + 1,
        "the next game is kept whole"
    );
}

#[test]
fn a_profile_directory_that_is_a_file_is_named_as_one() {
    let home = home("a-file");
    fs::write(&home, "not a directory").unwrap();
    let out = run(&home, &["--plain", "-o", "human"], X_WINS);
    assert!(out.status.success());
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("is a file, not a directory (set TICTACTOE_HOME to a directory)")
            && stderr.contains("record: 7 1 8 2 9")
            && !stderr.contains("os error"),
        "{stderr}"
    );
    assert_eq!(fs::read_to_string(&home).unwrap(), "not a directory");
    let _ = fs::remove_file(&home);
}

#[test]
fn no_history_writes_nothing() {
    let home = home("off");
    let out = run(&home, &["--plain", "-o", "human", "--no-history"], X_WINS);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("Record: 7 1 8 2 9"));
    assert!(!home.exists(), "nothing written, not even the directory");
    run(&home, &["--plain", "-o", "human"], X_WINS);
    assert_eq!(Profile::at(&home).read().unwrap().len(), 1);
}

#[test]
fn the_score_line_counts_games_against_this_opponent_over_all_time() {
    let home = home("all-time");
    // Two humans: no one's score over all time; nothing against the easy AI yet.
    run(&home, &["--plain", "-o", "human"], X_WINS);
    let stats = run(&home, &["stats"], "");
    assert!(
        text(&stats.stdout).starts_with("No games that count in the history yet (1 more game kept"),
        "{}",
        text(&stats.stdout)
    );
    game_against_easy(&home);
    game_against_easy(&home);
    let profile = Profile::at(&home);
    let classic = tictactoe::rules::position::Variant::default();
    let tally = profile
        .tally(tictactoe::ai::player::Player::EASY, classic)
        .unwrap();
    assert_eq!(tally.games(), 2);
    assert_eq!(
        profile
            .tally(tictactoe::ai::player::Player::HARD, classic)
            .unwrap()
            .games(),
        0
    );
}

/// The level `--level auto` plays first, as the plain game names it after the person's `5`.
fn first_auto_level(home: &Path) -> u8 {
    let out = run(home, &["--plain", "--level", "auto", "--seed", "1"], "5\n");
    let out = text(&out.stdout);
    let line = out
        .lines()
        .find_map(|l| l.strip_prefix("O (level "))
        .unwrap_or_else(|| panic!("no AI move in:\n{out}"));
    line[..1].parse().unwrap()
}

#[test]
fn the_auto_level_starts_from_the_persons_results_in_the_history() {
    use tictactoe::ai::levels::{Level, rating};
    use tictactoe::rules::classic::Rules;
    use tictactoe::rules::position::Variant;
    // The person plays X; the file's `winner` and `result` are worked out again from the moves.
    let game = |rules: &str, o: &str, moves: &str| {
        let moves: Vec<String> = moves.split(' ').map(|m| format!("\"{m}\"")).collect();
        format!(
            r#"{{"time":"2026-11-20T10:00:00Z","rules":"{rules}","x":"human","o":"{o}","winner":null,"result":null,"moves":[{}]}}"#,
            moves.join(",")
        ) + "\n"
    };
    let fresh = home("auto-fresh");
    assert_eq!(first_auto_level(&fresh), 4, "no history: the middle level");

    let champion = home("auto-champion");
    fs::create_dir_all(&champion).unwrap();
    fs::write(
        champion.join(FILE),
        game("", "level 7", "7 1 8 2 9").repeat(10),
    )
    .unwrap();
    let classic = Variant::from(Rules::CLASSIC);
    let strongest = Level::all().max_by_key(|&l| rating(classic, l)).unwrap();
    assert_eq!(first_auto_level(&champion), strongest.number());

    // O takes the top row: ten losses here; ten misère wins say nothing about this board.
    let beginner = home("auto-beginner");
    fs::create_dir_all(&beginner).unwrap();
    let lost = game("", "level 1", "1 7 2 8 4 9").repeat(10);
    let won_misere = game("--misere", "level 7", "1 7 3 8 6 9").repeat(10);
    fs::write(beginner.join(FILE), lost + &won_misere).unwrap();
    assert_eq!(first_auto_level(&beginner), 1);
    let listed = text(&run(&beginner, &["history"], "").stdout);
    assert_eq!(listed.matches("misère").count(), 10, "{listed}");
}

#[test]
fn a_game_set_up_with_from_is_kept_but_not_counted() {
    let home = home("set-up");
    // O wins at once with no move of the person's.
    let out = run(&home, &["--plain", "--from", "5", "1", "9", "7", "3"], "");
    assert!(text(&out.stdout).contains("wins"), "{}", text(&out.stdout));
    let games = Profile::at(&home).read().unwrap();
    assert_eq!((games.len(), games[0].game.setup()), (1, 5));
    assert_eq!(games[0].counted(), None);
    let stats = text(&run(&home, &["stats"], "").stdout);
    assert!(
        stats.starts_with("No games that count in the history yet (1 more game kept"),
        "{stats}"
    );
    let listed = text(&run(&home, &["history"], "").stdout);
    assert!(listed.contains("3 in a row, set up"), "{listed}");
}

#[test]
fn a_game_quit_after_the_persons_move_counts_as_lost_and_one_before_is_not_kept() {
    let home = home("abandoned");
    run(&home, &["--plain", "-x", "hard", "-o", "human"], "q\n");
    assert!(
        Profile::at(&home).read().unwrap().is_empty(),
        "left before the person moved"
    );
    let out = run(&home, &["--plain", "-o", "easy", "--seed", "1"], "5\nq\n");
    assert!(text(&out.stdout).contains("Quit."), "{}", text(&out.stdout));
    // Input that ends mid-game leaves the game too.
    run(&home, &["--plain", "-o", "easy", "--seed", "1"], "5\n");
    let games = Profile::at(&home).read().unwrap();
    assert_eq!(games.len(), 2);
    assert!(games.iter().all(|g| !g.game.is_over()));
    let stats = text(&run(&home, &["stats"], "").stdout);
    assert!(
        stats.starts_with("2 games against an AI or over the network: won 0, drawn 0, lost 2."),
        "{stats}"
    );
    let listed = text(&run(&home, &["history"], "").stdout);
    assert_eq!(listed.matches("left").count(), 2, "{listed}");
}

#[test]
fn all_time_tallies_are_kept_per_rule_set() {
    let home = home("per-rules");
    game_against_easy(&home);
    let profile = Profile::at(&home);
    let easy = tictactoe::ai::player::Player::EASY;
    let classic = tictactoe::rules::position::Variant::default();
    assert_eq!(profile.tally(easy, classic).unwrap().games(), 1);
    let ultimate = tictactoe::rules::position::Variant::Ultimate;
    assert_eq!(profile.tally(easy, ultimate).unwrap().games(), 0);
}

#[test]
fn a_line_cut_short_does_not_swallow_the_next_game() {
    let home = home("torn");
    fs::create_dir_all(&home).unwrap();
    // A record cut by a crash or a full disk: no newline at its end.
    fs::write(home.join(FILE), r#"{"time":"x","rules":"","x":"human""#).unwrap();
    let out = run(&home, &["--plain", "-o", "human"], X_WINS);
    assert!(out.status.success());
    let games = Profile::at(&home).read().unwrap();
    assert_eq!(games.len(), 1, "the new game is kept whole");
    assert_eq!(games[0].game.record().to_string(), "7 1 8 2 9");
    let listed = run(&home, &["history"], "");
    assert!(
        text(&listed.stderr).contains("skipped 1 damaged line"),
        "{}",
        text(&listed.stderr)
    );
}

#[test]
fn paths_names_the_profile_files_and_which_exist() {
    let home = home("paths");
    run(&home, &["--plain", "-o", "human"], X_WINS);
    let out = text(&run(&home, &["paths"], "").stdout);
    let dir = home.display().to_string();
    assert!(
        out.starts_with(&format!("Profile directory (from TICTACTOE_HOME): {dir}\n")),
        "{out}"
    );
    assert!(
        out.contains(&format!("History: {dir}/history.jsonl\n")),
        "{out}"
    );
    assert!(out.contains("current.json (not there yet)"), "{out}");
}

#[test]
fn a_damaged_settings_file_gives_one_warning_and_the_defaults() {
    let home = home("settings-damaged");
    fs::create_dir_all(&home).unwrap();
    fs::write(home.join("settings.toml"), "delay = [\n").unwrap();
    // No player named: the settings are read for the opponent and again for the front end.
    let out = run(&home, &["--plain"], "5\nq\n");
    assert_eq!(
        text(&out.stderr).lines().count(),
        1,
        "{}",
        text(&out.stderr)
    );
    let out = run(&home, &["--plain", "-o", "human"], X_WINS);
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("Record: 7 1 8 2 9"));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("settings.toml is damaged") && stderr.contains("default settings"),
        "{stderr}"
    );
}

#[test]
fn the_settings_choose_the_opponent_and_turn_hints_off_and_flags_win() {
    let home = home("settings");
    fs::create_dir_all(&home).unwrap();
    fs::write(
        home.join("settings.toml"),
        "opponent = \"easy\"\nhints = false\n",
    )
    .unwrap();
    let out = text(&run(&home, &["--plain", "--seed", "1"], "5\nh\nq\n").stdout);
    assert!(out.contains("O (level 1) plays"), "{out}");
    assert!(out.contains("Hints are off in your settings"), "{out}");
    let out = text(&run(&home, &["--plain", "-o", "human"], "5\nq\n").stdout);
    assert!(
        !out.contains("O (level"),
        "-o wins over the settings: {out}"
    );
}

#[test]
fn review_of_a_game_the_history_does_not_hold_exits_2_naming_it() {
    let home = home("no-such-game");
    let missing = run(&home, &["review", "--game", "99"], "");
    assert_eq!(missing.status.code(), Some(2), "{}", text(&missing.stderr));
    assert!(
        text(&missing.stderr).contains("there is no game 99 in the history: it has 0"),
        "{}",
        text(&missing.stderr)
    );
    let last = run(&home, &["review", "--last"], "");
    assert_eq!(last.status.code(), Some(2), "{}", text(&last.stderr));
    assert!(text(&last.stderr).contains("the history has no games yet"));
}

#[test]
fn paths_names_the_settings_file_and_whether_it_exists() {
    let home = home("paths-settings");
    let before = text(&run(&home, &["paths"], "").stdout);
    let file = home.join("settings.toml");
    let line = format!("Settings: {} (not there yet)", file.display());
    assert!(before.contains(&line), "{before}");
    fs::create_dir_all(&home).unwrap();
    fs::write(&file, "hints = false\n").unwrap();
    let after = text(&run(&home, &["paths"], "").stdout);
    assert!(
        after.contains(&format!("Settings: {}\n", file.display())),
        "{after}"
    );
}

/// A history of 100,000 games marked as taken up again that continue nothing kept before:
/// `stats` reads it in bounded time (each line is not compared with every line before it),
/// counts every game once, and the one that does continue a game left still replaces it.
#[test]
fn stats_of_a_hundred_thousand_resumed_games_counts_each_once_and_ends_in_time() {
    let home = home("resumed-many");
    fs::create_dir_all(&home).unwrap();
    let game = |o: &str, moves: &str, end: &str| {
        format!(
            "{{\"time\":\"2026-01-01T00:00:00Z\",\"rules\":\"\",\"x\":\"human\",\"o\":\"{o}\",\
             \"winner\":null,\"result\":null,\"moves\":[{moves}]{end}}}\n"
        )
    };
    let won = "\"7\",\"1\",\"8\",\"2\",\"9\"";
    let mut file = game("level 1", "\"7\",\"1\"", ",\"end\":\"abandoned\"");
    let resumed = game("level 2", won, ",\"resumed\":true");
    for _ in 0..100_000 {
        file.push_str(&resumed);
    }
    file.push_str(&game("level 1", won, ",\"resumed\":true"));
    fs::write(home.join("history.jsonl"), file).unwrap();

    // The answer goes to a file, which never fills as a pipe does.
    let answer = home.join("stats.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .env("TICTACTOE_HOME", &home)
        .args(["stats", "--json"])
        .stdin(Stdio::null())
        .stdout(fs::File::create(&answer).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("stats still reading 100,000 resumed lines after 20 s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stats: serde_json::Value = serde_json::from_slice(&fs::read(&answer).unwrap()).unwrap();
    assert_eq!(stats["games"], 100_001);
    let opponent = |name: &str| {
        stats["opponents"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["name"] == name)
            .cloned()
            .unwrap_or_else(|| panic!("{name} among {}", stats["opponents"]))
    };
    assert_eq!(opponent("level 2 AI")["won"], 100_000);
    let first = opponent("level 1 AI");
    assert_eq!(
        (&first["won"], &first["lost"]),
        (&1.into(), &0.into()),
        "{first}"
    );
}

/// The history exactly at the size limit of files (`ulimit -f`): the winning move's line
/// cannot be added. The program is not killed by the limit's signal (SIGXFSZ): it says the
/// game was not kept and why, gives its record, and the history is left as it was.
#[test]
fn a_history_at_the_file_size_limit_is_reported_not_a_kill_and_left_whole() {
    let home = home("size-limit");
    fs::create_dir_all(&home).unwrap();
    let kept = "{\"time\":\"2026-01-01T00:00:00Z\",\"rules\":\"\",\"x\":\"human\",\"o\":\"human\",\
                \"winner\":\"X\",\"result\":null,\"moves\":[\"7\",\"1\",\"8\",\"2\",\"9\"]}\n";
    // 4 blocks of 1,024 bytes (bash's unit for `ulimit -f`): whole lines, then blanks.
    let mut file = kept.repeat(4096 / kept.len());
    file.push_str(&" ".repeat(4096 - file.len() - 1));
    file.push('\n');
    assert_eq!(file.len(), 4096);
    fs::write(home.join("history.jsonl"), &file).unwrap();
    let mut child = Command::new("bash")
        .args(["-c", "ulimit -f 4 && exec \"$0\" --plain -o human"])
        .arg(env!("CARGO_BIN_EXE_tictactoe"))
        .env("TICTACTOE_HOME", &home)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(X_WINS.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert!(
        out.status.code().is_some(),
        "ended by a signal: {:?}\n{stderr}",
        out.status
    );
    assert!(stdout.contains("X wins"), "{stdout}");
    assert!(stderr.contains("this game was not kept"), "{stderr}");
    assert!(stderr.contains("too large"), "{stderr}");
    assert!(
        stderr.contains("7 1 8 2 9"),
        "the game's record is given: {stderr}"
    );
    assert_eq!(
        fs::read_to_string(home.join("history.jsonl")).unwrap(),
        file
    );
}
