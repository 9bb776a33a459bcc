//! Reading the profile's files, and opening the history to append to it, where anyone who can
//! write to the profile may have put something other than a file: opening a FIFO blocks until
//! a writer comes, for ever, and a device can be read without end. Only a regular file (or a
//! link to one) is opened; anything else is an error (the callers name the file).

use std::fs;
use std::io;
use std::path::Path;

/// From now on a write past the size limit of files (`ulimit -f`) fails with an error that
/// the writer reports (the history, the game to continue, the settings), where by default
/// the signal it raises (SIGXFSZ) would end the program on the spot with nothing said and the
/// game's result lost. Called once, at the start.
pub fn limits_as_errors() {
    #[cfg(unix)]
    {
        use std::sync::Arc;
        use std::sync::atomic::AtomicBool;
        // Any handler does: with one, the kernel fails the write with EFBIG instead.
        let _ = signal_hook::flag::register(
            signal_hook::consts::SIGXFSZ,
            Arc::new(AtomicBool::new(false)),
        );
    }
}

/// Ok where `path` is a regular file or there is nothing there (the open that follows says
/// so); an error where it is anything else.
pub fn regular(path: &Path) -> io::Result<()> {
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "it is not a regular file",
        )),
        _ => Ok(()),
    }
}

/// The bytes of the regular file `path`.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    regular(path)?;
    fs::read(path)
}

/// The text of the regular file `path`.
pub fn read_to_string(path: &Path) -> io::Result<String> {
    regular(path)?;
    fs::read_to_string(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_directory_is_refused_and_a_missing_file_is_left_to_the_open() {
        let dir = std::env::temp_dir();
        let err = read(&dir).unwrap_err();
        assert!(err.to_string().contains("is not a regular file"), "{err}");
        let missing = dir.join("tictactoe-no-such-file");
        assert_eq!(regular(&missing).ok(), Some(()));
        assert_eq!(read(&missing).unwrap_err().kind(), io::ErrorKind::NotFound);
    }
}
