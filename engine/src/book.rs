//! The Kalah opening book: the exact value of every move of the positions
//! of the first plies, where the solver cannot finish within a move's time.
//! Built by `engine book build` (the solver over a shared table), shipped in
//! the repository (`engine/books/kalah.book`, compiled into the engine) and
//! played by the engine before it tries to solve.
//!
//! One line a board, seen from the player to move (the stores do not change
//! what is best): his six holes from his left, then the opponent's six from
//! his left, then each legal move (`1`–`6`, his holes from his left) with its
//! value, the mover's net future gain after it (the final margin is that plus
//! his store minus the opponent's). `#` starts a comment line.
//!
//! ```text
//! 4,4,4,4,4,4,4,4,4,4,4,4 1:-14 2:-10 3:8 4:-2 5:-8 6:4
//! ```

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::OnceLock;

use clap::Subcommand;
use mancala_rules::games::kalah::{Kalah, Kalah6};
use mancala_rules::position::game_id_of;
use mancala_rules::{Game, GameId, Side};
use mancala_tablebase::kalah::board::{hole_number, of_position, to_board, Word};
use mancala_tablebase::kalah::solver::{self, tt::Tt, Request};
use mancala_tablebase::Tablebase;

/// The book the repository ships.
const SHIPPED: &str = include_str!("../books/kalah.book");

/// A board seen from the mover: his six holes, then the opponent's six.
pub type Key = [u8; 12];

/// The book: each board's moves (`1`–`6` from the mover's left) and values.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Book {
    entries: HashMap<Key, Vec<(u8, i32)>>,
}

/// A line of a book file that does not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BookError {
    pub line: usize,
    pub what: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "book line {}: {}", self.line, self.what)
    }
}

impl std::error::Error for BookError {}

/// What the book says about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookMove {
    /// The move to play (the rules library's hole number): the best, the
    /// lowest hole among equals.
    pub mv: u8,
    /// The final margin for the side to move under perfect play.
    pub value: i32,
}

/// The board of a `kalah` or `kalah-6x6` position seen from the mover, and
/// his store minus the opponent's; `None` for other games or bad strings.
pub fn key_of(position: &str) -> Option<(Key, i32, Side)> {
    let (holes, stores, side) = match game_id_of(position).ok()? {
        GameId::Kalah => {
            let p: Kalah = position.parse().ok()?;
            (*p.holes(), p.stores(), p.side_to_move())
        }
        GameId::Kalah6x6 => {
            let p: Kalah6 = position.parse().ok()?;
            (*p.holes(), p.stores(), p.side_to_move())
        }
        _ => return None,
    };
    let (w, diff) = of_position(&holes, stores, side);
    Some((to_board(w), diff, side))
}

