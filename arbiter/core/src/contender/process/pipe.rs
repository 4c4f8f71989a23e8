//! The engine's stdout as lines: the [`LineReader`] (a length cap, bounded
//! memory, cancel-safe) and a look at whether the pipe holds input now.

use std::os::fd::AsRawFd;

use tokio::io::{AsyncRead, AsyncReadExt};

use super::ReadError;

/// Bytes asked of the pipe per read.
pub(super) const READ_CHUNK: usize = 8 * 1024;

/// Whether the kernel holds input (or end of input) on `pipe` right now.
pub(super) fn pipe_has_input(pipe: &impl AsRawFd) -> bool {
    let mut poll = libc::pollfd {
        fd: pipe.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: poll reads and writes the one pollfd we pass, which lives across
    // the call; a zero timeout never blocks.
    let ready = unsafe { libc::poll(&mut poll, 1, 0) };
    ready > 0 && poll.revents & (libc::POLLIN | libc::POLLHUP | libc::POLLERR) != 0
}

/// Reads `\n`-terminated lines with a length cap, in bounded memory.
///
/// `\r\n` is accepted as a line end. A line longer than the cap is reported as
/// [`ReadError::LineTooLong`] as soon as the cap is passed (not when its end
/// finally arrives), and the reads after that skip the rest of it without
/// keeping it, so even an endless line costs at most about `max + 8 KiB`.
/// [`LineReader::next_line`] is cancel-safe: dropping it (e.g. on a deadline)
/// loses no data.
#[derive(Debug)]
pub struct LineReader<R> {
    pub(super) inner: R,
    /// Bytes received and not yet returned.
    buf: Vec<u8>,
    /// `buf[..scanned]` is known to hold no `\n`.
    scanned: usize,
    max: usize,
    /// Inside an over-long line already reported: drop bytes up to its `\n`.
    skipping: bool,
    pub(super) eof: bool,
}

impl<R: AsyncRead + Unpin> LineReader<R> {
    pub fn new(inner: R, max_line_len: usize) -> LineReader<R> {
        LineReader {
            inner,
            buf: Vec::new(),
            scanned: 0,
            max: max_line_len,
            skipping: false,
            eof: false,
        }
    }

    /// The next line, without its `\n` or `\r\n`.
    pub async fn next_line(&mut self) -> Result<String, ReadError> {
        loop {
            if let Some(result) = self.take_buffered() {
                return result;
            }
            if self.eof {
                self.buf.clear();
                self.scanned = 0;
                return Err(ReadError::Eof);
            }
            // why: `read_buf` either appends what it read or (when cancelled)
            // nothing, which is what makes this loop cancel-safe.
            self.fill().await?;
        }
    }

    /// One read from the pipe into the buffer (end of input sets `eof`).
    pub(super) async fn fill(&mut self) -> Result<(), ReadError> {
        self.buf.reserve(READ_CHUNK);
        let n = self
            .inner
            .read_buf(&mut self.buf)
            .await
            .map_err(ReadError::Io)?;
        if n == 0 {
            self.eof = true;
        }
        Ok(())
    }

    /// A result from what is already buffered, or `None` if more input is needed.
    pub(super) fn take_buffered(&mut self) -> Option<Result<String, ReadError>> {
        let newline = self.buf[self.scanned..]
            .iter()
            .position(|&b| b == b'\n')
            .map(|i| i + self.scanned);
        if self.skipping {
            match newline {
                Some(end) => {
                    self.buf.drain(..=end);
                    self.scanned = 0;
                    self.skipping = false;
                }
                None => {
                    self.buf.clear();
                    self.scanned = 0;
                    return None;
                }
            }
            return self.take_buffered();
        }
        let Some(end) = newline else {
            self.scanned = self.buf.len();
            // why `+ 1`: the last byte may be the `\r` of a `\r\n` still arriving.
            if self.buf.len() > self.max + 1 {
                let bytes = self.buf.len();
                self.buf.clear();
                self.scanned = 0;
                self.skipping = true;
                return Some(Err(ReadError::LineTooLong {
                    bytes,
                    limit: self.max,
                }));
            }
            return None;
        };
        let mut line: Vec<u8> = self.buf.drain(..=end).collect();
        self.scanned = 0;
        line.pop();
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.len() > self.max {
            return Some(Err(ReadError::LineTooLong {
                bytes: line.len(),
                limit: self.max,
            }));
        }
        Some(String::from_utf8(line).map_err(|e| ReadError::InvalidUtf8 {
            lossy: String::from_utf8_lossy(e.as_bytes()).into_owned(),
        }))
    }

    /// Bytes of buffer currently allocated (for tests of the memory bound).
    pub fn buffer_capacity(&self) -> usize {
        self.buf.capacity()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io;
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use std::time::Duration;
    use tokio::io::ReadBuf;
    use tokio::time::timeout;

    async fn lines(input: &[u8], max: usize) -> Vec<Result<String, String>> {
        let mut reader = LineReader::new(input, max);
        let mut out = Vec::new();
        loop {
            match reader.next_line().await {
                Err(ReadError::Eof) => return out,
                Ok(line) => out.push(Ok(line)),
                Err(e) => out.push(Err(e.to_string())),
            }
        }
    }

    #[tokio::test]
    async fn splits_lines_and_accepts_crlf() {
        let got = lines(b"umi\r\nid name x\n\nreadyok\npartial", 100).await;
        assert_eq!(
            got,
            vec![
                Ok("umi".into()),
                Ok("id name x".into()),
                Ok(String::new()),
                Ok("readyok".into())
            ]
        );
    }

    #[tokio::test]
    async fn too_long_line_is_reported_and_skipped() {
        let mut input = b"ok1\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 10_000));
        input.extend_from_slice(b"\nok2\n12345\n123456\n");
        let got = lines(&input, 5).await;
        assert_eq!(got.len(), 5, "{got:?}");
        assert_eq!(got[0], Ok("ok1".into()));
        assert!(
            got[1].as_ref().is_err_and(|e| e.contains("too long")),
            "{got:?}"
        );
        assert_eq!(got[2], Ok("ok2".into()));
        assert_eq!(got[3], Ok("12345".into()));
        assert!(
            got[4].as_ref().is_err_and(|e| e.contains("too long")),
            "{got:?}"
        );
    }

    #[tokio::test]
    async fn invalid_utf8_is_reported_lossily() {
        let mut reader = LineReader::new(&b"a\xffb\nnext\n"[..], 100);
        match reader.next_line().await {
            Err(ReadError::InvalidUtf8 { lossy }) => assert_eq!(lossy, "a\u{fffd}b"),
            other => panic!("expected InvalidUtf8, got {other:?}"),
        }
        assert_eq!(reader.next_line().await.ok(), Some("next".to_string()));
    }

    /// An endless stream of `x` (no newline ever), counting what was read.
    struct Endless {
        served: usize,
        pause: bool,
    }

    impl AsyncRead for Endless {
        fn poll_read(
            mut self: Pin<&mut Self>,
            cx: &mut Context<'_>,
            buf: &mut ReadBuf<'_>,
        ) -> Poll<io::Result<()>> {
            // why: yield every other read, as a real pipe does, so timers can fire.
            self.pause = !self.pause;
            if self.pause {
                cx.waker().wake_by_ref();
                return Poll::Pending;
            }
            let n = buf.remaining();
            buf.put_slice(&vec![b'x'; n]);
            self.served += n;
            Poll::Ready(Ok(()))
        }
    }

    #[tokio::test]
    async fn endless_line_uses_bounded_memory() {
        let mut reader = LineReader::new(
            Endless {
                served: 0,
                pause: false,
            },
            1024,
        );
        assert!(matches!(
            reader.next_line().await,
            Err(ReadError::LineTooLong { limit: 1024, .. })
        ));
        // The next read skips the rest of the endless line until the deadline.
        let skipping = timeout(Duration::from_millis(50), reader.next_line()).await;
        assert!(skipping.is_err(), "an endless line never yields a line");
        assert!(
            reader.inner.served > 1_000_000,
            "the test read too little: {}",
            reader.inner.served
        );
        assert!(
            reader.buffer_capacity() <= 4 * (1024 + READ_CHUNK),
            "buffer grew to {}",
            reader.buffer_capacity()
        );
    }
}
