-- Match seeds, kept out of the event streams until they are revealed at the match's end.
-- The commitment (hex SHA-256 of the seed) is what the stream shows from the start.

CREATE TABLE match_secrets (
    match_id    text PRIMARY KEY,
    seed        bytea NOT NULL,
    commitment  text NOT NULL,
    created_at  timestamptz NOT NULL,
    revealed    boolean NOT NULL DEFAULT false
);
