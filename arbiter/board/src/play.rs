//! A game over one WebSocket: the page sends `start` and `move` messages, the
//! server answers with the game's state after each change (at most one
//! state per [`STATE_INTERVAL`]: a faster game's states are sent together,
//! as the newest with every move since the last). The server is the
//! authority ([`Table`]); engines run through the same process and session
//! code as `arbiter match`; an engine's `go` is a future the socket's own
//! task polls next to the socket, so that the socket stays answered while an
//! engine thinks (no task, and no thread hand-over, per move). As in a match slot, a page keeps
//! its engines between games ([`Kept`]): `gameover` at a game's end,
//! `newgame` for the next one with the same choice, a new process only for a
//! new choice or after a crash. When the socket closes, its engines are ended.

pub mod refused;

use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use mancala_rules::{start_position, GameId, PositionError, Side};
use serde::{Deserialize, Serialize};
use tokio::time::Instant;

use crate::kept::{EngineKey, Kept};
use crate::play::refused::{EngineError, MoveRefused, StartError};
use crate::socket::{send_text, while_open, Meanwhile};
use crate::state::{AppState, ServeConfig};
use crate::stopping;
use crate::table::{side_name, PlayError, Table, TableView};
use arbiter_core::contender::cap::ConnectionEngines;
use arbiter_core::contender::session::{BestMove, Fault, Session};
use arbiter_core::play::game::{forfeit, gameover_line};
use arbiter_core::play::tc::TimeControl;
use arbiter_core::records::log::{Score, Termination};
use arbiter_net::front::websocket::serve_in_span;

/// Largest message a page may send (a start request with a position string).
const MAX_MESSAGE: usize = 64 * 1024;

/// The least time between two states sent to a page. A state due sooner
/// waits, and whatever else happens meanwhile goes with it: one state, the
/// newest, with every move since the page's last. Only engines answering
/// in under this time a move are affected — their page gets about 60
/// states a second, as many as a screen shows, and would have cut each
/// animation short anyway (a new state ends a running one); a human's move,
/// an engine that thinks longer, an error and the game's end are sent at
/// once. Without it, a server with many fast games spent a third of its
/// time a ply on sending states no one could see (BENCHMARKS.md §9).
pub const STATE_INTERVAL: Duration = Duration::from_millis(16);

/// The time control when the page gives none.
pub const DEFAULT_TC: &str = "60+1";

/// One side as the page asks for it: `human`, or an engine's name.
#[derive(Clone, Debug, Deserialize)]
pub struct SeatRequest {
    pub player: String,
    /// The reference engine's `Level` (any engine that declares `Level`).
    #[serde(default)]
    pub level: Option<u32>,
}

/// A new game.
#[derive(Clone, Debug, Deserialize)]
pub struct StartRequest {
    /// A game id (start position), unless `position` is given.
    #[serde(default)]
    pub game: Option<String>,
    #[serde(default)]
    pub position: Option<String>,
    pub south: SeatRequest,
    pub north: SeatRequest,
    /// cutechess syntax (`60+1`, `40/120`, `st=2`); both sides.
    #[serde(default)]
    pub tc: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ClientMessage {
    Start(StartRequest),
    Move {
        #[serde(rename = "move")]
        mv: String,
    },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ServerMessage<'a> {
    State {
        #[serde(flatten)]
        view: Box<TableView<'a>>,
        seats: [String; 2],
        /// The side whose engine is thinking.
        #[serde(skip_serializing_if = "Option::is_none")]
        thinking: Option<&'static str>,
    },
    Error {
        message: String,
    },
}

enum Seat {
    Human,
    Engine {
        key: EngineKey,
        /// `None` while it thinks (the session is on the thinking task) or
        /// once it has been ended.
        session: Option<Box<Session>>,
    },
}

impl Seat {
    fn label(&self) -> String {
        match self {
            Seat::Human => "human".to_owned(),
            Seat::Engine { key, .. } => key.name.clone(),
        }
    }
}

/// What a thinking task hands back.
struct Thought {
    side: Side,
    session: Box<Session>,
    answer: Result<BestMove, Fault>,
    has_clock: bool,
}

/// An engine's `go` in progress: it owns the session until it answers, and
/// dropping it drops the session, which kills the engine's process group.
type Thinking = Pin<Box<dyn Future<Output = Box<Thought>> + Send>>;

/// A game in progress on this socket.
struct Live {
    table: Table,
    seats: [Seat; 2],
    turn_started: Instant,
    thinking: Option<Thinking>,
    /// The plies the page has been sent.
    seen: usize,
}

impl Live {
    /// When the human to move runs out of time.
    fn human_flag_at(&self) -> Option<Instant> {
        let side = self.table.to_move()?;
        match self.seats[side.index()] {
            Seat::Human => self.table.deadline().map(|d| self.turn_started + d),
            Seat::Engine { .. } => None,
        }
    }

