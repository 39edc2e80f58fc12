-- Version 3 (the same schema as the SQLite file of this number): a
-- 'quarantined' status with a note, the table's language, rematches,
-- snapshots in their own table (written every SNAPSHOT_EVERY actions,
-- compressed; the action log between them is the state), one timer column
-- (the sooner of deadline and reminder) with one index, and user settings.

ALTER TABLE games DROP CONSTRAINT games_status_check;
ALTER TABLE games ADD CONSTRAINT games_status_check
    CHECK (status IN ('lobby', 'active', 'finished', 'cancelled', 'quarantined'));
ALTER TABLE games ADD COLUMN status_note TEXT;
ALTER TABLE games ADD COLUMN snapshot_version INTEGER;
ALTER TABLE games ADD COLUMN language TEXT NOT NULL DEFAULT 'en';
ALTER TABLE games ADD COLUMN rematch_of BIGINT;
ALTER TABLE games ADD COLUMN timer_at DOUBLE PRECISION;
UPDATE games SET timer_at = LEAST(deadline_at, reminder_at);
DROP INDEX games_active_deadline;
DROP INDEX games_active_reminder;
CREATE INDEX games_active_timer ON games (timer_at)
    WHERE status = 'active' AND timer_at IS NOT NULL;

CREATE TABLE snapshots (
    game_id    BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    version    INTEGER NOT NULL CHECK (version >= 0),
    format     TEXT    NOT NULL CHECK (format IN ('json', 'zjson')),
    data       BYTEA   NOT NULL,
    created_at DOUBLE PRECISION NOT NULL
);

INSERT INTO snapshots (game_id, version, format, data, created_at)
SELECT id, version, 'json', convert_to(snapshot, 'UTF8'), updated_at FROM games
WHERE snapshot IS NOT NULL;

UPDATE games SET snapshot_version = version WHERE snapshot IS NOT NULL;
ALTER TABLE games DROP COLUMN snapshot;
ALTER TABLE games ADD CONSTRAINT games_snapshot_version_check
    CHECK (snapshot_version >= 0 AND snapshot_version <= version);

-- Room on each page for updates that stay on it (HOT): the hot row changes
-- with every action.
ALTER TABLE games SET (fillfactor = 70);

CREATE INDEX games_by_channel ON games (channel_id, id);
CREATE INDEX games_finished_by_guild ON games (guild_id, finished_at)
    WHERE status = 'finished';

CREATE TABLE user_settings (
    user_id       BIGINT  PRIMARY KEY,
    turn_pings    BOOLEAN NOT NULL DEFAULT TRUE,
    dm_turns      BOOLEAN NOT NULL DEFAULT FALSE,
    high_contrast BOOLEAN NOT NULL DEFAULT FALSE,
    updated_at    DOUBLE PRECISION NOT NULL
);
