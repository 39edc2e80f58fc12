-- Version 5 (issue 33, the coach):
-- * games.hints_allowed: whether players may ask /ttr hint in this game (the
--   host's choice at /ttr new; never in a rated game, so rated games opened
--   before this version get 0);
-- * seats.hints_used: the hints each player took, shown in the final table;
-- * analyses: the analysis of a finished game (each seat's chance to win
--   after every turn), queued in the transaction that finishes the game,
--   computed by a worker process and stored as JSON. A row 'running' whose
--   worker died is taken up again after a restart.

ALTER TABLE games ADD COLUMN hints_allowed INTEGER NOT NULL DEFAULT 1
    CHECK (hints_allowed IN (0, 1));
UPDATE games SET hints_allowed = 0 WHERE rated = 1;

ALTER TABLE seats ADD COLUMN hints_used INTEGER NOT NULL DEFAULT 0
    CHECK (hints_used >= 0);

CREATE TABLE analyses (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    status      TEXT    NOT NULL DEFAULT 'queued'
                CHECK (status IN ('queued', 'running', 'done', 'failed')),
    queued_at   REAL    NOT NULL,
    started_at  REAL,
    finished_at REAL,
    attempts    INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
    data        TEXT,               -- the analysis as JSON once done
    note        TEXT                -- why it failed
);

-- The queue: waiting and running analyses in the order they were asked for.
CREATE INDEX analyses_waiting ON analyses (queued_at, game_id)
    WHERE status IN ('queued', 'running');
