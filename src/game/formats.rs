//! Games as Gomoku players keep and exchange them: Piskvork's `.psq` files (a header
//! `Piskvorky 15x15, 11:11, 0`, then a move a line as `x,y,time`, x and y from 1 at the top
//! left, black first) and move strings such as `h8h9i8` (the points one after another, black
//! first). Both are read into a [`Record`], checked move by move, and a Gomoku record is
//! written back as a `.psq`.

use std::fmt::Write as _;

pub use crate::game::file::FileError;
use crate::game::record::{Record, RecordError};
use crate::rules::catalogue::{Entry, Shape};
use crate::rules::gomoku;
use crate::rules::position::{Move, Variant};

fn error(line: usize, why: impl Into<String>) -> FileError {
    FileError {
        line,
        why: why.into(),
    }
}

/// Whether `text` looks like a Piskvork game: its first line is the header.
pub fn is_psq(text: &str) -> bool {
    text.trim_start().starts_with("Piskvorky")
}

/// The board side the header `Piskvorky 15x15, 11:11, 0` gives, checked.
fn header(line: &str) -> Result<u8, FileError> {
    let size = line
        .strip_prefix("Piskvorky")
        .and_then(|rest| rest.trim_start().split([',', ' ']).next())
        .ok_or_else(|| error(1, "a .psq file starts with `Piskvorky WxH, …`"))?;
    let (w, h) = size
        .split_once(['x', 'X'])
        .ok_or_else(|| error(1, format!("{size:?} is no board size like 15x15")))?;
    let (w, h) = (w.parse::<u8>().ok(), h.parse::<u8>().ok());
    match (w, h) {
        (Some(w), Some(h)) if w == h && (gomoku::MIN_SIZE..=gomoku::MAX_SIZE).contains(&w) => Ok(w),
        _ => Err(error(
            1,
            format!(
                "the board {size} is not played here: Gomoku's boards are square, {0}x{0} to {1}x{1}",
                gomoku::MIN_SIZE,
                gomoku::MAX_SIZE
            ),
        )),
    }
}

/// Reads a `.psq` game played by `rules` (five in a row, exactly five, renju or caro), whose board
/// side the header gives. The moves end at the first line that is not `x,y,time` (Piskvork
/// writes the players' names and a result after them).
pub fn read_psq(text: &str, rules: Variant) -> Result<Record, FileError> {
    let mut lines = text.lines().enumerate();
    let (_, first) = lines
        .find(|(_, l)| !l.trim().is_empty())
        .ok_or_else(|| error(1, "the file is empty"))?;
    let size = header(first.trim())?;
    let variant = on_side(rules, size);
    let mut position = variant.start();
    let mut moves = Vec::new();
    for (i, line) in lines {
        let number = i + 1;
        let fields: Vec<&str> = line.trim().split(',').map(str::trim).collect();
        let [x, y, ..] = fields[..] else {
            break;
        };
        let (Ok(x), Ok(y)) = (x.parse::<u8>(), y.parse::<u8>()) else {
            break;
        };
        let on = |v: u8| (1..=size).contains(&v);
        let cell = position
            .gomoku()
            .filter(|_| on(x) && on(y))
            .and_then(|board| board.cell_at(size - y, x - 1))
            .ok_or_else(|| error(number, format!("{x},{y} is off the {size}x{size} board")))?;
        let mv = Move::Cell(cell);
        position
            .play(mv)
            .map_err(|e| error(number, format!("{cell}: {e}")))?;
        moves.push(mv);
    }
    Ok(Record::new(variant, moves).expect("the moves were played one by one above"))
}

/// The game of `rules` on Gomoku's points of side `size` (freestyle, exactly five, renju or
/// caro), or the Gomocup's own game (freestyle) where `rules` are not a game of points.
fn on_side(rules: Variant, size: u8) -> Variant {
    let entry = Some(Entry::of(rules))
        .filter(|entry| entry.shape() == Shape::Points)
        .unwrap_or(Entry::of_gomocup_rule(0));
    Variant::named_on(entry.name(), size, gomoku::FIVE).unwrap_or(entry.variant)
}

