"""Playing the cards: following, tricks, the wedding's clarification and the end of a game."""

from __future__ import annotations

from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.evolve import advance
from tavola.games.doppelkopf.match import bock_reasons, match_over
from tavola.games.doppelkopf.model import Contract
from tavola.games.doppelkopf.scoring import SpecialRules, seat_scores, settle
from tavola.games.doppelkopf.state import Deal, DokoState
from tavola.games.doppelkopf.trumps import FOX, TRUMP, card_points, playable, trick_winner
from tavola.rules.cards import Card
from tavola.rules.errors import Reason
from tavola.rules.interface import Event


class Chain:
    """Events produced by one decision, folded as they are added."""

    def __init__(self, state: DokoState) -> None:
        self.state = state
        self.events: list[Event] = []

    def add(self, *events: Event) -> None:
        for event in events:
            self.state = advance(self.state, event)
            self.events.append(event)

    @property
    def deal(self) -> Deal:
        assert self.state.deal is not None
        return self.state.deal


def _led(deal: Deal) -> Card | None:
    return deal.trick.plays[0].card if deal.trick and deal.trick.plays else None


def card_reason(state: DokoState, seat: int, card: Card) -> Reason | None:
    deal = state.deal
    if state.phase != "play" or deal is None:
        return Reason.of("doppelkopf.not_now")
    if deal.turn != seat:
        return Reason.of("doppelkopf.not_your_turn_to_play")
    if card not in deal.hands[seat]:
        return Reason.of("doppelkopf.not_in_hand", card=card.code)
    led = _led(deal)
    rules = deal.rules
    if card not in playable(deal.hands[seat], led, rules):
        assert led is not None
        kind = rules.kind[led]
        return Reason.of(
            "doppelkopf.must_follow",
            card=card.code,
            led="trump" if kind == TRUMP else led.suit.letter,
        )
    return None


def legal_cards(state: DokoState, seat: int) -> tuple[Card, ...]:
    deal = state.deal
    if state.phase != "play" or deal is None or deal.turn != seat:
        return ()
    out, held = [], 0
    for c in playable(deal.hands[seat], _led(deal), deal.rules):
        bit = 1 << (c.suit * 13 + c.rank - 2)
        if not held & bit:  # each card once (the deck holds two of each)
            held |= bit
            out.append(c)
    return tuple(out)


def play_events(state: DokoState, seat: int, card: Card) -> list[Event]:
    chain = Chain(state)
    chain.add(ev.CardPlayed(seat, card))
    deal = chain.deal
    if card == FOX and deal.schweinchen == seat and not deal.schweinchen_shown:
        chain.add(ev.SchweinchenShown(seat))
    trick = deal.trick
    assert trick is not None
    if len(trick.plays) < len(deal.seats):
        return chain.events
    winner = trick_winner(trick.plays, deal.rules, state.options.second_dulle)
    number = len(deal.tricks) + 1
    chain.add(ev.TrickWon(number, winner, card_points(trick.cards())))
    _clarify_wedding(chain, number, winner)
    if chain.deal.turn is None:
        _end_game(chain)
    return chain.events


def _clarify_wedding(chain: Chain, number: int, winner: int) -> None:
    deal = chain.deal
    if not deal.wedding_open or deal.declarer is None:
        return
    if winner != deal.declarer:
        chain.add(ev.PartnerFound(deal.declarer, winner, number))
    elif number == 3:
        chain.add(ev.WeddingAlone(deal.declarer))


def _end_game(chain: Chain) -> None:
    state, deal = chain.state, chain.deal
    opts = state.options
    solo = deal.alone or deal.contract.is_solo
    special = SpecialRules(not solo, opts.fuchs_am_end, opts.karlchen_fangen)
    result = settle(deal.tricks, deal.re, deal.levels, special)
    multiplier = 2 if deal.bock else 1
    scores = seat_scores(state.players, deal.seats, deal.re, result.value * multiplier, solo)
    totals = tuple(t + s for t, s in zip(state.totals, scores, strict=True))
    chain.add(
        ev.GameScored(
            deal=deal.number,
            contract=deal.contract,
            re_seats=tuple(s for s in deal.seats if deal.re[s]),
            re_points=result.tally.points[0],
            kontra_points=result.tally.points[1],
            winner=result.winner,
            lines=result.lines,
            value=result.value,
            multiplier=multiplier,
            scores=scores,
            totals=totals,
        )
    )
    reasons = bock_reasons(state, deal, result)
    if reasons:
        chain.add(ev.BockRoundEarned(reasons))
    if match_over(chain.state):
        chain.add(ev.MatchEnded(False))


def is_normal_game(deal: Deal) -> bool:
    return deal.contract in (Contract.NORMAL, Contract.WEDDING, Contract.POVERTY)
