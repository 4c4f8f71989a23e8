//! The front every listener has (`arbiter/net/src/front`), against a real
//! `arbiter serve` over loopback: connections that send too slowly, or
//! nothing, are closed by their deadlines; a body announced and never sent
//! is answered; a server short of file descriptors goes on answering; a
//! request with two `Host`s or `Origin`s, or a non-ASCII one, is refused;
//! a TLS listener answers over TLS only; a burst of connections over the
//! limit is answered 503, every one.
//! Deadlines are set short by their flags; every wait has a generous guard
//! and nothing is timed.

use crate::common;

use std::io::{ErrorKind, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::request;

/// Whether the server has closed `stream` (without waiting long).
fn closed(mut stream: &TcpStream) -> bool {
    stream
        .set_read_timeout(Some(Duration::from_millis(5)))
        .expect("timeout");
    let mut buf = [0u8; 512];
    match stream.read(&mut buf) {
        Ok(0) => true,
        // An answer (a 408/400 some servers send) then the close: read on.
        Ok(_) => closed(stream),
        Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => false,
        Err(_) => true,
    }
}

fn connect(addr: &str) -> TcpStream {
    let stream = TcpStream::connect(addr).expect("connects");
    stream
        .set_write_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    stream
}

/// Slowloris (a byte a second of headers), silent and half-sent
/// connections: all closed once `--header-timeout` has passed, while the
/// server goes on answering. (Before: none was closed in a minute.)
#[test]
fn slow_silent_and_half_sent_connections_are_closed_by_the_header_deadline() {
    let s = common::serve(&["--header-timeout", "2"]);
    let head = format!("GET /api/config HTTP/1.1\r\nHost: {}\r\n", s.addr);
    let mut slow: Vec<TcpStream> = (0..10).map(|_| connect(&s.addr)).collect();
    let silent: Vec<TcpStream> = (0..10).map(|_| connect(&s.addr)).collect();
    let half: Vec<TcpStream> = (0..10)
        .map(|_| {
            let mut c = connect(&s.addr);
            c.write_all(head.as_bytes()).expect("half a request");
            c
        })
        .collect();
    let started = Instant::now();
    let mut sent = 0;
    loop {
        // One more byte of a header line every half second, on each slow one.
        let byte = b"X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"[sent % 60];
        sent += 1;
        let mut open = 0;
        for c in &mut slow {
            if sent == 1 {
                let _ = c.write_all(head.as_bytes());
            }
            if !closed(c) && c.write_all(&[byte]).is_ok() {
                open += 1;
            }
        }
        open += silent.iter().filter(|c| !closed(c)).count();
        open += half.iter().filter(|c| !closed(c)).count();
        if open == 0 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "{open} of 30 slow, silent or half-sent connections still open after a minute"
        );
        std::thread::sleep(Duration::from_millis(500));
    }
    assert_eq!(request(&s.addr, "/api/config", &[]).0, 200);
}

/// A body announced larger than `--max-body` is refused at once (413); one
/// announced and never sent is answered 408 at `--request-timeout`
/// (before: a body of 99,999,999,999 bytes never sent held the request).
#[test]
fn a_body_too_large_or_never_sent_is_answered() {
    let s = common::serve(&["--request-timeout", "2", "--max-body", "100000"]);
    let post = |length: u64, sent: &str| {
        let mut c = connect(&s.addr);
        c.set_read_timeout(Some(Duration::from_secs(60)))
            .expect("a hang guard");
        let text = format!(
            "POST /api/replay HTTP/1.1\r\nHost: {}\r\nContent-Length: {length}\r\n\r\n{sent}",
            s.addr
        );
        c.write_all(text.as_bytes()).expect("sends");
        let mut answer = vec![0u8; 4096];
        let n = c.read(&mut answer).expect("an answer before the guard");
        String::from_utf8_lossy(&answer[..n]).into_owned()
    };
    let huge = post(99_999_999_999, "");
    assert!(huge.starts_with("HTTP/1.1 413"), "{huge}");
    let stalled = post(1000, "[Event \"");
    assert!(stalled.starts_with("HTTP/1.1 408"), "{stalled}");
}

