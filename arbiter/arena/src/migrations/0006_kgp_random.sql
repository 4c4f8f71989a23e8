-- KGP's random moves: a KGP bot that sent no move before its search ended
-- had a random legal move played for it (protocol-spec.md section 17.2;
-- `"kgp_random": true` on the move in the game's record). Counted here per
-- player (a version of a bot) as each game is finished, so a bot's page
-- reads the count without reading its games' records.

CREATE TABLE kgp_random (
    player      TEXT PRIMARY KEY,
    moves       INTEGER NOT NULL DEFAULT 0
);
