//! The signal loop of a command: runs its work until it ends or a signal
//! stops it (the first drains a server or a `--live` event, a second stops
//! at once), and returns the exit status either way.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use super::{clocks_run_out, ShutdownTrigger, Signals, Stop};
use crate::contender::process::kill_all_engines;

/// How a command stops at a signal.
#[derive(Clone, Copy, Debug, Default)]
pub struct Policy {
    /// It drains at a first signal (a server, a `--live` event); else the
    /// first signal stops it at once, as a plain tournament's `--resume`
    /// expects.
    pub drains: bool,
    /// It keeps finished games in logs (a match, a tournament): the
    /// messages say so, and its drain has a backstop (a server has its own).
    pub keeps_logs: bool,
    /// A `--live` event's `--drain`; `None`: the games' own clocks.
    pub event_drain: Option<Duration>,
}

/// Runs `work` (which returns the exit status) until it ends, moving
/// `trigger` on at each signal as `policy` says; a stop at once kills the
/// engines and returns 128 + the signal's number (the shell's convention).
pub async fn run(work: impl Future<Output = i32>, policy: Policy, trigger: ShutdownTrigger) -> i32 {
    let mut signals = Signals::new();
    tokio::pin!(work);
    let mut signal = tokio::select! {
        code = &mut work => return code,
        signal = signals.next() => signal,
    };
    if policy.drains {
        match drain(work.as_mut(), &mut signals, signal, policy, &trigger).await {
            Ok(code) => return code,
            Err(second) => signal = second,
        }
    }
    // why first: a game that ends from here on (its engine killed just
    // below) is aborted, never a result.
    trigger.now();
    let n = kill_all_engines();
    let kept = if policy.keeps_logs {
        "; finished games are in the logs"
    } else {
        ""
    };
    eprintln!("arbiter: {signal}; killed {n} engine process group(s){kept}");
    128 + signal.number()
}

/// The first signal of a server: no new game, the games in progress finish
/// (the server's own deadline, or an event's backstop), then `work` returns.
/// `Ok`: the exit status; `Err`: a second signal came first.
async fn drain(
    work: Pin<&mut impl Future<Output = i32>>,
    signals: &mut Signals,
    signal: Stop,
    policy: Policy,
    trigger: &ShutdownTrigger,
) -> Result<i32, Stop> {
    eprintln!(
        "arbiter: {signal}: stopping: no new game, the games in progress finish \
         (a second signal stops at once)"
    );
    trigger.drain();
    // why a backstop for an event only: the arena and serve have their
    // own --drain. By default the games' own clocks, as they move.
    let backstop = async {
        match (policy.keeps_logs, policy.event_drain) {
            (true, Some(d)) => tokio::time::sleep(d).await,
            (true, None) => clocks_run_out(|| trigger.games_in_progress()).await,
            (false, _) => std::future::pending::<()>().await,
        }
    };
    let started = Instant::now();
    tokio::select! {
        code = work => Ok(code),
        signal = signals.next() => Err(signal),
        () = backstop => {
            trigger.now();
            let n = kill_all_engines();
            eprintln!(
                "arbiter: the games in progress did not finish in {} s (--drain): killed {n} \
                 engine process group(s); they are aborted, never a result; finished games \
                 are in the logs",
                started.elapsed().as_secs_f64().round()
            );
            Ok(0)
        }
    }
}
