//! Bench: how soon the arena's pairing orders a field of bots of known
//! strength (BENCHMARKS.md, "The arena's pairing"; `bench/arena_pairing.sh`).
//!
//! A field of bots of known Elo plays simulated games (a seeded RNG draws
//! each result from the logistic expected score, with a share of draws);
//! the pool is paired by [`Pairing`] and rated by the arena's own fit
//! ([`rate`]) every few games, as the server does. Two strategies:
//!
//! - `plain`: the pairing without estimates (an empty map), which is the
//!   rule before the ladder was consulted, exactly (the unit test
//!   `without_estimates_the_plain_rule_pairs` checks it against that rule);
//! - `informed`: the pairing given the latest ladder (what the server does);
//! - `informed, repeat slack 1`: the same with the repeat rule loosened by
//!   one ([`Pairing::with_repeat_slack`]): not what the server does,
//!   measured to show what the hard repeat rule costs.
//!
//! And two ways the games come and go:
//!
//! - `rounds`: at each look every bot is free with all its slots, and the
//!   games started end before the next look (the pairing's unit tests'
//!   model): the pairing has the whole field to choose from;
//! - `arena`: games take a random time and the pairing is asked after each
//!   game's end, with the slots free then (the server's model).
//!
//! Measured per run: the games until the ladder's order equals the true
//! order and stays so to the end of the run, and the misordered adjacent
//! pairs and the Kendall distance at fixed points; averaged over seeds.
//! Then the time of one pairing decision for 200 bots with realistic
//! estimates, from the ladder as the server holds it.
//!
//! ```text
//! cargo run --release -p arbiter-arena --example pairing_learns -- \
//!     [--seeds N] [--horizon GAMES] [--every GAMES] [--only rounds|arena|join|timing]
//! ```

use std::collections::{BTreeMap, BinaryHeap};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use arbiter_arena::pairing::{Estimate, Pairing, Start};
use arbiter_arena::ratings::{rate, Game, Rated};
use mancala_rules::GameResult;
use rand::{rngs::SmallRng, Rng, SeedableRng};

/// The field: Elo 0, 100, …, 1100.
const FIELD: usize = 12;
const STEP: f64 = 100.0;
/// Share of draws between equals (fewer as the difference grows).
const DRAWS: f64 = 0.2;
/// The points at which the misorderings are reported.
const POINTS: [usize; 6] = [125, 250, 500, 1000, 2000, 4000];

#[derive(Clone, Copy, PartialEq)]
enum Strategy {
    /// No estimates: the rule before the ladder was consulted.
    Plain,
    /// The ladder's estimates, the repeat rule kept, among the free bots
    /// only (the server before pairing rule 3).
    Informed,
    /// [`Strategy::Informed`] minding the connected bots that are busy
    /// (pairing rule 3): what the server does.
    Minding,
    /// The ladder's estimates, a repeat slack of 1 (not adopted: measured
    /// for the decision).
    Loose,
}

const STRATEGIES: [(Strategy, &str); 4] = [
    (Strategy::Plain, "plain (before)"),
    (Strategy::Informed, "informed, free bots only"),
    (
        Strategy::Minding,
        "informed, minding busy bots (the server's now)",
    ),
    (Strategy::Loose, "informed, repeat slack 1 (not adopted)"),
];

impl Strategy {
    fn pairing(self) -> Pairing {
        Pairing::new().with_repeat_slack(u64::from(self == Strategy::Loose))
    }
}

/// "seeds where X was sooner than plain: …" for each informed strategy.
fn versus_plain(what: &str, per_seed: &[Vec<Option<usize>>], never: usize) {
    for (k, (_, name)) in STRATEGIES.iter().enumerate().skip(1) {
        let (mut better, mut worse) = (0, 0);
        for seed in per_seed {
            let (a, b) = (seed[0].unwrap_or(never), seed[k].unwrap_or(never));
            if b < a {
                better += 1;
            } else if b > a {
                worse += 1;
            }
        }
        println!(
            "seeds where {name} {what} sooner than plain: {better}, later: {worse}, as soon: {}",
            per_seed.len() - better - worse
        );
    }
    println!();
}

#[derive(Clone, Copy, PartialEq)]
enum Model {
    Rounds,
    Arena,
}

struct Options {
    seeds: u64,
    horizon: usize,
    every: usize,
    /// Which part to run; all when `None`.
    only: Option<String>,
}

