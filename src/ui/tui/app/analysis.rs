//! The analysis board: a position of any game, played into or set up stone by stone, with the
//! engine thinking on it while the player looks (its best lines, their values, its depth,
//! nodes and speed), and every move tried kept as a tree of variations ([`Tree`]).
//!
//! Moves are typed as in a game (the same keys, [`App::play_key`]), for the side to move,
//! and make the tree; set up (`z`), a key puts a stone down (the side to move's, or the
//! colour `Tab` chose) or takes one up, anywhere, and the tree starts again from the position
//! so made ([`setup`]).

use std::time::Duration;

use crate::game::file::FileError;
use crate::game::file::{self, GameFile};
use crate::game::formats;
use crate::game::record::Record;
use crate::game::record::RecordError;
use crate::game::tree::{ROOT, Tree};
use crate::report::analyze;
use crate::report::puzzles::{self, Verdict};
use crate::rules::catalogue::Shape;
use crate::rules::classic::Mark;
use crate::rules::position::{Move, MoveError, Position};
use crate::text::sentence;
use crate::ui::tui::input::Action;
use crate::ui::tui::worker::{Job, Thought};

use super::{App, Mode};

mod setup;

/// The lines shown when the board opens.
const FIRST_LINES: usize = 3;

/// What a move key does on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hand {
    /// Plays the side to move's move, extending the tree.
    Moves,
    /// Puts the side to move's stone down, or takes a stone up: the position is set up
    /// afresh.
    SetUp,
}

/// Why the board did not do what a key asked, as the message line says it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A move that is not legal where it was typed.
    Move(MoveError),
    /// A key on no point of the board.
    NoPoint,
    /// Setting up a board whose moves are this noun's (Ultimate's, Connect Four's).
    MovesOnly(&'static str),
    /// A colour chosen (Tab) while keys play moves.
    ColourInMoves,
    /// A key that leaves the stones set up while some wait for the other side's: what they
    /// wait for.
    Waiting(String),
    /// A position set up that no game reaches, with the fault of the nearest try.
    Unreachable(RecordError),
    /// Pasted text that is no game: why.
    Paste(FileError),
    /// A key other than a move while a puzzle waits for its answer.
    PuzzleFirst,
    /// A second answer while the first is judged.
    Checking(Move),
    /// Backspace on a board set up by its moves.
    NoStones,
    /// Backspace on an empty point.
    Empty(Move),
    /// `v` on a board whose cells are not named by coordinates.
    NoNumbers,
    /// A hint asked for: the lines are it.
    Hint,
    /// A key that means nothing on the board, as the game screen words it.
    Elsewhere(String),
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Move(e) => write!(f, "{}", sentence(&e.to_string())),
            Refusal::NoPoint => write!(f, "That is no point of this board"),
            Refusal::MovesOnly(noun) => write!(f, "This board is set up by playing its {noun}s"),
            Refusal::ColourInMoves => {
                write!(
                    f,
                    "Tab chooses the colour of the stones set up: z sets up first"
                )
            }
            Refusal::Waiting(words) => write!(
                f,
                "{words}: put those down (Tab chooses the colour) or take the faint stones up"
            ),
            Refusal::Unreachable(e) => write!(f, "No game reaches that position: {e}"),
            Refusal::Paste(e) => write!(f, "The paste is no game: {e}"),
            Refusal::PuzzleFirst => {
                write!(f, "Answer the puzzle first: type your move (Esc leaves)")
            }
            Refusal::Checking(mv) => write!(f, "{mv} is being checked…"),
            Refusal::NoStones => {
                write!(f, "Backspace takes up a stone of a board set up by stones")
            }
            Refusal::Empty(mv) => write!(f, "There is no stone on {mv} to take up"),
            Refusal::NoNumbers => write!(
                f,
                "Move numbers show on the boards named by coordinates: 4×4 and up, and Gomoku"
            ),
            Refusal::Hint => write!(
                f,
                "The engine's lines are the hint here: + and - show more or fewer"
            ),
            Refusal::Elsewhere(said) => write!(f, "{said}"),
        }
    }
}

/// A puzzle posed on the board: the engine keeps quiet until the player's answer is judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Posed {
    /// Its number in the list of puzzles, from 1.
    pub number: usize,
    /// What it asks: `X to play and win in 5`.
    pub question: String,
    /// The answer typed, being judged, and then its verdict in words.
    pub answer: Option<Move>,
    pub verdict: Option<String>,
}

