//! The evaluations of the two 2×6 store games, Kalah and Oware: named terms,
//! each with a weight in centi-seeds, the weights picked by self-play
//! (BENCHMARKS.md, "Eval weights by self-play").
//!
//! The terms that look one move ahead (`capture`, `capture_against`) play
//! the moves with the rules library (`Game::after`) rather than working out
//! where a sowing ends, so no rule is written here a second time. A term
//! whose weight is 0 is not computed.
//!
//! For tuning, `ENGINE_EVAL` overrides weights at startup, e.g.
//! `ENGINE_EVAL="kalah.capture=20,oware.row=10"` (see [`check_env`]); the
//! self-play matches of BENCHMARKS.md ran one engine build with different
//! values.

use std::sync::OnceLock;

use mancala_rules::games::kalah::KalahBoard;
use mancala_rules::games::oware::Oware;
use mancala_rules::{Game, Side};

/// The weights of the Kalah evaluation, centi-seeds per unit of each term.
/// Every term is the side to move's count minus the opponent's unless its
/// name says otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KalahWeights {
    /// Seeds in the store (won for good).
    pub store: i32,
    /// Seeds in the own row (each side takes its row at the end, but the
    /// opponent may capture them first).
    pub row: i32,
    /// Holes whose last seed falls into the own store (an extra turn), for
    /// the side to move...
    pub extra_turn: i32,
    /// ... and for the opponent (subtracted).
    pub extra_turn_against: i32,
    /// The most seeds one move of the side to move puts in its store now.
    pub capture: i32,
    /// The most seeds one move of the opponent would put in its store, were
    /// it to move (subtracted).
    pub capture_against: i32,
    /// Non-empty holes in the own row (moves in hand).
    pub mobility: i32,
}

/// The weights of the Oware evaluation; terms as [`KalahWeights`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwareWeights {
    /// Seeds captured (won for good).
    pub store: i32,
    /// Seeds in the own row (each side takes its row at every ending).
    pub row: i32,
    /// Holes of 1 or 2 seeds in the opponent's row: a sowing can make them
    /// 2 or 3 and take them.
    pub targets: i32,
    /// Holes of 1 or 2 seeds in the own row (subtracted).
    pub exposed: i32,
    /// The most seeds one move of the side to move captures now.
    pub capture: i32,
    /// The most seeds one move of the opponent would capture (subtracted).
    pub capture_against: i32,
    /// Non-empty holes in the own row.
    pub mobility: i32,
    /// Own holes that feed the opponent's row (their sowing reaches it):
    /// the moves that keep him from being starved, or that a must-feed
    /// position leaves.
    pub feed: i32,
}

/// The old evaluation, kept after self-play (BENCHMARKS.md): no candidate
/// beat it (`capture`/`capture_against` 30, `mobility` 10, `row` 15 or 35);
/// `mobility` 10 came nearest (+14 ± 25 Elo pooled over three matches, and
/// weaker against OpenSpiel's agents), so it stays 0.
pub const KALAH: KalahWeights = KalahWeights {
    store: 100,
    row: 25,
    extra_turn: 40,
    extra_turn_against: 15,
    capture: 0,
    capture_against: 0,
    mobility: 0,
};

/// Chosen by self-play (BENCHMARKS.md): the old evaluation (`store 100,
/// row 5, targets 12, exposed 16`) with `row 15, mobility 10, feed 5`, about
/// +120 ± 65 Elo over it at a fixed node count. `capture` and
/// `capture_against` (30 each) won at a fixed node count but lost at equal
/// time: playing every move at every leaf costs more than it finds.
pub const OWARE: OwareWeights = OwareWeights {
    store: 100,
    row: 15,
    targets: 12,
    exposed: 16,
    capture: 0,
    capture_against: 0,
    mobility: 10,
    feed: 5,
};

/// The weights in force: the constants, or `ENGINE_EVAL`'s overrides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Weights {
    kalah: KalahWeights,
    oware: OwareWeights,
}

static WEIGHTS: OnceLock<Weights> = OnceLock::new();

