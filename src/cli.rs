//! The command line, parsed with clap's derive. Every flag is documented in `--help`.

use clap::{Args, CommandFactory, Parser, Subcommand};

use std::fmt::Write as _;
use std::io::{self, Write};
use std::net::IpAddr;
use std::time::Duration;

use crate::ai::levels::Level;
use crate::ai::player::Player;
use crate::ai::search::DEFAULT_TABLE_MB;
use crate::explain::Algorithm;
use crate::net::join::DEFAULT_PORT;
use crate::rules::catalogue::{Asked, CATALOGUE, Entry, Shape};
use crate::rules::classic::{MIN_SIZE, RulesError};
use crate::rules::gomoku::opening::Opening;
use crate::rules::position::Variant;

/// Tic-tac-toe in the terminal: numpad keys, two players on one keyboard, or an AI. On 3×3
/// the level 7 AI searches the whole game tree and never loses; on boards up to 7×7 it plays
/// perfectly where its value is proven; in Ultimate and Gomoku it searches a budget of time
/// and can be beaten.
// Each bool is an independent on/off flag of the command line, not a hidden state machine.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Parser)]
#[command(
    name = "tictactoe",
    version,
    about = "Tic-tac-toe in the terminal: 3×3 to 7×7, Ultimate, Gomoku; people or an AI",
    long_about,
    // No blank line under the first, nor under the usage: `-h` fits an 80×24 terminal with
    // the prompt below it.
    help_template = "{before-help}{about-with-newline}{usage-heading} {usage}\n{all-args}{after-help}"
)]
#[command(after_help = "\
Cells are a keypad: 7 8 9 / 4 5 6 / 1 2 3. More: tictactoe --help, tictactoe man")]
#[command(after_long_help = "\
Cells are numbered like a numeric keypad:  7 8 9 / 4 5 6 / 1 2 3  (7 is top left).

Examples:
  tictactoe                      the start menu on a terminal (elsewhere you (X) against
                                 the level 7 AI (O), in lines)
  tictactoe -o hard              you (X) against the level 7 AI (O) at once
  tictactoe -o human             two people on one keyboard
  tictactoe -x medium -o human   the AI moves first
  tictactoe -x hard -o easy      the computer against itself
  tictactoe -o 4                 you against level 4 of 7 (easy 1, medium 3, hard 7)
  tictactoe --level auto         an AI whose level follows your results, game after game
  tictactoe --size 5             5×5, four in a row; cells are named a1 to e5
  tictactoe --misere             whoever completes a line loses
  tictactoe --ultimate           Ultimate tic-tac-toe: board then cell, 53
  tictactoe --gomoku             Gomoku: five in a row on 15×15, points a1 to o15
  tictactoe --from 5 1 9         play on from the position these moves reach
  tictactoe analyze X.O/.X./..O  the value of every move
  tictactoe review 5 9 4 6 1     judge every move of a game
  tictactoe stats                your results over all the games kept (`history` lists them)
  tictactoe host                 play a friend over the network: prints how to join
  tictactoe completions bash     a completion script; `tictactoe man` prints the manual")]
pub struct Cli {
    /// Who plays X, which moves first: human, or the AI at a level from 1 (a beginner) to 7
    /// (perfect where proven); easy is level 1, medium level 3, hard level 7
    #[arg(short = 'x', long = "x-player", value_name = "PLAYER", default_value = "human", value_parser = player_parser(), global = true)]
    pub x: Player,

    /// Who plays O: human, easy (1), 2, medium (3), 4, 5, 6 or hard (7)
    #[arg(short = 'o', long = "o-player", value_name = "PLAYER", default_value = "hard", value_parser = player_parser(), global = true)]
    pub o: Player,

    /// The level of the AI you play: 1 to 7 (or easy, medium, hard), or auto: your rating
    /// from your past games on this board (level 4's at first) moves after each game, and
    /// the AI is the level rated nearest to it
    #[arg(long, value_name = "LEVEL", value_parser = level_parser())]
    pub level: Option<LevelChoice>,

