"""Scenario helpers for the Doppelkopf tests (exposed through the ``doko`` fixture)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import pytest

from tavola.games.doppelkopf import GAME
from tavola.games.doppelkopf import events as ev
from tavola.games.doppelkopf.match import active_seats
from tavola.games.doppelkopf.state import DokoState
from tavola.rules.cards import cards
from tavola.rules.interface import Event

# A complete 48-card deal (dealer 3; seat 0 leads). Seat 0 holds both ♣Q only in WEDDING.
NORMAL_DEAL = (
    "QC TH JC AD KD 9D AC TC KC AS 9H KH",  # seat 0: Re (♣Q)
    "QC QS JS TD 9D AC 9C TS KS AH KH 9S",  # seat 1: Re (♣Q)
    "TH QS QH JH AD KD TC 9C AS TS AH 9H",  # seat 2: Kontra
    "QH QD QD JC JS JH JD JD TD KC KS 9S",  # seat 3: Kontra
)
WEDDING_DEAL = (
    "QC QC TH JC AD KD 9D AC TC KC AS 9H",
    "KH QS JS TD 9D AC 9C TS KS AH KH 9S",
    "TH QS QH JH AD KD TC 9C AS TS AH 9H",
    "QH QD QD JC JS JH JD JD TD KC KS 9S",
)


@dataclass
class Doko:
    game: Any = GAME
    NORMAL: tuple[str, ...] = NORMAL_DEAL
    WEDDING: tuple[str, ...] = WEDDING_DEAL

    def start(
        self,
        hands: Iterable[str] = NORMAL_DEAL,
        dealer: int = 3,
        options: dict[str, Any] | None = None,
        players: int = 4,
        bock: bool = False,
        forced: int | None = None,
        state: DokoState | None = None,
    ) -> DokoState:
        """A state right after a deal of the given hands (listed for the active seats in
        seat order)."""
        if state is None:
            state = GAME.initial_state(players, options or {})
            state = GAME.evolve(state, ev.DealerDrawn(dealer))
        seats = active_seats(state.present, dealer)
        number = state.deals + 1
        events: list[Event] = [ev.GameStarted(number, dealer, seats, bock, forced)]
        for seat, text in zip(sorted(seats), hands, strict=True):
            events.append(ev.HandDealt(number, seat, cards(text)))
        return GAME.fold(state, events)

    def act(self, state: DokoState, seat: int, code: str) -> DokoState:
        return GAME.fold(state, GAME.decide(state, seat, GAME.decode_action(code)))

    def events(self, state: DokoState, seat: int, code: str) -> list[Event]:
        return GAME.decide(state, seat, GAME.decode_action(code))

    def declare(self, state: DokoState, **by_seat: str) -> DokoState:
        """Declarations keyed ``s0``…``s4``; everyone else in the game says healthy."""
        assert state.deal is not None
        for seat in state.deal.seats:
            state = self.act(state, seat, by_seat.get(f"s{seat}", "healthy"))
        return state

    def healthy(self, state: DokoState) -> DokoState:
        return self.declare(state)

    def play(self, state: DokoState, codes: str) -> DokoState:
        """Play cards in turn order (whoever is on turn)."""
        for code in codes.split():
            assert state.deal is not None and state.deal.turn is not None
            state = self.act(state, state.deal.turn, code)
        return state

    def normal_game(self, **options: Any) -> DokoState:
        return self.healthy(self.start(options=options))


@pytest.fixture
def doko() -> Doko:
    return Doko()


def finish(state: DokoState) -> DokoState:
    """Play the rest of the game with the automatic (cheapest legal) card."""
    return finish_scored(state)[0]


def finish_scored(state: DokoState) -> tuple[DokoState, Event | None]:
    """``finish``, also returning the game's ``GameScored`` event (None if none came)."""
    events: list[Event] = []
    while state.phase == "play":
        assert state.deal is not None and state.deal.turn is not None
        action, _ = GAME.automatic_action(state, state.deal.turn)
        events = GAME.decide(state, state.deal.turn, action)
        state = GAME.fold(state, events)
    return state, next((e for e in events if isinstance(e, ev.GameScored)), None)


Doko.finish = staticmethod(finish)  # type: ignore[attr-defined]
Doko.finish_scored = staticmethod(finish_scored)  # type: ignore[attr-defined]


def tricks(state: DokoState, count: int) -> DokoState:
    """Play ``count`` whole tricks with automatic cards."""
    assert state.deal is not None
    target = len(state.deal.tricks) + count
    while state.deal is not None and len(state.deal.tricks) < target:
        seat = state.deal.turn
        assert seat is not None
        action, _ = GAME.automatic_action(state, seat)
        state = GAME.fold(state, GAME.decide(state, seat, action))
    return state


Doko.tricks = staticmethod(tricks)  # type: ignore[attr-defined]
