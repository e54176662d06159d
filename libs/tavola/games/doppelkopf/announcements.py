"""Announcements (Re/Kontra) and denials (no 90 … schwarz): deadlines and the reply rule.

A call of level L needs the announcer to hold at least ``12 - L`` cards (11 for Re/Kontra,
10 for no 90 … 7 for schwarz), two fewer without nines, and ``shift`` fewer after a
wedding clarified late. Skipping levels is allowed while the first skipped level is still
legal. A Re/Kontra made late as a reply (at most one card fewer than the opposing party's
last call required) forbids that party's denials. A seat that let its announcements pass
(``wait``, off turn) makes none until the next card or announcement.
"""

from __future__ import annotations

from tavola.games.doppelkopf.model import Call, Party
from tavola.games.doppelkopf.state import Deal, DokoState
from tavola.rules.errors import Reason

CALL_CODES = {
    Call.RE: "re",
    Call.KONTRA: "kontra",
    Call.NO_90: "no 90",
    Call.NO_60: "no 60",
    Call.NO_30: "no 30",
    Call.SCHWARZ: "schwarz",
}


def required_cards(state: DokoState, deal: Deal, level: int) -> int:
    """Cards an announcer must still hold to make a call of ``level`` in time."""
    return 12 - level - (2 if state.options.without_nines else 0) - deal.shift


def call_reason(state: DokoState, seat: int, call: Call) -> Reason | None:
    """None when ``seat`` may make ``call`` now, else why not."""
    deal = state.deal
    if state.phase != "play" or deal is None or seat not in deal.seats:
        return Reason.of("doppelkopf.not_now")
    if deal.wedding_open:
        return Reason.of("doppelkopf.wedding_unclarified")
    if waits(deal, seat):
        return Reason.of("doppelkopf.waiting")
    party = deal.party(seat)
    if call in (Call.RE, Call.KONTRA) and Party(int(call)) != party:
        return Reason.of("doppelkopf.wrong_party", call=CALL_CODES[call])
    own = deal.levels[party]
    if call.level <= own:
        return Reason.of("doppelkopf.already_announced", call=CALL_CODES[call])
    if own >= 1 and deal.replied[party]:
        return Reason.of("doppelkopf.no_denial_after_reply", call=CALL_CODES[call])
    cards = len(deal.hands[seat])
    need = required_cards(state, deal, own + 1)
    if cards >= need or _reply_allowed(state, deal, party, call, cards):
        return None
    return Reason.of("doppelkopf.too_late", call=CALL_CODES[call], cards=need)


def _reply_allowed(state: DokoState, deal: Deal, party: Party, call: Call, cards: int) -> bool:
    opposing = deal.levels[party.other]
    if call.level != 1 or opposing == 0:
        return False
    return cards >= required_cards(state, deal, opposing) - 1


def is_late_reply(state: DokoState, deal: Deal, seat: int, call: Call) -> bool:
    """A legal Re/Kontra that would not have been legal as an ordinary announcement."""
    return call.level == 1 and len(deal.hands[seat]) < required_cards(state, deal, 1)


def waits(deal: Deal, seat: int) -> bool:
    """``seat`` let its announcements pass (``wait``) and is not on turn: no call until the
    next card or announcement."""
    return seat in deal.waiting and deal.turn != seat


def legal_calls(state: DokoState, seat: int) -> tuple[Call, ...]:
    """The calls ``seat`` may make now (the same answer as ``call_reason``, computed fast)."""
    deal = state.deal
    if state.phase != "play" or deal is None or deal.wedding_open or seat not in deal.seats:
        return ()
    if waits(deal, seat):
        return ()
    party = deal.party(seat)
    own = deal.levels[party]
    if own >= 5 or (own >= 1 and deal.replied[party]):
        return ()
    cards = len(deal.hands[seat])
    ordinary = cards >= required_cards(state, deal, own + 1)
    opposing = deal.levels[party.other]
    reply = own == 0 and opposing > 0 and cards >= required_cards(state, deal, opposing) - 1
    calls = [Call(int(party))] if own == 0 and (ordinary or reply) else []
    if ordinary:
        calls += [Call(level) for level in range(max(own + 1, 2), 6)]
    return tuple(calls)


def wait_reason(state: DokoState, seat: int) -> Reason | None:
    """None when ``seat`` may ``wait``: it may announce now but is not on turn."""
    deal = state.deal
    if state.phase == "play" and deal is not None and deal.turn == seat:
        return Reason.of("doppelkopf.wait_on_turn")
    if not legal_calls(state, seat):
        return Reason.of("doppelkopf.not_now")
    return None
