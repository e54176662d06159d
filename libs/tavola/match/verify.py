"""Offline verification of a finished match (principle 6: audits need no trust).

Given the match's events in order (decoded, with each event's recorded cause), the
verifier checks the seed against its commitment, re-derives every chance outcome from the
seed and the client seeds, re-runs every action through the rules, and compares what it
gets with what was recorded, event by event. The hash chain is checked separately
(``tavola.eventlog.chain.verify_chain``) on the stored form.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tavola.match import aggregate
from tavola.match.aggregate import MatchState
from tavola.match.events import (
    DeadlineSet,
    MatchCreated,
    MatchEnded,
    PauseStarted,
    SeatAway,
    SeatBack,
    SeatCredentials,
    SeatReclaimed,
    SeedRevealed,
)
from tavola.rules.errors import RulesError
from tavola.rules.interface import Event

# Facts of the clock and of who is there: recorded as they happened, not derived (the
# rules decide nothing by them; the verifier re-derives everything they lead to).
CLOCK_AND_PRESENCE = (DeadlineSet, PauseStarted, SeatAway, SeatBack, SeatReclaimed)


@dataclass(frozen=True, slots=True)
class Recorded:
    """One recorded event with its cause (from the log's metadata)."""

    version: int
    event: Event
    kind: str  # action | chance | system | timeout | leave | take_back
    seat: int = -1
    action: str = ""
    chance_purpose: str = ""
    command_id: str = ""


@dataclass(frozen=True, slots=True)
class _Before:
    """The records before a batch (sliced only when needed: a take-back)."""

    all_records: Sequence[Recorded]
    count: int

    def records(self) -> Sequence[Recorded]:
        return self.all_records[: self.count]


class Discrepancy(Exception):
    def __init__(self, version: int, message: str) -> None:
        super().__init__(f"version {version}: {message}")
        self.version = version


def group(records: Sequence[Recorded]) -> list[list[Recorded]]:
    """Consecutive records with the same cause form one batch."""
    batches: list[list[Recorded]] = []
    previous: tuple[object, ...] | None = None
    for record in records:
        key = aggregate.cause_key(record)
        if batches and key == previous:
            batches[-1].append(record)
        else:
            batches.append([record])
        previous = key
    return batches


def verify(
    records: Sequence[Recorded], progress: Callable[[int, int], None] | None = None
) -> MatchState:
    """Raise Discrepancy at the first recorded event the rules and the seed do not give.

    ``progress``, if given, is called after each batch with (events checked, events)."""
    if len(records) < 2 or not isinstance(records[0].event, MatchCreated):
        raise Discrepancy(1, "the stream does not begin with MatchCreated")
    seed = _revealed_seed(records)
    created = records[0].event
    if hashlib.sha256(seed).hexdigest() != created.seed_commitment:
        raise Discrepancy(records[-1].version, "the revealed seed does not match the commitment")
    state: MatchState | None = None
    done = 0
    for batch in group(records):
        state = _check_batch(state, batch, seed, _Before(records, done))
        done += len(batch)
        if progress is not None:
            progress(done, len(records))
    assert state is not None
    if state.ended is None:
        raise Discrepancy(records[-1].version, "the match never ended")
    return state


def _revealed_seed(records: Sequence[Recorded]) -> bytes:
    last = records[-1]
    if not isinstance(last.event, SeedRevealed):
        raise Discrepancy(last.version, "the seed was not revealed (is the match finished?)")
    return bytes.fromhex(last.event.seed_hex)


def _check_batch(
    state: MatchState | None, batch: list[Recorded], seed: bytes, before: _Before
) -> MatchState:
    first = batch[0]
    recorded = [r.event for r in batch]
    if state is None or isinstance(first.event, SeatCredentials | MatchCreated):
        return aggregate.fold(recorded, state)
    if all(isinstance(event, CLOCK_AND_PRESENCE) for event in recorded):
        return aggregate.fold(recorded, state)  # clock and presence facts: recorded
    expected = _expected(state, first, seed, before)
    for index, record in enumerate(batch):
        if index >= len(expected):
            raise Discrepancy(record.version, f"unexpected event {record.event!r}")
        if expected[index] != record.event:
            raise Discrepancy(
                record.version, f"recorded {record.event!r}, the rules give {expected[index]!r}"
            )
    if len(expected) > len(batch):
        raise Discrepancy(batch[-1].version, f"missing event {expected[len(batch)]!r}")
    return aggregate.fold(recorded, state)


def _expected(
    state: MatchState, first: Recorded, seed: bytes, before: _Before
) -> tuple[Event, ...]:
    try:
        if first.kind == "action":
            return aggregate.decide_action(state, first.seat, first.action).events
        if first.kind == "timeout":
            return aggregate.decide_timeout(state, first.seat).events
        if first.kind == "take_back":
            last_move = aggregate.last_move_of(before.records(), first.seat)
            return aggregate.decide_take_back(state, first.seat, last_move).events
    except RulesError as error:
        raise Discrepancy(first.version, f"illegal recorded action: {error.reason.code}") from None
    if first.kind == "leave":
        return aggregate.decide_leave(
            state,
            first.seat,
            getattr(first.event, "replaced_by", "") or "easy",
            getattr(first.event, "away", False),
        ).events
    if first.kind == "chance":
        request = state.game.chance(state.game_state)
        if request is None or request.purpose != first.chance_purpose:
            raise Discrepancy(first.version, f"no chance {first.chance_purpose!r} was due")
        return aggregate.resolve_chance(state, request, seed).events
    batches = aggregate.settle(state, seed)
    if not batches or batches[-1].kind != "system":
        raise Discrepancy(first.version, "the match had not ended by the rules")
    return batches[-1].events


__all__ = ["Discrepancy", "MatchEnded", "Recorded", "group", "verify"]
