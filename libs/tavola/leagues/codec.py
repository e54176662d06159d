"""League events <-> stored events (type names ``league.<Name>``, ``tavola.v1.Record``
payloads written by the generic mapper, the system as their cause)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from uuid import UUID

from tavola.eventlog.model import NewEvent, StoredEvent
from tavola.leagues.events import LEAGUE_EVENTS
from tavola.protocol.events import CAUSE_KINDS, SCHEMA_VERSION, Metadata
from tavola.protocol.records import from_record_bytes, to_record
from tavola.rules.interface import Event

PREFIX = "league"
STREAM_PREFIX = "league-"
_CLASSES = {f"{PREFIX}.{cls.__name__}": cls for cls in LEAGUE_EVENTS}
LEAGUE_TYPES = frozenset(_CLASSES)  # every league event's type name


def stream_of(league_id: str) -> str:
    return f"{STREAM_PREFIX}{league_id}"


def type_name(event: Event) -> str:
    name = f"{PREFIX}.{type(event).__name__}"
    if name not in _CLASSES:
        raise ValueError(f"not a league event: {event!r}")
    return name


def is_league_type(type_: str) -> bool:
    return type_ in _CLASSES


def encode(event: Event) -> bytes:
    return to_record(event, type_name(event)).SerializeToString(deterministic=True)


def decode(type_: str, payload: bytes) -> Event:
    cls = _CLASSES.get(type_)
    if cls is None:
        raise ValueError(f"unknown league event type {type_!r}")
    event: Event = from_record_bytes(cls, payload)
    return event


def decode_stored(stored: Sequence[StoredEvent]) -> list[Event]:
    return [decode(s.type, s.payload) for s in stored]


def new_events(
    events: Sequence[Event], new_id: Callable[[], UUID], command_id: str = ""
) -> list[NewEvent]:
    """League facts to append, caused by the system (or a host's command)."""
    metadata = Metadata(kind=CAUSE_KINDS["system"], command_id=command_id).encode()
    return [
        NewEvent(
            event_id=new_id(),
            type=type_name(event),
            payload=encode(event),
            schema_version=SCHEMA_VERSION,
            metadata=metadata,
        )
        for event in events
    ]
