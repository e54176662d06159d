"""Building a seat's knowledge from a full event list (tests, arenas, the offline driver)
exactly as the engine's redaction does: events outside the seat's audience are dropped."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from tavola.bots.interface import Knowledge
from tavola.rules.interface import Event, Game


def visible(events: Iterable[Event], seat: int) -> tuple[Event, ...]:
    out = []
    for event in events:
        audience = event.audience()
        if audience is None or seat in audience:
            out.append(event)
    return tuple(out)


def knowledge_of(
    game: Game[Any, Any],
    state: Any,
    events: Iterable[Event],
    seat: int,
    options: Mapping[str, Any] | None = None,
) -> Knowledge:
    return Knowledge(
        seat=seat,
        players=game.players(state),
        options=tuple(sorted((k, str(v)) for k, v in (options or {}).items())),
        view=game.view(state, seat),
        history=visible(events, seat),
    )
