-- `arena prune`: the results of the games it removed, counted by pool,
-- sides (players' keys: `bot` or `bot/N`) and PGN result; the pools'
-- ratings add them to the kept games' (arena::prune), so a prune changes
-- no rating.
CREATE TABLE pruned (
    pool        TEXT NOT NULL,
    south       TEXT NOT NULL,
    north       TEXT NOT NULL,
    result      TEXT NOT NULL,
    games       INTEGER NOT NULL CHECK (games >= 1),
    PRIMARY KEY (pool, south, north, result)
);
