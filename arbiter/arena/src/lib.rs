//! The arena: `arbiter arena`, a long-running server where bots
//! connect whenever they like, are paired in rated pools, rated by a
//! maximum-likelihood Elo fit and watched in the browser (docs/arena.md).
//!
//! - [`admission_records`]: whether a bot's version passed the checks before play.
//! - [`db`]: the SQLite database, its migrations and the one-writer lock.
//! - [`bots`]: accounts and tokens (hashed, checked in constant time).
//! - [`events`]: scheduled events (a round robin or Swiss at a set time).
//! - [`anchors`]: bots whose rating is held at a value in every pool.
//! - [`pools`]: reads `pools.json`.
//! - [`pairing`]: the continuous pairing of one pool (pure).
//! - [`pace`]: how long games last, whom rule 3 waits for, house bots' rate (pure).
//! - [`schedule`]: what to start now, given who is free, the games in
//!   progress and their pace (pure).
//! - [`backoff`]: the pause of a bot that keeps crashing (pure).
//! - [`store`]: games in the database: started, finished, aborted, exported.
//! - [`prune`]: old games removed, their results kept for the ratings.
//! - [`ratings`]: a pool's ratings from its games.
//! - [`lobby`]: the seam to the bots' side: who is connected with how many
//!   slots, and a session for each side of a game.
//! - [`house`]: bots the server runs itself as local processes (anchors),
//!   through that seam.
//! - [`remote`]: bots that connect to `/umi` (`arbiter connect`, the
//!   Python kit), through the remote room's endpoint and registry.
//! - [`seats`]: both sides as one: a bot is seated from the side it is on.
//! - [`server`]: the arena itself: pairing, games, records, ratings.
//! - [`versions`]: a bot's versions (its engine's `id name`), the players.
//! - [`web`]: the pages and JSON.

pub mod admission_records;
pub mod anchors;
pub mod backoff;
pub mod bots;
pub mod db;
pub mod events;
pub mod house;
pub mod lobby;
pub mod pace;
pub mod pairing;
pub mod pools;
pub mod prune;
pub mod ratings;
pub mod remote;
pub mod schedule;
pub mod seats;
pub mod server;
pub mod store;
pub mod versions;
pub mod web;
