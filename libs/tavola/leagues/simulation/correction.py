"""A referee's correction of one finished league match, and whether it changed exactly
what it should (issue #14).

The correction goes through the public API (``AuditService.FileCorrection`` with a
referee's token). What it should change is worked out by hand from the match's recorded
result: the corrected result lines (a voided match has none; a voided hand of a one-hand
match leaves every score 0; an adjusted score adds the amount to its seats; the ranks
follow the scores, shared places shared), and from them

- the league's log: exactly one more ``ResultRecorded`` of the match, the next revision,
  with those lines;
- the division table: the standings with those lines in place of the recorded ones; the
  rows of every entrant not at the table unchanged (but their rank, and the columns that
  compare entrants with each other: opponents' wins, head-to-head);
- ratings: the other games' untouched; this game's history unchanged before the match (in
  the log's order); the match itself rated by hand from its players' ratings before it
  (openskill, the game's parameters) with the corrected ranks, or not at all once voided;
- statistics: every other match's rows unchanged; the match's scores and ranks the
  corrected ones (its counters as played), or no rows once voided.

A rebuild of every projection must still give the live rows (the season's own check).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import asyncpg
from openskill.models import PlackettLuce, PlackettLuceRating

from tavola.leagues import codec, formats
from tavola.leagues.events import ResultLine, ResultRecorded
from tavola.leagues.rating import model_parameters
from tavola.leagues.simulation import figures
from tavola.leagues.simulation.harness import Harness, Player
from tavola.leagues.standings import entrants_at, standings
from tavola.leagues.state import LeagueState, evolve
from tavola.match.events import ADJUST_SCORE, VOID_GAME, VOID_HAND
from tavola.rules import registry
from tavola.v1 import audit_pb2

# what each game's season corrects (a voided hand only where the match has one hand)
KINDS = {
    "doppelkopf": VOID_GAME,
    "fan-tan": VOID_HAND,
    "barbu": ADJUST_SCORE,
    "spades": ADJUST_SCORE,
    "dominoes": ADJUST_SCORE,
}
RELATIONAL = frozenset({"opponents_wins", "head_to_head"})  # they compare entrants
Rows = dict[str, list[tuple[Any, ...]]]


@dataclass(frozen=True, slots=True)
class Plan:
    game: str
    recorded: ResultRecorded  # the result the league recorded last
    kind: str
    seats: tuple[int, ...]
    amount: int
    hand: int
    lines: tuple[ResultLine, ...]  # the corrected result, by hand

    @property
    def match_id(self) -> str:
        return self.recorded.match_id

    def request(self) -> audit_pb2.FileCorrectionRequest:
        return audit_pb2.FileCorrectionRequest(
            match_id=self.match_id,
            kind=self.kind,
            seats=list(self.seats),
            amount=self.amount,
            hand=self.hand,
            reason="simulated season: the scorer erred",
            command_id=f"sim-correction/{self.match_id}",
        )


@dataclass(frozen=True, slots=True)
class Outcome:
    plan: Plan
    problems: tuple[str, ...]

    def line(self) -> str:
        p = self.plan
        what = {VOID_GAME: "void_game", VOID_HAND: f"void_hand {p.hand}"}.get(
            p.kind, f"adjust_score {p.amount:+d} to seats {list(p.seats)}"
        )
        head = f"correction of {p.game} match {p.match_id} ({what}):"
        if not self.problems:
            return f"{head} standings, ratings and statistics changed exactly as worked out"
        return "\n  ".join([f"{head} {len(self.problems)} PROBLEM(S)", *self.problems])


# ----- the correction, worked out by hand ---------------------------------------------
def ranked(game: str, lines: Sequence[ResultLine]) -> tuple[ResultLine, ...]:
    """Ranks from the scores: 1 + the seats strictly better (equal scores share)."""
    lower = registry.get(game).info.lower_score_wins

    def better(a: int, b: int) -> bool:
        return a < b if lower else a > b

    return tuple(
        replace(line, rank=1 + sum(better(o.score, line.score) for o in lines)) for line in lines
    )


def team_of(game: str, seats: int, seat: int) -> tuple[int, ...]:
    if registry.get(game).info.teams and seats == 4:
        return (seat % 2, seat % 2 + 2)
    return (seat,)


def plan_for(game: str, recorded: ResultRecorded) -> Plan | None:
    """The correction of this table (None: it would rate or change nothing to check)."""
    lines = tuple(sorted(recorded.lines, key=lambda line: line.seat))
    teams = {team_of(game, len(lines), line.seat) for line in lines if line.account_id}
    if len(teams) < 2 or len({line.score for line in lines}) < 2:
        return None
    kind = KINDS[game]
    if kind == VOID_HAND and any(line.hands_played != 1 for line in lines):
        kind = ADJUST_SCORE
    if kind == VOID_GAME:
        return Plan(game, recorded, kind, (), 0, 0, ())
    if kind == VOID_HAND:  # the only hand: it scored everything
        zero = ranked(game, [replace(line, score=0) for line in lines])
        return Plan(game, recorded, kind, (), 0, 1, zero)
    last = max(lines, key=lambda line: (line.rank, line.seat))
    seats = team_of(game, len(lines), last.seat)
    others = [line.score for line in lines if line.seat not in seats]
    if registry.get(game).info.lower_score_wins:  # the last place goes strictly first
        amount = min(others) - last.score - 1
    else:
        amount = max(others) - last.score + 1
    moved = [
        replace(line, score=line.score + amount) if line.seat in seats else line for line in lines
    ]
    return Plan(game, recorded, ADJUST_SCORE, seats, amount, 0, ranked(game, moved))


def choose(league: LeagueState, match_ids: Sequence[str], avoid: Collection[str] = ()) -> Plan:
    """The first of ``match_ids`` worth correcting, at which no account of ``avoid`` sat."""
    for match_id in match_ids:
        round_ = league.round_of_match(match_id)
        recorded = round_.results.get(match_id) if round_ else None
        if recorded is None or any(line.account_id in avoid for line in recorded.lines):
            continue
        plan = plan_for(league.game, recorded)
        if plan is not None:
            return plan
    raise ValueError(f"no table of {league.game} to correct")


# ----- filing it and waiting for it to flow ---------------------------------------------
async def correct_one(
    harness: Harness,
    referee: Player,
    database_url: str,
    league_id: str,
    match_ids: Sequence[str],
    avoid: Collection[str] = (),
) -> Outcome:
    """File a correction of one of ``match_ids`` (finished matches of the league; none
    that an account of ``avoid`` played) and check what it changed."""
    await figures.caught_up(database_url)
    league = await figures.league(database_url, league_id)
    before = await figures.snapshot(database_url)
    # a match its ratings took in (not one whose rated seats were too few: absences)
    rated = {r[2] for r in before["rating_history"]}
    plan = choose(league, [m for m in match_ids if m in rated], avoid)
    recorded_before = await _recorded(database_url, league_id, plan.match_id)
    await harness.call(harness.audit.FileCorrection, plan.request(), referee.token)
    await _until_revised(database_url, league_id, plan)
    await figures.caught_up(database_url)
    after = await figures.snapshot(database_url)
    recorded_after = await _recorded(database_url, league_id, plan.match_id)
    order = await _match_order(database_url)
    problems = [
        *check_revision(plan, recorded_after[len(recorded_before) :]),
        *check_standings(plan, league, before["league_standings"], after["league_standings"]),
        *check_ratings(plan, order, before, after),
        *check_statistics(plan, before, after),
    ]
    return Outcome(plan, tuple(problems))


async def _recorded(database_url: str, league_id: str, match_id: str) -> list[ResultRecorded]:
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            "SELECT type, payload FROM events WHERE stream_id = $1"
            " AND type = 'league.ResultRecorded' ORDER BY version",
            codec.stream_of(league_id),
        )
    finally:
        await conn.close()
    decoded = [codec.decode(r["type"], r["payload"]) for r in rows]
    return [e for e in decoded if isinstance(e, ResultRecorded) and e.match_id == match_id]


async def _until_revised(
    database_url: str, league_id: str, plan: Plan, timeout: float = 120.0
) -> None:
    """Until the league recorded the match's result again (the lobby follows the bus)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        recorded = await _recorded(database_url, league_id, plan.match_id)
        if recorded and recorded[-1].revision > plan.recorded.revision:
            return
        await asyncio.sleep(0.25)
    raise TimeoutError(f"the league did not record match {plan.match_id} again")


