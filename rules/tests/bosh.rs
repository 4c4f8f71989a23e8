//! Integration tests for Bosh: perft, position strings, random-game invariants,
//! the cycle rule through `GameRecord`.

use mancala_rules::games::bosh::{Bosh, BoshMove};
use mancala_rules::perft::{divide, perft};
use mancala_rules::{Game, Side};

/// Perft from the start, as an independent implementation of the rulings gives it.
const PERFT: [u64; 11] = [
    5, 19, 79, 266, 864, 2881, 9295, 27914, 84572, 249221, 715969,
];

#[test]
fn perft_from_start_shallow() {
    let start = Bosh::start();
    for (d, &n) in PERFT.iter().enumerate().take(8) {
        assert_eq!(perft(&start, d as u32 + 1), n, "depth {}", d + 1);
    }
}

#[test]
#[ignore = "deep perft, a few seconds in release"]
fn perft_from_start_deep() {
    let start = Bosh::start();
    for (d, &n) in PERFT.iter().enumerate().skip(8) {
        assert_eq!(perft(&start, d as u32 + 1), n, "depth {}", d + 1);
    }
}