    /// The game's state for the page; `Err`: the position cannot be shown
    /// (a bug: the rules made it).
    fn message(&self) -> Result<ServerMessage<'_>, PositionError> {
        let view = self.table.view(self.seen, self.turn_started.elapsed())?;
        let thinking = self
            .thinking
            .as_ref()
            .and_then(|_| self.table.to_move())
            .map(side_name);
        Ok(ServerMessage::State {
            view: Box::new(view),
            seats: [self.seats[0].label(), self.seats[1].label()],
            thinking,
        })
    }

    /// Starts the engine to move thinking, if one is to move and idle.
    fn think(&mut self, state: &AppState) {
        let Some(side) = self.table.to_move() else {
            return;
        };
        if self.thinking.is_some() {
            return;
        }
        let Seat::Engine { session, .. } = &mut self.seats[side.index()] else {
            return;
        };
        let Some(mut session) = session.take() else {
            return;
        };
        let (position, go) = self.table.engine_request(side);
        let has_clock = self.table.deadline().is_some();
        let wait = self.table.deadline().unwrap_or(state.config.timeouts.stall);
        self.turn_started = Instant::now();
        self.thinking = Some(Box::pin(async move {
            let answer = session.go(&position, &go, Instant::now() + wait).await;
            if matches!(answer, Err(Fault::Timeout { .. })) {
                session.stop().await;
            }
            Box::new(Thought {
                side,
                session,
                answer,
                has_clock,
            })
        }));
    }

    /// Applies an engine's answer.
    async fn take_thought(&mut self, thought: Box<Thought>, state: &AppState) {
        let Thought {
            side,
            session,
            answer,
            has_clock,
        } = *thought;
        let grace = state.config.quit_grace;
        match answer {
            Ok(bm) => {
                let said = (bm.score.map(Score::from), bm.depth);
                match self.table.play(side, &bm.mv, bm.elapsed, Some(said)) {
                    Ok(()) => self.put_back(side, session),
                    Err(e) => {
                        self.table.forfeit(Termination::IllegalMove {
                            side,
                            mv: bm.mv.clone(),
                            detail: e.to_string(),
                        });
                        session.shutdown(grace).await;
                    }
                }
            }
            Err(fault) => {
                tracing::info!(%fault, ?side, "engine forfeits");
                self.table.forfeit(forfeit(side, &fault, has_clock));
                session.shutdown(grace).await;
            }
        }
        self.turn_started = Instant::now();
    }

    fn put_back(&mut self, side: Side, s: Box<Session>) {
        if let Seat::Engine { session, .. } = &mut self.seats[side.index()] {
            *session = Some(s);
        }
    }

    /// Hands this finished game's engines to `kept`, each told `gameover`
    /// (the spec: it follows every game). An engine that broke the protocol
    /// was shut down already and is not among them.
    async fn keep_engines(&mut self, kept: &mut Kept<Box<Session>>) {
        let Some(end) = self.table.ended() else {
            return;
        };
        let line = gameover_line(end.result, &end.termination);
        for seat in &mut self.seats {
            if let Seat::Engine { key, session } = seat {
                if let Some(mut s) = session.take() {
                    // Informational: an engine gone by now is found out (and
                    // restarted) when the next game takes it back.
                    let _ = s.send(&line).await;
                    kept.keep(key.clone(), s);
                }
            }
        }
    }

    /// Ends this game for a new one on the same page: an unfinished game
    /// ends as interrupted and its engines are kept, except one that is
    /// thinking (its session is in the [`Thinking`] future; dropping that
    /// kills the engine).
    async fn retire(mut self, kept: &mut Kept<Box<Session>>) {
        drop(self.thinking.take());
        self.table.forfeit(Termination::Interrupted {
            detail: "the page started a new game".into(),
        });
        self.keep_engines(kept).await;
    }

