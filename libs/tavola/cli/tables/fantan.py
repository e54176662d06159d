"""Fan Tan (``FanTanView``, docs/games/fan-tan.md): the four rows built from the sevens,
cards left and penalty totals per seat (lowest wins)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tavola.cli.tables.base import Ctx, Parts, labelled, rank_rows, words
from tavola.rules.cards import Card, Rank

# building order: the ace is low, before the 2; the king ends a row
BUILD = (Rank.ACE, *(Rank(r) for r in range(2, 14)))


def _building(card: Card) -> int:
    return 1 if card.rank == Rank.ACE else int(card.rank)


def _on_table(row: dict[str, Any], card: Card) -> bool:
    try:
        low, high = Card.parse(str(row.get("low"))), Card.parse(str(row.get("high")))
    except ValueError:
        return False
    return _building(low) <= _building(card) <= _building(high)


def render(ctx: Ctx) -> Parts:
    v = ctx.v
    hands = v.get("hands_in_match") or 0
    hand = v.get("hand_number") or 0
    info = words(
        ctx.tr("info.hand_of", n=hand, total=hands) if hands else ctx.tr("info.hand", n=hand),
        ctx.tr("info.dealer", seat=ctx.seat(int(v.get("dealer", 0)))),
        ctx.tr("info.lowest_wins"),
    )
    seats: dict[int, list[Text]] = {}
    for seat in range(ctx.players):
        seats[seat] = [
            labelled(ctx.tr("col.cards"), str(ctx.int_at("card_counts", seat) or 0)),
            labelled(ctx.tr("col.penalties"), str(ctx.int_at("totals", seat) or 0)),
        ]
    rows = [r for r in ctx.seq("rows") if isinstance(r, dict)]
    return Parts(info=[info], seats=seats, board=rank_rows(ctx, rows, BUILD, _on_table))
