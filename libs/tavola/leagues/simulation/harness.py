"""Accounts, a league, its rounds and every seat played through the public API."""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from tavola.accounts.model import Kind
from tavola.v1 import (
    account_pb2,
    account_pb2_grpc,
    audit_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    league_pb2,
    league_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
)

RETRYABLE = (grpc.StatusCode.UNAVAILABLE, grpc.StatusCode.RESOURCE_EXHAUSTED)
POLL_S = 0.5


@dataclass
class Player:
    name: str
    token: str
    account_id: str


@dataclass
class Stubs:
    league: Any
    lobby: Any
    game: Any
    accounts: Any
    metadata: tuple[tuple[str, str], ...]


@dataclass
class RoundFigures:
    number: int
    tables: int = 0
    moves: int = 0
    checked_in: int = 0
    absent: int = 0
    seconds: float = 0.0
    match_ids: list[str] = field(default_factory=list)


class Harness:
    """One gRPC channel; each player's calls carry its own token."""

    def __init__(self, address: str, admin_token: str, seed: int = 1) -> None:
        self._channel = grpc.aio.insecure_channel(
            address, options=[("grpc.max_concurrent_streams", 1000)]
        )
        self._admin = admin_token
        self._rng = random.Random(seed)
        self.league = league_pb2_grpc.LeagueServiceStub(self._channel)
        self.lobby = lobby_pb2_grpc.LobbyServiceStub(self._channel)
        self.game = game_pb2_grpc.GameServiceStub(self._channel)
        self.accounts = account_pb2_grpc.AccountServiceStub(self._channel)
        self.audit = audit_pb2_grpc.AuditServiceStub(self._channel)  # a referee's desk

    async def close(self) -> None:
        await self._channel.close()

    @staticmethod
    def auth(token: str) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {token}"),)

    async def call(self, method: Any, request: Any, token: str, timeout: float = 30.0) -> Any:
        """A unary call as ``token``, retried while the platform says "later" (bounded)."""
        for attempt in range(20):
            try:
                return await method(request, metadata=self.auth(token), timeout=timeout)
            except grpc.aio.AioRpcError as error:
                if error.code() not in RETRYABLE or attempt == 19:
                    raise
                await asyncio.sleep(0.2 * (attempt + 1))
        raise AssertionError("unreachable")

    # ----- accounts and the league -----------------------------------------------------
    async def make_accounts(self, count: int, prefix: str, kind: Kind = Kind.BOT) -> list[Player]:
        tag = secrets.token_hex(2)

        async def one(i: int) -> Player:
            made = await self.call(
                self.accounts.CreateAccount,
                account_pb2.CreateAccountRequest(name=f"{prefix}{tag}-{i:03d}", kind=int(kind)),  # type: ignore[arg-type]
                self._admin,
            )
            return Player(made.account.name, made.token, made.account.account_id)

        out: list[Player] = []
        for start in range(0, count, 20):
            out += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 20))))
        return out

    async def create_league(
        self,
        host: Player,
        game: str,
        options: dict[str, str],
        fmt: league_pb2.LeagueFormat,
        name: str = "",
    ) -> league_pb2.League:
        made = await self.call(
            self.league.CreateLeague,
            league_pb2.CreateLeagueRequest(
                name=name or f"{game} league", game=game, options=options, format=fmt
            ),
            host.token,
        )
        league: league_pb2.League = made.league
        return league

    async def register(self, league_id: str, players: Sequence[Player], teams: bool) -> None:
        """Each player registers itself (pairs 2i and 2i+1 name each other)."""

        async def one(i: int, player: Player) -> None:
            partner = ""
            if teams:
                partner = players[i + 1 if i % 2 == 0 else i - 1].name
            await self.call(
                self.league.Register,
                league_pb2.RegisterRequest(league_id=league_id, partner_name=partner),
                player.token,
            )

        for start in range(0, len(players), 10):
            chunk = list(enumerate(players))[start : start + 10]
            await asyncio.gather(*(one(i, p) for i, p in chunk))

    async def schedule(
        self, host: Player, league_id: str, in_seconds: float, playoff: bool = False
    ) -> int:
        starts = Timestamp()
        starts.FromMilliseconds(int((time.time() + in_seconds) * 1000))
        scheduled = await self.call(
            self.league.ScheduleRound,
            league_pb2.ScheduleRoundRequest(league_id=league_id, starts_at=starts, playoff=playoff),
            host.token,
        )
        return int(scheduled.round.round)

    # ----- a round ---------------------------------------------------------------------
    async def play_round(
        self,
        league_id: str,
        number: int,
        players: Sequence[Player],
        absent: set[str],
        token_for_reads: str,
        timeout: float = 900.0,
    ) -> RoundFigures:
        figures = RoundFigures(number)
        started = time.perf_counter()
        present = [p for p in players if p.account_id not in absent]
        moves = await asyncio.wait_for(
            asyncio.gather(*(self._player(league_id, number, p) for p in present)), timeout
        )
        figures.moves = sum(moves)
        figures.checked_in = sum(1 for m in moves if m >= 0)
        while True:
            got = await self.call(
                self.league.GetRound,
                league_pb2.GetRoundRequest(league_id=league_id, round=number),
                token_for_reads,
            )
            if got.round.status == league_pb2.ROUND_STATUS_ENDED:
                break
            if time.perf_counter() - started > timeout:
                raise TimeoutError(f"round {number} did not end")
            await asyncio.sleep(POLL_S)
        figures.seconds = time.perf_counter() - started
        figures.tables = len(got.tables)
        figures.match_ids = [t.match_id for t in got.tables]
        figures.absent = sum(1 for t in got.tables for s in t.seats if s.absent)
        return figures

    async def _player(self, league_id: str, number: int, player: Player) -> int:
        """Check in when the table opens, then play the seat to the end; the moves made."""
        request = league_pb2.GetMyTableRequest(league_id=league_id)
        while True:
            mine = await self.call(self.league.GetMyTable, request, player.token)
            if mine.round > number or (mine.round == number and mine.check_in in _SEATED):
                break
            if mine.round == number and mine.check_in == league_pb2.CHECK_IN_NOT_SEATED:
                return 0  # a bye, or withdrawn
            await asyncio.sleep(POLL_S + self._rng.random() * POLL_S)
        if mine.round != number or mine.check_in == league_pb2.CHECK_IN_ABSENT:
            return 0
        sat = await self.call(
            self.lobby.SitDown,
            lobby_pb2.SitDownRequest(table_id=mine.table_id, seat=mine.seat),
            player.token,
        )
        await self._until_started(mine.match_id, player.token)
        rng = random.Random(f"{mine.match_id}/{sat.seat}")
        return await self._play(mine.match_id, sat.seat, sat.seat_token, player.token, rng)

    async def _until_started(self, match_id: str, token: str) -> None:
        while True:
            try:
                await self.game.GetMatch(
                    game_pb2.GetMatchRequest(match_id=match_id),
                    metadata=self.auth(token),
                    timeout=10,
                )
                return
            except grpc.aio.AioRpcError as error:
                if error.code() not in (grpc.StatusCode.NOT_FOUND, *RETRYABLE):
                    raise
            await asyncio.sleep(POLL_S + self._rng.random() * POLL_S)

    async def _play(
        self, match_id: str, seat: int, seat_token: str, token: str, rng: random.Random
    ) -> int:
        moves = 0
        last = 0
        while True:  # a dropped stream is opened again after the last version seen
            try:
                stream = self.game.StreamEvents(
                    game_pb2.StreamEventsRequest(
                        match_id=match_id,
                        seat=seat,
                        seat_token=seat_token,
                        after_version=last,
                        until_end=True,
                    ),
                    metadata=self.auth(token),
                )
                async for item in stream:
                    event = item.event
                    last = event.version
                    if event.last_in_batch and seat in event.to_act:
                        moves += await self._act(match_id, seat, seat_token, token, rng)
                return moves
            except grpc.aio.AioRpcError as error:
                if error.code() not in RETRYABLE:
                    raise
                await asyncio.sleep(0.5)

    async def _act(
        self, match_id: str, seat: int, seat_token: str, token: str, rng: random.Random
    ) -> int:
        view = await self.call(
            self.game.GetView,
            game_pb2.GetViewRequest(match_id=match_id, seat=seat, seat_token=seat_token),
            token,
        )
        if view.finished or seat not in view.to_act or not view.legal_actions:
            return 0
        action = rng.choice(list(view.legal_actions)).code
        try:
            await self.call(
                self.game.SubmitAction,
                game_pb2.SubmitActionRequest(
                    match_id=match_id,
                    seat=seat,
                    seat_token=seat_token,
                    command_id=f"sim/{view.version}/{action.replace(' ', '_')}",
                    action=action,
                ),
                token,
            )
        except grpc.aio.AioRpcError as error:  # a timer or another seat moved first
            if error.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED):
                return 0
            if error.code() == grpc.StatusCode.ALREADY_EXISTS:
                return 0
            raise
        return 1


_SEATED = (
    league_pb2.CHECK_IN_OPEN,
    league_pb2.CHECK_IN_DONE,
    league_pb2.CHECK_IN_ABSENT,
    league_pb2.CHECK_IN_PLAYING,
)
