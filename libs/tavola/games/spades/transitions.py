"""How each Spades event changes the state (``evolve``): one small function per event, each
starting from ``copy`` of the state and setting only what the event changed. The plays of
a hand in card order start from ``copy_cards``: their hands follow from ``held``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tavola.games.spades.events import (
    BidMade,
    CardPlayed,
    DealerChosen,
    ExtraHandCalled,
    HandDealt,
    HandScored,
    HandStarted,
    MatchEnded,
    PlayStarted,
    SpadesBroken,
    TrickTaken,
)
from tavola.games.spades.state import (
    DECK_BITS,
    SEATS,
    SpadesState,
    bits_of,
    copy,
    copy_cards,
)
from tavola.rules.cards import PlayedCard, remove_card, standard_deck
from tavola.rules.interface import Event

TRICKS_PER_HAND = 13
DECK = standard_deck()
PLAYED = tuple(tuple(PlayedCard(seat, c) for c in DECK) for seat in range(SEATS))
PLAYED_ALONE = tuple(tuple((p,) for p in plays) for plays in PLAYED)  # (to add to a trick)
NEXT_SEAT = tuple((seat + 1) % SEATS for seat in range(SEATS))
# events are values: the rules' plays built once, by seat and card index (``Spades.decide``)
CARDS_PLAYED = tuple(tuple(CardPlayed(seat, c) for c in DECK) for seat in range(SEATS))
_new = object.__new__

ALL_HELD = (1 << 52 * SEATS) - 1  # every bit of ``SpadesState.held``

PlayFacts = tuple[int, int, int, tuple[PlayedCard], int, int]
"""What ``evolve`` needs of a play: the seat, the card's bit in ``SpadesState.held`` (bit
``52 * seat + index``), every other bit (to clear it with one ``&``), the card as a trick
of one play (``PLAYED_ALONE``), the next seat and the card's suit (as an int)."""


def _play_of(seat: int, index: int) -> PlayFacts:
    bit = 1 << 52 * seat + index
    return seat, bit, ALL_HELD ^ bit, PLAYED_ALONE[seat][index], NEXT_SEAT[seat], index // 13


PLAY_FACTS = tuple(tuple(_play_of(seat, index) for index in range(52)) for seat in range(SEATS))
"""The facts of every play (``PlayFacts``), by seat and card index."""


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[index] = value
    return tuple(out)


def card_played(state: SpadesState, event: CardPlayed) -> SpadesState:
    return game_evolve(None, state, event)


def game_evolve(_game: object, state: SpadesState, event: Event) -> SpadesState:
    """``Spades.evolve`` itself (the class takes this function as its method: one call less
    on the hot path). ``card_played``, three events in four, is written out here, with
    ``copy_cards`` for the slots it keeps."""
    if type(event) is not CardPlayed:
        handler = EVOLVE.get(type(event))
        if handler is None:
            raise TypeError(f"not a Spades event: {event!r}")
        return handler(state, event)
    card = event.card
    seat, bit, others, alone, turn, suit = PLAY_FACTS[event.seat][card.suit * 13 + card.rank - 2]
    held = state.held
    new: SpadesState = _new(SpadesState)
    if not (state.ordered and held & bit):  # (in card order, the hands follow from ``held``)
        hand = remove_card(state.hands[seat], card)  # (which refuses a card not held)
        new.hands = _put(state.hands, seat, hand)
    new.phase = state.phase
    new.hand = state.hand
    new.dealer = state.dealer
    new.bids = state.bids
    new.turn = turn
    new.leader = state.leader
    trick = state.trick
    new.trick = trick + alone
    new.last_trick = state.last_trick
    new.last_winner = state.last_winner
    new.tricks = state.tricks
    new.spades_broken = state.spades_broken
    new.scores = state.scores
    new.bags = state.bags
    new.deciding = state.deciding
    new.winner = state.winner
    new.hands_played = state.hands_played
    new.options = state.options
    new.held = held & others
    new.led = state.led if trick else suit
    new.ordered = state.ordered
    new.legal = None
    return new


