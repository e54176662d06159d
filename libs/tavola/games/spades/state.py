"""The Spades match state: one value for the whole match.

A state is a value: nothing changes a state once the rules have built it. ``evolve``
makes the next one with ``copy`` (a hand-written copy of the slots, several times cheaper
than ``dataclasses.replace``, which still works) and sets only what the event changed.

Beside its fields a state carries what follows from them, neither compared nor taken by
``replace`` (``__post_init__`` derives it again): ``masks``, each seat's hand as an int
with bit ``card.index`` set per card, and ``led``, the suit led to the trick in progress
(-1: none), and ``ordered``, whether every hand is in card order (as dealt: then a card's
place in its hand is the count of lower bits). ``legal`` caches the legal actions of the
seat on turn once they were asked (and ``allowed``, their cards as bits).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import lt
from typing import Any, Literal

from tavola.games.spades.timers import DEFAULT_CLOCK
from tavola.rules.cards import Card, PlayedCard
from tavola.rules.timers import TimerSettings

Phase = Literal["draw_dealer", "deal", "bidding", "play", "over"]
SEATS = 4


@dataclass(frozen=True, slots=True)
class SpadesOptions:
    """Table options: the match thresholds (500 / -200 by the rule book), an optional
    fixed number of hands (0: play to a threshold) and the turn timers."""

    target: int = 500
    floor: int = -200
    hands: int = 0
    clock: TimerSettings = DEFAULT_CLOCK


_BITS = tuple(1 << i for i in range(52))


def bits_of(cards: tuple[Card, ...]) -> tuple[int, bool]:
    """The cards as bits (bit ``suit * 13 + rank - 2`` per card) and whether they are in
    card order, each once (as dealt)."""
    indexes = [c.suit * 13 + c.rank - 2 for c in cards]
    if all(map(lt, indexes, indexes[1:])):
        return sum(map(_BITS.__getitem__, indexes)), True
    mask = 0
    for i in indexes:
        mask |= 1 << i
    return mask, False


@dataclass(slots=True)
class SpadesState:
    """``leader`` and ``trick``: the trick in progress (``leader`` None between hands);
    ``last_trick``: the plays of the trick taken last, by ``last_winner``."""

    phase: Phase = "draw_dealer"
    hand: int = 0
    dealer: int = 0
    hands: tuple[tuple[Card, ...], ...] = ((), (), (), ())
    bids: tuple[int | None, ...] = (None, None, None, None)
    turn: int | None = None
    leader: int | None = None
    trick: tuple[PlayedCard, ...] = ()
    last_trick: tuple[PlayedCard, ...] = ()
    last_winner: int | None = None
    tricks: tuple[int, ...] = (0, 0, 0, 0)
    spades_broken: bool = False
    scores: tuple[int, int] = (0, 0)
    bags: tuple[int, int] = (0, 0)
    deciding: bool = False
    winner: int | None = None
    hands_played: int = 0
    options: SpadesOptions = SpadesOptions()
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    led: int = field(init=False, repr=False, compare=False)
    ordered: bool = field(init=False, repr=False, compare=False)
    legal: Any = field(init=False, default=None, repr=False, compare=False)
    allowed: int = field(init=False, default=0, repr=False, compare=False)

    def __post_init__(self) -> None:
        bits = [bits_of(h) for h in self.hands]
        self.masks = tuple(mask for mask, _ in bits)
        self.ordered = all(ordered for _, ordered in bits)
        self.led = int(self.trick[0].card.suit) if self.trick else -1


_new = object.__new__


def copy(s: SpadesState) -> SpadesState:
    """A copy of every slot but the cache of legal actions (the copy will have its own)."""
    new: SpadesState = _new(SpadesState)
    new.phase = s.phase
    new.hand = s.hand
    new.dealer = s.dealer
    new.hands = s.hands
    new.bids = s.bids
    new.turn = s.turn
    new.leader = s.leader
    new.trick = s.trick
    new.last_trick = s.last_trick
    new.last_winner = s.last_winner
    new.tricks = s.tricks
    new.spades_broken = s.spades_broken
    new.scores = s.scores
    new.bags = s.bags
    new.deciding = s.deciding
    new.winner = s.winner
    new.hands_played = s.hands_played
    new.options = s.options
    new.masks = s.masks
    new.led = s.led
    new.ordered = s.ordered
    new.legal = None  # (``allowed`` is read only once ``legal`` is set)
    return new
