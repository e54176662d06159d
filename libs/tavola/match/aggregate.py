"""Fold and decide for a whole match (platform facts + the game's rules)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol, TypeVar

from tavola.match.events import (
    Correction,
    DeadlineSet,
    MatchCreated,
    MatchEnded,
    MovesTakenBack,
    PauseStarted,
    SeatAway,
    SeatBack,
    SeatCredentials,
    SeatInfo,
    SeatLeft,
    SeatReclaimed,
    SeedRevealed,
)
from tavola.rules import fairness, registry
from tavola.rules.errors import GameOver, IllegalAction, Reason
from tavola.rules.interface import ChanceRequest, Event, Game


@dataclass(frozen=True, slots=True)
class MatchState:
    created: MatchCreated
    game_state: Any
    version: int = 0
    token_sha256: tuple[str, ...] = ()
    ended: MatchEnded | None = None
    seed_hex: str | None = None
    deadlines: tuple[DeadlineSet, ...] = ()  # live deadlines, one per timed seat to act
    left: tuple[SeatLeft, ...] = ()
    pause: PauseStarted | None = None  # the pause before the next chance, once recorded
    # Practice tables only: the states just before each move of the person in this hand
    # (what ``MovesTakenBack`` returns to), newest last; a pending chance clears them.
    checkpoints: tuple[MatchState, ...] = field(default=(), compare=False, repr=False)
    lone_person: int | None = None  # the only seat not the platform's bot, if just one
    away: frozenset[int] = frozenset()  # seats whose client is gone (presence facts)
    corrections: tuple[Correction, ...] = ()  # a referee's, after the end (never play)

    @property
    def game(self) -> Game[Any, Any]:
        """The game under the rules version the match was played with."""
        return registry.played(self.created.game, self.created.rules_version)

    @property
    def players(self) -> int:
        return len(self.created.seats)

    def options(self) -> dict[str, str]:
        return {o.name: o.value for o in self.created.options}

    def client_seeds(self) -> tuple[bytes, ...]:
        return tuple(bytes.fromhex(s.client_seed_hex) for s in self.created.seats)

    def to_act(self) -> frozenset[int]:
        if self.ended is not None:
            return frozenset()
        return self.game.to_act(self.game_state)

    def awaited(self) -> frozenset[int]:
        """Seats the game waits for (``Game.decision``): those to act but for one that may
        only make an optional move (a Doppelkopf announcement while others play on). Only
        these get deadlines."""
        game = self.game
        return frozenset(s for s in self.to_act() if game.decision(self.game_state, s))

    def seat(self, seat: int) -> SeatInfo:
        """Who plays a seat now (a bot that took over a departed player is marked)."""
        info = self.created.seats[seat]
        for departure in self.left:
            if departure.seat == seat and departure.replaced_by:
                return replace(
                    info,
                    is_bot=True,
                    bot_level=departure.replaced_by,
                    player_name=f"Bot ({departure.replaced_by}) for {info.player_name}",
                )
        return info

    @property
    def practice_seat(self) -> int | None:
        """The one person at a practice table (every other seat the platform's bots, none
        left), who may take moves back; ``None`` at any other table."""
        person = self.lone_person
        return None if person is None or self.has_left(person) else person

    def has_left(self, seat: int) -> bool:
        return any(d.seat == seat for d in self.left)

    def reclaimable(self, seat: int) -> bool:
        """The seat's player was replaced by a bot by the leaver rule (not by choice, not
        taken out by the game's rules): they may come back and play it again."""
        return any(d.seat == seat and d.away and d.replaced_by for d in self.left)

    def person(self, seat: int) -> bool:
        """A seat played by a person or a third-party client now (not the platform's bot)."""
        return not self.seat(seat).bot_level

    def timed_by_engine(self, seat: int) -> bool:
        """Turn timers apply to people and third-party bots, not to the platform's own bots."""
        return not self.seat(seat).bot_level

    def timer_seconds(self, seat: int) -> int | None:
        """Seconds the seat on turn has before the engine acts for it, or ``None``.

        People and third-party bots: the game's turn timer. The platform's own bots: a
        watchdog (``bot_watchdog_seconds``) at tables where someone else plays, so a
        stalled bot service never keeps a person waiting; tables of bots only wait."""
        if self.timed_by_engine(seat):
            return self.game.turn_timer(self.game_state, seat)
        if any(self.timed_by_engine(s) for s in range(self.players)):
            return bot_watchdog_seconds(self.seat(seat).bot_think_ms)
        return None