/// A server with 256 file descriptors and 300 idle connections: it holds
/// what its limit leaves room for, answers the rest 503, closes the idle
/// ones at their deadline, and answers a page again (before: `accept
/// error: Too many open files` until the idle connections went away).
#[test]
fn a_server_short_of_descriptors_goes_on_answering() {
    use std::os::unix::process::CommandExt;
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"));
    command.args(["serve", "--listen", "127.0.0.1:0", "--header-timeout", "2"]);
    // SAFETY: setrlimit is async-signal-safe; it only changes the child.
    unsafe {
        command.pre_exec(|| {
            let limit = libc::rlimit {
                rlim_cur: 256,
                rlim_max: 256,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let s = common::serve_command(command);
    let idle: Vec<TcpStream> = (0..300)
        .filter_map(|_| TcpStream::connect(&s.addr).ok())
        .collect();
    assert!(idle.len() > 256, "the test holds more than the server may");
    let started = Instant::now();
    loop {
        let mut c = connect(&s.addr);
        c.set_read_timeout(Some(Duration::from_secs(30)))
            .expect("a hang guard");
        let text = format!(
            "GET /api/config HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            s.addr
        );
        let _ = c.write_all(text.as_bytes());
        let mut answer = String::new();
        let _ = c.read_to_string(&mut answer);
        if answer.starts_with("HTTP/1.1 200") {
            break;
        }
        if !answer.is_empty() {
            assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
            assert!(answer.contains("--max-connections"), "{answer}");
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no answer in a minute with 300 idle connections: {answer:?}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    drop(idle);
}

/// Two `Host` fields (own, then another), two `Origin`s, or an `Origin`
/// that is not ASCII: 400, never read as the first one or as none; the
/// play socket asked for so starts no engine (before: two engines).
#[test]
fn repeated_or_non_ascii_host_and_origin_are_refused() {
    let scratch = common::Scratch::new("front", "headers");
    let s = common::serve_bot(&scratch, "instant", &[]);
    let own = s.addr.clone();
    let own_origin = format!("http://{}", s.addr);
    let cases: [&[(&str, &str)]; 4] = [
        &[("Host", &own), ("Host", "evil.example:80")],
        &[("Origin", &own_origin), ("Origin", "http://evil.example")],
        &[("Origin", "http://évil.example")],
        &[("Host", "127.0.0.1\u{e9}")],
    ];
    for headers in cases {
        let (status, body) = request(&s.addr, "/api/config", headers);
        assert_eq!(status, 400, "{headers:?}: {body}");
        assert!(body.starts_with("refused"), "{body}");
    }
    let upgrade = [
        ("Origin", "http://\u{e9}vil.example"),
        ("Upgrade", "websocket"),
        ("Connection", "Upgrade"),
        ("Sec-WebSocket-Version", "13"),
        ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ=="),
    ];
    assert_eq!(request(&s.addr, "/ws/play", &upgrade).0, 400);
    let mut engines = common::processes_in(&scratch.0);
    engines.retain(|(pid, _)| *pid != s.pid());
    assert!(engines.is_empty(), "{engines:?}");
}

#[test]
fn a_tls_listener_answers_over_tls_and_closes_a_plain_client() {
    let s = common::Scratch::new("front", "tls");
    let [ca, cert, key] = common::certificates(&s.0, "front");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_arbiter"))
        .args(["serve", "--listen", "127.0.0.1:0", "--header-timeout", "1"])
        .args(["--tls-cert", &cert.display().to_string()])
        .args(["--tls-key", &key.display().to_string()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("arbiter serve starts");
    let mut line = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
        &mut line,
    )
    .expect("a line");
    let result = std::panic::catch_unwind(|| {
        let addr = line
            .split("https://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no https:// address in {line:?}"))
            .to_owned();
        // Over TLS, trusting our CA: the page's API answers, and an https
        // Origin is our own.
        let config = arbiter_net::front::tls::client_config(Some(&ca)).expect("our CA");
        let name = rustls_pki_types::ServerName::try_from("127.0.0.1").expect("a name");
        let tls = rustls::ClientConnection::new(config, name).expect("a client");
        let mut stream = rustls::StreamOwned::new(tls, connect(&addr));
        stream
            .sock
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        write!(
            stream,
            "GET /api/config HTTP/1.1\r\nHost: {addr}\r\nOrigin: https://{addr}\r\n\
             Connection: close\r\n\r\n"
        )
        .expect("sends over TLS");
        let mut answer = String::new();
        // why tolerate an error after the body: a peer that closes without
        // TLS close_notify ends the read with UnexpectedEof.
        let _ = stream.read_to_string(&mut answer);
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        assert!(answer.contains("kujifunza"), "{answer}");

        // Plain HTTP to it: no HTTP answer, the connection is closed.
        let mut plain = connect(&addr);
        plain
            .write_all(format!("GET /api/config HTTP/1.1\r\nHost: {addr}\r\n\r\n").as_bytes())
            .expect("sends");
        plain
            .set_read_timeout(Some(Duration::from_secs(60)))
            .expect("timeout");
        let mut got = Vec::new();
        let _ = plain.read_to_end(&mut got);
        assert!(
            !String::from_utf8_lossy(&got).contains("HTTP/1.1"),
            "a plain client gets no HTTP: {got:?}"
        );
    });
    let _ = child.kill();
    let _ = child.wait();
    if let Err(panic) = result {
        std::panic::resume_unwind(panic);
    }
}

/// 300 connections at once over `--max-connections 1` (one held idle):
/// every one is answered the documented 503 naming the limit (before: at
/// most 64 were being answered at once, the rest closed without a word).
#[test]
fn a_burst_over_the_connection_limit_is_answered_503_every_one() {
    let s = common::serve(&["--max-connections", "1", "--header-timeout", "120"]);
    let get = format!(
        "GET /api/config HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
        s.addr
    );
    let answer = |mut c: TcpStream| {
        c.set_read_timeout(Some(Duration::from_secs(60)))
            .expect("a hang guard");
        let mut got = Vec::new();
        let mut buf = [0u8; 4096];
        // why not read_to_end: the bytes before a reset count too.
        while let Ok(n) = c.read(&mut buf) {
            if n == 0 {
                break;
            }
            got.extend_from_slice(&buf[..n]);
        }
        String::from_utf8_lossy(&got).into_owned()
    };
    // The one place, held by a connection that sends nothing; a probe
    // refused says it is taken.
    let _holder = connect(&s.addr);
    let started = Instant::now();
    loop {
        let mut probe = connect(&s.addr);
        probe.write_all(get.as_bytes()).expect("sends");
        if answer(probe).starts_with("HTTP/1.1 503") {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no 503 in a minute"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let burst: Vec<TcpStream> = (0..300)
        .map(|_| {
            let mut c = connect(&s.addr);
            c.write_all(get.as_bytes()).expect("sends");
            c
        })
        .collect();
    let mut unanswered = 0;
    for c in burst {
        let text = answer(c);
        if text.is_empty() {
            unanswered += 1;
            continue;
        }
        assert!(text.starts_with("HTTP/1.1 503"), "{text}");
        assert!(text.contains("Retry-After: 1"), "{text}");
        assert!(
            text.contains("holds its most connections (1, --max-connections"),
            "{text}"
        );
    }
    assert_eq!(unanswered, 0, "of 300 refused connections, unanswered");
}