/// The parts of the bench, for `--only`.
const PARTS: [&str; 4] = ["rounds", "arena", "join", "timing"];

fn options() -> Result<Options, String> {
    let mut o = Options {
        seeds: 50,
        horizon: 4000,
        every: 10,
        only: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .ok_or_else(|| format!("{flag}: expected a value after it"))?;
        let number = |what: &str| -> Result<u64, String> {
            match value.parse::<u64>() {
                Ok(n) if n > 0 => Ok(n),
                _ => Err(format!(
                    "{flag} {value:?}: expected a positive number of {what}"
                )),
            }
        };
        match flag.as_str() {
            "--seeds" => o.seeds = number("seeds")?,
            "--horizon" => o.horizon = number("games")? as usize,
            "--every" => o.every = number("games")? as usize,
            "--only" if PARTS.contains(&value.as_str()) => o.only = Some(value),
            "--only" => {
                return Err(format!(
                    "--only {value:?}: expected one of {}",
                    PARTS.join(", ")
                ))
            }
            _ => {
                return Err(format!(
                    "unknown argument {flag:?} (expected --seeds, --horizon, --every or --only)"
                ))
            }
        }
    }
    Ok(o)
}

/// One field: bot `i` is named `bot{i:02}`, has `slots[i]` and Elo
/// `elo[i]` (the strengths shuffled over the names, so that the pairing's
/// ties by name say nothing about strength).
struct Field {
    names: Vec<String>,
    elo: Vec<f64>,
    slots: Vec<usize>,
}

impl Field {
    fn new(seed: u64) -> Field {
        let mut rng = SmallRng::seed_from_u64(seed ^ 0x5eed_f1e1d);
        let mut elo: Vec<f64> = (0..FIELD).map(|i| i as f64 * STEP).collect();
        for i in (1..FIELD).rev() {
            elo.swap(i, rng.random_range(0..=i));
        }
        Field {
            names: (0..FIELD).map(|i| format!("bot{i:02}")).collect(),
            elo,
            // why some with two: a bot plays as many games at once as it has slots.
            slots: (0..FIELD).map(|i| if i % 3 == 0 { 2 } else { 1 }).collect(),
        }
    }

    fn index(&self, name: &str) -> usize {
        self.names
            .iter()
            .position(|n| n == name)
            .expect("a bot of the field")
    }

    fn free_all(&self) -> BTreeMap<String, usize> {
        self.names
            .iter()
            .cloned()
            .zip(self.slots.iter().copied())
            .collect()
    }
}

/// A game's result: South scores `p` on average, `DRAWS·4p(1−p)` of the games drawn.
fn play(rng: &mut SmallRng, south: f64, north: f64) -> GameResult {
    let p = 1.0 / (1.0 + 10f64.powf((north - south) / 400.0));
    let draw = DRAWS * 4.0 * p * (1.0 - p);
    let x: f64 = rng.random();
    if x < p - draw / 2.0 {
        GameResult::SouthWins
    } else if x < p + draw / 2.0 {
        GameResult::Draw
    } else {
        GameResult::NorthWins
    }
}

/// What one run saw.
struct Run {
    /// Games until the order was right for good; `None`: wrong at the end.
    ordered_at: Option<usize>,
    /// At each of [`POINTS`] (within the horizon): misordered adjacent
    /// pairs, Kendall distance.
    at: Vec<(usize, usize)>,
    /// Distinct pairings met by the end.
    pairings: usize,
}

/// The ladder's order against the truth: (misordered adjacent pairs,
/// discordant pairs). A bot not yet rated counts as rated 0.
fn misorder(field: &Field, ladder: &[Rated]) -> (usize, usize) {
    let rated: BTreeMap<&str, f64> = ladder.iter().map(|r| (r.name.as_str(), r.rating)).collect();
    let mut order: Vec<usize> = (0..FIELD).collect();
    let r = |i: usize| rated.get(field.names[i].as_str()).copied().unwrap_or(0.0);
    order.sort_by(|&a, &b| r(b).total_cmp(&r(a)).then(a.cmp(&b)));
    let adjacent = order
        .windows(2)
        .filter(|w| field.elo[w[0]] < field.elo[w[1]])
        .count();
    let mut kendall = 0;
    for i in 0..FIELD {
        for j in i + 1..FIELD {
            if field.elo[order[i]] < field.elo[order[j]] {
                kendall += 1;
            }
        }
    }
    (adjacent, kendall)
}

