"""Generic mapping between frozen dataclasses (events, views) and ``tavola.v1.Record``.

Supported field types (the closed set the game interface allows): ``int``, ``str``,
``bool``, ``Card``, ``Tile``, ``IntEnum`` subclasses, ``X | None``, nested frozen
dataclasses, and tuples (``tuple[T, ...]`` or fixed ``tuple[A, B]``). Fields are written
in declaration order, so the encoding is deterministic byte for byte.
"""

from __future__ import annotations

import dataclasses
import enum
import operator
import types
import typing
from collections.abc import Callable
from typing import Any

from tavola.rules.cards import Card, Rank, Suit
from tavola.rules.tiles import Tile
from tavola.v1 import common_pb2 as pb


class RecordError(ValueError):
    """A value or a record does not fit the supported types."""


def card_to_pb(c: Card) -> pb.Card:
    return pb.Card(code=c.code, rank=int(c.rank), suit=int(c.suit) + 1)  # type: ignore[arg-type]


def card_from_pb(m: pb.Card) -> Card:
    return Card(Suit(int(m.suit) - 1), Rank(m.rank))


def tile_to_pb(t: Tile) -> pb.Tile:
    return pb.Tile(high=t.high, low=t.low, code=t.code)


def to_value(value: Any) -> pb.Value:
    """Encode one Python value (type taken from the value itself)."""
    return pb.Value.FromString(_value(value))


def to_record(obj: Any, type_name: str | None = None) -> pb.Record:
    """Encode a dataclass instance as a Record (fields in declaration order)."""
    return pb.Record.FromString(record_bytes(obj, type_name))


def embedded(number: int, data: bytes) -> bytes:
    """Field ``number`` holding a message serialized as ``data``, as protobuf writes it. A
    message's bytes are its fields' bytes in a row (in any order), so a message can be put
    together from parts serialized once: an envelope several bots' pushes share."""
    return _varint(number << 3 | 2) + _varint(len(data)) + data


def record_bytes(obj: Any, type_name: str | None = None) -> bytes:
    """``to_record(obj, type_name).SerializeToString(deterministic=True)``, written
    directly: views and events are encoded on every move, and protobuf's constructors cost
    more than the bytes. The wire format is protobuf's own (``common.proto``); the values
    of the closed sets (cards, tiles, enum members, None) are serialized once by protobuf
    itself; ``tests/unit/engine/test_record_bytes.py`` holds it byte for byte."""
    plan = _PLANS_OUT.get(type(obj)) or _plan_out(type(obj))
    if type_name:
        name = type_name.encode()
        parts = [b"\x0a", _varint(len(name)), name]
    else:
        parts = [plan.header]
    for prefix, value in zip(plan.prefixes, plan.values(obj), strict=True):
        encoder = _ENCODERS.get(type(value))
        data = encoder(value) if encoder is not None else _value(value)
        size = _varint(len(data))
        parts += (b"\x12", _varint(len(prefix) + len(size) + len(data)), prefix, size, data)
    return b"".join(parts)


@dataclasses.dataclass(frozen=True, slots=True)
class _PlanOut:
    """How one dataclass is written: its type's name, each field's start, its values."""

    header: bytes
    prefixes: tuple[bytes, ...]
    values: Callable[[Any], tuple[Any, ...]]


# Encoders per type, found once; Value bytes of constants, built once by protobuf (keyed
# by plain ints: an enum member's or a card's own hash is far slower than the lookup).
_ENCODERS: dict[type, Callable[[Any], bytes]] = {}
_PLANS_OUT: dict[type, _PlanOut] = {}
_SMALL = [bytes([n]) for n in range(128)]