def _trick_taken(state: SpadesState, event: TrickTaken) -> SpadesState:
    seat = event.seat
    more = event.number < TRICKS_PER_HAND
    t0, t1, t2, t3 = state.tricks
    new: SpadesState = _new(SpadesState)  # ``copy_cards`` written out (once a trick)
    if not state.ordered:
        new.hands = state.hands
    new.phase = state.phase
    new.hand = state.hand
    new.dealer = state.dealer
    new.bids = state.bids
    new.turn = new.leader = seat if more else None
    new.trick = ()
    new.last_trick = state.trick
    new.last_winner = seat
    if seat < 2:
        new.tricks = (t0 + 1, t1, t2, t3) if seat == 0 else (t0, t1 + 1, t2, t3)
    else:
        new.tricks = (t0, t1, t2 + 1, t3) if seat == 2 else (t0, t1, t2, t3 + 1)
    new.spades_broken = state.spades_broken
    new.scores = state.scores
    new.bags = state.bags
    new.deciding = state.deciding
    new.winner = state.winner
    new.hands_played = state.hands_played
    new.options = state.options
    new.held = state.held
    new.led = -1
    new.ordered = state.ordered
    new.legal = None
    return new


def _keeping_hands(state: SpadesState) -> SpadesState:
    """``copy``, or ``copy_cards`` while the hands are in card order (they follow from
    ``held``, so the new state need not read them)."""
    return copy_cards(state) if state.ordered else copy(state)


def _bid_made(state: SpadesState, event: BidMade) -> SpadesState:
    new = _keeping_hands(state)
    new.bids = _put(state.bids, event.seat, event.tricks)
    new.turn = (event.seat + 1) % SEATS
    return new


def _play_started(state: SpadesState, event: PlayStarted) -> SpadesState:
    new = _keeping_hands(state)
    new.phase = "play"
    new.leader = new.turn = event.leader
    new.trick = ()
    new.led = -1
    return new


def _spades_broken(state: SpadesState, event: SpadesBroken) -> SpadesState:
    new = _keeping_hands(state)
    new.spades_broken = True
    return new


def _hand_dealt(state: SpadesState, event: HandDealt) -> SpadesState:
    mask, ordered = bits_of(event.cards)
    if state.ordered and ordered:  # the new hands follow from ``held`` too
        new = copy_cards(state)
    else:
        new = copy(state)
        new.hands = _put(state.hands, event.seat, event.cards)
        new.ordered = False
    shift = 52 * event.seat  # (the seat's 52 bits of ``held`` cleared, then set to its hand)
    new.held = state.held & ~(DECK_BITS << shift) | mask << shift
    return new


def _dealer_chosen(state: SpadesState, event: DealerChosen) -> SpadesState:
    new = _keeping_hands(state)
    new.dealer = event.dealer
    new.phase = "deal"
    return new


def _hand_started(state: SpadesState, event: HandStarted) -> SpadesState:
    new = copy_cards(state)  # (the hands are set here)
    new.phase = "bidding"
    new.hand = event.hand
    new.dealer = event.dealer
    new.hands = ((),) * SEATS
    new.held = 0
    new.ordered = True
    new.bids = (None,) * SEATS
    new.turn = (event.dealer + 1) % SEATS
    new.leader = None
    new.trick = new.last_trick = ()
    new.led = -1
    new.last_winner = None
    new.tricks = (0,) * SEATS
    new.spades_broken = False
    return new


def _hand_scored(state: SpadesState, event: HandScored) -> SpadesState:
    new = _keeping_hands(state)
    new.phase = "deal"
    new.scores = event.scores
    new.bags = event.bags
    new.turn = new.leader = None
    new.trick = ()
    new.led = -1
    new.hands_played = state.hands_played + 1
    return new


def _extra_hand_called(state: SpadesState, event: ExtraHandCalled) -> SpadesState:
    new = _keeping_hands(state)
    new.deciding = True
    return new


def _match_ended(state: SpadesState, event: MatchEnded) -> SpadesState:
    new = _keeping_hands(state)
    new.phase = "over"
    new.winner = event.winner
    new.turn = None
    return new


EVOLVE: dict[type[Event], Callable[[SpadesState, Any], SpadesState]] = {
    CardPlayed: card_played,
    TrickTaken: _trick_taken,
    BidMade: _bid_made,
    PlayStarted: _play_started,
    SpadesBroken: _spades_broken,
    HandDealt: _hand_dealt,
    DealerChosen: _dealer_chosen,
    HandStarted: _hand_started,
    HandScored: _hand_scored,
    ExtraHandCalled: _extra_hand_called,
    MatchEnded: _match_ended,
}


def evolve(state: SpadesState, event: Event) -> SpadesState:
    handler = EVOLVE.get(type(event))
    if handler is None:
        raise TypeError(f"not a Spades event: {event!r}")
    return handler(state, event)
