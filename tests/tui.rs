//! The terminal game driven in a real pseudo-terminal, the way a person at a keyboard drives
//! it: keys in as bytes, the screen read back through a terminal emulator.

#![cfg(unix)]

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use nix::errno::Errno;
use nix::fcntl::{FcntlArg, OFlag, fcntl};
use nix::sys::signal::{Signal, kill};
use nix::sys::termios::LocalFlags;
use nix::unistd::{Pid, close, dup, read};
use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};

mod pipe;

const COLS: u16 = 80;
const ROWS: u16 = 24;
const TIMEOUT: Duration = Duration::from_secs(10);

/// The game running in a pseudo-terminal.
struct Tui {
    /// `None` once the test has closed the terminal.
    master: Option<Box<dyn MasterPty + Send>>,
    child: Box<dyn Child + Send + Sync>,
    writer: Option<Box<dyn Write + Send>>,
    parser: Arc<Mutex<vt100::Parser>>,
    /// Every byte the game has written.
    received: Arc<Mutex<usize>>,
    /// Cleared to close the reader's copy of the terminal.
    open: Arc<AtomicBool>,
}

fn size(cols: u16, rows: u16) -> PtySize {
    PtySize {
        rows,
        cols,
        pixel_width: 0,
        pixel_height: 0,
    }
}

/// The folder the game runs in, where `w` saves games.
const SAVED: &str = concat!(env!("CARGO_TARGET_TMPDIR"), "/saved");

impl Tui {
    fn start(args: &[&str]) -> Tui {
        Tui::start_with(args, &[])
    }

    fn start_with(args: &[&str], env: &[(&str, &str)]) -> Tui {
        let tui = Tui::spawn(env!("CARGO_BIN_EXE_tictactoe"), args, env);
        // The title: `Tic-tac-toe · round 1`, or `Ultimate tic-tac-toe · round 1`.
        tui.wait_for("the first frame", |s| {
            s.contents().to_lowercase().contains("tic-tac-toe")
        });
        tui
    }

    /// `program` with `args` in a new terminal, with the game's environment (a test profile,
    /// a UTF-8 locale) and `env`; does not wait for anything.
    fn spawn(program: &str, args: &[&str], env: &[(&str, &str)]) -> Tui {
        let pair = native_pty_system()
            .openpty(size(COLS, ROWS))
            .expect("a pty");
        let mut cmd = CommandBuilder::new(program);
        cmd.args(args);
        // A folder of the tests' own: a game saved with `w` goes there.
        std::fs::create_dir_all(SAVED).unwrap();
        cmd.cwd(SAVED);
        cmd.env("TERM", "xterm-256color");
        // A UTF-8 locale, whatever the test's own: elsewhere the game draws in ASCII.
        cmd.env_remove("LC_ALL");
        cmd.env_remove("LC_CTYPE");
        cmd.env("LANG", "C.UTF-8");
        cmd.env("RUST_BACKTRACE", "0");
        // Never the real profile: games end in these tests.
        cmd.env(
            "TICTACTOE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
        );
        cmd.env_remove("NO_COLOR");
        for (k, v) in env {
            cmd.env(k, v);
        }
        let child = pair.slave.spawn_command(cmd).expect("the game starts");
        drop(pair.slave);
        let writer = pair.master.take_writer().unwrap();
        let parser = Arc::new(Mutex::new(vt100::Parser::new(ROWS, COLS, 0)));
        let received = Arc::new(Mutex::new(0));
        let open = Arc::new(AtomicBool::new(true));
        // The reader polls its own non-blocking copy of the master, so that a test can close
        // every copy (and so hang up the terminal) by clearing `open`.
        let fd = dup(pair.master.as_raw_fd().expect("a unix pty")).unwrap();
        fcntl(fd, FcntlArg::F_SETFL(OFlag::O_NONBLOCK)).unwrap();
        let (p, r, o) = (
            Arc::clone(&parser),
            Arc::clone(&received),
            Arc::clone(&open),
        );
        thread::spawn(move || {
            let mut buf = [0u8; 8192];
            loop {
                match read(fd, &mut buf) {
                    Ok(0) => break,
                    Ok(n) => {
                        // The count moves under the screen's lock: whoever sees these bytes
                        // on the screen sees them counted.
                        let mut screen = p.lock().unwrap();
                        screen.process(&buf[..n]);
                        *r.lock().unwrap() += n;
                    }
                    Err(Errno::EAGAIN) if o.load(Ordering::SeqCst) => {
                        thread::sleep(Duration::from_millis(2));
                    }
                    Err(_) => break,
                }
            }
            let _ = close(fd);
        });
        Tui {
            master: Some(pair.master),
            child,
            writer: Some(writer),
            parser,
            received,
            open,
        }
    }

    fn send(&mut self, keys: &str) {
        let writer = self.writer.as_mut().expect("the terminal is open");
        writer.write_all(keys.as_bytes()).unwrap();
        writer.flush().unwrap();
    }

    fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    fn bytes(&self) -> usize {
        *self.received.lock().unwrap()
    }

    /// Waits until `done` holds for the screen, or panics with the screen after a timeout.
    fn wait_for(&self, what: &str, done: impl Fn(&vt100::Screen) -> bool) {
        let start = Instant::now();
        loop {
            if done(self.parser.lock().unwrap().screen()) {
                return;
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "timed out waiting for {what}; screen:\n{}",
                self.screen()
            );
            thread::sleep(Duration::from_millis(5));
        }
    }

    fn wait_text(&self, text: &str) {
        self.wait_for(&format!("{text:?}"), |s| s.contents().contains(text));
    }

    /// The board as notation, read off the screen.
    fn board(&self) -> String {
        let parser = self.parser.lock().unwrap();
        read_board(parser.screen())
    }

    fn wait_board(&self, notation: &str) {
        self.wait_for(&format!("board {notation}"), |s| read_board(s) == notation);
    }

    /// Screen position of the middle row, centre column of a numpad cell.
    fn cell_centre(&self, digit: u8) -> (u16, u16) {
        let parser = self.parser.lock().unwrap();
        let (top, left) = board_corner(parser.screen()).expect("a board on screen");
        let index = u16::from(digit - 1);
        let (row_from_top, col) = (2 - index / 3, index % 3);
        (top + 2 + row_from_top * 4, left + 4 + col * 8)
    }

    fn cell_attrs(&self, digit: u8) -> (bool, bool) {
        let (row, col) = self.cell_centre(digit);
        let parser = self.parser.lock().unwrap();
        let cell = parser.screen().cell(row, col).unwrap();
        (cell.inverse(), cell.bold())
    }

    fn resize(&self, cols: u16, rows: u16) {
        self.parser
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(rows, cols);
        self.master
            .as_ref()
            .expect("the terminal is open")
            .resize(size(cols, rows))
            .unwrap();
    }

    fn pid(&self) -> Pid {
        Pid::from_raw(self.child.process_id().expect("a pid") as i32)
    }

