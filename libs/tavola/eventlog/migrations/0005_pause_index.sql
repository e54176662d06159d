-- Finding matches paused between games quickly when an engine starts.
CREATE INDEX IF NOT EXISTS events_pause_streams ON events (stream_id)
    WHERE type = 'match.PauseStarted';
