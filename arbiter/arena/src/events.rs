//! Scheduled events (`arena event add`, docs/arena.md "Events"): a round
//! robin or Swiss among the players connected to a pool at a set time. The
//! rows in the database ([`add`], [`list`], [`start`], [`finish`], …); the
//! event's games are played by the server ([`crate::server`]) as
//! [`plan::Plan`] gives them — the tournament's own schedule and pairing
//! ([`arbiter_core::event`]) — and their standings are `arbiter merge`'s of
//! the event's records ([`standings`]).

pub mod plan;

use std::fmt;
use std::str::FromStr;

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use crate::db::DbError;
use arbiter_core::event::schedule::Format;

/// The formats an arena event may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventFormat {
    RoundRobin,
    Swiss,
}

impl EventFormat {
    /// The tournament's format.
    pub fn format(self) -> Format {
        match self {
            EventFormat::RoundRobin => Format::RoundRobin,
            EventFormat::Swiss => Format::Swiss,
        }
    }
}

impl FromStr for EventFormat {
    type Err = FormatError;

    fn from_str(s: &str) -> Result<EventFormat, FormatError> {
        match s.parse::<Format>() {
            Ok(Format::RoundRobin) => Ok(EventFormat::RoundRobin),
            Ok(Format::Swiss) => Ok(EventFormat::Swiss),
            Ok(other) => Err(FormatError::NotAnEvent(other)),
            Err(_) => Err(FormatError::Unknown(s.to_owned())),
        }
    }
}

/// Why a format is not an arena event's (`--format`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// A tournament's format that an event does not play.
    #[error("{0}: an arena event is a round robin (roundrobin) or a Swiss (swiss)")]
    NotAnEvent(Format),
    #[error(
        "unknown format {0:?}: an arena event is a round robin (roundrobin) or a Swiss (swiss)"
    )]
    Unknown(String),
}

impl fmt::Display for EventFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.format().fmt(f)
    }
}

/// Where an event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EventState {
    /// Waiting for its time.
    Scheduled,
    /// Its players are fixed; its games are being played.
    Playing,
    /// Every game played.
    Finished,
    /// It could not be played (fewer than two players, no such pool); the
    /// note says why.
    Cancelled,
}

impl EventState {
    fn of(text: &str) -> EventState {
        match text {
            "playing" => EventState::Playing,
            "finished" => EventState::Finished,
            "cancelled" => EventState::Cancelled,
            _ => EventState::Scheduled,
        }
    }

    /// As stored (and in the JSON).
    pub fn as_str(self) -> &'static str {
        match self {
            EventState::Scheduled => "scheduled",
            EventState::Playing => "playing",
            EventState::Finished => "finished",
            EventState::Cancelled => "cancelled",
        }
    }
}

impl fmt::Display for EventState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An event as stored.
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    pub id: i64,
    pub pool: String,
    pub format: EventFormat,
    /// As asked.
    pub rounds: u32,
    /// The rounds it plays (fewer than asked for a Swiss of a small field),
    /// once started.
    pub played_rounds: Option<u32>,
    /// When it starts (RFC 3339, UTC).
    pub at: String,
    pub created: String,
    pub state: EventState,
    /// Its players in seat order, once started.
    pub players: Vec<String>,
    pub started: Option<String>,
    pub ended: Option<String>,
    /// Why it was cancelled, or what changed from what was asked.
    pub note: Option<String>,
}

/// A new event.
#[derive(Clone, Debug)]
pub struct NewEvent {
    pub pool: String,
    pub format: EventFormat,
    pub rounds: u32,
    /// RFC 3339 in UTC ([`parse_at`]).
    pub at: String,
}

