//! Cost of the arena's rating recomputation: a pool of N finished games
//! among B bots in a fresh database (written through the arena's store),
//! then the recomputation the server makes after a game (read the pool's
//! games, maximum-likelihood fit with intervals), timed R times. With A
//! anchors, A bots spread over the field are held at their true strengths
//! (a hard case: the results' 20% draws compress the fitted scale, so the
//! anchors disagree with the games and the fit must pull the field apart).
//!
//! ```text
//! cargo run --release -p arbiter --example bench_arena_ratings [-- GAMES [BOTS [RUNS [ANCHORS]]]]
//! ```

use std::collections::BTreeMap;
use std::time::Instant;

use arbiter_arena::{db, ratings, store};
use arbiter_core::records::log::{GameLog, Termination};
use mancala_rules::GameResult;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn arg(i: usize, default: usize) -> usize {
    std::env::args()
        .nth(i)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (games, bots, runs) = (arg(1, 10_000), arg(2, 100), arg(3, 5));
    let held = arg(4, 0).min(bots);
    let dir = std::env::temp_dir().join(format!("bench-arena-{}", std::process::id()));
    std::fs::create_dir_all(&dir)?;
    let mut conn = db::open(&dir.join("arena.sqlite"))?;
    let mut rng = SmallRng::seed_from_u64(1);
    let strength: Vec<f64> = (0..bots).map(|i| i as f64 * 10.0).collect();
    let names: Vec<String> = (0..bots).map(|i| format!("bot{i:03}")).collect();
    let anchors: arbiter_arena::anchors::Anchors = (0..held)
        .map(|k| {
            let i = k * bots / held;
            (names[i].clone(), strength[i])
        })
        .collect();
    let t0 = Instant::now();
    for g in 0..games {
        let a = rng.random_range(0..bots);
        let b = (a + 1 + rng.random_range(0..bots - 1)) % bots;
        let p = 1.0 / (1.0 + 10f64.powf((strength[b] - strength[a]) / 400.0));
        let x: f64 = rng.random();
        let result = if x < p * 0.8 {
            GameResult::SouthWins
        } else if x < p * 0.8 + 0.2 {
            GameResult::Draw
        } else {
            GameResult::NorthWins
        };
        let id = store::begin(
            &conn,
            &store::NewGame {
                pool: "p",
                south: &names[a],
                north: &names[b],
                pair: g as u64 / 2,
                leg: 1 + (g % 2) as u8,
                event: None,
            },
        )?;
        let log = GameLog {
            event: "bench".into(),
            site: "arena".into(),
            date: "2026.12.01".into(),
            round: id.to_string(),
            game: "bohnenspiel".into(),
            start_position: mancala_rules::start_position(mancala_rules::GameId::Bohnenspiel),
            south: names[a].clone(),
            north: names[b].clone(),
            result: Some(result),
            termination: Termination::Adjudication {
                detail: "bench".into(),
            },
            time_control: "st=1".into(),
            moves: Vec::new(),
            scores: None,
            partie: None,
            tags: BTreeMap::new(),
        };
        store::finish(&mut conn, id, &log)?;
    }
    println!(
        "{games} games among {bots} bots written in {:.1} s",
        t0.elapsed().as_secs_f64()
    );
    let mut times = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let scored = store::scored(&conn, "p")?;
        let read = t.elapsed();
        let rated = ratings::rate_scored(&scored, &anchors);
        let all = t.elapsed();
        assert_eq!(rated.len(), bots);
        println!(
            "recompute: {:.0} ms (read {:.0} ms, fit {:.0} ms); top {} {:.0} ± {:.0}",
            all.as_secs_f64() * 1e3,
            read.as_secs_f64() * 1e3,
            (all - read).as_secs_f64() * 1e3,
            rated[0].name,
            rated[0].rating,
            rated[0].interval.unwrap_or(f64::NAN)
        );
        times.push(all.as_secs_f64() * 1e3);
    }
    times.sort_by(f64::total_cmp);
    println!("median {:.0} ms over {runs} runs", times[times.len() / 2]);
    std::fs::remove_dir_all(&dir)?;
    Ok(())
}
