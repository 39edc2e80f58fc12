-- Version 7: a hint is counted once per turn.
-- * seats.hint_turn: the game turn (GameState.turn) of the seat's last counted
--   hint, NULL before its first; asking again in that turn counts nothing.

ALTER TABLE seats ADD COLUMN hint_turn INTEGER;
