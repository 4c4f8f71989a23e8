//! Lag compensation for remote engines, after lichess's `LagTracker`.
//!
//! The arbiter charges a remote engine from the moment the frame carrying
//! `go` is sent to the moment the `bestmove` frame arrives, so each move
//! costs it one network round trip on top of its thinking. The connection's
//! round trip is measured all the time (WebSocket ping/pong), and each move
//! gets some of it back, from a bounded quota per game:
//!
//! - `gain` is added to the quota after every move, which is capped at
//!   `max`; the game starts with `initial` in it.
//! - A move's compensation is `min(lag, quota)`, where `lag` is the
//!   measured round trip (never more than the move took); it is taken out
//!   of the quota.
//!
//! With lichess's numbers, for a clock whose estimated game length is
//! `base + 40 × increment` seconds: `gain` = 1 s at 180 s or more, 200 ms
//! at 15 s or less, and `(secs / 2 + 10) × 10` ms in between (`10+0.1`:
//! 14 s → 200 ms; `60+0.6`: 84 s → 520 ms); `initial` = 3 × `gain`,
//! `max` = 7 × `gain`. A fixed time per move (`st=`) counts as a game of
//! 40 such moves. So at `60+0.6` a bot 80 ms away gets its 80 ms back on
//! every move, and a bot that fakes 10 s of lag (by answering pings late)
//! gets at most 1.56 s back on its first move and 520 ms on each one after:
//! lag cannot be turned into free thinking time beyond that quota.
//!
//! `lag=0` turns compensation off; `lag=<ms>` gives each move up to that
//! much back, without a reserve.

use std::time::Duration;

use crate::play::tc::{TimeControl, TimeLimit};

/// How an engine's lag is compensated (`lag=` in its spec).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LagPolicy {
    /// The quota of [`LagTracker`], sized by the time control.
    #[default]
    Quota,
    /// No compensation (`lag=0`).
    Off,
    /// Up to this much per move, no reserve (`lag=<ms>`).
    Fixed(Duration),
}

impl std::str::FromStr for LagPolicy {
    type Err = String;
    fn from_str(s: &str) -> Result<LagPolicy, String> {
        if s == "auto" {
            return Ok(LagPolicy::Quota);
        }
        match s.parse::<u64>() {
            Ok(0) => Ok(LagPolicy::Off),
            Ok(ms) if ms <= 60_000 => Ok(LagPolicy::Fixed(Duration::from_millis(ms))),
            _ => Err(format!(
                "lag={s}: expected auto, 0 (off) or milliseconds per move up to 60000"
            )),
        }
    }
}

/// One game's lag quota.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LagTracker {
    policy: LagPolicy,
    gain: Duration,
    max: Duration,
    initial: Duration,
    quota: Duration,
}

/// lichess's quota gain for a game of about `secs` seconds.
fn gain_for(secs: f64) -> Duration {
    let centis = if secs >= 180.0 {
        100.0
    } else if secs <= 15.0 {
        20.0
    } else {
        secs / 2.0 + 10.0
    };
    Duration::from_millis((centis * 10.0) as u64)
}

/// The estimated length of one side's game under `tc`, in seconds.
fn estimated_secs(tc: &TimeControl) -> f64 {
    match tc.limit {
        TimeLimit::Clock {
            base, increment, ..
        } => base.as_secs_f64() + 40.0 * increment.as_secs_f64(),
        TimeLimit::MoveTime(t) => 40.0 * t.as_secs_f64(),
        // why the longest: without a clock no flag can fall; the
        // compensation only keeps `time_ms` honest.
        TimeLimit::Infinite => 180.0,
    }
}

impl LagTracker {
    pub fn new(policy: LagPolicy, tc: &TimeControl) -> LagTracker {
        let gain = gain_for(estimated_secs(tc));
        LagTracker {
            policy,
            gain,
            max: gain * 7,
            initial: gain * 3,
            quota: gain * 3,
        }
    }

    /// A new game: the quota starts again.
    pub fn new_game(&mut self) {
        self.quota = self.initial;
    }

    /// The compensation for a move that took `elapsed` on a connection with
    /// round trip `lag`.
    pub fn on_move(&mut self, lag: Duration, elapsed: Duration) -> Duration {
        let lag = lag.min(elapsed);
        match self.policy {
            LagPolicy::Off => Duration::ZERO,
            LagPolicy::Fixed(most) => lag.min(most),
            LagPolicy::Quota => {
                let comp = lag.min(self.quota);
                self.quota = (self.quota - comp + self.gain).min(self.max);
                comp
            }
        }
    }

    /// What the quota holds now.
    pub fn quota(&self) -> Duration {
        self.quota
    }

    /// The quota's cap.
    pub fn max(&self) -> Duration {
        self.max
    }

    /// What the quota gains per move.
    pub fn gain(&self) -> Duration {
        self.gain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(text: &str) -> TimeControl {
        let mut tc = TimeControl::default();
        tc.set("tc", text).expect("a time control");
        tc
    }

    const MS: fn(u64) -> Duration = Duration::from_millis;

    #[test]
    fn gain_follows_the_estimated_game_length() {
        assert_eq!(
            LagTracker::new(LagPolicy::Quota, &tc("10+0.1")).gain(),
            MS(200)
        );
        assert_eq!(
            LagTracker::new(LagPolicy::Quota, &tc("60+0.6")).gain(),
            MS(520)
        );
        assert_eq!(
            LagTracker::new(LagPolicy::Quota, &tc("300+2")).gain(),
            MS(1000)
        );
    }

    #[test]
    fn the_quota_bounds_what_faked_lag_can_buy() {
        let mut t = LagTracker::new(LagPolicy::Quota, &tc("60+0.6"));
        let (gain, initial) = (t.gain(), t.gain() * 3);
        // A bot claiming 10 s of lag on every 10 s move.
        let total: Duration = (0..50).map(|_| t.on_move(MS(10_000), MS(10_000))).sum();
        assert_eq!(total, initial + gain * 49);
        assert!(t.quota() <= t.max());
    }

    #[test]
    fn small_lag_is_given_back_whole_and_the_reserve_refills_to_its_cap() {
        let mut t = LagTracker::new(LagPolicy::Quota, &tc("60+0.6"));
        for _ in 0..20 {
            assert_eq!(t.on_move(MS(80), MS(500)), MS(80));
        }
        assert_eq!(t.quota(), t.max());
        // Never more than the move took.
        assert_eq!(t.on_move(MS(80), MS(30)), MS(30));
        t.new_game();
        assert_eq!(t.quota(), t.gain() * 3);
    }

    #[test]
    fn off_and_fixed() {
        let mut off = LagTracker::new("0".parse().unwrap(), &tc("10+0.1"));
        assert_eq!(off.on_move(MS(100), MS(200)), Duration::ZERO);
        let mut fixed = LagTracker::new("50".parse().unwrap(), &tc("10+0.1"));
        for _ in 0..100 {
            assert_eq!(fixed.on_move(MS(100), MS(200)), MS(50));
        }
        assert!("-3".parse::<LagPolicy>().is_err());
        assert_eq!("auto".parse::<LagPolicy>(), Ok(LagPolicy::Quota));
    }
}
