//! Writes the test vectors (`mancala_rules::vectors`) of every game to
//! `tests/vectors/<game>.json`, or to the folder given.
//!
//! `cargo run -p mancala-rules --example vectors [DIR]`

use std::path::PathBuf;

fn main() {
    let dir = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors"));
    if let Err(e) = std::fs::create_dir_all(&dir) {
        eprintln!("vectors: cannot create {}: {e}", dir.display());
        std::process::exit(1);
    }
    for game in mancala_rules::vectors::all() {
        let path = dir.join(format!("{}.json", game.game));
        let text = match serde_json::to_string_pretty(&game) {
            Ok(json) => json + "\n",
            Err(e) => {
                eprintln!("vectors: {}: {e}", game.game);
                std::process::exit(1);
            }
        };
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("vectors: cannot write {}: {e}", path.display());
            std::process::exit(1);
        }
        println!("{}: {} positions", path.display(), game.positions.len());
    }
}
