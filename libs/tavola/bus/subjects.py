"""Every NATS subject, stream and consumer name of the platform, in one place.

Names live under a namespace (``TAVOLA_NAMESPACE``, default ``tavola``) so that several
platforms — a developer's, CI's test runs — can share one NATS server without meeting.
"""

from __future__ import annotations

from dataclasses import dataclass

DUPLICATE_WINDOW_SECONDS = 600.0
ENGINE_QUEUE = "engine"
LOBBY_QUEUE = "lobby"
SCORING_QUEUE = "scoring"
BOTS_GROUP = "bots"  # durable consumer and queue group of the bot service
SCORING_GROUP = "scoring"  # durable consumer and queue group of the scoring service


@dataclass(frozen=True, slots=True)
class Subjects:
    namespace: str = "tavola"

    def __post_init__(self) -> None:
        if not self.namespace.replace("_", "").replace("-", "").isalnum():
            raise ValueError(f"unsuitable NATS namespace {self.namespace!r}")

    @property
    def events_stream(self) -> str:
        """The JetStream stream carrying every committed event."""
        return f"{self.namespace.upper().replace('-', '_')}_EVENTS"

    @property
    def events_prefix(self) -> str:
        return f"{self.namespace}.events"

    @property
    def events_all(self) -> str:
        return f"{self.events_prefix}.>"

    @property
    def match_events_all(self) -> str:
        return f"{self.events_prefix}.match.>"

    @property
    def engine_rpc(self) -> str:
        return f"{self.namespace}.rpc.engine"

    @property
    def lobby_rpc(self) -> str:
        return f"{self.namespace}.rpc.lobby"

    @property
    def scoring_rpc(self) -> str:
        return f"{self.namespace}.rpc.scoring"

    def stream_subject(self, stream_id: str) -> str:
        """``match-<id>`` -> ``<ns>.events.match.<id>``; ``table-<id>`` likewise."""
        category, _, ident = stream_id.partition("-")
        if not ident:
            raise ValueError(f"stream id without category: {stream_id!r}")
        return f"{self.events_prefix}.{category}.{ident}"
