//! `arbiter serve` as a real process, spoken to over plain HTTP (the
//! browser tests in tests/browser/ drive the page itself): the guard
//! against other origins and hosts, and clear errors for bad requests.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

const ARBITER: &str = env!("CARGO_BIN_EXE_arbiter");

/// The server, killed when the test ends.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve() -> Server {
    let mut child = Command::new(ARBITER)
        .args(["serve", "--listen", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("arbiter serve starts");
    let mut line = String::new();
    let stdout = child.stdout.take().expect("stdout");
    BufReader::new(stdout).read_line(&mut line).expect("a line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_owned();
    Server { child, addr }
}

/// One HTTP/1.1 request; returns the status code and the body.
fn request(addr: &str, path: &str, headers: &[(&str, &str)]) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).expect("connects");
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
    let body = answer
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_owned();
    (status, body)
}

#[test]
fn the_page_and_its_api_answer_our_own_origin() {
    let s = serve();
    let (status, body) = request(&s.addr, "/play", &[]);
    assert_eq!(status, 200);
    assert!(body.contains("data-move-input"), "the embedded page");
    let origin = format!("http://{}", s.addr);
    let (status, body) = request(&s.addr, "/api/config", &[("Origin", &origin)]);
    assert_eq!(status, 200);
    assert!(body.contains("kujifunza"), "{body}");
    let (status, body) = request(&s.addr, "/assets/board.js", &[]);
    assert_eq!(status, 200);
    assert!(body.contains("data-legal"));
}

#[test]
fn other_origins_and_hosts_are_refused() {
    let s = serve();
    let (status, body) = request(&s.addr, "/api/config", &[("Origin", "http://evil.example")]);
    assert_eq!(status, 403);
    assert!(body.contains("evil.example"), "{body}");
    let (status, body) = request(&s.addr, "/", &[("Host", "rebound.example:80")]);
    assert_eq!(status, 403);
    assert!(body.contains("rebound.example"), "{body}");
    let upgrade = [
        ("Origin", "http://evil.example"),
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    assert_eq!(request(&s.addr, "/ws/play", &upgrade).0, 403);
}

#[test]
fn bad_requests_get_clear_errors() {
    let s = serve();
    let (status, body) = request(
        &s.addr,
        "/api/view?position=bohnenspiel%206,6%20S%200/0",
        &[],
    );
    assert_eq!(status, 422);
    assert!(body.starts_with("position:"), "{body}");
    let (status, body) = request(
        &s.addr,
        "/api/position?position=bosh%204,4,4,4,4,4,4,4,4,4%20S%200/0%201&moves=1%201",
        &[],
    );
    assert_eq!(status, 422);
    assert!(body.contains("move 2"), "{body}");
    let (status, _) = request(&s.addr, "/api/logs/7", &[]);
    assert_eq!(status, 404);
    assert_eq!(request(&s.addr, "/etc/passwd", &[]).0, 404);
}
