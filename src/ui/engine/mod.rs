//! Our AI where engine people meet engines: the Gomocup (piskvork) brain protocol for the
//! m,n,k boards, and the referee protocol of CodinGame's Ultimate tic-tac-toe arena. Each is
//! glue over [`Brain`]: it reads the protocol's lines, keeps the position, asks the AI and
//! writes the answer; nothing of the search is specific to a protocol.

pub mod codingame;
pub mod gomocup;

use std::fmt;
use std::io::{self, BufRead};
use std::time::Duration;

use crate::ai::player::{Brain, Player};
use crate::rules::position::{Move, Position};
use crate::text::line;

/// What every protocol is started with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// The time for each move, unless the protocol gives one.
    pub think: Duration,
    /// The search table's limit, MiB.
    pub table_mb: usize,
    /// Trees searched at once for each Ultimate move (see `--threads`).
    pub threads: usize,
    /// Seed the AI's random choices and budget its search by work (see `--seed`).
    pub seed: Option<u64>,
}

/// Why a protocol session ended before its input did.
#[derive(Debug)]
pub enum EngineError {
    /// A line that is not what the protocol says may come there, and why.
    Protocol {
        line: String,
        why: String,
    },
    Io(io::Error),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Protocol { line, why } => write!(f, "{line}: {why}"),
            EngineError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<io::Error> for EngineError {
    fn from(e: io::Error) -> EngineError {
        EngineError::Io(e)
    }
}

/// A refusal of `line` (quoted short and printable) because of `why`.
fn refuse(line: &str, why: impl Into<String>) -> EngineError {
    EngineError::Protocol {
        line: format!("{:?}", crate::text::quoted(line)),
        why: why.into(),
    }
}

/// The next line of `input` without its line ending, `None` at the end; a line over the cap
/// is refused.
fn next_line(input: &mut dyn BufRead) -> Result<Option<String>, EngineError> {
    let mut buf = Vec::new();
    if line::read_line(input, &mut buf)? == 0 {
        return Ok(None);
    }
    if line::too_long(&buf) {
        return Err(EngineError::Protocol {
            line: "a line".into(),
            why: line::why_too_long(&buf),
        });
    }
    let text = String::from_utf8_lossy(&buf);
    Ok(Some(text.trim_end_matches(['\n', '\r']).to_string()))
}

/// The AI's move in `position` within `budget`, or `None` once the game is over.
fn best_move(brain: &mut Brain, position: &Position, budget: Duration) -> Option<Move> {
    brain.set_think(budget);
    brain.set_think_most(None);
    brain.choose(Player::HARD, position)
}

/// A brain for `options`.
fn brain(options: &Options) -> Brain {
    Brain::new(options.seed)
        .with_table_mb(options.table_mb)
        .with_think(options.think)
        .with_threads(options.threads)
}
