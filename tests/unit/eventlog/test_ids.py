"""The platform's ids: RFC 9562 version 7, in strictly increasing order per source."""

from __future__ import annotations

import itertools
import os
import time
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavola.eventlog.ids import TimeOrderedIds, id_time_ms, time_ordered_ids


def test_an_id_is_version_7_of_the_rfc_variant_and_carries_the_time_it_was_made() -> None:
    before = time.time_ns() // 1_000_000
    made = time_ordered_ids()()
    after = time.time_ns() // 1_000_000
    assert made.version == 7
    assert made.variant == uuid.RFC_4122
    assert before <= id_time_ms(made) <= after
    assert uuid.UUID(str(made)) == made


def test_the_layout_is_rfc_9562s_time_version_rand_a_variant_rand_b() -> None:
    draw = bytes(range(1, 11))  # rand_a and rand_b from these 80 bits' low 74
    ids = TimeOrderedIds(batch=1, clock_ms=lambda: 0x0123456789AB, random=lambda n: draw)
    made = ids()
    random = int.from_bytes(draw, "big") & ((1 << 74) - 1)
    assert made.int >> 80 == 0x0123456789AB
    assert (made.int >> 76) & 0xF == 7
    assert (made.int >> 64) & 0xFFF == random >> 62
    assert (made.int >> 62) & 0b11 == 0b10
    assert made.int & ((1 << 62) - 1) == random & ((1 << 62) - 1)


@given(
    steps=st.lists(st.integers(min_value=-5, max_value=5), min_size=1, max_size=200),
    seed=st.binary(min_size=16, max_size=16),
)
def test_one_sources_ids_strictly_increase_whatever_the_clock_does(
    steps: list[int], seed: bytes
) -> None:
    now = [1_700_000_000_000]
    stream = iter(range(1 << 30))

    def random(n: int) -> bytes:  # few distinct draws: equal ones in one ms are common
        return b"".join(
            (int.from_bytes(seed[:2], "big") % (next(stream) % 3 + 1)).to_bytes(10, "big")
            for _ in range(n // 10)
        )

    ids = TimeOrderedIds(batch=4, clock_ms=lambda: now[0], random=random)
    made = []
    readings = []
    for step in steps:
        now[0] += step
        readings.append(now[0])
        made.append(ids())
    assert all(a.int < b.int for a, b in itertools.pairwise(made))
    assert all(u.version == 7 and u.variant == uuid.RFC_4122 for u in made)
    # an id's time is the clock's, or the latest time before it when the clock stepped back
    for i, made_id in enumerate(made):
        assert id_time_ms(made_id) == max(readings[: i + 1])


def test_a_full_millisecond_carries_into_the_next() -> None:
    top = ((1 << 74) - 1).to_bytes(10, "big")
    ids = TimeOrderedIds(batch=1, clock_ms=lambda: 1000, random=lambda n: top)
    first, second = ids(), ids()
    assert id_time_ms(first) == 1000 and id_time_ms(second) == 1001
    assert first.int < second.int and second.version == 7


def test_a_hundred_thousand_ids_are_distinct_and_sorted_as_made() -> None:
    ids = time_ordered_ids()
    made = [ids() for _ in range(100_000)]
    assert len(set(made)) == len(made)
    assert sorted(made) == made  # uuid's ordering is its 128-bit value's


def test_randomness_is_read_a_batch_at_a_time() -> None:
    reads: list[int] = []

    def random(n: int) -> bytes:
        reads.append(n)
        return os.urandom(n)

    ids = TimeOrderedIds(batch=64, random=random)
    for _ in range(130):
        ids()
    assert reads == [640, 640, 640]


def test_only_a_version_7_id_has_a_time() -> None:
    with pytest.raises(ValueError):
        id_time_ms(uuid.uuid4())
    with pytest.raises(ValueError):
        TimeOrderedIds(batch=0)
