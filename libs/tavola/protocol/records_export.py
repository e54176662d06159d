"""Stored events <-> the exported record (``tavola-match-record/1``), losslessly."""

from __future__ import annotations

import uuid
from datetime import UTC

from google.protobuf.timestamp_pb2 import Timestamp

from tavola.eventlog.model import Cursor, StoredEvent
from tavola.v1 import game_pb2

FORMAT = "tavola-match-record/1"


def to_record(event: StoredEvent) -> game_pb2.StoredEventRecord:
    stamp = Timestamp()
    stamp.FromDatetime(event.recorded_at)
    return game_pb2.StoredEventRecord(
        stream_id=event.stream_id,
        version=event.version,
        event_id=str(event.event_id),
        type=event.type,
        schema_version=event.schema_version,
        rules_version=event.rules_version,
        payload=event.payload,
        public=event.audience is None,
        audience=list(event.audience or ()),
        metadata=event.metadata,
        recorded_at=stamp,
        prev_hash=event.prev_hash,
        hash=event.hash,
    )


def from_record(record: game_pb2.StoredEventRecord) -> StoredEvent:
    return StoredEvent(
        stream_id=record.stream_id,
        version=record.version,
        cursor=Cursor(0, record.version),
        event_id=uuid.UUID(record.event_id),
        type=record.type,
        schema_version=record.schema_version,
        rules_version=record.rules_version,
        payload=record.payload,
        audience=None if record.public else tuple(record.audience),
        metadata=record.metadata,
        recorded_at=record.recorded_at.ToDatetime(tzinfo=UTC),
        prev_hash=record.prev_hash,
        hash=record.hash,
    )
