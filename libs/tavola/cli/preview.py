"""Tables without a platform: the responses the engine would send, built from a game's
rules alone, for the renderer's tests and the screenshots in ``docs/screenshots/``.

A match is driven from a seed with a seeded chooser (``tavola.rules.driver``'s way);
at every decision of the watched seat a ``GetViewResponse`` is built as the engine's
``services/engine/queries.py`` builds it — the view through ``to_record``, the legal
actions with their codes and labels, the blocked items with their rendered reasons,
standings and the running deadlines of the game's timers — with the events seen so far as
``EventEnvelope``s redacted for the seat.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from google.protobuf.timestamp_pb2 import Timestamp

from tavola.protocol import events as codec
from tavola.protocol.records import to_record
from tavola.rules import fairness, registry
from tavola.rules.errors import RulesError
from tavola.rules.interface import Event, Game
from tavola.rules.messages import render
from tavola.v1 import events_pb2, game_pb2

NAMES = ("ana", "Bot 2 (hard)", "Bot 3 (hard)", "Bot 4 (hard)", "Bot 5", "Bot 6", "Bot 7")
PREVIEW_MATCH = "5f0c2a9e-7d41-4c3b-9a6e-2b8f1d3c4e70"


@dataclass(frozen=True)
class Scene:
    """One moment of a match as a seat's client sees it."""

    view: game_pb2.GetViewResponse
    events: tuple[events_pb2.EventEnvelope, ...]
    steps: int


def default_players(game: Game[Any, Any]) -> int:
    info = game.info
    return 4 if info.min_players <= 4 <= info.max_players else info.min_players


def scenes(
    name: str,
    seat: int = 0,
    players: int | None = None,
    options: dict[str, str] | None = None,
    locale: str = "en",
    seed: int = 7,
    now: float = 1_800_000_000.0,
    limit: int = 10_000,
) -> Iterator[Scene]:
    """Every decision of ``seat`` in one seeded match (at most ``limit``), then the end."""
    game = registry.get(name)
    count = players or default_players(game)
    state = game.initial_state(count, game.parse_options(options or {}, count))
    rng = random.Random(seed)
    match_seed = bytes([seed % 256]) * 32
    log: list[events_pb2.EventEnvelope] = []
    steps = 0
    while True:
        state = _chance(game, state, match_seed, seat, log)
        if game.is_over(state) or steps >= limit:
            break
        acting = sorted(game.to_act(state))
        if seat in acting:
            yield Scene(response(game, state, seat, len(log), locale, now), tuple(log), steps)
        mover = acting[rng.randrange(len(acting))]
        legal = game.legal_actions(state, mover)
        action = legal[rng.randrange(len(legal))]
        events = game.decide(state, mover, action)
        cause = events_pb2.Cause(
            kind=events_pb2.CAUSE_KIND_ACTION, seat=mover, action=game.encode_action(action)
        )
        state = _record(game, state, events, cause, seat, log)
        steps += 1
    yield Scene(response(game, state, seat, len(log), locale, now), tuple(log), steps)


def _chance(game: Game[Any, Any], state: Any, seed: bytes, seat: int, log: list[Any]) -> Any:
    while (request := game.chance(state)) is not None:
        events = game.resolve_chance(state, request, fairness.outcome(seed, (), request))
        cause = events_pb2.Cause(
            kind=events_pb2.CAUSE_KIND_CHANCE, seat=-1, chance_purpose=request.purpose
        )
        state = _record(game, state, events, cause, seat, log)
    return state


def _record(
    game: Game[Any, Any],
    state: Any,
    events: list[Event],
    cause: events_pb2.Cause,
    seat: int,
    log: list[events_pb2.EventEnvelope],
) -> Any:
    for index, event in enumerate(events):
        state = game.evolve(state, event)
        audience = event.audience()
        hidden = audience is not None and seat not in audience
        envelope = events_pb2.EventEnvelope(
            match_id=PREVIEW_MATCH,
            version=len(log) + 1,
            type=f"{game.info.name}.{type(event).__name__}",
            hidden=hidden,
            cause=cause,
            to_act=sorted(game.to_act(state)),
            last_in_batch=index == len(events) - 1,
            public=audience is None,
        )
        if not hidden:
            envelope.payload.CopyFrom(to_record(event))
        log.append(envelope)
    return state


def response(
    game: Game[Any, Any], state: Any, seat: int, version: int, locale: str, now: float
) -> game_pb2.GetViewResponse:
    """The ``GetViewResponse`` the engine would send the seat (queries.py's recipe)."""
    name = game.info.name
    standings = [
        game_pb2.SeatStanding(
            seat=s.seat,
            score=s.score,
            rank=s.rank,
            player_name=NAMES[s.seat % len(NAMES)],
            is_bot=s.seat != seat,
        )
        for s in game.standings(state)
    ]
    out = game_pb2.GetViewResponse(
        version=version,
        view=to_record(game.view(state, seat), f"{name}.View"),
        to_act=sorted(game.to_act(state)),
        finished=game.is_over(state),
        standings=standings,
        game=name,
        deadlines=_deadlines(game, state, now),
    )
    if not game.is_over(state):
        legal = game.legal_actions(state, seat)
        out.legal_actions.extend(
            game_pb2.LegalAction(code=game.encode_action(a), label=game.describe_action(a))
            for a in legal
        )
        out.blocked.extend(_blocked(game, state, seat, legal, locale))
    return out


def _deadlines(game: Game[Any, Any], state: Any, now: float) -> list[game_pb2.SeatDeadline]:
    out = []
    for seat in sorted(game.to_act(state)):
        seconds = game.turn_timer(state, seat)
        if seconds:
            stamp = Timestamp()
            stamp.FromMilliseconds(int((now + seconds - 3) * 1000))
            out.append(game_pb2.SeatDeadline(seat=seat, deadline=stamp, seconds=seconds))
    return out


def _blocked(
    game: Game[Any, Any], state: Any, seat: int, legal: Any, locale: str
) -> list[game_pb2.BlockedAction]:
    view = game.view(state, seat)
    codes = {game.encode_action(a) for a in legal}
    out = []
    for item in getattr(view, "hand", ()):
        code = getattr(item, "code", None)
        if code is None or code in codes:
            continue
        try:
            reason = game.why_illegal(state, seat, game.decode_action(code))
        except RulesError:
            continue
        if reason is not None:
            out.append(
                game_pb2.BlockedAction(
                    code=code, reason=codec.reason_to_pb(reason, render(reason, locale))
                )
            )
    return out
