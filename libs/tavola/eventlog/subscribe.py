"""Tailing the global order: an async iterator for relays and projections."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from tavola.eventlog.model import Cursor, EventStore, StoredEvent


async def tail(
    store: EventStore,
    after: Cursor = Cursor.START,
    *,
    poll_interval: float = 0.5,
    batch_size: int = 500,
    wakeup: asyncio.Event | None = None,
) -> AsyncIterator[StoredEvent]:
    """Yield every event after ``after`` in global order, then wait for more, forever.

    Each event carries its ``cursor``; a consumer persists the cursor of the last event it
    processed and resumes from it. Between empty reads the iterator sleeps ``poll_interval``
    seconds, or less when ``wakeup`` is set (by whoever knows of an append, e.g. its writer).
    """
    if poll_interval <= 0 or batch_size <= 0:
        raise ValueError("poll_interval and batch_size must be positive")
    cursor = after
    while True:
        if wakeup is not None:
            wakeup.clear()
        batch = await store.read_all(cursor, batch_size)
        for event in batch:
            yield event
            cursor = event.cursor
        if len(batch) < batch_size:
            await _pause(poll_interval, wakeup)


async def _pause(seconds: float, wakeup: asyncio.Event | None) -> None:
    if wakeup is None:
        await asyncio.sleep(seconds)
        return
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(wakeup.wait(), seconds)
