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
