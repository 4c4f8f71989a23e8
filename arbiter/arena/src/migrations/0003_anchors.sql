-- Anchors: a bot whose rating is held at `rating` in every pool it plays
-- in, the others fitted around it (docs/arena.md, "Ratings"). Set by
-- `arena bot anchor` and `arena run --house "… anchor=R"`, removed by
-- `arena bot unanchor`. Needs only 0001's `bots`.
CREATE TABLE anchors (
    bot         TEXT PRIMARY KEY REFERENCES bots (name),
    rating      REAL NOT NULL CHECK (rating BETWEEN -5000 AND 5000),
    set_at      TEXT NOT NULL
);