async def _match_order(database_url: str) -> dict[str, int]:
    """Each ended match's place in the log's global order."""
    conn = await asyncpg.connect(database_url)
    try:
        rows = await conn.fetch(
            "SELECT stream_id FROM events WHERE type = 'match.MatchEnded' ORDER BY tx, position"
        )
    finally:
        await conn.close()
    return {r["stream_id"].removeprefix("match-"): i for i, r in enumerate(rows)}


# ----- the checks -------------------------------------------------------------------------
def check_revision(plan: Plan, new: Sequence[ResultRecorded]) -> list[str]:
    if len(new) != 1:
        return [f"league log: {len(new)} new results of the match, not 1"]
    expected = replace(plan.recorded, lines=plan.lines, revision=plan.recorded.revision + 1)
    if new[0] != expected:
        return [f"league log: recorded {new[0]}, worked out {expected}"]
    return []


def _standing_rows(rows: Sequence[tuple[Any, ...]], league_id: str) -> dict[tuple[Any, ...], Any]:
    """(season, division, after_round, entrant) -> (rank, points, columns, the rest)."""
    out = {}
    for r in rows:
        if r[0] == league_id:
            columns = {name: value for name, value in json.loads(r[7])}
            out[(r[1], r[2], r[3], r[5])] = (r[4], r[6], columns, r[8:12], list(r[12]))
    return out


