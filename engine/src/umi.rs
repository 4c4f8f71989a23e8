//! The UMI protocol loop: reads commands, keeps the position, runs searches
//! on a worker thread so that `isready` and `stop` are answered at once.

use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use mancala_rules::{game_from_position, new_game, with_game, AnyGame, Game, GameId, GameRecord};
use mancala_tablebase::kalah::solver::tt::Tt;
use mancala_tablebase::kalah::solver::BestError;
use mancala_tablebase::{file, Tablebase};
use rand::rngs::SmallRng;
use rand::SeedableRng;
use umi::{Command, Go, Info, LineReader, Message, PositionBase, ReadLine, Score, Text};

use crate::control::SearchControl;
use crate::eval::Evaluate;
use crate::exact::{self, ExactJob};
use crate::options::{Changed, Options};
use crate::search::{mate_distance, Iteration, Limits, Searcher};
use crate::time::{budget, Budget, ClockState};
use crate::tt::Table;

pub const NAME: &str = concat!("Mancala Reference Engine ", env!("CARGO_PKG_VERSION"));
pub const AUTHOR: &str = "The mancala arena authors";

/// Where protocol output goes: every line is written whole and flushed.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    pub fn new(w: Box<dyn Write + Send>) -> Output {
        Output(Arc::new(Mutex::new(w)))
    }

    pub fn send(&self, msg: &Message) {
        if let Ok(mut w) = self.0.lock() {
            // A closed stdout means the GUI is gone; the read loop will see EOF.
            let _ = umi::write_line(&mut **w, msg);
        }
    }

    fn text(&self, text: &str) {
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{text}");
            let _ = w.flush();
        }
    }

    pub fn error(&self, what: &str) {
        self.send(&Message::error(what));
    }
}

/// The game to search: a validated start position and moves.
#[derive(Clone, Debug)]
struct Setup {
    game: Box<dyn AnyGame>,
}

struct Running {
    control: Arc<SearchControl>,
    /// The budget to start on `ponderhit`.
    ponder_budget: Option<Budget>,
    /// `go … infinite`: the search waits for `stop`, also after `ponderhit`.
    infinite: bool,
    handle: JoinHandle<()>,
}

/// A `go perft` counting on its own thread. Cancelled, it prints nothing
/// more and ends after the root move it is counting (it is not waited for).
struct PerftRun {
    /// Set under the lock, checked under it before every line printed.
    cancelled: Arc<Mutex<bool>>,
}

impl PerftRun {
    fn cancel(&self) {
        if let Ok(mut c) = self.cancelled.lock() {
            *c = true;
        }
    }
}

/// The engine's protocol state.
pub struct Engine {
    out: Output,
    options: Options,
    game: Option<GameId>,
    setup: Option<Setup>,
    tt: Arc<Mutex<Table>>,
    running: Option<Running>,
    perft: Option<PerftRun>,
    /// The open endgame database (`TablebasePath`), its layers loaded.
    tablebase: Option<Arc<Tablebase>>,
    /// The Kalah solver's table (`Hash` MiB, as the search's), allocated at
    /// the first Kalah search.
    solver_tt: Option<Arc<Tt>>,
    /// The default directory's Kalah layers (`None` until looked for).
    default_tablebase: Option<Option<Arc<Tablebase>>>,
}

impl Engine {
    pub fn new(out: Output) -> Engine {
        let options = Options::default();
        let tt = Arc::new(Mutex::new(Table::new(options.hash_mib)));
        Engine {
            out,
            options,
            game: None,
            setup: None,
            tt,
            running: None,
            perft: None,
            tablebase: None,
            solver_tt: None,
            default_tablebase: None,
        }
    }

    /// Handles one input line; `false` after `quit`.
    pub fn handle_line(&mut self, line: &str) -> bool {
        match line.parse::<Command>() {
            Ok(cmd) => self.handle(cmd),
            Err(e) if e.is_ignorable() => true,
            Err(e) => {
                self.out.error(&e.to_string());
                true
            }
        }
    }

