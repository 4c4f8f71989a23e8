//! `arbiter serve --watch` against real processes: shard logs written by
//! real `arbiter tournament --shard` runs of testbots are copied, line by
//! line and half a line at a time, into the watched files while a real
//! `arbiter serve --watch` follows them; its standings JSON must end equal
//! to `arbiter merge --json` of the same files.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::common;
use common::{get_json, run_arbiter as run};

/// A hang guard only: the machine is loaded, nothing here depends on speed.
const PATIENCE: Duration = Duration::from_secs(120);

fn bot(name: &str, seed: u32) -> Vec<String> {
    [
        "--engine".to_owned(),
        format!("cmd={}", common::testbot()),
        format!("name={name}"),
        "arg=--mode".to_owned(),
        "arg=random".to_owned(),
        "arg=--seed".to_owned(),
        format!("arg={seed}"),
        "depth=1".to_owned(),
    ]
    .to_vec()
}

/// Two shards of a 3-engine round robin (2 rounds, 12 games), each to its
/// own log: the logs' lines.
fn shard_logs(dir: &Path) -> [Vec<String>; 2] {
    [1, 2].map(|shard| {
        let log = dir.join(format!("shard{shard}.jsonl"));
        let mut args: Vec<String> = ["tournament", "--rounds", "2", "--openings", "plies=2"]
            .map(String::from)
            .to_vec();
        for (i, name) in ["Ant", "Bee", "Cat"].iter().enumerate() {
            args.extend(bot(name, 7 + i as u32));
        }
        args.extend([
            "--seed".into(),
            "3".into(),
            "--shard".into(),
            format!("{shard}/2"),
            "--jsonout".into(),
            log.display().to_string(),
        ]);
        run(dir, &args);
        std::fs::read_to_string(&log)
            .expect("shard log")
            .lines()
            .map(|l| format!("{l}\n"))
            .collect()
    })
}

fn serve_watch(logs: &[PathBuf]) -> common::Served {
    let mut args: Vec<std::ffi::OsString> = ["--watch-interval", "0.05", "--watch"]
        .map(Into::into)
        .to_vec();
    args.extend(logs.iter().map(|p| p.clone().into_os_string()));
    common::serve(&args)
}

/// Polls `path` until `done` holds for its JSON; returns that JSON.
fn wait_for(
    addr: &str,
    path: &str,
    what: &str,
    done: impl Fn(&serde_json::Value) -> bool,
) -> serde_json::Value {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let v = get_json(addr, path);
        if done(&v) {
            return v;
        }
        assert!(Instant::now() < deadline, "never {what}: {v}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn games(standings: &serde_json::Value) -> u64 {
    standings["games"].as_u64().unwrap_or(0)
}

fn append(path: &Path, text: &str) {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .expect("open watched log");
    f.write_all(text.as_bytes()).expect("append");
}

fn merge_json(dir: &Path, logs: &[PathBuf]) -> serde_json::Value {
    let mut args = vec!["merge".to_owned(), "--json".to_owned()];
    args.extend(logs.iter().map(|p| p.display().to_string()));
    serde_json::from_slice(&run(dir, &args).stdout).expect("merge --json")
}

#[test]
fn watched_shard_logs_give_the_standings_of_arbiter_merge_as_they_grow() {
    let scratch = common::Scratch::new("watch", "grow");
    let dir = &scratch.0;
    let [one, two] = shard_logs(dir);
    assert_eq!((one.len(), two.len()), (6, 6));
    let logs = [dir.join("a.jsonl"), dir.join("b.jsonl")];
    // b.jsonl does not exist yet when the watch starts.
    std::fs::write(&logs[0], "").unwrap();
    let server = serve_watch(&logs);
    let standings = "/api/live/standings";

    // Half a line in a (a shard in the middle of its append), a whole one in b.
    let (head, rest) = one[0].split_at(one[0].len() / 2);
    append(&logs[0], head);
    append(&logs[1], &two[0]);
    let v = wait_for(&server.addr, standings, "one game", |v| games(v) >= 1);
    assert_eq!(games(&v), 1, "the half line does not count: {v}");
    append(&logs[0], rest);
    let v = wait_for(&server.addr, standings, "two games", |v| games(v) >= 2);
    assert_eq!(games(&v), 2, "{v}");
    assert_eq!(v, merge_json(dir, &logs), "after two games");

    // The rest, a few lines at a time into both.
    for (i, chunk) in one[1..].chunks(2).enumerate() {
        append(&logs[0], &chunk.concat());
        append(
            &logs[1],
            &two[1 + i * 2..(3 + i * 2).min(two.len())].concat(),
        );
    }
    let v = wait_for(&server.addr, standings, "all 12 games", |v| games(v) == 12);
    assert_eq!(v, merge_json(dir, &logs), "the final standings");

    // The finished games, each addressed in its log for the replay view.
    let snapshot = get_json(&server.addr, "/api/live/snapshot");
    let finished = snapshot["finished"].as_array().expect("finished list");
    assert_eq!(finished.len(), 12, "{snapshot}");
    let last = &finished[11];
    let (log, game) = (
        last["log"].as_u64().unwrap(),
        last["summary"]["index"].as_u64().unwrap(),
    );
    let replay = get_json(&server.addr, &format!("/api/logs/{log}?game={game}"));
    assert_eq!(
        replay["summary"], last["summary"],
        "the link replays that game"
    );
    assert_eq!(snapshot["progress"]["done"], 12);
    assert_eq!(snapshot["progress"]["total"], 12);
    assert_eq!(snapshot["problems"], serde_json::json!([]));

    // b rewritten through a rename (another file): named on the page, the
    // games read before still count.
    let tmp = dir.join("b.tmp");
    std::fs::write(&tmp, two.concat()).unwrap();
    std::fs::rename(&tmp, &logs[1]).unwrap();
    let snapshot = wait_for(&server.addr, "/api/live/snapshot", "a problem", |v| {
        v["problems"].as_array().is_some_and(|p| !p.is_empty())
    });
    let problem = snapshot["problems"][0].as_str().unwrap_or_default();
    assert!(
        problem.contains("b.jsonl: the file was replaced"),
        "{problem}"
    );
    assert_eq!(snapshot["standings"], merge_json(dir, &logs));
}

#[test]
fn a_bad_watch_interval_is_refused_before_serving() {
    let scratch = common::Scratch::new("watch", "interval");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .current_dir(&scratch.0)
        .args(["serve", "--listen", "127.0.0.1:0", "--watch", "a.jsonl"])
        .args(["--watch-interval", "0"])
        .output()
        .expect("run arbiter");
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("--watch-interval: 0 is not"), "{stderr}");
    assert!(out.stdout.is_empty(), "nothing served");
}
