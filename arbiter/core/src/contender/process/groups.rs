//! The registry of live engine process groups, and the signals sent to
//! them: every engine's group is registered while it may have processes,
//! so a stop (Ctrl-C, SIGTERM, SIGHUP) can kill them all at once.

use std::collections::BTreeSet;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Process groups of engines that may still have live processes.
static LIVE_GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

pub(super) fn live_groups() -> MutexGuard<'static, BTreeSet<i32>> {
    // why: a panic elsewhere while holding the lock must not stop Ctrl-C cleanup.
    LIVE_GROUPS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// SIGKILLs the process group of every engine that is still live (for the Ctrl-C
/// handler: call it from the task that awaited `tokio::signal::ctrl_c()`, not
/// from a raw signal handler, as it takes a lock). Returns how many groups were
/// signalled. It does not reap: the owners do that (or the arbiter exits).
pub fn kill_all_engines() -> usize {
    // why before the kill: an engine seen dead from here on died by our
    // hand, and its game must not be charged to it (see [`killed_by_arbiter`]).
    KILLED_ALL.store(true, std::sync::atomic::Ordering::SeqCst);
    live_groups()
        .iter()
        .filter(|&&pgid| kill_group(pgid))
        .count()
}

/// Set by [`kill_all_engines`]: the arbiter killed its engines itself (it is
/// stopping), so an engine gone from then on did not crash.
static KILLED_ALL: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Whether the arbiter has killed its engines itself ([`kill_all_engines`],
/// a stop at once): an engine seen gone since is no crash of its own, and
/// its game is interrupted, never scored ([`crate::play::game::gone`]).
pub fn killed_by_arbiter() -> bool {
    KILLED_ALL.load(std::sync::atomic::Ordering::SeqCst)
}

/// Kills and reaps every process this arbiter adopted as a subreaper (the
/// descendants of ended engines that had left their group), sparing live
/// engines. For the very end of the arbiter, after [`kill_all_engines`].
pub fn kill_adopted() -> usize {
    let groups = live_groups();
    // why wait: an engine SIGKILLed a moment ago (by [`kill_all_engines`])
    // hands its escaped descendants to us only once it has exited; swept
    // before that, they were not our children yet and outlived the arbiter
    // (a signal's race, seen 1 run in 3).
    wait_for_exit(&groups, EXIT_WAIT_LIMIT);
    let mut total = 0;
    // why a few rounds: killing an adopted process hands its own children to us.
    for _ in 0..4 {
        let n = crate::contender::watchdog::sweep_adopted(&groups);
        total += n;
        if n == 0 {
            break;
        }
    }
    total
}

/// The longest [`kill_adopted`] waits for SIGKILLed engines to exit.
const EXIT_WAIT_LIMIT: Duration = Duration::from_secs(2);

/// Waits (at most `limit`) until every engine `pids` names (our children)
/// has exited, all its threads: only then has it handed its children to
/// the subreaper. (Its main thread shows as a zombie sooner, while other
/// threads still die; those take the children meanwhile.)
fn wait_for_exit(pids: &BTreeSet<i32>, limit: Duration) {
    let deadline = std::time::Instant::now() + limit;
    while !pids.iter().all(|&pid| exited(pid)) && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Whether our child `pid` has exited (or is gone), without reaping it.
fn exited(pid: i32) -> bool {
    let Ok(id) = libc::id_t::try_from(pid) else {
        return true;
    };
    // SAFETY: waitid writes the one siginfo we pass, which outlives the
    // call; WNOWAIT leaves the child to be reaped by its owner, WNOHANG
    // never blocks.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let flags = libc::WEXITED | libc::WNOWAIT | libc::WNOHANG;
        // why a thread group's exit: waitid reports it once every thread
        // has exited, which is when the children have been handed on.
        libc::waitid(libc::P_PID, id, &mut info, flags) != 0 || info.si_pid() != 0
    }
}

/// How many engine process groups are registered as live.
pub fn live_engine_count() -> usize {
    live_groups().len()
}

/// SIGKILLs process group `pgid`; false if there was nothing to signal.
pub(super) fn kill_group(pgid: i32) -> bool {
    // why: killpg(0) is our own group and 1 is init; an engine's group id is its
    // pid, which is never either.
    if pgid <= 1 {
        return false;
    }
    // SAFETY: killpg takes two integers and touches no memory of ours.
    unsafe { libc::killpg(pgid, libc::SIGKILL) == 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn never_signals_own_group_or_init() {
        assert!(!kill_group(0));
        assert!(!kill_group(1));
        assert!(!kill_group(-5));
    }
}
