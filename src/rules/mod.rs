//! What every rule set is, whatever its board: a position that says whose turn it is, which
//! moves are legal, plays one, and says how the game stands. Classic m,n,k boards
//! ([`crate::rules::classic`]), Ultimate ([`crate::rules::ultimate`]) and Gomoku ([`crate::rules::gomoku`])
//! implement [`RuleSet`]; naming and parsing moves is [`Notation`] (how moves are typed on the
//! keypad and where they lie on the screen is the front ends' business, in `ui::keypad`). The
//! rules know nothing of I/O, of the AI or of the front ends.
//!
//! [`crate::rules::position::Position`] is the one enum over the rule sets that the game, the
//! records and the network pass around; it only forwards to these traits.

pub mod catalogue;
pub mod classic;
pub mod connect_four;
pub mod gomoku;
pub mod position;
pub mod ultimate;

use std::fmt;
use std::hash::Hash;

use serde::Serialize;

use classic::Mark;

/// How a game stands, the same for every rule set (each says more: the line won).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    InProgress,
    Draw,
    Won(Mark),
}

/// How a game stands in one rule set's own terms, the same shape for every rule set: with the
/// line that won it, of the rule set's own kind ([`classic::Outcome`], [`ultimate::Outcome`]).
/// [`Outcome`] is what every rule set says of it alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameOutcome<Line> {
    InProgress,
    Draw,
    Won { winner: Mark, line: Line },
}

impl<Line> From<GameOutcome<Line>> for Outcome {
    fn from(ended: GameOutcome<Line>) -> Outcome {
        match ended {
            GameOutcome::InProgress => Outcome::InProgress,
            GameOutcome::Draw => Outcome::Draw,
            GameOutcome::Won { winner, .. } => Outcome::Won(winner),
        }
    }
}

/// Why a move was refused, the same shape for every rule set; the position is unchanged. `M`
/// is the rule set's move ([`classic::MoveError`], [`ultimate::MoveError`]), or the move of
/// any rule set ([`position::MoveError`]), which may also be of the wrong game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveError<M> {
    GameOver,
    Occupied(M),
    /// The player was sent to small board `forced` and played elsewhere (Ultimate).
    WrongBoard {
        forced: u8,
        played: M,
    },
    /// The player could choose, but chose a closed small board (Ultimate).
    ClosedBoard(M),
    /// A move of another rule set.
    OtherVariant,
    /// A cell of a board of another size.
    OtherBoard,
    /// A point black may not play under renju, and why.
    Forbidden(M, gomoku::renju::Foul),
    /// A stone while the opening asks for a colour to be chosen (Gomoku's swap openings).
    Choosing,
    /// An opening's choice refused.
    Choice(gomoku::opening::ChoiceError),
}

impl<M> MoveError<M> {
    /// The same refusal of the same move, as another type names it.
    pub fn map<N>(self, f: impl Fn(M) -> N) -> MoveError<N> {
        match self {
            MoveError::GameOver => MoveError::GameOver,
            MoveError::Occupied(m) => MoveError::Occupied(f(m)),
            MoveError::WrongBoard { forced, played } => MoveError::WrongBoard {
                forced,
                played: f(played),
            },
            MoveError::ClosedBoard(m) => MoveError::ClosedBoard(f(m)),
            MoveError::OtherVariant => MoveError::OtherVariant,
            MoveError::OtherBoard => MoveError::OtherBoard,
            MoveError::Forbidden(m, foul) => MoveError::Forbidden(f(m), foul),
            MoveError::Choosing => MoveError::Choosing,
            MoveError::Choice(e) => MoveError::Choice(e),
        }
    }

    /// Whether the game was already over.
    pub fn is_game_over(&self) -> bool {
        matches!(self, MoveError::GameOver)
    }
}

impl<M: Located> MoveError<M> {
    /// Whether a cell of a single board was taken: any empty cell will do instead (in
    /// Ultimate the cell's board matters too, and its message says so).
    pub fn is_taken(&self) -> bool {
        matches!(self, MoveError::Occupied(m) if m.small_board().is_none())
    }
}

