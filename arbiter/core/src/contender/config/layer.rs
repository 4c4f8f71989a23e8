//! The spec parser: one level of precedence (`--each`, an engines-file
//! entry, an engine's own tokens) read from `key=value` tokens into a
//! [`Layer`], and layers laid over one another.

use super::{known_key, ConfigError, Protocol, Restart};
use crate::play::tc::{TcError, TimeControl, TimeLimit};

/// The settings of one level of precedence (`--each`, file entry, tokens).
#[derive(Clone, Debug, Default)]
pub(super) struct Layer {
    pub(super) name: Option<String>,
    pub(super) cmd: Option<String>,
    pub(super) args: Vec<String>,
    pub(super) dir: Option<String>,
    pub(super) options: Vec<(String, String)>,
    pub(super) limit: Option<TimeLimit>,
    pub(super) depth: Option<u32>,
    pub(super) nodes: Option<u64>,
    pub(super) margin: Option<std::time::Duration>,
    pub(super) stderr: Option<String>,
    pub(super) stderr_max: Option<u64>,
    pub(super) conf: Option<String>,
    pub(super) ponder: Option<bool>,
    pub(super) restart: Option<Restart>,
    pub(super) remote: Option<String>,
    pub(super) slots: Option<usize>,
    pub(super) lag: Option<crate::play::lag::LagPolicy>,
    pub(super) proto: Option<Protocol>,
    /// The keys set at this level ([`known_key`]'s spelling).
    pub(super) keys: std::collections::BTreeSet<&'static str>,
}

impl Layer {
    pub(super) fn set(&mut self, origin: &str, key: &str, value: &str) -> Result<(), ConfigError> {
        if let Some(known) = known_key(key) {
            self.keys.insert(known);
        }
        let nonempty = |v: &str| {
            if v.is_empty() {
                Err(ConfigError::EmptyValue {
                    origin: origin.to_owned(),
                    key: key.to_owned(),
                })
            } else {
                Ok(v.to_owned())
            }
        };
        let bad = |message: String| ConfigError::Refused {
            origin: origin.to_owned(),
            key: key.to_owned(),
            message,
        };
        match key {
            // why: cutechess needs `proto=uci|xboard`; command lines copied from
            // it carry the key. UMI is what engines speak here; KGP only
            // remote Kalah bots (checked once the engine is whole).
            "proto" if value == "umi" => self.proto = Some(Protocol::Umi),
            "proto" if value == "kgp" => self.proto = Some(Protocol::Kgp),
            "proto" => {
                return Err(bad(format!(
                    "this arbiter speaks UMI (proto=umi), and KGP with remote Kalah bots (proto=kgp), not {value:?}"
                )))
            }
            "ponder" => {
                self.ponder = Some(
                    parse_bool(value)
                        .ok_or_else(|| bad(format!("expected true or false, got {value:?}")))?,
                )
            }
            "restart" => self.restart = Some(value.parse().map_err(bad)?),
            "remote" => {
                let id = nonempty(value)?;
                if !id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.')
                {
                    return Err(bad(format!(
                        "{id:?}: an id of letters, digits, '-', '_' and '.'"
                    )));
                }
                self.remote = Some(id);
            }
            "slots" => {
                self.slots = Some(
                    value
                        .parse::<usize>()
                        .ok()
                        .filter(|n| (1..=1024).contains(n))
                        .ok_or_else(|| bad(format!("{value:?}: expected 1 to 1024")))?,
                )
            }
            "lag" => self.lag = Some(value.parse().map_err(bad)?),
            "name" => self.name = Some(nonempty(value)?),
            "cmd" => self.cmd = Some(nonempty(value)?),
            "dir" => self.dir = Some(nonempty(value)?),
            "stderr" => self.stderr = Some(nonempty(value)?),
            "stderr_max" => {
                self.stderr_max = Some(parse_bytes(value).ok_or_else(|| ConfigError::BadValue {
                    origin: origin.to_owned(),
                    key: key.to_owned(),
                    value: value.to_owned(),
                    expected: "bytes such as 1048576, 512K, 16M or 1G (0: no cap)",
                })?)
            }
            "conf" => self.conf = Some(nonempty(value)?),
            // An empty argument is a legitimate argument.
            "arg" => self.args.push(value.to_owned()),
            _ if key.starts_with("option.") => {
                let name = &key["option.".len()..];
                if name.is_empty() {
                    return Err(ConfigError::UnknownKey {
                        origin: origin.to_owned(),
                        key: key.to_owned(),
                    });
                }
                match self.options.iter_mut().find(|(n, _)| n == name) {
                    Some(slot) => slot.1 = value.to_owned(),
                    None => self.options.push((name.to_owned(), value.to_owned())),
                }
            }
            _ if TimeControl::is_key(key) => {
                let tc_err = |error| ConfigError::TimeControl {
                    origin: origin.to_owned(),
                    error,
                };
                // Parse through a scratch control to reuse its checks.
                let mut scratch = TimeControl::default();
                scratch.set(key, value).map_err(tc_err)?;
                match key {
                    "tc" | "st" => {
                        let other_kind = matches!(
                            (self.limit, key),
                            (Some(TimeLimit::MoveTime(_)), "tc")
                                | (Some(TimeLimit::Infinite | TimeLimit::Clock { .. }), "st")
                        );
                        if other_kind {
                            return Err(tc_err(TcError::Conflict));
                        }
                        self.limit = Some(scratch.limit);
                    }
                    "depth" => self.depth = scratch.depth,
                    "nodes" => self.nodes = scratch.nodes,
                    _ => self.margin = Some(scratch.margin),
                }
            }
            _ => {
                return Err(ConfigError::UnknownKey {
                    origin: origin.to_owned(),
                    key: key.to_owned(),
                })
            }
        }
        Ok(())
    }

