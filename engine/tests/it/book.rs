//! The Kalah opening book: the shipped one reads, holds the published values
//! of the start and is consistent move by move; `engine book build` writes
//! what the solver says; the engine plays the book's move with its value.

use std::process::Command;

use crate::common;
use std::time::Duration;

use engine::book::{after, key_of, Book};
use engine::solve::{solve, Request};
use mancala_tablebase::kalah::board::{to_board, Next};

#[test]
fn the_shipped_book_reads_and_holds_the_published_start() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/books/kalah.book"))
        .expect("engine/books/kalah.book");
    let book = Book::parse(&text).expect("the shipped book reads");
    assert_eq!(&book, Book::shipped());
    assert!(!book.is_empty());
    // CMancala's published values of the start of Kalah(6,4) (BENCHMARKS.md, 17).
    let (start, _, _) = key_of("kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0").expect("a kalah position");
    let moves = book
        .entries()
        .find(|(k, _)| **k == start)
        .map(|(_, m)| m.to_vec())
        .expect("the start is in the book");
    assert_eq!(
        moves,
        [(1, -14), (2, -10), (3, 8), (4, -2), (5, -8), (6, 4)]
    );
    let best = book
        .lookup("kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0")
        .expect("in the book");
    assert_eq!((best.mv, best.value), (3, 8));
    // North to move sees the same board: the move is North's hole 9.
    let best = book
        .lookup("kalah 4,4,4,4,4,4,4,4,4,4,4,4 N 0/0")
        .expect("in the book");
    assert_eq!((best.mv, best.value), (9, 8));
}

#[test]
fn the_shipped_book_is_consistent_move_by_move() {
    let book = Book::shipped();
    let best = |k: &[u8; 12]| {
        book.entries()
            .find(|(key, _)| *key == k)
            .map(|(_, m)| m.iter().map(|&(_, v)| v).max().expect("moves"))
    };
    let mut checked = 0;
    for (key, moves) in book.entries() {
        for &(m, v) in moves {
            // A move's value is its gain plus (extra turn) or minus (the
            // opponent moves) the best of the board it leads to.
            let expected = match after(key, m).expect("a legal move") {
                Next::Over(x) => Some(x),
                Next::Again { gain, board } => best(&to_board(board)).map(|c| gain + c),
                Next::Opponent { gain, board } => best(&to_board(board)).map(|c| gain - c),
            };
            if let Some(x) = expected {
                assert_eq!(v, x, "{key:?} move {m}");
                checked += 1;
            }
        }
    }
    // Beyond the start alone, the first plies' moves lead to entries.
    assert!(book.len() == 1 || checked > 0, "{checked}");
}

#[test]
fn book_build_writes_what_the_solver_says() {
    let dir = std::env::temp_dir().join(format!("kalah-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let out = dir.join("small.book");
    let root = "kalah 1,0,3,0,2,1,1,1,0,2,0,4 S 15/18";
    let status = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args([
            "book",
            "build",
            "--plies",
            "2",
            "--hash",
            "16",
            "--threads",
            "1",
        ])
        .args(["--from", root, "--out"])
        .arg(&out)
        .output()
        .expect("engine book build runs");
    assert!(status.status.success(), "{status:?}");
    let text = std::fs::read_to_string(&out).expect("the book");
    let book = Book::parse(&text).expect("reads");
    assert!(book.len() > 5, "{}", book.len());
    let n = book.len();
    assert!(
        text.contains(&format!(": {n} of {n} positions\n")),
        "{text}"
    );
    // Every entry against the solver: a South-to-move position of its board.
    for (key, moves) in book.entries() {
        let holes: Vec<String> = key.iter().map(u8::to_string).collect();
        let seeds: u32 = key.iter().map(|&h| u32::from(h)).sum();
        let position = format!("kalah {} S {}/0", holes.join(","), 48 - seeds);
        let s = solve(
            &Request {
                position: position.clone(),
                game: None,
                hash_mb: 16,
                threads: 1,
                tb: None,
                etc: true,
            },
            &mut |_, _| {},
        )
        .expect("solves");
        let margin_after: Vec<(u8, i32)> = moves
            .iter()
            .map(|&(m, v)| (m, v + 48 - seeds as i32))
            .collect();
        assert_eq!(margin_after, s.moves, "{position}");
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_engine"))
        .args(["book", "build", "--plies", "1", "--game", "oware", "--out"])
        .arg(dir.join("x.book"))
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("only kalah has a book"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_engine_plays_the_book_move_with_its_value() {
    let mut c = Command::new(env!("CARGO_BIN_EXE_engine"));
    c.env("MANCALA_TABLEBASE", "/nonexistent/mancala-tablebase");
    let mut e = common::Engine::start_command(c);
    e.handshake();
    e.send("newgame kalah");
    e.send("position startpos");
    e.send("go movetime 200");
    let lines = e.until(Duration::from_secs(60), |l| l.starts_with("bestmove"));
    assert!(
        lines
            .iter()
            .any(|l| l.contains("score cp 500800 ") && l.ends_with("string exact: book, value +8")),
        "{lines:?}"
    );
    assert_eq!(lines.last().map(String::as_str), Some("bestmove 3"));
    assert!(e.quit().success());
}

#[test]
fn malformed_books_are_refused_with_the_line() {
    for (text, what) in [
        ("4,4,4 1:2", "book line 1: 3 holes, expected 12"),
        (
            "4,4,4,4,4,4,4,4,4,4,4,x 1:2",
            "book line 1: \"4,4,4,4,4,4,4,4,4,4,4,x\"",
        ),
        (
            "# c\n4,4,4,4,4,4,4,4,4,4,4,4 7:2",
            "book line 2: \"7:2\": not a move of this board",
        ),
        (
            "0,4,4,4,4,4,4,4,4,4,4,4 1:2",
            "book line 1: \"1:2\": not a move of this board",
        ),
        (
            "4,4,4,4,4,4,4,4,4,4,4,4 1:x",
            "book line 1: \"1:x\": the value",
        ),
        ("4,4,4,4,4,4,4,4,4,4,4,4", "book line 1: no moves"),
        (
            "4,4,4,4,4,4,4,4,4,4,4,4 1:2\n4,4,4,4,4,4,4,4,4,4,4,4 1:2",
            "book line 2: 4,4,4,4,4,4,4,4,4,4,4,4 is in the book twice",
        ),
    ] {
        let e = Book::parse(text).expect_err(text);
        assert!(e.to_string().starts_with(what), "{e} / {what}");
    }
}