fn weights() -> &'static Weights {
    // why unwrap_or: the binary calls `check_env` first and stops on a bad
    // value; a library user with a bad variable gets the built-in weights.
    WEIGHTS.get_or_init(|| from_env().unwrap_or(DEFAULT))
}

const DEFAULT: Weights = Weights {
    kalah: KALAH,
    oware: OWARE,
};

/// Checks `ENGINE_EVAL` (unset or empty: the built-in weights) and fixes
/// the weights in force; the error names the bad entry.
pub fn check_env() -> Result<(), String> {
    let w = from_env()?;
    let _ = WEIGHTS.set(w);
    Ok(())
}

fn from_env() -> Result<Weights, String> {
    match std::env::var("ENGINE_EVAL") {
        Ok(text) => parse(&text),
        Err(std::env::VarError::NotPresent) => Ok(DEFAULT),
        Err(e) => Err(format!("ENGINE_EVAL: {e}")),
    }
}

/// `game.term=value` entries separated by commas or spaces, over the
/// built-in weights.
fn parse(text: &str) -> Result<Weights, String> {
    let mut w = DEFAULT;
    for entry in text.split([',', ' ']).filter(|e| !e.is_empty()) {
        let bad = |why: &str| format!("ENGINE_EVAL entry {entry:?}: {why}");
        let (name, value) = entry
            .split_once('=')
            .ok_or_else(|| bad("expected game.term=value"))?;
        let value: i32 = value
            .parse()
            .ok()
            .filter(|v: &i32| v.abs() <= 10_000)
            .ok_or_else(|| bad("the value is not an integer within ±10000"))?;
        let k = &mut w.kalah;
        let o = &mut w.oware;
        let slot = match name {
            "kalah.store" => &mut k.store,
            "kalah.row" => &mut k.row,
            "kalah.extra_turn" => &mut k.extra_turn,
            "kalah.extra_turn_against" => &mut k.extra_turn_against,
            "kalah.capture" => &mut k.capture,
            "kalah.capture_against" => &mut k.capture_against,
            "kalah.mobility" => &mut k.mobility,
            "oware.store" => &mut o.store,
            "oware.row" => &mut o.row,
            "oware.targets" => &mut o.targets,
            "oware.exposed" => &mut o.exposed,
            "oware.capture" => &mut o.capture,
            "oware.capture_against" => &mut o.capture_against,
            "oware.mobility" => &mut o.mobility,
            "oware.feed" => &mut o.feed,
            _ => return Err(bad("unknown term")),
        };
        *slot = value;
    }
    Ok(w)
}

/// The holes of `side`'s row, nearest its left end first (as its owner
/// sees it), from a 2×6 board in notation order.
fn row(holes: &[u8; 12], side: Side) -> &[u8; 6] {
    let (south, north) = holes.split_at(6);
    let row = match side {
        Side::South => south,
        Side::North => north,
    };
    row.try_into().unwrap_or(&[0; 6])
}

fn occupied(row: &[u8; 6]) -> i32 {
    row.iter().filter(|&&n| n > 0).count() as i32
}

/// The most seeds one legal move of the side to move of `pos` adds to its
/// store (`store` reads it), by playing each move.
fn best_gain<G: Game>(pos: &G, store: impl Fn(&G, Side) -> u8) -> i32 {
    let me = pos.side_to_move();
    let before = store(pos, me);
    let mut moves = Vec::with_capacity(6);
    pos.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| i32::from(store(&pos.after(m), me)) - i32::from(before))
        .max()
        .unwrap_or(0)
}

