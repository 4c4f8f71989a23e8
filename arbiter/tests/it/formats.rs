//! `--format swiss`, `knockout` and `pyramid` against real processes, and an
//! event of 10^8 rounds: the Swiss's rules and tie-breaks recomputed here
//! from the results log (independently of the arbiter's code), resume after
//! `kill -9` giving the same event, a knockout with a tie, the live page and
//! `--standings-json` of each format.
//!
//! The reference engine at a fixed depth and a `Level` is deterministic (its
//! noise is seeded by the position), which lets a resumed event be compared
//! with an uninterrupted one.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::common;
use common::run_arbiter as run;

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// The reference engine at `level`, searching 2 plies at most: an instant
/// time control.
fn level(name: &str, level: u32) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("cmd={}", common::engine()),
        format!("name={name}"),
        format!("option.Level={level}"),
        // why: a small hash table starts faster (the tests start many).
        "option.Hash=1".into(),
        "depth=2".into(),
    ]
}

/// `n` engines at levels spread over 1 … 20, strongest listed first.
fn field(n: usize) -> Vec<String> {
    (0..n)
        .flat_map(|i| {
            let l = 20 - (i * 19 / n.saturating_sub(1).max(1)) as u32;
            level(&format!("e{i:02}"), l)
        })
        .collect()
}

fn args(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|s| s.to_string()).collect()
}

fn p(path: &Path) -> String {
    path.display().to_string()
}

/// One logged game: slot, pair, seats (South, North), South's half points,
/// start position.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Game {
    slot: usize,
    pair: usize,
    seats: (usize, usize),
    south_half_points: u32,
    start: String,
}

fn games(log: &Path) -> Vec<Game> {
    let text = std::fs::read_to_string(log).expect("results log");
    let mut games: Vec<Game> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            let tag = |k: &str| v["tags"][k].as_str().expect("tag").to_owned();
            let (s, n) = tag("Seats")
                .split_once('-')
                .map(|(a, b)| (a.to_owned(), b.to_owned()))
                .unwrap();
            let south_half_points = match v["result"].as_str().expect("result") {
                "1-0" => 2,
                "0-1" => 0,
                _ => 1,
            };
            Game {
                slot: tag("Slot").split('/').next().unwrap().parse().unwrap(),
                pair: tag("Pair").parse().unwrap(),
                seats: (s.parse().unwrap(), n.parse().unwrap()),
                south_half_points,
                start: v["start_position"].as_str().unwrap().to_owned(),
            }
        })
        .collect();
    games.sort();
    games
}

/// Half points per engine, per round, from the games; the bye scores a won
/// round (4 half points with one game id); `None` marks the bye.
fn rounds_of(games: &[Game], n: usize, per_stage: usize) -> Vec<Vec<(Option<usize>, u32)>> {
    let mut by_round: BTreeMap<usize, Vec<&Game>> = BTreeMap::new();
    for g in games {
        by_round.entry(g.slot / per_stage).or_default().push(g);
    }
    let mut entries = vec![Vec::new(); n];
    for round in by_round.values() {
        let mut points: BTreeMap<usize, (usize, u32)> = BTreeMap::new();
        for g in round {
            let (s, no) = g.seats;
            points.entry(s).or_insert((no, 0)).1 += g.south_half_points;
            points.entry(no).or_insert((s, 0)).1 += 2 - g.south_half_points;
        }
        for (e, entry) in entries.iter_mut().enumerate() {
            match points.get(&e) {
                Some(&(opponent, hp)) => entry.push((Some(opponent), hp)),
                None => entry.push((None, 4)),
            }
        }
    }
    entries
}

