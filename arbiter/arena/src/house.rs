//! House bots: engines the arena runs itself as local processes (`arena run
//! --house "name=… cmd=… [slots=N] [anchor=R] …"`), as CGOS runs anchor
//! players (`anchor=R` makes it one: [`crate::anchors`]). Each
//! is a registered bot (`arena bot add`) like any other; it reaches the
//! arena through the same seam as remote bots ([`crate::lobby`]):
//! it arrives with its slots, and each game gets a session of it (a process
//! kept between games, replaced after a fault).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use mancala_rules::GameId;

use crate::anchors::RatingError;
use crate::bots::NameError;
use crate::lobby::{LobbyEvent, TokenCheck};
use arbiter_core::contender::config::EngineSpec;
use arbiter_core::contender::session::{Fault, Session};
use arbiter_core::play::preflight::{preflight, Refused};
use arbiter_core::play::runner::Runner;

/// One house bot.
#[derive(Clone, Debug)]
pub struct HouseBot {
    pub spec: EngineSpec,
    /// Games it plays at once (each its own process).
    pub slots: usize,
    /// `anchor=R`: its rating is held at R (the server writes it to the
    /// anchors table at start).
    pub anchor: Option<f64>,
}

/// The most slots a house bot may have.
pub const MAX_SLOTS: usize = 64;

/// Parses one `--house` value: engine settings as `--engine` takes them
/// (`name=` is the bot's name and required), `slots=N` (default 1) and
/// `anchor=R` (none by default). The arena's own keys are taken out before
/// the engine settings' parser sees the rest.
pub fn parse(text: &str) -> Result<HouseBot, HouseError> {
    let refused = |why: HouseProblem| HouseError {
        text: text.to_owned(),
        why,
    };
    let mut slots = 1;
    let mut anchor = None;
    let mut tokens = Vec::new();
    for t in text.split_whitespace() {
        if let Some(n) = t.strip_prefix("slots=") {
            slots = arbiter_core::values::count_in(n, 1, MAX_SLOTS as u64).map_err(|why| {
                refused(HouseProblem::Slots {
                    n: n.to_owned(),
                    why,
                })
            })? as usize;
        } else if let Some(r) = t.strip_prefix("anchor=") {
            anchor = Some(crate::anchors::parse_rating(r).map_err(|source| {
                refused(HouseProblem::Anchor {
                    r: r.to_owned(),
                    source,
                })
            })?);
        } else {
            tokens.push(t.to_owned());
        }
    }
    if !tokens.iter().any(|t| t.starts_with("name=")) {
        return Err(refused(HouseProblem::NoName));
    }
    // why the engine settings' words as text: they are the core's, shown as they are.
    let spec = arbiter_core::contender::config::parse_engine(0, &tokens, &[], None)
        .map_err(|e| refused(HouseProblem::Engine(e.to_string())))?;
    arbiter_core::contender::config::refuse_keys(
        &spec,
        "arena run --house",
        arbiter_core::contender::config::HOUSE_REFUSES,
    )
    .map_err(|e| refused(HouseProblem::Engine(e.to_string())))?;
    crate::bots::check_name(&spec.name).map_err(|e| refused(HouseProblem::Name(e)))?;
    Ok(HouseBot {
        spec,
        slots,
        anchor,
    })
}

/// Why a `--house` value is refused ([`parse`]): the value, and what is wrong in it.
#[derive(Debug, thiserror::Error)]
#[error("--house {text:?}: {why}")]
pub struct HouseError {
    text: String,
    #[source]
    why: HouseProblem,
}

/// What is wrong in a `--house` value.
#[derive(Debug, thiserror::Error)]
pub enum HouseProblem {
    #[error("slots={n}: {why}")]
    Slots { n: String, why: String },
    #[error("anchor={r}: {source}")]
    Anchor { r: String, source: RatingError },
    #[error("give the bot's name= (a bot added with `arena bot add`)")]
    NoName,
    /// The engine settings' parser refused them (its words).
    #[error("{0}")]
    Engine(String),
    #[error(transparent)]
    Name(NameError),
}

