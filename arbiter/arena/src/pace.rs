//! The pace of the arena's games, as the pairing needs it: how long each
//! player's games usually last ([`Lengths`]), so that rule 3 waits only for
//! a busy opponent expected free soon ([`expected_free_in`]), and how many
//! games two house bots have played each other lately ([`HouseRate`], for
//! `--house-rate`). Pure: the times are given, so it is tested without a
//! clock.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, Instant};

/// How many of a player's latest games its usual length is the median of.
const KEPT: usize = 16;

/// A bot waits for a busy opponent that it has met less (pairing rule 3)
/// only when that one is expected free within its own usual game divided
/// by this: half a game. A busy opponent expected free later does not hold
/// it (docs/arena.md, "Pairing"). why half: the simulation in
/// `pairing.rs` (a slow newcomer among twelve fast bots) keeps 81% of the
/// games it plays without the newcomer at half a game, 78% at one; and a
/// field of like speed keeps its spread (24 to 27 meetings a pairing after
/// 600 games' time, against 23 to 26 waiting for ever).
pub const PATIENCE_DIVISOR: u32 = 2;

/// Each player's latest game lengths.
#[derive(Clone, Debug, Default)]
pub struct Lengths {
    by_player: BTreeMap<String, VecDeque<Duration>>,
}

impl Lengths {
    /// Notes a game of `player` that lasted `took`.
    pub fn note(&mut self, player: &str, took: Duration) {
        let kept = self.by_player.entry(player.to_owned()).or_default();
        if kept.len() == KEPT {
            kept.pop_front();
        }
        kept.push_back(took);
    }

    /// The median of `player`'s latest games' lengths; `None` before its
    /// first game ends. why a median: a fast bot's odd game against a slow
    /// one must not make it look slow.
    pub fn usual(&self, player: &str) -> Option<Duration> {
        let kept = self.by_player.get(player)?;
        let mut sorted: Vec<Duration> = kept.iter().copied().collect();
        sorted.sort();
        sorted.get(sorted.len() / 2).copied()
    }

    /// How long `player` waits for a busy opponent (rule 3): its usual
    /// game over [`PATIENCE_DIVISOR`]; `None` (as long as it takes) before
    /// its first game ends.
    pub fn patience(&self, player: &str) -> Option<Duration> {
        self.usual(player).map(|d| d / PATIENCE_DIVISOR)
    }

    /// How long a game between `players`, `elapsed` into it, is expected
    /// to go on: the usual length of the slower of the two less `elapsed`,
    /// and at least a quarter of it (a game past its usual length is not
    /// over at once). A player whose usual length is not known yet counts
    /// as twice `elapsed` (it has lasted so long; as long again is expected).
    pub fn remaining(&self, players: [&str; 2], elapsed: Duration) -> Duration {
        let expected = players
            .iter()
            .map(|p| self.usual(p).unwrap_or(elapsed * 2))
            .max()
            .unwrap_or_default();
        expected.saturating_sub(elapsed).max(expected / 4)
    }
}

/// When a connected player is expected to have a free slot: now if it has
/// one, else when the first of its `games` (its players and start) is
/// expected to end.
pub fn expected_free_in(
    lengths: &Lengths,
    has_free_slot: bool,
    games: &[([&str; 2], Instant)],
    now: Instant,
) -> Duration {
    if has_free_slot {
        return Duration::ZERO;
    }
    games
        .iter()
        .map(|(players, began)| lengths.remaining(*players, now.saturating_duration_since(*began)))
        .min()
        .unwrap_or(Duration::ZERO)
}

/// The default of `--house-rate`: games an hour two house bots play each other.
pub const HOUSE_RATE: u32 = 12;

/// The span `--house-rate` counts over.
pub const HOUR: Duration = Duration::from_secs(3600);

/// When each two house bots last started a new pair, and how long they
/// wait before the next: `--house-rate N` games an hour is a pair (two
/// games) every `2/N` hours, spaced evenly rather than played in a burst
/// at the top of the hour (at 12, a pair every 10 minutes).
#[derive(Clone, Debug)]
pub struct HouseRate {
    spacing: Duration,
    last: BTreeMap<(String, String), Instant>,
}