    /// Ends every engine of this game (a running search is dropped, and with
    /// it its session, which kills the engine's process group).
    async fn close(mut self, grace: Duration) {
        drop(self.thinking.take());
        for seat in self.seats {
            if let Seat::Engine {
                session: Some(s), ..
            } = seat
            {
                s.shutdown(grace).await;
            }
        }
    }
}

/// `GET /ws/play`.
pub async fn socket(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let ws = arbiter_net::front::websocket::upgrade(ws, MAX_MESSAGE);
    if !state.shutdown.is_running() {
        return serve_in_span(ws, stopping::refuse);
    }
    serve_in_span(ws, move |socket| drive(socket, state))
}

enum Event {
    Closed,
    Text(String),
    Thought(Box<Thought>),
    Flag,
    /// A state that waited for [`STATE_INTERVAL`] is due.
    Send,
    /// The server started to drain (the first signal).
    Stopping,
    Other,
}

/// Whether `live` is a game still being played.
fn in_progress(live: &Option<Live>) -> bool {
    live.as_ref().is_some_and(|l| l.table.ended().is_none())
}

async fn next_thought(live: &mut Option<Live>) -> Box<Thought> {
    match live.as_mut().and_then(|l| l.thinking.as_mut()) {
        // why: polled by `&mut`, so that a socket message arriving first
        // leaves the search running for the next turn of the loop.
        Some(thinking) => thinking.await,
        None => std::future::pending().await,
    }
}

async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) if at <= Instant::now() => {}
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

async fn drive(mut socket: WebSocket, state: AppState) {
    let engines = state.engine_cap.for_connection();
    let mut live: Option<Live> = None;
    let mut kept: Kept<Box<Session>> = Kept::default();
    let mut page = Page::default();
    let shutdown = state.shutdown.clone();
    // Whether the page has been told the server is stopping: from then on
    // it starts no game, and its socket closes when its game has ended.
    let mut stopping = false;
    // why for the socket's life: a drain waits for it (it closes at once
    // unless its game is in progress).
    let ticket = state.sockets.open();
    loop {
        let flag_at = live.as_ref().and_then(Live::human_flag_at);
        let event = tokio::select! {
            // why biased, the engine first: its `go` is written when this
            // future is first polled, so that the next engine is asked
            // before the page is sent the state of the move before (serving
            // a page never delays the game).
            biased;
            thought = next_thought(&mut live) => Event::Thought(thought),
            msg = socket.recv() => match msg {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => Event::Closed,
                Some(Ok(Message::Text(text))) => Event::Text(text.to_string()),
                Some(Ok(_)) => Event::Other,
            },
            () = sleep_until(flag_at) => Event::Flag,
            () = sleep_until(page.due) => Event::Send,
            () = shutdown.draining(), if !stopping => Event::Stopping,
        };
        let mut error = None;
        let from_page = matches!(event, Event::Text(_));
        match event {
            Event::Closed => break,
            Event::Other => continue,
            Event::Stopping => {
                stopping = true;
                if !send_text(&mut socket, stopping::notice()).await || !in_progress(&live) {
                    break;
                }
                continue;
            }
            Event::Send => {
                if !page.send(&mut socket, live.as_mut(), None).await {
                    break;
                }
                continue;
            }
            Event::Text(text) => match serde_json::from_str::<ClientMessage>(&text) {
                Err(e) => error = Some(format!("bad message: {e}")),
                Ok(ClientMessage::Start(_)) if stopping => {
                    error = Some(stopping::STOPPING.to_owned());
                }
                Ok(ClientMessage::Start(request)) => {
                    if let Some(old) = live.take() {
                        old.retire(&mut kept).await;
                    }
                    // why watched: engine handshakes can take long
                    // (`--startup-timeout`); a tab closed meanwhile ends its
                    // engines at once.
                    let starting = start(&request, &state, &engines, &mut kept);
                    let busy = "still starting the last game: try again when it has started";
                    match while_open(&mut socket, starting, Meanwhile::Refuse(busy)).await {
                        Some(Ok(game)) => live = Some(game),
                        Some(Err(e)) => error = Some(e.to_string()),
                        None => break,
                    }
                }
                Ok(ClientMessage::Move { mv }) => match live.as_mut() {
                    None => error = Some("no game: start one first".into()),
                    Some(l) => error = human_move(l, &mv).err().map(|e| e.to_string()),
                },
            },
            Event::Thought(thought) => {
                if let Some(l) = live.as_mut() {
                    l.thinking = None;
                    l.take_thought(thought, &state).await;
                }
            }
            Event::Flag => {
                if let Some(l) = live.as_mut() {
                    l.table.flag(l.turn_started.elapsed());
                }
            }
        }
        let mut ended = false;
        if let Some(l) = live.as_mut() {
            if let Some(end) = l.table.ended() {
                ended = true;
                if let Some(side) = end.termination.offender() {
                    if matches!(l.seats[side.index()], Seat::Engine { .. }) {
                        error.get_or_insert_with(|| {
                            format!(
                                "{} ({side}): {}",
                                l.seats[side.index()].label(),
                                end.termination
                            )
                        });
                    }
                }
            } else {
                l.think(&state);
            }
        }
        if error.is_some() || ended {
            // The page hears of these at once.
            if !page.send(&mut socket, live.as_mut(), error).await {
                break;
            }
        } else if from_page {
            // A human's move or a new game: no interval, but the next
            // engine is asked first (the loop's next turn).
            page.due = Some(Instant::now());
        } else {
            page.due_soon(Instant::now());
        }
        // A finished game's engines wait for the page's next game.
        if let Some(l) = live.as_mut() {
            if l.table.ended().is_some() && l.thinking.is_none() {
                l.keep_engines(&mut kept).await;
            }
        }
        if stopping && !in_progress(&live) {
            // why: the drain waited for this game; its last state is out.
            break;
        }
    }
    if let Some(l) = live {
        l.close(state.config.quit_grace).await;
    }
    for s in kept.drain() {
        s.shutdown(state.config.quit_grace).await;
    }
    // why last: the drain ends when the page's engines have.
    drop(ticket);
}

