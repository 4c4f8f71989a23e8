//! `pools.json`: the arena's rated pools. Each is a name, a game id, the
//! engine settings every game of the pool is played with (`each`, read by
//! the arbiter's engine settings parser exactly as `--each`: `tc=`, `st=`,
//! `depth=`, `nodes=`, `timemargin=`, `option.X=`; the other keys are
//! refused, [`REFUSED`]) and the
//! openings (`suite`, `plies=N` or `file=PATH` as `--openings`, or `start`
//! for the start position; a relative path is relative to the pools file;
//! default `suite`, the game's balanced suite). For example:
//!
//! ```json
//! [{"name": "bohn-blitz", "game": "bohnenspiel", "each": "tc=60+1"},
//!  {"name": "bosh-1s", "game": "bosh", "each": "st=1", "openings": "suite"}]
//! ```

use std::path::Path;

use mancala_rules::GameId;
use serde::Deserialize;

use arbiter_core::play::openings::Openings;
use arbiter_core::play::tc::TimeControl;

/// One rated pool, checked.
#[derive(Clone, Debug)]
pub struct Pool {
    pub name: String,
    pub game: GameId,
    /// The settings as written (shown on the pages).
    pub each: String,
    pub tc: TimeControl,
    /// `option.X=` of `each`, sent to both bots of every game.
    pub options: Vec<(String, String)>,
    pub openings: Openings,
}

/// One entry as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    game: String,
    each: Settings,
    openings: Option<String>,
}

/// `each` as one string of `KEY=VALUE` tokens or a list of them.
#[derive(Deserialize)]
#[serde(untagged)]
enum Settings {
    Line(String),
    Tokens(Vec<String>),
}

/// Keys of `--engine` a pool's `each` refuses, and why: they cannot act on
/// a pool's games.
const REFUSED: &[(&str, &str)] = &[
    ("cmd", BOTS_OWN),
    ("name", BOTS_OWN),
    ("arg", BOTS_OWN),
    ("dir", BOTS_OWN),
    ("conf", BOTS_OWN),
    ("stderr", BOTS_OWN),
    ("stderr_max", BOTS_OWN),
    ("restart", BOTS_OWN),
    ("proto", BOTS_OWN),
    ("remote", BOTS_OWN),
    ("slots", BOTS_OWN),
    (
        "lag",
        "the arena compensates no bot's lag: every bot's clock runs from the arbiter's send",
    ),
    ("ponder", "the arena's games are played without pondering"),
];

const BOTS_OWN: &str =
    "a bot's own setting (its --house entry, or its own machine), not a pool's; \
     a pool sets tc=, st=, depth=, nodes=, timemargin=, option.X=";

/// Why a pools file was not loaded: it cannot be read (a run-time
/// failure, exit 1), or it reads but is no pools file (a usage error, 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PoolsError {
    Unreadable(String),
    Invalid(String),
}

impl std::fmt::Display for PoolsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PoolsError::Unreadable(m) | PoolsError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for PoolsError {}

/// Reads and checks a pools file.
pub fn load(path: &Path) -> Result<Vec<Pool>, PoolsError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| PoolsError::Unreadable(format!("{}: cannot read: {e}", path.display())))?;
    let base = path.parent().unwrap_or(Path::new("."));
    parse(&text, base).map_err(|e| PoolsError::Invalid(format!("{}: {e}", path.display())))
}

/// Parses a pools file's text; `base` is where relative opening files are.
pub fn parse(text: &str, base: &Path) -> Result<Vec<Pool>, PoolsTextError> {
    let entries: Vec<Entry> = serde_json::from_str(text).map_err(PoolsTextError::Json)?;
    if entries.is_empty() {
        return Err(PoolsTextError::Empty);
    }
    let mut pools: Vec<Pool> = Vec::with_capacity(entries.len());
    for (i, entry) in entries.into_iter().enumerate() {
        let index = i + 1;
        let pool = check(entry, base).map_err(|why| PoolsTextError::Entry { index, why })?;
        if pools.iter().any(|p| p.name == pool.name) {
            let name = pool.name;
            return Err(PoolsTextError::Twice { index, name });
        }
        pools.push(pool);
    }
    Ok(pools)
}