/// Reads a move string such as `h8h9i8` played by `rules`: the points one after another, a
/// column letter and a row number each. Move strings are the Gomocup's: where `rules` are a
/// board of cells (the default is classic 3×3) and the moves do not fit it, they are read as
/// the Gomocup's own game.
pub fn read_move_string(text: &str, rules: Variant) -> Result<Record, RecordError> {
    match read_points(text, rules) {
        Err(_) if rules.shape() == Shape::Cells => {
            read_points(text, Entry::of_gomocup_rule(0).variant)
        }
        read => read,
    }
}

/// The points of a move string, played by `rules`.
fn read_points(text: &str, rules: Variant) -> Result<Record, RecordError> {
    let mut names = Vec::new();
    let mut current = String::new();
    for ch in text.trim().chars() {
        if ch.is_ascii_alphabetic() && !current.is_empty() {
            names.push(std::mem::take(&mut current));
        }
        current.push(ch);
    }
    if !current.is_empty() {
        names.push(current);
    }
    Record::parse(rules, &names)
}

/// Whether `text` is one word of points such as `h8h9i8`: a letter, then digits, again.
pub fn is_move_string(text: &str) -> bool {
    let text = text.trim();
    let mut chars = text.chars().peekable();
    let mut points = 0;
    while let Some(letter) = chars.next() {
        if !letter.is_ascii_alphabetic() {
            return false;
        }
        let mut digits = 0;
        while chars.peek().is_some_and(char::is_ascii_digit) {
            chars.next();
            digits += 1;
        }
        if !(1..=2).contains(&digits) {
            return false;
        }
        points += 1;
    }
    points >= 2
}