    /// Seed every random choice of the AI and replay the game exactly: with a seed each AI
    /// budget (`--think`) is an amount of work, not time (about the same on a typical
    /// machine), so every AI move depends only on the position, the seed and the moves before
    /// it, on any machine under any load
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Use the line-based front end even on a terminal (it is chosen anyway when stdin or
    /// stdout is not a terminal, or `TERM` is `dumb`)
    #[arg(long, global = true)]
    pub plain: bool,

    /// Play in words for a screen reader: the line-based game without grids or symbols,
    /// each move said as a sentence, and commands that read the board, the stones, the last
    /// move, the legal moves and the threats (also the setting `screen_reader`)
    #[arg(long, global = true)]
    pub screen_reader: bool,

    /// Milliseconds the terminal game waits before showing an AI move, so a person can follow
    /// (0 to 5000) [default: 400, or the `delay` of settings.toml]
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(..=u64::from(crate::store::settings::MAX_DELAY)))]
    pub delay: Option<u64>,

    /// Board side, 3 to 20: up to 7 the classic game with --k in a row, from 8 Gomoku's
    /// rules, five in a row unless --k says otherwise (for `analyze`, boards must have this
    /// size)
    #[arg(long, value_name = "N", global = true, value_parser = clap::value_parser!(u8).range(i64::from(MIN_SIZE)..=i64::from(crate::rules::gomoku::MAX_SIZE)))]
    pub size: Option<u8>,

    /// Marks in a row that complete a line, 3 to the board side [default: the shortest line
    /// that still gives a drawn game: 3 on 3×3, 4 on 4×4 and 5×5, 5 on 6×6 and 7×7; 5 from
    /// 8×8 up]
    #[arg(long, value_name = "K", global = true, value_parser = clap::value_parser!(u8).range(3..=i64::from(crate::rules::gomoku::MAX_SIZE)))]
    pub k: Option<u8>,

    /// Misère rules: whoever completes a line loses. One side can always mirror the other
    /// through the centre and never lose: O on an even board, X on an odd one once it holds
    /// the centre (where k > (N + 1) / 2: every default board, not 7×7 with four), so `hard`
    /// as that side never loses and `analyze` reports it proven "at least a draw" (the other
    /// side "at most a draw") where the search cannot finish
    #[arg(long, global = true)]
    pub misere: bool,
    /// Ultimate tic-tac-toe: nine small boards in a 3×3; a move is a board and a cell (53)
    #[arg(long, global = true, conflicts_with_all = ["size", "k", "misere"])]
    pub ultimate: bool,
    /// Gomoku: five in a row on a 15×15 board, or --size 8 to 20 (six or more count too);
    /// moves are h8, o15
    #[arg(long, global = true, conflicts_with_all = ["k", "misere", "ultimate"])]
    pub gomoku: bool,
    /// Exactly five in a row wins (or exactly --k): a longer line (an overline) wins
    /// nothing. With --gomoku or a board from 8×8 up
    #[arg(long, global = true, conflicts_with_all = ["misere", "ultimate"])]
    pub exact: bool,
    /// Renju: Gomoku's five in a row (15×15, or --size 8 to 20) where X (black, first) may not
    /// make an overline, a double four or a double three unless the move makes five
    #[arg(long, global = true, conflicts_with_all = ["k", "misere", "ultimate", "exact"])]
    pub renju: bool,
    /// Caro: Gomoku's five in a row (15×15, or --size 8 to 20) where a line of exactly five
    /// with the other side's stones just beyond both ends wins nothing
    #[arg(long, global = true, conflicts_with_all = ["k", "misere", "ultimate", "exact", "renju"])]
    pub caro: bool,
    /// Connect Four: 7 columns of 6 rows that fill from the bottom, four in a row wins; a
    /// move is a column, 1 to 7 (`analyze --connect-four 4453`: the columns played)
    #[arg(long, global = true, conflicts_with_all = ["size", "k", "misere", "ultimate", "gomoku", "exact", "renju", "caro", "opening"])]
    pub connect_four: bool,
    /// Connect Four's columns, 4 to 9 [default: 7]
    #[arg(long, value_name = "N", global = true, value_parser = clap::value_parser!(u8).range(4..=9))]
    pub columns: Option<u8>,
    /// Connect Four's rows, 4 to 9 [default: 6]
    #[arg(long, value_name = "N", global = true, value_parser = clap::value_parser!(u8).range(4..=9))]
    pub rows: Option<u8>,
    /// The game by the name the history, game files and the network give it, as its own flag
    /// chooses it (`--rules renju` is `--renju`), with the other flags its rules take
    #[arg(long, global = true, value_name = "GAME", value_parser = game_parser(),
          conflicts_with_all = ["ultimate", "gomoku", "exact", "renju", "caro", "connect_four"])]
    pub rules: Option<&'static Entry>,
    /// How a five-in-a-row game opens: free (black's first stone, then turns); swap1 (the
    /// first player places two black stones and a white one, the second chooses a colour);
    /// swap2 (as swap1, or the second places two more and the first chooses)
    #[arg(long, global = true, value_name = "RULE", value_parser = opening_parser(),
          conflicts_with_all = ["k", "misere", "ultimate"])]
    pub opening: Option<Opening>,

    /// Play on a clock: `5+3` (five minutes each, and three seconds added after each of
    /// one's moves), `10` (ten minutes each for the game) or `30s` (thirty seconds for every
    /// move). Whoever runs out of time loses; the AI keeps to its own clock. With `host`,
    /// both players play on the host's clock
    #[arg(long, global = true, value_name = "CLOCK")]
    pub clock: Option<crate::game::clock::TimeControl>,

    /// Milliseconds of search for each `hard` move, each `analyze` board and each `review`
    /// move (with `--seed`, the work that takes on a typical machine). A position solved in
    /// time is played perfectly; otherwise the best move found so far is played, or a move
    /// proven not to lose where there is one (the mirror answer under misère, a move that
    /// keeps or takes a pairing strategy otherwise)
    #[arg(long, value_name = "MS", global = true, default_value_t = 1000)]
    pub think: u64,

    /// Largest size of the search's transposition table, in MiB (it starts small and grows as
    /// it fills)
    #[arg(long, value_name = "MB", global = true, default_value_t = DEFAULT_TABLE_MB,
          value_parser = clap::value_parser!(u16).range(1..=4096))]
    pub table_mb: u16,

    /// Threads for each search: the proof search of the classic boards shares its table
    /// among them (with --seed it stays on one thread, to replay exactly), and each `hard`
    /// Ultimate move searches that many trees and sums their root statistics (replaying
    /// exactly with --seed whatever the number). 1, the default, is one thread exactly
    #[arg(long, value_name = "N", global = true, default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: u16,

    /// Draw without colours (also when the `NO_COLOR` environment variable is set)
    #[arg(long, global = true)]
    pub no_color: bool,

    /// Draw the terminal game with ASCII characters only, for terminals without box drawing
    /// (chosen by itself where the locale is not UTF-8)
    #[arg(long, global = true)]
    pub ascii: bool,

    /// Plain front end: print the review of the game after it ends (each move judged by the
    /// search, as `tictactoe review` does)
    #[arg(long)]
    pub review: bool,

    /// Start the first game at the position these moves reach, written as a `Record:` line
    /// or `review` takes them (`--from 5 1 9`, `--ultimate --from 55 51`, `--connect-four
    /// --from 4453`); with `host` too.
    /// Undo stops there; the next rounds start from the empty board
    #[arg(long, value_name = "MOVES", num_args = 1.., global = true)]
    pub from: Vec<String>,

    /// Leave the history alone this run: its games are not added to it (finished games are
    /// otherwise kept in the data directory, or in `TICTACTOE_HOME`), and it is not read for
    /// them either, so the score shows no all-time results (`stats` and `history` still read
    /// it)
    #[arg(long, global = true)]
    pub no_history: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// The game the flags ask for ([`Asked::variant`]).
    pub fn variant(&self) -> Result<Variant, RulesError> {
        self.asked().variant()
    }

    /// The game the flags name whose board is its own, where they name one (Connect Four,
    /// with `--columns` and `--rows`).
    pub fn board_game(&self) -> Option<Variant> {
        self.asked().board_game()
    }

    /// The game's flags as the rules read them.
    pub fn asked(&self) -> Asked {
        let game = [
            (self.ultimate, Shape::Boards),
            (self.gomoku, Shape::Points),
            (self.connect_four, Shape::Columns),
        ];
        let exact = self.exact.then_some(crate::rules::gomoku::Rule::Exact);
        Asked {
            named: self.rules,
            game: game.into_iter().find_map(|(on, shape)| on.then_some(shape)),
            size: self.size,
            k: self.k,
            misere: self.misere,
            rule: self.own_rule().or(exact),
            opening: self.opening,
            columns: self.columns,
            rows: self.rows,
        }
    }

    /// The rule of its own Gomoku's boards are played by, renju's or caro's, if one is asked.
    pub fn own_rule(&self) -> Option<crate::rules::gomoku::Rule> {
        use crate::rules::gomoku::Rule;
        match (self.renju, self.caro) {
            (true, _) => Some(Rule::Renju),
            (_, true) => Some(Rule::Caro),
            _ => None,
        }
    }

    /// The search budget of one move or one board.
    pub fn think_budget(&self) -> Duration {
        Duration::from_millis(self.think)
    }

    /// Whether to draw with ASCII only: `--ascii`, or a locale that is not UTF-8 (the first of
    /// `LC_ALL`, `LC_CTYPE` and `LANG` that is set and not empty decides; none means the C
    /// locale).
    pub fn ascii(&self) -> bool {
        self.ascii || !utf8_locale(|name| std::env::var(name).ok())
    }

    /// Whether colours are wanted: no `--no-color`, and `NO_COLOR` unset or empty.
    pub fn color(&self) -> bool {
        !self.no_color && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
    }
}