    /// Waits for the game to exit; returns whether the exit status was success.
    fn wait_exit(&mut self) -> bool {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                // Let the reader thread take in the last bytes.
                thread::sleep(Duration::from_millis(50));
                return status.success();
            }
            assert!(
                start.elapsed() < TIMEOUT,
                "the game did not exit; screen:\n{}",
                self.screen()
            );
            thread::sleep(Duration::from_millis(10));
        }
    }

    /// Asserts the terminal is as the game found it: cooked mode, main screen, cursor shown.
    fn assert_restored(&self) {
        let master = self.master.as_ref().expect("the terminal is open");
        let termios = master.get_termios().expect("termios of the pty");
        assert!(
            termios.local_flags.contains(LocalFlags::ICANON),
            "still in raw mode"
        );
        assert!(
            termios.local_flags.contains(LocalFlags::ECHO),
            "echo still off"
        );
        let parser = self.parser.lock().unwrap();
        assert!(
            !parser.screen().alternate_screen(),
            "alternate screen not left"
        );
        assert!(!parser.screen().hide_cursor(), "cursor still hidden");
        assert_eq!(
            parser.screen().mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "mouse tracking still on"
        );
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

/// Row and column of the board's top-left corner: a `┌` with a `┬` one cell to its right.
fn board_corner(screen: &vt100::Screen) -> Option<(u16, u16)> {
    let (rows, cols) = screen.size();
    let is = |r: u16, c: u16, s: &str| screen.cell(r, c).is_some_and(|cell| cell.contents() == s);
    (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .find(|&(r, c)| is(r, c, "┌") && is(r, c + 8, "┬"))
}

/// Reads the marks off a large 3×3 board: `╳` in the middle of a cell is X, `│ │` is O.
fn read_board(screen: &vt100::Screen) -> String {
    let Some((top, left)) = board_corner(screen) else {
        return "no board".into();
    };
    let at = |r: u16, c: u16| {
        screen
            .cell(r, c)
            .map(|x| x.contents().to_string())
            .unwrap_or_default()
    };
    (0..3)
        .map(|row| {
            (0..3)
                .map(|col| {
                    let (r, c) = (top + 2 + row * 4, left + 4 + col * 8);
                    match (at(r, c).as_str(), at(r, c - 1).as_str()) {
                        ("╳", _) => 'X',
                        (_, "│") => 'O',
                        _ => '.',
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

fn two_humans() -> Tui {
    Tui::start(&["-o", "human", "--delay", "0"])
}

#[test]
fn first_frame_is_drawn_on_the_alternate_screen() {
    let tui = two_humans();
    let screen = tui.screen();
    for text in [
        "Tic-tac-toe · round 1",
        "▸ X: Player 1   O: Player 2",
        "X to move (Player 1)",
        "q quit",
    ] {
        assert!(screen.contains(text), "{text:?} missing:\n{screen}");
    }
    assert_eq!(tui.board(), ".../.../...");
    let parser = tui.parser.lock().unwrap();
    assert!(parser.screen().alternate_screen());
    assert!(parser.screen().hide_cursor());
}

/// Ctrl-Z under a shell with job control: the game leaves the alternate screen and stops,
/// the shell says so, and `fg` brings the game back, drawn whole and still playable.
#[test]
fn ctrl_z_suspends_to_the_shell_and_fg_restores_the_game() {
    let game = env!("CARGO_BIN_EXE_tictactoe");
    let mut shell = Tui::spawn(
        "bash",
        &["--norc", "--noprofile", "-i"],
        &[("PS1", "shell$ ")],
    );
    shell.wait_text("shell$");
    shell.send(&format!("'{game}' -o human --delay 0\r"));
    shell.wait_text("Tic-tac-toe · round 1");
    shell.send("5");
    shell.wait_board(".../.X./...");
    shell.send("\x1a");
    shell.wait_for("the shell's notice of a stopped job", |s| {
        !s.alternate_screen() && s.contents().contains("Stopped")
    });
    shell.send("fg\r");
    shell.wait_for("the game drawn again", |s| {
        s.alternate_screen() && read_board(s) == ".../.X./..." && s.contents().contains("round 1")
    });
    shell.send("1");
    shell.wait_board(".../.X./O..");
    shell.send("qq");
    shell.wait_text("Record: 5 1");
    shell.send("exit\r");
}

/// A shell with job control in a terminal, running the game with `args` in the foreground
/// in a profile of its own; returns once `ready` is on the screen.
fn game_under_a_shell(args: &str, home: &str, ready: &str) -> Tui {
    let game = env!("CARGO_BIN_EXE_tictactoe");
    let home = format!("{}/{home}", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_dir_all(&home);
    let mut shell = Tui::spawn(
        "bash",
        &["--norc", "--noprofile", "-i"],
        &[("PS1", "shell$ "), ("TICTACTOE_HOME", &home)],
    );
    shell.wait_text("shell$");
    shell.send(&format!("'{game}' {args}\r"));
    shell.wait_text(ready);
    shell
}

/// Sends SIGTSTP to the game running under `shell` from outside, as `kill -TSTP` does, and
/// waits until the shell has the screen back and says the job stopped.
fn stop_from_outside(shell: &Tui) {
    let bash = shell.child.process_id().expect("the shell's pid");
    let children = std::fs::read_to_string(format!("/proc/{bash}/task/{bash}/children"))
        .expect("the shell's children");
    let pid: i32 = children.split_whitespace().next().unwrap().parse().unwrap();
    kill(Pid::from_raw(pid), Signal::SIGTSTP).unwrap();
    shell.wait_for("the shell's notice of a stopped job", |s| {
        !s.alternate_screen() && s.contents().contains("Stopped")
    });
}

/// SIGTSTP sent by another process, not typed: the game leaves the alternate screen while
/// stopped, and after `fg` it is drawn whole, in raw mode again (a single key plays), and
/// `q` still quits.
#[test]
fn sigtstp_from_outside_leaves_the_screen_and_fg_brings_back_a_playable_game() {
    let mut shell = game_under_a_shell("-o human --delay 0", "tstp-game", "round 1");
    shell.send("5");
    shell.wait_board(".../.X./...");
    stop_from_outside(&shell);
    shell.send("fg\r");
    shell.wait_for("the game drawn again", |s| {
        s.alternate_screen() && read_board(s) == ".../.X./..." && s.contents().contains("round 1")
    });
    shell.send("1");
    shell.wait_board(".../.X./O..");
    shell.send("qq");
    shell.wait_text("Record: 5 1");
    shell.send("exit\r");
}

/// The same on the start screen: stopped from outside and continued, it is drawn whole and
/// its keys still work at once.
#[test]
fn sigtstp_from_outside_on_the_start_screen_and_fg_brings_it_back_working() {
    let mut shell = game_under_a_shell("", "tstp-menu", "Your games");
    stop_from_outside(&shell);
    shell.send("fg\r");
    shell.wait_for("the start screen drawn again", |s| {
        s.alternate_screen() && s.contents().contains("1  Play the AI")
    });
    shell.send("q");
    shell.wait_for("the shell's prompt after quitting", |s| {
        !s.alternate_screen() && s.contents().matches("shell$").count() >= 2
    });
    shell.send("exit\r");
}

#[test]
fn five_takes_the_centre_and_the_ai_answers() {
    let mut tui = Tui::start(&["--delay", "0", "--seed", "1"]);
    tui.send("5");
    tui.wait_text("X to move (you)");
    tui.wait_for("two marks", |s| {
        read_board(s).matches(['X', 'O']).count() == 2
    });
    let board = tui.board();
    assert_eq!(&board[4..7], ".X.", "{board}");
    assert!(tui.screen().contains("O (level 7 AI) played"));
}

#[test]
fn a_taken_cell_is_refused_with_a_message() {
    let mut tui = two_humans();
    tui.send("5");
    tui.wait_board(".../.X./...");
    tui.send("5");
    tui.wait_text("Cell 5 is taken");
    assert_eq!(tui.board(), ".../.X./...");
    tui.send("z");
    tui.wait_text("'z' does nothing here: press ? for the keys");
    assert_eq!(tui.board(), ".../.X./...");
}

#[test]
fn the_keypad_with_numlock_off_plays_corners_and_centre() {
    let mut tui = two_humans();
    tui.send("\x1b[H"); // Home: 7
    tui.wait_board("X../.../...");
    tui.send("\x1b[5~"); // PageUp: 9
    tui.wait_board("X.O/.../...");
    tui.send("\x1b[F"); // End: 1
    tui.wait_board("X.O/.../X..");
    tui.send("\x1b[6~"); // PageDown: 3
    tui.wait_board("X.O/.../X.O");
    tui.send("\x1b[57427u"); // Begin (keypad 5) as reported by the kitty keyboard protocol
    tui.wait_board("X.O/.X./X.O");
}

#[test]
fn arrows_move_the_cursor_from_the_centre_and_enter_plays() {
    let mut tui = two_humans();
    tui.send("\x1b[A\x1b[D"); // up, left: from 5 to 7
    tui.send("\r");
    tui.wait_board("X../.../...");
    tui.send("\x1b[B\x1b[B\x1b[C\x1b[C\x1b[C"); // down twice, right (clamped at the edge)
    tui.send(" ");
    tui.wait_board("X../.../..O");
}

#[test]
fn a_mouse_click_plays_the_cell() {
    let mut tui = two_humans();
    let (row, col) = tui.cell_centre(3);
    // SGR mouse report, 1-based: left button down, then up.
    tui.send(&format!(
        "\x1b[<0;{};{}M\x1b[<0;{};{}m",
        col + 1,
        row + 1,
        col + 1,
        row + 1
    ));
    tui.wait_board(".../.../..X");
}

#[test]
fn a_won_game_highlights_the_winning_line() {
    let mut tui = two_humans();
    tui.send("71829");
    tui.wait_text("X (Player 1) wins.");
    assert_eq!(tui.board(), "XXX/.../OO.");
    for digit in [7, 8, 9] {
        assert!(tui.cell_attrs(digit).0, "cell {digit} is highlighted");
    }
    for digit in [1, 2] {
        assert!(!tui.cell_attrs(digit).0, "cell {digit} is not");
    }
    assert!(
        tui.screen()
            .contains("Score: Player 1 1 · Player 2 0 · draws 0")
    );
}

#[test]
fn undo_returns_to_the_human_turn() {
    let mut tui = Tui::start(&["--delay", "0", "--seed", "2"]);
    tui.send("5");
    tui.wait_for("the AI's reply", |s| {
        read_board(s).matches('O').count() == 1
    });
    tui.send("u");
    tui.wait_text("Took back 2 moves");
    assert_eq!(tui.board(), ".../.../...");
}

#[test]
fn hint_shows_every_cell_value_until_the_next_key() {
    let mut tui = two_humans();
    tui.send("5");
    tui.wait_board(".../.X./...");
    tui.send("h");
    tui.wait_text("Hint for O");
    // After X's centre, O draws in a corner and loses on an edge: all eight empty cells say so.
    let centres: Vec<(u8, (u16, u16))> = [7, 9, 1, 3, 8, 4, 6, 2]
        .into_iter()
        .map(|d| (d, tui.cell_centre(d)))
        .collect();
    {
        let parser = tui.parser.lock().unwrap();
        let screen = parser.screen();
        for &(corner, (row, col)) in &centres[..4] {
            let cell = screen.cell(row, col).unwrap();
            assert_eq!(cell.contents(), "D", "corner {corner}");
            assert!(
                cell.bold() && cell.underline(),
                "corner {corner}: a best move stands out"
            );
        }
        for &(edge, (row, col)) in &centres[4..] {
            let label: String = (col - 1..=col)
                .map(|c| screen.cell(row, c).unwrap().contents())
                .collect();
            assert!(
                label.starts_with('L') && label[1..].parse::<u32>().is_ok(),
                "edge {edge}: {label:?}"
            );
            assert!(!screen.cell(row, col - 1).unwrap().bold(), "edge {edge}");
        }
    }
    let (row, col) = centres[0].1;
    tui.send("\x1b[A");
    tui.wait_for("digits back", |s| {
        s.cell(row, col).unwrap().contents() == "7"
    });
}

#[test]
fn hint_on_a_misere_board_marks_the_mirror_move_proven_at_least_a_draw() {
    let mut tui = Tui::start(&[
        "--size", "5", "--misere", "-o", "human", "--delay", "0", "--think", "200",
    ]);
    tui.send("h");
    tui.wait_text("D+ at least, D- at most a draw");
    // X's centre (c3, where the cursor starts) is the one first move proven not to lose.
    // Each label once more in the message line.
    let screen = tui.screen();
    assert_eq!(screen.matches("D+").count(), 2, "{screen}");
    assert_eq!(screen.matches("D-").count(), 1, "{screen}");
}

#[test]
fn new_round_alternates_the_first_player_and_keeps_score() {
    let mut tui = two_humans();
    tui.send("71829");
    tui.wait_text("X (Player 1) wins.");
    tui.send("n");
    tui.wait_text("round 2");
    assert!(
        tui.screen().contains("▸ X: Player 2   O: Player 1"),
        "{}",
        tui.screen()
    );
    assert_eq!(tui.board(), ".../.../...");
    // Player 2 now plays X and wins; the score follows the player.
    tui.send("71829");
    tui.wait_text("Score: Player 1 1 · Player 2 1 · draws 0");
    tui.send("\r");
    tui.wait_text("round 3");
    assert!(tui.screen().contains("▸ X: Player 1"));
}

#[test]
fn a_small_terminal_asks_for_room_and_the_game_resumes() {
    let mut tui = two_humans();
    tui.send("5");
    tui.wait_board(".../.X./...");
    tui.resize(24, 10);
    tui.wait_text("Need at least 30×14");
    tui.resize(COLS, ROWS);
    tui.wait_board(".../.X./...");
    tui.send("1");
    tui.wait_board(".../.X./O..");
}

/// How long the AIs took over their last move, timed from one board that `read` reads to the
/// next: a wait for a move that must not come is counted in it, so that a slow machine waits
/// longer (four of them, and at least half a second).
fn one_move(tui: &Tui, read: fn(&vt100::Screen) -> String) -> Duration {
    let before = read(&tui.parser.lock().unwrap().screen().clone());
    let start = Instant::now();
    tui.wait_for("the next move", |s| read(s) != before);
    (start.elapsed() * 4).max(Duration::from_millis(500))
}

#[test]
fn ai_against_ai_plays_itself_and_space_pauses() {
    let mut tui = Tui::start(&["-x", "hard", "-o", "hard", "--delay", "150", "--seed", "5"]);
    tui.wait_for("a first move", |s| read_board(s).contains('X'));
    let wait = one_move(&tui, read_board);
    tui.send(" ");
    tui.wait_text("(paused)");
    let frozen = tui.board();
    thread::sleep(wait);
    assert_eq!(tui.board(), frozen, "no move while paused");
    tui.send(" ");
    tui.wait_text("Draw.");
}

#[test]
fn keys_typed_during_the_ai_turn_wait_for_the_human() {
    // Against a corner opening the only reply that does not lose is the centre, so the AI's
    // move is known: X's 3, typed before it, is played right after it.
    let mut tui = Tui::start(&["--delay", "300"]);
    tui.send("7");
    tui.send("3");
    tui.wait_text("Wait for the AI: 3 will be played next");
    tui.wait_board("X../.O./..X");
    tui.wait_text("X to move (you)");
}

/// Plays a move, sends `keys` one write each (waiting for the question after the first
/// when `asks`), and checks the game exits with the terminal restored.
fn quits_cleanly(keys: &[&str], asks: bool) {
    let mut tui = two_humans();
    tui.send("5");
    tui.wait_board(".../.X./...");
    for (i, keys) in keys.iter().enumerate() {
        tui.send(keys);
        if i == 0 && asks {
            tui.wait_text("Leave this game? y/n");
        }
    }
    assert!(tui.wait_exit(), "exit status");
    tui.assert_restored();
}

#[test]
fn q_asks_mid_game_then_a_second_q_quits_and_restores_the_terminal() {
    quits_cleanly(&["q", "q"], true);
}

#[test]
fn ctrl_c_quits_at_once_and_restores_the_terminal() {
    quits_cleanly(&["\x03"], false);
}

#[test]
fn escape_asks_mid_game_then_y_quits_and_restores_the_terminal() {
    quits_cleanly(&["\x1b", "y"], true);
}

#[test]
fn a_second_escape_or_another_key_keeps_the_game() {
    let mut tui = two_humans();
    tui.send("5");
    tui.wait_board(".../.X./...");
    tui.send("\x1b");
    tui.wait_text("Leave this game? y/n");
    tui.wait_text("y leave · any other key keeps playing");
    tui.send("\x1b");
    tui.wait_text("Still playing. O to move (Player 2)");
    tui.send("q");
    tui.wait_text("Leave this game? y/n");
    tui.send("1");
    tui.wait_text("Still playing.");
    assert_eq!(tui.board(), ".../.X./...", "the answer did not play");
    assert!(tui.child.try_wait().unwrap().is_none(), "still running");
    tui.send("1");
    tui.wait_board(".../.X./O..");
}

#[test]
fn n_mid_game_asks_and_only_y_starts_a_new_round() {
    let mut tui = two_humans();
    tui.send("5");
    tui.wait_board(".../.X./...");
    tui.send("n");
    tui.wait_text("Leave this game for a new round? y/n");
    tui.send("n");
    tui.wait_text("Still playing.");
    assert!(tui.screen().contains("round 1"));
    tui.send("n");
    tui.wait_text("Leave this game for a new round? y/n");
    tui.send("y");
    tui.wait_text("round 2");
    assert_eq!(tui.board(), ".../.../...");
}

#[test]
fn undo_after_the_end_is_refused_and_the_result_stays_in_the_score() {
    let mut tui = two_humans();
    tui.send("71829");
    tui.wait_text("Score: Player 1 1 · Player 2 0 · draws 0");
    tui.send("u");
    tui.wait_text("The game is over and its result counts: no undo");
    assert!(
        tui.screen()
            .contains("Score: Player 1 1 · Player 2 0 · draws 0")
    );
    assert_eq!(tui.board(), "XXX/.../OO.");
    // Over, the game is left by one key.
    tui.send("q");
    assert!(tui.wait_exit());
}

fn signal_restores(signal: Signal) {
    let mut tui = two_humans();
    tui.send("5");
    tui.wait_board(".../.X./...");
    kill(tui.pid(), signal).unwrap();
    tui.wait_exit();
    tui.assert_restored();
}

#[test]
fn sigterm_restores_the_terminal() {
    signal_restores(Signal::SIGTERM);
}

#[test]
fn sighup_restores_the_terminal() {
    signal_restores(Signal::SIGHUP);
}

#[test]
fn sigint_restores_the_terminal() {
    signal_restores(Signal::SIGINT);
}

#[test]
fn every_other_ending_signal_restores_the_terminal() {
    for signal in [
        Signal::SIGQUIT,
        Signal::SIGUSR1,
        Signal::SIGUSR2,
        Signal::SIGALRM,
        Signal::SIGPIPE,
    ] {
        eprintln!("{signal}");
        signal_restores(signal);
    }
}

#[test]
fn a_paste_of_four_kib_then_q_quits_within_a_second() {
    // The reader must take in every byte the terminal holds, not just the first kibibyte, or
    // the `q` behind them waits for a key that never comes.
    let mut tui = two_humans();
    let mut keys = "x".repeat(4096);
    keys.push('q');
    tui.send(&keys);
    let start = Instant::now();
    while tui.child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(1),
            "still running a second after the paste; screen:\n{}",
            tui.screen()
        );
        thread::sleep(Duration::from_millis(2));
    }
    eprintln!("4 KiB then q: exited after {:?}", start.elapsed());
    thread::sleep(Duration::from_millis(50));
    tui.assert_restored();
}

#[test]
fn a_panic_restores_the_terminal() {
    let mut tui = Tui::start_with(
        &["-o", "human", "--delay", "0"],
        &[("TICTACTOE_TEST_PANIC", "1")],
    );
    tui.send("!");
    assert!(!tui.wait_exit(), "a panic fails the process");
    tui.assert_restored();
}

#[test]
fn no_color_still_marks_the_last_move_and_the_winning_line() {
    let mut tui = Tui::start(&["-o", "human", "--delay", "0", "--no-color"]);
    tui.send("7182");
    tui.wait_board("XX./.../OO.");
    assert_eq!(tui.cell_attrs(2), (false, true), "the last move is bold");
    assert_eq!(tui.cell_attrs(7), (false, false), "earlier moves are not");
    tui.send("9");
    tui.wait_text("wins.");
    assert!(tui.cell_attrs(9).0, "the winning line is reversed");
    let parser = tui.parser.lock().unwrap();
    let screen = parser.screen();
    let (rows, cols) = screen.size();
    for r in 0..rows {
        for c in 0..cols {
            assert_eq!(
                screen.cell(r, c).unwrap().fgcolor(),
                vt100::Color::Default,
                "({r}, {c})"
            );
        }
    }
}

#[test]
fn a_move_redraws_only_what_changed() {
    let mut tui = two_humans();
    let full = tui.bytes();
    tui.send("5");
    tui.wait_board(".../.X./...");
    thread::sleep(Duration::from_millis(100));
    let before = tui.bytes();
    tui.send("1");
    tui.wait_board(".../.X./O..");
    thread::sleep(Duration::from_millis(100));
    let one_move = tui.bytes() - before;
    eprintln!("first frame: {full} bytes; one move's redraw: {one_move} bytes");
    assert!(
        one_move * 3 < full,
        "a move sends {one_move} bytes, the first frame {full}"
    );
}

#[test]
fn idle_game_uses_almost_no_cpu() {
    let tui = two_humans();
    let ticks = |pid: Pid| -> u64 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .unwrap()
            .1
            .split_whitespace()
            .collect();
        fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
    };
    let before = ticks(tui.pid());
    thread::sleep(Duration::from_secs(2));
    let used = ticks(tui.pid()) - before;
    eprintln!("CPU while idle for 2 s: {used} clock ticks (1 tick = 10 ms)");
    assert!(used <= 2, "{used} ticks of CPU in 2 s of idling");
}

/// The marks of an N×N board drawn with one-row cells, read off the screen, top row first.
fn read_small_board(screen: &vt100::Screen, n: u16, cell_w: u16) -> String {
    let (rows, cols) = screen.size();
    let is = |r: u16, c: u16, s: &str| screen.cell(r, c).is_some_and(|cell| cell.contents() == s);
    let Some((top, left)) = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .find(|&(r, c)| is(r, c, "┌") && is(r, c + cell_w + 1, "┬"))
    else {
        return "no board".into();
    };
    (0..n)
        .map(|row| {
            (0..n)
                .map(|col| {
                    let (r, c) = (
                        top + 1 + row * 2,
                        left + 1 + col * (cell_w + 1) + cell_w / 2,
                    );
                    match screen.cell(r, c).map(vt100::Cell::contents) {
                        Some("X") => 'X',
                        Some("O") => 'O',
                        _ => '.',
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn a_five_by_five_board_plays_with_arrows_and_the_mouse() {
    let mut tui = Tui::start(&["--size", "5", "-o", "human", "--delay", "0"]);
    let screen = tui.screen();
    assert!(
        screen.contains("a     b     c     d     e"),
        "column letters:\n{screen}"
    );
    // From the centre c3: up and left to b4, then Enter.
    tui.send("\x1b[A\x1b[D\r");
    tui.wait_for("X on b4", |s| {
        read_small_board(s, 5, 5) == "...../.X.../...../...../....."
    });
    // A click on d2's cell (the fourth row of cells from the top, fourth column).
    let (top, left) = {
        let parser = tui.parser.lock().unwrap();
        let s = parser.screen();
        let (rows, cols) = s.size();
        (0..rows)
            .flat_map(|r| (0..cols).map(move |c| (r, c)))
            .find(|&(r, c)| {
                s.cell(r, c).is_some_and(|x| x.contents() == "┌")
                    && s.cell(r, c + 6).is_some_and(|x| x.contents() == "┬")
            })
            .unwrap()
    };
    let (row, col) = (top + 1 + 3 * 2, left + 1 + 3 * 6 + 2);
    tui.send(&format!(
        "\x1b[<0;{};{}M\x1b[<0;{};{}m",
        col + 1,
        row + 1,
        col + 1,
        row + 1
    ));
    tui.wait_for("O on d2", |s| {
        read_small_board(s, 5, 5) == "...../.X.../...../...O./....."
    });
    tui.send("5");
    tui.wait_text("Digits name cells on 3×3 only: type a coordinate (c3) or use the arrows");
}

#[test]
fn a_coordinate_typed_on_a_big_board_shows_as_typed_and_its_row_plays() {
    let mut tui = Tui::start(&["--size", "5", "-o", "human", "--delay", "0"]);
    tui.send("d");
    tui.wait_text("Typed d… now the row, 1-5 (Esc cancels)");
    tui.send("2");
    tui.wait_for("X on d2", |s| {
        read_small_board(s, 5, 5) == "...../...../...../...X./....."
    });
    // Esc cancels a column letter without asking anything.
    tui.send("a");
    tui.wait_text("Typed a…");
    tui.send("\x1b");
    tui.wait_text("Coordinate cancelled. O to move (Player 2)");
    // A column off the board and a taken cell only change the message line.
    tui.send("f");
    tui.wait_text("There is no column f here: columns are a to e");
    tui.send("d2");
    tui.wait_text("is taken");
    tui.send("B5");
    tui.wait_for("O on b5", |s| {
        read_small_board(s, 5, 5) == ".O.../...../...../...X./....."
    });
}

#[test]
fn closing_the_terminal_ends_the_game() {
    let mut tui = two_humans();
    tui.send("5");
    tui.wait_board(".../.X./...");
    // Like closing the window: the terminal hangs up and its input reads as end-of-file.
    tui.open.store(false, Ordering::SeqCst);
    tui.writer = None;
    tui.master = None;
    let start = Instant::now();
    while tui.child.try_wait().unwrap().is_none() {
        assert!(
            start.elapsed() < TIMEOUT,
            "the game kept running with its terminal closed"
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// A 7×7 game in which the AI, playing O, has been thinking for over a second about its reply
/// to X's centre (with four in a row, a position it takes many seconds to solve).
fn ai_thinking_on_seven_by_seven() -> Tui {
    let mut tui = Tui::start(&["--size", "7", "--k", "4", "--think", "8000", "--delay", "0"]);
    tui.send("\r");
    tui.wait_for("the thinking line with seconds", |s| {
        s.contents()
            .lines()
            .any(|l| l.contains("O (level 7 AI) is thinking…") && l.trim_end().ends_with(" s"))
    });
    tui
}

fn wait_exit_timed(tui: &mut Tui) -> Duration {
    let start = Instant::now();
    while tui.child.try_wait().unwrap().is_none() {
        assert!(start.elapsed() < TIMEOUT, "the game did not exit");
        thread::sleep(Duration::from_millis(2));
    }
    start.elapsed()
}

#[test]
fn quitting_keys_work_at_once_while_the_ai_thinks() {
    for (keys, answer) in [("q", Some("q")), ("\x1b", Some("y")), ("\x03", None)] {
        let mut tui = ai_thinking_on_seven_by_seven();
        tui.send(keys);
        if let Some(answer) = answer {
            tui.wait_text("Leave? It counts as a loss. y/n");
            tui.send(answer);
        }
        let took = wait_exit_timed(&mut tui);
        eprintln!("{keys:?} while the AI thinks: exited after {took:?}");
        assert!(
            took < Duration::from_secs(1),
            "{keys:?} took {took:?} to quit"
        );
        thread::sleep(Duration::from_millis(50));
        tui.assert_restored();
    }
}

#[test]
fn undo_while_the_ai_thinks_returns_to_the_human_turn() {
    let mut tui = ai_thinking_on_seven_by_seven();
    tui.send("u");
    tui.wait_text("Took back 1 move. X to move (you)");
    assert!(!tui.screen().contains("is thinking"));
    // The game goes on: the next move has the AI thinking again.
    tui.send("\r");
    tui.wait_text("O (level 7 AI) is thinking…");
}

#[test]
fn help_and_a_new_round_while_the_ai_thinks() {
    let mut tui = ai_thinking_on_seven_by_seven();
    tui.send("?");
    tui.wait_text("any other key closes");
    tui.send(" ");
    tui.wait_for("the help closed", |s| {
        !s.contents().contains("any other key closes")
    });
    tui.send("n");
    tui.wait_text("New round? This counts as a loss. y/n");
    tui.send("y");
    tui.wait_text("Round 2: level 7 AI moves first. X (level 7 AI) is thinking…");
}

#[test]
fn the_review_steps_through_a_finished_game() {
    let mut tui = two_humans();
    tui.send("r");
    tui.wait_text("The review opens once the game is over");
    // X's 1 (move 5) loses: 3 was needed to block O's column.
    tui.send("594613");
    tui.wait_text("O (Player 2) wins.");
    tui.send("r");
    tui.wait_text("Move 1 of 6: 1. X 5 best draw → draw");
    assert_eq!(tui.board(), ".../.X./...", "the position before move 1");
    tui.send("\x1b[C\x1b[C\x1b[C\x1b[C");
    tui.wait_text("Move 5 of 6: 5. X 1 blunder draw → loss in 2; best 3");
    // The position before move 5, with the move played drawn reversed and the best marked.
    assert_eq!(tui.board(), "..O/XXO/X..");
    assert!(tui.cell_attrs(1).0, "the move played stands out");
    let (row, col) = tui.cell_centre(3);
    {
        let parser = tui.parser.lock().unwrap();
        let best: String = (col - 2..col + 2)
            .map(|c| parser.screen().cell(row, c).unwrap().contents())
            .collect();
        assert_eq!(best, "best");
    }
    tui.send("\x1b[D");
    tui.wait_text("Move 4 of 6: 4. O 6 best");
    tui.send("\x1b");
    tui.wait_text("O (Player 2) wins. n, Enter or Space: new round");
    assert_eq!(tui.board(), "..O/XXO/X.O");
    tui.send("q");
    assert!(tui.wait_exit());
    tui.wait_text("Record: 5 9 4 6 1 3");
    assert!(
        tui.screen()
            .contains("Score: Player 1 0 · Player 2 1 · draws 0")
    );
}

#[test]
fn two_terminals_play_over_the_network_and_rematch() {
    let host = Tui::start(&["host", "--bind", "127.0.0.1", "--port", "0"]);
    host.wait_text("Waiting for a player");
    let screen = host.screen();
    let join: Vec<&str> = screen
        .split("Join with: tictactoe ")
        .nth(1)
        .expect("the join line")
        .split_whitespace()
        .take(4)
        .collect();
    assert_eq!((join[0], join[2]), ("join", "--code"), "{screen}");
    let mut host = host;
    let mut joiner = Tui::start(&join);
    host.wait_text("joined. X to move (you)");
    joiner.wait_text("Waiting for X (127.0.0.1)…");
    host.send("5");
    joiner.wait_board(".../.X./...");
    joiner.wait_text("X (127.0.0.1) played 5. O to move (you)");
    joiner.send("9");
    host.wait_board("..O/.X./...");
    host.send("4");
    joiner.wait_board("..O/XX./...");
    joiner.send("1");
    host.wait_board("..O/XX./O..");
    host.send("6");
    joiner.wait_text("X (127.0.0.1) wins. n: ask for a rematch");
    host.wait_text("You win!");
    host.send("n");
    joiner.wait_text("X asks for a rematch: n accepts");
    joiner.send("n");
    // Round 2: the player who joined moves first.
    joiner.wait_text("Round 2: you move first. X to move (you)");
    host.wait_text("Round 2: 127.0.0.1 moves first.");
    joiner.send("q");
    assert!(joiner.wait_exit());
    joiner.assert_restored();
    host.wait_text("X left the game. q quits");
    host.send("q");
    assert!(host.wait_exit());
    host.wait_text("Record:");
    assert!(!host.screen().contains("Join with"), "{}", host.screen());
    assert!(
        !joiner.screen().contains("Connecting to"),
        "{}",
        joiner.screen()
    );
}

#[cfg(feature = "online")]
mod relay;

/// The ticket in a host's wrapped join line: the rows after `tictactoe join` that are all
/// ticket characters, put back together.
#[cfg(feature = "online")]
fn ticket_on(screen: &str) -> String {
    screen
        .split("tictactoe join")
        .nth(1)
        .expect("the join line")
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty() && l.chars().all(|c| matches!(c, 'a'..='z' | '2'..='7')))
        .collect()
}

#[test]
#[cfg(feature = "online")]
fn two_terminals_play_online_through_the_relay_with_keys() {
    let relay = relay::LocalRelay::start();
    let only = [(tictactoe::net::online::RELAY_ONLY, "1")];
    let host = Tui::start_with(&["host", "--online", "--relay", &relay.url], &only);
    host.wait_text("Waiting for a player");
    let ticket = ticket_on(&host.screen());
    let mut host = host;
    let mut joiner = Tui::start_with(&["join", &ticket], &only);
    host.wait_text("relayed, round trip");
    host.wait_text("joined. X to move (you)");
    joiner.wait_text("Connected: relayed, round trip");
    host.send("5");
    joiner.wait_board(".../.X./...");
    joiner.send("9");
    host.wait_board("..O/.X./...");
    host.send("4");
    joiner.wait_board("..O/XX./...");
    joiner.send("1");
    host.wait_board("..O/XX./O..");
    // Each status line tells how the two are connected, beside the other player's name.
    for tui in [&host, &joiner] {
        tui.wait_for("the path on the status line", |s| {
            s.contents()
                .lines()
                .any(|l| l.contains(": you") && l.contains(" (relayed, round trip "))
        });
    }
    host.send("6");
    joiner.wait_text("wins. n: ask for a rematch");
    host.wait_text("You win!");
    joiner.send("q");
    assert!(joiner.wait_exit());
    joiner.assert_restored();
    host.wait_text("O left the game. q quits");
    host.send("q");
    assert!(host.wait_exit());
}

/// Row and column of the Ultimate grid's top-left corner, and the width of its cells, found
/// from the first row of cells: four heavy `┃` lines a small board apart. (The corners of the
/// boards a player may play in are marked, so they are no landmark.)
fn ultimate_corner(screen: &vt100::Screen) -> Option<(u16, u16, u16)> {
    let (rows, cols) = screen.size();
    (1..rows).find_map(|r| {
        let heavy: Vec<u16> = (0..cols)
            .filter(|&c| screen.cell(r, c).is_some_and(|cell| cell.contents() == "┃"))
            .collect();
        match heavy[..] {
            [left, second, _, _] => Some((r - 1, left, (second - left - 3) / 3)),
            _ => None,
        }
    })
}

/// Screen row and column of the middle of Ultimate cell `cell` of board `board`.
fn ultimate_cell(screen: &vt100::Screen, board: u8, cell: u8) -> Option<(u16, u16)> {
    let (top, left, cell_w) = ultimate_corner(screen)?;
    let (b, c) = (u16::from(board - 1), u16::from(cell - 1));
    // Columns from the left and rows from the top of the 9×9 grid.
    let col = (b % 3) * 3 + c % 3;
    let from_top = (2 - b / 3) * 3 + (2 - c / 3);
    let board_w = 3 * cell_w + 2;
    Some((
        top + 1 + (from_top / 3) * 4 + from_top % 3,
        left + 1 + (col / 3) * (board_w + 1) + (col % 3) * (cell_w + 1) + cell_w / 2,
    ))
}

/// The marks of the Ultimate grid read off the screen, nine rows from the top as in the
/// position notation (`........./....X..../…`).
fn read_ultimate(screen: &vt100::Screen) -> String {
    if ultimate_corner(screen).is_none() {
        return "no grid".into();
    }
    (0..9u8)
        .map(|from_top| {
            (0..9u8)
                .map(|col| {
                    let board = (2 - from_top / 3) * 3 + col / 3 + 1;
                    let cell = (2 - from_top % 3) * 3 + col % 3 + 1;
                    let (r, c) = ultimate_cell(screen, board, cell).expect("a grid");
                    match screen.cell(r, c).map(vt100::Cell::contents) {
                        Some("X") => 'X',
                        Some("O") => 'O',
                        _ => '.',
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// An Ultimate grid in notation with `marks` at the given board-then-cell moves.
fn ultimate_with(marks: &[(&str, char)]) -> String {
    let mut rows = vec![vec!['.'; 9]; 9];
    for &(mv, mark) in marks {
        let d: Vec<u16> = mv.bytes().map(|b| u16::from(b - b'0')).collect();
        let (b, c) = (d[0] - 1, d[1] - 1);
        let col = (b % 3) * 3 + c % 3;
        let from_top = (2 - b / 3) * 3 + (2 - c / 3);
        rows[usize::from(from_top)][usize::from(col)] = mark;
    }
    rows.iter()
        .map(|r| r.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join("/")
}

impl Tui {
    fn ultimate(&self) -> String {
        read_ultimate(self.parser.lock().unwrap().screen())
    }

    fn wait_ultimate(&self, marks: &[(&str, char)]) {
        let want = ultimate_with(marks);
        self.wait_for(&format!("grid {want}"), |s| read_ultimate(s) == want);
    }

    /// Clicks (left button down and up) the middle of Ultimate cell `cell` of board `board`.
    fn click_ultimate(&mut self, board: u8, cell: u8) {
        let (row, col) = {
            let parser = self.parser.lock().unwrap();
            ultimate_cell(parser.screen(), board, cell).expect("a grid on screen")
        };
        self.send(&format!(
            "\x1b[<0;{};{}M\x1b[<0;{};{}m",
            col + 1,
            row + 1,
            col + 1,
            row + 1
        ));
    }
}

/// Waits for the first frame and asserts it is drawn in ASCII alone, with the board's lines.
fn drawn_in_ascii(tui: &Tui, board_line: &str) {
    tui.wait_text(board_line);
    let screen = tui.screen();
    assert!(screen.is_ascii(), "only ASCII on screen:\n{screen}");
}

#[test]
fn ascii_draws_the_board_and_its_chrome_with_ascii_only() {
    let tui = Tui::start(&["-o", "human", "--delay", "0", "--ascii"]);
    drawn_in_ascii(&tui, "+-------+-------+-------+");
}

#[test]
fn a_locale_that_is_not_utf8_draws_with_ascii_by_itself() {
    let tui = Tui::start_with(
        &["--ultimate", "-o", "human", "--delay", "0"],
        &[("LANG", "C")],
    );
    drawn_in_ascii(&tui, "+=================+");
}

fn two_humans_ultimate() -> Tui {
    Tui::start(&["--ultimate", "-o", "human", "--delay", "0"])
}

#[test]
fn ultimate_shows_the_nine_by_nine_grid_and_x_may_play_anywhere() {
    let tui = two_humans_ultimate();
    // The whole first frame: its last lines may come after the first.
    tui.wait_text("q quit");
    let screen = tui.screen();
    for text in [
        "Ultimate tic-tac-toe · round 1",
        "X to move anywhere (Player 1)",
        "a     b     c     d     e     f     g     h     i",
    ] {
        assert!(screen.contains(text), "{text:?} missing:\n{screen}");
    }
    assert_eq!(tui.ultimate(), ultimate_with(&[]));
    // Nine rows of cells numbered 9 down to 1 on the left, between heavy lines.
    let rows: Vec<&str> = screen.lines().filter(|l| l.contains('┃')).collect();
    assert_eq!(rows.len(), 9, "{screen}");
    for (row, label) in rows.iter().zip(('1'..='9').rev()) {
        assert_eq!(row.trim_start().chars().next(), Some(label), "{screen}");
        assert_eq!(row.matches('┃').count(), 4, "{row}");
        assert_eq!(row.matches('│').count(), 6, "{row}");
    }
    assert_eq!(screen.matches('╋').count(), 4, "heavy lines between boards");
    let parser = tui.parser.lock().unwrap();
    assert!(parser.screen().alternate_screen());
}

#[test]
fn ultimate_two_digits_play_and_send_the_opponent_to_a_board() {
    let mut tui = two_humans_ultimate();
    tui.send("5");
    tui.wait_text("Board 5: now the cell");
    assert_eq!(tui.ultimate(), ultimate_with(&[]), "nothing played yet");
    tui.send("3");
    tui.wait_ultimate(&[("53", 'X')]);
    tui.wait_text("X (Player 1) played 53. O to move on board 3 (Player 2)");
    // Sent to board 3, one digit is the cell.
    tui.send("1");
    tui.wait_ultimate(&[("53", 'X'), ("31", 'O')]);
    tui.wait_text("O (Player 2) played 31. X to move on board 1 (Player 1)");
    // Undo sends O back to board 3.
    tui.send("u");
    tui.wait_ultimate(&[("53", 'X')]);
    tui.wait_text("O to move on board 3 (Player 2)");
    tui.send("1");
    tui.wait_ultimate(&[("53", 'X'), ("31", 'O')]);
    tui.send("3");
    tui.wait_ultimate(&[("53", 'X'), ("31", 'O'), ("13", 'X')]);
    tui.wait_text("O to move on board 3 (Player 2)");
    // Back on board 3, O's 1 is taken: refused, and nothing changes.
    tui.send("1");
    tui.wait_text("Cell 1 of board 3 is taken");
    assert_eq!(
        tui.ultimate(),
        ultimate_with(&[("53", 'X'), ("31", 'O'), ("13", 'X')])
    );
    tui.send("2");
    tui.wait_ultimate(&[("53", 'X'), ("31", 'O'), ("13", 'X'), ("32", 'O')]);
}

#[test]
fn ultimate_escape_after_a_first_digit_cancels_the_board_not_the_game() {
    let mut tui = two_humans_ultimate();
    tui.send("5");
    tui.wait_text("Board 5: now the cell");
    tui.send("\x1b");
    tui.wait_text("Board choice cancelled. X to move anywhere (Player 1)");
    assert!(tui.child.try_wait().unwrap().is_none(), "still running");
    // The next digit chooses a board again, and the one after it the cell.
    tui.send("7");
    tui.wait_text("Board 7: now the cell");
    tui.send("\x7f"); // Backspace
    tui.wait_text("Board choice cancelled.");
    tui.send("9");
    tui.wait_text("Board 9: now the cell");
    tui.send("1");
    tui.wait_ultimate(&[("91", 'X')]);
    tui.wait_text("O to move on board 1 (Player 2)");
    // Sent to a board, Esc has no board choice to cancel: it asks before leaving.
    tui.send("\x1b");
    tui.wait_text("Leave this game? y/n");
    tui.send("y");
    assert!(tui.wait_exit(), "exit status");
    tui.assert_restored();
}

#[test]
fn ultimate_arrows_and_enter_play_a_cell_and_the_cursor_follows() {
    let mut tui = two_humans_ultimate();
    // The cursor starts on the centre cell of the centre board: up is cell 8 of board 5.
    tui.send("\x1b[A");
    tui.send("\r");
    tui.wait_ultimate(&[("58", 'X')]);
    tui.wait_text("O to move on board 8 (Player 2)");
    // The cursor moved to the centre of board 8: left is its cell 4; Space plays too.
    tui.send("\x1b[D");
    tui.send(" ");
    tui.wait_ultimate(&[("58", 'X'), ("84", 'O')]);
    tui.wait_text("X to move on board 4 (Player 1)");
    // Down three times leaves board 4 for board 1: a move there is refused.
    tui.send("\x1b[B\x1b[B\x1b[B\r");
    tui.wait_text("ent to board 4, not board 1");
    assert_eq!(tui.ultimate(), ultimate_with(&[("58", 'X'), ("84", 'O')]));
}

#[test]
fn ultimate_a_mouse_click_plays_the_cell_it_hits() {
    let mut tui = two_humans_ultimate();
    tui.click_ultimate(7, 9);
    tui.wait_ultimate(&[("79", 'X')]);
    tui.wait_text("O to move on board 9 (Player 2)");
    // A click outside the board O is sent to is refused.
    tui.click_ultimate(1, 1);
    tui.wait_text("ent to board 9, not board 1");
    assert_eq!(tui.ultimate(), ultimate_with(&[("79", 'X')]));
    tui.click_ultimate(9, 3);
    tui.wait_ultimate(&[("79", 'X'), ("93", 'O')]);
    tui.wait_text("X to move on board 3 (Player 1)");
}

#[test]
fn ultimate_a_small_terminal_asks_for_room_and_the_game_resumes() {
    let mut tui = two_humans_ultimate();
    tui.send("53");
    tui.wait_ultimate(&[("53", 'X')]);
    tui.resize(40, 21);
    tui.wait_text("Need at least 41×21");
    tui.resize(41, 20);
    tui.wait_for("the message at 41×20", |s| {
        s.contents().contains("Need at least 41×21") && read_ultimate(s) == "no grid"
    });
    // The smallest terminal that fits shows the grid with narrower cells, and clicks on them
    // play.
    tui.resize(41, 21);
    tui.wait_ultimate(&[("53", 'X')]);
    tui.click_ultimate(3, 2);
    tui.wait_ultimate(&[("53", 'X'), ("32", 'O')]);
    tui.resize(COLS, ROWS);
    tui.wait_ultimate(&[("53", 'X'), ("32", 'O')]);
    tui.wait_text("X to move on board 2 (Player 1)");
}

#[test]
fn ultimate_q_quits_and_restores_the_terminal() {
    let mut tui = two_humans_ultimate();
    tui.send("53");
    tui.wait_ultimate(&[("53", 'X')]);
    tui.send("q");
    tui.wait_text("Leave this game? y/n");
    tui.send("q");
    assert!(tui.wait_exit(), "exit status");
    tui.assert_restored();
    tui.wait_text("Record: --ultimate 53");
}

#[test]
fn ultimate_the_status_line_tells_the_truth_about_a_board_choice_after_an_arrow() {
    let mut tui = two_humans_ultimate();
    tui.send("5");
    tui.wait_text("Board 5: now the cell, 1-9");
    // Up: the cursor moves from e5 to e6, still on board 5.
    tui.send("\x1b[A");
    tui.wait_for("the cursor on e6", |s| {
        let (_, _, cell_w) = ultimate_corner(s).expect("a grid");
        let (row, col) = ultimate_cell(s, 5, 8).expect("a grid");
        s.cell(row, col - cell_w / 2)
            .is_some_and(|c| c.contents() == "[")
    });
    let says_board_5 = tui.screen().contains("Board 5: now the cell");
    tui.send("3");
    if says_board_5 {
        // As the status line says, 3 is the cell of board 5.
        tui.wait_ultimate(&[("53", 'X')]);
    } else {
        tui.wait_text("Board 3: now the cell");
    }
}

#[test]
fn ultimate_a_whole_move_typed_while_the_ai_thinks_waits_for_its_turn() {
    let mut tui = Tui::start(&["--ultimate", "--think", "1500", "--delay", "0"]);
    tui.send("55");
    tui.wait_text("O (level 7 AI) is thinking");
    // Board then cell, in one go: the move waits for X's turn.
    tui.send("91");
    tui.wait_text("Wait for the AI: 91 will be played next");
    assert_eq!(tui.ultimate(), ultimate_with(&[("55", 'X')]));
    // Once O has moved, 91 is played if O sent X to board 9 (or anywhere), and refused with
    // the reason if not; either way the board holds exactly what was legal.
    tui.wait_for("91 played or refused", |s| {
        let grid = read_ultimate(s);
        let o_moved = grid.matches('O').count() == 1;
        o_moved
            && (grid.matches('X').count() == 2 || s.contents().contains("You were sent to board"))
    });
    let grid = tui.ultimate();
    if grid.matches('X').count() == 2 {
        let at_91 = ultimate_with(&[("91", 'X')]).find('X').unwrap();
        assert_eq!(grid.as_bytes()[at_91], b'X', "{grid}");
    } else {
        assert!(tui.screen().contains("not board 9"), "{}", tui.screen());
    }
}

#[test]
fn a_game_starts_from_the_given_moves_and_undo_stops_there() {
    let mut tui = Tui::start(&["-o", "human", "--delay", "0", "--from", "5", "1", "9"]);
    assert_eq!(tui.board(), "..X/.X./O..");
    tui.wait_text("O to move (Player 2)");
    tui.send("3");
    tui.wait_board("..X/.X./O.O");
    tui.send("u");
    tui.wait_board("..X/.X./O..");
    tui.send("u");
    tui.wait_text("othing to undo");
    assert_eq!(tui.board(), "..X/.X./O..");
}

#[test]
fn ultimate_starts_from_the_given_moves() {
    let tui = Tui::start(&[
        "--ultimate",
        "-o",
        "human",
        "--delay",
        "0",
        "--from",
        "55",
        "51",
    ]);
    tui.wait_for("both marks", |s| {
        read_ultimate(s) == ultimate_with(&[("55", 'X'), ("51", 'O')])
    });
}

/// The start screen, opened with no flags in a profile of its own (the menu remembers).
fn menu(name: &str) -> Tui {
    let home = format!("{}/menu-{name}", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_dir_all(&home);
    let tui = Tui::start_with(&[], &[("TICTACTOE_HOME", &home)]);
    tui.wait_text("Your games");
    tui
}

/// What reading the profile warns of is on the start screen, not only printed once the
/// full-screen program has ended: a damaged settings file and a damaged line of the history.
#[test]
fn the_start_screen_shows_the_warnings_of_reading_a_damaged_profile() {
    let home = format!("{}/menu-damaged", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(format!("{home}/settings.toml"), "delay = [\n").unwrap();
    std::fs::write(format!("{home}/history.jsonl"), "{not a game\n").unwrap();
    let mut tui = Tui::start_with(&[], &[("TICTACTOE_HOME", &home)]);
    tui.wait_text("Your games");
    tui.wait_text("settings.toml is damaged");
    tui.wait_text("skipped 1 damaged line");
    tui.send("q");
    tui.send("y");
    tui.wait_exit();
}

#[test]
fn a_fifo_for_the_start_screens_choices_is_passed_over_and_q_quits() {
    let home = format!("{}/menu-fifo", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let fifo = format!("{home}/menu.json");
    nix::unistd::mkfifo(fifo.as_str(), nix::sys::stat::Mode::S_IRWXU).unwrap();
    let mut tui = Tui::start_with(&[], &[("TICTACTOE_HOME", &home)]);
    tui.wait_text("1  Play the AI");
    tui.send("q");
    assert!(tui.wait_exit(), "exit status");
    tui.assert_restored();
}

#[test]
fn no_flags_open_the_start_screen() {
    let tui = menu("open");
    let screen = tui.screen();
    for text in [
        "1  Play the AI",
        "◂ hard ▸",
        "2  Two players here",
        "3  Host a network game",
        "4  Join a network game",
        "5  Game",
        "6  Board size",
        "9  Your games",
        "0  Quit",
        "q quit",
    ] {
        assert!(screen.contains(text), "{text:?} missing:\n{screen}");
    }
}

#[test]
fn a_game_from_the_start_screen_returns_to_it_and_the_choice_is_remembered() {
    let mut tui = menu("enter");
    tui.send("2");
    tui.send("\r");
    tui.wait_text("X to move (Player 1)");
    assert_eq!(tui.board(), ".../.../...");
    tui.send("q");
    tui.wait_text("Your games");
    // Back home, a second game, finished, and q leaves it for home again.
    tui.send("\r");
    tui.wait_text("X to move (Player 1)");
    for key in ["7", "1", "8", "2", "9"] {
        tui.send(key);
    }
    tui.wait_text("X (Player 1) wins");
    tui.send("q");
    tui.wait_text("Your games");
    tui.send("q");
    assert!(tui.wait_exit());
    tui.assert_restored();
    let saved = std::fs::read_to_string(format!(
        "{}/menu-enter/menu.json",
        env!("CARGO_TARGET_TMPDIR")
    ))
    .expect("the choices are kept");
    assert!(saved.contains("\"row\": 1"), "{saved}");
}

#[test]
fn arrows_change_the_rules_before_the_game_starts() {
    let mut tui = menu("rules");
    // Down to the board size, one step up (4×4), then up to two players.
    tui.send("6");
    tui.send("\x1b[C");
    tui.wait_text("◂ 4×4 ▸");
    tui.send("2");
    tui.send("\r");
    tui.wait_text("X to move (Player 1)");
    let screen = tui.screen();
    assert!(screen.contains("4×4"), "{screen}");
}

#[test]
fn gomoku_on_the_start_screen_offers_its_board_sizes_and_exactly_five() {
    let mut tui = menu("gomoku-rows");
    tui.send("5");
    tui.send("\x1b[C");
    tui.send("\x1b[C");
    tui.wait_text("◂ Gomoku ▸");
    let screen = tui.screen();
    for text in ["◂ 15×15 ▸", "Exactly 5"] {
        assert!(screen.contains(text), "{text:?} missing:\n{screen}");
    }
    for text in ["3×3", "Misère"] {
        assert!(!screen.contains(text), "{text:?} shown:\n{screen}");
    }
    tui.send("6");
    tui.send("\x1b[D");
    tui.wait_text("◂ 14×14 ▸");
    tui.send("2");
    tui.send("\r");
    tui.wait_text("X to move (Player 1)");
    let screen = tui.screen();
    assert!(screen.contains("14×14"), "{screen}");
}

#[test]
fn question_mark_shows_the_rules_on_the_start_screen_and_in_the_game_after_the_first_lesson() {
    let mut tui = menu("rules-page");
    tui.send("?");
    tui.wait_text("3×3, 3 in a row");
    assert!(tui.screen().contains("keypad"), "{}", tui.screen());
    tui.send(" ");
    tui.wait_text("1  Play the AI");
    // Ultimate on, then a game: ? the keys, ? again the rules, any key back to the game.
    tui.send("5");
    tui.send("\x1b[C");
    tui.wait_text("5  Game                ◂ Ultimate ▸");
    tui.send("2");
    tui.send("\r");
    // A first Ultimate game opens with its lesson: any key turns a page, Esc skips the rest.
    tui.wait_text("Lesson 1 of 3: where you are sent");
    tui.send(" ");
    tui.wait_text("Lesson 2 of 3: a closed board");
    tui.send("\x1b");
    tui.wait_for("the lesson closed", |s| !s.contents().contains("Lesson"));
    tui.wait_text("X to move");
    tui.send("?");
    tui.wait_text("? the rules");
    tui.send("?");
    tui.wait_text("free move");
    assert!(tui.screen().contains(" Rules "), "{}", tui.screen());
    tui.send(" ");
    tui.wait_for("the rules closed", |s| !s.contents().contains("free move"));
}

#[test]
fn a_game_of_the_history_opens_on_the_board_and_is_played_on_after_the_move_shown() {
    let mut tui = menu("journey");
    tui.send("2");
    tui.send("\r");
    tui.wait_text("X to move (Player 1)");
    for key in ["7", "1", "8", "2", "9"] {
        tui.send(key);
    }
    tui.wait_text("X (Player 1) wins");
    tui.send("q");
    tui.wait_text("9  Your games");
    tui.send("9");
    tui.send("\r");
    tui.wait_text("two players");
    assert!(tui.screen().contains("X won"), "{}", tui.screen());
    tui.send("\r");
    tui.wait_text("Move 1 of 5");
    tui.wait_text("p play on · w save");
    tui.send("\x1b[C");
    tui.send("\x1b[C");
    tui.wait_text("Move 3 of 5");
    tui.send("w");
    tui.wait_text("opens it");
    let screen = tui.screen();
    let name = screen
        .split("Saved to ./")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .unwrap_or_else(|| panic!("where the game went: {screen}"));
    let saved = std::fs::read_to_string(Path::new(SAVED).join(name)).unwrap();
    // A game file: its header (rules, players, date, result), then the moves.
    assert!(saved.starts_with("tictactoe game\nrules: \nx: "), "{saved}");
    assert!(
        saved.contains("\nresult: X ") && saved.ends_with("\n\n1. 7 1\n2. 8 2\n3. 9\n"),
        "{saved}"
    );
    // The last move ended the game: nothing to play on from there.
    tui.send("1");
    tui.wait_text("Move 5 of 5");
    tui.send("p");
    tui.wait_text("Move 5 ended the game");
    tui.send("\x1b[D");
    tui.send("\x1b[D");
    tui.wait_text("Move 3 of 5");
    // The move shown, X's 8, is the last one played on from.
    tui.send("p");
    tui.wait_text("Playing on after move 3");
    assert_eq!(tui.board(), "XX./.../O..");
    tui.send("5");
    tui.wait_board("XX./.O./O..");
    tui.send("q");
    tui.wait_text("Leave this game? y/n");
    tui.send("y");
    tui.wait_text("9  Your games");
    tui.send("q");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

#[test]
fn a_game_killed_mid_way_is_continued_from_the_start_screen() {
    let home = format!("{}/menu-continue", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_dir_all(&home);
    let mut tui = Tui::start_with(&[], &[("TICTACTOE_HOME", &home)]);
    tui.wait_text("9  Your games");
    assert!(
        !tui.screen().contains("c continues"),
        "nothing to continue yet"
    );
    tui.send("2");
    tui.send("\r");
    tui.wait_text("X to move (Player 1)");
    tui.send("7");
    tui.send("1");
    tui.wait_board("X../.../O..");
    kill(tui.pid(), Signal::SIGKILL).unwrap();
    tui.wait_exit();
    let mut tui = Tui::start_with(&[], &[("TICTACTOE_HOME", &home)]);
    tui.wait_text("c continues: 3×3, 3 in a row, two players, 2 moves");
    tui.send("c");
    tui.wait_board("X../.../O..");
    for key in ["8", "2", "9"] {
        tui.send(key);
    }
    tui.wait_text("X (Player 1) wins");
    tui.send("q");
    tui.wait_text("9  Your games");
    assert!(!tui.screen().contains("c continues"), "{}", tui.screen());
    tui.send("q");
    assert!(tui.wait_exit());
    tui.assert_restored();
    let history = std::fs::read_to_string(format!("{home}/history.jsonl")).unwrap();
    assert_eq!(history.lines().count(), 1, "{history}");
    assert!(history.contains(r#""resumed":true"#), "{history}");
}

/// Two programs on one profile, one game left to continue: the first takes it up; the
/// second is told on its start screen that it is being continued elsewhere; a third, whose
/// start screen offered it before the first finished it, is told it is no longer there. The
/// history gets one result.
#[test]
fn a_game_left_is_continued_by_one_program_only_and_counted_once() {
    let home = format!("{}/menu-claim", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_dir_all(&home);
    let env = [("TICTACTOE_HOME", home.as_str())];
    let mut left = Tui::start_with(&[], &env);
    left.wait_text("9  Your games");
    left.send("2");
    left.send("\r");
    left.wait_text("X to move (Player 1)");
    left.send("7");
    left.send("1");
    left.wait_board("X../.../O..");
    kill(left.pid(), Signal::SIGKILL).unwrap();
    left.wait_exit();

    let offered = "c continues: 3×3, 3 in a row, two players, 2 moves";
    let mut first = Tui::start_with(&[], &env);
    first.wait_text(offered);
    first.send("c");
    first.wait_board("X../.../O..");
    let mut second = Tui::start_with(&[], &env);
    second.wait_text(offered);
    second.send("c");
    second.wait_text("being continued in another tictactoe");
    second.send("q");
    assert!(second.wait_exit());

    let mut late = Tui::start_with(&[], &env);
    late.wait_text(offered);
    for key in ["8", "2", "9"] {
        first.send(key);
    }
    first.wait_text("X (Player 1) wins");
    first.send("q");
    first.wait_text("9  Your games");
    late.send("c");
    late.wait_text("no longer there to continue");
    late.send("q");
    assert!(late.wait_exit());
    first.send("q");
    assert!(first.wait_exit());
    let history = std::fs::read_to_string(format!("{home}/history.jsonl")).unwrap();
    assert_eq!(history.lines().count(), 1, "{history}");
}

/// `join ADDRESS` on a terminal with no code given anywhere asks for it (so it need not be
/// in the command line); `q` cancels.
#[test]
fn join_with_an_address_and_no_code_asks_for_it_on_a_terminal() {
    let mut tui = Tui::spawn(
        env!("CARGO_BIN_EXE_tictactoe"),
        &["join", "127.0.0.1:9"],
        &[],
    );
    tui.wait_text("Join code (as the host printed it):");
    tui.send("q\r");
    tui.wait_text("Cancelled.");
    assert!(!tui.wait_exit(), "a cancelled join fails");
}

#[test]
fn the_settings_page_saves_and_the_game_follows_it() {
    let mut tui = menu("settings");
    tui.send("s");
    tui.wait_text("AI move delay");
    // Down to hints, off, and Enter saves.
    tui.send("\x1b[B");
    tui.send("\x1b[B");
    tui.send("\x1b[C");
    tui.wait_text("Hints                 ◂ off ▸");
    tui.send("\r");
    tui.wait_text("Settings saved");
    let saved = std::fs::read_to_string(format!(
        "{}/menu-settings/settings.toml",
        env!("CARGO_TARGET_TMPDIR")
    ))
    .unwrap();
    assert!(saved.contains("hints = false"), "{saved}");
    tui.send("2");
    tui.send("\r");
    tui.wait_text("X to move (Player 1)");
    tui.send("h");
    tui.wait_text("Hints are off in your settings");
    tui.send("q");
    tui.wait_text("9  Your games");
    tui.send("q");
    assert!(tui.wait_exit());
}

#[test]
fn the_opponent_saved_in_the_settings_is_the_one_the_play_row_offers_and_plays() {
    let home = format!("{}/menu-opponent", env!("CARGO_TARGET_TMPDIR"));
    let mut tui = menu("opponent");
    tui.send("s");
    tui.wait_text("AI move delay");
    for _ in 0..3 {
        tui.send("\x1b[D");
    }
    tui.wait_text("Opponent              ◂ 4 ▸");
    tui.send("\r");
    tui.wait_text("Settings saved");
    tui.wait_text("◂ 4 ▸");
    // On the Play row the opponent changes the settings too: one step up, level 5.
    tui.send("1");
    tui.send("\x1b[C");
    tui.wait_text("◂ 5 ▸");
    tui.send("q");
    assert!(tui.wait_exit());
    let settings = std::fs::read_to_string(format!("{home}/settings.toml")).unwrap();
    assert!(settings.contains("opponent = \"5\""), "{settings}");
    let choices = std::fs::read_to_string(format!("{home}/menu.json")).unwrap();
    assert!(!choices.contains("level"), "{choices}");
    // Started again: the settings' opponent, whatever an older menu.json says.
    std::fs::write(format!("{home}/menu.json"), r#"{"level": "hard"}"#).unwrap();
    let mut tui = Tui::start_with(&[], &[("TICTACTOE_HOME", &home)]);
    tui.wait_text("Your games");
    assert!(tui.screen().contains("◂ 5 ▸"), "{}", tui.screen());
    tui.send("\r");
    tui.wait_text("level 5");
}

#[test]
fn escape_on_the_settings_page_cancels_and_enter_saves() {
    let home = format!("{}/menu-settings-escape", env!("CARGO_TARGET_TMPDIR"));
    let mut tui = menu("settings-escape");
    tui.send("s");
    tui.wait_text("AI move delay");
    tui.send("\x1b[B");
    tui.send("\x1b[B");
    tui.send("\x1b[C");
    tui.wait_text("Hints                 ◂ off ▸");
    tui.send("\x1b");
    tui.wait_text("Settings not changed");
    assert!(!std::path::Path::new(&format!("{home}/settings.toml")).exists());
    tui.send("s");
    tui.wait_text("Hints                 ◂ on ▸");
    tui.send("q");
    tui.wait_text("9  Your games");
    tui.send("q");
    assert!(tui.wait_exit());
}

#[test]
fn the_choices_replace_a_link_in_their_place_and_never_write_through_it() {
    let home = format!("{}/menu-link", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    let other = format!("{home}/other.txt");
    std::fs::write(&other, "not the menu's\n").unwrap();
    std::os::unix::fs::symlink(&other, format!("{home}/menu.json")).unwrap();
    let mut tui = Tui::start_with(&[], &[("TICTACTOE_HOME", &home)]);
    tui.wait_text("9  Your games");
    tui.send("q");
    assert!(tui.wait_exit());
    assert_eq!(std::fs::read_to_string(&other).unwrap(), "not the menu's\n");
    let kept = std::fs::symlink_metadata(format!("{home}/menu.json")).unwrap();
    assert!(kept.is_file(), "the link was replaced by the choices");
}

#[test]
fn a_flag_skips_the_start_screen() {
    let tui = Tui::start(&["--delay", "0"]);
    tui.wait_text("X to move (you)");
    assert!(!tui.screen().contains("Your games"));
}

#[test]
fn escape_on_the_start_screen_asks_and_a_second_escape_quits() {
    let mut tui = menu("escape");
    tui.send("\x1b");
    tui.wait_text("Quit? Esc again or y quits");
    // Any other key stays, and does nothing else.
    tui.send("2");
    tui.wait_for("the question gone", |s| !s.contents().contains("Quit?"));
    assert!(tui.screen().contains("9  Your games"), "{}", tui.screen());
    tui.send("\x1b");
    tui.wait_text("Quit? Esc again or y quits");
    tui.send("\x1b");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

#[test]
fn q_on_the_start_screen_quits_with_the_terminal_restored() {
    let mut tui = menu("quit");
    tui.send("q");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

#[test]
fn the_start_screen_shows_the_statistics_and_asks_for_the_join_address() {
    let mut tui = menu("screens");
    tui.send("9");
    tui.send("\r");
    tui.wait_text("No games kept yet");
    tui.send("s");
    tui.wait_text("Any key goes back");
    tui.send(" ");
    tui.wait_text("No games kept yet");
    tui.send("l");
    tui.wait_text("no games against the AI here yet");
    assert!(tui.screen().contains("level 7"), "{}", tui.screen());
    tui.send(" ");
    tui.wait_text("No games kept yet");
    tui.send("\x1b");
    tui.wait_text("1  Play the AI");
    tui.send("4");
    tui.send("\r");
    tui.wait_text("Address: _");
    tui.send("127.0.0.1\r");
    tui.wait_text("Code:    _");
    tui.send("\x1b");
    tui.wait_text("127.0.0.1");
    tui.wait_text("1  Play the AI");
}

/// The last line with text on the screen: the line of keys.
fn key_row(tui: &Tui) -> String {
    let screen = tui.screen();
    screen
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .to_string()
}

/// At each size: the line of keys keeps `? keys` and `q quit`, and `?` shows the help whole.
fn fits_at(args: &[&str], sizes: &[(u16, u16)]) {
    let mut tui = Tui::start(args);
    for &(cols, rows) in sizes {
        tui.resize(cols, rows);
        tui.wait_for(&format!("the keys at {cols}×{rows}"), |s| {
            s.size() == (rows, cols) && s.contents().contains("q quit")
        });
        let keys = key_row(&tui);
        assert!(
            keys.contains("? keys") && keys.contains("q quit") && !keys.contains('…'),
            "{cols}×{rows}:\n{}",
            tui.screen()
        );
        tui.send("?");
        tui.wait_text("key closes");
        let screen = tui.screen();
        assert!(
            screen.contains("q Esc") && screen.contains("? ") && !screen.contains('…'),
            "{cols}×{rows}:\n{screen}"
        );
        tui.send(" ");
        tui.wait_for("the help closed", |s| !s.contents().contains("key closes"));
    }
}

#[test]
fn the_keys_and_help_fit_every_promised_size() {
    fits_at(
        &["--delay", "0", "-o", "human"],
        &[(30, 14), (40, 15), (60, 24)],
    );
    fits_at(&["--delay", "0", "--size", "5"], &[(60, 24)]);
    fits_at(&["--delay", "0", "--ultimate", "-o", "human"], &[(41, 21)]);
}

#[test]
fn joining_from_the_start_screen_connects_to_the_address_typed() {
    let mut tui = menu("join");
    tui.send("4");
    tui.send("\r");
    tui.wait_text("Address: _");
    // Nothing listens on port 1: the join fails, is reported, and the terminal is restored.
    tui.send("127.0.0.1:1\r");
    tui.wait_text("Code:    _");
    tui.send("abcd-efgh\r");
    // The failure is told on the start screen, which stays home for another try.
    tui.wait_text("refused");
    assert!(tui.screen().contains("9  Your games"), "{}", tui.screen());
    tui.send("q");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

#[test]
fn hosting_from_the_start_screen_listens_and_q_leaves() {
    let mut tui = menu("host");
    tui.send("3");
    tui.send("\r");
    // The default port may be taken on a busy machine: then the error, told on the start
    // screen, is the answer.
    tui.wait_for("the join line or an error", |s| {
        let text = s.contents();
        text.contains("Join with") || text.contains("listening on")
    });
    if tui.screen().contains("Join with") {
        tui.send("q");
    }
    tui.wait_text("9  Your games");
    tui.send("q");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

#[test]
fn the_explorer_opens_on_the_game_descends_goes_back_and_closes() {
    let mut tui = two_humans();
    tui.send("51");
    tui.wait_board(".../.X./O..");
    tui.send("t");
    tui.wait_text("Search explorer · minimax");
    tui.wait_text("Every search done");
    let screen = tui.screen();
    for text in [
        "At the start: X to move, value 0",
        "visited          6812       703       222       174        91",
        "▸ 2     0",
    ] {
        assert!(screen.contains(text), "{text:?} missing:\n{screen}");
    }
    tui.send("9");
    tui.wait_text("At 9: O to move, value 0");
    assert!(tui.screen().contains("O │ 2 │ 3"), "{}", tui.screen());
    tui.send("a");
    tui.wait_text("Search explorer · alpha-beta");
    tui.wait_text("(an upper bound: nothing reached α)");
    tui.send("\x7f");
    tui.wait_text("Back at the root");
    tui.send("t");
    tui.wait_text("X to move (Player 1)");
    assert_eq!(tui.board(), ".../.X./O..", "nothing was played");
    tui.send("q");
    tui.wait_text("Leave this game? y/n");
    tui.send("y");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

#[test]
fn step_mode_replays_the_search_runs_to_the_end_and_esc_backs_out() {
    let mut tui = two_humans();
    tui.send("51");
    tui.wait_board(".../.X./O..");
    tui.send("t");
    tui.wait_text("Every search done");
    tui.send("a");
    tui.wait_text("Search explorer · alpha-beta");
    tui.send("9");
    tui.wait_text("At 9: O to move");
    tui.send("s");
    tui.wait_text("Step 1 of 180 · paused");
    assert!(tui.screen().contains("enter 9 with the window (0, +∞)"));
    tui.send("\x1b[C");
    tui.wait_text("Step 2 of 180 · paused");
    tui.wait_text("enter 9 2 with the window (0, +∞)");
    // Faster, then run: the replay goes on by itself and stops at the end.
    tui.send("+++");
    tui.send(" ");
    tui.wait_text("· running");
    tui.wait_text("Step 180 of 180 · paused");
    assert!(tui.screen().contains("leave 9: value 0 backed up"));
    tui.send("\x1b");
    tui.wait_text("Step mode left");
    tui.send("\x1b");
    tui.wait_text("Back at the root");
    tui.send("\x1b");
    tui.wait_text("X to move (Player 1)");
    tui.send("\x03");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

#[test]
fn the_explorer_opens_on_the_position_the_review_shows() {
    let mut tui = two_humans();
    tui.send("594613");
    tui.wait_text("O (Player 2) wins.");
    tui.send("r");
    tui.wait_text("Move 1 of 6");
    tui.send("\x1b[C\x1b[C\x1b[C\x1b[C");
    tui.wait_text("Move 5 of 6");
    tui.send("t");
    tui.wait_text("Search explorer · minimax");
    // Before move 5, X must block at 3; 1 loses.
    tui.wait_text("Value: 0 (draw) · best line: 3");
    tui.send("t");
    tui.wait_text("Move 5 of 6");
    tui.send("q");
    assert!(tui.wait_exit());
}

#[test]
fn a_past_symmetry_opens_the_monte_carlo_tree_of_a_classic_board_with_step_mode_and_a_returns() {
    let mut tui = two_humans();
    tui.send("5");
    tui.wait_board(".../.X./...");
    tui.send("t");
    tui.wait_text("Every search done");
    tui.send("aaaa");
    tui.wait_text("Search explorer · alpha-beta with move ordering and a symmetric table");
    tui.send("a");
    tui.wait_text("Search explorer · Monte Carlo tree search · 1,000 iterations");
    tui.wait_text("Searched 1,000 iterations: a digit or Enter goes into a move");
    let screen = tui.screen();
    for text in [
        "At the start: O to move",
        "no move prior: every move starts unvisited",
        "move visits  win%   UCB = rate + explore",
        "4 │ X │ 6",
    ] {
        assert!(screen.contains(text), "{text:?} missing:\n{screen}");
    }
    tui.send("1");
    tui.wait_text("At 1: X to move");
    tui.send("\x7f");
    tui.wait_text("Back at the root");
    // Step mode replays the first iterations, random games and all.
    tui.send("s");
    tui.wait_text("Iteration 1 of 1,000 · paused");
    tui.send("\x1b[C");
    tui.wait_text("Iteration 2 of 1,000 · paused");
    assert!(tui.screen().contains("random game:"), "{}", tui.screen());
    tui.send("s");
    tui.wait_text("Step mode left");
    tui.send("a");
    tui.wait_text("Search explorer · minimax");
    tui.wait_text("Algorithm: minimax");
    tui.send("t");
    tui.wait_text("O to move (Player 2)");
    assert_eq!(tui.board(), ".../.X./...", "nothing was played");
    tui.send("\x03");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

#[test]
fn the_ultimate_explorer_shows_the_monte_carlo_tree_descends_and_returns() {
    let mut tui = two_humans_ultimate();
    tui.send("55");
    tui.wait_ultimate(&[("55", 'X')]);
    tui.send("t");
    tui.wait_text("Search explorer · Monte Carlo tree search · 1,000 iterations");
    tui.wait_text("Searched 1,000 iterations");
    let screen = tui.screen();
    for text in [
        "At the start: O to move",
        "move visits  win%   UCB = rate + explore",
        "O plays in board 5",
    ] {
        assert!(screen.contains(text), "{text:?} missing:\n{screen}");
    }
    // O is sent to board 5: one digit names the cell.
    tui.send("3");
    tui.wait_text("At 53: X to move");
    tui.wait_text("X plays in board 3");
    tui.send("\x7f");
    tui.wait_text("Back at the root");
    tui.send("+");
    tui.wait_text("Search explorer · Monte Carlo tree search · 10,000 iterations");
    tui.wait_text("Searched 10,000 iterations");
    tui.send("\x1b");
    tui.wait_text("O to move on board 5 (Player 2)");
    assert_eq!(
        tui.ultimate(),
        ultimate_with(&[("55", 'X')]),
        "nothing was played"
    );
    tui.send("\x03");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

#[test]
fn the_ultimate_explorers_step_mode_replays_iterations_and_runs_to_the_end() {
    let mut tui = two_humans_ultimate();
    tui.send("t");
    tui.wait_text("Searched 1,000 iterations");
    tui.send("s");
    tui.wait_text("Iteration 1 of 1,000 · paused");
    tui.wait_text("random game: ");
    tui.send("\x1b[C");
    tui.wait_text("Iteration 2 of 1,000 · paused");
    tui.wait_text("backup: ");
    // Faster, then run: the replay goes on by itself and stops at the end.
    tui.send("++++");
    tui.send(" ");
    tui.wait_text("· running");
    tui.wait_text("Iteration 1,000 of 1,000 · paused");
    tui.send("\x1b");
    tui.wait_text("Step mode left");
    tui.send("t");
    tui.wait_text("X to move anywhere (Player 1)");
    tui.send("q");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

#[test]
fn a_paused_game_between_ais_stays_paused_through_the_explorer() {
    let mut tui = Tui::start(&[
        "--ultimate",
        "-x",
        "2",
        "-o",
        "2",
        "--delay",
        "150",
        "--seed",
        "3",
    ]);
    tui.wait_for("a first move", |s| read_ultimate(s).contains('X'));
    let wait = one_move(&tui, read_ultimate);
    tui.send(" ");
    tui.wait_text("(paused)");
    let frozen = tui.ultimate();
    tui.send("t");
    tui.wait_text("Searched 1,000 iterations");
    tui.send("t");
    tui.wait_text("Paused: Space resumes");
    assert!(tui.screen().contains("(paused)"), "{}", tui.screen());
    thread::sleep(wait);
    assert_eq!(tui.ultimate(), frozen, "no move while paused");
    tui.send(" ");
    tui.wait_for("a move after resuming", |s| read_ultimate(s) != frozen);
    tui.send("\x03");
    assert!(tui.wait_exit());
}

#[test]
fn hints_off_in_the_settings_keep_the_explorer_shut_and_offer_neither_key() {
    let home = format!("{}/hints-off", env!("CARGO_TARGET_TMPDIR"));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(format!("{home}/settings.toml"), "hints = false\n").unwrap();
    let mut tui = Tui::start_with(
        &["-o", "human", "--delay", "0"],
        &[("TICTACTOE_HOME", &home)],
    );
    tui.send("5");
    tui.wait_text("O to move");
    let keys = tui.screen();
    assert!(keys.contains("u undo"), "{keys}");
    assert!(
        !keys.contains("h hint") && !keys.contains("t explore"),
        "{keys}"
    );
    tui.send("t");
    tui.wait_text("Hints are off in your settings");
    let screen = tui.screen();
    assert!(
        !screen.contains("Searching"),
        "the explorer stays shut: {screen}"
    );
    tui.send("1");
    tui.wait_text("X to move");
    assert!(!tui.screen().contains("Hints are off"));
}

#[test]
fn twenty_by_twenty_in_eighty_by_twenty_four_scrolls_with_the_cursor_and_takes_q_and_row_twenty() {
    let mut tui = Tui::spawn(
        env!("CARGO_BIN_EXE_tictactoe"),
        &["--size", "20", "-o", "human"],
        &[],
    );
    tui.wait_text("20×20, five in a row");
    // The whole first frame: the key line is its last.
    tui.wait_text("q quit");
    // Rows 20 to 5 in sight, the others below the window.
    let screen = tui.screen();
    assert!(
        screen.contains("20 · ·") && screen.contains(" 5 · ·"),
        "{screen}"
    );
    assert!(
        !screen.contains(" 4 · ·") && screen.contains('↓'),
        "{screen}"
    );
    // `q` names a column here: q then 2 waits for a second digit, 0 plays q20.
    tui.send("q2");
    tui.wait_text("Typed q2… Enter plays q2, 0 for q20");
    tui.send("0");
    tui.wait_text("X (Player 1) played q20");
    // The cursor down to row 1 scrolls the window: row 1 in sight, row 20 out of it.
    for _ in 0..20 {
        tui.send("\x1b[B");
    }
    tui.wait_for("row 1 in sight", |s| s.contents().contains(" 1 · ·"));
    let screen = tui.screen();
    assert!(
        !screen.contains("20 · ·") && screen.contains('↑'),
        "{screen}"
    );
    // `t` twice: the explorer does not show boards this large, and says so.
    tui.send("tt");
    tui.wait_text("No explorer on a board this large");
    // `q` twice asks to leave the game, as `q` does on smaller boards.
    tui.send("qq");
    tui.wait_text("Leave");
}

#[test]
fn brackets_look_back_through_the_game_and_a_wide_screen_lists_the_moves() {
    let mut tui = two_humans();
    tui.send("51");
    tui.wait_board(".../.X./O..");
    tui.send("[");
    tui.wait_text("move 1 of 2");
    tui.wait_board(".../.X./...");
    tui.send("3");
    tui.wait_text("Esc first to play on");
    tui.send("]");
    tui.wait_text("Back to the game");
    tui.wait_board(".../.X./O..");
    assert!(!tui.screen().contains("Moves"), "no list at 80 columns");
    tui.resize(102, 24);
    tui.wait_text("Moves");
    tui.wait_text("1. 5    1");
}

/// Where `text` first stands on the screen: its row and column.
fn find_on(screen: &vt100::Screen, text: &str) -> Option<(u16, u16)> {
    screen
        .contents()
        .lines()
        .enumerate()
        .find_map(|(row, line)| {
            let at = line.find(text)?;
            let col = line[..at].chars().count();
            Some((u16::try_from(row).ok()?, u16::try_from(col).ok()?))
        })
}

#[test]
fn a_clock_in_its_last_seconds_shows_tenths_in_reverse_video_and_its_fall_ends_the_game() {
    let tui = Tui::start(&[
        "-o",
        "human",
        "--delay",
        "0",
        "--clock",
        "3s",
        "--no-history",
    ]);
    tui.wait_for("X's clock in tenths, in reverse video", |s| {
        find_on(s, "X: Player 1 ").is_some_and(|(row, col)| {
            let at = col + "X: Player 1 ".len() as u16;
            let clock: String = (at..at + 4)
                .filter_map(|c| s.cell(row, c).map(vt100::Cell::contents))
                .collect();
            let inverse = s.cell(row, at).is_some_and(vt100::Cell::inverse);
            clock.ends_with('s') && clock.contains('.') && inverse
        })
    });
    tui.wait_text("X (Player 1) ran out of time. O (Player 2) wins.");
}

#[test]
fn a_game_file_opened_from_your_games_shows_the_names_it_holds() {
    let mut tui = menu("file-names");
    let dir = format!("{}/file-names", env!("CARGO_TARGET_TMPDIR"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = format!("{dir}/named.txt");
    std::fs::write(
        &file,
        "tictactoe game\nrules: \nx: Ann\no: Bob\ndate: 2026-12-01\nresult: X (Ann) wins.\n\n1. 7 1\n2. 8 2\n3. 9\n",
    )
    .unwrap();
    tui.send("9");
    tui.send("\r");
    tui.wait_text("No games kept yet");
    tui.send("f");
    tui.wait_text("Open a game file");
    tui.send(&file);
    tui.send("\r");
    tui.wait_text("Move 1 of 5");
    let screen = tui.screen();
    assert!(
        screen.contains("Ann") && screen.contains("Bob") && !screen.contains("Player 1"),
        "{screen}"
    );
    tui.send("q");
    tui.wait_text("9  Your games");
    tui.send("q");
    assert!(tui.wait_exit());
    tui.assert_restored();
}

/// The line of the players and their clocks on `screen`.
fn status_line(screen: &str) -> String {
    screen
        .lines()
        .find(|l| l.contains("X: ") && l.contains("O: "))
        .unwrap_or_else(|| panic!("no players' line: {screen}"))
        .trim()
        .to_string()
}

#[test]
fn pausing_a_game_between_ais_stops_both_clocks_and_space_starts_them_again() {
    // On a clock the moves come with no delay: twenty seconds each, and each side thinks a
    // twentieth of what it has, about a second a move.
    let mut tui = Tui::start(&["--ultimate", "-x", "hard", "-o", "hard", "--clock", "0:20"]);
    tui.wait_for("a first move", |s| read_ultimate(s).contains('X'));
    tui.send(" ");
    tui.wait_text("(paused)");
    let frozen = status_line(&tui.screen());
    // The clocks show whole seconds: running, one would read a second less by now, on the
    // screen drawn afresh for a key.
    thread::sleep(Duration::from_millis(1500));
    tui.send("z");
    tui.wait_text("does nothing here");
    assert_eq!(
        status_line(&tui.screen()),
        frozen,
        "the clocks stand while paused"
    );
    tui.send(" ");
    tui.wait_for("a clock running again", |s| {
        status_line(&s.contents()) != frozen
    });
    tui.send("\x03");
    assert!(tui.wait_exit());
}

#[test]
fn connect_four_drops_each_disc_to_the_lowest_empty_cell_of_the_column_typed() {
    let args = ["--connect-four", "-o", "human", "--delay", "0"];
    let mut tui = Tui::spawn(env!("CARGO_BIN_EXE_tictactoe"), &args, &[]);
    tui.wait_text("Connect Four · round 1");
    tui.send("4");
    tui.wait_text("played 4. O to move");
    tui.send("4");
    tui.wait_text("played 4. X to move");
    tui.send("5");
    tui.wait_text("played 5. O to move");
    let screen = tui.screen();
    let rows: Vec<&str> = screen.lines().map(str::trim).collect();
    let digits = rows
        .iter()
        .position(|r| r.starts_with("1 2 3 4 5 6 7"))
        .expect("the columns' digits");
    // The bottom row holds X's two discs, the row above it O's one, on column 4.
    assert!(rows[digits - 1].starts_with("· · · ● ●"), "{screen}");
    assert!(rows[digits - 2].starts_with("· · · ○"), "{screen}");
    // Column 8 is no column of this board: refused, the board kept.
    tui.send("8");
    tui.wait_text("8 is no column here: type 1-7");
    assert!(tui.screen().contains("· · · ● ●"));
}

// The analysis board.

/// The analysis board, opened by `analyze` with `args`, on a terminal of `cols` by `rows`.
fn analysis_board(args: &[&str], cols: u16, rows: u16) -> Tui {
    let mut all = vec!["analyze"];
    all.extend(args);
    let tui = Tui::spawn(env!("CARGO_BIN_EXE_tictactoe"), &all, &[]);
    tui.resize(cols, rows);
    tui.wait_text("Analysis");
    tui
}

/// The board's lines on `screen`, each without its number: `X wins in 3: d5 d6 d2`.
fn board_lines(screen: &str) -> Vec<String> {
    screen
        .lines()
        .filter_map(|row| {
            let (number, rest) = row.trim().split_once(". ")?;
            number.parse::<u8>().ok()?;
            Some(rest.to_string())
        })
        .collect()
}

/// What batch `analyze --best` says of `board` played by `rules`: `win in 3`, `draw`.
fn batch_value(rules: &[&str], board: &str) -> String {
    let mut args = vec!["analyze", "--best"];
    args.extend(rules);
    args.push(board);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(&args)
        .env(
            "TICTACTOE_HOME",
            concat!(env!("CARGO_TARGET_TMPDIR"), "/home"),
        )
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    let value = text
        .split_once("to move: ")
        .and_then(|(_, rest)| rest.split_once(", best move"))
        .map(|(value, _)| value.to_string());
    value.unwrap_or_else(|| panic!("no value in {text:?}"))
}

/// A line's value as batch `analyze` words it for `mover`: `X wins by fours in 3` is `win in
/// 3` for X, `loss in 3` for O.
fn as_batch(line: &str, mover: char) -> String {
    let value = line.split_once(": ").map_or(line, |(v, _)| v);
    let plies = value.rsplit(' ').next().unwrap_or_default();
    match value.chars().next() {
        Some(winner) if value.contains(" wins") && winner == mover => format!("win in {plies}"),
        Some(_) if value.contains(" wins") => format!("loss in {plies}"),
        _ => value.to_string(),
    }
}

/// A line's rank for sorting, for `mover`: proven wins first (the quicker the better), then
/// draws and estimates (by their share), then proven losses (the later the better).
fn rank(line: &str, mover: char) -> (u8, i64) {
    let value = line.split_once(": ").map_or(line, |(v, _)| v);
    let plies: i64 = value
        .rsplit(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let share: i64 = value
        .split_once('%')
        .and_then(|(n, _)| n.rsplit(' ').next()?.parse().ok())
        .unwrap_or(50);
    match value.chars().next() {
        Some(winner) if value.contains(" wins") && winner == mover => (3, -plies),
        Some(_) if value.contains(" wins") => (1, plies),
        _ => (2, share),
    }
}

/// The lines are distinct in their first moves and sorted by value for `mover`.
fn assert_distinct_and_sorted(lines: &[String], mover: char) {
    let firsts: Vec<&str> = lines
        .iter()
        .filter_map(|l| l.split_once(": ")?.1.split(' ').next())
        .collect();
    let mut unique = firsts.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), firsts.len(), "{lines:?}");
    for pair in lines.windows(2) {
        assert!(rank(&pair[0], mover) >= rank(&pair[1], mover), "{lines:?}");
    }
}

/// Sets up a position on the board with `keys`, then waits for its first line to have the
/// value batch `analyze` gives `board` (the same position, X to move), and checks the lines.
fn sets_up_and_agrees_with_analyze(rules: &[&str], size: (u16, u16), keys: &str, board: &str) {
    let mut tui = analysis_board(rules, size.0, size.1);
    tui.send(keys);
    let expected = batch_value(rules, board);
    tui.wait_for(&format!("a first line of {expected}"), |s| {
        let lines = board_lines(&s.contents());
        lines.len() == 3 && as_batch(&lines[0], 'X') == expected
    });
    assert!(tui.screen().contains("X to move"), "{}", tui.screen());
    assert_distinct_and_sorted(&board_lines(&tui.screen()), 'X');
    tui.send("\x1b");
    assert!(tui.wait_exit(), "Esc leaves the board opened on its own");
}

#[test]
fn a_three_by_three_position_set_up_stone_by_stone_has_the_value_analyze_gives() {
    sets_up_and_agrees_with_analyze(&[], (80, 30), "z7z5z", "X../.O./...");
}

#[test]
fn a_seven_by_seven_position_set_up_stone_by_stone_has_the_value_analyze_gives() {
    sets_up_and_agrees_with_analyze(
        &["--size", "7", "--k", "4"],
        (80, 40),
        "zd3a1d4a7z",
        "O....../......./......./...X.../...X.../......./O......",
    );
}

/// 15×15 with X's open three h8 i8 j8, O's stones a2 a4 a6 out of the way.
const OPEN_THREE: &str = "...............\n...............\n...............\n...............\n\
    ...............\n...............\n...............\n.......XXX.....\n...............\n\
    O..............\n...............\nO..............\n...............\nO..............\n\
    ...............";

#[test]
fn a_gomoku_victory_by_fours_set_up_stone_by_stone_is_named_and_has_analyzes_value() {
    let board = OPEN_THREE.replace('\n', "/");
    sets_up_and_agrees_with_analyze(&["--rules", "gomoku"], (80, 40), "zh8a2i8a4j8a6z", &board);
}

#[test]
fn stones_set_up_one_colour_at_a_time_wait_faint_and_then_have_analyzes_value() {
    let mut tui = analysis_board(&["--rules", "gomoku"], 80, 40);
    // Tab: X's stones only; the two beyond a position a game reaches wait.
    tui.send("z\th8i8j8");
    tui.wait_text("wait for 2 of O's");
    let screen = tui.screen();
    assert!(screen.contains("The engine waits"), "{screen}");
    assert!(board_lines(&screen).is_empty(), "{screen}");
    tui.send("[");
    tui.wait_text("take the faint stones up");
    // Tab: O's; each lets one of X's in, and then the engine thinks.
    tui.send("\ta2a4a6z");
    let expected = batch_value(&["--rules", "gomoku"], &OPEN_THREE.replace('\n', "/"));
    tui.wait_for(&format!("a first line of {expected}"), |s| {
        let lines = board_lines(&s.contents());
        lines.len() == 3 && as_batch(&lines[0], 'X') == expected
    });
    assert!(tui.screen().contains("keys play moves"), "{}", tui.screen());
}

#[test]
fn under_renju_the_board_set_up_shows_blacks_forbidden_point_and_analyzes_value() {
    // X's open three as above, and d12 e12 with f11 f10: f12 would make two threes.
    let mut rows: Vec<String> = OPEN_THREE.split('\n').map(str::to_string).collect();
    rows[3].replace_range(3..5, "XX");
    rows[4].replace_range(5..6, "X");
    rows[5].replace_range(5..6, "X");
    rows[13].replace_range(2..3, "O");
    rows[11].replace_range(2..3, "O");
    rows[9].replace_range(2..3, "O");
    rows[13].replace_range(4..5, "O");
    let board = rows.join("/");
    let keys = "zh8a2i8a4j8a6d12c2e12c4f11c6f10e2z";
    let mut tui = analysis_board(&["--rules", "renju"], 80, 40);
    tui.send(keys);
    let expected = batch_value(&["--rules", "renju"], &board);
    tui.wait_for(&format!("a first line of {expected}"), |s| {
        let lines = board_lines(&s.contents());
        lines.len() == 3 && as_batch(&lines[0], 'X') == expected
    });
    assert!(
        tui.screen().contains('×'),
        "f12 forbidden: {}",
        tui.screen()
    );
    assert!(tui.screen().contains("by fours"), "{}", tui.screen());
    assert_distinct_and_sorted(&board_lines(&tui.screen()), 'X');
    tui.send("q");
    assert!(tui.wait_exit());
}

#[test]
fn an_ultimate_position_shows_sorted_lines_and_keys_answer_while_it_thinks() {
    let mut tui = analysis_board(&["--rules", "ultimate"], 80, 40);
    tui.send("53");
    tui.wait_text("O to move on board 3");
    tui.send("71");
    tui.wait_for("three lines", |s| board_lines(&s.contents()).len() == 3);
    // Thinking goes on for seconds: the keys are taken meanwhile.
    assert!(tui.screen().contains("thinking…"), "{}", tui.screen());
    tui.send("+");
    tui.wait_for("four lines", |s| board_lines(&s.contents()).len() == 4);
    assert!(tui.screen().contains("thinking…"), "{}", tui.screen());
    assert!(tui.screen().contains("O to move"), "{}", tui.screen());
    assert_distinct_and_sorted(&board_lines(&tui.screen()), 'O');
    tui.send("-----");
    tui.wait_text("value: ");
    tui.send("\x1b");
    assert!(tui.wait_exit());
}

#[test]
fn a_a_in_a_game_opens_the_board_on_its_position_and_a_variation_is_kept_and_saved() {
    let mut tui = two_humans();
    tui.send("59");
    tui.wait_board("..O/.X./...");
    tui.send("aa");
    tui.wait_text("Analysis");
    tui.wait_board("..O/.X./...");
    // A variation: back one move, O plays 1 instead of 9, and the braces walk between them.
    tui.send("[1");
    tui.wait_text("a new variation, 2 of 2");
    tui.wait_board(".../.X./O..");
    tui.send("}");
    tui.wait_text("variation 1 of 2");
    tui.wait_board("..O/.X./...");
    tui.send("w");
    tui.wait_text("Saved to ");
    let screen = tui.screen();
    let name = screen
        .split("Saved to ")
        .nth(1)
        .and_then(|rest| rest.split(':').next())
        .unwrap()
        .to_string();
    let text = std::fs::read_to_string(Path::new(SAVED).join(&name)).unwrap();
    let (_, tree) = tictactoe::game::file::read_tree(&text).unwrap();
    let after_five = tree.children(tictactoe::game::tree::ROOT)[0];
    let tried: Vec<String> = tree
        .children(after_five)
        .iter()
        .map(|&n| tree.mv(n).unwrap().to_string())
        .collect();
    assert_eq!(tried, ["9", "1"], "{text}");
    tui.send("\x1b");
    tui.wait_text("Back from the analysis board");
    tui.wait_board("..O/.X./...");
}

#[test]
fn the_puzzles_row_poses_a_missed_win_from_the_history_and_tells_a_wrong_answer_why() {
    let home = concat!(env!("CARGO_TARGET_TMPDIR"), "/home-puzzles");
    let _ = std::fs::remove_dir_all(home);
    let game = env!("CARGO_BIN_EXE_tictactoe");
    let play = |args: &[&str], input: &str| {
        pipe::text(&pipe::run_at(Path::new(home), args, input.as_bytes()).stdout)
    };
    // X on 7 and 8 has 9 to win at move 5, plays 1, and O wins on 6.
    play(
        &["--plain", "-x", "human", "-o", "human"],
        "7\n4\n8\n5\n1\n6\n",
    );
    let mut tui = Tui::spawn(game, &[], &[("TICTACTOE_HOME", home)]);
    tui.wait_text("Play the AI");
    // Up from the first row goes round to Quit, then the row above it, whose → turns it to
    // the puzzles.
    tui.send("\x1b[A\x1b[A\x1b[C");
    tui.wait_text("Puzzles from your games");
    tui.send("\r");
    tui.wait_text("Puzzle 1: X to play and win in 1");
    assert!(!tui.screen().contains("1. "), "no lines before the answer");
    tui.send("1");
    tui.wait_text("Not this one: after 1, O wins (loss in 2). 9 wins.");
    tui.wait_for("the lines after the answer", |s| {
        !board_lines(&s.contents()).is_empty()
    });
    tui.send("\x1b");
    tui.wait_text("Play the AI");
    tui.send("q");
    assert!(tui.wait_exit());
    let listed = play(&["puzzles"], "");
    assert!(listed.contains("unsolved, tried 1×"), "{listed}");
}
