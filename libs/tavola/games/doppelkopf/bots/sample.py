"""Determinization: deal the unseen cards to the other seats consistently with ``Seen``.

Each other seat receives exactly its card count; cards known to sit in a hand go there
first (Armut exchanges, a ♣Q that an announced Re seat has not played yet, a wedding
player's ♣Q); then the remaining cards are placed most-constrained first, each on a random
eligible seat weighted by its free places, never giving a seat a card of a kind it is void
in (a failure to follow) or a card it cannot hold (a ♣Q to a known Kontra seat). A dead end
restarts the deal; after a few failures the void constraints are dropped, then the ♣Q
ones (a sample must always come back; only a silent wedding can make the ♣Q guess
wrong). Cards are small ints (``CARDS``: the 24 distinct cards) for speed.
"""

from __future__ import annotations

from tavola.bots.interface import Rng
from tavola.games.doppelkopf.bots.infer import Seen
from tavola.games.doppelkopf.trumps import deck
from tavola.rules.cards import Card

CARDS: tuple[Card, ...] = tuple(dict.fromkeys(deck()))
ID = {c: i for i, c in enumerate(CARDS)}
Hands = dict[int, list[int]]
ATTEMPTS = 30


class Sampler:
    def __init__(self, seen: Seen) -> None:
        self.others = seen.others
        self.counts = {s: seen.counts[s] for s in self.others}
        self.holds = {s: [ID[c] for c in seen.holds[s]] for s in self.others}
        pool = [ID[c] for c in seen.unseen]
        for s in self.others:
            for c in self.holds[s]:
                pool.remove(c)
        self.pool = pool
        self.free = {s: self.counts[s] - len(self.holds[s]) for s in self.others}
        kinds = [seen.rules.kind[c] for c in CARDS]
        forbid = {s: {ID[c] for c in seen.forbid[s]} for s in self.others}
        self.strict = {
            c: [s for s in self.others if c not in forbid[s] and kinds[c] not in seen.voids[s]]
            for c in set(pool)
        }
        loose = {c: [s for s in self.others if c not in forbid[s]] for c in set(pool)}
        free = {c: list(self.others) for c in set(pool)}
        self.tiers = tuple(_Tier(e, len(self.others)) for e in (self.strict, loose, free))

    def hands(self, rng: Rng) -> Hands:
        for attempt in range(ATTEMPTS * len(self.tiers)):
            hands = self._attempt(rng, self.tiers[attempt // ATTEMPTS])
            if hands is not None:
                return hands
        raise RuntimeError("no deal of the unseen cards")  # pragma: no cover

    def _attempt(self, rng: Rng, tier: _Tier) -> Hands | None:
        hands: Hands = {s: list(h) for s, h in self.holds.items()}
        free = dict(self.free)
        rest = list(self.pool)
        rng.shuffle(rest)
        if tier.sort:
            rest.sort(key=tier.size.__getitem__)
        eligible, anywhere = tier.eligible, tier.anywhere
        # the seats with free places (in seat order) and their free places in all: the
        # eligible seats and their weight for a card any seat may hold
        open_seats = [s for s in self.others if free[s] > 0]
        left = sum(free[s] for s in open_seats)
        random = rng.random
        for c in rest:
            if c in anywhere:
                seats, places = open_seats, left
            else:
                seats = [s for s in eligible[c] if free[s] > 0]
                places = sum([free[s] for s in seats])
            if len(seats) > 1:
                pick = random() * places
                for seat in seats:
                    pick -= free[seat]
                    if pick < 0:
                        break
            elif seats:
                seat = seats[0]
            else:
                return None
            hands[seat].append(c)
            free[seat] -= 1
            left -= 1
            if not free[seat]:
                open_seats = [s for s in open_seats if s != seat]
        return hands


class _Tier:
    """One tier of constraints: the seats eligible for each card, the cards any seat may
    hold, and whether the cards are placed most-constrained first (``sort``: not needed
    when every card has as many eligible seats)."""

    def __init__(self, eligible: dict[int, list[int]], seats: int) -> None:
        self.eligible = eligible
        self.size = {c: len(s) for c, s in eligible.items()}
        self.anywhere = frozenset(c for c, n in self.size.items() if n == seats)
        self.sort = len(set(self.size.values())) > 1


def sample_hands(seen: Seen, rng: Rng) -> dict[int, list[Card]]:
    """One consistent deal of the unseen cards, as cards (tests and tools)."""
    return {s: [CARDS[c] for c in h] for s, h in Sampler(seen).hands(rng).items()}
