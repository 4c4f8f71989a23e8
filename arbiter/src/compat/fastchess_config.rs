//! fastchess's `-config file=NAME`: the JSON file fastchess saves (and reads
//! back) with its engines and tournament settings. What maps is read:
//! each entry of `engines` (`name`, `cmd`, `dir`, `args`, `options`,
//! `restart`, `limit.tc.{time,increment,moves,fixed_time}` in milliseconds,
//! `limit.nodes`, `limit.plies` as depth) and the top-level `rounds`, `games`
//! and `concurrency`. Everything else (chess-only settings, fastchess's saved
//! results) is named in a note and ignored.

use serde_json::{Map, Value};

use super::CompatError;

/// What a fastchess config says, in this arbiter's terms.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FastchessConfig {
    /// `--engine` tokens, one list per engine.
    pub engines: Vec<Vec<String>>,
    pub rounds: Option<u64>,
    pub games: Option<u64>,
    pub concurrency: Option<u64>,
    /// Top-level keys that were not used.
    pub ignored: Vec<String>,
}

/// Reads `-config file=NAME [discard=…]`.
pub fn load(values: &[String]) -> Result<FastchessConfig, CompatError> {
    let mut file = None;
    for v in values {
        match v.split_once('=') {
            Some(("file", f)) => file = Some(f),
            // fastchess: discard the saved results; none are read here anyway.
            Some(("discard" | "outname" | "stats", _)) => {}
            _ => {
                return Err(CompatError(format!(
                    "-config: unexpected {v:?} (expected file=NAME)"
                )))
            }
        }
    }
    let file = file.ok_or_else(|| CompatError("-config: expected file=NAME".into()))?;
    let text = std::fs::read_to_string(file)
        .map_err(|e| CompatError(format!("-config file={file}: {e}")))?;
    parse(&text).map_err(|e| CompatError(format!("-config file={file}: {}", e.0)))
}

/// Parses the text of a fastchess config.
pub fn parse(text: &str) -> Result<FastchessConfig, CompatError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| CompatError(format!("not JSON: {e}")))?;
    let Value::Object(top) = value else {
        return Err(CompatError("expected a JSON object".into()));
    };
    let mut config = FastchessConfig::default();
    for (key, v) in &top {
        match key.as_str() {
            "engines" => {
                let Value::Array(list) = v else {
                    return Err(CompatError("engines: expected an array".into()));
                };
                for (i, e) in list.iter().enumerate() {
                    let Value::Object(e) = e else {
                        return Err(CompatError(format!("engines[{i}]: expected an object")));
                    };
                    config.engines.push(engine(i, e)?);
                }
            }
            "rounds" => config.rounds = Some(count(key, v)?),
            "games" => config.games = Some(count(key, v)?),
            "concurrency" => config.concurrency = Some(count(key, v)?),
            _ => config.ignored.push(key.clone()),
        }
    }
    if config.engines.is_empty() {
        return Err(CompatError("no engines".into()));
    }
    Ok(config)
}

fn count(key: &str, v: &Value) -> Result<u64, CompatError> {
    v.as_u64()
        .ok_or_else(|| CompatError(format!("{key}: expected a whole number, got {v}")))
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Milliseconds as seconds text (`1500` → `1.5`).
fn seconds(ms: u64) -> String {
    let s = ms as f64 / 1000.0;
    format!("{s}")
}

fn engine(i: usize, e: &Map<String, Value>) -> Result<Vec<String>, CompatError> {
    let bad = |what: &str| CompatError(format!("engines[{i}].{what}"));
    let mut tokens = Vec::new();
    for key in ["cmd", "name", "dir"] {
        if let Some(v) = e.get(key).and_then(text).filter(|s| !s.is_empty()) {
            tokens.push(format!("{key}={v}"));
        }
    }
    if let Some(args) = e.get("args").and_then(Value::as_str) {
        tokens.extend(args.split_whitespace().map(|a| format!("arg={a}")));
    }
    if e.get("restart").and_then(Value::as_bool) == Some(true) {
        tokens.push("restart=on".into());
    }
    match e.get("options") {
        None | Some(Value::Null) => {}
        // fastchess writes options as `[["Hash", "16"], …]`.
        Some(Value::Array(list)) => {
            for o in list {
                let pair = o.as_array().filter(|p| p.len() == 2);
                let (Some(name), Some(value)) = (
                    pair.and_then(|p| p[0].as_str()),
                    pair.and_then(|p| text(&p[1])),
                ) else {
                    return Err(bad(&format!("options: expected [name, value], got {o}")));
                };
                tokens.push(format!("option.{name}={value}"));
            }
        }
        Some(Value::Object(map)) => {
            for (name, v) in map {
                let value = text(v).ok_or_else(|| bad(&format!("options.{name}: not a scalar")))?;
                tokens.push(format!("option.{name}={value}"));
            }
        }
        Some(other) => return Err(bad(&format!("options: unexpected {other}"))),
    }
    if let Some(limit) = e.get("limit") {
        let num = |v: Option<&Value>| v.and_then(Value::as_u64).filter(|&n| n > 0);
        let tc = limit.get("tc");
        let field = |k: &str| num(tc.and_then(|t| t.get(k)));
        if let Some(fixed) = field("fixed_time") {
            tokens.push(format!("st={}", seconds(fixed)));
        } else if let Some(time) = field("time") {
            let mut spec = seconds(time);
            if let Some(moves) = field("moves") {
                spec = format!("{moves}/{spec}");
            }
            if let Some(inc) = field("increment") {
                spec = format!("{spec}+{}", seconds(inc));
            }
            tokens.push(format!("tc={spec}"));
        }
        if let Some(nodes) = num(limit.get("nodes")) {
            tokens.push(format!("nodes={nodes}"));
        }
        if let Some(plies) = num(limit.get("plies")) {
            tokens.push(format!("depth={plies}"));
        }
    }
    if !tokens.iter().any(|t| t.starts_with("cmd=")) {
        return Err(bad("cmd: missing"));
    }
    Ok(tokens)
}
