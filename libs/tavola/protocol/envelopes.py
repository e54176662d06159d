"""Stored events -> ``tavola.v1.EventEnvelope``, redacted for a viewer.

A viewer is a seat number, ``SPECTATOR`` (-1: public events only) or ``FULL`` (internal
services and audits: everything). A hidden event keeps its place (version, type, hashes,
cause) so a client sees no gap, but carries no payload and no salt.
"""

from __future__ import annotations

from google.protobuf.timestamp_pb2 import Timestamp

from tavola.eventlog.model import StoredEvent
from tavola.rules import registry
from tavola.rules.errors import Reason
from tavola.rules.messages import render
from tavola.v1 import common_pb2, events_pb2, internal_pb2

SPECTATOR = -1
FULL = -2


def visible_to(audience: tuple[int, ...] | None, viewer: int) -> bool:
    if viewer == FULL or audience is None:
        return True
    return viewer in audience


def match_id_of(stream_id: str) -> str:
    return stream_id.removeprefix("match-")


def to_envelope(
    stored: StoredEvent, viewer: int, table_id: str = "", locale: str = ""
) -> events_pb2.EventEnvelope:
    """The stored event as ``viewer`` may see it; with a ``locale``, an automatic move's
    reason carries its text in that language."""
    metadata = internal_pb2.EventMetadata.FromString(stored.metadata)
    _redact_cause(metadata.cause, stored.type, viewer)
    if locale and metadata.cause.automatic_reason.code:
        _render_reason(metadata.cause.automatic_reason, locale)
    shown = visible_to(stored.audience, viewer)
    recorded = Timestamp()
    recorded.FromDatetime(stored.recorded_at)
    envelope = events_pb2.EventEnvelope(
        stream_id=stored.stream_id,
        match_id=match_id_of(stored.stream_id),
        table_id=table_id,
        version=stored.version,
        event_id=str(stored.event_id),
        type=stored.type,
        schema_version=stored.schema_version,
        rules_version=stored.rules_version,
        recorded_at=recorded,
        prev_hash=stored.prev_hash,
        hash=stored.hash,
        hidden=not shown,
        cause=metadata.cause,
        to_act=list(metadata.to_act),
        last_in_batch=metadata.last_in_batch,
        audience=list(stored.audience or ()),
        public=stored.audience is None,
    )
    if shown:
        envelope.payload.CopyFrom(common_pb2.Record.FromString(stored.payload))
    return envelope


def _render_reason(reason: common_pb2.Reason, locale: str) -> None:
    params = {p.name: getattr(p, p.WhichOneof("value") or "string_value") for p in reason.params}
    reason.text = render(Reason.of(reason.code, **params), locale)


def _redact_cause(cause: events_pb2.Cause, event_type: str, viewer: int) -> None:
    """What another seat may not learn from an event's cause: a secret choice's code (and
    an automatic move's parameters, which name it), and the command id a person's client
    chose (the bot service's ids, which group a decision's events, stay)."""
    if viewer == FULL or viewer == cause.seat:
        return
    if not cause.HasField("bot_decision"):
        cause.command_id = ""
    game_name = event_type.partition(".")[0]
    if not cause.action or game_name not in registry.names():
        return
    if not registry.get(game_name).action_public(cause.action):
        cause.action = ""
        cause.ClearField("automatic_reason")  # its parameters would name the choice
