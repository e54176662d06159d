"""The Fan Tan match state and the fold of events into it (``evolve``).

A state is a value: nothing changes a state once the rules have built it. ``evolve`` makes
the next one with ``copy`` (a hand-written copy of the slots, several times cheaper than
``dataclasses.replace``, which still works) and sets only what the event changed.

Beside its fields a state carries what follows from them, neither compared nor taken by
``replace`` (``__post_init__`` derives it again): ``masks``, each seat's hand as an int
with bit ``card.index`` per card; ``open``, the cards playable once the hand has started
(the unplayed sevens and the cards next to each row's ends), as bits; ``ordered``,
whether every hand is in card order (as dealt). It also caches the legal plays of the seat
on turn (``legal``) and the last state folded from it (``memo``: the event and the state
after it — ``apply`` folds its events as it decides them, so the caller's fold of the very
same events costs nothing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import lt
from typing import Any, Literal

from tavola.games.fantan.events import (
    CardPlayed,
    CardsSetAside,
    DealerChosen,
    DealVoided,
    HandBlocked,
    HandDealt,
    HandScored,
    HandStarted,
    HandWon,
    Passed,
)
from tavola.games.fantan.options import FanTanOptions
from tavola.rules.cards import Card, remove_card
from tavola.rules.interface import Event

Phase = Literal["draw_dealer", "deal", "play", "over"]
Row = tuple[int, int]  # (low, high) building ranks, A=1 … K=13
SEVEN_OF_DIAMONDS_BIT = 1 << (13 + 7 - 2)
_BITS = tuple(1 << i for i in range(52))


def card_bit(suit: int, building: int) -> int:
    """The bit of a card given by suit and building rank (A=1 … K=13)."""
    return 1 << (suit * 13 + (12 if building == 1 else building - 2))


SEVENS = sum(card_bit(s, 7) for s in range(4))


@dataclass(slots=True)
class FanTanState:
    players: int
    options: FanTanOptions
    phase: Phase = "draw_dealer"
    hand: int = 0
    dealer: int = 0
    hands: tuple[tuple[Card, ...], ...] = ()
    rows: tuple[Row | None, ...] = (None, None, None, None)
    turn: int | None = None
    started: bool = False
    passes_in_a_row: int = 0
    totals: tuple[int, ...] = ()
    hands_played: int = 0
    last_winner: int | None = None
    redeals: int = 0
    masks: tuple[int, ...] = field(init=False, repr=False, compare=False)
    open: int = field(init=False, repr=False, compare=False)
    ordered: bool = field(init=False, repr=False, compare=False)
    legal: Any = field(init=False, default=None, repr=False, compare=False)
    memo: tuple[Event, FanTanState] | None = field(
        init=False, default=None, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        bits = [bits_of(h) for h in self.hands]
        self.masks = tuple(mask for mask, _ in bits)
        self.ordered = all(ordered for _, ordered in bits)
        self.open = open_cards(self.rows)


def bits_of(cards: tuple[Card, ...]) -> tuple[int, bool]:
    """The cards as bits (bit ``card.index`` per card) and whether they are in card order,
    each once (as dealt)."""
    indexes = [c.suit * 13 + c.rank - 2 for c in cards]
    if all(map(lt, indexes, indexes[1:])):
        return sum(map(_BITS.__getitem__, indexes)), True
    mask = 0
    for i in indexes:
        mask |= 1 << i
    return mask, False


def open_cards(rows: tuple[Row | None, ...]) -> int:
    """The cards playable once a hand has started: unplayed sevens and the neighbours of
    each open row's ends."""
    mask = 0
    for suit, row in enumerate(rows):
        if row is None:
            mask |= card_bit(suit, 7)
            continue
        low, high = row
        if low > 1:
            mask |= card_bit(suit, low - 1)
        if high < 13:
            mask |= card_bit(suit, high + 1)
    return mask


_new = object.__new__


def copy(s: FanTanState) -> FanTanState:
    """A copy of every slot but the caches (the copy will have its own)."""
    new: FanTanState = _new(FanTanState)
    new.players = s.players
    new.options = s.options
    new.phase = s.phase
    new.hand = s.hand
    new.dealer = s.dealer
    new.hands = s.hands
    new.rows = s.rows
    new.turn = s.turn
    new.started = s.started
    new.passes_in_a_row = s.passes_in_a_row
    new.totals = s.totals
    new.hands_played = s.hands_played
    new.last_winner = s.last_winner
    new.redeals = s.redeals
    new.masks = s.masks
    new.open = s.open
    new.ordered = s.ordered
    new.legal = new.memo = None
    return new


def evolve(state: FanTanState, event: Event) -> FanTanState:
    memo = state.memo
    if memo is not None and memo[0] is event:
        return memo[1]
    handler = _EVOLVE.get(type(event))
    if handler is None:
        raise TypeError(f"not a Fan Tan event: {event!r}")
    return handler(state, event)