/// What has been sent to the page, and when the next state is due.
#[derive(Default)]
struct Page {
    last_sent: Option<Instant>,
    /// A state waits to be sent at this time.
    due: Option<Instant>,
    /// The size of the largest message so far: the next one's buffer starts
    /// that big instead of growing to it (a state is about 1 KB).
    message_size: usize,
}

impl Page {
    /// The game changed at `now`: its state is due then, or
    /// [`STATE_INTERVAL`] after the last one sent, whichever is later (an
    /// earlier due time stays).
    fn due_soon(&mut self, now: Instant) {
        let at = self
            .last_sent
            .map_or(now, |sent| (sent + STATE_INTERVAL).max(now));
        self.due = Some(self.due.map_or(at, |due| due.min(at)));
    }

    /// Sends `error` (if any), then the game's state (if there is a game).
    /// `false`: the socket is gone.
    async fn send(
        &mut self,
        socket: &mut WebSocket,
        live: Option<&mut Live>,
        error: Option<String>,
    ) -> bool {
        self.due = None;
        if let Some(message) = error {
            if !self
                .send_one(socket, &ServerMessage::Error { message })
                .await
            {
                return false;
            }
        }
        let Some(l) = live else {
            return true;
        };
        let ply = l.table.moves_played();
        let sent = match l.message() {
            Ok(m) => self.send_one(socket, &m).await,
            Err(e) => {
                let message = format!("internal: cannot show the position: {e}");
                self.send_one(socket, &ServerMessage::Error { message })
                    .await
            }
        };
        l.seen = ply;
        self.last_sent = Some(Instant::now());
        sent
    }

    /// `false`: the page is gone ([`send_text`]).
    async fn send_one(&mut self, socket: &mut WebSocket, m: &ServerMessage<'_>) -> bool {
        match to_json(m, &mut self.message_size) {
            Some(text) => send_text(socket, text).await,
            None => true,
        }
    }
}

/// `m` as JSON text, written into a buffer of the largest size so far.
fn to_json(m: &ServerMessage, largest: &mut usize) -> Option<String> {
    let mut buf = Vec::with_capacity(*largest);
    serde_json::to_writer(&mut buf, m).ok()?;
    *largest = (*largest).max(buf.len());
    String::from_utf8(buf).ok()
}

