//! Every game this program plays, one line each ([`CATALOGUE`]), and the shapes their boards
//! take ([`Shape`]). The command line, the start screen, the network, the history, game files,
//! help and the engine protocols find a game here by its name, its flags or its Gomocup rule;
//! the front ends draw a board, take a move and say where it lies by its [`Shape`] alone
//! ([`Shaped`]), never by the game: renju, caro and exactly five are Gomoku's points and need
//! nothing of them.
//!
//! A game's names, flags, title and rules text are its rule set's own ([`Notation`]); its
//! line here adds what no position says: where the start screen lists it, what the start
//! screen says of its fixed rows, and its Gomocup rule.

use crate::rules::Notation;
use crate::rules::classic::{Board, Rules, RulesError};
use crate::rules::connect_four::{self, ConnectFour};
use crate::rules::gomoku::opening::Opening;
use crate::rules::gomoku::{self, Gomoku, ParseGomokuError};
use crate::rules::position::{Position, Variant, each};
use crate::rules::ultimate::UltimateBoard;

/// How a game's board is laid out: all a front end needs to know to draw it, to take a move
/// on it and to say where a move lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A square grid of cells, a mark in each (3×3 to 7×7): a cell is a keypad digit or a
    /// letter and a number.
    Cells,
    /// A square grid of points where lines cross, a stone on each (8×8 to 20×20): a letter
    /// and a number.
    Points,
    /// Nine small boards in a big one: a board's digit, then a cell's.
    Boards,
    /// Columns that fill from the bottom: a column's digit.
    Columns,
}

impl Shape {
    /// The boards of this shape, for people: `Gomoku's points, 8×8 to 20×20`.
    pub fn words(self) -> &'static str {
        match self {
            Shape::Cells => "a board of cells, 3×3 to 7×7",
            Shape::Points => "Gomoku's points, 8×8 to 20×20",
            Shape::Boards => "nine boards",
            Shape::Columns => "columns that fill from the bottom",
        }
    }
}