/// Buchholz, median Buchholz and Sonneborn–Berger (in points) as the docs
/// define them, written out here on their own.
fn tie_breaks(entries: &[Vec<(Option<usize>, u32)>]) -> Vec<(f64, f64, f64, f64)> {
    let score: Vec<f64> = entries
        .iter()
        .map(|r| r.iter().map(|&(_, hp)| f64::from(hp) / 2.0).sum())
        .collect();
    entries
        .iter()
        .enumerate()
        .map(|(me, rounds)| {
            let mut opp: Vec<f64> = rounds
                .iter()
                .map(|&(o, _)| o.map_or(score[me], |o| score[o]))
                .collect();
            let buchholz: f64 = opp.iter().sum();
            let sb: f64 = rounds
                .iter()
                .zip(&opp)
                .map(|(&(_, hp), s)| f64::from(hp) / 2.0 * s)
                .sum();
            opp.sort_by(f64::total_cmp);
            let median: f64 = if opp.len() >= 3 {
                opp[1..opp.len() - 1].iter().sum()
            } else {
                buchholz
            };
            (score[me], buchholz, median, sb)
        })
        .collect()
}

fn json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("standings JSON")).expect("JSON")
}

#[test]
fn a_swiss_of_33_keeps_its_rules_and_its_tie_breaks_add_up() {
    let s = common::Scratch::new("formats", "swiss33");
    let (log, st) = (s.0.join("swiss.jsonl"), s.0.join("standings.json"));
    let mut a = args(&[
        "tournament",
        "--format",
        "swiss",
        "--rounds",
        "7",
        "--openings",
        "plies=2",
    ]);
    a.extend(args(&[
        "--seed",
        "3",
        "--concurrency",
        "2",
        "--jsonout",
        &p(&log),
    ]));
    a.extend(args(&["--standings-json", &p(&st)]));
    a.extend(field(33));
    let out = run(&s.0, &a);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("Swiss  Rank"), "{text}");
    let n = 33;
    let per_stage = 2 * 16;
    let games = games(&log);
    assert_eq!(games.len(), 7 * per_stage, "16 pairs of 2 games, 7 rounds");
    // Pairs: two games, colours swapped, one opening.
    let mut pairs: BTreeMap<usize, Vec<&Game>> = BTreeMap::new();
    for g in &games {
        pairs.entry(g.pair).or_default().push(g);
    }
    let mut met = BTreeSet::new();
    for two in pairs.values() {
        assert_eq!(two.len(), 2);
        assert_eq!(two[0].seats, (two[1].seats.1, two[1].seats.0));
        assert_eq!(two[0].start, two[1].start);
        let (a, b) = two[0].seats;
        assert!(met.insert((a.min(b), a.max(b))), "{a} and {b} met twice");
    }
    // Colour balance: every engine as often South as North.
    for e in 0..n {
        let south = games.iter().filter(|g| g.seats.0 == e).count();
        let north = games.iter().filter(|g| g.seats.1 == e).count();
        assert_eq!(south, north, "engine {e}");
    }
    let entries = rounds_of(&games, n, per_stage);
    // One bye a round, nobody twice, the first to the last-listed engine.
    let byes: Vec<usize> = (0..n)
        .filter(|&e| {
            let k = entries[e].iter().filter(|(o, _)| o.is_none()).count();
            assert!(k <= 1, "engine {e} had {k} byes");
            k == 1
        })
        .collect();
    assert_eq!(byes.len(), 7);
    assert_eq!(entries[32][0].0, None, "round 1's bye: the lowest-ranked");
    // Round 1: top half against bottom half.
    for (e, rounds) in entries.iter().enumerate().take(16) {
        assert_eq!(rounds[0].0, Some(e + 16), "round 1, engine {e}");
    }
    // Later rounds pair near scores (rule 4 prefers the same score, then
    // the nearest; a float can be forced further, so the bound is on the
    // whole event): most pairings are within a round's worth (4 half points)
    // and the mean gap is below one game's worth (2).
    let (mut pairings, mut far, mut gaps) = (0, 0, 0);
    for r in 1..7 {
        let before: Vec<u32> = (0..n)
            .map(|e| entries[e][..r].iter().map(|x| x.1).sum())
            .collect();
        for e in 0..n {
            if let Some(o) = entries[e][r].0.filter(|&o| o > e) {
                let gap = before[e].abs_diff(before[o]);
                pairings += 1;
                gaps += gap;
                far += usize::from(gap > 4);
            }
        }
    }
    assert_eq!(pairings, 6 * 16);
    assert!(
        far * 10 <= pairings && gaps < 2 * pairings as u32,
        "{far} of {pairings} pairings more than a round apart, mean gap {}",
        f64::from(gaps) / pairings as f64
    );
    // The tie-breaks, recomputed.
    let expected = tie_breaks(&entries);
    let report = json(&st);
    let table = report["swiss"].as_array().expect("swiss table");
    assert_eq!(table.len(), n);
    let mut last: Option<(f64, f64, f64, f64)> = None;
    for line in table {
        let name = line["name"].as_str().unwrap();
        let e: usize = name[1..].parse().unwrap();
        let (points, buchholz, median, sb) = expected[e];
        let got = |k: &str| line[k].as_f64().unwrap();
        assert_eq!(got("points"), points, "{name}");
        assert_eq!(got("buchholz"), buchholz, "{name}");
        assert_eq!(got("median_buchholz"), median, "{name}");
        assert_eq!(got("sonneborn_berger"), sb, "{name}");
        assert_eq!(line["opponents"].as_array().unwrap().len(), 7);
        let key = (points, buchholz, median, sb);
        if let Some(prev) = last {
            assert!(
                prev >= key,
                "ranked by points, then the tie-breaks: {prev:?} before {key:?}"
            );
        }
        last = Some(key);
    }
    // The usual standings count game points only (no bye).
    assert_eq!(report["games"], 7 * per_stage);
}

