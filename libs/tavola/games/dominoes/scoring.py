"""Scoring a hand: pure functions of the tiles left in hand (after OpenSpiel).

* Domino (batida): the side of the player who went out scores the pips left in the
  **opponents'** hands (never the partner's), plus the house-rule bonus for the last tile.
* Blocked (trancado): the side with fewer pips in hand scores the other side's pips. On a
  tie, by ``blocked_tie``: ``blocker_loses`` (the blocker's side loses), ``nobody_scores``,
  or ``lowest_single_hand`` (the side of the single player with the fewest pips wins; if
  that count is shared across the sides, the blocker's side loses).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavola.games.dominoes.events import Bonus, Ending
from tavola.games.dominoes.line import Ends
from tavola.games.dominoes.state import DominoesOptions, side_of
from tavola.rules.tiles import Tile, double_six_set

SIDES = 2


@dataclass(frozen=True, slots=True)
class HandResult:
    ending: Ending
    winner_side: int | None
    winner_seat: int | None
    tied: bool
    side_pips: tuple[int, ...]
    base_points: int
    bonus: Bonus
    bonus_points: int

    @property
    def points(self) -> int:
        return self.base_points + self.bonus_points


def pips_of(hand: Sequence[Tile]) -> int:
    return sum(tile.pips for tile in hand)


_CHUNK = 7  # the set's 28 bits, read 7 at a time
_CHUNK_PIPS = tuple(
    tuple(
        sum(t.pips for i, t in enumerate(double_six_set()[at : at + _CHUNK]) if bits >> i & 1)
        for bits in range(1 << _CHUNK)
    )
    for at in range(0, 28, _CHUNK)
)


def mask_pips(mask: int) -> int:
    """``pips_of`` the tiles of a mask (bit ``tile.index`` per tile), by table."""
    first, second, third, fourth = _CHUNK_PIPS
    return (
        first[mask & 127]
        + second[mask >> 7 & 127]
        + third[mask >> 14 & 127]
        + fourth[mask >> 21 & 127]
    )


def sides_pips(seat_pips: Sequence[int]) -> tuple[int, ...]:
    """Per side (``side_of``: seat % 2), the pips of its seats."""
    return (sum(seat_pips[0::SIDES]), sum(seat_pips[1::SIDES]))


def last_tile_bonus(tile: Tile, ends: Ends) -> Bonus:
    """The kind of domino made by laying ``tile`` last on a line with ``ends``."""
    a, b = ends
    if tile.is_double:
        return Bonus.CRUZADA if a == b == tile.high else Bonus.CARROCA
    if a != b and tile.has(a) and tile.has(b):
        return Bonus.LA_E_LO
    return Bonus.NONE


def score_domino(
    options: DominoesOptions, seat: int, bonus: Bonus, seat_pips: Sequence[int]
) -> HandResult:
    side = side_of(seat)
    totals = sides_pips(seat_pips)
    return HandResult(
        ending=Ending.DOMINO,
        winner_side=side,
        winner_seat=seat,
        tied=False,
        side_pips=totals,
        base_points=totals[1 - side],
        bonus=bonus,
        bonus_points=options.bonus_points(bonus),
    )


def score_blocked(options: DominoesOptions, blocker: int, seat_pips: Sequence[int]) -> HandResult:
    totals = sides_pips(seat_pips)
    tied = totals[0] == totals[1]
    if not tied:
        side: int | None = 0 if totals[0] < totals[1] else 1
    elif options.blocked_tie == "nobody_scores":
        side = None
    elif options.blocked_tie == "lowest_single_hand":
        side = _lowest_single_side(blocker, seat_pips)
    else:
        side = 1 - side_of(blocker)
    return HandResult(
        ending=Ending.BLOCKED,
        winner_side=side,
        winner_seat=None if side is None else blocked_winner(side, blocker, seat_pips),
        tied=tied,
        side_pips=totals,
        base_points=0 if side is None else totals[1 - side],
        bonus=Bonus.NONE,
        bonus_points=0,
    )


def _lowest_single_side(blocker: int, seat_pips: Sequence[int]) -> int:
    lowest = min(seat_pips)
    sides = {side_of(seat) for seat, pips in enumerate(seat_pips) if pips == lowest}
    return sides.pop() if len(sides) == 1 else 1 - side_of(blocker)


def blocked_winner(side: int, blocker: int, seat_pips: Sequence[int]) -> int:
    """The winning player of a blocked hand (who opens next under ``winner_opens``): the
    winning side's player with the fewest pips; ties go to the first such player
    counter-clockwise from the blocker (the blocker included)."""
    n = len(seat_pips)
    if n == SIDES:  # one against one: the side is its one player
        return side
    order = [(blocker - step) % n for step in range(n)]
    members = [seat for seat in order if side_of(seat) == side]
    return min(members, key=lambda seat: seat_pips[seat])
