"""The medium and hard levels of Fan Tan (and the hint, which is hard's choice with a reason).

Medium — "play toward your own cards": the playable card with the most of your own cards
further out in its direction (a seven counts its whole suit); ties keep sevens, then play the
card farthest from its seven (it uncovers the least), then chance.

Hard — counts the table and uses what the passes prove (``model.Seen.lacks``). Every
playable card gets a linear score (``Weights``, bigger is better) of features a player can
count:
- *reach* (+29.5 each): your own cards further out in its direction (medium's key);
- *run* (-23.7 each): your own cards directly behind it, a run nobody else can play — keep
  it as a reserve for a turn when you would otherwise pass (so a card counts +5.8 when it is
  in your run and +29.5 when it lies beyond an unseen card);
- *own end* (+12.9): you hold the ace or king at the end of its direction (the last cards
  to come out);
- *seven* (-20.4): opening a suit; *distance* (+1.7 per rank from the seven);
- *gift* (-5.2): the cards it uncovers, weighted by the chance an opponent holds them (the
  seats proven to lack a card and the set-aside pile hold none of it) and by how close that
  opponent is to going out; *opens* (+2.1 per uncovered unseen card) corrects it for cards
  that will be uncovered anyway;
- *unseen beyond* (-0.7 each), *block* (+0.4), *mobility* (-0.2 per card left playable);
- *unsticks* (+1.9: chance it hands a card to a seat proven stuck — a seat whose passes rule
  out every card now playable) and *next gift* (+2.1: chance the next seat holds an
  uncovered card).
The weights were fitted offline by minimising the regret of the chosen card against the
master's evaluation (2,000 sampled deals per position) over 6,000 positions of medium and
hard games, then checked in arenas (``docs/games/fan-tan-bots.md``;
``scripts/fit_fantan_hard.py`` reproduces the fit).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavola.games.fantan.bots.model import (
    BEYOND,
    DISTANCE,
    END_CARDS,
    NEXT,
    SEVENS,
    Seen,
    bits,
    directions,
    ends_mask,
    run_behind,
)


def medium_key(hand: int, card: int) -> tuple[int, int, int]:
    """Bigger is better: (own cards further out, not a seven, distance from the seven)."""
    return ((BEYOND[card] & hand).bit_count(), not (1 << card) & SEVENS, DISTANCE[card])


FEATURES = (
    "reach",
    "run",
    "own_end",
    "seven",
    "distance",
    "opens",
    "unseen_beyond",
    "gift",
    "block",
    "unsticks",
    "next_gift",
    "mobility",
)
"""What hard counts for each playable card (the module docstring says what each means)."""

Weights = tuple[float, ...]  # one per feature, in ``FEATURES`` order

WEIGHTS: Weights = (29.50, -23.68, 12.89, -20.43, 1.73, 2.08, -0.71, -5.15, 0.43, 1.91, 2.11, -0.23)
"""Fitted by ``scripts/fit_fantan_hard.py`` (see the module docstring)."""


@dataclass(frozen=True, slots=True)
class Assessment:
    """Hard's view of one playable card (bigger ``score`` is better)."""

    card: int
    score: float
    own_next: int  # a card of yours it uncovers (-1: none)
    gift: float  # expected cards it hands to opponents now
    block: float  # unseen cards it stops holding back
    uncovers: int  # cards it uncovers that someone else may hold
    reach: int = 0  # your cards further out
    run: int = 0  # your cards directly behind it (a reserve only you can play)


def features(seen: Seen, playable: Sequence[int]) -> list[tuple[float, ...]]:
    """The ``FEATURES`` of each playable card, in order."""
    ends = ends_mask(seen.rows) if seen.started else 0
    threat = _threats(seen)
    stuck = _stuck(seen, ends)
    following = (seen.seat + 1) % seen.players
    out: list[tuple[float, ...]] = []
    for card in playable:
        flag = 1 << card
        after = seen.hand & ~flag
        opened = bits(NEXT[card] & seen.unseen)
        out.append(
            (
                (BEYOND[card] & seen.hand).bit_count(),
                run_behind(seen.hand, card),
                (END_CARDS[card] & seen.hand).bit_count(),
                1.0 if flag & SEVENS else 0.0,
                DISTANCE[card],
                len(opened),
                (BEYOND[card] & seen.unseen).bit_count(),
                sum(_held_by_opponents(seen, x, threat) for x in opened),
                _blocked_behind(seen, card, threat),
                sum(_chance_any(seen, s, opened) for s in stuck),
                _chance_any(seen, following, opened),
                (after & ((ends & ~flag) | NEXT[card])).bit_count(),
            )
        )
    return out


def assess(seen: Seen, playable: Sequence[int], weights: Weights = WEIGHTS) -> list[Assessment]:
    out = []
    for card, values in zip(playable, features(seen, playable), strict=True):
        own = NEXT[card] & seen.hand
        uncovers = sum(1 for x in bits(NEXT[card] & seen.unseen) if _opponents(seen, x))
        out.append(
            Assessment(
                card=card,
                score=sum(w * v for w, v in zip(weights, values, strict=True)),
                own_next=bits(own)[0] if own else -1,
                gift=values[7],
                block=values[8],
                uncovers=uncovers,
                reach=int(values[0]),
                run=int(values[1]),
            )
        )
    return out


def _stuck(seen: Seen, ends: int) -> list[int]:
    """Seats whose passes rule out every card now playable: they pass until a card opens."""
    if not seen.started:
        return []
    live = ends & seen.unseen
    return [
        s
        for s in range(seen.players)
        if s != seen.seat and seen.counts[s] and not live & ~seen.lacks[s]
    ]


def _chance_any(seen: Seen, seat: int, cards: Sequence[int]) -> float:
    """Chance that ``seat`` holds at least one of ``cards`` (room-weighted, independent)."""
    none = 1.0
    for card in cards:
        holders = seen.holders(card)
        if seat not in holders:
            continue
        room = sum(seen.aside if s < 0 else seen.counts[s] for s in holders)
        none *= 1.0 - (seen.counts[seat] / room if room else 0.0)
    return 1.0 - none


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
    total = 0.0
    for step in directions(pos):
        p = pos + step
        while 0 <= p <= 12:
            x = suit * 13 + p
            if seen.hand >> x & 1:
                break
            total += _held_by_opponents(seen, x, threat) / 1.5
            p += step
    return total
