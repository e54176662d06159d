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

While every hand is in card order, the hands follow from the masks, so the plays of a hand
(``copy_cards``) leave the ``hands`` slot empty and its first reading derives it from
``masks`` (once per state, through a property): a playout never reads a hand as cards.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import lt
from typing import Any, Literal

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
_BITS = tuple(1 << i for i in range(52))
# the bit of each card of the standard deck, by the card's identity: the deck's cards live
# as long as the process, so a hit is that very card (a deal hands out these; others, such
# as parsed cards, take the arithmetic)
_BIT_OF_DECK_CARD = {id(c): 1 << i for i, c in enumerate(DECK)}.get


def bits_of(cards: tuple[Card, ...]) -> tuple[int, bool]:
    """The cards as bits (bit ``suit * 13 + rank - 2`` per card) and whether they are in
    card order, each once (as dealt)."""
    found = list(map(_BIT_OF_DECK_CARD, map(id, cards)))
    if all(found):  # (a ``None``: a card from elsewhere; ``None in found`` is slower)
        bits: list[int] = found  # type: ignore[assignment]
    else:
        bits = [_BITS[c.suit * 13 + c.rank - 2] for c in cards]
    if all(map(lt, bits, bits[1:])):
        return sum(bits), True
    mask = 0
    for bit in bits:
        mask |= bit
    return mask, False


_SUIT_CARDS: tuple[list[tuple[Card, ...] | None], ...] = tuple([None] * 8192 for _ in range(4))


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards given as bits, in card order (the suits' patterns kept, like the plays')."""
    out: tuple[Card, ...] = ()
    for suit in range(4):
        bits = mask >> (13 * suit) & 0x1FFF
        if bits:
            known = _SUIT_CARDS[suit][bits]
            if known is None:
                base = 13 * suit
                known = tuple(DECK[base + r] for r in range(13) if bits >> r & 1)
                _SUIT_CARDS[suit][bits] = known
            out += known
    return out


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


def _hands(state: SpadesState) -> tuple[tuple[Card, ...], ...]:
    try:
        return _HANDS_SLOT.__get__(state)  # type: ignore[no-any-return]
    except AttributeError:  # left empty by ``copy_cards``: the hands follow from the masks
        hands = tuple(map(cards_of, state.masks))
        _HANDS_SLOT.__set__(state, hands)
        return hands


# ``hands`` reads its slot through a property that fills an empty slot from the masks (a
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
    in card order (``ordered``) and so follow from the masks the caller sets."""
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
    new.masks = s.masks
    new.led = s.led
    new.ordered = s.ordered
    new.legal = None  # (``allowed`` is read only once ``legal`` is set)
    return new
