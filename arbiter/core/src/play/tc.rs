//! Time controls in cutechess-cli syntax, and the game clock that enforces them.
//!
//! Syntax (the keys of an engine spec, see `config`):
//!
//! - `tc=<moves>/<time>+<inc>`: `moves` moves in `time`, then the same again
//!   (repeating periods); `tc=<time>+<inc>` is sudden death; `+<inc>` is
//!   optional; `tc=inf` means no clock. A time is seconds (`60`, `0.5`, at most
//!   millisecond precision) or `m:ss` (`1:30`, `2:05.5`).
//! - `st=<seconds>`: a fixed time per move (excludes `tc`).
//! - `depth=<n>`, `nodes=<n>`: search limits sent to the engine with `go`.
//! - `timemargin=<ms>`: how far an engine may overstep its time before it
//!   forfeits (the clock still charges the whole time used).
//!
//! [`TimeControl`] holds all of these; its `Display` writes the canonical
//! text (`40/60+0.5`, `st=2`, `inf depth=12`, `60 timemargin=100`) and
//! `FromStr` reads it back (or any mix of the keys above, space separated; a
//! bare `tc` value needs no `tc=`). [`Clock`] is one side's clock: pure logic,
//! time measured by the caller. [`go_params`] builds the fields of `go`.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use mancala_rules::Side;

/// How much time a side has: the `tc`/`st` part of a [`TimeControl`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeLimit {
    /// No clock (`tc=inf`).
    Infinite,
    /// A chess clock: `base` for every `moves` moves (`None`: the whole game),
    /// plus `increment` after every move.
    Clock {
        moves: Option<u32>,
        base: Duration,
        increment: Duration,
    },
    /// A fixed time per move (`st=`).
    MoveTime(Duration),
}

/// A time control: the clock plus the optional search limits and the margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    pub limit: TimeLimit,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Tolerance before a flag falls (`timemargin=`, milliseconds).
    pub margin: Duration,
}

impl Default for TimeControl {
    /// `inf`: no clock and no limits.
    fn default() -> Self {
        TimeControl {
            limit: TimeLimit::Infinite,
            depth: None,
            nodes: None,
            margin: Duration::ZERO,
        }
    }
}

/// A time-control string that cannot be read; the message names what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TcError {
    /// Nothing given.
    Empty,
    /// A token that is not `key=value` (and not a bare `tc` value).
    NotKeyValue(String),
    /// A key that is not a time-control key.
    UnknownKey(String),
    /// A number or duration that does not parse; `key` is the field.
    BadValue {
        key: &'static str,
        value: String,
        reason: String,
    },
    /// Both `tc` and `st` given.
    Conflict,
}

impl fmt::Display for TcError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TcError::Empty => f.write_str("empty time control"),
            TcError::NotKeyValue(t) => write!(f, "expected key=value in time control, got {t:?}"),
            TcError::UnknownKey(k) => write!(
                f,
                "unknown time-control key {k:?} (known: tc, st, depth, nodes, timemargin)"
            ),
            TcError::BadValue { key, value, reason } => {
                write!(f, "bad {key} value {value:?}: {reason}")
            }
            TcError::Conflict => f.write_str("tc and st cannot be used together"),
        }
    }
}

impl std::error::Error for TcError {}

fn bad(key: &'static str, value: &str, reason: impl Into<String>) -> TcError {
    TcError::BadValue {
        key,
        value: value.to_owned(),
        reason: reason.into(),
    }
}

