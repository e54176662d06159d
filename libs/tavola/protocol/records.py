"""Generic mapping between frozen dataclasses (events, views) and ``tavola.v1.Record``.

Supported field types (the closed set the game interface allows): ``int``, ``str``,
``bool``, ``Card``, ``Tile``, ``IntEnum`` subclasses, ``X | None``, nested frozen
dataclasses, and tuples (``tuple[T, ...]`` or fixed ``tuple[A, B]``). Fields are written
in declaration order, so the encoding is deterministic byte for byte.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
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
    if value is None:
        return pb.Value(null_value=True)
    if isinstance(value, bool):
        return pb.Value(bool_value=value)
    if isinstance(value, enum.IntEnum):
        return pb.Value(
            enum_value=pb.EnumValue(type=type(value).__name__, name=value.name, number=int(value))
        )
    if isinstance(value, int):
        return pb.Value(int_value=value)
    if isinstance(value, str):
        return pb.Value(string_value=value)
    if isinstance(value, Card):
        return pb.Value(card=card_to_pb(value))
    if isinstance(value, Tile):
        return pb.Value(tile=tile_to_pb(value))
    if isinstance(value, tuple):
        return pb.Value(list=pb.ValueList(items=[to_value(v) for v in value]))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return pb.Value(record=to_record(value))
    raise RecordError(f"unsupported value {value!r} of type {type(value).__name__}")


def to_record(obj: Any, type_name: str | None = None) -> pb.Record:
    """Encode a dataclass instance as a Record (fields in declaration order)."""
    fields = [
        pb.Field(name=f.name, value=to_value(getattr(obj, f.name))) for f in dataclasses.fields(obj)
    ]
    return pb.Record(type=type_name or type(obj).__name__, fields=fields)


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


def from_record(cls: type[Any], record: pb.Record) -> Any:
    """Decode a Record into an instance of ``cls`` (a dataclass)."""
    hints = _hints(cls)
    values = {f.name: f.value for f in record.fields}
    kwargs = {}
    for f in dataclasses.fields(cls):
        if f.name not in values:
            if f.default is not dataclasses.MISSING:
                continue  # a field added later, with a default: older events keep decoding
            raise RecordError(f"{cls.__name__}: missing field {f.name}")
        kwargs[f.name] = from_value(hints[f.name], values[f.name])
    return cls(**kwargs)


def from_value(hint: Any, value: pb.Value) -> Any:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        if value.WhichOneof("kind") == "null_value":
            return None
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(inner) != 1:
            raise RecordError(f"unsupported union {hint}")
        return from_value(inner[0], value)
    if origin is tuple:
        args = typing.get_args(hint)
        items = value.list.items
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_value(args[0], v) for v in items)
        if len(args) != len(items):
            raise RecordError(f"expected {len(args)} items for {hint}")
        return tuple(from_value(a, v) for a, v in zip(args, items, strict=True))
    if origin is typing.Literal:
        return (
            value.string_value if value.WhichOneof("kind") == "string_value" else (value.int_value)
        )
    return _scalar(hint, value)


def _scalar(hint: Any, value: pb.Value) -> Any:
    if hint is bool:
        return value.bool_value
    if hint is int:
        return value.int_value
    if hint is str:
        return value.string_value
    if hint is Card:
        return card_from_pb(value.card)
    if hint is Tile:
        return Tile(value.tile.high, value.tile.low)
    if isinstance(hint, type) and issubclass(hint, enum.IntEnum):
        return hint(value.enum_value.number)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return from_record(hint, value.record)
    raise RecordError(f"unsupported type {hint!r}")


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
