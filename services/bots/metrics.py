"""Prometheus metrics of the bot service."""

from prometheus_client import Counter

DECISIONS = Counter("tavola_bots_decisions_total", "Bot decisions submitted", ["level", "outcome"])
EVENTS = Counter("tavola_bots_events_total", "Events consumed", ["outcome"])
KNOWLEDGE = Counter(
    "tavola_bots_knowledge_total",
    "Decisions by where the seat's view and history came from (pushed by the engine, or asked)",
    ["source"],
)
