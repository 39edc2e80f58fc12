-- Version 10: tournaments (Swiss with tables, round robin, single elimination).
-- * tournaments: one per event, in a server's channel; its format, table size, maps,
--   round length and the round it is in;
-- * tournament_players: who signed up (sign-up order breaks the last ties) and, for a
--   player who left, the round after which they forfeit;
-- * tournament_tables: each round's tables, written together (a round is whole or
--   absent), each with its map, its thread and game once opened, done once scored;
-- * tournament_seats: who sits at a table, and their place and score once it is done.

CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    name         TEXT    NOT NULL,
    maps         TEXT    NOT NULL,  -- JSON list of map ids; round r plays maps[(r - 1) % len]
    format       TEXT    NOT NULL CHECK (format IN ('swiss', 'round_robin', 'elimination')),
    table_size   INTEGER NOT NULL CHECK (table_size BETWEEN 2 AND 5),
    rounds       INTEGER NOT NULL DEFAULT 0 CHECK (rounds >= 0),  -- 0: decided at the start
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    turn_seconds INTEGER NOT NULL CHECK (turn_seconds > 0),
    language     TEXT    NOT NULL,
    status       TEXT    NOT NULL DEFAULT 'open'
                 CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    round        INTEGER NOT NULL DEFAULT 0 CHECK (round >= 0),
    created_by   INTEGER,            -- NULL once that user is forgotten
    created_at   REAL    NOT NULL,
    updated_at   REAL    NOT NULL
);

CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,  -- a forgotten user's becomes a negative stand-in
    display_name  TEXT    NOT NULL,
    joined        INTEGER NOT NULL,  -- sign-up order from 0
    left_round    INTEGER,           -- left after this round (0: before it started); NULL: in
    PRIMARY KEY (tournament_id, user_id)
);

CREATE INDEX tournament_players_by_user ON tournament_players (user_id);

CREATE TABLE tournament_tables (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL CHECK (round >= 1),
    table_no      INTEGER NOT NULL CHECK (table_no >= 1),
    map_id        TEXT    NOT NULL,
    thread_id     INTEGER,
    game_id       INTEGER,
    done          INTEGER NOT NULL DEFAULT 0 CHECK (done IN (0, 1)),
    PRIMARY KEY (tournament_id, round, table_no)
);

CREATE INDEX tournament_tables_by_game ON tournament_tables (game_id);

CREATE TABLE tournament_seats (
    tournament_id INTEGER NOT NULL,
    round         INTEGER NOT NULL,
    table_no      INTEGER NOT NULL,
    seat          INTEGER NOT NULL CHECK (seat >= 0),
    user_id       INTEGER NOT NULL,
    place         INTEGER CHECK (place >= 1),  -- NULL until the table is done
    score         INTEGER,
    PRIMARY KEY (tournament_id, round, table_no, seat),
    FOREIGN KEY (tournament_id, round, table_no)
        REFERENCES tournament_tables (tournament_id, round, table_no) ON DELETE CASCADE
);

CREATE INDEX tournament_seats_by_user ON tournament_seats (user_id);