/// Runs `a` (which has `--resume --jsonout log`) to the end, killing it with
/// SIGKILL at random moments first.
fn kill_and_resume(dir: &Path, a: &[String], log: &Path, total: usize) {
    let count = || common::count_lines(log);
    let mut next = common::random_moments(0x9e37_79b9_7f4a_7c15);
    let mut kills = 0;
    for _ in 0..6 {
        let finished = count();
        if finished >= total {
            break;
        }
        let mut child = Command::new(ARBITER)
            .current_dir(dir)
            .args(a)
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn arbiter");
        let target = finished + 1 + (next() * ((total - finished) / 2) as f64) as usize;
        let started = Instant::now();
        while count() < target
            && child.try_wait().ok().flatten().is_none()
            && started.elapsed() < Duration::from_secs(60)
        {
            std::thread::sleep(Duration::from_millis(1));
        }
        std::thread::sleep(Duration::from_micros((next() * 3000.0) as u64));
        // SAFETY: killpg with a process group we created; no memory involved.
        if unsafe { libc::killpg(child.id() as i32, libc::SIGKILL) } == 0 {
            kills += 1;
        }
        let _ = child.wait();
    }
    assert!(kills > 1, "the event was interrupted ({kills} kills)");
    run(dir, a);
}

#[test]
fn a_swiss_resumed_after_kill_9_is_the_same_event() {
    let s = common::Scratch::new("formats", "swiss-resume");
    let base = |log: &Path, st: &Path| {
        let mut a = args(&[
            "tournament",
            "--format",
            "swiss",
            "--rounds",
            "4",
            "--openings",
            "plies=2",
        ]);
        a.extend(args(&[
            "--seed",
            "5",
            "--concurrency",
            "2",
            "--resume",
            "--jsonout",
            &p(log),
        ]));
        a.extend(args(&["--standings-json", &p(st)]));
        a.extend(field(9));
        a
    };
    let (ref_log, ref_st) = (s.0.join("ref.jsonl"), s.0.join("ref.json"));
    run(&s.0, &base(&ref_log, &ref_st));
    let (log, st) = (s.0.join("killed.jsonl"), s.0.join("killed.json"));
    let a = base(&log, &st);
    // 4 pairs of 2 games a round (one engine has the bye), 4 rounds.
    kill_and_resume(&s.0, &a, &log, 32);
    assert_eq!(
        games(&log),
        games(&ref_log),
        "the same pairings, seats and results"
    );
    assert_eq!(json(&st)["swiss"], json(&ref_st)["swiss"]);
    assert_eq!(json(&st)["standings"], json(&ref_st)["standings"]);
    // A finished Swiss resumed plays nothing.
    let again = String::from_utf8_lossy(&run(&s.0, &a).stdout).into_owned();
    assert!(
        again.contains("32 game(s) already in the results log"),
        "{again}"
    );
    assert_eq!(games(&log).len(), 32);
}

