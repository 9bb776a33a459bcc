//! Swap openings, the rules tournaments open Gomoku with because the first player wins a free
//! start: the first player places the first stones of both colours, and the other chooses
//! which colour to play.
//!
//! - **swap1**: the first player places three stones (black, white, black); the second takes
//!   black or white, and white moves next.
//! - **swap2**: as swap1, but the second player may instead place two more stones (white,
//!   black) and hand the choice of colour back to the first.
//!
//! The players are two seats, [`Seat::First`] (who places the first stones) and
//! [`Seat::Second`]; before any choice the first seat plays black (X). A choice is the colour
//! the chooser takes, so after it a seat may play the other colour: [`Swap::swapped`].

use std::fmt;

use crate::rules::classic::Mark;

/// The player who opened the game, and the other.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    First,
    Second,
}

impl Seat {
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// The seat that plays `mark` before any swap: the first plays X.
    pub fn of(mark: Mark) -> Seat {
        match mark {
            Mark::X => Seat::First,
            Mark::O => Seat::Second,
        }
    }
}

/// How a game opens: freely (black's first stone, then turns) or by a swap rule.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Opening {
    #[default]
    Free,
    Swap1,
    Swap2,
}

impl Opening {
    /// Every opening, in the order the start screen offers them.
    pub const ALL: [Opening; 3] = [Opening::Free, Opening::Swap1, Opening::Swap2];

    /// Its name on the command line, in records and on the wire: `free`, `swap1`, `swap2`.
    pub fn name(self) -> &'static str {
        match self {
            Opening::Free => "free",
            Opening::Swap1 => "swap1",
            Opening::Swap2 => "swap2",
        }
    }

    /// The opening called `name`.
    pub fn named(name: &str) -> Option<Opening> {
        Opening::ALL.into_iter().find(|o| o.name() == name)
    }
}

impl fmt::Display for Opening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a player asked to choose does: takes black (X), takes white (O), or (the second
/// player under swap2, once) places two more stones and hands the choice back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Choice {
    Black,
    White,
    Two,
}

impl Choice {
    /// As it is typed and written in records: `black`, `white`, `two`.
    pub fn name(self) -> &'static str {
        match self {
            Choice::Black => "black",
            Choice::White => "white",
            Choice::Two => "two",
        }
    }

    /// The choice that `text` names: its name, or `x`/`o` for the colour of those stones.
    pub fn parse(text: &str) -> Option<Choice> {
        match text.trim().to_ascii_lowercase().as_str() {
            "black" | "x" => Some(Choice::Black),
            "white" | "o" => Some(Choice::White),
            "two" | "2" => Some(Choice::Two),
            _ => None,
        }
    }

    /// What the chooser does, for people: `takes black (X)`, `takes white (O)`, `places two
    /// more`.
    pub fn words(self) -> &'static str {
        match self {
            Choice::Black => "takes black (X)",
            Choice::White => "takes white (O)",
            Choice::Two => "places two more",
        }
    }

    /// [`Choice::words`] said of the person playing: `take black (X)`.
    pub fn your_words(self) -> &'static str {
        match self {
            Choice::Black => "take black (X)",
            Choice::White => "take white (O)",
            Choice::Two => "place two more",
        }
    }
}

impl fmt::Display for Choice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Where a game stands in its opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A seat places stones of either colour, in turn order (black, white, black, ...).
    Place,
    /// A seat chooses, among these.
    Choose(&'static [Choice]),
    /// The opening is over (or there was none): each seat plays its colour.
    Play,
}

/// A game's opening rule and the choices made in it so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Swap {
    opening: Opening,
    /// Choices made: 0, 1 or (after `two`) 2.
    made: u8,
    /// The second player chose to place two more.
    two: bool,
    /// The seats play the other colour than they began with: the first plays white.
    swapped: bool,
}

/// Why a choice was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChoiceError {
    /// No choice is to be made now (no swap rule, stones still to place, or made already).
    NotNow,
    /// Not one of the choices offered now (`two` after two were placed, or under swap1).
    NotOffered(Choice),
}

impl fmt::Display for ChoiceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChoiceError::NotNow => f.write_str("there is no colour to choose now"),
            ChoiceError::NotOffered(choice) => write!(f, "'{choice}' is not a choice now"),
        }
    }
}

const COLOURS: &[Choice] = &[Choice::Black, Choice::White];
const COLOURS_OR_TWO: &[Choice] = &[Choice::Black, Choice::White, Choice::Two];

impl Swap {
    /// A game opened by `opening`, no choice made yet.
    pub const fn new(opening: Opening) -> Swap {
        Swap {
            opening,
            made: 0,
            two: false,
            swapped: false,
        }
    }

    pub const fn opening(&self) -> Opening {
        self.opening
    }

    /// Where the opening stands with `stones` on the board.
    pub fn stage(&self, stones: u16) -> Stage {
        match (self.opening, stones, self.made) {
            (Opening::Free, ..) => Stage::Play,
            (_, 0..3, _) => Stage::Place,
            (Opening::Swap1, 3, 0) => Stage::Choose(COLOURS),
            (Opening::Swap2, 3, 0) => Stage::Choose(COLOURS_OR_TWO),
            (Opening::Swap2, 3 | 4, 1) if self.two => Stage::Place,
            (Opening::Swap2, 5, 1) if self.two => Stage::Choose(COLOURS),
            _ => Stage::Play,
        }
    }

