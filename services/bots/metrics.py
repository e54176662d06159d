"""Prometheus metrics of the bot service."""

from prometheus_client import Counter

DECISIONS = Counter("tavola_bots_decisions_total", "Bot decisions submitted", ["level", "outcome"])
EVENTS = Counter("tavola_bots_events_total", "Events consumed", ["outcome"])
KNOWLEDGE = Counter(
    "tavola_bots_knowledge_total",
    "Decisions by where the seat's view and history came from (pushed by the engine, or asked)",
    ["source"],
)

# Children looked up once (``labels`` costs a lock and a dict walk on every call).
EVENTS_OK = EVENTS.labels(outcome="ok")
PUSHED = KNOWLEDGE.labels(source="pushed")
ASKED = KNOWLEDGE.labels(source="asked")
_DECISIONS: dict[tuple[str, str], Counter] = {}


def decided(level: str, outcome: str) -> None:
    """Count one decision of ``level`` with ``outcome``."""
    child = _DECISIONS.get((level, outcome))
    if child is None:
        child = _DECISIONS[level, outcome] = DECISIONS.labels(level=level, outcome=outcome)
    child.inc()
