"""LeagueService's management calls on the bus (``<ns>.rpc.league.<Method>``): protobuf
in and out, the application (``league_app``) in between."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from google.protobuf.timestamp_pb2 import Timestamp

from services.lobby.app import Lobby
from services.lobby.league_app import Leagues, current_round
from tavola.accounts.model import Principal
from tavola.bus import rpc
from tavola.leagues import formats, playoff
from tavola.leagues.seating import BOT
from tavola.leagues.state import LeagueState, RoundState, SeasonState, members
from tavola.protocol import errors
from tavola.v1 import league_pb2

_STATUS = {
    "scheduled": league_pb2.ROUND_STATUS_SCHEDULED,
    "check_in": league_pb2.ROUND_STATUS_CHECK_IN,
    "playing": league_pb2.ROUND_STATUS_PLAYING,
    "ended": league_pb2.ROUND_STATUS_ENDED,
}


def timestamp(ms: int) -> Timestamp:
    out = Timestamp()
    out.FromMilliseconds(ms)
    return out


def format_from_pb(message: league_pb2.LeagueFormat) -> formats.Format:
    return formats.Format(
        partners=message.partners or formats.INDIVIDUAL,
        pairing=message.pairing,
        remainder=message.remainder or formats.BOTS,
        table_sizes=tuple(message.table_sizes),
        scoring=message.scoring,
        average=message.average,
        check_in_seconds=message.check_in_seconds or formats.DEFAULT_CHECK_IN_SECONDS,
        bot_accounts=message.bot_accounts,
        fill_level=message.fill_level or "medium",
        seating=message.seating or formats.EVEN,
        band=message.band,
        duplicate=message.duplicate,
        playoff=message.playoff,
        playoff_mode=message.playoff_mode,
    )


def format_pb(game: str, fmt: formats.Format) -> league_pb2.LeagueFormat:
    return league_pb2.LeagueFormat(
        partners=fmt.partners,
        pairing=fmt.pairing,
        remainder=fmt.remainder,
        table_sizes=list(fmt.table_sizes),
        scoring=fmt.scoring,
        average=fmt.average,
        check_in_seconds=fmt.check_in_seconds,
        bot_accounts=fmt.bot_accounts,
        fill_level=fmt.fill_level,
        tie_breaks=list(formats.tie_breaks(game, fmt)),
        seating=fmt.seating,
        band=fmt.band,
        duplicate=fmt.duplicate,
        playoff=fmt.playoff,
        playoff_mode=fmt.playoff_mode,
    )


def entrant_pb(league: LeagueState, entrant: str) -> league_pb2.Entrant:
    return league_pb2.Entrant(
        entrant=entrant,
        name=league.entrant_name(entrant),
        account_ids=list(members(entrant)),
        withdrawn=league.is_withdrawn(entrant),
    )


def round_pb(state: RoundState) -> league_pb2.RoundSummary:
    return league_pb2.RoundSummary(
        round=state.round,
        starts_at=timestamp(state.starts_at_ms),
        seed_commitment=state.seed_commitment,
        seed=state.ended.seed_hex if state.ended else "",
        status=_STATUS[state.status],
        results=len(state.results),
        tables=len(state.match_ids),
        halted=f"{state.halted.step}: {state.halted.reason}" if state.halted else "",
        playoff=state.playoff,
    )


def brackets_pb(league: LeagueState, season: SeasonState) -> list[league_pb2.PlayoffBracket]:
    """The knockout's brackets (none before its first round is scheduled)."""
    if not playoff.playoff_rounds(season):
        return []
    name = league.entrant_name
    return [
        league_pb2.PlayoffBracket(
            group=bracket.group,
            rounds=[
                league_pb2.PlayoffRound(
                    round=r.round,
                    ties=[
                        league_pb2.PlayoffTie(
                            first=t.first,
                            first_name=name(t.first),
                            second=t.second,
                            second_name=name(t.second) if t.second else "",
                            match_id=t.match_id,
                            winner=t.winner,
                        )
                        for t in r.ties
                    ],
                )
                for r in bracket.rounds
            ],
            champion=bracket.champion,
            champion_name=name(bracket.champion) if bracket.champion else "",
        )
        for bracket in playoff.brackets(league, season)
    ]


def season_pb(league: LeagueState, season: SeasonState) -> league_pb2.Season:
    started = season.started
    return league_pb2.Season(
        season=season.number,
        options={o.name: o.value for o in started.options},
        house_rules=list(started.house_rules),
        divisions=[
            league_pb2.LeagueDivision(
                name=name, entrants=[entrant_pb(league, e) for e in season.entrants_of(name)]
            )
            for name in season.division_names()
        ],
        promote=started.promote,
        relegate=started.relegate,
        rounds=[round_pb(r) for r in season.ordered_rounds()],
        ended=season.ended is not None,
        moves=[
            league_pb2.SeasonMove(
                entrant=m.entrant,
                name=league.entrant_name(m.entrant),
                from_division=m.from_division,
                to_division=m.to_division,
            )
            for m in (season.ended.moves if season.ended else ())
        ],
        playoffs=brackets_pb(league, season),
    )


