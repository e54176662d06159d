"""The line of play: tiles in order from the left end to the right end, and its two ends.

The opening tile is laid high number on the left (``6-4`` gives ends 6 and 4). A tile
added on the left shows its other number on the left; on the right, likewise. Doubles are
laid like any other tile (no spinner).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from tavola.rules.tiles import Tile, double_six_set

Ends = tuple[int, int]


class End(IntEnum):
    """An end of the line; the action code letter is ``L`` or ``R``."""

    LEFT = 0
    RIGHT = 1

    @property
    def letter(self) -> str:
        return "L" if self is End.LEFT else "R"


@dataclass(frozen=True, slots=True)
class PlacedTile:
    """A tile on the line, oriented: ``left`` faces the left end, ``right`` the right."""

    tile: Tile
    left: int
    right: int


def fits(tile: Tile, ends: Ends | None) -> bool:
    """Whether a tile can be laid now (anything opens an empty line)."""
    if ends is None:
        return True
    a, b = ends
    return tile.high in (a, b) or tile.low in (a, b)


def has_choice(tile: Tile, ends: Ends | None) -> bool:
    """Whether the tile fits both ends with different results (the player picks one).

    That happens only when the ends differ and the tile shows both numbers; with equal
    ends the two placements give the same position, so there is a single placement.
    """
    if ends is None:
        return False
    a, b = ends
    return a != b and tile.has(a) and tile.has(b)


def placements(tile: Tile, ends: Ends | None) -> tuple[End | None, ...]:
    """The ``end`` values of the legal plays of ``tile``: ``(None,)`` for a single
    placement, ``(LEFT, RIGHT)`` for a choice, ``()`` when it does not fit."""
    if not fits(tile, ends):
        return ()
    if has_choice(tile, ends):
        return (End.LEFT, End.RIGHT)
    return (None,)


def resolve_end(tile: Tile, ends: Ends, end: End | None) -> End:
    """Where a play goes: the chosen end, else the one it fits (the right end when both
    ends show the same number)."""
    if end is not None:
        return end
    return End.RIGHT if tile.has(ends[1]) else End.LEFT


_ORIENTED = {
    (t.high, t.low, left): PlacedTile(t, left, t.high + t.low - left)
    for t in double_six_set()
    for left in {t.high, t.low}
}
"""Every tile of the set laid either way round, by (high, low, left): a placed tile is a
value, so the line shares these instead of building one per play."""


def place(
    line: tuple[PlacedTile, ...], ends: Ends | None, tile: Tile, end: End | None
) -> tuple[tuple[PlacedTile, ...], Ends]:
    """The line and ends after laying ``tile`` (``end`` as resolved by :func:`resolve_end`)."""
    high, low = tile.high, tile.low
    if ends is None:
        return (_ORIENTED[high, low, high],), (high, low)
    if end is End.LEFT:
        other = tile.other_end(ends[0])
        return (_ORIENTED[high, low, other], *line), (other, ends[1])
    right = ends[1]
    other = tile.other_end(right)
    return (*line, _ORIENTED[high, low, right]), (ends[0], other)