BOT_WATCHDOG_GRACE_S = 30
"""What a platform bot may take beyond its thinking time before the engine moves for it."""


def bot_watchdog_seconds(think_ms: int) -> int:
    """The watchdog for a bot seat thinking ``think_ms`` a decision (0: the default, 1 s)."""
    return BOT_WATCHDOG_GRACE_S + -(-max(think_ms, 1000) // 1000)


@dataclass(frozen=True, slots=True)
class Batch:
    """Events produced by one cause (an action, one chance resolution, the system)."""

    kind: str  # "action" | "chance" | "system" | "timeout"
    events: tuple[Event, ...]
    seat: int = -1
    action: str = ""
    chance_purpose: str = ""
    reason: Reason | None = None


def start(created: MatchCreated) -> MatchState:
    game = registry.played(created.game, created.rules_version)
    options = {o.name: o.value for o in created.options}
    people = [s.seat for s in created.seats if not s.bot_level]
    return MatchState(
        created=created,
        game_state=game.initial_state(len(created.seats), options),
        lone_person=people[0] if len(people) == 1 and len(created.seats) > 1 else None,
    )


MAX_CHECKPOINTS = 64  # the moves of one hand a person may take back, newest first


def evolve(state: MatchState | None, event: Event) -> MatchState:
    if isinstance(event, MatchCreated):
        return _changed(start(event), version=1)
    if state is None:
        raise ValueError("a match stream must begin with MatchCreated")
    if not isinstance(event, PLATFORM_EVENTS):
        return _game_event(state, event)
    version = state.version + 1
    match event:
        case DeadlineSet(seat=seat):  # first: a person's every move sets one
            kept = tuple(d for d in state.deadlines if d.seat != seat)
            return _with_game(state, state.game_state, 1, (*kept, event))
        case MovesTakenBack(to_version=to_version):
            return _taken_back(_changed(state, version=version), to_version)
        case SeatCredentials(token_sha256=hashes):
            return _changed(state, version=version, token_sha256=hashes)
        case PauseStarted():
            return _changed(state, version=version, pause=event)
        case SeatLeft(seat=seat):
            kept = tuple(d for d in state.deadlines if d.seat != seat)
            return _changed(
                state,
                version=version,
                left=(*state.left, event),
                deadlines=kept,
                away=state.away - {seat},
            )
        case SeatAway(seat=seat):
            return _changed(state, version=version, away=state.away | {seat})
        case SeatBack(seat=seat):
            return _changed(state, version=version, away=state.away - {seat})
        case SeatReclaimed(seat=seat):
            kept = tuple(d for d in state.deadlines if d.seat != seat)  # the bot's watchdog
            left = tuple(d for d in state.left if d.seat != seat)
            return _changed(
                state, version=version, left=left, deadlines=kept, away=state.away - {seat}
            )
        case MatchEnded():
            return _changed(state, version=version, ended=event, deadlines=())
        case SeedRevealed(seed_hex=seed_hex):
            return _changed(state, version=version, seed_hex=seed_hex)
        case Correction():
            return _changed(state, version=version, corrections=(*state.corrections, event))
    return _game_event(state, event)


_FIELDS = tuple(f.name for f in fields(MatchState))


def _changed(state: MatchState, **changes: Any) -> MatchState:
    """``dataclasses.replace(state, **changes)``, several times cheaper: the fields are
    passed by position (``replace`` checks every field's kind and passes them by name).
    A replay makes one match state per platform event."""
    return MatchState(*[changes[n] if n in changes else getattr(state, n) for n in _FIELDS])


PLATFORM_EVENTS = (
    MovesTakenBack,
    SeatCredentials,
    DeadlineSet,
    PauseStarted,
    SeatLeft,
    SeatAway,
    SeatBack,
    SeatReclaimed,
    MatchEnded,
    SeedRevealed,
    Correction,
)
_NOT_RULES_EVENTS = (MatchCreated, *PLATFORM_EVENTS)
# Whether events of a type are the rules' (not ``_NOT_RULES_EVENTS``), found once per type:
# ``fold`` asks it of every event of a replay, and a dict answers faster than ``isinstance``
# against the dozen platform types.
_RULES_TYPES: dict[type, bool] = {}


def _game_event(before: MatchState, event: Event) -> MatchState:
    """A rules event: the game folds it; running deadlines of seats the game no longer
    waits for go. (Most of a replay: one copy of the match state per event, built without
    ``dataclasses.replace``.)"""
    game = before.game
    game_state = game.evolve(before.game_state, event)
    deadlines = before.deadlines
    if deadlines:
        deadlines = _awaited_only(game, game_state, deadlines, before.ended)
    return _checkpointed(before, _with_game(before, game_state, 1, deadlines))


def _awaited_only(
    game: Game[Any, Any],
    game_state: Any,
    deadlines: tuple[DeadlineSet, ...],
    ended: MatchEnded | None,
) -> tuple[DeadlineSet, ...]:
    """The deadlines of seats the game still waits for (``MatchState.awaited``) after a
    rules event: ``deadlines`` itself when all are kept."""
    if ended is not None:
        return ()
    # The seat's decision first: ``None`` once it has acted (the usual case), and then the
    # seats to act (a Doppelkopf table works out everyone's announcements) are not needed.
    kept = tuple(
        d
        for d in deadlines
        if game.decision(game_state, d.seat) and d.seat in game.to_act(game_state)
    )
    return deadlines if len(kept) == len(deadlines) else kept


def _with_game(
    state: MatchState,
    game_state: Any,
    events: int = 1,
    deadlines: tuple[DeadlineSet, ...] | None = None,
) -> MatchState:
    """``replace(state, version=state.version + events, game_state=game_state)`` (and
    ``deadlines`` when given), cheaper."""
    return MatchState(
        state.created,
        game_state,
        state.version + events,
        state.token_sha256,
        state.ended,
        state.seed_hex,
        state.deadlines if deadlines is None else deadlines,
        state.left,
        state.pause,
        state.checkpoints,
        state.lone_person,
        state.away,
        state.corrections,
    )


def _checkpointed(before: MatchState, after: MatchState) -> MatchState:
    """At a practice table, remember the state before a game event that came while the
    person was to act (their move begins there); forget them all once a chance is due
    (a hand once over is final: the next deal is never taken back)."""
    person = before.practice_seat
    if person is None:
        return after
    if after.ended is not None or after.game.chance(after.game_state) is not None:
        return _changed(after, checkpoints=())
    if person not in before.to_act():
        return after
    kept = (*before.checkpoints, _changed(before, checkpoints=()))[-MAX_CHECKPOINTS:]
    return _changed(after, checkpoints=kept)


def _taken_back(state: MatchState, to_version: int) -> MatchState:
    """The match as it was at ``to_version`` (a checkpoint), under the current version;
    platform facts that only accumulate (credentials, departures) stay, running deadlines
    go (the engine records fresh ones)."""
    for index, checkpoint in enumerate(state.checkpoints):
        if checkpoint.version == to_version:
            return _changed(
                checkpoint,
                version=state.version,
                token_sha256=state.token_sha256,
                left=state.left,
                deadlines=(),
                pause=None,
                checkpoints=state.checkpoints[:index],
            )
    raise ValueError(f"no move to take back to version {to_version}")


def fold(events: Sequence[Event], state: MatchState | None = None) -> MatchState:
    """``evolve`` over the events. A run of rules events while no one plays a practice
    table (most of a replay) is folded by the game alone, with one match state at its end:
    ``_game_event`` would change nothing else on the way but drop the running deadlines of
    seats no longer awaited, which the run does as it goes."""
    index, count = 0, len(events)
    rules_types = _RULES_TYPES
    while index < count:
        if state is None or state.practice_seat is not None:
            state = evolve(state, events[index])
            index += 1
            continue
        game, game_state, start = state.game, state.game_state, index
        deadlines = state.deadlines
        while index < count:
            event = events[index]
            rules = rules_types.get(type(event))
            if rules is None:
                rules = rules_types[type(event)] = not isinstance(event, _NOT_RULES_EVENTS)
            if not rules:
                break
            game_state = game.evolve(game_state, event)
            if deadlines:
                deadlines = _awaited_only(game, game_state, deadlines, state.ended)
            index += 1
        if index > start:
            state = _with_game(state, game_state, index - start, deadlines)
        if index < count:
            state = evolve(state, events[index])
            index += 1
    if state is None:
        raise ValueError("no events")
    return state


def token_matches(state: MatchState, seat: int, token: str) -> bool:
    if not 0 <= seat < len(state.token_sha256):
        return False
    return hashlib.sha256(token.encode()).hexdigest() == state.token_sha256[seat]


def decide_action(state: MatchState, seat: int, code: str) -> Batch:
    """Validate and decide a seat's action (raises a RulesError, changing nothing)."""
    if state.ended is not None:
        raise GameOver(Reason.of("game.over"))
    game = state.game
    action = game.decode_action(code)
    events = game.decide(state.game_state, seat, action)
    return Batch("action", tuple(events), seat=seat, action=game.encode_action(action))


def decide_leave(
    state: MatchState, seat: int, takeover_level: str = "easy", away: bool = False
) -> Batch:
    """A player leaves: the game's rules say what happens (``Game.seat_left``); when they
    say nothing, a bot of ``takeover_level`` takes the seat. ``away``: the platform applies
    the leaver rule to a player who stopped playing (who may come back)."""
    if state.ended is not None:
        raise GameOver(Reason.of("game.over"))
    if state.has_left(seat):
        raise IllegalAction(Reason.of("seat.already_left", seat=seat))
    events = state.game.seat_left(state.game_state, seat)
    left = SeatLeft(seat, "" if events else takeover_level, away)
    reason = Reason.of("seat.away_takeover", seat=seat) if away else None
    return Batch("leave", (left, *events), seat=seat, reason=reason)


def decide_take_back(state: MatchState, seat: int, last_move: int | None) -> Batch:
    """The person at a practice table takes back their last move of this hand and the bots'
    moves since. ``last_move``: the version just before that move's first event, found from
    the log's causes (``last_move_of``); it must be a checkpoint of this hand."""
    if state.ended is not None:
        raise GameOver(Reason.of("game.over"))
    if state.practice_seat != seat:
        raise IllegalAction(Reason.of("take_back.not_practice"))
    if last_move is None or all(c.version != last_move for c in state.checkpoints):
        raise IllegalAction(Reason.of("take_back.nothing", seat=seat))
    return Batch("take_back", (MovesTakenBack(seat, last_move),), seat=seat)


class Caused(Protocol):
    """An event of the log with its cause (``tavola.match.verify.Recorded`` is one)."""

    @property
    def version(self) -> int: ...
    @property
    def event(self) -> Event: ...
    @property
    def kind(self) -> str: ...
    @property
    def seat(self) -> int: ...
    @property
    def action(self) -> str: ...
    @property
    def chance_purpose(self) -> str: ...
    @property
    def command_id(self) -> str: ...


def cause_key(caused: Caused) -> tuple[object, ...]:
    """Consecutive events with the same key were appended by one cause (one batch)."""
    return (caused.kind, caused.seat, caused.action, caused.chance_purpose, caused.command_id)


def last_move_of(history: Sequence[Caused], seat: int) -> int | None:
    """The version just before the seat's last move (an action or a timeout of its own) in
    the match's effective history, or ``None`` if it has made none."""
    kept = effective([(c.version, c) for c in history])
    for index in range(len(kept) - 1, -1, -1):
        caused = kept[index][1]
        if caused.kind in ("action", "timeout") and caused.seat == seat:
            while index > 0 and cause_key(kept[index - 1][1]) == cause_key(caused):
                index -= 1
            return kept[index][0] - 1
    return None


T = TypeVar("T")


def effective(history: Sequence[tuple[int, T]]) -> list[tuple[int, T]]:
    """The match's history without what was taken back: each ``MovesTakenBack`` (an item
    that is one, or has it as ``.event``) removes the items after its ``to_version`` and
    itself. What a seat's bot knows is built from this."""
    kept: list[tuple[int, T]] = []
    for version, item in history:
        event = getattr(item, "event", item)
        if isinstance(event, MovesTakenBack):
            kept = [(v, i) for v, i in kept if v <= event.to_version]
        else:
            kept.append((version, item))
    return kept


def decide_timeout(state: MatchState, seat: int) -> Batch:
    """The automatic action for a seat whose timer ran out, recorded with its reason."""
    game = state.game
    action, reason = game.automatic_action(state.game_state, seat)
    events = game.decide(state.game_state, seat, action)
    return Batch(
        "timeout", tuple(events), seat=seat, action=game.encode_action(action), reason=reason
    )


PAUSE_BEFORE_END = "end"
"""The ``PauseStarted.purpose`` of the pause between a match's last game and its end."""


def settle(state: MatchState, seed: bytes, now_ms: int | None = None) -> list[Batch]:
    """What follows on its own: chance from the seed, then the end and the seed's reveal
    (a deal group's match: the end only; ``reveal`` follows when the group has ended).

    With a clock (``now_ms``) a pause the game asks for before a chance or before the end
    (``pause_before_chance`` / ``pause_before_end``) is recorded (``PauseStarted``) and
    settling stops until it has passed; tables of bots only and the offline verifier (no
    clock) do not pause."""
    batches: list[Batch] = []
    game = state.game
    while (request := game.chance(state.game_state)) is not None:
        seconds = game.pause_before_chance(state.game_state)
        pause = _pause(state, request.purpose, seconds, now_ms)
        if pause is not None:
            if pause.events:
                batches.append(pause)
            return batches
        batch = resolve_chance(state, request, seed)
        batches.append(batch)
        state = fold(batch.events, state)
    if state.ended is None and game.is_over(state.game_state):
        seconds = game.pause_before_end(state.game_state)
        pause = _pause(state, PAUSE_BEFORE_END, seconds, now_ms)
        if pause is not None:
            if pause.events:
                batches.append(pause)
            return batches
        ended = MatchEnded(game.standings(state.game_state))
        if state.created.deal_group:  # revealed when the whole group has ended (reveal)
            batches.append(Batch("system", (ended,)))
        else:
            batches.append(Batch("system", (ended, SeedRevealed(seed.hex()))))
    return batches


def reveal(state: MatchState, seed: bytes) -> Batch | None:
    """The deferred reveal of a deal group's match, once it has ended (None: nothing to do:
    revealed already; raises ``IllegalAction`` before the end)."""
    if state.ended is None:
        raise IllegalAction(Reason.of("match.not_finished", match_id=state.created.match_id))
    if state.seed_hex is not None:
        return None
    return Batch("system", (SeedRevealed(seed.hex()),))


def _pause(
    state: MatchState, purpose: str, seconds: int | None, now_ms: int | None
) -> Batch | None:
    """A batch recording the pause before ``purpose`` (or an empty one: still pausing), or
    None: go on."""
    if now_ms is None or not any(state.timed_by_engine(s) for s in range(state.players)):
        return None
    if not seconds:
        return None
    if state.pause is None or state.pause.purpose != purpose:
        return Batch("system", (PauseStarted(purpose, now_ms + seconds * 1000, seconds),))
    if now_ms < state.pause.until_ms:
        return Batch("system", ())
    return None


def deadlines_due(state: MatchState, now_ms: int, acted: int | None = None) -> Batch | None:
    """Deadlines to record after a change: each timed seat to act that has none running
    (the seat that just acted, ``acted``, always gets a fresh one). Bot seats' watchdogs
    included (``MatchState.timer_seconds``)."""
    if state.ended is not None:
        return None
    running = {d.seat for d in state.deadlines if d.seat != acted}
    events: list[Event] = []
    for seat in sorted(state.awaited()):
        if seat in running:
            continue
        seconds = state.timer_seconds(seat)
        if seconds:
            events.append(DeadlineSet(seat, now_ms + seconds * 1000, seconds))
    return Batch("system", tuple(events)) if events else None


def resolve_chance(state: MatchState, request: ChanceRequest, seed: bytes) -> Batch:
    outcome = fairness.outcome(seed, state.client_seeds(), request)
    events = state.game.resolve_chance(state.game_state, request, outcome)
    return Batch("chance", tuple(events), chance_purpose=request.purpose)