/// Whether the locale that `var` reads is UTF-8, as the C library decides it.
fn utf8_locale(var: impl Fn(&str) -> Option<String>) -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .find_map(|name| var(name).filter(|v| !v.is_empty()))
        .is_some_and(|locale| {
            let locale = locale.to_ascii_lowercase();
            locale.contains("utf-8") || locale.contains("utf8")
        })
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Value every legal move of positions and name the best moves
    ///
    /// Show the side to move, the value of every legal move and the best moves: win, draw or
    /// loss where proven, "at least a draw" or "at most a draw" where only that is proven
    /// (mirror or pairing strategies), else an estimate
    Analyze(AnalyzeArgs),
    /// Replay a game and judge each move, from best to blunder
    ///
    /// Replay a game and judge every move: best, inaccuracy, mistake or blunder
    Review(ReviewArgs),
    /// Host a game over the network and play whoever joins
    ///
    /// Host a game over the network: print how to join, wait for a player, play them (you
    /// play X in the first game). The rule flags choose the game
    Host(HostArgs),
    /// Join a game hosted with `tictactoe host`
    ///
    /// Join a game hosted with `tictactoe host`; the host's rules apply
    Join(JoinArgs),
    /// Watch a game hosted with `tictactoe host`, without playing
    ///
    /// Watch a game hosted with `tictactoe host`, with its join code or ticket: its moves,
    /// clocks and results as they come, the game so far first; a watcher never plays
    Watch(JoinArgs),
    /// Show the tree a search visits from a position
    ///
    /// Show the tree a textbook search (minimax, alpha-beta...) visits from a position, or with
    /// --ultimate or --gomoku the Monte Carlo search's tree: as indented text with the totals
    /// (the default, or --plain), as JSON, or as Graphviz DOT
    Explain(ExplainArgs),
    /// Print a completion script for a shell
    ///
    /// Print a completion script for a shell (bash, zsh, fish, elvish, powershell)
    Completions(CompletionsArgs),
    /// Print the manual pages, or write them into a directory
    ///
    /// Print the manual page (roff) of `tictactoe` or of one subcommand, for `man -l -`, or
    /// write every page into a man directory
    Man(ManArgs),
    /// Print your results from the history
    ///
    /// Print your results from the history: won, drawn and lost per opponent and per rules,
    /// and streaks
    Stats(StatsArgs),
    /// List the games in the history, numbered
    ///
    /// List the games in the history, numbered, oldest first (`review --game N` reviews one)
    History,
    /// Puzzles from your own games: the wins you had and missed
    ///
    /// List the positions of your games where you had a win the search proves and played a
    /// move that did not keep it ("X to play and win in 3"), solved or not; with a number,
    /// pose that puzzle, read your move and say whether it wins. New games are searched
    /// first (thirty a run, each position for a tenth of --think)
    Puzzles(PuzzlesArgs),
    /// Print where the profile's files are kept
    ///
    /// Print where the history, the start screen's choices, the game to continue and the
    /// settings are kept
    Paths,
    /// Play as an engine for tournament managers (Gomocup, CodinGame)
    ///
    /// Play as an engine on standard input and output, for tournament managers and arenas:
    /// the Gomocup (piskvork) brain protocol on our m,n,k boards, or CodinGame's Ultimate
    /// referee protocol
    Engine(EngineArgs),
}

#[derive(Debug, Args)]
#[command(after_help = "\
Examples:
  tictactoe engine --protocol gomocup                 a brain for piskvork-style managers
  tictactoe engine --protocol codingame --think 90    an Ultimate bot (100 ms a turn allowed)
  tictactoe --seed 7 engine --protocol gomocup        the same moves for the same input

With gomocup, --k defaults to 5 from 5×5 up (as Gomocup plays), to the game's default below.")]
pub struct EngineArgs {
    /// The protocol to speak: gomocup (START, BEGIN, TURN, BOARD, INFO…; boards 3 to 20, five
    /// in a row from 5×5 up unless --k says otherwise) or codingame (Ultimate: the opponent's
    /// row and column, the valid actions, our row and column)
    #[arg(long, value_enum)]
    pub protocol: Protocol,
}

/// The engine protocols `tictactoe engine` speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Protocol {
    Gomocup,
    Codingame,
}

#[derive(Debug, Args)]
pub struct StatsArgs {
    /// Print one JSON object instead
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// The subcommand whose page to print (the main page by default)
    #[arg(value_name = "SUBCOMMAND", value_parser = clap::builder::PossibleValuesParser::new(PAGES))]
    pub page: Option<String>,

    /// Write every page into this directory instead (tictactoe.1, tictactoe-analyze.1, …)
    #[arg(long, value_name = "DIR", conflicts_with = "page")]
    pub dir: Option<std::path::PathBuf>,
}

/// The subcommands with a manual page of their own.
const PAGES: [&str; 12] = [
    "analyze",
    "review",
    "host",
    "join",
    "explain",
    "engine",
    "completions",
    "man",
    "stats",
    "history",
    "puzzles",
    "paths",
];

#[derive(Debug, Args)]
pub struct PuzzlesArgs {
    /// The puzzle to pose, as the list numbers it
    #[arg(value_name = "N", value_parser = clap::value_parser!(usize))]
    pub number: Option<usize>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_name = "SHELL")]
    pub shell: clap_complete::Shell,
}

/// The catalogue's games by name, for `--rules`.
fn game_parser() -> impl clap::builder::TypedValueParser<Value = &'static Entry> {
    let names = CATALOGUE.iter().map(Entry::name);
    clap::builder::TypedValueParser::map(
        clap::builder::PossibleValuesParser::new(names),
        |name: String| Entry::named(&name).unwrap_or(&CATALOGUE[0]),
    )
}

/// The openings by name on the command line: `free`, `swap1`, `swap2`.
fn opening_parser() -> impl clap::builder::TypedValueParser<Value = Opening> {
    let names = Opening::ALL.map(Opening::name);
    clap::builder::TypedValueParser::map(
        clap::builder::PossibleValuesParser::new(names),
        |name: String| Opening::named(&name).unwrap_or_default(),
    )
}

/// The game options `analyze` takes.
const ANALYZE: &[&str] = &[
    "rules",
    "size",
    "k",
    "misere",
    "ultimate",
    "exact",
    "renju",
    "caro",
    "connect_four",
    "columns",
    "rows",
    "think",
    "table_mb",
    "threads",
];

/// The game options `review` takes.
const REVIEW: &[&str] = &[
    "rules",
    "size",
    "k",
    "misere",
    "ultimate",
    "gomoku",
    "exact",
    "renju",
    "caro",
    "opening",
    "connect_four",
    "columns",
    "rows",
    "think",
    "table_mb",
    "threads",
];

/// The game options `host` takes.
const HOST: &[&str] = &[
    "rules",
    "connect_four",
    "columns",
    "rows",
    "size",
    "k",
    "misere",
    "ultimate",
    "gomoku",
    "exact",
    "renju",
    "caro",
    "opening",
    "clock",
    "from",
    "plain",
    "screen_reader",
    "no_color",
    "ascii",
    "think",
    "table_mb",
    "threads",
    "no_history",
];

/// The game options of the top level that `subcommand` takes; any other given with it is
/// refused ([`misplaced`]) and hidden from its help ([`command`]).
pub fn applies(subcommand: &str) -> &'static [&'static str] {
    const RULES: [&str; 4] = ["size", "k", "misere", "ultimate"];
    match subcommand {
        "analyze" => ANALYZE,
        "review" => REVIEW,
        "host" => HOST,
        "join" | "watch" => &[
            "plain",
            "screen_reader",
            "no_color",
            "ascii",
            "think",
            "table_mb",
            "threads",
            "no_history",
        ],
        "explain" => &[
            "rules",
            "size",
            "k",
            "misere",
            "ultimate",
            "gomoku",
            "exact",
            "connect_four",
            "columns",
            "rows",
            "plain",
        ],
        "engine" => &["k", "misere", "think", "table_mb", "threads", "seed"],
        "puzzles" => &["think", "table_mb", "threads", "seed"],
        _ => &RULES[..0],
    }
}