/// `--at`: `now`, or an RFC 3339 time not in the past; as RFC 3339 in UTC
/// to the second (the form stored and compared as text).
pub fn parse_at(text: &str, now: time::OffsetDateTime) -> Result<String, AtError> {
    use time::format_description::well_known::Rfc3339;
    let at = if text == "now" {
        now
    } else {
        let at =
            time::OffsetDateTime::parse(text, &Rfc3339).map_err(|source| AtError::NotATime {
                text: text.to_owned(),
                source,
            })?;
        // why a second's slack: `--at` copied from `date` a moment ago.
        if at < now - time::Duration::seconds(1) {
            return Err(AtError::Past {
                text: text.to_owned(),
                now: stamp(now),
            });
        }
        at
    };
    Ok(stamp(at))
}

/// Why `--at` is refused ([`parse_at`]).
#[derive(Debug, thiserror::Error)]
pub enum AtError {
    #[error(
        "--at {text:?}: not an RFC 3339 time ({source}); give e.g. 2026-12-04T18:00:00Z, \
         2026-12-04T19:00:00+01:00 or now"
    )]
    NotATime {
        text: String,
        source: time::error::Parse,
    },
    #[error("--at {text}: that is in the past (it is {now} now); give a time to come, or now")]
    Past { text: String, now: String },
}

/// [`parse_at`] against the clock.
pub fn parse_at_now(text: &str) -> Result<String, AtError> {
    parse_at(text, time::OffsetDateTime::now_utc())
}

/// A time as stored: RFC 3339 in UTC, to the second.
fn stamp(t: time::OffsetDateTime) -> String {
    let t = t.to_offset(time::UtcOffset::UTC);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        t.year(),
        u8::from(t.month()),
        t.day(),
        t.hour(),
        t.minute(),
        t.second()
    )
}

/// Adds an event; returns its id.
pub fn add(conn: &Connection, event: &NewEvent) -> Result<i64, DbError> {
    conn.execute(
        "INSERT INTO events (pool, format, rounds, at, created, state) \
         VALUES (?1, ?2, ?3, ?4, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), 'scheduled')",
        params![event.pool, event.format.to_string(), event.rounds, event.at],
    )?;
    Ok(conn.last_insert_rowid())
}

const COLUMNS: &str = "id, pool, format, rounds, played_rounds, at, created, state, players, \
                       started, ended, note";

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Event> {
    let format: String = r.get(2)?;
    let players: Option<String> = r.get(8)?;
    Ok(Event {
        id: r.get(0)?,
        pool: r.get(1)?,
        // why a default: the table's CHECK allows only these two.
        format: format.parse().unwrap_or(EventFormat::RoundRobin),
        rounds: r.get(3)?,
        played_rounds: r.get(4)?,
        at: r.get(5)?,
        created: r.get(6)?,
        state: EventState::of(&r.get::<_, String>(7)?),
        players: players
            .and_then(|p| serde_json::from_str(&p).ok())
            .unwrap_or_default(),
        started: r.get(9)?,
        ended: r.get(10)?,
        note: r.get(11)?,
    })
}

