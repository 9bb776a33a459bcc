//! Games saved as files, to send to someone or to open again (`tictactoe review FILE`,
//! `--from FILE`): a Gomoku game as a Piskvork `.psq`, any other as a game file of ours
//! ([`file`]: a header of rules, players, date and result, then the moves). A file is never overwritten: the first free name is taken.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use crate::game::file::{self, GameFile};
use crate::game::formats;

/// The most files of one kind [`save`] numbers before it gives up.
const MOST: u32 = 9_999;

/// The largest game file read: a game of 15×15 as a `.psq` is under 3 KB.
const LARGEST: u64 = 1 << 20;

/// The text of the game file `path`: a regular file (never a FIFO or a device, which could
/// block or never end) of at most a mebibyte, counted as it is read.
pub fn read(path: &Path) -> io::Result<String> {
    let bytes = crate::store::files::read_at_most(path, LARGEST).map_err(|e| match e.kind() {
        io::ErrorKind::InvalidData => {
            io::Error::new(e.kind(), format!("{e}; a game file is at most {LARGEST}"))
        }
        io::ErrorKind::NotFound => io::Error::new(e.kind(), "there is no such file"),
        _ => e,
    })?;
    String::from_utf8(bytes).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Writes `game` into `dir` as `tictactoe-N.psq` (a Gomoku game that a `.psq` holds: opened
/// freely) or `tictactoe-N.txt`, a game file with its header ([`file`]), N the first number
/// free, and returns its path.
pub fn save(game: &GameFile, dir: &Path) -> io::Result<PathBuf> {
    let (text, extension) = match formats::write_psq(&game.record) {
        Some(psq) => (psq, "psq"),
        None => (file::write(game), "txt"),
    };
    save_text(&text, extension, dir)
}

/// Writes `text` into `dir` as `tictactoe-N.EXTENSION`, N the first number free, and returns
/// its path.
pub fn save_text(text: &str, extension: &str, dir: &Path) -> io::Result<PathBuf> {
    for n in 1..=MOST {
        let path = dir.join(format!("tictactoe-{n}.{extension}"));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(mut file) => {
                file.write_all(text.as_bytes())?;
                return Ok(path);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(e),
        }
    }
    Err(io::Error::other(format!(
        "tictactoe-1.{extension} to tictactoe-{MOST}.{extension} are all taken"
    )))
}

/// Writes `game` to `path`, a file that must not exist yet: as a `.psq` where its name ends
/// so and the game fits one, otherwise as a game file.
pub fn save_as(game: &GameFile, path: &Path) -> io::Result<()> {
    let psq = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("psq"))
        .then(|| formats::write_psq(&game.record))
        .flatten();
    let text = psq.unwrap_or_else(|| file::write(game));
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| match e.kind() {
            io::ErrorKind::AlreadyExists => {
                io::Error::new(e.kind(), "a file of that name is there already")
            }
            io::ErrorKind::NotFound => io::Error::new(e.kind(), "there is no such folder"),
            _ => e,
        })?;
    file.write_all(text.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::record::Record;
    use crate::rules::position::Variant;

    fn titled(record: &Record) -> GameFile {
        GameFile {
            record: record.clone(),
            x: "you".into(),
            o: "level 7 AI".into(),
            date: "2026-11-29T12:00:00Z".into(),
            result: "X wins.".into(),
        }
    }

    #[test]
    fn games_are_saved_under_the_first_free_name_and_read_back_the_same() {
        let dir = std::env::temp_dir().join(format!("tictactoe-games-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let gomoku = Record::parse(Variant::GOMOKU, &["h8", "i9", "g7"]).unwrap();
        let classic = Record::parse(Variant::default(), &["5", "1"]).unwrap();
        let first = save(&titled(&gomoku), &dir).unwrap();
        let second = save(&titled(&gomoku), &dir).unwrap();
        let third = save(&titled(&classic), &dir).unwrap();
        let names: Vec<_> = [&first, &second, &third]
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(
            names,
            ["tictactoe-1.psq", "tictactoe-2.psq", "tictactoe-1.txt"]
        );
        for (path, record) in [(&first, &gomoku), (&third, &classic)] {
            let text = std::fs::read_to_string(path).unwrap();
            let read = formats::read_game(&text, Variant::default()).unwrap();
            assert_eq!(&read, record, "{text}");
        }
        let header = std::fs::read_to_string(&third).unwrap();
        assert!(
            header.starts_with("tictactoe game\nrules: \nx: you\n"),
            "{header}"
        );
        let big = dir.join("big.psq");
        std::fs::write(&big, vec![b'.'; (LARGEST + 1) as usize]).unwrap();
        let err = read(&big).unwrap_err();
        assert!(err.to_string().contains("a game file is at most"), "{err}");
        assert!(read(&dir).is_err(), "a folder is no game file");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
