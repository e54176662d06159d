"""Folding Doppelkopf events into the state (pure; no validation)."""

from __future__ import annotations

from typing import TypeVar

from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.match import game_ended, start_bock
from tavola.games.doppelkopf.model import Contract, SeatParty, TrickRecord
from tavola.games.doppelkopf.state import Deal, DokoState, changed, deal_changed
from tavola.games.doppelkopf.trumps import CLUB_QUEEN, FOX, card_rules
from tavola.rules.cards import Card, Trick, remove_card
from tavola.rules.interface import Event

T = TypeVar("T")


def _set(items: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*items[:index], value, *items[index + 1 :])


def _pair(items: tuple[T, T], index: int, value: T) -> tuple[T, T]:
    return (value, items[1]) if index == 0 else (items[0], value)


def _hands(deal: Deal, seat: int, hand: tuple[Card, ...]) -> tuple[tuple[Card, ...], ...]:
    hands = list(deal.hands)
    hands[seat] = hand
    return tuple(hands)


def _deal(state: DokoState) -> Deal:
    assert state.deal is not None
    return state.deal


def _with_deal(state: DokoState, **changes: object) -> DokoState:
    return changed(state, deal=deal_changed(_deal(state), **changes))


def start_play(deal: Deal, options_schweinchen: bool) -> Deal:
    """Cards are final: find the Schweinchen (normal games) and who leads."""
    pigs = None
    if options_schweinchen and deal.contract in (
        Contract.NORMAL,
        Contract.WEDDING,
        Contract.POVERTY,
    ):
        pigs = next((s for s in deal.seats if deal.hands[s].count(FOX) == 2), None)
    lead = deal.declarer if deal.compulsory and deal.declarer is not None else deal.seats[0]
    return deal_changed(deal, schweinchen=pigs, turn=lead, trick=Trick(lead))


def _contract_chosen(state: DokoState, e: ev.ContractChosen) -> DokoState:
    deal = _deal(state)
    n = state.players
    if e.declarer is None:
        holders = [s for s in deal.seats for c in deal.hands[s] if c == CLUB_QUEEN]
        re = tuple(s in holders for s in range(n))
        alone = len(set(holders)) == 1
    else:
        re = tuple(s == e.declarer for s in range(n))
        alone = e.contract.is_solo
    deal = deal_changed(
        deal,
        contract=e.contract,
        declarer=e.declarer,
        compulsory=e.compulsory,
        re=re,
        alone=alone,
        wedding_open=e.contract == Contract.WEDDING,
    )
    if e.contract == Contract.POVERTY:
        assert e.declarer is not None
        asked = deal.next_seat(e.declarer)
        return changed(state, deal=deal_changed(deal, asked=asked), phase="poverty_offer")
    return changed(state, deal=start_play(deal, state.options.schweinchen), phase="play")


def _poverty_answered(state: DokoState, e: ev.PovertyAnswered) -> DokoState:
    deal = _deal(state)
    if e.accepted:
        re = _set(deal.re, e.seat, True)
        return _with_deal(state, partner=e.seat, asked=None, re=re)
    asked = deal.next_seat(e.seat)
    return _with_deal(state, asked=None if asked == deal.declarer else asked)


def _give(state: DokoState, giver: int, taker: int, cards: tuple[Card, ...]) -> Deal:
    deal = _deal(state)
    hand = deal.hands[giver]
    for c in cards:
        hand = remove_card(hand, c)
    hands = list(_hands(deal, giver, hand))
    hands[taker] = tuple(sorted((*hands[taker], *cards)))
    return deal_changed(deal, hands=tuple(hands))


def _maybe_play(state: DokoState, deal: Deal) -> DokoState:
    if deal.to_return > 0:
        return changed(state, deal=deal, phase="poverty_return")
    return changed(state, deal=start_play(deal, state.options.schweinchen), phase="play")


def _trumps_handed(state: DokoState, e: ev.TrumpsHandedOver) -> DokoState:
    deal = deal_changed(_give(state, e.poor, e.partner, e.cards), to_return=len(e.cards))
    return _maybe_play(state, deal)


def _card_returned(state: DokoState, e: ev.CardReturned) -> DokoState:
    deal = _give(state, e.partner, e.poor, (e.card,))
    return _maybe_play(state, deal_changed(deal, to_return=deal.to_return - 1))


def _announced(state: DokoState, e: ev.Announced) -> DokoState:
    deal = _deal(state)
    levels = _pair(deal.levels, e.party, e.level)
    replied = _pair(deal.replied, e.party, deal.replied[e.party] or e.reply)
    marker = SeatParty(e.seat, e.party)
    announcers = deal.announcers if marker in deal.announcers else (*deal.announcers, marker)
    return _with_deal(state, levels=levels, replied=replied, announcers=announcers, waiting=())


