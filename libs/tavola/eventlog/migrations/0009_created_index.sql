-- Finding the unfinished matches quickly when an engine gains a partition: the tables of
-- bots among them may wait for a bot's turn that only this log still knows of
-- (services/engine/bot_turns.py). One row per match is indexed.
CREATE INDEX IF NOT EXISTS events_created_streams ON events (stream_id)
    WHERE type = 'match.MatchCreated';
