"""Reads in the bench: cold replay of long matches, reconnect-to-live, idle tables.

- **Cold replay**: a long match's stream read from Postgres and folded as the engine folds
  it (payloads decoded, ``aggregate.evolve`` per event), in this process; and ``GetMatch``
  of that match on an engine that just started (its whole cold path, over gRPC).
- **Reconnect-to-live**: ``StreamEvents`` from a random version of a finished match until
  its last event arrives (``until_end``), as a client coming back would.
- **Memory per idle table**: the engine's resident memory before and after opening many
  tables whose seats are the platform's bots while the bot service is stopped (nobody
  moves: tables of bots only have no timers), divided by their number.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import random
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime

import asyncpg

from tavola.benchmarks.measure import Quantiles, quantiles, rss_bytes
from tavola.benchmarks.tables import Api, start_bot_match
from tavola.eventlog.chain import verify_chain
from tavola.eventlog.model import StoredEvent
from tavola.eventlog.postgres import PostgresEventStore
from tavola.match import aggregate
from tavola.match.aggregate import MatchState
from tavola.match.verify import verify
from tavola.protocol import events as codec
from tavola.service import runtime
from tavola.v1 import game_pb2

DEALT = ("HandDealt", "CardsDealt", "TilesDealt", "Dealt")


@dataclass(frozen=True)
class Replay:
    events: int
    games: int
    read_ms: float
    fold_ms: float
    verify_ms: float = 0.0

    def line(self, name: str) -> str:
        return (
            f"{name}: {self.events} events, {self.games} deals; read from Postgres "
            f"{self.read_ms:.1f} ms + fold {self.fold_ms:.1f} ms = "
            f"{self.read_ms + self.fold_ms:.1f} ms (best of 5); offline verification "
            f"(hash chain, seed, every deal and move re-derived) {self.verify_ms:.1f} ms"
        )


def fold_stored(stored: Sequence[StoredEvent]) -> MatchState:
    """The engine's fold of a stream (``Engine._fold``: decode each payload, then
    ``aggregate.fold`` after ``MatchCreated``)."""
    first = stored[0]
    state = aggregate.evolve(None, codec.decode_payload("", first.type, first.payload))
    game = state.created.game
    return aggregate.fold(codec.decode_payloads(game, stored[1:]), state)


@contextlib.contextmanager
def _collected_as_in_a_service() -> Iterator[None]:
    """The garbage collector as the engine runs it (``runtime.tune_gc``: what lives at
    start frozen, young collections every ``GC_YOUNG`` allocations), so that the bench's
    own objects (every point's samples) are not scanned again and again during a fold, as
    nothing of the bench's is in the engine; as before afterwards."""
    thresholds = gc.get_threshold()
    runtime.tune_gc()
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*thresholds)


async def cold_replay(database_url: str, match_id: str) -> Replay:
    """Best of five: read the stream, then fold it (the collector as in the engine)."""
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    assert pool is not None
    try:
        with _collected_as_in_a_service():
            return await _cold_replay(pool, match_id)
    finally:
        await pool.close()


async def _cold_replay(pool: asyncpg.Pool, match_id: str) -> Replay:
    store = PostgresEventStore(pool, clock=_no_clock)
    reads, folds = [], []
    stored: list[StoredEvent] = []
    for _ in range(5):
        started = time.perf_counter()
        stored = list(await store.read_stream(f"match-{match_id}"))
        reads.append(time.perf_counter() - started)
        started = time.perf_counter()
        fold_stored(stored)
        folds.append(time.perf_counter() - started)
    deals = sum(1 for s in stored if s.type.endswith(DEALT))
    verifies = []
    for _ in range(3):
        started = time.perf_counter()
        assert verify_chain(stored) is None
        verify(codec.decode_recorded(stored))
        verifies.append(time.perf_counter() - started)
    return Replay(len(stored), deals, min(reads) * 1000, min(folds) * 1000, min(verifies) * 1000)


def _no_clock() -> datetime:
    raise RuntimeError("the bench only reads")


async def cold_get_match(api: Api, match_id: str) -> tuple[float, float]:
    """``GetMatch`` twice on an engine that just started: cold (it folds the log) and warm."""
    times = []
    for _ in range(2):
        started = time.perf_counter()
        await api.call(api.game.GetMatch, game_pb2.GetMatchRequest(match_id=match_id))
        times.append(time.perf_counter() - started)
    return times[0], times[1]


async def reconnects(
    api: Api, match_id: str, last_version: int, samples: int, seed: int = 7
) -> tuple[Quantiles, Quantiles]:
    """From opening a stream at a random version: the time to its first event, and to the
    match's last event (caught up: the stream is live)."""
    rng = random.Random(seed)
    first: list[float] = []
    live: list[float] = []
    for _ in range(samples):
        after = rng.randrange(0, last_version)
        started = time.perf_counter()
        stream = api.game.StreamEvents(
            game_pb2.StreamEventsRequest(
                match_id=match_id, seat=-1, after_version=after, until_end=True
            ),
            metadata=api.metadata,
            timeout=60,
        )
        async for response in stream:
            if len(first) <= len(live):
                first.append(time.perf_counter() - started)
            if response.event.version >= last_version:
                break
        live.append(time.perf_counter() - started)
        stream.cancel()
    return quantiles(first), quantiles(live)


async def idle_tables(
    admin: Api,
    engine_pid: int,
    count: int,
    concurrency: int = 16,
    settle: Callable[[], None] | None = None,
) -> tuple[int, float]:
    """Open ``count`` tables of bots (the bot service stopped: they stay idle); the engine's
    resident memory added per table (bytes), and the seconds it took to open them."""
    before = rss_bytes(engine_pid)
    started = time.perf_counter()
    queue = iter(range(count))
    games: list[tuple[str, int, dict[str, str]]] = [
        ("fan-tan", 4, {}),
        ("spades", 4, {}),
        ("barbu", 4, {}),
        ("dominoes", 4, {}),
        ("doppelkopf", 4, {}),
    ]

    async def worker() -> None:
        for n in queue:
            game, players, options = games[n % len(games)]
            await start_bot_match(admin, game, players, options)

    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    if settle is not None:
        settle()
    await asyncio.sleep(2.0)
    after = rss_bytes(engine_pid)
    return (after - before) // max(1, count), elapsed
