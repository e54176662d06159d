"""Re-deriving every bot decision of a match from its log (the referee's audit).

Each action the bot service submits records how it was decided (``Cause.bot_decision``:
level, policy version, RNG seed and the sampled deals of its budget). Given the match's
stored events in order, the audit rebuilds the match just before each such action and
gives the recorded level's policy exactly what the bot had — what a client of that seat
receives:

- the seat's view (``Game.view``, through the protocol's record as ``GetView`` sends it);
- the rules events the seat was shown, in order (``Event.audience``: public ones and its
  own private ones), up to the version the bot acted at;
- the match options (sorted), the number of players, and the legal actions in
  ``GetView``'s order, each through its code;
- ``random.Random(rng_seed)`` and ``Budget(samples)``.

It then compares the policy's choice with the recorded action, and the recorded seed with
``decision_seed(match, seat, version, level)``. Decisions recorded under another version of
the game's bots (``policy_version(game)``) are skipped (the code that made them is gone),
and counted.

Pure: no I/O and no clock. The events are taken as recorded; ``tavola.match.verify``
checks separately that the rules and the seed give them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavola.bots import decision_seed
from tavola.bots.interface import Budget, Knowledge
from tavola.bots.registry import policy_for, policy_version
from tavola.eventlog.model import StoredEvent
from tavola.match import aggregate
from tavola.match.aggregate import MatchState
from tavola.match.events import MatchCreated, MovesTakenBack
from tavola.protocol import events as codec
from tavola.protocol.records import from_record, to_record
from tavola.rules.interface import Event
from tavola.v1 import events_pb2

ACTION = events_pb2.CAUSE_KIND_ACTION


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A decision the log does not re-derive. ``version`` is the version the seat acted at
    (its action's events begin at ``version + 1``); ``what`` is ``"action"`` (the policy
    chooses another action) or ``"seed"`` (the recorded seed is not the derived one)."""

    version: int
    seat: int
    recorded: str
    rederived: str
    what: str = "action"

    def line(self) -> str:
        return (
            f"bot decision at version {self.version}, seat {self.seat}: recorded "
            f"{self.what} {self.recorded}, re-derived {self.rederived}"
        )


@dataclass(frozen=True, slots=True)
class Skipped:
    """A decision recorded under another policy version (not re-derivable by this code)."""

    version: int
    seat: int
    policy_version: int


@dataclass(frozen=True, slots=True)
class AuditReport:
    checked: int = 0
    equal: int = 0
    mismatches: tuple[Mismatch, ...] = ()
    skipped: tuple[Skipped, ...] = ()
    policy_version: int = 0  # the game's bots' version now (0: no bot decision seen)

    @property
    def differ(self) -> int:
        return self.checked - self.equal

    def line(self) -> str:
        text = (
            f"{self.checked} bot decisions re-derived from the log (level, seed and work "
            f"recorded); {self.differ} differ"
        )
        if self.skipped:
            versions = sorted({s.policy_version for s in self.skipped})
            text += (
                f"; {len(self.skipped)} skipped (policy version "
                f"{', '.join(map(str, versions))}, this is {self.policy_version})"
            )
        return text


@dataclass(frozen=True, slots=True)
class _Logged:
    version: int
    type: str
    event: Event
    cause: events_pb2.Cause


def audit(
    stored: Sequence[StoredEvent], progress: Callable[[int, int, int], None] | None = None
) -> AuditReport:
    """Re-derive every bot decision recorded in a match's stored events (in order).

    ``progress``, if given, is called after each event with (events done, events, bot
    decisions re-derived so far)."""
    tally = _Tally()
    state: MatchState | None = None
    # per seat: the rules events it was shown, in order, with their versions (what was
    # taken back is dropped, as the bot service drops it)
    seen: list[list[tuple[int, Event]]] = []
    previous: tuple[object, ...] | None = None
    for done, item in enumerate(_decode(stored), 1):
        key = _batch_key(item.cause)
        first_of_batch = key != previous
        if state is not None and first_of_batch and _by_bot_service(item.cause):
            seat = item.cause.seat
            shown = [event for _, event in seen[seat]] if 0 <= seat < len(seen) else []
            tally.add(state, item.cause, shown)
        previous = key
        state = aggregate.evolve(state, item.event)
        seen = seen or [[] for _ in range(state.players)]
        if isinstance(item.event, MovesTakenBack):
            seen = [aggregate.effective([*shown, (item.version, item.event)]) for shown in seen]
        elif item.type.startswith(f"{state.created.game}."):
            _share(item.version, item.event, seen)
        if progress is not None:
            progress(done, len(stored), tally.checked)
    return tally.report()


