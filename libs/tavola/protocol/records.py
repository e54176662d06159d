"""Generic mapping between frozen dataclasses (events, views) and ``tavola.v1.Record``.

Supported field types (the closed set the game interface allows): ``int``, ``str``,
``bool``, ``Card``, ``Tile``, ``IntEnum`` subclasses, ``X | None``, nested frozen
dataclasses, and tuples (``tuple[T, ...]`` or fixed ``tuple[A, B]``). Fields are written
in declaration order, so the encoding is deterministic byte for byte. ``from_record``
decodes a parsed Record; ``from_record_bytes`` the same from its bytes, several times faster.
"""

from __future__ import annotations

import dataclasses
import enum
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


def varint(n: int) -> bytes:
    """A non-negative integer as protobuf's varint."""
    return _varint(n)


def scalar(number: int, value: int) -> bytes:
    """Field ``number`` holding a non-negative integer (or bool) ``value``, as protobuf
    writes it: nothing at all for 0 (proto3's default)."""
    return _varint(number << 3) + _varint(value) if value else b""


def text(number: int, value: str) -> bytes:
    """Field ``number`` holding a string, as protobuf writes it: nothing at all for the
    empty string (proto3's default)."""
    return embedded(number, value.encode()) if value else b""


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
    itself; ``tests/unit/engine/test_record_bytes.py`` holds it byte for byte.

    Each dataclass is written by a function made for it (``_compile_out``): its fields
    read by name, and each field's bytes for a value of its type seen before (a seat, a
    phase, a card, a flag, None) kept and reused, so a view of a few dozen fields costs a
    few dictionary lookups a field."""
    encode = _COMPILED.get(type(obj))
    if encode is None:
        encode = _compile_out(type(obj))
    if type_name:
        head = _HEADS.get(type_name)
        if head is None:
            head = _head(type_name)
        return encode(obj, head)
    return encode(obj, None)


_COMPILED: dict[type, Callable[[Any, bytes | None], bytes]] = {}
_HEADS: dict[str, bytes] = {}  # a Record's ``type`` field, per type name written


def _head(type_name: str) -> bytes:
    name = type_name.encode()
    head = b"\x0a" + _varint(len(name)) + name
    if len(_HEADS) < 4096:  # the games' type names: a few hundred
        _HEADS[type_name] = head
    return head


def _field(prefix: bytes, value: Any) -> bytes:
    """A Record's field holding ``value`` (Field: name = 1, value = 2), ``prefix`` its
    start: ``0x12 <len> <prefix> <len of value> <value>``."""
    encoder = _ENCODERS.get(type(value))
    data = encoder(value) if encoder is not None else _value(value)
    n = len(data)
    size = _SMALL[n] if n < 128 else _varint(n)
    n += len(prefix) + len(size)
    return b"\x12" + (_SMALL[n] if n < 128 else _varint(n)) + prefix + size + data


def _kept_field(kept: dict[Any, bytes], key: Any, prefix: bytes, value: Any) -> bytes:
    """``_field``, kept under ``key`` (at most ``_FIELDS_LIMIT`` values a field)."""
    data = _field(prefix, value)
    if len(kept) < _FIELDS_LIMIT:
        kept[key] = data
    return data


def _compile_out(cls: type) -> Callable[[Any, bytes | None], bytes]:
    """The writer of one dataclass: Python source made from its fields and their hints,
    compiled once. A field whose hint is one immutable leaf type (int, str, bool, an
    IntEnum, Card, Tile) keeps its bytes per value, keyed without the value's own hash
    (an enum member's or a card's is slow); a value of another type than the hint (or of
    a union, a tuple, a record) is written by ``_field``, as every value once was."""
    if not dataclasses.is_dataclass(cls):
        raise RecordError(f"unsupported value of type {cls.__name__}")
    fields = dataclasses.fields(cls)
    try:
        hints = _hints(cls)
    except Exception:  # unresolvable hints: every field the general way
        hints = {}
    name = cls.__name__.encode()
    scope: dict[str, Any] = {
        "HEADER": b"\x0a" + _varint(len(name)) + name if name else b"",
        "_field": _field,
        "_kept": _kept_field,
    }
    lines = ["def encode(obj, head):", "    parts = [HEADER if head is None else head]"]
    for k, f in enumerate(fields):
        raw = f.name.encode()
        prefix = b"\x0a" + _varint(len(raw)) + raw + b"\x12"
        scope[f"P{k}"] = prefix
        scope[f"N{k}"] = _field(prefix, None)
        lines.append(f"    v = obj.{f.name}")
        hint = hints.get(f.name)
        key = _leaf_key(hint)
        if key is None:
            lines.append(f"    parts.append(N{k} if v is None else _field(P{k}, v))")
            continue
        scope[f"T{k}"], scope[f"C{k}"] = hint, {}
        lines += [
            f"    if type(v) is T{k}:",
            f"        key = {key}",
            f"        b = C{k}.get(key)",
            "        if b is None:",
            f"            b = _kept(C{k}, key, P{k}, v)",
            "    elif v is None:",
            f"        b = N{k}",
            "    else:",
            f"        b = _field(P{k}, v)",
            "    parts.append(b)",
        ]
    lines.append('    return b"".join(parts)')
    exec(compile("\n".join(lines), f"<records: {cls.__qualname__}>", "exec"), scope)
    encode: Callable[[Any, bytes | None], bytes] = scope["encode"]
    _COMPILED[cls] = encode
    return encode


def _leaf_key(hint: Any) -> str | None:
    """How ``_compile_out`` keys a value of the leaf type ``hint``, or None (no leaf)."""
    if hint in (int, str, bool):
        return "v"
    if hint is Card:
        return "v.suit * 16 + v.rank"
    if hint is Tile:
        return "v.high * 8 + v.low"
    if isinstance(hint, type) and issubclass(hint, enum.IntEnum):
        return "v._value_"
    return None


# Encoders per type, found once; Value bytes of constants, built once by protobuf (keyed
# by plain ints: an enum member's or a card's own hash is far slower than the lookup).
_ENCODERS: dict[type, Callable[[Any], bytes]] = {}
_SMALL = [bytes([n]) for n in range(128)]


def _varint(n: int) -> bytes:
    if n < 128:
        return _SMALL[n]
    if n < 1 << 14:  # lengths, versions, seconds and nanoseconds: up to five bytes, unrolled
        return bytes((n & 0x7F | 0x80, n >> 7))
    if n < 1 << 21:
        return bytes((n & 0x7F | 0x80, n >> 7 & 0x7F | 0x80, n >> 14))
    if n < 1 << 28:
        return bytes((n & 0x7F | 0x80, n >> 7 & 0x7F | 0x80, n >> 14 & 0x7F | 0x80, n >> 21))
    if n < 1 << 35:
        return bytes(
            (
                n & 0x7F | 0x80,
                n >> 7 & 0x7F | 0x80,
                n >> 14 & 0x7F | 0x80,
                n >> 21 & 0x7F | 0x80,
                n >> 28,
            )
        )
    out = bytearray()
    while n > 127:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


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


# A tuple of immutable leaves (``_LEAVES``: ints, strings, cards, tiles, enum members,
# None) is the same bytes for as long as it lives: a state's tuples are shared from
# version to version and between the views of its seats (a hand that did not change, the
# scores, the trick), so each is written once and kept, with the tuple itself (its id is
# then never another's), at most ``KEPT_LISTS`` (emptied when full).
KEPT_LISTS = 4096
_KEPT_LISTS: dict[int, tuple[tuple[Any, ...], bytes]] = {}
_LEAVES: set[type] = set()


def _list(value: tuple[Any, ...]) -> bytes:
    kept = _KEPT_LISTS.get(id(value))
    if kept is not None and kept[0] is value:
        return kept[1]
    parts: list[bytes] = []
    encoders, small, leaves = _ENCODERS, _SMALL, _LEAVES
    immutable = True
    for item in value:
        kind = type(item)
        encoder = encoders.get(kind)
        encoded = encoder(item) if encoder is not None else _value(item)
        if kind not in leaves:
            immutable = False
        n = len(encoded)
        parts += (b"\x0a", small[n] if n < 128 else _varint(n), encoded)
    items = b"".join(parts)
    n = len(items)
    data = b"\x3a" + (small[n] if n < 128 else _varint(n)) + items
    if immutable:
        if len(_KEPT_LISTS) >= KEPT_LISTS:
            _KEPT_LISTS.clear()
        _KEPT_LISTS[id(value)] = (value, data)
    return data


def _record(value: Any) -> bytes:
    data = record_bytes(value)
    n = len(data)
    return b"\x42" + (_SMALL[n] if n < 128 else _varint(n)) + data


def _serialized(value: pb.Value) -> bytes:
    return value.SerializeToString(deterministic=True)


def _encoder_for(cls: type, example: Any) -> Callable[[Any], bytes]:
    encoder = _encoder_of(cls, example)
    if encoder is not _list and encoder is not _record:
        _LEAVES.add(cls)  # immutable, and always the same bytes
    return encoder


def _encoder_of(cls: type, example: Any) -> Callable[[Any], bytes]:
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


# Decoding straight from the bytes. ``from_record`` walks a parsed upb message attribute by
# attribute, which costs far more than the parse; ``from_record_bytes`` reads the wire format
# (common.proto) itself, in the layout ``record_bytes`` and protobuf both write: fields in
# declaration order, each value one oneof member. Anything else (fields out of order or
# missing are still read here) is decoded by ``from_record`` after protobuf's parse, so
# every answer and every error is the old path's.


def from_record_bytes(cls: type[Any], data: bytes) -> Any:
    """``from_record(cls, pb.Record.FromString(data))``, read from the bytes directly.

    The same value for the same bytes, and the same exception for bad ones: a payload this
    reader does not take in full (malformed bytes, unknown or repeated fields, a value of
    another kind than the field's type, a non-canonical encoding) is decoded the old way,
    so malformed bytes raise protobuf's ``DecodeError``, as they did, and a missing field
    ``RecordError``. Values of the closed sets (cards, tiles, enum members, flags, None,
    literals) are decoded once per distinct encoding and shared."""
    decode = _BYTES_RECORDS.get(cls)
    try:
        if decode is None:
            decode = _bytes_record(cls)
        return decode(data, 0, len(data))
    except Exception:  # whatever it was, the old path decodes it or says what is wrong
        pass
    return from_record(cls, pb.Record.FromString(data))


def prepare_bytes(cls: type[Any]) -> None:
    """Build ``from_record_bytes``'s reader of ``cls`` now (a service's start), not on the
    first payload of the type."""
    _bytes_record(cls)


class _Bail(Exception):
    """The bytes are not in the layout read here: the old path decodes them."""


# A decoder reads one encoded Value, ``data[start:end]``, and answers what ``from_record``'s
# decoder for the same hint answers for it, or raises (then the old path runs).
_BytesDecoder = Callable[[bytes, int, int], Any]
_BYTES_RECORDS: dict[type, _BytesDecoder] = {}
_BYTES_DECODERS: dict[Any, _BytesDecoder] = {}
_CACHE_LIMIT = 4096  # distinct encodings kept per closed type (a deck is 52, an enum a few)
_MAX_DEPTH = 48  # message nesting read here; protobuf refuses past 100
_FIELDS_LIMIT = 256  # distinct encoded fields kept per field of a dataclass (seats, scores)
_MISS = object()


def _length(data: bytes, pos: int, first: int) -> tuple[int, int]:
    """A varint whose first byte (``first``, at ``pos - 1``) has its high bit set."""
    n = first & 0x7F
    shift = 7
    while shift < 35:
        byte = data[pos]
        pos += 1
        n |= (byte & 0x7F) << shift
        if byte < 128:
            return n, pos
        shift += 7
    raise _Bail


def _int64(data: bytes, pos: int, end: int) -> int:
    """The int64 varint filling ``data[pos:end]``: as protobuf reads it, where canonical."""
    n = 0
    shift = 0
    while pos < end:
        byte = data[pos]
        pos += 1
        n |= (byte & 0x7F) << shift
        if byte < 128:
            if pos != end:
                break
            if shift < 63:
                return n
            if byte == 1:  # the tenth byte of a negative number (two's complement)
                return n - (1 << 64)
            break
        shift += 7
        if shift > 63:
            break
    raise _Bail


def _bytes_int(data: bytes, start: int, end: int) -> int:
    if end - start == 2 and data[start] == 0x08:
        n = data[start + 1]
        if n < 128:
            return n
    if start >= end or data[start] != 0x08:
        raise _Bail
    return _int64(data, start + 1, end)


def _bytes_str(data: bytes, start: int, end: int) -> str:
    if start + 1 >= end or data[start] != 0x12:
        raise _Bail
    n = data[start + 1]
    pos = start + 2
    if n > 127:
        n, pos = _length(data, pos, n)
    if pos + n != end:
        raise _Bail
    return data[pos:end].decode()


def _bytes_record(cls: type) -> _BytesDecoder:
    """The reader of one dataclass's Record (``data[start:end]``)."""
    decoder = _BYTES_RECORDS.get(cls)
    if decoder is not None:
        return decoder
    try:
        deep = _record_depth(cls, ()) > _MAX_DEPTH
    except _Bail:  # a type holding itself: no static bound on the nesting
        deep = True
    if deep:
        decoder = _BYTES_RECORDS[cls] = _bail
        return decoder
    hints = _hints(cls)
    plan = tuple(
        (name.encode(), name, _bytes_decoder(hints[name]), optional)
        for name, _, optional in _plan(cls)
    )
    prefixes = tuple(b"\x0a" + _varint(len(encoded)) + encoded + b"\x12" for encoded, *_ in plan)
    steps: tuple[tuple[dict[bytes, Any] | None, bytes, int, _BytesDecoder], ...] = tuple(
        ({} if _plain(hints[name]) else None, prefix, len(prefix), decode)
        for prefix, (_, name, decode, _) in zip(prefixes, plan, strict=True)
    )
    known = {encoded for encoded, _, _, _ in plan}
    params = getattr(cls, "__dataclass_params__", None)
    positional = bool(getattr(params, "init", False)) and all(
        f.init and not f.kw_only for f in dataclasses.fields(cls)
    )
    names = tuple(name for _, name, _, _ in plan)
    miss = _MISS

    def by_name(data: bytes, start: int, end: int) -> Any:
        """Fields in any order, some missing: what ``from_record`` makes of them."""
        found: dict[bytes, tuple[int, int]] = {}
        pos = start
        while pos < end:
            tag = data[pos]
            n = data[pos + 1]
            pos += 2
            if n > 127:
                n, pos = _length(data, pos, n)
            stop = pos + n
            if stop > end:
                raise _Bail
            if tag == 0x12:
                name: bytes | None = None
                value: tuple[int, int] | None = None
                while pos < stop:
                    inner = data[pos]
                    n = data[pos + 1]
                    pos += 2
                    if n > 127:
                        n, pos = _length(data, pos, n)
                    if pos + n > stop:
                        raise _Bail
                    if inner == 0x0A and name is None:
                        name = data[pos : pos + n]
                    elif inner == 0x12 and value is None:
                        value = (pos, pos + n)
                    else:
                        raise _Bail
                    pos += n
                if name not in known or name in found or value is None:
                    raise _Bail  # an unknown or repeated field, or no value: the old path
                found[name] = value
            elif tag == 0x0A:
                data[pos:stop].decode()  # the type: protobuf checks its UTF-8
            else:
                raise _Bail
            pos = stop
        kwargs = {}
        for encoded, name_, decode, optional in plan:
            where = found.get(encoded)
            if where is None:
                if optional:
                    continue
                raise RecordError(f"{cls.__name__}: missing field {name_}")
            kwargs[name_] = decode(data, where[0], where[1])
        return cls(**kwargs)

    def decode(data: bytes, start: int, end: int) -> Any:
        pos = start
        if pos < end and data[pos] == 0x0A:  # the type's name
            n = data[pos + 1]
            pos += 2
            if n > 127:
                n, pos = _length(data, pos, n)
            if pos + n > end:
                raise _Bail
            data[pos : pos + n].decode()
            pos += n
        values: list[Any] = []
        append = values.append
        for known_fields, prefix, size, read in steps:
            if pos >= end:
                return by_name(data, start, end)
            n = data[pos + 1]
            if n < 128 and known_fields is not None:
                # this whole Field (its tag and size too) seen before: its value
                stop = pos + 2 + n
                value = known_fields.get(data[pos:stop], miss)
                if value is not miss:
                    append(value)
                    pos = stop
                    continue
            if data[pos] != 0x12:
                return by_name(data, start, end)
            field = pos
            pos += 2
            if n > 127:
                n, pos = _length(data, pos, n)
            stop = pos + n
            if not data.startswith(prefix, pos):
                return by_name(data, start, end)
            at = pos + size
            n = data[at]
            at += 1
            if n > 127:
                n, at = _length(data, at, n)
            if at + n != stop:
                raise _Bail  # more in the Field than its value, or a value past it
            value = read(data, at, stop)
            if (
                known_fields is not None
                and stop - field < 128
                and len(known_fields) < _FIELDS_LIMIT
            ):
                known_fields[data[field:stop]] = value
            append(value)
            pos = stop
        if pos != end:  # fields after these, or one running past the record's end
            return by_name(data, start, end)
        if positional:
            return cls(*values)
        return cls(**dict(zip(names, values, strict=True)))

    _BYTES_RECORDS[cls] = decode
    return decode


