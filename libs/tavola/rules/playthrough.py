"""Golden playthroughs: a seeded random match written as text, one line per event.

``scripts/goldens.py`` regenerates ``tests/goldens/*.txt``; a test replays each and diffs,
so any change of behaviour shows up as a readable diff (bump the game's rules version
when it is intended). Pure: the seed and the RNG seed are fixed per golden.
"""

from __future__ import annotations

import dataclasses
import enum
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tavola.rules import driver, registry
from tavola.rules.cards import Card
from tavola.rules.tiles import Tile


@dataclass(frozen=True, slots=True)
class Golden:
    name: str
    game: str
    players: int
    options: Mapping[str, Any]
    seed: int = 1


GOLDENS: tuple[Golden, ...] = (
    Golden("fan-tan", "fan-tan", 4, {}),
    Golden("fan-tan-card-value", "fan-tan", 5, {"penalty": "card_value", "hands": 2}),
    Golden("spades", "spades", 4, {}),
    Golden("barbu", "barbu", 4, {}),
    Golden("doppelkopf-official", "doppelkopf", 4, {"preset": "official"}),
    Golden("doppelkopf-tavern", "doppelkopf", 4, {"preset": "tavern"}),
    Golden("doppelkopf-five-players", "doppelkopf", 5, {"preset": "official"}),
    Golden("dominoes-partnership", "dominoes", 4, {"mode": "partnership"}),
    Golden("dominoes-block", "dominoes", 2, {"mode": "block"}),
    Golden("dominoes-draw", "dominoes", 2, {"mode": "draw"}),
)


def render(golden: Golden) -> str:
    game = registry.get(golden.game)
    out = driver.play_match(
        game,
        golden.players,
        golden.options,
        seed=golden.seed.to_bytes(32, "big"),
        rng=random.Random(golden.seed),
    )
    lines = [
        f"# {golden.name}: {golden.game}, {golden.players} players, options "
        f"{dict(golden.options)}, seed {golden.seed}, rules v{game.info.rules_version}"
    ]
    for index, event in enumerate(out.events, start=1):
        audience = event.audience()
        who = "" if audience is None else f" [to {','.join(map(str, sorted(audience)))}]"
        lines.append(f"{index:>5} {type(event).__name__}{who} {_fields(event)}")
    final = ", ".join(f"seat {s.seat}: {s.score} (#{s.rank})" for s in game.standings(out.state))
    lines.append(f"# final: {final}")
    return "\n".join(lines) + "\n"


def _fields(event: Any) -> str:
    return " ".join(f"{f.name}={_text(getattr(event, f.name))}" for f in dataclasses.fields(event))


def _text(value: Any) -> str:
    if isinstance(value, Card):
        return value.label
    if isinstance(value, Tile):
        return value.code
    if isinstance(value, enum.Enum):
        return value.name
    if isinstance(value, tuple):
        return "[" + " ".join(_text(v) for v in value) + "]"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return "{" + _fields(value) + "}"
    return str(value)


def available() -> tuple[Golden, ...]:
    names = set(registry.names())
    return tuple(g for g in GOLDENS if g.game in names)
