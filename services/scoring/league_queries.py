"""LeagueService's reads, answered by the scoring service from its projections:
standings, a season's export, statistics, match histories and rating histories."""

from __future__ import annotations

import json
from typing import Any

import asyncpg

from services.scoring.ratings import check_game
from tavola.accounts.model import NameClaimed, name_stream
from tavola.bus import rpc
from tavola.eventlog.model import EventStore
from tavola.leagues.export import ExportRow, to_csv, to_json
from tavola.leagues.rating import PROVISIONAL_SIGMA
from tavola.protocol import errors
from tavola.protocol import events as codec
from tavola.v1 import league_pb2

MAX_HISTORY = 200


class LeagueQueries:
    def __init__(self, pool: asyncpg.Pool, store: EventStore) -> None:
        self._pool = pool
        self._store = store

    async def _season(self, league_id: str, season: int) -> Any:
        if not league_id:
            raise errors.invalid("request.missing", field="league_id")
        row = await self._pool.fetchrow(
            "SELECT * FROM league_seasons WHERE league_id = $1 AND ($2 = 0 OR season = $2)"
            " ORDER BY season DESC LIMIT 1",
            league_id,
            season,
        )
        if row is None:
            raise errors.not_found("league.no_season", season=season)
        return row

    async def standings(
        self, request: league_pb2.GetStandingsRequest
    ) -> league_pb2.GetStandingsResponse:
        season = await self._season(request.league_id, request.season)
        division = request.division or (season["divisions"][0] if season["divisions"] else "")
        if division not in season["divisions"]:
            raise errors.not_found("league.no_division", division=division)
        rows = await self._rows(request.league_id, season["season"], request.after_round, division)
        open_rounds = set(season["open_rounds"])
        provisional = bool(
            open_rounds
            and (request.after_round == 0 or any(r <= request.after_round for r in open_rounds))
        )
        return league_pb2.GetStandingsResponse(
            season=season["season"],
            division=division,
            after_round=request.after_round,
            tie_breaks=list(season["tie_breaks"]),
            lines=[_line(r) for r in rows],
            provisional=provisional,
        )

    async def _rows(self, league_id: str, season: int, after: int, division: str = "") -> list[Any]:
        rows: list[Any] = await self._pool.fetch(
            "SELECT * FROM league_standings WHERE league_id = $1 AND season = $2"
            " AND after_round = $3 AND ($4 = '' OR division = $4) ORDER BY division, rank",
            league_id,
            season,
            after,
            division,
        )
        return rows

    async def export(
        self, request: league_pb2.ExportSeasonRequest
    ) -> league_pb2.ExportSeasonResponse:
        season = await self._season(request.league_id, request.season)
        order = {name: i for i, name in enumerate(season["divisions"])}
        rows = sorted(
            await self._rows(request.league_id, season["season"], 0),
            key=lambda r: (order.get(r["division"], 99), r["rank"]),
        )
        moves = {m["entrant"]: m for m in json.loads(season["moves"])}
        exported = [
            ExportRow(
                division=r["division"],
                rank=r["rank"],
                entrant=r["entrant"],
                name=r["name"],
                points=round(r["points"], 6),
                columns=tuple((n, round(v, 6)) for n, v in json.loads(r["columns"])),
                played=r["played"],
                byes=r["byes"],
                absences=r["absences"],
                withdrawn=r["withdrawn"],
                rounds=tuple(r["rounds"]),
                move=_move(moves.get(r["entrant"]), order),
            )
            for r in rows
        ]
        base = f"{request.league_id[:8]}-season-{season['season']}"
        if request.format == league_pb2.EXPORT_FORMAT_JSON:
            content = to_json(
                {
                    "league_id": request.league_id,
                    "league": season["name"],
                    "game": season["game"],
                    "season": season["season"],
                    "ended": season["ended"],
                    "options": json.loads(season["options"]),
                    "divisions": list(season["divisions"]),
                    "tie_breaks": list(season["tie_breaks"]),
                },
                exported,
            )
            name = f"{base}.json"
        else:
            content, name = to_csv(exported), f"{base}.csv"
        return league_pb2.ExportSeasonResponse(
            content=content, file_name=name, provisional=not season["ended"]
        )

    async def _account_of(self, name: str) -> str:
        stored = await self._store.read_stream(name_stream(name), limit=1) if name else []
        if not stored:
            raise errors.not_found("account.not_found", name=name)
        claim = codec.decode_payload("", stored[0].type, stored[0].payload)
        if not isinstance(claim, NameClaimed):
            raise errors.not_found("account.not_found", name=name)
        return claim.account_id

    async def statistics(
        self, request: league_pb2.GetStatisticsRequest
    ) -> league_pb2.GetStatisticsResponse:
        check_game(request.game, required=True)
        account = await self._account_of(request.player_name)
        summary: Any = await self._pool.fetchrow(
            "SELECT count(*) AS matches, count(*) FILTER (WHERE rank = 1) AS wins,"
            " coalesce(avg(score), 0) AS average FROM player_matches"
            " WHERE account_id = $1 AND game = $2",
            account,
            request.game,
        )
        places = await self._pool.fetch(
            "SELECT rank, count(*) AS n FROM player_matches WHERE account_id = $1 AND game = $2"
            " GROUP BY rank ORDER BY rank",
            account,
            request.game,
        )
        counters = await self._pool.fetch(
            "SELECT key, sum(value) AS value FROM player_match_counters"
            " WHERE account_id = $1 AND game = $2 GROUP BY key ORDER BY key",
            account,
            request.game,
        )
        by_rank = {r["rank"]: r["n"] for r in places}
        return league_pb2.GetStatisticsResponse(
            player_name=request.player_name,
            account_id=account,
            game=request.game,
            matches=summary["matches"],
            wins=summary["wins"],
            places=[by_rank.get(rank, 0) for rank in range(1, max(by_rank, default=0) + 1)],
            average_score=float(summary["average"]),
            counters=[
                league_pb2.StatisticCounter(key=r["key"], value=int(r["value"])) for r in counters
            ],
        )

    async def history(
        self, request: league_pb2.GetMatchHistoryRequest
    ) -> league_pb2.GetMatchHistoryResponse:
        check_game(request.game)
        if not 0 <= request.limit <= MAX_HISTORY:
            raise errors.invalid("request.invalid", field="limit", detail=f"0 to {MAX_HISTORY}")
        account = await self._account_of(request.player_name)
        rows = await self._pool.fetch(
            "SELECT * FROM player_matches WHERE account_id = $1 AND ($2 = '' OR game = $2)"
            " ORDER BY ended_at DESC, match_id LIMIT $3",
            account,
            request.game,
            request.limit or 50,
        )
        out = league_pb2.GetMatchHistoryResponse()
        for r in rows:
            entry = out.matches.add(
                match_id=r["match_id"],
                game=r["game"],
                seat=r["seat"],
                score=r["score"],
                rank=r["rank"],
                players=r["players"],
            )
            entry.ended_at.FromDatetime(r["ended_at"])
        return out

    async def rating_history(
        self, request: league_pb2.GetRatingHistoryRequest
    ) -> league_pb2.GetRatingHistoryResponse:
        check_game(request.game, required=True)
        account = await self._account_of(request.player_name)
        rows = await self._pool.fetch(
            "SELECT * FROM rating_history WHERE player = $1 AND game = $2"
            " ORDER BY recorded_at, match_id, game_no",
            account,
            request.game,
        )
        return league_pb2.GetRatingHistoryResponse(
            account_id=account,
            points=[
                league_pb2.RatingPoint(
                    match_id=r["match_id"],
                    game_no=r["game_no"],
                    mu=r["mu"],
                    sigma=r["sigma"],
                    ordinal=r["mu"] - 3 * r["sigma"],
                    provisional=r["sigma"] > PROVISIONAL_SIGMA,
                )
                for r in rows
            ],
        )


