//! Lines of text from a person or a pipe, read with a cap on their length.
//!
//! A line longer than [`MAX_LINE`] is read to its end but only its start is kept, so a line
//! of any length (or a stream with no newline at all) takes a bounded amount of memory, and
//! the message about it quotes only its first few dozen characters.

use std::io::{self, BufRead};

/// The longest line taken, in bytes, not counting its end (`\n` or `\r\n`). Every command
/// and every board is far shorter.
pub const MAX_LINE: usize = 1024;

/// How many characters of a refused line its message quotes.
const QUOTED: usize = 32;

/// Reads one line into `buf` like [`BufRead::read_until`] with `b'\n'`, but keeps at most
/// the first `MAX_LINE + 2` bytes (the rest of the line is read and dropped); returns the
/// number of bytes read, 0 at the end of the input. [`too_long`] tells whether the line was
/// cut.
pub fn read_line(input: &mut dyn BufRead, buf: &mut Vec<u8>) -> io::Result<usize> {
    let mut read = 0;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            return Ok(read);
        }
        let end = chunk.iter().position(|&b| b == b'\n');
        let used = end.map_or(chunk.len(), |i| i + 1);
        let room = (MAX_LINE + 2).saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..used.min(room)]);
        input.consume(used);
        read += used;
        if end.is_some() {
            return Ok(read);
        }
    }
}

/// Whether the line [`read_line`] left in `buf` is longer than [`MAX_LINE`].
pub fn too_long(buf: &[u8]) -> bool {
    let text = match buf.strip_suffix(b"\n") {
        Some(line) => line.strip_suffix(b"\r").unwrap_or(line),
        None => buf,
    };
    text.len() > MAX_LINE
}

/// Why a line that is [`too_long`] is refused, quoting its start (escaped, so control
/// characters in it do nothing): `over 1024 bytes long (it starts "xxxx…")`.
pub fn why_too_long(buf: &[u8]) -> String {
    format!("over {MAX_LINE} bytes long (it starts {})", quote(buf))
}

/// The start of a refused line, escaped and quoted, with `…` for the rest.
pub fn quote(buf: &[u8]) -> String {
    format!("{:?}", start(buf))
}

/// The first few dozen characters of a refused line as they are, with `…` for the rest.
pub fn start(buf: &[u8]) -> String {
    let text = String::from_utf8_lossy(&buf[..buf.len().min(4 * QUOTED)]);
    let mut start: String = text.chars().take(QUOTED).collect();
    start.push('…');
    start
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<(usize, Vec<u8>)> {
        // A small buffer, so lines span many reads.
        let mut input = io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            let mut buf = Vec::new();
            match read_line(&mut input, &mut buf).unwrap() {
                0 => return out,
                n => out.push((n, buf)),
            }
        }
    }

    #[test]
    fn short_lines_read_like_read_until() {
        assert_eq!(
            lines(b"5\n\nq\r\nend"),
            [
                (2, b"5\n".to_vec()),
                (1, b"\n".to_vec()),
                (3, b"q\r\n".to_vec()),
                (3, b"end".to_vec()),
            ]
        );
    }

    #[test]
    fn a_long_line_keeps_only_its_start_and_the_next_line_is_whole() {
        let mut input = vec![b'x'; 100_000];
        input.extend_from_slice(b"\n5\n");
        let read = lines(&input);
        assert_eq!(read.len(), 2);
        assert_eq!(read[0].0, 100_001);
        assert_eq!(read[0].1.len(), MAX_LINE + 2);
        assert!(too_long(&read[0].1));
        assert_eq!(read[1], (2, b"5\n".to_vec()));
        assert!(!too_long(&read[1].1));
    }

    #[test]
    fn the_cap_counts_the_text_not_the_line_end() {
        for (len, end, long) in [
            (MAX_LINE, &b"\n"[..], false),
            (MAX_LINE, b"\r\n", false),
            (MAX_LINE, b"", false),
            (MAX_LINE + 1, b"\n", true),
            (MAX_LINE + 1, b"\r\n", true),
            (MAX_LINE + 1, b"", true),
        ] {
            let mut input = vec![b'a'; len];
            input.extend_from_slice(end);
            let read = lines(&input);
            assert_eq!(too_long(&read[0].1), long, "{len} bytes and {end:?}");
        }
    }

    #[test]
    fn the_message_quotes_a_few_escaped_characters() {
        let mut line = "\u{202e}\x1b[2J".to_string();
        line.push_str(&"é".repeat(2000));
        let why = why_too_long(line.as_bytes());
        assert!(why.starts_with("over 1024 bytes long (it starts \"\\u{202e}\\u{1b}[2Jéé"));
        assert!(why.ends_with("é…\")"), "{why}");
        assert!(!why.contains(['\u{202e}', '\x1b']), "{why}");
        assert_eq!(why.matches('é').count(), 32 - 5, "{why}");
    }
}
