//! The rules of each game in a few lines, as the program teaches them: the terminal game's
//! rules page, the start screen's, and the plain front end's `?` print the same text.

use crate::rules::gomoku::Rule;
use crate::rules::gomoku::opening::Opening;
use crate::rules::position::Variant;

/// The rules of `variant`, one line each, at most [`WIDTH`] characters a line (blank lines
/// separate paragraphs).
pub fn rules(variant: Variant) -> Vec<String> {
    let mut lines = Vec::new();
    match variant {
        Variant::Classic(rules) => {
            let (n, k) = (rules.size(), rules.k());
            lines.push(format!(
                "{n}×{n}, {k} in a row{}",
                misere_title(rules.misere())
            ));
            lines.push(String::new());
            lines.push("X and O take turns to put their mark on an empty cell; X".into());
            lines.push("moves first.".into());
            if rules.misere() {
                lines.push(format!(
                    "Misère: whoever completes a line of {k} of their own marks"
                ));
                lines.push("(across, down or diagonal) LOSES. Fill the board without".into());
                lines.push("doing so, and make the other side do it first.".into());
                lines.push("A full board with no line is a draw.".into());
            } else {
                lines.push(format!(
                    "The first to complete a line of {k} of their own marks"
                ));
                // A longer line needs a board wider than the line.
                lines.push(if n > k {
                    "(across, down or diagonal) wins; longer lines count too.".into()
                } else {
                    "(across, down or diagonal) wins.".into()
                });
                lines.push("A full board with no line is a draw.".into());
            }
            lines.push(String::new());
            if n == 3 {
                lines.push("Cells are the numeric keypad: 7 8 9 is the top row, 1 2 3".into());
                lines.push("the bottom; b2 names the centre too.".into());
            } else {
                let last = char::from(b'a' + n - 1);
                lines.push(format!(
                    "Cells are named by column a-{last} and row 1-{n}, a1 at the"
                ));
                lines.push("bottom left, like a chess board: c3, b2.".into());
            }
            if n == 3 && k == 3 && !rules.misere() {
                lines.push("Played well by both sides, every game is a draw.".into());
            }
        }
        Variant::Ultimate => ultimate(&mut lines),
        Variant::Gomoku {
            size,
            rule: Rule::Renju,
            ..
        } => renju_rules(&mut lines, size),
        Variant::Gomoku { size, k, rule, .. } => gomoku(&mut lines, size, k, rule),
    }
    swap_rules(&mut lines, variant.opening());
    lines
}

/// The lines on a swap opening, if the game has one.
fn swap_rules(lines: &mut Vec<String>, opening: Opening) {
    let second = match opening {
        Opening::Free => return,
        Opening::Swap1 => "The second player then takes black or white;".to_string(),
        Opening::Swap2 => "The second then takes black or white, or places".to_string(),
    };
    lines.push(String::new());
    lines.push(format!("Opening, {opening}: the first player places three"));
    lines.push("stones: black, white, black (X, O, X).".into());
    lines.push(second);
    if opening == Opening::Swap2 {
        lines.push("two more (white, black) and the first chooses;".into());
    }
    lines.push("white moves next.".into());
}

/// A number of stones as a word up to ten (`five`), in digits past it (`11`).
fn count_word(k: u8) -> String {
    const WORDS: [&str; 8] = [
        "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS
        .get(usize::from(k).wrapping_sub(3))
        .map_or_else(|| k.to_string(), |w| (*w).to_string())
}

/// Gomoku's rules on a board of side `n` with `k` in a row: freestyle, exact or caro.
fn gomoku(lines: &mut Vec<String>, n: u8, k: u8, rule: Rule) {
    let last = char::from(b'a' + n - 1);
    let exact = rule == Rule::Exact;
    let line = if exact {
        format!("exactly {}", count_word(k))
    } else {
        format!("{} in a row", count_word(k))
    };
    let standard = n == crate::rules::gomoku::SIZE && k == crate::rules::gomoku::FIVE;
    let title = if rule == Rule::Caro && standard {
        format!("Caro: 15×15, {line}")
    } else if rule == Rule::Caro {
        format!("{n}×{n}, caro")
    } else if standard {
        format!("Gomoku: 15×15, {line}")
    } else {
        format!("{n}×{n}, {line} (Gomoku's rules)")
    };
    lines.push(title);
    lines.extend(
        [
            "",
            "X (black) and O (white) take turns to put a stone on an",
            "empty point; X moves first.",
        ]
        .map(str::to_string),
    );
    lines.push(format!(
        "The first to make a line of {} of their own stones",
        count_word(k)
    ));
    let longer = count_word(k + 1);
    lines.push(if exact {
        format!("(across, down or diagonal) wins; {longer} or more do not.")
    } else {
        format!("(across, down or diagonal) wins; {longer} or more count too.")
    });
    if rule == Rule::Caro {
        lines.push("But a line of exactly five with the other side's stones".into());
        lines.push("just beyond both of its ends is blocked: it wins nothing.".into());
    }
    lines.extend(["A full board with no line is a draw.", ""].map(str::to_string));
    lines.push(format!(
        "Points are named by column a-{last} and row 1-{n}, a1 at the"
    ));
    lines.push(if n == crate::rules::gomoku::SIZE {
        "bottom left: h8 is the centre.".to_string()
    } else {
        "bottom left.".to_string()
    });
}

/// Renju's rules on a board of side `n`.
fn renju_rules(lines: &mut Vec<String>, n: u8) {
    let last = char::from(b'a' + n - 1);
    lines.extend([
        if n == crate::rules::gomoku::SIZE {
            "Renju: 15×15, five in a row".to_string()
        } else {
            format!("{n}×{n}, renju")
        },
        String::new(),
        "X (black) and O (white) take turns to put a stone on an".into(),
        "empty point; X moves first.".into(),
        "Five in a row (across, down or diagonal) wins. X must".into(),
        "make exactly five, and may not play a point that makes".into(),
        "an overline (six or more), two fours or two open threes".into(),
        "at once, unless it makes five. O may do all of these.".into(),
        "A full board with no line is a draw.".into(),
        String::new(),
        format!("Points are named by column a-{last} and row 1-{n}, a1 at the"),
        "bottom left.".into(),
    ]);
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

fn misere_title(misere: bool) -> &'static str {
    if misere { ", misère" } else { "" }
}

fn ultimate(lines: &mut Vec<String>) {
    for line in [
        "Ultimate tic-tac-toe",
        "",
        "Nine small boards sit in a 3×3. X and O take turns; X moves",
        "first. A move is a board and a cell in it: 53 is cell 3 of",
        "board 5, both numbered like the keypad (7 8 9 on top).",
        "",
        "Where you play decides where the other side must play next:",
        "the cell you choose sends them to the board in its place.",
        "Play cell 3 of any board, and they must play on board 3.",
        "",
        "Three in a row on a small board wins it for good. Win three",
        "small boards in a row on the big board to win the game.",
        "A board that is won or full is closed: sent there, you may",
        "play on any open board instead (a free move).",
        "If every board closes with no line of boards, it is a draw.",
    ] {
        lines.push(line.to_string());
    }
}

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
