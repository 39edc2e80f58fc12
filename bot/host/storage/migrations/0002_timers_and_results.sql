-- Turn timers, idle/vacation bookkeeping per seat, and per-player results for
-- statistics.

ALTER TABLE games ADD COLUMN turn_seconds INTEGER NOT NULL DEFAULT 86400
    CHECK (turn_seconds > 0);
ALTER TABLE games ADD COLUMN deadline_at REAL;  -- expiry of the active turn
ALTER TABLE games ADD COLUMN reminder_at REAL;  -- when to nudge the player to move

-- The timer loop asks for the soonest deadline or reminder of an active game.
CREATE INDEX games_active_deadline ON games (deadline_at)
    WHERE status = 'active' AND deadline_at IS NOT NULL;
CREATE INDEX games_active_reminder ON games (reminder_at)
    WHERE status = 'active' AND reminder_at IS NOT NULL;

ALTER TABLE seats ADD COLUMN expiries_in_row INTEGER NOT NULL DEFAULT 0
    CHECK (expiries_in_row >= 0);
ALTER TABLE seats ADD COLUMN ai_permanent INTEGER NOT NULL DEFAULT 0
    CHECK (ai_permanent IN (0, 1));
ALTER TABLE seats ADD COLUMN vacation_used_s REAL NOT NULL DEFAULT 0
    CHECK (vacation_used_s >= 0);
ALTER TABLE seats ADD COLUMN vacation_until REAL;
ALTER TABLE seats ADD COLUMN resigned INTEGER NOT NULL DEFAULT 0
    CHECK (resigned IN (0, 1));

CREATE TABLE results (
    game_id           INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat              INTEGER NOT NULL,
    user_id           INTEGER,          -- NULL for an AI seat
    guild_id          INTEGER NOT NULL,
    map_id            TEXT    NOT NULL,
    score             INTEGER NOT NULL,
    rank              INTEGER NOT NULL CHECK (rank >= 1),
    won               INTEGER NOT NULL CHECK (won IN (0, 1)),
    tickets_completed INTEGER NOT NULL DEFAULT 0 CHECK (tickets_completed >= 0),
    tickets_failed    INTEGER NOT NULL DEFAULT 0 CHECK (tickets_failed >= 0),
    finished_at       REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX results_by_guild_user ON results (guild_id, user_id);
CREATE INDEX results_by_user_time ON results (user_id, finished_at);