def advance(state: FanTanState, event: Event) -> FanTanState:
    """``evolve``, remembered by ``state`` (see the module docstring)."""
    after = evolve(state, event)
    if after is not state:
        state.memo = (event, after)
    return after


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[index] = value
    return tuple(out)


def _card_played(state: FanTanState, event: CardPlayed) -> FanTanState:
    seat, card = event.seat, event.card
    suit = int(card.suit)
    bit = 1 << (suit * 13 + card.rank - 2)
    mask, hand = state.masks[seat], state.hands[seat]
    if state.ordered and mask & bit:
        at = (mask & (bit - 1)).bit_count()  # its place in a hand in card order
        left = hand[:at] + hand[at + 1 :]
    else:
        left = remove_card(hand, card)
    value = 1 if card.rank == 14 else int(card.rank)  # building rank: A is low
    row = state.rows[suit]
    low, high = (value, value) if row is None else (min(row[0], value), max(row[1], value))
    opened = state.open & ~bit
    if low > 1:
        opened |= card_bit(suit, low - 1)
    if high < 13:
        opened |= card_bit(suit, high + 1)
    new = copy(state)
    new.hands = _put(state.hands, seat, left)
    new.masks = _put(state.masks, seat, mask & ~bit)
    new.rows = _put(state.rows, suit, (low, high))
    new.open = opened
    new.started = True
    new.turn = (seat + 1) % state.players
    new.passes_in_a_row = 0
    return new


def _passed(state: FanTanState, event: Passed) -> FanTanState:
    new = copy(state)
    new.turn = (event.seat + 1) % state.players
    new.passes_in_a_row = state.passes_in_a_row + 1
    return new


def _dealer_chosen(state: FanTanState, event: DealerChosen) -> FanTanState:
    new = copy(state)
    new.dealer = event.dealer
    new.phase = "deal"
    return new


def _deal_voided(state: FanTanState, event: DealVoided) -> FanTanState:
    new = copy(state)
    new.redeals = state.redeals + 1
    return new


def _hand_started(state: FanTanState, event: HandStarted) -> FanTanState:
    new = copy(state)
    new.hand = event.hand
    new.dealer = event.dealer
    new.phase = "play"
    new.redeals = 0
    new.hands = ((),) * state.players
    new.masks = (0,) * state.players
    new.ordered = True
    new.rows = (None, None, None, None)
    new.open = SEVENS
    new.turn = None
    new.started = False
    new.passes_in_a_row = 0
    return new


def _hand_dealt(state: FanTanState, event: HandDealt) -> FanTanState:
    mask, ordered = bits_of(event.cards)
    new = copy(state)
    new.hands = _put(state.hands, event.seat, event.cards)
    new.masks = _put(state.masks, event.seat, mask)
    new.ordered = state.ordered and ordered
    new.turn = opening_seat(new)
    return new


def opening_seat(state: FanTanState) -> int | None:
    """Who makes the first move once every hand is known: the holder of 7♦, or with
    ``any_seven_starts`` (7♦ set aside) the first seat from the dealer's left holding a
    seven. ``None`` while hands are still being dealt or nobody can open."""
    if any(len(h) == 0 for h in state.hands):
        return None
    n = state.players
    order = [(state.dealer + step) % n for step in range(1, n + 1)]
    for seat in order:
        if state.masks[seat] & SEVEN_OF_DIAMONDS_BIT:
            return seat
    if state.options.any_seven_starts:
        for seat in order:
            if state.masks[seat] & SEVENS:
                return seat
    return None


def _unchanged(state: FanTanState, event: Event) -> FanTanState:
    return state


def _hand_won(state: FanTanState, event: HandWon) -> FanTanState:
    new = copy(state)
    new.turn = None
    new.last_winner = event.seat
    return new


def _hand_blocked(state: FanTanState, event: HandBlocked) -> FanTanState:
    new = copy(state)
    new.turn = new.last_winner = None
    return new


def _hand_scored(state: FanTanState, event: HandScored) -> FanTanState:
    new = copy(state)
    new.totals = event.totals
    new.hands_played = state.hands_played + 1
    new.turn = None
    new.phase = "over" if match_ended(new) else "deal"
    return new


def hands_in_match(state: FanTanState) -> int | None:
    """Hands the match lasts (``None``: until the penalty limit)."""
    if state.options.hands:
        return state.options.hands
    return None if state.options.penalty_limit else state.players


def match_ended(state: FanTanState) -> bool:
    limit = state.options.penalty_limit
    if limit and max(state.totals) >= limit:
        return True
    planned = hands_in_match(state)
    return planned is not None and state.hands_played >= planned


_EVOLVE: dict[type[Event], Callable[[FanTanState, Any], FanTanState]] = {
    CardPlayed: _card_played,
    Passed: _passed,
    DealerChosen: _dealer_chosen,
    DealVoided: _deal_voided,
    HandStarted: _hand_started,
    HandDealt: _hand_dealt,
    CardsSetAside: _unchanged,
    HandWon: _hand_won,
    HandBlocked: _hand_blocked,
    HandScored: _hand_scored,
}
