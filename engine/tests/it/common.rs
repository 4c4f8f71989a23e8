//! Drives the real `engine` binary over pipes, line by line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::thread;
use std::time::{Duration, Instant};

pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// Generous bound for "answers at once": CI machines are slow and shared.
pub const PROMPT: Duration = Duration::from_secs(5);

impl Engine {
    pub fn start() -> Engine {
        Engine::start_command(Command::new(env!("CARGO_BIN_EXE_engine")))
    }

    /// The engine with its address space limited to `kib` KiB (`ulimit -v`),
    /// so that a large allocation fails instead of succeeding lazily.
    pub fn start_with_memory_limit(kib: u64) -> Engine {
        let mut sh = Command::new("/bin/sh");
        sh.args([
            "-c",
            &format!("ulimit -v {kib} && exec \"$0\""),
            env!("CARGO_BIN_EXE_engine"),
        ]);
        Engine::start_command(sh)
    }

    pub fn start_command(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine binary starts");
        let stdin = child.stdin.take().expect("stdin piped");
        let stdout = child.stdout.take().expect("stdout piped");
        let (tx, lines) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
        }
    }

    pub fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("engine reads stdin");
        self.stdin.flush().expect("flush");
    }

    /// The next line, or `None` after `timeout`.
    pub fn next_line(&self, timeout: Duration) -> Option<String> {
        self.lines.recv_timeout(timeout).ok()
    }

    /// Lines up to and including the first one for which `done` holds.
    pub fn until(&self, timeout: Duration, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + timeout;
        let mut out = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.next_line(left) {
                Some(l) => {
                    let stop = done(&l);
                    out.push(l);
                    if stop {
                        return out;
                    }
                }
                None => panic!("timed out after {timeout:?}; got {out:?}"),
            }
        }
    }

    /// Every line that arrives within `quiet` (the engine has gone quiet).
    pub fn drain(&self, quiet: Duration) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(l) = self.next_line(quiet) {
            out.push(l);
        }
        out
    }

    pub fn handshake(&mut self) -> Vec<String> {
        self.send("umi");
        self.until(PROMPT, |l| l == "umiok")
    }

    /// Sends `go …` and returns the `bestmove` line and the time it took.
    pub fn go(&mut self, go: &str) -> (String, Duration) {
        let t = Instant::now();
        self.send(go);
        let lines = self.until(Duration::from_secs(60), |l| l.starts_with("bestmove"));
        (lines.last().cloned().unwrap_or_default(), t.elapsed())
    }

    pub fn is_alive(&mut self) -> bool {
        self.send("isready");
        self.until(PROMPT, |l| l == "readyok")
            .last()
            .map(String::as_str)
            == Some("readyok")
    }

    /// Sends quit and waits for a clean exit.
    pub fn quit(mut self) -> std::process::ExitStatus {
        self.send("quit");
        let deadline = Instant::now() + PROMPT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            assert!(Instant::now() < deadline, "engine did not exit after quit");
            thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of a `bestmove <m> [ponder <p>]` line.
pub fn best_of(line: &str) -> &str {
    line.split_whitespace().nth(1).unwrap_or("")
}