/// The house bots and their idle processes.
pub struct House {
    bots: BTreeMap<String, HouseBot>,
    /// The database, for the version each bot's `id name` is.
    accounts: TokenCheck,
    idle: Mutex<BTreeMap<String, Vec<Session>>>,
    pub handshake_timeout: Duration,
    pub quit_grace: Duration,
    pub stderr_dir: Option<PathBuf>,
}

impl House {
    pub fn new(
        bots: Vec<HouseBot>,
        accounts: TokenCheck,
        handshake_timeout: Duration,
        stderr_dir: Option<PathBuf>,
    ) -> House {
        House {
            bots: bots.into_iter().map(|b| (b.spec.name.clone(), b)).collect(),
            accounts,
            idle: Mutex::new(BTreeMap::new()),
            handshake_timeout,
            quit_grace: Duration::from_millis(500),
            stderr_dir,
        }
    }

    /// Whether `player` (a bot, or a version of one: `ref5/2`) is one of
    /// the house bots'.
    pub fn has(&self, player: &str) -> bool {
        // why by bot: a house bot whose account had another engine before
        // plays as a later version, and its games must still be seated here.
        self.bots.contains_key(crate::versions::bot_of(player))
    }

    /// The house bots' names.
    pub fn names(&self) -> std::collections::BTreeSet<String> {
        self.bots.keys().cloned().collect()
    }

    async fn start(&self, bot: &HouseBot) -> Result<Session, Fault> {
        let stderr = bot.spec.stderr.clone().or_else(|| {
            self.stderr_dir
                .as_ref()
                .map(|d| d.join(format!("{}.stderr.log", bot.spec.name)))
        });
        Session::start(&bot.spec.launch_spec(stderr), self.handshake_timeout, None).await
    }

    /// Starts each bot once to learn the games it plays, then checks it in
    /// each of `pools` whose game it plays with the pool's options and its
    /// own, by the pre-event check of a tournament
    /// ([`arbiter_core::play::preflight`]): a bot that does not start or
    /// answer is refused here ([`Refused::Failed`]), and so is one that
    /// lacks an option or declares a value does not fit
    /// ([`Refused::Choice`]), each named with its pool, before the server
    /// starts rather than charged to the bot as lost games. Returns their
    /// arrivals.
    pub async fn arrivals(
        &self,
        pools: &[crate::pools::Pool],
        timeouts: arbiter_core::play::game::Timeouts,
    ) -> Result<Vec<LobbyEvent>, Refused> {
        let mut events = Vec::new();
        for (name, bot) in &self.bots {
            let session = self
                .start(bot)
                .await
                .map_err(|e| Refused::Failed(format!("house bot {name}: {e}")))?;
            let games = session.games.clone();
            let player = self
                .accounts
                .player(name, session.id_name.as_deref())
                .map_err(|e| Refused::Failed(format!("house bot {name}: {e}")))?;
            self.put_back(name, session);
            for pool in pools
                .iter()
                .filter(|p| games.iter().any(|g| g == p.game.as_str()))
            {
                let mut spec = bot.spec.clone();
                // why this order: a game's session is given the pool's
                // options, then the bot's (`seat_now`).
                spec.options = pool
                    .options
                    .iter()
                    .chain(&bot.spec.options)
                    .cloned()
                    .collect();
                let runner = Runner {
                    engines: vec![spec],
                    concurrency: 1,
                    timeouts,
                    handshake_timeout: self.handshake_timeout,
                    max_plies: None,
                    stderr_dir: self.stderr_dir.clone(),
                    traffic: None,
                    quit_grace: self.quit_grace,
                    partie: None,
                    adjudication: Default::default(),
                    observer: None,
                    remote: None,
                    shutdown: Default::default(),
                };
                preflight(&runner, pool.game).await.map_err(|e| {
                    let m = format!("house bot {name} in pool {}: {e}", pool.name);
                    match e {
                        Refused::Choice(_) => Refused::Choice(m),
                        Refused::Failed(_) => Refused::Failed(m),
                    }
                })?;
            }
            events.push(LobbyEvent::Arrived {
                bot: player,
                slots: bot.slots,
                games,
                pools: None,
            });
        }
        Ok(events)
    }

    fn put_back(&self, name: &str, session: Session) {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        idle.entry(name.to_owned()).or_default().push(session);
    }

