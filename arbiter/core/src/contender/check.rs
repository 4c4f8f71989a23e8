//! `arbiter check`: a conformance check of one engine against the protocol,
//! for an engine author to run before entering an event (like fastchess's
//! `--compliance`). Each check prints one line, `PASS <name>` (with a note in
//! parentheses) or `FAIL <name>: <reason>`; the command fails if any check
//! does.
//!
//! The checks, in order: `handshake` (`umiok` in time), `id-name`, `games`
//! (at least one known game id), `options` (when `option.X=` is given),
//! `isready`, `isready-while-searching` (`go infinite`, then `isready` is
//! answered before any `bestmove`), `stop` (a legal `bestmove` soon after
//! `stop`; the latency is reported), `positions:<game>` for each known game
//! listed (the start and a few mid-game positions reached by seeded random
//! moves, each sent as `position startpos moves …` and as `position pos
//! <string>`), `hemprich-pass` (`bestmove pass` where the side to move has
//! no move, when the engine plays a game whose rules pass, [`GameId::passes`]:
//! `bohnenspiel-hemprich`), one `go-<field>`
//! per time field of `go`, `go-plain` (plain
//! `go`: a legal `bestmove`, early or after `stop`), `go-ponder` (no
//! `bestmove` before `ponderhit`, a legal one after it), `gameover` (then
//! `isready` answered), `d` (ends with the right `pos` line), `go-perft`
//! (`go perft 2` from the start, line by line as the rules library counts),
//! `one-bestmove-per-go` (after an answer and a pause, `isready` gets
//! `readyok` with no second `bestmove` before it), `malformed-position`
//! (`bestmove (none)` after a position the rules reject, spec section 9),
//! `error-messages` (an `info string error` line for each of a few malformed
//! known commands), `malformed-input` (junk lines, then `isready` still
//! answered) and `quit`.
//!
//! An engine left in an unknown state by a failed check (a search that never
//! ended) is killed and restarted before the next check. Start-up has its own
//! limit (`--startup-timeout`: umiok, and the first readyok of each process,
//! for engines that start slowly, e.g. on a JVM); every later `isready` has the
//! per-command one (`--ready-timeout`). A restart that fails is tried once:
//! the checks after it are reported as not run, instead of each waiting for
//! another slow start.

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use mancala_rules::{AnyGame, GameId};
use tokio::time::Instant;

use crate::contender::config::DEFAULT_TIME_MARGIN;
use crate::contender::process::{Exit, LaunchSpec, TrafficLog};
use crate::contender::session::{Fault, Session};

mod commands;
mod lifecycle;
mod moves;
mod positions;
mod searches;

pub(crate) use moves::{is_bestmove, judge_move, random_walk};
use searches::PonderEnd;

/// Limits the checks apply.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Start-up: `umiok`, and the first `readyok` of a fresh process.
    pub handshake: Duration,
    pub ready: Duration,
    pub stop: Duration,
    /// Lateness tolerated over a timed search's limit: the engine's
    /// `timemargin=` (the arbiter's flag margin), 50 ms unless set.
    pub margin: Duration,
    /// Extra time over an untimed search's limit before it counts as unanswered.
    pub grace: Duration,
    /// For `go depth`/`go nodes`, which set no time.
    pub unclocked: Duration,
    pub seed: u64,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            handshake: Duration::from_secs(30),
            ready: Duration::from_secs(10),
            stop: Duration::from_secs(1),
            margin: DEFAULT_TIME_MARGIN,
            grace: Duration::from_millis(500),
            unclocked: Duration::from_secs(2),
            seed: 1,
        }
    }
}

/// The outcome of one check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CheckLine {
    pub name: String,
    /// `Ok(note)` or `Err(reason)`.
    pub outcome: Result<String, String>,
}

impl CheckLine {
    pub fn passed(&self) -> bool {
        self.outcome.is_ok()
    }
}

impl fmt::Display for CheckLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.outcome {
            Ok(note) if note.is_empty() => write!(f, "PASS {}", self.name),
            Ok(note) => write!(f, "PASS {} ({note})", self.name),
            Err(reason) => write!(f, "FAIL {}: {reason}", self.name),
        }
    }
}

