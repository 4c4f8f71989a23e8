//! `testbot`: a deliberately minimal — and, depending on `--mode`, deliberately
//! misbehaving — UMI engine for the arbiter's tests.
//!
//! ```text
//! testbot --mode <mode> [--seed N] [--delay-ms N] [--count N] [--line-bytes N]
//!         [--games ID,ID…] [--max-starts N --state FILE]
//! ```
//!
//! `--games` replaces the `games` line (default: every game). `--max-starts N`
//! with `--state FILE` counts starts in FILE: from the (N+1)-th start on, the
//! bot behaves as `no-umiok` (an engine that works at first, then hangs when
//! restarted).
//!
//! It understands just enough of the protocol, by line prefix:
//! `umi` → `id name testbot-<mode>`, `id author tests`, `games …`, `umiok`;
//! `isready` → `readyok`; `newgame <id>` selects the game for `position startpos`;
//! `position startpos [moves …]` / `position pos <position string> [moves …]` is
//! tracked with the rules library; `go …` → `bestmove <move>`; `stop` answers a
//! pending search at once (except in `ignore-stop`); `quit` or end of input → exit 0.
//! Anything else is ignored. Every line written is flushed at once, except in
//! `instant` and `random`: there, as in a single-threaded engine with buffered
//! output, the replies to lines that arrived together (`isready`, `position`,
//! `go` in one write) go out together in one write, once no further complete
//! line is waiting — so a benchmark's engine is woken once a move, not twice.
//!
//! Modes (`N` is `--count`, default 3):
//!
//! | mode          | behaviour                                                             |
//! |---------------|-----------------------------------------------------------------------|
//! | `instant`     | answers every `go` at once with the first legal move                  |
//! | `random`      | uniformly random legal move, seeded by `--seed` (default 1)            |
//! | `illegal`     | always `bestmove 99`                                                   |
//! | `garbage`     | answers `go` with 1–3 lines of ASCII junk (never a protocol word, always starting with a symbol) and no bestmove |
//! | `silent`      | never answers `go` (still answers `umi`/`isready`)                    |
//! | `crash-mid`   | legal moves for N `go`s, then `abort()` on the next one (no core file) |
//! | `crash-start` | exits with code 1 before reading anything                             |
//! | `no-umiok`    | never answers `umi`                                                   |
//! | `ignore-stop` | `go infinite`: never answers, even after `stop`; other `go`s: answers after `movetime` (if given) plus `--delay-ms` (default 1000) |
//! | `stderr-flood`| 1 MiB to stderr at start and before every reply, while playing legal moves |
//! | `huge-line`   | a line of `--line-bytes` (default 1 MiB) `x`s instead of bestmove; `--line-bytes 0`: an endless line (no newline ever) |
//! | `exit-early`  | exits 0 right after its N-th bestmove                                 |
//! | `fork-child`  | starts a `sleep 1000` grandchild at once and prints `info string child <pid>` as its first line, then plays legal moves |
//! | `slow`        | answers `go` after `--delay-ms` (default 1000); `stop` answers at once |
//! | `double-bestmove` | answers every `go` with two `bestmove` lines, written at once   |
//! | `bestmove-twice` | answers every `go` with `bestmove`, then the same line again in a second write, a random 0 to `--delay-ms` (default here 1000, in µs steps) later, before it reads on |
//! | `quit-code-3` | plays legal moves; exits with code 3 on `quit`                       |
//! | `late-bestmove` | answers every `go` at once, then the same `bestmove` again `--delay-ms` later |
//! | `bestmove-after-readyok` | answers `isready` with `readyok` and a `bestmove` (one write); plays legal moves |
//! | `bad-utf8`    | answers `go` with a `bestmove` line that is not UTF-8                 |
//! | `exit-after-gameover` | plays legal moves; exits 0 on `gameover`                      |
//! | `no-readyok`  | never answers `isready` (answers `umi`)                               |
//! | `stubborn`    | starts a `sleep 1000` grandchild in its group, plays legal moves, ignores `quit`, end of input, SIGTERM and SIGHUP |
//! | `setsid-child`| starts a `sleep 1000` grandchild in a new session (out of its group) and prints `info string child <pid>`, then plays legal moves |
//! | `crash-behind-child` | starts a `sleep 1000` grandchild that shares its stdout, then plays like `crash-mid` |
//! | `ponder-early` | declares `Ponder`; answers `bestmove <first> ponder <first reply>`, and `go ponder` at once with two `bestmove` lines (one write) |
//! | `ponder-deaf` | declares `Ponder`; answers `bestmove <first> ponder <last reply>`; a `go ponder` is answered on `ponderhit` only: `stop` is ignored |
//! | `ponder-illegal` | declares `Ponder`; answers `bestmove <first> ponder 99` (a move that is never legal) |
//! | `ponder-twice` | declares `Ponder`; answers `go` with `bestmove <first> ponder <first reply>`, and `go ponder` on `ponderhit` or `stop`; every `bestmove` twice, as `bestmove-twice` |
//!
//! With no position (or one the rules library rejected, reported as
//! `info string error …`), or with no legal move, the answer is `bestmove none`.

