//! The Kalah solver: the exact value of a Kalah position under perfect play
//! and the exact value of every legal move ([`solve`]), as `engine solve`
//! prints it, the engine plays by it and the Python kit's `mancala.solve`
//! returns it. why here and not in the engine: the Python kit must call it
//! and depends on this crate, not on the engine (a binary with its own
//! protocol, clap and progress-bar dependencies).
//!
//! The value is the final margin for the side to move: his final total
//! minus the opponent's, stores included. The search ([`search`]) works on
//! the seeds left on the board (the stores cannot change best play), with a
//! transposition table ([`tt`]) shared by the threads and, when given, the
//! Kalah endgame databases of this crate below it. The root's moves
//! are shared out among the threads (each solves a whole move, by MTD(f)
//! on the shared table); a thread with no move left helps another thread's
//! move through the same table, and whichever finishes it first gives its
//! value.

pub mod search;
pub mod tt;

use std::fmt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use crate::index::layer_size;
use crate::kalah::board::{
    end_value, hole_number, move_bits, of_position, play, seeds, Next, Word,
};
use crate::Tablebase;
use mancala_rules::games::kalah::{Kalah, Kalah6};
use mancala_rules::position::game_id_of;
use mancala_rules::{Game, GameId, Side};

use search::{Searcher, Shared};
use tt::Tt;

/// What `engine solve` is asked.
#[derive(Clone, Debug)]
pub struct Request {
    pub position: String,
    /// The game the position must be of (`None`: the position's own id).
    pub game: Option<GameId>,
    pub hash_mb: u64,
    pub threads: usize,
    /// A database directory (its Kalah layers are used).
    pub tb: Option<std::path::PathBuf>,
    /// Enhanced transposition cutoffs (on unless measuring without).
    pub etc: bool,
}

/// What went wrong, by kind: bad input (exit status 2) or a resource that
/// failed (status 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SolveError {
    /// The position string does not parse, or is of another game.
    Position(String),
    /// Not enough memory for the table and the database.
    Memory(String),
    /// The database directory or one of its files.
    Database(String),
    /// The table could not be allocated.
    Table(tt::TtError),
    /// The caller's interrupt flag was set before every value was known.
    Interrupted,
}

impl SolveError {
    /// The exit status: 2 for bad input, 1 for the rest.
    pub fn status(&self) -> u8 {
        match self {
            SolveError::Position(_) => 2,
            _ => 1,
        }
    }
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::Position(e) | SolveError::Memory(e) | SolveError::Database(e) => {
                f.write_str(e)
            }
            SolveError::Table(e) => write!(f, "{e}"),
            SolveError::Interrupted => f.write_str("interrupted before the value was known"),
        }
    }
}

impl std::error::Error for SolveError {}

/// The answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    pub position: String,
    /// The final margin for the side to move under perfect play.
    pub value: i32,
    /// Every legal move (its hole number) with its exact value, the same
    /// margin after playing it; ascending hole order.
    pub moves: Vec<(u8, i32)>,
    pub nodes: u64,
    pub seconds: f64,
    /// The database's largest layer used, if any.
    pub db_seeds: Option<usize>,
}

impl Solution {
    /// The JSON line: `{"position": …, "value": V, "moves": {"3": V, …},
    /// "nodes": N, "seconds": S}`.
    pub fn json(&self) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|(m, v)| format!("\"{m}\": {v}"))
            .collect();
        format!(
            "{{\"position\": \"{}\", \"value\": {}, \"moves\": {{{}}}, \"nodes\": {}, \"seconds\": {:.3}}}",
            self.position.replace('\\', "\\\\").replace('"', "\\\""),
            self.value,
            moves.join(", "),
            self.nodes,
            self.seconds
        )
    }
}

/// A parsed Kalah position: holes, stores, side to move.
fn parse(position: &str, game: Option<GameId>) -> Result<([u8; 12], [u8; 2], Side), SolveError> {
    let bad = |e: mancala_rules::PositionError| SolveError::Position(format!("{position:?}: {e}"));
    let id = game_id_of(position).map_err(bad)?;
    if let Some(g) = game {
        if g != id {
            return Err(SolveError::Position(format!(
                "{position:?} is a {id} position, but --game {g} was given"
            )));
        }
    }
    match id {
        GameId::Kalah => {
            let p: Kalah = position.parse().map_err(bad)?;
            Ok((*p.holes(), p.stores(), p.side_to_move()))
        }
        GameId::Kalah6x6 => {
            let p: Kalah6 = position.parse().map_err(bad)?;
            Ok((*p.holes(), p.stores(), p.side_to_move()))
        }
        other => Err(SolveError::Position(format!(
            "{position:?}: a {other} position; the solver plays kalah and kalah-6x6 only"
        ))),
    }
}

