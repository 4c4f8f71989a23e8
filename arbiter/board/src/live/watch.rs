//! `arbiter serve --watch LOG…`: the producer that feeds the live hub from
//! results logs written by other processes (the shards of an event), so the
//! live page shows them as it shows an event run by this process.
//!
//! A thread of its own looks at the logs every `interval`
//! ([`arbiter_core::event::watch`]: tailed, merged as `arbiter merge` merges) and
//! publishes what changed: each game that now counts (addressed in its log
//! for the replay view), then the event, the standings (the JSON of
//! `arbiter merge --json`) and the progress (games merged of the schedule's
//! slots), and the problems (a log that stopped being followed, logs that
//! cannot be merged). Publishing never waits for a page.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Duration;

use crate::live::hub::{EventMeta, GameFinished, LiveHub, LiveMsg, Progress};
use arbiter_core::event::merge::Look;
use arbiter_core::event::watch::Watch;
use arbiter_core::records::tail::FileState;

/// Finished games listed after one look, the newest: a log read at once
/// (the first look, a shard's log arriving late) must not send a page more
/// messages at once than its queue holds ([`super::socket::QUEUED`]; a page
/// that falls behind skips ahead to a fresh snapshot); the others are in
/// the logs, and counted in the standings.
pub const BURST: usize = 100;

/// What to watch.
#[derive(Clone, Debug)]
pub struct WatchConfig {
    /// The results logs, in the order `arbiter merge` would be given them.
    pub logs: Vec<PathBuf>,
    /// The place of the first of them in the server's logs (`/api/logs/<k>`),
    /// for the replay links.
    pub first_log: usize,
    /// Between two looks at the logs.
    pub interval: Duration,
}

/// The watch and what it last told the hub.
pub struct Feed {
    watch: Watch,
    hub: LiveHub,
    first_log: usize,
    event: Option<EventMeta>,
    merge_problem: Option<String>,
    problems: Vec<String>,
}

impl Feed {
    pub fn new(hub: LiveHub, logs: &[PathBuf], first_log: usize) -> Feed {
        Feed {
            watch: Watch::new(logs),
            hub,
            first_log,
            event: None,
            merge_problem: None,
            problems: Vec::new(),
        }
    }

    /// One look at the logs; publishes what changed.
    pub fn step(&mut self) {
        let mut finished = VecDeque::new();
        let first_log = self.first_log;
        let merged = self.watch.step(|g| {
            if finished.len() == BURST {
                finished.pop_front();
            }
            finished.push_back(GameFinished::new(
                None,
                Some(first_log + g.file),
                g.index,
                &g.game,
            ));
        });
        for f in finished {
            self.hub.publish(LiveMsg::GameFinished(f));
        }
        match merged {
            Some(Ok(m)) => {
                self.merge_problem = None;
                self.publish_merged(&m);
            }
            Some(Err(e)) => self.merge_problem = Some(e.0),
            None => {}
        }
        self.publish_problems();
    }

    fn publish_merged(&mut self, m: &Look) {
        let total = m.schedule.as_ref().map(|(_, size)| *size as u64);
        let event = event_meta(m, total);
        if self.event.as_ref() != Some(&event) {
            self.event = Some(event.clone());
            self.hub.publish(LiveMsg::Event(event));
        }
        self.hub.publish(LiveMsg::Standings(m.report()));
        self.hub.publish(LiveMsg::Progress(Progress {
            done: m.counted as u64,
            total,
            eta_secs: None,
        }));
    }

    /// What is wrong now, when it changed: logs not (or not fully) followed,
    /// and why the logs cannot be merged.
    fn publish_problems(&mut self) {
        let mut problems: Vec<String> = self
            .watch
            .statuses()
            .into_iter()
            .filter_map(|s| match s.state {
                FileState::Trouble(e) | FileState::Stopped(e) => Some(e.to_string()),
                FileState::Waiting | FileState::Following => None,
            })
            .collect();
        problems.extend(self.merge_problem.clone());
        if problems != self.problems {
            for p in &problems {
                tracing::warn!("watch: {p}");
            }
            self.problems = problems.clone();
            self.hub.publish(LiveMsg::Problems { problems });
        }
    }
}

/// The event as the merged logs tell it.
fn event_meta(m: &Look, total: Option<u64>) -> EventMeta {
    EventMeta {
        event: m.event.clone(),
        games: m.kinds.clone(),
        engines: m.names.clone(),
        total,
        source: "watch".to_owned(),
    }
}