use std::io::{self, BufRead, BufReader, Write};
use std::process::{self, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::thread;
use std::time::{Duration, Instant};

use mancala_rules::{game_from_position, new_game, AnyGame, GameId};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Mode {
    Instant,
    Random,
    Illegal,
    Garbage,
    Silent,
    CrashMid,
    CrashStart,
    NoUmiok,
    IgnoreStop,
    StderrFlood,
    HugeLine,
    ExitEarly,
    ForkChild,
    Slow,
    DoubleBestmove,
    BestmoveTwice,
    LateBestmove,
    QuitCode3,
    BestmoveAfterReadyok,
    BadUtf8,
    CrashBehindChild,
    ExitAfterGameover,
    NoReadyok,
    Stubborn,
    SetsidChild,
    PonderEarly,
    PonderDeaf,
    PonderIllegal,
    PonderTwice,
}

impl Mode {
    fn ponders(self) -> bool {
        matches!(
            self,
            Mode::PonderEarly | Mode::PonderDeaf | Mode::PonderIllegal | Mode::PonderTwice
        )
    }
}

const MODES: [(&str, Mode); 29] = [
    ("instant", Mode::Instant),
    ("random", Mode::Random),
    ("illegal", Mode::Illegal),
    ("garbage", Mode::Garbage),
    ("silent", Mode::Silent),
    ("crash-mid", Mode::CrashMid),
    ("crash-start", Mode::CrashStart),
    ("no-umiok", Mode::NoUmiok),
    ("ignore-stop", Mode::IgnoreStop),
    ("stderr-flood", Mode::StderrFlood),
    ("huge-line", Mode::HugeLine),
    ("exit-early", Mode::ExitEarly),
    ("fork-child", Mode::ForkChild),
    ("slow", Mode::Slow),
    ("double-bestmove", Mode::DoubleBestmove),
    ("bestmove-twice", Mode::BestmoveTwice),
    ("late-bestmove", Mode::LateBestmove),
    ("quit-code-3", Mode::QuitCode3),
    ("bestmove-after-readyok", Mode::BestmoveAfterReadyok),
    ("bad-utf8", Mode::BadUtf8),
    ("crash-behind-child", Mode::CrashBehindChild),
    ("exit-after-gameover", Mode::ExitAfterGameover),
    ("no-readyok", Mode::NoReadyok),
    ("stubborn", Mode::Stubborn),
    ("setsid-child", Mode::SetsidChild),
    ("ponder-early", Mode::PonderEarly),
    ("ponder-deaf", Mode::PonderDeaf),
    ("ponder-illegal", Mode::PonderIllegal),
    ("ponder-twice", Mode::PonderTwice),
];

struct Options {
    mode: Mode,
    mode_name: String,
    seed: u64,
    delay: Duration,
    count: u32,
    line_bytes: usize,
    games: String,
    max_starts: Option<u64>,
    state: Option<String>,
}

fn usage(problem: &str) -> ! {
    let names: Vec<&str> = MODES.iter().map(|(name, _)| *name).collect();
    eprintln!(
        "testbot: {problem}\nusage: testbot --mode <{}> [--seed N] [--delay-ms N] [--count N] [--line-bytes N] [--games ID,ID…] [--max-starts N --state FILE]",
        names.join("|")
    );
    process::exit(2);
}

fn parse_options() -> Options {
    let mut mode = None;
    let mut opts = Options {
        mode: Mode::Instant,
        mode_name: String::new(),
        seed: 1,
        delay: Duration::from_millis(1000),
        count: 3,
        line_bytes: 1 << 20,
        games: "bohnenspiel bohnenspiel-hemprich bosh kimasai kujifunza kalah kalah-6x6 oware"
            .to_string(),
        max_starts: None,
        state: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let Some(value) = args.next() else {
            usage(&format!("{flag} needs a value"))
        };
        let number = || -> u64 {
            value
                .parse()
                .unwrap_or_else(|_| usage(&format!("{flag} {value}: not a number")))
        };
        match flag.as_str() {
            "--mode" => {
                let found = MODES.iter().find(|(name, _)| *name == value);
                let Some((_, m)) = found else {
                    usage(&format!("unknown mode {value:?}"))
                };
                mode = Some(*m);
                opts.mode_name = value.clone();
            }
            "--seed" => opts.seed = number(),
            "--delay-ms" => opts.delay = Duration::from_millis(number()),
            "--count" => opts.count = u32::try_from(number()).unwrap_or(u32::MAX),
            "--line-bytes" => opts.line_bytes = usize::try_from(number()).unwrap_or(usize::MAX),
            "--games" => opts.games = value.replace(',', " "),
            "--max-starts" => opts.max_starts = Some(number()),
            "--state" => opts.state = Some(value.clone()),
            _ => usage(&format!("unknown option {flag:?}")),
        }
    }
    opts.mode = mode.unwrap_or_else(|| usage("--mode is required"));
    if let (Some(max), Some(state)) = (opts.max_starts, &opts.state) {
        let starts: u64 = std::fs::read_to_string(state)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(0);
        if std::fs::write(state, (starts + 1).to_string()).is_err() {
            usage(&format!("cannot write --state {state}"));
        }
        if starts >= max {
            opts.mode = Mode::NoUmiok;
        }
    }
    opts
}

/// Whether output is held back while more input is waiting (`instant`,
/// `random`: [`serve_at_once`]).
static HOLDING: AtomicBool = AtomicBool::new(false);
/// The output held back, sent by [`release_held`].
static HELD: Mutex<Vec<u8>> = Mutex::new(Vec::new());

/// Writes one line to stdout and flushes; a closed stdout means the arbiter is
/// gone, so there is nobody left to talk to.
fn say(line: &str) {
    say_at_once(format!("{line}\n").as_bytes());
}

/// Writes `text` (lines, each ending in `\n`) in one write and flushes: the
/// arbiter receives the lines together. While output is held, it is added
/// to what goes out next.
fn say_at_once(text: &[u8]) {
    if HOLDING.load(Ordering::Relaxed) {
        HELD.lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(text);
        return;
    }
    write_out(text);
}

fn write_out(text: &[u8]) {
    let mut out = io::stdout().lock();
    if out.write_all(text).and_then(|()| out.flush()).is_err() {
        process::exit(0);
    }
}

/// Sends the output held back, in one write.
fn release_held() {
    let text = std::mem::take(&mut *HELD.lock().unwrap_or_else(|e| e.into_inner()));
    if !text.is_empty() {
        write_out(&text);
    }
}

/// Exits with `code`, after sending any output held back.
fn exit(code: i32) -> ! {
    release_held();
    process::exit(code)
}

/// SplitMix64: tiny, seedable, good enough to pick moves.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (multiply-shift; the bias is far below anything a test sees).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next()) * n as u128) >> 64) as usize
    }
}