def _varint(n: int) -> bytes:
    if n < 128:
        return _SMALL[n]
    out = bytearray()
    while n > 127:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _plan_out(cls: type) -> _PlanOut:
    """Each field's encoded name and the start of its value (Field: name = 1, value = 2)."""
    names = tuple(f.name for f in dataclasses.fields(cls))
    name = cls.__name__.encode()
    # attrgetter answers a tuple only for two names or more
    values = operator.attrgetter(*names) if len(names) > 1 else _getter(names)
    plan = _PLANS_OUT[cls] = _PlanOut(
        header=b"\x0a" + _varint(len(name)) + name if name else b"",
        prefixes=tuple(b"\x0a" + _varint(len(n.encode())) + n.encode() + b"\x12" for n in names),
        values=values,
    )
    return plan


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    return lambda obj: tuple(getattr(obj, n) for n in names)


def _value(value: Any) -> bytes:
    encoder = _ENCODERS.get(type(value))
    if encoder is None:
        encoder = _ENCODERS[type(value)] = _encoder_for(type(value), value)
    return encoder(value)


_INTS = [b"\x08" + _varint(n) for n in range(256)]


def _int(value: int) -> bytes:
    if 0 <= value < 256:
        return _INTS[value]
    return b"\x08" + _varint(value if value >= 0 else value + (1 << 64))  # int64


def _string(value: str) -> bytes:
    data = value.encode()
    return b"\x12" + _varint(len(data)) + data


def _list(value: tuple[Any, ...]) -> bytes:
    parts: list[bytes] = []
    encoders = _ENCODERS
    for item in value:
        encoder = encoders.get(type(item))
        encoded = encoder(item) if encoder is not None else _value(item)
        parts += (b"\x0a", _varint(len(encoded)), encoded)
    items = b"".join(parts)
    return b"\x3a" + _varint(len(items)) + items


def _record(value: Any) -> bytes:
    data = record_bytes(value)
    return b"\x42" + _varint(len(data)) + data


def _serialized(value: pb.Value) -> bytes:
    return value.SerializeToString(deterministic=True)


def _encoder_for(cls: type, example: Any) -> Callable[[Any], bytes]:
    if example is None:
        null = _serialized(pb.Value(null_value=True))
        return lambda _: null
    if issubclass(cls, bool):
        return lambda value: b"\x18\x01" if value else b"\x18\x00"
    if issubclass(cls, enum.IntEnum):
        return _enum_encoder()
    if issubclass(cls, int):
        return _int
    if issubclass(cls, str):
        return _string
    if issubclass(cls, Card):
        return _card_encoder()
    if issubclass(cls, Tile):
        return _tile_encoder()
    if issubclass(cls, tuple):
        return _list
    if dataclasses.is_dataclass(cls):
        return _record
    raise RecordError(f"unsupported value {example!r} of type {cls.__name__}")


# The closed sets' encoders (one per type): each value's bytes made once, by protobuf.


def _enum_encoder() -> Callable[[enum.IntEnum], bytes]:
    made: dict[int, bytes] = {}

    def encode(value: enum.IntEnum) -> bytes:
        found = made.get(int(value))
        if found is None:
            number = int(value)
            found = made[number] = _serialized(
                pb.Value(
                    enum_value=pb.EnumValue(
                        type=type(value).__name__, name=value.name, number=number
                    )
                )
            )
        return found

    return encode


def _card_encoder() -> Callable[[Card], bytes]:
    made: dict[int, bytes] = {}

    def encode(card: Card) -> bytes:
        found = made.get(card.suit * 16 + card.rank)
        if found is None:
            found = made[card.suit * 16 + card.rank] = _serialized(pb.Value(card=card_to_pb(card)))
        return found

    return encode


def _tile_encoder() -> Callable[[Tile], bytes]:
    made: dict[int, bytes] = {}

    def encode(tile: Tile) -> bytes:
        found = made.get(tile.high * 8 + tile.low)
        if found is None:
            found = made[tile.high * 8 + tile.low] = _serialized(pb.Value(tile=tile_to_pb(tile)))
        return found

    return encode


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def from_record(cls: type[Any], record: pb.Record) -> Any:
    """Decode a Record into an instance of ``cls`` (a dataclass)."""
    values = {f.name: f.value for f in record.fields}
    kwargs = {}
    for name, decode, optional in _plan(cls):
        value = values.get(name)
        if value is None:
            if optional:
                continue  # a field added later, with a default: older events keep decoding
            raise RecordError(f"{cls.__name__}: missing field {name}")
        kwargs[name] = decode(value)
    return cls(**kwargs)


