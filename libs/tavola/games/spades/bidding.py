"""Bidding: the legal bids and the suggested bid ("what the hand is worth", never nil).

The suggested bid is a deterministic count of likely tricks in the seat's own 13 cards:

* spades (trumps), with ``n`` spades held: A♠ counts 1; K♠ counts 1 when ``n >= 2``;
  Q♠ counts 1 when ``n >= 3``; every spade beyond the third counts 1 (length);
* each other suit: its ace counts 1; its king counts 1 when the suit holds 2 to 5 cards
  (protected, yet short enough not to be trumped early); a void counts 1 (a likely ruff)
  when ``n >= 3``;
* the total is clamped to 1..13 — the table never bids nil for a player.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.rules.cards import Card, Rank, Suit
from tavola.rules.errors import Reason

MAX_BID = 13
SIDE_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)


def bid_reason(tricks: int) -> Reason | None:
    if not 0 <= tricks <= MAX_BID:
        return Reason.of("spades.bid_out_of_range", bid=tricks)
    return None


def _ranks(hand: Sequence[Card], suit: Suit) -> set[Rank]:
    return {c.rank for c in hand if c.suit == suit}


def _spade_tricks(hand: Sequence[Card]) -> int:
    ranks = _ranks(hand, Suit.SPADES)
    n = len(ranks)
    total = int(Rank.ACE in ranks)
    total += int(Rank.KING in ranks and n >= 2)
    total += int(Rank.QUEEN in ranks and n >= 3)
    return total + max(0, n - 3)


def _side_tricks(hand: Sequence[Card], suit: Suit, spades: int) -> int:
    ranks = _ranks(hand, suit)
    n = len(ranks)
    if n == 0:
        return int(spades >= 3)
    return int(Rank.ACE in ranks) + int(Rank.KING in ranks and 2 <= n <= 5)


def suggested_bid(hand: Sequence[Card]) -> int:
    """What the hand is worth (1..13, never nil); see the module docstring."""
    spades = sum(1 for c in hand if c.suit == Suit.SPADES)
    total = _spade_tricks(hand) + sum(_side_tricks(hand, s, spades) for s in SIDE_SUITS)
    return max(1, min(MAX_BID, total))
