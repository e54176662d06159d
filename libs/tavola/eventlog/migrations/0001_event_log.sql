-- The event log: one append-only stream per match or table, plus the command records
-- that make retried commands idempotent. See docs/eventlog.md.

CREATE TABLE events (
    position        bigint GENERATED ALWAYS AS IDENTITY,
    -- The writing transaction; readers of the global order only read rows whose tx is
    -- below the oldest running transaction, so a late commit is never skipped.
    tx              xid8 NOT NULL DEFAULT pg_current_xact_id(),
    stream_id       text NOT NULL CHECK (stream_id <> ''),
    version         integer NOT NULL CHECK (version >= 1),
    event_id        uuid NOT NULL,
    type            text NOT NULL,
    schema_version  integer NOT NULL,
    rules_version   integer NOT NULL,
    payload         bytea NOT NULL,
    audience        integer[],
    metadata        bytea NOT NULL,
    recorded_at     timestamptz NOT NULL,
    prev_hash       bytea NOT NULL CHECK (octet_length(prev_hash) = 32),
    hash            bytea NOT NULL CHECK (octet_length(hash) = 32),
    CONSTRAINT events_pkey PRIMARY KEY (stream_id, version),
    CONSTRAINT events_event_id_key UNIQUE (event_id)
);

CREATE INDEX events_global_order ON events (tx, position);

CREATE TABLE commands (
    command_id      text PRIMARY KEY,
    stream_id       text NOT NULL,
    first_version   integer NOT NULL,
    last_version    integer NOT NULL,
    result          bytea NOT NULL,
    recorded_at     timestamptz NOT NULL,
    CHECK (last_version >= first_version - 1)
);

-- The log is append-only: history is never rewritten in place.
CREATE FUNCTION events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the event log is append-only (% on events refused)', TG_OP;
END;
$$;

CREATE TRIGGER events_append_only
    BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_refuse_change();

CREATE TRIGGER events_no_truncate
    BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change();

-- Wake tailing readers when an append commits (polling remains the safety net).
CREATE FUNCTION events_notify_append() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tavola_eventlog_append', '');
    RETURN NULL;
END;
$$;

CREATE TRIGGER events_notify
    AFTER INSERT ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_notify_append();