/// Parses seconds with at most three decimals (`60`, `0.5`, `12.125`) into a
/// duration, exactly (no floating point).
fn parse_seconds(key: &'static str, text: &str) -> Result<Duration, TcError> {
    let (whole, frac) = match text.split_once('.') {
        Some((w, f)) => (w, f),
        None => (text, ""),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(whole) || (text.contains('.') && !digits(frac)) {
        return Err(bad(key, text, "expected seconds such as 60 or 0.5"));
    }
    if frac.len() > 3 {
        return Err(bad(key, text, "more precise than a millisecond"));
    }
    let secs: u64 = whole
        .parse()
        .map_err(|_| bad(key, text, "number too large"))?;
    let millis: u64 = format!("{frac:0<3}")
        .parse()
        .map_err(|_| bad(key, text, "bad fraction"))?;
    let total = secs
        .checked_mul(1000)
        .and_then(|ms| ms.checked_add(millis))
        .map(Duration::from_millis)
        .ok_or_else(|| bad(key, text, "number too large"))?;
    within_limit(key, text, total)
}

/// The longest time a time control may name (about 11.6 days): far beyond
/// any real game, and far from overflowing the monotonic clock.
pub const MAX_TIME: Duration = Duration::from_secs(1_000_000);

fn within_limit(key: &'static str, text: &str, time: Duration) -> Result<Duration, TcError> {
    if time > MAX_TIME {
        return Err(bad(
            key,
            text,
            format!("at most {} seconds", MAX_TIME.as_secs()),
        ));
    }
    Ok(time)
}

/// Parses a time: seconds or `m:ss[.fff]`.
fn parse_time(key: &'static str, text: &str) -> Result<Duration, TcError> {
    match text.split_once(':') {
        None => parse_seconds(key, text),
        Some((m, s)) => {
            let minutes: u64 = m
                .parse()
                .map_err(|_| bad(key, text, "expected minutes before ':'"))?;
            let secs = parse_seconds(key, s)?;
            if s.split('.').next().map_or(0, str::len) != 2 || secs >= Duration::from_secs(60) {
                return Err(bad(key, text, "expected m:ss with seconds 00 to 59"));
            }
            let total = minutes
                .checked_mul(60)
                .map(|m| Duration::from_secs(m) + secs)
                .ok_or_else(|| bad(key, text, "number too large"))?;
            within_limit(key, text, total)
        }
    }
}

/// Writes a duration as seconds, with only the decimals needed (`60`, `0.5`).
struct Secs(Duration);

impl fmt::Display for Secs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0.as_millis();
        let (s, frac) = (ms / 1000, ms % 1000);
        if frac == 0 {
            write!(f, "{s}")
        } else {
            let text = format!("{frac:03}");
            write!(f, "{s}.{}", text.trim_end_matches('0'))
        }
    }
}

fn parse_count<T: FromStr>(key: &'static str, text: &str) -> Result<T, TcError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(key, text, "expected a whole number"));
    }
    text.parse().map_err(|_| bad(key, text, "number too large"))
}

impl FromStr for TimeLimit {
    type Err = TcError;

    /// Reads a `tc` value: `inf`, `[moves/]time[+inc]`.
    fn from_str(s: &str) -> Result<TimeLimit, TcError> {
        const KEY: &str = "tc";
        if s.is_empty() {
            return Err(TcError::Empty);
        }
        if s == "inf" || s == "infinite" {
            return Ok(TimeLimit::Infinite);
        }
        let (moves, rest) = match s.split_once('/') {
            Some((m, rest)) => {
                let moves: u32 = parse_count(KEY, m)?;
                // why 0 is accepted: in cutechess (and fishtest's
                // `tc=0/10+0.1`) 0 moves per period means the whole game.
                ((moves > 0).then_some(moves), rest)
            }
            None => (None, s),
        };
        let (base, increment) = match rest.split_once('+') {
            Some((t, i)) => (parse_time(KEY, t)?, parse_seconds(KEY, i)?),
            None => (parse_time(KEY, rest)?, Duration::ZERO),
        };
        if base.is_zero() {
            return Err(bad(KEY, s, "the time must be positive"));
        }
        Ok(TimeLimit::Clock {
            moves,
            base,
            increment,
        })
    }
}

impl fmt::Display for TimeLimit {
    /// `inf`, `40/60+0.5`, `60` … or `st=2` for a fixed move time.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeLimit::Infinite => f.write_str("inf"),
            TimeLimit::MoveTime(t) => write!(f, "st={}", Secs(t)),
            TimeLimit::Clock {
                moves,
                base,
                increment,
            } => {
                if let Some(m) = moves {
                    write!(f, "{m}/")?;
                }
                write!(f, "{}", Secs(base))?;
                if !increment.is_zero() {
                    write!(f, "+{}", Secs(increment))?;
                }
                Ok(())
            }
        }
    }
}

