//! One interface over every rule set, classic N×N ([`board`]), Ultimate ([`ultimate`]) and
//! Gomoku ([`gomoku`]):
//! whose turn it is, the legal moves, playing one, how the game stands, naming and parsing
//! moves, how a move is typed on the keypad and where it sits on the screen's grid. The
//! game, the session, records, review, analyze, the network and the front ends work through
//! it once for all; only drawing a board and the AI behind it are per rule set.
//!
//! The rule sets are one enum matched here and nowhere above (the AI dispatch and the board
//! drawing aside): a position is a small `Copy` value that the game, the records, the
//! network and the worker thread pass around freely, and a match on three variants costs
//! nothing next to a move's bit arithmetic. Every method is one match, [`each!`], that
//! forwards to the rule set's traits ([`RuleSet`], [`Notation`]) and to [`Member`], which
//! each rule set declares in a file of its own (`position/members/`): how its positions, moves and
//! errors are wrapped in this file's enums. A fourth rule set is a fourth variant of the
//! enums, an arm of [`each!`] and [`Variant::start`], and one such file.

mod data;
mod members;

use std::fmt;

use crate::rules::classic::{self, Board, Cell, Mark, Rules, RulesError, Squares};
use crate::rules::connect_four::{self, Column, ConnectFour};
use crate::rules::gomoku::opening::{Choice, Opening, Seat, Stage};
use crate::rules::gomoku::{self, Gomoku};
use crate::rules::ultimate::{self, UltimateBoard};
use crate::rules::{Notation, RuleSet};
pub use crate::rules::{Outcome, WonLine};
pub use data::{RulesData, RulesDataError};

/// Runs `$body` with `$p` bound to the position of whichever rule set `$position` holds: the
/// one match over the rule sets that every forwarding method of [`Position`] goes through.
macro_rules! each {
    ($position:expr, $p:ident => $body:expr) => {
        match $position {
            Position::Classic($p) => $body,
            Position::Ultimate($p) => $body,
            Position::Gomoku($p) => $body,
            Position::ConnectFour($p) => $body,
        }
    };
}
pub(crate) use each;

/// Which game is played: classic with its rules, Ultimate tic-tac-toe, or Gomoku.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Classic(Rules),
    Ultimate,
    /// Gomoku's rules on a board of side `size` (15, or 8 to 20): `k` in a row (five, or 3 to
    /// `size`) decided by `rule`: `k` or more, exactly `k`, renju's (five, black's forbidden
    /// points) or caro's (five, not blocked at both ends).
    Gomoku {
        size: u8,
        k: u8,
        rule: gomoku::Rule,
        /// How the game opens: freely, or by a swap rule (five in a row only).
        opening: Opening,
    },
    /// Connect Four: `columns` that fill from the bottom, `rows` high (7 by 6, or 4 to 9
    /// each), four in a row.
    ConnectFour {
        columns: u8,
        rows: u8,
    },
}

impl Default for Variant {
    fn default() -> Self {
        Rules::CLASSIC.into()
    }
}

impl Variant {
    /// The starting position: the empty board, X to move.
    pub fn start(self) -> Position {
        match self {
            Variant::Classic(rules) => Board::new(rules).into(),
            Variant::Ultimate => UltimateBoard::new().into(),
            Variant::Gomoku {
                size,
                k,
                rule,
                opening,
            } => Gomoku::with_rule(size, k, rule)
                .and_then(|board| board.with_opening(opening))
                .unwrap_or_default()
                .into(),
            Variant::ConnectFour { columns, rows } => {
                ConnectFour::new(columns, rows).unwrap_or_default().into()
            }
        }
    }

    /// Connect Four on its standard board, 7 columns of 6 rows.
    pub const CONNECT_FOUR: Variant = Variant::ConnectFour {
        columns: connect_four::COLUMNS,
        rows: connect_four::ROWS,
    };

