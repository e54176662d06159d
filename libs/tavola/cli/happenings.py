"""One readable line per event of a match stream: "seat 2 played 7♦", "you bid 3".

Templates live in the catalogue under ``event.<Name>`` (or ``event.<game>.<Name>`` where a
game's event of the same name says something else); a placeholder ``{field}`` is filled
with the event's field, seats as "seat N"/"you", cards and tiles in the one notation.
Events that tell a person nothing (deadlines, credentials, the seed's reveal) and other
seats' hidden events give no line.
"""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

from tavola.cli.names import seat_name, value_text
from tavola.cli.notation import values
from tavola.cli.texts import has, t
from tavola.rules.tiles import Tile
from tavola.v1 import events_pb2

SILENT = frozenset(
    {
        "MatchCreated",
        "SeatCredentials",
        "DeadlineSet",
        "SeedRevealed",
        "BoneyardFormed",
        "CardsSetAside",
    }
)
TIMEOUT = events_pb2.CAUSE_KIND_TIMEOUT
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def event_name(envelope: events_pb2.EventEnvelope) -> str:
    return envelope.type.split(".", 1)[-1]


def describe(envelope: events_pb2.EventEnvelope, game: str, me: int, locale: str) -> Text | None:
    """The event as one line, or ``None`` when it is not worth a line."""
    name = event_name(envelope)
    if envelope.hidden or name in SILENT:
        return None
    fields = values(envelope.payload)
    line = _special(game, name, fields, me, locale)
    if line is None:
        line = _templated(game, name, fields, me, locale)
    if envelope.cause.kind == TIMEOUT:
        line.append("  " + t("event.automatic", locale), style="yellow")
    return line


def _templated(game: str, name: str, fields: dict[str, Any], me: int, locale: str) -> Text:
    for key in (f"event.{game}.{name}", f"event.{name}"):
        if has(key):
            return fill(t(key, locale), game, fields, me, locale)
    who = next((f for f in ("seat", "winner", "declarer") if f in fields), None)
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()
    if who is None:
        return Text(words)
    return fill("{" + who + "}: " + words, game, fields, me, locale)


def fill(template: str, game: str, fields: dict[str, Any], me: int, locale: str) -> Text:
    """A template with ``{field}`` placeholders filled from the event's fields."""
    out = Text()
    position = 0
    for match in PLACEHOLDER.finditer(template):
        out.append(template[position : match.start()])
        field = match.group(1)
        out.append_text(value_text(game, fields.get(field), locale, me, field))
        position = match.end()
    out.append(template[position:])
    return out


def _special(game: str, name: str, fields: dict[str, Any], me: int, locale: str) -> Text | None:
    """Events whose line depends on their values, not only on their fields."""
    who = fields.get("seat")
    if name == "BidMade" and isinstance(who, int):
        key = "event.BidMade.nil" if fields.get("tricks") == 0 else "event.BidMade"
        return fill(t(key, locale), game, fields, me, locale)
    if name == "HandDealt":
        dealt = fields.get("cards", fields.get("tiles")) or []
        tiles = bool(dealt) and isinstance(dealt[0], Tile)
        if who == me or not isinstance(who, int):
            key = "event.HandDealt.tiles" if tiles else "event.HandDealt"
            return Text(t(key, locale, n=len(dealt)))
        line = Text(t("event.HandDealt.other", locale, seat=seat_name(who, me, locale)) + " ")
        line.append_text(value_text(game, dealt, locale, me))
        return line  # a referee's replay sees every hand
    if name == "DoublesDeclared" and isinstance(who, int):
        key = "event.DoublesDeclared" if fields.get("doubled") else "event.DoublesDeclared.none"
        return fill(t(key, locale), game, fields, me, locale)
    if name == "PovertyAnswered":
        key = "event.PovertyAnswered" if fields.get("accepted") else "event.PovertyAnswered.no"
        return fill(t(key, locale), game, fields, me, locale)
    if name == "SeatLeft":
        key = "event.SeatLeft" if fields.get("replaced_by") else "event.SeatLeft.out"
        if fields.get("away") and fields.get("replaced_by"):
            key = "event.SeatLeft.away"
        return fill(t(key, locale), game, fields, me, locale)
    if name == "TilePlayed" and fields.get("end") is not None:
        return fill(t("event.TilePlayed.end", locale), game, fields, me, locale)
    if name == "ReservationsShown":
        reserved = [s for s, r in enumerate(fields.get("reserved") or []) if r]
        if not reserved:
            return Text(t("event.ReservationsShown.none", locale))
        seats = ", ".join(seat_name(s, me, locale) for s in reserved)
        return Text(t("event.ReservationsShown", locale, seats=seats))
    return None
