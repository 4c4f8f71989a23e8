//! The command line of remote engines: the `--remote-*` options of `match`,
//! `tournament` and `serve`, and `arbiter connect` (the bridge).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use crate::cli::tls::TlsArgs;
use crate::cli::{engine_specs, CliError, EngineArgs};
use arbiter_core::contender::config::EngineSpec;
use arbiter_core::contender::remote::RemoteEngines;
use arbiter_core::play::runner::Runner;
use arbiter_net::remote::bridge::{self, BridgeConfig};
use arbiter_net::remote::kgp::KgpEndpoint;
use arbiter_net::remote::tokens::Tokens;
use arbiter_net::remote::{Limits, Links};

/// The help heading of [`RemoteArgs`]' flags. why on each flag, not the
/// struct's `next_help_heading`: clap keeps that heading on for the flags
/// declared after a flattened struct, filing them under it.
pub const REMOTE_HEADING: &str = "Remote engines";

/// Where remote engines (`--engine remote=<id>`) connect, and how long the
/// event waits for them.
#[derive(Args, Clone, Debug)]
pub struct RemoteArgs {
    /// Address of the remote engines' endpoint, `ws://ADDR/umi` (e.g.
    /// `0.0.0.0:9000` to let other machines in; port 0 picks one).
    #[arg(long, help_heading = REMOTE_HEADING, value_name = "ADDR", default_value = "127.0.0.1:9000")]
    pub remote_listen: SocketAddr,
    /// JSON `{"<id>": "<token>", …}` with a token for every remote engine
    /// [default: tokens generated and printed once at start].
    #[arg(long, help_heading = REMOTE_HEADING, value_name = "FILE")]
    pub remote_tokens: Option<PathBuf>,
    /// Seconds to wait for a remote engine: before the first game for all
    /// of them (then an error names who is missing), and for each game a
    /// remote engine is due in (then it is lost by disconnect, a no-show).
    #[arg(long, help_heading = REMOTE_HEADING, value_name = "SECONDS", default_value_t = 60.0, value_parser = crate::cli::seconds_arg)]
    pub remote_wait: f64,
    /// Seconds a remote engine whose connection dropped mid-game has to
    /// come back (its clock running) before the game is lost by
    /// disconnect; 0: no grace.
    #[arg(long, help_heading = REMOTE_HEADING, value_name = "SECONDS", default_value_t = 10.0)]
    pub remote_grace: f64,
    /// Address where remote Kalah bots speaking KGP (`--engine remote=<id>
    /// proto=kgp`) connect over TCP; KGP's port 2671 by default. (Over a
    /// WebSocket they connect to `/kgp` on `--remote-listen`.)
    #[arg(long, help_heading = REMOTE_HEADING, value_name = "ADDR", default_value = "127.0.0.1:2671")]
    pub kgp_listen: SocketAddr,
}

/// Opens the endpoint when the runner has remote engines (prints generated
/// tokens and the address) and gives the runner their registry.
pub async fn open(runner: &mut Runner, args: &RemoteArgs, tls: &TlsArgs) -> Result<(), CliError> {
    if let Some((remote, announcement)) =
        endpoint(&runner.engines, runner.concurrency, args, tls).await?
    {
        print!("{announcement}");
        runner.remote = Some(remote);
    }
    Ok(())
}

/// The endpoint of `specs`' remote engines (each allowed `slots=`, or
/// `concurrency`, connections), open, and the lines that announce it
/// (its address, any generated tokens: for stdout, printed once); `None`
/// when none of `specs` is remote.
pub async fn endpoint(
    specs: &[EngineSpec],
    concurrency: usize,
    args: &RemoteArgs,
    tls: &TlsArgs,
) -> Result<Option<(RemoteEngines, String)>, CliError> {
    let ids = arbiter_core::contender::remote::remote_ids(specs);
    if ids.is_empty() {
        return Ok(None);
    }
    let grace = Duration::try_from_secs_f64(args.remote_grace)
        .ok()
        .filter(|g| g.as_secs_f64() <= crate::cli::MAX_TIMEOUT_SECS)
        .ok_or_else(|| {
            CliError::Usage(format!(
                "--remote-grace {}: expected seconds from 0 to {}",
                args.remote_grace,
                crate::cli::MAX_TIMEOUT_SECS
            ))
        })?;
    let wait = Duration::from_secs_f64(args.remote_wait);
    let (tokens, generated) = match &args.remote_tokens {
        Some(path) => (
            Tokens::load(path, &ids).map_err(|e| CliError::Usage(e.to_string()))?,
            false,
        ),
        None => (Tokens::generate(&ids), true),
    };
    let registry = arbiter_net::remote::registry_for(specs, tokens.clone(), concurrency);
    let limits = Limits::default();
    let tls = tls.load()?;
    let scheme = if tls.is_some() { "wss" } else { "ws" };
    let kgp = kgp_endpoint(specs, &registry, limits);
    let addr = arbiter_net::remote::listen_with_kgp(
        args.remote_listen,
        registry.clone(),
        limits,
        tls,
        kgp.clone(),
    )
    .await
    .map_err(|e| {
        CliError::Failed(format!(
            "--remote-listen {}: cannot listen: {e}",
            args.remote_listen
        ))
    })?;
    let mut announcement = format!("arbiter: remote engines connect to {scheme}://{addr}/umi\n");
    if let Some(kgp) = kgp {
        let tcp = open_kgp(args, kgp).await?;
        announcement.push_str(&format!(
            "arbiter: KGP bots connect to tcp://{tcp} or {scheme}://{addr}/kgp\n"
        ));
    }
    if generated {
        for (id, token) in tokens.iter() {
            announcement.push_str(&format!("arbiter: remote engine {id}: token {token}\n"));
        }
    }
    let remote = Links {
        registry,
        grace,
        write_timeout: limits.write_timeout,
    }
    .engines(wait);
    Ok(Some((remote, announcement)))
}