fn flood_stderr() {
    let chunk = [b'e'; 1023];
    let mut err = io::stderr().lock();
    for _ in 0..1024 {
        // why: ignore errors — a closed stderr must not stop the bot from playing.
        let _ = err.write_all(&chunk).and_then(|()| err.write_all(b"\n"));
    }
    let _ = err.flush();
}

struct Bot {
    opts: Options,
    rng: Rng,
    game_id: Option<GameId>,
    game: Option<Box<dyn AnyGame>>,
    answered: u32,
    /// A reply scheduled for later (`slow`, `ignore-stop`), and when to send it.
    pending: Option<(Instant, String)>,
    /// The answer of a `go ponder`, kept for `ponderhit` (`ponder-deaf`).
    pondering: Option<String>,
}

impl Bot {
    fn new(opts: Options) -> Bot {
        let seed = opts.seed;
        Bot {
            opts,
            rng: Rng(seed),
            game_id: None,
            game: None,
            answered: 0,
            pending: None,
            pondering: None,
        }
    }

    fn reply(&self, line: &str) {
        if self.opts.mode == Mode::StderrFlood {
            flood_stderr();
        }
        say(line);
    }

    fn handle(&mut self, line: &str) {
        let line = line.trim();
        let (command, rest) = line.split_once(' ').unwrap_or((line, ""));
        match command {
            "umi" if self.opts.mode != Mode::NoUmiok => {
                say(&format!("id name testbot-{}", self.opts.mode_name));
                say("id author tests");
                say(&format!("games {}", self.opts.games));
                if self.opts.mode.ponders() {
                    say("option name Ponder type check default false");
                }
                self.reply("umiok");
            }
            "isready" if self.opts.mode == Mode::BestmoveAfterReadyok => {
                let answer = self.chosen_move();
                say_at_once(format!("readyok\nbestmove {answer}\n").as_bytes());
            }
            "isready" if self.opts.mode == Mode::NoReadyok => {}
            "isready" => self.reply("readyok"),
            "gameover" if self.opts.mode == Mode::ExitAfterGameover => exit(0),
            "newgame" => {
                self.game = None;
                match rest.trim().parse::<GameId>() {
                    Ok(id) => self.game_id = Some(id),
                    Err(e) => say(&format!("info string error {e}")),
                }
            }
            "position" => self.set_position(rest),
            "go" if self.opts.mode.ponders() => self.go_ponderer(rest),
            "go" => self.go(rest),
            "ponderhit" if self.opts.mode == Mode::PonderTwice => {
                if let Some(answer) = self.pondering.take() {
                    self.answer_twice(&answer);
                }
            }
            "ponderhit" => {
                if let Some(answer) = self.pondering.take() {
                    self.finish_go(&answer);
                }
            }
            "stop" if self.opts.mode == Mode::PonderDeaf => {}
            "stop" if self.opts.mode == Mode::PonderTwice => {
                if let Some(answer) = self.pondering.take() {
                    self.answer_twice(&answer);
                }
            }
            "stop" if self.opts.mode != Mode::IgnoreStop => {
                if let Some((_, answer)) = self.pending.take() {
                    self.finish_go(&answer);
                }
            }
            "quit" if self.opts.mode == Mode::Stubborn => {}
            "quit" if self.opts.mode == Mode::QuitCode3 => exit(3),
            "quit" => exit(0),
            _ => {}
        }
    }

