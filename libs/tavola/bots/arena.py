"""Arenas: one bot level against another, seats rotated and deals duplicated.

For every deal seed the same match is played once per rotation (level A on the even seats,
then on the odd ones), so both levels meet the same cards from the same seats. The measure
is the mean difference of final scores between A's seats and B's seats (sign-adjusted so
positive favours A when lower scores win), with a 95% confidence interval over deal seeds.
Deterministic: the same deals give the same figures whether they are played in one process
or split over several (``jobs``); the caller may pass a clock to time decisions.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tavola.bots.interface import Budget, Knowledge, Policy
from tavola.bots.registry import policy_for
from tavola.rules import registry
from tavola.rules.driver import resolve_all_chance
from tavola.rules.interface import Event, Game


@dataclass
class DecisionTimes:
    by_level: dict[str, list[float]] = field(default_factory=dict)

    def add(self, level: str, seconds: float) -> None:
        self.by_level.setdefault(level, []).append(seconds)


def play(
    game: Game[Any, Any],
    players: int,
    options: Mapping[str, Any],
    seed: bytes,
    levels: Sequence[str],
    rng_seed: int,
    budget: Budget,
    clock: Callable[[], float] | None = None,
    times: DecisionTimes | None = None,
) -> tuple[Any, list[Event]]:
    """One match with ``levels[seat]`` playing each seat; returns the final state and events."""
    policies: list[Policy] = [policy_for(game.info.name, level) for level in levels]
    state = game.initial_state(players, options)
    events: list[Event] = []
    seen: list[list[Event]] = [[] for _ in range(players)]
    rng = random.Random(rng_seed)
    opts = tuple(sorted((k, str(v)) for k, v in options.items()))
    while True:
        state, produced = resolve_all_chance(game, state, seed)
        _share(produced, seen)
        events += produced
        if game.is_over(state):
            return state, events
        seat, action = _next_action(
            game, state, players, opts, seen, policies, levels, rng, budget, clock, times
        )
        produced = game.decide(state, seat, action)
        state = game.fold(state, produced)
        _share(produced, seen)
        events += produced


def _next_action(
    game: Game[Any, Any],
    state: Any,
    players: int,
    opts: tuple[tuple[str, str], ...],
    seen: list[list[Event]],
    policies: list[Policy],
    levels: Sequence[str],
    rng: random.Random,
    budget: Budget,
    clock: Callable[[], float] | None,
    times: DecisionTimes | None,
) -> tuple[int, Any]:
    """Ask the seats that may act, in seat order; the first that does not pass acts."""
    for seat in sorted(game.to_act(state)):
        legal = game.legal_actions(state, seat)
        knowledge = Knowledge(seat, players, opts, game.view(state, seat), tuple(seen[seat]))
        started = clock() if clock else 0.0
        action = policies[seat].decide(game, knowledge, legal, random.Random(rng.random()), budget)
        if clock and times is not None:
            times.add(levels[seat], clock() - started)
        if action is not None:
            return seat, action
    raise RuntimeError(f"{game.info.name}: every seat to act let its turn pass")


def _share(events: Sequence[Event], seen: list[list[Event]]) -> None:
    for event in events:
        audience = event.audience()
        for seat, visible in enumerate(seen):
            if audience is None or seat in audience:
                visible.append(event)


@dataclass(frozen=True)
class Pairing:
    game: str
    better: str
    worse: str
    matches: int
    mean: float
    low: float
    high: float

    def line(self) -> str:
        verdict = "yes" if self.low > 0 else "NO"
        return (
            f"{self.game:>11} {self.better:>6} vs {self.worse:<6} n={self.matches:<4} "
            f"mean diff {self.mean:+8.2f}  95% CI [{self.low:+8.2f}, {self.high:+8.2f}]"
            f"  beats: {verdict}"
        )


def pairing(
    game: Game[Any, Any],
    players: int,
    options: Mapping[str, Any],
    better: str,
    worse: str,
    deals: int,
    budget: Budget,
    clock: Callable[[], float] | None = None,
    times: DecisionTimes | None = None,
    jobs: int = 1,
) -> Pairing:
    """``deals`` duplicated deals (seeds 0..deals-1), each played in both rotations. With
    ``jobs`` > 1 the deals are split over that many processes (same deals, same results)."""
    spans = [range(start, deals, max(1, jobs)) for start in range(min(max(1, jobs), deals))]
    args = [
        (game.info.name, players, dict(options), better, worse, span, budget, clock)
        for span in spans
    ]
    if len(args) > 1:
        with ProcessPoolExecutor(len(args)) as pool:
            parts = list(pool.map(_deal_diffs, *zip(*args, strict=True)))
    else:
        parts = [_deal_diffs(*a) for a in args]
    by_deal: dict[int, float] = {}
    for diffs, seen_times in parts:
        by_deal.update(diffs)
        if times is not None:
            for level, values in seen_times.by_level.items():
                times.by_level.setdefault(level, []).extend(values)
    ordered = [by_deal[d] for d in sorted(by_deal)]
    mean = statistics.fmean(ordered)
    spread = statistics.stdev(ordered) if len(ordered) > 1 else math.inf
    half = 1.96 * spread / math.sqrt(len(ordered))
    return Pairing(game.info.name, better, worse, len(ordered), mean, mean - half, mean + half)


def _deal_diffs(
    name: str,
    players: int,
    options: Mapping[str, Any],
    better: str,
    worse: str,
    deals: range,
    budget: Budget,
    clock: Callable[[], float] | None,
) -> tuple[dict[int, float], DecisionTimes]:
    """Per deal: the sign-adjusted mean score difference of ``better``'s seats over
    ``worse``'s, averaged over the two rotations."""
    game = registry.get(name)
    times = DecisionTimes()
    sign = -1.0 if game.info.lower_score_wins else 1.0
    diffs = {}
    for deal in deals:
        seed = deal.to_bytes(32, "big")
        total = 0.0
        for rotation in range(2):
            levels = [better if (s + rotation) % 2 == 0 else worse for s in range(players)]
            state, _ = play(
                game, players, options, seed, levels, deal * 2 + rotation, budget, clock, times
            )
            scores = {s.seat: s.score for s in game.standings(state)}
            mine = [scores[s] for s in range(players) if levels[s] == better]
            theirs = [scores[s] for s in range(players) if levels[s] == worse]
            total += sign * (statistics.fmean(mine) - statistics.fmean(theirs))
        diffs[deal] = total / 2
    return diffs, times
