"""Readable words for the values inside views and events: seats, enumerations, lists.

``value_text`` renders any value of a record (see ``notation.values``) without ever showing
Python syntax: cards and tiles in the one notation, enumerations by name (translated where
a catalogue knows them), lists joined, nested records as ``name value`` pairs.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.text import Text

from tavola.cli.notation import Enum, item_text, join, parse_code, suit_text
from tavola.cli.texts import game_text, has, t
from tavola.rules.cards import Card, Rank, Suit
from tavola.rules.tiles import Tile

SEAT_FIELDS = frozenset(
    {
        "seat",
        "winner",
        "declarer",
        "dealer",
        "doubler",
        "doubled",
        "poor",
        "partner",
        "giver",
        "receiver",
        "opener",
        "blocker",
        "leader",
        "wedding",
        "winner_seat",
        "turn",
        "cutter",
        "last_player",
        "trick_leader",
        "last_trick_winner",
        "forced_solo",
        "schweinchen",
    }
)


def seat_name(seat: int, me: int, locale: str) -> str:
    return t("seat.you", locale) if seat == me else t("seat.n", locale, n=seat)


def enum_text(game: str, value: Enum, locale: str) -> Text:
    """An enumeration member by name: a contract, a party, a suit, a call…"""
    name = value.name
    if value.type == "Suit" and name in Suit.__members__:
        return suit_text(Suit[name])
    if value.type == "Rank" and name in Rank.__members__:
        return Text(Rank[name].label)
    lowered = name.lower()
    for code in _catalogue_codes(game, value.type, lowered):
        text = game_text(code, locale)
        if text is not None:
            return Text(text)
    key = f"enum.{value.type}.{lowered}"
    if has(key):
        return Text(t(key, locale))
    return Text(lowered.replace("_", " "))


def _catalogue_codes(game: str, type_name: str, lowered: str) -> tuple[str, ...]:
    if type_name == "Contract":
        return (f"barbu.contract.{lowered.replace('_', '-')}", f"doppelkopf.contract.{lowered}")
    if type_name == "Reservation" and lowered not in ("healthy", "throw"):
        return (f"doppelkopf.contract.{lowered}",)
    return ()


def value_text(game: str, value: Any, locale: str, me: int = -2, field: str = "") -> Text:
    """Any view or event value, readable (never a dict or list literal)."""
    if value is None:
        return Text("—", style="dim")
    if isinstance(value, bool):
        return Text(t("yes" if value else "no", locale))
    if isinstance(value, int) and field in SEAT_FIELDS:
        return Text(seat_name(value, me, locale))
    if isinstance(value, Card | Tile):
        return item_text(value)
    if isinstance(value, str) and parse_code(value) is not None:
        return item_text(parse_code(value))  # a card or tile code kept as text (Fan Tan rows)
    if isinstance(value, Enum):
        return enum_text(game, value, locale)
    if isinstance(value, list):
        if not value:
            return Text("—", style="dim")
        cards = all(isinstance(v, Card | Tile) for v in value)
        return join((value_text(game, v, locale, me, field) for v in value), " " if cards else ", ")
    if isinstance(value, Mapping):
        return join((_pair(game, name, v, locale, me) for name, v in value.items()), " ")
    return Text(str(value))


def _pair(game: str, name: str, value: Any, locale: str, me: int) -> Text:
    shown = value_text(game, value, locale, me, name)
    if name in SEAT_FIELDS and isinstance(value, int):
        return shown
    out = Text(field_name(name, locale) + " ", style="dim")
    out.append_text(shown)
    return out


def field_name(name: str, locale: str) -> str:
    key = f"field.{name}"
    return t(key, locale) if has(key) else name.replace("_", " ")
