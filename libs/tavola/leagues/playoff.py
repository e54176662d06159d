"""Playoffs: a single-elimination knockout after a season's regular rounds.

For head-to-head formats only (Spades and dominoes pairs, dominoes one against one), when
the league's format sets ``playoff`` (the qualifiers: 2, 4, 8 or 16):

- ``division``: each division's best ``playoff`` entrants of the regular standings play
  their own bracket (the Spades playoff);
- ``across`` (group stage + knockout): the divisions are the groups, and the best
  ``playoff`` of every group meet in one bracket (of the largest power of two they fill),
  recorded under the division name ``KNOCKOUT``; group winners are seeded first (in
  division order), then the runners-up, and so on, so a group's entrants meet only late.

Seeding is the standard one (1 against the last seed, 2 against the second last, and the
first two seeds can meet only in the final). Withdrawn entrants do not qualify; a field
smaller than ``playoff`` plays the largest power of two it can fill. A playoff round is
scheduled by the host (``RoundScheduled.playoff``) once the regular rounds have ended; its
tables are the bracket's pairs in order, and ``RoundSeated.entrants`` records the
bracket's slots (empty: nobody), so anyone can derive the next round from the log.

Who advances from a table: the side the match ranks first (the latest revision of its
result, so a referee's correction counts). A side whose players were all absent (the
platform's bots played for them) loses to a side that was there; when both or neither
were there and the match has no winner (a voided game), the better seed advances — never
chance. An entrant that withdraws during the playoff gives its opponent a walkover (a
bye). The last round's winner is the champion.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavola.leagues import formats, pairing, standings
from tavola.leagues.chance import Draw
from tavola.leagues.events import ResultRecorded, RoundSeated
from tavola.leagues.seating import Seating
from tavola.leagues.state import LeagueState, RoundState, SeasonState, members

KNOCKOUT = "knockout"
DIVISION = "division"
ACROSS = "across"
SIZES = (2, 4, 8, 16)


def bracket_order(n: int) -> list[int]:
    """Seed numbers (1-based) by bracket slot for a bracket of ``n`` (a power of two):
    1, n, then the halves mirrored, so seeds 1 and 2 meet only in the final."""
    order = [1]
    while len(order) < n:
        size = 2 * len(order)
        order = [x for seed in order for x in (seed, size + 1 - seed)]
    return order


def qualifiers(fmt: formats.Format, field: int) -> int:
    """The bracket's size for a field of ``field`` entrants (0: too few for one)."""
    size = fmt.playoff
    while size > field:
        size //= 2
    return size if size >= 2 else 0


def groups_of(season: SeasonState, fmt: formats.Format) -> list[str]:
    """The division names a playoff round is seated under."""
    return [KNOCKOUT] if fmt.playoff_mode == ACROSS else list(season.division_names())


def regular_rounds(season: SeasonState) -> list[RoundState]:
    return [r for r in season.ordered_rounds() if not r.playoff]


def playoff_rounds(season: SeasonState) -> list[RoundState]:
    return [r for r in season.ordered_rounds() if r.playoff]


def _seeds(league: LeagueState, season: SeasonState, group: str) -> list[str]:
    """The qualifiers of ``group``, best seed first."""
    fmt = league.format
    if group != KNOCKOUT:
        rows = [r for r in standings.standings(league, season, group) if not r.withdrawn]
        return [r.entrant for r in rows[: qualifiers(fmt, len(rows))]]
    tables = [
        [r.entrant for r in standings.standings(league, season, d) if not r.withdrawn]
        for d in season.division_names()
    ]
    per_group = fmt.playoff
    while per_group > 1 and any(len(t) < per_group for t in tables):
        per_group //= 2
    seeded = [t[place] for place in range(per_group) for t in tables]
    size = 1
    while size * 2 <= len(seeded):  # the bracket: the largest power of two they fill
        size *= 2
    return seeded[:size] if size >= 2 else []


def slots_of(seeds: Sequence[str]) -> list[str]:
    """The bracket's slots for seeds best first."""
    return [seeds[s - 1] for s in bracket_order(len(seeds))] if seeds else []