def _bail(data: bytes, start: int, end: int) -> Any:
    raise _Bail


def _record_depth(cls: type, seen: tuple[type, ...]) -> int:
    """How deep a Record of ``cls`` nests messages (Record, Field, Value, ...)."""
    if cls in seen:
        raise _Bail
    hints = _hints(cls)
    inner = [_value_depth(hints[f.name], (*seen, cls)) for f in dataclasses.fields(cls)]
    return 2 + max(inner, default=0)


def _value_depth(hint: Any, seen: tuple[type, ...]) -> int:
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType) or origin is tuple:
        args = [a for a in typing.get_args(hint) if a is not type(None) and a is not Ellipsis]
        depth = max((_value_depth(a, seen) for a in args), default=1)
        return depth if origin is not tuple else 2 + depth
    if hint in (Card, Tile) or (isinstance(hint, type) and issubclass(hint, enum.Enum)):
        return 2
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return 1 + _record_depth(hint, seen)
    return 1


def _bytes_decoder(hint: Any) -> _BytesDecoder:
    decoder = _BYTES_DECODERS.get(hint)
    if decoder is None:
        decoder = _BYTES_DECODERS[hint] = _bytes_decoder_for(hint)
    return decoder


def _closed(hint: Any) -> bool:
    """Whether a hint's values are a small closed set (each decoded once, then shared)."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(hint) if a is not type(None)]
        return len(inner) != 1 or _closed(inner[0])
    if origin is typing.Literal:
        return True
    return (
        hint is bool
        or hint is Card
        or hint is Tile
        or (isinstance(hint, type) and issubclass(hint, enum.IntEnum))
    )


def _plain(hint: Any) -> bool:
    """Whether a hint's values are immutable all through (no dataclass but cards and tiles):
    a field's decoded value may then be kept per encoding and shared."""
    if _closed(hint) or hint in (int, str):
        return True
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType, tuple):
        return all(a is Ellipsis or a is type(None) or _plain(a) for a in typing.get_args(hint))
    return False


