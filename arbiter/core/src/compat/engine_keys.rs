//! The `key=value` tokens of a cutechess or fastchess `-engine`/`-each`.
//!
//! Most keys are ours already (those of [`crate::contender::config::KEYS`])
//! and pass unchanged. fastchess's
//! `args="a b"` becomes one `arg=` per word and its `plies=N` becomes
//! `depth=N`; keys that cannot mean anything here are refused with the reason.

use super::CompatError;

/// Translates the tokens of `-engine` or `-each` (`option` names which).
pub fn translate(option: &str, tokens: &[String]) -> Result<Vec<String>, CompatError> {
    let mut out = Vec::with_capacity(tokens.len());
    for token in tokens {
        let (key, value) = match token.split_once('=') {
            Some(kv) => kv,
            None => (token.as_str(), ""),
        };
        let refuse = |why: &str| Err(CompatError(format!("-{option} {key}: {why}")));
        match key {
            _ if crate::contender::config::known_key(key).is_some() => out.push(token.clone()),
            "args" => out.extend(value.split_whitespace().map(|a| format!("arg={a}"))),
            "plies" => out.push(format!("depth={value}")),
            "book" | "bookdepth" => {
                return refuse("opening books are chess; use --openings file=PATH for everyone")
            }
            "whitepov" => return refuse("UMI scores are always from the mover's point of view"),
            "initstr" => return refuse("set engine options with option.<name>=<value>"),
            "trust" => {
                return refuse("the arbiter trusts no engine's claims; it keeps its own game")
            }
            "tscale" | "tmargin" => return refuse("use timemargin=<ms>"),
            _ => {
                return refuse(&format!(
                    "unknown key (known: {}, and fastchess's args, plies)",
                    crate::contender::config::key_names()
                ))
            }
        }
    }
    Ok(out)
}
