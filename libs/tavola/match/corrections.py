"""A referee's corrections of a finished match: validated, then folded into its result.

A correction is a ``match.Correction`` event appended after the match's end (nothing is
ever edited): ``void_game`` (the match counts for nothing), ``void_hand`` (the points that
hand scored are taken away again) or ``adjust_score`` (points added to some seats). The
result a match counts for — in standings, ratings, statistics and league tables — is
``corrected(...)`` of its events; the verifier re-checks every correction with
``check``, the same rule the engine applied when it was filed.

Hands are numbered from 1 in the order of their deals (chance purposes ``deal/N``); a
hand's points are the change of the game's running standings from its deal to the next
deal (or to the end).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from tavola.match import aggregate
from tavola.match.aggregate import MatchState
from tavola.match.events import (
    ADJUST_SCORE,
    CORRECTION_KINDS,
    VOID_GAME,
    VOID_HAND,
    Correction,
    MatchEnded,
)
from tavola.rules import registry
from tavola.rules.errors import Reason
from tavola.rules.interface import Event, SeatScore, rank_scores

MAX_REASON = 500
MAX_AMOUNT = 100_000


class CorrectionRefused(Exception):
    """A correction that may not be filed: ``invalid`` (the request is wrong) or not
    (the match is not in a state to take it)."""

    def __init__(self, reason: Reason, invalid: bool = True) -> None:
        super().__init__(reason.code)
        self.reason = reason
        self.invalid = invalid


class Caused(Protocol):
    @property
    def version(self) -> int: ...
    @property
    def event(self) -> Event: ...
    @property
    def kind(self) -> str: ...
    @property
    def chance_purpose(self) -> str: ...


@dataclass(frozen=True, slots=True)
class Hand:
    number: int  # from 1
    first_version: int  # the version of its deal's first event
    points: tuple[int, ...]  # per seat: what the hand changed in the running standings


def _deal_number(purpose: str) -> int | None:
    if not purpose.startswith("deal/"):
        return None
    digits = ""
    for char in purpose[5:]:
        if not char.isdigit():
            break
        digits += char
    return int(digits) if digits else None


def _scores(state: MatchState) -> tuple[int, ...]:
    by_seat = {s.seat: s.score for s in state.game.standings(state.game_state)}
    return tuple(by_seat.get(seat, 0) for seat in range(state.players))


def hands(records: Sequence[Caused]) -> list[Hand]:
    """The match's hands with the points each scored (the events of a whole match, in
    order, with their causes; anything after the end is ignored)."""
    state: MatchState | None = None
    starts: list[tuple[int, tuple[int, ...]]] = []  # (first version, scores before)
    current: int | None = None
    final: tuple[int, ...] = ()
    for record in records:
        if isinstance(record.event, Correction):
            break
        if state is not None and record.kind == "chance":
            number = _deal_number(record.chance_purpose)
            if number is not None and number != current:
                current = number
                starts.append((record.version, _scores(state)))
        if isinstance(record.event, MatchEnded):
            by_seat = {s.seat: s.score for s in record.event.standings}
            final = tuple(by_seat.get(seat, 0) for seat in range(len(by_seat)))
        state = aggregate.evolve(state, record.event)
    if state is None:
        return []
    end = final or _scores(state)
    out = []
    for index, (version, before) in enumerate(starts):
        after = starts[index + 1][1] if index + 1 < len(starts) else end
        points = tuple(a - b for a, b in zip(after, before, strict=False))
        out.append(Hand(index + 1, version, points))
    return out


def check(
    state: MatchState,
    records: Sequence[Caused],
    kind: str,
    seats: Sequence[int],
    amount: int,
    hand: int,
    reason: str,
) -> tuple[tuple[int, ...], int]:
    """Refuse (``CorrectionRefused``) a correction that may not be filed on this match
    (``state``: the match with the corrections filed so far); else the seats it names and
    the version of the event it corrects."""
    if state.ended is None:
        raise CorrectionRefused(
            Reason.of("correction.not_finished", match_id=state.created.match_id), False
        )
    if kind not in CORRECTION_KINDS:
        raise CorrectionRefused(Reason.of("correction.bad_kind", kind=kind[:32]))
    text = reason.strip()
    if not 1 <= len(text) <= MAX_REASON or text != reason:
        raise CorrectionRefused(Reason.of("correction.bad_reason", limit=MAX_REASON))
    if any(c.kind == VOID_GAME for c in state.corrections):
        raise CorrectionRefused(Reason.of("correction.game_void"), False)
    ended = _ended_version(records)
    if kind == VOID_GAME:
        _no_extras(seats, amount, hand)
        return (), ended
    if not state.game.ranked_by_score(state.game_state):
        raise CorrectionRefused(Reason.of("correction.not_by_score"), False)
    if kind == VOID_HAND:
        _no_extras(seats, amount, 0)
        found = hands(records)
        if not 1 <= hand <= len(found):
            raise CorrectionRefused(
                Reason.of("correction.no_such_hand", hand=hand, hands=len(found))
            )
        if any(c.kind == VOID_HAND and c.hand == hand for c in state.corrections):
            raise CorrectionRefused(Reason.of("correction.hand_void", hand=hand), False)
        return (), found[hand - 1].first_version
    if hand:
        raise CorrectionRefused(Reason.of("correction.field_unused", field="hand", kind=kind))
    if not seats:
        raise CorrectionRefused(Reason.of("correction.no_seats"))
    for seat in seats:
        if not 0 <= seat < state.players:
            raise CorrectionRefused(
                Reason.of("correction.bad_seat", seat=seat, last=state.players - 1)
            )
    if len(set(seats)) != len(seats):
        raise CorrectionRefused(Reason.of("correction.seat_twice"))
    if state.game.info.teams and state.players == 4:  # partners share one score
        for seat in seats:
            if (seat + 2) % 4 not in seats:
                raise CorrectionRefused(
                    Reason.of("correction.partner_missing", seat=seat, partner=(seat + 2) % 4)
                )
    if amount == 0 or abs(amount) > MAX_AMOUNT:
        raise CorrectionRefused(Reason.of("correction.bad_amount", limit=MAX_AMOUNT))
    return tuple(seats), ended


def _no_extras(seats: Sequence[int], amount: int, hand: int) -> None:
    for name, value in (("seats", bool(seats)), ("amount", bool(amount)), ("hand", bool(hand))):
        if value:
            raise CorrectionRefused(Reason.of("correction.field_unused", field=name, kind=""))


def _ended_version(records: Sequence[Caused]) -> int:
    for record in records:
        if isinstance(record.event, MatchEnded):
            return record.version
    raise CorrectionRefused(Reason.of("correction.not_finished", match_id=""), False)


def build(
    state: MatchState,
    records: Sequence[Caused],
    kind: str,
    seats: Sequence[int],
    amount: int,
    hand: int,
    reason: str,
    referee: str,
) -> Correction:
    """The correction to append (checked; raises ``CorrectionRefused``)."""
    kept, references = check(state, records, kind, seats, amount, hand, reason)
    return Correction(kind, kept, amount, hand, reason, referee, references)


@dataclass(frozen=True, slots=True)
class Result:
    """What a finished match counts for once its corrections are applied."""

    voided: bool
    standings: tuple[SeatScore, ...]  # as played when voided, else corrected
    corrected: bool  # some correction changed the standings


def corrected(game: str, records: Sequence[Caused]) -> Result | None:
    """The match's result with every correction in ``records`` applied (None: it has not
    ended). Pass only the corrections known at a point of the log to get the result as
    it was then."""
    ended: MatchEnded | None = None
    corrections: list[Correction] = []
    for record in records:
        if isinstance(record.event, MatchEnded):
            ended = record.event
        elif isinstance(record.event, Correction):
            corrections.append(record.event)
    if ended is None:
        return None
    return apply(game, ended.standings, corrections, lambda: hands(records))


def apply(
    game: str,
    standings: tuple[SeatScore, ...],
    corrections: Sequence[Correction],
    hands_of: Callable[[], list[Hand]],
) -> Result:
    if any(c.kind == VOID_GAME for c in corrections):
        return Result(True, standings, False)
    if not corrections:
        return Result(False, standings, False)
    by_seat = {s.seat: s.score for s in standings}
    found: list[Hand] | None = None
    for correction in corrections:
        if correction.kind == VOID_HAND:
            found = found if found is not None else hands_of()
            if not 1 <= correction.hand <= len(found):
                continue  # (the verifier refuses such a correction)
            points = found[correction.hand - 1].points
            for seat, value in enumerate(points):
                if seat in by_seat:
                    by_seat[seat] -= value
        elif correction.kind == ADJUST_SCORE:
            for seat in correction.seats:
                if seat in by_seat:
                    by_seat[seat] += correction.amount
    seats = sorted(by_seat)
    ranked = rank_scores([by_seat[s] for s in seats], registry.get(game).info.lower_score_wins)
    out = tuple(replace(r, seat=seats[r.seat]) for r in ranked)
    return Result(False, tuple(sorted(out, key=lambda s: s.seat)), True)


__all__ = [
    "MAX_AMOUNT",
    "MAX_REASON",
    "CorrectionRefused",
    "Hand",
    "Result",
    "apply",
    "build",
    "check",
    "corrected",
    "hands",
]
