//! The bigger layers: the Bellman identity on random boards, the shard
//! build equal to the one-process build, the files round-tripping and
//! rejecting damage.

use std::path::PathBuf;

use mancala_rules::GameId;
use mancala_tablebase::build::{build, build_shard, join};
use mancala_tablebase::file::{layer_path, read_layer, write_layer};
use mancala_tablebase::index::{layer_size, rank, unrank};
use mancala_tablebase::position::{edges, end_value, south_to_move};
use mancala_tablebase::solve::{solve_all, Solved};
use mancala_tablebase::Tablebase;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Layers up to 11 beans (C(23, 12) = 1.35 million boards, both games): about
/// ten seconds in the test profile on a loaded two-core machine. The
/// exhaustive test covers layers 0..=8; the bigger ones are checked here.
const BELLMAN_BEANS: usize = 11;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tablebase-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// value = max over moves of (captured − value(child)), with the end's
/// allocation at a finished board; a flagged board lies within its bounds.
fn bellman<const H: bool>(layers: &[Solved], rng: &mut SmallRng) {
    let (mut list, mut moves) = (Vec::new(), Vec::new());
    for layer in &layers[9..] {
        let n = layer.beans;
        for _ in 0..20_000 {
            let r = rng.random_range(0..layer_size(n));
            let board = unrank(n, r).expect("in range");
            let pos = south_to_move::<H>(&board);
            let value = i32::from(layer.values[r as usize]);
            let flag = layer.flagged.iter().find(|f| f.index == r);
            if let Some(end) = end_value(&pos) {
                assert_eq!(value, end, "{pos}");
                continue;
            }
            edges(&pos, &mut list, &mut moves);
            let best = list
                .iter()
                .map(|e| {
                    let child = &layers[n - usize::from(e.captured)];
                    i32::from(e.captured) - i32::from(child.values[rank(&e.child) as usize])
                })
                .max()
                .expect("a move");
            match flag {
                None => assert_eq!(value, best, "{pos}"),
                Some(f) => {
                    assert!(
                        (i32::from(f.lower)..=i32::from(f.upper)).contains(&value),
                        "{pos}"
                    )
                }
            }
        }
    }
}

#[test]
fn the_bellman_identity_holds_on_random_boards_of_layers_9_to_11() {
    let mut rng = SmallRng::seed_from_u64(9);
    bellman::<false>(&solve_all::<false>(BELLMAN_BEANS), &mut rng);
    bellman::<true>(&solve_all::<true>(BELLMAN_BEANS), &mut rng);
}

#[test]
fn a_layer_built_in_three_shards_and_threads_equals_the_one_thread_build_byte_for_byte() {
    let (whole, sharded) = (scratch("whole"), scratch("sharded"));
    for game in [GameId::Bohnenspiel, GameId::BohnenspielHemprich] {
        // One thread for the whole build, several for the shards and the
        // join: neither the shards nor the threads change a byte.
        build(game, 9, &whole, 1, &mut |_| {}).expect("builds");
        build(game, 8, &sharded, 3, &mut |_| {}).expect("builds");
        for i in 0..3 {
            build_shard(game, 9, i, 3, &sharded, i as usize + 1, &mut |_| {})
                .expect("shard builds");
        }
        join(game, 9, 3, &sharded, 2, &mut |_| {}).expect("joins");
        let a = std::fs::read(layer_path(&whole, game, 9)).expect("reads");
        let b = std::fs::read(layer_path(&sharded, game, 9)).expect("reads");
        assert!(a == b, "{game}: layer 9 differs");
        // The join removed the shards.
        let files = std::fs::read_dir(&sharded).expect("dir").count();
        assert_eq!(files, if game == GameId::Bohnenspiel { 10 } else { 20 });
    }
    let _ = std::fs::remove_dir_all(&whole);
    let _ = std::fs::remove_dir_all(&sharded);
}

#[test]
fn files_round_trip_resume_and_reject_damage_by_name() {
    let dir = scratch("files");
    let game = GameId::BohnenspielHemprich;
    build(game, 6, &dir, 2, &mut |_| {}).expect("builds");
    let layers = solve_all::<true>(6);
    for layer in &layers {
        let (g, read) = read_layer(&layer_path(&dir, game, layer.beans)).expect("reads");
        assert_eq!(g, game);
        assert_eq!(&read, layer);
    }
    // Resuming keeps every checked layer and rebuilds a damaged one.
    let path = layer_path(&dir, game, 5);
    let mut bytes = std::fs::read(&path).expect("reads");
    bytes[100] ^= 1;
    std::fs::write(&path, &bytes).expect("writes");
    let err = read_layer(&path).expect_err("damaged");
    assert!(err.contains("checksum mismatch"), "{err}");
    let tb = Tablebase::open(&dir).expect("opens");
    let err = tb.verify().expect_err("damaged");
    assert!(
        err.contains("bohnenspiel-hemprich-5.tb") && err.contains("checksum"),
        "{err}"
    );
    let mut kept = Vec::new();
    build(game, 6, &dir, 1, &mut |e| {
        if let mancala_tablebase::build::Event::Kept { beans, .. } = e {
            kept.push(beans)
        }
    })
    .expect("resumes");
    assert_eq!(kept, [0, 1, 2, 3, 4, 6]);
    assert_eq!(read_layer(&path).expect("rebuilt").1, layers[5]);
    // Truncated, and not a database at all.
    std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("writes");
    assert!(read_layer(&path).expect_err("short").contains("truncated"));
    std::fs::write(&path, b"hello").expect("writes");
    assert!(read_layer(&path).expect_err("junk").contains("bad magic"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn verify_bellman_checks_built_files_and_names_a_wrong_value() {
    let dir = scratch("bellman");
    let game = GameId::Bohnenspiel;
    build(game, 7, &dir, 2, &mut |_| {}).expect("builds");
    let tb = Tablebase::open(&dir).expect("opens");
    for beans in 0..=7 {
        // 500 boards: layers 0..=4 whole, 5..=7 sampled.
        let checked = tb.check_bellman(game, beans, 500, 1).expect("holds");
        assert_eq!(checked.boards, layer_size(beans).min(500));
    }
    // A wrong value written with a good checksum: only the identity sees it.
    let (_, mut layer) = read_layer(&layer_path(&dir, game, 4)).expect("reads");
    let r = 700;
    layer.values[r] += 2;
    write_layer(&layer_path(&dir, game, 4), game, &layer).expect("writes");
    let tb = Tablebase::open(&dir).expect("opens");
    tb.verify().expect("the checksums are good");
    let err = tb
        .check_bellman(game, 4, 10_000, 1)
        .expect_err("a wrong value");
    assert!(
        err.starts_with("bohnenspiel-4.tb: board 700 (") && err.contains("Bellman identity fails"),
        "{err}"
    );
    // A missing layer below is named.
    std::fs::remove_file(layer_path(&dir, game, 2)).expect("removes");
    let tb = Tablebase::open(&dir).expect("opens");
    let err = tb.check_bellman(game, 6, 10, 1).expect_err("missing");
    assert!(err.contains("layer 2 is missing"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