def _bytes_decoder_for(hint: Any) -> _BytesDecoder:
    if _closed(hint):
        return _closed_decoder(hint)
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        (inner,) = (a for a in typing.get_args(hint) if a is not type(None))
        return _optional_decoder(_bytes_decoder(inner))
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return _list_decoder(args[0])
        return _fixed_decoder(tuple(_bytes_decoder(a) for a in args))
    if hint is int:
        return _bytes_int
    if hint is str:
        return _bytes_str
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _nested_decoder(_bytes_record(hint))
    return _bail  # unsupported: the old path raises its RecordError


def _closed_decoder(hint: Any) -> _BytesDecoder:
    """Each distinct encoding decoded once by the old decoder, kept when it is exactly the
    encoding ``record_bytes`` writes for the value decoded (so nothing in it is ignored)."""
    old = _decoder(hint)
    cache: dict[bytes, Any] = {}
    miss = _MISS

    def decode(data: bytes, start: int, end: int) -> Any:
        key = data[start:end]
        value = cache.get(key, miss)
        if value is miss:
            value = old(pb.Value.FromString(key))
            if _value(value) != key:
                raise _Bail
            if len(cache) < _CACHE_LIMIT:
                cache[key] = value
        return value

    return decode


def _optional_decoder(inner: _BytesDecoder) -> _BytesDecoder:
    def decode(data: bytes, start: int, end: int) -> Any:
        if start >= end:
            raise _Bail
        if data[start] == 0x48:
            if end - start == 2 and data[start + 1] == 1:
                return None
            raise _Bail
        return inner(data, start, end)

    return decode


