"""Barbu (``BarbuView``, docs/games/barbu.md): the deal's declarer and contract, the
doubles, each seat's tricks, captured penalty cards and totals; a trick, or Domino's rows."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tavola.cli.notation import Enum, join, suit_text
from tavola.cli.tables.base import Ctx, Parts, labelled, rank_rows, words
from tavola.cli.tables.tricks import trick_board
from tavola.rules.cards import Card, Rank, Suit


def _contract(ctx: Ctx) -> Text | None:
    contract = ctx.v.get("contract")
    if not isinstance(contract, Enum):
        return None
    out = ctx.enum(contract)
    trump = ctx.v.get("trump")
    if isinstance(trump, Enum) and trump.name in Suit.__members__:
        out.append(" ")
        out.append_text(suit_text(Suit[trump.name]))
    start = ctx.v.get("start_rank")
    if isinstance(start, Enum) and start.name in Rank.__members__:
        out.append(" " + ctx.tr("info.from_rank", rank=Rank[start.name].label))
    return out


def _info(ctx: Ctx) -> list[Text]:
    v = ctx.v
    declarer = ctx.seat(int(v.get("declarer", 0)))
    first = words(
        ctx.tr("info.deal_of", n=v.get("deal", 0), total=v.get("deals_in_session", 0)),
        ctx.tr("info.declarer", seat=declarer),
        _contract(ctx),
    )
    lines = [first]
    if v.get("phase") == "contract":
        left = [ctx.enum(c) for c in ctx.seq("remaining_contracts")]
        lines.append(labelled(ctx.tr("info.contracts_left"), join(left, ", ")))
    doubles = [d for d in ctx.seq("doubles") if isinstance(d, dict)]
    if doubles:
        pairs = [f"{ctx.seat(d['doubler'])} → {ctx.seat(d['doubled'])}" for d in doubles]
        lines.append(labelled(ctx.tr("info.doubles"), ", ".join(pairs)))
    return lines


def _captured(ctx: Ctx, seat: int) -> list[Any]:
    for entry in ctx.seq("captured"):
        if isinstance(entry, dict) and entry.get("seat") == seat:
            return list(entry.get("cards") or [])
    return []


def _seat_cells(ctx: Ctx, seat: int) -> list[Text]:
    cells = [
        labelled(ctx.tr("col.tricks"), str(ctx.int_at("tricks_taken", seat) or 0)),
        labelled(ctx.tr("col.deal"), str(ctx.int_at("deal_points", seat) or 0)),
        labelled(ctx.tr("col.total"), str(ctx.int_at("totals", seat) or 0)),
    ]
    owed = ctx.int_at("doubles_owed", seat) or 0
    if owed and ctx.v.get("phase") in ("contract", "doubling"):
        cells.append(Text(ctx.tr("col.owes_doubles", n=owed), style="dim"))
    captured = _captured(ctx, seat)
    if captured:
        cells.append(ctx.text(captured))
    finished = ctx.seq("finished")
    if seat in finished:
        cells.append(Text(ctx.tr("col.out_place", n=finished.index(seat) + 1), style="green"))
    return cells


def _on_table(row: dict[str, Any], card: Card) -> bool:
    low, high = row.get("low"), row.get("high")
    if not isinstance(low, Enum) or not isinstance(high, Enum):
        return False
    return low.number <= int(card.rank) <= high.number


def render(ctx: Ctx) -> Parts:
    contract = ctx.v.get("contract")
    if isinstance(contract, Enum) and contract.name == "DOMINO":
        rows = [r for r in ctx.seq("rows") if isinstance(r, dict)]
        board = rank_rows(ctx, rows, tuple(Rank), _on_table)
    else:
        board = trick_board(ctx, ctx.seq("trick"), [], None, ctx.v.get("trick_leader"))
    seats = {seat: _seat_cells(ctx, seat) for seat in range(ctx.players)}
    return Parts(info=_info(ctx), seats=seats, board=board)