    pub fn handle(&mut self, cmd: Command) -> bool {
        self.reap_finished();
        match cmd {
            Command::Umi => self.handshake(),
            Command::IsReady => self.out.send(&Message::ReadyOk),
            Command::SetOption(s) => {
                if self.running.is_some() {
                    self.out.error("setoption while searching is ignored");
                } else {
                    let old_hash = self.options.hash_mib;
                    match self.options.set(&s) {
                        Ok(Changed::Hash) => match Table::try_new(self.options.hash_mib) {
                            Ok(table) => {
                                self.tt = Arc::new(Mutex::new(table));
                                // The solver's table follows at its next use.
                                self.solver_tt = None;
                            }
                            // why: a refused allocation must not abort the engine;
                            // the old table (and its size) stays.
                            Err(e) => {
                                self.out.error(&format!(
                                    "Hash {} MiB: cannot allocate the table ({e}); keeping {old_hash} MiB",
                                    self.options.hash_mib
                                ));
                                self.options.hash_mib = old_hash;
                            }
                        },
                        Ok(Changed::Tablebase) => self.open_tablebase(),
                        Ok(Changed::Other) => {}
                        Err(e) => self.out.error(&e),
                    }
                }
            }
            Command::NewGame(id) => {
                self.finish_search();
                // why here: a GUI waits for `readyok` after `newgame`, so the
                // table and the database are ready before the first `go`.
                if exact::solvable(id) {
                    self.prepare_exact();
                }
                self.game = Some(id);
                self.setup = None;
                if let Ok(mut tt) = self.tt.lock() {
                    tt.clear();
                }
            }
            Command::Position { base, moves } => {
                self.finish_search();
                self.setup = None;
                match self.build_setup(&base, &moves) {
                    // why not remember the position's game: `position startpos`
                    // means the start of the `newgame` game (spec section 4),
                    // even after a `position pos` of another game.
                    Ok(setup) => self.setup = Some(setup),
                    Err(e) => self.out.error(&e),
                }
            }
            Command::Go(go) => self.go(go),
            Command::Perft { depth } => self.perft(depth),
            Command::Stop => self.finish_search(),
            Command::PonderHit => self.ponderhit(),
            Command::GameOver { .. } => self.finish_search(),
            Command::Board => self.board(),
            Command::Quit => {
                self.finish_search();
                return false;
            }
        }
        true
    }

    fn handshake(&self) {
        let text = |s: &str| Text::new(s).ok();
        if let Some(t) = text(NAME) {
            self.out.send(&Message::IdName(t));
        }
        if let Some(t) = text(AUTHOR) {
            self.out.send(&Message::IdAuthor(t));
        }
        let games = GameId::ALL
            .iter()
            .filter_map(|id| umi::GameName::new(id.as_str()).ok())
            .collect();
        self.out.send(&Message::Games(games));
        for decl in Options::declarations() {
            self.out.send(&Message::Option(decl));
        }
        self.out.send(&Message::UmiOk);
    }

    fn build_setup(&self, base: &PositionBase, moves: &[umi::Move]) -> Result<Setup, String> {
        let mut game = match base {
            PositionBase::StartPos => match self.game {
                Some(id) => new_game(id),
                None => {
                    return Err(
                        "position startpos needs a game: send newgame <game-id> first".into(),
                    )
                }
            },
            PositionBase::Pos(text) => {
                game_from_position(text.as_str()).map_err(|e| e.to_string())?
            }
        };
        for (i, mv) in moves.iter().enumerate() {
            game.play(mv.as_str())
                .map_err(|e| format!("move {} ({}): {e}", i + 1, mv.as_str()))?;
        }
        Ok(Setup { game })
    }

