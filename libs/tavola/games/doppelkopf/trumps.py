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
NO_KIND = -2  # the "kind" of a card not in the deck
DULLE_INDEX = DULLE.suit * 13 + DULLE.rank - 2

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
    the suit, for following); ``powers`` and ``kinds`` hold the same by card index
    (``suit * 13 + rank - 2``; 0 and ``NO_KIND`` for cards not in the deck), for the rules'
    hot paths."""

    power: dict[Card, int]
    kind: dict[Card, int]
    dulle_trump: bool
    powers: tuple[int, ...] = ()
    kinds: tuple[int, ...] = ()

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
    powers = [0] * 52
    kinds = [NO_KIND] * 52
    for c in deck():
        powers[c.index], kinds[c.index] = power[c], kind[c]
    return CardRules(power, kind, DULLE in order, tuple(powers), tuple(kinds))


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
    """The seat whose card wins (``beats``, on card indexes)."""
    powers, kinds = rules.powers, rules.kinds
    again = second_dulle and rules.dulle_trump
    seat, best = plays[0].seat, _index(plays[0].card)
    for play in plays[1:]:
        new = _index(play.card)
        new_trump, best_trump = kinds[new] == TRUMP, kinds[best] == TRUMP
        if new_trump != best_trump:
            wins = new_trump
        elif not new_trump and new // 13 != best // 13:
            wins = False
        elif new == best:  # the first of two identical cards wins, except the second Dulle
            wins = again and new == DULLE_INDEX
        else:
            wins = powers[new] > powers[best]
        if wins:
            seat, best = play.seat, new
    return seat


def _index(card: Card) -> int:
    return card.suit * 13 + card.rank - 2


def playable(hand: Sequence[Card], led: Card | None, rules: CardRules) -> tuple[Card, ...]:
    """Cards of ``hand`` that may be played: follow the led kind when possible."""
    if led is None:
        return tuple(hand)
    kinds = rules.kinds
    kind = kinds[_index(led)]
    following = tuple(c for c in hand if kinds[c.suit * 13 + c.rank - 2] == kind)
    return following or tuple(hand)


def sort_for_display(hand: Sequence[Card], rules: CardRules) -> tuple[Card, ...]:
    """Trumps first (high to low), then plain suits ♣ ♠ ♥ ♦ high to low."""
    suit_pos = {s: i for i, s in enumerate(SUIT_ORDER)}

    def key(c: Card) -> tuple[int, int, int]:
        if rules.kind[c] == TRUMP:
            return (0, 0, -rules.power[c])
        return (1, suit_pos[c.suit], -rules.power[c])

    return tuple(sorted(hand, key=key))
