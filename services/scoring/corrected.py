"""A finished match as the scoring service counts it: its result with the referee's
corrections (``match.Correction``) applied — only those already in the log at a given
point of its global order, so that a projection folding the log gives, at every event,
the very result the live projection gave there (a rebuild reads whole streams, which may
hold corrections filed later).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from tavola.eventlog.model import Cursor, EventStore, StoredEvent
from tavola.match import corrections
from tavola.match.corrections import Result
from tavola.match.events import VOID_HAND, Correction, MatchCreated, MatchEnded
from tavola.match.verify import Recorded
from tavola.protocol import events as codec
from tavola.rules.interface import Event

CORRECTION = "match.Correction"
ENDED = "match.MatchEnded"


@dataclass(frozen=True, slots=True)
class Counted:
    created: MatchCreated
    stored: Sequence[StoredEvent]  # the stream, without corrections filed after the point
    records: Sequence[Recorded]
    ended: StoredEvent | None  # the MatchEnded, if it has ended
    result: Result | None  # None: not ended

    @property
    def corrections(self) -> list[Correction]:
        return [r.event for r in self.records if isinstance(r.event, Correction)]

    def events(self) -> list[Event]:
        """The match's events as they count: a voided hand's events left out (what a
        Doppelkopf rating rates is its games' events), the end with the corrected
        standings."""
        voided = {c.hand for c in self.corrections if c.kind == VOID_HAND}
        skip: set[int] = set()
        if voided:
            hands = corrections.hands(self.records)
            for index, hand in enumerate(hands):
                if hand.number in voided:
                    end = hands[index + 1].first_version if index + 1 < len(hands) else None
                    skip |= {
                        r.version
                        for r in self.records
                        if r.version >= hand.first_version
                        and (end is None or r.version < end)
                        and not isinstance(r.event, MatchEnded)
                        and r.event.__class__.__module__.startswith("tavola.games.")
                    }
        out: list[Event] = []
        for record in self.records:
            if record.version in skip or isinstance(record.event, Correction):
                continue
            event = record.event
            if isinstance(event, MatchEnded) and self.result is not None:
                event = replace(event, standings=self.result.standings)
            out.append(event)
        return out


async def counted(store: EventStore, stream_id: str, upto: Cursor | None = None) -> Counted:
    """The match as counted once the log reached ``upto`` (None: everything now)."""
    stored = [
        s
        for s in await store.read_stream(stream_id)
        if s.type != CORRECTION or upto is None or s.cursor <= upto
    ]
    records = codec.decode_recorded(stored)
    created = records[0].event
    assert isinstance(created, MatchCreated)
    ended = next((s for s in stored if s.type == ENDED), None)
    return Counted(created, stored, records, ended, corrections.corrected(created.game, records))


__all__ = ["CORRECTION", "Counted", "counted"]
