//! The pause of a bot that keeps crashing or disconnecting: pure logic
//! over the times it is given (tested without waiting).
//!
//! A **strike** is a game a bot lost by crashing, disconnecting, not
//! answering (`umi`, `isready`) or not being there when its game started.
//! A game it finishes in any other way (won, lost, drawn, even lost on
//! time or by an illegal move: those are the game's verdicts, not a broken
//! bot) clears its strikes. After [`Policy::strikes`] strikes in a row the
//! bot is **paused**: no new game for [`Policy::first_pause`], doubled at
//! each further pause while the strikes go on, at most
//! [`Policy::longest_pause`]. A paused bot stays connected and listed
//! (`paused until` on its page); its games in progress are not touched.
//! After a pause the bot gets one game: a strike pauses it again at
//! once (for twice as long), a clean game ends the back-off.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// When and how long a bot is paused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Strikes in a row that pause a bot.
    pub strikes: u32,
    pub first_pause: Duration,
    pub longest_pause: Duration,
}

impl Default for Policy {
    fn default() -> Policy {
        Policy {
            strikes: 3,
            first_pause: Duration::from_secs(30),
            longest_pause: Duration::from_secs(3600),
        }
    }
}

#[derive(Clone, Debug, Default)]
struct BotState {
    /// Strikes since the last clean game.
    strikes: u32,
    /// Pauses since the last clean game.
    pauses: u32,
    until: Option<Instant>,
}

/// The back-off state of every bot.
#[derive(Clone, Debug, Default)]
pub struct Backoff {
    policy: Policy,
    bots: BTreeMap<String, BotState>,
}

impl Backoff {
    pub fn new(policy: Policy) -> Backoff {
        Backoff {
            policy,
            bots: BTreeMap::new(),
        }
    }

    /// Records a game of `bot`'s that ended at `now`; `strike`: whether it
    /// lost it by a crash or disconnect (see the module docs). Returns the
    /// pause this starts, if any.
    pub fn record(&mut self, bot: &str, strike: bool, now: Instant) -> Option<Duration> {
        let policy = self.policy;
        let state = self.bots.entry(bot.to_owned()).or_default();
        if !strike {
            *state = BotState::default();
            return None;
        }
        state.strikes += 1;
        // After a first pause, one more strike is enough.
        let due = if state.pauses == 0 {
            state.strikes >= policy.strikes
        } else {
            true
        };
        if !due {
            return None;
        }
        let factor = 1u32.checked_shl(state.pauses.min(31)).unwrap_or(u32::MAX);
        let pause = policy
            .first_pause
            .checked_mul(factor)
            .map_or(policy.longest_pause, |p| p.min(policy.longest_pause));
        state.pauses += 1;
        state.strikes = 0;
        state.until = Some(now + pause);
        Some(pause)
    }

    /// Until when `bot` is paused, if it is at `now`.
    pub fn paused_until(&self, bot: &str, now: Instant) -> Option<Instant> {
        self.bots
            .get(bot)
            .and_then(|s| s.until)
            .filter(|&until| until > now)
    }

    /// Whether `bot` may start a game at `now`.
    pub fn may_play(&self, bot: &str, now: Instant) -> bool {
        self.paused_until(bot, now).is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: Duration = Duration::from_secs(1);

    #[test]
    fn three_strikes_in_a_row_pause_a_bot_and_pauses_double() {
        let t0 = Instant::now();
        let mut b = Backoff::new(Policy::default());
        assert_eq!(b.record("x", true, t0), None);
        assert_eq!(b.record("x", true, t0), None);
        assert!(b.may_play("x", t0));
        assert_eq!(b.record("x", true, t0), Some(30 * S));
        assert!(!b.may_play("x", t0 + 29 * S));
        assert_eq!(b.paused_until("x", t0), Some(t0 + 30 * S));
        assert!(b.may_play("x", t0 + 30 * S));
        // Back from the pause, the next strike pauses it again, twice as long.
        let t1 = t0 + 31 * S;
        assert_eq!(b.record("x", true, t1), Some(60 * S));
        assert_eq!(b.record("x", true, t1 + 61 * S), Some(120 * S));
        // Others are not touched.
        assert!(b.may_play("y", t1));
    }

    #[test]
    fn a_clean_game_clears_the_strikes_and_the_back_off() {
        let t0 = Instant::now();
        let mut b = Backoff::new(Policy::default());
        b.record("x", true, t0);
        b.record("x", true, t0);
        assert_eq!(b.record("x", false, t0), None);
        assert_eq!(b.record("x", true, t0), None, "the count starts again");
        b.record("x", true, t0);
        assert_eq!(b.record("x", true, t0), Some(30 * S));
        b.record("x", false, t0 + 40 * S);
        assert!(b.may_play("x", t0 + 40 * S));
        b.record("x", true, t0);
        b.record("x", true, t0);
        assert_eq!(
            b.record("x", true, t0),
            Some(30 * S),
            "back to the first pause"
        );
    }

    #[test]
    fn the_pause_is_capped() {
        let t0 = Instant::now();
        let policy = Policy {
            strikes: 1,
            first_pause: 1000 * S,
            longest_pause: 3600 * S,
        };
        let mut b = Backoff::new(policy);
        let pauses: Vec<_> = (0..40).map(|_| b.record("x", true, t0).unwrap()).collect();
        assert_eq!(pauses[..3], [1000 * S, 2000 * S, 3600 * S]);
        assert!(pauses.iter().all(|&p| p <= 3600 * S));
    }
}
