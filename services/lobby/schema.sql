-- The lobby's projection of the table streams (ListTables). Each row is written in the
-- same transaction as the table's events; `python -m services.lobby rebuild` rebuilds it.
CREATE TABLE IF NOT EXISTS lobby_tables (
    table_id        text PRIMARY KEY,
    game            text NOT NULL,
    status          text NOT NULL,
    players         integer NOT NULL,
    free_seats      integer NOT NULL,
    host_account_id text NOT NULL,
    host_name       text NOT NULL,
    match_id        text NOT NULL,
    house_rules     text[] NOT NULL,
    access          text NOT NULL,
    created_at_ms   bigint NOT NULL,
    version         integer NOT NULL,
    members         text[] NOT NULL
);
CREATE INDEX IF NOT EXISTS lobby_tables_listing ON lobby_tables (status, created_at_ms DESC);
CREATE INDEX IF NOT EXISTS lobby_tables_match ON lobby_tables (match_id);
CREATE INDEX IF NOT EXISTS lobby_tables_members ON lobby_tables USING gin (members);
