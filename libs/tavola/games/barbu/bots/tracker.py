"""What a seat knows about the deal in progress, rebuilt from its view and history only.

Cards are ints 0..51 (``Card.index``: suit * 13 + rank - 2), so ``c // 13`` is the suit and
``c % 13`` the rank order (0 = two, 12 = ace). The tracker replays the public events of the
current deal and records, for every other seat, the cards it *cannot* hold (``excluded``):

* a failure to follow suit is a void (every card of the suit led is excluded);
* Trumps: a trump played under the highest trump of the trick, or a discard when the trick
  could be won by trumping, means no trump above that highest trump (no trump at all when
  nothing could be beaten, or under ``void_must_trump``);
* No Hearts / No King of Hearts: leading a heart means holding nothing but hearts;
* Domino: a pass means no card that was playable at that moment.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tavola.bots.interface import Knowledge
from tavola.games.barbu.contracts import HEART_LEAD_RESTRICTED, Contract
from tavola.games.barbu.events import (
    CardPlayed,
    ContractChosen,
    DealStarted,
    DoublesDeclared,
    HandDealt,
    Passed,
    TrickWon,
    WentOut,
)
from tavola.rules.cards import Card
from tavola.rules.interface import Event

SEATS = 4
HEARTS = 2
SUIT_CARDS = tuple(frozenset(range(s * 13, s * 13 + 13)) for s in range(4))
ALL_CARDS = frozenset(range(52))


def suit_of(card: int) -> int:
    return card // 13


def rank_of(card: int) -> int:
    return card % 13


def to_card(index: int) -> Card:
    return _DECK[index]


def _deck() -> tuple[Card, ...]:
    from tavola.rules.cards import standard_deck

    return standard_deck()


_DECK = _deck()


@dataclass
class DealKnowledge:
    """The current deal as seen by ``seat``; mutable while it is being rebuilt."""

    seat: int
    declarer: int
    contract: Contract | None = None
    trump: int | None = None
    start_rank: int | None = None  # 0..12
    hand: tuple[int, ...] = ()
    dealt: tuple[int, ...] = ()
    played: set[int] = field(default_factory=set)
    played_by: list[set[int]] = field(default_factory=lambda: [set() for _ in range(SEATS)])
    excluded: list[set[int]] = field(default_factory=lambda: [set() for _ in range(SEATS)])
    counts: list[int] = field(default_factory=lambda: [13] * SEATS)
    trick: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) this trick
    leader: int | None = None
    tricks_played: int = 0
    points: list[int] = field(default_factory=lambda: [0] * SEATS)
    captured_penalties: int = 0
    rows: list[tuple[int, int] | None] = field(default_factory=lambda: [None] * SEATS)
    finished: list[int] = field(default_factory=list)
    doubles: list[tuple[int, int]] = field(default_factory=list)
    doubling_done: set[int] = field(default_factory=set)
    passes: list[int] = field(default_factory=lambda: [0] * SEATS)

    def unseen(self) -> frozenset[int]:
        """Cards held by the other seats (not mine, not played)."""
        return ALL_CARDS - set(self.hand) - self.played

    def void(self, seat: int, suit: int) -> bool:
        return SUIT_CARDS[suit] <= self.excluded[seat] | self.played | set(self.hand)

    def possible(self, seat: int) -> frozenset[int]:
        """Cards ``seat`` (not me) may hold."""
        return self.unseen() - self.excluded[seat]


def read(knowledge: Knowledge, void_must_trump: bool) -> DealKnowledge:
    """Replay the current deal's events of ``knowledge.history``."""
    history = knowledge.history
    start = _last_deal_start(history)
    started = history[start]
    assert isinstance(started, DealStarted)
    deal = DealKnowledge(seat=knowledge.seat, declarer=started.declarer)
    for event in history[start + 1 :]:
        _apply(deal, event, void_must_trump)
    deal.hand = tuple(sorted(c.index for c in knowledge.view.hand))
    deal.counts = list(knowledge.view.hand_counts)
    return deal