    /// Opens the database of `TablebasePath` and loads (and checks) every
    /// layer it holds, as engines load Syzygy files when the path is set; an
    /// empty path drops it. A bad directory or file is reported and leaves
    /// the engine without a database.
    fn open_tablebase(&mut self) {
        self.tablebase = None;
        let path = self.options.tablebase_path.clone();
        if path.is_empty() {
            return;
        }
        let opened = Tablebase::open(Path::new(&path)).and_then(|tb| {
            let mut held = Vec::new();
            // why every game the database supports, not a list: a game the
            // tablebase learns is loaded without touching the engine.
            for game in GameId::ALL.into_iter().filter(|&g| file::supported(g)) {
                if let Some(n) = tb.max_beans(game) {
                    tb.load(game, n)?;
                    held.push(format!("{game} up to {n} beans"));
                }
            }
            Ok((tb, held))
        });
        match opened {
            Ok((tb, held)) if !held.is_empty() => {
                let note = format!("tablebase {path}: {}", held.join(", "));
                if let Ok(string) = Text::new(&note) {
                    self.out.send(&Message::Info(Info {
                        string: Some(string),
                        ..Info::default()
                    }));
                }
                self.tablebase = Some(Arc::new(tb));
            }
            Ok(_) => self.out.error(&format!(
                "TablebasePath {path}: no layer files (*.tb) from 0 beans up"
            )),
            Err(e) => self.out.error(&format!("TablebasePath {path}: {e}")),
        }
    }

    /// The solver's table and Kalah database, made ready once: `None` when
    /// the table cannot be allocated (said once per attempt).
    fn prepare_exact(&mut self) -> Option<(Arc<Tt>, Option<Arc<Tablebase>>)> {
        if self.solver_tt.is_none() {
            match Tt::new(self.options.hash_mib as u64) {
                Ok(tt) => self.solver_tt = Some(Arc::new(tt)),
                Err(e) => {
                    self.out
                        .error(&format!("Kalah solver: {e}; searching only"));
                    return None;
                }
            }
        }
        let tt = self.solver_tt.clone()?;
        Some((tt, self.kalah_tablebase()))
    }

    /// The database of the Kalah solver: `TablebasePath`'s if it holds Kalah
    /// layers; with `TablebasePath` empty, the default directory's (where
    /// `engine tb build --game kalah` writes without `--out`), loaded once.
    fn kalah_tablebase(&mut self) -> Option<Arc<Tablebase>> {
        if !self.options.tablebase_path.is_empty() {
            return self
                .tablebase
                .clone()
                .filter(|tb| tb.max_beans(GameId::Kalah).is_some());
        }
        if let Some(tb) = &self.default_tablebase {
            return tb.clone();
        }
        let dir = file::default_dir().filter(|d| d.is_dir());
        let loaded = dir.and_then(|dir| {
            let opened = Tablebase::open(&dir).and_then(|tb| match tb.max_beans(GameId::Kalah) {
                Some(n) => tb.load(GameId::Kalah, n).map(|()| Some((tb, n))),
                None => Ok(None),
            });
            match opened {
                Ok(Some((tb, n))) => {
                    self.info_string(&format!(
                        "tablebase {} (default directory): kalah up to {n} seeds",
                        dir.display()
                    ));
                    Some(Arc::new(tb))
                }
                Ok(None) => None,
                Err(e) => {
                    self.out.error(&format!(
                        "default tablebase {}: {e}; the solver goes without",
                        dir.display()
                    ));
                    None
                }
            }
        });
        self.default_tablebase = Some(loaded.clone());
        loaded
    }

    fn info_string(&self, text: &str) {
        if let Ok(string) = Text::new(text) {
            self.out.send(&Message::Info(Info {
                string: Some(string),
                ..Info::default()
            }));
        }
    }