/// The analysis board's state.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    tree: Tree,
    /// The node on the board.
    at: usize,
    /// Its position.
    position: Position,
    hand: Hand,
    /// How many lines the engine shows: 0 (the value alone) to 5.
    count: usize,
    /// The engine's latest lines for the position on the board.
    thought: Option<Thought>,
    /// What the engine found of each node it finished thinking on: the saved file's
    /// comments, where the player wrote none.
    verdicts: Vec<(usize, String)>,
    /// Opened on its own (from the command line or the start screen), not over a game.
    alone: bool,
    /// The puzzle it poses, if it was opened on one.
    puzzle: Option<Posed>,
    /// The stones set up beyond the position: one side's, more than a game lets it have.
    waiting: Vec<setup::Stone>,
    /// The colour set up: the side to move's where `None`.
    colour: Option<Mark>,
}

impl Analysis {
    /// The board on the node `at` of `tree`.
    pub fn new(tree: Tree, at: usize, alone: bool) -> Analysis {
        Analysis {
            position: tree.position(at),
            tree,
            at,
            hand: Hand::Moves,
            count: FIRST_LINES,
            thought: None,
            verdicts: Vec::new(),
            alone,
            puzzle: None,
            waiting: Vec::new(),
            colour: None,
        }
    }

    /// The board posing `puzzle` at the end of `tree`'s main line.
    pub fn posing(tree: Tree, puzzle: Posed) -> Analysis {
        let end = tree.line_end(ROOT);
        Analysis {
            puzzle: Some(puzzle),
            ..Analysis::new(tree, end, true)
        }
    }

    /// The puzzle posed, if any.
    pub fn puzzle(&self) -> Option<&Posed> {
        self.puzzle.as_ref()
    }

    /// Whether the engine keeps quiet: a puzzle is posed and not answered yet.
    fn quiet(&self) -> bool {
        self.puzzle.as_ref().is_some_and(|p| p.verdict.is_none())
    }

    pub fn tree(&self) -> &Tree {
        &self.tree
    }

    /// The node on the board.
    pub fn at(&self) -> usize {
        self.at
    }

    pub fn position(&self) -> &Position {
        &self.position
    }

    pub fn hand(&self) -> Hand {
        self.hand
    }

    /// How many lines are asked for (0: the value alone).
    pub fn count(&self) -> usize {
        self.count
    }

    /// The engine's latest lines for the position on the board, if any came yet.
    pub fn thought(&self) -> Option<&Thought> {
        self.thought.as_ref()
    }

    /// Whether the board was opened on its own rather than over a game.
    pub fn alone(&self) -> bool {
        self.alone
    }

    /// The engine's work: the position on the board's lines, unless the game there is over.
    pub fn job(&self) -> Option<Job> {
        if let Some(puzzle) = self.puzzle.as_ref().filter(|_| self.quiet()) {
            return puzzle.answer.map(|mv| Job::Judge {
                position: self.position,
                mv,
            });
        }
        let waits = !self.waiting.is_empty();
        (!self.position.is_over() && !waits).then_some(Job::Lines {
            position: self.position,
            count: self.count,
        })
    }

    /// Why the board does not take `action` now: a puzzle waits for its answer, or stones set
    /// up wait for the other side's and `action` would leave them (or save without them).
    fn held(&self, action: &Action) -> Option<Refusal> {
        let walks = matches!(
            action,
            Action::Earlier | Action::Later | Action::Undo | Action::OtherLine(_) | Action::Stones
        );
        if self.quiet() && (walks || matches!(action, Action::Back | Action::Paste(_))) {
            return Some(Refusal::PuzzleFirst);
        }
        let leaves = walks || *action == Action::Export;
        self.waiting_words()
            .filter(|_| leaves)
            .map(Refusal::Waiting)
    }

    /// The engine's lines for the position on the board.
    pub fn answered(&mut self, thought: Thought) {
        if thought.done
            && let Some(line) = thought.lines.first()
        {
            let mover = self.position.to_move();
            let said = format!("{mover} to move: {}", analyze::words(line.value));
            self.verdicts.retain(|(node, _)| *node != self.at);
            self.verdicts.push((self.at, said));
        }
        self.thought = Some(thought);
    }

