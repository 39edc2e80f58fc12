-- Version 12 (the same schema as the SQLite file of this number): seats that change hands
-- during a game, and a confirm click before a claim. user_settings.confirm_claims: a claim
-- waits for one more click (default off). seat_handovers: one row each time a seat of a
-- running game passed to another member (who left, who took it: NULL once forgotten).

ALTER TABLE user_settings ADD COLUMN confirm_claims BOOLEAN NOT NULL DEFAULT FALSE;

CREATE TABLE seat_handovers (
    id BIGSERIAL PRIMARY KEY,
    game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL CHECK (seat >= 0),
    version INTEGER NOT NULL CHECK (version >= 0),
    from_user_id BIGINT,
    to_user_id BIGINT,
    reason TEXT NOT NULL CHECK (reason IN ('handed', 'timeout')),
    at DOUBLE PRECISION NOT NULL
);

CREATE INDEX seat_handovers_by_game ON seat_handovers (game_id, id);
CREATE INDEX seat_handovers_by_from ON seat_handovers (from_user_id);
CREATE INDEX seat_handovers_by_to ON seat_handovers (to_user_id);
