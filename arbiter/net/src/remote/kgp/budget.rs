//! When the arbiter says `stop` to a KGP bot. A KGP bot keeps improving its
//! `move` until the server stops it (or it yields), so the adapter is its
//! time manager, as a KGP server with a per-move timeout is: from the UMI
//! `go` it works out how long this move may take, sends `stop` then, and
//! plays the bot's last move. The arbiter's own clock is untouched by this:
//! it still charges the time from `go` to `bestmove` and flags a move that
//! comes too late.

use std::time::Duration;

use mancala_rules::Side;

/// Moves a clock is shared over when `go` gives no `movestogo` (a Kalah game
/// lasts some 20 to 40 moves a side).
const MOVES_LEFT_GUESS: u64 = 25;

/// The time kept back from a budget for the adapter's own reaction (its
/// `bestmove` is sent locally, so this covers scheduling on a loaded
/// machine, not the network).
fn reserve(available: Duration) -> Duration {
    (available / 10).clamp(Duration::from_millis(20), Duration::from_millis(500))
}

/// The thinking time of one move; `None` when `go` sets no time at all
/// (`depth`, `nodes`, `infinite`: the bot's `yield` or the arbiter's
/// `stop` ends the search).
pub fn budget(go: &umi::Go, mover: Side) -> Option<Duration> {
    if go.infinite {
        return None;
    }
    if let Some(ms) = go.movetime {
        let t = Duration::from_millis(ms);
        return Some(t.saturating_sub(reserve(t)));
    }
    let left = Duration::from_millis(go.time(mover)?);
    let inc = Duration::from_millis(go.inc(mover).unwrap_or(0));
    let moves = go
        .movestogo
        .map_or(MOVES_LEFT_GUESS, |n| u64::from(n.max(1)));
    // why 3/4 of the increment: it comes back after the move, but spending
    // all of it every move leaves nothing for a slow answer.
    let share = left / moves as u32 + inc * 3 / 4;
    Some(share.min(left.saturating_sub(reserve(left))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn go(line: &str) -> umi::Go {
        match umi::Command::parse(line).unwrap() {
            umi::Command::Go(g) => g,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_fixed_time_is_used_up_to_the_reserve() {
        let b = budget(&go("go movetime 1000"), Side::South).unwrap();
        assert_eq!(b, Duration::from_millis(900));
        let b = budget(&go("go movetime 100"), Side::North).unwrap();
        assert_eq!(b, Duration::from_millis(80));
    }

    #[test]
    fn a_clock_is_shared_over_the_moves_left_with_the_mover_s_own_time() {
        let g = go("go p1time 50000 p2time 10000 p1inc 1000 p2inc 0");
        assert_eq!(budget(&g, Side::South), Some(Duration::from_millis(2750)));
        assert_eq!(budget(&g, Side::North), Some(Duration::from_millis(400)));
        let g = go("go p1time 10000 p2time 10000 movestogo 2");
        assert_eq!(budget(&g, Side::South), Some(Duration::from_millis(5000)));
        // One move left: all of it but the reserve.
        let g = go("go p1time 1000 p2time 1000 movestogo 1");
        assert_eq!(budget(&g, Side::North), Some(Duration::from_millis(900)));
        // A big increment never takes the budget over the time left.
        let g = go("go p1time 100 p2time 100 p1inc 5000 p2inc 5000");
        assert_eq!(budget(&g, Side::South), Some(Duration::from_millis(80)));
    }

    #[test]
    fn no_time_no_stop() {
        assert_eq!(budget(&go("go depth 8"), Side::South), None);
        assert_eq!(budget(&go("go infinite"), Side::South), None);
        assert_eq!(budget(&go("go"), Side::South), None);
    }
}
