-- Version 4 (issue 32; the same schema as the SQLite file of this number):
-- games.rated; the rating identity, place and longest-path bonus of each
-- result; server settings; ladders (a server's current season and count of
-- rated games, the row every rating write updates first, so one server's
-- games are rated one after the other); seasons, rated games, ratings and
-- their history.

ALTER TABLE games ADD COLUMN rated BOOLEAN NOT NULL DEFAULT FALSE;

ALTER TABLE results ADD COLUMN player TEXT;
ALTER TABLE results ADD COLUMN place INTEGER CHECK (place >= 1);
ALTER TABLE results ADD COLUMN longest_path_bonus BOOLEAN;

CREATE TABLE guild_settings (
    guild_id     BIGINT  PRIMARY KEY,
    language     TEXT    CHECK (language IN ('en', 'de')),
    turn_seconds INTEGER CHECK (turn_seconds > 0),
    rated        BOOLEAN NOT NULL DEFAULT TRUE,
    hints        BOOLEAN NOT NULL DEFAULT TRUE,
    channels     TEXT    NOT NULL DEFAULT '[]',
    updated_at   DOUBLE PRECISION NOT NULL,
    updated_by   BIGINT
);

CREATE TABLE ladders (
    guild_id    BIGINT  PRIMARY KEY,
    season      INTEGER NOT NULL DEFAULT 1 CHECK (season >= 1),
    rated_games INTEGER NOT NULL DEFAULT 0 CHECK (rated_games >= 0),
    updated_at  DOUBLE PRECISION NOT NULL
);

CREATE TABLE seasons (
    guild_id   BIGINT  NOT NULL,
    season     INTEGER NOT NULL CHECK (season >= 1),
    started_at DOUBLE PRECISION NOT NULL,
    started_by BIGINT,
    PRIMARY KEY (guild_id, season)
);

CREATE TABLE rated_games (
    game_id  BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    guild_id BIGINT  NOT NULL,
    season   INTEGER NOT NULL CHECK (season >= 1),
    seq      INTEGER NOT NULL CHECK (seq >= 1),
    map_id   TEXT    NOT NULL,
    rated_at DOUBLE PRECISION NOT NULL,
    UNIQUE (guild_id, seq)
);

CREATE TABLE ratings (
    guild_id   BIGINT  NOT NULL,
    season     INTEGER NOT NULL CHECK (season >= 1),
    scope      TEXT    NOT NULL,
    player     TEXT    NOT NULL,
    user_id    BIGINT,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    games      INTEGER NOT NULL CHECK (games >= 1),
    updated_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, season, scope, player)
);

CREATE INDEX ratings_by_user ON ratings (user_id) WHERE user_id IS NOT NULL;

CREATE TABLE rating_history (
    game_id      BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    scope        TEXT    NOT NULL,
    player       TEXT    NOT NULL,
    user_id      BIGINT,
    mu_before    DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after     DOUBLE PRECISION NOT NULL,
    sigma_after  DOUBLE PRECISION NOT NULL,
    games        INTEGER NOT NULL CHECK (games >= 1),
    PRIMARY KEY (game_id, scope, player)
);

CREATE INDEX rating_history_by_user ON rating_history (user_id) WHERE user_id IS NOT NULL;