    pub(super) fn from_tokens(origin: &str, tokens: &[String]) -> Result<Layer, ConfigError> {
        let mut layer = Layer::default();
        for token in tokens {
            // why: cutechess spells pondering as a bare `ponder` token.
            if token == "ponder" {
                layer.ponder = Some(true);
                layer.keys.insert("ponder");
                continue;
            }
            let (key, value) = token
                .split_once('=')
                .ok_or_else(|| ConfigError::NotKeyValue {
                    origin: origin.to_owned(),
                    token: token.clone(),
                })?;
            layer.set(origin, key, value)?;
        }
        Ok(layer)
    }

    /// `self` with `over` laid on top (everything but `args`).
    pub(super) fn overlay(mut self, over: &Layer) -> Layer {
        fn pick<T: Clone>(low: &mut Option<T>, high: &Option<T>) {
            if high.is_some() {
                low.clone_from(high);
            }
        }
        pick(&mut self.name, &over.name);
        pick(&mut self.cmd, &over.cmd);
        pick(&mut self.dir, &over.dir);
        pick(&mut self.limit, &over.limit);
        pick(&mut self.depth, &over.depth);
        pick(&mut self.nodes, &over.nodes);
        pick(&mut self.margin, &over.margin);
        pick(&mut self.stderr, &over.stderr);
        pick(&mut self.ponder, &over.ponder);
        pick(&mut self.restart, &over.restart);
        pick(&mut self.stderr_max, &over.stderr_max);
        pick(&mut self.remote, &over.remote);
        pick(&mut self.slots, &over.slots);
        pick(&mut self.lag, &over.lag);
        pick(&mut self.proto, &over.proto);
        self.keys.extend(over.keys.iter().copied());
        for (name, value) in &over.options {
            match self.options.iter_mut().find(|(n, _)| n == name) {
                Some(slot) => slot.1.clone_from(value),
                None => self.options.push((name.clone(), value.clone())),
            }
        }
        self
    }
}

/// `16M`, `512K`, `1G` or plain bytes; `None` if unreadable or too large.
pub(super) fn parse_bytes(text: &str) -> Option<u64> {
    let (digits, unit) = match text.char_indices().last()? {
        (i, 'K' | 'k') => (&text[..i], 1u64 << 10),
        (i, 'M' | 'm') => (&text[..i], 1 << 20),
        (i, 'G' | 'g') => (&text[..i], 1 << 30),
        _ => (text, 1),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse::<u64>().ok()?.checked_mul(unit)
}

/// A yes/no value as cutechess and fastchess spell it.
fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "true" | "on" | "yes" | "1" => Some(true),
        "false" | "off" | "no" | "0" => Some(false),
        _ => None,
    }
}
