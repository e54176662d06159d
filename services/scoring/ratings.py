"""Ratings: OpenSkill (Plackett-Luce) per account and per game, with their history.

A projection of the log in the log's global order (so rebuilding gives the very same
ratings): for each ``match.MatchEnded`` it rates what ``tavola.leagues.rating`` says — the
table's result (partnerships as teams) or, in Doppelkopf, each scored game, Re against
Kontra, with beta x3 and tau /10 — and records every update in ``rating_history``; it
learns which matches are league matches from ``league.RoundOpened`` (a league match's
platform-bot seats are left out, the others rated; a casual match with any platform bot is
not rated). Sigma never grows (``limit_sigma``) so the ladder's order is stable; a rating
is provisional while sigma is above ``PROVISIONAL_SIGMA``.

A referee's correction of a match (``match.Correction``) re-rates its game from the
game's first rated match on, in the log's order (``rating_matches``), each match counted
with the corrections in the log at that correction (``services.scoring.corrected``): a
voided match rates nothing, a voided hand or an adjusted score rates the corrected
result. Ratings depend on the order of matches, so nothing less would give a rebuild's
values.

What a match's end rates is read from the log in the projection's transaction, only the
events it looks at (``READ``: the match's start and end, its corrections and, in
Doppelkopf, each game's start and score — a few dozen of a long match's thousand events).
All the updates of a match (Doppelkopf: one per game) are worked out in memory from the
players' ratings loaded once (locked) and written once: the very values one update after
another would write.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

import asyncpg
import structlog
from openskill.models import PlackettLuce

from services.scoring.corrected import counted
from services.scoring.projection import Projection
from tavola.eventlog.model import Cursor, StoredEvent
from tavola.games.doppelkopf import events as doppelkopf
from tavola.leagues import codec as league_codec
from tavola.leagues.events import RoundOpened
from tavola.leagues.rating import PROVISIONAL_SIGMA, RatedGame, model_parameters, rated_games
from tavola.leagues.rating import seat_key as seat_key  # re-exported for older callers
from tavola.match.events import MatchCreated
from tavola.protocol import errors
from tavola.protocol import events as codec
from tavola.rules import registry
from tavola.rules.interface import Event
from tavola.v1 import scoring_pb2

log = structlog.get_logger(__name__)
NAME = "ratings"
LOCK = 0x7A71_0001  # advisory lock key of the ratings projection (rebuild vs live)
ENDED = "match.MatchEnded"
OPENED = "league.RoundOpened"
CORRECTION = "match.Correction"
CREATED = "match.MatchCreated"
# what a Doppelkopf match's ratings read of its games (``tavola.leagues.rating``)
RATED_TYPES = frozenset(
    f"doppelkopf.{c.__name__}" for c in (doppelkopf.GameStarted, doppelkopf.GameScored)
)
READ = sorted({CREATED, ENDED, CORRECTION, *RATED_TYPES})
_READ_PLAYED = (
    "SELECT tx, position, version, type, payload, recorded_at FROM events"
    " WHERE stream_id = $1 AND type = ANY($2::text[]) ORDER BY version"
)


@cache
def model(game: str) -> PlackettLuce:
    return PlackettLuce(**model_parameters(game), limit_sigma=True)


class RatingsProjection(Projection):
    NAME = NAME
    LOCK = LOCK

    READS = frozenset({ENDED, OPENED, CORRECTION})

    async def reset(self, conn: Any) -> None:
        await conn.execute(
            "TRUNCATE ratings, rating_history, rating_league_matches, rating_matches"
        )

    async def apply(self, conn: Any, event: StoredEvent) -> None:
        if event.type == OPENED:
            opened = league_codec.decode(event.type, event.payload)
            assert isinstance(opened, RoundOpened)
            await conn.executemany(
                "INSERT INTO rating_league_matches (match_id) VALUES ($1) ON CONFLICT DO NOTHING",
                [(t.match_id,) for t in opened.tables],
            )
            return
        if event.type == CORRECTION:
            await self._rerate(conn, event)
            return
        await self._rate(conn, event)

    async def _rerate(self, conn: Any, correction: StoredEvent) -> None:
        """Rate the corrected match's game again from its first rated match, each match
        as counted once the log reached this correction."""
        match = await counted(self._store, correction.stream_id, correction.cursor)
        game = match.created.game
        await conn.execute("DELETE FROM ratings WHERE game = $1", game)
        await conn.execute("DELETE FROM rating_history WHERE game = $1", game)
        rows = await conn.fetch(
            "SELECT stream_id FROM rating_matches WHERE game = $1 ORDER BY tx, position", game
        )
        for row in rows:
            played = await _played(conn, row["stream_id"])
            first = played.first_correction
            if first is None or first > correction.cursor:  # as played, then
                await self._rate_events(conn, played.created, played.events, played.ended_at)
                continue
            again = await counted(self._store, row["stream_id"], correction.cursor)
            if again.result is None or again.result.voided or again.ended is None:
                continue
            events = again.events()
            await self._rate_events(conn, again.created, events, again.ended.recorded_at)
        log.info("ratings.corrected", match_id=match.created.match_id, game=game)

    async def _rate(self, conn: Any, event: StoredEvent) -> None:
        played = await _played(conn, event.stream_id)  # its corrections: none yet, live
        created = played.created
        await conn.execute(
            "INSERT INTO rating_matches VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING",
            created.game,
            created.match_id,
            event.stream_id,
            event.cursor.tx,
            event.cursor.position,
        )
        await self._rate_events(conn, created, played.events, event.recorded_at)

    async def _rate_events(
        self, conn: Any, created: MatchCreated, events: list[Event], ended_at: datetime
    ) -> None:
        league = bool(
            await conn.fetchval(
                "SELECT true FROM rating_league_matches WHERE match_id = $1", created.match_id
            )
        )
        games = rated_games(created, events, league)
        if not games:
            return
        game = created.game
        names = {seat_key(s): s.player_name for s in created.seats}
        keys = sorted({key for rated in games for team in rated.teams for key in team})
        current = await _load(conn, game, keys)  # locked once; each game's update in turn
        history = [
            (key, game, created.match_id, rated.game_no, r.mu, r.sigma, ended_at)
            for rated in games
            for key, r in _update(game, rated, current)
        ]
        await conn.executemany(  # `matches` counts a match once (Doppelkopf: many games)
            "INSERT INTO ratings (player, game, mu, sigma, matches, name)"
            " VALUES ($1,$2,$3,$4,1,$5)"
            " ON CONFLICT (player, game) DO UPDATE SET mu = excluded.mu,"
            " sigma = excluded.sigma, matches = ratings.matches + 1, name = excluded.name",
            [(key, game, current[key].mu, current[key].sigma, names[key]) for key in keys],
        )
        await conn.executemany(
            "INSERT INTO rating_history (player, game, match_id, game_no, mu, sigma, recorded_at)"
            " VALUES ($1,$2,$3,$4,$5,$6,$7) ON CONFLICT DO NOTHING",
            history,
        )
        log.info("ratings.updated", match_id=created.match_id, game=game)


def _update(game: str, rated: RatedGame, current: dict[str, Any]) -> list[tuple[str, Any]]:
    """One game's update of ``current`` (in place); its new ratings by key, sorted."""
    teams = [[current[key] for key in team] for team in rated.teams]
    new = model(game).rate(teams, ranks=list(rated.ranks))
    updates = {
        key: rating
        for team, ratings in zip(rated.teams, new, strict=True)
        for key, rating in zip(team, ratings, strict=True)
    }
    current.update(updates)
    return sorted(updates.items())


