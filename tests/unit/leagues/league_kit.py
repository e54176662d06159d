"""A league played on paper: the pure aggregate, seated from seeds, with made-up results."""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field

from tavola.leagues import decide, formats
from tavola.leagues.events import (
    LeagueCreated,
    OpenedTable,
    ResultLine,
    ResultRecorded,
    RoundEnded,
    RoundOpened,
    RoundStarted,
)
from tavola.leagues.seating import BOT
from tavola.leagues.state import LeagueState, evolve
from tavola.rules import fairness
from tavola.rules.interface import Event


def account(i: int) -> str:
    return f"acct-{i:04d}"


@dataclass
class PaperLeague:
    game: str
    fmt: formats.Format = field(default_factory=formats.Format)
    events: list[Event] = field(default_factory=list)
    state: LeagueState | None = None

    def __post_init__(self) -> None:
        self.fmt = formats.checked(self.game, self.fmt)
        self.add(LeagueCreated("L1", "Paper", self.game, "host", "Host", self.fmt, (), (), 0))

    def add(self, *events: Event) -> None:
        for event in events:
            self.events.append(event)
            self.state = evolve(self.state, event)

    @property
    def league(self) -> LeagueState:
        assert self.state is not None
        return self.state

    def register(self, count: int, start: int = 0) -> list[str]:
        ids = [account(i) for i in range(start, start + count)]
        for i, a in enumerate(ids):
            partner = ""
            if formats.by_teams(self.fmt):
                partner = ids[i + 1] if i % 2 == 0 else ids[i - 1]
            self.add(*decide.register(self.league, a, f"P{a[-4:]}", False, partner, partner))
        return ids

    def start_season(self, divisions: int = 1, promote: int = 0, relegate: int = 0) -> None:
        self.add(decide.start_season(self.league, divisions, promote, relegate, (), ()))

    def play_round(
        self, rng: random.Random, absent: frozenset[str] = frozenset(), playoff: bool = False
    ) -> int:
        season = self.league.season
        assert season is not None
        number = max(season.rounds, default=0) + 1
        seed = hashlib.sha256(f"round-{number}-{rng.random()}".encode()).digest()
        self.add(
            decide.schedule_round(
                self.league, number, 1000 * number, fairness.commitment(seed), playoff
            )
        )
        seated = decide.seat_round(self.league, number, seed)
        self.add(*seated)
        tables = [
            OpenedTable(
                s.division, i, f"t{number}-{s.division}-{i}", f"m{number}-{s.division}-{i}", ""
            )
            for s in seated
            for i in range(len(s.tables))
        ]
        self.add(RoundOpened(season.number, number, 1000 * number, tuple(tables)))
        self.add(RoundStarted(season.number, number, tuple(sorted(absent))))
        for table in tables:
            seats = (
                next(s for s in seated if s.division == table.division).tables[table.index].seats
            )
            self.add(self.result(season.number, number, table.match_id, seats, rng, absent))
        self.add(RoundEnded(season.number, number, seed.hex()))
        return number

    def result(
        self,
        season: int,
        number: int,
        match_id: str,
        seats: tuple[str, ...],
        rng: random.Random,
        absent: frozenset[str],
    ) -> ResultRecorded:
        k = len(seats)
        if formats.head_to_head(self.fmt):
            team = [rng.randrange(300), rng.randrange(300)]
            while team[0] == team[1]:
                team[1] = rng.randrange(300)
            scores = [team[s % 2] for s in range(k)]
            ranks = [1 if team[s % 2] > team[1 - s % 2] else 2 for s in range(k)]
        else:
            scores = [rng.randrange(-50, 50) for _ in range(k)]
            lower = self.game == "fan-tan"
            ranks = [1 + sum((o < v) if lower else (o > v) for o in scores) for v in scores]
        lines = tuple(
            ResultLine(
                seat,
                "" if seats[seat] == BOT or seats[seat] in absent else seats[seat],
                scores[seat],
                ranks[seat],
                rng.randrange(3),
                4,
            )
            for seat in range(k)
        )
        return ResultRecorded(season, number, match_id, lines)