struct Sim<'f> {
    field: &'f Field,
    strategy: Strategy,
    every: usize,
    pairing: Pairing,
    games: Vec<(usize, usize, GameResult)>,
    known: BTreeMap<String, Estimate>,
    results: SmallRng,
    last_wrong: Option<usize>,
    at: Vec<(usize, usize)>,
    last: (usize, usize),
    /// The ladder as last refit.
    ladder: Vec<Rated>,
}

impl Sim<'_> {
    fn new(field: &Field, seed: u64, strategy: Strategy, every: usize) -> Sim<'_> {
        Sim {
            field,
            strategy,
            every,
            pairing: strategy.pairing(),
            games: Vec::new(),
            known: BTreeMap::new(),
            results: SmallRng::seed_from_u64(seed),
            last_wrong: Some(0),
            at: Vec::new(),
            last: (FIELD - 1, FIELD * (FIELD - 1) / 2),
            ladder: Vec::new(),
        }
    }

    fn look(&mut self, free: &mut BTreeMap<String, usize>) -> Vec<Start> {
        let none = BTreeMap::new();
        let known = match self.strategy {
            Strategy::Plain => &none,
            Strategy::Informed | Strategy::Minding | Strategy::Loose => &self.known,
        };
        let connected: std::collections::BTreeSet<String> = if self.strategy == Strategy::Minding {
            self.field.names.iter().cloned().collect()
        } else {
            Default::default()
        };
        self.pairing.next_among(free, known, &connected, usize::MAX)
    }

    /// Plays `s` to its end: records the result, refits every `every`
    /// games (then true).
    fn finish(&mut self, s: &Start) -> bool {
        let (south, north) = (self.field.index(&s.south), self.field.index(&s.north));
        let result = play(
            &mut self.results,
            self.field.elo[south],
            self.field.elo[north],
        );
        self.games.push((south, north, result));
        let n = self.games.len();
        if n.is_multiple_of(self.every) {
            let names = &self.field.names;
            let ladder = rate(
                self.games.iter().map(|&(s, t, result)| Game {
                    south: &names[s],
                    north: &names[t],
                    result,
                }),
                &Default::default(),
            );
            self.last = misorder(self.field, &ladder);
            if self.last.0 > 0 {
                self.last_wrong = Some(n);
            }
            self.known = Estimate::from_ladder(&ladder);
            self.ladder = ladder;
        }
        if POINTS.contains(&n) {
            self.at.push(self.last);
        }
        n.is_multiple_of(self.every)
    }
}

fn run(field: &Field, seed: u64, strategy: Strategy, model: Model, o: &Options) -> Run {
    let mut sim = Sim::new(field, seed, strategy, o.every);
    match model {
        Model::Rounds => {
            while sim.games.len() < o.horizon {
                let starts = sim.look(&mut field.free_all());
                for s in &starts {
                    if sim.games.len() < o.horizon {
                        sim.finish(s);
                    }
                }
            }
        }
        Model::Arena => {
            // Games end at random times; after each end, a look.
            let mut time = SmallRng::seed_from_u64(seed ^ 0x71_3e);
            let mut busy = [0usize; FIELD];
            let mut ends: BinaryHeap<(std::cmp::Reverse<u64>, u64)> = BinaryHeap::new();
            let mut playing: BTreeMap<u64, Start> = BTreeMap::new();
            let mut now = 0u64;
            let mut seq = 0u64;
            while sim.games.len() < o.horizon {
                let mut free: BTreeMap<String, usize> = (0..FIELD)
                    .filter(|&i| field.slots[i] > busy[i])
                    .map(|i| (field.names[i].clone(), field.slots[i] - busy[i]))
                    .collect();
                for s in sim.look(&mut free) {
                    for b in [&s.south, &s.north] {
                        busy[field.index(b)] += 1;
                    }
                    // why from 500 to 1500: games differ in length, so the
                    // bots come free at different times.
                    let end = now + time.random_range(500..1500);
                    ends.push((std::cmp::Reverse(end), seq));
                    playing.insert(seq, s);
                    seq += 1;
                }
                let Some((std::cmp::Reverse(end), id)) = ends.pop() else {
                    break;
                };
                now = end;
                let s = playing.remove(&id).expect("a game in progress");
                for b in [&s.south, &s.north] {
                    busy[field.index(b)] -= 1;
                }
                sim.finish(&s);
            }
        }
    }
    let mut met = std::collections::BTreeSet::new();
    for &(s, t, _) in &sim.games {
        met.insert((s.min(t), s.max(t)));
    }
    Run {
        ordered_at: if sim.last.0 == 0 {
            Some(sim.last_wrong.map_or(0, |n| n + o.every))
        } else {
            None
        },
        at: sim.at,
        pairings: met.len(),
    }
}

