//! Bench: writes an arena database the size of a term (BENCHMARKS.md, "The
//! arena at a term's scale"; `bench/arena_term.sh`).
//!
//! ```text
//! term_db DB TEMPLATES.jsonl [GAMES] [BOTS] [POOL] [SEED]   # defaults 1000000 200 term 1
//! ```
//!
//! BOTS accounts (`bot-001`, …), each with one to three versions (rows of
//! `versions`, each version a little stronger than the last and playing a
//! later part of the term); GAMES finished games of pool POOL in pairs of
//! two colour-swapped legs, the opponents drawn at random, each result
//! drawn from the logistic expected score of the two versions' true Elo
//! (spread over ±600) with 20% draws. Each game's record is a real one:
//! a game of TEMPLATES (the JSON lines of an arena export, `arena export
//! --jsonout`) with the result wanted, its names, event and round set to
//! this game's, so the records are the size of real ones and every stored
//! line agrees with its row. One game in a thousand is aborted (a restart).
//! Each side of each game gets a `rating_history` row, as the server writes
//! when refits are as frequent as games (so the history is twice the games).
//!
//! Written straight to the tables in transactions of 20,000 games (the
//! store's own `begin`/`finish` take a transaction each: 0.27 ms a game,
//! BENCHMARKS.md section 10, i.e. 4.5 minutes for a million).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use arbiter_arena::{bots, db, versions};
use arbiter_core::records::jsonl;
use arbiter_core::records::log::GameLog;
use mancala_rules::GameResult;
use rand::{rngs::SmallRng, Rng, SeedableRng};
use rusqlite::params;

const BATCH: u64 = 20_000;

fn fail(msg: impl std::fmt::Display) -> ! {
    eprintln!("term_db: {msg}");
    std::process::exit(2)
}

