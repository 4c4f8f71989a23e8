-- What the pages and the server's start need at a term's size (a million
-- games; BENCHMARKS.md, "The arena at a term's scale"): a bot's games found
-- without reading its pools' games, and each pool's games counted by state
-- in a row that triggers keep, so neither the pools' list, nor a game's
-- replay number, nor the search for games left playing counts the table.

CREATE INDEX games_by_south ON games (south, pool, state, id);
CREATE INDEX games_by_north ON games (north, pool, state, id);

CREATE TABLE pool_counts (
    pool        TEXT PRIMARY KEY,
    finished    INTEGER NOT NULL DEFAULT 0,
    playing     INTEGER NOT NULL DEFAULT 0,
    aborted     INTEGER NOT NULL DEFAULT 0
);

INSERT INTO pool_counts (pool, finished, playing, aborted)
SELECT pool,
       count(*) FILTER (WHERE state = 'finished'),
       count(*) FILTER (WHERE state = 'playing'),
       count(*) FILTER (WHERE state = 'aborted')
FROM games GROUP BY pool;

CREATE TRIGGER games_count_insert AFTER INSERT ON games BEGIN
    INSERT INTO pool_counts (pool) VALUES (new.pool) ON CONFLICT (pool) DO NOTHING;
    UPDATE pool_counts SET finished = finished + (new.state = 'finished'),
                           playing = playing + (new.state = 'playing'),
                           aborted = aborted + (new.state = 'aborted')
    WHERE pool = new.pool;
END;

CREATE TRIGGER games_count_update AFTER UPDATE OF pool, state ON games
WHEN old.pool IS NOT new.pool OR old.state IS NOT new.state BEGIN
    UPDATE pool_counts SET finished = finished - (old.state = 'finished'),
                           playing = playing - (old.state = 'playing'),
                           aborted = aborted - (old.state = 'aborted')
    WHERE pool = old.pool;
    INSERT INTO pool_counts (pool) VALUES (new.pool) ON CONFLICT (pool) DO NOTHING;
    UPDATE pool_counts SET finished = finished + (new.state = 'finished'),
                           playing = playing + (new.state = 'playing'),
                           aborted = aborted + (new.state = 'aborted')
    WHERE pool = new.pool;
END;

CREATE TRIGGER games_count_delete AFTER DELETE ON games BEGIN
    UPDATE pool_counts SET finished = finished - (old.state = 'finished'),
                           playing = playing - (old.state = 'playing'),
                           aborted = aborted - (old.state = 'aborted')
    WHERE pool = old.pool;
END;
