//! `arbiter check` on the command line: its flags, and the glue that turns
//! them into the library's [`Limits`] and prints the check lines (with the
//! engine's stderr tail after a failure). The checks themselves are
//! [`arbiter_core::contender::check`].

use std::time::Duration;

use clap::Args;

use crate::cli::{CliError, EngineArgs};
use arbiter_core::contender::check::{run, Limits};

/// `arbiter check` on the command line.
#[derive(Args)]
pub struct CheckArgs {
    #[command(flatten)]
    pub engines: EngineArgs,
    /// Seconds a fresh engine process has for `umiok` and its first
    /// `readyok` (`--handshake-timeout` is the same; above 0, at most 1000000).
    #[arg(long, alias = "handshake-timeout", default_value_t = 30.0, value_parser = crate::cli::seconds_arg)]
    pub startup_timeout: f64,
    /// Seconds to wait for each later `readyok` (above 0, at most 1000000).
    #[arg(long, default_value_t = 10.0, value_parser = crate::cli::seconds_arg)]
    pub ready_timeout: f64,
    /// Milliseconds allowed between `stop` and `bestmove` (1 to 10^9).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    pub stop_limit: u64,
    /// Seed of the random moves that reach the mid-game positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write the full protocol traffic with timestamps to this file.
    #[arg(long, value_name = "FILE")]
    pub debug: Option<std::path::PathBuf>,
}

/// `arbiter check`: prints one line per check; exit status 0 when all pass,
/// 1 when any fails.
pub async fn main(args: CheckArgs) -> Result<i32, CliError> {
    let specs = crate::cli::engine_specs(&args.engines)?;
    let [spec] = specs.as_slice() else {
        return Err(CliError::Usage(format!(
            "check takes exactly one --engine, got {}",
            specs.len()
        )));
    };
    arbiter_core::contender::config::refuse_keys(
        spec,
        "check",
        arbiter_core::contender::config::CHECK_REFUSES,
    )?;
    let secs = |s: f64, flag: &str| {
        Duration::try_from_secs_f64(s)
            .map_err(|_| CliError::Usage(format!("{flag}: {s} is not a duration in seconds")))
    };
    let limits = Limits {
        handshake: secs(args.startup_timeout, "--startup-timeout")?,
        ready: secs(args.ready_timeout, "--ready-timeout")?,
        stop: Duration::from_millis(args.stop_limit),
        margin: spec.tc.margin,
        seed: args.seed,
        ..Limits::default()
    };
    let traffic = crate::cli::traffic_log(args.debug.as_deref())?;
    // why a scratch file: without `stderr=`, the engine's stderr is kept for
    // the report (its last lines explain many a failure), then removed.
    let capture = spec
        .stderr
        .is_none()
        .then(|| std::env::temp_dir().join(format!("arbiter-check-{}.stderr", std::process::id())));
    let stderr = spec.stderr.clone().or_else(|| capture.clone());
    let passed = run(
        &spec.launch_spec(stderr),
        &spec.options,
        limits,
        traffic,
        |line| {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "{line}").and_then(|()| out.flush());
        },
    )
    .await;
    if let Some(path) = capture {
        if !passed {
            print_stderr_tail(&path);
        }
        // why ignore: a file that was never created has nothing to remove.
        let _ = std::fs::remove_file(&path);
    }
    Ok(if passed { 0 } else { 1 })
}

/// After the check lines: the last lines the engine wrote to stderr, each
/// prefixed `stderr| `, under a header (nothing when it wrote none).
fn print_stderr_tail(path: &std::path::Path) {
    use arbiter_core::contender::stderr_tail::{last_lines, report_lines, TAIL_LINES};
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    for line in report_lines(&last_lines(path, TAIL_LINES)) {
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}