def expected_standings(plan: Plan, league: LeagueState) -> dict[tuple[Any, ...], Any]:
    """The league's rows with the corrected lines in place of the recorded ones."""
    recorded = plan.recorded
    state = evolve(league, replace(recorded, lines=plan.lines, revision=recorded.revision + 1))
    out = {}
    for season in state.seasons:
        numbers = [r.round for r in season.ordered_rounds()]
        for division in season.division_names():
            for after in [*numbers, 0]:
                for row in standings(state, season, division, after or None):
                    columns = {name: float(value) for name, value in row.columns}
                    rest = (row.played, row.byes, row.absences, row.withdrawn)
                    key = (season.number, division, after, row.entrant)
                    out[key] = (row.rank, float(row.points), columns, rest, list(row.rounds))
    return out


def table_entrants(plan: Plan, league: LeagueState) -> set[str]:
    round_ = league.round_of_match(plan.match_id)
    assert round_ is not None and round_.opened is not None
    table = next(t for t in round_.opened.tables if t.match_id == plan.match_id)
    seats = round_.seated[table.division].tables[table.index].seats
    return set(entrants_at(formats.by_teams(league.format), seats)) - {""}


def check_standings(
    plan: Plan, league: LeagueState, before_rows: Sequence[Any], after_rows: Sequence[Any]
) -> list[str]:
    before = _standing_rows(before_rows, league.league_id)
    after = _standing_rows(after_rows, league.league_id)
    expected = expected_standings(plan, league)
    problems = [
        f"standings {key}: projected {after.get(key)}, worked out {value}"
        for key, value in sorted(expected.items())
        if after.get(key) != value
    ]
    problems += [f"standings {key}: a row nobody expected" for key in after.keys() - expected]
    at_table = table_entrants(plan, league)
    for key, row in sorted(before.items()):
        if key[3] in at_table or key not in after:
            continue
        if _unrelated(row) != _unrelated(after[key]):
            problems.append(f"standings {key}: changed from {row} to {after[key]}")
    if not any(
        before.get(k, (0,))[1:3] != after.get(k, (0,))[1:3] for k in after if k[3] in at_table
    ):
        problems.append("standings: the correction changed no entrant's points or tie-breaks")
    return problems


def _unrelated(row: tuple[Any, ...]) -> tuple[Any, ...]:
    _, points, columns, rest, rounds = row
    own = {name: value for name, value in columns.items() if name not in RELATIONAL}
    return points, own, rest, rounds


def _game_rows(rows: Sequence[tuple[Any, ...]], game: str, same: bool) -> list[tuple[Any, ...]]:
    return [r for r in rows if (r[1] == game) == same]


