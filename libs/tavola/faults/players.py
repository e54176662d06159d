"""The harness's own players: gRPC clients of the public API, one account per seat.

A player behaves as a patient real client: it follows its seat's event stream (coming back
with the last version it saw whenever the stream breaks), reads its view, picks one of its
legal actions with its own seeded RNG, and submits it with a fresh command id — retrying an
unanswered command with the same id until it is answered. Everything it sends and is
answered goes to the ``Ledger``; every event its stream delivered is kept, to be compared
with the log at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from asyncio import FIRST_COMPLETED
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import grpc

from tavola.faults.ledger import Ledger
from tavola.v1 import (
    account_pb2_grpc,
    events_pb2,
    game_pb2,
    game_pb2_grpc,
    lobby_pb2_grpc,
)

T = TypeVar("T")

# answers a real client retries (the same command id): the platform or the network away
RETRIED = frozenset(
    {
        grpc.StatusCode.UNAVAILABLE,
        grpc.StatusCode.DEADLINE_EXCEEDED,
        grpc.StatusCode.RESOURCE_EXHAUSTED,
        grpc.StatusCode.CANCELLED,
        grpc.StatusCode.INTERNAL,
        grpc.StatusCode.UNKNOWN,
    }
)
# statuses that are a server's failure, not the client's (counted for the report)
SURPRISING = frozenset({grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN})
CALL_TIMEOUT = 8.0
CHANNEL_OPTIONS = (
    ("grpc.initial_reconnect_backoff_ms", 200),
    ("grpc.min_reconnect_backoff_ms", 200),
    ("grpc.max_reconnect_backoff_ms", 2000),
    ("grpc.enable_retries", 0),
)
END = "match.SeedRevealed"
THINKING = (0.02, 0.2)  # seconds a harness player takes to choose


@dataclass
class Answers:
    """Status codes the players received, and the server failures among them."""

    codes: Counter[str] = field(default_factory=Counter)
    surprises: list[str] = field(default_factory=list)

    def note(self, error: grpc.aio.AioRpcError, what: str) -> None:
        code = error.code()
        self.codes[code.name] += 1
        if code in SURPRISING and len(self.surprises) < 50:
            self.surprises.append(f"{what}: {code.name} {error.details()}")


class Api:
    """The public services over one channel, as one account (its bearer token)."""

    def __init__(self, address: str, token: str) -> None:
        self.token = token
        self.channel = grpc.aio.insecure_channel(address, options=CHANNEL_OPTIONS)
        self.metadata = (("authorization", f"Bearer {token}"),)
        self.game = game_pb2_grpc.GameServiceStub(self.channel)
        self.lobby = lobby_pb2_grpc.LobbyServiceStub(self.channel)
        self.accounts = account_pb2_grpc.AccountServiceStub(self.channel)

    async def close(self) -> None:
        await self.channel.close()


async def patiently(
    call: Callable[[], Awaitable[T]],
    answers: Answers,
    what: str,
    stop: asyncio.Event | None = None,
    pause: float = 0.3,
) -> T:
    """``call`` until it is answered with anything but a retried status (raises that
    answer's error), or until ``stop`` is set (raises the last retried one)."""
    wait = pause
    while True:
        try:
            return await call()
        except grpc.aio.AioRpcError as error:
            answers.note(error, what)
            if error.code() not in RETRIED or (stop is not None and stop.is_set()):
                raise
        await asyncio.sleep(wait)
        wait = min(wait * 1.5, 2.0)


class SeatPlayer:
    """One seat of a match, played by the harness."""

    def __init__(
        self,
        api: Api,
        match_id: str,
        seat: int,
        seat_token: str,
        *,
        ledger: Ledger,
        answers: Answers,
        rng: random.Random,
        prefix: str,
    ) -> None:
        self.api = api
        self.match_id = match_id
        self.seat = seat
        self.seat_token = seat_token
        self._ledger = ledger
        self._answers = answers
        self._rng = rng
        self._prefix = prefix
        self._sent = 0
        self._changed = asyncio.Event()
        self.received: list[events_pb2.EventEnvelope] = []
        self.stream_faults: list[str] = []  # a version missed or repeated by the stream
        self.reconnects = 0
        self.finished = False
        self.streamed_to_end = False

    async def run(self, stop: asyncio.Event) -> None:
        """Play until the match ends (or ``stop``); then let the stream deliver the end."""
        follower = asyncio.create_task(self._follow(stop))
        stopped = asyncio.create_task(stop.wait())
        try:
            await self._play(stop)
            await asyncio.wait({follower, stopped}, timeout=60.0, return_when=FIRST_COMPLETED)
        finally:
            for task in (follower, stopped):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

    async def _play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self._changed.clear()
            try:
                view = await patiently(self._view, self._answers, "GetView", stop)
            except grpc.aio.AioRpcError:
                await asyncio.sleep(1.0)
                continue
            if view.finished:
                self.finished = True
                return
            if self.seat in view.to_act and view.legal_actions:
                action = self._rng.choice([a.code for a in view.legal_actions])
                await asyncio.sleep(self._rng.uniform(*THINKING))  # a person is not instant
                await self._submit(action, view.version, stop)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), 2.0)

    async def _view(self) -> game_pb2.GetViewResponse:
        request = game_pb2.GetViewRequest(
            match_id=self.match_id, seat=self.seat, seat_token=self.seat_token, locale="en"
        )
        response: game_pb2.GetViewResponse = await self.api.game.GetView(
            request, timeout=CALL_TIMEOUT, metadata=self.api.metadata
        )
        return response

    async def _submit(self, action: str, version: int, stop: asyncio.Event) -> None:
        self._sent += 1
        command = self._ledger.sent(
            self.match_id, self.seat, f"{self._prefix}-{self._sent}", action, version
        )
        request = game_pb2.SubmitActionRequest(
            match_id=self.match_id,
            seat=self.seat,
            seat_token=self.seat_token,
            command_id=command.command_id,
            expected_version=version,
            action=action,
            locale="en",
        )

        async def once() -> game_pb2.SubmitActionResponse:
            self._ledger.attempt(command)
            response: game_pb2.SubmitActionResponse = await self.api.game.SubmitAction(
                request, timeout=CALL_TIMEOUT, metadata=self.api.metadata
            )
            return response

        wait = 0.3
        while True:
            try:
                response = await once()
            except grpc.aio.AioRpcError as error:
                self._answers.note(error, "SubmitAction")
                if error.code() in RETRIED:
                    self._ledger.retry(command, error.code().name)
                    if stop.is_set():
                        return  # the run is over: the command stays unanswered
                    await asyncio.sleep(wait)
                    wait = min(wait * 1.5, 2.0)
                    continue
                self._ledger.rejected(command, f"{error.code().name} {error.details()}")
                return
            self._ledger.acked(
                command, response.version, response.first_version, response.duplicate
            )
            return

    async def _follow(self, stop: asyncio.Event) -> None:
        """The seat's stream from the start, resumed after the last version seen whenever
        it breaks, until the match's last event."""
        last = 0
        pause = 0.3
        while not stop.is_set() and not self.streamed_to_end:
            request = game_pb2.StreamEventsRequest(
                match_id=self.match_id,
                seat=self.seat,
                seat_token=self.seat_token,
                after_version=last,
                until_end=True,
                locale="en",
            )
            try:
                stream: Any = self.api.game.StreamEvents(request, metadata=self.api.metadata)
                async for item in stream:
                    last = self._receive(item.event, last)
                    pause = 0.3
            except grpc.aio.AioRpcError as error:
                self._answers.note(error, "StreamEvents")
            self.streamed_to_end = bool(self.received) and self.received[-1].type == END
            if not self.streamed_to_end:  # broken, or ended early: back after the last seen
                self.reconnects += 1
                await asyncio.sleep(pause)
                pause = min(pause * 2, 3.0)

    def _receive(self, event: events_pb2.EventEnvelope, last: int) -> int:
        if event.version != last + 1:
            self.stream_faults.append(f"after version {last} the stream sent {event.version}")
        self._changed.set()
        if event.version <= last:
            return last
        self.received.append(event)
        return event.version