/// Games the pool plays before the newcomer joins, and after.
const WARM: usize = 600;
const JOINED: usize = 600;
/// Points after the join at which the newcomer's misplacement is reported.
const JOIN_POINTS: [usize; 5] = [20, 50, 100, 200, 400];
/// The newcomer: a one-slot bot, of the strength the seed's shuffle gave it.
const NEWCOMER: usize = 1;

/// How many bots the ladder has on the wrong side of the newcomer (an
/// unrated newcomer counts as rated 0).
fn misplaced(field: &Field, ladder: &[Rated]) -> usize {
    let rated: BTreeMap<&str, f64> = ladder.iter().map(|r| (r.name.as_str(), r.rating)).collect();
    let r = |i: usize| rated.get(field.names[i].as_str()).copied().unwrap_or(0.0);
    (0..FIELD)
        .filter(|&x| x != NEWCOMER)
        .filter(|&x| (field.elo[x] > field.elo[NEWCOMER]) != (r(x) > r(NEWCOMER)))
        .count()
}

/// What a join run saw: pool games after the join until the newcomer was
/// placed right for good (`None`: wrong at the end), its own games by
/// then, and its misplacement at [`JOIN_POINTS`].
struct Join {
    placed_at: Option<usize>,
    own_games: usize,
    at: Vec<usize>,
}

/// Eleven bots play [`WARM`] games paired by the plain rule (the same for
/// both strategies); then the newcomer connects and the pool, paired by
/// `strategy`, plays [`JOINED`] more. Every bot free at each look.
fn join_run(field: &Field, seed: u64, strategy: Strategy, o: &Options) -> Join {
    let mut sim = Sim::new(field, seed, Strategy::Plain, o.every);
    let mut without = field.free_all();
    without.remove(&field.names[NEWCOMER]);
    while sim.games.len() < WARM {
        for s in sim.look(&mut without.clone()) {
            if sim.games.len() < WARM {
                sim.finish(&s);
            }
        }
    }
    sim.strategy = strategy;
    sim.pairing =
        std::mem::take(&mut sim.pairing).with_repeat_slack(u64::from(strategy == Strategy::Loose));
    let mut last_wrong = 0;
    let mut at = Vec::new();
    while sim.games.len() < WARM + JOINED {
        for s in sim.look(&mut field.free_all()) {
            if sim.games.len() >= WARM + JOINED {
                break;
            }
            let refit = sim.finish(&s);
            let after = sim.games.len() - WARM;
            if refit && misplaced(field, &sim.ladder) > 0 {
                last_wrong = after;
            }
            if JOIN_POINTS.contains(&after) {
                at.push(misplaced(field, &sim.ladder));
            }
        }
    }
    let placed = misplaced(field, &sim.ladder) == 0;
    let placed_at = placed.then_some(last_wrong + o.every);
    let own_games = placed_at.map_or(0, |n| {
        sim.games[WARM..WARM + n.min(JOINED)]
            .iter()
            .filter(|&&(s, t, _)| s == NEWCOMER || t == NEWCOMER)
            .count()
    });
    Join {
        placed_at,
        own_games,
        at,
    }
}

fn join_table(o: &Options) {
    let mut head = String::from(
        "| pairing | placed for good after (mean pool games) | median | newcomer's own games by then (mean) | not placed at the end |",
    );
    for p in JOIN_POINTS {
        head.push_str(&format!(" misplaced @+{p} |"));
    }
    println!("{head}");
    println!(
        "|---|---:|---:|---:|---:|{}",
        "---:|".repeat(JOIN_POINTS.len())
    );
    let runs: Vec<Vec<Join>> = STRATEGIES
        .iter()
        .map(|&(strategy, _)| {
            (0..o.seeds)
                .map(|seed| join_run(&Field::new(seed), seed, strategy, o))
                .collect()
        })
        .collect();
    for (rs, (_, name)) in runs.iter().zip(STRATEGIES) {
        let mut at: Vec<usize> = rs.iter().map(|r| r.placed_at.unwrap_or(JOINED)).collect();
        at.sort_unstable();
        let placed: Vec<&Join> = rs.iter().filter(|r| r.placed_at.is_some()).collect();
        let mut line = format!(
            "| {name} | {:.0} | {} | {:.1} | {} of {} |",
            mean(at.iter().map(|&x| x as f64)),
            at[at.len() / 2],
            mean(placed.iter().map(|r| r.own_games as f64)),
            rs.len() - placed.len(),
            rs.len(),
        );
        for i in 0..JOIN_POINTS.len() {
            line.push_str(&format!(
                " {:.2} |",
                mean(rs.iter().map(|r| r.at[i] as f64))
            ));
        }
        println!("{line}");
    }
    println!();
    let per_seed: Vec<Vec<Option<usize>>> = (0..o.seeds as usize)
        .map(|seed| runs.iter().map(|rs| rs[seed].placed_at).collect())
        .collect();
    versus_plain("placed the newcomer for good", &per_seed, JOINED + 1);
}