/// Kalah (both sizes).
pub fn kalah<const SEEDS: u8>(pos: &KalahBoard<SEEDS>) -> i32 {
    let w = &weights().kalah;
    let me = pos.side_to_move();
    let them = me.opponent();
    let stores = pos.stores();
    let (mine, theirs) = (row(pos.holes(), me), row(pos.holes(), them));
    let mut score = w.store * (i32::from(stores[me.index()]) - i32::from(stores[them.index()]))
        + w.row * (pos.seeds_on(me) as i32 - pos.seeds_on(them) as i32)
        + w.mobility * (occupied(mine) - occupied(theirs));
    // The hole `6 - i` holes from the store reaches it with 6 - i seeds (or
    // a lap of 13 more).
    let extra_turns = |row: &[u8; 6]| {
        row.iter()
            .enumerate()
            .filter(|&(i, &n)| usize::from(n) % 13 == 6 - i)
            .count() as i32
    };
    score += w.extra_turn * extra_turns(mine) - w.extra_turn_against * extra_turns(theirs);
    let store = |p: &KalahBoard<SEEDS>, s: Side| p.stores()[s.index()];
    if w.capture != 0 {
        score += w.capture * best_gain(pos, store);
    }
    if w.capture_against != 0 {
        if let Ok(turned) = KalahBoard::<SEEDS>::new(*pos.holes(), stores, them) {
            score -= w.capture_against * best_gain(&turned, store);
        }
    }
    score
}

/// Oware.
pub fn oware(pos: &Oware) -> i32 {
    let w = &weights().oware;
    let me = pos.side_to_move();
    let them = me.opponent();
    let stores = pos.stores();
    let (mine, theirs) = (row(pos.holes(), me), row(pos.holes(), them));
    let small = |row: &[u8; 6]| row.iter().filter(|&&n| n == 1 || n == 2).count() as i32;
    // The hole `5 - i` holes before the row's last one reaches the other
    // row with more than `5 - i` seeds.
    let feeding = |row: &[u8; 6]| {
        row.iter()
            .enumerate()
            .filter(|&(i, &n)| usize::from(n) > 5 - i)
            .count() as i32
    };
    let mut score = w.store * (i32::from(stores[me.index()]) - i32::from(stores[them.index()]))
        + w.row * (pos.seeds_on(me) as i32 - pos.seeds_on(them) as i32)
        + w.targets * small(theirs)
        - w.exposed * small(mine)
        + w.mobility * (occupied(mine) - occupied(theirs))
        + w.feed * (feeding(mine) - feeding(theirs));
    let store = |p: &Oware, s: Side| p.stores()[s.index()];
    if w.capture != 0 {
        score += w.capture * best_gain(pos, store);
    }
    if w.capture_against != 0 {
        if let Ok(turned) = Oware::new(*pos.holes(), stores, them) {
            score -= w.capture_against * best_gain(&turned, store);
        }
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_entries_override_named_terms_and_bad_ones_are_named() {
        let w = parse("kalah.capture=20, oware.feed=-3").unwrap();
        assert_eq!(w.kalah.capture, 20);
        assert_eq!(w.oware.feed, -3);
        assert_eq!(w.kalah.store, KALAH.store);
        assert_eq!(parse("").unwrap(), DEFAULT);
        assert!(parse("kalah.speed=1")
            .unwrap_err()
            .contains("kalah.speed=1"));
        assert!(parse("kalah.row").unwrap_err().contains("game.term=value"));
        assert!(parse("oware.row=x").unwrap_err().contains("integer"));
    }

    #[test]
    fn best_gain_is_the_largest_immediate_store_gain() {
        // South's hole 2 (1 seed) ends in empty hole 3, opposite hole 10
        // holds 5: 6 seeds captured; hole 6 (1 seed) reaches the store: 1.
        let pos: KalahBoard<4> = "kalah 0,1,0,0,0,1,0,0,0,5,0,0 S 20/21".parse().unwrap();
        let store = |p: &KalahBoard<4>, s: Side| p.stores()[s.index()];
        assert_eq!(best_gain(&pos, store), 6);
        // Oware: South's hole 6 (2 seeds) makes North's holes 7 and 8 (1
        // and 2 seeds) 2 and 3: 5 captured.
        let pos: Oware = "oware 1,0,0,0,0,2,1,2,0,0,0,4 S 19/19".parse().unwrap();
        let store = |p: &Oware, s: Side| p.stores()[s.index()];
        assert_eq!(best_gain(&pos, store), 5);
    }
}
