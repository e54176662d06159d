"""How each Spades event changes the state (``evolve``): one small function per event, each
starting from ``copy`` of the state and setting only what the event changed."""

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
from tavola.games.spades.state import SEATS, SpadesState, bits_of, copy
from tavola.rules.cards import PlayedCard, remove_card, standard_deck
from tavola.rules.interface import Event

TRICKS_PER_HAND = 13
DECK = standard_deck()
PLAYED = tuple(tuple(PlayedCard(seat, c) for c in DECK) for seat in range(SEATS))


def _put(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    out = list(values)
    out[index] = value
    return tuple(out)


def card_played(state: SpadesState, event: CardPlayed) -> SpadesState:
    seat, card = event.seat, event.card
    index = card.suit * 13 + card.rank - 2
    bit = 1 << index
    mask = state.masks[seat]
    hand = state.hands[seat]
    if state.ordered and mask & bit:
        at = (mask & (bit - 1)).bit_count()  # its place in a hand in card order
        left = hand[:at] + hand[at + 1 :]
    else:
        left = remove_card(hand, card)
    new = copy(state)
    hands = list(state.hands)
    hands[seat] = left
    new.hands = tuple(hands)
    masks = list(state.masks)
    masks[seat] = mask & ~bit
    new.masks = tuple(masks)
    new.turn = (seat + 1) % SEATS
    if not state.trick:
        new.led = int(card.suit)
    new.trick = (*state.trick, PLAYED[seat][index])
    return new


def _trick_taken(state: SpadesState, event: TrickTaken) -> SpadesState:
    seat = event.seat
    more = event.number < TRICKS_PER_HAND
    new = copy(state)
    new.tricks = _put(state.tricks, seat, state.tricks[seat] + 1)
    new.last_trick = state.trick
    new.last_winner = seat
    new.leader = seat if more else None
    new.trick = ()
    new.led = -1
    new.turn = seat if more else None
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
    new = copy(state)
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
