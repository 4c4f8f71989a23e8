//! Shared by the end-to-end tests (`match.rs`, `check.rs`, …): the engine
//! binaries, running the arbiter and `arbiter serve`, plain HTTP requests,
//! and finding processes left behind.

pub mod kgp;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// Directory holding the `testbot` and `engine` binaries, built once per run.
///
/// `cargo test -p arbiter` does not build other packages' binaries, so this
/// runs `cargo build -p testbots -p engine` (with this test binary's profile)
/// once; cargo makes that a no-op when they are fresh.
pub fn bin_dir() -> &'static Path {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        let exe = std::env::current_exe().expect("test binary path");
        // target/<profile-dir>/deps/<test binary>
        let dir = exe
            .parent()
            .and_then(Path::parent)
            .expect("target profile directory")
            .to_path_buf();
        let profile = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("debug")
            .to_string();
        let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
        let mut build = Command::new(cargo);
        build.args(["build", "--quiet", "-p", "testbots", "-p", "engine"]);
        match profile.as_str() {
            "debug" => {}
            "release" => {
                build.arg("--release");
            }
            other => {
                build.args(["--profile", other]);
            }
        }
        let status = build.status().expect("cannot run cargo");
        assert!(status.success(), "cargo build -p testbots -p engine failed");
        dir
    })
}

pub fn testbot() -> String {
    bin_dir().join("testbot").display().to_string()
}

pub fn engine() -> String {
    bin_dir().join("engine").display().to_string()
}

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// Runs the arbiter in `dir`; the test fails unless it succeeds.
pub fn run_arbiter(dir: &Path, args: &[String]) -> Output {
    let out = Command::new(ARBITER)
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run arbiter");
    assert!(
        out.status.success(),
        "arbiter {args:?} failed: {}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `arbiter serve --listen 127.0.0.1:0 …`, killed when dropped.
pub struct Served {
    child: Child,
    // why kept: with the pipe closed, the server's next line would fail.
    _stdout: BufReader<std::process::ChildStdout>,
    /// `127.0.0.1:port`, read from the line it prints first.
    pub addr: String,
}

impl Served {
    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Waits for the server to end (after a signal).
    pub fn wait(&mut self) -> std::process::ExitStatus {
        self.child.wait().expect("the server ends")
    }

    /// Its exit status if it ends within `limit` (a hang guard), else `None`.
    pub fn wait_within(&mut self, limit: Duration) -> Option<std::process::ExitStatus> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("the server's status") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `arbiter serve` on a free port with `args`.
pub fn serve<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Served {
    let mut command = Command::new(ARBITER);
    command
        .args(["serve", "--listen", "127.0.0.1:0"])
        .args(args);
    serve_command(command)
}

/// Runs `command` (an `arbiter serve` that prints its address first).
pub fn serve_command(mut command: Command) -> Served {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter serve starts");
    let mut line = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdout.read_line(&mut line).expect("a line");
    let addr = address_in(&line);
    Served {
        child,
        _stdout: stdout,
        addr,
    }
}

/// The `host:port` of the first `http://…` URL in a line the arbiter printed.
pub fn address_in(line: &str) -> String {
    line.split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned()
}

/// One HTTP/1.1 GET; returns the status code and the body.
pub fn request(addr: &str, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
    // A hang guard only.
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    let mut text = format!("GET {path} HTTP/1.1\r\nConnection: close\r\n");
    if !headers.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
        text.push_str(&format!("Host: {addr}\r\n"));
    }
    for (k, v) in headers {
        text.push_str(&format!("{k}: {v}\r\n"));
    }
    text.push_str("\r\n");
    stream.write_all(text.as_bytes()).expect("sends");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("reads");
    let status = answer
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {answer:?}"));
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
    // axum sends JSON with a length; a chunked body would need decoding.
    assert!(!head.to_ascii_lowercase().contains("chunked"), "{head}");
    (status, body.to_owned())
}

/// `GET path`, which must answer 200 with JSON.
pub fn get_json(addr: &str, path: &str) -> serde_json::Value {
    let (status, body) = request(addr, path, &[]);
    assert_eq!(status, 200, "{path}: {body}");
    serde_json::from_str(&body).unwrap_or_else(|e| panic!("{path}: {e}: {body}"))
}

/// A scratch directory for one test, removed when dropped.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(prefix: &str, test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("arbiter-{prefix}-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        // why canonicalize: /proc/<pid>/cwd shows the resolved path.
        Scratch(dir.canonicalize().expect("canonical scratch dir"))
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// The `dir=` engine token that starts an engine in this directory, which
    /// is how [`Scratch::assert_no_leftovers`] finds it and its children.
    pub fn dir_arg(&self) -> String {
        format!("dir={}", self.0.display())
    }

    /// No live process runs in the scratch directory or names it in its
    /// arguments (engines, their grandchildren). Waits a little for the kernel.
    pub fn assert_no_leftovers(&self) {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let left = processes_in(&self.0);
            if left.is_empty() {
                return;
            }
            assert!(Instant::now() < deadline, "processes left behind: {left:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// `/proc/<pid>/stat` state of a process; `None` once it is gone.
pub fn proc_state(pid: u32) -> Option<char> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.trim_start().chars().next())
}

/// Live (not zombie) processes whose cwd is `dir` or whose arguments mention it.
pub fn processes_in(dir: &Path) -> Vec<(u32, String)> {
    let needle = dir.display().to_string();
    let mut found = Vec::new();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return found;
    };
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<u32>().ok())
        else {
            continue;
        };
        if pid == std::process::id() || matches!(proc_state(pid), Some('Z' | 'X') | None) {
            continue;
        }
        let cwd = std::fs::read_link(entry.path().join("cwd")).ok();
        let cmdline = std::fs::read(entry.path().join("cmdline"))
            .map(|b| String::from_utf8_lossy(&b).replace('\0', " "))
            .unwrap_or_default();
        if cwd.as_deref() == Some(dir) || cmdline.contains(&needle) {
            found.push((pid, cmdline));
        }
    }
    found
}