    fn go(&mut self, go: Go) {
        let received = Instant::now();
        self.finish_search();
        let Some(setup) = self.setup.clone() else {
            self.out.error("go without a valid position");
            self.out.send(&Message::BestMoveNone);
            return;
        };
        let side = setup.game.side_to_move();
        let overhead = Duration::from_millis(self.options.move_overhead_ms);
        let clock = ClockState {
            time: go.time(side).map(Duration::from_millis),
            inc: Duration::from_millis(go.inc(side).unwrap_or(0)),
            movestogo: go.movestogo,
            movetime: go.movetime.map(Duration::from_millis),
        };
        let budget = budget(clock, overhead);
        let control = Arc::new(SearchControl::new());
        let mut ponder_budget = None;
        if go.infinite {
            control.set_unlimited(true);
        } else if go.ponder {
            control.set_unlimited(true);
            ponder_budget = budget;
        } else if let Some(b) = budget {
            control.set_budget(received, b.soft, b.hard);
        }
        let id = setup.game.game_id();
        // The solver plays at full strength, one line, under a clock (or
        // `infinite`); `depth` and `nodes` ask for the search itself. `Solve`
        // asks for the exact value whatever the limits.
        let full_strength = self.options.weakness().is_none()
            && self.options.multipv <= 1
            && go.depth.is_none()
            && go.nodes.is_none();
        let exact = if exact::solvable(id) && (self.options.solve || full_strength) {
            self.prepare_exact().map(|(tt, tablebase)| ExactJob {
                tt,
                tablebase,
                until_solved: self.options.solve,
            })
        } else {
            if self.options.solve {
                self.info_string(&format!(
                    "Solve: only kalah and kalah-6x6 positions are solved, not {id}; searching"
                ));
            }
            None
        };
        let job = Job {
            exact,
            setup,
            limits: Limits {
                depth: go.depth,
                nodes: go.nodes,
            },
            options: self.options.clone(),
            tablebase: self.tablebase.clone(),
            tt: Arc::clone(&self.tt),
            control: Arc::clone(&control),
            out: self.out.clone(),
        };
        let handle = thread::spawn(move || job.run());
        self.running = Some(Running {
            control,
            ponder_budget,
            infinite: go.infinite,
            handle,
        });
    }

    fn ponderhit(&mut self) {
        if let Some(r) = &self.running {
            if let Some(b) = r.ponder_budget {
                r.control.set_budget(Instant::now(), b.soft, b.hard);
            }
            // why also without a clock: after `ponderhit` the search ends by
            // its own limits (`go ponder depth 4` answers at depth 4, spec
            // section 6); only `go ponder infinite` waits for `stop`.
            if !r.infinite {
                r.control.set_unlimited(false);
            }
        }
    }

    /// `go perft`: counted on a thread, so that the command loop stays free
    /// (`isready` is answered at once; `stop` or any new command cancels it).
    fn perft(&mut self, depth: u32) {
        self.finish_search();
        let Some(setup) = &self.setup else {
            self.out.error("go perft without a valid position");
            return;
        };
        let position = setup.game.position_string();
        let id = setup.game.game_id();
        let cancelled = Arc::new(Mutex::new(false));
        let (out, flag) = (self.out.clone(), Arc::clone(&cancelled));
        // A line is printed only while the perft is not cancelled.
        let say = move |msg: &Message| match flag.lock() {
            Ok(c) if !*c => {
                out.send(msg);
                true
            }
            _ => false,
        };
        thread::spawn(move || with_game!(id, G => perft_lines::<G>(&position, depth, say)));
        self.perft = Some(PerftRun { cancelled });
    }

    fn board(&self) {
        let Some(setup) = &self.setup else {
            self.out.error("d without a valid position");
            return;
        };
        for line in setup.game.render().lines() {
            self.out.text(line);
        }
        if let Ok(p) = umi::PositionText::new(&setup.game.position_string()) {
            self.out.send(&Message::Pos(p));
        }
    }

    /// Joins a search that already answered.
    fn reap_finished(&mut self) {
        // why `has_answered` too: a client may send `setoption` the moment
        // it reads `bestmove`, before the search thread has returned; the
        // search is over then, and the join below waits only for its return.
        if self
            .running
            .as_ref()
            .is_some_and(|r| r.handle.is_finished() || r.control.has_answered())
        {
            self.finish_search();
        }
    }

    /// Stops the running search, if any, and waits for it: it answers with
    /// its `bestmove` first (also when a new command arrives mid-search).
    fn finish_search(&mut self) {
        if let Some(p) = self.perft.take() {
            p.cancel();
        }
        if let Some(r) = self.running.take() {
            r.control.stop();
            let _ = r.handle.join();
        }
    }
}

