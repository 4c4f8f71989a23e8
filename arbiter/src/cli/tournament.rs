//! `arbiter tournament`: a round robin, gauntlet, pyramid, Swiss or knockout
//! between any number of engines, in one or more games, on N concurrent
//! slots — built to run
//! overnight: every finished game is appended (fsynced) to the results log
//! as it ends, `--resume` continues an interrupted run without replaying or
//! losing a game, `--shard i/n` plays a deterministic slice for a batch
//! array, and `--sprt` stops a two-engine run once the test is decided.
//!
//! With no `--engine`, it plays a built-in tournament: the reference engine
//! (the `engine` binary next to the arbiter's own) at several levels.

use arbiter_core::shutdown::Shutdown;
use std::path::PathBuf;

use clap::Args;
use mancala_rules::GameId;

use crate::cli::{self, CliError, EngineArgs, RunArgs};
use arbiter_board::live::feed::LiveEvent;
use arbiter_board::live::hub::EventMeta;
use arbiter_core::contender::config::EngineSpec;
use arbiter_core::event::formats::{Pairer, Table};
use arbiter_core::event::resume;
use arbiter_core::event::schedule::{EventSpec, Format, Schedule, Shard};
use arbiter_core::event::tournament::{
    finished_slots_of, play_stages, with_table, Pending, Planned, Playing, Results, Say,
    TournamentError,
};
use arbiter_core::play::observe::EventObserver;
use arbiter_core::play::runner::Runner;
use arbiter_core::records::log::GameLog;
use arbiter_core::records::output::LogSink;
use arbiter_core::stats::report;
use arbiter_core::stats::{Sprt, SprtState};

/// Arguments of `arbiter tournament`.
#[derive(Args)]
pub struct TournamentArgs {
    #[command(flatten)]
    pub engines: EngineArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// `round-robin` (every pair of engines), `gauntlet` (the first engine
    /// against each other one), `pyramid` (each engine against those listed
    /// before it), `swiss` (--rounds rounds, each paired by score) or
    /// `knockout` (a seeded bracket); see docs/tournaments.md.
    #[arg(long, help_heading = "Tournament", default_value = "round-robin")]
    pub format: String,
    /// Game pairs (colours swapped, same opening) per pairing and game id
    /// [default: 1; 6 for the built-in tournament]; a Swiss's rounds (at
    /// most n − 1 for n engines, n for an odd n); a knockout's pairs per
    /// encounter. The event may have at most 10^12 games.
    #[arg(long, help_heading = "Tournament", value_parser = cli::rounds_arg)]
    pub rounds: Option<usize>,
    /// Knockout: a tied encounter plays up to this many more pairs, one at a
    /// time, until one engine leads; still tied, the better seed goes through.
    #[arg(
        long,
        help_heading = "Tournament",
        value_name = "N",
        default_value_t = 2
    )]
    pub tiebreak_pairs: usize,
    /// Sequential test for two engines: `elo0=0 elo1=5 alpha=0.05 beta=0.05`
    /// (alpha and beta default to 0.05); no new game starts once it is decided.
    #[arg(long, help_heading = "Tournament", num_args = 1.., value_name = "KEY=VALUE")]
    pub sprt: Vec<String>,
    /// Continue the tournament whose results log is --jsonout: finished
    /// games are kept, the rest is played. Give the same arguments as before.
    #[arg(long, help_heading = "Tournament")]
    pub resume: bool,
    /// Play only slots k with k % n == i − 1 (e.g. `--shard 3/8`); combine the
    /// shards' logs with `arbiter merge`.
    #[arg(long, help_heading = "Tournament", value_name = "i/n")]
    pub shard: Option<String>,
}

/// Arguments of `arbiter merge`.
#[derive(Args)]
pub struct MergeArgs {
    /// Results logs (JSON lines or PGN) of one event.
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<PathBuf>,
    /// Write the merged games (sorted by slot) to this PGN file (replaced).
    #[arg(long, value_name = "FILE")]
    pub pgnout: Option<PathBuf>,
    /// Write the merged games to this JSON-lines file (replaced).
    #[arg(long, value_name = "FILE")]
    pub jsonout: Option<PathBuf>,
    /// Print the standings as JSON (docs/tournaments.md) instead of the
    /// text report.
    #[arg(long)]
    pub json: bool,
}

