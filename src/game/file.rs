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
//!
//! The analysis board saves its variations in the same file ([`write_tree`]): a move in
//! parentheses is another move tried in place of the move before them, followed by its own
//! line, and a comment in braces belongs to the move before it (before every move: to the
//! start). The game is the main line, so a reader of games sees that and nothing else:
//!
//! ```text
//! 1. 5 1 (3 {O loses} 7) 2. 9
//! ```

use std::fmt::Write as _;

use crate::game::record::Record;
use crate::game::tree::{ROOT, Tree};
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
    let tree = Tree::of_record(&file.record);
    text.push_str(&moves_text(&tree));
    text
}

/// The file's text with the variations of `tree` (a tree of the same game, whose main line
/// is then the file's game).
pub fn write_tree(file: &GameFile, tree: &Tree) -> String {
    let mut file = file.clone();
    file.record = tree.record_to(tree.line_end(ROOT));
    let header = write(&GameFile {
        record: Record::new(file.record.variant(), Vec::new()).expect("no move is legal"),
        ..file
    });
    header + &moves_text(tree)
}

/// The moves of `tree`, the main line numbered a pair to a line, each variation in
/// parentheses after the move it replaces, comments in braces after their moves.
fn moves_text(tree: &Tree) -> String {
    let mut text = String::new();
    if !tree.comment(ROOT).is_empty() {
        let _ = writeln!(text, "{{{}}}", tree.comment(ROOT));
    }
    let mut at = ROOT;
    let mut ply = 0;
    while let Some((&main, others)) = tree.children(at).split_first() {
        if ply % 2 == 0 {
            let _ = write!(text, "{}.", ply / 2 + 1);
        }
        write_move(&mut text, tree, main);
        for &other in others {
            text.push_str(" (");
            write_variation(&mut text, tree, other);
            text.push(')');
        }
        at = main;
        ply += 1;
        if ply % 2 == 0 || tree.children(at).is_empty() {
            text.push('\n');
        }
    }
    text
}

/// ` 5 {comment}`: a move and its comment, after a space.
fn write_move(text: &mut String, tree: &Tree, at: usize) {
    let mv = tree.mv(at).expect("a node below the start");
    let _ = write!(text, " {mv}");
    if !tree.comment(at).is_empty() {
        let _ = write!(text, " {{{}}}", tree.comment(at));
    }
}

/// The line from `first` on, with the variations inside it, unnumbered.
fn write_variation(text: &mut String, tree: &Tree, first: usize) {
    let mut at = first;
    let mut line = String::new();
    write_move(&mut line, tree, at);
    while let Some((&main, others)) = tree.children(at).split_first() {
        write_move(&mut line, tree, main);
        for &other in others {
            line.push_str(" (");
            write_variation(&mut line, tree, other);
            line.push(')');
        }
        at = main;
    }
    text.push_str(line.trim_start());
}

/// Reads a game file, checked: its rules, its moves replayed. A file with variations reads as
/// its main line.
pub fn read(text: &str) -> Result<GameFile, FileError> {
    read_tree(text).map(|(file, _)| file)
}

/// Reads a game file with its variations: the game (its main line) and the tree of every
/// move in it.
pub fn read_tree(text: &str) -> Result<(GameFile, Tree), FileError> {
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
    let tree = read_moves(variant, lines)?;
    let file = GameFile {
        record: tree.record_to(tree.line_end(ROOT)),
        x: value(x),
        o: value(o),
        date: value(date),
        result: value(result),
    };
    Ok((file, tree))
}

