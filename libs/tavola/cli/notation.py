"""One notation for every card and tile the terminal shows, and typed values of a view.

Cards are written with suit symbols, red or plain by suit (``10♥``, ``Q♠``); tiles as
``[6|4]`` (oriented ones as laid: ``[4|6]``). The same functions draw the hand, the trick
or the line, the choices and the reasons, so one screen never mixes ``TH`` and ``10♥``.

``values(record)`` turns a ``tavola.v1.Record`` into Python values that keep their kind
(``Card``, ``Tile``, ``Enum``), which ``record_to_plain`` flattens to codes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from tavola.protocol.records import card_from_pb
from tavola.rules.cards import Card, Suit
from tavola.rules.tiles import Tile
from tavola.v1 import common_pb2

RED = "bold red"
BLACK = "bold"
CARD_CODE = re.compile(r"^(10|[2-9TJQKA])[CDHS]$")
TILE_CODE = re.compile(r"^[0-6]-[0-6]$")


@dataclass(frozen=True, slots=True)
class Enum:
    """A member of an enumeration inside a record (``Contract.NO_QUEENS``)."""

    type: str
    name: str
    number: int


def suit_style(suit: Suit) -> str:
    return RED if suit in (Suit.HEARTS, Suit.DIAMONDS) else BLACK


def card_text(card: Card, extra: str = "") -> Text:
    return Text(card.label, style=f"{suit_style(card.suit)} {extra}".strip())


def suit_text(suit: Suit) -> Text:
    return Text(suit.symbol, style=suit_style(suit))


def tile_label(tile: Tile) -> str:
    return f"[{tile.high}|{tile.low}]"


def tile_text(tile: Tile, extra: str = "") -> Text:
    return Text(tile_label(tile), style=f"bold {extra}".strip())


def oriented_text(left: int, right: int) -> Text:
    """A tile on the line, as laid: its left number faces the left end."""
    return Text(f"[{left}|{right}]", style="bold")


def item_text(item: Any, extra: str = "") -> Text:
    """A card or a tile in the one notation; anything else as text."""
    if isinstance(item, Card):
        return card_text(item, extra)
    if isinstance(item, Tile):
        return tile_text(item, extra)
    return Text(str(item), style=extra)


def parse_code(code: str) -> Card | Tile | None:
    """The card or tile a stable code names (``"TH"``, ``"6-4"``), else ``None``."""
    text = code.strip()
    if CARD_CODE.match(text.upper()):
        return Card.parse(text)
    if TILE_CODE.match(text):
        return Tile.parse(text)
    return None


def code_label(code: str) -> str | None:
    """The notation of a card or tile code (``"TH"`` -> ``"10♥"``, ``"6-4"`` -> ``"[6|4]"``)."""
    item = parse_code(code)
    if isinstance(item, Card):
        return item.label
    if isinstance(item, Tile):
        return tile_label(item)
    return None


def join(items: Iterable[Text], separator: str = " ") -> Text:
    out = Text()
    for index, item in enumerate(items):
        if index:
            out.append(separator)
        out.append_text(item)
    return out


def with_notation(text: str, params: Mapping[str, str | int]) -> Text:
    """A server text (a reason, a hint) in the one notation: every parameter that is a card
    or tile code is replaced by its label where the text shows it, and coloured."""
    spans: list[tuple[str, Text]] = []
    for value in params.values():
        if not isinstance(value, str):
            continue
        item = parse_code(value)
        if item is not None:
            spans.append((value, item_text(item)))
    if not spans:
        return Text(text)
    by_code = dict(spans)
    pattern = re.compile(
        r"(?<![\w-])("
        + "|".join(re.escape(c) for c in sorted(by_code, key=len, reverse=True))
        + r")(?![\w-])"
    )
    out = Text()
    position = 0
    for match in pattern.finditer(text):
        out.append(text[position : match.start()])
        out.append_text(by_code[match.group(1)])
        position = match.end()
    out.append(text[position:])
    return out


def reason_params(reason: common_pb2.Reason) -> dict[str, str | int]:
    return {
        p.name: (p.int_value if p.WhichOneof("value") == "int_value" else p.string_value)
        for p in reason.params
    }


def reason_text(reason: common_pb2.Reason) -> Text:
    """A ``Reason`` as the server rendered it, in the one notation."""
    return with_notation(reason.text or reason.code, reason_params(reason))


# ----- typed values of a record -----------------------------------------------------------
def value(v: common_pb2.Value) -> Any:
    kind = v.WhichOneof("kind")
    if kind == "card":
        return card_from_pb(v.card)
    if kind == "tile":
        return Tile(v.tile.high, v.tile.low)
    if kind == "enum_value":
        return Enum(v.enum_value.type, v.enum_value.name, v.enum_value.number)
    if kind == "list":
        return [value(item) for item in v.list.items]
    if kind == "record":
        return values(v.record)
    if kind == "null_value" or kind is None:
        return None
    return getattr(v, kind)


def values(record: common_pb2.Record) -> dict[str, Any]:
    """A record's fields as typed Python values (cards stay cards, tiles stay tiles)."""
    return {f.name: value(f.value) for f in record.fields}
