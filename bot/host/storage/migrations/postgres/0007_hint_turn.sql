-- Version 7 (the same schema as the SQLite file of this number): a hint is
-- counted once per turn. seats.hint_turn: the game turn of the seat's last
-- counted hint, NULL before its first; asking again in that turn counts nothing.

ALTER TABLE seats ADD COLUMN hint_turn INTEGER;
