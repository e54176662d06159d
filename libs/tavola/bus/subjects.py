"""Every NATS subject, stream and consumer name of the platform, in one place."""

from __future__ import annotations

EVENTS_STREAM = "TAVOLA_EVENTS"
EVENTS_PREFIX = "tavola.events"
EVENTS_ALL = f"{EVENTS_PREFIX}.>"
MATCH_EVENTS_ALL = f"{EVENTS_PREFIX}.match.>"
DUPLICATE_WINDOW_SECONDS = 600.0

RPC_PREFIX = "tavola.rpc"
ENGINE_RPC = f"{RPC_PREFIX}.engine"
LOBBY_RPC = f"{RPC_PREFIX}.lobby"
SCORING_RPC = f"{RPC_PREFIX}.scoring"

ENGINE_QUEUE = "engine"
LOBBY_QUEUE = "lobby"
SCORING_QUEUE = "scoring"
BOTS_QUEUE = "bots"

BOTS_CONSUMER = "bots"
SCORING_CONSUMER = "scoring"


def stream_subject(stream_id: str) -> str:
    """``match-<id>`` -> ``tavola.events.match.<id>``; ``table-<id>`` likewise."""
    category, _, ident = stream_id.partition("-")
    if not ident:
        raise ValueError(f"stream id without category: {stream_id!r}")
    return f"{EVENTS_PREFIX}.{category}.{ident}"


def rpc_subject(service_prefix: str, method: str) -> str:
    return f"{service_prefix}.{method}"