/// Search limit of the position checks.
const POSITION_MOVETIME_MS: u64 = 100;
/// Plies of random play before each mid-game position.
const MID_GAME_PLIES: [usize; 3] = [5, 12, 25];
/// How long plain `go` searches before the check sends `stop`.
const PLAIN_GO_WAIT: Duration = Duration::from_millis(200);
/// Depth of the `go-perft` check.
const PERFT_DEPTH: u32 = 2;
/// How long `one-bestmove-per-go` waits for a second answer.
const SECOND_ANSWER_WAIT: Duration = Duration::from_millis(500);
/// Clock of the `go` field checks, milliseconds.
const CLOCK_MS: u64 = 500;

/// Runs every check on the engine `spec` describes (with `options` set after
/// the handshake), handing each line to `report` as it is decided. Returns
/// whether all passed.
pub async fn run(
    spec: &LaunchSpec,
    options: &[(String, String)],
    limits: Limits,
    traffic: Option<Arc<dyn TrafficLog>>,
    report: impl FnMut(&CheckLine),
) -> bool {
    let mut c = Checker {
        spec: spec.clone(),
        options: options.to_vec(),
        limits,
        traffic,
        session: None,
        fresh: false,
        restart_failed: None,
        report,
        all_passed: true,
    };
    c.run().await;
    c.all_passed
}

struct Checker<F> {
    spec: LaunchSpec,
    options: Vec<(String, String)>,
    limits: Limits,
    /// The `--debug` traffic log, shared by every engine process started.
    traffic: Option<Arc<dyn TrafficLog>>,
    session: Option<Session>,
    /// The session has not answered a `readyok` yet (start-up limit applies).
    fresh: bool,
    /// Why the one restart failed; later checks are then not run.
    restart_failed: Option<String>,
    report: F,
    all_passed: bool,
}

/// A search to run and judge: the position command, the game behind it, `go`.
struct Search<'a> {
    position: String,
    game: &'a dyn AnyGame,
    go: String,
    limit: Duration,
    /// Lateness tolerated over `limit`: the arbiter's time margin for timed
    /// searches, a generous grace for the others.
    margin: Duration,
}
impl<F: FnMut(&CheckLine)> Checker<F> {
    fn emit(&mut self, name: &str, outcome: Result<String, String>) {
        let line = CheckLine {
            name: name.to_owned(),
            outcome,
        };
        self.all_passed &= line.passed();
        (self.report)(&line);
    }

    async fn run(&mut self) {
        let started = Instant::now();
        match Session::start(&self.spec, self.limits.handshake, self.traffic.clone()).await {
            Ok(s) => {
                let ms = started.elapsed().as_millis();
                self.session = Some(s);
                self.fresh = true;
                self.emit("handshake", Ok(format!("umiok after {ms} ms")));
            }
            Err(fault) => {
                // Nothing else can be checked without a handshake.
                return self.emit("handshake", Err(fault.to_string()));
            }
        }
        let (name, listed) = match &self.session {
            Some(s) => (s.id_name.clone(), s.games.clone()),
            None => return,
        };
        self.emit(
            "id-name",
            name.ok_or_else(|| "no `id name` line before umiok".to_owned()),
        );
        let known: Vec<GameId> = listed.iter().filter_map(|g| g.parse().ok()).collect();
        let unknown: Vec<&String> = listed
            .iter()
            .filter(|g| g.parse::<GameId>().is_err())
            .collect();
        let games_outcome = if known.is_empty() {
            Err(format!("no known game id in `games {}`", listed.join(" ")))
        } else if unknown.is_empty() {
            Ok(listed.join(" "))
        } else {
            let unknown: Vec<&str> = unknown.iter().map(|s| s.as_str()).collect();
            Ok(format!(
                "{}; ignored unknown: {}",
                known
                    .iter()
                    .map(|g| g.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
                unknown.join(" ")
            ))
        };
        self.emit("games", games_outcome);
        if !self.options.is_empty() {
            let options = self.options.clone();
            let outcome = match self.session.as_mut() {
                Some(s) => s.set_options(&options).await.map_err(|f| f.to_string()),
                None => Err("no engine".to_owned()),
            };
            let note = options
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ");
            self.emit("options", outcome.map(|()| note));
        }
        let ready = self.ready().await;
        self.emit("isready", ready);

        if let Some(&first) = known.first() {
            self.search_and_stop(first).await;
            for &game in &known {
                let outcome = self.positions(game).await;
                self.emit(&format!("positions:{game}"), outcome);
            }
            // why the name: the check was written for Hemprich's Bohnenspiel,
            // the one game whose rules pass today; reports and scripts know
            // it by that name, whichever game it runs on.
            if let Some(&passing) = known.iter().find(|g| g.passes()) {
                let outcome = self.pass_check(passing).await;
                self.emit("hemprich-pass", outcome);
            }
            self.go_fields(first).await;
            let outcome = self.plain_go(first).await;
            self.emit("go-plain", outcome);
            let outcome = self.ponder(first, PonderEnd::Hit).await;
            self.emit("go-ponder", outcome);
            let outcome = self.ponder(first, PonderEnd::Miss).await;
            self.emit("go-ponder-miss", outcome);
            let outcome = self.gameover(first).await;
            self.emit("gameover", outcome);
            let outcome = self.board(first).await;
            self.emit("d", outcome);
            let outcome = self.perft(first).await;
            self.emit("go-perft", outcome);
            let outcome = self.one_bestmove_per_go(first).await;
            self.emit("one-bestmove-per-go", outcome);
            let outcome = self.malformed_position(first).await;
            self.emit("malformed-position", outcome);
            let outcome = self.finished_position(first).await;
            self.emit("game-over-position", outcome);
        }
        let outcome = self.error_messages().await;
        self.emit("error-messages", outcome);
        let outcome = self.malformed_input().await;
        self.emit("malformed-input", outcome);
        let outcome = self.quit().await;
        self.emit("quit", outcome);
    }
}

#[cfg(test)]
mod tests {
    use super::positions::{finished_position, pass_position};
    use super::*;
    use mancala_rules::{game_from_position, new_game};
    use rand::rngs::SmallRng;
    use rand::SeedableRng;