def _card_played(state: DokoState, e: ev.CardPlayed) -> DokoState:
    deal = _deal(state)
    assert deal.trick is not None
    trick = deal.trick.with_play(e.seat, e.card)
    turn = None if len(trick.plays) == len(deal.seats) else deal.next_seat(e.seat)
    hands = _hands(deal, e.seat, remove_card(deal.hands[e.seat], e.card))
    return _with_deal(state, hands=hands, trick=trick, turn=turn, waiting=())


def _trick_won(state: DokoState, e: ev.TrickWon) -> DokoState:
    deal = _deal(state)
    assert deal.trick is not None
    record = TrickRecord(e.number, deal.trick.plays, e.winner)
    more = bool(deal.hands[e.winner])
    return _with_deal(
        state,
        tricks=(*deal.tricks, record),
        trick=Trick(e.winner) if more else None,
        turn=e.winner if more else None,
    )


def _game_scored(state: DokoState, e: ev.GameScored) -> DokoState:
    deal = _deal(state)
    owed = state.solo_owed
    if deal.compulsory and deal.declarer is not None:
        owed = tuple(False if s == deal.declarer else o for s, o in enumerate(owed))
    target = state.options.target
    reached = state.target_reached or (target > 0 and max(e.totals) >= target)
    state = changed(
        state, totals=e.totals, last_scores=e.scores, solo_owed=owed, target_reached=reached
    )
    return game_ended(state, advance=not deal.compulsory, bock=deal.bock)


def _game_started(state: DokoState, e: ev.GameStarted) -> DokoState:
    n = state.players
    deal = Deal(
        number=e.deal,
        dealer=e.dealer,
        seats=e.seats,
        bock=e.bock,
        forced_solo=e.forced_solo,
        hands=((),) * n,
        declared=(None,) * n,
    )
    state = changed(state, deal=deal, deals=e.deal, dealer=e.dealer, phase="reservations")
    return start_bock(state, e.bock)


def evolve(state: DokoState, event: Event) -> DokoState:
    memo = state.memo
    if memo is not None and memo[0] is event:
        return memo[1]
    match event:
        case ev.CardPlayed():
            return _card_played(state, event)
        case ev.TrickWon():
            return _trick_won(state, event)
        case ev.Announced():
            return _announced(state, event)
        case ev.AnnouncementsDeferred(seat=seat):
            return _with_deal(state, waiting=tuple(sorted({*_deal(state).waiting, seat})))
        case ev.SchweinchenShown():
            return _with_deal(state, schweinchen_shown=True)
        case ev.PartnerFound(partner=partner, trick=trick):
            re = _set(_deal(state).re, partner, True)
            return _with_deal(state, re=re, partner=partner, wedding_open=False, shift=trick - 1)
        case ev.WeddingAlone():
            return _with_deal(state, wedding_open=False, alone=True, shift=2)
        case ev.DealerDrawn(dealer=dealer):
            return changed(state, dealer=dealer, phase="deal")
        case ev.GameStarted():
            return _game_started(state, event)
        case ev.HandDealt(seat=seat, cards=cards):
            return _with_deal(state, hands=_hands(_deal(state), seat, cards))
        case ev.ReservationChosen(seat=seat, reservation=reservation):
            return _with_deal(state, declared=_set(_deal(state).declared, seat, reservation))
        case ev.ReservationsShown(reserved=reserved):
            return _with_deal(state, reserved=reserved)
        case ev.ContractChosen():
            return _contract_chosen(state, event)
        case ev.DealCancelled():
            return changed(state, phase="deal")
        case ev.PovertyAnswered():
            return _poverty_answered(state, event)
        case ev.TrumpsHandedOver():
            return _trumps_handed(state, event)
        case ev.CardReturned():
            return _card_returned(state, event)
        case ev.GameScored():
            return _game_scored(state, event)
        case ev.BockRoundEarned():
            return changed(state, bock_pending=state.bock_pending + 1)
        case ev.PlayerLeft(seat=seat):
            return changed(state, present=_set(state.present, seat, False))
        case ev.GameAbandoned():
            return game_ended(state, advance=True, bock=_deal(state).bock)
        case ev.MatchEnded(interrupted=interrupted):
            return changed(state, phase="over", interrupted=interrupted)
        case ev.SeatDeclared() | ev.HandThrown() | ev.TrumpsCounted() | ev.CardPassed():
            return state
    raise TypeError(f"not a Doppelkopf event: {event!r}")


def advance(state: DokoState, event: Event) -> DokoState:
    """``evolve``, remembered by ``state`` (see ``state``'s docstring)."""
    after = evolve(state, event)
    if after is not state:
        state.memo = (event, after)
    return after


__all__ = ["advance", "card_rules", "evolve", "start_play"]
