"""Barbu turn timers and what the game waits for from a seat.

Four kinds of decision: the declarer's ``contract`` (with its trump suit or starting rank;
the biggest decision of a deal), each seat's one ``double`` turn (the declarer's turn is
its redoubles), a ``card`` in a trick contract, and a ``domino`` card in the Domino
contract. A declarer nobody doubled and a Domino seat with nothing to play pass
automatically: those are never decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tavola.games.barbu.contracts import Contract
from tavola.rules.timers import Decision, TurnTimers

if TYPE_CHECKING:
    from tavola.games.barbu.state import BarbuState

TIMERS = TurnTimers(
    "barbu",
    (
        Decision("contract", 45, "choosing a contract", "escolher um contrato"),
        Decision("double", 20, "a doubling turn", "a vez de dobrar"),
        Decision("card", 25, "a card", "uma carta"),
        Decision("domino", 20, "a card in the Domino", "uma carta no Dominó"),
    ),
)
DEFAULT_CLOCK = TIMERS.defaults()  # the timer settings of a table that chose none


def decision(state: BarbuState, seat: int) -> str | None:
    """The kind of the seat's decision when it is on turn; ``None`` otherwise."""
    if state.turn != seat:
        return None
    if state.phase == "contract":
        return "contract"
    if state.phase == "doubling":
        return "double"
    if state.phase == "play":
        return "domino" if state.contract == Contract.DOMINO else "card"
    return None
