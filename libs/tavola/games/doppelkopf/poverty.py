"""Armut (house rule): the poor player's trumps go to a partner who accepts, who gives the
same number of cards back (one ``give`` action per card); nobody accepting: a redeal."""

from __future__ import annotations

from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.model import Contract
from tavola.games.doppelkopf.play import Chain
from tavola.games.doppelkopf.state import DokoState
from tavola.games.doppelkopf.trumps import card_rules
from tavola.rules.cards import Card
from tavola.rules.errors import Reason
from tavola.rules.interface import Event


def answer_reason(state: DokoState, seat: int) -> Reason | None:
    if state.phase != "poverty_offer" or state.deal is None or state.deal.asked != seat:
        return Reason.of("doppelkopf.not_now")
    return None


def answer_events(state: DokoState, seat: int, accept: bool) -> list[Event]:
    chain = Chain(state)
    chain.add(ev.PovertyAnswered(seat, accept))
    deal = chain.deal
    poor = deal.declarer
    assert poor is not None
    if accept:
        rules = card_rules(Contract.NORMAL)
        trumps = tuple(c for c in deal.hands[poor] if rules.is_trump(c))
        chain.add(
            ev.TrumpsHandedOver(poor, seat, trumps), ev.TrumpsCounted(poor, seat, len(trumps))
        )
    elif deal.asked is None:
        chain.add(ev.DealCancelled(deal.number, "doppelkopf.redeal.poverty_refused"))
    return chain.events


def give_reason(state: DokoState, seat: int, card: Card) -> Reason | None:
    deal = state.deal
    if state.phase != "poverty_return" or deal is None or deal.partner != seat:
        return Reason.of("doppelkopf.not_now")
    if card not in deal.hands[seat]:
        return Reason.of("doppelkopf.not_in_hand", card=card.code)
    return None


def give_events(state: DokoState, seat: int, card: Card) -> list[Event]:
    deal = state.deal
    assert deal is not None and deal.declarer is not None
    return [ev.CardReturned(seat, deal.declarer, card), ev.CardPassed(seat, deal.declarer)]


def givable(state: DokoState, seat: int) -> tuple[Card, ...]:
    deal = state.deal
    if state.phase != "poverty_return" or deal is None or deal.partner != seat:
        return ()
    return tuple(dict.fromkeys(deal.hands[seat]))
