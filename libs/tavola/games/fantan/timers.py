"""Fan Tan turn timers and what the game waits for from a seat.

The only decision is a card: a seat that cannot play passes automatically (an explicit
``Passed`` event), so a pass is never a decision and has no timer. The automatic move is
the card that opens least for others (``FanTan.automatic_action``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavola.rules.timers import Decision, TurnTimers

if TYPE_CHECKING:
    from tavola.games.fantan.state import FanTanState

TIMERS = TurnTimers("fantan", (Decision("card", 20, "a card", "uma carta"),))
DEFAULT_CLOCK = TIMERS.defaults()  # the timer settings of a table that chose none


def decision(state: FanTanState, seat: int) -> str | None:
    """``card`` for the seat on turn (it always has a card to play); else ``None``."""
    return "card" if state.phase == "play" and state.turn == seat else None