    fn take_idle(&self, name: &str) -> Option<Session> {
        let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
        idle.get_mut(name).and_then(Vec::pop)
    }

    /// Ends every idle process.
    pub async fn shutdown(&self) {
        let all: Vec<Session> = {
            let mut idle = self.idle.lock().unwrap_or_else(|p| p.into_inner());
            std::mem::take(&mut *idle).into_values().flatten().collect()
        };
        for s in all {
            s.shutdown(self.quit_grace).await;
        }
    }

    /// A session of `player` (a house bot's one version: its process's).
    async fn seat_now(
        &self,
        player: &str,
        game: GameId,
        options: &[(String, String)],
    ) -> Result<Session, Fault> {
        let name = crate::versions::bot_of(player);
        let bot = self.bots.get(name).ok_or_else(|| Fault::Garbled {
            line: String::new(),
            problem: format!("{name} is not a house bot"),
        })?;
        let mut session = loop {
            match self.take_idle(name) {
                Some(mut s) => {
                    if s.is_alive() {
                        break s;
                    }
                    s.shutdown(self.quit_grace).await;
                }
                None => break self.start(bot).await?,
            }
        };
        if !session.plays(game.as_str()) {
            let games = session.games.join(" ");
            session.shutdown(self.quit_grace).await;
            return Err(Fault::WrongGame {
                game: game.to_string(),
                games,
            });
        }
        let all: Vec<(String, String)> = options.iter().chain(&bot.spec.options).cloned().collect();
        if let Err(fault) = session.set_options(&all).await {
            session.shutdown(self.quit_grace).await;
            return Err(fault);
        }
        Ok(session)
    }

    /// Keeps a fit session for the next game (unless `restart=on`), else ends it.
    async fn release_now(&self, player: &str, session: Session, fit: bool) {
        let bot = crate::versions::bot_of(player);
        let restart = self
            .bots
            .get(bot)
            .is_some_and(|b| b.spec.restart == arbiter_core::contender::config::Restart::On);
        if fit && !restart {
            self.put_back(bot, session);
        } else {
            session.shutdown(self.quit_grace).await;
        }
    }
}

crate::lobby::seats_by_async_methods!(House);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_version_of_a_house_bot_is_the_houses() {
        let dir = arbiter_core::testing::test_dir("arena-house-has");
        let db = dir.join("a.sqlite");
        crate::db::open(&db).unwrap();
        let house = House::new(
            vec![parse("name=ref3 cmd=engine").unwrap()],
            TokenCheck::open(&db).unwrap(),
            Duration::from_secs(1),
            None,
        );
        assert!(house.has("ref3") && house.has("ref3/2"));
        assert!(!house.has("ref") && !house.has("ref3x/2") && !house.has("other"));
    }

    #[test]
    fn a_house_bot_needs_a_name_and_takes_slots() {
        let b = parse("name=ref3 cmd=engine option.Level=3 slots=4").unwrap();
        assert_eq!((b.spec.name.as_str(), b.slots), ("ref3", 4));
        assert_eq!(b.spec.options, [("Level".to_owned(), "3".to_owned())]);
        assert_eq!(b.anchor, None);
        let refused = |text: &str| parse(text).unwrap_err().to_string();
        assert!(refused("cmd=engine").contains("name="));
        assert!(refused("name=x cmd=engine slots=0").contains("slots=0"));
        assert!(refused("name=a/b cmd=engine").contains("bot name"));
    }

    #[test]
    fn a_house_bot_may_be_an_anchor() {
        let b = parse("name=ref3 cmd=engine anchor=1500 option.Level=3").unwrap();
        assert_eq!((b.anchor, b.slots), (Some(1500.0), 1));
        assert_eq!(b.spec.options, [("Level".to_owned(), "3".to_owned())]);
        assert_eq!(
            parse("name=r cmd=e anchor=-250.5").unwrap().anchor,
            Some(-250.5)
        );
        for bad in ["abc", "nan", "9000", ""] {
            let e = parse(&format!("name=r cmd=e anchor={bad}"))
                .unwrap_err()
                .to_string();
            assert!(
                e.contains(&format!("anchor={bad}:")) && e.contains("-5000"),
                "{e}"
            );
        }
    }
}
