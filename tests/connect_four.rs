//! Connect Four: its solver checked against a plain minimax written here, on random positions
//! and whole small boards; the game through the binary, in lines.

use std::collections::HashMap;
use std::io::Write;
use std::process::{Command, Stdio};

use tictactoe::ai::connect_four::solver::{Solver, plies};
use tictactoe::ai::search::Meter;
use tictactoe::rules::classic::Mark;
use tictactoe::rules::connect_four::{Column, ConnectFour};
use tictactoe::rules::{Outcome, RuleSet};

/// A board as a grid of cells, the way a first program would hold it: `grid[col][row]`.
#[derive(Clone, PartialEq, Eq, Hash)]
struct Grid {
    cells: Vec<Vec<Option<Mark>>>,
    rows: usize,
    moves: usize,
}

impl Grid {
    fn of(board: &ConnectFour) -> Grid {
        let cells = (0..board.columns())
            .map(|c| (0..board.rows()).map(|r| board.mark_at(c, r)).collect())
            .collect();
        Grid {
            cells,
            rows: usize::from(board.rows()),
            moves: usize::from(board.moves()),
        }
    }

    fn to_move(&self) -> Mark {
        if self.moves.is_multiple_of(2) {
            Mark::X
        } else {
            Mark::O
        }
    }

    fn height(&self, col: usize) -> usize {
        self.cells[col].iter().filter(|c| c.is_some()).count()
    }

    /// Whether the disc at (`col`, `row`) is in a line of four of its colour.
    fn four_through(&self, col: usize, row: usize) -> bool {
        let mark = self.cells[col][row];
        let at = |c: isize, r: isize| {
            (c >= 0 && r >= 0 && (c as usize) < self.cells.len() && (r as usize) < self.rows)
                .then(|| self.cells[c as usize][r as usize])
                .flatten()
        };
        [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(dc, dr)| {
            let run = |sign: isize| {
                (1..4)
                    .take_while(|&i| {
                        at(col as isize + sign * dc * i, row as isize + sign * dr * i) == mark
                    })
                    .count()
            };
            1 + run(1) + run(-1) >= 4
        })
    }

    /// The exact score for the side to move, as the solver counts it: the winner's discs left
    /// unplayed when the four is made, plus one; minimax over every column, no pruning.
    fn minimax(&mut self, memo: &mut HashMap<Grid, i32>) -> i32 {
        if let Some(&score) = memo.get(self) {
            return score;
        }
        let scores = self.column_scores(memo);
        let score = scores.iter().map(|&(_, s)| s).max().unwrap_or(0);
        memo.insert(self.clone(), score);
        score
    }

    /// Every open column's score for the side to move: a disc dropped, the game's end or the
    /// minimax of what follows, and the disc taken back.
    fn column_scores(&mut self, memo: &mut HashMap<Grid, i32>) -> Vec<(u8, i32)> {
        let cells = self.cells.len() * self.rows;
        let mut out = Vec::new();
        for col in 0..self.cells.len() {
            let row = self.height(col);
            if row == self.rows {
                continue;
            }
            self.cells[col][row] = Some(self.to_move());
            self.moves += 1;
            let score = if self.four_through(col, row) {
                // Won with disc `moves` of the game: (cells + 1 - discs before it) / 2.
                ((cells + 1 - (self.moves - 1)) / 2) as i32
            } else if self.moves == cells {
                0
            } else {
                -self.minimax(memo)
            };
            self.moves -= 1;
            self.cells[col][row] = None;
            out.push((col as u8, score));
        }
        out
    }
}

/// A position `discs` deep by random play, still in progress.
fn random_position(columns: u8, rows: u8, discs: u8, rng: &mut fastrand::Rng) -> ConnectFour {
    'again: loop {
        let mut board = ConnectFour::new(columns, rows).unwrap();
        for _ in 0..discs {
            let moves = board.legal_moves();
            if moves.is_empty() {
                continue 'again;
            }
            board.play(moves[rng.usize(..moves.len())]).unwrap();
        }
        if board.outcome() == Outcome::InProgress {
            return board;
        }
    }
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_a_thousand_random_positions_of_seven_by_six() {
    let mut rng = fastrand::Rng::with_seed(42);
    let mut solver = Solver::new(16);
    let mut memo = HashMap::new();
    for i in 0..1000 {
        let discs = 26 + (i % 8) as u8;
        let board = random_position(7, 6, discs, &mut rng);
        let expected = Grid::of(&board).minimax(&mut memo);
        let score = solver.solve(&board, None, Meter::Work).unwrap();
        assert_eq!(score, expected, "{board}");
        if memo.len() > 2_000_000 {
            memo.clear();
        }
    }
}

#[test]
fn every_columns_value_and_so_the_best_columns_agree_with_minimax() {
    let mut rng = fastrand::Rng::with_seed(7);
    let mut solver = Solver::new(16);
    let mut memo = HashMap::new();
    for _ in 0..100 {
        let board = random_position(7, 6, 28, &mut rng);
        for (col, expected) in Grid::of(&board).column_scores(&mut memo) {
            let after = board.after(Column(col)).unwrap();
            let score = match after.outcome() {
                Outcome::InProgress => -solver.solve(&after, None, Meter::Work).unwrap(),
                Outcome::Draw => 0,
                Outcome::Won(_) => expected,
            };
            assert_eq!(score, expected, "{board} column {}", col + 1);
        }
    }
}

