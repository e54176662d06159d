"""What a finished match rates, as ``leagues.md`` says (the model itself is openskill's).

- Spades and dominoes (four seats): two teams, ranked by the match result. Barbu and Fan
  Tan: one team per seat, ranked by the table result (shared places share a rank).
- Doppelkopf: each scored game, Re against Kontra (a solo is 1 against 3), with beta x3
  and tau /10 because a match makes many updates; an unscored game rates nothing.
- A seat of the platform's bot is never rated. A casual match with any such seat is not
  rated at all (a table filled by bots measures nothing); in a league match the bot
  seats (absent players, remainders) are left out and the others are rated among
  themselves, when at least two teams remain.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavola.games.doppelkopf import events as doppelkopf
from tavola.games.doppelkopf.model import Party
from tavola.match.events import MatchCreated, MatchEnded, SeatInfo
from tavola.rules import registry
from tavola.rules.interface import Event

DEFAULT_BETA = 25.0 / 6.0
DEFAULT_TAU = 25.0 / 300.0
PROVISIONAL_SIGMA = 5.0  # a rating is provisional while sigma is above this (25/3 at first)


def model_parameters(game: str) -> dict[str, float]:
    if game == "doppelkopf":
        return {"beta": DEFAULT_BETA * 3, "tau": DEFAULT_TAU / 10}
    return {"beta": DEFAULT_BETA, "tau": DEFAULT_TAU}


def seat_key(seat: SeatInfo) -> str:
    """Whom a seat's result counts for: its account (matches recorded before accounts
    existed: its name)."""
    return seat.account_id or f"name:{seat.player_name}"


@dataclass(frozen=True, slots=True)
class RatedGame:
    teams: tuple[tuple[str, ...], ...]  # rating keys per team
    ranks: tuple[int, ...]
    game_no: int  # 0: the match; Doppelkopf: the game's deal number


def casual_rated(created: MatchCreated) -> bool:
    keys = [seat_key(s) for s in created.seats]
    return len(set(keys)) == len(keys) and not any(s.bot_level for s in created.seats)


def team_seats(created: MatchCreated) -> list[list[int]]:
    players = len(created.seats)
    if registry.get(created.game).info.teams and players == 4:
        return [[0, 2], [1, 3]]
    return [[seat] for seat in range(players)]


def rated_games(created: MatchCreated, events: Sequence[Event], league: bool) -> list[RatedGame]:
    if not league and not casual_rated(created):
        return []
    keys = [seat_key(s) for s in created.seats]
    if len(set(keys)) != len(keys):
        return []
    rated = [not s.bot_level for s in created.seats]
    if created.game == "doppelkopf":
        return _doppelkopf(events, keys, rated)
    ended = next((e for e in reversed(events) if isinstance(e, MatchEnded)), None)
    if ended is None:
        return []
    rank = {s.seat: s.rank for s in ended.standings}
    teams, ranks = [], []
    for team in team_seats(created):
        kept = tuple(keys[s] for s in team if rated[s])
        if kept:
            teams.append(kept)
            ranks.append(min(rank[s] for s in team))
    return [RatedGame(tuple(teams), tuple(ranks), 0)] if len(teams) >= 2 else []


def _doppelkopf(events: Sequence[Event], keys: list[str], rated: list[bool]) -> list[RatedGame]:
    out = []
    playing: tuple[int, ...] = ()
    for event in events:
        if isinstance(event, doppelkopf.GameStarted):
            playing = event.seats
        elif isinstance(event, doppelkopf.GameScored):
            re_seats = set(event.re_seats)
            parties = (
                [s for s in playing if s in re_seats],
                [s for s in playing if s not in re_seats],
            )
            teams = tuple(tuple(keys[s] for s in party if rated[s]) for party in parties)
            if any(not team for team in teams):
                continue
            winner = event.winner
            ranks = (1, 1) if winner is None else ((1, 2) if winner == Party.RE else (2, 1))
            out.append(RatedGame(teams, ranks, event.deal))
    return out
