//! The `arbiter` binary: a thin shell over [`arbiter::cli`].

fn main() -> std::process::ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env()
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = arbiter::cli::Cli::parse_grouped();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("arbiter: cannot start the async runtime: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let code = runtime.block_on(arbiter::cli::main(cli));
    // Whatever happened, no engine outlives the arbiter.
    arbiter::engine::process::kill_all_engines();
    std::process::ExitCode::from(code.clamp(0, 255) as u8)
}
