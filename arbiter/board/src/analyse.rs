//! The analysis board. Two parts:
//! - stateless position answers (`/api/position`, `/api/export`): a start
//!   position and moves in, the board, legal moves and result out, or the
//!   game as a PGN-like log — the page keeps the move list (back, forward,
//!   take-back) and the server's rules say what each list means;
//! - one engine per WebSocket (`/ws/analyse`) under `go infinite`: its
//!   option declarations (for the options dialog), its info lines as they
//!   come (MultiPV lines keyed by `multipv`), `stop`. The position is checked
//!   with the rules before the engine sees it.

use std::time::Duration;

use axum::extract::ws::{Message as WsMessage, WebSocket, WebSocketUpgrade};
use axum::extract::{Query, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use mancala_rules::{game_from_position, AnyGame, GameResult, MoveError, PositionError};
use serde::{Deserialize, Serialize};
use tokio::time::Instant;
use umi::{Bound, Message, OptionDecl, OptionKind};

use crate::board::{move_hole, view, BoardView};
use crate::socket::{send_text, while_open, Meanwhile};
use crate::state::AppState;
use crate::table::{side_name, LastTrace, LegalMove};
use arbiter_core::contender::cap::{CapReached, ConnectionEngines};
use arbiter_core::contender::session::{Fault, Session};
use arbiter_core::play::game::position_command;
use arbiter_core::records::log::{GameLog, MoveRecord, Score, Termination};
use arbiter_net::front::websocket::serve_in_span;

/// A start position and moves, as the page sends them.
#[derive(Clone, Debug, Deserialize)]
pub struct Line {
    pub position: String,
    /// Moves in notation, separated by spaces.
    #[serde(default)]
    pub moves: String,
}

/// Why a line (a position and moves) cannot be analysed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("position: {0}")]
    Position(#[source] PositionError),
    /// Move `n` (from 1), `mv`, is not legal there.
    #[error("move {n} ({mv}): {source}")]
    Move {
        n: usize,
        mv: String,
        source: MoveError,
    },
    /// A position of the line cannot be laid out.
    #[error(transparent)]
    Board(PositionError),
}

impl Line {
    fn move_list(&self) -> Vec<String> {
        self.moves.split_whitespace().map(str::to_owned).collect()
    }

    /// The game after the moves, every move checked by the rules.
    pub fn replay(&self) -> Result<Box<dyn AnyGame>, LineError> {
        self.replay_traced().map(|r| r.game)
    }

    /// [`Line::replay`], with who made each move and the steps of the last
    /// move (the page animates it when it shows that move).
    pub fn replay_traced(&self) -> Result<Replayed, LineError> {
        let mut game = game_from_position(self.position.trim()).map_err(LineError::Position)?;
        let moves = self.move_list();
        let mut trace = None;
        let mut movers = Vec::with_capacity(moves.len());
        for (i, mv) in moves.iter().enumerate() {
            let before = (i + 1 == moves.len()).then(|| game.position_string());
            movers.push(side_name(game.side_to_move()));
            let (_, steps) = game.play_traced(mv).map_err(|source| LineError::Move {
                n: i + 1,
                mv: mv.clone(),
                source,
            })?;
            trace = before.map(|before| LastTrace { before, steps });
        }
        Ok(Replayed {
            game,
            movers,
            trace,
        })
    }
}

/// A line played out by the rules ([`Line::replay_traced`]).
pub struct Replayed {
    pub game: Box<dyn AnyGame>,
    /// Each move's mover, as the rules say (a Kalah extra turn is the same
    /// side twice).
    pub movers: Vec<&'static str>,
    /// The last move's steps (none without moves).
    pub trace: Option<LastTrace>,
}

/// The answer to `/api/position`.
#[derive(Clone, Debug, Serialize)]
pub struct PositionAnswer {
    pub board: BoardView,
    /// The canonical start position.
    pub start: String,
    pub moves: Vec<String>,
    /// Who made each of `moves` (`south` / `north`): the page numbers its
    /// move list by it, as the PGN log does.
    pub movers: Vec<&'static str>,
    pub legal: Vec<LegalMove>,
    /// `ongoing` or the result.
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The end in words, with the final totals ([`crate::ending`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<String>,
    /// The last move's steps, from the rules library (none without moves).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trace: Option<LastTrace>,
    /// The endgame database's exact value, when the server has one
    /// (`arbiter serve --tb DIR`) and the position is in it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<TablebaseView>,
}

/// What the endgame database says about a position, for the analysis page.
#[derive(Clone, Debug, Serialize)]
pub struct TablebaseView {
    /// The mover's net future gain under best play (exact, not an engine score).
    pub value: i32,
    /// Every move that keeps the value.
    pub moves: Vec<String>,
    /// Final totals under best play, South first.
    pub scores: [u32; 2],
    pub result: String,
    /// `false` for a board whose value depends on endless play (the cycle
    /// ruling's value, within `bounds`).
    pub exact: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bounds: Option<(i8, i8)>,
}

fn tablebase_view(tb: &mancala_tablebase::Tablebase, position: &str) -> Option<TablebaseView> {
    let probe = tb
        .probe_str(position)
        .map_err(|e| tracing::warn!("tablebase: {e}"))
        .ok()??;
    Some(TablebaseView {
        value: probe.value,
        moves: probe.moves.iter().map(ToString::to_string).collect(),
        scores: probe.scores,
        result: probe.result().as_pgn().to_owned(),
        exact: probe.cycle.is_none(),
        bounds: probe.cycle,
    })
}

pub fn answer(line: &Line) -> Result<PositionAnswer, LineError> {
    answer_with(line, None)
}

/// [`answer`], with the database's value of the position when it has one.
pub fn answer_with(
    line: &Line,
    tablebase: Option<&mancala_tablebase::Tablebase>,
) -> Result<PositionAnswer, LineError> {
    let Replayed {
        game,
        movers,
        trace,
    } = line.replay_traced()?;
    let outcome = game.outcome();
    let position = game.position_string();
    let board = view(&position).map_err(LineError::Board)?;
    let ending = outcome.map(|o| {
        crate::ending::in_words(o.result, &Termination::rules(o.reason), o.scores, &board)
    });
    Ok(PositionAnswer {
        tablebase: tablebase.and_then(|tb| tablebase_view(tb, &position)),
        board,
        ending,
        start: game.start_string(),
        moves: game.moves(),
        movers,
        legal: LegalMove::list(game.as_ref()),
        status: outcome.map_or_else(|| "ongoing".to_owned(), |o| o.result.as_pgn().to_owned()),
        reason: outcome.map(|o| o.reason.to_string()),
        trace,
    })
}

/// `GET /api/position?position=…&moves=…`.
pub async fn position(State(state): State<AppState>, Query(line): Query<Line>) -> Response {
    match answer_with(&line, state.config.tablebase.as_deref()) {
        Ok(a) => Json(a).into_response(),
        Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()).into_response(),
    }
}

/// The analysed line as a game log (result `*` while it is not over).
pub fn export_log(line: &Line) -> Result<GameLog, LineError> {
    let game = line.replay()?;
    let outcome = game.outcome();
    let result: Option<GameResult> = outcome.map(|o| o.result);
    Ok(GameLog {
        event: "analysis".into(),
        site: "arbiter serve".into(),
        date: arbiter_core::records::output::pgn_date(),
        round: "-".into(),
        game: game.game_id().to_string(),
        start_position: game.start_string(),
        south: "?".into(),
        north: "?".into(),
        result,
        termination: match outcome {
            Some(o) => Termination::rules(o.reason),
            None => Termination::Interrupted {
                detail: "analysis board: not finished".into(),
            },
        },
        time_control: "-".into(),
        moves: game
            .moves()
            .into_iter()
            .map(|m| MoveRecord::new(m, 0))
            .collect(),
        scores: outcome.and_then(|o| o.scores),
        partie: None,
        tags: Default::default(),
    })
}

/// `GET /api/export?position=…&moves=…`: the line as a PGN-like log.
pub async fn export(Query(line): Query<Line>) -> Response {
    match export_log(&line) {
        Ok(log) => (
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            arbiter_core::records::pgn::write_game(&log),
        )
            .into_response(),
        Err(e) => (StatusCode::UNPROCESSABLE_ENTITY, e.to_string()).into_response(),
    }
}

// ------------------------------------------------------------------ engine

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ClientMessage {
    /// Start (or switch to) an engine; the answer lists its options.
    Engine {
        engine: String,
    },
    /// Analyse a line with `go infinite`.
    Go {
        #[serde(flatten)]
        line: Line,
        /// `setoption` pairs, each a declared option of the engine.
        #[serde(default)]
        options: Vec<(String, String)>,
        /// The engine chosen; started again here when it has stopped (it
        /// crashed, or broke the protocol) since it was chosen.
        #[serde(default)]
        engine: Option<String>,
    },
    Stop,
}

/// One engine option, for the options dialog.
#[derive(Clone, Debug, Serialize)]
pub struct OptionView {
    pub name: String,
    /// `check`, `spin`, `combo`, `button` or `string`.
    pub kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<i64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub vars: Vec<String>,
}

pub fn option_view(decl: &OptionDecl) -> OptionView {
    let mut v = OptionView {
        name: decl.name().as_str().to_owned(),
        kind: "button",
        default: None,
        min: None,
        max: None,
        vars: Vec::new(),
    };
    match decl.kind() {
        OptionKind::Check { default } => {
            v.kind = "check";
            v.default = Some(default.to_string());
        }
        OptionKind::Spin { default, min, max } => {
            v.kind = "spin";
            v.default = Some(default.to_string());
            v.min = Some(*min);
            v.max = Some(*max);
        }
        OptionKind::Combo { default, vars } => {
            v.kind = "combo";
            v.default = Some(default.to_string());
            v.vars = vars.iter().map(ToString::to_string).collect();
        }
        OptionKind::Button => {}
        OptionKind::String { default } => {
            v.kind = "string";
            v.default = Some(default.option_str().to_owned());
        }
    }
    v
}

/// Why a chosen option value is refused (it is not sent to the engine).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("option {name}: {n} is outside {min}..{max}")]
    OutOfRange {
        name: String,
        n: i64,
        min: i64,
        max: i64,
    },
    #[error("option {name}: {value:?} is not a whole number")]
    NotWhole { name: String, value: String },
    #[error("option {name}: {value:?} is not true or false")]
    NotCheck { name: String, value: String },
    /// `vars`: the combo's values, comma-separated.
    #[error("option {name}: {value:?} is not one of {vars}")]
    NotAVar {
        name: String,
        value: String,
        vars: String,
    },
    #[error("option {0} is a button: it takes no value")]
    Button(String),
    #[error("option {0}: a value is one line")]
    MultiLine(String),
    #[error("the engine has no option {0:?}")]
    Unknown(String),
}

/// Whether `value` fits the declaration of the option `decl` (UMI: a value
/// that does not is malformed, so the server refuses it rather than send it):
/// a spin an integer in its range, a check `true` or `false`, a combo one of
/// its vars, a button no value. A string takes any one-line text.
pub fn check_value(decl: &OptionDecl, value: &str) -> Result<(), OptionError> {
    let name = || decl.name().as_str().to_owned();
    let valued = || (name(), value.to_owned());
    match decl.kind() {
        OptionKind::Spin { min, max, .. } => match value.trim().parse::<i64>() {
            Ok(n) if (*min..=*max).contains(&n) => Ok(()),
            Ok(n) => Err(OptionError::OutOfRange {
                name: name(),
                n,
                min: *min,
                max: *max,
            }),
            Err(_) => {
                let (name, value) = valued();
                Err(OptionError::NotWhole { name, value })
            }
        },
        OptionKind::Check { .. } if value == "true" || value == "false" => Ok(()),
        OptionKind::Check { .. } => {
            let (name, value) = valued();
            Err(OptionError::NotCheck { name, value })
        }
        OptionKind::Combo { vars, .. } => {
            if vars
                .iter()
                .any(|v| v.to_string().eq_ignore_ascii_case(value))
            {
                Ok(())
            } else {
                let vars: Vec<String> = vars.iter().map(ToString::to_string).collect();
                let (name, value) = valued();
                Err(OptionError::NotAVar {
                    name,
                    value,
                    vars: vars.join(", "),
                })
            }
        }
        OptionKind::Button if value.is_empty() => Ok(()),
        OptionKind::Button => Err(OptionError::Button(name())),
        OptionKind::String { .. } if value.contains(['\n', '\r']) => {
            Err(OptionError::MultiLine(name()))
        }
        OptionKind::String { .. } => Ok(()),
    }
}

/// [`check_value`] for each chosen option, by its declaration among
/// `declared`; an undeclared name is refused too.
pub fn check_values(
    declared: &[OptionDecl],
    chosen: &[(String, String)],
) -> Result<(), OptionError> {
    for (name, value) in chosen {
        let decl = declared
            .iter()
            .find(|d| d.name().matches(name))
            .ok_or_else(|| OptionError::Unknown(name.clone()))?;
        check_value(decl, value)?;
    }
    Ok(())
}

/// One `info` line, for the page.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub struct InfoView {
    /// 1 = the best line.
    pub multipv: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub depth: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seldepth: Option<u32>,
    /// `+35`, `-M3`; `≥`/`≤` for bounds.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nps: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<u64>,
    pub pv: Vec<String>,
    /// The hole each move of the pv starts from (`null`: `pass`), for the
    /// board to number them: as far as the rules find the line legal from
    /// the searched position (an engine's pv is not trusted).
    pub pv_holes: Vec<Option<u32>>,
}