/// Starts the watch on a thread of its own (file reads block; the server's
/// tasks never wait for them). It runs as long as the process.
pub fn spawn(hub: LiveHub, config: WatchConfig) -> std::io::Result<()> {
    std::thread::Builder::new()
        .name("watch".to_owned())
        .spawn(move || {
            let mut feed = Feed::new(hub.clone(), &config.logs, config.first_log);
            loop {
                // why: a bug here must not pass silently as logs that stopped
                // growing; the rest of the server goes on either way.
                let looked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| feed.step()));
                if looked.is_err() {
                    let problem = "the watch of the logs stopped on an internal error (see the \
                                   server's output); restart arbiter serve"
                        .to_owned();
                    tracing::error!("{problem}");
                    hub.publish(LiveMsg::Problems {
                        problems: vec![problem],
                    });
                    return;
                }
                std::thread::sleep(config.interval);
            }
        })
        .map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arbiter_core::records::jsonl;
    use arbiter_core::testing::rules_log;
    use std::io::Write;

    #[test]
    fn a_log_read_at_once_lists_only_its_newest_games() {
        let d = arbiter_core::testing::test_dir("live-burst");
        let a = d.join("a.jsonl");
        let text: String = (0..BURST + 50)
            .map(|i| {
                let mut g = rules_log();
                g.round = format!("{}", i + 1);
                jsonl::to_line(&g) + "\n"
            })
            .collect();
        std::fs::write(&a, text).unwrap();
        let hub = LiveHub::new();
        let (_, mut rx) = hub.subscribe();
        Feed::new(hub.clone(), std::slice::from_ref(&a), 0).step();
        let snap = hub.snapshot();
        assert_eq!(snap.finished.len(), BURST);
        assert_eq!(snap.finished[BURST - 1].summary.index, BURST + 49);
        assert_eq!(snap.standings.map(|s| s.games), Some(BURST as u32 + 50));
        let mut sent = 0;
        while rx.try_recv().is_ok() {
            sent += 1;
        }
        // The listed games, the event, the standings and the progress.
        assert_eq!(sent, BURST + 3);
    }

    #[test]
    fn the_hub_gets_the_merge_the_finished_games_and_the_problems() {
        let d = arbiter_core::testing::test_dir("live-watch");
        let (a, b) = (d.join("a.jsonl"), d.join("b.jsonl"));
        let hub = LiveHub::new();
        let mut feed = Feed::new(hub.clone(), &[a.clone(), b.clone()], 3);
        feed.step();
        assert_eq!(hub.standings(), None, "no game yet");
        let mut second = rules_log();
        second.north = "Gamma".into();
        let text = jsonl::to_line(&rules_log()) + "\n" + &jsonl::to_line(&second) + "\n";
        std::fs::write(&b, &text).unwrap();
        feed.step();
        let batch = arbiter_core::event::merge::merge(std::slice::from_ref(&b)).unwrap();
        assert_eq!(hub.standings(), Some(batch.report()));
        let snap = hub.snapshot();
        let links: Vec<(Option<usize>, usize)> = snap
            .finished
            .iter()
            .map(|f| (f.log, f.summary.index))
            .collect();
        assert_eq!(
            links,
            [(Some(4), 0), (Some(4), 1)],
            "b is the server's log 4"
        );
        let event = snap.event.expect("event");
        assert_eq!(event.engines, ["Alpha", "Beta 2.0", "Gamma"]);
        assert_eq!(event.source, "watch");
        assert_eq!(snap.progress.map(|p| (p.done, p.total)), Some((2, None)));
        // A bad line in a: the problem is on the page, b goes on.
        std::fs::write(&a, "not a game\n").unwrap();
        let mut f = std::fs::OpenOptions::new().append(true).open(&b).unwrap();
        f.write_all(jsonl::to_line(&rules_log()).as_bytes())
            .unwrap();
        f.write_all(b"\n").unwrap();
        feed.step();
        let snap = hub.snapshot();
        assert_eq!(snap.problems.len(), 1, "{:?}", snap.problems);
        assert!(
            snap.problems[0].contains("a.jsonl: line 1"),
            "{:?}",
            snap.problems
        );
        assert_eq!(snap.finished.len(), 2, "an exact copy is no new game");
        assert_eq!(
            snap.standings.map(|s| s.games),
            Some(2),
            "standings as arbiter merge: the copy is dropped"
        );
    }
}