/// The whole command line, with each subcommand's help listing only the options that apply
/// to it ([`applies`]). A global option given a subcommand's own copy is not copied there
/// again, so the copies below (hidden, or with help of their own) parse exactly as the
/// global options do.
pub fn command() -> clap::Command {
    let command = Cli::command();
    let globals: Vec<clap::Arg> = command
        .get_arguments()
        .filter(|a| a.is_global_set())
        .cloned()
        .collect();
    command
        .mut_subcommands(|sub| {
            let name = sub.get_name().to_string();
            let copies = globals.iter().map(|a| match a.get_id().as_str() {
                "plain" if name == "explain" => a
                    .clone()
                    .help("Print the tree as indented text (the default)"),
                // Visible in the subcommand's short help too (the copy keeps it from taking the
                // top level's short help, where every option is hidden).
                id if applies(&name).contains(&id) => a.clone(),
                _ => a.clone().hide(true),
            });
            sub.args(copies.collect::<Vec<_>>())
        })
        // The top level's `-h` fits a 24-line screen: the commands, then where to read more.
        .mut_args(|a| a.hide_short_help(true))
}

/// The message for options given on the command line that the subcommand does not take, or
/// `None` where every one applies.
pub fn misplaced(matches: &clap::ArgMatches) -> Option<String> {
    use clap::parser::ValueSource;
    let (name, _) = matches.subcommand()?;
    let command = command();
    let given: Vec<String> = command
        .get_arguments()
        .filter(|a| matches.value_source(a.get_id().as_str()) == Some(ValueSource::CommandLine))
        .filter(|a| !applies(name).contains(&a.get_id().as_str()))
        .map(flag)
        .collect();
    match given.as_slice() {
        [] => None,
        [one] => Some(format!(
            "{one} does not apply to `{name}` (see `tictactoe {name} --help`)"
        )),
        many => Some(format!(
            "{} do not apply to `{name}` (see `tictactoe {name} --help`)",
            many.join(", ")
        )),
    }
}

/// How an option is written: `--size`, `-x`.
fn flag(arg: &clap::Arg) -> String {
    match (arg.get_long(), arg.get_short()) {
        (_, Some(short)) => format!("-{short}"),
        (Some(long), None) => format!("--{long}"),
        (None, None) => arg.get_id().to_string(),
    }
}

/// The message for options that contradict each other, or `None`: `--level` with an AI
/// named by `-x` or `-o` (which level would it be?), and `--level auto` with
/// `--no-history` (the level follows the results the history keeps).
pub fn contradiction(matches: &clap::ArgMatches, cli: &Cli) -> Option<String> {
    use clap::parser::ValueSource;
    let given = |id: &str| matches.value_source(id) == Some(ValueSource::CommandLine);
    let level = cli.level?;
    for (id, player) in [("x", cli.x), ("o", cli.o)] {
        if given(id) && player.is_ai() {
            return Some(format!(
                "--level chooses the AI's level, and -{id} {player} chooses one too: give one of them"
            ));
        }
    }
    (level == LevelChoice::Auto && cli.no_history).then(|| {
        "--level auto follows your results in the history, which --no-history leaves alone: give one of them".to_string()
    })
}

/// Writes the completion script of the whole command line for `shell`.
pub fn write_completions(shell: clap_complete::Shell, out: &mut dyn Write) -> io::Result<()> {
    // Generated in memory first: the generator panics on a failed write (a closed pipe).
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command(), "tictactoe", &mut script);
    out.write_all(&script)
}

/// Every manual page: `tictactoe` first, then one per subcommand, with the file name each
/// goes in (`tictactoe-analyze.1`).
fn man_pages() -> Vec<(String, clap_mangen::Man)> {
    let mut command = command().disable_help_subcommand(true);
    command.build();
    let subcommands: Vec<clap::Command> = command.get_subcommands().cloned().collect();
    let main = clap_mangen::Man::new(command);
    let mut pages = vec![(main.get_filename(), main)];
    for sub in subcommands {
        let page = clap_mangen::Man::new(sub.version(env!("CARGO_PKG_VERSION")));
        pages.push((page.get_filename(), page));
    }
    pages
}

/// Writes the manual page of `tictactoe`, or of the subcommand `page`, in roff. The main
/// page ends with the environment variables and the files the program reads and writes.
/// `keys` is the main page's KEYS section in roff (see [`keys_section`]).
pub fn write_man(page: Option<&str>, keys: &str, out: &mut dyn Write) -> io::Result<()> {
    let pages = man_pages();
    let Some(page) = page else {
        let (_, main) = &pages[0];
        let mut text = Vec::new();
        main.render(&mut text)?;
        out.write_all(&text)?;
        out.write_all(keys.as_bytes())?;
        return out.write_all(MAN_ENVIRONMENT_AND_FILES.as_bytes());
    };
    let file = format!("tictactoe-{page}.1");
    match pages.iter().find(|(name, _)| *name == file) {
        Some((_, man)) => man.render(out),
        None => Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!("no manual page for `{page}`"),
        )),
    }
}

/// The main page's KEYS section in roff: for each kind of board (a title), the keys of the
/// terminal game as its help overlay lists them, one line each.
pub fn keys_section(tables: &[(&str, Vec<String>)]) -> String {
    let mut roff = String::from(
        ".SH KEYS\nThe keys of the terminal game, as \\fB?\\fR shows them during a game.\n",
    );
    for (title, lines) in tables {
        let _ = write!(roff, ".SS \"{title}\"\n.nf\n");
        for line in lines {
            roff.push_str(&line.replace('\\', "\\e").replace('-', "\\-"));
            roff.push('\n');
        }
        roff.push_str(".fi\n");
    }
    roff
}

/// Writes every manual page into `dir` (made if missing) and returns their file names; `keys`
/// as [`write_man`] takes it.
pub fn write_man_pages(dir: &std::path::Path, keys: &str) -> io::Result<Vec<String>> {
    std::fs::create_dir_all(dir)?;
    let mut names = Vec::new();
    for (name, _) in man_pages() {
        let page = name
            .strip_prefix("tictactoe-")
            .and_then(|rest| rest.strip_suffix(".1"));
        let mut text = Vec::new();
        write_man(page, keys, &mut text)?;
        std::fs::write(dir.join(&name), text)?;
        names.push(name);
    }
    Ok(names)
}