impl TimeControl {
    /// Sets one key (`tc`, `st`, `depth`, `nodes`, `timemargin`); a later `tc`
    /// or `st` replaces an earlier one of either kind.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), TcError> {
        match key {
            "tc" => self.limit = value.parse()?,
            "st" => {
                let t = parse_seconds("st", value)?;
                if t.is_zero() {
                    return Err(bad("st", value, "the move time must be positive"));
                }
                self.limit = TimeLimit::MoveTime(t);
            }
            "depth" => {
                let d: u32 = parse_count("depth", value)?;
                if d == 0 {
                    return Err(bad("depth", value, "the depth must be positive"));
                }
                self.depth = Some(d);
            }
            "nodes" => {
                let n: u64 = parse_count("nodes", value)?;
                if n == 0 {
                    return Err(bad("nodes", value, "the node count must be positive"));
                }
                self.nodes = Some(n);
            }
            "timemargin" => {
                let margin = Duration::from_millis(parse_count("timemargin", value)?);
                self.margin = within_limit("timemargin", value, margin)?;
            }
            _ => return Err(TcError::UnknownKey(key.to_owned())),
        }
        Ok(())
    }

    /// Whether `key` is one of the keys [`TimeControl::set`] takes.
    pub fn is_key(key: &str) -> bool {
        matches!(key, "tc" | "st" | "depth" | "nodes" | "timemargin")
    }

    /// True when nothing limits a search (no clock, depth or nodes): the engine
    /// is sent `go infinite` and only an external stop ends its search.
    pub fn is_unlimited(&self) -> bool {
        self.limit == TimeLimit::Infinite && self.depth.is_none() && self.nodes.is_none()
    }
}

impl FromStr for TimeControl {
    type Err = TcError;

    fn from_str(s: &str) -> Result<TimeControl, TcError> {
        let mut tc = TimeControl::default();
        let mut seen_time = None::<&str>;
        let mut any = false;
        for token in s.split_whitespace() {
            any = true;
            let (key, value) = match token.split_once('=') {
                Some(kv) => kv,
                // A bare value is a `tc` value (`40/60+0.5`, `inf`).
                None if token.starts_with(|c: char| c.is_ascii_digit()) || token == "inf" => {
                    ("tc", token)
                }
                None => return Err(TcError::NotKeyValue(token.to_owned())),
            };
            if key == "tc" || key == "st" {
                match seen_time {
                    Some(prev) if prev != key => return Err(TcError::Conflict),
                    _ => seen_time = Some(key),
                }
            }
            tc.set(key, value)?;
        }
        if !any {
            return Err(TcError::Empty);
        }
        Ok(tc)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = Vec::new();
        // `inf` goes without saying once another limit is given.
        if self.limit != TimeLimit::Infinite || (self.depth.is_none() && self.nodes.is_none()) {
            parts.push(self.limit.to_string());
        }
        if let Some(d) = self.depth {
            parts.push(format!("depth={d}"));
        }
        if let Some(n) = self.nodes {
            parts.push(format!("nodes={n}"));
        }
        if !self.margin.is_zero() {
            parts.push(format!("timemargin={}", self.margin.as_millis()));
        }
        f.write_str(&parts.join(" "))
    }
}

/// A flag fell: the side used more than its time plus the margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flag {
    pub elapsed: Duration,
    /// The time the side had for this move (clock or move time), margin excluded.
    pub available: Duration,
    pub margin: Duration,
}

impl fmt::Display for Flag {
    /// `used 150.312 ms with 100 ms left (margin 50 ms)`: the time used to the
    /// microsecond, so that the verdict is visibly right (rounded to whole
    /// milliseconds, 150.3 ms would read as exactly the allowance).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "used {} ms with {} ms left (margin {} ms)",
            Millis(self.elapsed),
            Millis(self.available),
            Millis(self.margin)
        )
    }
}

/// Milliseconds with up to three decimals (microseconds), trailing zeros dropped.
struct Millis(Duration);

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let micros = self.0.as_micros();
        let (ms, frac) = (micros / 1000, micros % 1000);
        if frac == 0 {
            write!(f, "{ms}")
        } else {
            let text = format!("{frac:03}");
            write!(f, "{ms}.{}", text.trim_end_matches('0'))
        }
    }
}

impl std::error::Error for Flag {}

/// One side's clock under a [`TimeControl`]. The caller measures how long
/// each move took and passes it to [`Clock::spend`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    /// Time left on the clock (`Clock` limits only).
    remaining: Duration,
    /// Moves left in the current period, including the one to play.
    moves_to_go: Option<u32>,
}

impl Clock {
    pub fn new(tc: TimeControl) -> Clock {
        let (remaining, moves_to_go) = match tc.limit {
            TimeLimit::Clock { moves, base, .. } => (base, moves),
            _ => (Duration::ZERO, None),
        };
        Clock {
            tc,
            remaining,
            moves_to_go,
        }
    }

