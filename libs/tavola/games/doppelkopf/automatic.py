"""The move made for a seat whose timer ran out (documented safe choices):

* reservations: "healthy" (a seat forced to play its Pflichtsolo: the solo in which it holds
  the most trumps, Queen solo first among equals);
* Armut: decline; giving back: the card with the fewest points, plain cards before trumps;
* play: never an announcement; the legal card with the fewest points (plain before trump,
  then the weakest);
* a seat that may only announce (another seat is to play): ``wait`` — no announcement; the
  seat leaves ``to_act`` until the next card or announcement. The game does not wait for
  such a seat (``decision`` is None, no timer of its own); a deadline may still run out for
  it (the platform's bot watchdog, or the engine keeping the deadline of the card it has
  just played), and ``wait`` ends that without a loop of optional moves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavola.games.doppelkopf.actions import AnswerPoverty, Declare, DokoAction, GiveBack, Play, Wait
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
    to_act = game.to_act(state)
    if deal is None or seat not in to_act:
        on_turn = ",".join(map(str, sorted(to_act)))
        raise NotYourTurn(Reason.of("game.not_your_turn", seat=seat, on_turn=on_turn))
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
    if not cards:  # it may only announce while another seat is to play
        return Wait(), Reason.of("doppelkopf.auto.wait")
    card = _cheapest(cards, deal.rules)
    return Play(card), Reason.of("doppelkopf.auto.card", card=card.code)
