"""Tables the bench keeps busy: played by the platform's bots, or by gRPC clients (one
account per seat), every game in turn, each table starting a new match when one ends.

A point runs ``tables`` such tables at once; the caller opens a fixed window once they are
all playing, and closes it; then no new match starts and the running ones finish
(``drain``), so a point leaves nothing behind for the next.
"""

from __future__ import annotations

import asyncio
import functools
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc

from tavola.match.events import option_texts
from tavola.rules import registry
from tavola.v1 import (
    account_pb2,
    account_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
)


def _seats(name: str) -> int:
    info = registry.get(name).info
    return min(max(4, info.min_players), info.max_players)


# Every game (four seats where it can), with the options of its shortest match
# (``GameInfo.short``) so tables turn over within a point.
GAMES: tuple[tuple[str, int, dict[str, str]], ...] = tuple(
    (name, _seats(name), option_texts(registry.get(name).info.short)) for name in registry.names()
)
# Doppelkopf pauses 20 s between games at tables with people (its rule book's time to
# see the result): the client tables play the other four.
CLIENT_GAMES = tuple(g for g in GAMES if g[0] != "doppelkopf")


class Api:
    """The public API over one channel, as one account (its bearer token)."""

    def __init__(self, channel: grpc.aio.Channel, token: str) -> None:
        self.metadata = (("authorization", f"Bearer {token}"),)
        self.game = game_pb2_grpc.GameServiceStub(channel)
        self.lobby = lobby_pb2_grpc.LobbyServiceStub(channel)
        self.accounts = account_pb2_grpc.AccountServiceStub(channel)

    async def call(self, method: Any, request: Any, timeout: float = 30.0) -> Any:
        return await method(request, metadata=self.metadata, timeout=timeout)


async def new_accounts(admin: Api, prefix: str, count: int) -> list[str]:
    """``count`` player accounts made by the admin through AccountService; their tokens."""
    tokens = []
    for n in range(count):
        made = await admin.call(
            admin.accounts.CreateAccount,
            account_pb2.CreateAccountRequest(
                name=f"{prefix}{n}", kind=account_pb2.ACCOUNT_KIND_PLAYER
            ),
        )
        tokens.append(made.token)
    return tokens


@dataclass
class Point:
    """What the tables of one point did; ``window`` is set by the caller while it is open."""

    window: bool = False
    stopping: bool = False
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    # streams: from a move's SubmitAction to the view after it on the mover's own stream
    seen: list[float] = field(default_factory=list)
    messages: int = 0  # stream messages received while the window was open
    # CPU seconds a move of each engine process ("engine", "engine-1"), once measured
    engine_cpu: dict[str, float] = field(default_factory=dict)
    matches_started: int = 0
    matches_finished: int = 0
    errors: list[str] = field(default_factory=list)
    match_ids: list[str] = field(default_factory=list)


async def start_bot_match(admin: Api, game: str, players: int, options: dict[str, str]) -> str:
    return (await _start_bot_table(admin, game, players, options))[1]


async def _start_bot_table(
    admin: Api, game: str, players: int, options: dict[str, str]
) -> tuple[str, str]:
    """A new table of easy bots, its match started: (table id, match id)."""
    table = (
        await admin.call(
            admin.lobby.CreateTable,
            lobby_pb2.CreateTableRequest(game=game, players=players, options=options),
        )
    ).table
    await admin.call(
        admin.lobby.FillWithBots,
        lobby_pb2.FillWithBotsRequest(table_id=table.table_id, level="easy", think_ms=10),
    )
    started = await admin.call(
        admin.lobby.StartMatch, lobby_pb2.StartMatchRequest(table_id=table.table_id)
    )
    return table.table_id, str(started.match_id)


