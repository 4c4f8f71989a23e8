//! A Kalah bot speaking the Kalah Game Protocol (KGP), written from KGP's
//! public description (the freeplay mode: `kgp 1 0 0`, `set auth:token`,
//! `mode freeplay`, `state <board>`, `move`, `yield`, `stop`,
//! `ping`/`pong`, `goodbye`), not from the arbiter's code: it reads the
//! board literal, plays as "south" and numbers pits from 1. It speaks KGP
//! over either of the protocol's transports: TCP (a line per `\r\n`) or a
//! WebSocket (a line per text frame). Used by `kgp.rs` (matches) and
//! `arena.rs` (the arena's pools).

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How the test bot answers a `state`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Style {
    /// A legal move, then a second (the one that counts); every other
    /// request it yields, the others it leaves to the server's `stop`.
    Plays,
    /// An empty pit of its own as soon as it has one (an illegal move).
    Empty,
    /// Never a move (it still answers pings).
    Silent,
    /// A legal move for each state, but only after that state's `stop`.
    AfterStop,
    /// Before each answer, a move and a yield for a state never sent.
    Unsent,
    /// Plays as `Plays` and yields, every line it sends sent twice.
    Doubles,
    /// At its first state, a flood of `pong`s.
    FloodPongs,
    /// Ignores the first copy of each state (as a client that lost the
    /// line), answers when it is sent again.
    LosesFirst,
}

/// One KGP command as the bot reads it: id, reference, name, arguments.
pub struct Kgp {
    pub id: Option<u64>,
    pub name: String,
    pub args: Vec<String>,
}

pub fn parse(line: &str) -> Option<Kgp> {
    let mut words = line.split_whitespace().peekable();
    let mut id = None;
    let first = *words.peek()?;
    if first.starts_with(|c: char| c.is_ascii_digit() || c == '@') {
        let head = words.next()?;
        id = head.split('@').next().and_then(|i| i.parse().ok());
    }
    let name = words.next()?.to_owned();
    Some(Kgp {
        id,
        name,
        args: words.map(str::to_owned).collect(),
    })
}

/// `<n,my store,your store,my pits…,your pits…>` → my pits.
pub fn my_pits(board: &str) -> Vec<u32> {
    let values: Vec<u32> = board
        .trim_start_matches('<')
        .trim_end_matches('>')
        .split(',')
        .map(|v| v.parse().expect("a board number"))
        .collect();
    let n = values[0] as usize;
    values[3..3 + n].to_vec()
}

/// Where the bot connects: KGP's TCP port, or a WebSocket URL.
#[derive(Clone, Debug)]
pub enum Transport {
    Tcp(String),
    /// TCP from a loopback source address of its own (`127.0.0.2`: another
    /// client as far as the arbiter can tell).
    TcpFrom(String, &'static str),
    WebSocket(String),
}

/// One open connection of the bot.
pub enum Conn {
    Tcp {
        lines: std::io::Lines<BufReader<TcpStream>>,
        out: TcpStream,
    },
    WebSocket(Box<tungstenite::WebSocket<TcpStream>>),
}

impl Conn {
    /// Connects (retrying while the arbiter starts); a hang guard of two
    /// minutes on each read (nothing is timed).
    pub fn open(to: &Transport) -> Conn {
        if let Transport::TcpFrom(addr, source) = to {
            let stream = super::tcp_from(source, addr);
            stream
                .set_read_timeout(Some(Duration::from_secs(120)))
                .unwrap();
            return Conn::Tcp {
                out: stream.try_clone().unwrap(),
                lines: BufReader::new(stream).lines(),
            };
        }
        let addr = match to {
            Transport::Tcp(addr) | Transport::TcpFrom(addr, _) => addr.clone(),
            Transport::WebSocket(url) => url
                .strip_prefix("ws://")
                .and_then(|rest| rest.split('/').next())
                .expect("a ws:// URL")
                .to_owned(),
        };
        let deadline = Instant::now() + Duration::from_secs(60);
        let stream = loop {
            match TcpStream::connect(&addr) {
                Ok(s) => break s,
                Err(_) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(50))
                }
                Err(e) => panic!("cannot connect to {addr}: {e}"),
            }
        };
        stream
            .set_read_timeout(Some(Duration::from_secs(120)))
            .unwrap();
        match to {
            Transport::Tcp(_) | Transport::TcpFrom(..) => Conn::Tcp {
                out: stream.try_clone().unwrap(),
                lines: BufReader::new(stream).lines(),
            },
            Transport::WebSocket(url) => {
                let (ws, _) = tungstenite::client(url.as_str(), stream).expect("the socket opens");
                Conn::WebSocket(Box::new(ws))
            }
        }
    }

    /// The next line; `None` once the connection ends.
    pub fn recv(&mut self) -> Option<String> {
        match self {
            Conn::Tcp { lines, .. } => lines.next()?.ok(),
            Conn::WebSocket(ws) => loop {
                match ws.read().ok()? {
                    tungstenite::Message::Text(t) => {
                        let line = t.as_str();
                        assert!(!line.contains('\n'), "one line a frame: {line:?}");
                        return Some(line.to_owned());
                    }
                    tungstenite::Message::Close(_) => return None,
                    // Transport pings (answered by the library), not KGP's.
                    _ => {}
                }
            },
        }
    }

    pub fn send(&mut self, line: &str) -> bool {
        match self {
            Conn::Tcp { out, .. } => out.write_all(format!("{line}\r\n").as_bytes()).is_ok(),
            Conn::WebSocket(ws) => ws.send(tungstenite::Message::text(line)).is_ok(),
        }
    }
}

