"""Determinization: deal the unseen cards to the other seats, consistently with ``Seen``.

Every other seat gets exactly as many cards as it holds, never of a suit it is known to
be void in. Cards are placed most-constrained suit first, each to an eligible seat drawn
with probability proportional to the room it has left; a dead end restarts the deal, and
after ``ATTEMPTS`` dead ends a max-flow over (suit → seat) places the counts. With
``weigh_bids``, up to ``BID_TRIES`` deals are drawn and the first whose hands fit the bids
(each seat's cards at the deal — its sampled cards plus those it played — worth within
``BID_SLACK`` tricks of its bid; a nil bidder worth at most 1.5) is kept, else the one
fitting best.
"""

from __future__ import annotations

from tavola.bots.interface import Rng
from tavola.games.spades.bots.bids import trick_estimate
from tavola.games.spades.bots.seen import Seen
from tavola.rules.cards import Card, Suit

ATTEMPTS = 20
BID_TRIES = 4
BID_SLACK = 1.5
Deal = dict[int, list[Card]]


def _greedy(seen: Seen, cards: list[Card], rng: Rng) -> Deal | None:
    left = list(seen.counts)  # room left, by seat
    eligible = seen.holders  # by suit
    sizes = [len(e) for e in eligible]
    order = list(cards)
    rng.shuffle(order)
    order.sort(key=lambda c: sizes[c.suit])
    out: Deal = {s: [] for s in range(4) if s != seen.seat}
    for c in order:
        room = [s for s in eligible[c.suit] if left[s] > 0]
        if not room:
            return None
        x = rng.randrange(sum([left[s] for s in room]))
        for s in room:
            x -= left[s]
            if x < 0:
                out[s].append(c)
                left[s] -= 1
                break
    return out


def _flow(seen: Seen, cards: list[Card], rng: Rng) -> Deal:
    """Suit counts per seat by augmenting paths (always succeeds on a consistent view)."""
    others = [s for s in range(4) if s != seen.seat]
    by_suit = {suit: [c for c in cards if c.suit == suit] for suit in Suit}
    flow = {(suit, s): 0 for suit in Suit for s in others}
    left = {s: seen.counts[s] for s in others}
    for suit in Suit:
        for _ in by_suit[suit]:
            if not _augment(seen, suit, flow, left, others):
                raise ValueError("no deal is consistent with the view")
    out: Deal = {s: [] for s in others}
    for suit in Suit:
        pool = list(by_suit[suit])
        rng.shuffle(pool)
        for s in others:
            out[s] += [pool.pop() for _ in range(flow[(suit, s)])]
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


def deal_once(seen: Seen, rng: Rng) -> Deal:
    cards = seen.unseen()
    for _ in range(ATTEMPTS):
        out = _greedy(seen, cards, rng)
        if out is not None:
            return out
    return _flow(seen, cards, rng)


def misfit(seen: Seen, deal: Deal) -> float:
    """How far the sampled hands are from what their bids suggest (0: all fit)."""
    total = 0.0
    for seat, cards in deal.items():
        bid = seen.bids[seat]
        if bid is None:
            continue
        worth = trick_estimate((*cards, *seen.played_by[seat]))
        if bid == 0:
            total += max(0.0, worth - 1.5)
        else:
            total += max(0.0, abs(worth - bid) - BID_SLACK)
    return total


def sample(seen: Seen, rng: Rng, weigh_bids: bool = True) -> Deal:
    best: Deal | None = None
    best_misfit = float("inf")
    for _ in range(BID_TRIES if weigh_bids else 1):
        deal = deal_once(seen, rng)
        if not weigh_bids:
            return deal
        fit = misfit(seen, deal)
        if fit < best_misfit:
            best, best_misfit = deal, fit
        if fit == 0:
            break
    assert best is not None
    return best
