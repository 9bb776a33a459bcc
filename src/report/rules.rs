//! The rules of each game in a few lines, as the program teaches them: the terminal game's
//! rules page, the start screen's, and the plain front end's `?` print the same text.

use crate::rules::position::Variant;

/// The rules of `variant`, one line each, at most [`WIDTH`] characters a line (blank lines
/// separate paragraphs): each rule set's own text, kept with its rules.
pub fn rules(variant: Variant) -> Vec<String> {
    variant.rules_text()
}

/// The first Ultimate game's lesson: three short pages, each a title and its lines (at most
/// [`WIDTH`] characters).
pub const ULTIMATE_LESSON: [(&str, [&str; 6]); 3] = [
    (
        "Lesson 1 of 3: where you are sent",
        [
            "Nine small boards make the big one. A move is a board and",
            "a cell: 53 is cell 3 of board 5, both numbered like the",
            "keypad. The cell you pick sends the other side to the",
            "board in the same place: play cell 3 of any board, and",
            "they must play on board 3. The boards open to the side",
            "to move have their corners marked.",
        ],
    ),
    (
        "Lesson 2 of 3: a closed board",
        [
            "Three in a row on a small board wins it for good, and",
            "the board closes: no more moves there. A full board",
            "closes too. Win three boards in a row on the big board",
            "to win the game.",
            "",
            "",
        ],
    ),
    (
        "Lesson 3 of 3: a free move",
        [
            "Sent to a closed board, you have a free move: play on",
            "any open board. Your first move of the game is free too.",
            "Where you play still sends the other side, so choose",
            "the cell as well as the board.",
            "",
            "",
        ],
    ),
];

/// The widest line [`rules`] writes.
pub const WIDTH: usize = 60;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::classic::Rules;

    fn every_variant() -> Vec<Variant> {
        let mut variants = vec![Variant::Ultimate];
        for n in 3..=7 {
            for k in 3..=n {
                for misere in [false, true] {
                    variants.push(Rules::new(n, k, misere).unwrap().into());
                }
            }
        }
        variants
    }

    #[test]
    fn every_line_of_every_game_fits_the_width() {
        for variant in every_variant() {
            for line in rules(variant) {
                assert!(line.chars().count() <= WIDTH, "{variant}: {line}");
            }
        }
    }

    #[test]
    fn the_lesson_fits_the_width() {
        for (title, lines) in ULTIMATE_LESSON {
            assert!(title.chars().count() <= WIDTH);
            for line in lines {
                assert!(line.chars().count() <= WIDTH, "{line}");
            }
        }
    }

    #[test]
    fn each_game_names_its_line_its_winner_and_its_cells() {
        let classic = rules(Rules::CLASSIC.into()).join("\n");
        assert!(classic.contains("3 in a row") && classic.contains("wins"));
        assert!(classic.contains("keypad"));
        let misere = rules(Rules::new(5, 4, true).unwrap().into()).join("\n");
        assert!(
            misere.contains("LOSES") && misere.contains("a-e"),
            "{misere}"
        );
        let ultimate = rules(Variant::Ultimate).join("\n");
        assert!(ultimate.contains("sends them") && ultimate.contains("free move"));
    }
}
