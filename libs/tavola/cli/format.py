"""Rendering records and views as text for the terminal."""

from __future__ import annotations

from typing import Any

from tavola.protocol.records import record_to_plain, value_to_plain
from tavola.v1 import common_pb2, events_pb2


def plain(record: common_pb2.Record) -> dict[str, Any]:
    return record_to_plain(record)


def event_line(envelope: events_pb2.EventEnvelope) -> str:
    short = envelope.type.split(".", 1)[-1]
    if envelope.hidden:
        return f"{envelope.version:>5}  {short} (hidden)"
    fields = ", ".join(
        f"{f.name}={_short(value_to_plain(f.value))}" for f in envelope.payload.fields
    )
    auto = " [automatic]" if envelope.cause.kind == events_pb2.CAUSE_KIND_TIMEOUT else ""
    return f"{envelope.version:>5}  {short}({fields}){auto}"


def _short(value: Any) -> str:
    if isinstance(value, list):
        return "[" + " ".join(_short(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}={_short(v)}" for k, v in value.items()) + "}"
    return str(value)