/// `n` instant testbots: every pair between them is drawn 2-2 (both play
/// the first legal move, so the two games of a pair are the same game with
/// the seats swapped), so every round leaves the field on equal scores but
/// for the byes — a field whose pairings the order of preference alone
/// decides.
fn instant_field(n: usize) -> Vec<String> {
    (0..n)
        .flat_map(|i| {
            vec![
                "--engine".to_string(),
                format!("cmd={}", common::testbot()),
                "arg=--mode".into(),
                "arg=instant".into(),
                format!("name=e{i:02}"),
            ]
        })
        .collect()
}

/// The pairs of each round: (lower, higher) engine, sorted.
fn pairs_by_round(games: &[Game], per_stage: usize) -> BTreeMap<usize, BTreeSet<(usize, usize)>> {
    let mut rounds: BTreeMap<usize, BTreeSet<(usize, usize)>> = BTreeMap::new();
    for g in games {
        let (a, b) = g.seats;
        rounds
            .entry(g.slot / per_stage)
            .or_default()
            .insert((a.min(b), a.max(b)));
    }
    rounds
}

#[test]
fn a_swiss_of_9_engines_plays_5_rounds() {
    // Refused before as more than ⌊9/2⌋ = 4 rounds.
    let s = common::Scratch::new("formats", "swiss9x5");
    let log = s.0.join("swiss.jsonl");
    let mut a = args(&["tournament", "--format", "swiss", "--rounds", "5"]);
    a.extend(args(&[
        "--each",
        "depth=1",
        "--max-plies",
        "60",
        "--jsonout",
        &p(&log),
    ]));
    a.extend(instant_field(9));
    let text = String::from_utf8_lossy(&run(&s.0, &a).stdout).into_owned();
    assert!(!text.contains("ended early"), "{text}");
    let games = games(&log);
    assert_eq!(games.len(), 5 * 4 * 2, "4 pairs of 2 games, 5 rounds");
    let rounds = pairs_by_round(&games, 2 * 4);
    assert_eq!(rounds.len(), 5);
    let mut met = BTreeSet::new();
    for pairs in rounds.values() {
        assert_eq!(pairs.len(), 4);
        for &pair in pairs {
            assert!(met.insert(pair), "{pair:?} met twice");
        }
    }
    // Five byes, to five engines.
    let byes: BTreeSet<usize> = rounds
        .values()
        .map(|pairs| {
            let playing: BTreeSet<usize> = pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
            (0..9).find(|e| !playing.contains(e)).expect("a bye")
        })
        .collect();
    assert_eq!(byes.len(), 5, "{byes:?}");
}

#[test]
fn a_swiss_that_cannot_pair_a_round_ends_after_the_last_full_one() {
    // Six engines, all pairs drawn: round 1 is 0-3 1-4 2-5; in round 2
    // pairing first choices gets stuck (0-4, 1-3, then 2 has only 5, met
    // already), the search finds 0-4 1-5 2-3; round 3 is 0-5 1-3 2-4. Then
    // 0, 1, 2 have met 3, 4, 5 and what is left is two triangles: round 4
    // has no pairing, and the event ends after round 3 of 5.
    let s = common::Scratch::new("formats", "swiss-early");
    let (log, st) = (s.0.join("swiss.jsonl"), s.0.join("standings.json"));
    let mut a = args(&["tournament", "--format", "swiss", "--rounds", "5"]);
    a.extend(args(&["--each", "depth=1", "--max-plies", "60"]));
    a.extend(args(&["--resume", "--jsonout", &p(&log)]));
    a.extend(args(&["--standings-json", &p(&st)]));
    a.extend(instant_field(6));
    let text = String::from_utf8_lossy(&run(&s.0, &a).stdout).into_owned();
    assert!(
        text.contains("Swiss ended early, after round 3: round 4 of 5 cannot be paired"),
        "{text}"
    );
    let games = games(&log);
    assert_eq!(games.len(), 3 * 3 * 2, "3 rounds of 3 pairs of 2 games");
    let rounds: Vec<BTreeSet<(usize, usize)>> =
        pairs_by_round(&games, 2 * 3).into_values().collect();
    let set = |p: &[(usize, usize)]| p.iter().copied().collect::<BTreeSet<_>>();
    assert_eq!(
        rounds,
        [
            set(&[(0, 3), (1, 4), (2, 5)]),
            set(&[(0, 4), (1, 5), (2, 3)]),
            set(&[(0, 5), (1, 3), (2, 4)]),
        ]
    );
    let report = json(&st);
    assert_eq!(report["ended_early"]["after_round"], 3, "{report}");
    assert!(report["ended_early"]["reason"]
        .as_str()
        .expect("a reason")
        .contains("round 4 of 5"));
    assert_eq!(report["swiss"][0]["opponents"].as_array().unwrap().len(), 3);
    // Resumed, it plays nothing and ends the same way.
    let before = std::fs::read_to_string(&log).unwrap();
    let again = String::from_utf8_lossy(&run(&s.0, &a).stdout).into_owned();
    assert!(
        again.contains("Swiss ended early, after round 3"),
        "{again}"
    );
    assert_eq!(std::fs::read_to_string(&log).unwrap(), before);
    assert_eq!(json(&st)["ended_early"], report["ended_early"]);
    assert_eq!(json(&st)["swiss"], report["swiss"]);
}

