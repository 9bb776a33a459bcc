//! A small Gomocup (piskvork) manager: plays two brains that speak the protocol on their
//! standard input and output against each other on 15×15 (or another side, `--size`), refereed by our rules, and prints
//! the first brain's score with a 95% Wilson interval:
//!
//! ```text
//! cargo run --release --example gomocup_match -- \
//!     --first "target/release/tictactoe --seed 1 engine --protocol gomocup" \
//!     --second "/path/to/another/tictactoe --seed 1 engine --protocol gomocup" --games 100
//! ```
//!
//! Each game starts from the openings of `--openings FILE` (one a line, `x,y` points from
//! the top left in the order played, black first, as `balanced-15.txt` has them), taken in
//! turn, or else from two stones drawn near the centre from `--seed`; each opening is
//! played twice, each brain moving first once. `--concurrency N` plays N games at once,
//! each with brains of its own. The time each brain took, a move on average, is printed
//! beside the score. Every move the brain to move gets the whole
//! position (`BOARD` … `DONE`) and answers `x,y`; `INFO timeout_turn` gives it `--think`
//! milliseconds, and `INFO rule 1` asks for exactly five with `--exact`. A brain that answers
//! an illegal move, or nothing, loses that game.
//!
//! For brains that need it: `--turns` sends the whole position only at a game's start and
//! the other side's move (`TURN x,y`) after it, as piskvork does; `--settle MS` waits before
//! each position, for a brain that writes its move before it reads again; `--fresh` starts
//! both brains anew for every game.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Duration;

use clap::Parser;
use tictactoe::ai::rating;
use tictactoe::rules::classic::{Cell, Mark};
use tictactoe::rules::gomoku::{self, Gomoku};

#[path = "common/openings.rs"]
mod openings;

#[derive(Parser)]
#[command(about = "Plays two Gomocup brains against each other on 15×15 (or --size)")]
struct Args {
    /// The first brain's command line (split on spaces).
    #[arg(long)]
    first: String,
    /// The second brain's command line.
    #[arg(long)]
    second: String,
    /// Games, in pairs (rounded up to an even number).
    #[arg(long, default_value_t = 20)]
    games: u32,
    /// Milliseconds each move may take (`INFO timeout_turn`).
    #[arg(long, default_value_t = 100)]
    think: u64,
    /// Exactly five in a row wins (`INFO rule 1`); five or more otherwise.
    #[arg(long)]
    exact: bool,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The board's side, 8 to 15 (`START n`), five in a row.
    #[arg(long, default_value_t = gomoku::SIZE, value_parser = clap::value_parser!(u8).range(8..=15))]
    size: u8,
    /// Print each game's moves and result (as a record for `tictactoe review`).
    #[arg(long)]
    records: bool,
    /// A file of openings, one a line: `x,y` points, black first.
    #[arg(long)]
    openings: Option<std::path::PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// How the brains are spoken to, for brains that need it.
    #[command(flatten)]
    manners: Manners,
}

/// What some brains need of a manager beyond the protocol.
#[derive(clap::Args)]
struct Manners {
    /// Start both brains afresh for every game, for a brain that does not take a second
    /// `START` well.
    #[arg(long)]
    fresh: bool,
    /// Milliseconds to wait before sending a brain a position, for a brain that writes its
    /// move before it is ready to read again (and takes the next `BOARD` for noise).
    #[arg(long, default_value_t = 0)]
    settle: u64,
    /// After a game's first position, tell each brain only the other side's move (`TURN`),
    /// as piskvork does, for a brain that reads `BOARD` only at a game's start.
    #[arg(long)]
    turns: bool,
}

/// A brain's process, spoken to one line at a time.
struct Brain {
    /// The last answer to a position, as the brain wrote it.
    last: String,
    /// Time spent answering, and moves answered.
    spent: std::time::Duration,
    answered: u32,
    /// How long to wait before a position, and whether to send `TURN` after the first.
    settle: Duration,
    turns: bool,
    /// The moves of the game this brain has been told of, where it has been told any.
    told: Option<usize>,
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Brain {
    fn start(command: &str, args: &Args) -> Brain {
        let mut words = command.split_whitespace();
        let program = words.next().expect("a command");
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("{command}: {e}"));
        let input = child.stdin.take().expect("piped");
        let output = BufReader::new(child.stdout.take().expect("piped"));
        Brain {
            last: String::new(),
            spent: std::time::Duration::ZERO,
            answered: 0,
            settle: Duration::from_millis(args.manners.settle),
            turns: args.manners.turns,
            told: None,
            child,
            input,
            output,
        }
    }

