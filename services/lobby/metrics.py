"""Prometheus metrics of the lobby."""

from prometheus_client import Counter

TABLES_CREATED = Counter("tavola_lobby_tables_created_total", "Tables created", ["game"])
MATCHES_STARTED = Counter("tavola_lobby_matches_started_total", "Matches started", ["game"])