#[test]
fn whole_small_boards_are_solved_as_minimax_solves_them() {
    // From the empty board, and after every first disc.
    for (columns, rows) in [(4, 4), (5, 4), (4, 5)] {
        let empty = ConnectFour::new(columns, rows).unwrap();
        let mut memo = HashMap::new();
        let mut solver = Solver::new(16);
        let expected = Grid::of(&empty).minimax(&mut memo);
        assert_eq!(solver.solve(&empty, None, Meter::Work), Some(expected));
        for (col, expected) in Grid::of(&empty).column_scores(&mut memo) {
            let after = empty.after(Column(col)).unwrap();
            assert_eq!(solver.solve(&after, None, Meter::Work), Some(-expected));
        }
    }
}

#[test]
fn a_score_says_how_many_plies_are_left_to_the_winning_disc() {
    let mut solver = Solver::new(1);
    // X on 1, 2, 3 along the bottom, O above: X wins with the next disc on 4.
    let board = ConnectFour::default().after_columns("112233").unwrap();
    let score = solver.solve(&board, None, Meter::Work).unwrap();
    assert_eq!(plies(score, u32::from(board.moves()), 42), 1);
    // O to move cannot stop both ends of an open three: X wins in 3 plies.
    let board = ConnectFour::default().after_columns("3747").unwrap();
    let board = board.after_columns("5").unwrap();
    assert_eq!(board.to_move(), Mark::O);
    let score = solver.solve(&board, None, Meter::Work).unwrap();
    assert!(score < 0);
    assert_eq!(plies(score, u32::from(board.moves()), 42), 2);
}

#[test]
fn a_budget_that_runs_out_proves_nothing() {
    let mut solver = Solver::new(1);
    let board = ConnectFour::default();
    let within = std::time::Duration::from_millis(1);
    assert_eq!(solver.solve(&board, Some(within), Meter::Work), None);
    assert!(solver.stopped());
}

#[test]
#[ignore = "more than 15 minutes: the empty board's proof"]
fn the_empty_board_is_a_first_player_win_on_the_last_disc_but_one() {
    let mut solver = Solver::new(256);
    let score = solver.solve(&ConnectFour::default(), None, Meter::Work);
    // X wins with its 21st disc, the 41st of the game.
    assert_eq!(score, Some(1));
}

fn tictactoe(args: &[&str], input: &str) -> (String, bool) {
    let home = tempfile_dir();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tictactoe"))
        .args(args)
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
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&home);
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&out.stderr));
    (text, out.status.success())
}

fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tictactoe-c4-{}-{}",
        std::process::id(),
        fastrand::u64(..)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn two_players_in_lines_drop_discs_and_four_up_a_column_wins() {
    let (out, ok) = tictactoe(
        &["--plain", "--connect-four", "-x", "human", "-o", "human"],
        "4\n5\n4\n5\n4\n5\n4\nq\n",
    );
    assert!(ok, "{out}");
    assert!(out.contains("X wins"), "{out}");
    assert!(out.contains("| . . . X O . . |"), "{out}");
}

#[test]
fn a_full_column_is_refused_in_lines_and_the_board_is_kept() {
    let (out, _) = tictactoe(
        &["--plain", "--connect-four", "-x", "human", "-o", "human"],
        "1\n1\n1\n1\n2\n1\n1\n1\nq\n",
    );
    assert!(out.to_lowercase().contains("column 1 is"), "{out}");
}

#[test]
fn analyze_reads_the_columns_played_and_proves_a_late_position() {
    let (out, ok) = tictactoe(&["analyze", "--connect-four", "--json", "112233"], "");
    assert!(ok, "{out}");
    assert!(out.contains("\"best_move\":\"4\""), "{out}");
    assert!(out.contains("win in 1"), "{out}");
}

#[test]
fn two_positions_scored_in_a_published_tutorial_score_the_same_here() {
    // The tutorial writes positions as the columns played and scores them as the solver does.
    let mut solver = Solver::new(16);
    for (moves, score) in [("4455", 18), ("44455554221", -15)] {
        let board = ConnectFour::default().after_columns(moves).unwrap();
        assert_eq!(
            solver.solve(&board, None, Meter::Work),
            Some(score),
            "{moves}"
        );
    }
}

#[test]
fn every_level_takes_a_win_in_one_and_from_level_two_blocks_a_loss_in_one() {
    use tictactoe::ai::levels::Level;
    use tictactoe::ai::player::{Brain, Player};
    use tictactoe::rules::position::{Move, Position};
    let win = Position::from(ConnectFour::default().after_columns("112233").unwrap());
    // O to move: X's three along the bottom wins on column 4 unless O drops there.
    let block = Position::from(ConnectFour::default().after_columns("11223").unwrap());
    let four = Move::Column(Column(3));
    for n in 1..=Level::TOP {
        for seed in 0..5 {
            let mut brain = Brain::new(Some(seed)).with_think(std::time::Duration::from_millis(50));
            let level = Player::Ai(Level::new(n).unwrap());
            assert_eq!(brain.choose(level, &win), Some(four), "level {n} wins");
            if n >= 2 {
                assert_eq!(brain.choose(level, &block), Some(four), "level {n} blocks");
            }
        }
    }
}

#[test]
fn a_game_given_as_the_columns_run_together_starts_there_and_is_reviewed() {
    let (out, _) = tictactoe(
        &["--plain", "--connect-four", "-o", "human", "--from", "4453"],
        "q\n",
    );
    assert!(out.contains("| . . O X X . . |"), "{out}");
    assert!(out.contains("| . . . O . . . |"), "{out}");
    let (out, ok) = tictactoe(&["review", "--connect-four", "--think", "20", "4453"], "");
    assert!(ok, "{out}");
    assert!(out.contains("4. O 3"), "{out}");
}
