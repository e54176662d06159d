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
    may_hold = seen.may_hold
    cards.sort(key=lambda c: len(may_hold[c]))
    held: dict[int, list[int]] = {s: [] for s in room}
    free_room = dict(room)  # room left, by seat
    allowed: dict[int, list[int]] | None = None  # for a repair only
    randrange = rng.randrange
    for card in cards:
        free = [s for s in may_hold[card] if free_room[s]]
        if free:  # a seat drawn in proportion to its free room (``_weighted``, inline)
            pick = randrange(sum([free_room[s] for s in free]))
            for seat in free:
                pick -= free_room[seat]
                if pick < 0:
                    break
            held[seat].append(card)
            free_room[seat] -= 1
        else:
            allowed = allowed or {c: seen.holders(c) for c in cards}
            if not _augment(card, allowed, room, held, set(), rng):
                raise ValueError("no deal is consistent with the knowledge")
            free_room = {s: room[s] - len(held[s]) for s in room}
    hands = [0] * seen.players
    hands[seen.seat] = seen.hand
    for seat, owned in held.items():
        if seat != ASIDE:
            for card in owned:
                hands[seat] |= 1 << card
    return hands


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
