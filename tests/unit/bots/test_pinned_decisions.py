"""Every level of every game decides on seeded positions exactly as it did before the rules
and the bots were made faster (issue #13): the same action, and the same RNG draws used
(the next draw after the decision is pinned too), so recorded decisions still re-derive.

The pins (``pinned_decisions.txt``) were written from the code before that change; a
position is a seeded random match stopped at one of its decisions
(``tavola.bots.positions``). The master is pinned at two budgets, the hint with its reason.
"""

from __future__ import annotations

import pathlib
import random

import pytest

from tavola.bots.interface import LEVELS, Budget
from tavola.bots.positions import Position, all_positions
from tavola.bots.registry import hint_for, policy_for, policy_version
from tavola.rules import registry

PINS_FILE = pathlib.Path(__file__).with_name("pinned_decisions.txt")
BUDGETS = {"easy": (1,), "medium": (1,), "hard": (1,), "master": (24, 120)}
POLICY_VERSIONS = {"fan-tan": 3, "spades": 2, "barbu": 2, "dominoes": 2, "doppelkopf": 2}


def _pins() -> dict[str, str]:
    pins = {}
    for line in PINS_FILE.read_text().splitlines():
        if line and not line.startswith("#"):
            key, value = line.split(" = ", 1)
            pins[key] = value
    return pins


PINS = _pins()
POSITIONS = all_positions()


def test_the_pins_cover_every_game_and_level():
    games = {p.table.game for p in POSITIONS}
    assert games == set(registry.names())
    for game in games:
        for level in LEVELS:
            assert any(k.startswith(f"{game}/") and f"/{level}/" in k for k in PINS), level
    assert len(PINS) == len(POSITIONS) * (1 + sum(len(b) for b in BUDGETS.values()))


def test_no_game_changed_its_policy_version():
    assert {game: policy_version(game) for game in registry.names()} == POLICY_VERSIONS


@pytest.mark.parametrize("position", POSITIONS, ids=lambda p: p.key)
def test_every_level_decides_as_pinned(position: Position):
    game = registry.get(position.table.game)
    for level in LEVELS:
        for samples in BUDGETS[level]:
            rng = random.Random(f"{position.key}/{level}/{samples}")
            policy = policy_for(position.table.game, level)
            action = policy.decide(game, position.knowledge, position.legal, rng, Budget(samples))
            code = "-" if action is None else game.encode_action(action)
            key = f"{position.key}/{level}/{samples}"
            assert f"{code} {rng.randrange(1 << 30)}" == PINS[key], key
    action, reason = hint_for(game, position.knowledge, position.legal, random.Random(0))
    code = "-" if action is None else game.encode_action(action)
    assert f"{code} {reason.code}" == PINS[f"{position.key}/hint"]
