"""Legal actions as the terminal shows them, and what the player types.

A label is built from the action's stable code (``docs/games/*.md``), in the one notation
and the CLI's locale: ``"7D"`` is ``7♦``, ``"6-1 L"`` is ``[6|1] on the left (6)``,
``"contract trumps S"`` is ``Trumps ♠`` (``Trunfos ♠``). Codes the CLI does not know keep
the server's label. Each action gets a key to type: its number in the list (Spades bids:
the bid itself, ``0`` for nil), and the code or the card's label always work too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.text import Text

from tavola.cli.notation import TILE_CODE, card_text, item_text, parse_code, suit_text, tile_text
from tavola.cli.texts import game_text, t
from tavola.rules.cards import Card, Rank, Suit
from tavola.rules.tiles import Tile
from tavola.v1 import game_pb2

SOLOS = {
    "Q": "queen_solo",
    "J": "jack_solo",
    "C": "clubs_solo",
    "S": "spades_solo",
    "H": "hearts_solo",
    "D": "diamonds_solo",
    "F": "fleischlos",
}
CALLS = ("re", "kontra", "no 90", "no 60", "no 30", "schwarz")


@dataclass(frozen=True, slots=True)
class Choice:
    """A legal action on screen: what to type, its code and its label."""

    key: str
    code: str
    label: Text


def choices(
    game: str,
    legal: Sequence[game_pb2.LegalAction],
    locale: str,
    view: Mapping[str, Any] | None = None,
) -> list[Choice]:
    view = view or {}
    bids = game == "spades" and all(a.code == "nil" or a.code.startswith("bid ") for a in legal)
    out = []
    for index, action in enumerate(legal):
        key = str(index + 1)
        if bids:
            key = "0" if action.code == "nil" else action.code.split()[1]
        out.append(Choice(key, action.code, label(game, action.code, action.label, locale, view)))
    return out


def label(
    game: str, code: str, server_label: str, locale: str, view: Mapping[str, Any] | None = None
) -> Text:
    item = parse_code(code)
    if item is not None:
        return item_text(item)
    parts = code.split()
    if len(parts) == 2 and TILE_CODE.match(parts[0]) and parts[1].upper() in ("L", "R"):
        return _tile_end(Tile.parse(parts[0]), parts[1].upper(), locale, view or {})
    if game == "barbu":
        text = _barbu(parts, locale)
        if text is not None:
            return text
    if game == "doppelkopf":
        text = _doppelkopf(parts, code, locale)
        if text is not None:
            return text
    return _common(parts, code, server_label, locale)


def _tile_end(tile: Tile, end: str, locale: str, view: Mapping[str, Any]) -> Text:
    number = view.get("left_end" if end == "L" else "right_end")
    key = "action.tile_left" if end == "L" else "action.tile_right"
    out = tile_text(tile)
    text = t(key, locale, number="" if number is None else number)
    out.append(" " + (text.replace(" ()", "") if number is None else text))
    return out


def _common(parts: list[str], code: str, server_label: str, locale: str) -> Text:
    if code == "nil":
        return Text(t("action.nil", locale))
    if code == "pass":
        return Text(t("action.pass", locale))
    if len(parts) == 2 and parts[0] == "bid":
        return Text(t("action.bid", locale, n=parts[1]))
    return Text(server_label or code)


def _barbu(parts: list[str], locale: str) -> Text | None:
    if parts[0] == "double" and len(parts) > 1:
        return Text(t("action.double", locale, seats=", ".join(parts[1:])))
    if parts[0] != "contract" or len(parts) < 2:
        return None
    name = game_text(f"barbu.contract.{parts[1]}", locale) or parts[1]
    if parts[1] == "trumps" and len(parts) == 3 and parts[2] in "CDHS":
        out = Text(name + " ")
        out.append_text(suit_text(Suit("CDHS".index(parts[2]))))
        return out
    if parts[1] == "domino" and len(parts) == 3:
        rank = _rank_label(parts[2])
        return Text(t("action.domino_from", locale, contract=name, rank=rank))
    return Text(name)


def _rank_label(letter: str) -> str:
    letter = "T" if letter == "10" else letter.upper()
    if len(letter) == 1 and letter in "23456789TJQKA":
        return Rank("23456789TJQKA".index(letter) + 2).label
    return letter


def _doppelkopf(parts: list[str], code: str, locale: str) -> Text | None:
    if code in ("healthy", "throw", "accept", "decline", "wait"):
        return Text(t(f"action.doko.{code}", locale))
    if code in ("wedding", "poverty"):
        return Text(game_text(f"doppelkopf.contract.{code}", locale) or code)
    if parts[0] == "solo" and len(parts) == 2 and parts[1] in SOLOS:
        return Text(game_text(f"doppelkopf.contract.{SOLOS[parts[1]]}", locale) or code)
    if parts[0] == "give" and len(parts) == 2:
        given = parse_code(parts[1])
        if isinstance(given, Card):
            out = Text(t("action.give", locale) + " ")
            out.append_text(card_text(given))
            return out
    if code in CALLS:
        return Text(t(f"call.{code.replace(' ', '_')}", locale))
    return None


def resolve(typed: str, options: Sequence[Choice]) -> str | None:
    """The code of the action the player typed: a key, a code, or a card or tile label."""
    text = typed.strip()
    if not text:
        return None
    for option in options:
        if text == option.key:
            return option.code
    wanted = _normal(text)
    for option in options:
        if wanted in (_normal(option.code), _normal(option.label.plain)):
            return option.code
    return None


def _normal(text: str) -> str:
    """Card and tile spellings folded together: ``10♥``, ``th``, ``[6|4]``, ``4-6``."""
    cleaned = text.strip().strip("[]").replace("|", "-")
    head, _, rest = cleaned.partition(" ")
    item = parse_code(head) or _label_item(head)
    if isinstance(item, Card | Tile):
        head = item.code
    return (head + (" " + rest if rest else "")).lower()


def _label_item(text: str) -> Card | Tile | None:
    try:
        return Card.parse(text)
    except ValueError:
        pass
    try:
        return Tile.parse(text)
    except ValueError:
        return None