    fn send(&mut self, text: &str) {
        self.input
            .write_all(text.as_bytes())
            .expect("the brain reads");
        self.input.flush().expect("the brain reads");
    }

    /// The next answer, skipping `MESSAGE` and `DEBUG` lines; `None` once the brain is gone.
    fn answer(&mut self) -> Option<String> {
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).ok()? == 0 {
                return None;
            }
            let line = line.trim();
            if !line.starts_with("MESSAGE") && !line.starts_with("DEBUG") {
                return Some(line.to_string());
            }
        }
    }

    /// A new game: `START n` and the rules.
    fn new_game(&mut self, args: &Args) {
        self.told = None;
        self.send(&format!("START {}\n", args.size));
        assert_eq!(self.answer().as_deref(), Some("OK"), "START answered");
        let rule = u8::from(args.exact);
        self.send(&format!(
            "INFO timeout_turn {}\nINFO rule {rule}\n",
            args.think
        ));
    }

    /// The brain's move in `board`, reached by `moves`, where its stones are `mine`'s. The
    /// stones go in the order they were played, as piskvork sends them: brains that replay
    /// `BOARD` as a game misread a position given in any other order.
    fn choose(&mut self, board: &Gomoku, moves: &[Cell], mine: Mark) -> Option<Cell> {
        let n = board.size();
        let point = |cell: Cell| (cell.col(), n - 1 - cell.row());
        let text = match (self.told, moves.last()) {
            (Some(told), Some(&last)) if self.turns && told + 1 == moves.len() => {
                let (x, y) = point(last);
                format!("TURN {x},{y}\n")
            }
            (None, None) if self.turns => "BEGIN\n".to_string(),
            _ => {
                let mut text = String::from("BOARD\n");
                for &cell in moves {
                    if let Some(mark) = board.mark_at(cell) {
                        let (x, y) = point(cell);
                        let field = if mark == mine { 1 } else { 2 };
                        let _ = writeln!(text, "{x},{y},{field}");
                    }
                }
                text.push_str("DONE\n");
                text
            }
        };
        self.told = Some(moves.len() + 1);
        std::thread::sleep(self.settle);
        let began = std::time::Instant::now();
        self.send(&text);
        let answer = self.answer()?;
        self.last.clone_from(&answer);
        self.spent += began.elapsed();
        self.answered += 1;
        let (x, y) = answer.split_once(',')?;
        let (x, y): (u8, u8) = (x.trim().parse().ok()?, y.trim().parse().ok()?);
        board.cell_at(n.checked_sub(1)?.checked_sub(y)?, x)
    }
}

impl Drop for Brain {
    fn drop(&mut self) {
        self.send("END\n");
        let _ = self.child.wait();
    }
}

/// Two different stones within two points of the centre of a board of side `size`, from
/// `rng`.
fn opening(rng: &mut fastrand::Rng, size: u8, exact: bool) -> (Gomoku, Vec<Cell>) {
    let mut board = Gomoku::with_rules(size, gomoku::FIVE, exact).expect("a side of 8 to 15");
    let near = size / 2 - 2..size / 2 + 3;
    let mut moves = Vec::new();
    while board.stones() < 2 {
        let cell = board
            .cell_at(rng.u8(near.clone()), rng.u8(near.clone()))
            .expect("on the board");
        if board.play(cell).is_ok() {
            moves.push(cell);
        }
    }
    (board, moves)
}

