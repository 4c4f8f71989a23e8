//! What every handler may read: the engines the server was started with,
//! the logs named on the command line and the waiting limits. Passed to
//! handlers explicitly as axum state; nothing global.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;

use crate::live::hub::{LiveHub, LiveState};
use arbiter_core::contender::cap::EngineCap;
use arbiter_core::contender::config::EngineSpec;
use arbiter_core::contender::process::LaunchSpec;
use arbiter_core::contender::session::{Fault, Session};
use arbiter_core::play::game::Timeouts;

/// The server's settings.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The engines a page may choose (by name); a page never names a command.
    pub engines: Vec<EngineSpec>,
    /// PGN or JSON-lines logs offered for replay.
    pub logs: Vec<PathBuf>,
    pub timeouts: Timeouts,
    /// For `umiok`.
    pub handshake_timeout: Duration,
    /// Grace between `quit` and SIGKILL.
    pub quit_grace: Duration,
    /// Adjudicate a draw after this many plies.
    pub max_plies: Option<u32>,
    /// Directory for engine stderr logs (`None`: discarded).
    pub stderr_dir: Option<PathBuf>,
    /// The endgame database the analysis page shows exact values from (`--tb`).
    pub tablebase: Option<Arc<mancala_tablebase::Tablebase>>,
    /// The endpoint of its remote engines (`--engine remote=…`), if any.
    pub remote: Option<arbiter_core::contender::remote::RemoteEngines>,
}

/// Shared, read-only state.
#[derive(Clone)]
pub struct AppState {
    pub config: Arc<ServeConfig>,
    /// The live event shown on `/live`, if any.
    pub live: Option<LiveHub>,
    /// How many engines the pages may run, in all and each.
    pub engine_cap: EngineCap,
    /// The pages' open play and analysis sockets (a drain waits for them).
    pub sockets: crate::stopping::Sockets,
    /// The server's stop: once it drains, new sockets are refused and open
    /// pages told ([`crate::stopping`]).
    pub shutdown: arbiter_core::shutdown::Shutdown,
}

/// One engine as the page sees it.
#[derive(Clone, Debug, Serialize)]
pub struct EngineInfo {
    pub name: String,
}

impl AppState {
    pub fn new(config: ServeConfig) -> AppState {
        AppState {
            config: Arc::new(config),
            live: None,
            engine_cap: EngineCap::default(),
            sockets: Default::default(),
            shutdown: Default::default(),
        }
    }

    /// This state with `cap` on the pages' engines.
    pub fn with_engine_cap(mut self, cap: EngineCap) -> AppState {
        self.engine_cap = cap;
        self
    }

    /// This state stopping with `shutdown`.
    pub fn with_shutdown(mut self, shutdown: arbiter_core::shutdown::Shutdown) -> AppState {
        self.shutdown = shutdown;
        self
    }

    /// The state of a server that also shows `hub` on `/live`.
    pub fn with_live(config: ServeConfig, hub: LiveHub) -> AppState {
        AppState {
            config: Arc::new(config),
            live: Some(hub),
            engine_cap: EngineCap::default(),
            sockets: Default::default(),
            shutdown: Default::default(),
        }
    }

    pub fn engine(&self, name: &str) -> Option<&EngineSpec> {
        self.config.engines.iter().find(|e| e.name == name)
    }

    pub fn engine_infos(&self) -> Vec<EngineInfo> {
        self.config
            .engines
            .iter()
            .map(|e| EngineInfo {
                name: e.name.clone(),
            })
            .collect()
    }

    /// How to start `spec` for one page's game.
    pub fn launch_spec(&self, spec: &EngineSpec) -> LaunchSpec {
        let stderr = self.config.stderr_dir.as_ref().map(|d| {
            let safe: String = spec
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            d.join(format!("{safe}.serve.stderr.log"))
        });
        spec.launch_spec(stderr)
    }

    /// A fresh session of `spec` after its handshake: a process, or a
    /// connection of a remote engine (waiting up to `--remote-wait` for
    /// one), the same session code either way.
    pub async fn start_session(&self, spec: &EngineSpec) -> Result<Session, Fault> {
        let timeout = self.config.handshake_timeout;
        match (&spec.remote, &self.config.remote) {
            (None, _) => Session::start(&self.launch_spec(spec), timeout, None).await,
            (Some(_), Some(remote)) => {
                Session::start_on_link(remote.link(spec).await?, timeout, None).await
            }
            (Some(id), None) => Err(Fault::Dropped {
                reason: format!("remote engine {id}, but no remote endpoint is open"),
            }),
        }
    }
}

impl axum::extract::FromRef<AppState> for LiveState {
    fn from_ref(state: &AppState) -> LiveState {
        LiveState(state.live.clone())
    }
}
