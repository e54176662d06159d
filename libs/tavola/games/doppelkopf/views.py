"""What one seat (or a spectator) may see. Parties are shown only as the rules reveal them:
an announcement marks its maker only; a solo, a wedding (once its partner is known) and an
Armut (once accepted) make every party public; the settlement shows everything."""

from __future__ import annotations

from dataclasses import dataclass

from tavola.games.doppelkopf.model import Contract, Party, Reservation, SeatParty, TrickRecord
from tavola.games.doppelkopf.state import Deal, DokoState
from tavola.games.doppelkopf.trumps import sort_for_display
from tavola.rules.cards import Card, PlayedCard

PLAYING = ("reservations", "poverty_offer", "poverty_return", "play")


@dataclass(frozen=True, slots=True)
class TrickView:
    leader: int
    plays: tuple[PlayedCard, ...]


@dataclass(frozen=True, slots=True)
class DokoView:
    seat: int | None
    phase: str
    players: int
    present: tuple[bool, ...]
    dealer: int
    deal: int
    seats: tuple[int, ...]
    bock: bool
    forced_solo: int | None
    hand: tuple[Card, ...]
    my_party: Party | None
    my_reservation: Reservation | None
    declared: tuple[bool, ...]
    reserved: tuple[bool, ...]
    contract: Contract | None
    declarer: int | None
    compulsory: bool
    partner: int | None
    known_parties: tuple[SeatParty, ...]
    schweinchen: int | None
    card_counts: tuple[int, ...]
    turn: int | None
    trick: TrickView | None
    last_trick: TrickRecord | None
    tricks_won: tuple[int, ...]
    levels: tuple[int, int]
    announcers: tuple[SeatParty, ...]
    totals: tuple[int, ...]
    last_scores: tuple[int, ...]
    bock_pending: int
    bock_left: int
    solo_owed: tuple[bool, ...]
    games: int
    rounds_done: int
    interrupted: bool


def _contract_known(state: DokoState, deal: Deal) -> bool:
    return bool(deal.re)


def _finished(state: DokoState, deal: Deal) -> bool:
    return state.phase not in PLAYING and len(deal.tricks) == state.options.hand_size


def known_parties(state: DokoState, deal: Deal) -> tuple[SeatParty, ...]:
    if not _contract_known(state, deal):
        return ()
    everyone = _finished(state, deal)
    if deal.contract.is_solo or (deal.contract == Contract.WEDDING and deal.alone):
        everyone = True
    if deal.contract in (Contract.WEDDING, Contract.POVERTY) and deal.partner is not None:
        everyone = everyone or state.phase != "poverty_offer"
    known: dict[int, Party] = {a.seat: a.party for a in deal.announcers}
    if deal.declarer is not None and deal.contract != Contract.NORMAL:
        known[deal.declarer] = Party.RE
    if everyone:
        known = {s: deal.party(s) for s in deal.seats}
    return tuple(SeatParty(s, known[s]) for s in sorted(known))


def my_party(state: DokoState, deal: Deal, seat: int) -> Party | None:
    if seat not in deal.seats or not _contract_known(state, deal):
        return None
    if seat != deal.declarer and (deal.wedding_open or state.phase == "poverty_offer"):
        return None
    return deal.party(seat)


def _trick(deal: Deal) -> TrickView | None:
    return TrickView(deal.trick.leader, deal.trick.plays) if deal.trick else None


def make_view(state: DokoState, seat: int | None) -> DokoView:
    deal = state.deal
    n = state.players
    own = seat is not None and deal is not None
    hand = (
        sort_for_display(deal.hands[seat], deal.rules) if own and deal and seat is not None else ()
    )
    won = [0] * n
    for t in deal.tricks if deal else ():
        won[t.winner] += 1
    return DokoView(
        seat=seat,
        phase=state.phase,
        players=n,
        present=state.present,
        dealer=state.dealer,
        deal=deal.number if deal else 0,
        seats=deal.seats if deal else (),
        bock=deal.bock if deal else False,
        forced_solo=deal.forced_solo if deal else None,
        hand=hand,
        my_party=my_party(state, deal, seat) if deal and seat is not None else None,
        my_reservation=deal.declared[seat] if deal and seat is not None else None,
        declared=tuple(d is not None for d in deal.declared) if deal else (),
        reserved=deal.reserved if deal else (),
        contract=deal.contract if deal and deal.re else None,
        declarer=deal.declarer if deal else None,
        compulsory=deal.compulsory if deal else False,
        partner=deal.partner if deal else None,
        known_parties=known_parties(state, deal) if deal else (),
        schweinchen=deal.schweinchen if deal and deal.schweinchen_shown else None,
        card_counts=tuple(len(h) for h in deal.hands) if deal else (0,) * n,
        turn=deal.turn if deal else None,
        trick=_trick(deal) if deal else None,
        last_trick=deal.tricks[-1] if deal and deal.tricks else None,
        tricks_won=tuple(won),
        levels=deal.levels if deal else (0, 0),
        announcers=deal.announcers if deal else (),
        totals=state.totals,
        last_scores=state.last_scores,
        bock_pending=state.bock_pending,
        bock_left=state.bock_left,
        solo_owed=state.solo_owed,
        games=state.games,
        rounds_done=state.rounds_done,
        interrupted=state.interrupted,
    )
