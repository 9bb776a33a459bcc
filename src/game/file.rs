//! A game as a file of ours, to send to someone or keep: a header of fields, one a line, then
//! a blank line and the moves, numbered a pair to a line as people write them down.
//!
//! ```text
//! tictactoe game
//! rules: --size 5
//! x: you
//! o: level 7 AI
//! date: 2026-11-29T12:15:09Z
//! result: X wins.
//!
//! 1. c3 b2
//! 2. d4 c2
//! ```
//!
//! `rules` are the game's command-line flags (empty for classic 3×3), as a `Record:` line
//! starts; `x`, `o`, `date` and `result` are for people and read back as they are. Only
//! `rules` is needed. The moves replay from the empty board, checked one by one, and the
//! numbers before them (`1.`) are for the eye. A field the format does not have, a second
//! `rules`, or a move that does not replay is refused with its line.

use std::fmt::Write as _;

use crate::game::record::Record;
use crate::rules::position::Variant;

/// Why a text is not a game: the line (from 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileError {
    pub line: usize,
    pub why: String,
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for FileError {}

/// The first line of every game file.
pub const MAGIC: &str = "tictactoe game";

/// A game file: the game, and what the header says of it for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameFile {
    pub record: Record,
    /// Who played X and O, as the game called them (`you`, `level 7 AI`).
    pub x: String,
    pub o: String,
    /// When it was saved: UTC, RFC 3339.
    pub date: String,
    /// The result as the game said it (`X wins.`), or empty for a game that goes on.
    pub result: String,
}

impl GameFile {
    /// The game `session` plays now, as a file would keep it: its moves, its players as the
    /// session calls them, the `date` it is saved at and the result so far.
    pub fn of(session: &super::Session, date: String) -> GameFile {
        use crate::rules::classic::Mark;
        GameFile {
            record: session.game().record(),
            x: session.name_of(Mark::X).to_string(),
            o: session.name_of(Mark::O).to_string(),
            date,
            result: session.result().unwrap_or_default(),
        }
    }
}

/// The fields of a header, in the order they are written.
const FIELDS: [&str; 5] = ["rules", "x", "o", "date", "result"];

/// Whether `text` is a game file: its first line is [`MAGIC`].
pub fn is_game_file(text: &str) -> bool {
    text.trim_start().lines().next().map(str::trim) == Some(MAGIC)
}

/// The file's text.
pub fn write(file: &GameFile) -> String {
    let one_line = |value: &str| value.replace(['\n', '\r'], " ");
    let mut text = format!("{MAGIC}\n");
    let rules = file.record.variant().flags().join(" ");
    let values = [&rules, &file.x, &file.o, &file.date, &file.result];
    for (field, value) in FIELDS.iter().zip(values) {
        let _ = writeln!(text, "{field}: {}", one_line(value));
    }
    text.push('\n');
    let moves: Vec<String> = file
        .record
        .moves()
        .iter()
        .map(ToString::to_string)
        .collect();
    for (i, pair) in moves.chunks(2).enumerate() {
        let _ = writeln!(text, "{}. {}", i + 1, pair.join(" "));
    }
    text
}

/// Reads a game file, checked: its rules, its moves replayed.
pub fn read(text: &str) -> Result<GameFile, FileError> {
    let error = |line: usize, why: String| FileError { line, why };
    let mut lines = text.lines().enumerate().map(|(i, l)| (i + 1, l.trim()));
    let first = lines.by_ref().find(|(_, l)| !l.is_empty());
    let Some((magic, MAGIC)) = first else {
        let line = first.map_or(1, |(number, _)| number);
        return Err(error(line, format!("a game file starts with `{MAGIC}`")));
    };
    // Each field's value with its line.
    let mut values: [Option<(usize, String)>; 5] = Default::default();
    for (number, line) in lines.by_ref() {
        if line.is_empty() {
            break;
        }
        let (field, value) = line
            .split_once(':')
            .ok_or_else(|| error(number, format!("{line:?} is no `field: value` line")))?;
        let field = field.trim().to_ascii_lowercase();
        let Some(slot) = FIELDS.iter().position(|&f| f == field) else {
            let known = FIELDS.join(", ");
            return Err(error(
                number,
                format!("{field:?} is no field of a game file ({known})"),
            ));
        };
        if values[slot]
            .replace((number, value.trim().to_string()))
            .is_some()
        {
            return Err(error(number, format!("{field} is given twice")));
        }
    }
    let [rules, x, o, date, result] = values;
    let no_rules = || error(magic + 1, "the header has no `rules:` line".into());
    let (line, rules) = rules.ok_or_else(no_rules)?;
    let variant = Variant::from_flags(&rules)
        .ok_or_else(|| error(line, format!("{rules:?} names no game played here")))?;
    let value = |field: Option<(usize, String)>| field.map(|(_, v)| v).unwrap_or_default();
    let mut moves = Vec::new();
    for (number, line) in lines {
        let words = line.split_whitespace();
        moves.extend(words.filter(|w| !is_number(w)).map(|w| (number, w)));
    }
    let texts: Vec<&str> = moves.iter().map(|&(_, w)| w).collect();
    let record = Record::parse(variant, &texts).map_err(|e| {
        let line = moves.get(e.number - 1).map_or(1, |&(line, _)| line);
        error(line, e.to_string())
    })?;
    Ok(GameFile {
        record,
        x: value(x),
        o: value(o),
        date: value(date),
        result: value(result),
    })
}

