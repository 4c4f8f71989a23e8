//! The watchdog room: engines die with the arbiter, however it dies.
//!
//! The arbiter ends its engines itself on every normal path (the end of a
//! run, an error, SIGINT, SIGTERM, SIGHUP). Two mechanisms cover the paths
//! where it cannot, such as SIGKILL or an abort:
//!
//! - **`PR_SET_PDEATHSIG`** ([`crate::contender::process`] sets it on every
//!   engine): the kernel SIGKILLs the engine process itself when the arbiter
//!   dies. It does not reach the engine's own children.
//! - **This watchdog**: a small helper process (the arbiter binary itself,
//!   started with [`WATCHDOG_ARG`]) in its own process group, told the process
//!   group of every engine as it starts and ends. It holds the read end of a
//!   pipe whose only writer is the arbiter; when the arbiter dies, the pipe
//!   ends and the watchdog SIGKILLs every engine group still registered — the
//!   engines and every descendant still in their groups — then exits. It
//!   ignores SIGINT, SIGTERM and SIGHUP (a terminal's Ctrl-C reaches the whole
//!   foreground group; the arbiter handles those itself).
//!
//! **What is not contained:** a descendant that leaves its engine's process
//! group (`setsid`, `setpgid`) and outlives a SIGKILLed arbiter. While the
//! arbiter lives, such a process is caught too: the arbiter is a child
//! subreaper (`PR_SET_CHILD_SUBREAPER`), so when its engine ends, the escaped
//! process becomes the arbiter's child and is killed and reaped
//! ([`sweep_adopted`]). Only a cgroup could hold it past the arbiter's own
//! SIGKILL.
//!
//! The watchdog and the subreaper are for the `arbiter` binary ([`install`]);
//! a library user who does not call it still gets `PR_SET_PDEATHSIG` and the
//! group kills.

use std::collections::BTreeSet;
use std::io::{self, BufRead, Write};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The first argument that makes the arbiter binary run as the watchdog.
pub const WATCHDOG_ARG: &str = "--internal-engine-watchdog";

/// The pipe to the watchdog, once started; its pid.
static WATCHDOG: Mutex<Option<(ChildStdin, u32)>> = Mutex::new(None);

/// Whether [`install`] made this process a subreaper.
static SUBREAPER: AtomicBool = AtomicBool::new(false);

/// Starts the watchdog (`program` is the arbiter's own executable) and makes
/// this process a child subreaper. Call once, before the first engine.
pub fn install(program: &Path) -> io::Result<()> {
    // SAFETY: prctl with integer arguments only; it changes a flag of this process.
    if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == 0 {
        SUBREAPER.store(true, Ordering::SeqCst);
    }
    let child = Command::new(program)
        .arg(WATCHDOG_ARG)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        // why its own group: a kill of the arbiter's group must not take it along.
        .process_group(0)
        .spawn()?;
    let pid = child.id();
    let stdin = child
        .stdin
        .ok_or_else(|| io::Error::other("watchdog started without its pipe"))?;
    *lock() = Some((stdin, pid));
    Ok(())
}

fn lock() -> std::sync::MutexGuard<'static, Option<(ChildStdin, u32)>> {
    WATCHDOG.lock().unwrap_or_else(|p| p.into_inner())
}

/// Tells the watchdog that engine group `pgid` is live (`live`) or gone.
pub(crate) fn register(pgid: i32, live: bool) {
    let mut guard = lock();
    if let Some((pipe, _)) = guard.as_mut() {
        let sign = if live { '+' } else { '-' };
        // why ignore errors: a dead watchdog only loses the SIGKILL safety net;
        // the arbiter still ends its engines itself.
        let _ = writeln!(pipe, "{sign}{pgid}");
    }
}

/// Kills and reaps the processes this subreaper adopted: descendants of
/// engines that left their engine's group and outlived it. The watchdog and
/// the engines still registered (`keep`) are spared. Returns how many were
/// killed. Does nothing unless [`install`] made this process a subreaper.
pub(crate) fn sweep_adopted(keep: &BTreeSet<i32>) -> usize {
    if !SUBREAPER.load(Ordering::SeqCst) {
        return 0;
    }
    let watchdog = lock().as_ref().map(|(_, pid)| *pid);
    let mut killed = 0;
    for pid in own_children() {
        let Ok(id) = i32::try_from(pid) else { continue };
        if Some(pid) == watchdog || keep.contains(&id) || id <= 1 {
            continue;
        }
        // SAFETY: kill and waitpid take integers and a status pointer to a
        // local; `pid` is our own child, so it cannot have been reused before
        // we reap it.
        unsafe {
            libc::kill(id, libc::SIGKILL);
            let mut status = 0;
            libc::waitpid(id, &mut status, 0);
        }
        killed += 1;
    }
    killed
}

/// The pids of this process's children (from `/proc/self/task/*/children`).
fn own_children() -> Vec<u32> {
    let mut pids = Vec::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return pids;
    };
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            pids.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<u32>().ok()),
            );
        }
    }
    pids.sort_unstable();
    pids.dedup();
    pids
}

/// The watchdog's main: reads `+pgid`/`-pgid` lines until the arbiter's end
/// of the pipe closes, then SIGKILLs every group still registered. Returns
/// the exit status.
pub fn run() -> i32 {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGPIPE] {
        // SAFETY: setting a signal's disposition to "ignore" touches no memory.
        unsafe {
            libc::signal(signal, libc::SIG_IGN);
        }
    }
    let mut groups = BTreeSet::new();
    for line in io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let (live, number) = match line.split_at_checked(1) {
            Some(("+", n)) => (true, n),
            Some(("-", n)) => (false, n),
            _ => continue,
        };
        let Ok(pgid) = number.trim().parse::<i32>() else {
            continue;
        };
        if live {
            groups.insert(pgid);
        } else {
            groups.remove(&pgid);
        }
    }
    for pgid in groups.into_iter().filter(|&g| g > 1) {
        // SAFETY: killpg takes two integers.
        unsafe {
            libc::killpg(pgid, libc::SIGKILL);
        }
    }
    0
}