    /// Shows node `at`; the engine starts on it afresh.
    fn go(&mut self, at: usize) {
        self.at = at;
        self.position = self.tree.position(at);
        self.thought = None;
    }

    /// The side to move plays `mv`: a node of the tree, new or tried before.
    fn play(&mut self, mv: Move) -> Result<String, Refusal> {
        let before = self.tree.children(self.at).len();
        let mark = self.position.to_move();
        let at = self.tree.play(self.at, mv).map_err(Refusal::Move)?;
        self.go(at);
        let branch = match self.tree.place(at) {
            Some((n, count))
                if count > 1
                    && self
                        .tree
                        .children(self.tree.parent(at).unwrap_or(ROOT))
                        .len()
                        > before =>
            {
                format!(" (a new variation, {n} of {count} here)")
            }
            Some((n, count)) if count > 1 => format!(" (variation {n} of {count})"),
            _ => String::new(),
        };
        Ok(format!("{mark} {mv}{branch}"))
    }

    /// `[` and `]`, `{` and `}`: back, forward along the line, or to another move tried in
    /// the place of the last.
    fn step(&mut self, action: &Action) -> String {
        let next = match action {
            Action::Earlier | Action::Undo => self.tree.parent(self.at),
            Action::Later => self.tree.children(self.at).first().copied(),
            Action::OtherLine(step) => self.tree.sibling(self.at, *step),
            _ => None,
        };
        let Some(next) = next else {
            return match action {
                Action::Earlier | Action::Undo => "At the start: nothing before".into(),
                Action::Later => "At the end of this line".into(),
                _ => "No other move was tried here".into(),
            };
        };
        self.go(next);
        match (self.tree.mv(next), self.tree.place(next)) {
            (None, _) => "At the start".into(),
            (Some(mv), Some((n, count))) if count > 1 => {
                format!("{mv}: variation {n} of {count}")
            }
            (Some(mv), _) => format!("At {mv}, move {}", self.tree.moves_to(next).len()),
        }
    }

    /// `z`: moves or setting up, in turn; refused on a board set up by moves only.
    fn next_hand(&mut self) -> Result<&'static str, Refusal> {
        if !matches!(self.position.shape(), Shape::Cells | Shape::Points) {
            let noun = self.position.variant().move_noun();
            return Err(Refusal::MovesOnly(noun));
        }
        self.hand = match self.hand {
            Hand::Moves => Hand::SetUp,
            Hand::SetUp => Hand::Moves,
        };
        Ok(match self.hand {
            Hand::Moves => "Keys play moves for the side to move, kept as variations",
            Hand::SetUp => "Setting up: a key puts a stone down or takes one up (z: moves)",
        })
    }

    /// `+` and `-`: one line more or fewer (0 to [`crate::ai::player::MOST_LINES`]).
    fn lines(&mut self, more: bool) -> String {
        let most = crate::ai::player::MOST_LINES;
        let count = if more {
            (self.count + 1).min(most)
        } else {
            self.count.saturating_sub(1)
        };
        if count != self.count {
            self.count = count;
            self.thought = None;
        }
        match count {
            0 => "The value alone (+ shows lines)".into(),
            1 => "One line".into(),
            n => format!("{n} lines"),
        }
    }

    /// A pasted game (a move string, a record line, a `.psq`, a game file with its
    /// variations): the board starts again from it.
    fn paste(&mut self, text: &str) -> Result<String, Refusal> {
        let variant = self.tree.variant();
        let tree = if file::is_game_file(text) {
            file::read_tree(text)
                .map(|(_, tree)| tree)
                .map_err(Refusal::Paste)?
        } else {
            let record = formats::read_game(text, variant).map_err(Refusal::Paste)?;
            Tree::of_record(&record)
        };
        let moves = tree.main_line().len();
        self.tree = tree;
        self.waiting.clear();
        self.go(self.tree.line_end(ROOT));
        self.verdicts.clear();
        Ok(format!("Pasted: {moves} moves, on the board at the last"))
    }

    /// The tree as a game file, each node the engine finished thinking on commented with
    /// what it found, where no comment was written.
    pub fn file(&self, date: String) -> String {
        let mut tree = self.tree.clone();
        for (node, said) in &self.verdicts {
            if tree.comment(*node).is_empty() {
                tree.set_comment(*node, said);
            }
        }
        let game = GameFile {
            record: Record::new(tree.variant(), Vec::new()).expect("no move is legal"),
            x: "analysis".into(),
            o: "analysis".into(),
            date,
            result: String::new(),
        };
        file::write_tree(&game, &tree)
    }
}

