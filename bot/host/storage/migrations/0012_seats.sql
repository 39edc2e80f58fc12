-- Version 12: seats that change hands during a game, and a confirm click before a claim.
-- * user_settings.confirm_claims: a claim waits for one more click, Claim it (default off).
-- * seat_handovers: one row each time a seat of a running game passed to another member
--   (/ttr seat give, or a host's offer of a seat lost to timeouts): the seat, the game
--   version it happened at, who left it and who took it (user ids; NULL once that user was
--   forgotten), why ('handed' or 'timeout') and when (unix seconds). The game's log tells it.

ALTER TABLE user_settings ADD COLUMN confirm_claims INTEGER NOT NULL DEFAULT 0 CHECK (confirm_claims IN (0, 1));

CREATE TABLE seat_handovers (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat >= 0),
    version INTEGER NOT NULL CHECK (version >= 0),
    from_user_id INTEGER,
    to_user_id INTEGER,
    reason TEXT NOT NULL CHECK (reason IN ('handed', 'timeout')),
    at REAL NOT NULL
);

CREATE INDEX seat_handovers_by_game ON seat_handovers (game_id, id);
CREATE INDEX seat_handovers_by_from ON seat_handovers (from_user_id);
CREATE INDEX seat_handovers_by_to ON seat_handovers (to_user_id);