def check_ratings(plan: Plan, order: Mapping[str, int], before: Rows, after: Rows) -> list[str]:
    game, match_id = plan.game, plan.match_id
    problems = []
    for table in ("ratings", "rating_history"):
        if _game_rows(before[table], game, False) != _game_rows(after[table], game, False):
            problems.append(f"{table}: another game's rows changed")
    place = order[match_id]
    history = _game_rows(after["rating_history"], game, True)
    earlier = [r for r in _game_rows(before["rating_history"], game, True) if order[r[2]] < place]
    if earlier != [r for r in history if order[r[2]] < place]:
        problems.append("rating_history: a match before the corrected one was rated anew")
    rated = {r[0]: (r[4], r[5]) for r in history if r[2] == match_id}
    if not any(r[2] == match_id for r in before["rating_history"]):
        problems.append("rating_history: the match was not rated before its correction")
    last = {r[0]: r for r in sorted(earlier, key=lambda r: (order[r[2]], r[3]))}
    expected = expected_ratings(plan, last)
    if not expected and plan.kind != VOID_GAME:
        problems.append("ratings: nothing of the corrected match to work out")
    if rated.keys() != expected.keys() or any(
        abs(rated[k][0] - v[0]) > 1e-9 or abs(rated[k][1] - v[1]) > 1e-9
        for k, v in expected.items()
    ):
        problems.append(f"rating_history of the match: {rated}, worked out {expected}")
    problems += _rated_matches(plan, before, after)
    return problems


def expected_ratings(plan: Plan, earlier: Mapping[str, Any]) -> dict[str, tuple[float, float]]:
    """The match's update, by hand: each player's rating before it (its last entry of an
    earlier match, else a new rating), the corrected ranks; nothing once voided."""
    if plan.kind == VOID_GAME or not plan.lines:
        return {}
    if plan.game == "doppelkopf":
        raise ValueError("a Doppelkopf match rates its games: only void_game is worked out")
    parameters = model_parameters(plan.game)  # as the scoring service rates
    model = PlackettLuce(beta=parameters["beta"], tau=parameters["tau"], limit_sigma=True)
    lines = {line.seat: line for line in plan.lines}
    teams: list[list[PlackettLuceRating]] = []
    ranks: list[float] = []
    for first in sorted({team_of(plan.game, len(lines), s) for s in lines}):
        keys = [lines[s].account_id for s in first if lines[s].account_id]
        if keys:
            teams.append([_prior(model, key, earlier) for key in keys])
            ranks.append(min(lines[s].rank for s in first))
    if len(teams) < 2:
        return {}
    new = model.rate(teams, ranks=ranks)
    return {str(r.name): (r.mu, r.sigma) for team in new for r in team}


def _prior(model: PlackettLuce, key: str, earlier: Mapping[str, Any]) -> PlackettLuceRating:
    last = earlier.get(key)
    return model.rating(name=key) if last is None else model.rating(last[4], last[5], name=key)


def _rated_matches(plan: Plan, before: Rows, after: Rows) -> list[str]:
    """A voided match no longer counts in its players' ``matches``; else nothing does."""
    voided = (
        {r[0] for r in before["rating_history"] if r[2] == plan.match_id}
        if plan.kind == VOID_GAME
        else set()
    )
    was = {r[0]: r[4] for r in _game_rows(before["ratings"], plan.game, True)}
    now = {r[0]: r[4] for r in _game_rows(after["ratings"], plan.game, True)}
    worked_out = {k: v - (k in voided) for k, v in was.items() if v - (k in voided) > 0}
    if now != worked_out:
        return [f"ratings: matches per player {now}, worked out {worked_out}"]
    return []


def check_statistics(plan: Plan, before: Rows, after: Rows) -> list[str]:
    problems = []
    lines = {line.seat: line for line in plan.lines}
    for table in ("player_matches", "player_match_counters"):
        was = [r for r in before[table] if r[0] != plan.match_id]
        if was != [r for r in after[table] if r[0] != plan.match_id]:
            problems.append(f"{table}: another match's rows changed")
    own = [r for r in before["player_matches"] if r[0] == plan.match_id]
    expected = [(*r[:4], lines[r[1]].score, lines[r[1]].rank, *r[6:]) for r in own if lines]
    got = [r for r in after["player_matches"] if r[0] == plan.match_id]
    if got != expected:
        problems.append(f"player_matches of the match: {got}, worked out {expected}")
    counters = [r for r in before["player_match_counters"] if r[0] == plan.match_id]
    if [r for r in after["player_match_counters"] if r[0] == plan.match_id] != (
        counters if lines else []
    ):
        problems.append("player_match_counters of the match: not the counters as played")
    return problems


__all__ = ["KINDS", "Outcome", "Plan", "choose", "correct_one", "plan_for", "ranked"]
