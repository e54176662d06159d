-- The lobby's projections of the league streams (written in the same transaction as the
-- league's events) and the rounds' seating seeds (kept apart from the log until revealed
-- by the round's league.RoundEnded).
CREATE TABLE IF NOT EXISTS lobby_leagues (
    league_id       text PRIMARY KEY,
    name            text NOT NULL,
    game            text NOT NULL,
    host_account_id text NOT NULL,
    host_name       text NOT NULL,
    created_at_ms   bigint NOT NULL,
    version         integer NOT NULL
);
CREATE INDEX IF NOT EXISTS lobby_leagues_listing ON lobby_leagues (created_at_ms DESC);
CREATE TABLE IF NOT EXISTS lobby_league_matches (
    match_id  text PRIMARY KEY,
    league_id text NOT NULL
);
CREATE TABLE IF NOT EXISTS league_round_secrets (
    league_id  text NOT NULL,
    season     integer NOT NULL,
    round      integer NOT NULL,
    commitment text NOT NULL,
    seed       bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (league_id, season, round, commitment)
);
