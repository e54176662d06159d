"""The Spades match state: one value for the whole match.

A state is a value: nothing changes a state once the rules have built it. ``evolve``
makes the next one with ``copy`` (a hand-written copy of the slots, several times cheaper
than ``dataclasses.replace``, which still works) and sets only what the event changed.

Beside its fields a state carries what follows from them, neither compared nor taken by
``replace`` (``__post_init__`` derives it again): ``held``, every hand as one int of
4 × 52 bits — seat ``s`` holds the card of index ``i`` (``card.index``) when bit
``52 * s + i`` is set, so ``held >> 52 * s & DECK_BITS`` is its hand as bits (its *mask*)
and a play clears one bit of one int —, ``led``, the suit led to the trick in progress
(-1: none), and ``ordered``, whether every hand is in card order (as dealt: then a card's
place in its hand is the count of lower bits). ``legal`` caches the legal actions of the
seat on turn once they were asked (and ``allowed``, their cards as bits).

While every hand is in card order, the hands follow from ``held``, so the plays of a hand
(``copy_cards``) leave the ``hands`` slot empty and its first reading derives it from
``held`` (once per state, through a property): a playout never reads a hand as cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from operator import lt
from typing import Any, Literal, TypeVar

from tavola.games.spades.timers import DEFAULT_CLOCK
from tavola.rules.cards import Card, PlayedCard, standard_deck
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


DECK = standard_deck()
DECK_BITS = (1 << 52) - 1  # a hand's 52 bits (a seat's in ``held``, shifted down)
HAND_SHIFTS = tuple(52 * seat for seat in range(SEATS))  # where each seat's bits start
_BITS = tuple(1 << i for i in range(52))
# the bit of each card of the standard deck, by the card's identity: the deck's cards live
# as long as the process, so a hit is that very card (a deal hands out these; others, such
# as parsed cards, take the arithmetic)
_BIT_OF_DECK_CARD = {id(c): 1 << i for i, c in enumerate(DECK)}.get


def bits_of(cards: tuple[Card, ...]) -> tuple[int, bool]:
    """The cards as bits (bit ``suit * 13 + rank - 2`` per card) and whether they are in
    card order, each once (as dealt).

    Cards of the standard deck (a deal's) take the sum of their bits: 13 distinct powers
    of two add up to a mask of 13 bits, while a card held twice carries into another bit
    and leaves fewer — so ``bit_count() == len(cards)`` says every card is there once,
    and then the hand is in card order exactly when it equals the cards of its mask.
    The hands of the latest deal (``dealt``) are known by identity and read no card."""
    known = _DEALT.get(id(cards))
    if known is not None and known[0] is cards:
        return known[1], True
    try:  # (a ``None``, for a card from elsewhere such as a parsed one, fails the sum)
        mask = sum(map(_BIT_OF_DECK_CARD, map(id, cards)))  # type: ignore[arg-type]
    except TypeError:
        pass
    else:
        if mask.bit_count() == len(cards):
            return mask, tuple(cards) == cards_of(mask)
    bits = [_BITS[c.suit * 13 + c.rank - 2] for c in cards]
    if all(map(lt, bits, bits[1:])):
        return sum(bits), True
    mask = 0
    for bit in bits:
        mask |= bit
    return mask, False


T = TypeVar("T")


class SuitPatterns(dict[int, tuple[T, ...]]):
    """One item per card (``per_card``, by card index: the deck's cards, or the plays of
    them) of one suit, by the suit's pattern of 13 bits (bit ``rank - 2``), in card order:
    each pattern built the first time it is asked (``__missing__``) and kept (at most
    8192), so a look-up is one dict access whether or not the suit is void."""

    def __init__(self, per_card: Sequence[T], suit: int) -> None:
        super().__init__({0: ()})
        self.per_card = per_card
        self.base = 13 * suit

    def __missing__(self, bits: int) -> tuple[T, ...]:
        """The lowest card (``bits & -bits`` isolates its bit) before the pattern without
        it (``bits & bits - 1`` clears that bit), itself kept or built the same way."""
        lowest = (bits & -bits).bit_length() - 1
        found = self[bits] = (self.per_card[self.base + lowest],) + self[bits & bits - 1]
        return found


_CLUBS, _DIAMONDS, _HEARTS, _SPADES = (SuitPatterns(DECK, suit) for suit in range(4))
_DEALT: dict[int, tuple[tuple[Card, ...], int]] = {}
"""The hands of the latest deal by identity (each kept here, so its ``id`` is its own),
with their masks: a deal's ``HandDealt`` events are folded right after it, and then
``bits_of`` takes the mask from here instead of from the cards."""


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards given as bits (``mask < 2**52``), in card order: the four suits' tuples
    (13 bits each, clubs lowest), each pattern kept like the plays'."""
    return (
        _CLUBS[mask & 0x1FFF]
        + _DIAMONDS[mask >> 13 & 0x1FFF]
        + _HEARTS[mask >> 26 & 0x1FFF]
        + _SPADES[mask >> 39]
    )


def masks_of(held: int) -> tuple[int, ...]:
    """Each seat's hand as bits, from every hand's (``SpadesState.held``)."""
    return tuple(held >> shift & DECK_BITS for shift in HAND_SHIFTS)


def mask_of(state: SpadesState, seat: int) -> int:
    """The hand of ``seat`` as bits (bit ``card.index`` per card)."""
    return state.held >> 52 * seat & DECK_BITS


def dealt(masks: Sequence[int]) -> tuple[tuple[Card, ...], ...]:
    """The hands of a deal given as masks (``cards_of`` each), remembered for ``bits_of``
    in place of the previous deal's."""
    hands = tuple(map(cards_of, masks))
    _DEALT.clear()
    for cards, mask in zip(hands, masks, strict=True):
        _DEALT[id(cards)] = (cards, mask)
    return hands


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
    held: int = field(init=False, repr=False, compare=False)
    led: int = field(init=False, repr=False, compare=False)
    ordered: bool = field(init=False, repr=False, compare=False)
    legal: Any = field(init=False, default=None, repr=False, compare=False)
    allowed: int = field(init=False, default=0, repr=False, compare=False)

    def __post_init__(self) -> None:
        bits = [bits_of(h) for h in self.hands]
        self.held = sum(mask << 52 * seat for seat, (mask, _) in enumerate(bits))
        self.ordered = all(ordered for _, ordered in bits)
        self.led = int(self.trick[0].card.suit) if self.trick else -1


def _hands(state: SpadesState) -> tuple[tuple[Card, ...], ...]:
    try:
        return _HANDS_SLOT.__get__(state)  # type: ignore[no-any-return]
    except AttributeError:  # left empty by ``copy_cards``: the hands follow from ``held``
        hands = tuple(map(cards_of, masks_of(state.held)))
        _HANDS_SLOT.__set__(state, hands)
        return hands


# ``hands`` reads its slot through a property that fills an empty slot from ``held`` (a
# ``__getattr__`` would do it too, but would slow down every attribute of the state)
_HANDS_SLOT = SpadesState.__dict__["hands"]
setattr(SpadesState, "hands", property(_hands, _HANDS_SLOT.__set__))  # noqa: B010

_new = object.__new__


def copy(s: SpadesState) -> SpadesState:
    """A copy of every slot but the cache of legal actions (the copy will have its own)."""
    new = copy_cards(s)
    new.hands = s.hands
    return new


def copy_cards(s: SpadesState) -> SpadesState:
    """``copy`` but for the ``hands`` slot, left empty: only for a state whose hands are
    in card order (``ordered``) and so follow from the ``held`` the caller sets."""
    new: SpadesState = _new(SpadesState)
    new.phase = s.phase
    new.hand = s.hand
    new.dealer = s.dealer
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
    new.held = s.held
    new.led = s.led
    new.ordered = s.ordered
    new.legal = None  # (``allowed`` is read only once ``legal`` is set)
    return new
