//! The engines-file parser: a JSON array of engine entries (ours, or
//! cutechess's `engines.json` as it is), each entry read into a
//! [`Layer`] of settings.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use super::layer::Layer;
use super::ConfigError;

/// its spellings (`command`, `workingDirectory`, `stderrFile`, options as a
/// list of `{"name", "value", …}`) are aliases, `protocol` must be `umi` (or
/// `kgp` for a remote Kalah bot), and
/// fields that mean nothing here (`variants`, `validateClaims`) are ignored.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct FileEntry {
    name: String,
    #[serde(default, alias = "command")]
    cmd: Option<String>,
    /// A remote engine's id, instead of `cmd`.
    #[serde(default)]
    remote: Option<String>,
    #[serde(default)]
    slots: Option<usize>,
    #[serde(default)]
    lag: Option<serde_json::Value>,
    #[serde(default)]
    args: Vec<String>,
    #[serde(default, alias = "workingDirectory")]
    dir: Option<String>,
    #[serde(default)]
    options: FileOptions,
    #[serde(default)]
    tc: Option<serde_json::Value>,
    #[serde(default)]
    st: Option<serde_json::Value>,
    #[serde(default)]
    depth: Option<serde_json::Value>,
    #[serde(default)]
    nodes: Option<serde_json::Value>,
    #[serde(default)]
    timemargin: Option<serde_json::Value>,
    #[serde(default, alias = "stderrFile")]
    stderr: Option<String>,
    #[serde(default, alias = "proto")]
    protocol: Option<String>,
    #[serde(default)]
    ponder: Option<bool>,
    #[serde(default)]
    restart: Option<String>,
    /// cutechess: lines sent at start-up; only an empty list is accepted.
    #[serde(default, rename = "initStrings")]
    init_strings: Vec<String>,
    /// cutechess: scores from White's point of view; UMI scores are always
    /// the mover's, so only `false` is accepted.
    #[serde(default)]
    whitepov: bool,
    // why allow: read by serde only, so that cutechess files load; they
    // concern chess and have no meaning here.
    #[allow(dead_code)]
    #[serde(default)]
    variants: Option<serde_json::Value>,
    #[allow(dead_code)]
    #[serde(default, rename = "validateClaims")]
    validate_claims: Option<serde_json::Value>,
    /// cutechess writes it into every entry (default 1); the arbiter's own
    /// `--startup-timeout` and `--ready-timeout` apply instead.
    #[allow(dead_code)]
    #[serde(default, rename = "timeoutScaleFactor")]
    timeout_scale_factor: Option<serde_json::Value>,
}

/// Options of an entry: ours (`{"Hash": 64}`) or cutechess's list.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
enum FileOptions {
    Map(BTreeMap<String, serde_json::Value>),
    List(Vec<CutechessOption>),
}

impl Default for FileOptions {
    fn default() -> FileOptions {
        FileOptions::Map(BTreeMap::new())
    }
}

/// One option as cutechess writes it; only `name` and `value` matter (an
/// option without a value keeps the engine's default).
#[derive(Clone, Debug, Deserialize)]
struct CutechessOption {
    name: String,
    #[serde(default)]
    value: Option<serde_json::Value>,
}

impl FileOptions {
    /// `(name, value)` pairs, in name order for a map, in list order for a list.
    fn pairs(&self) -> Vec<(&str, &serde_json::Value)> {
        match self {
            FileOptions::Map(m) => m.iter().map(|(k, v)| (k.as_str(), v)).collect(),
            FileOptions::List(l) => l
                .iter()
                .filter_map(|o| o.value.as_ref().map(|v| (o.name.as_str(), v)))
                .collect(),
        }
    }
}

/// A scalar JSON value as the text a `key=value` token would carry.
fn scalar_text(origin: &str, key: &str, v: &serde_json::Value) -> Result<String, ConfigError> {
    match v {
        serde_json::Value::String(s) => Ok(s.clone()),
        serde_json::Value::Number(n) => Ok(n.to_string()),
        serde_json::Value::Bool(b) => Ok(b.to_string()),
        _ => Err(ConfigError::File {
            path: origin.to_owned(),
            message: format!("{key}: expected a string, number or boolean, got {v}"),
        }),
    }
}

