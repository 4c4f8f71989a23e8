//! `arbiter serve --watch` against real processes: shard logs written by
//! real `arbiter tournament --shard` runs of testbots are copied, line by
//! line and half a line at a time, into the watched files while a real
//! `arbiter serve --watch` follows them; its standings JSON must end equal
//! to `arbiter merge --json` of the same files.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");
/// A hang guard only: the machine is loaded, nothing here depends on speed.
const PATIENCE: Duration = Duration::from_secs(120);

fn run(dir: &Path, args: &[String]) -> Output {
    let out = Command::new(ARBITER)
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run arbiter");
    assert!(
        out.status.success(),
        "arbiter {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

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

/// `arbiter serve --watch`, killed when the test ends.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve_watch(dir: &Path, logs: &[PathBuf]) -> Server {
    let mut cmd = Command::new(ARBITER);
    cmd.current_dir(dir)
        .args([
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--watch-interval",
            "0.05",
        ])
        .arg("--watch")
        .args(logs);
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter serve starts");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout).read_line(&mut line).expect("a line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    Server { child, addr }
}

/// `GET path`: the status and the body.
fn get(addr: &str, path: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_read_timeout(Some(PATIENCE))
        .expect("read timeout");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("sends");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("reads");
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"));
    let body = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, body.to_owned())
}

fn get_json(addr: &str, path: &str) -> serde_json::Value {
    let (status, body) = get(addr, path);
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
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
    let server = serve_watch(dir, &logs);
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
}