/// Megabytes the system can still give (`MemAvailable`), if known.
fn available_mb() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

/// Refuses a table and database that would not fit the memory available.
fn check_memory(hash_mb: u64, db_bytes: u64) -> Result<(), SolveError> {
    let db_mb = db_bytes.div_ceil(1 << 20);
    let Some(available) = available_mb() else {
        return Ok(());
    };
    if hash_mb.saturating_add(db_mb) > available {
        return Err(SolveError::Memory(format!(
            "--hash {hash_mb} MB{} needs more than the {available} MB of memory available (MemAvailable in /proc/meminfo): ask for a smaller --hash",
            if db_mb > 0 {
                format!(" and the database's {db_mb} MB")
            } else {
                String::new()
            }
        )));
    }
    Ok(())
}

/// One root move: its value is known, or a board to solve.
#[derive(Clone, Copy, Debug)]
enum Root {
    Known(i32),
    Search { gain: i32, board: Word, again: bool },
}

/// Solves `request`: `progress` gets each move's value as it is found.
pub fn solve(request: &Request, progress: &mut dyn FnMut(u8, i32)) -> Result<Solution, SolveError> {
    solve_until(request, &AtomicBool::new(false), progress)
}

/// [`solve`], given up (`SolveError::Interrupted`) once `interrupt` is set
/// (by another thread: the Python kit's on Ctrl-C).
pub fn solve_until(
    request: &Request,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(u8, i32),
) -> Result<Solution, SolveError> {
    // The position first: a bad one is refused before any database is read.
    parse(&request.position, request.game)?;
    let db_layers = match &request.tb {
        None => None,
        Some(dir) => Some(open_db(dir)?),
    };
    let db_bytes = db_layers
        .as_ref()
        .map_or(0, |(_, n)| (0..=*n).map(layer_size).sum());
    check_memory(request.hash_mb, db_bytes)?;
    let tt = Tt::new(request.hash_mb).map_err(SolveError::Table)?;
    let db: Vec<&[i8]> = match &db_layers {
        None => Vec::new(),
        Some((tb, n)) => tb.values(GameId::Kalah, *n).map_err(SolveError::Database)?,
    };
    solve_on_until(request, &tt, &db, interrupt, progress)
}

/// [`solve`] over a table and database layers the caller holds (and keeps
/// for other positions: an opening book's build solves hundreds over one
/// table). `request.hash_mb` and `request.tb` are not read.
pub fn solve_on(
    request: &Request,
    tt: &Tt,
    db: &[&[i8]],
    progress: &mut dyn FnMut(u8, i32),
) -> Result<Solution, SolveError> {
    solve_on_until(request, tt, db, &AtomicBool::new(false), progress)
}

/// [`solve_on`] with an interrupt flag (see [`solve_until`]).
pub fn solve_on_until(
    request: &Request,
    tt: &Tt,
    db: &[&[i8]],
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(u8, i32),
) -> Result<Solution, SolveError> {
    let (holes, stores, side) = parse(&request.position, request.game)?;
    let start = Instant::now();
    let (w, diff) = of_position(&holes, stores, side);
    let mut solution = Solution {
        position: request.position.clone(),
        value: 0,
        moves: Vec::new(),
        nodes: 0,
        seconds: 0.0,
        db_seeds: db.len().checked_sub(1),
    };
    if let Some(v) = end_value(w) {
        solution.value = diff + v;
        solution.seconds = start.elapsed().as_secs_f64();
        return Ok(solution);
    }
    let mut roots = Vec::new();
    let mut bits = move_bits(w);
    while bits != 0 {
        let origin = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        let root = match play(w, origin) {
            Next::Over(v) => Root::Known(v),
            Next::Again { gain, board } => Root::Search {
                gain,
                board,
                again: true,
            },
            Next::Opponent { gain, board } => Root::Search {
                gain,
                board,
                again: false,
            },
        };
        roots.push((hole_number(side, origin), root));
    }
    let mut report = |mv: u8, v: i32| progress(mv, diff + v);
    let values = solve_roots(&roots, tt, db, request, interrupt, &mut report);
    if values.interrupted {
        return Err(SolveError::Interrupted);
    }
    solution.moves = roots
        .iter()
        .zip(&values.values)
        .map(|(&(mv, _), &v)| (mv, diff + v))
        .collect();
    solution.value = solution.moves.iter().map(|&(_, v)| v).max().unwrap_or(diff);
    solution.nodes = values.nodes;
    solution.seconds = start.elapsed().as_secs_f64();
    Ok(solution)
}