/// The start holes of the legal beginning of `pv` from `from`.
pub fn pv_holes(from: &dyn AnyGame, pv: &[String]) -> Vec<Option<u32>> {
    let mut game = from.clone_box();
    pv.iter()
        .map_while(|mv| game.play(mv).ok())
        .map(|mv| move_hole(&mv))
        .collect()
}

/// The page's view of an engine's info line from a search of `searched`;
/// `None` for lines without search results (`info string`, `currmove`).
pub fn info_view(info: &umi::Info, searched: Option<&dyn AnyGame>) -> Option<InfoView> {
    if info.depth.is_none() && info.pv.is_empty() && info.score.is_none() {
        return None;
    }
    let pv: Vec<String> = info.pv.iter().map(|m| m.as_str().to_owned()).collect();
    let score = info.score.map(|s| {
        let value = Score::from(s.value).to_string();
        match s.bound {
            None => value,
            Some(Bound::Lower) => format!("≥{value}"),
            Some(Bound::Upper) => format!("≤{value}"),
        }
    });
    Some(InfoView {
        multipv: info.multipv.unwrap_or(1),
        depth: info.depth,
        seldepth: info.seldepth,
        score,
        nodes: info.nodes,
        nps: info.nps,
        time: info.time,
        pv_holes: searched.map_or_else(Vec::new, |g| pv_holes(g, &pv)),
        pv,
    })
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum ServerMessage {
    Engine {
        name: String,
        id_name: Option<String>,
        options: Vec<OptionView>,
    },
    Info(InfoView),
    Bestmove {
        #[serde(rename = "move")]
        mv: String,
    },
    /// A search has started on `position`: every `info` from now on is
    /// this search's (those the page had before belong to an earlier one).
    Searching {
        position: String,
    },
    Error {
        message: String,
    },
}

/// Why the analysis engine did not start, or its search did not (what the
/// page is told).
#[derive(Debug, thiserror::Error)]
pub enum AnalyseError {
    #[error("no such engine: {0}")]
    NoSuchEngine(String),
    /// The pages run as many engines as they may.
    #[error("{name}: {source}")]
    Cap { name: String, source: CapReached },
    #[error("{name}: {source}")]
    Start { name: String, source: Fault },
    #[error(transparent)]
    Line(#[from] LineError),
    #[error("the game is over in this position: nothing to analyse")]
    Over,
    #[error("{name} does not play {game}")]
    Game { name: String, game: String },
    #[error(transparent)]
    Option(#[from] OptionError),
    /// No `bestmove` after `stop` within the grace.
    #[error("after stop: {0}")]
    AfterStop(#[source] Fault),
    #[error(transparent)]
    Engine(#[from] Fault),
}

struct Analyst {
    name: String,
    session: Session,
    searching: bool,
    /// The position of the current (or last) search, for its pv.
    searched: Option<Box<dyn AnyGame>>,
    /// The game id the engine was last told with `newgame`.
    game: Option<String>,
}

/// `GET /ws/analyse`.
pub async fn socket(ws: WebSocketUpgrade, State(state): State<AppState>) -> Response {
    let ws = arbiter_net::front::websocket::upgrade(ws, 64 * 1024);
    if !state.shutdown.is_running() {
        return serve_in_span(ws, crate::stopping::refuse);
    }
    serve_in_span(ws, move |socket| drive(socket, state))
}

enum Event {
    Closed,
    Text(String),
    Line(Result<String, Fault>),
    /// The server started to drain: an analysis stops at once.
    Stopping,
    Other,
}

/// How long a `stop` may take before the engine is given up.
const STOP_GRACE: Duration = Duration::from_secs(10);

async fn next_line(analyst: &mut Option<Analyst>) -> Result<String, Fault> {
    match analyst.as_mut() {
        // why a far deadline: `go infinite` has no end of its own; the
        // reader is cancel-safe, so the socket arm may win at any time.
        Some(a) => {
            a.session
                .read_line(Instant::now() + Duration::from_secs(24 * 3600), "info")
                .await
        }
        None => std::future::pending().await,
    }
}

/// `false`: the page is gone ([`send_text`]); its engine then ends.
async fn send(socket: &mut WebSocket, m: &ServerMessage) -> bool {
    match serde_json::to_string(m) {
        Ok(text) => send_text(socket, text).await,
        Err(_) => true,
    }
}

/// What the page hears when it sends more messages than are kept while its
/// engine starts or its last search stops (those kept are handled next).
const BUSY: &str = "the engine is busy starting or stopping: try again in a moment";

async fn drive(mut socket: WebSocket, state: AppState) {
    let engines = state.engine_cap.for_connection();
    let mut analyst: Option<Analyst> = None;
    let grace = state.config.quit_grace;
    // The page's messages that came while an engine started or stopped.
    let mut kept = std::collections::VecDeque::new();
    let shutdown = state.shutdown.clone();
    // why: a drain waits for the socket (it closes at once), so that the
    // page is told before the server exits.
    let ticket = state.sockets.open();
    loop {
        let event = if let Some(text) = kept.pop_front() {
            Event::Text(text)
        } else {
            tokio::select! {
            msg = socket.recv() => match msg {
                None | Some(Err(_)) | Some(Ok(WsMessage::Close(_))) => Event::Closed,
                Some(Ok(WsMessage::Text(t))) => Event::Text(t.to_string()),
                Some(Ok(_)) => Event::Other,
            },
            line = next_line(&mut analyst) => Event::Line(line),
            () = shutdown.draining() => Event::Stopping,
            }
        };
        let reply = match event {
            Event::Closed => break,
            Event::Other => continue,
            Event::Stopping => {
                // why no wait: an analysis has nothing to lose.
                if send_text(&mut socket, crate::stopping::notice()).await {
                    let _ = socket.send(WsMessage::Close(None)).await;
                }
                break;
            }
            Event::Line(Err(e)) => {
                if let Some(a) = analyst.take() {
                    a.session.shutdown(grace).await;
                }
                Some(ServerMessage::Error {
                    message: format!("the engine stopped: {e}"),
                })
            }
            Event::Line(Ok(line)) => match Message::parse(&line) {
                Ok(Message::Info(info)) => {
                    let searched = analyst.as_ref().and_then(|a| a.searched.as_deref());
                    info_view(&info, searched).map(ServerMessage::Info)
                }
                Ok(Message::BestMove { best, .. }) => {
                    if let Some(a) = analyst.as_mut() {
                        a.searching = false;
                    }
                    Some(ServerMessage::Bestmove {
                        mv: best.as_str().to_owned(),
                    })
                }
                Ok(Message::BestMoveNone) => {
                    if let Some(a) = analyst.as_mut() {
                        a.searching = false;
                    }
                    Some(ServerMessage::Bestmove {
                        mv: "(none)".into(),
                    })
                }
                _ => None,
            },
            Event::Text(text) => match serde_json::from_str::<ClientMessage>(&text) {
                Err(e) => Some(ServerMessage::Error {
                    message: format!("bad message: {e}"),
                }),
                Ok(ClientMessage::Engine { engine }) => {
                    if let Some(a) = analyst.take() {
                        a.session.shutdown(grace).await;
                    }
                    let Some(started) = while_open(
                        &mut socket,
                        start(&engine, &state, &engines),
                        Meanwhile::Keep(&mut kept, BUSY),
                    )
                    .await
                    else {
                        break;
                    };
                    match started {
                        Ok(a) => {
                            let m = ServerMessage::Engine {
                                name: a.name.clone(),
                                id_name: a.session.id_name.clone(),
                                options: a.session.options.iter().map(option_view).collect(),
                            };
                            analyst = Some(a);
                            Some(m)
                        }
                        Err(e) => Some(ServerMessage::Error {
                            message: e.to_string(),
                        }),
                    }
                }
                Ok(ClientMessage::Go {
                    line,
                    options,
                    engine,
                }) => {
                    let restarted = match (&analyst, engine) {
                        (None, Some(name)) => {
                            let starting = start(&name, &state, &engines);
                            let meanwhile = Meanwhile::Keep(&mut kept, BUSY);
                            match while_open(&mut socket, starting, meanwhile).await {
                                None => break,
                                Some(Ok(a)) => {
                                    analyst = Some(a);
                                    Ok(())
                                }
                                Some(Err(message)) => Err(message),
                            }
                        }
                        _ => Ok(()),
                    };
                    match (restarted, analyst.as_mut()) {
                        (Err(e), _) => Some(ServerMessage::Error {
                            message: e.to_string(),
                        }),
                        (Ok(()), None) => Some(ServerMessage::Error {
                            message: "choose an engine first".into(),
                        }),
                        (Ok(()), Some(a)) => {
                            // why watched: `go` first waits for the last
                            // search's bestmove (up to STOP_GRACE); a tab
                            // closed meanwhile ends the engine at once.
                            let going = go(a, &line, &options, &state);
                            let meanwhile = Meanwhile::Keep(&mut kept, BUSY);
                            match while_open(&mut socket, going, meanwhile).await {
                                None => break,
                                Some(Ok(position)) => Some(ServerMessage::Searching { position }),
                                Some(Err(e)) => Some(ServerMessage::Error {
                                    message: e.to_string(),
                                }),
                            }
                        }
                    }
                }
                Ok(ClientMessage::Stop) => {
                    if let Some(a) = analyst.as_mut().filter(|a| a.searching) {
                        a.session.stop().await;
                    }
                    None
                }
            },
        };
        if let Some(m) = reply {
            if !send(&mut socket, &m).await {
                break;
            }
        }
    }
    if let Some(a) = analyst {
        a.session.shutdown(grace).await;
    }
    drop(ticket);
}

async fn start(
    name: &str,
    state: &AppState,
    engines: &ConnectionEngines,
) -> Result<Analyst, AnalyseError> {
    let spec = state
        .engine(name)
        .ok_or_else(|| AnalyseError::NoSuchEngine(name.to_owned()))?;
    let slot = engines.take().map_err(|source| AnalyseError::Cap {
        name: name.to_owned(),
        source,
    })?;
    let mut session = state
        .start_session(spec)
        .await
        .map_err(|source| AnalyseError::Start {
            name: name.to_owned(),
            source,
        })?;
    session.hold(slot);
    Ok(Analyst {
        name: name.to_owned(),
        session,
        searching: false,
        searched: None,
        game: None,
    })
}

/// Stops a running search (waiting for its `bestmove`), then starts one on
/// `line`; the position searched.
async fn go(
    a: &mut Analyst,
    line: &Line,
    options: &[(String, String)],
    state: &AppState,
) -> Result<String, AnalyseError> {
    let game = line.replay()?;
    if game.outcome().is_some() {
        return Err(AnalyseError::Over);
    }
    let id = game.game_id().to_string();
    if !a.session.plays(&id) {
        return Err(AnalyseError::Game {
            name: a.name.clone(),
            game: id,
        });
    }
    check_values(&a.session.options, options)?;
    if a.searching {
        a.session.stop().await;
        let deadline = Instant::now() + STOP_GRACE;
        loop {
            let l = a
                .session
                .read_line(deadline, "bestmove")
                .await
                .map_err(AnalyseError::AfterStop)?;
            if l.starts_with("bestmove") {
                break;
            }
        }
        a.searching = false;
    }
    a.session.set_options(options).await?;
    if a.game.as_deref() != Some(id.as_str()) {
        a.session.send(&format!("newgame {id}")).await?;
        a.game = Some(id);
    }
    a.session.ready(state.config.timeouts.ready).await?;
    let position = position_command(game.game_id(), &game.start_string(), &game.moves());
    a.session.send(&position).await?;
    a.session.send("go infinite").await?;
    a.searching = true;
    let searched = game.position_string();
    a.searched = Some(game);
    Ok(searched)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_rules::trace::Step;

    fn line(position: &str, moves: &str) -> Line {
        Line {
            position: position.into(),
            moves: moves.into(),
        }
    }

    #[test]
    fn a_line_is_checked_move_by_move() {
        let a = answer(&line("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0", "3 9")).expect("legal");
        assert_eq!(a.moves, ["3", "9"]);
        assert_eq!(a.board.to_move, "south");
        assert_eq!(a.status, "ongoing");
        assert!(!a.legal.is_empty());
        // The last move's steps, from the position before it, for the page.
        let trace = a.trace.expect("a trace");
        assert_eq!(
            trace.before,
            answer(&line("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0", "3"))
                .expect("legal")
                .board
                .position
        );
        assert!(trace.steps.contains(&Step::Pick { hole: 9, count: 7 }));
        let start = answer(&line("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0", "")).expect("legal");
        assert!(start.trace.is_none());
        let e =
            answer(&line("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0", "3 3")).expect_err("illegal");
        assert!(e.to_string().contains("move 2 (3)"), "{e}");
        assert!(answer(&line("nonsense", "")).is_err());
    }

    #[test]
    fn each_move_names_its_mover_as_the_rules_say() {
        // Kalah: 3 sows its last seed into South's store (an extra turn), so
        // South also makes the second move; North the third.
        let a = answer(&line("kalah 4,4,4,4,4,4,4,4,4,4,4,4 S 0/0", "3 1 9")).expect("legal");
        assert_eq!(a.movers, ["south", "south", "north"]);
        // Play alternates where the rules say so, from the side to move.
        let b = answer(&line("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 N 0/0", "9 3")).expect("legal");
        assert_eq!(b.movers, ["north", "south"]);
    }

    #[test]
    fn an_export_is_a_log_the_pgn_reader_takes_back() {
        let l = line("bohnenspiel 0,0,0,0,0,1,0,0,0,0,0,0 S 36/35", "6 7");
        let text = arbiter_core::records::pgn::write_game(&export_log(&l).expect("legal"));
        let back = arbiter_core::records::pgn::parse_games(&text).expect("reads back");
        assert_eq!(back[0].moves.len(), 2);
        assert_eq!(back[0].result, Some(GameResult::Draw));
        arbiter_core::records::verify::verify(&back[0]).expect("verifies");
        let unfinished = export_log(&line("bosh 4,4,4,4,4,4,4,4,4,4 S 0/0 1", "1")).expect("legal");
        assert_eq!(unfinished.result, None);
    }

    #[test]
    fn info_lines_become_views() {
        let Ok(Message::Info(info)) =
            Message::parse("info depth 7 multipv 2 score cp -12 nodes 900 nps 3000 pv 3 9 5")
        else {
            panic!("parses")
        };
        let v = info_view(&info, None).expect("search info");
        assert_eq!(v.multipv, 2);
        assert_eq!(v.score.as_deref(), Some("-12"));
        assert_eq!(v.pv, ["3", "9", "5"]);
        // From the start, 3 9 5 is legal; each move starts at its hole.
        let start = line("bohnenspiel 6,6,6,6,6,6,6,6,6,6,6,6 S 0/0", "")
            .replay()
            .expect("legal");
        let v = info_view(&info, Some(start.as_ref())).expect("search info");
        assert_eq!(v.pv_holes, [Some(3), Some(9), Some(5)]);
        // A pv is drawn only as far as it is legal: North cannot play 4.
        let bad = ["3", "4", "9"].map(str::to_owned);
        assert_eq!(pv_holes(start.as_ref(), &bad), [Some(3)]);
        // Kujifunza: the hole is the move's number, whatever its signs.
        let kuji = line(&format!("kujifunza {} S", ["2"; 32].join(",")), "")
            .replay()
            .expect("legal");
        assert_eq!(pv_holes(kuji.as_ref(), &["1-+-".to_owned()]), [Some(1)]);
        let Ok(Message::Info(text)) = Message::parse("info string hello") else {
            panic!("parses")
        };
        assert!(info_view(&text, None).is_none());
    }

    #[test]
    fn options_are_described_for_the_dialog() {
        let Ok(Message::Option(decl)) =
            Message::parse("option name Level type spin default 20 min 1 max 20")
        else {
            panic!("parses")
        };
        let v = option_view(&decl);
        assert_eq!((v.kind, v.min, v.max), ("spin", Some(1), Some(20)));
        assert_eq!(v.default.as_deref(), Some("20"));
    }

    fn decls(lines: &[&str]) -> Vec<OptionDecl> {
        lines
            .iter()
            .map(|l| match Message::parse(l) {
                Ok(Message::Option(d)) => d,
                other => panic!("{l}: {other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_chosen_value_must_fit_its_declaration() {
        let d = decls(&[
            "option name Level type spin default 20 min 1 max 20",
            "option name Careful type check default true",
            "option name Style type combo default solid var solid var wild",
            "option name Clear Hash type button",
            "option name Book File type string default <empty>",
        ]);
        let ok = |name: &str, value: &str| check_values(&d, &[(name.into(), value.into())]);
        assert_eq!(ok("Level", "12"), Ok(()));
        assert_eq!(ok("level", "1"), Ok(()), "names match case-insensitively");
        assert!(ok("Level", "99").is_err_and(|e| e.to_string().contains("1..20")));
        assert!(ok("Level", "ten").is_err());
        assert_eq!(ok("Careful", "false"), Ok(()));
        assert!(ok("Careful", "yes").is_err());
        assert_eq!(ok("Style", "wild"), Ok(()));
        assert!(ok("Style", "mild").is_err_and(|e| e.to_string().contains("solid, wild")));
        assert_eq!(ok("Clear Hash", ""), Ok(()));
        assert!(ok("Clear Hash", "1").is_err());
        assert_eq!(ok("Book File", "my book.bin"), Ok(()));
        assert!(ok("Book File", "a\nquit").is_err());
        assert!(ok("Threads", "2").is_err_and(|e| e.to_string().contains("no option")));
    }
}