    /// Gomoku on its standard board, 15×15, five or more in a row.
    pub const GOMOKU: Variant = Variant::Gomoku {
        size: gomoku::SIZE,
        k: gomoku::FIVE,
        rule: gomoku::Rule::Freestyle,
        opening: Opening::Free,
    };

    /// Gomoku on 15×15 with exactly five in a row.
    pub const GOMOKU_EXACT: Variant = Variant::Gomoku {
        size: gomoku::SIZE,
        k: gomoku::FIVE,
        rule: gomoku::Rule::Exact,
        opening: Opening::Free,
    };

    /// Renju: Gomoku on 15×15 with black's forbidden points.
    pub const RENJU: Variant = Variant::Gomoku {
        size: gomoku::SIZE,
        k: gomoku::FIVE,
        rule: gomoku::Rule::Renju,
        opening: Opening::Free,
    };

    /// Caro: Gomoku on 15×15 where five blocked at both ends wins nothing.
    pub const CARO: Variant = Variant::Gomoku {
        size: gomoku::SIZE,
        k: gomoku::FIVE,
        rule: gomoku::Rule::Caro,
        opening: Opening::Free,
    };

    /// The game of a board of side `size` with `k` in a row (the size's default if `None`):
    /// classic up to 7×7, Gomoku's rules from 8×8 to 20×20 (five in a row by default).
    pub fn of_size(size: u8, k: Option<u8>, misere: bool) -> Result<Variant, RulesError> {
        if size < gomoku::MIN_SIZE {
            let k = k.unwrap_or(Rules::default_k(size));
            return Rules::new(size, k, misere).map(Variant::from);
        }
        if size > gomoku::MAX_SIZE {
            return Err(RulesError::Size(size));
        }
        if misere {
            return Err(RulesError::Misere(size));
        }
        let k = k.unwrap_or(gomoku::FIVE);
        match Gomoku::with_rules(size, k, false) {
            Some(_) => Ok(Variant::Gomoku {
                size,
                k,
                rule: gomoku::Rule::Freestyle,
                opening: Opening::Free,
            }),
            None => Err(RulesError::K { k, size }),
        }
    }

    /// This game with exactly its line winning (`exact`), a rule of Gomoku's boards only;
    /// without, this game unchanged.
    pub fn exactly(self, exact: bool) -> Result<Variant, RulesError> {
        match self {
            _ if !exact => Ok(self),
            Variant::Gomoku {
                size,
                k,
                rule: gomoku::Rule::Freestyle | gomoku::Rule::Exact,
                opening,
            } => Ok(Variant::Gomoku {
                size,
                k,
                rule: gomoku::Rule::Exact,
                opening,
            }),
            _ => Err(RulesError::ExactFive),
        }
    }

    /// This game by renju's rules (`renju`), a rule of Gomoku's boards with five in a row
    /// only; without, this game unchanged.
    pub fn by_renju(self, renju: bool) -> Result<Variant, RulesError> {
        self.ruled(renju, gomoku::Rule::Renju, RulesError::Renju)
    }

    /// This game by caro's rule (`caro`), a rule of Gomoku's boards with five in a row only;
    /// without, this game unchanged.
    pub fn by_caro(self, caro: bool) -> Result<Variant, RulesError> {
        self.ruled(caro, gomoku::Rule::Caro, RulesError::Caro)
    }

    /// This game opened by `opening`, a rule of Gomoku's boards with five in a row only (a
    /// free opening leaves any game as it is).
    pub fn opened(self, opening: Opening) -> Result<Variant, RulesError> {
        match self {
            _ if opening == Opening::Free => Ok(self),
            Variant::Gomoku {
                size,
                k: gomoku::FIVE,
                rule,
                ..
            } => Ok(Variant::Gomoku {
                size,
                k: gomoku::FIVE,
                rule,
                opening,
            }),
            _ => Err(RulesError::Opening),
        }
    }

    /// How the game opens: freely, except Gomoku's games opened by a swap rule.
    pub fn opening(self) -> Opening {
        match self {
            Variant::Gomoku { opening, .. } => opening,
            _ => Opening::Free,
        }
    }

