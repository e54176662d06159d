"""``records.from_record_bytes`` reads a Record's bytes directly; it must answer exactly what
``from_record(cls, pb.Record.FromString(data))`` answers: the same value for every event and
view of every game, for protobuf's own encoding, for records written otherwise (fields out of
order, missing, unknown, repeated; non-canonical values), and the same exception for bad
bytes. Canonical payloads must take the direct reader, not the old path."""

from __future__ import annotations

import dataclasses
import enum
import random
import types
import typing
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

import pytest
from google.protobuf.message import DecodeError
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavola.accounts.model import ACCOUNT_EVENTS
from tavola.lobby.table import TABLE_EVENTS
from tavola.match.events import PLATFORM_EVENTS
from tavola.protocol import records
from tavola.protocol.events import encode_payload, type_name
from tavola.protocol.records import (
    RecordError,
    from_record,
    from_record_bytes,
    record_bytes,
    to_record,
)
from tavola.rules import driver, registry
from tavola.rules.cards import Card, Suit, standard_deck
from tavola.rules.tiles import Tile, double_six_set
from tavola.v1 import common_pb2 as pb


def outcome(decode: Callable[[], Any]) -> tuple[Any, ...]:
    """What a decoding gives: the value (and its repr: ``True == 1``), or the error."""
    try:
        value = decode()
    except Exception as error:
        return ("error", type(error), str(error))
    return ("value", value, repr(value))


def old(cls: type, data: bytes) -> Any:
    return from_record(cls, pb.Record.FromString(data))


def assert_same(cls: type, data: bytes) -> tuple[Any, ...]:
    expected = outcome(lambda: old(cls, data))
    assert outcome(lambda: from_record_bytes(cls, data)) == expected, data
    return expected


def direct(cls: type, data: bytes) -> Any:
    """The direct reader alone (raises where ``from_record_bytes`` falls back)."""
    return records._bytes_record(cls)(data, 0, len(data))


def assert_round_trip(obj: Any, type_name: str | None = None) -> None:
    cls = type(obj)
    data = record_bytes(obj, type_name)
    decoded = direct(cls, data)
    assert decoded == obj
    assert repr(decoded) == repr(obj)
    assert from_record_bytes(cls, data) == obj
    assert repr(from_record_bytes(cls, data)) == repr(from_record(cls, to_record(obj, type_name)))


# -- every event and view of every game, from random playouts ---------------------------------


def playout(name: str, seed: int) -> Iterator[tuple[Any, str | None]]:
    """A random match's events (with their stored type names) and views along the way."""
    game = registry.get(name)
    players = min(4, game.info.max_players) if seed % 2 == 0 else game.info.min_players
    out = driver.play_match(
        game, players, {}, seed=seed.to_bytes(32, "big"), rng=random.Random(seed)
    )
    state = game.initial_state(players, {})
    for at, event in enumerate(out.events):
        yield event, type_name(name, event)
        state = game.evolve(state, event)
        if at % 3 == 0 or at == len(out.events) - 1:
            for seat in (None, *range(players)):
                yield game.view(state, seat), None


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("name", registry.names())
def test_every_event_and_view_of_every_game_decodes_as_from_record_does(
    name: str, seed: int
) -> None:
    kinds = set()
    for obj, stored_as in playout(name, seed):
        if stored_as is not None:
            assert record_bytes(obj, stored_as) == encode_payload(name, obj)
        assert_round_trip(obj, stored_as)
        kinds.add(type(obj))
    assert len(kinds) > 3


# -- any value of every event and view type (hypothesis) --------------------------------------


def _strategy(hint: Any) -> st.SearchStrategy[Any]:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return st.one_of(
            *(st.none() if a is type(None) else _strategy(a) for a in typing.get_args(hint))
        )
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return st.lists(_strategy(args[0]), max_size=6).map(tuple)
        return st.tuples(*(_strategy(a) for a in args))
    if origin is Literal:
        return st.sampled_from(typing.get_args(hint))
    if hint is bool:
        return st.booleans()
    if hint is int:
        return st.integers(-(2**63), 2**63 - 1) | st.integers(-300, 300)
    if hint is str:
        return st.text(max_size=12)
    if hint is Card:
        return st.sampled_from(standard_deck())
    if hint is Tile:
        return st.sampled_from(double_six_set())
    if isinstance(hint, type) and issubclass(hint, enum.IntEnum):
        return st.sampled_from(list(hint))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _instances(hint)
    raise AssertionError(hint)