/// A position seen by its board's shape, for the front ends: the board of each shape, with
/// whatever rule it is played by.
#[derive(Clone, Copy, Debug)]
pub enum Shaped<'a> {
    Cells(&'a Board),
    Points(&'a Gomoku),
    Boards(&'a UltimateBoard),
    Columns(&'a ConnectFour),
}

/// One game of the catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The game on its standard board; its names, flags and rules are its rule set's.
    pub variant: Variant,
    /// The start screen's Game row, which lists each label once (`Gomoku` is both freestyle
    /// and exactly five: its Exactly 5 row chooses).
    pub label: &'static str,
    /// What the start screen says where a row cannot change for this game; empty where every
    /// row can.
    pub fixed: &'static str,
    /// The start screen's value of the rule row where the rule is the game's own (renju's,
    /// caro's), not a choice.
    pub rule: Option<&'static str>,
    /// The bits of the Gomocup protocol's `INFO rule` that ask for this game (on any side of
    /// Gomoku's boards), where it has some.
    pub gomocup: Option<u8>,
}

/// The games, in the start screen's order.
pub const CATALOGUE: [Entry; 7] = [
    Entry {
        variant: Variant::Classic(Rules::CLASSIC),
        label: "classic",
        fixed: "",
        rule: None,
        gomocup: None,
    },
    Entry {
        variant: Variant::Ultimate,
        label: "Ultimate",
        fixed: "Ultimate is on: the board is 3×3 boards",
        rule: None,
        gomocup: None,
    },
    Entry {
        variant: Variant::GOMOKU,
        label: "Gomoku",
        fixed: "Gomoku is five in a row (Exactly 5: a longer line wins nothing)",
        rule: None,
        gomocup: Some(0),
    },
    Entry {
        variant: Variant::GOMOKU_EXACT,
        label: "Gomoku",
        fixed: "Gomoku is five in a row (Exactly 5: a longer line wins nothing)",
        rule: None,
        gomocup: Some(1),
    },
    Entry {
        variant: Variant::RENJU,
        label: "Renju",
        fixed: "Renju is five in a row; X may not make an overline, a double four or a double three",
        rule: Some("X: no overline"),
        gomocup: Some(4),
    },
    Entry {
        variant: Variant::CARO,
        label: "Caro",
        fixed: "Caro is five in a row; five blocked at both ends wins nothing",
        rule: Some("an open end needed"),
        gomocup: Some(8),
    },
    Entry {
        variant: Variant::CONNECT_FOUR,
        label: "Connect Four",
        fixed: "Connect Four is 7 columns of 6 rows and four in a row (or --columns, --rows)",
        rule: None,
        gomocup: None,
    },
];

impl Entry {
    /// The game's name on the wire, in the history and in game files: `classic`, `renju`.
    pub fn name(&self) -> &'static str {
        self.variant.name()
    }

    /// The command-line flags that choose it: none for classic 3×3, `--renju`.
    pub fn flags(&self) -> String {
        self.variant.flags().join(" ")
    }

    /// Its board's shape.
    pub fn shape(&self) -> Shape {
        self.variant.shape()
    }

    /// Its rules for people, a line each.
    pub fn rules_text(&self) -> Vec<String> {
        self.variant.rules_text()
    }

    /// How it starts.
    pub fn start(&self) -> Position {
        self.variant.start()
    }

    /// The entry called `name`.
    pub fn named(name: &str) -> Option<&'static Entry> {
        CATALOGUE.iter().find(|entry| entry.name() == name)
    }

    /// The entry of `variant`'s game on whatever board: by its name, or by its rule on
    /// Gomoku's other sides and lines (`in-a-row` is Gomoku's, `in-a-row-exact` exactly
    /// five's).
    pub fn of(variant: Variant) -> &'static Entry {
        let name = match variant.name() {
            "in-a-row" => Variant::GOMOKU.name(),
            "in-a-row-exact" => Variant::GOMOKU_EXACT.name(),
            name => name,
        };
        Entry::named(name).unwrap_or(&CATALOGUE[0])
    }

    /// The entry the Gomocup protocol's `INFO rule` bits ask for: renju's bit first, then
    /// caro's, then exactly five's, freestyle otherwise (other bits say nothing of the game).
    pub fn of_gomocup_rule(bits: u8) -> &'static Entry {
        let asked = [4, 8, 1]
            .into_iter()
            .find(|&bit| bits & bit == bit)
            .unwrap_or(0);
        CATALOGUE
            .iter()
            .find(|entry| entry.gomocup == Some(asked))
            .unwrap_or(&CATALOGUE[0])
    }

    /// `variant`'s board played by this game's rule of Gomoku's boards (exactly the line,
    /// renju's, caro's); refused where that board takes no such rule. A game without such a
    /// rule leaves `variant` as it is.
    pub fn rule_on(&self, variant: Variant) -> Result<Variant, RulesError> {
        match self.variant {
            Variant::Gomoku { rule, .. } => match rule {
                gomoku::Rule::Freestyle => Ok(variant),
                gomoku::Rule::Exact => variant.exactly(true),
                gomoku::Rule::Renju => variant.by_renju(true),
                gomoku::Rule::Caro => variant.by_caro(true),
            },
            _ => Ok(variant),
        }
    }

    /// Whether it has rules of its own, not the classic rows' size, line and misère.
    pub fn fixed_rules(&self) -> bool {
        !self.fixed.is_empty()
    }
}

/// A game as the command line's flags ask for it: the shape a flag of its own names
/// (`--ultimate` nine boards, `--gomoku` points, `--connect-four` columns), or the board
/// `size` gives, with the rules asked on top.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Asked {
    /// The game named by its catalogue name (`--rules renju`), which stands for its shape and
    /// its rule.
    pub named: Option<&'static Entry>,
    pub game: Option<Shape>,
    pub size: Option<u8>,
    pub k: Option<u8>,
    pub misere: bool,
    /// Exactly five's, renju's or caro's rule (freestyle is no rule asked).
    pub rule: Option<gomoku::Rule>,
    pub opening: Option<Opening>,
    pub columns: Option<u8>,
    pub rows: Option<u8>,
}