impl App {
    /// Opens the analysis board on `tree` at `at`, over what is on screen (`alone`: on its
    /// own, so that leaving it leaves the screen).
    pub fn open_analysis(&mut self, tree: Tree, at: usize, alone: bool) {
        self.open_board(Analysis::new(tree, at, alone));
        self.message = self.analysis_message("Analysis board: the engine thinks as you look");
    }

    /// Opens the board on its own, posing `puzzle` at the end of `tree`'s main line.
    pub fn open_puzzle(&mut self, tree: Tree, puzzle: Posed) {
        let said = format!("Puzzle {}: {}", puzzle.number, puzzle.question);
        self.open_board(Analysis::posing(tree, puzzle));
        self.message = format!("{said}. Your move?");
    }

    fn open_board(&mut self, analysis: Analysis) {
        let under = std::mem::replace(&mut self.mode, Mode::Playing);
        self.cursor = analysis.position().centre();
        self.scroll = 0;
        self.mode = Mode::Analyse(Box::new(analysis), Box::new(under));
    }

    /// `a`: the analysis board on the position on screen (the game's, the one looked back at,
    /// the review's), the game's moves its main line.
    pub(super) fn analyse_here(&mut self) {
        if let Some(why) = self.hints_off().filter(|_| !self.allows_looking_on()) {
            self.message = why;
            return;
        }
        let tree = Tree::of_record(&self.game().record());
        // The review shows the move judged on the board before it: the position after it.
        let shown = match self.review() {
            Some((j, _, _)) => j.number,
            None => self
                .looking_back()
                .map_or(self.game().history().len(), |(n, _)| n),
        };
        let mut at = ROOT;
        for _ in 0..shown {
            at = tree.children(at).first().copied().unwrap_or(at);
        }
        self.open_analysis(tree, at, false);
    }

    /// The stone waiting on `mv`'s point of the analysis board, set up beyond a position a
    /// game reaches (drawn faint).
    pub fn waiting_stone(&self, mv: Move) -> Option<Mark> {
        self.analysis()?.waiting_on(mv)
    }

    /// The analysis board, where it is open.
    pub fn analysis(&self) -> Option<&Analysis> {
        match self.base_mode() {
            Mode::Analyse(analysis, _) => Some(analysis),
            _ => None,
        }
    }

    fn analysis_mut(&mut self) -> Option<&mut Analysis> {
        match self.base_mode_mut() {
            Mode::Analyse(analysis, _) => Some(analysis),
            _ => None,
        }
    }

    /// The verdict on the puzzle's answer: said, kept for the loop to count, and the move
    /// played, after which the engine thinks on the board.
    pub(super) fn puzzle_judged(&mut self, verdict: Option<Verdict>) {
        let Some(analysis) = self.analysis_mut() else {
            return;
        };
        let position = *analysis.position();
        let Some(puzzle) = analysis.puzzle.as_mut() else {
            return;
        };
        let Some(mv) = puzzle.answer else {
            return;
        };
        let said = match verdict {
            Some(verdict) => puzzles::said(verdict, mv, &position),
            None => "The check was stopped: type the move again".to_string(),
        };
        if verdict.is_none() {
            puzzle.answer = None;
        } else {
            puzzle.verdict = Some(said.clone());
            let number = puzzle.number;
            self.puzzle_verdict = verdict.map(|v| (number, v));
            let _ = self.analysis_mut().map(|a| a.play(mv));
        }
        self.message = self.analysis_message(&format!("{said} (+ shows the lines)"));
    }

    /// The verdict on a puzzle answered, once, for the loop to keep: the puzzle's number and
    /// the verdict.
    pub fn take_puzzle_verdict(&mut self) -> Option<(usize, Verdict)> {
        self.puzzle_verdict.take()
    }

    /// The engine's lines for the board, as the worker sends them.
    pub(super) fn analysis_answer(&mut self, thought: Thought) {
        if let Some(analysis) = self.analysis_mut() {
            analysis.answered(thought);
        }
    }

