//! The seam between the arena and the bots' side. The arena does not know
//! how a bot is reached: whatever connects bots (the house bots of
//! [`crate::house`], the `/umi` connections of
//! [`crate::remote`]) tells it through a channel of [`LobbyEvent`]s
//! who is there with how many free slots, and hands it, through [`Seats`],
//! a [`Session`] for each side of a game. The session is the same protocol
//! code whatever the pipe under it is, so the games, clocks, verdicts and
//! records do not change with the transport ([`crate::seats`] seats
//! each bot from the side it is on).

use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::Mutex;

use mancala_rules::GameId;
use rusqlite::Connection;

use crate::db::DbError;
use arbiter_core::contender::session::{Fault, Session};

/// What the bots' side tells the arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LobbyEvent {
    /// `slots` more instances of `bot` can play (a connection, or a house
    /// bot's processes). `bot` is a player's key: the version of the bot
    /// its engine's `id name` names ([`crate::versions::player`]). `games`: the game ids it plays (its `games` line);
    /// `pools`: the pools it asked for, `None` for every pool of its games.
    Arrived {
        bot: String,
        slots: usize,
        games: Vec<String>,
        pools: Option<Vec<String>>,
    },
    /// `slots` instances of `bot` are gone.
    Left { bot: String, slots: usize },
}

/// A boxed future of the seam (the trait is used as `dyn Seats`).
pub type SeatFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Sessions for the games.
pub trait Seats: Send + Sync {
    /// A session of `bot` for one game of `game`: through the handshake,
    /// known to play `game`, with `options` set (the pool's, then the
    /// bot's own). A bot that cannot be seated loses the game by the fault.
    fn seat<'a>(
        &'a self,
        bot: &'a str,
        game: GameId,
        options: &'a [(String, String)],
    ) -> SeatFuture<'a, Result<Session, Fault>>;

    /// Gives `bot`'s session back after a game; `fit`: it did nothing
    /// wrong in it and may play on, else it is closed.
    fn release<'a>(&'a self, bot: &'a str, session: Session, fit: bool) -> SeatFuture<'a, ()>;

    /// Whether `bot` (a player's key) has a live instance now. why apart
    /// from the slots: a game holds its slot while its connection is away
    /// (it may come back within the grace), and a slot is not a process.
    fn is_live(&self, _bot: &str) -> bool {
        true
    }
}

/// Implements [`Seats`] for a type by its two async methods
/// `seat_now(bot, game, options)` and `release_now(bot, session, fit)`,
/// and, when named, its method `live(bot) -> bool` as [`Seats::is_live`].
macro_rules! seats_by_async_methods {
    ($t:ty) => {
        $crate::lobby::seats_by_async_methods!($t, {});
    };
    ($t:ty, $live:ident) => {
        $crate::lobby::seats_by_async_methods!($t, {
            fn is_live(&self, bot: &str) -> bool {
                self.$live(bot)
            }
        });
    };
    ($t:ty, { $($extra:item)* }) => {
        impl $crate::lobby::Seats for $t {
            fn seat<'a>(
                &'a self,
                bot: &'a str,
                game: mancala_rules::GameId,
                options: &'a [(String, String)],
            ) -> $crate::lobby::SeatFuture<
                'a,
                Result<
                    ::arbiter_core::contender::session::Session,
                    ::arbiter_core::contender::session::Fault,
                >,
            > {
                Box::pin(self.seat_now(bot, game, options))
            }

            fn release<'a>(
                &'a self,
                bot: &'a str,
                session: ::arbiter_core::contender::session::Session,
                fit: bool,
            ) -> $crate::lobby::SeatFuture<'a, ()> {
                Box::pin(self.release_now(bot, session, fit))
            }

            $($extra)*
        }
    };
}
pub(crate) use seats_by_async_methods;

/// The token check the `/umi` endpoint calls: a connection's token names
/// its bot, or it is refused. Its own connection to the database, which is
/// read on every check (a revoked token is refused at once).
pub struct TokenCheck {
    conn: Mutex<Connection>,
}

impl TokenCheck {
    pub fn open(db: &Path) -> Result<TokenCheck, DbError> {
        Ok(TokenCheck {
            conn: Mutex::new(crate::db::open_existing(db)?),
        })
    }

    /// Whether `bot` is a bot of the arena and not revoked (a check that
    /// cannot be made says no).
    pub fn is_active(&self, bot: &str) -> bool {
        let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        crate::bots::is_active(&conn, bot).unwrap_or_else(|e| {
            tracing::error!("cannot read whether {bot} is revoked: {e}");
            false
        })
    }

    /// The version of `bot` whose engine says `id_name`, as a player's key
    /// ([`crate::versions`]); a new name is recorded as its next version.
    pub fn player(&self, bot: &str, id_name: Option<&str>) -> Result<String, DbError> {
        let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        let n = crate::versions::resolve(&conn, bot, id_name)?;
        Ok(crate::versions::player(bot, n))
    }

    /// The recorded admission of version `n` of `bot` ([`crate::admission_records`]).
    pub fn admission(
        &self,
        bot: &str,
        n: u32,
    ) -> Result<Option<crate::admission_records::Admission>, DbError> {
        let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        crate::admission_records::status(&conn, bot, n)
    }

    /// Records the admission checks' verdict on version `n` of `bot`.
    pub fn record_admission(
        &self,
        bot: &str,
        n: u32,
        verdict: &arbiter_core::play::admission_checks::Verdict,
    ) -> Result<(), DbError> {
        let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        crate::admission_records::record(&conn, bot, n, verdict)
    }

    /// The bot `token` proves, if any (see [`crate::bots::check_token`]).
    pub fn bot_of(&self, token: &str) -> Option<String> {
        let conn = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        match crate::bots::check_token(&conn, token) {
            Ok(bot) => bot,
            Err(e) => {
                // why refuse: a check that cannot be made lets no one in.
                tracing::error!("token check failed: {e}");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_endpoints_check_refuses_a_revoked_token_at_once() {
        let dir = arbiter_core::testing::test_dir("arena-lobby");
        let db = dir.join("a.sqlite");
        let conn = crate::db::open(&db).unwrap();
        let token = crate::bots::add(&conn, "alpha").unwrap();
        let check = TokenCheck::open(&db).unwrap();
        assert_eq!(check.bot_of(&token).as_deref(), Some("alpha"));
        // Revoked by another connection (the admin command is another process).
        crate::bots::revoke(&conn, "alpha").unwrap();
        assert_eq!(check.bot_of(&token), None);
    }
}