def league_pb(league: LeagueState) -> league_pb2.League:
    created = league.created
    last = league.seasons[-1].started if league.seasons else None
    options = last.options if last else created.options
    return league_pb2.League(
        league_id=created.league_id,
        name=created.name,
        game=created.game,
        host=created.host_name,
        host_account_id=created.host_account_id,
        format=format_pb(created.game, league.format),
        options={o.name: o.value for o in options},
        house_rules=list(last.house_rules if last else created.house_rules),
        seasons=[season_pb(league, s) for s in league.seasons],
        entrants=[entrant_pb(league, e) for e in league.active_entrants()],
        version=league.version,
    )


class LeagueRpc:
    """The handlers: each takes the request and the forwarded caller."""

    def __init__(self, leagues: Leagues, lobby: Lobby) -> None:
        self._leagues = leagues
        self._lobby = lobby

    async def create(
        self, request: league_pb2.CreateLeagueRequest, principal: Principal
    ) -> league_pb2.CreateLeagueResponse:
        fmt = format_from_pb(request.format)
        if not request.HasField("format"):
            fmt = formats.Format()
        state = await self._leagues.create(
            principal, request.name, request.game, dict(request.options), fmt, request.command_id
        )
        return league_pb2.CreateLeagueResponse(league=league_pb(state))

    async def get(
        self, request: league_pb2.GetLeagueRequest, _: Principal
    ) -> league_pb2.GetLeagueResponse:
        return league_pb2.GetLeagueResponse(
            league=league_pb(await self._leagues.load(request.league_id))
        )

    async def list(
        self, request: league_pb2.ListLeaguesRequest, _: Principal
    ) -> league_pb2.ListLeaguesResponse:
        rows = await self._leagues.list(request.game, request.limit)
        return league_pb2.ListLeaguesResponse(
            leagues=[
                league_pb2.LeagueSummary(
                    league_id=r.league_id,
                    name=r.name,
                    game=r.game,
                    host=r.host_name,
                    created_at=timestamp(r.created_at_ms),
                )
                for r in rows
            ]
        )

    async def register(
        self, request: league_pb2.RegisterRequest, principal: Principal
    ) -> league_pb2.RegisterResponse:
        state = await self._leagues.register(
            principal, request.league_id, request.account_name, request.partner_name
        )
        return league_pb2.RegisterResponse(league=league_pb(state))

    async def withdraw(
        self, request: league_pb2.WithdrawRequest, principal: Principal
    ) -> league_pb2.WithdrawResponse:
        state = await self._leagues.withdraw(principal, request.league_id, request.account_name)
        return league_pb2.WithdrawResponse(league=league_pb(state))

    async def start_season(
        self, request: league_pb2.StartSeasonRequest, principal: Principal
    ) -> league_pb2.StartSeasonResponse:
        state = await self._leagues.start_season(
            principal,
            request.league_id,
            request.divisions,
            list(request.division_names),
            request.promote,
            request.relegate,
            dict(request.options),
        )
        return league_pb2.StartSeasonResponse(league=league_pb(state))

    async def schedule_round(
        self, request: league_pb2.ScheduleRoundRequest, principal: Principal
    ) -> league_pb2.ScheduleRoundResponse:
        if not request.HasField("starts_at"):
            raise errors.invalid("request.missing", field="starts_at")
        state, scheduled = await self._leagues.schedule_round(
            principal,
            request.league_id,
            request.round,
            request.starts_at.ToMilliseconds(),
            request.playoff,
        )
        return league_pb2.ScheduleRoundResponse(round=round_pb(scheduled), league=league_pb(state))

    async def resume_round(
        self, request: league_pb2.ResumeRoundRequest, principal: Principal
    ) -> league_pb2.ResumeRoundResponse:
        state = await self._leagues.resume_round(principal, request.league_id, request.round)
        return league_pb2.ResumeRoundResponse(league=league_pb(state))

    async def end_season(
        self, request: league_pb2.EndSeasonRequest, principal: Principal
    ) -> league_pb2.EndSeasonResponse:
        state = await self._leagues.end_season(principal, request.league_id)
        pb = league_pb(state)
        return league_pb2.EndSeasonResponse(league=pb, moves=list(pb.seasons[-1].moves))

    async def get_round(
        self, request: league_pb2.GetRoundRequest, _: Principal
    ) -> league_pb2.GetRoundResponse:
        league = await self._leagues.load(request.league_id)
        season = _season(league, request.season)
        if request.round:
            state = season.rounds.get(request.round)
        else:
            state = season.ordered_rounds()[-1] if season.rounds else None
        if state is None:
            raise errors.not_found("league.no_round", round=request.round)
        return league_pb2.GetRoundResponse(
            season=season.number,
            round=round_pb(state),
            tables=_tables_pb(league, state),
            seatings=[
                league_pb2.DivisionSeating(
                    division=d, entrants=list(s.entrants), byes=list(s.byes), cost=s.cost
                )
                for d, s in state.seated.items()
            ],
        )

    async def my_table(
        self, request: league_pb2.GetMyTableRequest, principal: Principal
    ) -> league_pb2.GetMyTableResponse:
        league = await self._leagues.load(request.league_id)
        season = league.season or (league.seasons[-1] if league.seasons else None)
        state = current_round(season)
        me = principal.account_id
        out = league_pb2.GetMyTableResponse(seat=-1, check_in=league_pb2.CHECK_IN_NOT_SEATED)
        entrant = league.entrant_of(me)
        if season is None or state is None:
            return out
        out.season, out.round = season.number, state.round
        out.starts_at.CopyFrom(timestamp(state.starts_at_ms))
        out.division = season.division_of(entrant) or "" if entrant else ""
        if any(entrant in s.byes for s in state.seated.values()):
            out.bye = True
            return out
        found = _find_seat(state, me)
        if found is None:
            if state.opened is None and entrant and not league.is_withdrawn(entrant):
                out.check_in = league_pb2.CHECK_IN_NOT_OPEN
            return out
        out.division, table_index, seat = found
        out.seat = seat
        opened = next(
            (
                t
                for t in (state.opened.tables if state.opened else ())
                if (t.division, t.index) == (out.division, table_index)
            ),
            None,
        )
        if opened is None:
            out.check_in = league_pb2.CHECK_IN_NOT_OPEN
            return out
        out.table_id, out.match_id = opened.table_id, opened.match_id
        if state.started is not None:
            absent = me in state.started.absent
            out.check_in = league_pb2.CHECK_IN_ABSENT if absent else league_pb2.CHECK_IN_PLAYING
            return out
        table = await self._lobby.load(opened.table_id)
        out.check_in = (
            league_pb2.CHECK_IN_DONE if table.seat_of(me) is not None else league_pb2.CHECK_IN_OPEN
        )
        return out


