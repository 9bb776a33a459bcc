//! Text in and out of the program, below every layer: text from outside (a peer, an
//! announcement on the network, a hand-edited history or settings file) made safe to print,
//! one function at every door, so that no such text can drive the terminal or disguise
//! itself; and [`line`], lines from a person or a pipe read with a cap on their length.

pub mod line;

/// `text` with every control character (escape sequences included) and every invisible
/// format character (bidirectional overrides and isolates such as U+202E and U+2066–2069,
/// direction marks, zero-width characters, line and paragraph separators) replaced by `�`:
/// text from the other side can neither drive the terminal nor disguise itself.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() || is_format(c) {
                '\u{fffd}'
            } else {
                c
            }
        })
        .collect()
}

/// Whether `c` is an invisible format character (Unicode category Cf, and the line and
/// paragraph separators).
fn is_format(c: char) -> bool {
    matches!(
        u32::from(c),
        0xAD | 0x600..=0x605
            | 0x61C
            | 0x6DD
            | 0x70F
            | 0x890..=0x891
            | 0x8E2
            | 0x180E
            | 0x200B..=0x200F
            | 0x2028..=0x202E
            | 0x2060..=0x2064
            | 0x2066..=0x206F
            | 0xFEFF
            | 0xFFF9..=0xFFFB
            | 0x110BD
            | 0x110CD
            | 0x13430..=0x1343F
            | 0x1BCA0..=0x1BCA3
            | 0x1D173..=0x1D17A
            | 0xE0001
            | 0xE0020..=0xE007F
    )
}

/// At most `limit` characters of `text` (already made printable), with `…` where it was cut.
pub fn cut(text: &str, limit: usize) -> String {
    if text.chars().count() <= limit {
        return text.to_string();
    }
    text.chars()
        .take(limit.saturating_sub(1))
        .chain(['…'])
        .collect()
}

/// `text` with its first letter in upper case, to start a sentence; unless its first word is
/// not a plain word (a cell typed as `k17`, a quoted input), which stays as it was written.
pub fn sentence(text: &str) -> String {
    let first_word = text.split_whitespace().next().unwrap_or_default();
    if !first_word.chars().all(char::is_alphabetic) {
        return text.to_string();
    }
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Input quoted in a message about it: trimmed, made printable and cut to 24 characters.
pub fn quoted(input: &str) -> String {
    cut(&printable(input.trim()), 25)
}

/// `4213` as `4,213`: a count with its thousands marked.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sentence_starts_with_a_capital_unless_it_starts_with_typed_text() {
        assert_eq!(sentence("cell k17 is taken"), "Cell k17 is taken");
        assert_eq!(
            sentence("k17 is not on the board"),
            "k17 is not on the board"
        );
        assert_eq!(sentence("'zz' is not a cell"), "'zz' is not a cell");
        assert_eq!(sentence(""), "");
    }

    #[test]
    fn bidirectional_and_other_format_controls_are_replaced() {
        for hidden in [
            '\u{202E}',
            '\u{202A}',
            '\u{2066}',
            '\u{2067}',
            '\u{2068}',
            '\u{2069}',
            '\u{200E}',
            '\u{200F}',
            '\u{200B}',
            '\u{061C}',
            '\u{FEFF}',
            '\u{2028}',
            '\u{E0041}',
            '\u{9B}',
            '\u{1b}',
        ] {
            let text = format!("a{hidden}b");
            assert_eq!(
                printable(&text),
                "a\u{fffd}b",
                "U+{:04X}",
                u32::from(hidden)
            );
        }
        assert_eq!(printable("é ✓ 五 🙂"), "é ✓ 五 🙂", "visible text is kept");
        assert_eq!(cut("abcdef", 4), "abc…");
        assert_eq!(cut("abc", 4), "abc");
    }

    #[test]
    fn counts_are_grouped_in_thousands_and_input_is_quoted_short_and_printable() {
        assert_eq!(grouped(4213), "4,213");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1_000_000), "1,000,000");
        assert_eq!(quoted("  X.O\u{1b}[2J  "), "X.O\u{fffd}[2J");
        assert_eq!(quoted(&"x".repeat(30)), format!("{}…", "x".repeat(24)));
    }
}