/// Plays one game from `board`; the first brain plays X when `first_is_x`. Its score.
fn game(
    brains: &mut [Brain; 2],
    start: &(Gomoku, Vec<Cell>),
    first_is_x: bool,
    args: &Args,
) -> f64 {
    let (mut board, mut moves) = start.clone();
    for brain in brains.iter_mut() {
        brain.new_game(args);
    }
    let index = |mark: Mark| usize::from((mark == Mark::X) != first_is_x);
    while !board.is_over() {
        let mark = board.to_move();
        let brain = &mut brains[index(mark)];
        let legal = brain
            .choose(&board, &moves, mark)
            .filter(|&c| board.play(c).is_ok());
        moves.extend(legal);
        if legal.is_none() {
            eprintln!(
                "brain {} made no legal move (it answered {:?}) in\n{board}",
                index(mark) + 1,
                brain.last
            );
            return if index(mark) == 0 { 0.0 } else { 1.0 };
        }
    }
    if args.records {
        let names: Vec<String> = moves.iter().map(ToString::to_string).collect();
        let first = if first_is_x { "X" } else { "O" };
        println!(
            "the first brain played {first}; {:?} won: {}",
            board.winner(),
            names.join(" ")
        );
    }
    match board.winner() {
        Some(mark) if index(mark) == 0 => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// What one runner of games found: points, games, and each brain's time and moves.
#[derive(Default)]
struct Tally {
    score: f64,
    played: u32,
    spent: [std::time::Duration; 2],
    answered: [u32; 2],
}

impl Tally {
    /// Adds the time and the moves of `brains`, about to be ended.
    fn count(&mut self, brains: &[Brain; 2]) {
        for (i, brain) in brains.iter().enumerate() {
            self.spent[i] += brain.spent;
            self.answered[i] += brain.answered;
        }
    }
}

/// Plays both colours of each of `starts` with brains of its own.
fn run(starts: &[(Gomoku, Vec<Cell>)], args: &Args) -> Tally {
    let mut brains = [
        Brain::start(&args.first, args),
        Brain::start(&args.second, args),
    ];
    let mut tally = Tally::default();
    for start in starts {
        for first_is_x in [true, false] {
            if args.manners.fresh && tally.played > 0 {
                tally.count(&brains);
                brains = [
                    Brain::start(&args.first, args),
                    Brain::start(&args.second, args),
                ];
            }
            tally.score += game(&mut brains, start, first_is_x, args);
            tally.played += 1;
        }
        if args.concurrency == 1 {
            let n = f64::from(tally.played);
            let (low, high) = rating::wilson(tally.score / n, n);
            println!(
                "after {} games: the first brain scored {} ({:.3}, 95% {low:.3}-{high:.3})",
                tally.played,
                tally.score,
                tally.score / n
            );
        }
    }
    tally.count(&brains);
    tally
}

fn main() {
    let args = Args::parse();
    let pairs = args.games.div_ceil(2) as usize;
    let starts: Vec<_> = if let Some(path) = &args.openings {
        let all = openings::read(
            path,
            &Gomoku::with_rules(args.size, gomoku::FIVE, args.exact).expect("a side of 8 to 20"),
        );
        all.into_iter().cycle().take(pairs).collect()
    } else {
        let mut rng = fastrand::Rng::with_seed(args.seed);
        (0..pairs)
            .map(|_| opening(&mut rng, args.size, args.exact))
            .collect()
    };
    let chunk = starts.len().div_ceil(args.concurrency.max(1)).max(1);
    let tallies: Vec<Tally> = std::thread::scope(|scope| {
        let runners: Vec<_> = starts
            .chunks(chunk)
            .map(|part| scope.spawn(|| run(part, &args)))
            .collect();
        runners
            .into_iter()
            .map(|r| r.join().expect("a runner"))
            .collect()
    });
    let mut total = Tally::default();
    for t in &tallies {
        total.score += t.score;
        total.played += t.played;
        for i in 0..2 {
            total.spent[i] += t.spent[i];
            total.answered[i] += t.answered[i];
        }
    }
    let n = f64::from(total.played);
    let (low, high) = rating::wilson(total.score / n, n);
    let per_move = |i: usize| total.spent[i].as_millis() / u128::from(total.answered[i].max(1));
    println!(
        "{} games: the first brain scored {} ({:.3}, 95% {low:.3}-{high:.3}); \
         a move took the first {} ms, the second {} ms on average",
        total.played,
        total.score,
        total.score / n,
        per_move(0),
        per_move(1)
    );
}