/// Every event, newest first.
pub fn list(conn: &Connection) -> Result<Vec<Event>, DbError> {
    let mut stmt = conn.prepare(&format!("SELECT {COLUMNS} FROM events ORDER BY id DESC"))?;
    let rows = stmt.query_map([], row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Event `id`, if there is one.
pub fn get(conn: &Connection, id: i64) -> Result<Option<Event>, DbError> {
    let mut stmt = conn.prepare(&format!("SELECT {COLUMNS} FROM events WHERE id = ?1"))?;
    Ok(stmt.query_row([id], row).optional()?)
}

/// The events in `state`, oldest first; for `Scheduled`, only those due now.
pub fn in_state(conn: &Connection, state: EventState) -> Result<Vec<Event>, DbError> {
    let due = match state {
        EventState::Scheduled => "AND at <= strftime('%Y-%m-%dT%H:%M:%SZ', 'now')",
        _ => "",
    };
    let mut stmt = conn.prepare(&format!(
        "SELECT {COLUMNS} FROM events WHERE state = ?1 {due} ORDER BY at, id"
    ))?;
    let rows = stmt.query_map([state.as_str()], row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Starts a scheduled event with `players` (in seat order) and the rounds
/// it plays; `note` says what changed from what was asked.
pub fn start(
    conn: &Connection,
    id: i64,
    players: &[String],
    rounds: u32,
    note: Option<&str>,
) -> Result<(), DbError> {
    let players = serde_json::to_string(players).map_err(|e| DbError::Refused(e.to_string()))?;
    let n = conn.execute(
        "UPDATE events SET state = 'playing', players = ?2, played_rounds = ?3, note = ?4, \
         started = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1 AND state = 'scheduled'",
        params![id, players, rounds, note],
    )?;
    if n != 1 {
        return Err(DbError::Refused(format!(
            "event {id} is not waiting to start"
        )));
    }
    Ok(())
}

/// Cancels a scheduled event, saying why.
pub fn cancel(conn: &Connection, id: i64, why: &str) -> Result<(), DbError> {
    conn.execute(
        "UPDATE events SET state = 'cancelled', note = ?2, \
         ended = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1 AND state = 'scheduled'",
        params![id, why],
    )?;
    Ok(())
}

/// Cancels a scheduled or playing event by the organiser's command (`arena
/// event cancel`): its finished games stay (rated, marked with it), its
/// games in progress finish, no other starts. Returns the state it had.
pub fn withdraw(conn: &Connection, id: i64) -> Result<EventState, DbError> {
    let Some(event) = get(conn, id)? else {
        return Err(DbError::Refused(format!("no event {id}")));
    };
    if !matches!(event.state, EventState::Scheduled | EventState::Playing) {
        return Err(DbError::Refused(format!(
            "event {id} is {} already: only a scheduled or playing event can be cancelled",
            event.state
        )));
    }
    conn.execute(
        "UPDATE events SET state = 'cancelled', note = 'cancelled by the organiser', \
         ended = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1 AND state = ?2",
        params![id, event.state.as_str()],
    )?;
    Ok(event.state)
}

/// Marks a playing event finished (`note`: how, when it ended early).
pub fn finish(conn: &Connection, id: i64, note: Option<&str>) -> Result<(), DbError> {
    conn.execute(
        "UPDATE events SET state = 'finished', note = coalesce(?2, note), \
         ended = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = ?1 AND state = 'playing'",
        params![id, note],
    )?;
    Ok(())
}

/// The records (JSON lines) of event `id`'s finished games, oldest first.
pub fn records(conn: &Connection, id: i64) -> Result<Vec<String>, DbError> {
    let mut stmt = conn
        .prepare("SELECT record FROM games WHERE event = ?1 AND state = 'finished' ORDER BY id")?;
    let rows = stmt.query_map([id], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Each event's standings for the pages ([`Standings::of`]): its games are
/// merged as they finish (a watching merger: a game costs microseconds),
/// and the report — whose rating fit of 200 players takes 0.4 s — is
/// worked out again only when games came in and at most once per ten times
/// its own cost, so that a page polled by many during an event of 40,000
/// games costs a bounded share of a core (BENCHMARKS.md, "An arena event at
/// a term's scale"). An event that is over is always answered exactly.
#[derive(Default)]
pub struct Standings(std::sync::Mutex<std::collections::BTreeMap<i64, Kept>>);

/// One event's merge so far, and its last report.
struct Kept {
    merger: arbiter_core::event::merge::Merger,
    /// The games merged. why ids, not the newest id: games end in any
    /// order, so one with a lower id may finish after a higher one.
    merged: std::collections::BTreeSet<i64>,
    added: usize,
    /// The report, the games merged when it was made, when, and its cost.
    report: Option<(arbiter_core::stats::json::Report, usize)>,
    at: std::time::Instant,
    took: std::time::Duration,
}

/// The least time between two reports of an event while games come in.
const REPORT_SPACING: std::time::Duration = std::time::Duration::from_millis(500);

impl Standings {
    /// Event `id`'s standings, as [`standings`] gives them for the games
    /// merged when they were last worked out (`over`: the event has ended,
    /// so every game is counted).
    pub fn of(
        &self,
        conn: &Connection,
        id: i64,
        over: bool,
    ) -> Result<arbiter_core::stats::json::Report, DbError> {
        let mut all = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let kept = all.entry(id).or_insert_with(|| Kept {
            merger: arbiter_core::event::merge::Merger::watching(),
            merged: std::collections::BTreeSet::new(),
            added: 0,
            report: None,
            at: std::time::Instant::now(),
            took: std::time::Duration::ZERO,
        });
        let mut ids = conn
            .prepare("SELECT id FROM games WHERE event = ?1 AND state = 'finished' ORDER BY id")?;
        let new: Vec<i64> = ids
            .query_map([id], |r| r.get(0))?
            .collect::<Result<Vec<i64>, _>>()?
            .into_iter()
            .filter(|g| !kept.merged.contains(g))
            .collect();
        let mut record = conn.prepare("SELECT record FROM games WHERE id = ?1")?;
        for game in new {
            let line: String = record.query_row([game], |r| r.get(0))?;
            let log = arbiter_core::records::jsonl::parse_line(&line)
                .map_err(|e| DbError::Refused(format!("stored game {game}: {e}")))?;
            let origin = arbiter_core::event::place::Origin {
                file: 0,
                index: kept.added,
            };
            kept.merger.add(origin, std::path::Path::new("arena"), log);
            kept.merged.insert(game);
            kept.added += 1;
        }
        let stale = match &kept.report {
            None => true,
            Some((_, merged)) => {
                *merged != kept.added
                    && (over || kept.at.elapsed() >= REPORT_SPACING.max(kept.took * 10))
            }
        };
        if stale {
            let t0 = std::time::Instant::now();
            let report = match kept.merger.look() {
                Some(Ok(look)) => look.report(),
                Some(Err(e)) => return Err(DbError::Refused(e.to_string())),
                None => {
                    return Err(DbError::Refused(
                        "internal: a merger that does not watch".into(),
                    ))
                }
            };
            kept.report = Some((report, kept.added));
            kept.at = std::time::Instant::now();
            kept.took = t0.elapsed();
        }
        match &kept.report {
            Some((report, _)) => Ok(report.clone()),
            None => Err(DbError::Refused("internal: no report made".into())),
        }
    }
}

/// Event `id`'s standings: the object `arbiter merge --json` prints for an
/// export of its games (the same code: the merge of the records).
pub fn standings(records: &[String]) -> Result<arbiter_core::stats::json::Report, DbError> {
    let mut merger = arbiter_core::event::merge::Merger::default();
    let path = std::path::Path::new("arena");
    for (index, line) in records.iter().enumerate() {
        let game = arbiter_core::records::jsonl::parse_line(line)
            .map_err(|e| DbError::Refused(format!("stored game #{}: {e}", index + 1)))?;
        merger.add(
            arbiter_core::event::place::Origin { file: 0, index },
            path,
            game,
        );
    }
    let merged = merger
        .finish()
        .map_err(|e| DbError::Refused(e.to_string()))?;
    Ok(merged.report())
}

/// The players of an event from those connected at its start: one seat
/// per bot, its newest version (a bot connected with two builds, as while
/// a new one takes over, plays the event once, with the build its author
/// connected last). In the order of `connected`.
pub fn one_seat_per_bot(connected: Vec<String>) -> Vec<String> {
    use crate::versions::split;
    let mut newest: std::collections::BTreeMap<&str, u32> = std::collections::BTreeMap::new();
    for p in &connected {
        let (bot, n) = split(p);
        let m = newest.entry(bot).or_insert(n);
        *m = (*m).max(n);
    }
    let keep: Vec<bool> = connected
        .iter()
        .map(|p| {
            let (bot, n) = split(p);
            newest.get(bot) == Some(&n)
        })
        .collect();
    connected
        .into_iter()
        .zip(keep)
        .filter_map(|(p, k)| k.then_some(p))
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn an_event_seats_each_bot_once_with_its_newest_version() {
        let connected = ["alice", "alice/3", "bob/2", "alice/2", "carol"].map(String::from);
        assert_eq!(
            super::one_seat_per_bot(connected.to_vec()),
            ["alice/3", "bob/2", "carol"]
        );
    }

    use super::*;

    fn now() -> time::OffsetDateTime {
        time::OffsetDateTime::parse(
            "2026-12-04T18:00:00Z",
            &time::format_description::well_known::Rfc3339,
        )
        .unwrap()
    }

    #[test]
    fn at_is_now_or_a_time_to_come_in_utc() {
        assert_eq!(parse_at("now", now()).unwrap(), "2026-12-04T18:00:00Z");
        assert_eq!(
            parse_at("2026-12-04T20:30:00+01:00", now()).unwrap(),
            "2026-12-04T19:30:00Z"
        );
        assert_eq!(
            parse_at("2027-01-01T00:00:00.75Z", now()).unwrap(),
            "2027-01-01T00:00:00Z"
        );
        let past = parse_at("2026-12-04T17:00:00Z", now())
            .unwrap_err()
            .to_string();
        assert!(
            past.contains("in the past") && past.contains("2026-12-04T18:00:00Z"),
            "{past}"
        );
        for bad in ["tomorrow", "2026-12-04 18:00", "2026-12-04", ""] {
            let e = parse_at(bad, now()).unwrap_err().to_string();
            assert!(e.contains("not an RFC 3339 time"), "{bad}: {e}");
        }
    }

    #[test]
    fn the_standings_kept_up_are_the_merge_of_the_event_s_games() {
        let dir = arbiter_core::testing::test_dir("arena-events-standings");
        let mut conn = crate::db::open(&dir.join("a.sqlite")).unwrap();
        let id = add(
            &conn,
            &NewEvent {
                pool: "bohn".into(),
                format: EventFormat::RoundRobin,
                rounds: 1,
                at: "2000-01-01T00:00:00Z".into(),
            },
        )
        .unwrap();
        let event = Event {
            players: vec!["a".into(), "b".into(), "c".into()],
            played_rounds: Some(1),
            state: EventState::Playing,
            ..get(&conn, id).unwrap().unwrap()
        };
        let pool = crate::pools::parse(
            r#"[{"name": "bohn", "game": "bohnenspiel", "each": "depth=1"}]"#,
            std::path::Path::new("."),
        )
        .unwrap()
        .remove(0);
        let plan = plan::Plan::new(&event, 0, &pool, &[]).unwrap();
        let plan::Open::Jobs(jobs) = plan.open().unwrap() else {
            panic!("games to play")
        };
        let kept = Standings::default();
        let mut records = Vec::new();
        let mut ids = Vec::new();
        for j in &jobs {
            let (south, north) = (&event.players[j.job.south], &event.players[j.job.north]);
            ids.push(
                crate::store::begin(
                    &conn,
                    &crate::store::NewGame {
                        pool: "bohn",
                        south,
                        north,
                        pair: j.job.pair as u64,
                        leg: j.leg,
                        event: Some((id, j.job.index)),
                    },
                )
                .unwrap(),
            );
        }
        // The games end newest first: each one's id is lower than those
        // already counted.
        for (k, j) in jobs.iter().enumerate().rev() {
            let (south, north) = (&event.players[j.job.south], &event.players[j.job.north]);
            let game = ids[k];
            let mut log = crate::store::tests::log(south, north);
            log.result = Some(if k % 2 == 0 {
                mancala_rules::GameResult::SouthWins
            } else {
                mancala_rules::GameResult::Draw
            });
            plan.tag(&mut log, &j.job);
            crate::store::finish(&mut conn, game, &log).unwrap();
            records.push(arbiter_core::records::jsonl::to_line(&log));
            // The first look, and any once the event is over, is exact.
            let first = k + 1 == jobs.len();
            if first || k == 0 {
                let shown = kept.of(&conn, id, !first).unwrap();
                let want = standings(&records).unwrap();
                assert_eq!(shown, want, "after {} game(s)", records.len());
            }
        }
        records.reverse();
        assert_eq!(records, super::records(&conn, id).unwrap());
        let json = serde_json::to_value(kept.of(&conn, id, true).unwrap()).unwrap();
        assert_eq!(json["games"], 6, "{json}");
    }

    #[test]
    fn only_round_robin_and_swiss_are_events() {
        assert_eq!("roundrobin".parse(), Ok(EventFormat::RoundRobin));
        assert_eq!("round-robin".parse(), Ok(EventFormat::RoundRobin));
        assert_eq!("swiss".parse(), Ok(EventFormat::Swiss));
        assert!("knockout"
            .parse::<EventFormat>()
            .unwrap_err()
            .to_string()
            .contains("round robin"));
        assert!("league"
            .parse::<EventFormat>()
            .unwrap_err()
            .to_string()
            .contains("unknown format"));
        assert_eq!(EventFormat::RoundRobin.to_string(), "round-robin");
    }

    #[test]
    fn an_event_is_added_started_and_finished_or_cancelled() {
        let dir = arbiter_core::testing::test_dir("arena-events");
        let conn = crate::db::open(&dir.join("a.sqlite")).unwrap();
        let new = |pool: &str| NewEvent {
            pool: pool.into(),
            format: EventFormat::Swiss,
            rounds: 3,
            at: "2000-01-01T00:00:00Z".into(),
        };
        let a = add(&conn, &new("bohn")).unwrap();
        let b = add(&conn, &new("kalah")).unwrap();
        let due = in_state(&conn, EventState::Scheduled).unwrap();
        assert_eq!(due.iter().map(|e| e.id).collect::<Vec<_>>(), [a, b]);
        start(&conn, a, &["x".into(), "y/2".into()], 1, Some("one round")).unwrap();
        assert!(start(&conn, a, &[], 1, None).is_err());
        cancel(&conn, b, "one bot").unwrap();
        let e = get(&conn, a).unwrap().unwrap();
        assert_eq!(e.state, EventState::Playing);
        assert_eq!(e.players, ["x", "y/2"]);
        assert_eq!((e.rounds, e.played_rounds), (3, Some(1)));
        finish(&conn, a, None).unwrap();
        let e = get(&conn, a).unwrap().unwrap();
        assert_eq!(e.state, EventState::Finished);
        assert_eq!(e.note.as_deref(), Some("one round"));
        assert!(e.ended.is_some());
        let c = get(&conn, b).unwrap().unwrap();
        assert_eq!(
            (c.state, c.note.as_deref()),
            (EventState::Cancelled, Some("one bot"))
        );
        // The organiser withdraws one playing and one scheduled; not twice.
        let d = add(&conn, &new("bohn")).unwrap();
        start(&conn, d, &["x".into(), "y".into()], 1, None).unwrap();
        assert_eq!(withdraw(&conn, d).unwrap(), EventState::Playing);
        let e = add(&conn, &new("bohn")).unwrap();
        assert_eq!(withdraw(&conn, e).unwrap(), EventState::Scheduled);
        let again = withdraw(&conn, d).unwrap_err().to_string();
        assert!(again.contains("cancelled already"), "{again}");
        assert!(withdraw(&conn, a)
            .unwrap_err()
            .to_string()
            .contains("finished already"));
        assert!(withdraw(&conn, 99)
            .unwrap_err()
            .to_string()
            .contains("no event 99"));
        let d = get(&conn, d).unwrap().unwrap();
        assert_eq!(d.note.as_deref(), Some("cancelled by the organiser"));
        assert_eq!(d.players, ["x", "y"], "its players stay");
        assert!(get(&conn, 99).unwrap().is_none());
        assert_eq!(list(&conn).unwrap().len(), 4);
    }
}