def _build(cls: type, kwargs: dict[str, Any]) -> Any:
    try:
        return cls(**kwargs)
    except Exception:  # the class's own checks refuse this draw
        return None


def _instances(cls: type) -> st.SearchStrategy[Any]:
    hints = typing.get_type_hints(cls)
    fields = {f.name: _strategy(hints[f.name]) for f in dataclasses.fields(cls) if f.init}
    return (
        st.fixed_dictionaries(fields)
        .map(lambda kwargs: _build(cls, kwargs))
        .filter(lambda obj: obj is not None)
    )


def _record_types() -> list[type]:
    found: dict[type, None] = {}

    def walk(hint: Any) -> None:
        for arg in typing.get_args(hint):
            walk(arg)
        if isinstance(hint, type) and dataclasses.is_dataclass(hint) and hint not in found:
            found[hint] = None
            for inner in typing.get_type_hints(hint).values():
                walk(inner)

    for name in registry.names():
        game = registry.get(name)
        for event_type in game.info.event_types:
            walk(event_type)
        players = min(4, game.info.max_players)
        walk(type(game.view(game.initial_state(players, {}), None)))
    for event_type in (*PLATFORM_EVENTS, *TABLE_EVENTS, *ACCOUNT_EVENTS):
        walk(event_type)
    return sorted((t for t in found if t not in (Card, Tile)), key=lambda t: t.__qualname__)


RECORD_TYPES = _record_types()


