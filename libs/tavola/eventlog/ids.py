"""The engine's event ids: UUID version 7 (RFC 9562), in time order.

Every appended event takes an id (the log's unique index on ``event_id``). A random id
(version 4) lands each insert on a random leaf page of that index: after every checkpoint
the first change to a page writes the whole page (8 KiB) to the WAL, so with random ids
nearly every append wrote a full page. Version 7 ids begin with the time in milliseconds,
so new rows go to the right-hand end of the index, a few pages shared by everything
appended at that moment: on a durable Postgres about a fifth of the WAL an append wrote at
one writer (``docs/scaling.md``). The engine, which appends every move, mints its event ids
here.

The ids people see and type — tables, matches, leagues, accounts — stay random (version
4): they are shown and asked for by their first digits (``tavola play 3f9c01ab``), and
version 7 ids made within a minute share their first eight. Their streams gain little
from time order anyway: a match's rows follow its own earlier rows in the primary key
``(stream_id, version)`` whatever its id. The lobby's and the directories' few events keep
random ids with them.

Layout (big-endian, 128 bits): 48 bits of Unix time in ms, the version (7), 12 bits
``rand_a``, the variant (``10``), 62 bits ``rand_b``. ``rand_a`` and ``rand_b`` are random
(74 bits from the OS, read ``batch`` ids at a time). One generator's ids strictly increase:
an id that would not be after the last one (the same millisecond and a smaller draw, or the
clock stepped back) is the last one plus one, its 74 bits counted as one number (RFC 9562
§6.2, method 2, with a random start); the time field never goes back, and it runs ahead of
the clock only while more than 2**74 ids are asked in a millisecond. The time an id carries
is when it was made, which every event's ``recorded_at`` says too: ids are not secrets, and
nothing hidden is in them.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Callable

_RANDOM_BITS = 74
_RANDOM_MASK = (1 << _RANDOM_BITS) - 1
_VERSION = 0x7 << 76
_VARIANT = 0b10 << 62
_new_uuid = object.__new__
_set = object.__setattr__


def _bits(ms: int, random: int) -> int:
    """The 128-bit value of an id: ``ms`` (48 bits) and ``random`` (74 bits) in their
    places, with the version and the variant."""
    return (ms << 80) | _VERSION | ((random >> 62) << 64) | _VARIANT | (random & ((1 << 62) - 1))


def _unbits(value: int) -> tuple[int, int]:
    """``_bits``' inverse: (ms, random)."""
    return value >> 80, (((value >> 64) & 0xFFF) << 62) | (value & ((1 << 62) - 1))


class TimeOrderedIds:
    """A source of version 7 ids, each after the one before (call it for the next)."""

    __slots__ = ("_batch", "_clock_ms", "_last", "_pending", "_random")

    def __init__(
        self,
        *,
        batch: int = 256,
        clock_ms: Callable[[], int] | None = None,
        random: Callable[[int], bytes] = os.urandom,
    ) -> None:
        if batch < 1:
            raise ValueError("batch must be at least 1")
        self._batch = batch
        self._clock_ms = clock_ms or (lambda: time.time_ns() // 1_000_000)
        self._random = random
        self._pending: list[int] = []
        self._last = (0, -1)  # (ms, random) of the last id made

    def _draw(self) -> int:
        if not self._pending:
            data = self._random(10 * self._batch)
            self._pending = [
                int.from_bytes(data[i : i + 10], "big") & _RANDOM_MASK
                for i in range(0, len(data), 10)
            ]
        return self._pending.pop()

    def __call__(self) -> uuid.UUID:
        ms = self._clock_ms() & ((1 << 48) - 1)
        random = self._draw()
        last_ms, last_random = self._last
        if (ms, random) <= self._last:
            ms, random = last_ms, last_random + 1
            if random > _RANDOM_MASK:
                ms, random = ms + 1, 0
        self._last = (ms, random)
        made = _new_uuid(uuid.UUID)  # its value is in range by construction: no checks
        _set(made, "int", _bits(ms, random))
        _set(made, "is_safe", uuid.SafeUUID.unknown)
        return made


def time_ordered_ids(batch: int = 256) -> Callable[[], uuid.UUID]:
    """A new source of version 7 ids (``TimeOrderedIds``): what the engine mints its event
    ids with."""
    return TimeOrderedIds(batch=batch)


def id_time_ms(value: uuid.UUID) -> int:
    """The Unix time in ms a version 7 id was made at (its first 48 bits)."""
    if value.version != 7:
        raise ValueError(f"not a version 7 id: {value}")
    return _unbits(value.int)[0]
