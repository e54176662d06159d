"""Seeded positions of every game: the bots' decisions are pinned on them
(``tests/unit/bots/test_pinned_decisions.py``) and ``tavola.bench`` times the master on them.

A position is reached by a seeded random match (``driver``'s loop: chance from the seed, a
seat among those to act, a uniformly random legal action) stopped at its ``step``-th
decision; the seat deciding there is given its ``Knowledge`` exactly as the engine's
redaction gives it (``tavola.bots.knowledge``).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from tavola.bots.interface import Knowledge
from tavola.bots.knowledge import knowledge_of
from tavola.rules import driver, registry
from tavola.rules.interface import Deferral, OptionValue


@dataclass(frozen=True)
class Table:
    """A seeded match: its game, players, options and the seed of chance and choices."""

    game: str
    players: int
    options: Mapping[str, OptionValue]
    seed: int


@dataclass(frozen=True)
class Position:
    """The ``step``-th decision of a table's match: who decides, knowing what, among what."""

    table: Table
    step: int
    seat: int
    knowledge: Knowledge
    legal: tuple[Any, ...]

    @property
    def key(self) -> str:
        """A stable name: ``game/players/options/seed/step``."""
        t = self.table
        options = ",".join(f"{k}={v}" for k, v in sorted(t.options.items()))
        return f"{t.game}/{t.players}/{options}/{t.seed}/{self.step}"


TABLES = (
    Table("fan-tan", 4, {"hands": 1}, 1),
    Table("fan-tan", 5, {"hands": 1, "penalty": "card_value"}, 2),
    Table("spades", 4, {"hands": 1}, 3),
    Table("barbu", 4, {"blocks": 1}, 4),
    Table("dominoes", 4, {"mode": "partnership", "target": 1}, 5),
    Table("dominoes", 2, {"mode": "draw", "target": 1}, 6),
    Table("doppelkopf", 4, {"preset": "official", "match": "one_game"}, 7),
    Table("doppelkopf", 4, {"preset": "tavern", "match": "one_game", "armut": True}, 8),
)
PER_TABLE = 8  # positions per table, spread over the match


def positions(table: Table, count: int = PER_TABLE) -> list[Position]:
    """About ``count`` positions of the match with a real choice: the first and the middle
    one of each kind of decision (a bid, a contract, a double, a card…), then positions
    spread evenly over the rest of the match."""
    found = [p for p in _decisions(table) if len(_moving(p.legal)) > 1]
    kinds: dict[str, list[Position]] = {}
    for p in found:
        kinds.setdefault(type(_moving(p.legal)[0]).__name__, []).append(p)
    chosen = {p.step: p for group in kinds.values() for p in (group[0], group[len(group) // 2])}
    stride = len(found) / count if found else 1
    for i in range(count):
        if len(chosen) >= count:
            break
        p = found[int(i * stride)]
        chosen.setdefault(p.step, p)
    return [chosen[step] for step in sorted(chosen)]


def _moving(legal: tuple[Any, ...]) -> list[Any]:
    return [a for a in legal if not isinstance(a, Deferral)]


def _decisions(table: Table) -> Iterator[Position]:
    game = registry.get(table.game)
    options = dict(table.options)
    rng = random.Random(table.seed)
    seed = table.seed.to_bytes(32, "big")
    state = game.initial_state(table.players, options)
    events: list[Any] = []
    step = 0
    while True:
        state, chance = driver.resolve_all_chance(game, state, seed)
        events += chance
        if game.is_over(state):
            return
        seats = sorted(game.to_act(state))
        seat = seats[rng.randrange(len(seats))]
        legal = tuple(game.legal_actions(state, seat))
        knowledge = knowledge_of(game, state, events, seat, options)
        yield Position(table, step, seat, knowledge, legal)
        action = driver.random_choice(game, state, seat, legal, rng)
        for event in game.decide(state, seat, action):
            state = game.evolve(state, event)
            events.append(event)
        step += 1


def all_positions() -> list[Position]:
    """Every table's positions, in ``TABLES`` order."""
    return [p for table in TABLES for p in positions(table)]
