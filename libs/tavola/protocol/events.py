"""Event codec: domain events <-> (type name, protobuf payload bytes, metadata bytes).

Type names are ``<game>.<ClassName>`` for rules events and ``match.<ClassName>`` for
platform events. Payloads are ``tavola.v1.Record`` messages serialized deterministically.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from uuid import UUID

from tavola.accounts.model import ACCOUNT_EVENTS
from tavola.eventlog.model import NewEvent, StoredEvent
from tavola.lobby.table import TABLE_EVENTS
from tavola.match.events import PLATFORM_EVENTS, MatchCreated
from tavola.match.verify import Discrepancy, Recorded
from tavola.protocol.records import (
    embedded,
    from_record_bytes,
    prepare_bytes,
    record_bytes,
    text,
    varint,
)
from tavola.rules import registry
from tavola.rules.errors import Reason
from tavola.rules.interface import Event
from tavola.v1 import common_pb2, events_pb2, internal_pb2

SCHEMA_VERSION = 1
PLATFORM = "match"
TAKEN_BACK = f"{PLATFORM}.MovesTakenBack"  # drops what came after its to_version


TABLE = "table"
ACCOUNT = "account"


def type_name(game: str, event: Event) -> str:
    if type(event) in PLATFORM_EVENTS:
        prefix = PLATFORM
    elif type(event) in TABLE_EVENTS:
        prefix = TABLE
    elif type(event) in ACCOUNT_EVENTS:
        prefix = ACCOUNT
    else:
        prefix = game
    return f"{prefix}.{type(event).__name__}"


def encode_payload(game: str, event: Event) -> bytes:
    return record_bytes(event, type_name(game, event))


@cache
def _classes(game: str) -> dict[str, type[Event]]:
    """Event classes by type name: the platform's, plus the game's when one is given."""
    classes = {f"{PLATFORM}.{c.__name__}": c for c in PLATFORM_EVENTS}
    classes.update({f"{TABLE}.{c.__name__}": c for c in TABLE_EVENTS})
    classes.update({f"{ACCOUNT}.{c.__name__}": c for c in ACCOUNT_EVENTS})
    if game:
        classes.update({f"{game}.{c.__name__}": c for c in registry.get(game).info.event_types})
    return classes


def decode_payload(game: str, type_: str, payload: bytes) -> Event:
    cls = _classes(game).get(type_)
    if cls is None:
        raise ValueError(f"unknown event type {type_!r} for game {game!r}")
    event: Event = from_record_bytes(cls, payload)
    return event


def decode_payloads(game: str, stored: Sequence[StoredEvent]) -> list[Event]:
    """``decode_payload`` of each stored event (a stream being folded). Within the call an
    event is decoded once per distinct type and payload: a match repeats most of its
    events byte for byte (a seat playing a card, a trick won), and events are frozen."""
    decoded: dict[tuple[str, bytes], Event] = {}
    out: list[Event] = []
    for item in stored:
        key = (item.type, item.payload)
        event = decoded.get(key)
        if event is None:
            event = decoded[key] = decode_payload(game, item.type, item.payload)
        out.append(event)
    return out


def all_event_types(game: str) -> Sequence[type[Event]]:
    return tuple(_classes(game).values())


def prepare(game: str) -> None:
    """Ready the decoding of every event type of ``game`` (and the platform's) at start."""
    for cls in all_event_types(game):
        prepare_bytes(cls)


def reason_to_pb(reason: Reason, text: str = "") -> common_pb2.Reason:
    params = []
    for name, value in reason.params:
        if isinstance(value, int):
            params.append(common_pb2.ReasonParam(name=name, int_value=value))
        else:
            params.append(common_pb2.ReasonParam(name=name, string_value=value))
    return common_pb2.Reason(code=reason.code, params=params, text=text)


@dataclass(frozen=True, slots=True)
class Metadata:
    """Cause and turn information stored beside each event."""

    kind: int
    seat: int = -1
    action: str = ""
    command_id: str = ""
    chance_purpose: str = ""
    reason: Reason | None = None
    by_bot: bool = False
    to_act: tuple[int, ...] = ()
    last_in_batch: bool = False
    salt: bytes = b""
    bot_decision: events_pb2.BotDecision | None = None

    def to_pb(self) -> internal_pb2.EventMetadata:
        cause = events_pb2.Cause(
            kind=self.kind,  # type: ignore[arg-type]
            seat=self.seat,
            action=self.action,
            command_id=self.command_id,
            chance_purpose=self.chance_purpose,
            by_bot=self.by_bot,
        )
        if self.reason is not None:
            cause.automatic_reason.CopyFrom(reason_to_pb(self.reason))
        if self.bot_decision is not None:
            cause.bot_decision.CopyFrom(self.bot_decision)
        return internal_pb2.EventMetadata(
            cause=cause,
            to_act=list(self.to_act),
            last_in_batch=self.last_in_batch,
            salt=self.salt,
        )

    def encode(self) -> bytes:
        """``to_pb().SerializeToString(deterministic=True)``, written directly (every event
        appended carries one; ``tests/unit/protocol/test_metadata_bytes.py`` holds it byte
        for byte): fields in number order, each left out at its default, the cause always
        present, a seat of -1 as int32's ten bytes."""
        cause = b"".join(
            (
                _scalar_field(1, self.kind),
                _int32_field(2, self.seat),
                text(3, self.action),
                text(4, self.command_id),
                text(5, self.chance_purpose),
                b""
                if self.reason is None
                else embedded(6, reason_to_pb(self.reason).SerializeToString(deterministic=True)),
                b"\x38\x01" if self.by_bot else b"",
                b""
                if self.bot_decision is None
                else embedded(8, self.bot_decision.SerializeToString(deterministic=True)),
            )
        )
        to_act = self.to_act
        return b"".join(
            (
                embedded(1, cause),
                embedded(2, b"".join(_int32(s) for s in to_act)) if to_act else b"",
                b"\x18\x01" if self.last_in_batch else b"",
                embedded(4, self.salt) if self.salt else b"",
            )
        )


def _int32(value: int) -> bytes:
    """An int32 as protobuf writes it: a negative one as its 64-bit two's complement."""
    return varint(value if value >= 0 else value + (1 << 64))


def _scalar_field(number: int, value: int) -> bytes:
    return varint(number << 3) + varint(value) if value else b""


_MINUS_ONE_SEAT = varint(2 << 3) + _int32(-1)


def _int32_field(number: int, value: int) -> bytes:
    if value == -1 and number == 2:
        return _MINUS_ONE_SEAT
    return varint(number << 3) + _int32(value) if value else b""


def decode_metadata(data: bytes) -> internal_pb2.EventMetadata:
    return internal_pb2.EventMetadata.FromString(data)


CAUSE_KINDS = {
    "action": events_pb2.CAUSE_KIND_ACTION,
    "chance": events_pb2.CAUSE_KIND_CHANCE,
    "system": events_pb2.CAUSE_KIND_SYSTEM,
    "timeout": events_pb2.CAUSE_KIND_TIMEOUT,
    "leave": events_pb2.CAUSE_KIND_LEAVE,
    "take_back": events_pb2.CAUSE_KIND_TAKE_BACK,
    "correction": events_pb2.CAUSE_KIND_CORRECTION,
}


KINDS = {v: k for k, v in CAUSE_KINDS.items()}


def decode_recorded(stored: Sequence[StoredEvent], game: str = "") -> list[Recorded]:
    """A match's stored events with their causes, as the verifier reads them: the whole
    stream, or (given the ``game``) any part of it."""
    if not game:
        created = decode_payload("", stored[0].type, stored[0].payload)
        if not isinstance(created, MatchCreated):
            raise Discrepancy(1, "the stream does not begin with MatchCreated")
        game = created.game
    out = []
    for item in stored:
        cause = decode_metadata(item.metadata).cause
        out.append(
            Recorded(
                version=item.version,
                event=decode_payload(game, item.type, item.payload),
                kind=KINDS.get(cause.kind, "system"),
                seat=cause.seat,
                action=cause.action,
                chance_purpose=cause.chance_purpose,
                command_id=cause.command_id,
            )
        )
    return out


def system_events(
    events: Sequence[Event], new_id: Callable[[], UUID], command_id: str = ""
) -> list[NewEvent]:
    """Platform facts (tables, accounts) as events to append, caused by the system."""
    metadata = Metadata(kind=CAUSE_KINDS["system"], command_id=command_id).encode()
    out = []
    for event in events:
        audience = event.audience()
        out.append(
            NewEvent(
                event_id=new_id(),
                type=type_name("", event),
                payload=encode_payload("", event),
                schema_version=SCHEMA_VERSION,
                audience=None if audience is None else tuple(sorted(audience)),
                metadata=metadata,
            )
        )
    return out
