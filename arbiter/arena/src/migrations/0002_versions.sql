-- Versions under one account: a bot's engine identifies itself by its
-- `id name`; a new one under the same token is a new version, with its own
-- rating. Version 1 of a bot that played before versions were kept has no
-- id name (NULL): its games stay its first version's.
CREATE TABLE versions (
    bot         TEXT NOT NULL,
    n           INTEGER NOT NULL CHECK (n >= 1),
    id_name     TEXT,
    first_seen  TEXT NOT NULL,
    PRIMARY KEY (bot, n)
);
CREATE UNIQUE INDEX versions_by_id_name ON versions (bot, id_name);

ALTER TABLE games ADD COLUMN south_version INTEGER NOT NULL DEFAULT 1;
ALTER TABLE games ADD COLUMN north_version INTEGER NOT NULL DEFAULT 1;

INSERT INTO versions (bot, n, id_name, first_seen)
SELECT b.name, 1, NULL, b.created FROM bots b
WHERE EXISTS (SELECT 1 FROM games g WHERE g.south = b.name OR g.north = b.name);

-- Admission: the checks a version passed or failed over its connection
-- before it was paired in a rated game (`failed`: a JSON array of names).
CREATE TABLE admissions (
    bot         TEXT NOT NULL,
    version     INTEGER NOT NULL,
    passed      INTEGER NOT NULL CHECK (passed IN (0, 1)),
    failed      TEXT NOT NULL,
    detail      TEXT NOT NULL,
    at          TEXT NOT NULL,
    PRIMARY KEY (bot, version)
);
