-- The seeds of deal groups (a duplicate league's tables of one round and division): every
-- match of a group is stored in match_secrets with its group's one seed.

CREATE TABLE deal_groups (
    group_id    text PRIMARY KEY,
    seed        bytea NOT NULL,
    commitment  text NOT NULL,
    created_at  timestamptz NOT NULL
);
