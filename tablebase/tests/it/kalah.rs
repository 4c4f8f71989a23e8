//! The Kalah databases: every board up to 8 seeds against a plain minimax
//! written here over the rules library (no database code), the Bellman
//! check, resuming, and the errors a Kalah build or a damaged file gives.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use mancala_rules::games::kalah::Kalah;
use mancala_rules::{Game, GameId, Side};
use mancala_tablebase::build::{build, build_shard, Event};
use mancala_tablebase::file::layer_path;
use mancala_tablebase::index::{layer_size, unrank};
use mancala_tablebase::Tablebase;

/// Every board with up to this many seeds is compared with the minimax:
/// 125 970 boards, a few seconds in the test profile.
const EXHAUSTIVE: usize = 8;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tablebase-kalah-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The final margin for the side to move (his total minus the opponent's,
/// stores included) under best play: plain minimax over the rules library,
/// memoised by position.
fn minimax(pos: &Kalah, memo: &mut HashMap<Kalah, i32>) -> i32 {
    if let Some(v) = memo.get(pos) {
        return *v;
    }
    let mover = pos.side_to_move();
    let margin =
        |scores: [u32; 2]| scores[mover.index()] as i32 - scores[mover.opponent().index()] as i32;
    let v = match pos.status() {
        Some(outcome) => margin(outcome.scores.expect("Kalah scores")),
        None => pos
            .legal_move_list()
            .into_iter()
            .map(|mv| {
                let child = pos.after(mv);
                let v = minimax(&child, memo);
                if child.side_to_move() == mover {
                    v
                } else {
                    -v
                }
            })
            .max()
            .expect("a move"),
    };
    memo.insert(*pos, v);
    v
}

fn build_quietly(n: usize, dir: &Path) -> Result<(), String> {
    build(GameId::Kalah, n, dir, 2, &mut |_| {})
}

#[test]
fn every_board_up_to_8_seeds_equals_plain_minimax() {
    let dir = scratch("exhaustive");
    build_quietly(EXHAUSTIVE, &dir).expect("build");
    let tb = Tablebase::open(&dir).expect("open");
    assert_eq!(tb.max_beans(GameId::Kalah), Some(EXHAUSTIVE));
    let mut memo = HashMap::new();
    for n in 0..=EXHAUSTIVE {
        for r in 0..layer_size(n) {
            let board = unrank(n, r).expect("in range");
            // North to move, with unequal stores: the value must not care.
            let mut holes = [0u8; 12];
            holes[6..].copy_from_slice(&board[..6]);
            holes[..6].copy_from_slice(&board[6..]);
            let south = (48 - n) as u8 / 3;
            let pos = Kalah::new(holes, [south, 48 - n as u8 - south], Side::North).expect("48");
            let probe = tb
                .probe_kalah(&pos)
                .expect("probe")
                .expect("in the database");
            let stores = pos.stores();
            let margin = probe.value + i32::from(stores[1]) - i32::from(stores[0]);
            assert_eq!(margin, minimax(&pos, &mut memo), "{pos}");
            // The moves the probe names keep the value, and only they.
            for mv in pos.legal_move_list() {
                let child = pos.after(mv);
                let v = minimax(&child, &mut memo);
                let v = if child.side_to_move() == Side::North {
                    v
                } else {
                    -v
                };
                assert_eq!(probe.moves.contains(&mv), v == margin, "{pos} {mv}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn layers_check_resume_and_refuse_damage() {
    let dir = scratch("files");
    build_quietly(9, &dir).expect("build");
    let tb = Tablebase::open(&dir).expect("open");
    for n in 0..=9 {
        let checked = tb
            .check_bellman(GameId::Kalah, n, 5_000, 1)
            .expect("bellman");
        assert_eq!(checked.boards, layer_size(n).min(5_000));
    }
    // A second build keeps every layer.
    let mut kept = 0;
    build(GameId::Kalah, 9, &dir, 1, &mut |e| {
        if let Event::Kept { .. } = e {
            kept += 1
        }
    })
    .expect("resume");
    assert_eq!(kept, 10);
    // A value changed under a good checksum fails the Bellman check by name.
    let path = layer_path(&dir, GameId::Kalah, 9);
    let mut bytes = std::fs::read(&path).expect("read");
    let at = 80 + 12_345;
    bytes[at] = bytes[at].wrapping_add(2);
    let body = bytes.len() - 4;
    let crc = crc32fast::hash(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    std::fs::write(&path, &bytes).expect("write");
    let tb = Tablebase::open(&dir).expect("open");
    let e = tb
        .check_bellman(GameId::Kalah, 9, u64::MAX, 1)
        .expect_err("wrong value");
    assert!(
        e.contains("kalah-9.tb") && e.contains("Bellman identity fails"),
        "{e}"
    );
    // A truncated file is named, and rebuilt by the next build.
    std::fs::write(&path, &bytes[..1000]).expect("truncate");
    let tb = Tablebase::open(&dir).expect("open");
    let e = tb.values(GameId::Kalah, 9).expect_err("truncated");
    assert!(e.contains("kalah-9.tb") && e.contains("truncated"), "{e}");
    build_quietly(9, &dir).expect("rebuild");
    let tb = Tablebase::open(&dir).expect("open");
    tb.check_bellman(GameId::Kalah, 9, u64::MAX, 1)
        .expect("rebuilt");
    // Shards are refused for Kalah, and more than 48 seeds.
    let e = build_shard(GameId::Kalah, 9, 0, 2, &dir, 1, &mut |_| {}).expect_err("shard");
    assert!(e.contains("built whole"), "{e}");
    let e = build_quietly(49, &dir).expect_err("49");
    assert!(e.contains("at most 48"), "{e}");
    // Layers up to 48 seeds would need 10^12 bytes: refused before any work.
    let e = build_quietly(48, &dir).expect_err("too big");
    assert!(e.contains("GiB are available"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}
