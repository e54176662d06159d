"""Scripted dominoes deals for the tests: the real chance path with a crafted shuffle, or
positions folded from explicit events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from tavola.games.dominoes import (
    GAME,
    BoneyardFormed,
    DominoesState,
    HandDealt,
    HandScored,
    HandStarted,
    OpeningRule,
)
from tavola.rules.interface import ChanceRequest, Event, OptionValue
from tavola.rules.tiles import Tile, double_six_set

__all__ = [
    "DEAL_A",
    "GAME",
    "SET",
    "codes",
    "deal",
    "permutation",
    "play",
    "scored",
    "start",
    "tiles",
]

SET = double_six_set()


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile.parse(code) for code in text.split())


def permutation(hands: Sequence[str], boneyard: str | None = None) -> tuple[int, ...]:
    """The shuffle that deals ``hands`` (seat order) and then ``boneyard`` (drawing order)."""
    order = [t for hand in hands for t in tiles(hand)]
    order += list(tiles(boneyard)) if boneyard is not None else [t for t in SET if t not in order]
    perm = tuple(SET.index(t) for t in order)
    assert sorted(perm) == list(range(28)), "a deal must use each tile once"
    return perm


def deal(state: DominoesState, hands: Sequence[str], boneyard: str | None = None) -> DominoesState:
    request = GAME.chance(state)
    assert request == ChanceRequest(f"deal/{state.hand + 1}", "shuffle", 28)
    return GAME.fold(state, GAME.resolve_chance(state, request, permutation(hands, boneyard)))


def start(
    hands: Sequence[str],
    *,
    opener: int,
    rule: OpeningRule = OpeningRule.ANY,
    boneyard: str = "",
    options: Mapping[str, OptionValue] | None = None,
    scores: tuple[int, int] = (0, 0),
) -> DominoesState:
    """A hand folded from explicit events with the given tiles."""
    held = [tiles(h) for h in hands]
    state = replace(GAME.initial_state(len(held), options or {}), scores=scores)
    bone = tiles(boneyard)
    events: list[Event] = [HandStarted(1, opener, rule, tuple(map(len, held)), len(bone))]
    events += [HandDealt(1, seat, hand) for seat, hand in enumerate(held)]
    if bone:
        events.append(BoneyardFormed(1, bone))
    return GAME.fold(state, events)


def play(state: DominoesState, seat: int, code: str) -> tuple[DominoesState, list[Event]]:
    events = GAME.decide(state, seat, GAME.decode_action(code))
    return GAME.fold(state, events), events


def codes(state: DominoesState, seat: int) -> list[str]:
    return [GAME.encode_action(a) for a in GAME.legal_actions(state, seat)]


def scored(events: Sequence[Event]) -> HandScored:
    (result,) = [e for e in events if isinstance(e, HandScored)]
    return result


# A full partnership deal: seat 2 holds the 6-6 (the carroça de sena).
DEAL_A = (
    "5-5 4-4 3-3 2-2 1-1 0-0 5-0",
    "6-5 5-4 5-3 5-2 5-1 4-3 4-2",
    "6-6 6-4 6-3 6-2 6-1 6-0 4-1",
    "4-0 3-2 3-1 3-0 2-1 2-0 1-0",
)
