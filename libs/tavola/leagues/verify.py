"""Re-deriving a round's seating from its revealed seed (anyone can, from the stream).

``verify_round`` folds the league's events up to the round's first ``RoundSeated``,
checks ``SHA-256(seed) == commitment`` and that ``decide.seat_round`` on that state and
seed gives exactly the recorded seating of every division.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.leagues.decide import seat_round
from tavola.leagues.events import RoundEnded, RoundScheduled, RoundSeated
from tavola.leagues.state import LeagueState, evolve
from tavola.rules import fairness
from tavola.rules.interface import Event


class SeatingMismatch(Exception):
    pass


def verify_round(events: Sequence[Event], season: int, number: int) -> int:
    """Raise ``SeatingMismatch`` unless the round's seating re-derives; returns the number
    of divisions checked."""
    state: LeagueState | None = None
    before: LeagueState | None = None
    recorded: list[RoundSeated] = []
    commitment = seed_hex = ""
    for event in events:
        if isinstance(event, RoundScheduled) and (event.season, event.round) == (season, number):
            commitment = event.seed_commitment
        if isinstance(event, RoundSeated) and (event.season, event.round) == (season, number):
            if before is None:
                before = state
            recorded.append(event)
        if isinstance(event, RoundEnded) and (event.season, event.round) == (season, number):
            seed_hex = event.seed_hex
        state = evolve(state, event)
    if before is None or not seed_hex:
        raise SeatingMismatch(f"round {season}/{number} is not seated and ended")
    seed = bytes.fromhex(seed_hex)
    if fairness.commitment(seed) != commitment:
        raise SeatingMismatch("the revealed seed does not match its commitment")
    derived = seat_round(before, number, seed)
    if derived != recorded:
        raise SeatingMismatch(f"round {season}/{number}: the seating does not re-derive")
    return len(derived)