/// Connects to `to`, plays in `style` until `goodbye` or the end of the
/// connection; the lines it got.
pub fn bot(to: Transport, style: Style, token: &str) -> JoinHandle<Vec<String>> {
    bot_named(to, style, token, Some("kgp testbot"))
}

/// [`bot`], its `set info:name` `name` (none: it sends none).
pub fn bot_named(
    to: Transport,
    style: Style,
    token: &str,
    name: Option<&str>,
) -> JoinHandle<Vec<String>> {
    let token = token.to_owned();
    let name = name.map(str::to_owned);
    std::thread::spawn(move || {
        let mut conn = Conn::open(&to);
        let mut next = 1u64;
        // KGP's `<id>@<ref> name`: `text` starts with `@<ref>` or a space.
        // `Doubles` sends each line twice, id and all.
        let twice = style == Style::Doubles;
        let mut send = |conn: &mut Conn, text: &str| {
            let line = format!("{next}{text}");
            next += 2;
            let ok = conn.send(&line);
            ok && (!twice || conn.send(&line))
        };
        let mut seen = Vec::new();
        let mut requests = 0;
        let mut states = std::collections::BTreeSet::new();
        let mut last_board = String::new();
        while let Some(line) = conn.recv() {
            seen.push(line.clone());
            let Some(c) = parse(&line) else { continue };
            let ok = match c.name.as_str() {
                "kgp" => {
                    assert_eq!(c.args.first().map(String::as_str), Some("1"), "major 1");
                    name.as_ref()
                        .is_none_or(|n| send(&mut conn, &format!(" set info:name \"{n}\"")))
                        && send(&mut conn, &format!(" set auth:token \"{token}\""))
                        && send(&mut conn, " mode freeplay")
                }
                "stop" if style == Style::AfterStop => {
                    // KGP's `<id>@<state> stop`: a move for that state, late.
                    let r = line
                        .split_whitespace()
                        .next()
                        .and_then(|h| h.split('@').nth(1));
                    let pits = my_pits(&last_board);
                    let pit = (0..pits.len()).find(|&i| pits[i] > 0).unwrap_or(0);
                    send(
                        &mut conn,
                        &format!("@{} move {}", r.unwrap_or("0"), pit + 1),
                    )
                }
                "ping" => send(&mut conn, &format!("@{} pong", c.id.unwrap_or(0))),
                "state" => {
                    let r = c.id.expect("a state has an id");
                    let first = states.insert(r);
                    if !first && style != Style::LosesFirst {
                        // Sent again: a state it knows is ignored, as KGP's
                        // clients do.
                        continue;
                    }
                    if first && style == Style::LosesFirst {
                        continue;
                    }
                    requests += 1;
                    last_board = c.args[0].clone();
                    let pits = my_pits(&c.args[0]);
                    let full: Vec<usize> = (0..pits.len()).filter(|&i| pits[i] > 0).collect();
                    let empty = (0..pits.len()).find(|&i| pits[i] == 0);
                    match style {
                        Style::Plays => {
                            let a = send(&mut conn, &format!("@{r} move {}", full[0] + 1));
                            let b = send(
                                &mut conn,
                                &format!("@{r} move {}", full[full.len() - 1] + 1),
                            );
                            a && b && (requests % 2 == 1 || send(&mut conn, &format!("@{r} yield")))
                        }
                        Style::Empty => {
                            let pit = empty.unwrap_or(full[0]);
                            send(&mut conn, &format!("@{r} move {}", pit + 1))
                                && send(&mut conn, &format!("@{r} yield"))
                        }
                        Style::Silent | Style::AfterStop => true,
                        Style::Unsent => {
                            let never = r + 1001;
                            send(&mut conn, &format!("@{never} move 1"))
                                && send(&mut conn, &format!("@{never} yield"))
                                && send(&mut conn, &format!("@{r} move {}", full[0] + 1))
                                && send(&mut conn, &format!("@{r} yield"))
                        }
                        Style::Doubles | Style::LosesFirst => {
                            send(&mut conn, &format!("@{r} move {}", full[0] + 1))
                                && send(&mut conn, &format!("@{r} yield"))
                        }
                        Style::FloodPongs => (0..5000).all(|_| send(&mut conn, "@2 pong")),
                    }
                }
                "goodbye" => break,
                _ => true,
            };
            if !ok {
                break;
            }
        }
        seen
    })
}