/// A blocking connection to `addr` with a tiny receive buffer, set before
/// connecting so that the window the server sees stays small: a page that
/// stops reading fills up at once.
pub fn tiny_buffer_connection(addr: &str) -> TcpStream {
    let addr: std::net::SocketAddr = addr.parse().expect("address");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let stream = rt.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket.set_recv_buffer_size(4096).expect("small buffer");
        socket.connect(addr).await.expect("connects")
    });
    let stream = stream.into_std().expect("std stream");
    stream.set_nonblocking(false).expect("blocking");
    stream
}

/// `arbiter serve` with one testbot engine `S` in `--mode mode`, started in
/// `scratch` (so its processes are found), and `extra` flags.
pub fn serve_bot(scratch: &Scratch, mode: &str, extra: &[&str]) -> Served {
    let mut args = vec![
        "--engine".to_owned(),
        format!("cmd={}", testbot()),
        scratch.dir_arg(),
        "arg=--mode".into(),
        format!("arg={mode}"),
        "name=S".into(),
    ];
    args.extend(extra.iter().map(|a| (*a).to_owned()));
    serve(&args)
}

/// A page's socket at `path` that never reads: a tiny receive buffer, and
/// nothing read after the handshake.
pub fn stuck_page(addr: &str, path: &str) -> tungstenite::WebSocket<TcpStream> {
    let stream = tiny_buffer_connection(addr);
    // why: once the server stops reading too, a write of ours waits; the
    // hang guard turns that into an error, which ends our sending.
    stream
        .set_write_timeout(Some(Duration::from_secs(30)))
        .expect("timeout");
    tungstenite::client(format!("ws://{addr}{path}"), stream)
        .expect("the socket opens")
        .0
}

/// A small LCG giving numbers in [0, 1), for the random kill moments of the
/// resume tests: they vary from run to run (`seed` mixes in the process id).
pub fn random_moments(seed: u64) -> impl FnMut() -> f64 {
    let mut state: u64 = seed ^ u64::from(std::process::id());
    move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as f64 / (1u64 << 31) as f64
    }
}

/// Complete lines (games) in a results log so far.
pub fn count_lines(log: &Path) -> usize {
    std::fs::read_to_string(log)
        .map(|t| t.lines().filter(|l| l.ends_with('}')).count())
        .unwrap_or(0)
}

/// The report an event prints: from the standings header to the
/// terminations line.
pub fn report(text: &str) -> String {
    let start = text.find("Rank Name").expect("standings in the output");
    let rest = &text[start..];
    let end = rest.find("Terminations:").expect("terminations line");
    let end = end + rest[end..].find('\n').unwrap_or(rest.len() - end);
    rest[..end].to_owned()
}