/// The main page's last sections, in roff.
const MAN_ENVIRONMENT_AND_FILES: &str = r#".SH ENVIRONMENT
.TP
\fBTICTACTOE_HOME\fR
The directory of the history, the start screen's choices and the settings, instead of the platform's data and config directories.
.TP
\fBTICTACTOE_CODE\fR
The join code for \fBtictactoe join\fR when \fB\-\-code\fR is not given: unlike the command line, not readable by other users of the machine.
.TP
\fBNO_COLOR\fR
When set and not empty, draw without colours (as \fB\-\-no\-color\fR does).
.TP
\fBLC_ALL\fR, \fBLC_CTYPE\fR, \fBLANG\fR
The first of them that is set decides whether the terminal game draws with box characters (a UTF\-8 locale) or with ASCII only (as \fB\-\-ascii\fR does).
.SH FILES
.TP
\fI$XDG_DATA_HOME/tictactoe/history.jsonl\fR (\fI~/.local/share/tictactoe\fR on Linux, \fI~/Library/Application Support/tictactoe\fR on macOS, \fI%APPDATA%\etictactoe\fR on Windows)
Every game kept: one JSON line each, appended. \fBtictactoe history\fR lists them and \fBtictactoe stats\fR counts them.
.TP
\fImenu.json\fR, in the same directory
The choices last made on the start screen.
.TP
\fIcurrent.json\fR, in the same directory
The last game played here and not finished, which the start screen offers to continue.
.TP
\fI$XDG_CONFIG_HOME/tictactoe/settings.toml\fR (\fI~/.config/tictactoe\fR on Linux; in \fBTICTACTOE_HOME\fR when it is set)
The settings: the opponent, the AI's delay, hints, colours, ASCII. The start screen's settings page writes it; it can be edited by hand. \fBtictactoe paths\fR prints where each of these files is.
.SH "SEE ALSO"
\fBtictactoe\-analyze\fR(1), \fBtictactoe\-review\fR(1), \fBtictactoe\-host\fR(1), \fBtictactoe\-join\fR(1), \fBtictactoe\-watch\fR(1), \fBtictactoe\-explain\fR(1), \fBtictactoe\-stats\fR(1), \fBtictactoe\-history\fR(1), \fBtictactoe\-paths\fR(1), \fBtictactoe\-engine\fR(1), \fBtictactoe\-completions\fR(1), \fBtictactoe\-man\fR(1)
"#;

#[derive(Debug, Args)]
pub struct HostArgs {
    /// Port to listen on; 0 takes any free port
    #[arg(long, value_name = "P", default_value_t = DEFAULT_PORT)]
    pub port: u16,

    /// Address to listen on (every interface by default)
    #[arg(long, value_name = "ADDR", default_value = "0.0.0.0")]
    pub bind: IpAddr,

    /// Host online, for a friend anywhere: prints a ticket to join with, reached directly,
    /// through the NAT, or through a relay (--port and --bind are not used)
    #[cfg(feature = "online")]
    #[arg(long)]
    pub online: bool,

    /// With --online: the relay server to use instead of the public ones (a self-hosted
    /// iroh-relay, like <https://relay.example.org>)
    #[arg(long, value_name = "URL")]
    pub relay: Option<String>,

    /// Ask for hints and the explorer: on in the game only if the player who joins asks too
    /// (join --hints), and then both screens say so
    #[arg(long)]
    pub hints: bool,

    /// Let at most N people watch the game at once (`tictactoe watch`); 0 lets no one
    #[arg(long, value_name = "N", default_value_t = 8,
          value_parser = clap::value_parser!(u8).range(0..=64))]
    pub watchers: u8,
}

#[derive(Clone, Debug, Args)]
pub struct JoinArgs {
    /// The host's address, as `tictactoe host` printed it (the port defaults to 7373), or
    /// the ticket `tictactoe host --online` printed; with neither, looks for a host on this
    /// network for 3 s
    #[arg(value_name = "HOST[:PORT]|TICKET")]
    pub target: Option<String>,

    /// The join code the host printed (a ticket holds its own). Without it, taken from
    /// `TICTACTOE_CODE`, else asked for on a terminal. A code given here can be read by any
    /// user of this machine while the game runs (in its list of processes): on a shared
    /// machine, set `TICTACTOE_CODE` or type it when asked
    #[arg(long, value_name = "CODE")]
    pub code: Option<String>,

    /// With a ticket: the relay server to use instead of the ticket's
    #[arg(long, value_name = "URL")]
    pub relay: Option<String>,

    /// Ask for hints and the explorer: on in the game only if the host asks too (host
    /// --hints), and then both screens say so
    #[arg(long)]
    pub hints: bool,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Boards in notation: rows top to bottom separated by '/', cells X, O or '.'
    /// (X.O/.X./..O); with --ultimate, nine rows of nine, a space and the board the side to
    /// move is sent to or '*'. `-` reads boards from standard input, one per line. With no
    /// board, in a terminal, the analysis board opens instead
    #[arg(value_name = "BOARD")]
    pub boards: Vec<String>,

    /// Open the analysis board on the game in FILE (a game file with its variations, a .psq,
    /// a record or a move string), in a terminal
    #[arg(long, value_name = "FILE", conflicts_with_all = ["boards", "json", "best", "lines"])]
    pub open: Option<std::path::PathBuf>,

    /// Print one JSON object per board, one per line
    #[arg(long)]
    pub json: bool,

    /// Report only the position's value and one best move
    #[arg(long)]
    pub best: bool,

    /// Also the N best lines (1 to 5): each a move of its own, best first, with its value,
    /// then the replies the search expects (each searched a tenth of --think), up to ten
    /// plies or the end of the game
    #[arg(long, value_name = "N", conflicts_with = "best",
          value_parser = clap::value_parser!(u8).range(1..=5))]
    pub lines: Option<u8>,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// The position: nothing for the empty board, a board in notation (X.O/.X./..O), or the
    /// moves that lead to it from the empty board (5 1 9)
    #[arg(value_name = "BOARD | MOVE")]
    pub position: Vec<String>,

    /// The search to show: the textbook ones each add one idea to the one before (default
    /// minimax); mcts is the Monte Carlo tree search, and the only one with --ultimate
    #[arg(long, value_enum, value_name = "ALGORITHM")]
    pub algorithm: Option<Algorithm>,

    /// Print the tree as one JSON document
    #[arg(long, conflicts_with = "dot")]
    pub json: bool,

    /// Print the tree in Graphviz DOT (draw it with `dot -Tsvg`)
    #[arg(long)]
    pub dot: bool,

    /// Show the tree down to this many plies below the position (the search itself always
    /// goes to the end of every game)
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(0..=49))]
    pub depth: Option<u32>,

    /// Refuse to print a tree of more nodes than this
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_nodes: u64,

    /// With --algorithm mcts or --ultimate: iterations of the Monte Carlo tree search whose
    /// tree is shown (default 1000)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub iterations: Option<u64>,

    /// With --algorithm mcts or --ultimate: the seed of the search's random choices (the same
    /// seed, the same tree; default 1)
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// With --algorithm mcts or --ultimate: after the iterations, run this many more one at a
    /// time and show each: the walk down the tree with every choice's UCB scores, the node
    /// expanded, the random game and its result, and the backup (text only)
    #[arg(long, value_name = "K", value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub steps: Option<u64>,
}

#[derive(Debug, Args)]
pub struct ReviewArgs {
    /// The moves in order, X first: digits 1-9 on 3×3, coordinates such as b2 on any size
    /// (5 9 4 6 1); with --ultimate, board then cell (55 51 15). The rules come from --size,
    /// --k and --misere, or --ultimate
    #[arg(required_unless_present_any = ["last", "game"], value_name = "MOVE")]
    pub moves: Vec<String>,