    /// Freestyle five in a row on Gomoku's boards played by `rule` instead, where `on`.
    fn ruled(
        self,
        on: bool,
        rule: gomoku::Rule,
        refused: RulesError,
    ) -> Result<Variant, RulesError> {
        match self {
            _ if !on => Ok(self),
            Variant::Gomoku {
                size,
                k: gomoku::FIVE,
                rule: gomoku::Rule::Freestyle,
                opening,
            } => Ok(Variant::Gomoku {
                size,
                k: gomoku::FIVE,
                rule,
                opening,
            }),
            _ => Err(refused),
        }
    }

    /// The variant's name, for the wire and its command-line flag: `classic`, `ultimate`,
    /// `gomoku`; `in-a-row` for Gomoku's boards with another line than five.
    pub fn name(self) -> &'static str {
        each!(self.start(), p => p.name())
    }

    /// The command-line flags that select this variant and differ from the defaults:
    /// none for classic 3×3, `--size 5`, `--size 4 --k 3 --misere`, `--ultimate`, `--gomoku`.
    pub fn flags(self) -> Vec<String> {
        each!(self.start(), p => p.flags())
    }

    /// What one position of this rule set is called in reports: `board`, or `position` for
    /// Ultimate, whose notation says more than the marks.
    pub fn noun(self) -> &'static str {
        each!(self.start(), p => p.noun())
    }

    /// What one move is called in reports: `cell`, `point` in Gomoku, or `move` for Ultimate.
    pub fn move_noun(self) -> &'static str {
        each!(self.start(), p => p.move_noun())
    }

    /// What the sides put on the board are called: `marks`, or `stones` in Gomoku.
    pub fn pieces(self) -> &'static str {
        each!(self.start(), p => p.pieces())
    }

    /// Whether a move is a cell of a board chosen first (Ultimate's small boards).
    pub fn has_boards(self) -> bool {
        each!(self.start(), p => p.has_boards())
    }

    /// The rules for people, a line each ([`Notation::rules_text`]).
    pub fn rules_text(self) -> Vec<String> {
        each!(self.start(), p => p.rules_text())
    }

    /// How moves are typed, for a player who asks.
    pub fn typing_help(self, forms: &str) -> String {
        each!(self.start(), p => p.typing_help(forms))
    }

    /// Stones in a row that win, where the game counts them (classic and Gomoku's boards).
    pub fn k(self) -> Option<u8> {
        match self {
            Variant::Classic(rules) => Some(rules.k()),
            Variant::Gomoku { k, .. } => Some(k),
            Variant::ConnectFour { .. } => Some(connect_four::FOUR),
            Variant::Ultimate => None,
        }
    }

    /// The classic rules, if this is classic play.
    pub fn rules(self) -> Option<Rules> {
        match self {
            Variant::Classic(rules) => Some(rules),
            _ => None,
        }
    }
}

impl fmt::Display for Variant {
    /// For people: `3×3`, `5×5, four in a row, misère`, `Ultimate`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&each!(self.start(), p => p.title()))
    }
}

/// A move of any variant: a cell of a square board (classic or Gomoku), or a board and a
/// cell of Ultimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Cell(Cell),
    Ultimate(ultimate::Move),
    /// A colour chosen (or two more stones to place) in a swap opening of Gomoku.
    Choice(Choice),
    /// A column of Connect Four.
    Column(Column),
}

impl Move {
    /// The order moves are listed in for people: a square board's cells top row first, left
    /// to right, as the board looks; Ultimate's moves board by board, cell by cell.
    pub fn reading_key(self) -> (u8, u8) {
        match self {
            Move::Cell(cell) => cell.reading_key(),
            Move::Ultimate(mv) => (mv.board(), mv.cell()),
            Move::Choice(choice) => (u8::MAX, choice as u8),
            Move::Column(column) => (0, column.0),
        }
    }