/// Levels of the reference engine in the built-in tournament: close enough
/// that neighbours score between about 40 % and 75 % against each other
/// (levels 1/7/14/20 gave 100 % between every neighbour, which says nothing).
pub const DEFAULT_LEVELS: [u32; 4] = [3, 5, 8, 11];
/// Time control of the built-in tournament (fixed time per move, with a
/// margin for a loaded machine).
pub const DEFAULT_TC: [&str; 2] = ["st=0.2", "timemargin=200"];
/// Rounds of the built-in tournament.
pub const DEFAULT_ROUNDS: usize = 6;
/// Openings of the built-in tournament: the balanced suite of the game.
pub const DEFAULT_OPENINGS: &str = "suite";
/// Event name when none is given.
pub const DEFAULT_EVENT: &str = "mancala arena tournament";

/// Parses `--sprt` tokens; `None` when none are given.
pub fn parse_sprt(tokens: &[String]) -> Result<Option<Sprt>, CliError> {
    if tokens.is_empty() {
        return Ok(None);
    }
    let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
    for t in tokens {
        let (k, v) = t.split_once('=').ok_or_else(|| {
            CliError::Usage(format!(
                "--sprt: expected key=value (elo0, elo1, alpha, beta), got {t:?}"
            ))
        })?;
        let x: f64 = v
            .parse()
            .map_err(|_| CliError::Usage(format!("--sprt {k}={v}: not a number")))?;
        match k {
            "elo0" => elo0 = Some(x),
            "elo1" => elo1 = Some(x),
            "alpha" => alpha = x,
            "beta" => beta = x,
            _ => {
                return Err(CliError::Usage(format!(
                    "--sprt: unknown key {k:?} (known: elo0, elo1, alpha, beta)"
                )))
            }
        }
    }
    let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
        return Err(CliError::Usage("--sprt needs elo0= and elo1=".into()));
    };
    Ok(Some(Sprt::new(elo0, elo1, alpha, beta)?))
}

/// The reference engine next to the arbiter's own executable.
pub fn reference_engine() -> Result<PathBuf, CliError> {
    let exe = std::env::current_exe()
        .map_err(|e| CliError::Failed(format!("cannot find the arbiter's own path: {e}")))?;
    let path = exe
        .parent()
        .map(|d| d.join(format!("engine{}", std::env::consts::EXE_SUFFIX)))
        .ok_or_else(|| CliError::Usage("the arbiter's path has no directory".into()))?;
    if path.is_file() {
        Ok(path)
    } else {
        Err(CliError::Usage(format!(
            "no --engine given, and the reference engine for the built-in tournament is not \
             next to the arbiter (looked for {}); build both with \
             `cargo build --release -p engine -p arbiter`, or name engines with --engine",
            path.display()
        )))
    }
}

/// Fills in the built-in tournament when no engine is given.
fn apply_defaults(args: &mut TournamentArgs) -> Result<bool, CliError> {
    let builtin = args.engines.engines.is_empty() && args.engines.engine.is_empty();
    if builtin && args.engines.engines_file.is_none() {
        let engine = reference_engine()?;
        args.engines.engines = DEFAULT_LEVELS
            .iter()
            .map(|level| {
                vec![
                    format!("cmd={}", engine.display()),
                    format!("name=level-{level}"),
                    format!("option.Level={level}"),
                ]
            })
            .collect();
        let has_time = args.engines.each.iter().any(|t| {
            let key = t.split_once('=').map_or(t.as_str(), |(k, _)| k);
            matches!(key, "tc" | "st" | "depth" | "nodes")
        });
        if !has_time {
            let mut each: Vec<String> = DEFAULT_TC.iter().map(|s| s.to_string()).collect();
            each.append(&mut args.engines.each);
            args.engines.each = each;
        }
        args.rounds = args.rounds.or(Some(DEFAULT_ROUNDS));
        if args.run.openings.is_none() {
            args.run.openings = Some(DEFAULT_OPENINGS.into());
        }
        if args.run.concurrency.is_none() {
            args.run.concurrency = Some(2);
        }
        return Ok(true);
    }
    Ok(false)
}

