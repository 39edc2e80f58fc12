-- Version 5 (the same schema as the SQLite file of this number): whether a
-- game allows hints, the hints each player took, and the analyses of
-- finished games (queued when the game ends, computed by a worker, stored as
-- JSON).

ALTER TABLE games ADD COLUMN hints_allowed BOOLEAN NOT NULL DEFAULT TRUE;
UPDATE games SET hints_allowed = FALSE WHERE rated;  -- a rated game never has hints

ALTER TABLE seats ADD COLUMN hints_used INTEGER NOT NULL DEFAULT 0
    CHECK (hints_used >= 0);

CREATE TABLE analyses (
    game_id     BIGINT  PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status      TEXT    NOT NULL DEFAULT 'queued'
                CHECK (status IN ('queued', 'running', 'done', 'failed')),
    queued_at   DOUBLE PRECISION NOT NULL,
    started_at  DOUBLE PRECISION,
    finished_at DOUBLE PRECISION,
    attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    data        TEXT,
    note        TEXT
);

CREATE INDEX analyses_waiting ON analyses (queued_at, game_id)
    WHERE status IN ('queued', 'running');
