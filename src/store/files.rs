//! Reading the profile's files, and opening the history to append to it, where anyone who can
//! write to the profile may have put something other than a file: opening a FIFO blocks until
//! a writer comes, for ever, and a device can be read without end. Only a regular file (or a
//! link to one) is opened; anything else is an error (the callers name the file).

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
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
/// so); an error where it is anything else. Only for a file that is then opened by another
/// program or created: a file this program reads or appends to is opened once, by [`open`],
/// so nothing can take its place between the look and the open.
pub fn regular(path: &Path) -> io::Result<()> {
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(not_regular()),
        _ => Ok(()),
    }
}

fn not_regular() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, "it is not a regular file")
}

/// `path` opened as `options` say, where it is a regular file (or a link to one): opened
/// without waiting (a FIFO opens at once rather than blocking until a writer comes) and then
/// checked through the open handle, so the file looked at is the file read.
pub fn open(options: &OpenOptions, path: &Path) -> io::Result<File> {
    let mut options = options.clone();
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

/// The bytes of the regular file `path`, at most `limit` of them: a file that holds more is
/// an error, however large the file system says it is (procfs says 0 for files without end).
pub fn read_at_most(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let mut file = open(OpenOptions::new().read(true), path)?;
    let mut bytes = Vec::new();
    // Whole chunks: some files of procfs take only reads of a multiple of 8 bytes.
    let mut chunk = [0; 8192];
    loop {
        let n = match file.read(&mut chunk) {
            Ok(0) => return Ok(bytes),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        bytes.extend_from_slice(&chunk[..n]);
        if bytes.len() as u64 > limit {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("it holds more than {limit} bytes"),
            ));
        }
    }
}

/// The bytes of the regular file `path`.
pub fn read(path: &Path) -> io::Result<Vec<u8>> {
    read_at_most(path, u64::MAX - 1)
}

/// The text of the regular file `path`.
pub fn read_to_string(path: &Path) -> io::Result<String> {
    String::from_utf8(read(path)?).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_opened_without_waiting_for_a_writer_and_refused() {
        let path = std::env::temp_dir().join(format!("tictactoe-fifo-{}", std::process::id()));
        let _ = fs::remove_file(&path);
        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::S_IRWXU).unwrap();
        // Without a writer, an open that waits would never return: the test would hang.
        let err = read_at_most(&path, 100).unwrap_err();
        let _ = fs::remove_file(&path);
        assert!(err.to_string().contains("is not a regular file"), "{err}");
    }

    #[test]
    fn a_file_longer_than_the_limit_is_refused_by_what_it_holds() {
        let path = std::env::temp_dir().join(format!("tictactoe-long-{}", std::process::id()));
        fs::write(&path, [b'x'; 101]).unwrap();
        let err = read_at_most(&path, 100).unwrap_err();
        assert_eq!(read_at_most(&path, 101).unwrap().len(), 101);
        let _ = fs::remove_file(&path);
        assert!(err.to_string().contains("more than 100 bytes"), "{err}");
    }

    #[test]
    fn a_directory_is_refused_and_a_missing_file_is_left_to_the_open() {
        let dir = std::env::temp_dir();
        let err = read(&dir).unwrap_err();
        assert!(err.to_string().contains("is not a regular file"), "{err}");
        let missing = dir.join("tictactoe-no-such-file");
        assert_eq!(regular(&missing).ok(), Some(()));
        assert_eq!(
            open(OpenOptions::new().read(true), &missing)
                .unwrap_err()
                .kind(),
            io::ErrorKind::NotFound
        );
        assert_eq!(read(&missing).unwrap_err().kind(), io::ErrorKind::NotFound);
    }
}