/// Everything decided before the first game.
struct Setup {
    spec: EventSpec,
    schedule: Schedule,
    /// Swiss and knockout: pairs each stage from the results before it.
    pairer: Option<Pairer>,
    shard: Option<Shard>,
    sprt: Option<Sprt>,
    names: Vec<String>,
}

fn setup(args: &mut TournamentArgs) -> Result<Setup, CliError> {
    let games: Vec<GameId> = args
        .run
        .game
        .split(',')
        .map(|g| g.trim().parse::<GameId>())
        .collect::<Result<_, _>>()?;
    let repeated = games
        .iter()
        .enumerate()
        .any(|(i, g)| games[..i].contains(g));
    if repeated || games.is_empty() {
        return Err(CliError::Usage(format!(
            "--game {}: name each game id once",
            args.run.game
        )));
    }
    let format: Format = args.format.parse().map_err(CliError::Usage)?;
    let engines: Vec<EngineSpec> = cli::load_engines(&args.engines)?;
    if engines.len() < 2 {
        return Err(CliError::Usage(format!(
            "a tournament needs at least two engines, got {}",
            engines.len()
        )));
    }
    let openings = match (games.as_slice(), args.run.openings.as_deref()) {
        ([game], _) => args.run.openings_for(*game)?,
        (_, Some(spec)) if spec.starts_with("file=") => {
            return Err(CliError::Usage(
                "--openings file= needs a single --game (its positions belong to one game)".into(),
            ))
        }
        (_, spec) => {
            // Random plies and suites are per game: check each game.
            for &game in &games[1..] {
                arbiter_core::play::openings::parse_openings(spec, game, args.run.seed)?;
            }
            args.run.openings_for(games[0])?
        }
    };
    let sprt = parse_sprt(&args.sprt)?;
    let shard = args
        .shard
        .as_deref()
        .map(str::parse::<Shard>)
        .transpose()
        .map_err(CliError::Usage)?;
    if sprt.is_some() && engines.len() != 2 {
        return Err(CliError::Usage(format!(
            "--sprt needs exactly two engines, got {}",
            engines.len()
        )));
    }
    if sprt.is_some() && format.is_staged() {
        return Err(CliError::Usage(format!(
            "--sprt and --format {format} do not go together: a sequential test is a two-engine \
             round robin (or `arbiter match`)"
        )));
    }
    if let (Some(s), true) = (shard, format.is_staged()) {
        return Err(CliError::Usage(format!(
            "--shard {s}: a {format} event pairs each round from the results of the round before, \
             so its games cannot be dealt to shards ahead of time; play it in one run (with \
             --concurrency), which --resume continues after a crash"
        )));
    }
    if sprt.is_some() && shard.is_some() {
        return Err(CliError::Usage(
            "--sprt and --shard do not go together: a sequential test needs all results in one place"
                .into(),
        ));
    }
    if args.resume && args.run.jsonout.is_none() {
        return Err(CliError::Usage(
            "--resume needs --jsonout: the results log to continue".into(),
        ));
    }
    let rounds = args.rounds.unwrap_or(1);
    if rounds == 0 {
        return Err(CliError::Usage("--rounds must be at least 1".into()));
    }
    let n = engines.len();
    let tiebreak_pairs = if format == Format::Knockout {
        args.tiebreak_pairs
    } else {
        0
    };
    let (stages, width) =
        arbiter_core::event::schedule::stage_shape(format, n, rounds, tiebreak_pairs);
    let (pairings, rounds_or_stages) = match format {
        Format::RoundRobin | Format::Pyramid => (n * (n - 1) / 2, rounds),
        Format::Gauntlet => (n - 1, rounds),
        Format::Swiss | Format::Knockout => (width, stages),
    };
    let total = rounds_or_stages
        .checked_mul(games.len())
        .and_then(|t| t.checked_mul(2 * pairings))
        .filter(|&t| t as u64 <= cli::MAX_GAMES);
    if total.is_none() {
        return Err(CliError::Usage(format!(
            "--rounds {rounds}: {pairings} pairing(s) × {} game id(s) × 2 colours × {rounds} \
             round(s) is more than the {} games an event may have",
            games.len(),
            cli::MAX_GAMES
        )));
    }
    let names = engines.iter().map(|e| e.name.clone()).collect();
    let spec = EventSpec {
        event: args
            .run
            .event
            .clone()
            .unwrap_or_else(|| DEFAULT_EVENT.to_owned()),
        format,
        games,
        rounds,
        engines,
        openings,
        max_plies: args.run.ply_limit(),
        tiebreak_pairs,
    };
    let pairer = Pairer::of(&spec).map_err(CliError::Usage)?;
    let schedule = Schedule::build(&spec);
    Ok(Setup {
        spec,
        schedule,
        pairer,
        shard,
        sprt,
        names,
    })
}