impl Asked {
    /// The game asked for: Ultimate for nine boards, Gomoku's five for points (or renju,
    /// caro or a swap opening), Connect Four for columns, otherwise the board `size` gives (3
    /// by default): classic up to 7×7 with `k` and `misere`, Gomoku's rules from 8×8 up (five
    /// in a row unless `k` says otherwise).
    pub fn variant(&self) -> Result<Variant, RulesError> {
        use gomoku::Rule;
        let asked = self.resolved()?;
        if let Some(game) = asked.columns_game() {
            return Ok(game);
        }
        let own_rule = matches!(asked.rule, Some(Rule::Renju | Rule::Caro));
        let variant = if asked.game == Some(Shape::Boards) {
            Ok(Variant::Ultimate)
        } else if asked.game == Some(Shape::Points) || own_rule || asked.swaps() {
            match asked.size {
                Some(n) if n < gomoku::MIN_SIZE => Err(RulesError::GomokuSize(n)),
                Some(n) => Variant::of_size(n, Some(gomoku::FIVE), false),
                None => Ok(Variant::GOMOKU),
            }
        } else {
            Variant::of_size(
                asked.size.unwrap_or(Rules::CLASSIC.size()),
                asked.k,
                asked.misere,
            )
        };
        variant?
            .exactly(asked.rule == Some(Rule::Exact))?
            .by_renju(asked.rule == Some(Rule::Renju))?
            .by_caro(asked.rule == Some(Rule::Caro))?
            .opened(asked.opening.unwrap_or_default())
    }

    /// The game asked for whose board is its own, where one is (Connect Four, with
    /// `columns` and `rows`).
    pub fn board_game(&self) -> Option<Variant> {
        self.resolved().ok()?.columns_game()
    }

    /// [`Asked::board_game`] of flags resolved already.
    fn columns_game(&self) -> Option<Variant> {
        (self.game == Some(Shape::Columns)).then(|| Variant::ConnectFour {
            columns: self.columns.unwrap_or(connect_four::COLUMNS),
            rows: self.rows.unwrap_or(connect_four::ROWS),
        })
    }

    /// These flags with the game named by its name put as its own flags would ask for it:
    /// its shape and its rule (the name kept, for the boards given as text to be checked
    /// against); refused where a flag given is no rule of that game.
    pub fn resolved(&self) -> Result<Asked, RulesError> {
        let asked = self.named_resolved()?;
        let board = [("--columns", asked.columns), ("--rows", asked.rows)];
        match board.into_iter().find(|(_, n)| n.is_some()) {
            Some((flag, _)) if asked.game != Some(Shape::Columns) => Err(RulesError::Columns(flag)),
            _ => Ok(asked),
        }
    }

    /// [`Asked::resolved`], `--columns` and `--rows` aside.
    fn named_resolved(&self) -> Result<Asked, RulesError> {
        let Some(entry) = self.named else {
            return Ok(*self);
        };
        let rules: &[&str] = match entry.shape() {
            Shape::Cells => &["--size", "--k", "--misere"],
            Shape::Points => &["--size", "--opening"],
            Shape::Boards => &[],
            Shape::Columns => &["--columns", "--rows"],
        };
        let given = [
            ("--size", self.size.is_some()),
            ("--k", self.k.is_some()),
            ("--misere", self.misere),
            ("--opening", self.opening.is_some()),
            ("--columns", self.columns.is_some()),
            ("--rows", self.rows.is_some()),
        ];
        let apart = given.iter().find(|(flag, on)| *on && !rules.contains(flag));
        if let Some(&(flag, _)) = apart {
            return Err(RulesError::Apart {
                flag,
                game: entry.label,
            });
        }
        let rule = match entry.variant {
            Variant::Gomoku { rule, .. } => Some(rule).filter(|&r| r != gomoku::Rule::Freestyle),
            _ => None,
        };
        if let (Shape::Cells, Some(n)) = (entry.shape(), self.size)
            && n > crate::rules::classic::MAX_SIZE
        {
            return Err(RulesError::NotClassic(n));
        }
        Ok(Asked {
            named: self.named,
            game: Some(entry.shape()).filter(|&shape| shape != Shape::Cells),
            rule,
            ..*self
        })
    }

    /// Whether a swap opening is asked for a game that may be Gomoku's: no board or one
    /// from 8×8 up (on a smaller one the opening is refused).
    fn swaps(&self) -> bool {
        let swap = self.opening.is_some_and(|o| o != Opening::Free);
        swap && self.size.is_none_or(|n| n >= gomoku::MIN_SIZE)
    }
}

