"""Prometheus metrics of the engine (labels: game, outcome — never ids)."""

from typing import Any

from prometheus_client import Counter, Gauge, Histogram
from prometheus_client.metrics import MetricWrapperBase

COMMANDS = Counter("tavola_engine_commands_total", "Commands handled", ["game", "outcome"])
COMMAND_SECONDS = Histogram(
    "tavola_engine_command_seconds",
    "Time to handle a command",
    ["game"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
EVENTS_APPENDED = Counter("tavola_engine_events_appended_total", "Events appended", ["game"])
MATCHES_CREATED = Counter("tavola_engine_matches_created_total", "Matches created", ["game"])
MATCHES_FINISHED = Counter("tavola_engine_matches_finished_total", "Matches finished", ["game"])
TIMER_EXPIRIES = Counter(
    "tavola_engine_timer_expiries_total", "Automatic moves on timeout", ["game"]
)
TIMER_FAILURES = Counter(
    "tavola_engine_timer_failures_total",
    "Deadlines whose automatic move could not be made (a bug; given up, never looped)",
    ["game"],
)
TAKE_BACKS = Counter(
    "tavola_engine_take_backs_total", "Moves taken back at practice tables", ["game"]
)
CACHED_MATCHES = Gauge("tavola_engine_cached_matches", "Matches held in the engine's cache")
STREAMS_OPEN = Gauge("tavola_engine_event_streams_open", "Client event streams open")
LEAVER_RULE = Counter(
    "tavola_engine_leaver_rule_total",
    "Seats whose player stopped playing, handed to the leaver rule (a bot, or the game's rule)",
    ["game"],
)
SEATS_AWAY = Counter(
    "tavola_engine_seats_away_total",
    "Seats marked away (their client gone for the grace)",
    ["game"],
)


_SERIES: dict[tuple[MetricWrapperBase, tuple[str, ...]], Any] = {}


def series(metric: MetricWrapperBase, *values: str) -> Any:
    """``metric.labels(*values)``, found once per label values (a few games and outcomes):
    the metrics of every command are counted on the hot path."""
    found = _SERIES.get((metric, values))
    if found is None:
        found = _SERIES[(metric, values)] = metric.labels(*values)
    return found
