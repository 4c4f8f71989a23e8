//! `engine bench`: single-threaded speed of the rules and the search, per game.

use std::fmt::Write;
use std::time::{Duration, Instant};

use mancala_rules::{perft, with_game, Game, GameId, RepetitionEffect};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::control::SearchControl;
use crate::eval::Evaluate;
use crate::search::{Limits, Searcher};
use crate::tt::Table;

/// One game's figures.
#[derive(Clone, Debug)]
pub struct GameBench {
    pub game: GameId,
    pub playouts_per_sec: f64,
    pub mean_plies: f64,
    pub perft_depth: u32,
    pub perft_nodes_per_sec: f64,
    pub search_nps: f64,
    pub search_depth: u32,
    /// Wall seconds the search took (less than the budget when it proved the
    /// result early, as in Kujifunza's start position).
    pub search_secs: f64,
}

/// Reused buffers of [`random_playout`].
pub struct PlayoutBuffers<M> {
    /// Scratch for [`Game::choose_move`] (games that list their moves).
    moves: Vec<M>,
    /// Repetition keys ([`Game::repetition_key`]) of the positions since the
    /// history key last changed, the current one excluded. Always empty in
    /// games whose positions cannot repeat.
    window: Vec<u128>,
    /// Keys of the match's round starts (games played in rounds).
    round_starts: Vec<u128>,
}

/// The bit of `key` in a one-word filter over the window: a key whose bit
/// the window's keys have not set is not among them, and needs no scan.
#[inline(always)]
fn filter_bit(key: u128) -> u64 {
    // why a multiply: the low 64 bits of an exact key are half the board,
    // not spread; the top six bits of the product depend on all of them.
    let folded = (key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    1 << (folded >> 58)
}

impl<M> Default for PlayoutBuffers<M> {
    fn default() -> Self {
        PlayoutBuffers {
            moves: Vec::new(),
            window: Vec::new(),
            round_starts: Vec::new(),
        }
    }
}

/// Why a playout stops short of drawing a move in a position where the game
/// is not over.
enum Stop {
    /// The round-start rule ended the match.
    RoundStarts,
    /// The position is a repetition ([`Game::on_repetition`] says what next).
    Repetition,
}

/// Plays one game from `start` with uniformly random legal moves, applying
/// every rule exactly as [`mancala_rules::GameRecord`] does (game end first,
/// then the round-start rule, then the repetition rule over the positions
/// since the history key last changed, by [`Game::repetition_key`] and not
/// at all where positions cannot repeat), with reused buffers and no move
/// list where the game can choose without one. Returns the number of plies.
pub fn random_playout<G: Game>(
    start: &G,
    rng: &mut SmallRng,
    buffers: &mut PlayoutBuffers<G::Move>,
) -> u32 {
    let PlayoutBuffers {
        moves,
        window,
        round_starts,
    } = buffers;
    let mut pos = start.clone();
    window.clear();
    round_starts.clear();
    // The match's own start counts as a round start.
    let mut round_start = pos.in_round().map(|r| r.start_key);
    let mut history_key = pos.history_key();
    // The window's keys' bits ([`filter_bit`]).
    let mut seen_bits = 0u64;
    let mut plies = 0;
    loop {
        if let Some(k) = round_start {
            round_starts.push(k);
        }
        let mut stop = None;
        // why inside `choose`: it runs only when the game is not over (a
        // finished game stands even if its position is also a repetition),
        // and before the random draw, which a stopped game never makes.
        let chosen = pos.choose_move(moves, |n| {
            if let Some(k) = round_start {
                if round_starts.iter().filter(|&&r| r == k).count() >= G::ROUND_START_LIMIT {
                    stop = Some(Stop::RoundStarts);
                    return None;
                }
            }
            if G::REPETITION.possible() {
                let key = pos.repetition_key();
                let bit = filter_bit(key);
                // Hash keys are not confirmed by the positions: a collision
                // of 64-bit hashes within one playout is not worth the time.
                if seen_bits & bit != 0
                    && window.iter().filter(|&&k| k == key).count() + 1 >= G::REPETITION_LIMIT
                {
                    stop = Some(Stop::Repetition);
                    return None;
                }
                seen_bits |= bit;
                window.push(key);
            }
            Some(rng.random_range(0..n))
        });
        let Some(mv) = chosen else {
            match stop {
                None | Some(Stop::RoundStarts) => return plies,
                Some(Stop::Repetition) => match pos.on_repetition() {
                    RepetitionEffect::GameOver(_) => return plies,
                    RepetitionEffect::Continue(next) => {
                        // A new round: its counts start afresh.
                        round_start = next.round_start_after(&pos);
                        pos = next;
                        window.clear();
                        seen_bits = 0;
                        history_key = pos.history_key();
                        continue;
                    }
                },
            }
        };
        let before = pos.clone();
        pos.play(mv);
        round_start = pos.round_start_after(&before);
        plies += 1;
        if G::REPETITION.possible() {
            let next_key = pos.history_key();
            if next_key != history_key {
                window.clear();
                seen_bits = 0;
                history_key = next_key;
            }
        }
    }
}

/// CPU time of this thread (Linux), so that rates stay meaningful on a busy
/// machine; `None` elsewhere, and the rates then use wall time.
fn thread_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// A wall clock and, where available, this thread's CPU clock.
struct Clock {
    wall: Instant,
    cpu: Option<Duration>,
}

impl Clock {
    fn start() -> Clock {
        Clock {
            wall: Instant::now(),
            cpu: thread_cpu_time(),
        }
    }

    /// Seconds of this thread's CPU time since `start` (wall time if unknown).
    fn cpu_secs(&self) -> f64 {
        match (self.cpu, thread_cpu_time()) {
            (Some(before), Some(now)) => (now.saturating_sub(before)).as_secs_f64(),
            _ => self.wall.elapsed().as_secs_f64(),
        }
    }
}

fn bench_game<G: Evaluate>(seconds: f64) -> GameBench {
    let budget = Duration::from_secs_f64(seconds);
    let start = G::start();
    let mut rng = SmallRng::seed_from_u64(1);
    let mut buffers = PlayoutBuffers::default();
    let clock = Clock::start();
    let (mut games, mut plies) = (0u64, 0u64);
    while clock.wall.elapsed() < budget {
        for _ in 0..64 {
            plies += u64::from(random_playout(&start, &mut rng, &mut buffers));
            games += 1;
        }
    }
    let playout_time = clock.cpu_secs();

    let clock = Clock::start();
    let (mut depth, mut leaves) = (1, 0);
    loop {
        leaves += perft::perft(&start, depth);
        if clock.wall.elapsed() >= budget / 2 || depth >= 40 {
            break;
        }
        depth += 1;
    }
    let perft_time = clock.cpu_secs();

    let mut tt = Table::new(64);
    let control = SearchControl::new();
    let now = Instant::now();
    control.set_budget(now, budget, budget);
    let mut searcher = Searcher::<G>::new(&mut tt, &control, Limits::default(), &[start.zobrist()]);
    let mut search_depth = 0;
    let result = searcher.run(&start, None, |it| search_depth = it.depth);
    let search_time = now.elapsed().as_secs_f64();
    let nodes = result.map_or(0, |r| r.nodes);

    GameBench {
        game: G::ID,
        playouts_per_sec: games as f64 / playout_time,
        mean_plies: plies as f64 / games.max(1) as f64,
        perft_depth: depth,
        perft_nodes_per_sec: leaves as f64 / perft_time,
        search_nps: nodes as f64 / search_time,
        search_depth,
        search_secs: search_time,
    }
}

/// The longest measurement `engine bench` takes, in seconds.
pub const MAX_SECONDS: f64 = 3600.0;

/// `--seconds`: a finite number above 0 and at most [`MAX_SECONDS`] (a
/// duration from NaN or 1e300 would panic).
pub fn seconds_arg(text: &str) -> Result<f64, String> {
    let allowed = format!("expected seconds above 0 and at most {MAX_SECONDS}");
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= MAX_SECONDS => Ok(s),
        _ => Err(allowed),
    }
}