    fn set_position(&mut self, rest: &str) {
        self.game = None;
        let mut words = rest.split_whitespace();
        let head: Vec<&str> = words.by_ref().take_while(|w| *w != "moves").collect();
        let moves: Vec<&str> = words.collect();
        let start = match head.split_first() {
            Some((&"startpos", [])) => match self.game_id {
                Some(id) => Ok(new_game(id)),
                None => Err("position startpos before any newgame <id>".to_string()),
            },
            Some((&"pos", fields)) => {
                game_from_position(&fields.join(" ")).map_err(|e| e.to_string())
            }
            _ => Err(format!("cannot read position {rest:?}")),
        };
        let mut game = match start {
            Ok(game) => game,
            Err(e) => return say(&format!("info string error {e}")),
        };
        for mv in moves {
            if let Err(e) = game.play(mv) {
                return say(&format!("info string error move {mv}: {e}"));
            }
        }
        self.game = Some(game);
    }

    fn chosen_move(&mut self) -> String {
        let legal = self
            .game
            .as_ref()
            .map(|g| g.legal_moves())
            .unwrap_or_default();
        if legal.is_empty() {
            return "none".to_string();
        }
        let index = if self.opts.mode == Mode::Random {
            self.rng.below(legal.len())
        } else {
            0
        };
        legal[index].clone()
    }