    /// A move key on the analysis board: a move for the side to move, or the hand's stone.
    pub(super) fn analysis_move(&mut self, mv: Move) {
        let Some(analysis) = self.analysis_mut() else {
            return;
        };
        let said = match (analysis.hand(), &mut analysis.puzzle) {
            (_, Some(puzzle)) if puzzle.verdict.is_none() => match puzzle.answer {
                Some(asked) => Err(Refusal::Checking(asked)),
                None if analysis.position.legal_moves().contains(&mv) => {
                    puzzle.answer = Some(mv);
                    Ok(format!("Checking {mv}…"))
                }
                None => Err(Refusal::Move(MoveError::Occupied(mv))),
            },
            (Hand::Moves, _) => analysis.play(mv),
            (Hand::SetUp, _) => analysis.stone(mv),
        };
        let said = said.unwrap_or_else(|why| why.to_string());
        self.message = self.analysis_message(&said);
        self.after_analysis_move();
    }

    /// Keeps the cursor on the board the side to move is sent to, in Ultimate.
    fn after_analysis_move(&mut self) {
        let Some(position) = self.analysis().map(|a| *a.position()) else {
            return;
        };
        if let Some(forced) = position.forced_board()
            && Position::board_of(self.cursor) != Some(forced)
        {
            self.cursor = position.centre();
        }
        if position.grid_point(self.cursor).is_none() {
            self.cursor = position.centre();
        }
    }

    /// A key on the analysis board: Backspace with no coordinate begun takes a stone up;
    /// every other key goes as in a game, moves to the board ([`App::analysis_move`]) and
    /// the rest to [`App::analysis_command`].
    pub(super) fn analysis_key(&mut self, action: Action) {
        let pending = self.column.is_some() || self.selected.is_some();
        if action == Action::Back && !pending {
            self.analysis_command(&action);
        } else {
            self.play_key(action);
        }
    }

    /// A key of the analysis board's own, after the move keys had their say (a letter that is
    /// a column is a column first, as in a game).
    pub(super) fn analysis_command(&mut self, action: &Action) {
        let cursor = self.cursor;
        let Some(analysis) = self.analysis_mut() else {
            return;
        };
        if let Some(why) = analysis.held(action) {
            self.message = self.analysis_message(&why.to_string());
            return;
        }
        let said = match action {
            Action::Earlier | Action::Later | Action::Undo | Action::OtherLine(_) => {
                Ok(analysis.step(action))
            }
            Action::Faster | Action::Draw => Ok(analysis.lines(true)),
            Action::Slower => Ok(analysis.lines(false)),
            Action::Stones => analysis.next_hand().map(str::to_string),
            Action::Colour => analysis.next_colour(),
            Action::Back => match analysis.position().grid_point(cursor) {
                Some(_) if matches!(analysis.position().shape(), Shape::Cells | Shape::Points) => {
                    analysis.set(cursor, None)
                }
                _ => Err(Refusal::NoStones),
            },
            Action::Paste(text) => analysis.paste(text),
            Action::Numbers if !super::keys::numbers_shown(analysis.position()) => {
                Err(Refusal::NoNumbers)
            }
            Action::Numbers => {
                self.next_numbers();
                return;
            }
            Action::Export => {
                let text = analysis.file(crate::store::history::now());
                self.export_text = Some(text);
                Ok("Saving the analysis…".into())
            }
            Action::Escape | Action::Quit => return self.leave_analysis(),
            Action::Interrupt => {
                self.quit = true;
                return;
            }
            Action::Hint | Action::Explore | Action::Review | Action::Resign => Err(Refusal::Hint),
            other => Err(Refusal::Elsewhere(super::elsewhere(other))),
        };
        let said = said.unwrap_or_else(|why| why.to_string());
        self.message = self.analysis_message(&said);
        self.after_analysis_move();
    }

    /// Esc: back to what the board was opened over, or off the screen when it was opened on
    /// its own.
    fn leave_analysis(&mut self) {
        match std::mem::replace(&mut self.mode, Mode::Playing) {
            Mode::Analyse(analysis, _) if analysis.alone() => self.quit = true,
            Mode::Analyse(_, under) => {
                self.mode = *under;
                self.cursor = self.shown_position().centre();
                self.scroll = 0;
                self.message = format!("Back from the analysis board. {}", self.turn_message());
            }
            other => self.mode = other,
        }
    }

