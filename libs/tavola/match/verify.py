"""Offline verification of a finished match (principle 6: audits need no trust).

Given the match's events in order (decoded, with each event's recorded cause), the
verifier checks the seed against its commitment, re-derives every chance outcome from the
seed and the client seeds, re-runs every action through the rules, and compares what it
gets with what was recorded, event by event. The hash chain is checked separately
(``tavola.eventlog.chain.verify_chain``) on the stored form.

A referee's corrections (``match.Correction``, after the seed's reveal) are not play: the
play is verified up to the reveal, then each correction is checked apart — by the rule the
engine filed it under (``tavola.match.corrections.check``), and that it references the real
event it corrects (``corrections`` lists them).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tavola.match import aggregate
from tavola.match import corrections as rules
from tavola.match.aggregate import MatchState
from tavola.match.events import (
    Correction,
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
from tavola.rules import registry
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
    """The first place the records and the rules part; ``recorded`` and ``rederived`` are
    the two events there when both exist (an audit names the field that differs)."""

    def __init__(
        self,
        version: int,
        message: str,
        recorded: Event | None = None,
        rederived: Event | None = None,
    ) -> None:
        super().__init__(f"version {version}: {message}")
        self.version = version
        self.recorded = recorded
        self.rederived = rederived


def group(records: Sequence[Recorded]) -> list[list[Recorded]]:
    """Consecutive records with the same cause form one batch. The platform's own (system)
    records of the clock and of presence are a batch of their own: a pause recorded at one
    append (the pause before a match's end, with the last move) and the end that follows it
    at a later one share a cause but not a batch."""
    batches: list[list[Recorded]] = []
    previous: tuple[object, ...] | None = None
    previous_fact = False
    for record in records:
        key = aggregate.cause_key(record)
        fact = record.kind == "system" and isinstance(record.event, CLOCK_AND_PRESENCE)
        if batches and key == previous and fact == previous_fact:
            batches[-1].append(record)
        else:
            batches.append([record])
        previous, previous_fact = key, fact
    return batches


def split(records: Sequence[Recorded]) -> tuple[Sequence[Recorded], list[Recorded]]:
    """The play (up to the seed's reveal) and the corrections after it."""
    end = len(records)
    while end > 0 and isinstance(records[end - 1].event, Correction):
        end -= 1
    return records[:end], list(records[end:])


def corrections(records: Sequence[Recorded]) -> list[Recorded]:
    """The corrections of a match's records (empty for a match never corrected)."""
    return split(records)[1]


def verify(
    records: Sequence[Recorded], progress: Callable[[int, int], None] | None = None
) -> MatchState:
    """Raise Discrepancy at the first recorded event the rules and the seed do not give.

    ``progress``, if given, is called after each batch with (events checked, events)."""
    play, filed = split(records)
    state = _verify_play(play, progress, len(records))
    for index, record in enumerate(filed, len(play) + 1):
        state = _check_correction(state, play, record)
        if progress is not None:
            progress(index, len(records))
    return state


def _check_correction(state: MatchState, play: Sequence[Recorded], record: Recorded) -> MatchState:
    event = record.event
    assert isinstance(event, Correction)
    if record.kind != "correction":
        raise Discrepancy(record.version, f"a correction recorded as caused by {record.kind!r}")
    try:
        seats, references = rules.check(
            state, play, event.kind, event.seats, event.amount, event.hand, event.reason
        )
    except rules.CorrectionRefused as refused:
        raise Discrepancy(
            record.version, f"a correction that could not be filed: {refused.reason.code}"
        ) from None
    if seats != event.seats or references != event.references:
        raise Discrepancy(
            record.version,
            f"the correction references version {event.references}, the event it corrects"
            f" is version {references}",
        )
    return aggregate.evolve(state, event)


def _verify_play(
    records: Sequence[Recorded], progress: Callable[[int, int], None] | None, total: int
) -> MatchState:
    if len(records) < 2 or not isinstance(records[0].event, MatchCreated):
        raise Discrepancy(1, "the stream does not begin with MatchCreated")
    seed = _revealed_seed(records)
    created = records[0].event
    if not registry.known(created.game, created.rules_version):
        kept = sorted(registry.get(created.game).rules_versions())
        raise Discrepancy(
            1,
            f"{created.game} rules version {created.rules_version} is not kept here"
            f" (this installation has {kept})",
        )
    if hashlib.sha256(seed).hexdigest() != created.seed_commitment:
        raise Discrepancy(records[-1].version, "the revealed seed does not match the commitment")
    if created.deal_group and any(s.client_seed_hex for s in created.seats):
        raise Discrepancy(1, "a deal group's match with client seeds (its deals are shared)")
    state: MatchState | None = None
    done = 0
    for batch in group(records):
        state = _check_batch(state, batch, seed, _Before(records, done))
        done += len(batch)
        if progress is not None:
            progress(done, total)
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
    expected = _expected(state, first, seed, before, len(batch))
    for index, record in enumerate(batch):
        if index >= len(expected):
            raise Discrepancy(
                record.version, f"unexpected event {record.event!r}", recorded=record.event
            )
        if expected[index] != record.event:
            raise Discrepancy(
                record.version,
                f"recorded {record.event!r}, the rules give {expected[index]!r}",
                recorded=record.event,
                rederived=expected[index],
            )
    if len(expected) > len(batch):
        raise Discrepancy(
            batch[-1].version,
            f"missing event {expected[len(batch)]!r}",
            rederived=expected[len(batch)],
        )
    return aggregate.fold(recorded, state)


def _expected(
    state: MatchState, first: Recorded, seed: bytes, before: _Before, size: int
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
    if isinstance(first.event, SeedRevealed) and state.ended is not None:
        return _deferred_reveal(state, first, seed)
    batches = aggregate.settle(state, seed)
    if not batches or batches[-1].kind != "system":
        raise Discrepancy(first.version, "the match had not ended by the rules")
    ending = batches[-1].events
    if state.created.deal_group and size > len(ending) and isinstance(ending[-1], MatchEnded):
        # the deferred reveal, appended later by the platform, may share the end's cause
        return (*ending, *_deferred_reveal(aggregate.fold(ending, state), first, seed))
    return ending


def _deferred_reveal(state: MatchState, first: Recorded, seed: bytes) -> tuple[Event, ...]:
    """A deal group's seed is revealed on its own, after the end (when the group's round
    has ended); any other match reveals it with its ``MatchEnded``."""
    reveal = aggregate.reveal(state, seed) if state.created.deal_group else None
    if reveal is None:
        raise Discrepancy(first.version, "the seed was revealed apart from the match's end")
    return reveal.events


__all__ = ["Discrepancy", "MatchEnded", "Recorded", "corrections", "group", "split", "verify"]