    pub fn time_control(&self) -> &TimeControl {
        &self.tc
    }

    /// Time left on a chess clock; `None` for `inf` and `st`.
    pub fn remaining(&self) -> Option<Duration> {
        matches!(self.tc.limit, TimeLimit::Clock { .. }).then_some(self.remaining)
    }

    /// Moves left in the current period, counting the next one.
    pub fn moves_to_go(&self) -> Option<u32> {
        self.moves_to_go
    }

    pub fn increment(&self) -> Duration {
        match self.tc.limit {
            TimeLimit::Clock { increment, .. } => increment,
            _ => Duration::ZERO,
        }
    }

    /// The longest a move may take before its flag falls (margin included);
    /// `None` when there is no clock. Useful as a watchdog deadline.
    pub fn deadline(&self) -> Option<Duration> {
        match self.tc.limit {
            TimeLimit::Infinite => None,
            TimeLimit::MoveTime(t) => Some(t + self.tc.margin),
            TimeLimit::Clock { .. } => Some(self.remaining + self.tc.margin),
        }
    }

    /// Charges one move that took `elapsed`. Flags when `elapsed` exceeds the
    /// time available plus the margin; otherwise takes the time off the clock
    /// (never below zero: an overstep within the margin leaves zero), adds the
    /// increment, and at the end of a period adds the next period's time.
    pub fn spend(&mut self, elapsed: Duration) -> Result<(), Flag> {
        match self.tc.limit {
            TimeLimit::Infinite => Ok(()),
            TimeLimit::MoveTime(t) => {
                if elapsed > t + self.tc.margin {
                    Err(self.flag(elapsed, t))
                } else {
                    Ok(())
                }
            }
            TimeLimit::Clock {
                moves,
                base,
                increment,
            } => {
                if elapsed > self.remaining + self.tc.margin {
                    return Err(self.flag(elapsed, self.remaining));
                }
                self.remaining = self.remaining.saturating_sub(elapsed) + increment;
                if let (Some(period), Some(left)) = (moves, self.moves_to_go) {
                    if left <= 1 {
                        self.remaining += base;
                        self.moves_to_go = Some(period);
                    } else {
                        self.moves_to_go = Some(left - 1);
                    }
                }
                Ok(())
            }
        }
    }

    fn flag(&self, elapsed: Duration, available: Duration) -> Flag {
        Flag {
            elapsed,
            available,
            margin: self.tc.margin,
        }
    }
}

/// The limits of one `go` command. Times are the clocks before the move;
/// `p1` is South and `p2` North, as in the protocol.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GoParams {
    /// `go ponder`: search the position after the expected reply.
    pub ponder: bool,
    pub p1time: Option<Duration>,
    pub p2time: Option<Duration>,
    pub p1inc: Option<Duration>,
    pub p2inc: Option<Duration>,
    pub movestogo: Option<u32>,
    pub movetime: Option<Duration>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// Nothing limits the mover's search.
    pub infinite: bool,
}

/// The `go` fields for `mover`, from both sides' clocks (each side may have
/// its own time control, as in cutechess). Clock times are sent for every
/// side that has a chess clock; `movestogo`, `movetime`, `depth` and `nodes`
/// come from the mover's control.
pub fn go_params(south: &Clock, north: &Clock, mover: Side) -> GoParams {
    let own = match mover {
        Side::South => south,
        Side::North => north,
    };
    let inc = |c: &Clock| c.remaining().map(|_| c.increment());
    GoParams {
        ponder: false,
        p1time: south.remaining(),
        p2time: north.remaining(),
        p1inc: inc(south),
        p2inc: inc(north),
        movestogo: own.moves_to_go(),
        movetime: match own.tc.limit {
            TimeLimit::MoveTime(t) => Some(t),
            _ => None,
        },
        depth: own.tc.depth,
        nodes: own.tc.nodes,
        infinite: own.tc.is_unlimited(),
    }
}

impl GoParams {
    /// The fields as they read `elapsed` into `mover`'s turn: its clock time
    /// (or move time) less what has run since the turn began (after a ponder
    /// miss, the turn begins with `stop`, before the `go` is written).
    pub fn after(mut self, mover: Side, elapsed: Duration) -> GoParams {
        let own = match mover {
            Side::South => &mut self.p1time,
            Side::North => &mut self.p2time,
        };
        for t in [own, &mut self.movetime] {
            *t = t.map(|t| t.saturating_sub(elapsed));
        }
        self
    }
}