def _line(row: Any) -> league_pb2.StandingLine:
    return league_pb2.StandingLine(
        rank=row["rank"],
        entrant=row["entrant"],
        name=row["name"],
        points=row["points"],
        columns=[league_pb2.StandingColumn(name=n, value=v) for n, v in json.loads(row["columns"])],
        played=row["played"],
        byes=row["byes"],
        absences=row["absences"],
        withdrawn=row["withdrawn"],
        rounds=list(row["rounds"]),
    )


def _move(move: Any, order: dict[str, int]) -> str:
    if move is None:
        return ""
    return "up" if order.get(move["to"], 0) < order.get(move["from"], 0) else "down"


def methods(queries: LeagueQueries) -> dict[str, rpc.Method]:
    def plain(handler: Any) -> Any:
        async def call(request: Any, _: rpc.Request) -> Any:
            return await handler(request)

        return call

    return {
        "GetStandings": rpc.Method(league_pb2.GetStandingsRequest, plain(queries.standings)),
        "ExportSeason": rpc.Method(league_pb2.ExportSeasonRequest, plain(queries.export)),
        "GetStatistics": rpc.Method(league_pb2.GetStatisticsRequest, plain(queries.statistics)),
        "GetMatchHistory": rpc.Method(league_pb2.GetMatchHistoryRequest, plain(queries.history)),
        "GetRatingHistory": rpc.Method(
            league_pb2.GetRatingHistoryRequest, plain(queries.rating_history)
        ),
    }
