"""The medium and hard levels of Fan Tan (and the hint, which is hard's choice with a reason).

Medium — "play toward your own cards": the playable card with the most of your own cards
further out in its direction (a seven counts its whole suit); ties keep sevens, then play the
card farthest from its seven (it uncovers the least), then chance.

Hard — counts the table and uses what the passes prove (``model.Seen.lacks``). For every
playable card it scores (``Weights``, bigger is better):
- *reach* (x10): your own cards further out that it brings closer — medium's key, which
  arenas showed is the strongest single feature;
- *seven* (-1): opening a suit costs, unless your cards lie beyond it;
- *block* (-0.1 each): the unseen cards between it and your next card in its direction that
  an opponent may hold (the set-aside pile and seats proven to lack a card do not count) —
  the cards you stop holding back once it is played;
- *gift* (-0.05 each): the cards it uncovers, weighted by the chance that an opponent holds
  them and by how close that opponent is to going out.
*tempo* (a card of yours it uncovers) and *stall* (nothing left to play afterwards) are
computed for the hint but weigh 0: arenas showed that playing for mobility loses badly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavola.games.fantan.bots.model import (
    BEYOND,
    DISTANCE,
    NEXT,
    SEVEN,
    SEVENS,
    Seen,
    bits,
    ends_mask,
)


def medium_key(hand: int, card: int) -> tuple[int, int, int]:
    """Bigger is better: (own cards further out, not a seven, distance from the seven)."""
    return ((BEYOND[card] & hand).bit_count(), not (1 << card) & SEVENS, DISTANCE[card])


@dataclass(frozen=True, slots=True)
class Weights:
    tempo: float = 0.0
    reach: float = 10.0
    seven: float = 1.0
    gift: float = 0.05
    block: float = 0.1
    stall: float = 0.0


WEIGHTS = Weights()


@dataclass(frozen=True, slots=True)
class Assessment:
    """Hard's view of one playable card (bigger ``score`` is better)."""

    card: int
    score: float
    own_next: int  # a card of yours it uncovers (-1: none)
    gift: float  # expected cards it hands to opponents now
    block: float  # unseen cards it stops holding back
    uncovers: int  # cards it uncovers that someone else may hold


def assess(seen: Seen, playable: Sequence[int], weights: Weights = WEIGHTS) -> list[Assessment]:
    ends = ends_mask(seen.rows) if seen.started else 0
    threat = _threats(seen)
    out = []
    for card in playable:
        flag = 1 << card
        after = seen.hand & ~flag
        uncovered = NEXT[card]
        own = uncovered & seen.hand
        gift = sum(_held_by_opponents(seen, x, threat) for x in bits(uncovered & seen.unseen))
        block = _blocked_behind(seen, card, threat)
        reach = (BEYOND[card] & seen.hand).bit_count()
        stall = bool(after) and not after & ((ends & ~flag) | uncovered)
        score = (
            weights.tempo * own.bit_count()
            + weights.reach * reach
            - weights.seven * bool(flag & SEVENS)
            - weights.gift * gift
            - weights.block * block
            - weights.stall * stall
        )
        uncovers = sum(1 for x in bits(uncovered & seen.unseen) if _opponents(seen, x))
        out.append(Assessment(card, score, bits(own)[0] if own else -1, gift, block, uncovers))
    return out


def _threats(seen: Seen) -> dict[int, float]:
    """How much a card handed to a seat hurts: more as it nears going out."""
    return {s: 1.0 + 2.0 / max(1, seen.counts[s]) for s in range(seen.players) if s != seen.seat}


def _opponents(seen: Seen, card: int) -> list[int]:
    return [s for s in seen.holders(card) if s >= 0]


def _held_by_opponents(seen: Seen, card: int, threat: dict[int, float]) -> float:
    """Expected threat of ``card`` being in an opponent's hand (room-weighted over the seats
    that may hold it; the set-aside pile counts as a harmless holder)."""
    holders = seen.holders(card)
    room = {s: (seen.aside if s < 0 else seen.counts[s]) for s in holders}
    total = sum(room.values())
    if not total:
        return 0.0
    return sum(room[s] * threat[s] for s in holders if s >= 0) / total


def _blocked_behind(seen: Seen, card: int, threat: dict[int, float]) -> float:
    """Unseen cards between ``card`` and this seat's next card in each of its directions."""
    suit, pos = divmod(card, 13)
    steps = (-1, 1) if pos == SEVEN else ((-1,) if pos < SEVEN else (1,))
    total = 0.0
    for step in steps:
        p = pos + step
        while 0 <= p <= 12:
            x = suit * 13 + p
            if seen.hand >> x & 1:
                break
            total += _held_by_opponents(seen, x, threat) / 1.5
            p += step
    return total
