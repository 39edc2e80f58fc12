-- Version 6 (the same schema as the SQLite file of this number): a paused_at
-- column for the running games of a server that removed the bot, the
-- servers that removed it (guild_departures, for the retention period), an
-- action log that is append-only except that a forgotten user's id may be
-- cleared from it, and indexes for a server's games and a host's games.

ALTER TABLE games ADD COLUMN paused_at DOUBLE PRECISION;

CREATE TABLE guild_departures (
    guild_id BIGINT PRIMARY KEY,
    left_at  DOUBLE PRECISION NOT NULL
);

CREATE INDEX games_by_guild ON games (guild_id);
CREATE INDEX games_by_host ON games (host_user_id);

CREATE FUNCTION actions_forget_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.actor_user_id IS NULL
        AND (NEW.game_id, NEW.seq, NEW.seat, NEW.action, NEW.source, NEW.created_at)
            IS NOT DISTINCT FROM
            (OLD.game_id, OLD.seq, OLD.seat, OLD.action, OLD.source, OLD.created_at) THEN
        RETURN NEW;
    END IF;
    RAISE EXCEPTION 'actions: the log is append-only'
        USING ERRCODE = 'check_violation';
END
$$;

DROP TRIGGER actions_no_update ON actions;
CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
    FOR EACH ROW EXECUTE FUNCTION actions_forget_only();
