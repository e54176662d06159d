"""The Postgres store makes its events from rows without the dataclasses' ``__init__``, a
stream's with their cursor, id and timestamp made when first read: each must be the very
value the constructors make (fields, type, equality, hash, repr, copying, pickling)."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import threading
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from asyncpg.pgproto import pgproto

from tavola.eventlog.chain import verify_chain
from tavola.eventlog.model import LATE, Cursor, NewEvent, StoredEvent, seal
from tavola.eventlog.postgres import _event, _stream_events, _timestamptz

STAMP = datetime(2025, 1, 2, 3, 4, 5, 6, tzinfo=UTC)
RAW = uuid.UUID("0123456789abcdef0123456789abcdef")


def sent(moment: datetime) -> bytes:
    """``timestamptz_send``: microseconds since 2000-01-01 UTC, 8 bytes big-endian."""
    micros = (moment - datetime(2000, 1, 1, tzinfo=UTC)) // timedelta(microseconds=1)
    return micros.to_bytes(8, "big", signed=True)


def expected(audience: tuple[int, ...] | None) -> StoredEvent:
    return StoredEvent(
        stream_id="match-x",
        version=3,
        cursor=Cursor(7, 42),
        event_id=RAW,
        type="barbu.CardPlayed",
        schema_version=1,
        rules_version=2,
        payload=b"\x08\x07",
        audience=audience,
        metadata=b"meta",
        recorded_at=STAMP,
        prev_hash=b"p" * 32,
        hash=b"h" * 32,
    )


def made_eagerly(audience: list[int] | None) -> StoredEvent:
    row = (7, 42, 3, pgproto.UUID(RAW.bytes), "barbu.CardPlayed", 1, 2, b"\x08\x07")
    return _event("match-x", *row, audience, b"meta", STAMP, b"p" * 32, b"h" * 32)


def made_late(audience: list[int] | None) -> StoredEvent:
    row = ("barbu.CardPlayed", 1, 2, b"\x08\x07", audience, b"meta", b"p" * 32, b"h" * 32)
    rows = [(3, *row, 7, 42, pgproto.UUID(RAW.bytes), sent(STAMP))]
    (event,) = _stream_events("match-x", rows)
    return event


def assert_same(made: StoredEvent, constructed: StoredEvent) -> None:
    assert type(made) is StoredEvent
    assert made == constructed and constructed == made
    assert hash(made) == hash(constructed) and repr(made) == repr(constructed)
    assert vars(made) == vars(constructed)
    assert sorted(vars(made)) == sorted(f.name for f in dataclasses.fields(StoredEvent))
    assert type(made.event_id) is uuid.UUID and made.event_id.is_safe is RAW.is_safe
    assert made.event_id == RAW and hash(made.event_id) == hash(RAW)
    assert str(made.event_id) == str(RAW) and made.event_id.int == RAW.int
    assert type(made.cursor) is Cursor and vars(made.cursor) == vars(Cursor(7, 42))
    assert made.cursor == Cursor(7, 42) and hash(made.cursor) == hash(Cursor(7, 42))
    assert made.position == 42 and made.cursor > Cursor(7, 41)
    assert made.recorded_at == STAMP and made.recorded_at.tzinfo is UTC
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.version = 5  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.cursor.tx = 5  # type: ignore[misc]


@pytest.mark.parametrize("make", [made_eagerly, made_late])
@pytest.mark.parametrize("audience", [None, [0, 2]])
def test_an_event_made_from_a_row_is_the_one_the_constructors_make(
    make: object, audience: list[int] | None
) -> None:
    assert callable(make)
    constructed = expected(None if audience is None else tuple(audience))
    assert_same(make(audience), constructed)
    # every way in reads the fields, made or not yet
    assert make(audience) == constructed
    assert hash(make(audience)) == hash(constructed)
    assert repr(make(audience)) == repr(constructed)
    assert dataclasses.astuple(make(audience)) == dataclasses.astuple(constructed)
    assert dataclasses.replace(make(audience), version=4) == dataclasses.replace(
        constructed, version=4
    )
    for way in (pickle.loads(pickle.dumps(make(audience))), copy.copy(make(audience))):
        assert_same(way, constructed)
    assert_same(copy.deepcopy(make(audience)), constructed)
    match make(audience):
        case StoredEvent(stream_id="match-x", cursor=Cursor(tx=7)):
            pass
        case _:
            raise AssertionError("the pattern reads the fields")


def test_a_late_field_is_made_once_and_only_fields_are() -> None:
    event = made_late(None)
    assert LATE in vars(event)
    with pytest.raises(AttributeError):
        event.no_such_field  # type: ignore[attr-defined]  # noqa: B018
    assert not hasattr(event, "__deepcopy__") and LATE in vars(event)  # copy.deepcopy asks
    first = event.cursor
    assert LATE not in vars(event)
    assert event.cursor is first and event.recorded_at is event.recorded_at
    with pytest.raises(AttributeError):
        event.no_such_field  # type: ignore[attr-defined]  # noqa: B018


def test_late_fields_read_alike_from_many_threads() -> None:
    events = [made_late(None) for _ in range(200)]
    seen: list[list[Cursor]] = []

    def read() -> None:
        seen.append([e.cursor for e in events])

    threads = [threading.Thread(target=read) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(cursors == [Cursor(7, 42)] * 200 for cursors in seen)


def test_a_stream_read_late_verifies_as_its_chain() -> None:
    news = [NewEvent(uuid.UUID(int=n), "t.E", bytes([n]), audience=(n % 2,)) for n in range(5)]
    sealed = seal("s-1", 0, bytes(32), news, STAMP)
    rows = [
        (
            *(s.version, "t.E", 1, 1, s.event.payload, list(s.event.audience or ()), b""),
            *(s.prev_hash, s.hash, 9, s.version, pgproto.UUID(s.event.event_id.bytes)),
            sent(STAMP),
        )
        for s in sealed
    ]
    read = _stream_events("s-1", rows)
    assert [e.audience for e in read] == [s.event.audience for s in sealed]
    assert verify_chain(read) is None
    assert read == [s.stored(Cursor(9, s.version)) for s in sealed]


@pytest.mark.parametrize(
    "moment",
    [
        STAMP,
        datetime(2000, 1, 1, tzinfo=UTC),
        datetime(1999, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),
        datetime(1970, 1, 1, tzinfo=UTC),
        datetime(1, 1, 1, tzinfo=UTC),
        datetime(9999, 12, 31, 23, 59, 59, 999_999, tzinfo=UTC),
    ],
)
def test_a_sent_timestamp_reads_as_asyncpg_decodes_it(moment: datetime) -> None:
    made = _timestamptz(sent(moment))
    assert made == moment and made.tzinfo is UTC and repr(made) == repr(moment)


def test_infinite_timestamps_read_as_asyncpg_decodes_them() -> None:
    assert _timestamptz(((1 << 63) - 1).to_bytes(8, "big", signed=True)) == datetime.max
    assert _timestamptz((-(1 << 63)).to_bytes(8, "big", signed=True)) == datetime.min


def test_an_appended_event_is_the_value_the_constructor_makes():
    sealed = seal(
        "match-x",
        2,
        bytes(32),
        [NewEvent(RAW, "barbu.CardPlayed", b"\x08\x07", 1, 2, (1, 3), b"m")],
        STAMP,
    )[0]
    made = sealed.stored(Cursor(7, 42))
    reference = StoredEvent(
        stream_id="match-x",
        version=3,
        cursor=Cursor(7, 42),
        event_id=RAW,
        type="barbu.CardPlayed",
        schema_version=1,
        rules_version=2,
        payload=b"\x08\x07",
        audience=(1, 3),
        metadata=b"m",
        recorded_at=STAMP,
        prev_hash=bytes(32),
        hash=sealed.hash,
    )
    assert made == reference and hash(made) == hash(reference) and repr(made) == repr(reference)
    assert vars(made) == vars(reference) and list(vars(made)) == list(vars(reference))
    assert pickle.loads(pickle.dumps(made)) == reference
    assert copy.copy(made) == reference and dataclasses.replace(made, version=4).version == 4


def test_a_sealed_event_is_the_value_the_constructor_makes():
    from tavola.eventlog.model import SealedEvent

    event = NewEvent(RAW, "barbu.CardPlayed", b"\x08\x07")
    (made,) = seal("match-x", 0, bytes(32), [event], STAMP)
    reference = SealedEvent("match-x", 1, event, STAMP, bytes(32), made.hash)
    assert made == reference and hash(made) == hash(reference) and repr(made) == repr(reference)
    assert list(vars(made)) == list(vars(reference))
