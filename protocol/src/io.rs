//! Line I/O with a length limit, shared by engines and the arbiter.
//!
//! Both sides promise never to send a line longer than [`MAX_LINE_BYTES`]
//! (without its `\n`), and both may discard longer lines unread. The limit is
//! generous because `position` lines carry every move of the game from its
//! start (a long Kujifunza game of 10,000 moves at 6 bytes a move is 60 KB).

use std::io::{self, BufRead, Write};

/// The longest line either side sends or must accept, in bytes, excluding
/// the terminating `\n`: 1 MiB.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One result of [`LineReader::read_line`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ReadLine {
    /// A complete line, without its `\n` (and without a `\r` before it).
    Line(String),
    /// A line longer than the limit; it was consumed and discarded.
    TooLong,
    /// A line that is not UTF-8; it was consumed and discarded.
    InvalidUtf8,
    /// The stream is closed (a final line without `\n` is returned as a
    /// `Line` first).
    Eof,
}

/// Reads `\n`-terminated lines of at most `limit` bytes from a [`BufRead`],
/// never buffering more than the limit however long the input line is.
pub struct LineReader<R> {
    inner: R,
    limit: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader with the protocol's limit, [`MAX_LINE_BYTES`].
    pub fn new(inner: R) -> Self {
        Self::with_limit(inner, MAX_LINE_BYTES)
    }

    pub fn with_limit(inner: R, limit: usize) -> Self {
        LineReader {
            inner,
            limit,
            buf: Vec::new(),
        }
    }

    /// Reads the next line. I/O errors are passed on; everything the peer can
    /// send is reported as a [`ReadLine`] value.
    pub fn read_line(&mut self) -> io::Result<ReadLine> {
        self.buf.clear();
        let mut too_long = false;
        let mut saw_any = false;
        loop {
            let available = match self.inner.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if available.is_empty() {
                if !saw_any {
                    return Ok(ReadLine::Eof);
                }
                break;
            }
            saw_any = true;
            let (chunk, found_newline) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], true),
                None => (available, false),
            };
            if !too_long {
                if self.buf.len() + chunk.len() > self.limit {
                    too_long = true;
                    self.buf.clear();
                } else {
                    self.buf.extend_from_slice(chunk);
                }
            }
            let used = chunk.len() + usize::from(found_newline);
            self.inner.consume(used);
            if found_newline {
                break;
            }
        }
        if too_long {
            return Ok(ReadLine::TooLong);
        }
        if self.buf.last() == Some(&b'\r') {
            self.buf.pop();
        }
        match String::from_utf8(std::mem::take(&mut self.buf)) {
            Ok(line) => Ok(ReadLine::Line(line)),
            Err(_) => Ok(ReadLine::InvalidUtf8),
        }
    }

    pub fn into_inner(self) -> R {
        self.inner
    }
}

/// Writes `item` as one line (`item` then `\n`) and flushes, as the protocol
/// demands after every line.
pub fn write_line<W: Write + ?Sized>(out: &mut W, item: &dyn std::fmt::Display) -> io::Result<()> {
    // why: one write call per line, so that lines from several threads
    // sharing a locked stdout never interleave mid-line.
    let line = format!("{item}\n");
    out.write_all(line.as_bytes())?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], limit: usize) -> Vec<ReadLine> {
        let mut r = LineReader::with_limit(io::BufReader::with_capacity(3, input), limit);
        let mut out = Vec::new();
        loop {
            let l = r.read_line().unwrap();
            let end = l == ReadLine::Eof;
            out.push(l);
            if end {
                return out;
            }
        }
    }

    fn line(s: &str) -> ReadLine {
        ReadLine::Line(s.to_owned())
    }

    #[test]
    fn splits_lines_and_enforces_the_limit() {
        assert_eq!(
            lines(b"umi\r\nisready\n\nabcdefghij\nlast", 8),
            vec![
                line("umi"),
                line("isready"),
                line(""),
                ReadLine::TooLong,
                line("last"),
                ReadLine::Eof
            ]
        );
        assert_eq!(
            lines(b"12345678\n", 8),
            vec![line("12345678"), ReadLine::Eof]
        );
        assert_eq!(
            lines(b"\xff\xfe\nok\n", 8),
            vec![ReadLine::InvalidUtf8, line("ok"), ReadLine::Eof]
        );
        assert_eq!(lines(b"", 8), vec![ReadLine::Eof]);
    }

    #[test]
    fn write_line_appends_newline() {
        let mut out = Vec::new();
        write_line(&mut out, &"readyok").unwrap();
        assert_eq!(out, b"readyok\n");
    }
}