/// Benchmarks each game for about `seconds` per measurement.
pub fn run(games: &[GameId], seconds: f64) -> Vec<GameBench> {
    games
        .iter()
        .map(|&id| with_game!(id, G => bench_game::<G>(seconds)))
        .collect()
}

/// The figures as a Markdown table. Playout and perft rates are per second of
/// this thread's CPU time (Linux; wall time elsewhere); the search runs against
/// a wall-clock budget, so its rate is per wall second.
pub fn table(results: &[GameBench]) -> String {
    let mut out = String::from(
        "| game | random playouts/s | plies/playout | perft leaves/s (to depth) | search nodes/s | depth in budget | search s |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in results {
        let _ = writeln!(
            out,
            "| {} | {:.0} | {:.1} | {:.0} ({}) | {:.0} | {} | {:.2} |",
            r.game,
            r.playouts_per_sec,
            r.mean_plies,
            r.perft_nodes_per_sec,
            r.perft_depth,
            r.search_nps,
            r.search_depth,
            r.search_secs
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::GameRecord;

    /// The same random game through `GameRecord`, drawing the same random
    /// numbers in the same order.
    fn record_playout<G: Game>(rng: &mut SmallRng) -> u32 {
        let mut record = GameRecord::new(G::start());
        while !record.is_over() {
            let legal = record.legal_moves();
            let mv = legal[rng.random_range(0..legal.len())];
            assert!(record.play(mv).is_ok());
        }
        record.moves().len() as u32
    }

    fn same_lengths_as_the_record<G: Game>(games: u32) {
        let (mut a, mut b) = (SmallRng::seed_from_u64(7), SmallRng::seed_from_u64(7));
        let mut buffers = PlayoutBuffers::default();
        for _ in 0..games {
            let lean = random_playout(&G::start(), &mut a, &mut buffers);
            assert_eq!(lean, record_playout::<G>(&mut b), "{}", G::ID);
        }
    }

    #[test]
    fn playout_loop_applies_the_rules_as_the_game_record_does() {
        for id in GameId::ALL {
            with_game!(id, G => same_lengths_as_the_record::<G>(300));
        }
    }
}