fn mean(xs: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = xs.fold((0.0, 0usize), |(s, n), x| (s + x, n + 1));
    sum / n.max(1) as f64
}

fn table(o: &Options, model: Model) {
    let points: Vec<usize> = POINTS.iter().copied().filter(|&p| p <= o.horizon).collect();
    let mut head = String::from(
        "| pairing | ordered for good after (mean games) | median | not ordered at the end | pairings met |",
    );
    for p in &points {
        head.push_str(&format!(" adj. wrong @{p} |"));
    }
    for p in &points {
        head.push_str(&format!(" Kendall @{p} |"));
    }
    println!("{head}");
    println!(
        "|---|---:|---:|---:|---:|{}",
        "---:|".repeat(2 * points.len())
    );
    let runs: Vec<Vec<Run>> = STRATEGIES
        .iter()
        .map(|&(strategy, _)| {
            (0..o.seeds)
                .map(|seed| run(&Field::new(seed), seed, strategy, model, o))
                .collect()
        })
        .collect();
    for (rs, (_, name)) in runs.iter().zip(STRATEGIES) {
        // why the horizon for a run never ordered: a lower bound, said in the next column.
        let mut at: Vec<usize> = rs
            .iter()
            .map(|r| r.ordered_at.unwrap_or(o.horizon))
            .collect();
        at.sort_unstable();
        let mut line = format!(
            "| {name} | {:.0} | {} | {} of {} | {:.1} of {} |",
            mean(at.iter().map(|&x| x as f64)),
            at[at.len() / 2],
            rs.iter().filter(|r| r.ordered_at.is_none()).count(),
            rs.len(),
            mean(rs.iter().map(|r| r.pairings as f64)),
            FIELD * (FIELD - 1) / 2,
        );
        for i in 0..points.len() {
            line.push_str(&format!(
                " {:.2} |",
                mean(rs.iter().map(|r| r.at[i].0 as f64))
            ));
        }
        for i in 0..points.len() {
            line.push_str(&format!(
                " {:.2} |",
                mean(rs.iter().map(|r| r.at[i].1 as f64))
            ));
        }
        println!("{line}");
    }
    println!();
    let per_seed: Vec<Vec<Option<usize>>> = (0..o.seeds as usize)
        .map(|seed| runs.iter().map(|rs| rs[seed].ordered_at).collect())
        .collect();
    versus_plain("was ordered for good", &per_seed, o.horizon + 1);
}

/// A ladder of `n` bots as the server holds it: ratings spread over about
/// ±600, intervals 30 to 300, games 10 to 600; the last tenth not rated
/// yet (new).
fn big_ladder(n: usize, rng: &mut SmallRng) -> (Vec<String>, Vec<Rated>) {
    let names: Vec<String> = (0..n).map(|i| format!("bot{i:03}")).collect();
    let ladder = names[..n - n / 10]
        .iter()
        .map(|name| {
            let games = rng.random_range(10..600u32);
            Rated {
                name: name.clone(),
                rating: (0..4).map(|_| rng.random_range(-300.0..300.0)).sum::<f64>() / 2.0,
                interval: Some(30.0 + 270.0 * (10.0 / f64::from(games)).sqrt()),
                games,
                wins: games / 2,
                draws: 0,
                losses: games - games / 2,
                score: 0.5,
                provisional: games < 20,
                anchor: false,
            }
        })
        .collect();
    (names, ladder)
}

