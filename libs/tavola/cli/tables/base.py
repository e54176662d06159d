"""What every game's table renderer shares: the context it draws from and the parts it
returns (lines about the deal, one row per seat, the board)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from tavola.cli.names import enum_text, seat_name, value_text
from tavola.cli.notation import Enum, item_text, join
from tavola.cli.texts import t
from tavola.rules.cards import Card


@dataclass(frozen=True)
class Ctx:
    """A view to draw: its typed fields ``v``, who is looking, in which language."""

    game: str
    v: dict[str, Any]
    me: int
    locale: str
    players: int
    to_act: tuple[int, ...] = ()
    width: int = 80

    def tr(self, key: str, /, **params: object) -> str:
        return t(key, self.locale, **params)

    def seat(self, seat: int) -> str:
        return seat_name(seat, self.me, self.locale)

    def text(self, value: Any, field_name: str = "") -> Text:
        return value_text(self.game, value, self.locale, self.me, field_name)

    def enum(self, value: Any) -> Text:
        if isinstance(value, Enum):
            return enum_text(self.game, value, self.locale)
        return self.text(value)

    def seq(self, name: str) -> list[Any]:
        found = self.v.get(name)
        return list(found) if isinstance(found, list) else []

    def int_at(self, name: str, seat: int) -> int | None:
        items = self.seq(name)
        if 0 <= seat < len(items) and isinstance(items[seat], int):
            return int(items[seat])
        return None


@dataclass
class Parts:
    """A game's drawing of its table: lines about the deal, cells per seat, the board,
    and the partnerships (seats that score together) when the game has them."""

    info: list[Text] = field(default_factory=list)
    seats: dict[int, list[Text]] = field(default_factory=dict)
    board: list[Text] = field(default_factory=list)
    teams: list[tuple[int, ...]] = field(default_factory=list)


Renderer = Callable[[Ctx], Parts]


def words(*pieces: Text | str | None, separator: str = " · ") -> Text:
    """Pieces joined by a middle dot, the empty ones left out."""
    kept = [Text(p) if isinstance(p, str) else p for p in pieces if p]
    return join(kept, separator)


def labelled(label: str, value: Text | str) -> Text:
    out = Text(label + " ", style="dim")
    out.append_text(value if isinstance(value, Text) else Text(value))
    return out


def trick_line(ctx: Ctx, label: str, plays: Iterable[Any], winner: int | None = None) -> Text:
    """``trick  seat 2 10♣  seat 3 10♦`` (and who took it, for a finished trick)."""
    out = Text(label + "  ", style="dim")
    for index, play in enumerate(plays):
        if not isinstance(play, dict):
            continue
        if index:
            out.append("  ")
        out.append(ctx.seat(int(play.get("seat", -1))) + " ")
        card = play.get("card")
        out.append_text(item_text(card) if isinstance(card, Card) else ctx.text(card))
    if winner is not None:
        out.append("  → " + ctx.seat(winner), style="dim")
    return out


def rank_rows(
    ctx: Ctx, rows: Sequence[dict[str, Any]], ranks: Sequence[Any], on_table: Callable[..., bool]
) -> list[Text]:
    """Card rows by suit (Fan Tan, Barbu's Domino): every rank of the suit, those on the
    table shown, the others as dots."""
    from tavola.cli.notation import suit_text
    from tavola.rules.cards import Suit

    out = []
    by_suit: dict[str, dict[str, Any]] = {}
    for given in rows:
        named = given.get("suit")
        if isinstance(named, Enum):
            by_suit[named.name] = given
    for suit in Suit:
        line = Text("  ")
        line.append_text(suit_text(suit))
        row = by_suit.get(suit.name)
        if row is None:
            line.append("  " + ctx.tr("board.row_closed"), style="dim")
            out.append(line)
            continue
        for rank in ranks:
            card = Card(suit, rank)
            line.append(" ")
            cell = card.rank.label.rjust(2)
            if on_table(row, card):
                line.append_text(Text(cell, style=item_text(card).style))
            else:
                line.append(" ·", style="dim")
        out.append(line)
    return out


def number(value: Any) -> str:
    return "—" if value is None else str(value)