def from_value(hint: Any, value: pb.Value) -> Any:
    return _decoder(hint)(value)


# Decoding folds every event of a match being replayed, so each dataclass's plan (field,
# decoder, whether it has a default) and each type hint's decoder are worked out once;
# cards and tiles, a closed set, are made once and shared (they are frozen).
_PLANS: dict[type, tuple[tuple[str, Any, bool], ...]] = {}
_DECODERS: dict[Any, Any] = {}
_CARDS: dict[tuple[int, int], Card] = {}
_TILES: dict[tuple[int, int], Tile] = {}


def _plan(cls: type) -> tuple[tuple[str, Any, bool], ...]:
    plan = _PLANS.get(cls)
    if plan is None:
        hints = _hints(cls)
        plan = _PLANS[cls] = tuple(
            (
                f.name,
                _decoder(hints[f.name]),
                f.default is not dataclasses.MISSING,
            )
            for f in dataclasses.fields(cls)
        )
    return plan


def _decoder(hint: Any) -> Any:
    decoder = _DECODERS.get(hint)
    if decoder is None:
        decoder = _DECODERS[hint] = _decoder_for(hint)
    return decoder


def _decoder_for(hint: Any) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]

        def optional(value: pb.Value) -> Any:
            if value.WhichOneof("kind") == "null_value":
                return None
            if len(inner) != 1:
                raise RecordError(f"unsupported union {hint}")
            return _decoder(inner[0])(value)

        return optional
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda value: tuple(item(v) for v in value.list.items)
        items = tuple(_decoder(a) for a in args)

        def fixed(value: pb.Value) -> Any:
            values = value.list.items
            if len(items) != len(values):
                raise RecordError(f"expected {len(items)} items for {hint}")
            return tuple(decode(v) for decode, v in zip(items, values, strict=True))

        return fixed
    if origin is typing.Literal:
        return lambda value: (
            value.string_value if value.WhichOneof("kind") == "string_value" else value.int_value
        )
    return _scalar_decoder(hint)


def _scalar_decoder(hint: Any) -> Any:
    if hint is bool:
        return lambda value: value.bool_value
    if hint is int:
        return lambda value: value.int_value
    if hint is str:
        return lambda value: value.string_value
    if hint is Card:
        return _card
    if hint is Tile:
        return _tile
    if isinstance(hint, type) and issubclass(hint, enum.IntEnum):
        return lambda value: hint(value.enum_value.number)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return lambda value: from_record(hint, value.record)

    def unsupported(_value: pb.Value) -> Any:
        raise RecordError(f"unsupported type {hint!r}")

    return unsupported


def _card(value: pb.Value) -> Card:
    message = value.card
    key = (message.suit, message.rank)
    card = _CARDS.get(key)
    if card is None:
        card = _CARDS[key] = card_from_pb(message)
    return card


def _tile(value: pb.Value) -> Tile:
    message = value.tile
    key = (message.high, message.low)
    tile = _TILES.get(key)
    if tile is None:
        tile = _TILES[key] = Tile(message.high, message.low)
    return tile


def record_to_plain(record: pb.Record) -> dict[str, Any]:
    """A JSON-friendly rendering of a record (for CLIs and logs)."""
    return {f.name: value_to_plain(f.value) for f in record.fields}


def value_to_plain(value: pb.Value) -> Any:
    kind = value.WhichOneof("kind")
    if kind == "card":
        return value.card.code
    if kind == "tile":
        return value.tile.code
    if kind == "enum_value":
        return value.enum_value.name
    if kind == "list":
        return [value_to_plain(v) for v in value.list.items]
    if kind == "record":
        return record_to_plain(value.record)
    if kind == "null_value" or kind is None:
        return None
    return getattr(value, kind)