fn timing() {
    const BOTS: usize = 200;
    let mut rng = SmallRng::seed_from_u64(200);
    let (names, ladder) = big_ladder(BOTS, &mut rng);
    // A history: 40 looks with the whole field free.
    let mut pairing = Pairing::new();
    let all =
        |n: usize| -> BTreeMap<String, usize> { names.iter().map(|b| (b.clone(), n)).collect() };
    for _ in 0..40 {
        pairing.next_informed(&mut all(1), &Estimate::from_ladder(&ladder), usize::MAX);
    }
    // The server's way: every bot connected (pairing rule 3).
    let connected: std::collections::BTreeSet<String> = names.iter().cloned().collect();
    let report = |what: &str, times: &[Duration], games: usize| {
        let n = times.len().max(1) as u32;
        let total: Duration = times.iter().sum();
        let max = times.iter().max().copied().unwrap_or_default();
        println!(
            "| {what} | {} | {games} | {:.1} | {:.1} |",
            times.len(),
            (total / n).as_secs_f64() * 1e6,
            max.as_secs_f64() * 1e6
        );
    };
    println!("| decision ({BOTS} bots, ladder to games started) | decisions | games per decision | mean µs | max µs |");
    println!("|---|---:|---:|---:|---:|");
    // Every bot free at once (a start): 100 games in one decision.
    let mut times = Vec::new();
    let mut started = 0;
    for _ in 0..50 {
        let mut p = pairing.clone();
        let t = Instant::now();
        let known = Estimate::from_ladder(&ladder);
        let got = p.next_among(&mut all(1), &known, &connected, usize::MAX);
        times.push(t.elapsed());
        started = got.len();
    }
    report("all 200 free", &times, started);
    // Steady: 100 games at once; a game ends, its two bots and whoever was
    // left over are free, a decision.
    let mut p = pairing.clone();
    let mut busy: BTreeMap<String, usize> = BTreeMap::new();
    let mut playing: Vec<Start> =
        p.next_informed(&mut all(1), &Estimate::from_ladder(&ladder), usize::MAX);
    for s in &playing {
        *busy.entry(s.south.clone()).or_default() += 1;
        *busy.entry(s.north.clone()).or_default() += 1;
    }
    let mut times = Vec::new();
    let mut games = 0;
    for _ in 0..5000 {
        if playing.is_empty() {
            println!("(no game left in progress: the pairing waited for ever)");
            break;
        }
        let s = playing.swap_remove(rng.random_range(0..playing.len()));
        for b in [&s.south, &s.north] {
            *busy.get_mut(b).expect("busy") -= 1;
        }
        let mut free: BTreeMap<String, usize> = names
            .iter()
            .filter(|b| busy.get(*b).copied().unwrap_or(0) == 0)
            .map(|b| (b.clone(), 1))
            .collect();
        let t = Instant::now();
        let known = Estimate::from_ladder(&ladder);
        let got = p.next_among(&mut free, &known, &connected, usize::MAX);
        times.push(t.elapsed());
        games += got.len();
        for s in got {
            *busy.entry(s.south.clone()).or_default() += 1;
            *busy.entry(s.north.clone()).or_default() += 1;
            playing.push(s);
        }
    }
    report(
        "one game ended (100 at once)",
        &times,
        games / times.len().max(1),
    );
}

fn main() -> ExitCode {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("pairing_learns: {e}");
            return ExitCode::from(2);
        }
    };
    println!(
        "field: {FIELD} bots, Elo 0 to {} step {STEP}, one bot in three with 2 slots; \
         draws {:.0}% between equals; {} seeds; {} games per run; ladder refit every {} games\n",
        (FIELD - 1) as f64 * STEP,
        DRAWS * 100.0,
        o.seeds,
        o.horizon,
        o.every
    );
    let part = |name: &str| o.only.as_deref().is_none_or(|only| only == name);
    for (model, name, what) in [
        (
            Model::Rounds,
            "rounds",
            "rounds: every bot free at each look",
        ),
        (
            Model::Arena,
            "arena",
            "arena: a look after each game's end, games of random length",
        ),
    ] {
        if part(name) {
            println!("## {what}\n");
            table(&o, model);
        }
    }
    if part("join") {
        println!(
            "## join: a newcomer (bot{NEWCOMER:02}, one slot) connects after {WARM} games of the \
             eleven others; every bot free at each look; {JOINED} games after\n"
        );
        join_table(&o);
    }
    if part("timing") {
        println!("## time of a pairing decision\n");
        timing();
    }
    ExitCode::SUCCESS
}
