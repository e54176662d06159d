"""A match's partition, as the engines route it (``partition_of``) and as the relay shares
the log (``stream_partition`` of its stream): the same, and spread over all 64."""

from __future__ import annotations

from collections import Counter
from uuid import uuid4

from hypothesis import given
from hypothesis import strategies as st

from tavola.bus.partitions import PARTITIONS, partition_of
from tavola.eventlog.model import stream_partition


@given(st.text(min_size=1, max_size=40))
def test_a_match_stream_is_in_its_match_partition(match_id: str) -> None:
    assert stream_partition(f"match-{match_id}", PARTITIONS) == partition_of(match_id)


def test_matches_spread_over_every_partition() -> None:
    counts = Counter(partition_of(str(uuid4())) for _ in range(6400))
    assert set(counts) == set(range(PARTITIONS))
    assert max(counts.values()) < 3 * min(counts.values())
