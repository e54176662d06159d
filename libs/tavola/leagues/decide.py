"""Deciding league commands: each returns the events to append (pure; raises a rules
error — ``MalformedAction`` for bad input, ``IllegalAction`` for a wrong moment — and
changes nothing)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tavola.leagues import formats, pairing, playoff, seating, standings
from tavola.leagues.chance import Draw, purpose
from tavola.leagues.events import (
    Division,
    Registered,
    RoundScheduled,
    RoundSeated,
    SeasonEnded,
    SeasonStarted,
    SeatedTable,
    Withdrawn,
)
from tavola.leagues.seating import BOT, Pair, pair
from tavola.leagues.state import LeagueState, SeasonState, members, team_key
from tavola.match.events import OptionEntry
from tavola.rules.errors import IllegalAction, MalformedAction, Reason

MAX_DIVISIONS = 16
MAX_ROUNDS = 200


def refuse(code: str, **params: str | int) -> IllegalAction:
    return IllegalAction(Reason.of(code, **params))


def malformed(code: str, **params: str | int) -> MalformedAction:
    return MalformedAction(Reason.of(code, **params))


# ----- registration ------------------------------------------------------------------------
def register(
    league: LeagueState,
    account_id: str,
    name: str,
    is_bot: bool,
    partner_id: str = "",
    partner_name: str = "",
) -> list[Registered]:
    fmt = league.format
    if is_bot and not fmt.bot_accounts:
        raise refuse("league.no_bot_accounts")
    if formats.by_teams(fmt) and not partner_id:
        raise malformed("request.missing", field="partner_name")
    if partner_id == account_id:
        raise malformed("request.invalid", field="partner_name", detail="not yourself")
    if not formats.by_teams(fmt) and partner_id:
        raise malformed("request.invalid", field="partner_name", detail="no teams here")
    event = Registered(account_id, name, is_bot, partner_id, partner_name, "")
    current = league.registrations.get(account_id)
    if (
        current is not None
        and account_id not in league.withdrawn
        and (current.partner_id, current.partner_name) == (partner_id, partner_name)
    ):
        return []  # already registered so: nothing to record
    season = league.season
    if season is not None:
        after_team = team_key(account_id, partner_id) if partner_id else account_id
        theirs = league.registrations.get(partner_id) if partner_id else None
        complete = not partner_id or (theirs is not None and theirs.partner_id == account_id)
        if complete and season.division_of(after_team) is None:
            event = Registered(
                account_id, name, is_bot, partner_id, partner_name, season.division_names()[-1]
            )
    return [event]


def withdraw(league: LeagueState, account_id: str) -> list[Withdrawn]:
    if account_id not in league.registrations or account_id in league.withdrawn:
        raise refuse("league.not_registered")
    return [Withdrawn(account_id)]


# ----- seasons -----------------------------------------------------------------------------
def start_season(
    league: LeagueState,
    divisions: int,
    promote: int,
    relegate: int,
    options: tuple[OptionEntry, ...],
    house_rules: tuple[str, ...],
    names: Sequence[str] = (),
) -> SeasonStarted:
    if league.season is not None:
        raise refuse("league.season_running", season=league.season.number)
    if not 1 <= divisions <= MAX_DIVISIONS:
        raise malformed("request.invalid", field="divisions", detail=f"1 to {MAX_DIVISIONS}")
    if names and len(names) != divisions:
        raise malformed("request.invalid", field="division_names", detail="one per division")
    if min(promote, relegate) < 0:
        raise malformed("request.invalid", field="promote", detail="not negative")
    if league.seasons:  # the divisions carry over; their number is the league's
        split = standings.next_divisions(league, len(league.seasons[-1].division_names()))
    else:
        split = standings.next_divisions(league, divisions, list(names) or None)
    number = league.seasons[-1].number + 1 if league.seasons else 1
    return SeasonStarted(
        season=number,
        options=options,
        house_rules=house_rules,
        divisions=tuple(Division(name, tuple(entrants)) for name, entrants in split),
        promote=promote,
        relegate=relegate,
    )


def end_season(league: LeagueState) -> SeasonEnded:
    season = _running(league)
    if any(r.ended is None for r in season.rounds.values()):
        raise refuse("league.round_unfinished", season=season.number)
    return SeasonEnded(season.number, standings.season_moves(league, season))


def _running(league: LeagueState) -> SeasonState:
    season = league.season
    if season is None:
        raise refuse("league.no_season")
    return season


# ----- rounds ------------------------------------------------------------------------------
def schedule_round(
    league: LeagueState,
    round_: int,
    starts_at_ms: int,
    commitment: str,
    playoff_round: bool = False,
) -> RoundScheduled:
    """Schedule round ``round_`` (0: the next one) of the running season, or move a round
    that has not opened yet (it stays a regular or a playoff round). ``playoff_round``:
    the next round of the knockout (``tavola.leagues.playoff``)."""
    season = _running(league)
    number = round_ or (max(season.rounds, default=0) + 1)
    if not 1 <= number <= MAX_ROUNDS:
        raise malformed("request.invalid", field="round", detail=f"1 to {MAX_ROUNDS}")
    existing = season.rounds.get(number)
    if existing is not None and existing.opened is not None:
        raise refuse("league.round_opened", round=number)
    if existing is not None:
        return RoundScheduled(season.number, number, starts_at_ms, commitment, existing.playoff)
    if number != max(season.rounds, default=0) + 1:
        raise malformed("request.invalid", field="round", detail="the next round")
    knockout = playoff.playoff_rounds(season)
    if playoff_round:
        if not league.format.playoff:
            raise refuse("league.no_playoff")
        if knockout and knockout[-1].ended is not None and playoff.decided(league, season):
            raise refuse("league.playoff_over", season=season.number)
    elif knockout:
        raise refuse("league.playoff_started", season=season.number)
    return RoundScheduled(season.number, number, starts_at_ms, commitment, playoff_round)


@dataclass(frozen=True, slots=True)
class History:
    """What earlier rounds of the season say about the draw."""

    meetings: Mapping[Pair, int]
    partnered: Mapping[Pair, int]
    byes: Mapping[str, int]
    seatings: int  # rounds this division has been seated already


def history(league: LeagueState, season: SeasonState, before: int, division: str) -> History:
    teams = formats.by_teams(league.format)
    met: dict[Pair, int] = {}
    partnered: dict[Pair, int] = {}
    byes: dict[str, int] = {}
    seatings = 0
    for state in season.ordered_rounds():
        if state.round >= before:
            break
        seatings += division in state.seated
        for seated in state.seated.values():
            for bye in seated.byes:
                byes[bye] = byes.get(bye, 0) + 1
            for table in seated.tables:
                _count_table(table.seats, teams, met, partnered)
    return History(met, partnered, byes, seatings)


def _count_table(
    seats: Sequence[str], teams: bool, met: dict[Pair, int], partnered: dict[Pair, int]
) -> None:
    if teams:
        key = pair(team_key(seats[0], seats[2]), team_key(seats[1], seats[3]))
        met[key] = met.get(key, 0) + 1
        return
    people = [s for s in seats if s != BOT]
    for x, a in enumerate(people):
        for b in people[x + 1 :]:
            met[pair(a, b)] = met.get(pair(a, b), 0) + 1
    if len(seats) == 4:
        for a, b in ((seats[0], seats[2]), (seats[1], seats[3])):
            if BOT not in (a, b):
                partnered[pair(a, b)] = partnered.get(pair(a, b), 0) + 1


def seat_round(league: LeagueState, number: int, seed: bytes) -> list[RoundSeated]:
    """Every division's seating for round ``number`` of the running season, from its seed
    and the league so far (entrants registered now; the withdrawn are left out)."""
    season = _running(league)
    if season.rounds[number].playoff:
        return _seat_playoff(league, season, number, seed)
    active = set(league.active_entrants())
    fmt = league.format
    out = []
    for division in season.division_names():
        roster = sorted(e for e in season.entrants_of(division) if e in active)
        past = history(league, season, number, division)
        draw = Draw(seed, purpose(season.number, number, division))
        if formats.paired(fmt):
            drawn = _pair_teams(league, season, division, roster, past, draw, number, seed)
        else:
            drawn = seating.seat(
                roster,
                draw,
                fmt.table_sizes,
                fmt.remainder,
                past.meetings,
                past.byes,
                past.partnered if formats.seat_partners(fmt) else None,
                _points_by_standings(league, season, division, number),
                fmt.band,
            )
        out.append(
            RoundSeated(
                season=season.number,
                round=number,
                division=division,
                entrants=tuple(roster),
                tables=tuple(SeatedTable(tuple(t)) for t in drawn.tables),
                byes=drawn.byes,
                cost=drawn.cost,
            )
        )
    return out


def _seat_playoff(
    league: LeagueState, season: SeasonState, number: int, seed: bytes
) -> list[RoundSeated]:
    """A knockout round: every earlier round has ended; its slots come from the standings
    (the first) or the previous knockout round's winners."""
    if any(r.ended is None for r in season.ordered_rounds() if r.round < number):
        raise refuse("league.round_unfinished", season=season.number)
    out = []
    for group in playoff.groups_of(season, league.format):
        draw = Draw(seed, purpose(season.number, number, group))
        slots, drawn = playoff.seat(league, season, group, number, draw)
        out.append(
            RoundSeated(
                season=season.number,
                round=number,
                division=group,
                entrants=slots,
                tables=tuple(SeatedTable(tuple(t)) for t in drawn.tables),
                byes=drawn.byes,
                cost=0,
            )
        )
    return out