/// A move as a refusal names it.
pub trait Located {
    /// `cell b2`, or `cell 3 of board 5`.
    fn cell_words(&self) -> String;
    /// The small board the move is on, where moves have one (Ultimate).
    fn small_board(&self) -> Option<u8> {
        None
    }
}

impl<M: Located> fmt::Display for MoveError<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = |m: &M| m.small_board().unwrap_or_default();
        match self {
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::Occupied(m) => write!(f, "{} is taken", m.cell_words()),
            MoveError::WrongBoard { forced, played } => write!(
                f,
                "you were sent to board {forced}, not board {}",
                board(played)
            ),
            MoveError::ClosedBoard(m) => {
                write!(f, "board {} is closed: play in an open board", board(m))
            }
            MoveError::OtherVariant => write!(f, "the move is from another game"),
            MoveError::OtherBoard => write!(f, "the cell is from a board of another size"),
            MoveError::Forbidden(m, foul) => write!(
                f,
                "{} is forbidden to X (black) in renju: it makes {}",
                m.cell_words(),
                foul.words()
            ),
            MoveError::Choosing => f.write_str(
                "a colour is to be chosen first: black or white (or two, where it is offered)",
            ),
            MoveError::Choice(e) => write!(f, "{e}"),
        }
    }
}

impl<M: Located + fmt::Debug> std::error::Error for MoveError<M> {}

/// The line that won a game: cells of a classic board, or the boards of Ultimate. In JSON a
/// list of cell names or of board digits.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum WonLine {
    Cells(Vec<String>),
    Boards(Vec<u8>),
}

impl fmt::Display for WonLine {
    /// `a1 b2 c3`, or `boards 1 5 9`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words = |items: Vec<String>| items.join(" ");
        match self {
            WonLine::Cells(cells) => f.write_str(&words(cells.clone())),
            WonLine::Boards(boards) => {
                let digits = boards.iter().map(ToString::to_string).collect();
                write!(f, "boards {}", words(digits))
            }
        }
    }
}

/// A position of one rule set: a small value that derives whose turn it is from its marks,
/// plays legal moves and refuses others, leaving itself unchanged.
///
/// Invariants: `legal_moves` is empty exactly when `outcome` is not
/// [`Outcome::InProgress`]; `play` succeeds for every legal move and for no other.
pub trait RuleSet: Copy + Eq + Hash + fmt::Debug + fmt::Display {
    /// A move of this rule set.
    type Move: Copy + Eq + Hash + fmt::Debug + fmt::Display + Located;

    /// Whose turn it is (once the game is over: who would move next).
    fn to_move(&self) -> Mark;
    /// The moves the side to move may make, in the rule set's order; none once it is over.
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// Plays `mv` for the side to move; on error nothing changes.
    fn play(&mut self, mv: Self::Move) -> Result<(), MoveError<Self::Move>>;
    /// How the game stands.
    fn outcome(&self) -> Outcome;
    /// The line that won the game, if it is won.
    fn won_line(&self) -> Option<WonLine>;

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.outcome() != Outcome::InProgress
    }

    /// The position after `mv`, this one unchanged.
    fn after(&self, mv: Self::Move) -> Result<Self, MoveError<Self::Move>> {
        let mut next = *self;
        next.play(mv)?;
        Ok(next)
    }
}

/// Moves, and the game itself, named as people type and read them.
pub trait Notation: RuleSet {
    /// Why a text names no move.
    type ParseMoveError: Clone + Eq + fmt::Debug + fmt::Display;

    /// Names a move as a player types it (`5`, `b2`; `53`, `e5`, or `3` when sent to a
    /// board). Whether it is legal is for [`RuleSet::play`] to say.
    fn parse_move(&self, text: &str) -> Result<Self::Move, Self::ParseMoveError>;
    /// What a move looks like, for prompts and messages: `1-9`, `a1-e5`, `board then cell`.
    fn move_forms(&self) -> String;
    /// Where the side to move may play, for messages (`on board 3`, `anywhere`); `None`
    /// where the question does not arise.
    fn whereabouts(&self) -> Option<String> {
        None
    }

