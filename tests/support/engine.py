"""An engine over the in-memory event store, for fast unit tests of the application."""

from __future__ import annotations

import hashlib
import itertools
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from services.bots.app import BotPlayer, BotPorts
from services.engine.app import Engine, Ports
from services.engine.callers import Service
from tavola.accounts.model import KIND_SCOPES, Kind, Principal
from tavola.bots.interface import Budget
from tavola.eventlog.memory import InMemoryEventStore
from tavola.match.aggregate import MatchState
from tavola.protocol.envelopes import SPECTATOR
from tavola.v1 import events_pb2, game_pb2, internal_pb2


class FixedClock:
    def __init__(self) -> None:
        self._now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self._now += timedelta(milliseconds=1)
        return self._now


class FakeNow:
    """Milliseconds that only move when a test says so."""

    def __init__(self) -> None:
        self.ms = 1_800_000_000_000

    def __call__(self) -> int:
        return self.ms


class MemoryTimerIndex:
    def __init__(self, store: InMemoryEventStore) -> None:
        self._store = store

    async def matches_with_deadlines(self) -> list[str]:
        events = await self._store.read_all(limit=1_000_000)
        ended = {e.stream_id for e in events if e.type == "match.MatchEnded"}
        timed = ("match.DeadlineSet", "match.PauseStarted")
        return sorted({e.stream_id for e in events if e.type in timed} - ended)

    async def running_matches(self) -> list[str]:
        events = await self._store.read_all(limit=1_000_000)
        ended = {e.stream_id for e in events if e.type == "match.MatchEnded"}
        return sorted({e.stream_id for e in events if e.type == "match.MatchCreated"} - ended)


class FakeSeeds:
    """Deterministic seeds per match (the real vault draws them from `secrets`)."""

    async def seed(self, match_id: str) -> bytes:
        return hashlib.sha256(f"seed|{match_id}".encode()).digest()


def counter_ids(start: int = 1) -> object:
    counter = itertools.count(start)
    return lambda: uuid.UUID(int=next(counter))


def token(seat: int) -> str:
    return f"token-{seat}"


def account(seat: int) -> str:
    """The account seated at ``seat`` in matches the fixture creates."""
    return f"00000000-0000-4000-8000-{seat:012d}"


def player(seat: int) -> Principal:
    """The authenticated caller playing ``seat`` (a person's account)."""
    return Principal(account(seat), f"P{seat}", Kind.PLAYER, KIND_SCOPES[Kind.PLAYER], f"t{seat}")


SPECTATOR_CALLER = Principal(
    "00000000-0000-4000-8000-999999999999", "watcher", Kind.PLAYER, frozenset({"read"}), "tw"
)


