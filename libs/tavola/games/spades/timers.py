"""Spades turn timers (the rule book's: 30 s a bid, 25 s a card) and what the game waits
for from a seat; the automatic moves are ``bidding.suggested_bid`` and
``views.safe_card_for``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavola.rules.timers import Decision, TurnTimers

if TYPE_CHECKING:
    from tavola.games.spades.state import SpadesState

TIMERS = TurnTimers(
    "spades",
    (
        Decision("bid", 30, "a bid", "um lance"),
        Decision("card", 25, "a card", "uma carta"),
    ),
)
DEFAULT_CLOCK = TIMERS.defaults()  # the timer settings of a table that chose none


def decision(state: SpadesState, seat: int) -> str | None:
    """``bid`` or ``card`` for the seat on turn; ``None`` for any other seat."""
    if state.turn != seat or state.phase not in ("bidding", "play"):
        return None
    return "bid" if state.phase == "bidding" else "card"
