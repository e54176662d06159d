"""The move made for a seat whose timer ran out (documented safe choices):

* reservations: "healthy" (a seat forced to play its Pflichtsolo: the solo in which it holds
  the most trumps, Queen solo first among equals);
* Armut: decline; giving back: the card with the fewest points, plain cards before trumps;
* play: never an announcement; the legal card with the fewest points (plain before trump,
  then the weakest). A seat that may only announce (not its turn to play) has no timer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavola.games.doppelkopf.actions import AnswerPoverty, Declare, DokoAction, GiveBack, Play
from tavola.games.doppelkopf.model import Reservation
from tavola.games.doppelkopf.play import legal_cards
from tavola.games.doppelkopf.poverty import givable
from tavola.games.doppelkopf.state import DokoState
from tavola.games.doppelkopf.trumps import POINTS, CardRules, card_rules
from tavola.rules.cards import Card
from tavola.rules.errors import NotYourTurn, Reason

if TYPE_CHECKING:
    from tavola.games.doppelkopf.game import Doppelkopf


def _cheapest(cards: tuple[Card, ...], rules: CardRules) -> Card:
    return min(cards, key=lambda c: (POINTS[c.rank], rules.is_trump(c), rules.power[c], c))


def _forced_solo(state: DokoState, seat: int) -> Reservation:
    assert state.deal is not None
    hand = state.deal.hands[seat]
    solos = [r for r in Reservation if r.is_solo]
    return max(solos, key=lambda r: (sum(card_rules(r.contract).is_trump(c) for c in hand), -r))


def automatic(game: Doppelkopf, state: DokoState, seat: int) -> tuple[DokoAction, Reason]:
    deal = state.deal
    if deal is None or seat not in game.to_act(state):
        raise NotYourTurn(Reason.of("doppelkopf.auto.no_timer"))
    if state.phase == "reservations":
        if deal.forced_solo == seat:
            return Declare(_forced_solo(state, seat)), Reason.of("doppelkopf.auto.forced_solo")
        return Declare(Reservation.HEALTHY), Reason.of("doppelkopf.auto.healthy")
    if state.phase == "poverty_offer":
        return AnswerPoverty(False), Reason.of("doppelkopf.auto.decline")
    if state.phase == "poverty_return":
        card = _cheapest(givable(state, seat), deal.rules)
        return GiveBack(card), Reason.of("doppelkopf.auto.give", card=card.code)
    cards = legal_cards(state, seat)
    if not cards:
        raise NotYourTurn(Reason.of("doppelkopf.auto.no_timer"))
    card = _cheapest(cards, deal.rules)
    return Play(card), Reason.of("doppelkopf.auto.card", card=card.code)
