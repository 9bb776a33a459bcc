//! The command line, parsed with clap's derive. Every flag is documented in `--help`.

use clap::{Args, Parser, Subcommand};

use crate::player::Player;

/// Tic-tac-toe in the terminal: numpad keys, two players on one keyboard, or an AI that
/// searches the whole game tree and never loses.
#[derive(Debug, Parser)]
#[command(name = "tictactoe", version, about, long_about = None)]
#[command(after_help = "\
Cells are numbered like a numeric keypad:  7 8 9 / 4 5 6 / 1 2 3  (7 is top left).

Examples:
  tictactoe                      you (X) against the perfect AI (O)
  tictactoe -o human             two people on one keyboard
  tictactoe -x medium -o human   the AI moves first
  tictactoe -x hard -o easy      the computer against itself
  tictactoe analyze X.O/.X./..O  the value of every move")]
pub struct Cli {
    /// Who plays X, which moves first
    #[arg(short = 'x', long = "x-player", value_name = "PLAYER", default_value_t = Player::Human)]
    pub x: Player,

    /// Who plays O
    #[arg(short = 'o', long = "o-player", value_name = "PLAYER", default_value_t = Player::Hard)]
    pub o: Player,

    /// Seed every random choice of the AI, so a game can be replayed exactly
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,

    /// Use the line-based front end even on a terminal (it is chosen anyway when stdin or
    /// stdout is not a terminal)
    #[arg(long)]
    pub plain: bool,

    /// Milliseconds the terminal game waits before showing an AI move, so a person can follow
    #[arg(long, value_name = "MS", default_value_t = 400)]
    pub delay: u64,

    /// Draw without colours (also when the `NO_COLOR` environment variable is set)
    #[arg(long)]
    pub no_color: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

impl Cli {
    /// Whether colours are wanted: no `--no-color`, and `NO_COLOR` unset or empty.
    pub fn color(&self) -> bool {
        !self.no_color && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Show the side to move, the value of every legal move and the best moves
    Analyze(AnalyzeArgs),
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Boards in notation: rows top to bottom separated by '/', cells X, O or '.'
    /// (X.O/.X./..O). `-` reads boards from standard input, one per line
    #[arg(required = true, value_name = "BOARD")]
    pub boards: Vec<String>,

    /// Print one JSON object per board, one per line
    #[arg(long)]
    pub json: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn verify_cli() {
        Cli::command().debug_assert();
    }

    #[test]
    fn defaults_are_you_against_the_perfect_ai() {
        let cli = Cli::try_parse_from(["tictactoe"]).unwrap();
        assert_eq!((cli.x, cli.o), (Player::Human, Player::Hard));
        let cli = Cli::try_parse_from(["tictactoe", "-x", "medium", "-o", "human"]).unwrap();
        assert_eq!((cli.x, cli.o), (Player::Medium, Player::Human));
        assert!(Cli::try_parse_from(["tictactoe", "-o", "perfect"]).is_err());
    }
}