/// Prints the perft of `position` root move by root move (the rules'
/// `perft` below each, in the order the rules list the moves), then the
/// total; stops as soon as `say` refuses a line (cancelled).
fn perft_lines<G: Game>(position: &str, depth: u32, say: impl Fn(&Message) -> bool) {
    let pos: G = match position.parse() {
        Ok(pos) => pos,
        Err(e) => {
            say(&Message::error(&e.to_string()));
            return;
        }
    };
    if depth == 0 {
        say(&Message::PerftTotal(1));
        return;
    }
    let mut total = 0;
    for mv in pos.legal_move_list() {
        let count = mancala_rules::perft::perft(&pos.after(mv), depth - 1);
        total += count;
        let printed = match umi::Move::new(&mv.to_string()) {
            Ok(mv) => say(&Message::PerftMove { mv, count }),
            Err(e) => say(&Message::error(&e.to_string())),
        };
        if !printed {
            return;
        }
    }
    say(&Message::PerftTotal(total));
}

/// One search, run on its own thread.
struct Job {
    /// The Kalah solver to try first, if any.
    exact: Option<ExactJob>,
    setup: Setup,
    limits: Limits,
    options: Options,
    tablebase: Option<Arc<Tablebase>>,
    tt: Arc<Mutex<Table>>,
    control: Arc<SearchControl>,
    out: Output,
}

impl Job {
    fn run(self) {
        let position = self.setup.game.start_string();
        let moves = self.setup.game.moves();
        let id = self.setup.game.game_id();
        let answer = match self.exact_answer() {
            Some(answer) => answer,
            None => with_game!(id, G => self.search::<G>(&position, &moves)),
        };
        // `go infinite` and `go ponder` answer only after `stop` (or `ponderhit`).
        while self.control.is_unlimited() && !self.control.is_stopped() {
            thread::sleep(Duration::from_millis(1));
        }
        self.control.set_answered();
        self.out.send(&answer);
    }

    /// The solver's move with its exact score, if it finds the value in
    /// time; else `None` (said in an `info string`), and the search plays.
    fn exact_answer(&self) -> Option<Message> {
        let exact = self.exact.as_ref()?;
        if self.setup.game.outcome().is_some() {
            return None;
        }
        let started = Instant::now();
        let position = self.setup.game.position_string();
        let text = |s: String| Text::new(&s).ok();
        if let Some(b) = crate::book::Book::shipped().lookup(&position) {
            let mv = umi::Move::new(&b.mv.to_string()).ok()?;
            self.out.send(&Message::Info(Info {
                score: Some(umi_score(exact::score(b.value))),
                time: Some(started.elapsed().as_millis() as u64),
                pv: vec![mv.clone()],
                string: text(format!("exact: book, value {:+}", b.value)),
                ..Info::default()
            }));
            return Some(Message::BestMove {
                best: mv,
                ponder: None,
            });
        }
        let result = exact.run(&position, &self.control);
        let ms = started.elapsed().as_millis() as u64;
        match result {
            Ok(best) => {
                let mv = umi::Move::new(&best.mv.to_string()).ok()?;
                self.out.send(&Message::Info(Info {
                    score: Some(umi_score(exact::score(best.value))),
                    nodes: Some(best.nodes),
                    nps: Some(best.nodes * 1000 / ms.max(1)),
                    time: Some(ms),
                    pv: vec![mv.clone()],
                    string: text(format!("exact: solved, value {:+}", best.value)),
                    ..Info::default()
                }));
                Some(Message::BestMove {
                    best: mv,
                    ponder: None,
                })
            }
            Err(BestError::Stopped { nodes }) => {
                self.out.send(&Message::Info(Info {
                    string: text(format!(
                        "exact: not solved in {ms} ms ({nodes} nodes); playing the search's move, not proven"
                    )),
                    ..Info::default()
                }));
                None
            }
            Err(BestError::Position(e)) => {
                self.out.error(&format!("exact: {e}"));
                None
            }
        }
    }

