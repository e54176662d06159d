"""Determinization: deal the unseen cards to the other seats consistently with what is known.

Each other seat receives exactly as many cards as it holds (``card_counts``) and none of the
cards its passes rule out (``Seen.lacks``); with ``equal_hands`` the set-aside pile is one
more "seat" with no constraint. The sampler shuffles the unseen cards, places the most
constrained first, each on a seat drawn in proportion to its free room, and repairs a dead
end with an augmenting path (bipartite matching), so it always succeeds when the real deal
exists — which it does, since the knowledge comes from a real deal.

The master deals hundreds of times from one ``Seen``: ``Dealer`` works out once what all
those deals share (the unseen cards, which of them some pass rules out for a seat, the room
of each holder), so a deal is the shuffle and one weighted draw per card — for a card any
holder may take, a pop from the list of free places.
"""

from __future__ import annotations

from tavola.bots.interface import Rng
from tavola.games.fantan.bots.model import Seen, bits

_BIT = tuple(1 << card for card in range(52))

ASIDE = -1
"""The set-aside pile among the holders of a card (``Seen.may_hold``). A ``Dealer`` keeps
one slot per seat and the pile's slot last, so ``ASIDE`` indexes that slot as it stands."""


class Dealer:
    """Consistent deals of the unseen cards of one ``Seen`` (``deal``), all from the same
    precomputed tables; the draws from the RNG are those of the plain description above."""

    __slots__ = (
        "cards",
        "constrained",
        "everyone",
        "hand_slots",
        "holders",
        "may_hold",
        "room",
        "seen",
    )

    def __init__(self, seen: Seen) -> None:
        self.seen = seen
        self.cards = bits(seen.unseen)
        self.may_hold = seen.may_hold
        room = [seen.counts[s] if s != seen.seat else 0 for s in range(seen.players)]
        self.room = (*room, seen.aside)  # the set-aside pile last: ``ASIDE`` indexes it
        self.hand_slots = tuple(s for s in range(seen.players) if s != seen.seat)
        # The holders with room, in ``may_hold`` order: the holders of a card no pass rules
        # out. The other cards, fewer holders first, are placed before those.
        self.everyone = (
            *(s for s in range(seen.players) if s != seen.seat and seen.counts[s]),
            *((ASIDE,) if seen.aside else ()),
        )
        self.holders = tuple(len(holders) for holders in seen.may_hold)
        self.constrained = sum(1 for c in self.cards if seen.may_hold[c] != self.everyone)

    def deal(self, rng: Rng) -> list[int]:
        """One consistent deal: the hand mask of every seat (this seat's own hand unchanged)."""
        cards = list(self.cards)
        rng.shuffle(cards)
        free = list(self.room)  # room left, by slot
        held: list[list[int]] = [[] for _ in free]
        randrange = rng.randrange
        constrained = self.constrained
        if constrained:
            cards.sort(key=self.holders.__getitem__)  # stable: as shuffled among equals
            may_hold = self.may_hold
            for card in cards[:constrained]:
                seats = may_hold[card]
                total = sum(map(free.__getitem__, seats))  # a full seat adds 0
                if total:  # a seat drawn in proportion to its free room
                    pick = randrange(total)
                    for seat in seats:
                        pick -= free[seat]
                        if pick < 0:
                            break
                    held[seat].append(card)
                    free[seat] -= 1
                else:
                    allowed = {c: self.seen.holders(c) for c in cards}
                    if not _augment(card, allowed, self.room, held, set(), rng):
                        raise ValueError("no deal is consistent with the knowledge")
                    free = [room - len(owned) for room, owned in zip(self.room, held, strict=True)]
        # Any holder may take the others: a seat drawn in proportion to its free room is the
        # holder of a place drawn among the free places, laid out seat after seat.
        places: list[int] = []
        for seat in self.everyone:
            places += [seat] * free[seat]
        for card in cards[constrained:]:
            if not places:  # every holder is full: no augmenting path either
                raise ValueError("no deal is consistent with the knowledge")
            held[places.pop(randrange(len(places)))].append(card)
        hands = [0] * self.seen.players
        hands[self.seen.seat] = self.seen.hand
        for seat in self.hand_slots:
            hands[seat] = sum(map(_BIT.__getitem__, held[seat]))
        return hands


def deal(seen: Seen, rng: Rng) -> list[int]:
    """One consistent deal: the hand mask of every seat (this seat's own hand unchanged)."""
    return Dealer(seen).deal(rng)


def _augment(
    card: int,
    allowed: dict[int, list[int]],
    room: tuple[int, ...],
    held: list[list[int]],
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
