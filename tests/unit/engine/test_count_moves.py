"""The engine counts each seat's automatic moves in a row (the leaver rule) from the log's
causes, reading back from the newest event and stopping once every seat has made a move
of its own: the counts must be those of folding every cause from the oldest, for a whole
stream and for a stream read in two parts."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from services.engine.app import RECLAIMED
from support.engine import engine_fixture
from tavola.match.events import SeatReclaimed
from tavola.protocol import events as codec

PLAYERS = 4
KINDS = tuple(codec.CAUSE_KINDS)


@dataclass(frozen=True)
class Item:
    """What ``_count_moves`` reads of a stored event."""

    type: str
    payload: bytes
    metadata: bytes


def item(step: tuple[str, int, bool]) -> Item:
    kind, seat, last = step
    if kind == "reclaim":
        payload = codec.encode_payload("", SeatReclaimed(seat))
        return Item(RECLAIMED, payload, codec.Metadata(codec.CAUSE_KINDS["system"]).encode())
    metadata = codec.Metadata(codec.CAUSE_KINDS[kind], seat=seat, last_in_batch=last)
    return Item("barbu.CardPlayed", b"", metadata.encode())


def forward(steps: list[tuple[str, int, bool]]) -> dict[int, int]:
    """The rule itself, oldest first: a timeout adds one, a move of one's own (or the seat
    taken back) starts again from none; other causes change nothing."""
    counts: dict[int, int] = {}
    for kind, seat, last in steps:
        if kind == "reclaim":
            counts[seat] = 0
        elif last and seat >= 0 and kind == "timeout":
            counts[seat] = counts.get(seat, 0) + 1
        elif last and seat >= 0 and kind in ("action", "take_back"):
            counts[seat] = 0
    return counts


steps = st.lists(
    st.tuples(
        st.sampled_from((*KINDS, "reclaim", "timeout", "timeout", "action")),
        st.integers(-1, PLAYERS - 1),
        st.booleans(),
    ).filter(lambda s: s[0] != "reclaim" or s[1] >= 0),
    max_size=60,
)


@settings(max_examples=300, deadline=None)
@given(steps, st.integers(0, 60))
def test_the_counts_read_backwards_are_those_of_the_whole_fold(steps, cut) -> None:  # type: ignore[no-untyped-def]
    engine = engine_fixture().engine
    items = [item(s) for s in steps]
    engine._count_moves("m", items[:cut], PLAYERS)
    engine._count_moves("m", items[cut:], PLAYERS)
    expected = forward(steps)
    for seat in range(PLAYERS):
        assert engine.presence.missed("m", seat) == expected.get(seat, 0), seat
