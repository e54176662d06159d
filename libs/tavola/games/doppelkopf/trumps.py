"""Cards, card points, trump orders and trick winners for every Doppelkopf contract."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from tavola.games.doppelkopf.model import Contract
from tavola.rules.cards import Card, PlayedCard, Rank, Suit

RANKS = (Rank.NINE, Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE)
POINTS = {Rank.ACE: 11, Rank.TEN: 10, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 0}
PLAIN_ORDER = {Rank.ACE: 6, Rank.TEN: 5, Rank.KING: 4, Rank.QUEEN: 3, Rank.JACK: 2, Rank.NINE: 1}
SUIT_ORDER = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)

DULLE = Card(Suit.HEARTS, Rank.TEN)
CLUB_QUEEN = Card(Suit.CLUBS, Rank.QUEEN)
CLUB_JACK = Card(Suit.CLUBS, Rank.JACK)
FOX = Card(Suit.DIAMONDS, Rank.ACE)
TRUMP = -1  # the "suit" of trumps for following

SUIT_SOLOS = {
    Contract.CLUBS_SOLO: Suit.CLUBS,
    Contract.SPADES_SOLO: Suit.SPADES,
    Contract.HEARTS_SOLO: Suit.HEARTS,
    Contract.DIAMONDS_SOLO: Suit.DIAMONDS,
}


def deck(without_nines: bool = False) -> tuple[Card, ...]:
    """The double deck in a fixed order (copy, suit ♣♦♥♠, rank 9 10 J Q K A)."""
    ranks = RANKS[1:] if without_nines else RANKS
    return tuple(Card(s, r) for _ in range(2) for s in Suit for r in ranks)


def card_points(cards: Sequence[Card]) -> int:
    return sum(POINTS[c.rank] for c in cards)


def _suit_trumps(suit: Suit) -> list[Card]:
    queens = [Card(s, Rank.QUEEN) for s in SUIT_ORDER]
    jacks = [Card(s, Rank.JACK) for s in SUIT_ORDER]
    low = [Card(suit, r) for r in (Rank.ACE, Rank.TEN, Rank.KING, Rank.NINE)]
    return [DULLE, *queens, *jacks, *(c for c in low if c != DULLE)]


def trump_order(contract: Contract, schweinchen: bool = False) -> tuple[Card, ...]:
    """Trumps high to low (each card exists twice)."""
    if contract == Contract.QUEEN_SOLO:
        return tuple(Card(s, Rank.QUEEN) for s in SUIT_ORDER)
    if contract == Contract.JACK_SOLO:
        return tuple(Card(s, Rank.JACK) for s in SUIT_ORDER)
    if contract == Contract.FLEISCHLOS:
        return ()
    order = _suit_trumps(SUIT_SOLOS.get(contract, Suit.DIAMONDS))
    if schweinchen:
        order.remove(FOX)
        order.insert(0, FOX)
    return tuple(order)


@dataclass(frozen=True, slots=True)
class CardRules:
    """How cards rank in one contract: ``power`` (trumps above 100) and ``kind`` (TRUMP or
    the suit, for following)."""

    power: dict[Card, int]
    kind: dict[Card, int]
    dulle_trump: bool

    def is_trump(self, c: Card) -> bool:
        return self.kind[c] == TRUMP


@cache
def card_rules(contract: Contract, schweinchen: bool = False) -> CardRules:
    order = trump_order(contract, schweinchen)
    power: dict[Card, int] = {}
    kind: dict[Card, int] = {}
    for c in deck():
        if c in order:
            power[c] = 200 - order.index(c)
            kind[c] = TRUMP
        else:
            power[c] = PLAIN_ORDER[c.rank]
            kind[c] = int(c.suit)
    return CardRules(power=power, kind=kind, dulle_trump=DULLE in order)


def beats(new: Card, best: Card, rules: CardRules, second_dulle: bool) -> bool:
    """Does ``new`` (played later) beat the current best card of the trick?"""
    new_trump, best_trump = rules.is_trump(new), rules.is_trump(best)
    if new_trump != best_trump:
        return new_trump
    if not new_trump and new.suit != best.suit:
        return False
    if new == best:  # the first of two identical cards wins, except the second Dulle
        return second_dulle and new == DULLE and rules.dulle_trump
    return rules.power[new] > rules.power[best]


def trick_winner(plays: Sequence[PlayedCard], rules: CardRules, second_dulle: bool) -> int:
    best = plays[0]
    for play in plays[1:]:
        if beats(play.card, best.card, rules, second_dulle):
            best = play
    return best.seat


def playable(hand: Sequence[Card], led: Card | None, rules: CardRules) -> tuple[Card, ...]:
    """Cards of ``hand`` that may be played: follow the led kind when possible."""
    if led is None:
        return tuple(hand)
    kind = rules.kind[led]
    following = tuple(c for c in hand if rules.kind[c] == kind)
    return following or tuple(hand)


def sort_for_display(hand: Sequence[Card], rules: CardRules) -> tuple[Card, ...]:
    """Trumps first (high to low), then plain suits ♣ ♠ ♥ ♦ high to low."""
    suit_pos = {s: i for i, s in enumerate(SUIT_ORDER)}

    def key(c: Card) -> tuple[int, int, int]:
        if rules.kind[c] == TRUMP:
            return (0, 0, -rules.power[c])
        return (1, suit_pos[c.suit], -rules.power[c])

    return tuple(sorted(hand, key=key))