fn human_move(live: &mut Live, text: &str) -> Result<(), MoveRefused> {
    let side = live.table.to_move().ok_or(PlayError::GameOver)?;
    if !matches!(live.seats[side.index()], Seat::Human) {
        return Err(MoveRefused::EngineToMove(side));
    }
    live.table
        .play(side, text.trim(), live.turn_started.elapsed(), None)?;
    live.turn_started = Instant::now();
    Ok(())
}

/// The start position a request names.
pub fn start_of(request: &StartRequest) -> Result<String, StartError> {
    match (&request.position, &request.game) {
        (Some(p), _) if !p.trim().is_empty() => Ok(p.trim().to_owned()),
        (_, Some(g)) => {
            let id: GameId = g.parse().map_err(StartError::Game)?;
            Ok(start_position(id))
        }
        _ => Err(StartError::NoStart),
    }
}

/// The time control a request names (cutechess syntax).
pub fn time_control_of(request: &StartRequest) -> Result<TimeControl, StartError> {
    let text = request.tc.as_deref().unwrap_or(DEFAULT_TC);
    let mut tc: TimeControl = text.parse().map_err(|source| StartError::TimeControl {
        text: text.to_owned(),
        source,
    })?;
    if tc.margin.is_zero() {
        tc.margin = arbiter_core::contender::config::DEFAULT_TIME_MARGIN;
    }
    Ok(tc)
}

/// The engine a side asks for, `None` for a human.
fn engine_key(seat: &SeatRequest) -> Option<EngineKey> {
    (seat.player != "human").then(|| EngineKey {
        name: seat.player.clone(),
        level: seat.level,
    })
}

async fn start(
    request: &StartRequest,
    state: &AppState,
    engines: &ConnectionEngines,
    kept: &mut Kept<Box<Session>>,
) -> Result<Live, StartError> {
    let start = start_of(request)?;
    let tc = time_control_of(request)?;
    let table =
        Table::new(&start, [tc, tc], state.config.max_plies).map_err(StartError::Position)?;
    let requests = [&request.south, &request.north];
    let keys = requests.map(engine_key);
    if tc.is_unlimited() && keys.iter().any(Option::is_some) {
        return Err(StartError::Untimed);
    }
    let grace = state.config.quit_grace;
    // A changed choice ends the old engine, before any new one starts.
    let (mut reused, unused) = kept.assign(&[keys[0].as_ref(), keys[1].as_ref()]);
    for s in unused {
        s.shutdown(grace).await;
    }
    let mut seats = [Seat::Human, Seat::Human];
    for side in Side::BOTH {
        let Some(key) = &keys[side.index()] else {
            continue;
        };
        let again = reused[side.index()].take();
        let seat = requests[side.index()];
        match ready_engine(again, seat, table.game_id(), state, engines).await {
            Ok(s) => {
                seats[side.index()] = Seat::Engine {
                    key: key.clone(),
                    session: Some(s),
                }
            }
            Err(e) => {
                let ready = seats.into_iter().filter_map(|seat| match seat {
                    Seat::Engine { session, .. } => session,
                    Seat::Human => None,
                });
                for s in ready.chain(reused.into_iter().flatten()) {
                    s.shutdown(grace).await;
                }
                return Err(StartError::Engine {
                    side,
                    name: key.name.clone(),
                    source: e,
                });
            }
        }
    }
    Ok(Live {
        table,
        seats,
        turn_started: Instant::now(),
        thinking: None,
        seen: 0,
    })
}

/// The session for one side, started on `game`: the page's kept engine for
/// this choice when it is alive and takes the `newgame` (an engine found
/// gone is restarted once, as a match slot does), else a new one.
async fn ready_engine(
    again: Option<Box<Session>>,
    seat: &SeatRequest,
    game: GameId,
    state: &AppState,
    engines: &ConnectionEngines,
) -> Result<Box<Session>, EngineError> {
    let config = &state.config;
    if let Some(mut s) = again {
        if s.is_alive() && s.plays(game.as_str()) {
            match new_game(&mut s, game, config).await {
                Ok(()) => return Ok(s),
                Err(fault) => {
                    tracing::warn!(engine = %seat.player, %fault, "kept engine failed its newgame; restarting it");
                    if !matches!(fault, Fault::Gone { .. }) {
                        s.shutdown(config.quit_grace).await;
                        return Err(fault.into());
                    }
                }
            }
        }
        s.shutdown(config.quit_grace).await;
    }
    start_engine(seat, game, state, engines).await.map(Box::new)
}

