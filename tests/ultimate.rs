//! Ultimate tic-tac-toe: the rules checked against a deliberately simple implementation over
//! thousands of random games, the notation, move parsing, and the AI's solver and cancel.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tictactoe::ai::mcts::{Effort, Leaf, Mcts, Prior, Settings};
use tictactoe::ai::player::Brain;
use tictactoe::ai::search::Value;
use tictactoe::rules::classic::Mark;
use tictactoe::rules::position::{Move as PlayedMove, Position};
use tictactoe::rules::ultimate::{
    Move, MoveError, Outcome, ParseMoveError, ParseUltimateError, SmallStatus, UltimateBoard,
};

/// The rules written the plain way: a grid of characters indexed by board and cell (numpad
/// digit minus one), lines as triples of indices, and everything recomputed on demand.
#[derive(Clone)]
struct Naive {
    cells: [[char; 9]; 9],
    /// The cell last played, which names the board the side to move is sent to.
    sent_to: Option<usize>,
    turn: char,
}

const TRIPLES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

fn three_in_a_row(grid: &[char; 9]) -> Option<char> {
    TRIPLES.iter().find_map(|&[a, b, c]| {
        (grid[a] != ' ' && grid[a] == grid[b] && grid[b] == grid[c]).then_some(grid[a])
    })
}

impl Naive {
    fn new() -> Naive {
        Naive {
            cells: [[' '; 9]; 9],
            sent_to: None,
            turn: 'X',
        }
    }

    fn small_winner(&self, b: usize) -> Option<char> {
        three_in_a_row(&self.cells[b])
    }

    fn closed(&self, b: usize) -> bool {
        self.small_winner(b).is_some() || !self.cells[b].contains(&' ')
    }

    fn big(&self) -> [char; 9] {
        std::array::from_fn(|b| self.small_winner(b).unwrap_or(' '))
    }

    fn winner(&self) -> Option<char> {
        three_in_a_row(&self.big())
    }

    fn over(&self) -> bool {
        self.winner().is_some() || (0..9).all(|b| self.closed(b))
    }

    fn forced(&self) -> Option<usize> {
        self.sent_to.filter(|&b| !self.closed(b) && !self.over())
    }

    fn legal(&self) -> Vec<(usize, usize)> {
        if self.over() {
            return Vec::new();
        }
        let boards: Vec<usize> = match self.forced() {
            Some(b) => vec![b],
            None => (0..9).filter(|&b| !self.closed(b)).collect(),
        };
        let mut moves = Vec::new();
        for b in boards {
            for c in 0..9 {
                if self.cells[b][c] == ' ' {
                    moves.push((b, c));
                }
            }
        }
        moves
    }

    fn play(&mut self, b: usize, c: usize) {
        self.cells[b][c] = self.turn;
        self.sent_to = Some(c);
        self.turn = if self.turn == 'X' { 'O' } else { 'X' };
    }
}

fn mv(b: usize, c: usize) -> Move {
    Move::new(b as u8 + 1, c as u8 + 1).unwrap()
}

fn ch(mark: Option<Mark>) -> char {
    mark.map_or(' ', Mark::symbol)
}