    fn search<G: Evaluate>(&self, start: &str, moves: &[String]) -> Message {
        let Ok(start) = start.parse::<G>() else {
            return Message::BestMoveNone;
        };
        let mut record = GameRecord::new(start);
        for mv in moves {
            if record.play_str(mv).is_err() {
                return Message::BestMoveNone;
            }
        }
        if record.is_over() {
            return Message::BestMoveNone;
        }
        let tablebase = self.tablebase.as_deref();
        if let Some((best, score)) =
            tablebase.and_then(|tb| crate::eval::tablebase::root_move(&record, tb))
        {
            // In the database: a value-keeping move at once, its exact score.
            self.out.send(&Message::Info(Info {
                depth: Some(0),
                score: Some(umi_score(score)),
                string: Some(Text::new("tablebase").expect("plain text")),
                ..Info::default()
            }));
            return match umi::Move::new(&best.to_string()) {
                Ok(best) => Message::BestMove { best, ponder: None },
                Err(_) => Message::BestMoveNone,
            };
        }
        let root = record.position().clone();
        let Ok(mut tt) = self.tt.lock() else {
            return Message::BestMoveNone;
        };
        let mut rng = SmallRng::seed_from_u64(self.options.random_seed ^ root.zobrist());
        let weakness = self.options.weakness().map(|w| (w, &mut rng));
        let mut searcher = Searcher::<G>::for_record(&mut tt, &self.control, self.limits, &record)
            .with_tablebase(tablebase);
        searcher.set_multipv(self.options.multipv);
        let result = searcher.run(&root, weakness, |it| self.report(it));
        match result {
            Some(r) => {
                let best = umi::Move::new(&r.best.to_string());
                let ponder = r.ponder.and_then(|p| umi::Move::new(&p.to_string()).ok());
                match best {
                    Ok(best) => Message::BestMove { best, ponder },
                    Err(_) => Message::BestMoveNone,
                }
            }
            None => Message::BestMoveNone,
        }
    }

    /// The `info` lines of an iteration: one, or with `MultiPV` above 1 one
    /// per root line, `multipv 1` (the move the engine would play) first.
    fn report<M: std::fmt::Display>(&self, it: &Iteration<M>) {
        let ms = it.elapsed.as_millis() as u64;
        let info = |score: i32, pv: &[M]| Info {
            depth: Some(it.depth),
            seldepth: Some(it.seldepth),
            score: Some(umi_score(score)),
            nodes: Some(it.nodes),
            nps: Some(it.nodes * 1000 / ms.max(1)),
            hashfull: Some(it.hashfull),
            time: Some(ms),
            pv: pv
                .iter()
                .filter_map(|m| umi::Move::new(&m.to_string()).ok())
                .collect(),
            ..Info::default()
        };
        if self.options.multipv <= 1 {
            self.out.send(&Message::Info(info(it.score, &it.pv)));
            return;
        }
        let lines = std::iter::once((it.score, &it.pv[..]))
            .chain(it.alternatives.iter().map(|l| (l.score, &l.pv[..])));
        for (n, (score, pv)) in (1..).zip(lines) {
            self.out.send(&Message::Info(Info {
                multipv: Some(n),
                ..info(score, pv)
            }));
        }
    }
}

/// A search score as UMI reports it.
fn umi_score(score: i32) -> Score {
    match mate_distance(score) {
        // Plies to the end, as the mover's own moves: a win in 1 ply is mate 1.
        Some(plies) if plies > 0 => Score::mate((plies + 1) / 2),
        Some(plies) => Score::mate(-((-plies + 1) / 2)),
        None => Score::cp(score),
    }
}

/// Runs the protocol on stdin/stdout until `quit` or end of input.
pub fn run_stdio() {
    let out = Output::new(Box::new(io::stdout()));
    let mut engine = Engine::new(out.clone());
    run(io::stdin().lock(), &mut engine);
}

/// Runs the protocol on any input until `quit` or end of input.
pub fn run<R: BufRead>(input: R, engine: &mut Engine) {
    let mut reader = LineReader::new(input);
    loop {
        match reader.read_line() {
            Ok(ReadLine::Line(line)) => {
                tracing::debug!(target: "umi", "> {line}");
                if !engine.handle_line(&line) {
                    break;
                }
            }
            Ok(ReadLine::TooLong) => engine.out.error("line too long, ignored"),
            Ok(ReadLine::InvalidUtf8) => engine.out.error("line is not valid UTF-8, ignored"),
            Ok(ReadLine::Eof) | Err(_) => {
                engine.handle(Command::Quit);
                break;
            }
        }
    }
}