/// Runs `arbiter tournament`.
pub async fn run(mut args: TournamentArgs, shutdown: Shutdown) -> Result<(), CliError> {
    let builtin = apply_defaults(&mut args)?;
    let Setup {
        spec,
        schedule,
        pairer,
        shard,
        sprt,
        names,
    } = setup(&mut args)?;
    // Games the event is expected to have in this shard (a knockout without
    // tie-break pairs: the most it can have is `schedule.len()`).
    let in_shard = match (&pairer, schedule.stages()) {
        (Some(Pairer::Knockout(_)), _) => (names.len() - 1) * spec.rounds * 2 * spec.games.len(),
        (Some(_), _) => schedule.len(),
        (None, _) => schedule.shard(shard).len(),
    };

    // The logs are locked before they are read: a second arbiter on the same
    // results log refuses here, before it reads or repairs anything.
    let mut sink = LogSink::open(args.run.pgnout.as_deref(), args.run.jsonout.as_deref())?;
    let mut feed = cli::start_live(&args.run, &shutdown).await?;
    if let Some(feed) = feed.as_mut() {
        feed.event(EventMeta {
            event: spec.event.clone(),
            games: spec.games.iter().map(|g| g.to_string()).collect(),
            engines: names.clone(),
            total: Some(in_shard as u64),
            source: "tournament".into(),
        });
    }
    // The standings so far, as counts (constant memory however long the
    // event), and the finished slots of an earlier run of the tournament.
    let mut tally = report::Tally::new(&names);
    // The rest of the JSON standings' counts (`--standings-json`).
    let mut live = arbiter_core::stats::json::Live::default();
    let mut done = std::collections::BTreeSet::new();
    // Staged formats: each finished slot's seats and South's half points.
    let mut results = Results::new();
    if let Some(path) = &args.run.jsonout {
        let mut log = resume::read(path, args.resume)?;
        for w in &log.warnings {
            eprintln!("arbiter: warning: {w}");
        }
        if args.resume {
            if let Some(old) = arbiter_core::event::extend::adopt(&mut log.games, &spec, &schedule)
            {
                // The log is the record: it is replaced whole (a temporary
                // file renamed over it) with the new schedule's tags,
                // locked all the while.
                let text: String = log
                    .games
                    .iter()
                    .map(|g| arbiter_core::records::jsonl::to_line(g) + "\n")
                    .collect();
                sink.replace_jsonl(&text)?;
                if old.legacy {
                    println!(
                        "The results log was written by an earlier arbiter (another schedule \
                         fingerprint): its games are kept, retagged for this schedule"
                    );
                }
                if old.rounds < spec.rounds {
                    println!(
                        "Extending the tournament from {} to {} rounds: the first {} rounds' games are kept",
                        old.rounds, spec.rounds, old.rounds
                    );
                }
            }
        }
        if !args.resume && !log.games.is_empty() {
            return Err(resume::ResumeError::NotEmpty {
                path: path.clone(),
                games: log.games.len(),
            }
            .into());
        }

        let finished: Vec<GameLog> =
            resume::finished_slots(path, &log, &schedule.id, schedule.len(), &spec.event)?
                .into_values()
                .collect();
        for g in &finished {
            tally.add(g);
            live.add(g);
            results.add(g);
        }
        done.extend(finished_slots_of(&finished));
        if let Some(feed) = feed.as_mut() {
            feed.logged(&log.games);
        }
        if args.resume {
            // why: a kill between the PGN and the JSON append leaves a game
            // in one log only; the JSON log is the record, the PGN follows it.
            let text: String = finished
                .iter()
                .map(|g| arbiter_core::records::pgn::write_game(g) + "\n")
                .collect();
            sink.replace_pgn(&text)?;
        }
    }
    let decided = sprt.is_some_and(|s| tally.sprt_status(&s).1 != SprtState::Continue);
    let done_in_shard = done
        .iter()
        .filter(|&&i| shard.is_none_or(|s| s.contains(i)))
        .count();
    let to_play = if decided {
        0
    } else {
        in_shard - done_in_shard.min(in_shard)
    };
    // Generated as it is played: an event of any size starts at once.
    let pending = Pending {
        jobs: schedule.shard(shard),
        done,
        left: to_play,
    };

    let games_label: Vec<&str> = spec.games.iter().map(|g| g.as_str()).collect();
    println!(
        "Tournament {:?}: {} of {} engines, {}, {} round(s), {}{} games (schedule {}){}{}",
        spec.event,
        spec.format,
        names.len(),
        games_label.join(","),
        spec.rounds,
        if spec.format == Format::Knockout {
            "at most "
        } else {
            ""
        },
        schedule.len(),
        schedule.id,
        shard.map_or(String::new(), |s| format!(
            ", shard {s}: {} games",
            in_shard
        )),
        if builtin {
            let levels: Vec<String> = DEFAULT_LEVELS.iter().map(u32::to_string).collect();
            format!(
                " — built-in: the reference engine at levels {}",
                levels.join(", ")
            )
        } else {
            String::new()
        }
    );
    if let Some(feed) = &feed {
        // The page's first standings: the games of an earlier run, if any.
        let report = arbiter_core::stats::json::report_from(&names, &tally, &live, sprt.as_ref());
        feed.standings(&report, done_in_shard as u64);
    }
    if done_in_shard > 0 {
        println!(
            "Resuming: {} game(s) already in the results log, {} to play",
            done_in_shard, to_play
        );
    }

    let what = Planned {
        spec: &spec,
        schedule: &schedule,
        sprt,
        names: &names,
        done_before: done_in_shard,
        total: in_shard,
        standings_json: args.run.standings_json.as_deref(),
    };
    let mut history = Vec::new();
    let mut table = Table::default();
    let needed = match (&pairer, schedule.stages()) {
        (Some(p), Some(_)) => p.next(&[]).is_some(),
        _ => to_play > 0,
    };
    if needed {
        let played = async {
            let runner = checked_runner(&args, &spec, feed.as_ref(), shutdown).await?;
            let mut terminal = Terminal(cli::progress_bar(
                what.total.max(what.done_before) - what.done_before,
            ));
            let events = feed.as_mut().map(|f| f as &mut dyn EventObserver);
            let mut playing = Playing::new(
                &what,
                runner,
                &mut tally,
                &mut live,
                &mut sink,
                events,
                &mut terminal,
            );
            let played = match (&pairer, schedule.stages()) {
                (Some(pairer), Some(layout)) => {
                    play_stages(&mut playing, pairer, layout, &mut results)
                        .await
                        .map(|h| history = h)
                }
                _ => playing.run(pending, None).await,
            };
            let table = playing.table.clone();
            playing.close().await;
            terminal.0.finish_and_clear();
            played.map(|()| table).map_err(CliError::from)
        }
        .await;
        if let (Some(feed), Err(_)) = (&feed, &played) {
            feed.end(cli::end_message(false, args.run.live_linger))
                .await;
        }
        table = played?;
    }
    if let Some(feed) = &feed {
        feed.end(cli::end_message(true, args.run.live_linger)).await;
    }

    if let Some(path) = &args.run.standings_json {
        use arbiter_core::stats::json;
        json::write_or_warn(
            path,
            &with_table(
                json::report_from(&names, &tally, &live, sprt.as_ref()),
                &table,
            ),
        );
    }
    println!();
    print!("{}", tally.render(&names, sprt.as_ref()));
    if let Some(pairer) = &pairer {
        println!();
        print!("{}", pairer.render(&names, &history));
    }
    if let Some(s) = sprt {
        let (llr, state) = tally.sprt_status(&s);
        match state {
            SprtState::Continue => {}
            SprtState::AcceptH0 | SprtState::AcceptH1 => println!(
                "SPRT decided (llr {llr:.2}): {}; no further games were started",
                if state == SprtState::AcceptH1 {
                    "H1"
                } else {
                    "H0"
                }
            ),
        }
    }
    if let Some(s) = shard {
        println!(
            "This is shard {s}: combine all shards' logs with `arbiter merge` for the event's standings."
        );
    }
    if let Some(feed) = &feed {
        cli::linger(feed, args.run.live_linger).await;
    }
    Ok(())
}