fn position(s: &str) -> UltimateBoard {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Checks every observable of `board` against `naive`.
fn agree(board: &UltimateBoard, naive: &Naive) {
    let mut expected = naive.legal();
    expected.sort_unstable();
    let got: Vec<(usize, usize)> = board
        .legal_moves()
        .into_iter()
        .map(|m| (usize::from(m.board() - 1), usize::from(m.cell() - 1)))
        .collect();
    assert_eq!(got, expected, "legal moves of {board}");
    assert_eq!(board.legal_moves().len(), expected.len());
    assert_eq!(board.to_move().symbol(), naive.turn, "{board}");
    assert_eq!(
        board.forced_board(),
        naive.forced().map(|b| b as u8 + 1),
        "{board}"
    );
    for b in 0..9 {
        let status = board.small_board_status(b as u8 + 1);
        let want = match (naive.small_winner(b), naive.closed(b)) {
            (Some('X'), _) => SmallStatus::Won(Mark::X),
            (Some(_), _) => SmallStatus::Won(Mark::O),
            (None, true) => SmallStatus::Full,
            (None, false) => SmallStatus::Open,
        };
        assert_eq!(status, want, "board {} of {board}", b + 1);
        for c in 0..9 {
            assert_eq!(
                ch(board.mark_at(b as u8 + 1, c as u8 + 1)),
                naive.cells[b][c]
            );
        }
    }
    match (board.outcome(), naive.winner()) {
        (Outcome::Won { winner, line }, Some(w)) => {
            assert_eq!(winner.symbol(), w);
            let big = naive.big();
            for d in line.digits() {
                assert_eq!(big[usize::from(d - 1)], w, "line board {d} of {board}");
            }
            assert!(line.digits().count() >= 3);
        }
        (Outcome::Draw, None) => assert!(naive.over(), "{board}"),
        (Outcome::InProgress, None) => assert!(!naive.over(), "{board}"),
        (outcome, w) => panic!("{board}: {outcome:?} but the simple rules say {w:?}"),
    }
}

#[test]
fn rules_agree_with_a_simple_implementation_over_random_games() {
    let mut rng = fastrand::Rng::with_seed(7);
    let (mut x_wins, mut o_wins, mut draws) = (0, 0, 0);
    let (mut full_boards, mut sent_to_closed) = (0, 0);
    for _ in 0..2000 {
        let mut board = UltimateBoard::new();
        let mut naive = Naive::new();
        loop {
            agree(&board, &naive);
            // The notation round-trips at every step.
            let text = board.to_string();
            assert_eq!(position(&text), board, "{text}");
            assert_eq!(position(&text).to_string(), text);
            let legal = naive.legal();
            if legal.is_empty() {
                break;
            }
            if naive.sent_to.is_some() && naive.forced().is_none() {
                sent_to_closed += 1;
            }
            // An illegal move is refused, and leaves the board as it was.
            let (b, c) = (rng.usize(..9), rng.usize(..9));
            if !legal.contains(&(b, c)) {
                let before = board;
                let err = board.play(mv(b, c)).unwrap_err();
                assert_eq!(board, before);
                let expected = if naive.cells[b][c] != ' ' && naive.forced().is_none_or(|f| f == b)
                {
                    if naive.closed(b) {
                        MoveError::ClosedBoard(mv(b, c))
                    } else {
                        MoveError::Occupied(mv(b, c))
                    }
                } else if let Some(f) = naive.forced().filter(|&f| f != b) {
                    MoveError::WrongBoard {
                        forced: f as u8 + 1,
                        played: mv(b, c),
                    }
                } else {
                    MoveError::ClosedBoard(mv(b, c))
                };
                assert_eq!(err, expected, "{b} {c} on {board}");
            }
            let (b, c) = legal[rng.usize(..legal.len())];
            let m = mv(b, c);
            // Both names of the move parse back to it.
            assert_eq!(board.parse_move(&m.to_string()), Ok(m));
            assert_eq!(board.parse_move(&m.coordinate()), Ok(m));
            if board.forced_board().is_some() {
                assert_eq!(board.parse_move(&m.cell().to_string()), Ok(m));
            }
            board.play(m).unwrap();
            naive.play(b, c);
            full_boards += (0..9)
                .filter(|&b| naive.closed(b) && naive.small_winner(b).is_none())
                .count();
        }
        let finished = board;
        assert!(finished.legal_moves().is_empty());
        assert_eq!(board.play(mv(0, 0)), Err(MoveError::GameOver), "{finished}");
        match finished.outcome() {
            Outcome::Won {
                winner: Mark::X, ..
            } => x_wins += 1,
            Outcome::Won { .. } => o_wins += 1,
            Outcome::Draw => draws += 1,
            Outcome::InProgress => unreachable!(),
        }
    }
    // The random games reached every kind of ending and every special rule.
    assert!(
        x_wins > 100 && o_wins > 100 && draws > 20,
        "{x_wins} {o_wins} {draws}"
    );
    assert!(full_boards > 100 && sent_to_closed > 1000);
}

#[test]
fn the_notation_is_documented_and_round_trips() {
    let empty = "........./........./........./........./........./........./........./........./......... *";
    assert_eq!(UltimateBoard::new().to_string(), empty);
    let mut board = UltimateBoard::new();
    board.play("53".parse().unwrap()).unwrap();
    assert_eq!(
        board.to_string(),
        "........./........./........./........./........./.....X.../........./........./......... 3"
    );
    assert_eq!(board.forced_board(), Some(3));
    assert_eq!(board.to_move(), Mark::O);
    // Either case, surrounding whitespace.
    let lower = "  ........./........./........./........./........./.....x.../........./........./......... 3\n";
    assert_eq!(position(lower), board);
}

#[test]
fn random_positions_round_trip_through_the_notation() {
    let mut rng = fastrand::Rng::with_seed(11);
    for _ in 0..500 {
        let mut board = UltimateBoard::new();
        let stop = rng.usize(..81);
        for _ in 0..stop {
            let moves = board.legal_moves();
            if moves.is_empty() {
                break;
            }
            board
                .play(moves.nth(rng.usize(..moves.len())).unwrap())
                .unwrap();
        }
        let text = board.to_string();
        let back = position(&text);
        assert_eq!(back, board);
        assert_eq!(back.legal_moves(), board.legal_moves());
        assert_eq!(back.outcome(), board.outcome());
    }
}

/// A grid from nine rows written with spaces between small boards, for readable tests.
fn grid(rows: [&str; 9], forced: &str) -> String {
    let rows: Vec<String> = rows.iter().map(|r| r.replace(' ', "")).collect();
    format!("{} {forced}", rows.join("/"))
}

#[test]
fn malformed_positions_are_rejected_naming_the_fault() {
    let err = |s: &str| s.parse::<UltimateBoard>().unwrap_err();
    let empty = ["... ... ..."; 9];
    assert_eq!(err(&grid(empty, "")), ParseUltimateError::Forced(None));
    assert_eq!(
        err(
            "........./........./........./........./........./........./........./........./........."
        ),
        ParseUltimateError::Forced(None)
    );
    assert_eq!(
        err(&grid(empty, "0")),
        ParseUltimateError::Forced(Some("0".into()))
    );
    assert_eq!(
        err(&grid(empty, "x")).to_string(),
        "'x' is not a forced board: use a digit 1-9, or * for any board"
    );
    assert_eq!(err("./. *"), ParseUltimateError::RowCount(2));
    let mut short = empty;
    short[3] = "... ... ..";
    assert_eq!(
        err(&grid(short, "*")),
        ParseUltimateError::RowLength { row: 4, found: 8 }
    );
    let mut bad = empty;
    bad[1] = "... .Z. ...";
    assert_eq!(
        err(&grid(bad, "*")).to_string(),
        "unexpected 'Z' at row 2, column 5: cells are X, O or '.'"
    );
}

#[test]
fn positions_with_wrong_counts_or_forced_boards_are_rejected_naming_the_fault() {
    let err = |s: &str| s.parse::<UltimateBoard>().unwrap_err();
    let empty = ["... ... ..."; 9];
    // Two X and no O.
    let mut two = empty;
    two[8] = "XX. ... ...";
    assert_eq!(
        err(&grid(two, "*")),
        ParseUltimateError::MarkCounts { x: 2, o: 0 }
    );
    // The forced board at the start.
    assert!(matches!(
        err(&grid(empty, "5")),
        ParseUltimateError::ForcedUnreachable {
            forced: Some(5),
            ..
        }
    ));
    // X on cell 7 of board 1 sends O to board 7, not 5.
    let mut one = empty;
    one[6] = "X.. ... ...";
    assert_eq!(position(&grid(one, "7")).forced_board(), Some(7));
    let e = err(&grid(one, "5"));
    assert_eq!(
        e,
        ParseUltimateError::ForcedUnreachable {
            forced: Some(5),
            last: Mark::X
        }
    );
    assert_eq!(
        e.to_string(),
        "no last move of X sends O to board 5: it must have played cell 5 of some board"
    );
    // Board 1 is open, so O cannot play anywhere.
    assert!(matches!(
        err(&grid(one, "*")),
        ParseUltimateError::ForcedUnreachable { forced: None, .. }
    ));
    assert!(err(&"X".repeat(500)).to_string().contains("too long"));
}

#[test]
fn positions_with_play_after_a_win_are_rejected_naming_the_fault() {
    let err = |s: &str| s.parse::<UltimateBoard>().unwrap_err();
    let empty = ["... ... ..."; 9];
    // Both have a line on board 7 (the top-left board).
    let mut both = empty;
    both[0] = "XXX ... ...";
    both[1] = "OOO ... ...";
    both[8] = "... ... ..X";
    assert_eq!(err(&grid(both, "*")), ParseUltimateError::SmallBothWon(7));
    // X has two separate lines on board 7: no single move made both.
    let mut twice = empty;
    twice[0] = "XXX ... ...";
    twice[2] = "XXX ... ...";
    twice[4] = "... OOO ...";
    twice[5] = "... ..O ...";
    assert_eq!(
        err(&grid(twice, "*")),
        ParseUltimateError::SmallPlayedOn {
            board: 7,
            winner: Mark::X
        }
    );
    assert_eq!(
        err(&grid(twice, "*")).to_string(),
        "X won board 7 but play went on there: a board closes at its first line"
    );
    // X won board 1 (bottom row of board 1); O to move, sent to board 1 which is closed.
    let mut won = empty;
    won[8] = "XXX ... ...";
    won[4] = "... O.. ...";
    won[3] = "... O.. ...";
    assert_eq!(err(&grid(won, "1")), ParseUltimateError::ForcedClosed(1));
    // Boards 1, 2 and 3 won by X: the game is over.
    let mut game = empty;
    game[8] = "XXX XXX XXX";
    game[0] = "OO. OO. OO.";
    game[1] = "O.. O.. ...";
    let over = position(&grid(game, "*"));
    assert!(matches!(
        over.outcome(),
        Outcome::Won {
            winner: Mark::X,
            ..
        }
    ));
    assert_eq!(err(&grid(game, "4")), ParseUltimateError::ForcedAfterEnd(4));
    // ... and O played on after it.
    game[1] = "O.. O.. O..";
    assert_eq!(
        err(&grid(game, "*")),
        ParseUltimateError::PlayedAfterEnd(Mark::X)
    );
    assert_eq!(
        err(&grid(game, "*")).to_string(),
        "X has three boards in a row but play went on: the game stops at the first"
    );
    // Both with three boards in a row.
    let mut two_lines = empty;
    two_lines[8] = "XXX XXX XXX";
    two_lines[0] = "OOO OOO OOO";
    assert_eq!(err(&grid(two_lines, "*")), ParseUltimateError::BothWon);
}

#[test]
fn moves_are_named_by_digits_or_coordinates_strictly() {
    let m = |b, c| Move::new(b, c).unwrap();
    assert_eq!("53".parse::<Move>(), Ok(m(5, 3)));
    assert_eq!(m(5, 3).coordinate(), "f4");
    assert_eq!("F4".parse::<Move>(), Ok(m(5, 3)));
    assert_eq!(" a1 ".parse::<Move>(), Ok(m(1, 1)));
    assert_eq!("i9".parse::<Move>(), Ok(m(9, 9)));
    assert_eq!("e5".parse::<Move>(), Ok(m(5, 5)));
    assert_eq!("a9".parse::<Move>(), Ok(m(7, 7)));
    assert_eq!(m(3, 3).to_string(), "33");
    for i in 0..81 {
        let mv = Move::from_index(i).unwrap();
        assert_eq!(Move::at(mv.col(), mv.row()), Some(mv));
        assert_eq!(mv.coordinate().parse::<Move>(), Ok(mv));
        assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
    }
    assert_eq!(Move::new(0, 1), None);
    assert_eq!(Move::new(1, 10), None);
    assert_eq!(Move::from_index(81), None);
    for off in [
        "50",
        "05x",
        "0",
        "123",
        "j1",
        "a10",
        "a0",
        "-5",
        "-53",
        "99999999999999999999999",
    ] {
        let got = off.parse::<Move>();
        if off == "05x" {
            assert!(matches!(got, Err(ParseMoveError::Unknown(_))), "{off}");
        } else {
            assert!(
                matches!(got, Err(ParseMoveError::OffBoard(_))),
                "{off}: {got:?}"
            );
        }
    }
    for bad in [
        "+53", "053", "05", "5 3", "e05", "e+5", "53x", "x", "é5", "e", "--5",
    ] {
        assert!(
            matches!(bad.parse::<Move>(), Err(ParseMoveError::Unknown(_))),
            "{bad}: {:?}",
            bad.parse::<Move>()
        );
    }
    assert_eq!("  ".parse::<Move>(), Err(ParseMoveError::Empty));
    // A single digit names a cell of the forced board, and only then.
    let start = UltimateBoard::new();
    assert_eq!(
        start.parse_move("3"),
        Err(ParseMoveError::BoardNeeded("3".into()))
    );
    assert_eq!(
        start.parse_move("3").unwrap_err().to_string(),
        "'3' names a cell but no board: you may play in any open board, so type two digits like 53"
    );
    let after = start.with_move(m(5, 3)).unwrap();
    assert_eq!(after.parse_move("7"), Ok(m(3, 7)));
    assert!(matches!(
        after.parse_move("0"),
        Err(ParseMoveError::OffBoard(_))
    ));
    assert_eq!(
        "+5".parse::<Move>().unwrap_err().to_string(),
        "'+5' is not a move: type the board and the cell as two digits (53: board 5, cell 3; 7 8 9 is the top row) or a coordinate like e5"
    );
    assert_eq!(
        "50".parse::<Move>().unwrap_err().to_string(),
        "50 is not on the board: moves are a board and a cell 1-9 (like 53) or a1-i9"
    );
}

#[test]
fn illegal_moves_are_refused_and_leave_the_board_unchanged() {
    let m = |b, c| Move::new(b, c).unwrap();
    let mut board = UltimateBoard::new();
    board.play(m(5, 3)).unwrap();
    let before = board;
    assert_eq!(
        board.play(m(4, 1)),
        Err(MoveError::WrongBoard {
            forced: 3,
            played: m(4, 1)
        })
    );
    assert_eq!(
        board.play(m(4, 1)).unwrap_err().to_string(),
        "you were sent to board 3, not board 4"
    );
    board.play(m(3, 5)).unwrap();
    assert_eq!(board.play(m(5, 3)), Err(MoveError::Occupied(m(5, 3))));
    assert_eq!(
        board.play(m(5, 3)).unwrap_err().to_string(),
        "cell 3 of board 5 is taken"
    );
    assert_ne!(board, before);
    let snapshot = board;
    assert!(board.play(m(5, 3)).is_err());
    assert_eq!(board, snapshot);
}

/// The moves of `naive` that end the game with a win for the side to move.
fn winning_now(naive: &Naive) -> Vec<(usize, usize)> {
    naive
        .legal()
        .into_iter()
        .filter(|&(b, c)| {
            let mut n = naive.clone();
            n.play(b, c);
            n.winner() == Some(naive.turn)
        })
        .collect()
}

/// Whether the side to move wins within three plies: a move after which every reply allows a
/// winning move (a reply that ends the game spoils it).
fn wins_in_three(naive: &Naive) -> bool {
    naive.legal().into_iter().any(|(b, c)| {
        let mut n = naive.clone();
        n.play(b, c);
        !n.over()
            && n.legal().into_iter().all(|(b2, c2)| {
                let mut r = n.clone();
                r.play(b2, c2);
                !r.over() && !winning_now(&r).is_empty()
            })
    })
}

/// Positions of random games where the side to move wins at once, and where it wins in three
/// plies but not at once.
fn wins_found_by_brute_force(count: usize) -> (Vec<UltimateBoard>, Vec<UltimateBoard>) {
    let mut rng = fastrand::Rng::with_seed(3);
    let (mut in_one, mut in_three) = (Vec::new(), Vec::new());
    while in_one.len() < count || in_three.len() < count {
        let mut board = UltimateBoard::new();
        let mut naive = Naive::new();
        let mut history = Vec::new();
        while !naive.over() {
            history.push((board, naive.clone()));
            let legal = naive.legal();
            let (b, c) = legal[rng.usize(..legal.len())];
            board.play(mv(b, c)).unwrap();
            naive.play(b, c);
        }
        // Only the last few positions can hide a quick win.
        for (board, naive) in history.iter().rev().take(6) {
            if !winning_now(naive).is_empty() {
                if in_one.len() < count {
                    in_one.push(*board);
                }
            } else if in_three.len() < count && wins_in_three(naive) {
                in_three.push(*board);
            }
        }
    }
    (in_one, in_three)
}

#[test]
fn the_solver_proves_wins_in_one_and_in_three_plies() {
    let (in_one, in_three) = wins_found_by_brute_force(8);
    for board in in_one {
        // Generating the root's moves is enough: no time at all.
        let choice = Mcts::new(Some(1)).think(&board, Duration::ZERO).unwrap();
        assert_eq!(choice.value, Value::Win(1), "{board}");
        let after = board.with_move(choice.mv).unwrap();
        assert!(
            matches!(after.outcome(), Outcome::Won { winner, .. } if winner == board.to_move()),
            "{board}"
        );
    }
    for board in in_three {
        // `hard`, guided by the learned evaluation, and the search with random games.
        for settings in [Settings::HARD, Settings::FROZEN] {
            let mut mcts = Mcts::new(Some(2)).with_settings(settings);
            let choice = mcts.think(&board, Duration::from_secs(20)).unwrap();
            assert_eq!(choice.value, Value::Win(3), "{board} {settings:?}");
            // Proven, so the search stopped early.
            assert!(mcts.iterations() < 1_000_000, "{board} {settings:?}");
            // Every reply leaves a win in one.
            let after = board.with_move(choice.mv).unwrap();
            for reply in after.legal_moves() {
                let next = after.with_move(reply).unwrap();
                let c = Mcts::new(None).think(&next, Duration::ZERO).unwrap();
                assert_eq!(c.value, Value::Win(1), "{board} then {} {reply}", choice.mv);
            }
        }
    }
}

#[test]
fn a_raised_cancel_flag_stops_a_long_think() {
    let flag = Arc::new(AtomicBool::new(false));
    let mut mcts = Mcts::new(Some(5));
    mcts.set_cancel(Some(flag.clone()));
    let worker = std::thread::spawn(move || {
        let start = Instant::now();
        let result = mcts.think(&UltimateBoard::new(), Duration::from_mins(10));
        (result, start.elapsed())
    });
    std::thread::sleep(Duration::from_millis(50));
    flag.store(true, Ordering::Relaxed);
    let (result, elapsed) = worker.join().unwrap();
    assert_eq!(result, None);
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
}

#[test]
fn the_tree_is_kept_for_the_reply_and_bounded_by_its_cap() {
    let board = UltimateBoard::new();
    // The search with random games, which spreads its iterations more widely than `hard`.
    let frozen = || Mcts::new(Some(9)).with_settings(Settings::FROZEN);
    let mut mcts = frozen();
    let first = mcts.think_iterations(&board, 3000).unwrap();
    let after = board.with_move(first.mv).unwrap();
    // No iterations: only what was kept of the move played, and the reply it expects.
    let reply = mcts.think_iterations(&after, 0).unwrap().mv;
    assert!(mcts.nodes() > 100, "{}", mcts.nodes());
    // Two plies on: the reply's subtree.
    let mut mcts = frozen();
    mcts.think_iterations(&board, 3000).unwrap();
    let next = after.with_move(reply).unwrap();
    mcts.think_iterations(&next, 0).unwrap();
    assert!(mcts.nodes() > 50, "{}", mcts.nodes());
    // A position not reached from the last root starts afresh.
    let elsewhere = board.with_move(Move::new(1, 1).unwrap()).unwrap();
    let elsewhere = elsewhere.with_move(Move::new(1, 2).unwrap()).unwrap();
    let elsewhere = elsewhere.with_move(Move::new(2, 3).unwrap()).unwrap();
    mcts.think_iterations(&elsewhere, 0).unwrap();
    assert_eq!(mcts.nodes(), elsewhere.legal_moves().len() + 1);
    let mut small = Mcts::new(Some(9)).with_node_cap(500);
    let choice = small.think_iterations(&board, 20_000).unwrap();
    assert!(small.nodes() <= 500);
    assert!(board.is_legal(choice.mv));
}

#[test]
fn every_effort_plays_legal_moves_to_the_end() {
    let mut mcts = Mcts::new(Some(4));
    for effort in [Effort::Easy, Effort::Medium, Effort::Hard] {
        let mut board = UltimateBoard::new();
        while board.outcome() == Outcome::InProgress {
            let mv = mcts
                .choose(effort, &board, Duration::from_millis(2))
                .unwrap();
            board.play(mv).unwrap();
        }
        assert_eq!(mcts.choose(effort, &board, Duration::ZERO), None);
    }
}

#[test]
fn analysis_values_every_move_and_review_sees_a_thrown_win() {
    let (in_one, _) = wins_found_by_brute_force(1);
    let board = in_one[0];
    let mut mcts = Mcts::new(Some(6));
    let all = mcts.analyze(&board, Duration::from_millis(50));
    assert_eq!(all.len(), board.legal_moves().len());
    assert!(all.iter().any(|&(_, v)| v == Value::Win(1)));
    // A move that does not win at once, judged against the win by the brain the review asks.
    let Some(&(slow, _)) = all.iter().find(|&&(_, v)| v != Value::Win(1)) else {
        return;
    };
    let mut brain = Brain::new(Some(6)).with_think(Duration::from_millis(20));
    let position = Position::Ultimate(board);
    let verdict = brain.judge(&position, PlayedMove::Ultimate(slow)).unwrap();
    assert_eq!(verdict.before, Value::Win(1));
    assert!(verdict.after < Value::Win(1), "{verdict:?}");
    let best = brain.judge(&position, verdict.best).unwrap();
    assert_eq!((best.before, best.after), (Value::Win(1), Value::Win(1)));
    assert!((Value::WinRate(620).rate().unwrap() - 0.62).abs() < 1e-6);
}

/// A game of the search with `settings` against itself, `iterations` a move, from `seed`.
fn self_play(settings: Settings, seed: u64, iterations: u64) -> Vec<Move> {
    let mut mcts = Mcts::new(Some(seed)).with_settings(settings);
    let mut board = UltimateBoard::new();
    let mut moves = Vec::new();
    while board.outcome() == Outcome::InProgress {
        let mv = mcts.think_iterations(&board, iterations).unwrap().mv;
        board.play(mv).expect("the search plays legal moves");
        moves.push(mv);
    }
    moves
}

#[test]
fn the_learned_evaluation_plays_legal_games_that_replay_and_takes_wins_in_one() {
    let (in_one, _) = wins_found_by_brute_force(4);
    for leaf in Leaf::ALL {
        for prior in [Prior::Hand, Prior::Network] {
            let settings = Settings {
                leaf,
                prior,
                ..Settings::HARD
            };
            let game = self_play(settings, 3, 300);
            assert_eq!(self_play(settings, 3, 300), game, "{settings:?}");
            for board in &in_one {
                let mut mcts = Mcts::new(Some(1)).with_settings(settings);
                let choice = mcts.think_iterations(board, 200).unwrap();
                assert_eq!(choice.value, Value::Win(1), "{board} {settings:?}");
                let after = board.with_move(choice.mv).unwrap();
                assert!(matches!(after.outcome(), Outcome::Won { .. }), "{board}");
            }
        }
    }
}
