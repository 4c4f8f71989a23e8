//! The arena room: `arbiter arena`, a long-running server where bots
//! connect whenever they like, are paired in rated pools, rated by a
//! maximum-likelihood Elo fit and watched in the browser (docs/arena.md).
//!
//! - [`db`]: the SQLite database, its migrations and the one-writer lock.
//! - [`bots`]: accounts and tokens (hashed, checked in constant time).
//! - [`pools`]: `pools.json`.
//! - [`pairing`]: the continuous pairing of one pool (pure).
//! - [`backoff`]: the pause of a bot that keeps crashing (pure).
//! - [`store`]: games in the database: started, finished, aborted, exported.
//! - [`ratings`]: a pool's ratings from its games.
//! - [`lobby`]: the seam to the bots' side: who is connected with how many
//!   slots, and a session for each side of a game.

pub mod backoff;
pub mod bots;
pub mod db;
pub mod lobby;
pub mod pairing;
pub mod pools;
pub mod ratings;
pub mod store;