    /// What the place a move is put on is called: `cell`, or `point` on Gomoku's boards.
    pub fn place_noun(self) -> &'static str {
        match self {
            Move::Cell(cell) => cell.noun(),
            Move::Ultimate(_) | Move::Choice(_) => "cell",
            Move::Column(_) => "column",
        }
    }
}

impl fmt::Display for Move {
    /// As players type it: `5` or `b2` on a square board, `53` in Ultimate.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Cell(cell) => write!(f, "{cell}"),
            Move::Ultimate(mv) => write!(f, "{mv}"),
            Move::Choice(choice) => write!(f, "{choice}"),
            Move::Column(column) => write!(f, "{column}"),
        }
    }
}

/// Why a move was refused; the position is unchanged.
pub type MoveError = crate::rules::MoveError<Move>;

impl crate::rules::Located for Move {
    fn cell_words(&self) -> String {
        match self {
            Move::Cell(cell) => cell.cell_words(),
            Move::Ultimate(mv) => mv.cell_words(),
            Move::Choice(choice) => format!("'{choice}'"),
            Move::Column(column) => column.cell_words(),
        }
    }

    fn small_board(&self) -> Option<u8> {
        match self {
            Move::Cell(_) | Move::Choice(_) | Move::Column(_) => None,
            Move::Ultimate(mv) => mv.small_board(),
        }
    }
}

/// Text that names no move of the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseMoveError {
    Cell(classic::CellError),
    Ultimate(ultimate::ParseMoveError),
    Column(connect_four::ParseColumnError),
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseMoveError::Cell(e) => write!(f, "{e}"),
            ParseMoveError::Ultimate(e) => write!(f, "{e}"),
            ParseMoveError::Column(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ParseMoveError {}

/// Text that is no position of the rule set it was read for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParsePositionError {
    Classic(classic::ParseBoardError),
    Ultimate(ultimate::ParseUltimateError),
    Gomoku(gomoku::ParseGomokuError),
    ConnectFour(connect_four::ParseBoardError),
    /// Gomoku's boards are not played misère.
    GomokuRules,
    /// `--exact` with a board that is not played with Gomoku's rules.
    ExactFive,
}

impl fmt::Display for ParsePositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParsePositionError::Classic(e) => write!(f, "{e}"),
            ParsePositionError::Ultimate(e) => write!(f, "{e}"),
            ParsePositionError::Gomoku(e) => write!(f, "{e}"),
            ParsePositionError::ConnectFour(e) => write!(f, "{e}"),
            ParsePositionError::GomokuRules => {
                write!(f, "a board from 8×8 up is not played misère: drop --misere")
            }
            ParsePositionError::ExactFive => write!(f, "{}", RulesError::ExactFive),
        }
    }
}

impl std::error::Error for ParsePositionError {}

/// A position of any variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Position {
    Classic(Board),
    Ultimate(UltimateBoard),
    Gomoku(Gomoku),
    ConnectFour(ConnectFour),
}

impl Position {
    /// A position in its rule set's notation: Ultimate's with `ultimate`; else a board of 8 to
    /// 15 rows is Gomoku's, and any other a classic board, with `k` in a row (the size's
    /// default if `None`), exactly `k` (`exact`, Gomoku's only) and misère rules (classic
    /// only).
    pub fn parse(
        text: &str,
        ultimate: bool,
        k: Option<u8>,
        misere: bool,
        exact: bool,
    ) -> Result<Position, ParsePositionError> {
        let gomoku = !ultimate && text.trim().split('/').count() >= usize::from(gomoku::MIN_SIZE);
        if exact && !gomoku {
            return Err(ParsePositionError::ExactFive);
        }
        if ultimate {
            return parsed(text.parse::<UltimateBoard>());
        }
        if !gomoku {
            return parsed(Board::parse_with(text, k, misere));
        }
        if misere {
            return Err(ParsePositionError::GomokuRules);
        }
        let k = k.unwrap_or(gomoku::FIVE);
        parsed(Gomoku::parse_with(text, k, exact))
    }

