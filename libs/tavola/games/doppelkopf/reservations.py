"""Reservations (Vorbehalt): simultaneous declarations, their legality and priority.

Every player declares at once; a declaration stays private until all four have declared.
Then only who said "reservation" is shown, and the winning reservation becomes the
contract: Schmeißen > compulsory solo > voluntary solo > Armut > Hochzeit, and among equals
the seat nearer the dealer's left. Losing reservations are never revealed.
"""

from __future__ import annotations

from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.model import Contract, Reservation
from tavola.games.doppelkopf.state import Deal, DokoState
from tavola.games.doppelkopf.trumps import CLUB_QUEEN, card_rules
from tavola.rules.cards import Rank
from tavola.rules.errors import Reason
from tavola.rules.interface import Event

RESERVATION_CODES = {
    Reservation.HEALTHY: "healthy",
    Reservation.WEDDING: "wedding",
    Reservation.POVERTY: "poverty",
    Reservation.THROW: "throw",
    Reservation.QUEEN_SOLO: "solo Q",
    Reservation.JACK_SOLO: "solo J",
    Reservation.CLUBS_SOLO: "solo C",
    Reservation.SPADES_SOLO: "solo S",
    Reservation.HEARTS_SOLO: "solo H",
    Reservation.DIAMONDS_SOLO: "solo D",
    Reservation.FLEISCHLOS: "solo F",
}


def normal_trumps(deal: Deal, seat: int) -> int:
    rules = card_rules(Contract.NORMAL)
    return sum(1 for c in deal.hands[seat] if rules.is_trump(c))


def nines(deal: Deal, seat: int) -> int:
    return sum(1 for c in deal.hands[seat] if c.rank == Rank.NINE)


def reservation_reason(state: DokoState, seat: int, choice: Reservation) -> Reason | None:
    deal = state.deal
    if state.phase != "reservations" or deal is None or seat not in deal.seats:
        return Reason.of("doppelkopf.not_now")
    if deal.declared[seat] is not None:
        return Reason.of("doppelkopf.already_declared")
    if deal.forced_solo == seat and not choice.is_solo:
        return Reason.of("doppelkopf.must_declare_solo")
    if choice == Reservation.WEDDING and deal.hands[seat].count(CLUB_QUEEN) < 2:
        return Reason.of("doppelkopf.wedding_needs_both_queens")
    if choice == Reservation.POVERTY:
        if not state.options.armut:
            return Reason.of("doppelkopf.house_rule_off", rule="armut")
        if normal_trumps(deal, seat) > 3:
            return Reason.of("doppelkopf.poverty_too_many_trumps")
    if choice == Reservation.THROW:
        if not state.options.schmeissen:
            return Reason.of("doppelkopf.house_rule_off", rule="schmeissen")
        if nines(deal, seat) < 5:
            return Reason.of("doppelkopf.throw_needs_five_nines")
    return None


def legal_reservations(state: DokoState, seat: int) -> tuple[Reservation, ...]:
    return tuple(r for r in Reservation if reservation_reason(state, seat, r) is None)


def is_compulsory(state: DokoState, seat: int, choice: Reservation) -> bool:
    return choice.is_solo and state.options.pflichtsolo and state.solo_owed[seat]


def _priority(state: DokoState, seat: int, choice: Reservation) -> int:
    if choice == Reservation.THROW:
        return 5
    if choice.is_solo:
        return 4 if is_compulsory(state, seat, choice) else 3
    return {Reservation.POVERTY: 2, Reservation.WEDDING: 1}.get(choice, 0)


def winning_reservation(state: DokoState) -> tuple[int, Reservation] | None:
    deal = state.deal
    assert deal is not None
    best: tuple[int, Reservation] | None = None
    best_priority = 0
    for seat in deal.seats:  # from the dealer's left: the first of equals wins
        choice = deal.declared[seat]
        assert choice is not None
        priority = _priority(state, seat, choice)
        if priority > best_priority:
            best, best_priority = (seat, choice), priority
    return best


def resolve(state: DokoState) -> list[Event]:
    """Events once every seat has declared."""
    deal = state.deal
    assert deal is not None
    reserved = tuple(
        deal.declared[s] not in (None, Reservation.HEALTHY) for s in range(state.players)
    )
    events: list[Event] = [ev.ReservationsShown(reserved)]
    best = winning_reservation(state)
    if best is None:
        return [*events, ev.ContractChosen(Contract.NORMAL, None, False)]
    seat, choice = best
    if choice == Reservation.THROW:
        return [
            *events,
            ev.HandThrown(seat, nines(deal, seat)),
            ev.DealCancelled(deal.number, "doppelkopf.redeal.thrown"),
        ]
    compulsory = is_compulsory(state, seat, choice)
    return [*events, ev.ContractChosen(choice.contract, seat, compulsory)]
