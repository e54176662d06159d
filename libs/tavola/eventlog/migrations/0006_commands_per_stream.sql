-- Command ids are unique per stream, not across the whole log: a client's ids live in its
-- own namespace (see docs/security.md), so the same id in two matches is two commands and
-- no one can occupy an id another stream will use.
ALTER TABLE commands DROP CONSTRAINT commands_pkey;
ALTER TABLE commands ADD CONSTRAINT commands_pkey PRIMARY KEY (stream_id, command_id);
