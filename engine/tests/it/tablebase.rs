//! The engine with an endgame database: it never loses a position the
//! database says it wins against the same engine without the database, and
//! `TablebasePath` over the protocol answers database positions at once.

use crate::common;

use std::path::PathBuf;

use engine::control::SearchControl;
use engine::eval::Evaluate;
use engine::search::{Limits, Searcher};
use engine::tt::Table;
use mancala_rules::games::bohnenspiel::{Bean, Bohnenspiel};
use mancala_rules::{Game, GameRecord, Side};
use mancala_tablebase::build::build;
use mancala_tablebase::index::{layer_size, unrank};
use mancala_tablebase::Tablebase;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Loading a database is not "at once": a generous guard for loaded machines.
const LOAD: std::time::Duration = std::time::Duration::from_secs(60);

/// Layers up to 10 beans: a few seconds to build in the test profile.
const MAX_BEANS: usize = 10;

fn database(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("engine-tb-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for game in [
        mancala_rules::GameId::Bohnenspiel,
        mancala_rules::GameId::BohnenspielHemprich,
    ] {
        build(game, MAX_BEANS, &dir, 2, &mut |_| {}).expect("builds");
    }
    dir
}

fn search_move<G: Evaluate>(
    record: &GameRecord<G>,
    tt: &mut Table,
    tb: Option<&Tablebase>,
) -> G::Move {
    if let Some((mv, _)) = tb.and_then(|tb| engine::eval::tablebase::root_move(record, tb)) {
        return mv;
    }
    let control = SearchControl::new();
    let limits = Limits {
        depth: Some(6),
        nodes: None,
    };
    let mut s = Searcher::<G>::for_record(tt, &control, limits, record).with_tablebase(tb);
    s.run(record.position(), None, |_| {}).expect("a move").best
}

/// Random positions of `G` with `beans` on the board that the database
/// says the mover wins, played out: database side against the plain search.
fn never_loses_a_won_position<const H: bool>(tb: &Tablebase, rng: &mut SmallRng) -> usize {
    let mut played = 0;
    for attempt in 0..400 {
        let beans = rng.random_range(4..=MAX_BEANS);
        let board = unrank(beans, rng.random_range(0..layer_size(beans))).expect("in range");
        // Stores that make the game close: split the rest nearly evenly.
        let rest = 72 - beans as u8;
        let south = rest / 2 + rng.random_range(0..=1u8).min(rest % 2 + 1);
        let side = if attempt % 2 == 0 {
            Side::South
        } else {
            Side::North
        };
        let Ok(pos) = Bean::<H>::new(board, [south, rest - south], side) else {
            continue;
        };
        if pos.status().is_some() {
            continue;
        }
        let probe = tb.probe(&pos).expect("reads").expect("in the database");
        if probe.result().winner() != Some(side) {
            continue;
        }
        let mut record = GameRecord::new(pos);
        let (mut with, mut without) = (Table::new(1), Table::new(1));
        let mut plies = 0;
        while !record.is_over() {
            let mv = if record.position().side_to_move() == side {
                search_move(&record, &mut with, Some(tb))
            } else {
                search_move(&record, &mut without, None)
            };
            record.play(mv).expect("legal");
            plies += 1;
            assert!(plies < 1000, "{pos}: no end after 1000 plies");
        }
        let outcome = record.outcome().expect("over");
        assert_eq!(
            outcome.result.winner(),
            Some(side),
            "{pos} (database value {}, expected {:?}): {:?} after {}",
            probe.value,
            probe.scores,
            outcome,
            record
                .moves()
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        );
        played += 1;
        if played == 40 {
            break;
        }
    }
    played
}

#[test]
fn with_the_database_the_engine_never_loses_a_won_database_position() {
    let dir = database("won");
    let tb = Tablebase::open(&dir).expect("opens");
    let mut rng = SmallRng::seed_from_u64(24);
    assert_eq!(never_loses_a_won_position::<false>(&tb, &mut rng), 40);
    assert_eq!(never_loses_a_won_position::<true>(&tb, &mut rng), 40);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tablebase_path_answers_database_positions_at_once_with_a_value_keeping_move() {
    let dir = database("umi");
    let mut e = common::Engine::start();
    e.handshake();
    e.send(&format!(
        "setoption name TablebasePath value {}",
        dir.display()
    ));
    e.send("isready");
    let lines = e.until(LOAD, |l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string tablebase ")
                && l.contains("bohnenspiel up to 10 beans")),
        "{lines:?}"
    );
    let position = "bohnenspiel 1,0,0,0,0,0,1,0,1,0,0,0 S 36/33";
    let tb = Tablebase::open(&dir).expect("opens");
    let probe = tb.probe_str(position).expect("reads").expect("in it");
    e.send("newgame bohnenspiel");
    e.send(&format!("position pos {position}"));
    e.send("go depth 30");
    let lines = e.until(common::PROMPT, |l| l.starts_with("bestmove"));
    assert!(
        lines.iter().any(|l| l.ends_with("string tablebase")),
        "{lines:?}"
    );
    let best = lines
        .last()
        .expect("bestmove")
        .split(' ')
        .nth(1)
        .expect("a move");
    let best: <Bohnenspiel as Game>::Move = best.parse().expect("a move");
    assert!(
        probe.moves.contains(&best),
        "{best} not in {:?}",
        probe.moves
    );
    // A bad directory is reported and leaves the engine working.
    e.send("setoption name TablebasePath value /nonexistent/tb");
    e.send("isready");
    let lines = e.until(LOAD, |l| l == "readyok");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info string error") && l.contains("/nonexistent/tb")),
        "{lines:?}"
    );
    assert!(e.quit().success());
    let _ = std::fs::remove_dir_all(&dir);
}