    /// The game's name, on the wire and as its command-line flag: `classic`, `ultimate`,
    /// `gomoku`.
    fn name(&self) -> &'static str;
    /// The game for people: `3×3`, `5×5, four in a row, misère`, `Ultimate`, `Gomoku`.
    fn title(&self) -> String;
    /// The command-line flags that select this game and differ from the defaults: none for
    /// classic 3×3, `--size 4 --k 3 --misere`, `--ultimate`, `--size 9`.
    fn flags(&self) -> Vec<String>;
    /// How moves are typed, for a player who asks; `forms` is [`Notation::move_forms`].
    fn typing_help(&self, forms: &str) -> String;
    /// What one position is called in reports: `board`, or `position` where the notation
    /// says more than the marks.
    fn noun(&self) -> &'static str {
        "board"
    }
    /// What one move is called in reports: `cell`, `point` on Gomoku's boards, or `move`
    /// where a move is more than one.
    fn move_noun(&self) -> &'static str {
        "cell"
    }
    /// Whether a move is a cell of a board chosen first (Ultimate's small boards).
    fn has_boards(&self) -> bool {
        false
    }
    /// What the sides put on the board are called: `marks`, or `stones` on Gomoku's boards.
    fn pieces(&self) -> &'static str {
        "marks"
    }
    /// How its board is laid out, which is all the front ends go by.
    fn shape(&self) -> catalogue::Shape;
    /// The game's rules for people, a line each of at most 60 characters (an empty line
    /// between paragraphs), as its rules page and the plain front end's `?` show them.
    fn rules_text(&self) -> Vec<String>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::{Board, Rules};
    use crate::rules::connect_four::ConnectFour;
    use crate::rules::gomoku::Gomoku;
    use crate::rules::ultimate::UltimateBoard;

    /// Plays random games to the end through the trait alone, checking its invariants.
    fn invariants_hold<R: RuleSet>(start: R, cells: bool, rng: &mut fastrand::Rng) {
        let mut position = start;
        let mut plies = 0;
        loop {
            let moves = position.legal_moves();
            assert_eq!(moves.is_empty(), position.is_over(), "{position}");
            if moves.is_empty() {
                break;
            }
            let side = position.to_move();
            let mv = moves[rng.usize(..moves.len())];
            let before = position;
            assert!(position.play(mv).is_ok());
            assert_eq!(before.after(mv), Ok(position));
            assert_ne!(position.to_move(), side, "the turn passes");
            // A cell played is not legal again; a column is, until it is full.
            assert_eq!(
                position.after(mv).is_ok(),
                position.legal_moves().contains(&mv),
                "a move is legal exactly when listed"
            );
            if cells {
                assert!(
                    position.play(mv).is_err(),
                    "a move played is not legal again"
                );
            }
            plies += 1;
        }
        assert!(plies > 0);
        assert_eq!(
            position.won_line().is_some(),
            matches!(position.outcome(), Outcome::Won(_))
        );
    }

    #[test]
    fn every_rule_set_keeps_the_interfaces_invariants_through_random_games() {
        let mut rng = fastrand::Rng::with_seed(7);
        for _ in 0..50 {
            for (size, k, misere) in [(3, 3, false), (5, 4, true), (7, 5, false)] {
                invariants_hold(
                    Board::new(Rules::new(size, k, misere).unwrap()),
                    true,
                    &mut rng,
                );
            }
            invariants_hold(UltimateBoard::new(), true, &mut rng);
            invariants_hold(Gomoku::new(), true, &mut rng);
            invariants_hold(ConnectFour::default(), false, &mut rng);
            invariants_hold(ConnectFour::new(4, 9).unwrap(), false, &mut rng);
        }
    }
}
