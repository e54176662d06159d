"""A match's result as a league records it: one line per seat, from the match's events.

This is the one place a match's events are folded into its result for the league
(``ResultRecorded``) — a referee's correction in the match stream (void a game or a hand,
adjust a score; ``tavola.match.corrections``) is folded here too (``standings``, the
corrected result; a voided match has no lines: it counts for nothing), and recorded again
with the next revision.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavola.games.dominoes import events as dominoes
from tavola.games.fantan import events as fantan
from tavola.leagues.events import ResultLine
from tavola.match.events import MatchCreated, MatchEnded
from tavola.rules.interface import Event, SeatScore

HAND_SCORED = {
    "fan-tan": "HandScored",
    "barbu": "DealScored",
    "doppelkopf": "GameScored",
    "spades": "HandScored",
    "dominoes": "HandScored",
}


def ended_of(events: Sequence[Event]) -> MatchEnded | None:
    return next((e for e in reversed(events) if isinstance(e, MatchEnded)), None)


def hands(game: str, seats: int, events: Sequence[Event]) -> tuple[int, list[int]]:
    """Hands played, and hands won per seat (Fan Tan: went out first; dominoes: the
    seat's side won the hand)."""
    name = HAND_SCORED.get(game, "")
    played = 0
    won = [0] * seats
    for event in events:
        if type(event).__name__ == name:
            played += 1
        if game == "fan-tan" and isinstance(event, fantan.HandWon):
            won[event.seat] += 1
        elif game == "dominoes" and isinstance(event, dominoes.HandScored):
            for seat in range(seats):
                won[seat] += event.winner_side is not None and seat % 2 == event.winner_side
    return played, won


def summarise(
    created: MatchCreated,
    events: Sequence[Event],
    standings: Sequence[SeatScore] | None = None,
    voided: bool = False,
) -> tuple[ResultLine, ...]:
    """The result lines of a finished match (``events``: the whole stream, decoded;
    ``standings``: its corrected result, if corrected; ``voided``: no lines)."""
    ended = ended_of(events)
    if ended is None:
        raise ValueError(f"match {created.match_id} has not ended")
    if voided:
        return ()
    played, won = hands(created.game, len(created.seats), events)
    lines = []
    for score in sorted(ended.standings if standings is None else standings, key=lambda s: s.seat):
        seat = created.seats[score.seat]
        lines.append(
            ResultLine(
                seat=score.seat,
                account_id="" if seat.bot_level else seat.account_id,
                score=score.score,
                rank=score.rank,
                hands_won=won[score.seat],
                hands_played=played,
            )
        )
    return tuple(lines)
