"""Helpers of the referee's tests: a referee caller and matches played to their end."""

from __future__ import annotations

import hashlib
import itertools
import random
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from services.engine.app import Engine, Ports
from support.engine import SPECTATOR_CALLER, EngineFixture, FixedClock, account, player, token
from tavola.accounts.model import KIND_SCOPES, Kind, Principal
from tavola.eventlog.postgres import PostgresEventStore
from tavola.v1 import game_pb2, internal_pb2

REFEREE = Principal(
    "00000000-0000-4000-8000-00000000ref0",
    "ref",
    Kind.REFEREE,
    KIND_SCOPES[Kind.REFEREE],
    "tr",
)


async def play_out(fx: EngineFixture, match_id: str) -> None:
    """Each seat on turn plays its first legal action until the end (a pause between
    games is waited out)."""
    for _ in range(20_000):
        spectator = await fx.view(match_id, -1)
        if spectator.finished:
            return
        if not spectator.to_act:
            fx.now.ms += 60_000
            await fx.engine.fire_due()
            continue
        seat = spectator.to_act[0]
        await fx.act(match_id, seat, (await fx.view(match_id, seat)).legal_actions[0].code)
    raise AssertionError("the match did not end")


class _Seeds:
    async def seed(self, match_id: str) -> bytes:
        return match_id.encode().ljust(32, b"-")[:32]


async def postgres_engine(
    pool: Any, first_id: int, now_ms: Callable[[], int] = lambda: 0
) -> tuple[Engine, PostgresEventStore]:
    """An engine on the real event log (event ids counted from ``first_id``; its clock
    ``now_ms``)."""
    from services.scoring.app import ensure_schema

    await ensure_schema(pool)
    store = PostgresEventStore(pool, clock=FixedClock())
    ids = itertools.count(first_id)
    engine = Engine(
        Ports(
            store=store,
            seeds=_Seeds(),
            new_id=lambda: uuid.UUID(int=next(ids)),
            salt=lambda n: bytes(n),
            now_ms=now_ms,
        )
    )
    return engine, store


async def play_people(
    engine: Engine,
    match_id: str,
    names: list[str],
    game: str = "fan-tan",
    options: dict[str, str] | None = None,
    idle: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """A match of people (accounts ``account(i)``), each playing a random legal action;
    ``idle`` is awaited whenever nobody is to act (a pause between games to wait out)."""
    seats = [
        internal_pb2.MatchSeat(
            seat=i,
            player_name=n,
            token_sha256=hashlib.sha256(token(i).encode()).hexdigest(),
            account_id=account(i),
        )
        for i, n in enumerate(names)
    ]
    await engine.create_match(
        internal_pb2.CreateMatchRequest(
            match_id=match_id, table_id="t", game=game, seats=seats, options=options or {}
        )
    )
    rng = random.Random(match_id)
    for n in range(10_000):
        view = await engine.view(
            game_pb2.GetViewRequest(match_id=match_id, seat=-1), SPECTATOR_CALLER
        )
        if view.finished:
            return
        if not view.to_act and idle is not None:
            await idle()
            continue
        seat = view.to_act[0]
        mine = await engine.view(
            game_pb2.GetViewRequest(match_id=match_id, seat=seat, seat_token=token(seat)),
            player(seat),
        )
        await engine.submit(
            game_pb2.SubmitActionRequest(
                match_id=match_id,
                seat=seat,
                seat_token=token(seat),
                command_id=f"{match_id}-{n}",
                action=rng.choice(mine.legal_actions).code,
            ),
            player(seat),
        )
    raise AssertionError(f"{match_id} did not finish")