impl Book {
    /// Reads a book file's text.
    pub fn parse(text: &str) -> Result<Book, BookError> {
        let mut entries = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |what: String| BookError { line: i + 1, what };
            let mut fields = line.split_whitespace();
            let board = fields.next().unwrap_or_default();
            let holes: Vec<u8> = board
                .split(',')
                .map(|h| h.parse::<u8>())
                .collect::<Result<_, _>>()
                .map_err(|e| bad(format!("{board:?}: {e}")))?;
            let key: Key = holes
                .try_into()
                .map_err(|h: Vec<u8>| bad(format!("{} holes, expected 12", h.len())))?;
            let mut moves = Vec::new();
            for f in fields {
                let (m, v) = f
                    .split_once(':')
                    .ok_or_else(|| bad(format!("{f:?}: expected move:value")))?;
                let m: u8 = m
                    .parse()
                    .ok()
                    .filter(|m| (1..=6).contains(m) && key[usize::from(*m) - 1] > 0)
                    .ok_or_else(|| bad(format!("{f:?}: not a move of this board")))?;
                let v: i32 = v
                    .parse()
                    .map_err(|e| bad(format!("{f:?}: the value: {e}")))?;
                moves.push((m, v));
            }
            if moves.is_empty() {
                return Err(bad("no moves".into()));
            }
            if entries.insert(key, moves).is_some() {
                return Err(bad(format!("{board} is in the book twice")));
            }
        }
        Ok(Book { entries })
    }

    /// The book the repository ships (read once; a book that does not read
    /// is empty: the test `the_shipped_book_reads` keeps it readable).
    pub fn shipped() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        BOOK.get_or_init(|| Book::parse(SHIPPED).unwrap_or_default())
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Every board and its moves' values (net future gains).
    pub fn entries(&self) -> impl Iterator<Item = (&Key, &[(u8, i32)])> {
        self.entries.iter().map(|(k, v)| (k, v.as_slice()))
    }

    /// The book's move in `position`, if its board is in the book.
    pub fn lookup(&self, position: &str) -> Option<BookMove> {
        let (key, diff, side) = key_of(position)?;
        let moves = self.entries.get(&key)?;
        let &(m, v) = moves
            .iter()
            .max_by_key(|&&(m, v)| (v, std::cmp::Reverse(m)))?;
        Some(BookMove {
            mv: hole_number(side, usize::from(m) - 1),
            value: diff + v,
        })
    }
}

#[derive(Subcommand)]
pub enum BookCommand {
    /// Solve every position within --plies moves of the start (or of
    /// --from) and write the book: each board's moves with their exact values.
    Build {
        /// Only kalah (kalah-6x6 openings cannot be solved here).
        #[arg(long, default_value = "kalah")]
        game: GameId,
        /// Positions reached in at most this many moves (0: the start alone).
        #[arg(long)]
        plies: u32,
        /// The root position (default: the game's start).
        #[arg(long, value_name = "POSITION")]
        from: Option<String>,
        /// A directory of Kalah endgame databases (engine tb build --game kalah).
        #[arg(long, value_name = "DIR")]
        tb: Option<PathBuf>,
        /// The solver's table in MB, shared by all the positions.
        #[arg(long, value_name = "MB", default_value_t = 1024)]
        hash: u64,
        /// Search threads (default: the CPUs this process may use).
        #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..))]
        threads: Option<u16>,
        /// The book file to write.
        #[arg(long)]
        out: PathBuf,
    },
}

pub fn run(command: BookCommand) -> ExitCode {
    let BookCommand::Build {
        game,
        plies,
        from,
        tb,
        hash,
        threads,
        out,
    } = command;
    if game != GameId::Kalah {
        eprintln!("engine book: --game {game}: only kalah has a book (its openings are solved)");
        return ExitCode::from(2);
    }
    let root = from.unwrap_or_else(|| Kalah::start().to_string());
    let threads = threads.map_or_else(mancala_tablebase::build::default_threads, usize::from);
    match build(&root, plies, tb, hash, threads, &out) {
        Ok(n) => {
            println!("{n} positions, {}", out.display());
            ExitCode::SUCCESS
        }
        Err((status, e)) => {
            eprintln!("engine book: {e}");
            ExitCode::from(status)
        }
    }
}

/// The distinct boards within `plies` moves of `root` (unfinished), in
/// breadth-first order, each with a position string that has it.
fn positions(root: &Kalah, plies: u32) -> Vec<(Key, String)> {
    let mut seen: HashMap<Key, ()> = HashMap::new();
    let mut out = Vec::new();
    let mut queue = VecDeque::from([(*root, 0)]);
    while let Some((pos, depth)) = queue.pop_front() {
        if pos.status().is_some() {
            continue;
        }
        let Some((key, _, _)) = key_of(&pos.to_string()) else {
            continue;
        };
        if seen.insert(key, ()).is_some() {
            continue;
        }
        out.push((key, pos.to_string()));
        if depth < plies {
            for mv in pos.legal_move_list() {
                queue.push_back((pos.after(mv), depth + 1));
            }
        }
    }
    out
}