/// A CA and a server certificate it signed for 127.0.0.1 and localhost,
/// written to `dir` as `<name>-ca.pem`, `<name>-cert.pem`, `<name>-key.pem`.
pub fn certificates(dir: &std::path::Path, name: &str) -> [std::path::PathBuf; 3] {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
    let ca_key = KeyPair::generate().expect("a CA key");
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, format!("{name} test CA"));
    let ca = ca_params.self_signed(&ca_key).expect("a CA certificate");
    let key = KeyPair::generate().expect("a server key");
    let params = CertificateParams::new(vec!["127.0.0.1".to_owned(), "localhost".to_owned()])
        .expect("server params");
    let cert = params
        .signed_by(&key, &ca, &ca_key)
        .expect("a server certificate");
    let paths = ["ca", "cert", "key"].map(|what| dir.join(format!("{name}-{what}.pem")));
    std::fs::write(&paths[0], ca.pem()).unwrap();
    std::fs::write(&paths[1], cert.pem()).unwrap();
    std::fs::write(&paths[2], key.serialize_pem()).unwrap();
    paths
}

/// A client's WebSocket to a `/umi` endpoint.
pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens `url` (a `/umi` endpoint), with `token` in the `Authorization`
/// header if given.
pub async fn connect(
    url: &str,
    token: Option<&str>,
) -> Result<Ws, tokio_tungstenite::tungstenite::Error> {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = url.into_client_request().unwrap();
    if let Some(t) = token {
        request
            .headers_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    tokio_tungstenite::connect_async(request)
        .await
        .map(|(ws, _)| ws)
}

/// A scripted Bohnenspiel bot over one token: plays the first legal move,
/// and can drop its connection instead of answering one `go` (then comes
/// back after `back_after`, or never).
#[derive(Clone, Copy, Default)]
pub struct Script {
    pub drop_at_go: Option<usize>,
    pub back_after: Option<Duration>,
}

fn first_legal(position: &str) -> String {
    // `position startpos moves a b …` or `position pos <string> moves …`
    let (head, moves) = position.split_once(" moves ").unwrap_or((position, ""));
    let mut game = match head.trim().strip_prefix("position pos ") {
        Some(start) => mancala_rules::game_from_position(start).expect("a position string"),
        None => mancala_rules::new_game(mancala_rules::GameId::Bohnenspiel),
    };
    for mv in moves.split_whitespace() {
        game.play(mv).expect("the arbiter sends legal moves");
    }
    game.legal_moves()[0].clone()
}

/// A plain Bohnenspiel bot's answers to `line` (`name` in its `id name`):
/// the handshake, `readyok`, and the first legal move of the `position`
/// it keeps.
pub fn umi_replies(line: &str, name: &str, position: &mut String) -> Vec<String> {
    match line.split_whitespace().next() {
        Some("umi") => vec![
            format!("id name {name}"),
            "games bohnenspiel".into(),
            "umiok".into(),
        ],
        Some("isready") => vec!["readyok".into()],
        Some("position") => {
            *position = line.to_owned();
            vec![]
        }
        Some("go") => vec![format!("bestmove {}", first_legal(position))],
        _ => vec![],
    }
}

/// [`scripted_bot_counted`] without the count.
pub async fn scripted_bot(url: String, token: &str, script: Script) {
    scripted_bot_counted(url, token.to_owned(), script, Default::default()).await
}

/// Plays by `script` over `url` until the server closes its connection
/// (or says `quit`), reconnecting after a failed attempt; `connections`
/// counts the connections it opened.
pub async fn scripted_bot_counted(
    url: String,
    token: String,
    script: Script,
    connections: std::sync::Arc<std::sync::atomic::AtomicUsize>,
) {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let mut gos = 0;
    let mut position = String::new();
    'connections: loop {
        let Ok(mut ws) = connect(&url, Some(&token)).await else {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        };
        connections.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        while let Some(Ok(frame)) = ws.next().await {
            let Message::Text(line) = frame else { continue };
            let line = line.as_str();
            let replies: Vec<String> = match line.split_whitespace().next() {
                Some("go") => {
                    gos += 1;
                    if script.drop_at_go == Some(gos) {
                        drop(ws);
                        match script.back_after {
                            Some(pause) => {
                                tokio::time::sleep(pause).await;
                                continue 'connections;
                            }
                            None => return,
                        }
                    }
                    umi_replies(line, "scripted", &mut position)
                }
                Some("quit") => return,
                _ => umi_replies(line, "scripted", &mut position),
            };
            for r in replies {
                if ws.send(Message::text(r)).await.is_err() {
                    continue 'connections;
                }
            }
        }
        return;
    }
}

/// A TCP relay on the loopback that delays every chunk, each way and in
/// order, by a spread of `millis` (a slow network); every connection made to
/// the address it returns is relayed to `target`. `seed` makes the spread the
/// same every run.
pub async fn delaying_relay(
    target: std::net::SocketAddr,
    millis: std::ops::RangeInclusive<u64>,
    seed: u64,
) -> std::net::SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        let mut seed = seed;
        while let Ok((client, _)) = listener.accept().await {
            let Ok(server) = tokio::net::TcpStream::connect(target).await else {
                continue;
            };
            let (cr, cw) = client.into_split();
            let (sr, sw) = server.into_split();
            tokio::spawn(delay_pipe(cr, sw, millis.clone(), seed));
            tokio::spawn(delay_pipe(sr, cw, millis.clone(), seed + 1));
            seed += 2;
        }
    });
    addr
}

