-- Scheduled events (`arena event add`): a round robin or Swiss among the
-- players connected to a pool at a set time, played by the tournament's
-- schedule and pairing, its games rated in the pool as usual and marked
-- with the event and their slot in its schedule.
CREATE TABLE events (
    id          INTEGER PRIMARY KEY,
    pool        TEXT NOT NULL,
    format      TEXT NOT NULL CHECK (format IN ('round-robin', 'swiss')),
    -- As asked; a Swiss of a small field may play fewer (see `note`).
    rounds      INTEGER NOT NULL CHECK (rounds >= 1),
    -- When it starts: RFC 3339 in UTC, `YYYY-MM-DDTHH:MM:SSZ` (compared as text).
    at          TEXT NOT NULL,
    created     TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('scheduled', 'playing', 'finished', 'cancelled')),
    -- The players (a JSON array of player keys, in seat order), fixed at the start.
    players     TEXT,
    -- The rounds played: `rounds`, or fewer for a Swiss of a small field.
    played_rounds INTEGER,
    started     TEXT,
    ended       TEXT,
    -- Why it was cancelled, or what changed from what was asked.
    note        TEXT,
    CHECK (state IN ('scheduled', 'cancelled') OR players IS NOT NULL)
);
CREATE INDEX events_by_state ON events (state, at);

ALTER TABLE games ADD COLUMN event INTEGER REFERENCES events (id);
ALTER TABLE games ADD COLUMN slot INTEGER;
CREATE INDEX games_by_event ON games (event, state, slot) WHERE event IS NOT NULL;
