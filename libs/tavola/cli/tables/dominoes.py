"""Brazilian dominoes (``DominoesView``, docs/games/dominoes.md): the line of tiles as laid,
its two open ends, tiles left per seat, the boneyard, this hand's passes and the scores of
the sides (partners score together: seats 0+2 and 1+3)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tavola.cli.notation import item_text, oriented_text
from tavola.cli.tables.base import Ctx, Parts, labelled, number, words
from tavola.rules.tiles import Tile


def teams(ctx: Ctx) -> list[tuple[int, ...]]:
    if ctx.v.get("mode") == "partnership" and ctx.players == 4:
        return [(0, 2), (1, 3)]
    return [(seat,) for seat in range(ctx.players)]


def _who(ctx: Ctx, seats: tuple[int, ...]) -> str:
    if len(seats) > 1:
        return ctx.tr("info.side", seats="+".join(map(str, seats)))
    return ctx.seat(seats[0])


def _scores(ctx: Ctx, sides: list[tuple[int, ...]]) -> Text:
    pieces = []
    for side, seats in enumerate(sides):
        score = ctx.int_at("scores", side) or 0
        pieces.append(f"{_who(ctx, seats)} {score}")
    line = labelled(ctx.tr("info.scores"), " · ".join(pieces))
    line.append("  " + ctx.tr("info.target", n=ctx.v.get("target", 0)), style="dim")
    return line


def _info(ctx: Ctx, sides: list[tuple[int, ...]]) -> list[Text]:
    v = ctx.v
    mode = v.get("mode") or ""
    from tavola.cli.texts import game_text

    first = words(
        ctx.tr("info.hand", n=v.get("hand_number") or 0),
        game_text(f"dominoes.mode.{mode}", ctx.locale) or mode,
        ctx.tr("info.boneyard", n=v.get("boneyard_count", 0)) if mode != "partnership" else None,
    )
    lines = [first, _scores(ctx, sides)]
    best_of = v.get("best_of") or 1
    if best_of > 1:  # a series: each side's games won so far
        won = " · ".join(
            f"{_who(ctx, seats)} {ctx.int_at('games_won', side) or 0}"
            for side, seats in enumerate(sides)
        )
        lines.append(labelled(ctx.tr("info.series", n=best_of), won))
    must = v.get("must_open_with")
    if isinstance(must, Tile):
        opening = Text(ctx.tr("info.open_with") + " ", style="cyan")
        opening.append_text(item_text(must))
        lines.append(opening)
    passes = [p for p in ctx.seq("passes") if isinstance(p, dict)]
    if passes:
        shown = ", ".join(
            f"{ctx.seat(p['seat'])} ({p.get('left_end')}/{p.get('right_end')})" for p in passes
        )
        lines.append(labelled(ctx.tr("info.passed"), shown))
    return lines


def _line(ctx: Ctx) -> list[Text]:
    tiles = [p for p in ctx.seq("line") if isinstance(p, dict)]
    if not tiles:
        return [Text("  " + ctx.tr("board.line_empty"), style="dim")]
    left, right = ctx.v.get("left_end"), ctx.v.get("right_end")
    head = Text(f"  {number(left)} ◂ ", style="cyan")
    tail = Text(f" ▸ {number(right)}", style="cyan")
    room = max(10, ctx.width - head.cell_len - tail.cell_len - 2)
    rows: list[Text] = [Text()]
    for placed in tiles:
        tile = oriented_text(int(placed.get("left", 0)), int(placed.get("right", 0)))
        if rows[-1].cell_len + tile.cell_len > room:
            rows.append(Text())
        rows[-1].append_text(tile)
    out = []
    for index, row in enumerate(rows):
        line = head.copy() if index == 0 else Text(" " * head.cell_len)
        line.append_text(row)
        if index == len(rows) - 1:
            line.append_text(tail)
        out.append(line)
    return out


def _seat_cells(ctx: Ctx, seat: int, sides: list[tuple[int, ...]]) -> list[Any]:
    cells = [labelled(ctx.tr("col.tiles"), str(ctx.int_at("tile_counts", seat) or 0))]
    side = next((s for s in sides if seat in s and len(s) > 1), None)
    if side is not None:
        cells.insert(0, labelled(ctx.tr("col.side"), "+".join(map(str, side))))
    return cells


def render(ctx: Ctx) -> Parts:
    sides = teams(ctx)
    seats = {seat: _seat_cells(ctx, seat, sides) for seat in range(ctx.players)}
    real_teams = [s for s in sides if len(s) > 1]
    return Parts(info=_info(ctx, sides), seats=seats, board=_line(ctx), teams=real_teams)
