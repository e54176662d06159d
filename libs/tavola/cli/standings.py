"""Final (or provisional) standings as the CLI prints them after ``demo``, ``play`` and
``replay``: one line per seat, rank first, with the seat's team where the game has
partnerships, under a heading that says whether the highest or the lowest score wins."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavola.cli.notation import values
from tavola.cli.tables import Ctx, renderer
from tavola.cli.texts import t
from tavola.v1 import common_pb2


def teams_of(game: str, view: common_pb2.Record, players: int) -> list[tuple[int, ...]]:
    """The partnerships shown by a game's view (empty: everyone for themselves)."""
    ctx = Ctx(game=game, v=values(view), me=-1, locale="en", players=players)
    try:
        return renderer(game)(ctx).teams
    except (KeyError, TypeError, ValueError, AttributeError, IndexError):
        return []


def lines(
    standings: Sequence[Any],
    teams: Sequence[tuple[int, ...]],
    lower_wins: bool,
    locale: str,
    final: bool = True,
) -> list[str]:
    """The heading and one line per seat (``standings``: ``SeatStanding``-like items)."""
    which = "standings.final" if final else "standings.so_far"
    order = "standings.lowest_wins" if lower_wins else "standings.highest_wins"
    out = [f"{t(which, locale)} ({t(order, locale)}):"]
    team_of = {seat: team for team in teams for seat in team}
    for s in sorted(standings, key=lambda s: (s.rank, s.seat)):
        marked = "bot" in s.player_name.lower()
        bot = f" ({t('standings.bot', locale)})" if s.is_bot and not marked else ""
        team = team_of.get(s.seat)
        team_text = f"   {t('col.team', locale)} {'+'.join(map(str, team))}" if team else ""
        name = (s.player_name + bot)[:26]
        seat = t("seat.n", locale, n=s.seat)
        out.append(f"  {s.rank}. {seat} {name:<26} {s.score:>6}{team_text}")
    return out
