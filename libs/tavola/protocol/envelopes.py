"""Stored events -> ``tavola.v1.EventEnvelope``, redacted for a viewer.

A viewer is a seat number, ``SPECTATOR`` (-1: public events only) or ``FULL`` (internal
services and audits: everything). A hidden event keeps its place (version, type, hashes,
cause) so a client sees no gap, but carries no payload and no salt.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, TypeVar

from google.protobuf.timestamp_pb2 import Timestamp

from tavola.eventlog.model import StoredEvent
from tavola.protocol.records import embedded, scalar, text, varint
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
    if not _owns_cause(metadata.cause, viewer):
        _redact(metadata.cause, stored.type)
    if locale and metadata.cause.automatic_reason.code:
        _render_reason(metadata.cause.automatic_reason, locale)
    return _envelope(
        stored, metadata, metadata.cause, visible_to(stored.audience, viewer), table_id
    )


def envelopes_for(stored: StoredEvent, viewers: Sequence[int], table_id: str = "") -> list[bytes]:
    """``to_envelope(stored, viewer, table_id).SerializeToString()`` for each viewer, each
    distinct envelope made once: viewers differ only in whether they see the payload and
    whether the cause is redacted for them (which often changes nothing)."""
    metadata = internal_pb2.EventMetadata.FromString(stored.metadata)
    return _envelopes(stored, metadata, viewers, table_id)


def stream_envelopes(
    stored: StoredEvent, viewers: Sequence[int], table_id: str = ""
) -> tuple[list[bytes], bool, bool]:
    """``envelopes_for``, the event's ``last_in_batch``, and whether it carries an automatic
    move's reason (whose text ``to_envelope`` renders in a locale it is given: these bytes
    are the envelopes without a locale)."""
    metadata = internal_pb2.EventMetadata.FromString(stored.metadata)
    reasoned = bool(metadata.cause.automatic_reason.code)
    return _envelopes(stored, metadata, viewers, table_id), metadata.last_in_batch, reasoned


def _envelopes(
    stored: StoredEvent,
    metadata: internal_pb2.EventMetadata,
    viewers: Sequence[int],
    table_id: str,
) -> list[bytes]:
    cause = metadata.cause
    # what ``_redact`` would take from the cause, found without copying and comparing it
    secret = bool(cause.action) and not _public_action(stored.type, cause.action)
    same = not secret and (not cause.command_id or cause.HasField("bot_decision"))
    seat = cause.seat
    audience = stored.audience
    made: dict[tuple[bool, bool], bytes] = {}
    out = []
    head = tail = b""
    for viewer in viewers:
        key = (
            audience is None or viewer == FULL or viewer in audience,
            same or viewer in (FULL, seat),
        )
        data = made.get(key)
        if data is None:
            if not head:
                head, tail = _head_bytes(stored, table_id), _tail_bytes(stored, metadata)
            if key[1]:
                written = cause.SerializeToString()
            else:
                redacted = events_pb2.Cause()
                redacted.CopyFrom(cause)
                _redact(redacted, stored.type)
                written = redacted.SerializeToString()
            payload = embedded(13, stored.payload) if key[0] else b"\x60\x01"  # hidden = true
            data = made[key] = head + payload + embedded(14, written) + tail
        out.append(data)
    return out


def _public_action(event_type: str, action: str) -> bool:
    """Whether another seat may see ``action`` in the cause of an event of ``event_type``
    (an action of a game this platform does not know is left as it is)."""
    game_name = event_type.partition(".")[0]
    if game_name not in _GAME_NAMES:
        return True
    return registry.get(game_name).action_public(action)


_GAME_NAMES = frozenset(registry.names())


# ``envelopes_for`` writes an envelope's bytes itself, in field order as protobuf does
# (proto3: a field at its default is left out; ``recorded_at``, ``cause`` and a shown
# ``payload`` are always present): the payload is the stored Record's bytes as they are,
# with no parse and copy. ``tests/unit/engine/test_bot_push.py`` holds it byte for byte.


def _packed(number: int, values: Sequence[int]) -> bytes:
    if not values:
        return b""
    if max(values) < 128 and min(values) >= 0:  # seats: each varint its one byte
        return embedded(number, bytes(values))
    return embedded(number, b"".join(varint(v) for v in values))


def _head_bytes(stored: StoredEvent, table_id: str) -> bytes:
    """Fields 1-11: everything before ``hidden`` / ``payload``."""
    moment = stored.recorded_at
    last = _LAST_MOMENT[0]  # one read: another thread may replace it
    if moment is last[0]:  # the events of one append share their moment
        when = last[1]
    else:
        seconds, nanos = _seconds_nanos(moment)
        when = b"\x4a" + _small_length(scalar(1, seconds) + scalar(2, nanos))
        _LAST_MOMENT[0] = (moment, when)
    event_id = str(stored.event_id).encode()
    return b"".join(
        (
            _stream_fields(stored.stream_id, table_id),
            scalar(4, stored.version),
            b"\x2a" + varint(len(event_id)) + event_id,
            _type_field(stored.type),
            scalar(7, stored.schema_version),
            scalar(8, stored.rules_version),
            when,
            embedded(10, stored.prev_hash) if stored.prev_hash else b"",
            embedded(11, stored.hash) if stored.hash else b"",
        )
    )


_LAST_MOMENT: list[tuple[Any, bytes]] = [(None, b"")]  # the last ``recorded_at`` written


def _small_length(data: bytes) -> bytes:
    return varint(len(data)) + data


# Fields every event of a match shares (1-3), and a type's field (6), written once: about
# a third of an envelope's bytes. Bounded: emptied when full (they are made again).
_KEPT_FIELDS = 4096
_K = TypeVar("_K")
_STREAM_FIELDS: dict[tuple[str, str], bytes] = {}
_TYPE_FIELDS: dict[str, bytes] = {}


def _stream_fields(stream_id: str, table_id: str) -> bytes:
    key = (stream_id, table_id)
    data = _STREAM_FIELDS.get(key)
    if data is None:
        data = _kept(
            _STREAM_FIELDS,
            key,
            text(1, stream_id) + text(2, match_id_of(stream_id)) + text(3, table_id),
        )
    return data


def _type_field(event_type: str) -> bytes:
    data = _TYPE_FIELDS.get(event_type)
    if data is None:
        data = _kept(_TYPE_FIELDS, event_type, text(6, event_type))
    return data


def _kept(fields: dict[_K, bytes], key: _K, data: bytes) -> bytes:
    if len(fields) >= _KEPT_FIELDS:
        fields.clear()
    fields[key] = data
    return data


def _tail_bytes(stored: StoredEvent, metadata: internal_pb2.EventMetadata) -> bytes:
    """Fields 15-18: after ``cause``."""
    return b"".join(
        (
            _packed(15, metadata.to_act),
            b"\x80\x01\x01" if metadata.last_in_batch else b"",
            _packed(17, stored.audience or ()),
            b"\x90\x01\x01" if stored.audience is None else b"",
        )
    )


def _envelope(
    stored: StoredEvent,
    metadata: internal_pb2.EventMetadata,
    cause: events_pb2.Cause,
    shown: bool,
    table_id: str,
) -> events_pb2.EventEnvelope:
    envelope = events_pb2.EventEnvelope(
        stream_id=stored.stream_id,
        match_id=match_id_of(stored.stream_id),
        table_id=table_id,
        version=stored.version,
        event_id=str(stored.event_id),
        type=stored.type,
        schema_version=stored.schema_version,
        rules_version=stored.rules_version,
        recorded_at=_timestamp(stored.recorded_at),
        prev_hash=stored.prev_hash,
        hash=stored.hash,
        hidden=not shown,
        cause=cause,
        to_act=list(metadata.to_act),
        last_in_batch=metadata.last_in_batch,
        audience=list(stored.audience or ()),
        public=stored.audience is None,
    )
    if shown:
        envelope.payload.CopyFrom(common_pb2.Record.FromString(stored.payload))
    return envelope


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NAIVE_EPOCH = datetime(1970, 1, 1)


def _timestamp(moment: datetime) -> Timestamp:
    """``Timestamp().FromDatetime(moment)`` (a naive moment is UTC), without its struct_time
    round trip: every envelope carries one."""
    seconds, nanos = _seconds_nanos(moment)
    return Timestamp(seconds=seconds, nanos=nanos)


def _seconds_nanos(moment: datetime) -> tuple[int, int]:
    delta = moment - (_NAIVE_EPOCH if moment.utcoffset() is None else _EPOCH)
    return delta.days * 86_400 + delta.seconds, delta.microseconds * 1000


def _render_reason(reason: common_pb2.Reason, locale: str) -> None:
    params = {p.name: getattr(p, p.WhichOneof("value") or "string_value") for p in reason.params}
    reason.text = render(Reason.of(reason.code, **params), locale)


def _owns_cause(cause: events_pb2.Cause, viewer: int) -> bool:
    return viewer == FULL or viewer == cause.seat


def _redact(cause: events_pb2.Cause, event_type: str) -> None:
    """What another seat may not learn from an event's cause: a secret choice's code (and
    an automatic move's parameters, which name it), and the command id a person's client
    chose (the bot service's ids, which group a decision's events, stay)."""
    if not cause.HasField("bot_decision"):
        cause.command_id = ""
    game_name = event_type.partition(".")[0]
    if not cause.action or game_name not in registry.names():
        return
    if not registry.get(game_name).action_public(cause.action):
        cause.action = ""
        cause.ClearField("automatic_reason")  # its parameters would name the choice
