"""Prometheus metrics of the lobby."""

from prometheus_client import Counter

TABLES_CREATED = Counter("tavola_lobby_tables_created_total", "Tables created", ["game"])
MATCHES_STARTED = Counter("tavola_lobby_matches_started_total", "Matches started", ["game"])
LEAGUE_STEPS = Counter(
    "tavola_lobby_league_steps_total", "Round steps the league scheduler took", ["step"]
)
LEAGUE_STEP_FAILURES = Counter(
    "tavola_lobby_league_step_failures_total", "Round steps that failed (retried)", ["step"]
)
LEAGUE_RESULTS = Counter("tavola_lobby_league_results_total", "League table results recorded")