class Finishes:
    """Which of the admin's tables have finished, for every bot table of a point at once:
    one ``ListTables`` (the host's open and playing tables) every ``poll`` seconds, as a
    league's dashboard would watch them, rather than one ``GetMatch`` per table — the
    bench's watching is not a move's cost, and 64 tables polled one by one cost the
    engine about a fifth of its CPU. A table that has left the list is confirmed with
    one ``GetMatch`` (the lobby follows the match's end from the bus)."""

    def __init__(self, admin: Api, poll: float = 0.05) -> None:
        self._admin = admin
        self._poll = poll
        self._waiting: dict[str, tuple[str, asyncio.Future[None]]] = {}
        self._task: asyncio.Task[None] | None = None

    async def wait(self, table_id: str, match_id: str) -> None:
        done = asyncio.get_running_loop().create_future()
        self._waiting[table_id] = (match_id, done)
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._watch())
        try:
            await done
        finally:
            self._waiting.pop(table_id, None)

    async def _watch(self) -> None:
        try:
            while self._waiting:
                await asyncio.sleep(self._poll)
                listed = await self._admin.call(
                    self._admin.lobby.ListTables,
                    lobby_pb2.ListTablesRequest(mine=True, limit=200),
                )
                live = {t.table_id for t in listed.tables}
                for table_id, (match_id, done) in list(self._waiting.items()):
                    if table_id in live or done.done():
                        continue
                    summary = await self._admin.call(
                        self._admin.game.GetMatch, game_pb2.GetMatchRequest(match_id=match_id)
                    )
                    if summary.finished:
                        done.set_result(None)
        except BaseException as error:  # every table waiting hears of it
            for _, done in self._waiting.values():
                if not done.done():
                    done.set_exception(error if isinstance(error, Exception) else RuntimeError())
            if not isinstance(error, Exception):
                raise


async def bot_table(admin: Api, index: int, point: Point, finishes: Finishes) -> None:
    """One table of the platform's easy bots: a match, then another, until stopped."""
    rotation = index
    while not point.stopping:
        game, players, options = GAMES[rotation % len(GAMES)]
        rotation += 1
        table_id, match_id = await _start_bot_table(admin, game, players, options)
        point.matches_started += 1
        point.match_ids.append(match_id)
        await finishes.wait(table_id, match_id)
        point.matches_finished += 1


async def client_table(
    admin: Api,
    seats: Sequence[Api],
    index: int,
    point: Point,
    seed: int = 0,
    *,
    streaming: bool = False,
    pace: float = 0.0,
) -> None:
    """One table whose every seat is its own account's gRPC client, playing random legal
    actions (SubmitAction timed). Polling (``streaming`` off): each move the seat on turn
    asks the spectator's view and then its own, three calls a move. Streaming: every seat
    follows ``StreamEvents`` with its views pushed (``packed``: one message an append) and
    acts on them, one call a move —
    at once, or ``pace`` seconds after its view came (a player's pace, not the most the
    engine can take: its latency then is service time, not a queue's)."""
    play = functools.partial(_play_streaming, pace=pace) if streaming else _play
    rng = random.Random(seed * 1000 + index)
    rotation = index
    while not point.stopping:
        game, players, options = CLIENT_GAMES[rotation % len(CLIENT_GAMES)]
        rotation += 1
        table = (
            await admin.call(
                admin.lobby.CreateTable,
                lobby_pb2.CreateTableRequest(game=game, players=players, options=options),
            )
        ).table
        tokens = []
        for seat in range(players):
            sat = await seats[seat].call(
                seats[seat].lobby.SitDown,
                lobby_pb2.SitDownRequest(table_id=table.table_id, seat=seat),
            )
            tokens.append(sat.seat_token)
        match_id = (
            await admin.call(
                admin.lobby.StartMatch, lobby_pb2.StartMatchRequest(table_id=table.table_id)
            )
        ).match_id
        point.matches_started += 1
        point.match_ids.append(match_id)
        await play(seats, tokens, match_id, point, rng)
        point.matches_finished += 1