/// The event's runner, its engines checked once for each game of the event
/// (remote engines waited for), its games shown on the live page if any.
async fn checked_runner(
    args: &TournamentArgs,
    spec: &EventSpec,
    feed: Option<&LiveEvent>,
    shutdown: Shutdown,
) -> Result<Runner, CliError> {
    let mut runner = cli::runner(spec.engines.clone(), &args.run)?;
    runner.shutdown = shutdown;
    if let Some(feed) = feed {
        runner.observer = Some(feed.game_observer(&runner.engines));
    }
    cli::remote::open(&mut runner, &args.run.remote, &args.run.tls).await?;
    for &game in &spec.games {
        arbiter_core::play::preflight::preflight(&runner, game).await?;
    }
    Ok(runner)
}

/// The terminal under a progress bar. why `suspend`: `println` on a hidden
/// bar (stderr not a terminal) would print nothing.
struct Terminal(indicatif::ProgressBar);

impl Say for Terminal {
    fn game(&mut self, line: &str) {
        self.0.inc(1);
        self.line(line);
    }

    fn line(&mut self, line: &str) {
        self.0.suspend(|| println!("{line}"));
    }

    fn stopped(&mut self, line: &str) {
        self.line(line);
        eprintln!("arbiter: {line}");
    }
}