    #[test]
    fn lines_read_as_documented() {
        let pass = CheckLine {
            name: "stop".into(),
            outcome: Ok("bestmove 3 2 ms after stop".into()),
        };
        assert_eq!(pass.to_string(), "PASS stop (bestmove 3 2 ms after stop)");
        let bare = CheckLine {
            name: "id-name".into(),
            outcome: Ok(String::new()),
        };
        assert_eq!(bare.to_string(), "PASS id-name");
        let fail = CheckLine {
            name: "games".into(),
            outcome: Err("no known game id".into()),
        };
        assert_eq!(fail.to_string(), "FAIL games: no known game id");
        assert!(!fail.passed());
    }

    #[test]
    fn random_walk_is_seeded_and_never_ends_the_game() {
        for game in GameId::ALL {
            let mut a = SmallRng::seed_from_u64(7);
            let mut b = SmallRng::seed_from_u64(7);
            let (ga, ma) = random_walk(game, 25, &mut a);
            let (_, mb) = random_walk(game, 25, &mut b);
            assert_eq!(ma, mb, "{game}");
            assert!(ga.outcome().is_none(), "{game}: {}", ga.position_string());
        }
    }

    #[test]
    fn every_game_that_passes_has_a_pass_position_and_no_other_does() {
        for id in GameId::ALL {
            let Some((game, moves)) = pass_position(id) else {
                assert!(!id.passes(), "{id}: no pass position found");
                continue;
            };
            assert!(id.passes(), "{id} passes though its rules say not");
            assert_eq!(game.legal_moves(), ["pass"], "{}", game.position_string());
            let mut replay = new_game(id);
            for mv in &moves {
                replay.play(mv).unwrap();
            }
            assert_eq!(replay.position_string(), game.position_string());
        }
    }

    #[test]
    fn every_game_has_a_finished_position_to_check() {
        for game in GameId::ALL {
            let string = finished_position(game).expect("a finished position");
            let alone = game_from_position(&string).unwrap();
            assert!(alone.outcome().is_some(), "{string}");
            assert!(alone.legal_moves().is_empty(), "{string}");
        }
    }

    #[test]
    fn judge_move_wants_legal_canonical_moves() {
        let start = new_game(GameId::Bohnenspiel);
        assert!(judge_move(start.as_ref(), "1").is_ok());
        let illegal = judge_move(start.as_ref(), "99").unwrap_err();
        assert!(illegal.contains("illegal move \"99\""), "{illegal}");
    }
}