    pub fn variant(&self) -> Variant {
        each!(self, p => p.variant())
    }

    /// Whose turn it is (once the game is over: who would move next).
    pub fn to_move(&self) -> Mark {
        each!(self, p => RuleSet::to_move(p))
    }

    pub fn outcome(&self) -> Outcome {
        each!(self, p => RuleSet::outcome(p))
    }

    pub fn is_over(&self) -> bool {
        self.outcome() != Outcome::InProgress
    }

    /// Under misère rules, once the game is won: the side that completed a line and so lost.
    pub fn line_completed_by_loser(&self) -> Option<Mark> {
        match (self.variant().rules(), self.outcome()) {
            (Some(rules), Outcome::Won(winner)) if rules.misere() => Some(winner.other()),
            _ => None,
        }
    }

    /// The moves the side to move may make, in board order; none once the game is over.
    /// Where a swap opening asks for a choice, the choices offered.
    pub fn legal_moves(&self) -> Vec<Move> {
        if let Stage::Choose(offered) = self.stage() {
            return offered.iter().map(|&c| Move::Choice(c)).collect();
        }
        each!(self, p => legal_moves(p))
    }

    /// Plays `mv` for the side to move (or, in a swap opening, for the seat that acts);
    /// on error nothing changes.
    pub fn play(&mut self, mv: Move) -> Result<(), MoveError> {
        match (self, mv) {
            (Position::Gomoku(board), Move::Choice(choice)) => {
                board.choose(choice).map_err(MoveError::Choice)
            }
            (_, Move::Choice(_)) => Err(MoveError::OtherVariant),
            (position, _) if matches!(position.stage(), Stage::Choose(_)) => {
                Err(MoveError::Choosing)
            }
            (position, mv) => each!(position, p => play(p, mv)),
        }
    }

    /// Names a move as a player types it (`5`, `b2`; `53`, `e5`, or `3` when sent to a
    /// board; `black`, `white` or `two` in a swap opening). Whether it is legal is for
    /// [`Position::play`] to say.
    pub fn parse_move(&self, text: &str) -> Result<Move, ParseMoveError> {
        if self.variant().opening() != Opening::Free
            && let Some(choice) = Choice::parse(text)
        {
            return Ok(Move::Choice(choice));
        }
        each!(self, p => parse_move(p, text))
    }

    /// Where a swap opening stands: stones to place, a colour to choose, or play (every
    /// other game is always at play).
    pub fn stage(&self) -> Stage {
        self.gomoku().map_or(Stage::Play, Gomoku::stage)
    }

    /// What a swap opening asks now, for people ([`Gomoku::stage_words`]); `None` in play.
    pub fn stage_words(&self) -> Option<String> {
        self.gomoku().and_then(Gomoku::stage_words)
    }

    /// The seat that acts now: in play, the one playing the side to move; in a swap opening,
    /// the one placing stones or choosing ([`gomoku::opening`]).
    pub fn seat(&self) -> Seat {
        match self.gomoku() {
            Some(board) => board.seat(),
            None => Seat::of(self.to_move()),
        }
    }

    /// The seat playing `mark`: the first plays X, unless a swap opening's choice exchanged
    /// the colours.
    pub fn seat_of(&self, mark: Mark) -> Seat {
        self.gomoku()
            .map_or(Seat::of(mark), |board| board.seat_of(mark))
    }

    /// The mark `seat` plays (before the opening's choice, the one it began with).
    pub fn mark_of(&self, seat: Seat) -> Mark {
        if self.seat_of(Mark::X) == seat {
            Mark::X
        } else {
            Mark::O
        }
    }

    /// Where the side to move may play, for messages: `on board 3` or `anywhere` in Ultimate;
    /// `None` where the question does not arise.
    pub fn whereabouts(&self) -> Option<String> {
        each!(self, p => p.whereabouts())
    }