    /// `said`, then whose move it is on the board.
    fn analysis_message(&self, said: &str) -> String {
        let Some(analysis) = self.analysis() else {
            return said.to_string();
        };
        let said = said.trim_end_matches('.');
        if analysis.waiting_words().is_some() {
            return format!("{said}.");
        }
        let position = analysis.position();
        let turn = if position.is_over() {
            "the game is over here".to_string()
        } else {
            format!("{} to move", position.to_move())
        };
        if said.contains("to move") {
            format!("{said}.")
        } else {
            format!("{said}; {turn}.")
        }
    }

    /// How long the engine has thought on the board, with its depth, nodes and speed.
    pub fn analysis_work(&self) -> Option<String> {
        let thought = self.analysis()?.thought()?;
        let mut words = Vec::new();
        if let Some(depth) = thought.work.depth {
            words.push(format!("depth {depth}"));
        }
        words.push(format!("{} nodes", count_words(thought.work.nodes)));
        let micros = thought.time.as_micros().max(1);
        let speed = u128::from(thought.work.nodes) * 1_000_000 / micros;
        words.push(format!(
            "{}/s",
            count_words(u64::try_from(speed).unwrap_or(u64::MAX))
        ));
        words.push(time_words(thought.time));
        if !thought.done {
            words.push("thinking…".into());
        }
        Some(words.join(" · "))
    }
}

/// `950`, `12.3k`, `4.56M`.
fn count_words(n: u64) -> String {
    match n {
        0..1_000 => n.to_string(),
        1_000..1_000_000 => format!("{}.{}k", n / 1_000, n % 1_000 / 100),
        _ => format!("{}.{:02}M", n / 1_000_000, n % 1_000_000 / 10_000),
    }
}

