//! fastchess's `-config file=NAME`: the JSON file fastchess saves (and reads
//! back) with its engines and tournament settings. What maps is read:
//! each entry of `engines` (`name`, `cmd`, `dir`, `args`, `options`,
//! `restart`, `limit.tc.{time,increment,moves,fixed_time}` in milliseconds,
//! `limit.nodes`, `limit.plies` as depth), the top-level `rounds`, `games`,
//! `concurrency` and `seed`, and the sections `resign`, `draw`, `maxmoves` and
//! `sprt` when `enabled` (a disabled one means nothing). Everything else
//! (chess-only settings, fastchess's saved results) is named in a note and
//! ignored.

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
    /// Options of ours the file's settings map to (`--seed 7`, `--resign …`),
    /// each a flag and its values; options given on the command line win.
    pub options: Vec<(String, Vec<String>)>,
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
            "seed" => config
                .options
                .push(("--seed".into(), vec![count(key, v)?.to_string()])),
            "resign" | "draw" | "maxmoves" | "sprt" => {
                if v.get("enabled").and_then(Value::as_bool) == Some(true) {
                    let (flag, values) = section(key, v)?;
                    config.options.push((flag.into(), values));
                }
            }
            _ => config.ignored.push(key.clone()),
        }
    }
    if config.engines.is_empty() {
        return Err(CompatError("no engines".into()));
    }
    Ok(config)
}

/// An enabled `resign`, `draw`, `maxmoves` or `sprt` section as our option.
fn section(key: &str, v: &Value) -> Result<(&'static str, Vec<String>), CompatError> {
    let int = |field: &str| {
        v.get(field)
            .and_then(Value::as_i64)
            .ok_or_else(|| CompatError(format!("{key}.{field}: expected a whole number")))
    };
    let real = |field: &str| {
        v.get(field)
            .and_then(Value::as_f64)
            .ok_or_else(|| CompatError(format!("{key}.{field}: expected a number")))
    };
    Ok(match key {
        "resign" => {
            let mut values = vec![
                format!("movecount={}", int("move_count")?),
                format!("score={}", int("score")?),
            ];
            if v.get("twosided").and_then(Value::as_bool) == Some(true) {
                values.push("twosided=true".into());
            }
            ("--resign", values)
        }
        "draw" => (
            "--draw",
            vec![
                format!("movenumber={}", int("move_number")?),
                format!("movecount={}", int("move_count")?),
                format!("score={}", int("score")?),
            ],
        ),
        "maxmoves" => ("--max-plies", vec![(int("move_count")? * 2).to_string()]),
        _ => {
            if let Some(model) = v.get("model").and_then(Value::as_str) {
                if model != "logistic" {
                    return Err(CompatError(format!(
                        "sprt.model {model:?}: the test here is the GSPRT on logistic Elo \
                         (set \"model\": \"logistic\", or give --sprt on the command line)"
                    )));
                }
            }
            (
                "--sprt",
                vec![
                    format!("elo0={}", real("elo0")?),
                    format!("elo1={}", real("elo1")?),
                    format!("alpha={}", real("alpha")?),
                    format!("beta={}", real("beta")?),
                ],
            )
        }
    })
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