def _items(data: bytes, start: int, end: int, tag: int) -> tuple[int, int]:
    """Where the message of a Value's single field ``tag`` lies (it must fill the Value)."""
    if start + 1 >= end or data[start] != tag:
        raise _Bail
    n = data[start + 1]
    pos = start + 2
    if n > 127:
        n, pos = _length(data, pos, n)
    if pos + n != end:
        raise _Bail
    return pos, end


def _list_decoder(item_hint: Any) -> _BytesDecoder:
    item = _bytes_decoder(item_hint)
    if _closed(item_hint):
        return _closed_list_decoder(item)

    def decode(data: bytes, start: int, end: int) -> tuple[Any, ...]:
        pos, end = _items(data, start, end, 0x3A)
        out = []
        while pos < end:
            if data[pos] != 0x0A:
                raise _Bail
            n = data[pos + 1]
            pos += 2
            if n > 127:
                n, pos = _length(data, pos, n)
            stop = pos + n
            if stop > end:
                raise _Bail
            out.append(item(data, pos, stop))
            pos = stop
        return tuple(out)

    return decode


def _closed_list_decoder(item: _BytesDecoder) -> _BytesDecoder:
    """A list of cards (tiles, members): each item's bytes, with its tag and size, mapped
    to its value once."""
    known: dict[bytes, Any] = {}
    get = known.get
    miss = _MISS

    def decode(data: bytes, start: int, end: int) -> tuple[Any, ...]:
        pos, end = _items(data, start, end, 0x3A)
        out: list[Any] = []
        append = out.append
        while pos < end:
            stop = pos + 2 + data[pos + 1]
            value = get(data[pos:stop], miss)
            if value is miss:
                if data[pos] != 0x0A:
                    raise _Bail
                n = data[pos + 1]
                at = pos + 2
                if n > 127:
                    n, at = _length(data, at, n)
                stop = at + n
                if stop > end:
                    raise _Bail
                value = item(data, at, stop)
                if at == pos + 2 and len(known) < _CACHE_LIMIT:
                    known[data[pos:stop]] = value
            append(value)
            pos = stop
        if pos != end:  # the last item running past the list's end
            raise _Bail
        return tuple(out)

    return decode


def _fixed_decoder(items: tuple[_BytesDecoder, ...]) -> _BytesDecoder:
    def decode(data: bytes, start: int, end: int) -> tuple[Any, ...]:
        pos, end = _items(data, start, end, 0x3A)
        out = []
        for item in items:
            if pos >= end or data[pos] != 0x0A:
                raise _Bail
            n = data[pos + 1]
            pos += 2
            if n > 127:
                n, pos = _length(data, pos, n)
            stop = pos + n
            if stop > end:
                raise _Bail
            out.append(item(data, pos, stop))
            pos = stop
        if pos != end:
            raise _Bail  # more items than the type has: the old path's RecordError
        return tuple(out)

    return decode


def _nested_decoder(record: _BytesDecoder) -> _BytesDecoder:
    def decode(data: bytes, start: int, end: int) -> Any:
        pos, end = _items(data, start, end, 0x42)
        return record(data, pos, end)

    return decode
