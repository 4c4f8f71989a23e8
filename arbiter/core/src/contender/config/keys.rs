//! The table of `--engine` keys: each key's spelling, the shape of its
//! value and what it does, as the help, the unknown-key message, the
//! cutechess translation and the docs test read it.

/// One `--engine` key as the parser knows it: its spelling (`option.<name>`
/// for the options), the shape of its value, and what it does. The help of
/// `--engine`, the unknown-key message, the cutechess translation and the
/// docs test all read this table.
#[derive(Clone, Copy, Debug)]
pub struct Key {
    pub key: &'static str,
    pub value: &'static str,
    pub meaning: &'static str,
}

const fn key(key: &'static str, value: &'static str, meaning: &'static str) -> Key {
    Key {
        key,
        value,
        meaning,
    }
}

/// Every key of `--engine` (and `--each`, and an engines file's fields).
pub const KEYS: &[Key] = &[
    key("cmd", "PATH", "the engine program (a bare name: dir=, the current directory, beside the arbiter, then PATH)"),
    key("name", "NAME", "the name in logs and standings (default: the program's file name)"),
    key("arg", "ARG", "one command-line argument of the engine (repeat, in order)"),
    key("dir", "DIR", "the engine process's working directory"),
    key("option.<name>", "VALUE", "an engine option, sent with setoption after the handshake"),
    key("tc", "MOVES/SECS+INC", "a chess clock (40/60+0.5, 60+0.5, 2:30) or inf (no clock: give depth= or nodes=)"),
    key("st", "SECS", "fixed seconds per move (go movetime)"),
    key("depth", "PLIES", "a search depth limit sent with go"),
    key("nodes", "N", "a search node limit sent with go"),
    key("timemargin", "MS", "milliseconds an engine may overstep its time before it forfeits (default 50)"),
    key("stderr", "FILE", "the file that receives the engine's stderr"),
    key("stderr_max", "BYTES", "cap on that file (default 16M; K, M, G suffixes; 0: no cap)"),
    key("conf", "NAME", "start from the engines-file entry of that name"),
    key("proto", "umi|kgp", "umi (the default, for cutechess habits); kgp: a remote Kalah bot (with remote=)"),
    key("ponder", "true|false", "the engine ponders on the opponent's time (a bare ponder: true)"),
    key("restart", "on|off", "on: a fresh process every game; off (default): one for many games"),
    key("remote", "ID", "instead of cmd=: a remote engine connecting with the token of ID"),
    key("slots", "N", "a remote engine's most connections at once (default: the concurrency)"),
    key("lag", "auto|0|MS", "a remote engine's lag compensation: per-game quota, none, or up to MS a move"),
];

/// The table's spelling of `key` (`option.<name>` for `option.Hash`).
pub fn known_key(key: &str) -> Option<&'static str> {
    if key.len() > "option.".len() && key.starts_with("option.") {
        return Some("option.<name>");
    }
    KEYS.iter().find(|k| k.key == key).map(|k| k.key)
}

/// The keys of [`KEYS`], for messages: `cmd, name, …, lag`.
pub fn key_names() -> String {
    KEYS.iter().map(|k| k.key).collect::<Vec<_>>().join(", ")
}

/// `--engine`'s long help: every key with its meaning, but those `refused`.
pub fn keys_help(intro: &str, refused: &[(&str, &str)]) -> String {
    let mut text = format!("{intro}\n\nKeys:");
    for k in KEYS
        .iter()
        .filter(|k| !refused.iter().any(|(r, _)| *r == k.key))
    {
        text.push_str(&format!("\n  {}={}: {}", k.key, k.value, k.meaning));
    }
    if !refused.is_empty() {
        let names: Vec<String> = refused.iter().map(|(k, _)| format!("{k}=")).collect();
        text.push_str(&format!(
            "\n\nRefused here (they cannot act): {}",
            names.join(" ")
        ));
    }
    text
}
