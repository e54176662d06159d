"""How each Spades event changes the state (``evolve``): one small function per event, each
starting from ``copy`` of the state and setting only what the event changed. The plays of
a hand in card order start from ``copy_cards``: their hands follow from the masks."""

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
from tavola.games.spades.state import SEATS, SpadesState, bits_of, copy, copy_cards
from tavola.rules.cards import PlayedCard, remove_card, standard_deck
from tavola.rules.interface import Event

TRICKS_PER_HAND = 13
DECK = standard_deck()
PLAYED = tuple(tuple(PlayedCard(seat, c) for c in DECK) for seat in range(SEATS))
PLAYED_ALONE = tuple(tuple((p,) for p in plays) for plays in PLAYED)  # (to add to a trick)
_new = object.__new__


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[index] = value
    return tuple(out)


NEXT_SEAT = tuple((seat + 1) % SEATS for seat in range(SEATS))


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
    seat, card = event.seat, event.card
    index = card.suit * 13 + card.rank - 2
    bit = 1 << index
    masks = state.masks
    mask = masks[seat]
    new: SpadesState = _new(SpadesState)
    if not (state.ordered and mask & bit):  # (in card order, the hands follow from masks)
        new.hands = _put(state.hands, seat, remove_card(state.hands[seat], card))
    new.phase = state.phase
    new.hand = state.hand
    new.dealer = state.dealer
    new.bids = state.bids
    new.turn = NEXT_SEAT[seat]
    new.leader = state.leader
    trick = state.trick
    new.trick = trick + PLAYED_ALONE[seat][index]
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
    m0, m1, m2, m3 = masks  # (spelt out: cheaper than a list made and made a tuple)
    left = mask & ~bit
    if seat < 2:
        new.masks = (left, m1, m2, m3) if seat == 0 else (m0, left, m2, m3)
    else:
        new.masks = (m0, m1, left, m3) if seat == 2 else (m0, m1, m2, left)
    new.led = state.led if trick else int(card.suit)
    new.ordered = state.ordered
    new.legal = None
    return new


def _trick_taken(state: SpadesState, event: TrickTaken) -> SpadesState:
    seat = event.seat
    more = event.number < TRICKS_PER_HAND
    tricks = list(state.tricks)
    tricks[seat] += 1
    new: SpadesState = _new(SpadesState)  # ``copy_cards`` written out (once a trick)
    if not state.ordered:
        new.hands = state.hands
    new.phase = state.phase
    new.hand = state.hand
    new.dealer = state.dealer
    new.bids = state.bids
    new.turn = seat if more else None
    new.leader = seat if more else None
    new.trick = ()
    new.last_trick = state.trick
    new.last_winner = seat
    new.tricks = tuple(tricks)
    new.spades_broken = state.spades_broken
    new.scores = state.scores
    new.bags = state.bags
    new.deciding = state.deciding
    new.winner = state.winner
    new.hands_played = state.hands_played
    new.options = state.options
    new.masks = state.masks
    new.led = -1
    new.ordered = state.ordered
    new.legal = None
    return new


def _bid_made(state: SpadesState, event: BidMade) -> SpadesState:
    new = copy(state)
    new.bids = _put(state.bids, event.seat, event.tricks)
    new.turn = (event.seat + 1) % SEATS
    return new


def _play_started(state: SpadesState, event: PlayStarted) -> SpadesState:
    new = copy(state)
    new.phase = "play"
    new.leader = new.turn = event.leader
    new.trick = ()
    new.led = -1
    return new


def _spades_broken(state: SpadesState, event: SpadesBroken) -> SpadesState:
    new = copy_cards(state) if state.ordered else copy(state)
    new.spades_broken = True
    return new


def _hand_dealt(state: SpadesState, event: HandDealt) -> SpadesState:
    mask, ordered = bits_of(event.cards)
    new = copy(state)
    new.hands = _put(state.hands, event.seat, event.cards)
    new.masks = _put(state.masks, event.seat, mask)
    new.ordered = state.ordered and ordered
    return new


def _dealer_chosen(state: SpadesState, event: DealerChosen) -> SpadesState:
    new = copy(state)
    new.dealer = event.dealer
    new.phase = "deal"
    return new


def _hand_started(state: SpadesState, event: HandStarted) -> SpadesState:
    new = copy(state)
    new.phase = "bidding"
    new.hand = event.hand
    new.dealer = event.dealer
    new.hands = ((),) * SEATS
    new.masks = (0,) * SEATS
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
    new = copy(state)
    new.phase = "deal"
    new.scores = event.scores
    new.bags = event.bags
    new.turn = new.leader = None
    new.trick = ()
    new.led = -1
    new.hands_played = state.hands_played + 1
    return new


def _extra_hand_called(state: SpadesState, event: ExtraHandCalled) -> SpadesState:
    new = copy(state)
    new.deciding = True
    return new


def _match_ended(state: SpadesState, event: MatchEnded) -> SpadesState:
    new = copy(state)
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