impl FileEntry {
    fn layer(&self, path: &str) -> Result<Layer, ConfigError> {
        let origin = format!("engines file {path}, entry {:?}", self.name);
        let mut layer = Layer::default();
        layer.set(&origin, "name", &self.name)?;
        match (&self.cmd, &self.remote) {
            (Some(cmd), None) => layer.set(&origin, "cmd", cmd)?,
            (None, Some(remote)) => layer.set(&origin, "remote", remote)?,
            (Some(_), Some(_)) => return Err(ConfigError::CmdAndRemote { origin }),
            (None, None) => return Err(ConfigError::MissingCmd { origin }),
        }
        if let Some(slots) = self.slots {
            layer.set(&origin, "slots", &slots.to_string())?;
        }
        if let Some(lag) = &self.lag {
            let text = scalar_text(path, "lag", lag)?;
            layer.set(&origin, "lag", &text)?;
        }
        layer.args.clone_from(&self.args);
        if !self.args.is_empty() {
            layer.keys.insert("arg");
        }
        // why skip empty ones: cutechess writes `"workingDirectory": ""` and
        // `"stderrFile": ""` for an engine without them.
        if let Some(dir) = self.dir.as_deref().filter(|d| !d.is_empty()) {
            layer.set(&origin, "dir", dir)?;
        }
        if let Some(stderr) = self.stderr.as_deref().filter(|f| !f.is_empty()) {
            layer.set(&origin, "stderr", stderr)?;
        }
        for (name, value) in self.options.pairs() {
            let text = scalar_text(path, &format!("options.{name}"), value)?;
            layer.set(&origin, &format!("option.{name}"), &text)?;
        }
        if let Some(protocol) = &self.protocol {
            layer.set(&origin, "proto", protocol)?;
        }
        if let Some(ponder) = self.ponder {
            layer.ponder = Some(ponder);
            layer.keys.insert("ponder");
        }
        if let Some(restart) = &self.restart {
            layer.set(&origin, "restart", restart)?;
        }
        let refuse = |key: &str, message: &str| ConfigError::Refused {
            origin: origin.clone(),
            key: key.to_owned(),
            message: message.to_owned(),
        };
        if !self.init_strings.is_empty() {
            return Err(refuse(
                "initStrings",
                "not supported: set engine options with \"options\" instead",
            ));
        }
        if self.whitepov {
            return Err(refuse(
                "whitepov",
                "UMI scores are always from the mover's point of view; remove it or set it to false",
            ));
        }
        for (key, value) in [
            ("tc", &self.tc),
            ("st", &self.st),
            ("depth", &self.depth),
            ("nodes", &self.nodes),
            ("timemargin", &self.timemargin),
        ] {
            if let Some(v) = value {
                let text = scalar_text(path, key, v)?;
                layer.set(&origin, key, &text)?;
            }
        }
        Ok(layer)
    }
}

/// A parsed engines file: entries by name.
#[derive(Clone, Debug, Default)]
pub struct EnginesFile {
    path: String,
    entries: Vec<FileEntry>,
}

impl EnginesFile {
    /// Reads and parses an engines file.
    pub fn load(path: &Path) -> Result<EnginesFile, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConfigError::File {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        EnginesFile::parse(&text, &path.display().to_string())
    }

    /// Parses engines-file text; `path` is used in messages only.
    pub fn parse(text: &str, path: &str) -> Result<EnginesFile, ConfigError> {
        let entries: Vec<FileEntry> =
            serde_json::from_str(text).map_err(|e| ConfigError::File {
                path: path.to_owned(),
                message: e.to_string(),
            })?;
        for (i, e) in entries.iter().enumerate() {
            if entries[..i].iter().any(|p| p.name == e.name) {
                return Err(ConfigError::DuplicateName {
                    name: e.name.clone(),
                    file: Some(path.to_owned()),
                });
            }
        }
        let file = EnginesFile {
            path: path.to_owned(),
            entries,
        };
        // Check every entry now, so a bad entry is reported even if unused.
        for e in &file.entries {
            e.layer(path)?;
        }
        Ok(file)
    }

    /// The names of the entries, in file order.
    pub fn names(&self) -> Vec<String> {
        self.entries.iter().map(|e| e.name.clone()).collect()
    }

    pub(super) fn layer(&self, name: &str) -> Result<Layer, ConfigError> {
        self.entries
            .iter()
            .find(|e| e.name == name)
            .ok_or_else(|| ConfigError::ConfNotFound {
                name: name.to_owned(),
                known: self.names(),
            })?
            .layer(&self.path)
    }
}