    /// Review the last game in the history instead of moves given
    #[arg(long, conflicts_with_all = ["moves", "game"])]
    pub last: bool,

    /// Review game N of the history (as `tictactoe history` numbers them)
    #[arg(long, value_name = "N", conflicts_with = "moves")]
    pub game: Option<usize>,

    /// Print one JSON object per move, then one for the summary, one per line
    #[arg(long)]
    pub json: bool,
}

/// `--level`: a fixed level of the ladder, or one that follows the results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LevelChoice {
    Fixed(Level),
    Auto,
}

impl Cli {
    /// The players of X and O, with `--level` applied to the AI that plays a person, and
    /// whether its level adapts. `None` when `--level` is given without such an AI.
    pub fn players(&self) -> Option<(Player, Player, bool)> {
        let Some(choice) = self.level else {
            return Some((self.x, self.o, false));
        };
        let level = match choice {
            LevelChoice::Fixed(level) => level,
            LevelChoice::Auto => Level::new(Level::TOP.div_ceil(2))?,
        };
        let auto = choice == LevelChoice::Auto;
        match (self.x, self.o) {
            (Player::Human, Player::Ai(_)) => Some((self.x, Player::Ai(level), auto)),
            (Player::Ai(_), Player::Human) => Some((Player::Ai(level), self.o, auto)),
            _ => None,
        }
    }
}

/// The values of `--level`: auto, or a level by name or number.
fn level_parser() -> impl clap::builder::TypedValueParser<Value = LevelChoice> {
    use clap::builder::TypedValueParser;
    let values = player_values().into_iter().skip(1);
    let auto = clap::builder::PossibleValue::new("auto").help("follows your results");
    clap::builder::PossibleValuesParser::new(values.chain([auto])).try_map(|s| {
        if s == "auto" {
            return Ok(LevelChoice::Auto);
        }
        match s.parse::<Player>()? {
            Player::Ai(level) => Ok(LevelChoice::Fixed(level)),
            _ => Err(crate::ai::player::ParsePlayerError),
        }
    })
}

/// The values of `-x` and `-o`: the names, then the levels by number.
fn player_parser() -> impl clap::builder::TypedValueParser<Value = Player> {
    use clap::builder::{PossibleValuesParser, TypedValueParser};
    PossibleValuesParser::new(player_values()).try_map(|s| s.parse::<Player>())
}