fn pair_key(a: &str, b: &str) -> (String, String) {
    if a <= b {
        (a.to_owned(), b.to_owned())
    } else {
        (b.to_owned(), a.to_owned())
    }
}

impl HouseRate {
    /// At most `per_hour` games an hour (at least 1).
    pub fn new(per_hour: u32) -> HouseRate {
        HouseRate {
            spacing: HOUR * 2 / per_hour.max(1),
            last: BTreeMap::new(),
        }
    }

    /// Notes a new pair of `a` and `b` started at `at`.
    pub fn started(&mut self, a: &str, b: &str, at: Instant) {
        let last = self.last.entry(pair_key(a, b)).or_insert(at);
        *last = (*last).max(at);
    }

    /// Whether `a` and `b` may start a new pair at `now`.
    pub fn allows(&self, a: &str, b: &str, now: Instant) -> bool {
        self.last
            .get(&pair_key(a, b))
            .is_none_or(|t| now.saturating_duration_since(*t) >= self.spacing)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MS: Duration = Duration::from_millis(1);

    #[test]
    fn the_usual_length_is_the_median_of_the_latest_games() {
        let mut l = Lengths::default();
        assert_eq!(l.usual("a"), None);
        assert_eq!(l.patience("a"), None);
        for ms in [500, 400, 600, 20_000] {
            l.note("a", ms * MS);
        }
        // One slow game does not make a fast bot slow.
        assert_eq!(l.usual("a"), Some(600 * MS));
        assert_eq!(l.patience("a"), Some(300 * MS));
        // Only the latest are kept: 16 slow games later it is slow.
        for _ in 0..KEPT {
            l.note("a", 9000 * MS);
        }
        assert_eq!(l.usual("a"), Some(9000 * MS));
    }

    #[test]
    fn a_game_goes_on_as_long_as_its_slower_player_usually_takes() {
        let mut l = Lengths::default();
        l.note("fast", 500 * MS);
        l.note("slow", 10_000 * MS);
        assert_eq!(l.remaining(["fast", "fast"], 100 * MS), 400 * MS);
        assert_eq!(l.remaining(["fast", "slow"], 1000 * MS), 9000 * MS);
        // Past its usual length: a quarter of it still.
        assert_eq!(l.remaining(["slow", "fast"], 30_000 * MS), 2500 * MS);
        // A newcomer's game: as long again as it has lasted.
        assert_eq!(l.remaining(["new", "fast"], 100 * MS), 400 * MS);
        assert_eq!(l.remaining(["new", "fast"], 3000 * MS), 3000 * MS);
        let now = Instant::now();
        let games = [
            (["slow", "fast"], now - 1000 * MS),
            (["slow", "fast"], now - 9900 * MS),
        ];
        assert_eq!(expected_free_in(&l, false, &games, now), 2500 * MS);
        assert_eq!(expected_free_in(&l, true, &games, now), Duration::ZERO);
    }

    #[test]
    fn two_house_bots_play_at_most_the_rate_an_hour_spaced_evenly() {
        let t0 = Instant::now();
        let minute = Duration::from_secs(60);
        let mut r = HouseRate::new(12);
        assert!(r.allows("a", "b", t0));
        r.started("b", "a", t0);
        // A pair (two games) every 10 minutes: 12 games an hour.
        assert!(!r.allows("a", "b", t0 + 9 * minute));
        assert!(r.allows("a", "b", t0 + 10 * minute));
        // Another pair is counted apart.
        assert!(r.allows("a", "c", t0));
        // An older start noted late changes nothing.
        r.started("a", "b", t0 - 30 * minute);
        assert!(!r.allows("a", "b", t0 + 9 * minute));
        // One game an hour: a pair every two hours.
        let mut r = HouseRate::new(1);
        r.started("a", "b", t0);
        assert!(!r.allows("a", "b", t0 + 119 * minute));
        assert!(r.allows("a", "b", t0 + 120 * minute));
    }
}
