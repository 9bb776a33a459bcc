//! Gomoku's rules for people: freestyle, exactly k, caro and renju, on any board side, and
//! the swap openings.

use crate::rules::gomoku::opening::Opening;
use crate::rules::gomoku::{FIVE, Gomoku, Rule, SIZE};

/// The rules of `board`'s game, a line each.
pub(super) fn rules_text(board: &Gomoku) -> Vec<String> {
    let mut lines = Vec::new();
    match board.rule() {
        Rule::Renju => renju_rules(&mut lines, board.size()),
        rule => gomoku(&mut lines, board.size(), board.k(), rule),
    }
    swap_rules(&mut lines, board.opening());
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
    let standard = n == SIZE && k == FIVE;
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
    lines.push(if n == SIZE {
        "bottom left: h8 is the centre.".to_string()
    } else {
        "bottom left.".to_string()
    });
}

/// Renju's rules on a board of side `n`.
fn renju_rules(lines: &mut Vec<String>, n: u8) {
    let last = char::from(b'a' + n - 1);
    lines.extend([
        if n == SIZE {
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