def winner(
    league: LeagueState,
    round_: RoundState,
    seated: RoundSeated,
    index: int,
    rank_of: dict[str, int],
) -> str:
    """Who advances from table ``index`` of a played playoff round (see the module)."""
    seats = seated.tables[index].seats
    sides = standings.entrants_at(formats.by_teams(league.format), seats)
    a, b = sides[0], sides[1]
    better = a if rank_of.get(a, 1 << 30) < rank_of.get(b, 1 << 30) else b
    opened = round_.opened.tables if round_.opened else ()
    match_id = next(
        (t.match_id for t in opened if t.division == seated.division and t.index == index), ""
    )
    result: ResultRecorded | None = round_.results.get(match_id)
    absent = set(round_.started.absent) if round_.started else set()
    here = {e: not all(m in absent for m in members(e)) for e in (a, b)}
    if here[a] != here[b]:
        return a if here[a] else b
    if result is None or not result.lines:
        return better
    best = {
        side: min((ln.rank for ln in result.lines if sides[ln.seat] == side), default=1 << 30)
        for side in (a, b)
    }
    if best[a] == best[b]:
        return better
    return a if best[a] < best[b] else b


def seed_ranks(seated: RoundSeated) -> dict[str, int]:
    """Seed numbers of a first playoff round's bracket (slot order is bracket order)."""
    order = bracket_order(len(seated.entrants)) if seated.entrants else []
    return {e: order[i] for i, e in enumerate(seated.entrants) if e}


def pairs(slots: Sequence[str]) -> list[tuple[str, str, int]]:
    """The bracket's pairings of a round's slots, in order: ``(first, second, table)``,
    the table's index in the round's seating, or ``(entrant, "", -1)`` for a walkover."""
    out: list[tuple[str, str, int]] = []
    table = 0
    for i in range(0, len(slots), 2):
        a, b = slots[i], slots[i + 1] if i + 1 < len(slots) else ""
        if a and b:
            out.append((a, b, table))
            table += 1
        elif a or b:
            out.append((a or b, "", -1))
    return out


def advancing(league: LeagueState, season: SeasonState, group: str, before: int) -> list[str]:
    """The bracket's slots for the playoff round ``before`` (the first: the seeds)."""
    earlier = [r for r in playoff_rounds(season) if r.round < before]
    if not earlier:
        return slots_of(_seeds(league, season, group))
    first = earlier[0].seated.get(group)
    ranks = seed_ranks(first) if first else {}
    last = earlier[-1]
    seated = last.seated.get(group)
    if seated is None:
        return []
    return [
        winner(league, last, seated, table, ranks) if table >= 0 else a
        for a, _, table in pairs(seated.entrants)
    ]


def seat(
    league: LeagueState, season: SeasonState, group: str, number: int, draw: Draw
) -> tuple[tuple[str, ...], Seating]:
    """The bracket's slots and the seating of playoff round ``number`` of ``group``."""
    slots = [
        s if s and not league.is_withdrawn(s) else ""
        for s in advancing(league, season, group, number)
    ]
    found = pairs(slots) if len(slots) >= 2 else []
    tables = tuple(pairing.table(a, b, draw) for a, b, table in found if table >= 0)
    byes = tuple(a for a, _, table in found if table < 0)
    return tuple(slots), Seating(tables, byes, 0)


def decided(league: LeagueState, season: SeasonState) -> bool:
    """Whether every group's bracket has its champion."""
    return all(
        b.champion or not b.rounds or not b.rounds[-1].ties for b in brackets(league, season)
    )


@dataclass(frozen=True, slots=True)
class Tie:
    """One pairing of the bracket: ``winner`` once decided (or at once for a walkover)."""

    first: str
    second: str
    match_id: str
    winner: str


@dataclass(frozen=True, slots=True)
class BracketRound:
    round: int
    ties: tuple[Tie, ...]


@dataclass(frozen=True, slots=True)
class Bracket:
    group: str
    rounds: tuple[BracketRound, ...]
    champion: str  # "" until the final is decided


def brackets(league: LeagueState, season: SeasonState) -> list[Bracket]:
    """Every group's bracket so far (its rounds, ties, winners and champion)."""
    out = []
    rounds = playoff_rounds(season)
    for group in groups_of(season, league.format):
        shown: list[BracketRound] = []
        ranks: dict[str, int] = {}
        champion = ""
        for state in rounds:
            seated = state.seated.get(group)
            if seated is None:
                continue
            if not ranks:
                ranks = seed_ranks(seated)
            ties = []
            tables = state.opened.tables if state.opened else ()
            opened = {t.index: t.match_id for t in tables if t.division == group}
            for a, b, table in pairs(seated.entrants):
                if table < 0:
                    ties.append(Tie(a, "", "", a))
                    continue
                match_id = opened.get(table, "")
                done = state.ended is not None or match_id in state.results
                decided = winner(league, state, seated, table, ranks) if done else ""
                ties.append(Tie(a, b, match_id, decided))
            shown.append(BracketRound(state.round, tuple(ties)))
            if len(ties) == 1 and ties[0].winner:
                champion = ties[0].winner
        out.append(Bracket(group, tuple(shown), champion))
    return out
