//! `arbiter serve`'s flags turned into one [`arbiter_board::serve::Serve`]
//! (the engines, the reference engine first if it is next to the arbiter,
//! the checked files and durations), then the board's own `run`.

use std::sync::Arc;
use std::time::Duration;

use arbiter_board::serve::Serve;
use arbiter_core::contender::config::{EngineSpec, EnginesFile};
use arbiter_core::play::game::Timeouts;
use arbiter_core::shutdown::Shutdown;

use super::{engine_specs, remote, tournament, CliError, EngineArgs, ServeArgs, DEFAULT_MAX_PLIES};

/// `arbiter serve`: the engines, then the server until its shutdown.
pub async fn run(args: ServeArgs, shutdown: Shutdown) -> Result<(), CliError> {
    let serve = setup(args).await?;
    arbiter_board::serve::run(serve, shutdown)
        .await
        .map_err(|e| CliError::Failed(e.to_string()))
}

/// `serve`'s engines: `--engine`/`--each` as for a match; `--engines-file`
/// without any `--engine` offers every engine of the file, as a GUI lists
/// the engines it has been given.
fn serve_engine_specs(args: &EngineArgs) -> Result<Vec<EngineSpec>, CliError> {
    match &args.engines_file {
        Some(path) if args.engines.is_empty() => {
            let file = EnginesFile::load(path)?;
            let all = EngineArgs {
                engines: file
                    .names()
                    .into_iter()
                    .map(|name| vec![format!("conf={name}")])
                    .collect(),
                ..args.clone()
            };
            engine_specs(&all)
        }
        _ => {
            let specs = engine_specs(args)?;
            for spec in &specs {
                arbiter_core::contender::config::refuse_keys(
                    spec,
                    "serve",
                    arbiter_core::contender::config::SERVE_REFUSES,
                )?;
            }
            Ok(specs)
        }
    }
}

/// The engines a page may choose: the reference engine (if it is next to
/// the arbiter) first, then `--engine`s; none named `human`.
fn engines(args: &EngineArgs) -> Result<Vec<EngineSpec>, CliError> {
    let mut engines = serve_engine_specs(args)?;
    if let Ok(path) = tournament::reference_engine() {
        if !engines.iter().any(|e| e.name == "reference") {
            let tokens = [
                format!("cmd={}", path.display()),
                "name=reference".to_owned(),
            ];
            engines.insert(
                0,
                arbiter_core::contender::config::parse_engine(0, &tokens, &[], None)?,
            );
        }
    }
    if let Some(e) = engines.iter().find(|e| e.name == "human") {
        return Err(CliError::Usage(format!(
            "engine name {:?} is reserved for the human player; name it otherwise",
            e.name
        )));
    }
    Ok(engines)
}

/// Seconds from a flag, or a usage error naming it.
fn duration(flag: &str, secs: f64, above_zero: bool) -> Result<Duration, CliError> {
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !(above_zero && d.is_zero()))
        .ok_or_else(|| {
            let above = if above_zero { " above 0" } else { "" };
            CliError::Usage(format!(
                "{flag}: {secs} is not a duration in seconds{above}"
            ))
        })
}

/// The flags checked, in the order their errors are reported, into one
/// server's configuration (the remote engines' endpoint already open).
async fn setup(args: ServeArgs) -> Result<Serve, CliError> {
    let engines = engines(&args.engines)?;
    if let Some(log) = args.logs.iter().find(|log| !log.is_file()) {
        return Err(CliError::Usage(format!(
            "--log {}: no such file",
            log.display()
        )));
    }
    if let Some(dir) = &args.stderr_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Failed(format!("cannot create {}: {e}", dir.display())))?;
    }
    let handshake = duration("--startup-timeout", args.handshake_timeout, false)?;
    let interval = duration("--watch-interval", args.watch_interval, true)?;
    // why after the --log files: the watched logs are replayed as the
    // server's logs too, `/api/logs/<k>` with k counted on from them.
    let watch = (!args.watch.is_empty()).then(|| arbiter_board::live::watch::WatchConfig {
        logs: args.watch.clone(),
        first_log: args.logs.len(),
        interval,
    });
    let mut logs = args.logs;
    logs.extend(args.watch);
    // why the engine cap: a remote engine may have as many connections as
    // the server runs engines, one a page's game (`slots=` to say otherwise).
    let caps = &args.engine_caps;
    let (remote, announcement) =
        match remote::endpoint(&engines, caps.max_engines, &args.remote, &args.tls).await? {
            Some((remote, announcement)) => (Some(remote), announcement),
            None => (None, String::new()),
        };
    let tablebase = match &args.tb {
        Some(dir) => Some(Arc::new(
            mancala_tablebase::Tablebase::open(dir)
                .map_err(|e| CliError::Usage(format!("--tb {}: {e}", dir.display())))?,
        )),
        None => None,
    };
    let config = arbiter_board::state::ServeConfig {
        engines,
        logs,
        timeouts: Timeouts {
            ready: handshake,
            ..Timeouts::default()
        },
        handshake_timeout: handshake,
        quit_grace: Duration::from_millis(500),
        max_plies: Some(DEFAULT_MAX_PLIES),
        stderr_dir: args.stderr_dir,
        tablebase,
        remote,
    };
    Ok(Serve {
        config,
        listen: args.listen,
        allow_host: args.allow_host,
        tls: args.tls.load()?,
        limits: args.limits.limits(),
        engine_cap: caps.cap(),
        watch,
        drain: duration("--drain", args.drain, false)?,
        announcement,
    })
}