impl Position {
    /// This position seen by its board's shape.
    pub fn shaped(&self) -> Shaped<'_> {
        match self {
            Position::Classic(board) => Shaped::Cells(board),
            Position::Gomoku(board) => Shaped::Points(board),
            Position::Ultimate(board) => Shaped::Boards(board),
            Position::ConnectFour(board) => Shaped::Columns(board),
        }
    }

    /// Its board's shape.
    pub fn shape(&self) -> Shape {
        each!(self, p => p.shape())
    }

    /// This position of Gomoku's points played by `rule` instead (renju's or caro's, say),
    /// refused if no game by that rule reaches it; `None` where its board is not points.
    pub fn played_by(self, rule: gomoku::Rule) -> Option<Result<Position, ParseGomokuError>> {
        let board = *self.gomoku()?;
        Some(board.played_by(rule).map(Position::from))
    }
}

/// Games found by their names and flags, as the history, game files, the network and the
/// start screen give them.
impl Variant {
    /// The variant besides classic play that is called `name`.
    pub fn named(name: &str) -> Option<Variant> {
        Entry::named(name)
            .filter(|entry| entry.fixed_rules())
            .map(|entry| entry.variant)
    }

    /// The variant called `name` on a board of side `side` with `k` in a row, where the
    /// variant's boards have several sides (Gomoku's, 8 to 20) and several lines (those not
    /// named after five in a row, [`Variant::name`]); side and line are ignored where they do
    /// not apply.
    pub fn named_on(name: &str, side: u8, k: u8) -> Option<Variant> {
        let (in_a_row, exact) = match name {
            "in-a-row" => (true, false),
            "in-a-row-exact" => (true, true),
            _ => (false, false),
        };
        let (k, exact) = match Variant::named(name) {
            _ if in_a_row => (k, exact),
            Some(Variant::Gomoku {
                rule: rule @ (gomoku::Rule::Renju | gomoku::Rule::Caro),
                ..
            }) => {
                return Gomoku::with_rule(side, gomoku::FIVE, rule)
                    .map(|b| Position::from(b).variant());
            }
            Some(Variant::Gomoku { k, rule, .. }) => (k, rule == gomoku::Rule::Exact),
            other => return other,
        };
        Gomoku::with_rules(side, k, exact).map(|b| Position::from(b).variant())
    }

    /// The variant that [`Variant::flags`] names, read back from its words (`--size 4 --k 3
    /// --misere`, `--ultimate`, or nothing for classic 3×3); `None` for anything else.
    pub fn from_flags(text: &str) -> Option<Variant> {
        if let Some(rest) = text.trim().strip_prefix("--connect-four") {
            return Variant::connect_four_from_flags(rest);
        }
        if let Some(named) = text.trim().strip_prefix("--").and_then(Variant::named) {
            return Some(named);
        }
        let mut words = text.split_whitespace();
        let (mut size, mut k, mut misere, mut exact, mut gomoku) =
            (None, None, false, false, false);
        let (mut renju, mut caro, mut opening) = (false, false, None);
        while let Some(word) = words.next() {
            match word {
                "--opening" if opening.is_none() => {
                    opening = Some(Opening::named(words.next()?)?);
                }
                "--size" if size.is_none() && !gomoku => {
                    size = Some(words.next()?.parse::<u8>().ok()?);
                }
                "--k" if k.is_none() => k = Some(words.next()?.parse::<u8>().ok()?),
                "--misere" if !misere => misere = true,
                "--exact" if !exact => exact = true,
                "--renju" if !renju => renju = true,
                "--caro" if !caro => caro = true,
                "--gomoku" if !gomoku && size.is_none() => gomoku = true,
                _ => return None,
            }
        }
        let named_five = renju || caro || opening.is_some_and(|o| o != Opening::Free);
        let size = if gomoku || (named_five && size.is_none()) {
            Some(gomoku::SIZE)
        } else {
            size
        };
        let variant = Variant::of_size(size.unwrap_or(Rules::CLASSIC.size()), k, misere).ok()?;
        variant
            .exactly(exact)
            .ok()?
            .by_renju(renju)
            .ok()?
            .by_caro(caro)
            .ok()?
            .opened(opening.unwrap_or_default())
            .ok()
    }