/// `0.25 s`, `12 s`.
fn time_words(time: Duration) -> String {
    let s = time.as_secs_f64();
    if s < 10.0 {
        format!("{s:.2} s")
    } else {
        format!("{s:.0} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::player::{Brain, Player, Work};
    use crate::game::Session;
    use crate::rules::position::Variant;
    use crate::ui::tui::app::Event;
    use crate::ui::tui::worker::Reply;

    /// The board on its own on `variant`'s empty board.
    fn board(variant: Variant) -> App {
        let mut app = App::new(
            Session::new(variant, Player::Human, Player::Human),
            (80, 30),
        );
        app.open_analysis(Tree::new(variant), ROOT, true);
        app
    }

    fn keys(app: &mut App, keys: &str) {
        for c in keys.chars() {
            let action = match c {
                '1'..='9' => Action::Digit(c as u8 - b'0'),
                '[' => Action::Earlier,
                ']' => Action::Later,
                '{' => Action::OtherLine(-1),
                '}' => Action::OtherLine(1),
                'z' => Action::Stones,
                '+' => Action::Faster,
                '-' => Action::Slower,
                'v' => Action::Numbers,
                '\t' => Action::Colour,
                _ => panic!("no key {c}"),
            };
            app.update(action);
        }
    }

    /// The cell of numpad digit `d` on 3×3.
    fn cell(d: u8) -> Move {
        Move::Cell(crate::rules::classic::Board::default().numpad(d).unwrap())
    }

    fn shown(app: &App) -> String {
        app.analysis().unwrap().position().to_string()
    }

    /// Answers the app's job as the worker would, with a seeded brain.
    fn think(app: &mut App) {
        let reply = match app.job() {
            Some(Job::Lines { position, count }) => {
                let lines = Brain::new(Some(1)).lines(&position, count.max(1));
                Reply::Lines(Box::new(Thought {
                    lines,
                    work: Work {
                        nodes: 500,
                        depth: None,
                    },
                    time: Duration::from_millis(250),
                    done: true,
                }))
            }
            Some(Job::Judge { position, mv }) => {
                Reply::Judged(puzzles::judge(&mut Brain::new(Some(1)), &position, mv))
            }
            job => panic!("{job:?}"),
        };
        app.handle(Event::Answer(reply));
    }

    #[test]
    fn a_move_off_the_line_is_a_variation_kept_and_walked_with_braces() {
        let mut app = board(Variant::default());
        keys(&mut app, "51[9");
        assert_eq!(shown(&app), "..O/.X./...");
        assert!(
            app.message().contains("a new variation, 2 of 2"),
            "{}",
            app.message()
        );
        keys(&mut app, "{");
        assert_eq!(shown(&app), ".../.X./O..");
        keys(&mut app, "[[]");
        assert_eq!(
            shown(&app),
            ".../.X./...",
            "forward follows the first move tried"
        );
        keys(&mut app, "]");
        assert_eq!(shown(&app), ".../.X./O..");
        let analysis = app.analysis().unwrap();
        assert_eq!(analysis.tree().moves(), 3);
    }

    #[test]
    fn setting_up_in_turn_puts_the_side_to_moves_stone_down_and_a_stone_taken_up_comes_off() {
        let mut app = board(Variant::default());
        keys(&mut app, "z75");
        assert_eq!(shown(&app), "X../.O./...");
        keys(&mut app, "57");
        assert_eq!(shown(&app), ".../.../...");
        keys(&mut app, "z5");
        assert_eq!(shown(&app), ".../.X./...", "z plays moves again");
        assert_eq!(app.analysis().unwrap().tree().moves(), 1);
    }

    #[test]
    fn stones_set_up_beyond_a_position_a_game_reaches_wait_faint_and_the_engine_with_them() {
        let mut app = board(Variant::default());
        let waiting = |app: &App| app.analysis().unwrap().waiting().len();
        // Tab: X's stones only.
        keys(&mut app, "z\t786");
        assert_eq!(shown(&app), "X../.../...", "{}", app.message());
        assert_eq!(waiting(&app), 2);
        assert_eq!(app.waiting_stone(cell(6)), Some(Mark::X));
        assert_eq!(app.job(), None, "the engine waits");
        assert!(app.message().contains("wait for O's"), "{}", app.message());
        keys(&mut app, "z[");
        assert!(
            app.message().contains("take the faint stones up"),
            "{}",
            app.message()
        );
        assert_eq!(app.analysis().unwrap().hand(), Hand::SetUp);
        // Tab: O's stones only; each lets one of X's in.
        keys(&mut app, "\t5");
        assert_eq!(shown(&app), "XX./.O./...");
        keys(&mut app, "1");
        assert_eq!(shown(&app), "XX./.OX/O..");
        assert_eq!(waiting(&app), 0);
        assert!(matches!(app.job(), Some(Job::Lines { .. })));
        // Taking up two of X's leaves O a stone ahead: one of O's waits.
        keys(&mut app, "78");
        assert_eq!(waiting(&app), 1);
        let (mv, mark) = app.analysis().unwrap().waiting()[0];
        assert_eq!(mark, Mark::O);
        let Move::Cell(c) = mv else { panic!("{mv:?}") };
        keys(&mut app, &c.numpad().unwrap().to_string());
        assert_eq!(waiting(&app), 0);
        keys(&mut app, "z");
        assert_eq!(app.analysis().unwrap().hand(), Hand::Moves);
    }

    #[test]
    fn backspace_on_an_empty_point_is_refused_and_keeps_the_variations() {
        let mut app = board(Variant::default());
        keys(&mut app, "519[[");
        app.update(Action::Move(crate::ui::tui::input::Direction::Up));
        assert_eq!(shown(&app), ".../.X./...");
        app.update(Action::Back);
        assert!(app.message().contains("no stone on"), "{}", app.message());
        assert_eq!(app.analysis().unwrap().tree().moves(), 3);
        assert!(matches!(app.job(), Some(Job::Lines { .. })));
    }

    #[test]
    fn v_on_a_board_without_coordinates_says_numbers_show_elsewhere() {
        let mut app = board(Variant::default());
        keys(&mut app, "5v");
        assert!(
            app.message().starts_with("Move numbers show"),
            "{}",
            app.message()
        );
        assert!(app.numbered().is_empty());
    }

    #[test]
    fn a_second_question_mark_turns_the_help_to_the_rules_and_leaves_the_message_alone() {
        let mut app = board(Variant::default());
        let before = app.message().to_string();
        app.update(Action::Help);
        app.update(Action::Help);
        assert!(app.rules_open());
        app.update(Action::Escape);
        assert_eq!(app.message(), before);
    }

    #[test]
    fn ultimate_is_set_up_by_its_moves_only() {
        let mut app = board(Variant::Ultimate);
        keys(&mut app, "z");
        assert!(
            app.message().starts_with("This board is set up by playing"),
            "{}",
            app.message()
        );
        assert_eq!(app.analysis().unwrap().hand(), Hand::Moves);
    }

    #[test]
    fn the_lines_asked_follow_the_board_and_lead_with_its_value() {
        let mut app = board(Variant::default());
        keys(&mut app, "57");
        let position = *app.analysis().unwrap().position();
        assert_eq!(app.job(), Some(Job::Lines { position, count: 3 }));
        think(&mut app);
        let thought = app.analysis().unwrap().thought().unwrap().clone();
        assert_eq!(thought.lines.len(), 3);
        let head = Brain::new(Some(1)).analyze(&position, false).head;
        assert_eq!(thought.lines.first().map(|l| l.value), head.map(|(v, _)| v));
        assert_eq!(
            app.analysis_work().as_deref(),
            Some("500 nodes · 2.0k/s · 0.25 s")
        );
        keys(&mut app, "+");
        assert_eq!(app.job(), Some(Job::Lines { position, count: 4 }));
        assert!(app.analysis().unwrap().thought().is_none(), "asked afresh");
        keys(&mut app, "-----");
        assert_eq!(app.job(), Some(Job::Lines { position, count: 0 }));
    }

    #[test]
    fn with_hints_off_the_board_stays_closed_over_a_game_against_the_ai_and_opens_with_them_on() {
        let session = Session::new(Variant::default(), Player::Human, Player::HARD);
        let mut app = App::new(session, (80, 30));
        app.set_hints(false);
        // `a` is column a first: typed twice, the board.
        app.update(Action::Analyse);
        app.update(Action::Analyse);
        assert!(app.analysis().is_none());
        assert!(
            app.message().starts_with("Hints are off"),
            "{}",
            app.message()
        );
        app.set_hints(true);
        app.update(Action::Analyse);
        app.update(Action::Analyse);
        assert!(app.analysis().is_some(), "{}", app.message());
        app.update(Action::Escape);
        assert!(app.analysis().is_none());
        assert!(!app.should_quit(), "Esc goes back to the game");
    }

    #[test]
    fn a_pasted_game_sets_the_board_up_and_text_that_is_none_is_told() {
        let mut app = board(Variant::default());
        app.update(Action::Paste("Record: 5 1 9".into()));
        assert_eq!(shown(&app), "..X/.X./O..");
        app.update(Action::Paste("hello".into()));
        assert_eq!(shown(&app), "..X/.X./O..", "nothing lost");
        assert!(app.message().contains("hello"), "{}", app.message());
    }

    #[test]
    fn v_numbers_the_last_ten_stones_then_every_one_then_none() {
        let mut app = board(Variant::from_flags("--size 5").unwrap());
        let position = *app.analysis().unwrap().position();
        let moves: Vec<Move> = position.legal_moves().into_iter().take(12).collect();
        for &mv in &moves {
            app.analysis_move(mv);
        }
        keys(&mut app, "v");
        let numbers: Vec<usize> = app.numbered().iter().map(|&(_, n)| n).collect();
        assert_eq!(numbers, (3..=12).collect::<Vec<_>>());
        keys(&mut app, "v");
        assert_eq!(app.numbered().len(), 12);
        assert_eq!(app.numbered()[0], (moves[0], 1));
        keys(&mut app, "v");
        assert!(app.numbered().is_empty());
    }

    #[test]
    fn a_puzzle_keeps_the_engine_quiet_until_the_answer_is_judged_and_counted() {
        let record = Record::parse(Variant::default(), &["7", "4", "8", "5"]).unwrap();
        let mut app = App::new(
            Session::new(Variant::default(), Player::Human, Player::Human),
            (80, 30),
        );
        let posed = Posed {
            number: 1,
            question: "X to play and win in 1".into(),
            answer: None,
            verdict: None,
        };
        app.open_puzzle(Tree::of_record(&record), posed);
        assert_eq!(app.job(), None, "the engine waits for the answer");
        keys(&mut app, "[");
        assert!(app.message().starts_with("Answer the puzzle first"));
        keys(&mut app, "1");
        let position = record.end();
        let one = position.parse_move("1").unwrap();
        assert_eq!(app.job(), Some(Job::Judge { position, mv: one }));
        think(&mut app);
        assert!(
            app.message().starts_with("Not this one: after 1, O wins"),
            "{}",
            app.message()
        );
        assert!(matches!(
            app.take_puzzle_verdict(),
            Some((1, puzzles::Verdict::Wrong { .. }))
        ));
        assert!(
            matches!(app.job(), Some(Job::Lines { .. })),
            "then the lines"
        );
    }
}
