//! The analysis board on its own, from the command line or the start screen: on the empty
//! board, on a game from a file, or posing a puzzle from the person's games.

use std::io::{self, IsTerminal, Write};
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context;
use clap::CommandFactory;
use clap::error::ErrorKind;

use super::{brain, screen_options, variant};
use crate::ai::player::Player;
use crate::cli::Cli;
use crate::game::file;
use crate::game::record::Record;
use crate::game::tree::Tree;
use crate::game::{Session, formats};
use crate::report::puzzles;
use crate::store::history;
use crate::store::puzzles as kept_puzzles;
use crate::ui::tui::{self, app::Posed};

/// `tictactoe analyze` with no board: the analysis board, on the game in the file `open` or
/// on the empty board of the rules asked for; only in a terminal.
pub(super) fn analysis_board(cli: &Cli, open: Option<&Path>) -> anyhow::Result<ExitCode> {
    if !(io::stdin().is_terminal() && io::stdout().is_terminal()) {
        let why = "give a board (or `-` to read boards from standard input): the analysis \
                   board opens only in a terminal";
        Cli::command()
            .error(ErrorKind::MissingRequiredArgument, why)
            .exit();
    }
    let variant = variant(cli);
    let tree = match open {
        None => Tree::new(variant),
        Some(path) => match opened(path, variant) {
            Ok(tree) => tree,
            Err(e) => {
                eprintln!("tictactoe: {}: {e:#}", path.display());
                return Ok(ExitCode::from(2));
            }
        },
    };
    let summary = analysis_screen(cli, tree, None)?;
    Ok(match summary.signal {
        Some(signal) => ExitCode::from(128 + u8::try_from(signal).unwrap_or(0)),
        None => ExitCode::SUCCESS,
    })
}

/// The tree of the game in the file at `path`: a game file with its variations, or any
/// other game kept as text, played by `variant` where the text does not say.
fn opened(path: &Path, variant: crate::rules::position::Variant) -> anyhow::Result<Tree> {
    let text = crate::store::games::read(path)?;
    if file::is_game_file(&text) {
        return Ok(file::read_tree(&text)?.1);
    }
    Ok(Tree::of_record(&formats::read_game(&text, variant)?))
}

/// The analysis board on its own, on `tree` (at the end of its main line), posing `puzzle`
/// where there is one; nothing is entered in the history.
pub(super) fn analysis_screen(
    cli: &Cli,
    tree: Tree,
    puzzle: Option<Posed>,
) -> anyhow::Result<tui::Summary> {
    let session = Session::new(tree.variant(), Player::Human, Player::Human);
    let options = tui::Options {
        analysis: Some((tree, puzzle)),
        journal: None,
        ..screen_options(cli)
    };
    let summary = tui::run(session, brain(cli), options)?;
    // Nothing was played to report once the screen is gone.
    Ok(tui::Summary {
        cancelled: summary.signal.is_none(),
        ..summary
    })
}

/// The start screen's *Puzzles* row: the games not searched yet searched (as `tictactoe
/// puzzles` searches them), then the first puzzle not solved posed on the board; none yet
/// is said on the start screen.
pub(super) fn puzzle_screen(cli: &Cli) -> anyhow::Result<tui::Summary> {
    let mut kept = kept_puzzles::load().context("reading the puzzles")?;
    let games = history::games();
    if puzzles::unsearched(&games, &kept) > 0 {
        let mut out = io::stdout();
        let _ = writeln!(out, "Searching your games for wins you missed…");
        let _ = out.flush();
        let mut brain = brain(cli);
        brain.set_think(cli.think_budget() / 10);
        if puzzles::search(&games, &mut kept, &mut brain) > 0 {
            kept_puzzles::save(&kept).context("keeping the puzzles")?;
        }
    }
    let (all, solved) = kept.counts();
    let first = kept.puzzles.iter().position(|p| !p.solved);
    let Some(index) = first.or((all > 0).then_some(0)) else {
        anyhow::bail!("No puzzles yet: none of your games searched had a win proven and missed");
    };
    let puzzle = &kept.puzzles[index];
    let position = puzzles::position(puzzle)
        .map_err(|e| anyhow::anyhow!("puzzle {} cannot be set up again: {e}", index + 1))?;
    let variant = position.variant();
    let record = Record::parse(variant, &puzzle.moves)
        .map_err(|e| anyhow::anyhow!("puzzle {} cannot be set up again: {e}", index + 1))?;
    let posed = Posed {
        number: index + 1,
        question: format!(
            "{} ({solved} of {all} solved)",
            puzzles::question(puzzle, &position)
        ),
        answer: None,
        verdict: None,
    };
    analysis_screen(cli, Tree::of_record(&record), Some(posed))
}
