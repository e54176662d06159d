"""Duplicate leagues (Barbu, Spades): every table of a division's round deals the same
cards, and a seat is scored against the same seat at the division's other tables.

- **Barbu**: seat ``s`` (0 to 3) at a table is compared with seat ``s`` at every other
  table of the division's round, by the seat's session score.
- **Spades**: the two sides, N/S (seats 0 and 2) and E/W (seats 1 and 3), are ranked apart:
  a table's N/S side is compared with the N/S side of every other table, by its score.

Each comparison gives **2 matchpoints** for a score beaten, **1** for a tie and 0 for a loss
(bridge's matchpointing), so with ``T`` tables a seat earns 0 to ``2 (T - 1)``; its
*percentage* is the matchpoints over that top (a round of a single table compares nothing
and counts for no percentage). Seats the platform's bots played are compared like any
other (they held the cards); only the seats' entrants earn. The deals are shared because
the tables of a round and division form one *deal group* (``deal_group``): one seed, no
client seeds. Nothing here does I/O.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from tavola.leagues.events import ResultLine

WIN = 2
TIE = 1
FIXED_LENGTH = {"spades": "hands"}
"""The table option that must fix a match's length (> 0) in a duplicate league, so every
table plays the same deals (Spades plays to a target score otherwise); a Barbu session is
always its 28 deals."""


def deal_group(league_id: str, season: int, round_: int, division: int) -> str:
    """The deal group of a duplicate round's tables in one division (its index)."""
    return f"league/{league_id}/{season}/{round_}/{division}"


def matchpoints(scores: Sequence[int]) -> tuple[int, ...]:
    """Each score's matchpoints against all the others: 2 per score beaten, 1 per tie."""
    return tuple(
        sum(
            WIN if mine > other else TIE if mine == other else 0
            for j, other in enumerate(scores)
            if j != i
        )
        for i, mine in enumerate(scores)
    )


def direction(sides: bool, seat: int) -> int:
    """What a seat is compared as: its side (Spades: 0 N/S, 1 E/W) or the seat itself."""
    return seat % 2 if sides else seat


@dataclass(frozen=True, slots=True)
class Award:
    """What one seat (or side) of one table earned in a round."""

    match_id: str
    direction: int
    score: int
    matchpoints: int
    top: int  # the most it could have earned: 2 (T - 1)

    @property
    def percent(self) -> Fraction:
        return Fraction(100 * self.matchpoints, self.top) if self.top else Fraction(0)


def awards(tables: Mapping[str, Sequence[ResultLine]], sides: bool) -> list[Award]:
    """The awards of a division's round from its tables' result lines (by match id)."""
    scores: dict[int, list[tuple[str, int]]] = {}
    for match_id, lines in sorted(tables.items()):
        seen: set[int] = set()
        for line in sorted(lines, key=lambda line: line.seat):
            where = direction(sides, line.seat)
            if where not in seen:  # a side's score: its first seat's (both hold it)
                seen.add(where)
                scores.setdefault(where, []).append((match_id, line.score))
    out = []
    for where, entries in sorted(scores.items()):
        earned = matchpoints([score for _, score in entries])
        top = WIN * (len(entries) - 1)
        out += [
            Award(match_id, where, score, points, top)
            for (match_id, score), points in zip(entries, earned, strict=True)
        ]
    return out


def bye_award(top: int) -> Fraction:
    """A bye in a duplicate round earns the average: half the top."""
    return Fraction(top, 2)