    /// Connect Four's board from the flags after `--connect-four`: `--columns N`, `--rows M`.
    fn connect_four_from_flags(text: &str) -> Option<Variant> {
        let (mut columns, mut rows) = (None, None);
        let mut words = text.split_whitespace();
        while let Some(word) = words.next() {
            let slot = match word {
                "--columns" if columns.is_none() => &mut columns,
                "--rows" if rows.is_none() => &mut rows,
                _ => return None,
            };
            *slot = Some(words.next()?.parse::<u8>().ok()?);
        }
        let board = ConnectFour::new(
            columns.unwrap_or(connect_four::COLUMNS),
            rows.unwrap_or(connect_four::ROWS),
        )?;
        Some(Position::from(board).variant())
    }
}

impl Variant {
    /// Its board's shape.
    pub fn shape(self) -> Shape {
        self.start().shape()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_has_a_name_of_its_own_that_finds_it_again() {
        for (i, entry) in CATALOGUE.iter().enumerate() {
            assert_eq!(Entry::named(entry.name()), Some(entry));
            let others = CATALOGUE.iter().skip(i + 1);
            assert!(others.clone().all(|o| o.name() != entry.name()));
            assert!(others.clone().all(|o| o.flags() != entry.flags()));
        }
    }

    #[test]
    fn every_entrys_flags_choose_its_game_again() {
        for entry in &CATALOGUE {
            assert_eq!(
                Variant::from_flags(&entry.flags()),
                Some(entry.variant),
                "{}",
                entry.name()
            );
        }
    }

    #[test]
    fn every_entrys_rules_text_is_lines_of_sixty_characters_at_most() {
        for entry in &CATALOGUE {
            let text = entry.rules_text();
            assert!(text.len() > 2, "{}", entry.name());
            assert!(text.iter().all(|line| line.chars().count() <= 60));
        }
    }

    #[test]
    fn gomocup_rule_bits_name_the_games_of_gomokus_boards() {
        let of = |bits| Entry::of_gomocup_rule(bits).variant;
        assert_eq!(of(0), Variant::GOMOKU);
        assert_eq!(of(1), Variant::GOMOKU_EXACT);
        assert_eq!(of(4), Variant::RENJU);
        assert_eq!(of(5), Variant::RENJU, "renju's own line is exact already");
        assert_eq!(of(8), Variant::CARO);
        assert_eq!(of(2), Variant::GOMOKU, "the continuous bit names no game");
        assert!(
            CATALOGUE
                .iter()
                .filter(|e| e.gomocup.is_some())
                .all(|e| e.shape() == Shape::Points)
        );
    }

    #[test]
    fn shapes_are_the_boards_layouts_whatever_the_rule() {
        use Shape::{Boards, Cells, Columns, Points};
        let shape = |entry: &Entry| entry.shape();
        let shapes: Vec<Shape> = CATALOGUE.iter().map(shape).collect();
        assert_eq!(
            shapes,
            [Cells, Boards, Points, Points, Points, Points, Columns]
        );
        for entry in &CATALOGUE {
            let start = entry.start();
            let seen = match start.shaped() {
                Shaped::Cells(_) => Cells,
                Shaped::Points(_) => Points,
                Shaped::Boards(_) => Boards,
                Shaped::Columns(_) => Columns,
            };
            assert_eq!(seen, start.shape());
        }
    }

    #[test]
    fn a_game_on_another_board_is_its_standard_boards_entry() {
        let nine = Variant::named_on("gomoku-exact", 9, 5).unwrap();
        assert_eq!(Entry::of(nine).variant, Variant::GOMOKU_EXACT);
        let renju = Variant::named_on("renju", 13, 5).unwrap();
        assert_eq!(Entry::of(renju).label, "Renju");
        let four = Variant::named_on("in-a-row", 9, 4).unwrap();
        assert_eq!(Entry::of(four).variant, Variant::GOMOKU);
        assert_eq!(
            Entry::of(Variant::of_size(5, None, true).unwrap()).label,
            "classic"
        );
    }
}