#[test]
fn a_knockout_of_8_breaks_a_tie_by_extra_pairs_then_by_seed() {
    let s = common::Scratch::new("formats", "knockout");
    let (log, st) = (s.0.join("ko.jsonl"), s.0.join("ko.json"));
    let mut a = args(&[
        "tournament",
        "--format",
        "knockout",
        "--openings",
        "plies=2",
        "--seed",
        "2",
    ]);
    a.extend(args(&["--jsonout", &p(&log), "--standings-json", &p(&st)]));
    // Seeds 4 and 5 (indices 3 and 4) meet in round 1 and are the same
    // deterministic engine: each pair's two games mirror each other, so
    // every pair is tied and the better seed goes through after 1 + 2 pairs.
    for (i, l) in [20, 18, 16, 9, 9, 6, 4, 2].iter().enumerate() {
        a.extend(level(&format!("s{}", i + 1), *l));
    }
    let out = run(&s.0, &a);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(text.contains("Knockout winner: "), "{text}");
    let report = json(&st);
    let rounds = report["knockout"].as_array().expect("bracket");
    assert_eq!(rounds.len(), 3);
    let first: Vec<(String, String)> = rounds[0]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["first"].as_str().unwrap().into(),
                e["second"].as_str().unwrap().into(),
            )
        })
        .collect();
    let names = |a: &str, b: &str| (a.to_string(), b.to_string());
    assert_eq!(
        first,
        [
            names("s1", "s8"),
            names("s4", "s5"),
            names("s2", "s7"),
            names("s3", "s6")
        ]
    );
    let tie = &rounds[0][1];
    assert_eq!(tie["first_points"], tie["second_points"], "{tie}");
    assert_eq!(tie["pairs"], 3, "{tie}");
    assert_eq!(tie["decided_by"], "seed", "{tie}");
    assert_eq!(tie["winner"], "s4");
    // Every encounter is in the log, 2 games a pair; the final has a winner.
    let pairs: u64 = rounds
        .iter()
        .flat_map(|r| r.as_array().unwrap())
        .map(|e| e["pairs"].as_u64().unwrap())
        .sum();
    assert_eq!(games(&log).len() as u64, 2 * pairs);
    let next = &rounds[1][0];
    assert!(
        next["first"] == "s4" || next["second"] == "s4",
        "the seed that went through plays on: {next}"
    );
    assert!(rounds[2][0]["winner"].is_string());
}

#[test]
fn a_pyramid_plays_each_engine_against_those_before_it() {
    let s = common::Scratch::new("formats", "pyramid");
    let (log, st) = (s.0.join("py.jsonl"), s.0.join("py.json"));
    let mut a = args(&["tournament", "--format", "pyramid", "--openings", "plies=2"]);
    a.extend(args(&["--jsonout", &p(&log), "--standings-json", &p(&st)]));
    a.extend(field(4));
    run(&s.0, &a);
    let firsts: Vec<(usize, usize)> = games(&log)
        .iter()
        .filter(|g| g.seats.0 > g.seats.1)
        .map(|g| g.seats)
        .collect();
    assert_eq!(firsts, [(1, 0), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]);
    let report = json(&st);
    assert_eq!(report["games"], 12);
    assert!(report.get("swiss").is_none() && report.get("knockout").is_none());
}

