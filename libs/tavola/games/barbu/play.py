"""Card play: which cards are legal in a trick or in Domino, and why others are not."""

from __future__ import annotations

from tavola.games.barbu.contracts import HEART_LEAD_RESTRICTED, Contract
from tavola.games.barbu.state import BarbuState, Row
from tavola.rules.cards import Card, Rank, Suit, Trick
from tavola.rules.errors import Reason


def legal_cards(state: BarbuState, seat: int) -> tuple[Card, ...]:
    """The cards ``seat`` may play now (the state is in play with ``seat`` on turn)."""
    hand = state.hands[seat]
    if state.contract == Contract.DOMINO:
        return tuple(c for c in hand if domino_playable(state, c))
    trick = state.trick
    if trick is None or not trick.plays:
        return _legal_leads(state, hand)
    led = trick.plays[0].card.suit
    follow = tuple(c for c in hand if c.suit == led)
    if state.contract != Contract.TRUMPS or state.trump is None:
        return follow or hand
    return _legal_in_trumps(state, hand, trick, state.trump, follow)


def _legal_leads(state: BarbuState, hand: tuple[Card, ...]) -> tuple[Card, ...]:
    if state.contract in HEART_LEAD_RESTRICTED:
        others = tuple(c for c in hand if c.suit != Suit.HEARTS)
        return others or hand
    return hand


def highest_trump(trick: Trick, trump: Suit) -> Rank | None:
    ranks = [p.card.rank for p in trick.plays if p.card.suit == trump]
    return max(ranks) if ranks else None


def _legal_in_trumps(
    state: BarbuState,
    hand: tuple[Card, ...],
    trick: Trick,
    trump: Suit,
    follow: tuple[Card, ...],
) -> tuple[Card, ...]:
    best = highest_trump(trick, trump)
    if trick.plays[0].card.suit == trump:
        if not follow:
            return hand
        assert best is not None
        higher = tuple(c for c in follow if c.rank > best)
        return higher or follow
    if follow:
        return follow
    trumps = tuple(c for c in hand if c.suit == trump)
    winning = tuple(c for c in trumps if best is None or c.rank > best)
    if winning:
        return winning
    if state.options.void_must_trump and trumps:
        return trumps
    return hand


def why_card_illegal(state: BarbuState, seat: int, card: Card) -> Reason:
    """The reason ``card`` is not legal (called only for cards outside ``legal_cards``)."""
    if card not in state.hands[seat]:
        return Reason.of("barbu.not_in_hand", card=card.code)
    if state.contract == Contract.DOMINO:
        return _domino_reason(state, card)
    trick = state.trick
    if trick is None or not trick.plays:
        return Reason.of("barbu.no_heart_lead", card=card.code)
    led = trick.plays[0].card.suit
    if card.suit != led and any(c.suit == led for c in state.hands[seat]):
        return Reason.of("barbu.must_follow", card=card.code, suit=led.letter)
    trump = state.trump
    if trump is None:
        return Reason.of("barbu.card_not_playable", card=card.code)
    best = highest_trump(trick, trump)
    if led == trump and best is not None:
        return Reason.of("barbu.must_overtrump", card=card.code, trump=Card(trump, best).code)
    can_win = any(c.suit == trump and (best is None or c.rank > best) for c in state.hands[seat])
    if can_win and best is not None:
        return Reason.of("barbu.must_trump_to_win", card=card.code, trump=Card(trump, best).code)
    return Reason.of("barbu.must_trump", card=card.code, suit=trump.letter)


# ----- Domino ---------------------------------------------------------------------------
def domino_playable(state: BarbuState, card: Card) -> bool:
    row = state.rows[card.suit]
    if row is None:
        return card.rank == state.start_rank
    return int(card.rank) in (row[0] - 1, row[1] + 1)


def _domino_reason(state: BarbuState, card: Card) -> Reason:
    row = state.rows[card.suit]
    start = state.start_rank
    assert start is not None
    if row is None:
        return Reason.of(
            "barbu.domino_row_not_open", card=card.code, start=Card(card.suit, start).code
        )
    low, high = (Card(card.suit, Rank(r)).code for r in row)
    return Reason.of("barbu.domino_not_adjacent", card=card.code, low=low, high=high)


def grow_row(row: Row | None, card: Card) -> Row:
    rank = int(card.rank)
    if row is None:
        return (rank, rank)
    return (min(row[0], rank), max(row[1], rank))
