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

Both count suit by suit, so the master, which holds its sampled hands as bits
(``card.index`` per card), reads each suit's part from a table by the suit's 13 bits
(``worth``, ``hard_bid_of``): the same functions' results, worked out once per pattern.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

from tavola.games.spades.bidding import suggested_bid
from tavola.rules.cards import Card, Rank, Suit

T = TypeVar("T")

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


def _spades_nil_ok(spades: list[Rank]) -> bool:
    if len(spades) > 3 or (spades and spades[0] > Rank.NINE):
        return False
    return not (len(spades) == 3 and spades[0] > Rank.SEVEN)


def nil_supported(hand: Sequence[Card], partner_bid: int | None) -> bool:
    if partner_bid == 0:
        return False
    if not _spades_nil_ok(_ranks(hand, SPADE)):
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


# ----- the same, on cards given as bits (the master's sampled hands) ---------------------
_HIGH_FIRST = sorted(Rank, reverse=True)


class ByPattern(dict[int, T]):
    """``of`` a suit's ranks (highest first, as ``_ranks`` lists them) by the suit's 13 bits
    (bit ``rank - 2``), each pattern worked out the first time it is asked and kept."""

    def __init__(self, of: Callable[[list[Rank]], T]) -> None:
        super().__init__()
        self.of = of

    def __missing__(self, bits: int) -> T:
        ranks = [rank for rank in _HIGH_FIRST if bits >> rank - 2 & 1]
        found = self[bits] = self.of(ranks)
        return found


SPADE_WORTH = ByPattern(_spade_estimate)
# a side suit's worth, by whether the hand holds 3+ spades (all ``_side_estimate`` reads of them)
SIDE_WORTH = (
    ByPattern(lambda ranks: _side_estimate(ranks, 0)),
    ByPattern(lambda ranks: _side_estimate(ranks, 3)),
)
SPADES_NIL_OK = ByPattern(_spades_nil_ok)
SIDE_NIL_OK = ByPattern(_side_nil_ok)


def worth(mask: int) -> float:
    """``trick_estimate`` of the cards given as bits (the same sum, in the same order)."""
    spades = mask >> 39
    side = SIDE_WORTH[spades.bit_count() >= 3]
    return SPADE_WORTH[spades] + (
        side[mask & 0x1FFF] + side[mask >> 13 & 0x1FFF] + side[mask >> 26 & 0x1FFF]
    )


def nil_supported_by(mask: int, partner_bid: int | None) -> bool:
    """``nil_supported`` of the cards given as bits."""
    if partner_bid == 0 or not SPADES_NIL_OK[mask >> 39]:
        return False
    jacks = 0
    for base in (0, 13, 26):
        ok, jack = SIDE_NIL_OK[mask >> base & 0x1FFF]
        if not ok:
            return False
        jacks += jack
    return jacks <= 1


def hard_bid_of(mask: int, partner_bid: int | None) -> int:
    """``hard_bid`` of the cards given as bits."""
    if nil_supported_by(mask, partner_bid):
        return 0
    return max(1, min(13, int(worth(mask) + 0.33)))