    /// What a move looks like, for prompts and messages: `1-9`, `a1-e5`, or in Ultimate
    /// `1-9` when sent to a board and `board then cell, e.g. 53` when not.
    pub fn move_forms(&self) -> String {
        each!(self, p => p.move_forms())
    }

    /// The line that won the game, if it is won.
    pub fn won_line(&self) -> Option<WonLine> {
        each!(self, p => RuleSet::won_line(p))
    }

    /// Why the stone already on `mv` made a line that wins nothing (Gomoku's exact, caro's
    /// and renju's rules), if it did.
    pub fn wins_nothing(&self, mv: Move) -> Option<&'static str> {
        let Move::Cell(cell) = mv else {
            return None;
        };
        self.gomoku()?.wins_nothing(cell)
    }

    /// The board of Ultimate the side to move is sent to, if any.
    pub fn forced_board(&self) -> Option<u8> {
        self.ultimate().and_then(UltimateBoard::forced_board)
    }

    /// The classic board, in classic play.
    pub fn classic(&self) -> Option<&Board> {
        Board::within(self)
    }

    /// The Ultimate position, in Ultimate play.
    pub fn ultimate(&self) -> Option<&UltimateBoard> {
        UltimateBoard::within(self)
    }

    /// The Gomoku position, in Gomoku play.
    pub fn gomoku(&self) -> Option<&Gomoku> {
        Gomoku::within(self)
    }

    /// The Connect Four position, in Connect Four.
    pub fn connect_four(&self) -> Option<&ConnectFour> {
        ConnectFour::within(self)
    }

    /// A position of `variant` in its notation: [`Position::parse`]'s boards, and Connect
    /// Four's rows or columns played (`4453`) on its board.
    pub fn parse_of(
        text: &str,
        variant: Variant,
        (k, misere, exact): (Option<u8>, bool, bool),
    ) -> Result<Position, ParsePositionError> {
        match variant {
            Variant::ConnectFour { columns, rows } => {
                parsed(ConnectFour::parse_with(text, columns, rows))
            }
            variant => Position::parse(text, variant == Variant::Ultimate, k, misere, exact),
        }
    }
}

/// A rule set as a member of [`Position`]: how its positions are wrapped in the enum that
/// every layer above passes around. Its moves and their errors convert into this file's
/// enums (`From`, and `TryFrom<Move>` back; a refusal is the one [`crate::rules::MoveError`] shape, its move converted), once for each kind of move: the cells of every
/// square board alike (`position/members/cells.rs`). Each rule set declares it in a file of
/// its own under `position/members/`.
trait Member:
    Notation<
        Move: Into<Move> + TryFrom<Move, Error = MoveError>,
        ParseMoveError: Into<ParseMoveError>,
    > + Into<Position>
{
    /// The game this position is one of.
    fn variant(&self) -> Variant;
    /// The position of this rule set that `position` holds, if it holds one.
    fn within(position: &Position) -> Option<&Self>;
    /// `mv` as this rule set's move, or why it is none: a move of another game (or, on a
    /// square board, a cell of a board of another size).
    fn own_move(&self, mv: Move) -> Result<Self::Move, MoveError> {
        mv.try_into()
    }
}

fn legal_moves<R: Member>(position: &R) -> Vec<Move> {
    let moves = RuleSet::legal_moves(position).into_iter();
    moves.map(Into::into).collect()
}

fn play<R: Member>(position: &mut R, mv: Move) -> Result<(), MoveError> {
    let mv = position.own_move(mv)?;
    RuleSet::play(position, mv).map_err(|e| e.map(Into::into))
}

fn parse_move<R: Member>(position: &R, text: &str) -> Result<Move, ParseMoveError> {
    let parsed = Notation::parse_move(position, text);
    parsed.map(Into::into).map_err(Into::into)
}

/// A cell of a square board, refused if `mv` is not a cell or lies off the board.
fn own_cell(board: &impl Squares, mv: Move) -> Result<Cell, MoveError> {
    let cell = Cell::try_from(mv)?;
    if board.holds(cell) {
        Ok(cell)
    } else {
        Err(MoveError::OtherBoard)
    }
}