/// Starts an event with `--live 127.0.0.1:0`; returns the child, its
/// stdout lines and the page's address.
fn live(
    dir: &Path,
    a: &[String],
) -> (
    std::process::Child,
    BufReader<std::process::ChildStdout>,
    String,
) {
    let mut child = Command::new(ARBITER)
        .current_dir(dir)
        .args(a)
        .args(["--live", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    let mut lines = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    lines.read_line(&mut first).unwrap();
    let addr = first
        .trim()
        .strip_prefix("arbiter: live page at http://")
        .and_then(|r| r.strip_suffix("/live"))
        .unwrap_or_else(|| panic!("no live address in {first:?}"))
        .to_owned();
    (child, lines, addr)
}

fn until(lines: &mut BufReader<std::process::ChildStdout>, prefix: &str) {
    loop {
        let mut line = String::new();
        assert!(
            lines.read_line(&mut line).unwrap() > 0,
            "ended before {prefix:?}"
        );
        if line.starts_with(prefix) {
            return;
        }
    }
}

#[test]
fn the_live_page_carries_each_formats_standings() {
    let s = common::Scratch::new("formats", "live");
    for (format, key) in [
        ("swiss", "swiss"),
        ("knockout", "knockout"),
        ("pyramid", "standings"),
    ] {
        let mut a = args(&[
            "tournament",
            "--format",
            format,
            "--rounds",
            "2",
            "--openings",
            "plies=2",
        ]);
        a.extend(field(6));
        // A slow engine keeps the event open while the page is read.
        a.extend(args(&[
            "--engine",
            &format!("cmd={}", common::testbot()),
            "name=slow",
        ]));
        a.extend(args(&[
            "arg=--mode",
            "arg=slow",
            "arg=--delay-ms",
            "arg=20",
            "tc=60+1",
        ]));
        a.extend(args(&[
            "--jsonout",
            &p(&s.0.join(format!("{format}.jsonl"))),
        ]));
        let (mut child, mut lines, addr) = live(&s.0, &a);
        let prefix = if format == "pyramid" {
            "Finished game"
        } else {
            "Stage 1 "
        };
        until(&mut lines, prefix);
        let r = common::get_json(&addr, "/api/live/standings");
        assert!(r[key].is_array(), "{format}: {r}");
        if format == "swiss" {
            let table = r["swiss"].as_array().unwrap();
            assert_eq!(table.len(), 7);
            assert!(
                table
                    .iter()
                    .all(|l| l["opponents"].as_array().unwrap().len() == 1),
                "{r}"
            );
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}

#[test]
fn an_event_of_a_hundred_million_rounds_starts_at_once() {
    let s = common::Scratch::new("formats", "huge");
    let log = s.0.join("huge.jsonl");
    let mut a = args(&["tournament", "--rounds", "100000000", "--max-plies", "20"]);
    a.extend(args(&["--resume", "--jsonout", &p(&log)]));
    for (name, mode) in [("a", "instant"), ("b", "random")] {
        a.extend(args(&[
            "--engine",
            &format!("cmd={}", common::testbot()),
            &format!("name={name}"),
        ]));
        a.extend(args(&["arg=--mode", &format!("arg={mode}"), "depth=1"]));
    }
    let count = || common::count_lines(&log);
    // Twice: the start, then a resume of the same event.
    for want in [1, 3] {
        let mut child = Command::new(ARBITER)
            .current_dir(&s.0)
            .args(&a)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn");
        let started = Instant::now();
        while count() < want {
            // A hang guard, not a timing test: walking the schedule first
            // took 140 s here.
            assert!(started.elapsed() < Duration::from_secs(30), "no game yet");
            assert!(
                child.try_wait().ok().flatten().is_none(),
                "the arbiter ended"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = child.kill();
        let _ = child.wait();
    }
}