/// The directory's Kalah layers `0..=n` (all of them present from 0).
fn open_db(dir: &Path) -> Result<(Tablebase, usize), SolveError> {
    let tb = Tablebase::open(dir).map_err(SolveError::Database)?;
    let n = tb.max_beans(GameId::Kalah).ok_or_else(|| {
        SolveError::Database(format!(
            "{}: no kalah layers (build them with engine tb build --game kalah)",
            dir.display()
        ))
    })?;
    Ok((tb, n))
}

struct RootValues {
    /// The mover's net future gain after each root move.
    values: Vec<i32>,
    nodes: u64,
    /// Interrupted with a value missing: `values` are not all known.
    interrupted: bool,
}

/// The root moves' values, the searches shared out among the threads.
fn solve_roots(
    roots: &[(u8, Root)],
    tt: &Tt,
    db: &[&[i8]],
    request: &Request,
    interrupt: &AtomicBool,
    progress: &mut dyn FnMut(u8, i32),
) -> RootValues {
    let results: Mutex<Vec<Option<i32>>> = Mutex::new(
        roots
            .iter()
            .map(|(_, r)| match r {
                Root::Known(v) => Some(*v),
                Root::Search { .. } => None,
            })
            .collect(),
    );
    let stops: Vec<AtomicBool> = roots.iter().map(|_| AtomicBool::new(false)).collect();
    let next = AtomicUsize::new(0);
    let nodes = AtomicU64::new(0);
    let (found_tx, found_rx) = std::sync::mpsc::channel::<(usize, i32)>();
    let threads = request.threads.max(1);
    let finished = AtomicBool::new(false);
    std::thread::scope(|scope| {
        // The interrupt stops every root's search (the searchers poll their
        // root's flag), then the workers leave their loop.
        let (stops_w, finished_w) = (&stops, &finished);
        scope.spawn(move || {
            while !finished_w.load(Ordering::Relaxed) {
                if interrupt.load(Ordering::Relaxed) {
                    for s in stops_w {
                        s.store(true, Ordering::Relaxed);
                    }
                    return;
                }
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
        });
        for _ in 0..threads {
            let found_tx = found_tx.clone();
            let (results, stops, next, nodes) = (&results, &stops, &next, &nodes);
            scope.spawn(move || loop {
                if interrupt.load(Ordering::Relaxed) {
                    break;
                }
                // A move nobody has taken, else one still open (to help).
                let i = next.fetch_add(1, Ordering::Relaxed);
                let job = if i < roots.len() {
                    Some(i)
                } else {
                    let open = results.lock().map(|r| r.iter().position(Option::is_none));
                    open.ok().flatten()
                };
                let Some(i) = job else { break };
                let Root::Search { gain, board, again } = roots[i].1 else {
                    continue;
                };
                let shared = Shared {
                    tt,
                    db,
                    etc: request.etc,
                    stop: &stops[i],
                };
                let mut searcher = Searcher::new(&shared);
                let value = searcher.exact(board, 0);
                nodes.fetch_add(searcher.nodes, Ordering::Relaxed);
                if let Ok(v) = value {
                    let v = if again { gain + v } else { gain - v };
                    if let Ok(mut r) = results.lock() {
                        if r[i].is_none() {
                            r[i] = Some(v);
                            stops[i].store(true, Ordering::Relaxed);
                            let _ = found_tx.send((i, v));
                        }
                    }
                }
            });
        }
        drop(found_tx);
        for (i, v) in found_rx {
            progress(roots[i].0, v);
        }
        finished.store(true, Ordering::Relaxed);
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    let interrupted = results.iter().any(Option::is_none);
    RootValues {
        values: results.into_iter().map(|v| v.unwrap_or(0)).collect(),
        nodes: nodes.load(Ordering::Relaxed),
        interrupted,
    }
}

/// A move that keeps the value of a position, found by [`best_move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Best {
    /// The move (the rules library's hole number).
    pub mv: u8,
    /// The position's value: the final margin for the side to move under
    /// perfect play, stores included (the same after `mv`).
    pub value: i32,
    pub nodes: u64,
}

/// Why [`best_move`] gave no move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BestError {
    /// Not a Kalah position, or one whose game is over.
    Position(SolveError),
    /// `stop` was set before the value was known (after `nodes` nodes).
    Stopped { nodes: u64 },
}

impl fmt::Display for BestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BestError::Position(e) => write!(f, "{e}"),
            BestError::Stopped { nodes } => write!(f, "stopped after {nodes} nodes"),
        }
    }
}

