"""Determinization: deal the unseen cards to the other seats consistently with what is known.

Each other seat receives exactly as many cards as it holds (``card_counts``) and none of the
cards its passes rule out (``Seen.lacks``); with ``equal_hands`` the set-aside pile is one
more "seat" with no constraint. The sampler shuffles the unseen cards, places the most
constrained first, each on a seat drawn in proportion to its free room, and repairs a dead
end with an augmenting path (bipartite matching), so it always succeeds when the real deal
exists — which it does, since the knowledge comes from a real deal.
"""

from __future__ import annotations

from tavola.bots.interface import Rng
from tavola.games.fantan.bots.model import Seen, bits

ASIDE = -1


def deal(seen: Seen, rng: Rng) -> list[int]:
    """One consistent deal: the hand mask of every seat (this seat's own hand unchanged)."""
    room = {s: seen.counts[s] for s in range(seen.players) if s != seen.seat}
    if seen.aside:
        room[ASIDE] = seen.aside
    cards = bits(seen.unseen)
    rng.shuffle(cards)
    allowed = {c: seen.holders(c) for c in cards}
    cards.sort(key=lambda c: len(allowed[c]))
    held: dict[int, list[int]] = {s: [] for s in room}
    for card in cards:
        free = [s for s in allowed[card] if len(held[s]) < room[s]]
        if free:
            held[_weighted(free, room, held, rng)].append(card)
        elif not _augment(card, allowed, room, held, set(), rng):
            raise ValueError("no deal is consistent with the knowledge")
    hands = [0] * seen.players
    hands[seen.seat] = seen.hand
    for seat, owned in held.items():
        if seat != ASIDE:
            for card in owned:
                hands[seat] |= 1 << card
    return hands


def _weighted(free: list[int], room: dict[int, int], held: dict[int, list[int]], rng: Rng) -> int:
    total = sum(room[s] - len(held[s]) for s in free)
    pick = rng.randrange(total)
    for seat in free:
        pick -= room[seat] - len(held[seat])
        if pick < 0:
            return seat
    return free[-1]


def _augment(
    card: int,
    allowed: dict[int, list[int]],
    room: dict[int, int],
    held: dict[int, list[int]],
    visited: set[int],
    rng: Rng,
) -> bool:
    """Place ``card`` by moving already placed cards along an augmenting path."""
    seats = list(allowed[card])
    rng.shuffle(seats)
    for seat in seats:
        if seat in visited:
            continue
        visited.add(seat)
        if len(held[seat]) < room[seat]:
            held[seat].append(card)
            return True
        for i, other in enumerate(held[seat]):
            if _augment(other, allowed, room, held, visited, rng):
                held[seat][i] = card
                return True
    return False
