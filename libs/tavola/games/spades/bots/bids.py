"""Bids of the medium and hard levels (the master refines the hard bid by sampling).

* **Nil** (medium and up) only when the hand truly supports it (``nil_supported``): at most
  three spades, none above the 9 (with three spades, none above the 7); no side ace; a side
  king or queen only in a suit holding three cards of 6 or lower beside it; at most one
  side jack without such cover. Never nil when the partner already bid nil.
* **Medium** otherwise bids the table's suggested bid (sure tricks, never nil).
* **Hard** counts tricks in fractions (``trick_estimate``): A♠ 1, K♠ 1 with a guard,
  Q♠ 1 with two guards, J♠ ½ with three, 1 per spade beyond the third; a side ace 1 (½ in
  a suit of 7+); a side king ¾ in a 2–4 card suit, ⅓ in a 5-card one, 1 with the ace; a
  side queen ⅓ in a 3–4 card suit with the ace or king; with 3+ spades a void ¾ and a
  singleton ⅓ (a ruff). Rounded down after adding ⅓, then 1..13.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.games.spades.bidding import suggested_bid
from tavola.rules.cards import Card, Rank, Suit

SPADE = Suit.SPADES
SIDE_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


def _ranks(hand: Sequence[Card], suit: Suit) -> list[Rank]:
    return sorted((c.rank for c in hand if c.suit == suit), reverse=True)


def _side_nil_ok(ranks: list[Rank]) -> tuple[bool, bool]:
    """(the suit is safe for nil, it holds an uncovered jack)."""
    if not ranks:
        return True, False
    lows = sum(1 for r in ranks if r <= Rank.SIX)
    if Rank.ACE in ranks:
        return False, False
    if ranks[0] >= Rank.QUEEN:
        return lows >= 3, False
    return True, ranks[0] == Rank.JACK and lows < 2


def nil_supported(hand: Sequence[Card], partner_bid: int | None) -> bool:
    if partner_bid == 0:
        return False
    spades = _ranks(hand, SPADE)
    if len(spades) > 3 or (spades and spades[0] > Rank.NINE):
        return False
    if len(spades) == 3 and spades[0] > Rank.SEVEN:
        return False
    jacks = 0
    for suit in SIDE_SUITS:
        ok, jack = _side_nil_ok(_ranks(hand, suit))
        if not ok:
            return False
        jacks += jack
    return jacks <= 1


def medium_bid(hand: Sequence[Card], partner_bid: int | None) -> int:
    return 0 if nil_supported(hand, partner_bid) else suggested_bid(hand)


def _spade_estimate(spades: list[Rank]) -> float:
    n = len(spades)
    total = float(Rank.ACE in spades)
    total += (1.0 if n >= 2 else 0.3) if Rank.KING in spades else 0.0
    total += (1.0 if n >= 3 else 0.25) if Rank.QUEEN in spades else 0.0
    total += 0.5 if Rank.JACK in spades and n >= 4 else 0.0
    return total + max(0, n - 3)


def _side_estimate(ranks: list[Rank], spades: int) -> float:
    n = len(ranks)
    ruff = (0.75 if n == 0 else 0.33) if n <= 1 and spades >= 3 else 0.0
    ace = Rank.ACE in ranks
    total = ruff + ((0.5 if n >= 7 else 1.0) if ace else 0.0)
    if Rank.KING in ranks:
        total += 1.0 if ace and n <= 5 else 0.75 if 2 <= n <= 4 else 0.33 if n == 5 else 0.0
    if Rank.QUEEN in ranks and 3 <= n <= 4 and (ace or Rank.KING in ranks):
        total += 0.33
    return total


def trick_estimate(hand: Sequence[Card]) -> float:
    by_suit: tuple[list[Rank], ...] = ([], [], [], [])
    for c in hand:
        by_suit[c.suit].append(c.rank)
    for ranks in by_suit:
        ranks.sort(reverse=True)
    spades = by_suit[SPADE]
    return _spade_estimate(spades) + sum(
        _side_estimate(by_suit[s], len(spades)) for s in SIDE_SUITS
    )


def hard_bid(hand: Sequence[Card], partner_bid: int | None) -> int:
    if nil_supported(hand, partner_bid):
        return 0
    return max(1, min(13, int(trick_estimate(hand) + 0.33)))
