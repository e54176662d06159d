"""A whole season of one game: a host, bot accounts in divisions, scheduled rounds with a
few players absent, every seat played over the API, then the season's end."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from tavola.leagues.simulation.harness import Harness, Player, RoundFigures
from tavola.match.events import option_texts
from tavola.rules import registry
from tavola.v1 import league_pb2

TEAM_GAMES = ("spades", "dominoes")
# short matches (``GameInfo.short``), timers on (the games' defaults): what a simulated
# round plays
SHORT = {game: option_texts(registry.get(game).info.short) for game in registry.names()}


@dataclass
class SeasonReport:
    game: str
    league_id: str
    rounds: list[RoundFigures] = field(default_factory=list)
    moves: list[league_pb2.SeasonMove] = field(default_factory=list)
    absent: dict[int, set[str]] = field(default_factory=dict)

    @property
    def tables(self) -> int:
        return sum(r.tables for r in self.rounds)


async def run_season(
    harness: Harness,
    host: Player,
    players: Sequence[Player],
    game: str,
    *,
    divisions: int = 2,
    rounds: int = 2,
    absent_per_round: int = 1,
    check_in_seconds: int = 6,
    promote: int = 1,
    relegate: int = 1,
    seed: int = 1,
) -> SeasonReport:
    fmt = league_pb2.LeagueFormat(
        check_in_seconds=check_in_seconds, fill_level="easy", bot_accounts=True
    )
    league = await harness.create_league(host, game, dict(SHORT[game]), fmt)
    report = SeasonReport(game, league.league_id)
    await harness.register(league.league_id, players, teams=game in TEAM_GAMES)
    await harness.call(
        harness.league.StartSeason,
        league_pb2.StartSeasonRequest(
            league_id=league.league_id, divisions=divisions, promote=promote, relegate=relegate
        ),
        host.token,
    )
    rng = random.Random(f"{game}/{seed}")
    for _ in range(rounds):
        number = await harness.schedule(host, league.league_id, check_in_seconds)
        absent = {p.account_id for p in rng.sample(list(players), absent_per_round)}
        report.absent[number] = absent
        figures = await harness.play_round(league.league_id, number, players, absent, host.token)
        report.rounds.append(figures)
    ended = await harness.call(
        harness.league.EndSeason,
        league_pb2.EndSeasonRequest(league_id=league.league_id),
        host.token,
    )
    report.moves = list(ended.moves)
    return report
