use mancala_rules::games::kujifunza::Kujifunza;
use mancala_rules::perft::{divide, perft};
use mancala_rules::Game;

#[test]
fn perft_from_start() {
    let start = Kujifunza::start();
    let got: Vec<u64> = (1..=5).map(|d| perft(&start, d)).collect();
    assert_eq!(got, [56, 830, 5354, 39990, 242220]);
    let _ = divide(&start, 1);
}
