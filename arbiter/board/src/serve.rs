//! `arbiter serve` as one call: binds the board's server, says where to
//! open it, serves until its shutdown drains, waits for the pages' games in
//! progress up to the drain's deadline ([`crate::stopping`]), and returns.

use std::net::SocketAddr;
use std::time::Duration;

use arbiter_core::contender::cap::EngineCap;
use arbiter_core::shutdown::Shutdown;

use crate::live::watch::WatchConfig;
use crate::state::{AppState, ServeConfig};
use crate::stopping::Drained;

/// Everything one board server needs, checked by its caller.
pub struct Serve {
    /// What the handlers read (engines, logs, limits).
    pub config: ServeConfig,
    pub listen: SocketAddr,
    /// Further `name:port`s the page may be reached by (`--allow-host`).
    pub allow_host: Vec<String>,
    pub tls: Option<arbiter_net::front::tls::Tls>,
    pub limits: arbiter_net::front::Limits,
    /// How many engines the pages may run, in all and each.
    pub engine_cap: EngineCap,
    /// Results logs of an event run elsewhere, followed on `/live`.
    pub watch: Option<WatchConfig>,
    /// After the drain starts, the most the pages' games may go on.
    pub drain: Duration,
    /// Printed after the address line (the remote engines' endpoint).
    pub announcement: String,
}

/// Why a board server could not start or stopped on its own.
#[derive(Debug)]
pub enum ServeError {
    /// The address cannot be bound.
    Listen {
        addr: SocketAddr,
        source: std::io::Error,
    },
    /// The `--watch` logs' reader cannot start.
    Watch(std::io::Error),
    /// The accept loop ended on an error.
    Stopped(std::io::Error),
}

impl std::fmt::Display for ServeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServeError::Listen { addr, source } => write!(f, "cannot listen on {addr}: {source}"),
            ServeError::Watch(e) => write!(f, "cannot start watching the logs: {e}"),
            ServeError::Stopped(e) => write!(f, "server stopped: {e}"),
        }
    }
}

impl std::error::Error for ServeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ServeError::Listen { source: e, .. }
            | ServeError::Watch(e)
            | ServeError::Stopped(e) => Some(e),
        }
    }
}

/// Serves `serve` until `shutdown` drains and the pages' games are over
/// (or `serve.drain` has run out: their engines are then killed): [`bind`],
/// then [`Bound::serve`].
pub async fn run(serve: Serve, shutdown: Shutdown) -> Result<(), ServeError> {
    bind(serve, shutdown).await?.serve().await
}

/// A board server bound and announced, not serving yet.
pub struct Bound {
    server: arbiter_net::front::server::Server,
    sockets: crate::stopping::Sockets,
    shutdown: Shutdown,
    drain: Duration,
}

/// Binds the server (and starts following the `--watch` logs), and prints
/// its address on the first line (scripts read it there).
pub async fn bind(serve: Serve, shutdown: Shutdown) -> Result<Bound, ServeError> {
    let hub = serve.watch.as_ref().map(|_| crate::live::LiveHub::new());
    let state = match &hub {
        Some(hub) => AppState::with_live(serve.config, hub.clone()),
        None => AppState::new(serve.config),
    }
    .with_engine_cap(serve.engine_cap)
    .with_shutdown(shutdown.clone());
    let sockets = state.sockets.clone();
    let server = arbiter_net::front::server::Server::bind_tls(
        serve.listen,
        &serve.allow_host,
        serve.tls,
        |allowed| crate::router(state, allowed),
    )
    .await
    .map_err(|source| ServeError::Listen {
        addr: serve.listen,
        source,
    })?
    .with_limits(serve.limits);
    // why one line: scripts read the address from the first line, and may
    // close the pipe after it.
    match (hub, serve.watch) {
        (Some(hub), Some(watch)) => {
            // The /live page says so too when the server drains.
            let told = hub.clone();
            let stopping = shutdown.clone();
            tokio::spawn(async move {
                stopping.draining().await;
                told.publish(crate::live::LiveMsg::Problems {
                    problems: vec![crate::stopping::STOPPING.to_owned()],
                });
            });
            let n = watch.logs.len();
            crate::live::watch::spawn(hub, watch).map_err(ServeError::Watch)?;
            println!(
                "arbiter: serving the board at {url} (watching {n} results log(s): {url}live)",
                url = server.url()
            );
        }
        _ => println!("arbiter: serving the board at {}", server.url()),
    }
    print!("{}", serve.announcement);
    Ok(Bound {
        server,
        sockets,
        shutdown,
        drain: serve.drain,
    })
}

