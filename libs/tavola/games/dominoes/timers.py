"""Dominoes turn timers and what the game waits for from a seat.

The one decision is a tile, its end included (``6-4 L`` / ``6-4 R`` when it fits both
ends differently): passing, and in draw mode drawing until a tile fits, are automatic
events, never decisions. The automatic move is the heaviest playable tile
(``Dominoes.automatic_action``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavola.rules.timers import Decision, TurnTimers

if TYPE_CHECKING:
    from tavola.games.dominoes.state import DominoesState

TIMERS = TurnTimers(
    "dominoes", (Decision("tile", 20, "a tile (and its end)", "uma peça (e a ponta)"),)
)
DEFAULT_CLOCK = TIMERS.defaults()  # the timer settings of a table that chose none


def decision(state: DominoesState, seat: int) -> str | None:
    """``tile`` for the seat on turn (it always has a tile that fits); else ``None``."""
    return "tile" if state.phase == "play" and state.turn == seat else None
