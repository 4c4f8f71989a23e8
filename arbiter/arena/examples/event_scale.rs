//! Bench: an arena event the size of a term's largest (BENCHMARKS.md, "An
//! arena event at a term's scale"): a round robin of BOTS players, played
//! out in memory through the server's own [`Plan`], with a real record
//! (the records' test game, names and tags set) for each game.
//!
//! ```text
//! event_scale [BOTS] [ROUNDS]     # defaults 200 1
//! ```
//!
//! Prints the time of [`Plan::open`] (what the server asks each time it
//! schedules: at the start, half-way, at the end) and of the standings of
//! every game ([`arbiter_arena::events::standings`], what
//! `/api/arena/event` answers with), each the median of 5.

use std::time::{Duration, Instant};

use arbiter_arena::events::plan::{Open, Plan};
use arbiter_arena::events::{self, Event, EventFormat, EventState};
use arbiter_core::records::jsonl;

fn median(mut runs: Vec<Duration>) -> Duration {
    runs.sort();
    runs[runs.len() / 2]
}

fn time<T>(mut f: impl FnMut() -> T) -> Duration {
    median(
        (0..5)
            .map(|_| {
                let t0 = Instant::now();
                std::hint::black_box(f());
                t0.elapsed()
            })
            .collect(),
    )
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}

fn main() {
    let args: Vec<usize> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("a number"))
        .collect();
    let bots = args.first().copied().unwrap_or(200);
    let rounds = args.get(1).copied().unwrap_or(1) as u32;
    let pool = arbiter_arena::pools::parse(
        r#"[{"name": "term", "game": "bohnenspiel", "each": "tc=60+1", "openings": "suite"}]"#,
        std::path::Path::new("."),
    )
    .expect("the pool")
    .remove(0);
    let event = Event {
        id: 1,
        pool: "term".into(),
        format: EventFormat::RoundRobin,
        rounds,
        played_rounds: Some(rounds),
        at: "2026-12-04T18:00:00Z".into(),
        created: "2026-12-04T17:00:00Z".into(),
        state: EventState::Playing,
        players: (1..=bots).map(|i| format!("bot-{i:03}")).collect(),
        started: None,
        ended: None,
        note: None,
    };
    let mut plan = Plan::new(&event, 0, &pool, &[]).expect("a plan");
    let Ok(Open::Jobs(all)) = plan.open() else {
        panic!("an event with games")
    };
    let total = all.len();
    println!("event: round robin of {bots} bots, {rounds} round(s): {total} games");
    let open_at_start = time(|| plan.open());
    let template = arbiter_core::testing::rules_log();
    let mut records = Vec::with_capacity(total);
    for (k, j) in all.into_iter().enumerate() {
        let mut log = template.clone();
        log.event = plan.name.clone();
        log.round = j.job.round.clone();
        log.south = plan.players[j.job.south].clone();
        log.north = plan.players[j.job.north].clone();
        log.result = Some(match k % 3 {
            0 => mancala_rules::GameResult::SouthWins,
            1 => mancala_rules::GameResult::NorthWins,
            _ => mancala_rules::GameResult::Draw,
        });
        plan.tag(&mut log, &j.job);
        plan.started(j.job.index);
        plan.ended(j.job.index, Some(&log));
        records.push(jsonl::to_line(&log));
        if k + 1 == total / 2 {
            println!("Plan::open half-way:    {}", ms(time(|| plan.open())));
        }
    }
    println!("Plan::open at the start: {}", ms(open_at_start));
    println!("Plan::open at the end:   {}", ms(time(|| plan.open())));
    // What the page reads: the standings kept up as games finish (a
    // watching merger, events::Standings), then one game more.
    let parsed: Vec<_> = records
        .iter()
        .map(|l| jsonl::parse_line(l).expect("a record"))
        .collect();
    let t0 = Instant::now();
    let mut merger = arbiter_core::event::merge::Merger::watching();
    for (index, g) in parsed[..total - 1].iter().enumerate() {
        merger.add(
            arbiter_core::event::place::Origin { file: 0, index },
            std::path::Path::new("arena"),
            g.clone(),
        );
    }
    let kept_up = t0.elapsed();
    let look = time(|| merger.clone().look());
    let t0 = Instant::now();
    merger.add(
        arbiter_core::event::place::Origin {
            file: 0,
            index: total - 1,
        },
        std::path::Path::new("arena"),
        parsed[total - 1].clone(),
    );
    let last = merger.look().expect("watching").expect("merged").report();
    let one_more = t0.elapsed();
    let whole = events::standings(&records).expect("standings");
    assert_eq!(last, whole, "kept up = merged at once");
    println!(
        "kept up: all but one game merged in {}; a look {}; one game more and a look {}",
        ms(kept_up),
        ms(look),
        ms(one_more)
    );
    let bytes: usize = records.iter().map(String::len).sum();
    println!(
        "standings of {total} games ({:.1} MB of records): {}",
        bytes as f64 / 1e6,
        ms(time(|| events::standings(&records).expect("standings")))
    );
}