/// A tournament stopped short: the results log of another event is the
/// command line's mistake (2); a stage that does not fit is a bug (3).
impl From<TournamentError> for CliError {
    fn from(e: TournamentError) -> CliError {
        match e {
            TournamentError::Foreign(m) => CliError::Usage(m),
            TournamentError::Unfinished(m) | TournamentError::Failed(m) => CliError::Failed(m),
            TournamentError::Misfit(m) => CliError::Bug(m),
        }
    }
}

/// Runs `arbiter merge`.
pub fn merge(args: &MergeArgs) -> Result<(), CliError> {
    let merged = arbiter_core::event::merge::merge(&args.logs)?;
    for w in &merged.warnings {
        eprintln!("arbiter: warning: {w}");
    }
    if let Some(path) = &args.jsonout {
        resume::rewrite(path, &merged.games, |g| {
            arbiter_core::records::jsonl::to_line(g) + "\n"
        })
        .map_err(|e| CliError::Failed(format!("cannot write {}: {e}", path.display())))?;
    }
    if let Some(path) = &args.pgnout {
        resume::rewrite(path, &merged.games, |g| {
            arbiter_core::records::pgn::write_game(g) + "\n"
        })
        .map_err(|e| CliError::Failed(format!("cannot write {}: {e}", path.display())))?;
    }
    if args.json {
        print!("{}", arbiter_core::stats::json::to_text(&merged.report()));
        return Ok(());
    }
    print!("{}", merged.summary());
    println!();
    print!("{}", report::render(&merged.names, &merged.games, None));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn sprt_arguments() {
        let s = parse_sprt(&tokens("elo0=0 elo1=5")).unwrap().unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (0.0, 5.0, 0.05, 0.05));
        let s = parse_sprt(&tokens("elo1=10 elo0=-2 alpha=0.1 beta=0.2"))
            .unwrap()
            .unwrap();
        assert_eq!((s.elo0, s.elo1, s.alpha, s.beta), (-2.0, 10.0, 0.1, 0.2));
        assert_eq!(parse_sprt(&[]).unwrap(), None);
        for (bad, why) in [
            ("elo0=0", "needs elo0= and elo1="),
            ("elo0=0 elo1=x", "not a number"),
            ("elo0=0 elo1=5 gamma=1", "unknown key"),
            ("elo0=5 elo1=0", "must be less than"),
            ("elo0", "expected key=value"),
        ] {
            let e = parse_sprt(&tokens(bad)).unwrap_err();
            assert!(e.message().contains(why), "{bad}: {}", e.message());
        }
    }
}