/// `human`, the levels' names, then the levels by number.
fn player_values() -> Vec<clap::builder::PossibleValue> {
    use clap::builder::PossibleValue;
    const NUMBERS: [&str; crate::ai::levels::Level::TOP as usize] =
        ["1", "2", "3", "4", "5", "6", "7"];
    let named = [
        ("human", "a person at the keyboard"),
        ("easy", "level 1"),
        ("medium", "level 3"),
        (
            "hard",
            "level 7: perfect wherever its search proves the value",
        ),
    ]
    .map(|(name, help)| PossibleValue::new(name).help(help));
    let numbers = NUMBERS.map(PossibleValue::new);
    named.into_iter().chain(numbers).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::Record;
    use crate::rules::classic::Rules;
    use crate::rules::position::Variant;
    use clap::FromArgMatches;

    /// The game these arguments ask for.
    fn game_of(args: &[&str]) -> Result<Variant, RulesError> {
        let args = std::iter::once("t").chain(args.iter().copied());
        Cli::try_parse_from(args).unwrap().variant()
    }

    #[test]
    fn rules_by_name_choose_the_game_each_catalogue_entrys_flags_choose() {
        for entry in &CATALOGUE {
            let flags = entry.flags();
            let by_flags: Vec<&str> = flags.split_whitespace().collect();
            assert_eq!(
                game_of(&["--rules", entry.name()]),
                game_of(&by_flags),
                "{}",
                entry.name()
            );
            assert_eq!(game_of(&by_flags), Ok(entry.variant));
        }
        let same = |named: &[&str], flags: &[&str]| assert_eq!(game_of(named), game_of(flags));
        same(
            &["--rules", "renju", "--size", "13"],
            &["--renju", "--size", "13"],
        );
        same(
            &["--rules", "gomoku", "--opening", "swap2"],
            &["--gomoku", "--opening", "swap2"],
        );
        same(
            &["--rules", "classic", "--size", "5", "--misere"],
            &["--size", "5", "--misere"],
        );
        same(
            &["--rules", "connect-four", "--columns", "5", "--rows", "9"],
            &["--connect-four", "--columns", "5", "--rows", "9"],
        );
        same(
            &["--rules", "gomoku-exact", "--size", "9"],
            &["--size", "9", "--exact"],
        );
    }

    #[test]
    fn a_flag_that_is_no_rule_of_the_game_named_is_refused_by_name() {
        let refused = |args: &[&str], flag: &str| {
            let message = game_of(args).unwrap_err().to_string();
            assert!(
                message.starts_with(&format!("{flag} ")),
                "{args:?}: {message}"
            );
        };
        refused(&["--rules", "ultimate", "--size", "5"], "--size");
        refused(&["--rules", "renju", "--k", "4"], "--k");
        refused(&["--rules", "gomoku", "--misere"], "--misere");
        refused(&["--rules", "connect-four", "--size", "9"], "--size");
        refused(&["--rules", "classic", "--opening", "swap1"], "--opening");
        refused(&["--columns", "5"], "--columns");
        refused(&["--gomoku", "--rows", "5"], "--rows");
        refused(&["--rules", "caro", "--columns", "5"], "--columns");
        let classic_nine = game_of(&["--rules", "classic", "--size", "9"]);
        assert_eq!(classic_nine, Err(RulesError::NotClassic(9)));
        let clash = Cli::try_parse_from(["t", "--rules", "renju", "--caro"]);
        assert!(clash.is_err(), "a game's flag and another's name conflict");
    }

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
        command().debug_assert();
    }

    /// A value each option that takes one accepts.
    fn sample(arg: &clap::Arg) -> String {
        if let Some(first) = arg.get_possible_values().first() {
            return first.get_name().to_string();
        }
        match arg.get_id().as_str() {
            "bind" => "127.0.0.1".into(),
            "relay" => "https://relay.example.org".into(),
            "from" => "5".into(),
            "size" | "columns" | "rows" => "4".into(),
            "k" | "think" | "port" => "3".into(),
            "code" => "abc".into(),
            _ => "1".into(),
        }
    }

    /// The arguments a subcommand needs besides the option tried.
    fn required(sub: &str) -> &'static [&'static str] {
        match sub {
            "analyze" => &["X.O/.X./..O"],
            "review" => &["5"],
            "completions" => &["bash"],
            "engine" => &["--protocol", "gomocup"],
            _ => &[],
        }
    }

    #[test]
    fn every_option_a_subcommands_help_lists_is_taken_and_every_other_refused() {
        let top = command();
        for sub in top.get_subcommands() {
            let name = sub.get_name();
            // The subcommand's own options always apply; the top level's are the question.
            for arg in top.get_arguments() {
                let Some(long) = arg.get_long() else { continue };
                if ["help", "version"].contains(&long) {
                    continue;
                }
                let listed = sub
                    .get_arguments()
                    .find(|a| a.get_id() == arg.get_id())
                    .is_none_or(|a| !a.is_hide_set());
                let mut args = vec!["tictactoe".to_string(), name.to_string()];
                args.extend(required(name).iter().map(ToString::to_string));
                if ["columns", "rows"].contains(&long) {
                    // Connect Four's board, given with the game it belongs to.
                    args.push("--connect-four".to_string());
                }
                args.push(format!("--{long}"));
                if arg.get_action().takes_values() {
                    args.push(sample(arg));
                }
                let copied = sub.get_arguments().any(|a| a.get_id() == arg.get_id());
                if !copied && !arg.is_global_set() {
                    // A top-level option after the subcommand is not even parsed.
                    assert!(command().try_get_matches_from(&args).is_err(), "{args:?}");
                    continue;
                }
                let matches = command()
                    .try_get_matches_from(&args)
                    .unwrap_or_else(|e| panic!("{args:?}: {e}"));
                assert_eq!(
                    misplaced(&matches).is_none(),
                    listed,
                    "{args:?}: listed in the help {listed}"
                );
            }
        }
    }

    #[test]
    fn top_level_options_before_a_subcommand_are_refused_where_they_do_not_apply() {
        let refused = |args: &[&str]| {
            let matches = command().try_get_matches_from(args).unwrap();
            misplaced(&matches)
        };
        assert_eq!(
            refused(&["t", "--level", "3", "history"]).as_deref(),
            Some("--level does not apply to `history` (see `tictactoe history --help`)")
        );
        assert_eq!(
            refused(&["t", "history", "--size", "5", "-x", "3", "--ascii"]).as_deref(),
            Some("-x, --size, --ascii do not apply to `history` (see `tictactoe history --help`)")
        );
        assert_eq!(refused(&["t", "--size", "5", "analyze", "-"]), None);
        assert_eq!(
            refused(&["t", "--size", "5", "--plain"]),
            None,
            "no subcommand"
        );
    }

    #[test]
    fn contradicting_options_are_named() {
        let contradiction = |args: &[&str]| {
            let matches = command().try_get_matches_from(args).unwrap();
            let cli = Cli::from_arg_matches(&matches).unwrap();
            super::contradiction(&matches, &cli)
        };
        assert_eq!(
            contradiction(&["t", "--level", "3", "-o", "6"]).as_deref(),
            Some(
                "--level chooses the AI's level, and -o level 6 chooses one too: give one of them"
            )
        );
        assert!(contradiction(&["t", "--no-history", "--level", "auto"]).is_some());
        assert_eq!(
            contradiction(&["t", "--level", "3", "-o", "human", "-x", "human"]),
            None
        );
        assert_eq!(contradiction(&["t", "--level", "3", "-x", "human"]), None);
        assert_eq!(contradiction(&["t", "--no-history", "--level", "3"]), None);
    }

    #[test]
    fn every_page_the_manual_names_is_written() {
        let dir = std::env::temp_dir().join(format!("tictactoe-man-{}", std::process::id()));
        let written = write_man_pages(&dir, "").unwrap();
        let mut named = Vec::new();
        for page in &written {
            let text = std::fs::read_to_string(dir.join(page)).unwrap();
            // roff writes `tictactoe\-analyze(1)`.
            for (at, _) in text.match_indices("(1)") {
                let name: String = text[..at]
                    .chars()
                    .rev()
                    .take_while(|c| c.is_ascii_alphanumeric() || ['-', '\\'].contains(c))
                    .collect::<Vec<_>>()
                    .into_iter()
                    .rev()
                    .collect();
                let name = name
                    .replace("\\-", "-")
                    .replace("\\fB", "")
                    .replace("\\fR", "");
                if let Some(at) = name.find("tictactoe") {
                    named.push(format!("{}.1", &name[at..]));
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        assert!(named.len() >= 9, "{named:?}");
        for name in named {
            assert!(
                written.contains(&name),
                "{name} is named but not written: {written:?}"
            );
        }
        let mut main = Vec::new();
        write_man(None, "", &mut main).unwrap();
        let main = String::from_utf8(main).unwrap();
        for section in [".SH ENVIRONMENT", ".SH FILES", "TICTACTOE_HOME", "NO_COLOR"] {
            assert!(main.contains(section), "{section}");
        }
        let mut host = Vec::new();
        write_man(Some("host"), "", &mut host).unwrap();
        let host = String::from_utf8(host).unwrap();
        assert!(
            host.contains("online") && !host.contains("o\\-player"),
            "{host}"
        );
    }

    #[test]
    fn defaults_are_you_against_the_perfect_ai() {
        let cli = Cli::try_parse_from(["tictactoe"]).unwrap();
        assert_eq!((cli.x, cli.o), (Player::Human, Player::HARD));
        let cli = Cli::try_parse_from(["tictactoe", "-x", "medium", "-o", "human"]).unwrap();
        assert_eq!((cli.x, cli.o), (Player::MEDIUM, Player::Human));
        assert!(Cli::try_parse_from(["tictactoe", "-o", "perfect"]).is_err());
    }

    #[test]
    fn levels_are_chosen_by_number_or_name_and_only_on_the_ladder() {
        let cli = Cli::try_parse_from(["t", "-x", "2", "-o", "7"]).unwrap();
        assert_eq!(
            (cli.x, cli.o),
            (Player::Ai(Level::new(2).unwrap()), Player::HARD)
        );
        for bad in ["0", "8", "99", "-1", "level"] {
            assert!(Cli::try_parse_from(["t", "-x", bad]).is_err(), "{bad}");
        }
        let players = |args: &[&str]| Cli::try_parse_from(args).unwrap().players();
        let four = Player::Ai(Level::new(4).unwrap());
        assert_eq!(
            players(&["t", "--level", "auto"]),
            Some((Player::Human, four, true))
        );
        assert_eq!(
            players(&["t", "-x", "easy", "-o", "human", "--level", "4"]),
            Some((four, Player::Human, false))
        );
        assert_eq!(players(&["t", "-o", "human", "--level", "4"]), None);
        assert!(Cli::try_parse_from(["t", "--level", "human"]).is_err());
    }

    #[test]
    fn rules_default_to_a_fair_line_length() {
        let rules = |args: &[&str]| {
            let variant = Cli::try_parse_from(args).unwrap().variant();
            variant.map(|v| v.rules().expect("classic rules"))
        };
        assert_eq!(rules(&["t"]), Ok(Rules::CLASSIC));
        assert!(Cli::try_parse_from(["t", "--table-mb", "0"]).is_err());
        assert_eq!(rules(&["t", "--size", "5"]).map(Rules::k), Ok(4));
        assert_eq!(rules(&["t", "--size", "7"]).map(Rules::k), Ok(5));
        assert_eq!(
            rules(&["t", "--size", "4", "--k", "3"]).map(Rules::k),
            Ok(3)
        );
        assert!(rules(&["t", "--k", "4"]).is_err(), "4 in a row on 3×3");
        assert!(Cli::try_parse_from(["t", "--size", "21"]).is_err());
        let variant = |args: &[&str]| Cli::try_parse_from(args).unwrap().variant();
        let eight = Variant::Gomoku {
            size: 8,
            k: 5,
            rule: crate::rules::gomoku::Rule::Freestyle,
            opening: Opening::Free,
        };
        assert_eq!(variant(&["t", "--size", "8"]), Ok(eight));
        assert_eq!(
            variant(&["t", "--size", "8", "--exact"]),
            eight.exactly(true)
        );
        assert_eq!(
            variant(&["t", "--gomoku", "--exact"]),
            Ok(Variant::GOMOKU_EXACT)
        );
        assert_eq!(
            variant(&["t", "--size", "5", "--exact"]),
            Err(RulesError::ExactFive)
        );
        assert_eq!(variant(&["t", "--size", "15"]), Ok(Variant::GOMOKU));
        assert_eq!(
            variant(&["t", "--size", "9", "--k", "4", "--exact"]),
            Ok(Variant::Gomoku {
                size: 9,
                k: 4,
                rule: crate::rules::gomoku::Rule::Exact,
                opening: Opening::Free,
            })
        );
        assert_eq!(
            variant(&["t", "--size", "9", "--k", "10"]),
            Err(RulesError::K { k: 10, size: 9 })
        );
        assert_eq!(
            variant(&["t", "--size", "9", "--misere"]),
            Err(RulesError::Misere(9))
        );
        let cli = Cli::try_parse_from(["t", "analyze", "--size", "4", "--misere", "-"]).unwrap();
        assert_eq!(
            cli.variant().map(|v| v.rules().map(Rules::misere)),
            Ok(Some(true))
        );
    }

    #[test]
    fn gomoku_takes_a_board_size_from_eight_to_fifteen() {
        let variant = |args: &[&str]| Cli::try_parse_from(args).unwrap().variant();
        let eleven = Variant::Gomoku {
            size: 11,
            k: 5,
            rule: crate::rules::gomoku::Rule::Freestyle,
            opening: Opening::Free,
        };
        assert_eq!(variant(&["t", "--gomoku", "--size", "11"]), Ok(eleven));
        assert_eq!(
            variant(&["t", "--gomoku", "--size", "11", "--exact"]),
            eleven.exactly(true)
        );
        assert_eq!(variant(&["t", "--gomoku"]), Ok(Variant::GOMOKU));
        let small = variant(&["t", "--gomoku", "--size", "5"]).unwrap_err();
        assert_eq!(small, RulesError::GomokuSize(5));
        assert!(small.to_string().contains("8×8 to 20×20"), "{small}");
    }

    #[test]
    fn a_delay_over_the_settings_cap_is_refused() {
        let delay = |d: &str| Cli::try_parse_from(["t", "--delay", d]).map(|c| c.delay);
        assert_eq!(delay("5000").ok(), Some(Some(5000)));
        let refused = delay("99999").unwrap_err().to_string();
        assert!(refused.contains("0..=5000"), "{refused}");
    }

    #[test]
    fn ultimate_is_a_variant_of_its_own() {
        let variant = |args: &[&str]| Cli::try_parse_from(args).unwrap().variant();
        assert_eq!(variant(&["t", "--ultimate"]), Ok(Variant::Ultimate));
        assert_eq!(
            variant(&["t", "review", "--ultimate", "55"]),
            Ok(Variant::Ultimate)
        );
        assert_eq!(variant(&["t"]), Ok(Variant::Classic(Rules::CLASSIC)));
        for flag in [&["--size", "5"][..], &["--k", "3"], &["--misere"]] {
            let args = ["t", "--ultimate"].iter().chain(flag);
            let e = Cli::try_parse_from(args).unwrap_err().to_string();
            assert!(e.contains("cannot be used with"), "{e}");
        }
    }

    #[test]
    fn review_takes_moves_and_the_rule_flags() {
        let cli =
            Cli::try_parse_from(["t", "review", "--size", "4", "a1", "--json", "b2"]).unwrap();
        let Some(Command::Review(args)) = &cli.command else {
            panic!("{cli:?}");
        };
        assert_eq!(args.moves, ["a1", "b2"]);
        assert!(args.json);
        assert_eq!(
            cli.variant().map(|v| v.rules().map(Rules::size)),
            Ok(Some(4))
        );
        assert!(
            Cli::try_parse_from(["t", "review"]).is_err(),
            "moves are required"
        );
        assert!(
            Cli::try_parse_from(["t", "--plain", "--review"])
                .unwrap()
                .review
        );
    }

    #[test]
    fn the_locale_decides_ascii_by_its_first_setting() {
        let locale = |pairs: &[(&str, &str)]| {
            let pairs: Vec<(String, String)> = pairs
                .iter()
                .map(|&(k, v)| (k.to_string(), v.to_string()))
                .collect();
            utf8_locale(move |name| {
                pairs
                    .iter()
                    .find(|(k, _)| k == name)
                    .map(|(_, v)| v.clone())
            })
        };
        assert!(locale(&[("LANG", "en_GB.UTF-8")]));
        assert!(locale(&[("LANG", "C.utf8")]));
        assert!(!locale(&[]), "no setting is the C locale");
        assert!(!locale(&[("LANG", "C")]));
        assert!(!locale(&[("LC_ALL", "C"), ("LANG", "en_GB.UTF-8")]));
        assert!(locale(&[
            ("LC_ALL", ""),
            ("LC_CTYPE", "de_DE.UTF-8"),
            ("LANG", "C")
        ]));
    }

    /// Reads a record back from its text as the command line does: `tictactoe review …`.
    fn read_back(text: &str) -> Record {
        let args = ["tictactoe", "review"].into_iter().chain(text.split(' '));
        let cli = Cli::try_parse_from(args).unwrap_or_else(|e| panic!("{text}: {e}"));
        let Some(Command::Review(review)) = &cli.command else {
            panic!("{text}: not a review");
        };
        Record::parse(cli.variant().unwrap(), &review.moves).unwrap()
    }

    #[test]
    fn records_round_trip_through_the_review_arguments() {
        for (rules, moves, text) in [
            (Rules::CLASSIC, &["5", "9", "4", "6", "1"][..], "5 9 4 6 1"),
            (
                Rules::new(5, 4, false).unwrap(),
                &["c3", "b2", "d4"],
                "--size 5 c3 b2 d4",
            ),
            (
                Rules::new(4, 3, true).unwrap(),
                &["a1", "d4"],
                "--size 4 --k 3 --misere a1 d4",
            ),
            (Rules::new(3, 3, true).unwrap(), &["b2"], "--misere 5"),
            (Rules::new(7, 5, false).unwrap(), &["g7"], "--size 7 g7"),
        ] {
            let record = Record::parse(rules, moves).unwrap();
            assert_eq!(record.to_string(), text);
            assert_eq!(read_back(text), record, "{text}");
            assert_eq!(Record::new(rules, record.moves().to_vec()), Ok(record));
        }
        let ultimate = Record::parse(Variant::Ultimate, &["55", "1", "a1"]).unwrap();
        assert_eq!(ultimate.to_string(), "--ultimate 55 51 11");
        assert_eq!(read_back("--ultimate 55 51 11"), ultimate);
    }
}
