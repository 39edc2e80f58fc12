-- Version 8: a player may ask for the board drawn for a phone.
-- * user_settings.phone_board: the player's private board replies (/ttr board,
--   the Board button) come as the 500 px phone board (default off).

ALTER TABLE user_settings ADD COLUMN phone_board INTEGER NOT NULL DEFAULT 0 CHECK (phone_board IN (0, 1));