    /// The seat that acts with `stones` on the board and `to_move`'s stone next.
    pub fn seat(&self, stones: u16, to_move: Mark) -> Seat {
        match self.stage(stones) {
            Stage::Place if stones < 3 => Seat::First,
            // Under swap2, the two more.
            Stage::Place => Seat::Second,
            Stage::Choose(_) if stones == 3 => Seat::Second,
            // Under swap2, after the two more.
            Stage::Choose(_) => Seat::First,
            Stage::Play => self.seat_of(to_move),
        }
    }

    /// The seat that plays `mark`, after the choices so far.
    pub fn seat_of(&self, mark: Mark) -> Seat {
        let seat = Seat::of(mark);
        if self.swapped { seat.other() } else { seat }
    }

    /// Whether the seats play the other colour than they began with.
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// Makes `choice` with `stones` on the board, for the seat [`Swap::seat`] names; on error
    /// nothing changes.
    pub fn choose(&mut self, stones: u16, choice: Choice) -> Result<(), ChoiceError> {
        let Stage::Choose(offered) = self.stage(stones) else {
            return Err(ChoiceError::NotNow);
        };
        if !offered.contains(&choice) {
            return Err(ChoiceError::NotOffered(choice));
        }
        let chooser = self.seat(stones, Mark::O);
        self.made += 1;
        match choice {
            Choice::Two => self.two = true,
            Choice::Black => self.swapped = chooser == Seat::Second,
            Choice::White => self.swapped = chooser == Seat::First,
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stage and the acting seat at each count of stones, making `choices` in order where
    /// one is asked for.
    fn walk(opening: Opening, choices: &[Choice]) -> Vec<(u16, Stage, Seat)> {
        let mut swap = Swap::new(opening);
        let mut choices = choices.iter();
        let mut seen = Vec::new();
        let mut stones = 0;
        while stones < 7 {
            let to_move = if stones % 2 == 0 { Mark::X } else { Mark::O };
            let stage = swap.stage(stones);
            seen.push((stones, stage, swap.seat(stones, to_move)));
            match stage {
                Stage::Choose(_) => swap.choose(stones, *choices.next().unwrap()).unwrap(),
                _ => stones += 1,
            }
        }
        seen
    }

    fn seats(walked: &[(u16, Stage, Seat)]) -> String {
        walked
            .iter()
            .map(|(_, stage, seat)| {
                let who = if *seat == Seat::First { '1' } else { '2' };
                match stage {
                    Stage::Choose(_) => format!("{who}?"),
                    _ => who.to_string(),
                }
            })
            .collect()
    }

    #[test]
    fn swap1_the_first_places_three_and_the_second_chooses() {
        assert_eq!(seats(&walk(Opening::Swap1, &[Choice::White])), "1112?2121");
        let swapped = walk(Opening::Swap1, &[Choice::Black]);
        assert_eq!(seats(&swapped), "1112?1212");
    }

    #[test]
    fn swap2_the_second_may_place_two_and_hand_the_choice_back() {
        assert_eq!(seats(&walk(Opening::Swap2, &[Choice::White])), "1112?2121");
        assert_eq!(seats(&walk(Opening::Swap2, &[Choice::Black])), "1112?1212");
        let two_then_black = walk(Opening::Swap2, &[Choice::Two, Choice::Black]);
        assert_eq!(seats(&two_then_black), "1112?221?21");
        let two_then_white = walk(Opening::Swap2, &[Choice::Two, Choice::White]);
        assert_eq!(seats(&two_then_white), "1112?221?12");
    }

    #[test]
    fn a_free_opening_asks_nothing() {
        assert_eq!(seats(&walk(Opening::Free, &[])), "1212121");
        assert_eq!(
            Swap::new(Opening::Free).choose(3, Choice::Black),
            Err(ChoiceError::NotNow)
        );
    }

    #[test]
    fn a_choice_is_refused_before_its_time_and_two_only_once() {
        let mut swap = Swap::new(Opening::Swap2);
        assert_eq!(swap.choose(2, Choice::White), Err(ChoiceError::NotNow));
        swap.choose(3, Choice::Two).unwrap();
        assert_eq!(swap.choose(4, Choice::White), Err(ChoiceError::NotNow));
        assert_eq!(
            swap.choose(5, Choice::Two),
            Err(ChoiceError::NotOffered(Choice::Two))
        );
        let mut one = Swap::new(Opening::Swap1);
        assert_eq!(
            one.choose(3, Choice::Two),
            Err(ChoiceError::NotOffered(Choice::Two))
        );
        assert_eq!(one, Swap::new(Opening::Swap1));
    }

    #[test]
    fn names_read_back() {
        for opening in Opening::ALL {
            assert_eq!(Opening::named(opening.name()), Some(opening));
        }
        for choice in COLOURS_OR_TWO {
            assert_eq!(Choice::parse(choice.name()), Some(*choice));
        }
        assert_eq!(Choice::parse(" X "), Some(Choice::Black));
        assert_eq!(Choice::parse("h8"), None);
    }
}
