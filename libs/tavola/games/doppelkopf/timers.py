"""Doppelkopf turn timers and what the game waits for from a seat.

Four kinds of decision the game waits for: the ``reservation`` (healthy or a Vorbehalt,
all seats at once), an answer to an Armut (``poverty``), each card the Armut partner gives
back (``return``) and the ``card`` of the seat on turn. Announcements are optional: a
seat on turn announces within its card's time (its automatic move plays the card and
announces nothing); a seat that may only announce while another seat is to play is not
waited for, so it has no timer (``decision`` is ``None``; if the platform's bot watchdog
runs out for it anyway, its automatic move is ``wait``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavola.rules.timers import Decision, TurnTimers

if TYPE_CHECKING:
    from tavola.games.doppelkopf.state import DokoState

TIMERS = TurnTimers(
    "doppelkopf",
    (
        Decision(
            "reservation",
            20,
            "declaring healthy or a reservation (Vorbehalt)",
            "declarar «gesund» ou uma reserva (Vorbehalt)",
        ),
        Decision("poverty", 20, "answering an Armut", "responder a uma pobreza (Armut)"),
        Decision("return", 15, "each card given back", "cada carta devolvida"),
        Decision("card", 25, "a card", "uma carta"),
    ),
)
DEFAULT_CLOCK = TIMERS.defaults()  # the timer settings of a table that chose none


def decision(state: DokoState, seat: int) -> str | None:
    """The kind of decision the game waits for from ``seat``, or ``None``."""
    deal = state.deal
    if deal is None:
        return None
    if state.phase == "reservations":
        return "reservation" if seat in deal.seats and deal.declared[seat] is None else None
    if state.phase == "poverty_offer":
        return "poverty" if deal.asked == seat else None
    if state.phase == "poverty_return":
        return "return" if deal.partner == seat else None
    if state.phase == "play":
        return "card" if deal.turn == seat else None
    return None