impl Bound {
    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.server.addr
    }

    /// Serves until the shutdown drains and the pages' games are over, or
    /// the drain's deadline has run out (their engines are then killed).
    pub async fn serve(self) -> Result<(), ServeError> {
        let Bound {
            server,
            sockets,
            shutdown,
            drain,
        } = self;
        // why the server goes on while draining: a game in progress is still
        // played over its socket (new sockets are refused, crate::stopping).
        let (told, drained) = tokio::sync::oneshot::channel();
        let stop = async move {
            shutdown.draining().await;
            let _ = told.send(sockets.drained(drain).await);
        };
        server.run(stop).await.map_err(ServeError::Stopped)?;
        if let Ok(Drained::TimedOut(n)) = drained.await {
            let killed = arbiter_core::contender::process::kill_all_engines();
            eprintln!(
                "arbiter: {n} page(s) with a game in progress did not finish in --drain {} s: \
                 ended them and killed {killed} engine process group(s)",
                drain.as_secs_f64()
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    fn serve() -> Serve {
        let state = crate::live_state(crate::live::LiveHub::new(), None);
        Serve {
            config: (*state.config).clone(),
            listen: "127.0.0.1:0".parse().expect("an address"),
            allow_host: Vec::new(),
            tls: None,
            limits: arbiter_net::front::Limits::default(),
            engine_cap: EngineCap::default(),
            watch: None,
            drain: Duration::from_secs(60),
            announcement: String::new(),
        }
    }

    /// The status line of `GET /` at `addr`; `None`: no connection.
    async fn status(addr: SocketAddr) -> Option<String> {
        let mut conn = tokio::net::TcpStream::connect(addr).await.ok()?;
        let request = format!("GET / HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
        conn.write_all(request.as_bytes()).await.ok()?;
        let mut answer = Vec::new();
        conn.read_to_end(&mut answer).await.ok()?;
        let answer = String::from_utf8_lossy(&answer);
        answer.lines().next().map(str::to_owned)
    }

    #[tokio::test]
    async fn two_servers_in_one_process_stop_apart() {
        let (stop_one, one) = Shutdown::new();
        let (_stop_two, two) = Shutdown::new();
        let one = bind(serve(), one).await.expect("binds");
        let two = bind(serve(), two).await.expect("binds");
        let (addr_one, addr_two) = (one.addr(), two.addr());
        let one = tokio::spawn(one.serve());
        let two = tokio::spawn(two.serve());
        for addr in [addr_one, addr_two] {
            let line = status(addr).await.expect("answers");
            assert!(line.starts_with("HTTP/1.1 200"), "{addr}: {line}");
        }
        stop_one.drain();
        // No page is open: the drain is over at once, and the server returns.
        let served = tokio::time::timeout(Duration::from_secs(60), one)
            .await
            .expect("the first server stops")
            .expect("no panic");
        assert!(served.is_ok(), "{served:?}");
        assert_eq!(status(addr_one).await, None, "the first server is closed");
        let line = status(addr_two).await.expect("the second answers");
        assert!(line.starts_with("HTTP/1.1 200"), "{line}");
        assert!(!two.is_finished());
        two.abort();
    }
}
