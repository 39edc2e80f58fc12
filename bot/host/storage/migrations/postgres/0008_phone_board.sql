-- Version 8 (the same schema as the SQLite file of this number): a player may
-- ask for the board drawn for a phone. user_settings.phone_board: the player's
-- private board replies come as the 500 px phone board (default off).

ALTER TABLE user_settings ADD COLUMN phone_board BOOLEAN NOT NULL DEFAULT FALSE;