/// Why a pools file's text is no pools file ([`parse`]).
#[derive(Debug, thiserror::Error)]
pub enum PoolsTextError {
    #[error(
        "{0} (expected a JSON list of {{\"name\", \"game\", \"each\", \"openings\"}} objects)"
    )]
    Json(#[source] serde_json::Error),
    #[error("no pool (the list is empty)")]
    Empty,
    #[error("pool #{index}: {why}")]
    Entry {
        index: usize,
        #[source]
        why: PoolError,
    },
    #[error("pool #{index}: the name {name:?} is used twice")]
    Twice { index: usize, name: String },
}

/// Why one pool of a pools file is refused.
#[derive(Debug, thiserror::Error)]
pub enum PoolError {
    /// Its name is no name (a bot name's rule: [`crate::bots::check_name`]).
    #[error("{}", .0.to_string().replacen("bot name", "name", 1))]
    Name(#[source] crate::bots::NameError),
    /// One of its settings is refused (the settings' parsers' words).
    #[error("{name:?}: {why}")]
    Setting { name: String, why: String },
}

fn check(entry: Entry, base: &Path) -> Result<Pool, PoolError> {
    let name = entry.name;
    crate::bots::check_name(&name).map_err(PoolError::Name)?;
    let within = |why: String| PoolError::Setting {
        name: name.clone(),
        why,
    };
    let game: GameId = entry
        .game
        .parse()
        .map_err(|e| within(format!("game: {e}")))?;
    let tokens: Vec<String> = match entry.each {
        Settings::Line(line) => line.split_whitespace().map(str::to_owned).collect(),
        Settings::Tokens(tokens) => tokens,
    };
    for t in &tokens {
        let key = t.split_once('=').map_or(t.as_str(), |(k, _)| k);
        if let Some((key, why)) = REFUSED.iter().find(|(k, _)| *k == key) {
            return Err(within(format!("each: {key}=: {why}")));
        }
    }
    // why a stand-in command: the settings parser builds a whole engine; the
    // pool takes only the game settings from it.
    let spec =
        arbiter_core::contender::config::parse_engine(0, &["cmd=pool".to_owned()], &tokens, None)
            .map_err(|e| within(format!("each: {}", e.to_string().replace("--each", "each"))))?;
    if spec.tc.is_unlimited() {
        return Err(within(
            "each: no limit: give tc=, st=, depth= or nodes= (a game needs an end to every search)"
                .into(),
        ));
    }
    // why the suite by default: two deterministic bots from one start
    // position replay one game, pair after pair (the issue's rounds 14 and
    // 46); `start` asks for the start position.
    let openings_spec = match entry.openings.as_deref().unwrap_or("suite") {
        "start" => None,
        o => Some(match o.strip_prefix("file=") {
            Some(rel) if Path::new(rel).is_relative() => {
                format!("file={}", base.join(rel).display())
            }
            _ => o.to_owned(),
        }),
    };
    // why the command line's parser: the same three forms as `--openings`.
    let openings = arbiter_core::play::openings::parse_openings(openings_spec.as_deref(), game, 1)
        .map_err(|e| {
            within(e.0.replacen("--openings", "openings", 1).replacen(
                "expected suite,",
                "expected suite, start,",
                1,
            ))
        })?;
    Ok(Pool {
        name,
        game,
        each: tokens.join(" "),
        tc: spec.tc,
        options: spec.options,
        openings,
    })
}

impl Pool {
    /// The start position of pair `pair` (both games of a pair share it).
    pub fn opening(&self, pair: usize) -> String {
        self.openings.for_pair(self.game, pair)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(text, Path::new(".")).unwrap_err().to_string()
    }