/// `newgame`, then `isready` … `readyok`.
async fn new_game(session: &mut Session, game: GameId, config: &ServeConfig) -> Result<(), Fault> {
    session.send(&format!("newgame {game}")).await?;
    session.ready(config.timeouts.ready).await
}

async fn start_engine(
    seat: &SeatRequest,
    game: GameId,
    state: &AppState,
    engines: &ConnectionEngines,
) -> Result<Session, EngineError> {
    let spec = state.engine(&seat.player).ok_or_else(|| {
        let known: Vec<String> = state.engine_infos().into_iter().map(|e| e.name).collect();
        EngineError::NoSuchEngine {
            known: known.join(", "),
        }
    })?;
    let config = &state.config;
    let slot = engines.take()?;
    let mut session = state.start_session(spec).await?;
    session.hold(slot);
    let mut options = spec.options.clone();
    if let Some(level) = seat.level {
        if session.options.iter().any(|o| o.name().matches("Level")) {
            options.push(("Level".to_owned(), level.to_string()));
        }
    }
    let setup = async {
        if !session.plays(game.as_str()) {
            return Err(EngineError::Game {
                game,
                plays: session.games.join(" "),
            });
        }
        // why: a Level the engine does not declare in its range (a deep
        // link's `level=99`) is refused, not sent as a malformed setoption.
        crate::analyse::check_values(&session.options, &options)?;
        session.set_options(&options).await?;
        Ok(new_game(&mut session, game, config).await?)
    };
    match setup.await {
        Ok(()) => Ok(session),
        Err(e) => {
            session.shutdown(config.quit_grace).await;
            Err(e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(json: &str) -> StartRequest {
        serde_json::from_str(json).expect("request parses")
    }

    #[test]
    fn a_request_names_its_start_and_clock() {
        let r = request(
            r#"{"game":"bosh","south":{"player":"human"},"north":{"player":"reference","level":3},"tc":"40/60+0.5"}"#,
        );
        assert_eq!(start_of(&r).expect("start"), start_position(GameId::Bosh));
        assert_eq!(r.north.level, Some(3));
        let tc = time_control_of(&r).expect("tc");
        assert_eq!(tc.to_string().split_whitespace().next(), Some("40/60+0.5"));
        let r = request(
            r#"{"position":"bosh 4,4,4,4,x,4,4,4,4,4 S 3/1 2","south":{"player":"human"},"north":{"player":"human"}}"#,
        );
        assert_eq!(
            start_of(&r).expect("start"),
            "bosh 4,4,4,4,x,4,4,4,4,4 S 3/1 2"
        );
        assert!(time_control_of(&r).is_ok(), "the default time control");
    }

    #[test]
    fn bad_requests_get_clear_errors() {
        let r =
            request(r#"{"game":"chess","south":{"player":"human"},"north":{"player":"human"}}"#);
        assert!(start_of(&r)
            .expect_err("unknown game")
            .to_string()
            .contains("chess"));
        let r = request(
            r#"{"game":"bosh","south":{"player":"human"},"north":{"player":"human"},"tc":"soon"}"#,
        );
        assert!(time_control_of(&r)
            .expect_err("bad tc")
            .to_string()
            .contains("soon"));
        assert!(serde_json::from_str::<ClientMessage>(r#"{"type":"run","cmd":"rm"}"#).is_err());
    }

    #[test]
    fn states_come_at_once_but_no_closer_than_the_interval() {
        let t0 = Instant::now();
        let ms = |n| t0 + Duration::from_millis(n);
        let mut page = Page::default();
        page.due_soon(t0);
        assert_eq!(page.due, Some(t0), "the first state goes at once");
        page.due = None;
        page.last_sent = Some(t0);
        page.due_soon(ms(3));
        assert_eq!(page.due, Some(t0 + STATE_INTERVAL), "3 ms later it waits");
        page.due_soon(ms(9));
        assert_eq!(
            page.due,
            Some(t0 + STATE_INTERVAL),
            "a later change goes with it"
        );
        page.due = None;
        page.due_soon(ms(100));
        assert_eq!(page.due, Some(ms(100)), "a slow game's states go at once");
    }
}
