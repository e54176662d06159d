"""Prometheus metrics of the bot service."""

from prometheus_client import Counter

DECISIONS = Counter("tavola_bots_decisions_total", "Bot decisions submitted", ["level", "outcome"])
TURNS = Counter(
    "tavola_bots_turns_total", "Turns the engine told this instance, by outcome", ["outcome"]
)
KNOWLEDGE = Counter(
    "tavola_bots_knowledge_total",
    "Decisions by where the seat's view and history came from (pushed by the engine, or asked)",
    ["source"],
)

# Children looked up once (``labels`` costs a lock and a dict walk on every call).
TURNS_OK = TURNS.labels(outcome="ok")
TURNS_FAILED = TURNS.labels(outcome="failed")  # told again by the engine
PUSHED = KNOWLEDGE.labels(source="pushed")
ASKED = KNOWLEDGE.labels(source="asked")
_DECISIONS: dict[tuple[str, str], Counter] = {}


def decided(level: str, outcome: str) -> None:
    """Count one decision of ``level`` with ``outcome``."""
    child = _DECISIONS.get((level, outcome))
    if child is None:
        child = _DECISIONS[level, outcome] = DECISIONS.labels(level=level, outcome=outcome)
    child.inc()
