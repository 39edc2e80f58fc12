-- Version 4 (issue 32): ratings, seasons and server settings.
-- * games.rated: a rated game updates its players' ratings when it finishes,
--   in the transaction that stores its results;
-- * results keep what the ratings were computed from: the seat's rating
--   identity ('user:<id>', 'ai:easy|normal|hard'), its place (ties share a
--   place, a resigned seat is last) and whether it won the longest-path
--   bonus; NULL in results stored before this version;
-- * guild_settings: a server's defaults for new games and where they may be
--   opened;
-- * ladders: one row per server that rates games (its current season and how
--   many games it rated: the order a recompute replays them in); every rating
--   write updates this row first, so two processes rate one server's games
--   one after the other;
-- * seasons, rated_games, ratings (each player's current rating per server,
--   season and scope: '*' overall or a map id) and rating_history (every
--   rated game's change of each player's rating).

ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1));

ALTER TABLE results ADD COLUMN player TEXT;
ALTER TABLE results ADD COLUMN place INTEGER CHECK (place >= 1);
ALTER TABLE results ADD COLUMN longest_path_bonus INTEGER CHECK (longest_path_bonus IN (0, 1));

CREATE TABLE guild_settings (
    guild_id     INTEGER PRIMARY KEY,
    language     TEXT CHECK (language IN ('en', 'de')),  -- NULL: the server's Discord locale
    turn_seconds INTEGER CHECK (turn_seconds > 0),       -- NULL: one day
    rated        INTEGER NOT NULL DEFAULT 1 CHECK (rated IN (0, 1)),
    hints        INTEGER NOT NULL DEFAULT 1 CHECK (hints IN (0, 1)),
    channels     TEXT    NOT NULL DEFAULT '[]',           -- JSON list of channel ids; []: any
    updated_at   REAL    NOT NULL,
    updated_by   INTEGER
);

CREATE TABLE ladders (
    guild_id    INTEGER PRIMARY KEY,
    season      INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1),
    rated_games INTEGER NOT NULL DEFAULT 0 CHECK (rated_games >= 0),
    updated_at  REAL    NOT NULL
);

CREATE TABLE seasons (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL CHECK (season >= 1),
    started_at REAL    NOT NULL,
    started_by INTEGER,                -- NULL: the first season, opened by the first rated game
    PRIMARY KEY (guild_id, season)
);

CREATE TABLE rated_games (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id INTEGER NOT NULL,
    season   INTEGER NOT NULL CHECK (season >= 1),
    seq      INTEGER NOT NULL CHECK (seq >= 1),  -- the server's n-th rated game
    map_id   TEXT    NOT NULL,
    rated_at REAL    NOT NULL,
    UNIQUE (guild_id, seq)
);

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    season     INTEGER NOT NULL CHECK (season >= 1),
    scope      TEXT    NOT NULL,       -- '*' (every map) or a map id
    player     TEXT    NOT NULL,
    user_id    INTEGER,                -- the person's id, NULL for a computer level
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL CHECK (sigma > 0),
    games      INTEGER NOT NULL CHECK (games >= 1),
    updated_at REAL    NOT NULL,
    PRIMARY KEY (guild_id, season, scope, player)
);

CREATE INDEX ratings_by_user ON ratings (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE rating_history (
    game_id      INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    scope        TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    user_id      INTEGER,
    mu_before    REAL    NOT NULL,
    sigma_before REAL    NOT NULL,
    mu_after     REAL    NOT NULL,
    sigma_after  REAL    NOT NULL,
    games        INTEGER NOT NULL CHECK (games >= 1),  -- the player's games after this one
    PRIMARY KEY (game_id, scope, player)
);

CREATE INDEX rating_history_by_user ON rating_history (user_id) WHERE user_id IS NOT NULL;
