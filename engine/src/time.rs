//! Time management: how long to think from the clock fields of `go`.

use std::time::Duration;

/// What the clock says for the side to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClockState {
    pub time: Option<Duration>,
    pub inc: Duration,
    pub movestogo: Option<u32>,
    pub movetime: Option<Duration>,
}

/// Soft (do not start another iteration) and hard (abandon the search) limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    pub soft: Duration,
    pub hard: Duration,
}

/// Moves assumed left in a sudden-death game.
const DEFAULT_MOVES_TO_GO: u32 = 25;

/// The budget for one move, or `None` when the clock sets no limit.
/// `overhead` is the `Move Overhead` option: time lost outside the search
/// (pipes, scheduling, the arbiter's own work).
pub fn budget(clock: ClockState, overhead: Duration) -> Option<Budget> {
    let floor = Duration::from_millis(1);
    if let Some(movetime) = clock.movetime {
        let t = movetime.saturating_sub(overhead).max(floor);
        return Some(Budget { soft: t, hard: t });
    }
    let time = clock.time?;
    let avail = time.saturating_sub(overhead);
    let mtg = clock.movestogo.unwrap_or(DEFAULT_MOVES_TO_GO).clamp(1, 100);
    let share = avail / mtg + clock.inc * 3 / 4;
    let cap = if mtg == 1 { avail * 9 / 10 } else { avail / 2 };
    let soft = share.min(cap).max(floor);
    let hard = (soft * 3).min(avail * 9 / 10).max(soft);
    Some(Budget { soft, hard })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn movetime_minus_overhead() {
        let c = ClockState {
            movetime: Some(ms(100)),
            ..Default::default()
        };
        assert_eq!(
            budget(c, ms(10)),
            Some(Budget {
                soft: ms(90),
                hard: ms(90)
            })
        );
        let c = ClockState {
            movetime: Some(ms(5)),
            ..Default::default()
        };
        assert_eq!(budget(c, ms(10)).map(|b| b.hard), Some(ms(1)));
    }

    #[test]
    fn sudden_death_spends_a_share_and_never_the_whole_clock() {
        let c = ClockState {
            time: Some(ms(10_000)),
            ..Default::default()
        };
        let b = budget(c, ms(0)).unwrap();
        assert_eq!(b.soft, ms(400));
        assert_eq!(b.hard, ms(1200));
        let c = ClockState {
            time: Some(ms(50)),
            movestogo: Some(1),
            ..Default::default()
        };
        let b = budget(c, ms(10)).unwrap();
        assert!(b.hard < ms(40));
    }

    #[test]
    fn increment_is_mostly_spent() {
        let c = ClockState {
            time: Some(ms(1000)),
            inc: ms(100),
            ..Default::default()
        };
        assert_eq!(budget(c, ms(0)).unwrap().soft, ms(40 + 75));
    }

    #[test]
    fn no_clock_no_budget() {
        assert_eq!(budget(ClockState::default(), ms(10)), None);
    }
}
