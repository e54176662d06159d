"""Doppelkopf (``DokoView``, docs/games/doppelkopf.md): the game's contract, the parties
as far as the table knows them, the announcements, tricks and totals; the trick."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tavola.cli.notation import Enum
from tavola.cli.tables.base import Ctx, Parts, labelled, words
from tavola.cli.tables.tricks import trick_board

CALL_OF_LEVEL = {1: "", 2: "no_90", 3: "no_60", 4: "no_30", 5: "schwarz"}


def _party(ctx: Ctx, seat: int) -> Text | None:
    for known in ctx.seq("known_parties"):
        if isinstance(known, dict) and known.get("seat") == seat:
            return ctx.enum(known.get("party"))
    mine = ctx.v.get("my_party")
    if seat == ctx.me and isinstance(mine, Enum):
        return ctx.enum(mine)
    return None


def _announcements(ctx: Ctx) -> Text | None:
    levels = ctx.seq("levels")
    pieces = []
    for party, level in zip(("re", "kontra"), levels, strict=False):
        if not isinstance(level, int) or level <= 0:
            continue
        text = ctx.tr(f"call.{party}")
        call = CALL_OF_LEVEL.get(level, "")
        if call:
            text += " " + ctx.tr(f"call.{call}")
        pieces.append(text)
    if not pieces:
        return None
    return labelled(ctx.tr("info.announced"), ", ".join(pieces))


def _info(ctx: Ctx) -> list[Text]:
    v = ctx.v
    contract = v.get("contract")
    declarer = v.get("declarer")
    contract_text = ctx.enum(contract) if isinstance(contract, Enum) else None
    normal = isinstance(contract, Enum) and contract.name == "NORMAL"
    if contract_text is not None and isinstance(declarer, int) and not normal:
        contract_text.append(" (" + ctx.seat(declarer) + ")")
    first = words(
        ctx.tr("info.game", n=v.get("deal", 0)),
        ctx.tr("info.dealer", seat=ctx.seat(int(v.get("dealer", 0)))),
        contract_text,
        ctx.tr("info.bock") if v.get("bock") else None,
        ctx.tr("info.reservations") if v.get("phase") == "reservations" else None,
    )
    lines = [first]
    announced = _announcements(ctx)
    if announced is not None:
        lines.append(announced)
    return lines


def _seat_cells(ctx: Ctx, seat: int) -> list[Text]:
    v = ctx.v
    present = ctx.seq("present")
    if seat < len(present) and not present[seat]:
        return [Text(ctx.tr("col.left"), style="dim")]
    playing = ctx.seq("seats")
    if playing and seat not in playing:
        return [Text(ctx.tr("col.sits_out"), style="dim"), _total(ctx, seat)]
    cells = []
    party = _party(ctx, seat)
    if party is not None:
        cells.append(party)
    if v.get("phase") == "reservations":
        declared = ctx.seq("declared")
        done = seat < len(declared) and bool(declared[seat])
        cells.append(Text(ctx.tr("col.declared" if done else "col.deciding"), style="dim"))
    cells.append(labelled(ctx.tr("col.tricks"), str(ctx.int_at("tricks_won", seat) or 0)))
    cells.append(_total(ctx, seat))
    owed = _owes_solo(ctx, seat)
    if owed is not None:
        cells.append(owed)
    return cells


def _owes_solo(ctx: Ctx, seat: int) -> Text | None:
    """Under Pflichtsolo: who still owes the compulsory solo (and, once the match is over,
    who never played theirs)."""
    owed = ctx.seq("solo_owed")
    if seat >= len(owed) or not owed[seat]:
        return None
    over = ctx.v.get("phase") == "over"
    return Text(ctx.tr("col.solo_never" if over else "col.solo_owed"), style="yellow")


def _total(ctx: Ctx, seat: int) -> Text:
    return labelled(ctx.tr("col.total"), str(ctx.int_at("totals", seat) or 0))


def render(ctx: Ctx) -> Parts:
    trick: Any = ctx.v.get("trick") or {}
    last: Any = ctx.v.get("last_trick") or {}
    board = trick_board(
        ctx,
        list(trick.get("plays") or []),
        list(last.get("plays") or []),
        last.get("winner"),
        trick.get("leader") if trick else None,
    )
    seats = {seat: _seat_cells(ctx, seat) for seat in range(ctx.players)}
    return Parts(info=_info(ctx), seats=seats, board=board)