fn arg<T: std::str::FromStr>(args: &[String], i: usize, default: T, what: &str) -> T {
    match args.get(i) {
        None => default,
        Some(s) => s
            .parse()
            .unwrap_or_else(|_| fail(format!("{what}: not a number: {s:?}"))),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        fail("usage: term_db DB TEMPLATES.jsonl [GAMES] [BOTS] [POOL] [SEED]");
    }
    let path = PathBuf::from(&args[0]);
    if path.exists() {
        fail(format!("{} exists: give a new file", path.display()));
    }
    let games: u64 = arg(&args, 2, 1_000_000, "GAMES");
    let n_bots: usize = arg(&args, 3, 200, "BOTS");
    let pool = args.get(4).cloned().unwrap_or_else(|| "term".to_owned());
    let seed: u64 = arg(&args, 5, 1, "SEED");
    if n_bots < 2 {
        fail("BOTS: at least 2");
    }

    // The templates, by result (from South's side).
    let text = std::fs::read_to_string(&args[1])
        .unwrap_or_else(|e| fail(format!("cannot read {}: {e}", args[1])));
    let mut templates: BTreeMap<&str, Vec<GameLog>> = BTreeMap::new();
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let log = jsonl::parse_line(line)
            .unwrap_or_else(|e| fail(format!("{} line {}: {e}", args[1], i + 1)));
        if let Some(r) = log.result {
            templates.entry(r.as_pgn()).or_default().push(log);
        }
    }
    for r in [
        GameResult::SouthWins,
        GameResult::NorthWins,
        GameResult::Draw,
    ] {
        if !templates.contains_key(r.as_pgn()) {
            fail(format!(
                "{}: no game ending {} to copy (export more games)",
                args[1],
                r.as_pgn()
            ));
        }
    }

    let started = Instant::now();
    let mut conn = db::open(&path).unwrap_or_else(|e| fail(e));
    let mut rng = SmallRng::seed_from_u64(seed);
    // Bots, their versions (1 to 3) and the versions' true strengths.
    let mut players: Vec<Vec<(String, f64)>> = Vec::new();
    {
        let tx = conn.transaction().unwrap_or_else(|e| fail(e));
        for b in 0..n_bots {
            let name = format!("bot-{:03}", b + 1);
            bots::add(&tx, &name).unwrap_or_else(|e| fail(e));
            let base: f64 = rng.random_range(-600.0..600.0);
            let mut vs = Vec::new();
            for n in 1..=(1 + b % 3) as u32 {
                tx.execute(
                    "INSERT INTO versions (bot, n, id_name, first_seen) \
                     VALUES (?1, ?2, ?3, '2026-09-01T00:00:00Z')",
                    params![name, n, format!("{name} engine {n}.0")],
                )
                .unwrap_or_else(|e| fail(e));
                vs.push((versions::player(&name, n), base + 40.0 * f64::from(n - 1)));
            }
            players.push(vs);
        }
        tx.commit().unwrap_or_else(|e| fail(e));
    }

    let mut played: BTreeMap<String, u32> = BTreeMap::new();
    let mut id: u64 = 0;
    let mut pair: u64 = 0;
    while id < games {
        let tx = conn.transaction().unwrap_or_else(|e| fail(e));
        {
            let mut game_stmt = tx
                .prepare(
                    "INSERT INTO games (id, pool, south, north, pair, leg, opening, state, \
                     started, ended, result, termination, offender, record, \
                     south_version, north_version) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?5, ?7, \
                     strftime('%Y-%m-%dT%H:%M:%fZ', '2026-09-01', printf('+%d seconds', ?1 * 7)), \
                     strftime('%Y-%m-%dT%H:%M:%fZ', '2026-09-01', printf('+%d seconds', ?1 * 7 + 60)), \
                     ?8, ?9, NULL, ?10, ?11, ?12)",
                )
                .unwrap_or_else(|e| fail(e));
            let mut history_stmt = tx
                .prepare(
                    "INSERT INTO rating_history (pool, bot, game, games, rating, margin, at) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, \
                     strftime('%Y-%m-%dT%H:%M:%SZ', '2026-09-01', printf('+%d seconds', ?3 * 7 + 60)))",
                )
                .unwrap_or_else(|e| fail(e));
            let end = (id + BATCH).min(games);
            while id < end {
                // A pair: two bots, each in the version of this part of the term.
                let a = rng.random_range(0..n_bots);
                let mut b = rng.random_range(0..n_bots - 1);
                if b >= a {
                    b += 1;
                }
                let version = |bot: usize| {
                    let vs = &players[bot];
                    (vs.len() as u64 * id / games) as usize
                };
                let (pa, ea) = players[a][version(a)].clone();
                let (pb, eb) = players[b][version(b)].clone();
                pair += 1;
                for leg in 1..=2u8 {
                    if id >= end {
                        break;
                    }
                    id += 1;
                    let ((south, es), (north, en)) = if leg == 1 {
                        ((&pa, ea), (&pb, eb))
                    } else {
                        ((&pb, eb), (&pa, ea))
                    };
                    let (sb, sv) = versions::split(south);
                    let (nb, nv) = versions::split(north);
                    if rng.random_range(0..1000) == 0 {
                        game_stmt
                            .execute(params![
                                id as i64,
                                pool,
                                sb,
                                nb,
                                pair as i64,
                                leg,
                                "aborted",
                                None::<String>,
                                None::<String>,
                                None::<String>,
                                sv,
                                nv
                            ])
                            .unwrap_or_else(|e| fail(e));
                        continue;
                    }
                    let expected = 1.0 / (1.0 + 10f64.powf((en - es) / 400.0));
                    let x: f64 = rng.random();
                    let result = if x < 0.2 {
                        GameResult::Draw
                    } else if rng.random::<f64>() < expected {
                        GameResult::SouthWins
                    } else {
                        GameResult::NorthWins
                    };
                    let pick = &templates[result.as_pgn()];
                    let mut log = pick[rng.random_range(0..pick.len())].clone();
                    log.south = south.clone();
                    log.north = north.clone();
                    log.event = format!("mancala arena {pool}");
                    log.round = id.to_string();
                    let record = jsonl::to_line(&log);
                    game_stmt
                        .execute(params![
                            id as i64,
                            pool,
                            sb,
                            nb,
                            pair as i64,
                            leg,
                            "finished",
                            result.as_pgn(),
                            log.termination.kind(),
                            record,
                            sv,
                            nv
                        ])
                        .unwrap_or_else(|e| fail(e));
                    for (player, elo) in [(south, es), (north, en)] {
                        let n = played.entry(player.clone()).or_default();
                        *n += 1;
                        let margin = 700.0 / f64::from(*n).sqrt();
                        let noise: f64 = rng.random_range(-1.0..1.0) * margin / 2.0;
                        history_stmt
                            .execute(params![pool, player, id as i64, *n, elo + noise, margin])
                            .unwrap_or_else(|e| fail(e));
                    }
                }
            }
        }
        tx.commit().unwrap_or_else(|e| fail(e));
        if id.is_multiple_of(100_000) || id == games {
            eprintln!(
                "term_db: {id} games, {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
    let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "term_db: {} bots, {} players, {games} games ({pair} pairs) of pool {pool} in {:.1} s; {} MB",
        n_bots,
        players.iter().map(Vec::len).sum::<usize>(),
        started.elapsed().as_secs_f64(),
        size / 1_000_000
    );
}
