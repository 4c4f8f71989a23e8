//! The `arbiter` binary: parses the command line ([`cli`], with the
//! translation of cutechess-cli and fastchess spellings,
//! [`arbiter_core::compat`]) and
//! wires the library crates: `arbiter-core` (games, events, records),
//! `arbiter-net` (the front, remote engines), `arbiter-board` (the browser
//! board and the live view) and `arbiter-arena`.

mod cli;
#[cfg(test)]
mod compat_tests;
mod logging;

fn main() -> std::process::ExitCode {
    use arbiter_core::contender::watchdog;
    if std::env::args().nth(1).as_deref() == Some(watchdog::WATCHDOG_ARG) {
        return std::process::ExitCode::from(watchdog::run().clamp(0, 255) as u8);
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            std::env::var("RUST_LOG")
                .ok()
                .and_then(|spec| {
                    tracing_subscriber::EnvFilter::try_new(logging::filter(&spec)).ok()
                })
                .unwrap_or_else(|| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        // why: colour codes only for a terminal, never into a log file.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let cli = crate::cli::Cli::parse_grouped();
    if cli.command.runs_engines() {
        match std::env::current_exe() {
            Ok(exe) => {
                if let Err(e) = watchdog::install(&exe) {
                    tracing::warn!("cannot start the engine watchdog ({e}): engines' children may outlive a killed arbiter");
                }
            }
            Err(e) => {
                tracing::warn!("cannot find the arbiter's own path ({e}): no engine watchdog")
            }
        }
    }
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("arbiter: cannot start the async runtime: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    // why a hook: a panic is a bug; say so beside Rust's own message. A
    // panic in a task of a game or a connection is caught there (the event
    // goes on); one on the command's own path ends it with status 3.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        default_hook(info);
        eprintln!("arbiter: internal error (a panic). {}", crate::cli::REPORT);
    }));
    let run = std::panic::AssertUnwindSafe(|| runtime.block_on(crate::cli::main(cli)));
    let code = std::panic::catch_unwind(run).unwrap_or(3);
    // Whatever happened, no engine outlives the arbiter.
    arbiter_core::contender::process::kill_all_engines();
    arbiter_core::contender::process::kill_adopted();
    std::process::ExitCode::from(code.clamp(0, 255) as u8)
}