def _season(league: LeagueState, number: int) -> SeasonState:
    season = (
        league.season_of(number) if number else (league.seasons[-1] if league.seasons else None)
    )
    if season is None:
        raise errors.not_found("league.no_season", season=number)
    return season


def _find_seat(state: RoundState, account: str) -> tuple[str, int, int] | None:
    for division, seated in state.seated.items():
        for index, table in enumerate(seated.tables):
            if account in table.seats:
                return division, index, table.seats.index(account)
    return None


def _tables_pb(league: LeagueState, state: RoundState) -> list[league_pb2.LeagueTable]:
    opened = {(t.division, t.index): t for t in (state.opened.tables if state.opened else ())}
    absent = set(state.started.absent) if state.started else set()
    out = []
    for division, seated in state.seated.items():
        for index, table in enumerate(seated.tables):
            made = opened.get((division, index))
            result = state.results.get(made.match_id) if made else None
            out.append(
                league_pb2.LeagueTable(
                    division=division,
                    index=index,
                    table_id=made.table_id if made else "",
                    match_id=made.match_id if made else "",
                    match_seed_commitment=made.seed_commitment if made else "",
                    seats=[
                        league_pb2.LeagueSeat(
                            seat=seat,
                            account_id=account,
                            name=league.name_of(account) if account != BOT else "bot",
                            absent=account in absent,
                        )
                        for seat, account in enumerate(table.seats)
                    ],
                    finished=result is not None,
                    result=[
                        league_pb2.LeagueResultLine(
                            seat=line.seat, score=line.score, rank=line.rank
                        )
                        for line in (result.lines if result else ())
                    ],
                )
            )
    return out


def _caller(handler: Callable[[Any, Principal], Awaitable[Any]]) -> Any:
    async def call(request: Any, context: rpc.Request) -> Any:
        return await handler(request, context.caller())

    return call


def methods(handlers: LeagueRpc) -> dict[str, rpc.Method]:
    table: dict[str, tuple[Any, Any]] = {
        "CreateLeague": (league_pb2.CreateLeagueRequest, handlers.create),
        "GetLeague": (league_pb2.GetLeagueRequest, handlers.get),
        "ListLeagues": (league_pb2.ListLeaguesRequest, handlers.list),
        "Register": (league_pb2.RegisterRequest, handlers.register),
        "Withdraw": (league_pb2.WithdrawRequest, handlers.withdraw),
        "StartSeason": (league_pb2.StartSeasonRequest, handlers.start_season),
        "ScheduleRound": (league_pb2.ScheduleRoundRequest, handlers.schedule_round),
        "ResumeRound": (league_pb2.ResumeRoundRequest, handlers.resume_round),
        "EndSeason": (league_pb2.EndSeasonRequest, handlers.end_season),
        "GetRound": (league_pb2.GetRoundRequest, handlers.get_round),
        "GetMyTable": (league_pb2.GetMyTableRequest, handlers.my_table),
    }
    return {name: rpc.Method(kind, _caller(handler)) for name, (kind, handler) in table.items()}