    fn go(&mut self, params: &str) {
        match self.opts.mode {
            Mode::Illegal => self.finish_go("99"),
            Mode::Silent => {}
            Mode::Garbage => {
                for _ in 0..=self.rng.below(3) {
                    let junk = self.junk_line();
                    say(&junk);
                }
            }
            Mode::HugeLine => huge_line(self.opts.line_bytes),
            Mode::CrashMid | Mode::CrashBehindChild if self.answered >= self.opts.count => {
                process::abort()
            }
            Mode::DoubleBestmove => {
                // One write, so both lines reach the arbiter together.
                let answer = self.chosen_move();
                say_at_once(format!("bestmove {answer}\nbestmove {answer}\n").as_bytes());
                self.answered += 1;
            }
            Mode::BestmoveTwice => {
                let answer = self.chosen_move();
                self.answer_twice(&answer);
            }
            Mode::BadUtf8 => say_at_once(b"bestmove \xff\xfe\n"),
            Mode::LateBestmove => {
                // The answer now; the same line again later, from the loop.
                let answer = self.chosen_move();
                self.finish_go(&answer);
                self.pending = Some((Instant::now() + self.opts.delay, answer));
            }
            Mode::IgnoreStop => {
                let words: Vec<&str> = params.split_whitespace().collect();
                if !words.contains(&"infinite") {
                    let movetime = words
                        .windows(2)
                        .find(|w| w[0] == "movetime")
                        .and_then(|w| w[1].parse().ok())
                        .map_or(Duration::ZERO, Duration::from_millis);
                    let answer = self.chosen_move();
                    self.pending = Some((Instant::now() + movetime + self.opts.delay, answer));
                }
            }
            Mode::Slow => {
                let answer = self.chosen_move();
                self.pending = Some((Instant::now() + self.opts.delay, answer));
            }
            _ => {
                let answer = self.chosen_move();
                self.finish_go(&answer);
            }
        }
    }

    /// `go` in the `ponder-*` modes.
    fn go_ponderer(&mut self, params: &str) {
        let answer = self.chosen_move();
        if params.split_whitespace().any(|w| w == "ponder") {
            match self.opts.mode {
                Mode::PonderEarly => {
                    say_at_once(format!("bestmove {answer}\nbestmove {answer}\n").as_bytes())
                }
                _ => self.pondering = Some(answer),
            }
            return;
        }
        let replies = self
            .game
            .as_ref()
            .map(|g| {
                let mut next = g.clone_box();
                match next.play(&answer) {
                    Ok(_) => next.legal_moves(),
                    Err(_) => Vec::new(),
                }
            })
            .unwrap_or_default();
        let hint = match self.opts.mode {
            Mode::PonderIllegal => Some("99".to_string()),
            Mode::PonderEarly | Mode::PonderTwice => replies.first().cloned(),
            _ => replies.last().cloned(),
        };
        let answer = match hint {
            Some(p) => format!("{answer} ponder {p}"),
            None => answer,
        };
        match self.opts.mode {
            Mode::PonderTwice => self.answer_twice(&answer),
            _ => self.finish_go(&answer),
        }
    }

    /// `bestmove <answer>`, then the same line again in a second write, a
    /// random 0 to `--delay-ms` later (in µs steps), before reading on: the
    /// second may reach the arbiter after it has sent its next `go`, unless
    /// it orders them.
    fn answer_twice(&mut self, answer: &str) {
        self.finish_go(answer);
        let max_us = self.opts.delay.as_micros() as usize;
        thread::sleep(Duration::from_micros(self.rng.below(max_us + 1) as u64));
        say(&format!("bestmove {answer}"));
    }

    fn finish_go(&mut self, answer: &str) {
        self.reply(&format!("bestmove {answer}"));
        self.answered += 1;
        if self.opts.mode == Mode::ExitEarly && self.answered >= self.opts.count {
            process::exit(0);
        }
    }

    fn junk_line(&mut self) -> String {
        const SYMBOLS: &[u8] = b"#%&*~?!@";
        const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
        let mut line = String::new();
        line.push(char::from(SYMBOLS[self.rng.below(SYMBOLS.len())]));
        for _ in 0..(8 + self.rng.below(30)) {
            let c = if self.rng.below(6) == 0 {
                b' '
            } else {
                LETTERS[self.rng.below(LETTERS.len())]
            };
            line.push(char::from(c));
        }
        line
    }
}

/// `n` `x`s and a newline; `n == 0` means never stop (and never end the line).
fn huge_line(n: usize) {
    let chunk = [b'x'; 8192];
    let mut out = io::stdout().lock();
    let mut left = n;
    while n == 0 || left > 0 {
        let take = if n == 0 {
            chunk.len()
        } else {
            left.min(chunk.len())
        };
        if out.write_all(&chunk[..take]).is_err() {
            process::exit(0);
        }
        left -= take.min(left);
    }
    if out.write_all(b"\n").and_then(|()| out.flush()).is_err() {
        process::exit(0);
    }
}