def _points_by_standings(
    league: LeagueState, season: SeasonState, division: str, number: int
) -> dict[str, Fraction] | None:
    """Seating by standings: each entrant's standings points after the previous round."""
    if league.format.seating != formats.STANDINGS:
        return None
    table = standings.standings(league, season, division, number - 1)
    return {row.entrant: row.points for row in table}


def _pair_teams(
    league: LeagueState,
    season: SeasonState,
    division: str,
    roster: list[str],
    past: History,
    draw: Draw,
    number: int,
    seed: bytes,
) -> seating.Seating:
    if league.format.pairing == formats.ROUND_ROBIN:
        # the order of the whole round robin is drawn once, from the season's first round
        first = min(season.rounds)
        opening = season.rounds[first].ended
        if number != first and opening is None:
            raise refuse("league.round_unfinished", season=season.number)
        order_seed = bytes.fromhex(opening.seed_hex) if number != first and opening else seed
        start = season.rounds[first].seated.get(division)
        listed = sorted(start.entrants) if start else roster
        order = Draw(order_seed, f"round-robin/{season.number}/{division}").shuffled(listed)
        return pairing.round_robin(roster, order, past.seatings, draw)
    table = standings.standings(league, season, division, number - 1)
    points = {row.entrant: int(row.points * 2) for row in table}
    ranking = [row.entrant for row in table]
    return pairing.swiss(roster, draw, points, past.meetings, ranking, past.byes)


def seated_accounts(seated: Sequence[RoundSeated]) -> set[str]:
    return {a for s in seated for t in s.tables for a in t.seats if a != BOT} | {
        m for s in seated for b in s.byes for m in members(b)
    }
