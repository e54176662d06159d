"""The match around the games: who plays, the dealer rotation, Bock rounds, Pflichtsolo and
when the match ends."""

from __future__ import annotations

from tavola.games.doppelkopf.model import Party
from tavola.games.doppelkopf.scoring import Settlement
from tavola.games.doppelkopf.state import Deal, DokoState, changed
from tavola.rules.cards import Suit


def active_seats(present: tuple[bool, ...], dealer: int) -> tuple[int, ...]:
    """The four players from the dealer's left; with five at the table the dealer sits out."""
    n = len(present)
    order = [(dealer + k) % n for k in range(1, n + 1)]
    seats = [s for s in order if present[s]]
    if len(seats) > 4:
        seats = [s for s in seats if s != dealer]
    return tuple(seats[:4])


def next_dealer(present: tuple[bool, ...], dealer: int) -> int:
    n = len(present)
    for k in range(1, n + 1):
        seat = (dealer + k) % n
        if present[seat]:
            return seat
    return dealer


def forced_solo(state: DokoState, seats: tuple[int, ...]) -> int | None:
    """Pflichtsolo: in the last round, a seat that still owes its solo must play it in the
    game in which it leads first (it sits at the dealer's left)."""
    opts = state.options
    if not opts.pflichtsolo or not opts.rounds or state.rounds_done != opts.rounds - 1:
        return None
    lead = seats[0]
    return lead if state.solo_owed[lead] else None


def bock_due(state: DokoState) -> bool:
    return state.bock_left > 0 or state.bock_pending > 0


def start_bock(state: DokoState, bock: bool) -> DokoState:
    if bock and state.bock_left == 0 and state.bock_pending > 0:
        return changed(state, bock_left=sum(state.present), bock_pending=state.bock_pending - 1)
    return state


def game_ended(state: DokoState, advance: bool, bock: bool) -> DokoState:
    """Book-keeping after a game was scored or abandoned: dealer, rounds, Bock.

    A Bock round is a full round (everyone deals once): a game after which the same dealer
    deals again (``advance`` false: a compulsory solo) does not use up one of its deals."""
    counts = bock and advance and state.bock_left > 0
    bock_left = state.bock_left - 1 if counts else state.bock_left
    state = changed(state, games=state.games + 1, bock_left=bock_left, phase="deal")
    if not advance:
        return state
    dealer = next_dealer(state.present, state.dealer)
    deals_in_round, rounds_done = state.deals_in_round + 1, state.rounds_done
    if deals_in_round >= sum(state.present):
        deals_in_round, rounds_done = 0, rounds_done + 1
    return changed(state, dealer=dealer, deals_in_round=deals_in_round, rounds_done=rounds_done)


def too_few(state: DokoState) -> bool:
    return sum(state.present) < 4


def match_over(state: DokoState) -> bool:
    opts = state.options
    if opts.single_game:
        return state.games >= 1 or too_few(state)
    if too_few(state):
        return True
    if opts.rounds:
        return state.rounds_done >= opts.rounds
    return state.target_reached and state.deals_in_round == 0


def bock_reasons(state: DokoState, deal: Deal, settlement: Settlement) -> tuple[str, ...]:
    """Why this game earns a Bock round (empty: it does not)."""
    if not state.options.bockrunde:
        return ()
    reasons = []
    rules = deal.rules
    if any(
        all(p.card.suit == Suit.HEARTS and not rules.is_trump(p.card) for p in t.plays)
        for t in deal.tricks
    ):
        reasons.append("doppelkopf.bock.heart_trick")
    if settlement.tally.points == (120, 120):
        reasons.append("doppelkopf.bock.tie")
    winner = settlement.winner
    if winner is not None and deal.levels[Party(winner).other] >= 1:
        reasons.append("doppelkopf.bock.lost_announcement")
    return tuple(reasons)
