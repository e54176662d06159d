"""The per-stream hash chain: a canonical encoding, the hash, and an offline verifier.

Pure functions (no I/O, no clock), usable by any third-party verifier; the encoding is
specified in ``docs/eventlog.md``. In short, SHA-256 over the concatenation of::

    text("tavola.eventlog.chain.v1")
    blob(prev_hash) text(stream_id) int(version) blob(event_id.bytes) text(type)
    int(schema_version) int(rules_version) blob(payload) audience blob(metadata)
    text(recorded_at as UTC ISO-8601 with microseconds, e.g. 2025-01-02T03:04:05.000006+00:00)

where ``int`` is 8 bytes signed big-endian, ``blob`` is a 4-byte big-endian length followed
by the bytes, ``text`` is the ``blob`` of the UTF-8 encoding, and ``audience`` is the single
byte 0x00 when public, else 0x01, a 4-byte count and one ``int`` per seat in stored order.
The first event of a stream has ``prev_hash`` = 32 zero bytes.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Protocol
from uuid import UUID

DOMAIN = "tavola.eventlog.chain.v1"
GENESIS_HASH = bytes(32)


class ChainedEvent(Protocol):
    """What the verifier needs from an event (``StoredEvent`` or an exported record)."""

    @property
    def stream_id(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def event_id(self) -> UUID: ...
    @property
    def type(self) -> str: ...
    @property
    def schema_version(self) -> int: ...
    @property
    def rules_version(self) -> int: ...
    @property
    def payload(self) -> bytes: ...
    @property
    def audience(self) -> tuple[int, ...] | None: ...
    @property
    def metadata(self) -> bytes: ...
    @property
    def recorded_at(self) -> datetime: ...
    @property
    def prev_hash(self) -> bytes: ...
    @property
    def hash(self) -> bytes: ...


def canonical_timestamp(moment: datetime) -> str:
    """The one textual form of a timestamp that is hashed: UTC, microseconds, ``+00:00``."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("recorded_at must be timezone-aware")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def as_utc(moment: datetime) -> datetime:
    """``moment`` in UTC; a naive datetime is refused (the clock must be timezone-aware)."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError("recorded_at must be timezone-aware")
    return moment if moment.tzinfo is UTC else moment.astimezone(UTC)


def _int(value: int) -> bytes:
    return value.to_bytes(8, "big", signed=True)


def _blob(value: bytes) -> bytes:
    return len(value).to_bytes(4, "big") + value


def _text(value: str) -> bytes:
    return _blob(value.encode("utf-8"))


def _audience(seats: tuple[int, ...] | None) -> bytes:
    if seats is None:
        return b"\x00"
    return b"\x01" + len(seats).to_bytes(4, "big") + b"".join(_int(seat) for seat in seats)


_DOMAIN = _text(DOMAIN)


def event_hash(
    *,
    prev_hash: bytes,
    stream_id: str,
    version: int,
    event_id: UUID,
    type: str,
    schema_version: int,
    rules_version: int,
    payload: bytes,
    audience: tuple[int, ...] | None,
    metadata: bytes,
    recorded_at: datetime,
) -> bytes:
    """SHA-256 of the canonical encoding of one event and its predecessor's hash."""
    parts = (
        _DOMAIN,
        _blob(prev_hash),
        _text(stream_id),
        _int(version),
        _blob(event_id.bytes),
        _text(type),
        _int(schema_version),
        _int(rules_version),
        _blob(payload),
        _audience(audience),
        _blob(metadata),
        _text(canonical_timestamp(recorded_at)),
    )
    return hashlib.sha256(b"".join(parts)).digest()


def recompute_hash(event: ChainedEvent) -> bytes:
    return event_hash(
        prev_hash=event.prev_hash,
        stream_id=event.stream_id,
        version=event.version,
        event_id=event.event_id,
        type=event.type,
        schema_version=event.schema_version,
        rules_version=event.rules_version,
        payload=event.payload,
        audience=event.audience,
        metadata=event.metadata,
        recorded_at=event.recorded_at,
    )


def verify_chain(events: Iterable[ChainedEvent]) -> int | None:
    """Check one whole stream, given from version 1 in order.

    Returns ``None`` when the chain holds, else the first version that cannot be trusted:
    the version expected at the first event that is out of sequence, belongs to another
    stream, does not link to its predecessor's hash, or whose content does not hash to its
    recorded hash.
    """
    previous = GENESIS_HASH
    stream_id: str | None = None
    for expected_version, event in enumerate(events, start=1):
        stream_id = event.stream_id if stream_id is None else stream_id
        intact = (
            event.version == expected_version
            and event.stream_id == stream_id
            and event.prev_hash == previous
            and recompute_hash(event) == event.hash
        )
        if not intact:
            return expected_version
        previous = event.hash
    return None
