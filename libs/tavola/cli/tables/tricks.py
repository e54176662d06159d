"""Trick games share one board — the trick on the table and the last one — and Spades'
table (``SpadesView``, docs/games/spades.md): bids, tricks and partnerships."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from tavola.cli.tables.base import Ctx, Parts, labelled, number, trick_line, words


def trick_board(
    ctx: Ctx, trick: list[Any], last: list[Any], last_winner: int | None, leader: int | None
) -> list[Text]:
    """The trick being played (with who leads and who is still to play) and the last one."""
    lines = []
    if trick or leader is not None:
        line = trick_line(ctx, ctx.tr("board.trick"), trick)
        waiting = _still_to_play(ctx, trick, leader)
        if waiting:
            line.append(("  " if trick else "") + ctx.tr("board.waiting", seats=waiting), "dim")
        lines.append(line)
    if last:
        lines.append(trick_line(ctx, ctx.tr("board.last_trick"), last, last_winner))
    return lines


def _still_to_play(ctx: Ctx, trick: list[Any], leader: int | None) -> str:
    played = {p.get("seat") for p in trick if isinstance(p, dict)}
    start = leader if leader is not None else ctx.v.get("turn")
    if not isinstance(start, int):
        return ""
    order = [(start + i) % ctx.players for i in range(ctx.players)]
    return ", ".join(ctx.seat(s) for s in order if s not in played)


def spades(ctx: Ctx) -> Parts:
    v = ctx.v
    bidding = v.get("phase") == "bidding"
    info = [
        words(
            ctx.tr("info.hand", n=v.get("hand_number") or 0),
            ctx.tr("info.dealer", seat=ctx.seat(int(v.get("dealer", 0)))),
            ctx.tr("info.bidding")
            if bidding
            else ctx.tr("info.tricks_played", n=v.get("tricks_played", 0)),
            ctx.tr("info.spades_broken") if v.get("spades_broken") else None,
            ctx.tr("info.extra_hand") if v.get("extra_hand") else None,
        )
    ]
    if v.get("suggested_bid") is not None:
        info.append(Text(ctx.tr("info.suggested_bid", n=v["suggested_bid"]), style="cyan"))
    teams = []
    for team in ctx.seq("teams"):
        if not isinstance(team, dict):
            continue
        seats = tuple(int(s) for s in team.get("seats") or ())
        teams.append(seats)
        info.append(_team_line(ctx, team, seats))
    cells: dict[int, list[Text]] = {}
    for seat_view in ctx.seq("seats"):
        if not isinstance(seat_view, dict):
            continue
        bid = seat_view.get("bid")
        shown = ctx.tr("action.nil") if bid == 0 else number(bid)
        cells[int(seat_view["seat"])] = [
            labelled(ctx.tr("col.team"), "+".join(map(str, _team_of(teams, seat_view["seat"])))),
            labelled(ctx.tr("col.bid"), shown),
            labelled(ctx.tr("col.tricks"), str(seat_view.get("tricks", 0))),
        ]
    board = trick_board(
        ctx,
        ctx.seq("trick"),
        ctx.seq("last_trick"),
        v.get("last_trick_winner"),
        v.get("trick_leader"),
    )
    return Parts(info=info, seats=cells, board=board, teams=teams)


def _team_of(teams: list[tuple[int, ...]], seat: int) -> tuple[int, ...]:
    return next((team for team in teams if seat in team), (seat,))


def _team_line(ctx: Ctx, team: dict[str, Any], seats: tuple[int, ...]) -> Text:
    contract = team.get("contract")
    line = Text(ctx.tr("info.team", seats="+".join(map(str, seats))) + "  ", style="bold")
    line.append_text(
        words(
            ctx.tr("info.points", n=team.get("score", 0)),
            ctx.tr("info.bags", n=team.get("bags", 0)),
            ctx.tr(
                "info.contract_progress", tricks=team.get("contract_tricks", 0), contract=contract
            )
            if contract is not None
            else None,
        )
    )
    return line
