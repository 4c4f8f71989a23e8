//! Cost of `arbiter serve --watch` on a long event: a results log of N
//! finished tournament games (80 plies each, with scores and depths, 8
//! engines), read at the first look, then one look per new game appended
//! (tail, merge, standings, publishing into a hub with no page).
//!
//! ```text
//! cargo run --release -p arbiter --example bench_watch [-- GAMES [LOOKS]]
//! ```

use std::io::Write;
use std::time::Instant;

use arbiter_board::live::watch::Feed;
use arbiter_board::live::LiveHub;
use arbiter_core::records::jsonl;
use arbiter_core::records::log::GameLog;

const ENGINES: usize = 8;

/// A finished game of slot `slot` of a schedule of `size` slots.
fn game(slot: usize, size: usize) -> Result<GameLog, serde_json::Error> {
    let moves: Vec<String> = (0..80i32)
        .map(|i| {
            format!(
                r#"{{"move":"{}","time_ms":{},"score":{{"cp":{}}},"depth":{}}}"#,
                1 + i % 6,
                100 + i,
                i - 40,
                8 + i % 5
            )
        })
        .collect();
    let (s, n) = (slot % ENGINES, (slot / ENGINES + 1 + slot) % ENGINES);
    let n = if n == s { (n + 1) % ENGINES } else { n };
    let result = ["1-0", "0-1", "1/2-1/2"][slot % 3];
    let line = format!(
        r#"{{"event":"bench","site":"here","date":"2026.12.01","round":"{}","game":"bohnenspiel","start_position":"bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0","south":"e{s}","north":"e{n}","result":"{result}","termination":{{"kind":"rules","detail":"player to move has no seeds"}},"time_control":"10+0.1","moves":[{}],"tags":{{"Schedule":"bench","Slot":"{slot}/{size}","Seats":"{s}-{n}"}}}}"#,
        slot + 1,
        moves.join(",")
    );
    jsonl::parse_line(&line)
}

fn rss_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let kib: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()?;
    Some(kib / 1024.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let games: usize = args.next().map_or(Ok(20_000), |a| a.parse())?;
    let looks: usize = args.next().map_or(Ok(50), |a| a.parse())?.max(1);
    let size = games + looks;
    let dir = std::env::temp_dir().join(format!("arbiter-bench-watch-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let log = dir.join("results.jsonl");
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&log)?);
        for slot in 0..games {
            jsonl::write_line(&mut f, &game(slot, size)?)?;
        }
    }
    let bytes = std::fs::metadata(&log)?.len();
    let hub = LiveHub::new();
    let mut feed = Feed::new(hub.clone(), std::slice::from_ref(&log), 0);
    let start = Instant::now();
    feed.step();
    let first = start.elapsed();
    println!(
        "first look: {games} games ({:.1} MiB) in {:.0} ms",
        bytes as f64 / (1 << 20) as f64,
        first.as_secs_f64() * 1000.0
    );
    let mut ms = Vec::new();
    for slot in games..games + looks {
        let mut f = std::fs::OpenOptions::new().append(true).open(&log)?;
        f.write_all((jsonl::to_line(&game(slot, size)?) + "\n").as_bytes())?;
        drop(f);
        let start = Instant::now();
        feed.step();
        ms.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    let counted = hub.standings().map_or(0, |r| r.games);
    assert_eq!(counted as usize, games + looks, "every game counted");
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    println!(
        "one look per new game: median {:.1} ms, p95 {:.1} ms, max {:.1} ms over {looks} looks",
        at(0.5),
        at(0.95),
        at(1.0)
    );
    if let Some(rss) = rss_mib() {
        println!("resident memory after: {rss:.0} MiB");
    }
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
