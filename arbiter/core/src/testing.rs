//! Fixtures the unit tests of the arbiter's crates share (not an API: the
//! board's and the arena's tests read the same logs as the core's).

use std::collections::BTreeMap;

use mancala_rules::{EndReason, GameResult};

use crate::records::log::{GameLog, MoveRecord, PartieInfo, Score, Termination};

/// An empty scratch directory for one unit test, `arbiter-<name>-<pid>` in
/// the temporary directory (what an earlier run left there is removed).
pub fn test_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("arbiter-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// A finished Bohnenspiel game from a near-final position (also used by
/// the PGN, JSON and verify tests). South sows its last bean from 6 to 7,
/// North sows it on from 7 to 8; South then has no bean, the board goes
/// to North (the last mover): 36–36, a draw.
pub fn rules_log() -> GameLog {
    GameLog {
        event: "Test \"quoted\" event".into(),
        site: "here".into(),
        date: "2024.05.01".into(),
        round: "3.1".into(),
        game: "bohnenspiel".into(),
        start_position: "bohnenspiel 0,0,0,0,0,1,0,0,0,0,0,0 S 36/35".into(),
        south: "Alpha".into(),
        north: "Beta 2.0".into(),
        result: Some(GameResult::Draw),
        termination: Termination::rules(EndReason::NoSeedsToMove),
        time_control: "40/60+0.5".into(),
        moves: vec![
            MoveRecord {
                mv: "6".into(),
                time_ms: 1234,
                score: Some(Score::Cp(-35)),
                depth: Some(12),
                lag_ms: None,
                comp_ms: None,
                kgp_random: false,
            },
            MoveRecord {
                mv: "7".into(),
                time_ms: 5,
                score: Some(Score::Mate(1)),
                depth: None,
                lag_ms: None,
                comp_ms: None,
                kgp_random: false,
            },
        ],
        scores: Some([36, 36]),
        partie: Some(PartieInfo {
            index: 2,
            totals: Some([40, 32]),
        }),
        tags: BTreeMap::from([("Opening".to_owned(), "endgame \\ test".to_owned())]),
    }
}
