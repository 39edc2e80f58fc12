-- Turn timers, idle/vacation bookkeeping per seat, and per-player results for
-- statistics (the same schema as the SQLite file of this number).

ALTER TABLE games ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 86400
    CHECK (turn_seconds > 0);
ALTER TABLE games ADD COLUMN deadline_at DOUBLE PRECISION;
ALTER TABLE games ADD COLUMN reminder_at DOUBLE PRECISION;

CREATE INDEX games_active_deadline ON games (deadline_at)
    WHERE status = 'active' AND deadline_at IS NOT NULL;
CREATE INDEX games_active_reminder ON games (reminder_at)
    WHERE status = 'active' AND reminder_at IS NOT NULL;

ALTER TABLE seats ADD COLUMN expiries_in_row INTEGER NOT NULL DEFAULT 0
    CHECK (expiries_in_row >= 0);
ALTER TABLE seats ADD COLUMN ai_permanent BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE seats ADD COLUMN vacation_used_s DOUBLE PRECISION NOT NULL DEFAULT 0
    CHECK (vacation_used_s >= 0);
ALTER TABLE seats ADD COLUMN vacation_until DOUBLE PRECISION;
ALTER TABLE seats ADD COLUMN resigned BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE results (
    game_id           BIGINT  NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat              INTEGER NOT NULL,
    user_id           BIGINT,
    guild_id          BIGINT  NOT NULL,
    map_id            TEXT    NOT NULL,
    score             INTEGER NOT NULL,
    rank              INTEGER NOT NULL CHECK (rank >= 1),
    won               BOOLEAN NOT NULL,
    tickets_completed INTEGER NOT NULL DEFAULT 0 CHECK (tickets_completed >= 0),
    tickets_failed    INTEGER NOT NULL DEFAULT 0 CHECK (tickets_failed >= 0),
    finished_at       DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX results_by_guild_user ON results (guild_id, user_id);
CREATE INDEX results_by_user_time ON results (user_id, finished_at);