async def _play(
    seats: Sequence[Api], tokens: list[str], match_id: str, point: Point, rng: random.Random
) -> None:
    seat = 0
    moves = 0
    while True:
        api = seats[seat]
        spectator = await api.call(
            api.game.GetView, game_pb2.GetViewRequest(match_id=match_id, seat=-1)
        )
        if spectator.finished:
            return
        if not spectator.to_act:
            await asyncio.sleep(0.05)  # a pause the game asked for
            continue
        seat = spectator.to_act[0]
        api = seats[seat]
        view = await api.call(
            api.game.GetView,
            game_pb2.GetViewRequest(match_id=match_id, seat=seat, seat_token=tokens[seat]),
        )
        if not view.legal_actions:
            await asyncio.sleep(0.01)
            continue
        request = game_pb2.SubmitActionRequest(
            match_id=match_id,
            seat=seat,
            seat_token=tokens[seat],
            command_id=f"{match_id}:{moves}",
            expected_version=view.version,
            action=view.legal_actions[rng.randrange(len(view.legal_actions))].code,
        )
        if await _submit(api, request, point):
            moves += 1
        # else a timer moved first: look again


async def _play_streaming(
    seats: Sequence[Api],
    tokens: list[str],
    match_id: str,
    point: Point,
    rng: random.Random,
    pace: float = 0.0,
) -> None:
    """Every seat follows its stream with views, each append's events and view in one
    response (``StreamEvents`` ``views``, ``packed``), until the match ends, and submits a
    random legal action whenever its pushed view says it is to act (``pace`` seconds after
    it came); the time from each move's SubmitAction to the view
    after it on the mover's stream is kept too (``Point.seen``)."""

    async def follow(seat: int) -> None:
        api = seats[seat]
        request = game_pb2.StreamEventsRequest(
            match_id=match_id,
            seat=seat,
            seat_token=tokens[seat],
            until_end=True,
            views=True,
            packed=True,
        )
        moves = 0
        waiting: tuple[float, int] | None = None  # a move's start, and the version it made
        async for response in api.game.StreamEvents(request, metadata=api.metadata):
            if point.window:
                point.messages += 1
            if not response.HasField("view"):
                continue
            view = response.view
            if waiting is not None and view.version >= waiting[1]:
                if point.window:
                    point.seen.append(time.perf_counter() - waiting[0])
                waiting = None
            if view.finished or seat not in view.to_act or not view.legal_actions:
                continue
            if pace:
                await asyncio.sleep(pace)
            move = game_pb2.SubmitActionRequest(
                match_id=match_id,
                seat=seat,
                seat_token=tokens[seat],
                command_id=f"{match_id}:{seat}:{moves}",
                expected_version=view.version,
                action=view.legal_actions[rng.randrange(len(view.legal_actions))].code,
            )
            moves += 1  # a refused id is not used again either
            started = time.perf_counter()
            made = await _submit(api, move, point)  # refused: the view after the timer's move
            if made:
                waiting = (started, made)

    await asyncio.gather(*(follow(seat) for seat in range(len(tokens))))


async def _submit(api: Api, request: game_pb2.SubmitActionRequest, point: Point) -> int:
    """Submit a move, timed while the window is open: the match's version after it, or 0
    if a timer moved first (ABORTED: the version moved on)."""
    started = time.perf_counter()
    try:
        answer = await api.call(api.game.SubmitAction, request)
    except grpc.aio.AioRpcError as error:
        if error.code() != grpc.StatusCode.ABORTED:
            raise
        return 0
    if point.window:
        point.latencies.append(time.perf_counter() - started)
        point.moves += 1
    return int(answer.version) or 1


async def drain(tasks: list[asyncio.Task[None]], point: Point, timeout: float) -> None:
    """No new match; wait for the running ones (cancelled after ``timeout``)."""
    point.stopping = True
    done, pending = await asyncio.wait(tasks, timeout=timeout)
    for task in pending:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for task in done:
        if not task.cancelled() and task.exception() is not None:
            point.errors.append(repr(task.exception()))
    if pending:
        point.errors.append(f"{len(pending)} tables still playing after {timeout:.0f} s")
