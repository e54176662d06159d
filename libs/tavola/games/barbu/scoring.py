"""The end of a deal: raw scores, the pairwise settlement of doubles, running totals."""

from __future__ import annotations

from tavola.games.barbu.contracts import DOMINO_PLACE_POINTS, Contract
from tavola.games.barbu.doubling import settle
from tavola.games.barbu.events import DealScored, SessionEnded
from tavola.games.barbu.state import SEATS, BarbuState
from tavola.rules.interface import Event


def raw_scores(state: BarbuState) -> tuple[int, ...]:
    """The contract's raw points; in Domino the seat left holding cards finishes last."""
    raw = list(state.points)
    if state.contract == Contract.DOMINO:
        for seat in range(SEATS):
            if seat not in state.finished:
                raw[seat] += DOMINO_PLACE_POINTS[len(state.finished)]
    return tuple(raw)


def score_deal(state: BarbuState) -> list[Event]:
    assert state.contract is not None
    raw = raw_scores(state)
    settlements, transfers = settle(raw, state.doubles)
    adjusted = tuple(r + t for r, t in zip(raw, transfers, strict=True))
    totals = tuple(t + a for t, a in zip(state.totals, adjusted, strict=True))
    events: list[Event] = [
        DealScored(state.deal, state.contract, raw, settlements, transfers, adjusted, totals)
    ]
    if state.deal >= state.options.deals:
        best = max(totals)
        events.append(SessionEnded(totals, tuple(s for s in range(SEATS) if totals[s] == best)))
    return events
