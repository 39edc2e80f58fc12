-- ttr: foreign_keys=off
-- Version 3:
-- * a 'quarantined' status for games whose stored state cannot be read,
--   with status_note saying why (issue 12.5);
-- * the table's language and the game a lobby is a rematch of;
-- * snapshots leave the games row for their own table, written every
--   SNAPSHOT_EVERY actions (compressed); between two snapshots the action log
--   is the state. An action then dirties the small games row and one page of
--   the log instead of rewriting the whole snapshot (issue 12.8);
-- * one timer column, timer_at = the sooner of deadline_at and reminder_at,
--   and one index on it instead of one per timer: a move changes one index
--   entry, not two;
-- * per-user settings.
-- SQLite cannot change a CHECK constraint in place, so games is rebuilt (the
-- documented 12-step procedure: foreign keys are off while this file runs and
-- checked before it commits).

CREATE TABLE games_v3 (
    id               INTEGER PRIMARY KEY,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,  -- the channel or thread the game lives in
    thread_id        INTEGER,           -- set when the game runs in a thread
    lobby_message_id INTEGER,
    board_message_id INTEGER,
    host_user_id     INTEGER NOT NULL,
    map_id           TEXT    NOT NULL,
    options          TEXT    NOT NULL DEFAULT '{}',
    status           TEXT    NOT NULL DEFAULT 'lobby'
                     CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'quarantined')),
    status_note      TEXT,              -- why a game was quarantined
    seed             INTEGER,
    engine_version   TEXT,
    version          INTEGER NOT NULL DEFAULT 0 CHECK (version >= 0),
    snapshot_version INTEGER CHECK (snapshot_version >= 0 AND snapshot_version <= version),
    language         TEXT    NOT NULL DEFAULT 'en',
    rematch_of       INTEGER,           -- the game this lobby is a rematch of
    turn_seconds     INTEGER NOT NULL DEFAULT 86400 CHECK (turn_seconds > 0),
    deadline_at      REAL,              -- expiry of the active turn
    reminder_at      REAL,              -- when to nudge the player to move
    timer_at         REAL,              -- the sooner of the two (what the timer loop waits for)
    created_at       REAL    NOT NULL,
    updated_at       REAL    NOT NULL,
    finished_at      REAL
);

INSERT INTO games_v3 (
    id, guild_id, channel_id, thread_id, lobby_message_id, board_message_id, host_user_id,
    map_id, options, status, seed, engine_version, version, snapshot_version, turn_seconds,
    deadline_at, reminder_at, timer_at, created_at, updated_at, finished_at
)
SELECT
    id, guild_id, channel_id, thread_id, lobby_message_id, board_message_id, host_user_id,
    map_id, options, status, seed, engine_version, version,
    CASE WHEN snapshot IS NULL THEN NULL ELSE version END, turn_seconds,
    deadline_at, reminder_at,
    CASE
        WHEN deadline_at IS NULL THEN reminder_at
        WHEN reminder_at IS NULL OR deadline_at <= reminder_at THEN deadline_at
        ELSE reminder_at
    END,
    created_at, updated_at, finished_at
FROM games;

-- The newest snapshot of each started game: 'json' (UTF-8 JSON text, as
-- older versions stored it) or 'zjson' (the same, zlib-compressed).
CREATE TABLE snapshots (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL CHECK (version >= 0),
    format     TEXT    NOT NULL CHECK (format IN ('json', 'zjson')),
    data       BLOB    NOT NULL,
    created_at REAL    NOT NULL
);

INSERT INTO snapshots (game_id, version, format, data, created_at)
SELECT id, version, 'json', CAST(snapshot AS BLOB), updated_at FROM games
WHERE snapshot IS NOT NULL;

-- the log's triggers name games: they go while games is rebuilt and come back below
DROP TRIGGER actions_gapless;
DROP TRIGGER actions_no_update;
DROP TRIGGER actions_no_delete;
DROP TABLE games;
ALTER TABLE games_v3 RENAME TO games;

-- At most one open (lobby or active) game per channel.
CREATE UNIQUE INDEX games_one_open_per_channel
    ON games (channel_id) WHERE status IN ('lobby', 'active');
-- The timer loop asks for the soonest timer (deadline or reminder) of an active game.
CREATE INDEX games_active_timer ON games (timer_at)
    WHERE status = 'active' AND timer_at IS NOT NULL;
-- The last game of a channel whatever its status (/ttr status after the end).
CREATE INDEX games_by_channel ON games (channel_id, id);
-- A guild's finished games, newest first (/ttr history).
CREATE INDEX games_finished_by_guild ON games (guild_id, finished_at)
    WHERE status = 'finished';

-- The log is append-only and gapless: seq n+1 follows seq n, rows never change,
-- and rows go away only with their game (ON DELETE CASCADE).
CREATE TRIGGER actions_gapless BEFORE INSERT ON actions
WHEN NEW.seq <> (SELECT COALESCE(MAX(seq), 0) + 1 FROM actions WHERE game_id = NEW.game_id)
BEGIN
    SELECT RAISE(ABORT, 'actions: seq must follow the last seq of the game');
END;

CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
BEGIN
    SELECT RAISE(ABORT, 'actions: the log is append-only');
END;

CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
WHEN EXISTS (SELECT 1 FROM games WHERE id = OLD.game_id)
BEGIN
    SELECT RAISE(ABORT, 'actions: the log is append-only');
END;

CREATE TABLE user_settings (
    user_id       INTEGER PRIMARY KEY,
    turn_pings    INTEGER NOT NULL DEFAULT 1 CHECK (turn_pings IN (0, 1)),
    dm_turns      INTEGER NOT NULL DEFAULT 0 CHECK (dm_turns IN (0, 1)),
    high_contrast INTEGER NOT NULL DEFAULT 0 CHECK (high_contrast IN (0, 1)),
    updated_at    REAL    NOT NULL
);