@dataclass
class EngineFixture:
    engine: Engine
    store: InMemoryEventStore
    now: FakeNow

    def restarted(self) -> Engine:
        """A new engine process over the same log (it knows nothing until it reads)."""
        return Engine(
            Ports(
                store=self.store,
                seeds=FakeSeeds(),
                new_id=counter_ids(start=10_000_000),
                salt=lambda n: bytes(n),
                now_ms=self.now,
                timer_index=MemoryTimerIndex(self.store),
            )
        )

    async def create(
        self,
        game: str = "fan-tan",
        players: int = 4,
        options: dict[str, str] | None = None,
        match_id: str = "m1",
        bots: tuple[int, ...] = (),
        client_seeds: dict[int, bytes] | None = None,
        think_ms: int = 0,
        level: str = "easy",
    ) -> str:
        seats = [
            internal_pb2.MatchSeat(
                seat=i,
                player_name=f"P{i}",
                is_bot=i in bots,
                bot_level=level if i in bots else "",
                token_sha256=hashlib.sha256(token(i).encode()).hexdigest(),
                client_seed=(client_seeds or {}).get(i, b""),
                bot_think_ms=think_ms if i in bots else 0,
                account_id="" if i in bots else account(i),
            )
            for i in range(players)
        ]
        await self.engine.create_match(
            internal_pb2.CreateMatchRequest(
                match_id=match_id, table_id="t1", game=game, options=options or {}, seats=seats
            )
        )
        return match_id

    async def caller(self, match_id: str, seat: int) -> Principal | Service:
        """Who acts for ``seat``: the bot service for a platform bot's seat, else its
        person's account (a spectator's for -1)."""
        if seat < 0:
            return SPECTATOR_CALLER
        state = await self.engine.load(match_id)
        if seat < state.players and state.seat(seat).bot_level:
            return Service.BOTS
        return player(seat)

    async def view(self, match_id: str, seat: int) -> game_pb2.GetViewResponse:
        return await self.engine.view(
            game_pb2.GetViewRequest(
                match_id=match_id, seat=seat, seat_token=token(seat) if seat >= 0 else ""
            ),
            await self.caller(match_id, seat),
        )

    async def act(
        self,
        match_id: str,
        seat: int,
        action: str,
        command_id: str | None = None,
        expected_version: int = 0,
        seat_token: str | None = None,
    ) -> game_pb2.SubmitActionResponse:
        return await self.engine.submit(
            game_pb2.SubmitActionRequest(
                match_id=match_id,
                seat=seat,
                seat_token=token(seat) if seat_token is None else seat_token,
                command_id=command_id or f"c-{uuid.uuid4()}",
                expected_version=expected_version,
                action=action,
            ),
            await self.caller(match_id, seat),
        )

    async def states(self, match_id: str = "m1") -> AsyncIterator[MatchState]:
        """Each state of the match as its seats on turn play their first legal action (a
        pause the game asks for is waited out) until it ends."""
        for _ in range(3_000):
            state = await self.engine.load(match_id)
            yield state
            if state.ended is not None:
                return
            spectator = await self.view(match_id, SPECTATOR)
            if spectator.to_act:
                seat = spectator.to_act[0]
                await self.act(
                    match_id, seat, (await self.view(match_id, seat)).legal_actions[0].code
                )
            else:
                self.now.ms += 60_000
                await self.engine.fire_due()
        raise AssertionError("the match did not end")

    async def play_to_end(self, match_id: str, max_moves: int = 10_000) -> int:
        """Each seat on turn plays its first legal action; returns moves made."""
        for moves in range(max_moves):
            spectator = await self.engine.view(
                game_pb2.GetViewRequest(match_id=match_id, seat=-1), SPECTATOR_CALLER
            )
            if spectator.finished:
                return moves
            seat = spectator.to_act[0]
            view = await self.view(match_id, seat)
            await self.act(match_id, seat, view.legal_actions[0].code)
        raise AssertionError("match did not end")


def engine_fixture() -> EngineFixture:
    store = InMemoryEventStore(FixedClock())
    ids = counter_ids()
    salts = itertools.count(1)
    now = FakeNow()
    engine = Engine(
        Ports(
            store=store,
            seeds=FakeSeeds(),
            new_id=ids,  # type: ignore[arg-type]
            salt=lambda n: next(salts).to_bytes(n, "big"),
            now_ms=now,
            timer_index=MemoryTimerIndex(store),
        )
    )
    return EngineFixture(engine, store, now)


def bot_ports(fx: EngineFixture, samples: int) -> BotPorts:
    """The bot service's ports wired to the in-memory engine, as the bus wires them in
    production: internal calls, and ``GetSeatEvents`` only for seats a bot plays now."""
    engine = fx.engine

    async def get_view(request: game_pb2.GetViewRequest) -> game_pb2.GetViewResponse:
        return await engine.view(request, Service.BOTS)

    async def seat_events(
        request: internal_pb2.SeatEventsRequest,
    ) -> internal_pb2.SeatEventsResponse:
        state = await engine.load(request.match_id)
        assert state.seat(request.seat).bot_level, "the bot service read a person's seat"
        events = await engine.events_after(request.match_id, request.seat, request.after_version)
        return internal_pb2.SeatEventsResponse(events=events)

    async def submit(request: game_pb2.SubmitActionRequest) -> game_pb2.SubmitActionResponse:
        return await engine.submit(request, Service.BOTS)

    return BotPorts(engine.get_match, get_view, seat_events, submit, Budget(samples=samples))


async def tell_turns(bots: BotPlayer, envelope: events_pb2.EventEnvelope) -> None:
    """What the engine tells the bot service as a stored event is read in order: at the end
    of each batch, the turn of every seat it leaves to act (the player ignores those its
    bots do not play)."""
    if envelope.last_in_batch:
        for seat in envelope.to_act:
            await bots.on_turn(
                internal_pb2.BotTurn(
                    match_id=envelope.match_id, seat=seat, version=envelope.version
                )
            )