def _last_deal_start(history: Sequence[Event]) -> int:
    for i in range(len(history) - 1, -1, -1):
        if isinstance(history[i], DealStarted):
            return i
    raise ValueError("no deal has started")


def _apply(deal: DealKnowledge, event: Event, void_must_trump: bool) -> None:
    if isinstance(event, HandDealt) and event.seat == deal.seat:
        deal.dealt = tuple(sorted(c.index for c in event.cards))
    elif isinstance(event, ContractChosen):
        deal.contract = event.contract
        deal.trump = int(event.trump) if event.trump is not None else None
        deal.start_rank = int(event.start_rank) - 2 if event.start_rank is not None else None
        deal.leader = event.declarer if event.contract != Contract.DOMINO else None
    elif isinstance(event, DoublesDeclared):
        deal.doubles += [(event.seat, t) for t in event.doubled]
        deal.doubling_done.add(event.seat)
    elif isinstance(event, CardPlayed):
        _card_played(deal, event.seat, event.card.index, void_must_trump)
    elif isinstance(event, TrickWon):
        deal.tricks_played = event.trick
        deal.points[event.winner] += event.points
        deal.captured_penalties += len(event.penalty_cards)
        deal.trick = []
        deal.leader = event.winner
    elif isinstance(event, Passed):
        _passed(deal, event.seat)
    elif isinstance(event, WentOut):
        deal.finished.append(event.seat)
        deal.points[event.seat] += event.points


def _card_played(deal: DealKnowledge, seat: int, card: int, void_must_trump: bool) -> None:
    if deal.contract == Contract.DOMINO:
        suit, rank = suit_of(card), rank_of(card)
        row = deal.rows[suit]
        deal.rows[suit] = (rank, rank) if row is None else (min(row[0], rank), max(row[1], rank))
    else:
        _infer_from_trick(deal, seat, card, void_must_trump)
        deal.trick.append((seat, card))
    deal.played.add(card)
    deal.played_by[seat].add(card)


def _infer_from_trick(deal: DealKnowledge, seat: int, card: int, void_must_trump: bool) -> None:
    if not deal.trick:
        if deal.contract in HEART_LEAD_RESTRICTED and suit_of(card) == HEARTS:
            deal.excluded[seat] |= ALL_CARDS - SUIT_CARDS[HEARTS]
        return
    led = suit_of(deal.trick[0][1])
    trump = deal.trump if deal.contract == Contract.TRUMPS else None
    if suit_of(card) != led:
        deal.excluded[seat] |= SUIT_CARDS[led]
    if trump is None:
        return
    best = max((rank_of(c) for _, c in deal.trick if suit_of(c) == trump), default=-1)
    if led == trump:
        if suit_of(card) == trump and rank_of(card) < best:
            deal.excluded[seat] |= _trumps_above(trump, best)
        return
    if suit_of(card) == led:
        return
    if suit_of(card) != trump:
        no_trump = void_must_trump or best < 0
        deal.excluded[seat] |= SUIT_CARDS[trump] if no_trump else _trumps_above(trump, best)
    elif rank_of(card) < best:
        deal.excluded[seat] |= _trumps_above(trump, best)


def _trumps_above(trump: int, rank: int) -> set[int]:
    return set(range(trump * 13 + rank + 1, trump * 13 + 13))


def domino_playable(rows: Sequence[tuple[int, int] | None], start: int, card: int) -> bool:
    row = rows[suit_of(card)]
    rank = rank_of(card)
    if row is None:
        return rank == start
    return rank in (row[0] - 1, row[1] + 1)


def _passed(deal: DealKnowledge, seat: int) -> None:
    assert deal.start_rank is not None
    deal.passes[seat] += 1
    deal.excluded[seat] |= {c for c in range(52) if domino_playable(deal.rows, deal.start_rank, c)}
