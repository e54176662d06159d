"""Dealing a hand and choosing its opener.

The shuffle of hand ``n`` is the chance request ``deal/n`` (a permutation of the 28 tiles in
the standard set order of :func:`tavola.rules.tiles.double_six_set`). Shuffled position
``p`` holds tile ``SET[perm[p]]``; seat ``s`` takes positions ``7s .. 7s+6``; in one against
one, positions 14..27 form the boneyard, drawn from position 14 onwards.
"""

from __future__ import annotations

from functools import lru_cache

from tavola.games.dominoes.events import (
    BoneyardFormed,
    HandDealt,
    HandStarted,
    OpeningRule,
)
from tavola.games.dominoes.state import DominoesState, next_seat
from tavola.rules.interface import ChanceRequest, Event
from tavola.rules.tiles import Tile, double_six_set, index_of

TILES = double_six_set()
_ORDER = list(range(len(TILES)))
HAND_SIZE = 7
DOUBLE_SIX = Tile(6, 6)
_DOUBLES = frozenset(t.index for t in TILES if t.is_double)


def deal_request(state: DominoesState) -> ChanceRequest:
    return _request(state.hand + 1)


@lru_cache(maxsize=64)
def _request(number: int) -> ChanceRequest:
    """The shuffle of hand ``number`` (a value: one object per hand number will do)."""
    return ChanceRequest(f"deal/{number}", "shuffle", len(TILES))


def weight(tile: Tile) -> tuple[int, int]:
    """Heaviest first: more pips, then the higher number (6-3 is heavier than 5-4)."""
    return (tile.pips, tile.high)


_WEIGHTS = tuple(map(weight, TILES))  # by tile index


def deal_events(state: DominoesState, permutation: tuple[int, ...]) -> list[Event]:
    if sorted(permutation) != _ORDER:
        raise ValueError("a deal needs a permutation of the 28 tiles")
    n = state.players
    tile = TILES.__getitem__
    # the set is in tile order, so a hand sorted by tile is its sorted set indices
    hands = [
        tuple(map(tile, sorted(permutation[HAND_SIZE * s : HAND_SIZE * (s + 1)]))) for s in range(n)
    ]
    boneyard = tuple(map(tile, permutation[HAND_SIZE * n :]))
    number = state.hand + 1
    opener, rule = choose_opener(state, hands)
    events: list[Event] = [
        HandStarted(number, opener, rule, tuple(len(h) for h in hands), len(boneyard))
    ]
    events += [HandDealt(number, seat, hand) for seat, hand in enumerate(hands)]
    if boneyard:
        events.append(BoneyardFormed(number, boneyard))
    return events


def choose_opener(state: DominoesState, hands: list[tuple[Tile, ...]]) -> tuple[int, OpeningRule]:
    """First hand: the 6-6 (partnership), else the highest double, else the heaviest
    tile. Later hands: the winner of the previous hand (``winner_opens``, when there is
    one) or the next player counter-clockwise after the previous opener."""
    if state.hand == 0:
        return _first_opener(state, hands)
    if state.options.opener == "winner_opens" and state.last_winner is not None:
        return state.last_winner, OpeningRule.ANY
    assert state.opener is not None
    return next_seat(state, state.opener), OpeningRule.ANY


def _first_opener(state: DominoesState, hands: list[tuple[Tile, ...]]) -> tuple[int, OpeningRule]:
    holder = {index_of(tile): seat for seat, hand in enumerate(hands) for tile in hand}
    if state.options.mode == "partnership":
        return holder[DOUBLE_SIX.index], OpeningRule.DOUBLE_SIX
    doubles = [index for index in holder if index in _DOUBLES]  # set order: by number
    if doubles:
        return holder[max(doubles)], OpeningRule.HIGHEST_DOUBLE
    return holder[max(holder, key=_WEIGHTS.__getitem__)], OpeningRule.HEAVIEST_TILE


def required_opening(state: DominoesState) -> Tile | None:
    """The tile the opener must lay now (``None``: any tile, or the hand has opened)."""
    if state.ends is not None or state.opener is None:
        return None
    hand = state.hands[state.opener]
    rule = state.opening_rule
    if not hand:
        return None
    if rule is OpeningRule.DOUBLE_SIX:
        return DOUBLE_SIX
    if rule is OpeningRule.HIGHEST_DOUBLE:
        return max(t for t in hand if t.is_double)
    if rule is OpeningRule.HEAVIEST_TILE:
        return max(hand, key=weight)
    return None