fn build(
    root: &str,
    plies: u32,
    tb: Option<PathBuf>,
    hash: u64,
    threads: usize,
    out: &std::path::Path,
) -> Result<usize, (u8, String)> {
    let root: Kalah = root
        .parse()
        .map_err(|e| (2, format!("--from {root:?}: {e}")))?;
    let tablebase = match &tb {
        Some(dir) => Some(Tablebase::open(dir).map_err(|e| (1, e))?),
        None => None,
    };
    let db = match &tablebase {
        Some(t) => solver::layers(t).map_err(|e| (1, e.to_string()))?,
        None => Vec::new(),
    };
    let tt = Tt::new(hash).map_err(|e| (1, e.to_string()))?;
    let todo = positions(&root, plies);
    let mut lines = vec![
        "# Kalah opening book (engine/src/book.rs): the board seen from the player to move,".to_string(),
        "# then each move (1-6, his holes from his left) with its exact value, his net future gain.".to_string(),
        String::new(),
    ];
    let dbs = if db.is_empty() {
        String::new()
    } else {
        format!(" (databases up to {} seeds)", db.len() - 1)
    };
    // The third line says how far the build got (rewritten with each position).
    let header = |done: usize| {
        format!(
            "# engine book build --plies {plies} --from \"{root}\"{dbs}: {done} of {} positions",
            todo.len()
        )
    };
    for (i, (key, position)) in todo.iter().enumerate() {
        let request = Request {
            position: position.clone(),
            game: Some(GameId::Kalah),
            hash_mb: hash,
            threads,
            tb: None,
            etc: true,
        };
        let s = solver::solve_on(&request, &tt, &db, &mut |_, _| {})
            .map_err(|e| (e.status(), e.to_string()))?;
        let (_, diff, side) = key_of(position).ok_or((1, "a kalah position".to_string()))?;
        let moves: Vec<String> = s
            .moves
            .iter()
            .map(|&(m, v)| {
                let origin = match side {
                    Side::South => m,
                    Side::North => m - 6,
                };
                format!("{origin}:{}", v - diff)
            })
            .collect();
        let board: Vec<String> = key.iter().map(u8::to_string).collect();
        lines.push(format!("{} {}", board.join(","), moves.join(" ")));
        // why after every position: a long build stopped part-way keeps
        // what it solved (a prefix of the breadth-first order: the shallow
        // plies complete).
        lines[2] = header(i + 1);
        write_book(out, &lines)?;
        eprintln!(
            "{}/{}: {position}: value {:+}, {} nodes, {:.1} s",
            i + 1,
            todo.len(),
            s.value,
            s.nodes,
            s.seconds
        );
    }
    lines[2] = header(todo.len());
    write_book(out, &lines)?;
    Ok(todo.len())
}

/// Writes the book to a temporary name, then renames it over `out`.
fn write_book(out: &std::path::Path, lines: &[String]) -> Result<(), (u8, String)> {
    let tmp = out.with_extension("tmp");
    let err = |e: std::io::Error| (1, format!("{}: {e}", out.display()));
    let mut file = std::fs::File::create(&tmp).map_err(err)?;
    writeln!(file, "{}", lines.join("\n")).map_err(err)?;
    drop(file);
    std::fs::rename(&tmp, out).map_err(err)
}

/// The board after the mover's move `m` (1–6) from `key`, and what it
/// leads to (for the book's consistency check): see [`mancala_tablebase::kalah::board::play`].
pub fn after(key: &Key, m: u8) -> Option<mancala_tablebase::kalah::board::Next> {
    let w: Word = mancala_tablebase::kalah::board::from_board(key)?;
    ((1..=6).contains(&m) && key[usize::from(m) - 1] > 0)
        .then(|| mancala_tablebase::kalah::board::play(w, usize::from(m) - 1))
}
