"""The relay's progress by partition (one front and the partitions past it) answers as a
plain map of each held partition to its cursor would, whatever the partitions taken,
given back and read past."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tavola.bus.relay import _Progress
from tavola.eventlog.model import Cursor

cursors = st.builds(Cursor, st.integers(0, 5), st.integers(0, 5))
steps = st.lists(
    st.one_of(
        st.tuples(st.just("take"), st.integers(0, 7), cursors),
        st.tuples(st.just("drop"), st.integers(0, 7), cursors),
        st.tuples(st.just("reached"), st.just(0), cursors),
    ),
    max_size=40,
)


@given(steps)
def test_progress_is_a_map_of_the_held_partitions_to_their_cursors(
    script: list[tuple[str, int, Cursor]],
) -> None:
    progress, model = _Progress(), dict[int, Cursor]()
    for step, partition, cursor in script:
        if step == "take" and partition not in model:
            progress.take(partition, cursor)
            model[partition] = cursor
        elif step == "drop":
            assert progress.drop(partition) == model.pop(partition, None)
        elif step == "reached":
            progress.reached(cursor)
            model = {p: max(c, cursor) for p, c in model.items()}
        assert progress.all() == model
        assert progress.held == frozenset(model)
        if model:
            assert progress.base <= min(model.values())
        for p in range(8):
            assert progress.of(p) == model.get(p)