/// A word of the moves: a move, a bracket of a variation, or a comment.
enum Word<'a> {
    Move(&'a str),
    Open,
    Close,
    Comment(&'a str),
}

/// The words of the moves' lines, each with its line, numbers (`12.`) left out.
fn words<'a>(
    lines: impl Iterator<Item = (usize, &'a str)>,
) -> Result<Vec<(usize, Word<'a>)>, FileError> {
    let mut words = Vec::new();
    for (number, mut line) in lines {
        while let Some(start) = line.find(|c: char| !c.is_whitespace()) {
            line = &line[start..];
            let (word, rest) = match line.as_bytes()[0] {
                b'(' => (Word::Open, &line[1..]),
                b')' => (Word::Close, &line[1..]),
                b'{' => {
                    let end = line.find('}').ok_or_else(|| FileError {
                        line: number,
                        why: "a comment `{` is not closed with `}` on its line".into(),
                    })?;
                    (Word::Comment(line[1..end].trim()), &line[end + 1..])
                }
                _ => {
                    let end = line
                        .find(|c: char| c.is_whitespace() || "(){}".contains(c))
                        .unwrap_or(line.len());
                    (Word::Move(&line[..end]), &line[end..])
                }
            };
            line = rest;
            if !matches!(word, Word::Move(w) if is_number(w)) {
                words.push((number, word));
            }
        }
    }
    Ok(words)
}

/// The tree of the moves' lines, each move checked where it is played.
fn read_moves<'a>(
    variant: Variant,
    lines: impl Iterator<Item = (usize, &'a str)>,
) -> Result<Tree, FileError> {
    let error = |line: usize, why: String| FileError { line, why };
    let mut tree = Tree::new(variant);
    let (mut at, mut outer, mut played) = (ROOT, Vec::new(), 0);
    let mut last_line = 1;
    for (line, word) in words(lines)? {
        last_line = line;
        match word {
            Word::Move(text) => {
                played += 1;
                let position = tree.position(at);
                let mv = position
                    .parse_move(text)
                    .map_err(|e| error(line, format!("move {played} ({text:?}): {e}")))?;
                at = tree
                    .play(at, mv)
                    .map_err(|e| error(line, format!("move {played} ({text:?}): {e}")))?;
            }
            Word::Open => {
                let before = tree.parent(at).ok_or_else(|| {
                    error(
                        line,
                        "a variation `(` comes after the move it replaces".into(),
                    )
                })?;
                outer.push(at);
                at = before;
            }
            Word::Close => {
                at = outer
                    .pop()
                    .ok_or_else(|| error(line, "`)` closes no variation".into()))?;
            }
            Word::Comment(comment) => {
                let joined = [tree.comment(at), comment].join(" ");
                tree.set_comment(at, &joined);
            }
        }
    }
    if !outer.is_empty() {
        return Err(error(last_line, "a variation `(` is not closed".into()));
    }
    Ok(tree)
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

    /// A tree of `variant` made by random moves from random nodes, with comments on some.
    fn random_tree(variant: Variant, moves: usize, rng: &mut fastrand::Rng) -> Tree {
        let mut tree = Tree::new(variant);
        let mut nodes = vec![ROOT];
        for i in 0..moves {
            let at = nodes[rng.usize(..nodes.len())];
            let legal = tree.position(at).legal_moves();
            if legal.is_empty() {
                continue;
            }
            let node = tree.play(at, legal[rng.usize(..legal.len())]).unwrap();
            if rng.u8(..4) == 0 {
                tree.set_comment(node, &format!("note {i}: (a) {{b}} odd"));
            }
            nodes.push(node);
        }
        tree
    }

    #[test]
    fn variations_and_comments_read_back_as_the_same_tree_on_every_rule_set() {
        let mut rng = fastrand::Rng::with_seed(7);
        let variants = [
            Variant::default(),
            Variant::from_flags("--size 5").unwrap(),
            Variant::Ultimate,
            Variant::GOMOKU,
            Variant::RENJU,
            Variant::CONNECT_FOUR,
        ];
        for variant in variants {
            for moves in [0, 1, 2, 12, 40] {
                let mut tree = random_tree(variant, moves, &mut rng);
                if moves == 12 {
                    tree.set_comment(ROOT, "from the start");
                }
                let file = GameFile {
                    record: Record::new(variant, Vec::new()).unwrap(),
                    x: "you".into(),
                    o: "you".into(),
                    date: String::new(),
                    result: String::new(),
                };
                let text = write_tree(&file, &tree);
                let (read_file, read_tree) = read_tree(&text).unwrap();
                assert_eq!(read_tree, tree, "{text}");
                assert_eq!(read_file.record.moves(), tree.main_line(), "{text}");
                assert_eq!(read(&text).unwrap().record.moves(), tree.main_line());
            }
        }
    }

    #[test]
    fn a_variation_is_written_after_the_move_it_replaces() {
        let mut tree = Tree::new(Variant::default());
        let start = tree.position(ROOT);
        let mv = |t: &str| start.parse_move(t).unwrap();
        let centre = tree.play(ROOT, mv("5")).unwrap();
        let one = tree.play(centre, mv("1")).unwrap();
        tree.play(one, mv("9")).unwrap();
        let other = tree.play(centre, mv("3")).unwrap();
        tree.set_comment(other, "O loses");
        tree.play(other, mv("7")).unwrap();
        let game = GameFile {
            record: Record::new(Variant::default(), Vec::new()).unwrap(),
            x: "you".into(),
            o: "you".into(),
            date: String::new(),
            result: String::new(),
        };
        let text = write_tree(&game, &tree);
        assert!(
            text.ends_with("\n\n1. 5 1 (3 {O loses} 7)\n2. 9\n"),
            "{text}"
        );
    }

    #[test]
    fn a_variation_that_is_not_closed_or_replaces_no_move_is_refused_with_its_line() {
        let err = |moves: &str| {
            let text = format!("tictactoe game\nrules:\n\n{moves}");
            read(&text).unwrap_err().to_string()
        };
        assert_eq!(err("1. 5 (1\n"), "line 4: a variation `(` is not closed");
        assert_eq!(
            err("(5)\n"),
            "line 4: a variation `(` comes after the move it replaces"
        );
        assert_eq!(err("1. 5 1)\n"), "line 4: `)` closes no variation");
        assert_eq!(
            err("1. 5 {no end\n"),
            "line 4: a comment `{` is not closed with `}` on its line"
        );
        let taken = err("1. 5 1 (5)\n");
        assert!(taken.starts_with(r#"line 4: move 3 ("5"): "#), "{taken}");
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
