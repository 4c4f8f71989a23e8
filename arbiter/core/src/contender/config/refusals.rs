//! The keys each command cannot honour, with who sets them instead, and
//! [`refuse_keys`], which refuses the first such key an engine was given.

use super::{ConfigError, EngineSpec};

/// The keys `arbiter connect` cannot honour, and who sets them instead: the
/// organiser's arbiter drives the game, the bridge only runs the engine.
pub const CONNECT_REFUSES: &[(&str, &str)] = &[
    ("tc", ORGANISER_LIMITS),
    ("st", ORGANISER_LIMITS),
    ("depth", ORGANISER_LIMITS),
    ("nodes", ORGANISER_LIMITS),
    ("timemargin", ORGANISER_LIMITS),
    ("ponder", "the organiser sets it on their --engine remote=<id>"),
    ("restart", "the organiser sets it on their --engine remote=<id> (the bridge starts a fresh engine for every connection)"),
    ("lag", "the organiser sets a remote engine's lag compensation on their --engine remote=<id>"),
    ("slots", "give connect's own --slots N"),
    ("remote", "connect runs a local engine: give it cmd="),
];

const ORGANISER_LIMITS: &str =
    "the organiser sets the games' limits on their --engine remote=<id>; the bridge relays the arbiter's go";

/// The keys `arbiter check` cannot honour: it drives the engine itself.
pub const CHECK_REFUSES: &[(&str, &str)] = &[
    ("tc", CHECK_SEARCHES),
    ("st", CHECK_SEARCHES),
    ("depth", CHECK_SEARCHES),
    ("nodes", CHECK_SEARCHES),
    ("ponder", "check tests go ponder on every engine"),
    (
        "restart",
        "check restarts the engine itself, only after a check that left it in an unknown state",
    ),
    ("remote", CHECK_LOCAL),
    ("slots", CHECK_LOCAL),
    ("lag", CHECK_LOCAL),
];

const CHECK_SEARCHES: &str = "check sets the limits of its own searches (movetime, depth, clocks)";
const CHECK_LOCAL: &str =
    "check runs a local engine process; check a remote bot on its own machine with cmd=";

/// The keys `arbiter serve` cannot honour: the page chooses the games.
pub const SERVE_REFUSES: &[(&str, &str)] = &[
    ("tc", SERVE_PAGE),
    ("st", SERVE_PAGE),
    ("depth", SERVE_PAGE),
    ("nodes", SERVE_PAGE),
    ("timemargin", SERVE_PAGE),
    ("ponder", "the board does not let engines ponder"),
    ("restart", "the board keeps a page's engines between its games and starts a new process only for a new choice or after a crash"),
];

const SERVE_PAGE: &str = "the page chooses each game's time control";

/// The keys an arena house bot (`arena run --house`) cannot honour: its
/// games are the pools' (their `each`), and it is a local process.
pub const HOUSE_REFUSES: &[(&str, &str)] = &[
    ("tc", HOUSE_POOL),
    ("st", HOUSE_POOL),
    ("depth", HOUSE_POOL),
    ("nodes", HOUSE_POOL),
    ("timemargin", HOUSE_POOL),
    ("ponder", "the arena's games are played without pondering"),
    ("remote", HOUSE_LOCAL),
    ("lag", HOUSE_LOCAL),
    ("proto", HOUSE_LOCAL),
];

const HOUSE_POOL: &str =
    "each pool sets its games' limits in its `each` (pools.json), for every bot alike";
const HOUSE_LOCAL: &str =
    "a house bot is a local process (give cmd=); a remote bot connects to the arena itself";

/// Refuses the first key of `spec` that `command` cannot honour (`refused`:
/// key and why), naming the key and who sets it instead.
pub fn refuse_keys(
    spec: &EngineSpec,
    command: &str,
    refused: &[(&str, &str)],
) -> Result<(), ConfigError> {
    for (key, why) in refused {
        if spec.keys.contains(key) {
            return Err(ConfigError::Refused {
                origin: format!("engine {}", spec.name),
                key: format!("{key}="),
                message: format!("arbiter {command} does not take it: {why}"),
            });
        }
    }
    Ok(())
}