    #[test]
    fn the_issue_example_parses() {
        let pools = parse(
            r#"[{"name": "bohn-blitz", "game": "bohnenspiel", "each": "tc=60+1"},
                {"name": "bosh-1s", "game": "bosh", "each": "st=1", "openings": "suite"}]"#,
            Path::new("."),
        )
        .unwrap();
        assert_eq!(pools.len(), 2);
        assert_eq!(pools[0].game, GameId::Bohnenspiel);
        assert_eq!(
            pools[0].tc.limit,
            "60+1".parse::<TimeControl>().unwrap().limit
        );
        // No `openings`: the balanced suite, a new opening each pair.
        assert_eq!(pools[0].openings, Openings::Suite);
        assert_ne!(pools[0].opening(0), pools[0].opening(1));
        assert_eq!(pools[1].openings, Openings::Suite);
        assert_ne!(pools[1].opening(0), pools[1].opening(1));
        let p = parse(
            r#"[{"name": "k", "game": "kimasai", "each": ["st=0.1", "option.Level=3"]}]"#,
            Path::new("."),
        )
        .unwrap();
        assert_eq!(p[0].options, [("Level".to_owned(), "3".to_owned())]);
    }

    #[test]
    fn every_game_has_a_suite_and_start_asks_for_the_start_position() {
        for game in [
            "bohnenspiel",
            "bohnenspiel-hemprich",
            "bosh",
            "kimasai",
            "kujifunza",
        ] {
            let text = format!(r#"[{{"name": "p", "game": "{game}", "each": "st=1"}}]"#);
            let pool = &parse(&text, Path::new(".")).unwrap()[0];
            assert_eq!(pool.openings, Openings::Suite, "{game}");
            assert_ne!(pool.opening(0), pool.opening(1), "{game}");
            let text = format!(
                r#"[{{"name": "p", "game": "{game}", "each": "st=1", "openings": "start"}}]"#
            );
            let pool = &parse(&text, Path::new(".")).unwrap()[0];
            assert_eq!(pool.openings, Openings::StartPosition, "{game}");
            assert_eq!(pool.opening(0), pool.opening(7), "{game}");
        }
    }

    #[test]
    fn mistakes_are_named() {
        assert!(err("{}").contains("expected a JSON list"));
        assert!(err("[]").contains("no pool"));
        let e = err(r#"[{"name": "a", "game": "chess", "each": "st=1"}]"#);
        assert!(e.starts_with("pool #1: \"a\": game:"), "{e}");
        let e = err(r#"[{"name": "a", "game": "bosh", "each": "st=1", "colour": 1}]"#);
        assert!(e.contains("unknown field `colour`"), "{e}");
        let e = err(r#"[{"name": "a", "game": "bosh", "each": "tc=fast"}]"#);
        assert!(e.starts_with("pool #1: \"a\": each:"), "{e}");
        let e = err(r#"[{"name": "a", "game": "bosh", "each": "cmd=./x st=1"}]"#);
        assert!(e.contains("each: cmd=: a bot's own setting"), "{e}");
        let e = err(r#"[{"name": "a", "game": "bosh", "each": "option.Level=3"}]"#);
        assert!(e.contains("no limit"), "{e}");
        let e = err(r#"[{"name": "a b", "game": "bosh", "each": "st=1"}]"#);
        assert!(e.starts_with("pool #1: name"), "{e}");
        let e = err(
            r#"[{"name": "a", "game": "bosh", "each": "st=1"}, {"name": "a", "game": "bosh", "each": "st=1"}]"#,
        );
        assert!(e.contains("pool #2: the name \"a\" is used twice"), "{e}");
        let e = err(r#"[{"name": "a", "game": "bosh", "each": "st=1", "openings": "book"}]"#);
        assert!(e.contains("openings book: expected suite, start,"), "{e}");
        let e =
            err(r#"[{"name": "a", "game": "bosh", "each": "st=1", "openings": "file=nope.txt"}]"#);
        assert!(e.contains("nope.txt"), "{e}");
    }
}