async fn delay_pipe(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    millis: std::ops::RangeInclusive<u64>,
    seed: u64,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel::<(tokio::time::Instant, Vec<u8>)>();
    tokio::spawn(async move {
        while let Some((at, bytes)) = rx.recv().await {
            tokio::time::sleep_until(at).await;
            if to.write_all(&bytes).await.is_err() {
                return;
            }
        }
    });
    let (low_us, span_us) = (
        millis.start() * 1000,
        (millis.end() - millis.start()) * 1000 + 1,
    );
    let mut state = seed;
    let mut last = tokio::time::Instant::now();
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = match from.read(&mut buf).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        // why a tiny LCG: a spread of delays, the same every run.
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let delay = Duration::from_micros(low_us + (state >> 33) % span_us);
        // why max: a chunk never overtakes the one before it (TCP keeps order).
        last = last.max(tokio::time::Instant::now() + delay);
        if tx.send((last, buf[..n].to_vec())).is_err() {
            return;
        }
    }
}

/// A blocking TCP connection to `addr` from the loopback address `source`
/// (`127.0.0.2`, …: another client, as far as the server can tell, on the
/// same machine); a hang guard of a minute on reads.
pub fn tcp_from(source: &str, addr: &str) -> TcpStream {
    let addr: std::net::SocketAddr = addr.parse().expect("address");
    let source: std::net::IpAddr = source.parse().expect("source address");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let stream = rt.block_on(async {
        let socket = tokio::net::TcpSocket::new_v4().expect("socket");
        socket
            .bind(std::net::SocketAddr::new(source, 0))
            .expect("binds the source address");
        socket.connect(addr).await.expect("connects")
    });
    let stream = stream.into_std().expect("std stream");
    stream.set_nonblocking(false).expect("blocking");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .expect("timeout");
    stream
}

/// An HTTP refusal of a WebSocket upgrade: its status, its `Retry-After`
/// header (if any) and its body.
#[derive(Debug)]
pub struct Refusal {
    pub status: u16,
    pub retry_after: Option<String>,
    pub body: String,
}

/// Opens the WebSocket `url` from `source` (see [`tcp_from`]), with
/// `token` in the `Authorization` header if given: the socket, or the
/// server's refusal.
pub fn upgrade_from(
    source: &str,
    url: &str,
    token: Option<&str>,
) -> Result<tungstenite::WebSocket<TcpStream>, Refusal> {
    use tungstenite::client::IntoClientRequest;
    let addr = url
        .strip_prefix("ws://")
        .and_then(|rest| rest.split('/').next())
        .expect("a ws:// URL");
    let mut request = url.into_client_request().expect("a request");
    if let Some(t) = token {
        request
            .headers_mut()
            .insert("authorization", format!("Bearer {t}").parse().unwrap());
    }
    match tungstenite::client(request, tcp_from(source, addr)) {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(response))) => {
            Err(Refusal {
                status: response.status().as_u16(),
                retry_after: response
                    .headers()
                    .get("retry-after")
                    .map(|v| v.to_str().expect("a text header").to_owned()),
                body: String::from_utf8_lossy(response.body().as_deref().unwrap_or_default())
                    .into_owned(),
            })
        }
        Err(e) => panic!("{url}: neither an upgrade nor a refusal: {e}"),
    }
}

/// Runs test `name` (its whole path, `process::kill_all_engines_kills_every_group`)
/// in a test process of its own, for a test that changes what the whole
/// process shares: every test of the crate runs in one process now (one
/// test binary a crate, issue 37). Returns `true` in that process, where the
/// caller goes on with its body, and `false` in the one that started it,
/// once the test passed there.
pub fn alone(name: &str) -> bool {
    const ALONE: &str = "ARBITER_TEST_ALONE";
    if std::env::var(ALONE).as_deref() == Ok(name) {
        return true;
    }
    let exe = std::env::current_exe().expect("test binary path");
    let out = Command::new(exe)
        .args([name, "--exact", "--nocapture", "--test-threads", "1"])
        .env(ALONE, name)
        .output()
        .expect("the test binary starts again");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    // why "1 passed": a name that matches no test passes with 0 run.
    assert!(
        out.status.success() && text.contains("test result: ok. 1 passed"),
        "{name}, run alone: {text}"
    );
    false
}
