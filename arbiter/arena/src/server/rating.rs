//! The arena's ratings as games finish: each pool's tally added to as its
//! games are recorded, refit at most once per `rating_interval` (and
//! spaced by the fit's own time), each changed rating written to the
//! rating history, and the ladders the pages read replaced.

use std::collections::BTreeMap;
use std::time::Instant;

use mancala_rules::GameResult;

use super::{lock, Arena};
use crate::anchors::Anchors;
use crate::db::DbError;
use crate::ratings::Game;

/// A refit waits at least this many times its own last duration after it,
/// so that however large the pool grows, its ratings take at most about
/// a tenth of one core (the fit's time grows with the players and their pairs).
const REFIT_SPACING: u32 = 10;

impl Arena {
    /// Adds a game just recorded to its pool's tally, as [`store::tally`]
    /// reads it from the database.
    pub(super) fn tally(&self, pool: &str, id: i64, names: &[String; 2], result: GameResult) {
        // why through split: the tally's keys are those the database's
        // bot and version columns give back.
        let key = |p: &str| {
            let (bot, n) = crate::versions::split(p);
            crate::versions::player(bot, n)
        };
        let (south, north) = (key(&names[0]), key(&names[1]));
        if let Some(t) = lock(&self.tallies).get_mut(pool) {
            t.tally.add(&Game {
                south: &south,
                north: &north,
                result,
            });
            t.last = t.last.max(id);
        }
    }

    /// Recomputes the ratings of the pools with new games (`all`: every
    /// pool), at most once per `rating_interval`; each bot whose game count
    /// changed gets a rating history entry. When the anchors changed (the
    /// admin command, another process) every pool is recomputed.
    pub(super) fn refresh_ratings(&self, all: bool) {
        let due = {
            let s = lock(&self.state);
            let interval = self.config.rating_interval.max(s.rated_in * REFIT_SPACING);
            s.rated_at.is_none_or(|at| at.elapsed() >= interval)
        };
        if !all && !due {
            return;
        }
        let anchors = match crate::anchors::for_players(&lock(&self.reader)) {
            Ok(a) => a,
            Err(e) => {
                tracing::error!("ratings: cannot read the anchors: {e}");
                return;
            }
        };
        let pools: Vec<String> = {
            let mut s = lock(&self.state);
            // why rated_at even when nothing is recomputed: the anchors are
            // read at most once per interval too.
            s.rated_at = Some(Instant::now());
            let changed = s.anchors.as_ref() != Some(&anchors);
            if !all && !changed && s.stale.is_empty() {
                return;
            }
            s.anchors = Some(anchors.clone());
            if all || changed {
                s.stale.clear();
                self.config.pools.iter().map(|p| p.name.clone()).collect()
            } else {
                std::mem::take(&mut s.stale).into_iter().collect()
            }
        };
        let started = Instant::now();
        for pool in pools {
            if let Err(e) = self.rate_pool(&pool, &anchors) {
                tracing::error!("ratings of {pool}: {e}");
            }
        }
        lock(&self.state).rated_in = started.elapsed();
    }

    fn rate_pool(&self, pool: &str, anchors: &Anchors) -> Result<(), DbError> {
        let started = Instant::now();
        // why a copy: the fit takes a while, and finishing games add to the tally.
        let Some((tally, last, known)) = lock(&self.tallies)
            .get_mut(pool)
            .map(|t| (t.tally.clone(), t.last, t.history.take()))
        else {
            return Ok(());
        };
        let rated = tally.rate(anchors);
        let fitted = started.elapsed();
        let mut known = match known {
            Some(known) => known,
            None => {
                let r = lock(&self.reader);
                let mut stmt = r.prepare(
                    "SELECT bot, max(games) FROM rating_history WHERE pool = ?1 GROUP BY bot",
                )?;
                let rows = stmt.query_map([pool], |r| Ok((r.get(0)?, r.get(1)?)))?;
                rows.collect::<Result<BTreeMap<String, i64>, _>>()?
            }
        };
        let written = {
            let w = lock(&self.writer);
            let tx = w.unchecked_transaction()?;
            let mut written = Vec::new();
            for r in &rated {
                if known.get(&r.name).copied() != Some(i64::from(r.games)) {
                    tx.execute(
                        "INSERT INTO rating_history (pool, bot, game, games, rating, margin, at) \
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))",
                        rusqlite::params![pool, r.name, last, r.games, r.rating, r.interval],
                    )?;
                    written.push((r.name.clone(), i64::from(r.games)));
                }
            }
            tx.commit()?;
            written
        };
        known.extend(written);
        if let Some(t) = lock(&self.tallies).get_mut(pool) {
            t.history = Some(known);
        }
        lock(&self.ladders).insert(pool.to_owned(), rated);
        tracing::debug!(
            pool,
            games = tally.games(),
            "ratings refit in {:.1} ms (the fit {:.1} ms)",
            started.elapsed().as_secs_f64() * 1000.0,
            fitted.as_secs_f64() * 1000.0
        );
        Ok(())
    }
}
