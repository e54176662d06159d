"""Drive a game without any service: resolve chance from a seed, apply actions.

Used by tests, benchmarks, bots and the offline verifier. Pure: randomness comes only from
the given seed (chance) and the given ``random.Random`` instance (choices).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavola.rules import fairness
from tavola.rules.interface import Deferral, Event, Game, OptionValue


@dataclass
class Playout:
    """A complete record of a driven match: every event, grouped by cause."""

    game: Game[Any, Any]
    state: Any
    events: list[Event] = field(default_factory=list)
    actions: int = 0


def resolve_all_chance(
    game: Game[Any, Any], state: Any, seed: bytes, client_seeds: Sequence[bytes] = ()
) -> tuple[Any, list[Event]]:
    """Resolve every pending chance request from the seed; returns the new state and events."""
    produced: list[Event] = []
    while (request := game.chance(state)) is not None:
        events = game.resolve_chance(state, request, fairness.outcome(seed, client_seeds, request))
        for event in events:
            state = game.evolve(state, event)
        produced += events
    return state, produced


Chooser = Callable[[Game[Any, Any], Any, int, Sequence[Any], random.Random], Any]


def random_choice(
    game: Game[Any, Any], state: Any, seat: int, legal: Sequence[Any], rng: random.Random
) -> Any:
    """Uniform among the legal actions that move the game (a ``Deferral`` only lets a
    seat's optional decisions pass: a random player lets them pass by playing on)."""
    if not game.defers:
        return legal[rng.randrange(len(legal))]
    moving = [a for a in legal if not isinstance(a, Deferral)] or list(legal)
    return moving[rng.randrange(len(moving))]


def play_match(
    game: Game[Any, Any],
    players: int,
    options: Mapping[str, OptionValue] | None = None,
    seed: bytes = b"\x00" * 32,
    rng: random.Random | None = None,
    choose: Chooser = random_choice,
    max_actions: int = 1_000_000,
) -> Playout:
    """Play a whole match with ``choose`` picking each action (default: uniform random)."""
    rng = rng or random.Random(0)
    state = game.initial_state(players, options or {})
    out = Playout(game=game, state=state)
    # the game's methods held once: this loop is every benchmark's and playout's hot path
    chance, is_over, to_act = game.chance, game.is_over, game.to_act
    legal_actions, decide, evolve = game.legal_actions, game.decide, game.evolve
    randrange, produced, actions = rng.randrange, out.events, 0
    while True:
        if chance(state) is not None:
            state, events = resolve_all_chance(game, state, seed)
            produced += events
        if is_over(state):
            break
        seats = sorted(to_act(state))
        if not seats:
            raise RuntimeError(f"{game.info.name}: deadlock, nobody to act and no chance")
        seat = seats[randrange(len(seats))]
        legal = legal_actions(state, seat)
        if not legal:
            raise RuntimeError(f"{game.info.name}: seat {seat} to act with no legal action")
        action = choose(game, state, seat, legal, rng)
        events = decide(state, seat, action)
        for event in events:
            state = evolve(state, event)
        produced += events
        actions += 1
        if actions > max_actions:
            raise RuntimeError(f"{game.info.name}: no end after {max_actions} actions")
    out.actions = actions
    out.state = state
    return out