/// The KGP endpoint when some remote engines are KGP bots: shared by the
/// TCP listener and the WebSocket route.
fn kgp_endpoint(
    specs: &[EngineSpec],
    registry: &Arc<arbiter_net::remote::registry::Registry>,
    limits: Limits,
) -> Option<Arc<KgpEndpoint>> {
    use arbiter_core::contender::config::Protocol;
    let ids: std::collections::BTreeSet<String> = specs
        .iter()
        .filter(|e| e.proto == Protocol::Kgp)
        .filter_map(|e| e.remote.clone())
        .collect();
    if ids.is_empty() {
        return None;
    }
    Some(Arc::new(KgpEndpoint::new(
        registry.clone(),
        arbiter_net::remote::kgp::Speakers::Only(ids),
        limits,
    )))
}

/// Opens the KGP TCP listener; its address.
async fn open_kgp(args: &RemoteArgs, endpoint: Arc<KgpEndpoint>) -> Result<SocketAddr, CliError> {
    let addr = arbiter_net::remote::kgp::listen(args.kgp_listen, endpoint)
        .await
        .map_err(|e| {
            CliError::Failed(format!(
                "--kgp-listen {}: cannot listen: {e}",
                args.kgp_listen
            ))
        })?;
    Ok(addr)
}

/// `arbiter connect`.
#[derive(Args)]
pub struct ConnectArgs {
    /// The arbiter's endpoint, `ws://host:port/umi` (`wss://` for TLS).
    pub url: String,
    /// The CA certificate(s) (PEM) a `wss://` arbiter's certificate must
    /// be signed by [default: the webpki roots, Mozilla's list].
    #[arg(long, value_name = "FILE")]
    pub ca: Option<PathBuf>,
    /// The token the organiser gave for this engine.
    #[arg(long)]
    pub token: String,
    /// The engine to run here: `cmd=./mybot arg=… dir=… option.Level=6`
    /// (its options are sent after the arbiter's own; the games' limits are
    /// the organiser's, see `--help`).
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Connections (engine instances) at once, for games played in parallel.
    #[arg(long, default_value_t = 1, value_parser = crate::cli::concurrency_arg)]
    pub slots: usize,
    /// Directory for the engine's stderr logs.
    #[arg(long, value_name = "DIR", default_value = "arbiter-logs")]
    pub stderr_dir: PathBuf,
}

/// Runs the bridge until the token is refused (or the bridge is stopped).
pub async fn connect(args: ConnectArgs) -> Result<(), CliError> {
    let specs = engine_specs(&args.engines)?;
    let [spec] = specs.as_slice() else {
        return Err(CliError::Usage(format!(
            "connect runs exactly one --engine, got {}",
            specs.len()
        )));
    };
    if spec.remote.is_some() {
        return Err(CliError::Usage(
            "connect runs a local engine: give it cmd=, not remote=".into(),
        ));
    }
    arbiter_core::contender::config::refuse_keys(
        spec,
        "connect",
        arbiter_core::contender::config::CONNECT_REFUSES,
    )?;
    std::fs::create_dir_all(&args.stderr_dir).map_err(|e| {
        CliError::Failed(format!("cannot create {}: {e}", args.stderr_dir.display()))
    })?;
    let launch = (0..args.slots)
        .map(|slot| {
            let log = args.stderr_dir.join(format!(
                "{}.{}.stderr.log",
                arbiter_core::play::runner::sanitize(&spec.name),
                slot + 1
            ));
            spec.launch_spec(spec.stderr.clone().or(Some(log)))
        })
        .collect();
    println!(
        "arbiter: connecting {} ({} slot(s)) to {}",
        spec.name, args.slots, args.url
    );
    let tls = if args.url.starts_with("wss://") {
        Some(
            arbiter_net::front::tls::client_config(args.ca.as_deref())
                .map_err(|e| CliError::Usage(e.to_string()))?,
        )
    } else if args.ca.is_some() {
        return Err(CliError::Usage(format!(
            "--ca is for a wss:// endpoint, not {}",
            args.url
        )));
    } else {
        None
    };
    bridge::run(BridgeConfig {
        url: args.url,
        tls,
        token: args.token,
        launch,
        backoff: Duration::from_millis(500),
        max_backoff: Duration::from_secs(30),
        connections: None,
        options: spec.options.clone(),
    })
    .await
    .map_err(|e| CliError::Failed(e.to_string()))
}
