-- The arena's first schema. Applied once, in a transaction, by
-- arena::db::migrate; the version is PRAGMA user_version.

-- Bots: a name and the SHA-256 of its token (the token itself is never stored).
CREATE TABLE bots (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL UNIQUE,
    token_hash  BLOB NOT NULL,
    created     TEXT NOT NULL,
    -- Set when the token is revoked: the bot is refused from then on.
    revoked     TEXT
);

-- Games, one row from the moment a game starts. A game in progress is
-- 'playing'; when it ends its row becomes 'finished' with its record (the
-- JSON line `arbiter match` writes) in one transaction; a server that finds
-- 'playing' rows at start (it was killed) marks them 'aborted'.
CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    pool        TEXT NOT NULL,
    south       TEXT NOT NULL,
    north       TEXT NOT NULL,
    -- The pair (two colour-swapped games from one opening) and its leg (1, 2).
    pair        INTEGER NOT NULL,
    leg         INTEGER NOT NULL CHECK (leg IN (1, 2)),
    opening     INTEGER NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('playing', 'finished', 'aborted')),
    started     TEXT NOT NULL,
    ended       TEXT,
    -- PGN result token, and the termination's kind (for the pages).
    result      TEXT,
    termination TEXT,
    -- The bot that lost by a fault (crash, disconnect, time, illegal move…).
    offender    TEXT,
    record      TEXT,
    CHECK ((state = 'finished') = (record IS NOT NULL))
);
CREATE INDEX games_by_pool ON games (pool, state, id);

-- A bot's rating after each recomputation in which its game count changed.
CREATE TABLE rating_history (
    id          INTEGER PRIMARY KEY,
    pool        TEXT NOT NULL,
    bot         TEXT NOT NULL,
    -- The last finished game of the pool the fit included.
    game        INTEGER NOT NULL,
    games       INTEGER NOT NULL,
    rating      REAL NOT NULL,
    margin      REAL,
    at          TEXT NOT NULL
);
CREATE INDEX rating_history_by_bot ON rating_history (pool, bot, id);

-- When each bot was last connected.
CREATE TABLE seen (
    bot         TEXT PRIMARY KEY,
    at          TEXT NOT NULL
);