@dataclass(frozen=True, slots=True)
class Played:
    """A finished match as played, as its ratings read it: its start, the events
    ``rated_games`` looks at (Doppelkopf: each game's start and score; else the end), when
    it ended, and where in the log its first correction is (None: none)."""

    created: MatchCreated
    events: list[Event]
    ended_at: datetime
    first_correction: Cursor | None


async def _played(conn: Any, stream_id: str) -> Played:
    rows = await conn.fetch(_READ_PLAYED, stream_id, READ)
    created = codec.decode_payload("", rows[0]["type"], rows[0]["payload"])
    assert isinstance(created, MatchCreated)
    ended = next(r for r in rows if r["type"] == ENDED)
    corrections = [Cursor(r["tx"], r["position"]) for r in rows if r["type"] == CORRECTION]
    wanted = RATED_TYPES if created.game == "doppelkopf" else frozenset({ENDED})
    events: list[Event] = [created]
    events += [
        codec.decode_payload(created.game, r["type"], r["payload"])
        for r in rows
        if r["type"] in wanted and r["version"] <= ended["version"]
    ]
    return Played(created, events, ended["recorded_at"], min(corrections, default=None))


async def _load(conn: Any, game: str, keys: Sequence[str]) -> dict[str, Any]:
    rows = await conn.fetch(
        "SELECT player, mu, sigma FROM ratings WHERE game = $1 AND player = ANY($2::text[])"
        " ORDER BY player FOR UPDATE",
        game,
        list(set(keys)),
    )
    found = {
        r["player"]: model(game).rating(mu=r["mu"], sigma=r["sigma"], name=r["player"])
        for r in rows
    }
    return {key: found.get(key) or model(game).rating(name=key) for key in keys}


MAX_LADDER = 500


def check_game(game: str, required: bool = False) -> None:
    """A game named in a request must be one the platform hosts."""
    if not game and not required:
        return
    if game not in registry.names():
        raise errors.invalid("game.unknown", game=game)


def rating_pb(row: Any) -> scoring_pb2.Rating:
    key = row["player"]
    return scoring_pb2.Rating(
        player=row["name"] or key.removeprefix("name:"),
        account_id="" if key.startswith("name:") else key,
        mu=row["mu"],
        sigma=row["sigma"],
        ordinal=row["mu"] - 3 * row["sigma"],
        matches=row["matches"],
        provisional=row["sigma"] > PROVISIONAL_SIGMA,
    )


async def ladder(
    pool: asyncpg.Pool, request: scoring_pb2.GetRatingsRequest
) -> scoring_pb2.GetRatingsResponse:
    check_game(request.game, required=True)
    if not 0 <= request.limit <= MAX_LADDER:
        raise errors.invalid("request.invalid", field="limit", detail=f"0 to {MAX_LADDER}")
    rows = await pool.fetch(
        "SELECT * FROM ratings WHERE game = $1 ORDER BY mu - 3 * sigma DESC, player LIMIT $2",
        request.game,
        request.limit or 50,
    )
    return scoring_pb2.GetRatingsResponse(game=request.game, ratings=[rating_pb(r) for r in rows])