/// A position read as one rule set's, wrapped.
fn parsed<P, E>(result: Result<P, E>) -> Result<Position, ParsePositionError>
where
    P: Into<Position>,
    ParsePositionError: From<E>,
{
    result.map(Into::into).map_err(ParsePositionError::from)
}

impl fmt::Display for Position {
    /// The variant's notation (see [`board`] and [`ultimate`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        each!(self, p => write!(f, "{p}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_read_back_as_the_same_variant() {
        let mut variants: Vec<Variant> = crate::rules::catalogue::CATALOGUE
            .map(|e| e.variant)
            .to_vec();
        for rule in [gomoku::Rule::Freestyle, gomoku::Rule::Exact] {
            for size in 8..=20 {
                variants.extend((3..=size).map(|k| Variant::Gomoku {
                    size,
                    k,
                    rule,
                    opening: Opening::Free,
                }));
            }
        }
        for rule in [gomoku::Rule::Renju, gomoku::Rule::Caro] {
            let five = gomoku::FIVE;
            variants.extend((8..=20).map(|size| Variant::Gomoku {
                size,
                k: five,
                rule,
                opening: Opening::Free,
            }));
            for opening in [Opening::Swap1, Opening::Swap2] {
                variants.extend((8..=20).map(|size| Variant::Gomoku {
                    size,
                    k: five,
                    rule,
                    opening,
                }));
            }
        }
        for size in 3..=7 {
            for k in 3..=size {
                for misere in [false, true] {
                    variants.push(Variant::Classic(Rules::new(size, k, misere).unwrap()));
                }
            }
        }
        for variant in variants {
            let text = variant.flags().join(" ");
            assert_eq!(Variant::from_flags(&text), Some(variant), "{text:?}");
        }
        for bad in [
            "--size",
            "--size 21",
            "--size 9 --k 10",
            "--size 9 --misere",
            "--k 4",
            "--size 4 --size 4",
            "--ultimate --misere",
            "--gomoku --size 5",
            "--classic",
            "-x",
        ] {
            assert_eq!(Variant::from_flags(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn both_variants_play_through_one_interface() {
        for (variant, moves) in [
            (Variant::default(), ["5", "1", "9"]),
            (Variant::Ultimate, ["55", "1", "19"]),
        ] {
            let mut position = variant.start();
            for text in moves {
                let mv = position.parse_move(text).unwrap();
                assert!(position.legal_moves().contains(&mv));
                position.play(mv).unwrap();
            }
            assert_eq!(position.to_move(), Mark::O);
            assert_eq!(position.outcome(), Outcome::InProgress);
            assert_eq!(position.variant(), variant);
        }
    }

    #[test]
    fn moves_of_another_game_are_refused() {
        let mut classic = Variant::default().start();
        let mut ultimate = Variant::Ultimate.start();
        let cell = classic.parse_move("5").unwrap();
        let mv = ultimate.parse_move("55").unwrap();
        assert_eq!(ultimate.play(cell), Err(MoveError::OtherVariant));
        assert_eq!(classic.play(mv), Err(MoveError::OtherVariant));
        let big = Variant::Classic(Rules::new(5, 4, false).unwrap()).start();
        let b2 = big.parse_move("b2").unwrap();
        assert_eq!(classic.play(b2), Err(MoveError::OtherBoard));
        assert_eq!(classic, Variant::default().start());
    }

    #[test]
    fn flags_name_what_differs_from_the_defaults() {
        let flags = |v: Variant| v.flags().join(" ");
        assert_eq!(flags(Variant::default()), "");
        assert_eq!(flags(Variant::Ultimate), "--ultimate");
        let odd = Variant::Classic(Rules::new(4, 3, true).unwrap());
        assert_eq!(flags(odd), "--size 4 --k 3 --misere");
    }
}