@pytest.mark.parametrize("cls", RECORD_TYPES, ids=lambda t: f"{t.__module__}.{t.__qualname__}")
def test_any_value_of_every_record_type_decodes_as_from_record_does(cls: type) -> None:
    @settings(
        max_examples=15,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    @given(obj=_instances(cls))
    def check(obj: Any) -> None:
        assert_round_trip(obj)
        assert_round_trip(obj, "game.Name")

    check()


# -- records written by hand -----------------------------------------------------------------


class Colour(enum.IntEnum):
    RED = 0
    GREEN = 1
    BLUE = 7


@dataclass(frozen=True)
class Inner:
    seat: int
    card: Card | None


@dataclass(frozen=True)
class Sample:
    number: int
    text: str
    flag: bool
    card: Card
    tile: Tile
    colour: Colour
    kind: Literal["a", "b"]
    maybe: int | None
    cards: tuple[Card, ...]
    pair: tuple[int, str]
    inner: Inner
    inners: tuple[Inner, ...]
    later: int = 5  # a field added later: older records do not have it


@dataclass(frozen=True)
class Node:
    """A type holding itself: its nesting has no static bound."""

    value: int
    child: Node | None = None


SAMPLE = Sample(
    number=-(2**63),
    text="é ♠ 中 \U0001f0a1",
    flag=True,
    card=Card.parse("QS"),
    tile=Tile(6, 4),
    colour=Colour.BLUE,
    kind="b",
    maybe=None,
    cards=(Card.parse("2C"), Card.parse("AH"), Card.parse("AH")),
    pair=(-1, ""),
    inner=Inner(0, None),
    inners=(Inner(3, Card.parse("TD")), Inner(2**63 - 1, None)),
    later=0,
)


def pb_value(value: Any) -> pb.Value:
    """What protobuf's constructors make of a value (the reference encoding)."""
    if value is None:
        return pb.Value(null_value=True)
    if isinstance(value, bool):
        return pb.Value(bool_value=value)
    if isinstance(value, enum.IntEnum):
        return pb.Value(
            enum_value=pb.EnumValue(type=type(value).__name__, name=value.name, number=value)
        )
    if isinstance(value, int):
        return pb.Value(int_value=value)
    if isinstance(value, str):
        return pb.Value(string_value=value)
    if isinstance(value, Card):
        return pb.Value(card=records.card_to_pb(value))
    if isinstance(value, Tile):
        return pb.Value(tile=records.tile_to_pb(value))
    if isinstance(value, tuple):
        return pb.Value(list=pb.ValueList(items=[pb_value(v) for v in value]))
    return pb.Value(record=pb_record(value, None))


def pb_record(obj: Any, type_name: str | None = "Sample") -> pb.Record:
    return pb.Record(
        type=type(obj).__name__ if type_name is None else type_name,
        fields=[
            pb.Field(name=f.name, value=pb_value(getattr(obj, f.name)))
            for f in dataclasses.fields(obj)
        ],
    )


def fields(obj: Any) -> list[pb.Field]:
    return list(pb_record(obj).fields)


def written(record_fields: list[pb.Field], type_name: str = "Sample") -> bytes:
    return pb.Record(type=type_name, fields=record_fields).SerializeToString(deterministic=True)


def test_protobufs_own_encoding_is_read_directly() -> None:
    data = pb_record(SAMPLE).SerializeToString(deterministic=True)
    assert data == record_bytes(SAMPLE)
    assert direct(Sample, data) == SAMPLE
    assert from_record_bytes(Sample, data) == SAMPLE
    # the oneof keeps zeros and empty values: int_value=0 is written, not omitted
    assert pb.Value(int_value=0).SerializeToString() == b"\x08\x00" == records._value(0)
    zeros = dataclasses.replace(SAMPLE, number=0, text="", flag=False, maybe=0, cards=())
    data = pb_record(zeros).SerializeToString()
    assert data == record_bytes(zeros)
    assert direct(Sample, data) == zeros
    for obj in (Inner(0, None), Inner(-5, Card.parse("7D")), Node(1, Node(2))):
        data = pb_record(obj, "").SerializeToString()
        assert from_record_bytes(type(obj), data) == obj
        assert assert_same(type(obj), data)[:2] == ("value", obj)


def test_negative_and_extreme_ints() -> None:
    for number in (-1, -2, -127, -128, -(2**31), -(2**63), 2**63 - 1, 2**62, 127, 128, 255, 256):
        obj = dataclasses.replace(SAMPLE, number=number, maybe=number, pair=(number, "x"))
        assert_round_trip(obj)
        data = pb_record(obj).SerializeToString()
        assert direct(Sample, data) == obj
        assert_same(Sample, data)


def test_fields_out_of_order_missing_unknown_or_repeated() -> None:
    every = fields(SAMPLE)
    reversed_ = written(every[::-1])
    assert direct(Sample, reversed_) == SAMPLE  # read by name, still directly
    assert_same(Sample, reversed_)
    older = written(every[:-1])  # without `later`: its default
    assert direct(Sample, older) == dataclasses.replace(SAMPLE, later=5)
    assert_same(Sample, older)
    assert_same(Sample, written(every[:-1][::-1]))
    missing = written(every[1:])
    assert outcome(lambda: from_record_bytes(Sample, missing)) == (
        "error",
        RecordError,
        "Sample: missing field number",
    )
    assert_same(Sample, missing)
    assert_same(Sample, written([*every[:3], *every[4:]]))  # no card: RecordError
    extra = pb.Field(name="extra", value=pb.Value(string_value="ignored"))
    assert_same(Sample, written([*every, extra]))
    assert_same(Sample, written([extra, *every]))
    again = pb.Field(name="number", value=pb.Value(int_value=7))
    assert outcome(lambda: from_record_bytes(Sample, written([*every, again])))[1].number == 7
    assert_same(Sample, written([*every, again]))
    assert_same(Sample, written([again, *every]))
    assert_same(Sample, written(every, type_name=""))
    # the type's name after the fields, and twice
    data = record_bytes(SAMPLE)
    header = b"\x0a\x06Sample"
    assert_same(Sample, data[len(header) :] + header)
    assert_same(Sample, header + data)


def test_values_of_another_kind_or_empty_decode_as_from_record_does() -> None:
    every = fields(SAMPLE)
    others = [
        pb.Value(),
        pb.Value(int_value=3),
        pb.Value(int_value=-1),
        pb.Value(string_value="a"),
        pb.Value(bool_value=True),
        pb.Value(null_value=True),
        pb.Value(null_value=False),
        pb.Value(card=pb.Card(code="XX", rank=12, suit=4)),  # a code that is not the card's
        pb.Value(card=pb.Card(rank=99, suit=1)),
        pb.Value(tile=pb.Tile(high=2, low=5)),
        pb.Value(enum_value=pb.EnumValue(type="Other", name="GREEN", number=1)),
        pb.Value(enum_value=pb.EnumValue(number=3)),
        pb.Value(list=pb.ValueList()),
        pb.Value(list=pb.ValueList(items=[pb.Value(int_value=1), pb.Value(string_value="s")])),
        pb.Value(list=pb.ValueList(items=[pb.Value()] * 3)),
        pb.Value(list=pb.ValueList(items=[pb.Value(int_value=1)])),
        pb.Value(list=pb.ValueList(items=[pb.Value(int_value=1), pb.Value(string_value="s")] * 2)),
        pb.Value(record=pb.Record()),
        pb.Value(record=pb_record(Inner(1, None))),
    ]
    for at in range(len(every)):
        for value in others:
            changed = list(every)
            changed[at] = pb.Field(name=every[at].name, value=value)
            assert_same(Sample, written(changed))
        changed = list(every)
        changed[at] = pb.Field(name=every[at].name)  # a name without a value
        assert_same(Sample, written(changed))


def test_non_canonical_wire_forms_decode_as_protobuf_reads_them() -> None:
    def with_number(value: bytes) -> bytes:
        field = b"\x0a\x06number\x12" + records._varint(len(value)) + value
        rest = record_bytes(SAMPLE)[len(b"\x0a\x06Sample") :]
        assert rest[1] < 128
        rest = rest[2 + rest[1] :]  # without its first field, `number`
        return b"\x0a\x06Sample\x12" + records._varint(len(field)) + field + rest

    assert old(Sample, with_number(b"\x08\x05")).number == 5
    for value in (
        b"\x08\x85\x00",  # 5 in two bytes
        b"\x08" + b"\xff" * 9 + b"\x01",  # -1
        b"\x08" + b"\xff" * 9 + b"\x00",
        b"\x08" + b"\xff" * 9 + b"\x02",  # bits past 64
        b"\x08" + b"\xff" * 9 + b"\x03",
        b"\x08" + b"\xff" * 9 + b"\x7f",
        b"\x08" + b"\x80" * 10 + b"\x00",  # eleven bytes: corrupt
        b"\x08",
        b"\x08\x80",
        b"\x08\x05\x08\x06",  # twice: the last
        b"\x08\x05\x48\x01",  # then null
        b"\x58\x01\x08\x05",  # an unknown field first
        b"\x0a\x01\x05",  # the int's number with another wire type
        b"\x12\x02\xc0\x80",  # a string, overlong UTF-8
    ):
        assert_same(Sample, with_number(value))
    for text in (b"\xed\xa0\x80", b"\xc0\x80", b"\xff", b"\xf4\x90\x80\x80", "é".encode()):
        assert_same(Sample, record_bytes(SAMPLE).replace("é".encode(), text, 1))
        assert_same(Sample, record_bytes(SAMPLE).replace(b"Sample", b"Sampl" + text[:1], 1))
        assert_same(Sample, record_bytes(SAMPLE).replace(b"QS", text[:2], 1))  # a card's code


def test_fields_protobuf_would_refuse_are_refused_even_where_unread() -> None:
    """A field the decoding ignores (unknown, or repeated by a later one) is still parsed
    by protobuf: bad UTF-8 in it, or nesting past its depth limit, fails the whole record."""
    data = record_bytes(SAMPLE)
    bad = b"\x12\x02\xc0\x80"  # a string Value, overlong UTF-8
    for name in (b"extra", b"text", b"number"):
        field = b"\x0a" + bytes([len(name)]) + name + b"\x12" + bytes([len(bad)]) + bad
        for record in (data + b"\x12" + bytes([len(field)]) + field, field_first(data, field)):
            assert assert_same(Sample, record)[:2] == ("error", DecodeError)

    def ld(tag: int, inner: bytes) -> bytes:
        return bytes([tag]) + records._varint(len(inner)) + inner

    deep = b"\x18\x01"  # a flag inside 33 nested records: protobuf's limit from the top
    for _ in range(33):
        deep = ld(0x42, ld(0x12, ld(0x12, deep)))
    pb.Value.FromString(deep)  # alone, it is within the limit
    field = ld(0x12, b"\x0a\x04flag" + ld(0x12, deep))
    start = data.index(b"\x0a\x04flag") - 2
    stop = data.index(b"\x0a\x04card") - 2
    assert assert_same(Sample, data[:start] + field + data[stop:])[:2] == ("error", DecodeError)


@dataclass(frozen=True)
class Item:
    seat: int
    extra: int = 0


@dataclass(frozen=True)
class Holder:
    items: tuple[Item, ...]
    pair: tuple[Item, Item]
    extra: int


def test_a_part_running_past_its_whole_is_refused() -> None:
    """An item longer than its list, a value longer than its field: protobuf refuses the
    record, even where the bytes after it would read as the fields of the item."""

    def ld(tag: int, inner: bytes) -> bytes:
        return bytes([tag]) + records._varint(len(inner)) + inner

    def field(name: bytes, value: bytes) -> bytes:
        return ld(0x12, ld(0x0A, name) + ld(0x12, value))

    item = field(b"seat", b"\x08\x01")
    extra = field(b"extra", b"\x08\x07")
    items = ld(0x3A, ld(0x0A, ld(0x42, item)))
    pair = ld(0x3A, ld(0x0A, ld(0x42, item)) + ld(0x0A, ld(0x42, item)))
    good = field(b"items", items) + field(b"pair", pair) + extra
    assert from_record_bytes(Holder, good) == Holder((Item(1),), (Item(1), Item(1)), 7)
    assert direct(Holder, good) == from_record_bytes(Holder, good)
    for at in range(len(good)):  # each length one longer (its part running over the next)
        for longer in (1, len(extra)):
            data = good[:at] + bytes([(good[at] + longer) % 256]) + good[at + 1 :]
            assert_same(Holder, data)
    # the last item of a list (and of a pair) taking the record's next field
    taking = len(item) + len(extra)
    over = bytes([0x0A, 2 + taking, 0x42, taking]) + item  # its list ends after `item`
    for items_ in (ld(0x3A, over), ld(0x3A, ld(0x0A, ld(0x42, item)) + over)):
        for data in (
            field(b"items", items_) + extra + field(b"pair", pair),
            field(b"items", items) + field(b"pair", items_) + extra,
        ):
            assert assert_same(Holder, data)[:2] == ("error", DecodeError)


def test_an_unknown_field_in_the_place_of_a_known_one() -> None:
    every = fields(SAMPLE)
    for at, known in enumerate(every):
        renamed = pb.Field(name=known.name + "x", value=known.value)
        assert_same(Sample, written([*every[:at], renamed, *every[at + 1 :]]))
        for other in every:
            swapped = pb.Field(name=other.name, value=known.value)
            assert_same(Sample, written([*every[:at], swapped, *every[at + 1 :]]))


def field_first(data: bytes, field: bytes) -> bytes:
    header = b"\x0a\x06Sample"
    assert data.startswith(header)
    return header + b"\x12" + bytes([len(field)]) + field + data[len(header) :]


def test_malformed_bytes_raise_what_protobuf_raised() -> None:
    data = record_bytes(SAMPLE)
    with pytest.raises(DecodeError):
        from_record_bytes(Sample, data[:-1])
    for cut in range(len(data)):
        assert_same(Sample, data[:cut])
    for at in range(len(data)):
        for byte in {0x00, 0x01, 0x02, 0x08, 0x0A, 0x12, 0x7F, 0x80, 0xFF, data[at] ^ 1}:
            assert_same(Sample, data[:at] + bytes([byte]) + data[at + 1 :])
        assert_same(Sample, data[:at] + data[at + 1 :])
        assert_same(Sample, data[:at] + b"\x00" + data[at:])


@settings(max_examples=300, deadline=None, database=None)
@given(
    obj=_instances(Sample),
    edits=st.lists(
        st.tuples(
            st.sampled_from(["set", "insert", "delete"]),
            st.integers(0),
            st.binary(min_size=1, max_size=3),
        ),
        min_size=1,
        max_size=3,
    ),
)
def test_mangled_records_decode_or_fail_as_before(
    obj: Sample, edits: list[tuple[str, int, bytes]]
) -> None:
    data = bytearray(record_bytes(obj))
    for how, at, chunk in edits:
        at %= len(data) + 1
        if how == "set":
            data[at : at + len(chunk)] = chunk
        elif how == "insert":
            data[at:at] = chunk
        else:
            del data[at : at + len(chunk)]
    assert_same(Sample, bytes(data))


def test_a_type_holding_itself_and_deep_nesting() -> None:
    node = None
    for value in range(40):
        node = Node(value, node)
    assert node is not None
    assert_same(Node, record_bytes(node.child.child.child.child.child))  # type: ignore[union-attr]
    expected = assert_same(Node, record_bytes(node))  # past protobuf's depth limit
    assert expected[:2] == ("error", DecodeError)


def test_closed_values_are_shared() -> None:
    data = record_bytes(SAMPLE)
    first, second = from_record_bytes(Sample, data), from_record_bytes(Sample, data)
    assert first.card is second.card is old(Sample, data).card
    assert first.colour is Colour.BLUE
    assert first.cards[1] is first.cards[2]
    assert first.inner is not second.inner  # records are made anew, as before


def test_enum_members_and_suits() -> None:
    for colour in Colour:
        for suit in Suit:
            obj = dataclasses.replace(SAMPLE, colour=colour, card=Card(suit, SAMPLE.card.rank))
            assert_round_trip(obj)