/// Our crash is deliberate: keep `abort()` from writing a core file wherever
/// the tests happen to run.
fn no_core_dumps() {
    let none = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: setrlimit only reads the struct we pass, which lives across the call.
    unsafe {
        libc::setrlimit(libc::RLIMIT_CORE, &none);
    }
}

fn main() {
    let opts = parse_options();
    match opts.mode {
        Mode::CrashStart => {
            // As a real bot that fails to start: a reason on stderr, then exit 1.
            eprintln!("testbot: cannot load weights.bin: no such file");
            process::exit(1)
        }
        Mode::CrashMid => no_core_dumps(),
        Mode::CrashBehindChild => {
            no_core_dumps();
            // The grandchild inherits our stdout, so the pipe stays open after
            // our crash: only our exit status tells the arbiter what happened.
            match Command::new("sleep")
                .arg("1000")
                .stdin(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
            {
                Ok(child) => say(&format!("info string child {}", child.id())),
                Err(e) => say(&format!("info string error cannot start sleep: {e}")),
            }
        }
        Mode::StderrFlood => flood_stderr(),
        Mode::Stubborn => {
            for signal in [libc::SIGTERM, libc::SIGHUP, libc::SIGPIPE] {
                // SAFETY: setting a disposition to "ignore" touches no memory.
                unsafe {
                    libc::signal(signal, libc::SIG_IGN);
                }
            }
            let started = Command::new("sleep")
                .arg("1000")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn();
            if let Ok(child) = started {
                say(&format!("info string child {}", child.id()));
            }
        }
        Mode::SetsidChild => {
            use std::os::unix::process::CommandExt;
            let mut command = Command::new("sleep");
            command
                .arg("1000")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            // SAFETY: setsid is async-signal-safe and touches no memory.
            unsafe {
                command.pre_exec(|| {
                    libc::setsid();
                    Ok(())
                });
            }
            match command.spawn() {
                Ok(child) => say(&format!("info string child {}", child.id())),
                Err(e) => say(&format!("info string error cannot start sleep: {e}")),
            }
        }
        Mode::ForkChild => {
            // The grandchild stays in our process group (no setsid/setpgid), so the
            // arbiter's group kill must reach it; null stdio so it holds no pipe.
            match Command::new("sleep")
                .arg("1000")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
            {
                Ok(child) => say(&format!("info string child {}", child.id())),
                Err(e) => say(&format!("info string error cannot start sleep: {e}")),
            }
        }
        _ => {}
    }

    if matches!(opts.mode, Mode::Instant | Mode::Random) {
        serve_at_once(Bot::new(opts));
    }

    // why a reader thread: scheduled replies (`slow`, `ignore-stop`) must go out
    // on time while `quit`/`stop` are still read promptly.
    let (tx, rx) = mpsc::channel::<String>();
    thread::spawn(move || {
        for line in io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });

    let mut bot = Bot::new(opts);
    loop {
        let received = match bot.pending.as_ref() {
            Some((due, _)) => rx.recv_timeout(due.saturating_duration_since(Instant::now())),
            None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(line) => bot.handle(&line),
            Err(RecvTimeoutError::Timeout) => {
                if let Some((_, answer)) = bot.pending.take() {
                    bot.finish_go(&answer);
                }
            }
            Err(RecvTimeoutError::Disconnected) if bot.opts.mode == Mode::Stubborn => loop {
                thread::sleep(Duration::from_secs(1000));
            },
            Err(RecvTimeoutError::Disconnected) => process::exit(0),
        }
    }
}

/// The modes that answer every line at once (`instant`, `random`): one
/// thread reading and answering, the replies held back while another complete
/// line is already read, then sent in one write. why not the reader thread:
/// with nothing scheduled, it only adds a thread hop (two wake-ups) a line.
fn serve_at_once(mut bot: Bot) -> ! {
    HOLDING.store(true, Ordering::Relaxed);
    let mut input = BufReader::new(io::stdin());
    let mut line = Vec::new();
    loop {
        line.clear();
        match input.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => exit(0),
            Ok(_) => {}
        }
        // why: the reader thread's `lines()` ended at a line that is not UTF-8.
        let Ok(text) = std::str::from_utf8(&line) else {
            exit(0)
        };
        bot.handle(text);
        if !input.buffer().contains(&b'\n') {
            release_held();
        }
    }
}
