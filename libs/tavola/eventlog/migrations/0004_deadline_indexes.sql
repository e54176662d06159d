-- Finding matches with running turn timers quickly when an engine starts.
CREATE INDEX IF NOT EXISTS events_deadline_streams ON events (stream_id)
    WHERE type = 'match.DeadlineSet';
CREATE INDEX IF NOT EXISTS events_ended_streams ON events (stream_id)
    WHERE type = 'match.MatchEnded';
