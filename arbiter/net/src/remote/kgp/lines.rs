//! Lines off a byte stream with a length cap: an overlong line is skipped to
//! its end (and reported with its length) without being kept in memory.
//! Cancel-safe: what was read of a line stays in the reader when a
//! `select!` drops the future, so no byte is lost.

use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// One read.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    Text(String),
    /// A line longer than the limit (not kept).
    TooLong {
        bytes: usize,
    },
    /// A line that is not UTF-8.
    NotUtf8,
}

pub struct Lines<R> {
    inner: R,
    limit: usize,
    buf: Vec<u8>,
    /// Bytes of an overlong line seen so far (it is being skipped).
    skipped: usize,
}

impl<R: AsyncBufRead + Unpin> Lines<R> {
    pub fn new(inner: R, limit: usize) -> Lines<R> {
        Lines {
            inner,
            limit,
            buf: Vec::new(),
            skipped: 0,
        }
    }

    /// The next line without its `\n` (or `\r\n`); `None` at end of input
    /// (a last line without a line break counts as a line).
    pub async fn next(&mut self) -> std::io::Result<Option<Line>> {
        loop {
            let available = self.inner.fill_buf().await?;
            if available.is_empty() {
                if self.buf.is_empty() && self.skipped == 0 {
                    return Ok(None);
                }
                return Ok(Some(self.finish()));
            }
            let (chunk, found) = match available.iter().position(|&b| b == b'\n') {
                Some(i) => (&available[..i], Some(i + 1)),
                None => (available, None),
            };
            if self.skipped > 0 || self.buf.len() + chunk.len() > self.limit {
                self.skipped += self.buf.len() + chunk.len();
                self.buf.clear();
            } else {
                self.buf.extend_from_slice(chunk);
            }
            let used = found.unwrap_or(available.len());
            self.inner.consume(used);
            if found.is_some() {
                return Ok(Some(self.finish()));
            }
        }
    }

    fn finish(&mut self) -> Line {
        if self.skipped > 0 {
            let bytes = std::mem::take(&mut self.skipped);
            self.buf.clear();
            return Line::TooLong { bytes };
        }
        let mut bytes = std::mem::take(&mut self.buf);
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        match String::from_utf8(bytes) {
            Ok(s) => Line::Text(s),
            Err(_) => Line::NotUtf8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn splits_lines_and_skips_overlong_ones_whole() {
        let input: &[u8] = b"kgp 1 0 0\r\nxxxxxxxxxxxxxxxxxxxx\nmove 1\n\xff\nlast";
        // A one-byte buffer: every line spans many reads.
        let reader = tokio::io::BufReader::with_capacity(1, input);
        let mut lines = Lines::new(reader, 10);
        assert_eq!(
            lines.next().await.unwrap(),
            Some(Line::Text("kgp 1 0 0".into()))
        );
        assert_eq!(
            lines.next().await.unwrap(),
            Some(Line::TooLong { bytes: 20 })
        );
        assert_eq!(
            lines.next().await.unwrap(),
            Some(Line::Text("move 1".into()))
        );
        assert_eq!(lines.next().await.unwrap(), Some(Line::NotUtf8));
        assert_eq!(lines.next().await.unwrap(), Some(Line::Text("last".into())));
        assert_eq!(lines.next().await.unwrap(), None);
    }
}
