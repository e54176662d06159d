"""The card kit: suits, ranks, cards, decks, turn order and tricks.

Encoding (stable, part of the public contract):

* ``Suit``: CLUBS=0, DIAMONDS=1, HEARTS=2, SPADES=3 (letters C D H S).
* ``Rank``: 2..10 as themselves, JACK=11, QUEEN=12, KING=13, ACE=14 (letters 2-9 T J Q K A).
* A card's code is rank letter + suit letter: ``"7D"``, ``"TH"`` (ten of hearts), ``"AS"``.
  Its human label uses suit symbols: ``"7♦"``, ``"10♥"``, ``"A♠"``.
* A card's index in the standard 52-card deck order is ``suit * 13 + (rank - 2)``.

Games with a double deck (Doppelkopf) hold two equal ``Card`` values; hands are tuples
(multisets), never sets.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import IntEnum


class Suit(IntEnum):
    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def letter(self) -> str:
        return "CDHS"[self]

    @property
    def symbol(self) -> str:
        return "♣♦♥♠"[self]


class Rank(IntEnum):
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def letter(self) -> str:
        return "23456789TJQKA"[self - 2]

    @property
    def label(self) -> str:
        return "10" if self == Rank.TEN else self.letter


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card. Ordered by (suit, rank) for stable sorting of hands."""

    suit: Suit
    rank: Rank

    @property
    def code(self) -> str:
        return self.rank.letter + self.suit.letter

    @property
    def label(self) -> str:
        return self.rank.label + self.suit.symbol

    @property
    def index(self) -> int:
        return int(self.suit) * 13 + int(self.rank) - 2

    def __str__(self) -> str:
        return self.label

    def __repr__(self) -> str:
        return f"Card({self.code})"

    @staticmethod
    def parse(text: str) -> Card:
        """Parse ``"7D"``, ``"TH"``, ``"10H"``, ``"7♦"`` or ``"10♥"`` (case-insensitive)."""
        t = text.strip().upper()
        if len(t) < 2:
            raise ValueError(f"not a card: {text!r}")
        rank_part, suit_part = t[:-1], t[-1]
        suit_index = "CDHS".find(suit_part)
        if suit_index < 0:
            suit_index = "♣♦♥♠".find(suit_part)
        if suit_index < 0:
            raise ValueError(f"not a card: {text!r}")
        if rank_part == "10":
            rank_part = "T"
        if len(rank_part) != 1 or rank_part not in "23456789TJQKA":
            raise ValueError(f"not a card: {text!r}")
        return Card(Suit(suit_index), Rank("23456789TJQKA".index(rank_part) + 2))


def card(text: str) -> Card:
    """Shorthand for tests and scenarios: ``card("QS")``."""
    return Card.parse(text)


def cards(text: str) -> tuple[Card, ...]:
    """Shorthand: ``cards("AS KS 7D")``."""
    return tuple(Card.parse(part) for part in text.split())


_STANDARD_DECK = tuple(Card(suit, rank) for suit in Suit for rank in Rank)


_DECK_INDEXES = list(range(len(_STANDARD_DECK)))


def standard_deck() -> tuple[Card, ...]:
    """The 52 cards in index order (♣2..♣A, ♦2..♦A, ♥2..♥A, ♠2..♠A)."""
    return _STANDARD_DECK


def order_key(card: Card) -> int:
    """A card's place in the (suit, rank) order as one int: sorting by it sorts like the
    cards' own order, without comparing cards."""
    return card.suit * 16 + card.rank


def deck_from_permutation(deck: Sequence[Card], permutation: Sequence[int]) -> tuple[Card, ...]:
    """Reorder ``deck`` by a shuffle outcome: position i receives ``deck[permutation[i]]``."""
    if sorted(permutation) != list(range(len(deck))):
        raise ValueError("outcome is not a permutation of the deck")
    return tuple(deck[i] for i in permutation)


def deal_round_robin(
    deck: Sequence[Card], players: int, first: int, count: int | None = None
) -> tuple[tuple[Card, ...], ...]:
    """Deal one card at a time clockwise starting at seat ``first``.

    ``count`` cards each (default: the whole deck, so hands may be unequal). Returns hands
    indexed by seat, each sorted for display.
    """
    total = len(deck) if count is None else count * players
    hands: list[list[Card]] = [[] for _ in range(players)]
    for i in range(total):
        hands[(first + i) % players].append(deck[i])
    return tuple(tuple(sorted(hand, key=order_key)) for hand in hands)


def deal_standard(
    permutation: Sequence[int], players: int, first: int, count: int | None = None
) -> tuple[tuple[Card, ...], ...]:
    """``deal_round_robin(deck_from_permutation(standard_deck(), permutation), ...)``
    without building the shuffled deck: the standard deck is in card order, so the sorted
    hand of a seat is its sorted deck indices."""
    if sorted(permutation) != _DECK_INDEXES:
        raise ValueError("outcome is not a permutation of the deck")
    total = len(permutation) if count is None else count * players
    deck = _STANDARD_DECK
    return tuple(
        tuple(
            map(deck.__getitem__, sorted(permutation[(seat - first) % players : total : players]))
        )
        for seat in range(players)
    )


def next_seat(seat: int, players: int, step: int = 1) -> int:
    """The seat ``step`` places clockwise (negative: counter-clockwise)."""
    return (seat + step) % players


def remove_card(hand: tuple[Card, ...], played: Card) -> tuple[Card, ...]:
    """The hand without one copy of ``played`` (raises ValueError if absent). Compares
    ranks and suits, not cards: ``Card.__eq__`` is a Python call per card."""
    suit, rank = played.suit, played.rank
    for at, c in enumerate(hand):
        if c is played or (c.rank == rank and c.suit == suit):
            return hand[:at] + hand[at + 1 :]
    raise ValueError(f"{played.code} is not in the hand")


def sort_hand(hand: Iterable[Card]) -> tuple[Card, ...]:
    return tuple(sorted(hand, key=order_key))


@dataclass(frozen=True, slots=True)
class PlayedCard:
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class Trick:
    """A trick in progress or complete: its leader and the cards in play order."""

    leader: int
    plays: tuple[PlayedCard, ...] = ()

    @property
    def led_suit(self) -> Suit | None:
        return self.plays[0].card.suit if self.plays else None

    def with_play(self, seat: int, played: Card) -> Trick:
        return Trick(self.leader, (*self.plays, PlayedCard(seat, played)))

    def cards(self) -> tuple[Card, ...]:
        return tuple(p.card for p in self.plays)


def winner_by_rank(trick: Trick, trump: Suit | None) -> int:
    """Seat winning a trick in a plain trick game: highest trump, else highest of the suit
    led (first of equal cards wins)."""
    best = trick.plays[0]
    for play in trick.plays[1:]:
        c, b = play.card, best.card
        if c.suit == b.suit:
            if c.rank > b.rank:
                best = play
        elif trump is not None and c.suit == trump:
            best = play
    return best.seat