impl fmt::Display for GoParams {
    /// The arguments of `go` in protocol order, milliseconds for times:
    /// `ponder p1time 60000 p2time 60000 p1inc 500 p2inc 500 movestogo 40`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if self.ponder {
            parts.push("ponder".to_owned());
        }
        let ms = |name: &str, d: Option<Duration>| d.map(|d| format!("{name} {}", d.as_millis()));
        parts.extend(ms("p1time", self.p1time));
        parts.extend(ms("p2time", self.p2time));
        parts.extend(ms("p1inc", self.p1inc));
        parts.extend(ms("p2inc", self.p2inc));
        parts.extend(self.movestogo.map(|m| format!("movestogo {m}")));
        parts.extend(ms("movetime", self.movetime));
        parts.extend(self.depth.map(|d| format!("depth {d}")));
        parts.extend(self.nodes.map(|n| format!("nodes {n}")));
        if self.infinite {
            parts.push("infinite".to_owned());
        }
        f.write_str(&parts.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flag_message_shows_the_microseconds() {
        let flag = Flag {
            elapsed: Duration::from_micros(150_312),
            available: Duration::from_millis(100),
            margin: Duration::from_millis(50),
        };
        assert_eq!(
            flag.to_string(),
            "used 150.312 ms with 100 ms left (margin 50 ms)"
        );
        let flag = Flag {
            elapsed: Duration::from_micros(150_300),
            ..flag
        };
        assert_eq!(
            flag.to_string(),
            "used 150.3 ms with 100 ms left (margin 50 ms)"
        );
    }

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn parses_cutechess_tc_values() {
        assert_eq!(
            "40/60+0.5".parse::<TimeLimit>().unwrap(),
            TimeLimit::Clock {
                moves: Some(40),
                base: ms(60_000),
                increment: ms(500)
            }
        );
        assert_eq!(
            "60+0.5".parse::<TimeLimit>().unwrap(),
            TimeLimit::Clock {
                moves: None,
                base: ms(60_000),
                increment: ms(500)
            }
        );
        assert_eq!(
            "1:30".parse::<TimeLimit>().unwrap(),
            TimeLimit::Clock {
                moves: None,
                base: ms(90_000),
                increment: Duration::ZERO
            }
        );
        assert_eq!(
            "2:05.25+0.001".parse::<TimeLimit>().unwrap(),
            TimeLimit::Clock {
                moves: None,
                base: ms(125_250),
                increment: ms(1)
            }
        );
        assert_eq!("inf".parse::<TimeLimit>().unwrap(), TimeLimit::Infinite);
        // cutechess: 0 moves per period is the whole game (`tc=0/10+0.1`).
        assert_eq!(
            "0/2+0.02".parse::<TimeLimit>().unwrap(),
            "2+0.02".parse::<TimeLimit>().unwrap()
        );
    }

    #[test]
    fn display_round_trips() {
        for text in [
            "40/60+0.5",
            "60+0.5",
            "10",
            "0.25+0.005",
            "inf",
            "st=2",
            "st=0.1 timemargin=50",
            "depth=12",
            "nodes=100000",
            "40/90 depth=20 nodes=5 timemargin=100",
            "inf timemargin=10",
        ] {
            let parsed = tc(text);
            assert_eq!(parsed.to_string(), text);
            assert_eq!(parsed.to_string().parse::<TimeControl>().unwrap(), parsed);
        }
        // Non-canonical spellings read the same and print canonically.
        assert_eq!(tc("tc=1:30+0.50").to_string(), "90+0.5");
        assert_eq!(tc("tc=inf depth=3").to_string(), "depth=3");
    }

    #[test]
    fn errors_name_the_problem() {
        let err = |s: &str| s.parse::<TimeControl>().unwrap_err();
        assert_eq!(err(""), TcError::Empty);
        assert_eq!(err("tc=60 st=1"), TcError::Conflict);
        assert_eq!(err("hash=1"), TcError::UnknownKey("hash".into()));
        assert_eq!(err("fast"), TcError::NotKeyValue("fast".into()));
        for (text, needle) in [
            ("40/0", "time must be positive"),
            ("60+x", "expected seconds"),
            ("1:75", "m:ss"),
            ("1:5", "m:ss"),
            ("0.0001", "millisecond"),
            ("depth=-1", "whole number"),
            ("depth=0", "positive"),
            ("nodes=1e6", "whole number"),
            ("timemargin=ten", "whole number"),
            ("st=0", "positive"),
            ("99999999999999999999", "too large"),
        ] {
            let msg = err(text).to_string();
            assert!(msg.contains(needle), "{text}: {msg}");
        }
    }

    #[test]
    fn sudden_death_with_increment() {
        let mut c = Clock::new(tc("10+1"));
        assert_eq!(c.remaining(), Some(ms(10_000)));
        c.spend(ms(3_000)).unwrap();
        assert_eq!(c.remaining(), Some(ms(8_000)));
        assert_eq!(c.moves_to_go(), None);
        c.spend(ms(8_500)).unwrap_err();
    }

    #[test]
    fn repeating_periods_add_time_at_the_control() {
        let mut c = Clock::new(tc("2/10"));
        assert_eq!(c.moves_to_go(), Some(2));
        c.spend(ms(4_000)).unwrap();
        assert_eq!((c.remaining(), c.moves_to_go()), (Some(ms(6_000)), Some(1)));
        c.spend(ms(5_000)).unwrap();
        // 1 s left, then the next 10 s period.
        assert_eq!(
            (c.remaining(), c.moves_to_go()),
            (Some(ms(11_000)), Some(2))
        );
    }

    #[test]
    fn margin_tolerates_a_small_overstep() {
        let mut c = Clock::new(tc("1 timemargin=100"));
        c.spend(ms(1_100)).unwrap();
        assert_eq!(c.remaining(), Some(Duration::ZERO));
        let flag = c.spend(ms(101)).unwrap_err();
        assert_eq!(flag.available, Duration::ZERO);
        assert_eq!(flag.margin, ms(100));
        assert!(flag.to_string().contains("used 101 ms"));
    }

    #[test]
    fn move_time_and_infinite() {
        let mut st = Clock::new(tc("st=1"));
        st.spend(ms(1_000)).unwrap();
        st.spend(ms(1_000)).unwrap();
        assert_eq!(st.spend(ms(1_001)).unwrap_err().available, ms(1_000));
        assert_eq!(st.remaining(), None);
        let mut inf = Clock::new(tc("inf"));
        inf.spend(Duration::from_secs(1_000_000)).unwrap();
        assert_eq!(inf.deadline(), None);
    }

    #[test]
    fn go_fields() {
        let south = Clock::new(tc("40/60+0.5"));
        let mut north = Clock::new(tc("40/60+0.5"));
        north.spend(ms(1_500)).unwrap();
        let go = go_params(&south, &north, Side::South);
        assert_eq!(
            go.to_string(),
            "p1time 60000 p2time 59000 p1inc 500 p2inc 500 movestogo 40"
        );
        let go = go_params(&south, &north, Side::North);
        assert_eq!(go.movestogo, Some(39));

        let st = Clock::new(tc("st=2 depth=8"));
        let go = go_params(&st, &st, Side::North);
        assert_eq!(go.to_string(), "movetime 2000 depth 8");

        let inf = Clock::new(TimeControl::default());
        assert_eq!(go_params(&inf, &inf, Side::South).to_string(), "infinite");
        let nodes = Clock::new(tc("nodes=1000"));
        assert_eq!(
            go_params(&nodes, &south, Side::South).to_string(),
            "p2time 60000 p2inc 500 nodes 1000"
        );
    }

    #[test]
    fn go_ponder_fields_and_the_clock_read_into_a_turn() {
        let clock = Clock::new(tc("60+0.5"));
        let go = go_params(&clock, &clock, Side::North);
        let ponder = GoParams { ponder: true, ..go };
        assert_eq!(
            ponder.to_string(),
            "ponder p1time 60000 p2time 60000 p1inc 500 p2inc 500"
        );
        // After a ponder miss North's clock runs from `stop`: only its time drops.
        assert_eq!(
            go.after(Side::North, ms(1_250)).to_string(),
            "p1time 60000 p2time 58750 p1inc 500 p2inc 500"
        );
        assert_eq!(
            go.after(Side::North, ms(70_000)).p2time,
            Some(Duration::ZERO)
        );
        let st = Clock::new(tc("st=2"));
        let go = go_params(&st, &st, Side::South).after(Side::South, ms(300));
        assert_eq!(go.to_string(), "movetime 1700");
    }
}
