-- Scoring projection (rebuildable from the event log).
CREATE TABLE IF NOT EXISTS scoring_processed (
    event_id uuid PRIMARY KEY,
    processed_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS match_standings (
    match_id text NOT NULL,
    seat integer NOT NULL,
    game text NOT NULL,
    player_name text NOT NULL,
    is_bot boolean NOT NULL,
    score bigint NOT NULL,
    rank integer NOT NULL,
    house_rules boolean NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS match_standings_player ON match_standings (player_name, game);
CREATE TABLE IF NOT EXISTS ratings (
    player text NOT NULL,
    game text NOT NULL,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    matches bigint NOT NULL,
    PRIMARY KEY (player, game)
);
-- Results and ratings count for accounts: `player` is the account id (matches recorded
-- before accounts existed: "name:<player name>"), `name` its display name when rated.
ALTER TABLE ratings ADD COLUMN IF NOT EXISTS name text NOT NULL DEFAULT '';
ALTER TABLE match_standings ADD COLUMN IF NOT EXISTS account_id text NOT NULL DEFAULT '';
CREATE INDEX IF NOT EXISTS match_standings_account ON match_standings (account_id, game);
-- Every rating update (a match, or a Doppelkopf game), and the matches that are league
-- matches (from league.RoundOpened): both belong to the ratings projection.
CREATE TABLE IF NOT EXISTS rating_history (
    player text NOT NULL,
    game text NOT NULL,
    match_id text NOT NULL,
    game_no integer NOT NULL,
    mu double precision NOT NULL,
    sigma double precision NOT NULL,
    recorded_at timestamptz NOT NULL,
    PRIMARY KEY (player, game, match_id, game_no)
);
CREATE TABLE IF NOT EXISTS rating_league_matches (match_id text PRIMARY KEY);
-- Statistics: one row per finished match and seated account, its counters beside it.
CREATE TABLE IF NOT EXISTS player_matches (
    match_id text NOT NULL,
    seat integer NOT NULL,
    account_id text NOT NULL,
    name text NOT NULL,
    game text NOT NULL,
    score bigint NOT NULL,
    rank integer NOT NULL,
    players integer NOT NULL,
    ended_at timestamptz NOT NULL,
    projected_at timestamptz NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS player_matches_account ON player_matches (account_id, game, ended_at DESC);
CREATE TABLE IF NOT EXISTS player_match_counters (
    match_id text NOT NULL,
    seat integer NOT NULL,
    account_id text NOT NULL,
    game text NOT NULL,
    key text NOT NULL,
    value bigint NOT NULL,
    PRIMARY KEY (match_id, seat, key)
);
CREATE INDEX IF NOT EXISTS player_match_counters_account ON player_match_counters (account_id, game);
-- League standings: per season, division and round (after_round 0: every result so far).
CREATE TABLE IF NOT EXISTS league_seasons (
    league_id text NOT NULL,
    season integer NOT NULL,
    name text NOT NULL,
    game text NOT NULL,
    divisions text[] NOT NULL,
    tie_breaks text[] NOT NULL,
    rounds integer[] NOT NULL,
    open_rounds integer[] NOT NULL,
    ended boolean NOT NULL,
    moves jsonb NOT NULL,
    options jsonb NOT NULL,
    PRIMARY KEY (league_id, season)
);
CREATE TABLE IF NOT EXISTS league_standings (
    league_id text NOT NULL,
    season integer NOT NULL,
    division text NOT NULL,
    after_round integer NOT NULL,
    rank integer NOT NULL,
    entrant text NOT NULL,
    name text NOT NULL,
    points double precision NOT NULL,
    columns jsonb NOT NULL,
    played integer NOT NULL,
    byes integer NOT NULL,
    absences integer NOT NULL,
    withdrawn boolean NOT NULL,
    rounds text[] NOT NULL,
    projected_at timestamptz NOT NULL,
    PRIMARY KEY (league_id, season, division, after_round, rank)
);
-- A referee's corrections (match.Correction): a voided match counts for nothing in the
-- totals (its rows show it as played); the other rows hold the corrected result. The
-- matches the ratings projection rated, in the log's order (a correction re-rates the
-- game from its first match on).
ALTER TABLE match_standings ADD COLUMN IF NOT EXISTS voided boolean NOT NULL DEFAULT false;
CREATE TABLE IF NOT EXISTS rating_matches (
    game text NOT NULL,
    match_id text NOT NULL,
    stream_id text NOT NULL,
    tx bigint NOT NULL,
    position bigint NOT NULL,
    PRIMARY KEY (game, match_id)
);
-- When the live projectors applied each event they want (lag figures; not a projection).
CREATE TABLE IF NOT EXISTS projection_applied (
    name text NOT NULL,
    stream_id text NOT NULL,
    version integer NOT NULL,
    recorded_at timestamptz NOT NULL,
    applied_at timestamptz NOT NULL,
    PRIMARY KEY (name, stream_id, version)
);