/// Whether `word` is a move's number, `12.`.
fn is_number(word: &str) -> bool {
    word.strip_suffix('.')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::gomoku::opening::Opening;
    use crate::rules::position::Move;

    /// A game of `variant`, each side playing its last legal move for `plies` plies.
    fn played(variant: Variant, plies: usize) -> Record {
        let mut position = variant.start();
        let mut moves: Vec<Move> = Vec::new();
        while moves.len() < plies && !position.is_over() {
            let mv = *position.legal_moves().last().unwrap();
            position.play(mv).unwrap();
            moves.push(mv);
        }
        Record::new(variant, moves).unwrap()
    }

    #[test]
    fn every_rule_set_reads_back_as_written() {
        let swap2 = Variant::GOMOKU.opened(Opening::Swap2).unwrap();
        let variants = [
            Variant::default(),
            Variant::from_flags("--size 5 --k 4 --misere").unwrap(),
            Variant::Ultimate,
            Variant::GOMOKU,
            Variant::RENJU,
            Variant::from_flags("--size 20 --caro").unwrap(),
            swap2,
        ];
        for variant in variants {
            for plies in [0, 1, 9] {
                let file = GameFile {
                    record: played(variant, plies),
                    x: "you".into(),
                    o: "level 7 AI".into(),
                    date: "2026-11-29T12:15:09Z".into(),
                    result: String::new(),
                };
                let text = write(&file);
                assert!(is_game_file(&text), "{text}");
                assert_eq!(read(&text), Ok(file), "{text}");
            }
        }
    }

    #[test]
    fn the_header_and_the_moves_are_as_documented() {
        let record = Record::parse(Variant::default(), &["5", "1", "9"]).unwrap();
        let file = GameFile {
            record,
            x: "you".into(),
            o: "level 7 AI".into(),
            date: "2026-11-29T12:15:09Z".into(),
            result: "Draw.\nsecond line".into(),
        };
        assert_eq!(
            write(&file),
            "tictactoe game\nrules: \nx: you\no: level 7 AI\ndate: 2026-11-29T12:15:09Z\n\
             result: Draw. second line\n\n1. 5 1\n2. 9\n"
        );
    }

    #[test]
    fn a_malformed_file_is_refused_with_its_line() {
        let err = |text: &str| read(text).unwrap_err().to_string();
        assert_eq!(
            err("hello\n"),
            "line 1: a game file starts with `tictactoe game`"
        );
        assert_eq!(
            err("tictactoe game\nrules: --size 5\nplayer: me\n"),
            r#"line 3: "player" is no field of a game file (rules, x, o, date, result)"#
        );
        assert_eq!(
            err("tictactoe game\nrules:\nrules: --size 5\n"),
            "line 3: rules is given twice"
        );
        assert_eq!(
            err("tictactoe game\nrules: --size 99\n"),
            r#"line 2: "--size 99" names no game played here"#
        );
        assert_eq!(
            err("tictactoe game\nrules: --size 5\n\n1. c3 b2\n2. c3\n"),
            r#"line 5: move 3 ("c3"): cell c3 is taken"#
        );
        assert_eq!(
            err("tictactoe game\nx: you\n\n1. 5\n"),
            "line 2: the header has no `rules:` line"
        );
        assert_eq!(
            err("\ntictactoe game\nx: me\nrules: --size 99\n"),
            r#"line 4: "--size 99" names no game played here"#,
            "the line the rules are on"
        );
        assert_eq!(
            err("\n\nhello\n"),
            "line 3: a game file starts with `tictactoe game`"
        );
    }
}
