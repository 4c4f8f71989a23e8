//! Exact endgames: positions with few seeds left on the board, solved by an
//! exhaustive search written here (no pruning, no table shared with the
//! engine), must come out of the reference engine's search with exactly the
//! solved score: the result, and for a win or a loss its distance in plies
//! (`MATE - plies`, the engine's convention: the fastest win, the slowest
//! loss). Kalah's extra turns (the mover moves again) and Oware's first
//! repetition rule are both part of it.

use std::collections::HashMap;

use engine::control::SearchControl;
use engine::search::{Limits, Searcher, MATE, MATE_BOUND};
use engine::tt::Table;
use mancala_rules::games::kalah::Kalah;
use mancala_rules::games::oware::Oware;
use mancala_rules::{Game, GameRecord, Outcome, RepetitionEffect, Side};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// A finished game's score for `side`, at the end itself (0 plies).
fn end_score(outcome: Outcome, side: Side) -> i32 {
    match outcome.result.winner() {
        Some(w) if w == side => MATE,
        Some(_) => -MATE,
        None => 0,
    }
}

/// A child's score seen one ply up, for the parent's side to move.
fn up<G: Game>(parent: &G, child: &G, score: i32) -> i32 {
    let score = if child.side_to_move() == parent.side_to_move() {
        score
    } else {
        -score
    };
    // One ply further from the end.
    if score > MATE_BOUND {
        score - 1
    } else if score < -MATE_BOUND {
        score + 1
    } else {
        score
    }
}

/// Kalah, memoised on the position: no Kalah position can occur twice in a
/// game (docs/rules/kalah.md), so the position alone decides its value.
/// Also returns the longest game from `pos` in plies.
fn solve_kalah(pos: &Kalah, memo: &mut HashMap<Kalah, (i32, u32)>) -> (i32, u32) {
    if let Some(outcome) = pos.status() {
        return (end_score(outcome, pos.side_to_move()), 0);
    }
    if let Some(&known) = memo.get(pos) {
        return known;
    }
    let mut best = (i32::MIN, 0);
    for mv in pos.legal_move_list() {
        let child = pos.after(mv);
        let (score, longest) = solve_kalah(&child, memo);
        best.0 = best.0.max(up(pos, &child, score));
        best.1 = best.1.max(longest + 1);
    }
    memo.insert(*pos, best);
    best
}

/// Oware, with the game record's history rule applied along the line: the
/// positions since the last capture are `path`; a position met again ends
/// the game by [`Game::on_repetition`]. No memo (the value depends on the
/// path). Also returns the longest line in plies; `None` when `budget`
/// nodes were not enough.
fn solve_oware(pos: &Oware, path: &mut Vec<Oware>, budget: &mut u64) -> Option<(i32, u32)> {
    *budget = budget.checked_sub(1)?;
    let (mut best, mut longest) = (i32::MIN, 0);
    for mv in pos.legal_move_list() {
        let child = pos.after(mv);
        let score = if let Some(outcome) = child.status() {
            (end_score(outcome, child.side_to_move()), 0)
        } else {
            let fresh = child.history_key() != pos.history_key();
            let seen = !fresh && path.contains(&child);
            if seen {
                let RepetitionEffect::GameOver(outcome) = child.on_repetition() else {
                    unreachable!("an Oware repetition ends the game")
                };
                (end_score(outcome, child.side_to_move()), 0)
            } else {
                let saved = if fresh {
                    std::mem::take(path)
                } else {
                    Vec::new()
                };
                path.push(child);
                let score = solve_oware(&child, path, budget);
                path.pop();
                if fresh {
                    *path = saved;
                }
                score?
            }
        };
        best = best.max(up(pos, &child, score.0));
        longest = longest.max(score.1 + 1);
    }
    Some((best, longest))
}

/// The engine's score for `pos` from a game record starting there, searched
/// to `depth` plies.
fn engine_score<G: engine::eval::Evaluate>(pos: &G, depth: u32) -> i32 {
    let record = GameRecord::new(pos.clone());
    let mut tt = Table::new(16);
    let control = SearchControl::new();
    let limits = Limits {
        depth: Some(depth),
        nodes: None,
    };
    Searcher::for_record(&mut tt, &control, limits, &record)
        .run(pos, None, |_| {})
        .expect("a legal move")
        .score
}

/// `seeds` seeds spread at random over the 12 holes, the rest of `total`
/// shared between the stores (each below `cap`).
fn random_position<G: Game>(
    rng: &mut SmallRng,
    id: &str,
    seeds: u32,
    total: u32,
    cap: u32,
) -> Option<G> {
    let mut holes = [0u32; 12];
    for _ in 0..seeds {
        holes[rng.random_range(0..12)] += 1;
    }
    let rest = total - seeds;
    let south = rng.random_range(rest.saturating_sub(cap - 1)..=rest.min(cap - 1));
    let side = if rng.random_bool(0.5) { 'S' } else { 'N' };
    let holes: Vec<String> = holes.iter().map(ToString::to_string).collect();
    let text = format!("{id} {} {side} {south}/{}", holes.join(","), rest - south);
    let pos: G = text.parse().ok()?;
    (pos.status().is_none()).then_some(pos)
}

#[test]
fn kalah_endgames_come_out_exact() {
    let mut rng = SmallRng::seed_from_u64(7);
    let (mut checked, mut wins, mut draws) = (0, 0, 0);
    while checked < 40 {
        let seeds = rng.random_range(4..=10);
        let Some(pos) = random_position::<Kalah>(&mut rng, "kalah", seeds, 48, 25) else {
            continue;
        };
        let (solved, longest) = solve_kalah(&pos, &mut HashMap::new());
        // Deep enough that every line reaches its end.
        let got = engine_score(&pos, longest + 1);
        assert_eq!(got, solved, "{pos}: engine {got}, exhaustive {solved}");
        checked += 1;
        wins += usize::from(solved.abs() > MATE_BOUND);
        draws += usize::from(solved == 0);
    }
    // Both kinds of result were tested.
    assert!(wins > 0, "no decided endgame");
    assert!(draws > 0 || wins < checked, "only decided endgames");
}

#[test]
fn oware_endgames_come_out_exact() {
    let mut rng = SmallRng::seed_from_u64(8);
    let (mut checked, mut tries) = (0, 0);
    while checked < 25 {
        tries += 1;
        assert!(tries < 2_000, "too few endgames small enough to solve");
        let seeds = rng.random_range(3..=8);
        let Some(pos) = random_position::<Oware>(&mut rng, "oware", seeds, 48, 25) else {
            continue;
        };
        let mut budget = 20_000;
        let Some((solved, longest)) = solve_oware(&pos, &mut vec![pos], &mut budget) else {
            continue;
        };
        let got = engine_score(&pos, longest + 1);
        assert_eq!(got, solved, "{pos}: engine {got}, exhaustive {solved}");
        checked += 1;
    }
}