impl std::error::Error for BestError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BestError::Position(e) => Some(e),
            BestError::Stopped { .. } => None,
        }
    }
}

/// The engine's exact play: the value of `position` (a `kalah` or
/// `kalah-6x6` position string) and one move that keeps it, on one thread,
/// over `tt` (kept between calls: its entries are exact bounds of boards,
/// true in every game) and the database layers `db` (`db[k]` is layer `k`;
/// empty: none), until `stop` is set.
///
/// Cheaper than [`solve`], which gives every move's value: the root is one
/// MTD(f) search (the moves refuted by bounds, not valued), then one
/// null-window test per move, best-ordered, until one reaches the value.
pub fn best_move(
    position: &str,
    tt: &Tt,
    db: &[&[i8]],
    stop: &AtomicBool,
) -> Result<Best, BestError> {
    let (holes, stores, side) = parse(position, None).map_err(BestError::Position)?;
    let (w, diff) = of_position(&holes, stores, side);
    if end_value(w).is_some() {
        return Err(BestError::Position(SolveError::Position(format!(
            "{position:?}: the game is over, there is no move to play"
        ))));
    }
    let shared = Shared {
        tt,
        db,
        etc: true,
        stop,
    };
    let mut searcher = Searcher::new(&shared);
    let stopped = |s: &Searcher| BestError::Stopped { nodes: s.nodes };
    // The table's bounds of the root, if any, are the best first guess (the
    // previous move's solve has often bounded it).
    let n = seeds(w) as i32;
    let guess = match tt::key(w).and_then(|k| tt.probe(k)) {
        Some(e) if e.lower > -n => e.lower,
        Some(e) => e.upper,
        None => 0,
    };
    let root_best = tt::key(w).and_then(|k| tt.probe(k)).and_then(|e| e.best);
    let Ok(value) = searcher.exact(w, guess) else {
        return Err(stopped(&searcher));
    };
    // The table's move first: it is the one the last test proved, mostly.
    let mut order: Vec<usize> = (0..6).filter(|&o| move_bits(w) & (1 << o) != 0).collect();
    let best_now = tt::key(w).and_then(|k| tt.probe(k)).and_then(|e| e.best);
    order.sort_by_key(|&o| (Some(o) != best_now, Some(o) != root_best));
    for origin in order {
        let keeps = match play(w, origin) {
            Next::Over(v) => v == value,
            // gain + child >= value: a null-window test at value − gain.
            Next::Again { gain, board } => {
                let m = n - gain;
                gain + searcher.search(board, m, value - gain - 1, value - gain) >= value
            }
            // gain − child >= value: the child is at most gain − value.
            Next::Opponent { gain, board } => {
                let m = n - gain;
                gain - searcher.search(board, m, gain - value, gain - value + 1) >= value
            }
        };
        if searcher.stopped() || stop.load(Ordering::Relaxed) {
            return Err(stopped(&searcher));
        }
        if keeps {
            return Ok(Best {
                mv: hole_number(side, origin),
                value: diff + value,
                nodes: searcher.nodes,
            });
        }
    }
    // why unreachable in practice: the value is the best move's, so one of
    // the moves reaches it; a stop mid-test is caught above.
    Err(stopped(&searcher))
}

/// The Kalah layers `0..=n` of an open database, if it has any (the
/// engine's and the kit's view of a `TablebasePath`).
pub fn layers(tb: &Tablebase) -> Result<Vec<&[i8]>, SolveError> {
    match tb.max_beans(GameId::Kalah) {
        None => Ok(Vec::new()),
        Some(n) => tb.values(GameId::Kalah, n).map_err(SolveError::Database),
    }
}
