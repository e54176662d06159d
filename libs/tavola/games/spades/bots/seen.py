"""What a seat knows about the current hand, folded from its view and the events it saw.

Only ``Knowledge`` is read (the seat's view and its visible history): the own hand, the
cards played so far, the bids, the tricks, and the **voids** inferred from the public
play — a seat that does not follow the suit led has none of it left; a seat that leads a
spade before spades are broken holds nothing but spades.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavola.bots.interface import Knowledge
from tavola.games.spades.events import CardPlayed, HandStarted, SpadesBroken, TrickTaken
from tavola.games.spades.views import SpadesView
from tavola.rules.cards import Card, PlayedCard, Suit, standard_deck

SPADE = Suit.SPADES


SIDE_SUITS = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS)
DECK = standard_deck()


@dataclass(frozen=True, slots=True)
class Seen:
    """The hand as one seat knows it (bids ``None`` until made; 0 is nil)."""

    seat: int
    phase: str
    hand: tuple[Card, ...]
    played: frozenset[Card]
    played_by: tuple[tuple[Card, ...], ...]
    voids: tuple[frozenset[Suit], ...]
    bids: tuple[int | None, ...]
    tricks: tuple[int, ...]
    counts: tuple[int, ...]
    trick: tuple[PlayedCard, ...]
    leader: int | None
    broken: bool
    scores: tuple[int, int]
    bags: tuple[int, int]
    dealer: int
    unseen_cards: tuple[Card, ...] = ()  # ``unseen()``, worked out once
    holders: tuple[tuple[int, ...], ...] = ()  # per suit (0-3): the other seats that may hold it

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    @property
    def led(self) -> Suit | None:
        return self.trick[0].card.suit if self.trick else None

    @property
    def tricks_left(self) -> int:
        return 13 - sum(self.tricks)

    def unseen(self) -> list[Card]:
        """Cards the seat has not seen: in the other three hands, in deck order."""
        return list(self.unseen_cards)

    def may_hold(self, seat: int, suit: Suit) -> bool:
        return suit not in self.voids[seat]


def _voids_and_played(
    knowledge: Knowledge,
) -> tuple[list[set[Suit]], list[list[Card]]]:
    start = 0
    for index, event in enumerate(knowledge.history):
        if isinstance(event, HandStarted):
            start = index
    voids: list[set[Suit]] = [set() for _ in range(4)]
    played: list[list[Card]] = [[] for _ in range(4)]
    trick: list[Card] = []
    broken = False
    for event in knowledge.history[start:]:
        if isinstance(event, CardPlayed):
            _infer(voids[event.seat], trick, event.card, broken)
            trick.append(event.card)
            played[event.seat].append(event.card)
        elif isinstance(event, SpadesBroken):
            broken = True
        elif isinstance(event, TrickTaken):
            trick = []
    return voids, played


def _infer(voids: set[Suit], trick: list[Card], card: Card, broken: bool) -> None:
    if trick and card.suit != trick[0].suit:
        voids.add(trick[0].suit)  # did not follow: none of the suit led is left
    elif not trick and card.suit == SPADE and not broken:
        voids.update(SIDE_SUITS)  # led an unbroken spade: holds only spades


def seen_of(knowledge: Knowledge) -> Seen:
    view: SpadesView = knowledge.view
    assert view.seat is not None
    voids, played_by = _voids_and_played(knowledge)
    played = {c for cards in played_by for c in cards}
    # A suit none of whose cards is unseen is "void" for everybody else.
    mine = set(view.hand)
    for suit in Suit:
        if all(c in mine or c in played for c in DECK if c.suit == suit):
            for seat in range(4):
                if seat != view.seat:
                    voids[seat].add(suit)
    others = [s for s in range(4) if s != view.seat]
    return Seen(
        seat=view.seat,
        phase=view.phase,
        hand=view.hand,
        played=frozenset(played),
        played_by=tuple(tuple(cards) for cards in played_by),
        voids=tuple(frozenset(v) for v in voids),
        bids=tuple(s.bid for s in view.seats),
        tricks=tuple(s.tricks for s in view.seats),
        counts=tuple(s.cards for s in view.seats),
        trick=view.trick,
        leader=view.trick_leader,
        broken=view.spades_broken,
        scores=(view.teams[0].score, view.teams[1].score),
        bags=(view.teams[0].bags, view.teams[1].bags),
        dealer=view.dealer,
        unseen_cards=tuple(c for c in DECK if c not in mine and c not in played),
        holders=tuple(tuple(s for s in others if suit not in voids[s]) for suit in Suit),
    )
