//! The checked-in test vectors (`tests/vectors/*.json`) are what the rules
//! library gives today: each game's file is rebuilt and compared, and every
//! file there belongs to a game the library knows.

use std::path::PathBuf;

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors")
}

#[test]
fn checked_in_vectors_match_the_rules_library() {
    let dir = vectors_dir();
    let mut stale = Vec::new();
    for game in mancala_rules::vectors::all() {
        let path = dir.join(format!("{}.json", game.game));
        let fresh = serde_json::to_string_pretty(&game).expect("vectors serialize") + "\n";
        match std::fs::read_to_string(&path) {
            Ok(old) if old == fresh => {}
            Ok(_) => stale.push(format!("{} differs", path.display())),
            Err(e) => stale.push(format!("{}: {e}", path.display())),
        }
    }
    assert!(
        stale.is_empty(),
        "{}; run `{}` and commit the result",
        stale.join("; "),
        mancala_rules::vectors::COMMAND
    );
}

#[test]
fn every_vector_file_is_a_known_game() {
    let known: Vec<String> = mancala_rules::GameId::ALL
        .iter()
        .map(|id| format!("{id}.json"))
        .collect();
    for entry in std::fs::read_dir(vectors_dir()).expect("tests/vectors exists") {
        let name = entry.expect("readable entry").file_name();
        let name = name.to_string_lossy();
        assert!(
            known.iter().any(|k| *k == name),
            "tests/vectors/{name} is no game of the rules library (known: {known:?})"
        );
    }
}

/// The files say what a reader needs: each position's moves and their
/// positions pair up, a finished position has none, perft starts with the
/// number of legal moves.
#[test]
fn vectors_are_consistent() {
    for game in mancala_rules::vectors::all() {
        assert!(!game.positions.is_empty(), "{}: no positions", game.game);
        assert!(
            game.positions.iter().any(|p| p.status.is_some()),
            "{}: no finished position among the vectors",
            game.game
        );
        for p in &game.positions {
            assert!(p.position.starts_with(game.game), "{}", p.position);
            let moves: Vec<&str> = p.after.iter().map(|a| a.mv.as_str()).collect();
            assert_eq!(moves, p.legal_moves, "{}", p.position);
            assert_eq!(p.perft[0], p.legal_moves.len() as u64, "{}", p.position);
            if p.status.is_some() {
                assert!(p.legal_moves.is_empty(), "{}", p.position);
            }
            for a in &p.after {
                let again = mancala_rules::game_from_position(&a.position)
                    .unwrap_or_else(|e| panic!("{}: {e}", a.position));
                assert_eq!(again.position_string(), a.position);
            }
        }
    }
}