/// Reads a game kept as text: one of our game files ([`super::file`]), a `.psq` file, a move
/// string (`h8h9i8`), or our own record
/// (`--gomoku h8 h9 i8`: its flags, then its moves, with or without the `Record:` the game
/// prints before them), any of them played
/// by `rules` where the text does not say (a `.psq` gives only its board's side).
pub fn read_game(text: &str, rules: Variant) -> Result<Record, FileError> {
    if super::file::is_game_file(text) {
        return super::file::read(text).map(|file| file.record);
    }
    if is_psq(text) {
        return read_psq(text, rules);
    }
    let line = |e: RecordError| error(1, e.to_string());
    if is_move_string(text) {
        return read_move_string(text, rules).map_err(line);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    // The line as the game prints it, `Record: --size 5 c3 b2`, reads as what follows.
    let words = words.strip_prefix(&["Record:"]).unwrap_or(&words);
    let mut flags = 0;
    while words.get(flags).is_some_and(|w| w.starts_with("--")) {
        let takes_value = matches!(words[flags], "--size" | "--k" | "--opening");
        flags += 1 + usize::from(takes_value);
    }
    let variant = if flags == 0 {
        rules
    } else {
        let named = words[..flags.min(words.len())].join(" ");
        Variant::from_flags(&named)
            .ok_or_else(|| error(1, format!("{named:?} names no game played here")))?
    };
    Record::parse(variant, &words[flags.min(words.len())..]).map_err(line)
}

/// The `.psq` of a Gomoku game (`None` for the other rule sets): the header, then each
/// move as `x,y,0`, x and y from 1 at the top left.
pub fn write_psq(record: &Record) -> Option<String> {
    // A `.psq` holds stones only: a swap opening's rule and choices would be lost.
    if record.variant().opening() != gomoku::opening::Opening::Free {
        return None;
    }
    let size = record.variant().start().gomoku()?.size();
    let mut text = format!("Piskvorky {size}x{size}, 11:11, 0\n");
    for mv in record.moves() {
        let Move::Cell(cell) = mv else {
            return None;
        };
        let _ = writeln!(text, "{},{},0", cell.col() + 1, size - cell.row());
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,0\n8,9,0\n-1\npbrain-one.exe\n";

    #[test]
    fn a_psq_game_reads_top_left_from_one_and_stops_at_the_names() {
        let record = read_psq(GAME, Variant::GOMOKU).unwrap();
        assert_eq!(record.to_string(), "--gomoku h8 i8 h7");
    }

    #[test]
    fn a_gomoku_record_goes_to_psq_and_comes_back_the_same() {
        let record = read_psq(GAME, Variant::GOMOKU).unwrap();
        let text = write_psq(&record).unwrap();
        assert_eq!(text, "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,8,0\n8,9,0\n");
        assert_eq!(read_psq(&text, Variant::GOMOKU).unwrap(), record);
        let small = read_psq("Piskvorky 9x9, 1:1, 0\n5,5,10\n", Variant::GOMOKU).unwrap();
        assert_eq!(small.to_string(), "--size 9 e5");
        assert_eq!(
            read_psq(&write_psq(&small).unwrap(), Variant::GOMOKU).unwrap(),
            small
        );
    }

    #[test]
    fn a_bad_psq_names_its_line() {
        let cases = [
            ("Piskvorky 21x21, 11:11, 0\n", 1, "21x21 is not played here"),
            ("Piskvorky 15x12, 11:11, 0\n", 1, "square"),
            ("Gomoku\n8,8,0\n", 1, "starts with `Piskvorky"),
            (
                "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n",
                3,
                "h8: point h8 is taken",
            ),
            (
                "Piskvorky 15x15, 11:11, 0\n8,8,0\n16,1,0\n",
                3,
                "16,1 is off",
            ),
        ];
        for (text, line, words) in cases {
            let e = read_psq(text, Variant::GOMOKU).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.to_string().contains(words), "{text:?}: {e}");
        }
    }

    #[test]
    fn a_move_string_is_read_point_by_point_whatever_its_row_digits() {
        assert!(is_move_string("h8h9i8") && is_move_string("h10i11"));
        assert!(!is_move_string("h8") && !is_move_string("h8 h9") && !is_move_string("55"));
        let record = read_move_string("h8h9i10", Variant::GOMOKU).unwrap();
        assert_eq!(
            read_move_string("h8h9i10", Variant::default()).unwrap(),
            record
        );
        let classic = read_move_string("a1b2", Variant::default()).unwrap();
        assert_eq!(
            classic.to_string(),
            "1 5",
            "a 3×3 game where the points fit it"
        );
        assert_eq!(record.to_string(), "--gomoku h8 h9 i10");
        let taken = read_move_string("h8h8", Variant::GOMOKU).unwrap_err();
        assert_eq!(taken.number, 2);
    }

    #[test]
    fn a_game_file_is_read_as_a_psq_a_move_string_or_our_record() {
        let psq = read_game(GAME, Variant::GOMOKU).unwrap();
        assert_eq!(read_game("h8i8h7", Variant::GOMOKU).unwrap(), psq);
        assert_eq!(
            read_game("--gomoku h8 i8 h7\n", Variant::default()).unwrap(),
            psq
        );
        let ours = read_game("--size 4 --k 3 a1 b2", Variant::default()).unwrap();
        assert_eq!(ours.to_string(), "--size 4 --k 3 a1 b2");
        let e = read_game("--size 99 a1", Variant::default()).unwrap_err();
        assert!(e.to_string().contains("names no game"), "{e}");
        let e = read_game("--gomoku h8 h8", Variant::default()).unwrap_err();
        assert!(e.to_string().contains("taken"), "{e}");
    }

    #[test]
    fn the_record_line_the_game_prints_reads_as_its_moves() {
        let classic = Record::parse(Variant::default(), &["5", "1", "9"]).unwrap();
        assert_eq!(
            read_game("Record: 5 1 9\n", Variant::default()).unwrap(),
            classic
        );
        let gomoku = read_game("Record: --gomoku h8 i8 h7", Variant::default()).unwrap();
        assert_eq!(gomoku, read_game(GAME, Variant::GOMOKU).unwrap());
    }

    #[test]
    fn renju_rules_apply_to_a_psq_read_as_renju() {
        // Black f8 g8 h6 h7, white far: black's h8 is a double three, refused on its line.
        let text = "Piskvorky 15x15, 11:11, 0\n6,8,0\n1,15,0\n7,8,0\n2,15,0\n8,10,0\n3,15,0\n8,9,0\n4,15,0\n8,8,0\n";
        let e = read_psq(text, Variant::RENJU).unwrap_err();
        assert_eq!(e.line, 10, "{e}");
        assert!(e.to_string().contains("double three"), "{e}");
        assert!(read_psq(text, Variant::GOMOKU).is_ok());
    }

    #[test]
    fn a_swap_opened_game_is_no_psq() {
        let swap2 = Variant::GOMOKU
            .opened(gomoku::opening::Opening::Swap2)
            .unwrap();
        let record = Record::parse(swap2, &["h8", "i9"]).unwrap();
        assert_eq!(write_psq(&record), None, "its rule would be lost");
    }
}
