"""Determinization: deal the unseen cards to the other seats, consistently with ``Seen``.

Every other seat gets exactly as many cards as it holds, never of a suit it is known to
be void in. Cards are placed most-constrained suit first, each to an eligible seat drawn
with probability proportional to the room it has left; a dead end restarts the deal, and
after ``ATTEMPTS`` dead ends a max-flow over (suit → seat) places the counts. With
``weigh_bids``, up to ``BID_TRIES`` deals are drawn and the first whose hands fit the bids
(each seat's cards at the deal — its sampled cards plus those it played — worth within
``BID_SLACK`` tricks of its bid; a nil bidder worth at most 1.5) is kept, else the one
fitting best.

A deal is the four hands as bits (bit ``card.index`` per card; the seat's own hand in
its place), as the master's playouts take them. A ``Dealer`` works out once per decision
what all its deals share (the unseen cards, who may hold each, the played cards).
"""

from __future__ import annotations

from tavola.bots.interface import Rng
from tavola.games.spades.bots.bids import worth
from tavola.games.spades.bots.seen import Seen
from tavola.rules.cards import Suit

ATTEMPTS = 20
BID_TRIES = 4
BID_SLACK = 1.5
Deal = list[int]  # the four hands as bits, by seat


def mask(indices: list[int]) -> int:
    out = 0
    for i in indices:
        out |= 1 << i
    return out


class Dealer:
    """The deals of one decision: ``sample`` draws one, as ``Seen`` allows."""

    def __init__(self, seen: Seen) -> None:
        self.seen = seen
        self.unseen = [c.index for c in seen.unseen_cards]  # in deck order
        self.own = mask([c.index for c in seen.hand])
        self.others = [s for s in range(4) if s != seen.seat]
        # per card index: the seats that may hold it (by its suit), and the sort that puts
        # the most constrained suits first (none when every suit has as many holders)
        holders = [seen.holders[i // 13] for i in range(52)]
        self.may_hold = [tuple(int(s in h) for s in self.others) for h in holders]
        sizes = [len(h) for h in holders]
        self.constrained = len({sizes[i] for i in self.unseen}) > 1
        self.size = sizes.__getitem__
        self.played = [mask([c.index for c in cards]) for cards in seen.played_by]
        self.bids = [(s, bid) for s in self.others if (bid := seen.bids[s]) is not None]

    def greedy(self, rng: Rng) -> Deal | None:
        """One try at a deal (``None``: a card found no seat with room left).

        The three other seats' room is kept in locals (``a``, ``b``, ``c`` in seat order),
        and a card's holders as three 0/1 flags: a seat's weight is its room if it may
        hold the card, else 0; the draw below the total picks the seat whose share it
        falls in, in seat order (as a walk over the holders with room would)."""
        order = list(self.unseen)
        rng.shuffle(order)
        if self.constrained:
            order.sort(key=self.size)
        randrange, may_hold = rng.randrange, self.may_hold
        counts = self.seen.counts
        a, b, c = self.others
        room_a, room_b, room_c = counts[a], counts[b], counts[c]
        hand_a = hand_b = hand_c = 0
        for card in order:
            flag_a, flag_b, flag_c = may_hold[card]
            weight_a = room_a * flag_a
            below_b = weight_a + room_b * flag_b
            total = below_b + room_c * flag_c
            if not total:
                return None
            x = randrange(total)
            if x < weight_a:
                hand_a |= 1 << card
                room_a -= 1
            elif x < below_b:
                hand_b |= 1 << card
                room_b -= 1
            else:
                hand_c |= 1 << card
                room_c -= 1
        hands = [0, 0, 0, 0]
        hands[a], hands[b], hands[c] = hand_a, hand_b, hand_c
        hands[self.seen.seat] = self.own
        return hands

    def deal_once(self, rng: Rng) -> Deal:
        for _ in range(ATTEMPTS):
            out = self.greedy(rng)
            if out is not None:
                return out
        hands = _flow(self.seen, self.unseen, rng)
        hands[self.seen.seat] = self.own
        return hands

    def misfit(self, deal: Deal) -> float:
        """How far the sampled hands are from what their bids suggest (0: all fit)."""
        total = 0.0
        played = self.played
        for seat, bid in self.bids:  # (in seat order: the same sum)
            held = worth(deal[seat] | played[seat])
            if bid == 0:
                total += max(0.0, held - 1.5)
            else:
                total += max(0.0, abs(held - bid) - BID_SLACK)
        return total

    def sample(self, rng: Rng, weigh_bids: bool = True) -> Deal:
        if not weigh_bids:
            return self.deal_once(rng)
        best: Deal | None = None
        best_misfit = float("inf")
        for _ in range(BID_TRIES):
            deal = self.deal_once(rng)
            fit = self.misfit(deal)
            if fit < best_misfit:
                best, best_misfit = deal, fit
            if fit == 0:
                break
        assert best is not None
        return best


def sample(seen: Seen, rng: Rng, weigh_bids: bool = True) -> Deal:
    """One deal (``Dealer(seen).sample``: a caller drawing many keeps the ``Dealer``)."""
    return Dealer(seen).sample(rng, weigh_bids)


def _flow(seen: Seen, cards: list[int], rng: Rng) -> Deal:
    """Suit counts per seat by augmenting paths (always succeeds on a consistent view);
    ``cards``: the unseen cards' indices, in deck order. The seat's own hand is left 0."""
    others = [s for s in range(4) if s != seen.seat]
    by_suit = {suit: [c for c in cards if c // 13 == suit] for suit in Suit}
    flow = {(suit, s): 0 for suit in Suit for s in others}
    left = {s: seen.counts[s] for s in others}
    for suit in Suit:
        for _ in by_suit[suit]:
            if not _augment(seen, suit, flow, left, others):
                raise ValueError("no deal is consistent with the view")
    out = [0, 0, 0, 0]
    for suit in Suit:
        pool = list(by_suit[suit])
        rng.shuffle(pool)
        for s in others:
            for _ in range(flow[(suit, s)]):
                out[s] |= 1 << pool.pop()
    return out


def _augment(
    seen: Seen,
    suit: Suit,
    flow: dict[tuple[Suit, int], int],
    left: dict[int, int],
    others: list[int],
) -> bool:
    """Place one more card of ``suit``, moving other cards along a path if needed."""
    parents: dict[int, tuple[Suit, int | None]] = {}
    queue: list[tuple[Suit, int | None]] = [(suit, None)]
    seen_suits = {suit}
    while queue:
        current, via = queue.pop(0)
        for s in others:
            if s in parents or not seen.may_hold(s, current):
                continue
            parents[s] = (current, via)
            if left[s] > 0:
                _apply_path(s, parents, flow, left)
                return True
            for other in Suit:
                if other not in seen_suits and flow[(other, s)] > 0:
                    seen_suits.add(other)
                    queue.append((other, s))
    return False


def _apply_path(
    end: int,
    parents: dict[int, tuple[Suit, int | None]],
    flow: dict[tuple[Suit, int], int],
    left: dict[int, int],
) -> None:
    left[end] -= 1
    seat: int | None = end
    while seat is not None:
        suit, via = parents[seat]
        flow[(suit, seat)] += 1
        if via is not None:
            flow[(suit, via)] -= 1
        seat = via