@dataclass
class _Tally:
    checked: int = 0
    equal: int = 0
    mismatches: list[Mismatch] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    policy_version: int = 0

    def add(self, state: MatchState, cause: events_pb2.Cause, shown: Sequence[Event]) -> None:
        decision = cause.bot_decision
        self.policy_version = policy_version(state.created.game)
        if decision.policy_version != self.policy_version:
            self.skipped.append(Skipped(state.version, cause.seat, decision.policy_version))
            return
        found = _check(state, cause, shown)
        self.checked += 1
        self.equal += 0 if found else 1
        self.mismatches += found

    def report(self) -> AuditReport:
        return AuditReport(
            self.checked,
            self.equal,
            tuple(self.mismatches),
            tuple(self.skipped),
            self.policy_version,
        )


def _by_bot_service(cause: events_pb2.Cause) -> bool:
    return cause.kind == ACTION and cause.HasField("bot_decision")


def knowledge_at(state: MatchState, seat: int, shown: Sequence[Event]) -> Knowledge:
    """The seat's knowledge as the bot service builds it from ``GetView`` and its stream:
    the view goes through its record and back into the class of a fresh state's view."""
    game, options = state.game, state.options()
    view = to_record(game.view(state.game_state, seat), f"{state.created.game}.View")
    view_class = type(game.view(game.initial_state(state.players, options), seat))
    return Knowledge(
        seat=seat,
        players=state.players,
        options=tuple(sorted(options.items())),
        view=from_record(view_class, view),
        history=tuple(shown),
    )


def _check(state: MatchState, cause: events_pb2.Cause, shown: Sequence[Event]) -> list[Mismatch]:
    decision, seat, version = cause.bot_decision, cause.seat, state.version
    found = []
    expected = decision_seed(state.created.match_id, seat, version, decision.level)
    if decision.rng_seed != expected:
        found.append(Mismatch(version, seat, str(decision.rng_seed), str(expected), "seed"))
    rederived = _rederive(state, seat, decision, shown)
    if rederived != cause.action:
        found.append(Mismatch(version, seat, cause.action, rederived))
    return found


def _rederive(
    state: MatchState, seat: int, decision: events_pb2.BotDecision, shown: Sequence[Event]
) -> str:
    """The action code the recorded level's policy chooses now, from the recorded seed."""
    game = state.game
    legal = [game.decode_action(game.encode_action(a)) for a in _legal(state, seat)]
    if not legal:
        return "(no legal action)"
    try:
        action: Any = policy_for(state.created.game, decision.level).decide(
            game,
            knowledge_at(state, seat, shown),
            legal,
            random.Random(decision.rng_seed),
            Budget(samples=decision.samples),
        )
    except Exception as error:  # reported as a mismatch, never hidden
        return f"(the policy failed: {type(error).__name__}: {error})"
    return "(pass)" if action is None else game.encode_action(action)


def _legal(state: MatchState, seat: int) -> Sequence[Any]:
    if state.ended is not None or not 0 <= seat < state.players:
        return ()
    return state.game.legal_actions(state.game_state, seat)


def _share(version: int, event: Event, seen: list[list[tuple[int, Event]]]) -> None:
    audience = event.audience()
    for seat, shown in enumerate(seen):
        if audience is None or seat in audience:
            shown.append((version, event))


def _batch_key(cause: events_pb2.Cause) -> tuple[object, ...]:
    """Consecutive events with the same cause form one batch (as ``verify.group``)."""
    return (cause.kind, cause.seat, cause.action, cause.chance_purpose, cause.command_id)


def _decode(stored: Sequence[StoredEvent]) -> list[_Logged]:
    if not stored:
        return []
    created = codec.decode_payload("", stored[0].type, stored[0].payload)
    if not isinstance(created, MatchCreated):
        raise ValueError("the stream does not begin with MatchCreated")
    return [
        _Logged(
            version=item.version,
            type=item.type,
            event=codec.decode_payload(created.game, item.type, item.payload),
            cause=codec.decode_metadata(item.metadata).cause,
        )
        for item in stored
    ]


__all__ = ["AuditReport", "Mismatch", "Skipped", "audit", "knowledge_at"]
